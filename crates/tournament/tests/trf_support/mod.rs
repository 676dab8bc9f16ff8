//! A stand-in pairing engine for the TRF and generator tests: no Swiss rules, just the
//! players present in score order, paired two by two, the last one getting the bye. The
//! generator is tested with it until the Dutch engine pairs its rounds.

use std::cmp::Reverse;
use std::convert::Infallible;

use rookery_core::Color;
use rookery_tournament::{Pair, PlayerId, RoundPairing, Tournament};

/// Pairs the players without an entry for `round` in order of score, then pairing number;
/// of two, the one who had White less often gets it.
pub fn by_score(t: &Tournament, round: u32) -> Result<RoundPairing, Infallible> {
    let mut present: Vec<PlayerId> =
        t.player_ids().filter(|&id| t.player(id).unwrap().round(round).is_none()).collect();
    present.sort_by_key(|&id| (Reverse(t.score_after(id, round - 1)), id));
    let bye = if present.len() % 2 == 1 { present.pop() } else { None };
    let whites = |id: PlayerId| {
        t.player(id).unwrap().rounds.iter().filter(|e| e.colour == Some(Color::White)).count()
    };
    let pairs = present
        .chunks_exact(2)
        .map(|two| {
            let (a, b) = (two[0], two[1]);
            if whites(a) <= whites(b) {
                Pair { white: a, black: b }
            } else {
                Pair { white: b, black: a }
            }
        })
        .collect();
    Ok(RoundPairing { pairs, bye })
}
