//! The pairing criteria of C.04.3 Art. 2 packed into edge weights, one field per criterion,
//! highest priority in the highest bits, so that a maximum-weight matching is a pairing that
//! is best by the criteria in their order. Each field is wide enough for its sum over all
//! pairs, so no field can carry into the one above.
//!
//! The fields, from the top (the layout is made afresh for each bracket, from the players of
//! the bracket and of the next scoregroup):
//!
//! | field | per pair (or per PAB edge) | criterion |
//! |---|---|---|
//! | completion | 1 for an allowed pair or an allowed PAB | C1–C5: a complete pairing exists |
//! | current pairs | 1 for a pair in the bracket | C6 fewest downfloaters |
//! | current scores | 2^(place of the higher score) | C7 lowest downfloater scores |
//! | next pairs, next scores | the same for the next bracket | C8 |
//! | PAB games | games played by the PAB assignee | C9 |
//! | colours | 1 for each colour criterion a pair keeps | C10–C13 |
//! | floats | 1 (or 2) for each float criterion kept | C14–C17 |
//! | float scores | 2^(place of the score) | C18–C21 |
//! | exchanges, BSN sum, probe, choice | used by the generation order | Art. 4 |

use crate::score::Score;
use crate::swiss::entrant::{Entrant, Float};
use crate::swiss::{bits_for, Fields, ScoreField};

/// Where each field sits, for one bracket.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The sub-fields of the scores of the bracket and the next scoregroup, inside every
    /// score field.
    scores: ScoreField,
    /// Offsets of the fields (bit 0 is the lowest).
    pub choice: u32,
    pub probe: u32,
    pub bsn_sum: u32,
    pub exchanges: u32,
    pub float_scores: [u32; 4],
    pub floats: [u32; 4],
    pub colours: [u32; 4],
    pub pab_games: u32,
    pub next_scores: u32,
    pub next_pairs: u32,
    pub current_scores: u32,
    pub current_pairs: u32,
    /// The bits below the completion field.
    pub below_completion: u32,
    /// The width of the completion field.
    pub completion_width: u32,
}

impl Layout {
    /// A layout for a bracket of `bracket` players and a next scoregroup of `next` players,
    /// `scores` being the (score, number of players with it) of both, in a round with
    /// `total` players of whom the most played `max_games` games.
    pub fn new(
        scores: &[(Score, u32)],
        bracket: u32,
        next: u32,
        total: u32,
        max_games: u32,
    ) -> Layout {
        let region = (bracket + next) as u64;
        let count = bits_for(region + 1);
        let double = bits_for(2 * region + 1);
        // Each player with a score adds at most 1 to its sub-field (twice for the float
        // scores).
        let placed = ScoreField::new(scores);
        let score_width = placed.width;
        let mut fields = Fields::default();
        let mut field = |width: u32| fields.take(width);
        let choice = field(double + 1);
        let probe = field(double + 1);
        let bsn_sum = field(bits_for(region * region + 1));
        let exchanges = field(count);
        // Four fields each, the first the highest: allocated from the last.
        let mut float_scores = [0; 4];
        for f in float_scores.iter_mut().rev() {
            *f = field(score_width);
        }
        let mut floats = [0; 4];
        for (i, f) in floats.iter_mut().enumerate().rev() {
            // C14/C16 count up to two players a pair, C15/C17 one.
            *f = field(if i % 2 == 0 { double } else { count });
        }
        let mut colours = [0; 4];
        for f in colours.iter_mut().rev() {
            *f = field(count);
        }
        let pab_games = field(bits_for(max_games as u64 + 1));
        let next_scores = field(score_width);
        let next_pairs = field(count);
        let current_scores = field(score_width);
        let current_pairs = field(count);
        Layout {
            scores: placed,
            choice,
            probe,
            bsn_sum,
            exchanges,
            float_scores,
            floats,
            colours,
            pab_games,
            next_scores,
            next_pairs,
            current_scores,
            current_pairs,
            below_completion: fields.end,
            completion_width: bits_for(total as u64 / 2 + 2),
        }
    }

    /// The offset of `score`'s sub-field inside a score field.
    pub fn score_offset(&self, score: Score) -> u32 {
        self.scores.offset(score)
    }
}

/// Where the lower player of a pair stands in the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Place {
    /// A resident of the bracket: the pair is a pair of this bracket.
    Current,
    /// In the next scoregroup: the pair is one the next bracket could make (C8).
    Next,
}

/// A set bit of a field: `(offset, value)` pairs, summed into a weight by the caller.
pub(crate) type Bits = Vec<(u32, u64)>;

/// The criteria bits of a pair `higher`–`lower` (higher ranks above lower) that may meet,
/// for the bracket described by `layout`, after `rounds_played` rounds (floats one and two
/// rounds back only exist from rounds 2 and 3).
pub(crate) fn pair_bits(
    layout: &Layout,
    higher: &Entrant,
    lower: &Entrant,
    place: Place,
    rounds_played: u32,
    out: &mut Bits,
) {
    out.clear();
    let score_bit = |field: u32, score: Score| field + layout.score_offset(score);
    match place {
        Place::Next => {
            out.push((layout.next_pairs, 1));
            out.push((score_bit(layout.next_scores, higher.score), 1));
            return;
        }
        Place::Current => {
            out.push((layout.current_pairs, 1));
            out.push((score_bit(layout.current_scores, higher.score), 1));
        }
    }
    let same_preference = higher.preference.is_some() && higher.preference == lower.preference;
    // C10 a topscorer (or opponent) beyond a colour difference of ±2: both have a
    // difference of 2 already and want the same colour.
    if !(same_preference && higher.has_absolute_imbalance() && lower.has_absolute_imbalance()) {
        out.push((layout.colours[0], 1));
    }
    // C11 the same colour three times in a row: both absolute for the same colour, and the
    // one who will not get it (5.2.2) has had the other colour twice running.
    if !(same_preference
        && higher.is_absolute()
        && lower.is_absolute()
        && third_in_a_row(higher, lower))
    {
        out.push((layout.colours[1], 1));
    }
    // C12 one of them does not get their preference.
    if !same_preference {
        out.push((layout.colours[2], 1));
    }
    // C13 one of them does not get a strong preference: the same colour, both strong or
    // absolute, not both absolute (those are C10/C11).
    let firm = |e: &Entrant| e.is_strong() || e.is_absolute();
    if !(same_preference
        && firm(higher)
        && firm(lower)
        && !(higher.is_absolute() && lower.is_absolute()))
    {
        out.push((layout.colours[3], 1));
    }
    let upfloat_of_mdp_opponent =
        |back: usize| higher.score > lower.score && lower.floats[back] == Float::Up;
    for back in 0..2 {
        if rounds_played <= back as u32 {
            continue;
        }
        // C14/C16 residents who downfloated before and do not downfloat now.
        let mut kept = (lower.floats[back] == Float::Down) as u64;
        if higher.score <= lower.score && higher.floats[back] == Float::Down {
            kept += 1;
        }
        if kept > 0 {
            out.push((layout.floats[2 * back], kept));
        }
        // C15/C17 an MDP's opponent who upfloated before.
        if !upfloat_of_mdp_opponent(back) {
            out.push((layout.floats[2 * back + 1], 1));
        }
        // C18/C20 the scores of players who downfloated before and are paired here.
        if lower.floats[back] == Float::Down {
            out.push((score_bit(layout.float_scores[2 * back], lower.score), 1));
        }
        if higher.floats[back] == Float::Down {
            out.push((score_bit(layout.float_scores[2 * back], higher.score), 1));
        }
        // C19/C21 the scores of MDPs whose opponent upfloated before.
        if !upfloat_of_mdp_opponent(back) {
            out.push((score_bit(layout.float_scores[2 * back + 1], higher.score), 1));
        }
    }
}

/// Whether, of two players both wanting the same colour absolutely, the one who yields
/// would get the other colour a third time running.
fn third_in_a_row(a: &Entrant, b: &Entrant) -> bool {
    let preference = a.preference;
    if a.imbalance == b.imbalance {
        a.repeated.is_some() && a.repeated == b.repeated
    } else {
        let yielding = if a.imbalance > b.imbalance { b } else { a };
        yielding.repeated.is_some() && yielding.repeated == preference.map(|c| c.other())
    }
}
