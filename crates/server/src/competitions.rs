//! The server's side of the competitions: the live games' events routed to their
//! tournaments (ARCHITECTURE.md, "Games and competitions talk by events").

use std::sync::{Arc, Weak};

use crate::live::GameEvent;
use crate::state::AppState;

/// Routes the live games' events to their tournaments while the server lives. Subscribed at
/// once, so that no game resumed after this call ends unheard.
pub(crate) fn route_game_events(state: &Arc<AppState>) {
    let mut events = state.live.events.subscribe();
    let state: Weak<AppState> = Arc::downgrade(state);
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            let Some(state) = state.upgrade() else { break };
            match event {
                GameEvent::Started { game, seat: Some(seat) } => {
                    state.tournaments.game_started(&state, &seat.tournament, game);
                }
                // Each end in its own task, as each game's actor passed it on before: one
                // tournament rebuilt from the store holds up no other's results.
                GameEvent::Ended { game, seat: Some(seat), outcome, plies } => {
                    tokio::spawn(async move {
                        state
                            .tournaments
                            .game_ended(&state, &seat.tournament, game, outcome, plies)
                            .await;
                    });
                }
                GameEvent::Started { seat: None, .. } | GameEvent::Ended { seat: None, .. } => {}
            }
        }
    });
}
