//! The Opposition Evaluation Index (C.04.4.2 1.7) and the ranking it gives (1.8).
//!
//! 1.7.1: the Buchholz is the sum of the current scores of the opponents a player met, the
//! Sonneborn-Berger the sum of the points the player earned against each opponent times that
//! opponent's current score. 1.7.2, the rules for rounds without a game, which are the
//! Burstein system's own and not those of C.07:
//!
//! - a round the player did not play over the board (a bye of any kind, a forfeit, an
//!   absence) counts as a game against themselves with the points it gave: their own
//!   current score enters their Buchholz, those points times it their Sonneborn-Berger;
//! - exception: when a player's latest rounds are a series of zero-point byes (an absence, a
//!   withdrawal), each of them counts as a draw in the score their over-the-board opponents
//!   see, not in their own;
//! - virtual points (acceleration) are left out: scores here are standings points (with the
//!   `299` records).
//!
//! 1.8: after the seeding rounds the players of a bracket are ranked by the Index (the
//! Buchholz, then the Sonneborn-Berger, the higher first), then by pairing number; their
//! scores are not used.

use std::cmp::Ordering;

use crate::model::{PlayerId, ResultCode, RoundEntry, Tournament};
use crate::score::Score;
use crate::swiss::entrant::score_after;

/// A player's Opposition Evaluation Index before a round (C.04.4.2 1.7, 1.8.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct OppositionIndex {
    /// The Buchholz (1.7.1.1): the opponents' current scores, summed.
    pub buchholz: Score,
    /// The Sonneborn-Berger (1.7.1.2), in hundredths of a point: the points earned against
    /// each opponent (tenths) times that opponent's current score (tenths), summed.
    pub sonneborn_berger: u64,
}

impl OppositionIndex {
    /// The Index in the order of 1.8.1: the Buchholz, then the Sonneborn-Berger;
    /// [`Ordering::Greater`] ranks higher.
    pub fn cmp_rank(&self, other: &OppositionIndex) -> Ordering {
        (self.buchholz, self.sonneborn_berger).cmp(&(other.buchholz, other.sonneborn_berger))
    }
}

/// The Index of every player of `tournament` (by pairing number, `players[i]` at `i`) from
/// the rounds before `round` (from 1).
pub fn opposition_index(tournament: &Tournament, round: u32) -> Vec<OppositionIndex> {
    let played = round.saturating_sub(1);
    let scoring = &tournament.scoring;
    let ids: Vec<PlayerId> = tournament.player_ids().collect();
    // A round with no entry is an absence: a zero-point bye.
    let entry = |id: PlayerId, r: u32| -> RoundEntry {
        tournament.player(id).and_then(|p| p.round(r)).copied().unwrap_or(RoundEntry::ABSENT)
    };
    let own: Vec<Score> = ids.iter().map(|&id| score_after(tournament, id, played)).collect();
    // 1.7.2's exception: the score a player's over-the-board opponents see.
    let seen: Vec<Score> = ids
        .iter()
        .map(|&id| {
            let series = (1..=played)
                .rev()
                .take_while(|&r| entry(id, r).result == ResultCode::ZeroPointBye)
                .count() as u32;
            own[id.index()] + Score(series * scoring.draw.0)
        })
        .collect();
    ids.iter()
        .map(|&id| {
            let mut index = OppositionIndex::default();
            for r in 1..=played {
                let e = entry(id, r);
                let opponent = match e.opponent {
                    Some(opponent) if e.is_played() => seen[opponent.index()],
                    _ => own[id.index()],
                };
                index.buchholz += opponent;
                index.sonneborn_berger +=
                    u64::from(scoring.points(e.result).0) * u64::from(opponent.0);
            }
            index
        })
        .collect()
}
