//! A round after the seeding rounds (C.04.4.2 1.9, Art. 2–4), on a maximum-weight matching of
//! all the players still to pair.
//!
//! First the pairing-allocated bye (3.1): of the players who may have it ([C2]) and leave the
//! others pairable ([C4]), the lowest score, then the most games played, then the lowest
//! ranking by 1.8. Then bracket by bracket from the highest score (3.2): the incoming
//! floaters and the next scoregroup, ranked by 1.8 and numbered (4.1). The quality criteria
//! are fields of one edge weight, highest priority in the highest bits:
//!
//! | field | per pair | criterion |
//! |---|---|---|
//! | completion | 1 for an allowed pair | [C1]–[C4]: the whole round can be paired |
//! | pairs | 1 for a pair of the bracket | [C5] most pairs |
//! | scores | 1 at each player's score, for a pair of the bracket | [C6] lowest floater scores, highest first |
//! | next pairs, next scores | the same for a pair of the bracket and the next scoregroup | [C7] |
//! | colours | 1 for a pair of the bracket whose preferences differ | [C8] |
//! | choice | the opponent's BSN, for one player at a time | the order of Art. 4 |
//!
//! so a maximum-weight matching is a pairing that complies best with [C5]–[C8] and keeps the
//! rest of the round pairable. 4.3 orders the candidates by the opponent of BSN 1 (the larger
//! its BSN the earlier; a virtual player, BSN 0, meaning that it floats, last), then of BSN 2,
//! and so on; the first of the best is found by letting each BSN in turn take the lowest
//! player it can without losing anything on the criteria, or float when it cannot be paired
//! in the bracket at all.

use super::NoPairing;
use crate::matching::{Matching, Weight};
use crate::model::PlayerId;
use crate::score::Score;
use crate::swiss::entrant::Entrant;
use crate::swiss::{self, bits_for, Fields, ScoreField, Stop};

/// The pairs found (indices into the entrants) and the PAB assignee.
pub(crate) struct Found {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Where the fields of one bracket's weights sit (bit 0 the lowest).
struct Layout {
    /// The sub-fields of the scores of the bracket and the next scoregroup.
    scores: ScoreField,
    choice: u32,
    colours: u32,
    next_scores: u32,
    next_pairs: u32,
    scores_field: u32,
    pairs: u32,
    /// The bits below the completion field.
    below_completion: u32,
}

impl Layout {
    /// The layout for a bracket of `bracket` players and a next scoregroup, `scores` being
    /// the (score, players with it) of both.
    fn new(scores: &[(Score, u32)], bracket: u32) -> Layout {
        let region: u32 = scores.iter().map(|&(_, n)| n).sum();
        let count = bits_for(u64::from(region) + 1);
        let placed = ScoreField::new(scores);
        let mut fields = Fields::default();
        Layout {
            choice: fields.take(bits_for(u64::from(bracket) + 1)),
            colours: fields.take(count),
            next_scores: fields.take(placed.width),
            next_pairs: fields.take(count),
            scores_field: fields.take(placed.width),
            pairs: fields.take(count),
            below_completion: fields.end,
            scores: placed,
        }
    }
}

/// The width of the completion field for a round of `n` players.
fn completion_width(n: usize) -> u32 {
    bits_for(n as u64 / 2 + 2)
}

/// What a player is in the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// Paired, or the PAB assignee.
    Done,
    /// In the bracket: an incoming floater or a resident.
    Bracket,
    /// In the next scoregroup.
    Next,
    /// Further down.
    Later,
}

pub(crate) struct Pairer<'a, W: Weight> {
    /// Sorted by score, highest first, then by `place`.
    e: &'a [Entrant],
    /// Each entrant's place in the ranking of 1.8 (0 the highest), scores aside.
    place: &'a [usize],
    n: usize,
    compatible: Vec<bool>,
    m: Matching<W>,
    role: Vec<Role>,
    /// The offset of the completion field.
    top: u32,
    layout: Option<Layout>,
    pairs: Vec<(usize, usize)>,
}

impl<'a, W: Weight> Pairer<'a, W> {
    pub fn new(
        entrants: &'a [Entrant],
        place: &'a [usize],
        forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
    ) -> Pairer<'a, W> {
        let n = entrants.len();
        let mut compatible = vec![false; n * n];
        for a in 0..n {
            for b in a + 1..n {
                let ok = may_meet(&entrants[a], &entrants[b], forbidden);
                compatible[a * n + b] = ok;
                compatible[b * n + a] = ok;
            }
        }
        Pairer {
            e: entrants,
            place,
            n,
            compatible,
            // One more vertex: the PAB.
            m: Matching::new(n + 1),
            role: vec![Role::Later; n],
            top: 0,
            layout: None,
            pairs: Vec::new(),
        }
    }

    pub fn run(mut self) -> Result<Found, Stop> {
        for a in 0..self.n {
            for b in a + 1..self.n {
                if self.compatible(a, b) {
                    self.m.set_weight(a, b, W::ONE);
                }
            }
        }
        let bye = self.choose_bye()?;
        let mut floaters: Vec<usize> = Vec::new();
        let groups = self.scoregroups();
        for (g, group) in groups.iter().enumerate() {
            let next = groups.get(g + 1).cloned().unwrap_or_default();
            floaters = self.pair_bracket(&floaters, group, &next)?;
        }
        debug_assert!(floaters.is_empty(), "the completion criterion pairs everybody");
        Ok(Found { pairs: self.pairs, bye })
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        self.compatible[a * self.n + b]
    }

    fn completion(&self) -> W {
        W::ONE.shl(self.top)
    }

    /// 3.1: the PAB, when the number of players is odd, to the first player by 3.1.3–3.1.5
    /// who may have it ([C2], 3.1.1) and leaves the others pairable ([C4], 3.1.2).
    fn choose_bye(&mut self) -> Result<Option<usize>, Stop> {
        let bye = self.n;
        if self.n.is_multiple_of(2) {
            self.m.solve();
            return if (0..self.n).all(|v| self.m.mate(v).is_some()) {
                Ok(None)
            } else {
                Err(Stop::NoPairing(NoPairing::Absolute))
            };
        }
        let mut candidates: Vec<usize> = (0..self.n).filter(|&p| self.e[p].bye_eligible).collect();
        if candidates.is_empty() {
            return Err(Stop::NoPairing(NoPairing::NoByeCandidate));
        }
        // 3.1.3 the lowest score, 3.1.4 the most games played, 3.1.5 the lowest ranking.
        candidates.sort_by_key(|&p| {
            let e = &self.e[p];
            (e.score, std::cmp::Reverse(e.played_games), std::cmp::Reverse(self.place[p]))
        });
        for &p in &candidates {
            self.m.set_weight(bye, p, W::ONE);
            self.m.solve();
            if (0..=self.n).all(|v| self.m.mate(v).is_some()) {
                self.m.retire_pair(bye, p);
                self.role[p] = Role::Done;
                return Ok(Some(p));
            }
            self.m.set_weight(bye, p, W::ZERO);
        }
        Err(Stop::NoPairing(NoPairing::Absolute))
    }

    /// The scoregroups of the players still to pair, highest first.
    fn scoregroups(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for p in (0..self.n).filter(|&p| self.role[p] != Role::Done) {
            match groups.last_mut() {
                Some(group) if self.e[group[0]].score == self.e[p].score => group.push(p),
                _ => groups.push(vec![p]),
            }
        }
        groups
    }

    /// Pairs one bracket: the incoming `floaters` and the scoregroup `residents`, looking
    /// ahead to the scoregroup `next` ([C7]). Returns the outgoing floaters.
    fn pair_bracket(
        &mut self,
        floaters: &[usize],
        residents: &[usize],
        next: &[usize],
    ) -> Result<Vec<usize>, Stop> {
        // 4.1: the bracket in the order of 1.8; the BSN is the place in it, from 1.
        let mut bracket: Vec<usize> = floaters.iter().chain(residents).copied().collect();
        bracket.sort_by_key(|&p| self.place[p]);
        for &p in &bracket {
            self.role[p] = Role::Bracket;
        }
        for &p in next {
            self.role[p] = Role::Next;
        }
        self.set_layout(&bracket, next)?;
        let region: Vec<usize> = bracket.iter().chain(next).copied().collect();
        for (i, &a) in region.iter().enumerate() {
            for &b in &region[i + 1..] {
                let w = self.base_weight(a, b);
                self.m.set_weight(a, b, w);
            }
        }
        let choice = self.layout().choice;
        let mut outgoing = Vec::new();
        for (k, &p) in bracket.iter().enumerate() {
            if self.role[p] == Role::Done {
                continue;
            }
            // Each later BSN is bid its own number: the lowest-ranked opponent the criteria
            // allow wins.
            for (bsn, &q) in bracket.iter().enumerate().skip(k + 1) {
                if self.role[q] == Role::Done {
                    continue;
                }
                let base = self.base_weight(p, q);
                let w = if base > W::ZERO {
                    base.add(W::from_u64(bsn as u64 + 1).shl(choice))
                } else {
                    base
                };
                self.m.set_weight(p, q, w);
            }
            self.m.solve();
            match self.m.mate(p).filter(|&q| q < self.n && self.role[q] == Role::Bracket) {
                Some(q) => {
                    self.role[p] = Role::Done;
                    self.role[q] = Role::Done;
                    self.m.retire_pair(p, q);
                    self.pairs.push((p.min(q), p.max(q)));
                }
                None => {
                    // No best pairing pairs it here: it floats (a virtual opponent, BSN 0).
                    for &q in &bracket[k + 1..] {
                        if self.role[q] != Role::Done {
                            self.m.set_weight(p, q, W::ZERO);
                        }
                    }
                    outgoing.push(p);
                }
            }
        }
        self.m.solve();
        for &p in outgoing.iter().chain(next) {
            self.role[p] = Role::Later;
        }
        Ok(outgoing)
    }

    /// Makes the layout of this bracket, widening the weights if its fields need more room.
    fn set_layout(&mut self, bracket: &[usize], next: &[usize]) -> Result<(), Stop> {
        let scores = swiss::tally(bracket.iter().chain(next).map(|&p| self.e[p].score));
        let layout = Layout::new(&scores, bracket.len() as u32);
        if layout.below_completion > self.top {
            let grow = layout.below_completion - self.top;
            self.m.shift_weights(grow);
            self.top += grow;
        }
        // Duals reach twice the largest weight, and the weights are doubled inside.
        if self.top + completion_width(self.n) + 3 >= W::BITS {
            return Err(Stop::Overflow);
        }
        self.layout = Some(layout);
        Ok(())
    }

    fn layout(&self) -> &Layout {
        self.layout.as_ref().expect("a bracket is being paired")
    }

    /// The weight of the edge between `a` and `b`, both in the bracket or the next
    /// scoregroup, before the order of Art. 4.
    fn base_weight(&self, a: usize, b: usize) -> W {
        if !self.compatible(a, b) {
            return W::ZERO;
        }
        let layout = self.layout();
        let score_bit =
            |field: u32, p: usize| W::ONE.shl(field + layout.scores.offset(self.e[p].score));
        // [C7]: a pair the following bracket (this one's floaters and the next scoregroup)
        // could make; a pair of this bracket counts too, which changes nothing among the
        // pairings [C5] and [C6] leave.
        let mut w = self
            .completion()
            .add(W::ONE.shl(layout.next_pairs))
            .add(score_bit(layout.next_scores, a))
            .add(score_bit(layout.next_scores, b));
        if self.role[a] == Role::Bracket && self.role[b] == Role::Bracket {
            w = w
                .add(W::ONE.shl(layout.pairs))
                .add(score_bit(layout.scores_field, a))
                .add(score_bit(layout.scores_field, b));
            let (x, y) = (&self.e[a], &self.e[b]);
            // [C8]: one of them does not get the preferred colour.
            if x.preference.is_none() || x.preference != y.preference {
                w = w.add(W::ONE.shl(layout.colours));
            }
        }
        w
    }
}

/// The absolute criteria for one pair: [C1] no second meeting (nor a forbidden pair), [C3]
/// no two players with the same absolute colour preference (2.1.3: no exception for
/// topscorers in this system).
fn may_meet(a: &Entrant, b: &Entrant, forbidden: &dyn Fn(PlayerId, PlayerId) -> bool) -> bool {
    let same_absolute = a.is_absolute() && b.is_absolute() && a.preference == b.preference;
    !(a.opponents.contains(&b.id) || forbidden(a.id, b.id) || same_absolute)
}

/// The bits the weights of a round are expected to need: each scoregroup as a bracket with
/// the one above it floated down whole, and the next one. A bracket that needs more makes the
/// pairing start again with wider weights.
pub(crate) fn estimated_bits(entrants: &[Entrant]) -> u32 {
    // Sorted by score: the tally is the scoregroups in order.
    let groups = swiss::tally(entrants.iter().map(|e| e.score));
    let mut bits = 0;
    for g in 0..groups.len() {
        let region: Vec<(Score, u32)> =
            groups[g.saturating_sub(1)..(g + 2).min(groups.len())].to_vec();
        let bracket = groups[g].1 + if g > 0 { groups[g - 1].1 } else { 0 };
        bits = bits.max(Layout::new(&region, bracket).below_completion);
    }
    bits + completion_width(entrants.len()) + 4
}
