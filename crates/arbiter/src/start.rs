//! How a game starts: whether the clocks wait for the first moves, and what happens to a side
//! that never makes its first move.
//!
//! Over the board the arbiter starts White's clock at the start of the round (FIDE Laws 6.2);
//! a player who has not arrived within the default time loses (FIDE Laws 6.7). Online, where
//! a seek is accepted by someone who may never open the game, lichess's rule is fairer: no
//! clock runs before both sides have made their first move, each side has a short deadline
//! for that move, and a game in which a side misses it is aborted (RULES.md §11: an aborted
//! game changes no points). [`StartPolicy`] is that rule as data, pure and given the time:
//! [`MissedStart::Abort`] for online games, [`MissedStart::Forfeit`] for FIDE's default time
//! (tournaments).

use core::fmt;
use core::str::FromStr;

use crate::time_control::Speed;

/// The rule for a game whose clocks wait for both sides' first moves.
///
/// The side to move at the start has `first_move_ms` from the game's creation to make its
/// first move; the other side has `first_move_ms` from that move to make its own. The clocks
/// start with the second of these moves, for the side then to move. A side that misses its
/// deadline ends the game as `missed` says (termination
/// [`NoStart`](crate::Termination::NoStart)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StartPolicy {
    /// Each side's time for its first move, in ms.
    pub first_move_ms: u64,
    /// What a missed deadline does.
    pub missed: MissedStart,
}

/// What happens when a side does not make its first move in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MissedStart {
    /// The game is aborted: no result, no points (online play, as lichess does).
    Abort,
    /// The side that did not move loses (FIDE Laws 6.7, the default time of tournaments).
    Forfeit,
}

impl StartPolicy {
    /// The online rule: aborted when a first move is missed, with a deadline by speed.
    pub const fn online(speed: Speed) -> StartPolicy {
        StartPolicy {
            first_move_ms: StartPolicy::first_move_ms_for(speed),
            missed: MissedStart::Abort,
        }
    }

    /// The time for a first move at `speed`: 30 s in bullet and blitz (as lichess), longer
    /// as the game is slower.
    pub const fn first_move_ms_for(speed: Speed) -> u64 {
        match speed {
            Speed::Bullet | Speed::Blitz => 30_000,
            Speed::Rapid => 60_000,
            Speed::Classical => 120_000,
            Speed::Correspondence | Speed::Untimed => 24 * 3600 * 1000,
        }
    }
}

impl MissedStart {
    /// `abort` or `forfeit`.
    pub const fn name(self) -> &'static str {
        match self {
            MissedStart::Abort => "abort",
            MissedStart::Forfeit => "forfeit",
        }
    }
}

/// Text that is not a start policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseStartPolicyError {
    /// The offending text.
    pub text: String,
}

impl fmt::Display for ParseStartPolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a start policy (like abort:30000 or forfeit:60000): {:?}", self.text)
    }
}

impl std::error::Error for ParseStartPolicyError {}

/// `abort:30000`: what a missed first move does, and the deadline in ms.
impl fmt::Display for StartPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.missed.name(), self.first_move_ms)
    }
}

impl FromStr for StartPolicy {
    type Err = ParseStartPolicyError;

    fn from_str(s: &str) -> Result<StartPolicy, ParseStartPolicyError> {
        let err = || ParseStartPolicyError { text: s.to_owned() };
        let (missed, ms) = s.split_once(':').ok_or_else(err)?;
        let missed = match missed {
            "abort" => MissedStart::Abort,
            "forfeit" => MissedStart::Forfeit,
            _ => return Err(err()),
        };
        if ms.is_empty() || !ms.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let first_move_ms = ms.parse().map_err(|_| err())?;
        Ok(StartPolicy { first_move_ms, missed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        for speed in [Speed::Bullet, Speed::Rapid, Speed::Classical, Speed::Untimed] {
            let p = StartPolicy::online(speed);
            assert_eq!(p.to_string().parse::<StartPolicy>(), Ok(p));
        }
        let forfeit = StartPolicy { first_move_ms: 900_000, missed: MissedStart::Forfeit };
        assert_eq!("forfeit:900000".parse::<StartPolicy>(), Ok(forfeit));
        for bad in ["", "abort", "abort:", "abort:-1", "abort:3s", "draw:100", ":100"] {
            assert!(bad.parse::<StartPolicy>().is_err(), "{bad}");
        }
    }

    #[test]
    fn slower_games_wait_longer() {
        let speeds = [Speed::Blitz, Speed::Rapid, Speed::Classical, Speed::Correspondence];
        for pair in speeds.windows(2) {
            assert!(
                StartPolicy::first_move_ms_for(pair[0]) < StartPolicy::first_move_ms_for(pair[1])
            );
        }
    }
}
