//! The pairing of one bracket by lexicographic enumeration (C.04.6 Art. 3.6 as reconstructed):
//! the members in pairing-number order, the lowest-numbered member still unpaired meets the
//! lowest-numbered member it may meet, with backtracking; of all pairings the first in that
//! order among the best by the criteria.
//!
//! The criteria, highest first: the absolute ones (no second meeting, no forbidden pair, and
//! the rest of the round stays pairable), then the most pairs in the bracket (members left
//! over float down), then the fewest pairs of two teams preferring the same colour (C8), then
//! the fewest pairs of two teams strongly preferring the same colour (C9, Type B).
//!
//! Enumeration is exponential in the worst case, so each bracket has a budget of searched
//! nodes ([`NODE_BUDGET`]). When it runs out, the bracket is paired greedily in the same order
//! under the absolute criteria only, which always succeeds because every choice keeps the rest
//! of the round pairable. No round of the crate's tests comes near the budget.

use crate::matching::maximum_weight_matching;

/// The nodes one bracket's search may visit before it falls back to the greedy pairing.
pub const NODE_BUDGET: usize = 20_000;

/// What the bracket search needs to know about the teams still to pair this round.
pub(crate) struct Field {
    /// `allowed[i][j]`: teams `i` and `j` (positions by pairing number) may meet.
    pub allowed: Vec<Vec<bool>>,
    /// `clash[i][j]`: (C8 violations, C9 violations) if `i` meets `j`.
    pub clash: Vec<Vec<(u8, u8)>>,
    /// Whether C9 counts (Type B).
    pub strong_matters: bool,
}

impl Field {
    /// Whether `teams` can all be paired under the absolute criteria.
    pub fn pairable(&self, teams: &[usize]) -> bool {
        teams.len().is_multiple_of(2) && 2 * self.max_pairs(teams) == teams.len()
    }

    /// The most pairs `teams` can make among themselves under the absolute criteria.
    pub fn max_pairs(&self, teams: &[usize]) -> usize {
        let mut edges = Vec::new();
        for (a, &i) in teams.iter().enumerate() {
            for (b, &j) in teams.iter().enumerate().skip(a + 1) {
                if self.allowed[i][j] {
                    edges.push((a, b, 1));
                }
            }
        }
        maximum_weight_matching(teams.len(), &edges).iter().flatten().count() / 2
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

struct Goal {
    pairs: usize,
    c8: usize,
    c9: usize,
}

struct State {
    /// Members paired or left over.
    used: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    /// Members (indices into the bracket) left over, floating down.
    float_marks: Vec<usize>,
    c8: usize,
    c9: usize,
    nodes: usize,
    /// Whether every member must be paired: then the teams outside are known to be pairable
    /// by themselves, and only the members left need checking.
    closed: bool,
}

impl State {
    fn new(members: usize, closed: bool) -> State {
        State {
            used: vec![false; members],
            pairs: Vec::new(),
            float_marks: Vec::new(),
            c8: 0,
            c9: 0,
            nodes: 0,
            closed,
        }
    }

    fn unvisited<'m>(&self, members: &'m [usize]) -> impl Iterator<Item = usize> + use<'_, 'm> {
        members.iter().zip(&self.used).filter(|(_, u)| !**u).map(|(&m, _)| m)
    }
}

impl Bracket<'_> {
    /// The bracket's pairs (positions, lower pairing number first), best by the criteria and
    /// first in lexicographic order among the best; `None` if `full` is asked and no pairing
    /// of every member exists within the budget.
    pub fn pair(&self, full: bool) -> Option<Vec<(usize, usize)>> {
        let n = self.members.len();
        // A complete pairing that leaves the rest pairable exists exactly when the bracket and
        // the rest are each pairable by themselves: decided here, not by search.
        if full && !(self.field.pairable(&self.members) && self.field.pairable(&self.outside)) {
            return None;
        }
        let most = if full { n / 2 } else { self.field.max_pairs(&self.members) };
        let least = if full || !self.may_float { n / 2 } else { 0 };
        let mut state = State::new(n, full);
        for pairs in (least..=most).rev() {
            for c8 in 0..=pairs {
                let c9s = if self.field.strong_matters { c8 } else { 0 };
                for c9 in 0..=c9s {
                    let goal = Goal { pairs, c8, c9 };
                    match self.search(&goal, &mut state) {
                        Some(true) => return Some(state.pairs),
                        Some(false) => {}
                        None => return self.greedy(full),
                    }
                }
            }
        }
        None
    }

    fn rest_pairable(&self, state: &State) -> bool {
        if state.closed {
            return self.field.pairable(&state.unvisited(&self.members).collect::<Vec<_>>());
        }
        let mut rest = self.outside.clone();
        rest.extend(state.unvisited(&self.members));
        rest.extend(state.float_marks.iter().map(|&i| self.members[i]));
        self.field.pairable(&rest)
    }

    /// `Some(found)`, or `None` when the budget ran out.
    fn search(&self, goal: &Goal, state: &mut State) -> Option<bool> {
        state.nodes += 1;
        if state.nodes > NODE_BUDGET {
            return None;
        }
        let Some(first) = state.used.iter().position(|&u| !u) else {
            return Some(state.pairs.len() >= goal.pairs);
        };
        // The most pairs the members left can still make bounds what this branch can reach.
        let left: Vec<usize> = state.unvisited(&self.members).collect();
        let bound = if state.closed { left.len() / 2 } else { self.field.max_pairs(&left) };
        if state.pairs.len() + bound < goal.pairs {
            return Some(false);
        }
        let (fm, field) = (self.members[first], self.field);
        state.used[first] = true;
        for second in first + 1..self.members.len() {
            let sm = self.members[second];
            if state.used[second] || !field.allowed[fm][sm] {
                continue;
            }
            let (c8, c9) = field.clash[fm][sm];
            if state.c8 + usize::from(c8) > goal.c8 || state.c9 + usize::from(c9) > goal.c9 {
                continue;
            }
            state.used[second] = true;
            state.pairs.push((fm, sm));
            state.c8 += usize::from(c8);
            state.c9 += usize::from(c9);
            if self.rest_pairable(state) {
                match self.search(goal, state) {
                    Some(false) => {}
                    other => return other,
                }
            }
            state.c8 -= usize::from(c8);
            state.c9 -= usize::from(c9);
            state.pairs.pop();
            state.used[second] = false;
        }
        // Left over: it floats down, the rest of the round unchanged.
        if self.may_float && state.float_marks.len() < self.members.len() - 2 * goal.pairs {
            state.float_marks.push(first);
            match self.search(goal, state) {
                Some(false) => {}
                other => return other,
            }
            state.float_marks.pop();
        }
        state.used[first] = false;
        Some(false)
    }

    /// The lexicographic pairing under the absolute criteria only, each choice checked to
    /// keep the rest of the round pairable.
    fn greedy(&self, full: bool) -> Option<Vec<(usize, usize)>> {
        let n = self.members.len();
        let mut state = State::new(n, full);
        while let Some(first) = state.used.iter().position(|&u| !u) {
            state.used[first] = true;
            let fm = self.members[first];
            let mut paired = false;
            for second in first + 1..n {
                let sm = self.members[second];
                if state.used[second] || !self.field.allowed[fm][sm] {
                    continue;
                }
                state.used[second] = true;
                state.pairs.push((fm, sm));
                if self.rest_pairable(&state) {
                    paired = true;
                    break;
                }
                state.pairs.pop();
                state.used[second] = false;
            }
            if !paired {
                if full || !self.may_float {
                    return None;
                }
                state.float_marks.push(first);
            }
        }
        Some(state.pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field of `n` teams where the pairs of `allowed` may meet and those of `clash` both
    /// prefer the same colour (strongly).
    fn field(n: usize, allowed: &[(usize, usize)], clash: &[(usize, usize)]) -> Field {
        let mut f = Field {
            allowed: vec![vec![false; n]; n],
            clash: vec![vec![(0, 0); n]; n],
            strong_matters: true,
        };
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
}
