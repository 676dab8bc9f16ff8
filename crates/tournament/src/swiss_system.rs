//! The Swiss systems of the crate by name ([`SwissSystem`]: Dutch or Burstein), and the one step
//! every caller that pairs a Swiss round takes: accelerate the tournament if asked, then pair
//! it ([`SwissSystem::pair_accelerated`]). The command line (`rookery pair`) and a
//! competition (the site's Swiss tournaments) both go through it, so a tournament the site
//! paired and exported is re-paired by the command line exactly as the site paired it.

use std::borrow::Cow;
use std::fmt;

use crate::acceleration::{self, BakuError, Method};
use crate::model::{RoundPairing, Tournament};
use crate::swiss::{PairError, RoundCheck};
use crate::{burstein, dutch};

/// A FIDE Swiss system this crate pairs by.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum SwissSystem {
    /// The Dutch system, FIDE Handbook C.04.3 (2026): [`dutch::pair`].
    #[default]
    Dutch,
    /// The Burstein system, FIDE Handbook C.04.4.2 (2026): [`burstein::pair`].
    Burstein,
}

impl SwissSystem {
    /// Both systems.
    pub const ALL: [SwissSystem; 2] = [SwissSystem::Dutch, SwissSystem::Burstein];

    /// Pairs round `round` of `tournament` by this system, with the tournament's own
    /// accelerations if it has any.
    ///
    /// # Errors
    ///
    /// [`PairError`], as [`dutch::pair`] and [`burstein::pair`] give it.
    pub fn pair(self, tournament: &Tournament, round: u32) -> Result<RoundPairing, PairError> {
        match self {
            SwissSystem::Dutch => dutch::pair(tournament, round),
            SwissSystem::Burstein => burstein::pair(tournament, round),
        }
    }

    /// Accelerates `tournament` by `method` (none: as it is), then pairs round `round` by this
    /// system. A tournament with accelerations of its own (TRF `250`, `XXA`) keeps them, as
    /// [`acceleration::accelerate`] says; the tournament given is left untouched either way.
    ///
    /// # Errors
    ///
    /// [`SwissPairError::Acceleration`] when the method cannot be applied (the number of
    /// rounds unknown, a scoring other than 1-½-0, no such last GA player),
    /// [`SwissPairError::Pair`] when the round cannot be paired.
    pub fn pair_accelerated(
        self,
        tournament: &Tournament,
        round: u32,
        method: Option<Method>,
    ) -> Result<RoundPairing, SwissPairError> {
        let mut tournament = Cow::Borrowed(tournament);
        if let Some(method) = method {
            if tournament.accelerations.is_empty() {
                acceleration::accelerate(tournament.to_mut(), method)
                    .map_err(SwissPairError::Acceleration)?;
            }
        }
        self.pair(&tournament, round).map_err(SwissPairError::Pair)
    }

    /// Re-pairs every round of `tournament` by this system ([`dutch::check`],
    /// [`burstein::check`]).
    pub fn check(self, tournament: &Tournament) -> Vec<RoundCheck> {
        match self {
            SwissSystem::Dutch => dutch::check(tournament),
            SwissSystem::Burstein => burstein::check(tournament),
        }
    }

    /// The FIDE text the system implements: `C.04.3, 2026`, `C.04.4.2, 2026`.
    pub const fn article(self) -> &'static str {
        match self {
            SwissSystem::Dutch => "C.04.3, 2026",
            SwissSystem::Burstein => "C.04.4.2, 2026",
        }
    }

    /// The tournament type (TRF `092`) that names the system and, with `accelerated`, the Baku
    /// acceleration as bbpPairings reads it (`FIDE_BURSTEIN`, `FIDE_DUTCH_BAKU`,
    /// `FIDE_BURSTEIN_BAKU`); [`acceleration::declared`] reads the `_BAKU` back.
    pub const fn trf_kind(self, accelerated: bool) -> &'static str {
        match (self, accelerated) {
            (SwissSystem::Dutch, false) => "FIDE_DUTCH",
            (SwissSystem::Dutch, true) => "FIDE_DUTCH_BAKU",
            (SwissSystem::Burstein, false) => "FIDE_BURSTEIN",
            (SwissSystem::Burstein, true) => "FIDE_BURSTEIN_BAKU",
        }
    }
}

impl fmt::Display for SwissSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SwissSystem::Dutch => "Dutch",
            SwissSystem::Burstein => "Burstein",
        })
    }
}

/// Why an accelerated round cannot be paired: the acceleration or the pairing rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SwissPairError {
    /// The acceleration cannot be applied to the tournament.
    Acceleration(BakuError),
    /// The pairing rules give no pairing, or lack what they need.
    Pair(PairError),
}

impl fmt::Display for SwissPairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissPairError::Acceleration(e) => write!(f, "the Baku acceleration: {e}"),
            SwissPairError::Pair(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SwissPairError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PlayerId;
    use crate::trf;
    use crate::Score;

    fn eight_players() -> Tournament {
        let mut text = String::from("012 Accelerated open\rXXR 5\r152 W\r");
        for n in 1..=8 {
            text.push_str(&format!(
                "001 {n:>4}      Player {n:04}                       {:>4}                             0.0 {n:>4}\r",
                2500 - 10 * n
            ));
        }
        trf::read(&text).unwrap()
    }

    #[test]
    fn acceleration_changes_round_one_and_leaves_the_tournament_untouched() {
        let t = eight_players();
        let id = |n| PlayerId::new(n).unwrap();
        for system in SwissSystem::ALL {
            // Round 1 is a Dutch round in both systems (C.04.4.2 1.6.1): 1-5 without
            // acceleration, 1-3 with GA = 1-4 given a virtual point.
            let plain = system.pair_accelerated(&t, 1, None).unwrap();
            assert_eq!(plain, system.pair(&t, 1).unwrap(), "{system}");
            assert!(plain.pairs.iter().any(|p| (p.white, p.black) == (id(1), id(5))), "{system}");
            let baku = Method::Baku { last_ga: None };
            let fast = system.pair_accelerated(&t, 1, Some(baku)).unwrap();
            assert!(fast.pairs.iter().any(|p| (p.white, p.black) == (id(1), id(3))), "{system}");
            assert!(t.accelerations.is_empty(), "{system}: the tournament given is not changed");
        }
    }

    #[test]
    fn a_tournament_with_its_own_accelerations_keeps_them() {
        let mut t = eight_players();
        // The arbiter's own: players 1-2 one point in round 1. Baku would give 1-4 one.
        for n in 1..=2 {
            t.accelerations.push(crate::Acceleration {
                player: PlayerId::new(n).unwrap(),
                points: vec![Score::ONE],
            });
        }
        let kept = SwissSystem::Dutch.pair_accelerated(&t, 1, Some(Method::Baku { last_ga: None }));
        assert_eq!(kept.unwrap(), SwissSystem::Dutch.pair(&t, 1).unwrap());
    }

    #[test]
    fn an_acceleration_that_cannot_apply_is_an_error_not_a_plain_pairing() {
        let mut t = eight_players();
        t.rounds = None;
        let baku = Method::Baku { last_ga: None };
        assert_eq!(
            SwissSystem::Burstein.pair_accelerated(&t, 1, Some(baku)),
            Err(SwissPairError::Acceleration(BakuError::RoundsUnknown))
        );
        let t = eight_players();
        let beyond = Method::Baku { last_ga: PlayerId::new(9) };
        assert_eq!(
            SwissSystem::Dutch.pair_accelerated(&t, 1, Some(beyond)),
            Err(SwissPairError::Acceleration(BakuError::NoSuchPlayer(PlayerId::new(9).unwrap())))
        );
    }

    #[test]
    fn trf_kinds_read_back_as_declared() {
        for system in SwissSystem::ALL {
            for accelerated in [false, true] {
                let t = Tournament {
                    kind: Some(system.trf_kind(accelerated).into()),
                    ..Tournament::default()
                };
                assert_eq!(acceleration::declared(&t), accelerated, "{system} {accelerated}");
            }
        }
    }
}
