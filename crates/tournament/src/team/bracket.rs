//! The pairing of one bracket by lexicographic enumeration (C.04.6 Art. 3.6 as reconstructed):
//! the members in pairing-number order, the lowest-numbered member still unpaired meets the
//! lowest-numbered member it may meet; of all pairings, the first in that order among the
//! best by the criteria.
//!
//! The criteria, highest first: the absolute ones (no second meeting, no forbidden pair, and
//! the rest of the round stays pairable), then the most pairs in the bracket (members left
//! over float down), then the fewest pairs of two teams preferring the same colour (C8), then
//! the fewest pairs of two teams strongly preferring the same colour (C9, Type B).
//!
//! How: enumerating pairings is exponential, so the enumeration is not run blind. The best
//! value any completion can reach is one maximum-weight matching ([`crate::matching`]) of the
//! teams still to pair, the criteria packed into the edge weights, highest priority in the
//! highest digits. The choices are then fixed in the order of the enumeration (the lowest
//! member still open with its lowest partner, leaving it over last), each kept when the
//! matching says the best value is still reachable. The first choice kept at each step is the
//! enumeration's, so the result is the lexicographically first of the best pairings, found
//! without backtracking in O(n²) matchings.

use crate::matching::maximum_weight_matching;

/// What the bracket search needs to know about the teams still to pair this round.
pub(crate) struct Field {
    /// `allowed[i][j]`: teams `i` and `j` (positions by pairing number) may meet.
    pub allowed: Vec<Vec<bool>>,
    /// `clash[i][j]`: (C8 violations, C9 violations) if `i` meets `j`.
    pub clash: Vec<Vec<(u8, u8)>>,
}

/// The value of a (partial) bracket pairing: more pairs, then fewer C8, then fewer C9.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Value {
    pairs: i64,
    c8: i64,
    c9: i64,
}

impl Value {
    fn add(self, other: Value) -> Value {
        Value { pairs: self.pairs + other.pairs, c8: self.c8 + other.c8, c9: self.c9 + other.c9 }
    }
}

impl Field {
    /// Whether `teams` can all be paired under the absolute criteria.
    pub fn pairable(&self, teams: &[usize]) -> bool {
        self.best(teams, &[]).is_some()
    }

    /// The best value the pairs among `members` can reach in a pairing of all of `members`
    /// and `others` together, or `None` if they cannot all be paired.
    fn best(&self, members: &[usize], others: &[usize]) -> Option<Value> {
        let teams: Vec<usize> = members.iter().chain(others).copied().collect();
        let n = teams.len();
        if n % 2 == 1 {
            return None;
        }
        // Digits of base m + 1: a pair at all, above a pair inside the bracket, above its C8,
        // above its C9. Sums of the lower digits never reach the next one (at most n/2 each).
        let m = n as i64 + 1;
        let (card, inside, c8_unit) = (m * m * m, m * m, m);
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let (i, j) = (teams[a], teams[b]);
                if !self.allowed[i][j] {
                    continue;
                }
                let mut w = card;
                if a < members.len() && b < members.len() {
                    let (c8, c9) = self.clash[i][j];
                    w += inside - c8_unit * i64::from(c8) - i64::from(c9);
                }
                edges.push((a, b, w));
            }
        }
        let mates = maximum_weight_matching(n, &edges);
        let mut value = Value { pairs: 0, c8: 0, c9: 0 };
        for (a, mate) in mates.iter().enumerate() {
            let b = (*mate)?;
            if a < b && b < members.len() {
                let (c8, c9) = self.clash[teams[a]][teams[b]];
                value = value.add(Value { pairs: 1, c8: c8.into(), c9: c9.into() });
            }
        }
        Some(value)
    }
}

/// One bracket to pair: its members by pairing number, and the teams outside it still to pair
/// in this round (which the rest of the round must be able to pair).
pub(crate) struct Bracket<'a> {
    pub field: &'a Field,
    pub members: Vec<usize>,
    pub outside: Vec<usize>,
    /// Whether members may be left over (false in the last bracket).
    pub may_float: bool,
}

impl Bracket<'_> {
    /// The bracket's pairs (positions, lower pairing number first), best by the criteria and
    /// first in lexicographic order among the best; `None` if no pairing keeps the absolute
    /// criteria, or, with `full`, none pairs every member.
    pub fn pair(&self, full: bool) -> Option<Vec<(usize, usize)>> {
        let closed = full || !self.may_float;
        // With every member paired, the rest must be pairable by itself.
        if closed && !self.field.pairable(&self.outside) {
            return None;
        }
        let outside: &[usize] = if closed { &[] } else { &self.outside };
        let mut open = self.members.clone();
        let mut floated: Vec<usize> = Vec::new();
        let best = |open: &[usize], floated: &[usize]| {
            let others: Vec<usize> = outside.iter().chain(floated).copied().collect();
            self.field.best(open, &others)
        };
        let target = best(&open, &floated)?;
        if closed && 2 * target.pairs as usize != open.len() {
            return None;
        }
        let mut pairs = Vec::new();
        let mut so_far = Value { pairs: 0, c8: 0, c9: 0 };
        while let Some(&first) = open.first() {
            open.remove(0);
            let mut kept = false;
            for k in 0..open.len() {
                let second = open[k];
                if !self.field.allowed[first][second] {
                    continue;
                }
                let (c8, c9) = self.field.clash[first][second];
                let with = so_far.add(Value { pairs: 1, c8: c8.into(), c9: c9.into() });
                let mut rest = open.clone();
                rest.remove(k);
                if best(&rest, &floated).map(|v| with.add(v)) == Some(target) {
                    pairs.push((first, second));
                    so_far = with;
                    open = rest;
                    kept = true;
                    break;
                }
            }
            if !kept {
                // Left over: it floats down. The target was reachable before this step and
                // no partner reaches it, so floating does.
                floated.push(first);
            }
        }
        Some(pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field of `n` teams where the pairs of `allowed` may meet and those of `clash` both
    /// prefer the same colour (strongly).
    fn field(n: usize, allowed: &[(usize, usize)], clash: &[(usize, usize)]) -> Field {
        let mut f = Field { allowed: vec![vec![false; n]; n], clash: vec![vec![(0, 0); n]; n] };
        for &(a, b) in allowed {
            f.allowed[a][b] = true;
            f.allowed[b][a] = true;
        }
        for &(a, b) in clash {
            f.clash[a][b] = (1, 1);
            f.clash[b][a] = (1, 1);
        }
        f
    }

    const ALL_OF_FOUR: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

    fn bracket<'a>(field: &'a Field, members: &[usize], outside: &[usize]) -> Bracket<'a> {
        Bracket { field, members: members.to_vec(), outside: outside.to_vec(), may_float: true }
    }

    #[test]
    fn art_3_6_the_first_pairing_in_lexicographic_order() {
        let f = field(4, &ALL_OF_FOUR, &[]);
        assert_eq!(bracket(&f, &[0, 1, 2, 3], &[]).pair(false), Some(vec![(0, 1), (2, 3)]));
        // 0 and 1 have met: 0 takes the next number, 2.
        let f = field(4, &ALL_OF_FOUR[1..], &[]);
        assert_eq!(bracket(&f, &[0, 1, 2, 3], &[]).pair(false), Some(vec![(0, 2), (1, 3)]));
    }

    #[test]
    fn c8_before_the_lexicographic_order_and_most_pairs_before_c8() {
        // 0 and 1 prefer the same colour: 0-2 1-3 has no such pair and wins over 0-1 2-3.
        let f = field(4, &ALL_OF_FOUR, &[(0, 1)]);
        assert_eq!(bracket(&f, &[0, 1, 2, 3], &[]).pair(false), Some(vec![(0, 2), (1, 3)]));
        // With 0-1 and 2-3 the only pairs that may meet, two pairs beat no clash.
        let f = field(4, &[(0, 1), (2, 3)], &[(0, 1)]);
        assert_eq!(bracket(&f, &[0, 1, 2, 3], &[]).pair(false), Some(vec![(0, 1), (2, 3)]));
    }

    #[test]
    fn members_float_when_the_rest_would_be_unpairable() {
        // Bracket {0, 1}, below it {2, 3}, who have met: 0-1 would strand them, so both float.
        let f = field(4, &[(0, 1), (0, 2), (1, 3)], &[]);
        assert_eq!(bracket(&f, &[0, 1], &[2, 3]).pair(false), Some(vec![]));
        // An odd bracket {0, 1, 2}: one pair, the last member floats to meet 3.
        let f = field(4, &ALL_OF_FOUR, &[]);
        assert_eq!(bracket(&f, &[0, 1, 2], &[3]).pair(false), Some(vec![(0, 1)]));
        // Asked to pair every member, a bracket that cannot is refused.
        let f = field(4, &[(0, 2), (1, 3)], &[]);
        assert_eq!(bracket(&f, &[0, 1], &[2, 3]).pair(true), None);
    }

    /// Every pairing of the bracket in the enumeration's order (the lowest open member with
    /// each partner in turn, left over last), the first best kept: the definition, by brute
    /// force.
    fn enumerate(
        f: &Field,
        open: &[usize],
        outside: &[usize],
        may_float: bool,
    ) -> Option<Vec<(usize, usize)>> {
        fn perfect(f: &Field, teams: &[usize]) -> bool {
            let Some((&a, rest)) = teams.split_first() else { return true };
            rest.iter().enumerate().any(|(i, &b)| {
                f.allowed[a][b] && {
                    let mut left = rest.to_vec();
                    left.remove(i);
                    perfect(f, &left)
                }
            })
        }
        type Best = Option<((i64, i64, i64), Vec<(usize, usize)>)>;
        fn walk(
            f: &Field,
            open: &[usize],
            floated: &mut Vec<usize>,
            pairs: &mut Vec<(usize, usize)>,
            outside: &[usize],
            may_float: bool,
            best: &mut Best,
        ) {
            let Some((&first, rest)) = open.split_first() else {
                let mut left: Vec<usize> = outside.to_vec();
                left.extend(floated.iter());
                if perfect(f, &left) {
                    let c8 = pairs.iter().map(|&(a, b)| i64::from(f.clash[a][b].0)).sum::<i64>();
                    let c9 = pairs.iter().map(|&(a, b)| i64::from(f.clash[a][b].1)).sum::<i64>();
                    let key = (-(pairs.len() as i64), c8, c9);
                    if best.as_ref().is_none_or(|(k, _)| key < *k) {
                        *best = Some((key, pairs.clone()));
                    }
                }
                return;
            };
            for (i, &second) in rest.iter().enumerate() {
                if f.allowed[first][second] {
                    let mut left = rest.to_vec();
                    left.remove(i);
                    pairs.push((first, second));
                    walk(f, &left, floated, pairs, outside, may_float, best);
                    pairs.pop();
                }
            }
            if may_float {
                floated.push(first);
                walk(f, rest, floated, pairs, outside, may_float, best);
                floated.pop();
            }
        }
        let mut best = None;
        walk(f, open, &mut Vec::new(), &mut Vec::new(), outside, may_float, &mut best);
        best.map(|(_, pairs)| pairs)
    }

    proptest::proptest! {
        #[test]
        fn the_matching_finds_what_enumeration_finds(
            members in 1usize..8,
            outside in 0usize..5,
            bits in proptest::collection::vec(0u8..8, 144),
        ) {
            let n = members + outside;
            let mut f = field(n, &[], &[]);
            let mut bit = bits.iter().cycle();
            for a in 0..n {
                for b in a + 1..n {
                    let (allowed, clash) = (*bit.next().unwrap() < 6, *bit.next().unwrap());
                    f.allowed[a][b] = allowed;
                    f.allowed[b][a] = allowed;
                    let c = match clash { 0 | 1 => (1, 1), 2 => (1, 0), _ => (0, 0) };
                    f.clash[a][b] = c;
                    f.clash[b][a] = c;
                }
            }
            let m: Vec<usize> = (0..members).collect();
            let o: Vec<usize> = (members..n).collect();
            let may_float = outside > 0;
            let b = Bracket { field: &f, members: m.clone(), outside: o.clone(), may_float };
            proptest::prop_assert_eq!(b.pair(false), enumerate(&f, &m, &o, may_float));
        }
    }
}
