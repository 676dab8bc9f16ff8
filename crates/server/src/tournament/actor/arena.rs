//! The arena's driving: berserk, the pairing waves on the clock's tick, the games of each
//! wave.

use rookery_store::{Player, PlayerKind, TournamentStatus, UserId};
use rookery_tournament::arena::GameId as ArenaGameId;
use rookery_tournament::PlayerId;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::live::Command as GameCommand;
use crate::protocol::GameAction;
use crate::state::now_ms;
use crate::tournament::log::Entry;
use crate::tournament::settings::Format;
use crate::tournament::Who;

use super::Actor;
use crate::tournament::book::refused;

impl Actor {
    pub(super) async fn berserk(&mut self, who: &Who, game: &str) -> Result<Value, ApiError> {
        let Some((None, n)) = self.tour.seat_of(game) else {
            return Err(ApiError::field("game", format!("{game:?} is not a game of this arena")));
        };
        let key = who.name.to_lowercase();
        let index = self.tour.book.arena_players.iter().position(|p| p.key == key);
        let player =
            index.ok_or_else(|| refused("not_joined", "you are not in the arena"))? as u32 + 1;
        let arena =
            self.tour.book.arena.as_ref().ok_or_else(|| refused("not_running", "no arena"))?;
        let (g, _) =
            arena.game(ArenaGameId(n)).ok_or_else(|| ApiError::field("game", "no such game"))?;
        let colour = g
            .colour_of(PlayerId::from_index(player as usize - 1))
            .ok_or_else(|| refused("berserk_refused", "you do not play in this game"))?;
        // Check on a copy before touching the game's clock.
        self.tour.book.clone().fold(
            &self.tour.settings,
            &Entry::Berserk { game: n, player },
            now_ms(),
        )?;
        let handle = self
            .state
            .live
            .get(&self.tour.arena_game(n))
            .ok_or_else(|| refused("berserk_refused", "the game is over"))?;
        let (reply, rx) = tokio::sync::oneshot::channel();
        handle
            .send(GameCommand::Arbiter { action: GameAction::Berserk { color: colour }, reply })
            .await;
        if let Ok(Some(refusal)) = rx.await {
            return Err(refused("berserk_refused", refusal.to_string()));
        }
        self.record(Entry::Berserk { game: n, player }, Some(who), None).await?;
        Ok(json!({"clock_ms": self.tour.settings.arena_clock().initial / 2}))
    }

    /// The clock's work: a scheduled start, an arena's pairings and its end.
    pub(super) async fn on_tick(&mut self) -> Result<(), ApiError> {
        let now = now_ms();
        if self.tour.book.status == TournamentStatus::Upcoming
            && self.tour.settings.starts_at_ms.is_some_and(|t| t <= now)
        {
            let enough = self.tour.settings.format == Format::Arena
                || self.tour.book.comp.entrants().len() >= 2;
            if enough {
                self.start(None).await?;
            } else {
                self.record(
                    Entry::Cancel,
                    None,
                    Some("fewer than two players at the start".into()),
                )
                .await?;
            }
        }
        if self.tour.book.status != TournamentStatus::Running {
            return Ok(());
        }
        let Some(arena) = &self.tour.book.arena else { return Ok(()) };
        if arena.ended(now) {
            return self.record(Entry::End, None, None).await;
        }
        if !arena.is_pairing_open(now) {
            return Ok(());
        }
        let games: Vec<(u32, u32)> =
            arena.clone().pair(now).iter().map(|g| (g.white.get(), g.black.get())).collect();
        if games.is_empty() {
            return Ok(());
        }
        self.record(Entry::ArenaPair { games: games.clone() }, None, None).await?;
        self.create_arena_games().await
    }

    /// Creates the games of the arena's playing pairs (each once).
    pub(super) async fn create_arena_games(&mut self) -> Result<(), ApiError> {
        let Some(arena) = &self.tour.book.arena else { return Ok(()) };
        let playing: Vec<_> = arena.playing().collect();
        for g in playing {
            let id = self.tour.arena_game(g.id.0);
            if self.state.live.get(&id).is_some() {
                continue;
            }
            let p = |pid: PlayerId| {
                let a = &self.tour.book.arena_players[pid.index()];
                Player {
                    kind: PlayerKind::User,
                    user_id: Some(UserId(a.user_id)),
                    name: a.name.clone(),
                    engine_level: None,
                }
            };
            let (white, black) = (p(g.white), p(g.black));
            self.create_game(id, white, black, None, g.id.0).await?;
        }
        Ok(())
    }
}
