//! The bracket-by-bracket procedure of C.04.3 Art. 3 and the generation order of Art. 4,
//! carried out on a maximum-weight matching of all players.
//!
//! The rules describe candidates generated in a fixed order (MDP sets, transpositions,
//! exchanges) and accept the first one that is best by the criteria; they allow any method
//! that gives the same result. Here every candidate at once is a matching: the criteria are
//! edge-weight fields ([`criteria`](super::criteria)), so the best matching is a best
//! candidate, and the earliest best candidate is found by fixing its choices one at a time in
//! generation order, each time asking the matching whether the choice can be made without
//! losing anything on the criteria:
//!
//! 1. which MDPs are paired (4.4: the first valid set by smallest differing BSN): each MDP in
//!    order is paired if it can be;
//! 2. whom each paired MDP meets (4.2: transpositions of S2, lexicographic): each MDP in
//!    order takes the highest resident it can;
//! 3. in the remainder, the exchange (4.3): fewest exchanged players and smallest difference
//!    of the BSN sums are weight fields; then the S1 players moved down are taken from the
//!    bottom of S1, the S2 players moved up from the top of S2, as far as possible;
//! 4. whom each S1 player meets (4.2): each in order takes the highest S2 player it can.
//!
//! The completion criterion C4 keeps every later bracket pairable: all players are in the
//! matching, those of later brackets with edges that only ask for a complete pairing.

use super::colour::ranks_above;
use super::criteria::{pair_bits, Bits, Layout, Place};
use crate::matching::{Matching, Weight};
use crate::model::PlayerId;
use crate::score::Score;
use crate::swiss::entrant::Entrant;
use crate::swiss::{self, NoPairing, Stop};

/// Where a vertex stands in the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Done,
    Mdp,
    Resident,
    Next,
    Later,
}

/// The pairs found (vertex indices into the sorted entrants) and the PAB assignee.
pub(crate) struct Found {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

pub(crate) struct Pairer<'a, W: Weight> {
    e: &'a [Entrant],
    n: usize,
    /// The PAB vertex, when the number of players is odd.
    bye: Option<usize>,
    compatible: Vec<bool>,
    candidate: Vec<bool>,
    m: Matching<W>,
    role: Vec<Role>,
    /// Pairs the generation order has ruled out in the current bracket, and their list.
    blocked: Vec<bool>,
    blocked_list: Vec<(usize, usize)>,
    /// Players the generation order has ruled out of the PAB in the current bracket.
    no_bye: Vec<bool>,
    /// The offset of the completion field.
    top: u32,
    layout: Option<Layout>,
    rounds_played: u32,
    /// Whether C9 applies to the current bracket.
    pab_games_apply: bool,
    bye_score: Option<Score>,
    pairs: Vec<(usize, usize)>,
    scratch: Bits,
}

impl<'a, W: Weight> Pairer<'a, W> {
    /// `entrants` sorted by score, then pairing number (1.2).
    pub fn new(
        entrants: &'a [Entrant],
        rounds_played: u32,
        topscorer_threshold: Option<Score>,
        forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
    ) -> Pairer<'a, W> {
        let n = entrants.len();
        let vertices = n + n % 2;
        let mut compatible = vec![false; n * n];
        for a in 0..n {
            for b in a + 1..n {
                let ok = may_meet(&entrants[a], &entrants[b], topscorer_threshold, forbidden);
                compatible[a * n + b] = ok;
                compatible[b * n + a] = ok;
            }
        }
        Pairer {
            e: entrants,
            n,
            bye: (n % 2 == 1).then_some(n),
            compatible,
            candidate: vec![false; n],
            m: Matching::new(vertices),
            role: vec![Role::Later; n],
            blocked: vec![false; n * n],
            blocked_list: Vec::new(),
            no_bye: vec![false; n],
            top: 0,
            layout: None,
            rounds_played,
            pab_games_apply: false,
            bye_score: None,
            pairs: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn run(mut self) -> Result<Found, Stop> {
        if self.n == 0 {
            return Ok(Found { pairs: Vec::new(), bye: None });
        }
        self.top = 1;
        for a in 0..self.n {
            for b in a + 1..self.n {
                if self.compatible[a * self.n + b] {
                    self.m.set_weight(a, b, self.completion());
                }
            }
        }
        self.choose_bye_score()?;
        let groups = scoregroups(self.e);
        let mut mdps: Vec<usize> = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let next = groups.get(g + 1).cloned().unwrap_or(0..0);
            mdps = self.pair_bracket(&mdps, group.clone(), next)?;
        }
        let bye = match (mdps.as_slice(), self.bye) {
            ([], None) => None,
            ([p], Some(bye)) => {
                debug_assert_eq!(self.m.mate(bye), Some(*p));
                Some(*p)
            }
            _ => unreachable!("the completion criterion leaves at most the PAB assignee"),
        };
        Ok(Found { pairs: self.pairs, bye })
    }

    fn completion(&self) -> W {
        W::ONE.shl(self.top)
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        self.compatible[a * self.n + b]
    }

    /// C5: the lowest score the PAB assignee can have, every other player being paired.
    fn choose_bye_score(&mut self) -> Result<(), Stop> {
        let Some(bye) = self.bye else {
            self.m.solve();
            return if self.complete() {
                Ok(())
            } else {
                Err(Stop::NoPairing(NoPairing::Absolute))
            };
        };
        let mut scores: Vec<Score> =
            self.e.iter().filter(|e| e.bye_eligible).map(|e| e.score).collect();
        scores.sort();
        scores.dedup();
        for score in scores {
            for p in 0..self.n {
                self.candidate[p] = self.e[p].bye_eligible && self.e[p].score <= score;
                let w = if self.candidate[p] { self.completion() } else { W::ZERO };
                self.m.set_weight(bye, p, w);
            }
            self.m.solve();
            if self.complete() {
                self.bye_score = Some(score);
                return Ok(());
            }
        }
        Err(Stop::NoPairing(if self.e.iter().any(|e| e.bye_eligible) {
            NoPairing::Absolute
        } else {
            NoPairing::NoByeCandidate
        }))
    }

    /// Whether every vertex is matched by a positive edge.
    fn complete(&self) -> bool {
        (0..self.n + self.bye.is_some() as usize).all(|v| self.m.mate(v).is_some())
    }

    fn mate(&self, v: usize) -> Option<usize> {
        self.m.mate(v).filter(|&m| m < self.n)
    }

    /// Pairs one bracket: `mdps` moved down into it, the scoregroup `residents`, looking
    /// ahead to the scoregroup `next`. Returns the players it moves down.
    fn pair_bracket(
        &mut self,
        mdps: &[usize],
        residents: std::ops::Range<usize>,
        next: std::ops::Range<usize>,
    ) -> Result<Vec<usize>, Stop> {
        for &p in mdps {
            self.role[p] = Role::Mdp;
        }
        for p in residents.clone() {
            self.role[p] = Role::Resident;
        }
        for p in next.clone() {
            self.role[p] = Role::Next;
        }
        self.set_layout(mdps, residents.clone(), next.clone())?;
        // The bracket's weights; MDPs never meet each other here (3.3), but may later (C4).
        let region: Vec<usize> =
            mdps.iter().copied().chain(residents.clone()).chain(next.clone()).collect();
        for (i, &a) in region.iter().enumerate() {
            for &b in &region[i + 1..] {
                let w = self.base_weight(a, b);
                self.m.set_weight(b, a, w);
            }
        }
        self.set_bye_edges(false);
        self.m.solve();
        let resident_score = self.e[residents.start].score;
        // C9 applies when this bracket downfloats just the PAB assignee (its note).
        self.pab_games_apply = self.bye.is_some()
            && self.bye_score.is_some_and(|s| s >= resident_score)
            && mdps.iter().copied().chain(residents.clone()).all(|p| match self.m.mate(p) {
                Some(q) if Some(q) == self.bye => true,
                Some(q) => matches!(self.role[q], Role::Mdp | Role::Resident),
                None => false,
            });
        if self.pab_games_apply {
            self.set_bye_edges(true);
            self.m.solve();
        }
        let paired_mdps = self.choose_mdps(mdps);
        for &p in &paired_mdps {
            self.pair_in_order(p, |this, r| this.role[r] == Role::Resident);
        }
        self.pair_remainder(residents.clone());
        // What is left of the bracket moves down.
        let mut down = Vec::new();
        for p in mdps.iter().copied().chain(residents.clone()) {
            if self.role[p] != Role::Done {
                down.push(p);
            }
        }
        for p in next.clone() {
            self.role[p] = Role::Later;
        }
        for &p in &down {
            self.role[p] = Role::Later;
        }
        for (a, b) in std::mem::take(&mut self.blocked_list) {
            self.blocked[a * self.n + b] = false;
            self.blocked[b * self.n + a] = false;
        }
        self.no_bye.fill(false);
        Ok(down)
    }

    /// Makes the layout of this bracket, widening the weights if its fields need more room.
    fn set_layout(
        &mut self,
        mdps: &[usize],
        residents: std::ops::Range<usize>,
        next: std::ops::Range<usize>,
    ) -> Result<(), Stop> {
        let players = mdps.iter().copied().chain(residents.clone()).chain(next.clone());
        let scores = swiss::tally(players.map(|p| self.e[p].score));
        let max_games = self.e.iter().map(|e| e.played_games).max().unwrap_or(0);
        let layout = Layout::new(
            &scores,
            (mdps.len() + residents.len()) as u32,
            next.len() as u32,
            self.n as u32 + 1,
            max_games,
        );
        if layout.below_completion > self.top {
            let grow = layout.below_completion - self.top;
            self.m.shift_weights(grow);
            self.top += grow;
        }
        // Duals reach twice the largest weight, and the weights are doubled inside.
        if self.top + layout.completion_width + 3 >= W::BITS {
            return Err(Stop::Overflow);
        }
        self.layout = Some(layout);
        Ok(())
    }

    fn layout(&self) -> &Layout {
        self.layout.as_ref().expect("a bracket is being paired")
    }

    /// The weight of the edge between `a` and `b` (a ranks above b) for this bracket, before
    /// any choice of the generation order.
    fn base_weight(&mut self, a: usize, b: usize) -> W {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if !self.compatible(a, b) || self.blocked[a * self.n + b] {
            return W::ZERO;
        }
        // `a` ranks above `b`, so an MDP is never the lower player of a resident.
        let place = match (self.role[a], self.role[b]) {
            (Role::Done, _) | (_, Role::Done) => return W::ZERO,
            (Role::Mdp | Role::Resident, Role::Resident) => Place::Current,
            (Role::Mdp | Role::Resident | Role::Next, Role::Next) => Place::Next,
            // MDPs do not meet each other in this bracket (3.3); farther pairs only count
            // for completing the round.
            _ => return self.completion(),
        };
        let mut bits = std::mem::take(&mut self.scratch);
        pair_bits(self.layout(), &self.e[a], &self.e[b], place, self.rounds_played, &mut bits);
        let mut w = self.completion();
        for &(offset, value) in &bits {
            w = w.add(W::from_u64(value).shl(offset));
        }
        self.scratch = bits;
        w
    }

    /// The PAB edges: a candidate may take it (C2, C5); with C9, the more games played,
    /// the better.
    fn set_bye_edges(&mut self, pab_games: bool) {
        let Some(bye) = self.bye else { return };
        let bye_score = self.bye_score;
        for p in 0..self.n {
            let w = if self.role[p] == Role::Done || !self.candidate[p] || self.no_bye[p] {
                W::ZERO
            } else if pab_games && Some(self.e[p].score) == bye_score {
                let games = W::from_u64(self.e[p].played_games as u64).shl(self.layout().pab_games);
                self.completion().add(games)
            } else {
                self.completion()
            };
            self.m.set_weight(bye, p, w);
        }
    }

    /// Sets the edges of `p` to the players `others` selects, from their base weight plus
    /// `extra(other)` (zero for no change).
    fn set_edges(&mut self, p: usize, others: &[usize], extra: impl Fn(usize) -> Option<W>) {
        for &q in others {
            let base = self.base_weight(p, q);
            let w = match extra(q) {
                Some(add) if base > W::ZERO => base.add(add),
                _ => base,
            };
            self.m.set_weight(p, q, w);
        }
    }

    fn players_with(&self, role: Role) -> Vec<usize> {
        (0..self.n).filter(|&p| self.role[p] == role).collect()
    }

    /// 4.4: which MDPs are paired. Within each score, MDPs in order, each paired if it can be
    /// (C6/C7 fix how many of each score).
    fn choose_mdps(&mut self, mdps: &[usize]) -> Vec<usize> {
        let residents = self.players_with(Role::Resident);
        let probe = W::ONE.shl(self.layout().probe);
        let mut paired = Vec::new();
        let mut i = 0;
        while i < mdps.len() {
            let score = self.e[mdps[i]].score;
            let class: Vec<usize> =
                mdps[i..].iter().copied().take_while(|&p| self.e[p].score == score).collect();
            i += class.len();
            let in_bracket = |this: &Self, p: usize| {
                this.mate(p).is_some_and(|q| this.role[q] == Role::Resident)
            };
            let mut needed = class.iter().filter(|&&p| in_bracket(self, p)).count();
            for (k, &p) in class.iter().enumerate() {
                let left = class.len() - k;
                let pair = if needed == 0 {
                    false
                } else if left == needed {
                    true
                } else {
                    if !in_bracket(self, p) {
                        self.set_edges(p, &residents, |_| Some(probe));
                        self.m.solve();
                    }
                    in_bracket(self, p)
                };
                if pair {
                    needed -= 1;
                    paired.push(p);
                    // Bound to a resident.
                    let others: Vec<usize> =
                        (0..self.n).filter(|&q| q != p && self.role[q] != Role::Resident).collect();
                    for q in others {
                        self.block(p, q);
                    }
                    self.forbid_bye(p);
                    self.set_edges(p, &residents, |_| None);
                } else {
                    for &r in &residents {
                        self.block(p, r);
                    }
                }
            }
        }
        self.m.solve();
        paired
    }

    /// 4.2: `p` meets the highest player `eligible` allows that keeps the pairing best, and
    /// the pair is final.
    fn pair_in_order(&mut self, p: usize, eligible: impl Fn(&Self, usize) -> bool) {
        let candidates: Vec<usize> = (0..self.n).filter(|&q| q != p && eligible(self, q)).collect();
        let choice = self.layout().choice;
        let count = candidates.len() as u64;
        let bonus: Vec<(usize, W)> = candidates
            .iter()
            .enumerate()
            .map(|(i, &q)| (q, W::from_u64(count - i as u64).shl(choice)))
            .collect();
        self.set_edges(p, &candidates, |q| bonus.iter().find(|(x, _)| *x == q).map(|(_, w)| *w));
        self.m.solve();
        let q = self.mate(p).expect("a player chosen to be paired here is paired");
        self.finalize(p, q);
    }

    /// Records `p`–`q` as a pair of the round and takes both out of the matching.
    fn finalize(&mut self, p: usize, q: usize) {
        self.role[p] = Role::Done;
        self.role[q] = Role::Done;
        self.m.retire_pair(p, q);
        self.pairs.push((p.min(q), p.max(q)));
    }

    /// Pairs the remainder: the residents not paired with MDPs, as a homogeneous bracket
    /// (3.3.3): exchanges (4.3), then transpositions (4.2).
    fn pair_remainder(&mut self, residents: std::ops::Range<usize>) {
        let rem: Vec<usize> = residents.filter(|&p| self.role[p] == Role::Resident).collect();
        let in_rem = |this: &Self, p: usize| this.role[p] == Role::Resident;
        let smaller =
            |this: &Self, p: usize| this.mate(p).is_some_and(|q| q > p && in_rem(this, q));
        let pairs = rem.iter().filter(|&&p| smaller(self, p)).count();
        if pairs == 0 {
            return;
        }
        let s1 = if self.pairs_without_exchange(&rem, pairs) {
            (0..rem.len()).map(|i| i < pairs).collect()
        } else {
            self.choose_exchange(&rem, pairs)
        };
        // Transpositions: each S1' player in order meets the highest S2' player it can.
        for i in 0..rem.len() {
            if s1[i] {
                let p = rem[i];
                self.pair_in_order(p, |this, q| q > p && this.role[q] == Role::Resident);
            }
        }
    }

    /// Whether the remainder can be paired best with its S1 against its S2, no exchange
    /// (4.3.2 rule 1's best): then only those pairs are left open. Usually the matching
    /// already pairs it so; else it is tried with the other pairs closed.
    fn pairs_without_exchange(&mut self, rem: &[usize], pairs: usize) -> bool {
        let cross = |i: usize, j: usize| i < pairs && pairs <= j;
        let mut closed: Vec<(usize, usize)> = Vec::new();
        for i in 0..rem.len() {
            for j in i + 1..rem.len() {
                if !cross(i, j) {
                    closed.push((rem[i], rem[j]));
                }
            }
            // An S1 player may not float out of the remainder either.
            if i < pairs {
                for q in 0..self.n {
                    if !rem.contains(&q) && self.role[q] != Role::Done {
                        closed.push((rem[i], q));
                    }
                }
            }
        }
        let already =
            rem[..pairs].iter().all(|&p| self.mate(p).is_some_and(|q| rem[pairs..].contains(&q)));
        let before = self.m.total_weight();
        for &(a, b) in &closed {
            self.m.set_weight(a, b, W::ZERO);
        }
        if let Some(bye) = self.bye {
            for &p in &rem[..pairs] {
                self.m.set_weight(p, bye, W::ZERO);
            }
        }
        self.m.solve();
        if already || self.m.total_weight() == before {
            for (a, b) in closed {
                self.block(a, b);
            }
            for &p in &rem[..pairs] {
                self.forbid_bye(p);
            }
            return true;
        }
        // An exchange is needed: open what was closed.
        for &(a, b) in &closed {
            let w = self.base_weight(a, b);
            self.m.set_weight(a, b, w);
        }
        self.set_bye_edges(self.pab_games_apply);
        self.m.solve();
        false
    }

    /// 4.3: the exchange between the remainder's S1 (its first `pairs` players) and S2,
    /// by the four rules of 4.3.2 among the best pairings. Returns which players are in S1'.
    fn choose_exchange(&mut self, rem: &[usize], pairs: usize) -> Vec<bool> {
        let in_rem = |this: &Self, p: usize| this.role[p] == Role::Resident;
        let smaller =
            |this: &Self, p: usize| this.mate(p).is_some_and(|q| q > p && in_rem(this, q));
        let size = rem.len() as u64;
        let (exchanges, bsn_sum, probe) = {
            let l = self.layout();
            (l.exchanges, l.bsn_sum, l.probe)
        };
        // Exchange fields on every remainder pair: the higher player from S1 counts as no
        // exchange ([4.3.2] rule 1), and the BSNs of the higher players sum low (rule 2);
        // the probe field is 1 by default, 0 or 2 when testing one player.
        let exchange_weight = |this: &mut Self, i: usize, j: usize, probe_value: u64| -> W {
            let base = this.base_weight(rem[i], rem[j]);
            if base == W::ZERO {
                return base;
            }
            let in_s1 = (i < pairs) as u64;
            base.add(W::from_u64(in_s1).shl(exchanges))
                .add(W::from_u64(size - i as u64).shl(bsn_sum))
                .add(W::from_u64(probe_value).shl(probe))
        };
        for i in 0..rem.len() {
            for j in i + 1..rem.len() {
                let w = exchange_weight(self, i, j, 1);
                self.m.set_weight(rem[i], rem[j], w);
            }
        }
        self.m.solve();
        let exchanged_count = rem[..pairs].iter().filter(|&&p| !smaller(self, p)).count();
        // Rule 3: the S1 players moved to S2, from the bottom of S1.
        let mut remaining = exchanged_count;
        for i in (0..pairs).rev() {
            if remaining == 0 {
                break;
            }
            if smaller(self, rem[i]) {
                for j in i + 1..rem.len() {
                    let w = exchange_weight(self, i, j, 0);
                    self.m.set_weight(rem[i], rem[j], w);
                }
                self.m.solve();
            }
            let exchanged = !smaller(self, rem[i]);
            if exchanged {
                remaining -= 1;
                for j in i + 1..rem.len() {
                    self.block(rem[i], rem[j]);
                }
            }
            for j in i + 1..rem.len() {
                let w = exchange_weight(self, i, j, 1);
                self.m.set_weight(rem[i], rem[j], w);
            }
        }
        self.m.solve();
        // Rule 4: the S2 players moved to S1, from the top of S2; the last one follows from
        // the sum of rule 2.
        let mut remaining = exchanged_count;
        for i in pairs..rem.len() {
            if remaining <= 1 {
                break;
            }
            let already = smaller(self, rem[i]);
            if !already {
                for j in i + 1..rem.len() {
                    let w = exchange_weight(self, i, j, 2);
                    self.m.set_weight(rem[i], rem[j], w);
                }
                self.m.solve();
            }
            if smaller(self, rem[i]) {
                remaining -= 1;
                // Bound to be the higher player of a pair of the remainder.
                for j in 0..i {
                    self.block(rem[i], rem[j]);
                }
                let outside: Vec<usize> =
                    (0..self.n).filter(|&q| !in_rem(self, q) && q != rem[i]).collect();
                for q in outside {
                    self.block(rem[i], q);
                }
                self.forbid_bye(rem[i]);
            }
            if !already {
                for j in i + 1..rem.len() {
                    let w = exchange_weight(self, i, j, 1);
                    self.m.set_weight(rem[i], rem[j], w);
                }
            }
        }
        self.m.solve();
        // The exchange is chosen: S1' are the higher players of the pairs. Only S1'–S2'
        // pairs remain, with their plain weights.
        let s1: Vec<bool> = rem.iter().map(|&p| smaller(self, p)).collect();
        for i in 0..rem.len() {
            for j in i + 1..rem.len() {
                if !s1[i] || s1[j] {
                    self.block(rem[i], rem[j]);
                } else {
                    let w = self.base_weight(rem[i], rem[j]);
                    self.m.set_weight(rem[i], rem[j], w);
                }
            }
        }
        self.m.solve();
        s1
    }

    fn block(&mut self, a: usize, b: usize) {
        if !self.blocked[a * self.n + b] {
            self.blocked[a * self.n + b] = true;
            self.blocked[b * self.n + a] = true;
            self.blocked_list.push((a, b));
        }
        self.m.set_weight(a, b, W::ZERO);
    }

    fn forbid_bye(&mut self, p: usize) {
        self.no_bye[p] = true;
        if let Some(bye) = self.bye {
            self.m.set_weight(p, bye, W::ZERO);
        }
    }
}

/// The absolute criteria for one pair: C1 no second meeting (nor a forbidden pair), C3
/// no two non-topscorers with the same absolute colour preference.
fn may_meet(
    a: &Entrant,
    b: &Entrant,
    topscorer: Option<Score>,
    forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
) -> bool {
    if a.opponents.contains(&b.id) {
        return false;
    }
    if forbidden(a.id, b.id) {
        return false;
    }
    let topscorer = |e: &Entrant| topscorer.is_some_and(|t| e.score > t);
    !(a.is_absolute()
        && b.is_absolute()
        && a.preference == b.preference
        && !topscorer(a)
        && !topscorer(b))
}

/// The scoregroups of sorted entrants, as index ranges, highest first.
fn scoregroups(entrants: &[Entrant]) -> Vec<std::ops::Range<usize>> {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=entrants.len() {
        if i == entrants.len() || entrants[i].score != entrants[start].score {
            groups.push(start..i);
            start = i;
        }
    }
    groups
}

/// Sorts entrants into pairing order (1.2).
pub(crate) fn sort_entrants(entrants: &mut [Entrant]) {
    entrants.sort_by(|a, b| {
        if ranks_above(a, b) {
            std::cmp::Ordering::Less
        } else if ranks_above(b, a) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
}

/// The bits the weights of a round are expected to need, to pick the weight type: the
/// layout of each bracket taken as its scoregroup, the one above it moved down whole, and the
/// next one. A bracket that needs more (MDPs from several scoregroups) makes the pairing
/// start again with wider weights.
pub(crate) fn estimated_bits(entrants: &[Entrant]) -> u32 {
    let groups = scoregroups(entrants);
    let max_games = entrants.iter().map(|e| e.played_games).max().unwrap_or(0);
    let size = |g: Option<&std::ops::Range<usize>>| g.map_or(0, |g| g.len() as u32);
    let mut bits = 0;
    for g in 0..groups.len() {
        let above = g.checked_sub(1).map(|i| &groups[i]);
        let (own, next) = (Some(&groups[g]), groups.get(g + 1));
        let scores: Vec<(Score, u32)> = [above, own, next]
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(i, r)| (Score(i as u32), size(*r)))
            .collect();
        let layout = Layout::new(
            &scores,
            size(above) + size(own),
            size(next),
            entrants.len() as u32 + 1,
            max_games,
        );
        bits = bits.max(layout.below_completion + layout.completion_width);
    }
    // Room for the doubling and the duals (see `set_layout`).
    bits + 4
}
