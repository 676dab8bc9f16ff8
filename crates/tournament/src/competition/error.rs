//! Why an action on a competition is refused: [`CompetitionError`], with the round's state
//! and the pairing's fault as enums of their own, so that a caller maps each to its own word
//! (an API code, a log entry) by variant, never by the English of the message.

use std::fmt;

use super::EntrantId;
use crate::acceleration::BakuError;
use crate::berger::BergerError;
use crate::dutch::PairError;
use crate::model::{PlayerId, ResultCode};

/// Why an action is refused: the state it would break, named.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CompetitionError {
    /// No such entrant.
    UnknownEntrant(EntrantId),
    /// The key is taken.
    DuplicateKey(String),
    /// Entries are closed (the round after which late entries end has been paired, or a
    /// round robin has started).
    EntriesClosed,
    /// A round that does not exist, or not in the state the action needs.
    Round {
        /// The round.
        round: u32,
        /// What is wrong with it.
        problem: RoundProblem,
    },
    /// No such board in the round.
    UnknownBoard {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// Too many byes asked for.
    TooManyByes {
        /// Who.
        entrant: EntrantId,
        /// Their name, for the message.
        name: String,
        /// The limit.
        limit: u32,
    },
    /// Boards that are not a pairing of the round; [`PairingProblem`] says why.
    BadPairing(PairingProblem),
    /// The pairing rules give no pairing.
    Pairing(PairError),
    /// The acceleration of the settings cannot be applied (a scoring other than 1-½-0, a
    /// last GA player who is not an entrant).
    Acceleration(BakuError),
    /// The competition is over: every round is finished.
    Over,
    /// Too few entrants.
    TooFewEntrants,
}

impl fmt::Display for CompetitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompetitionError::UnknownEntrant(id) => write!(f, "no {id}"),
            CompetitionError::DuplicateKey(key) => write!(f, "{key:?} has already joined"),
            CompetitionError::EntriesClosed => write!(f, "entries are closed"),
            CompetitionError::Round { round, problem } => write!(f, "round {round}: {problem}"),
            CompetitionError::UnknownBoard { round, board } => {
                write!(f, "round {round} has no board {board}")
            }
            CompetitionError::TooManyByes { name, limit: 0, .. } => {
                write!(f, "{name} may ask for no bye")
            }
            CompetitionError::TooManyByes { name, limit: 1, .. } => {
                write!(f, "{name} has asked for the 1 bye allowed")
            }
            CompetitionError::TooManyByes { name, limit, .. } => {
                write!(f, "{name} has asked for the {limit} byes allowed")
            }
            CompetitionError::BadPairing(problem) => write!(f, "not a pairing: {problem}"),
            CompetitionError::Pairing(e) => e.fmt(f),
            CompetitionError::Acceleration(e) => write!(f, "the Baku acceleration: {e}"),
            CompetitionError::Over => write!(f, "every round has been played"),
            CompetitionError::TooFewEntrants => write!(f, "at least two entrants are needed"),
        }
    }
}

impl std::error::Error for CompetitionError {}

/// What is wrong with a round for the action asked (the action is refused, the competition
/// unchanged). One variant per state an action can find a round in the wrong way, so that
/// callers tell them apart by variant, never by the message.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RoundProblem {
    /// The round is paired: too late to withdraw from it or to cancel a bye in it.
    PairedAlready,
    /// A bye for a round that is paired already or after the last round.
    NotToPair,
    /// A pairing for a round other than the next one.
    NotNext,
    /// The round before is not finished: no next round is paired before it is.
    PreviousUnfinished,
    /// Publishing a round that is not paired and unpublished.
    NotAwaitingPublication,
    /// Unpairing a round that is not the last one paired.
    NotLastPaired,
    /// Unpairing a round with a result on a board.
    HasResults,
    /// A result for a round not yet published.
    NotPublished,
    /// Swapping the colours of a board whose game has a result.
    GameHasResult,
    /// A round that has not been paired.
    NotPaired,
    /// Taking back the result of a board that has none.
    NoResult,
    /// Taking back a result the board no longer has (another was entered since).
    OtherResult,
}

impl fmt::Display for RoundProblem {
    /// The text after `round N: ` in [`CompetitionError::Round`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RoundProblem::PairedAlready => "is paired already",
            RoundProblem::NotToPair => "is not a round still to pair",
            RoundProblem::NotNext => "is not the next round",
            RoundProblem::PreviousUnfinished => "the round before is not finished",
            RoundProblem::NotAwaitingPublication => "is not waiting to be published",
            RoundProblem::NotLastPaired => "is not the last round paired",
            RoundProblem::HasResults => "has results",
            RoundProblem::NotPublished => "is not published",
            RoundProblem::GameHasResult => "the game has a result",
            RoundProblem::NotPaired => "is not paired",
            RoundProblem::NoResult => "the board has no result",
            RoundProblem::OtherResult => "the board has another result now",
        })
    }
}

/// Why boards are not a pairing of the round: an entrant to be paired is not paired exactly
/// once, the Berger table has no such round, or (in an imported report) two entries that do
/// not make a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PairingProblem {
    /// The entrant is on two boards, or on a board and the pairing-allocated bye.
    PairedTwice {
        /// Who.
        entrant: EntrantId,
        /// Their name, for the message.
        name: String,
    },
    /// The entrant is paired in a Swiss round they do not take part in (withdrawn, a bye
    /// entered, or entered after it).
    NotDue {
        /// Who.
        entrant: EntrantId,
        /// Their name, for the message.
        name: String,
        /// The round.
        round: u32,
    },
    /// The entrant takes part in the round but is on no board and not the bye.
    LeftOut {
        /// Who.
        entrant: EntrantId,
        /// Their name, for the message.
        name: String,
    },
    /// The Berger table has no such round, or no table for this many entrants.
    Berger(BergerError),
    /// An imported report pairs a player with an opponent who has no entry for the round.
    NoEntry {
        /// The round.
        round: u32,
        /// The opponent, by pairing number in the report.
        player: PlayerId,
    },
    /// An imported report gives the two players of a board results that do not make a game
    /// (`1` against `1`, `+` against `=` …).
    NoGame {
        /// The round.
        round: u32,
        /// White's result.
        white: ResultCode,
        /// Black's result.
        black: ResultCode,
    },
}

impl fmt::Display for PairingProblem {
    /// The text after `not a pairing: ` in [`CompetitionError::BadPairing`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingProblem::PairedTwice { name, .. } => write!(f, "{name} is paired twice"),
            PairingProblem::NotDue { name, round, .. } => {
                write!(f, "{name} is not to be paired in round {round}")
            }
            PairingProblem::LeftOut { name, .. } => write!(f, "{name} is left out"),
            PairingProblem::Berger(e) => e.fmt(f),
            PairingProblem::NoEntry { round, player } => {
                write!(f, "round {round}: player {player} has no entry")
            }
            PairingProblem::NoGame { round, white, black } => write!(
                f,
                "round {round}: results {} and {} do not make a game",
                white.to_char(),
                black.to_char()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_problem_reads_as_it_always_has() {
        let cases = [
            (RoundProblem::PairedAlready, "round 3: is paired already"),
            (RoundProblem::NotToPair, "round 3: is not a round still to pair"),
            (RoundProblem::NotNext, "round 3: is not the next round"),
            (RoundProblem::PreviousUnfinished, "round 3: the round before is not finished"),
            (RoundProblem::NotAwaitingPublication, "round 3: is not waiting to be published"),
            (RoundProblem::NotLastPaired, "round 3: is not the last round paired"),
            (RoundProblem::HasResults, "round 3: has results"),
            (RoundProblem::NotPublished, "round 3: is not published"),
            (RoundProblem::GameHasResult, "round 3: the game has a result"),
            (RoundProblem::NotPaired, "round 3: is not paired"),
        ];
        for (problem, message) in cases {
            let e = CompetitionError::Round { round: 3, problem };
            assert_eq!(e.to_string(), message, "{problem:?}");
        }
    }

    #[test]
    fn a_pairing_problem_names_the_entrant_or_the_round() {
        let (entrant, name) = (EntrantId(2), "Cleo".to_owned());
        let cases = [
            (
                PairingProblem::PairedTwice { entrant, name: name.clone() },
                "not a pairing: Cleo is paired twice",
            ),
            (
                PairingProblem::NotDue { entrant, name: name.clone(), round: 4 },
                "not a pairing: Cleo is not to be paired in round 4",
            ),
            (PairingProblem::LeftOut { entrant, name }, "not a pairing: Cleo is left out"),
            (
                PairingProblem::NoEntry { round: 2, player: PlayerId::new(7).unwrap() },
                "not a pairing: round 2: player 7 has no entry",
            ),
            (
                PairingProblem::NoGame {
                    round: 2,
                    white: ResultCode::Win,
                    black: ResultCode::Draw,
                },
                "not a pairing: round 2: results 1 and = do not make a game",
            ),
        ];
        for (problem, message) in cases {
            assert_eq!(CompetitionError::BadPairing(problem).to_string(), message);
        }
    }
}
