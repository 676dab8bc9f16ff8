//! What a new live game is made of, whatever made it: a seek accepted, a challenge, a game
//! against the engine, a tournament's pairing. One request, one way to create a game.

use rookery_arbiter::{RuleSet, StartPolicy, TimeControl};
use rookery_store::{Player, PlayerKind, TournamentSeat};

use crate::{GameId, Variant};

/// A game to create and start.
#[derive(Clone, Debug)]
pub struct NewLiveGame {
    /// Its id: a tournament game's is derived from the tournament, round and board, so that
    /// creating a round's games again after a crash creates each once; `None`: a fresh one.
    pub id: Option<GameId>,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// Standard chess, or Chess960 from its start position (fixed before the game is made:
    /// a tournament gives every board of a round the same).
    pub variant: Variant,
    /// The rule set.
    pub rules: RuleSet,
    /// The time control.
    pub time_control: TimeControl,
    /// Whether it counts for the ladder.
    pub rated: bool,
    /// How it starts; `None`: the clock runs from the creation.
    pub start: Option<StartPolicy>,
    /// A tournament game's tournament, round and board.
    pub tournament: Option<TournamentSeat>,
}

impl NewLiveGame {
    /// A game between `white` and `black` outside a tournament. Between people it starts by
    /// the online rule (the clocks wait for both first moves, and a missed first move aborts
    /// it); against the engine, which is always there, the clock runs from the start.
    pub fn between(
        white: Player,
        black: Player,
        variant: Variant,
        rules: RuleSet,
        time_control: TimeControl,
        rated: bool,
    ) -> NewLiveGame {
        let engine = white.kind == PlayerKind::Engine || black.kind == PlayerKind::Engine;
        let start = (!engine).then(|| StartPolicy::online(time_control.speed()));
        NewLiveGame {
            id: None,
            white,
            black,
            variant,
            rules,
            time_control,
            rated,
            start,
            tournament: None,
        }
    }
}
