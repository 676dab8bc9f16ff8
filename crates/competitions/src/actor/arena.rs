//! The arena's driving: berserk, the pairing waves on the clock's tick, the games of each
//! wave.

use rookery_store::{Player, PlayerKind, TournamentStatus, UserId};
use rookery_tournament::arena::GameId as ArenaGameId;
use rookery_tournament::PlayerId;

use crate::log::{self, Entry};
use crate::now_ms;
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::settings::Format;
use crate::Who;
use rookery_protocol::GameAction;

use super::Actor;
use crate::handle::Answer;
use crate::ports::{Acted, Host};

impl<H: Host> Actor<H> {
    pub(super) async fn berserk(
        &mut self,
        who: &Who,
        game: &str,
    ) -> Result<Answer, TournamentError> {
        let Some((None, n)) = self.tour.seat_of(game) else {
            return Err(TournamentRefusal::NotArenaGame(game.to_owned()).into());
        };
        let key = who.name.to_lowercase();
        let index = self.tour.book.arena_players.iter().position(|p| p.key == key);
        let player = index.ok_or(TournamentRefusal::NotInArena)? as u32 + 1;
        let arena = self.tour.book.arena.as_ref().ok_or(TournamentRefusal::NoArena)?;
        let (g, _) = arena.game(ArenaGameId(n)).ok_or(TournamentRefusal::NoArenaGame)?;
        let colour = g
            .colour_of(PlayerId::from_index(player as usize - 1))
            .ok_or(TournamentRefusal::NotYourGame)?;
        // Check on a copy before touching the game's clock.
        self.tour.book.clone().fold(
            &self.tour.settings,
            &Entry::Berserk(log::Berserk { game: n, player }),
            now_ms(),
        )?;
        match self.host().act(&self.tour.arena_game(n), GameAction::Berserk { color: colour }).await
        {
            Acted::Done => {}
            Acted::Refused(refusal) => {
                return Err(TournamentRefusal::BerserkRefused(refusal).into())
            }
            Acted::NotLive => return Err(TournamentRefusal::BerserkTooLate.into()),
        }
        self.record(Entry::Berserk(log::Berserk { game: n, player }), Some(who), None).await?;
        Ok(Answer::Berserk { clock_ms: self.tour.settings.arena_clock().initial / 2 })
    }

    /// The clock's work: a scheduled start, an arena's pairings and its end.
    pub(super) async fn on_tick(&mut self) -> Result<(), TournamentError> {
        let now = now_ms();
        if self.tour.book.status == TournamentStatus::Upcoming
            && self.tour.settings.starts_at_ms.is_some_and(|t| t <= now)
        {
            let enough = match &self.tour.book.team {
                Some(team) => team.teams.len() >= 2,
                None => {
                    self.tour.settings.format == Format::Arena
                        || self.tour.book.comp.entrants().len() >= 2
                }
            };
            if enough {
                self.start(None).await?;
            } else {
                self.record(
                    Entry::Cancel(log::Empty {}),
                    None,
                    Some("fewer than two players at the start".into()),
                )
                .await?;
            }
        }
        if self.tour.book.status != TournamentStatus::Running {
            return Ok(());
        }
        if self.tour.book.team.is_some() {
            return self.team_tick(now).await;
        }
        let Some(arena) = &self.tour.book.arena else { return Ok(()) };
        if arena.ended(now) {
            return self.record(Entry::End(log::Empty {}), None, None).await;
        }
        if !arena.is_pairing_open(now) {
            return Ok(());
        }
        let games: Vec<(u32, u32)> =
            arena.clone().pair(now).iter().map(|g| (g.white.get(), g.black.get())).collect();
        if games.is_empty() {
            return Ok(());
        }
        self.record(Entry::ArenaPair(log::ArenaPair { games: games.clone() }), None, None).await?;
        self.create_arena_games().await
    }

    /// Creates the games of the arena's playing pairs (each once).
    pub(super) async fn create_arena_games(&mut self) -> Result<(), TournamentError> {
        let Some(arena) = &self.tour.book.arena else { return Ok(()) };
        let playing: Vec<_> = arena.playing().collect();
        for g in playing {
            let id = self.tour.arena_game(g.id.0);
            if self.host().is_live(&id) {
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
