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
        if teams.len() % 2 == 1 {
            return false;
        }
        let mut edges = Vec::new();
        for (a, &i) in teams.iter().enumerate() {
            for (b, &j) in teams.iter().enumerate().skip(a + 1) {
                if self.allowed[i][j] {
                    edges.push((a, b, 1));
                }
            }
        }
        maximum_weight_matching(teams.len(), &edges).iter().all(Option::is_some)
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
}

impl Bracket<'_> {
    /// The bracket's pairs (positions, lower pairing number first), best by the criteria and
    /// first in lexicographic order among the best; `None` if `full` is asked and no pairing
    /// of every member exists within the budget.
    pub fn pair(&self, full: bool) -> Option<Vec<(usize, usize)>> {
        let n = self.members.len();
        let most = n / 2;
        let least = if full || !self.may_float { most } else { 0 };
        let mut state = State {
            used: vec![false; n],
            pairs: Vec::new(),
            float_marks: Vec::new(),
            c8: 0,
            c9: 0,
            nodes: 0,
        };
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
        let mut rest = self.outside.clone();
        rest.extend(self.members.iter().zip(&state.used).filter(|(_, &u)| !u).map(|(&m, _)| m));
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
        let open = state.used.iter().filter(|&&u| !u).count();
        if state.pairs.len() + open / 2 < goal.pairs {
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
        let mut state = State {
            used: vec![false; n],
            pairs: Vec::new(),
            float_marks: Vec::new(),
            c8: 0,
            c9: 0,
            nodes: 0,
        };
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
