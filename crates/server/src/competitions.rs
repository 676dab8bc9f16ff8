//! The server's side of the competitions (`rookery-competitions`): the ports a tournament
//! reaches games and players through ([`ServerHost`]), and the live games' events routed to
//! their tournaments, here or, on a cluster, on the node that runs them (ARCHITECTURE.md,
//! "Games and competitions talk by events").

use std::future::Future;
use std::sync::{Arc, Weak};

use rookery_arbiter::{Outcome, Termination};
use rookery_cluster::{Claimed, Relay};
use rookery_competitions::{
    Acted, Claims, GameHost, GameNotice, Lobby, TournamentClaim, TournamentError, TournamentHandle,
};
use rookery_core::ByColor;

use crate::live::{Command, CreateError, GameEvent, LiveGames};
use crate::lobby::{Lobby as LobbyRoom, LobbyMessage};
use crate::protocol::{GameAction, GameId, NewLiveGame};

/// The tournaments of this server.
pub type Tournaments = rookery_competitions::Tournaments<ServerHost>;

/// The server as the tournaments see it: its live games and its lobby, held weakly, so that
/// the tournaments (which the events' router holds while the live games publish) keep
/// neither alive.
#[derive(Clone)]
pub struct ServerHost {
    live: Weak<LiveGames>,
    lobby: Weak<LobbyRoom>,
}

impl ServerHost {
    /// The host of these live games and this lobby.
    pub fn new(live: &Arc<LiveGames>, lobby: &Arc<LobbyRoom>) -> ServerHost {
        ServerHost { live: Arc::downgrade(live), lobby: Arc::downgrade(lobby) }
    }
}

impl GameHost for ServerHost {
    fn is_live(&self, game: &GameId) -> bool {
        self.live.upgrade().is_some_and(|live| live.get(game).is_some())
    }

    fn create(
        &self,
        game: NewLiveGame,
    ) -> impl Future<Output = Result<bool, TournamentError>> + Send {
        let live = self.live.upgrade();
        async move {
            let live = live.ok_or_else(|| TournamentError::Games("the server stops".into()))?;
            match live.create(game).await {
                Ok(_) => Ok(true),
                Err(CreateError::Exists(_)) => Ok(false),
                Err(e) => Err(TournamentError::Games(e.to_string())),
            }
        }
    }

    fn act(&self, game: &GameId, action: GameAction) -> impl Future<Output = Acted> + Send {
        let handle = self.live.upgrade().and_then(|live| live.get(game));
        async move {
            let Some(handle) = handle else { return Acted::NotLive };
            let (reply, rx) = tokio::sync::oneshot::channel();
            handle.send(Command::Arbiter { action, reply }).await;
            match rx.await {
                Ok(Some(refusal)) => Acted::Refused(refusal),
                // Done, or the actor ended as it was told (the game is over: nothing to undo).
                Ok(None) | Err(_) => Acted::Done,
            }
        }
    }

    fn clocks(&self, game: &GameId) -> impl Future<Output = Option<ByColor<Option<u64>>>> + Send {
        let handle = self.live.upgrade().and_then(|live| live.get(game));
        async move {
            let view = handle?.snapshot().await?;
            Some(ByColor { white: view.clock.white_ms, black: view.clock.black_ms })
        }
    }

    fn stop(&self, game: &GameId) -> impl Future<Output = ()> + Send {
        let live = self.live.upgrade();
        let handle = live.as_ref().and_then(|live| live.get(game));
        async move {
            let (Some(live), Some(handle)) = (live, handle) else { return };
            let (reply, rx) = tokio::sync::oneshot::channel();
            handle.send(Command::Shutdown { reply }).await;
            let _ = rx.await;
            live.remove(&handle);
        }
    }

    fn follow_elsewhere(
        &self,
        tournament: &str,
        handle: TournamentHandle,
    ) -> impl Future<Output = ()> + Send {
        let relay = self.live.upgrade().map(|live| live.services().relay.clone());
        let tournament = tournament.to_owned();
        async move {
            if let Some(relay) = relay {
                follow_games_elsewhere(&*relay, tournament, handle).await;
            }
        }
    }
}

impl Claims for ServerHost {
    fn claim_tournament(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<TournamentClaim, TournamentError>> + Send {
        let ownership = self.live.upgrade().map(|live| live.services().ownership.clone());
        let id = id.to_owned();
        async move {
            let ownership =
                ownership.ok_or_else(|| TournamentError::Games("the server stops".into()))?;
            Ok(match ownership.claim_tournament(&id).await? {
                Claimed::Here { claim, .. } => TournamentClaim::Here(ownership.writer(claim)),
                Claimed::Elsewhere(owner) => TournamentClaim::Elsewhere(owner),
                Claimed::Over => TournamentClaim::Over,
            })
        }
    }
}

impl Lobby for ServerHost {
    fn tell(&self, name: &str, notice: &GameNotice) {
        if let Some(lobby) = self.lobby.upgrade() {
            let text: Arc<str> = Arc::from(notice.to_text());
            let _ = lobby.events.send(LobbyMessage::to_names(vec![name.to_owned()], text));
        }
    }
}

/// Routes the live games' events to their tournaments while the live games publish.
/// Subscribed at once, so that no game resumed after this call ends unheard.
pub(crate) fn route_game_events(live: &Arc<LiveGames>, tournaments: Tournaments) {
    let mut events = live.events.subscribe();
    let (relay, ownership) = (live.services().relay.clone(), live.services().ownership.clone());
    let alone = ownership.node().is_none();
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            match event {
                GameEvent::Started { game, seat: Some(seat) } => {
                    if !tournaments.game_started(&seat.tournament, game.clone()) && !alone {
                        // The node that runs the tournament, told without waiting for NATS.
                        let (relay, news) = (relay.clone(), News::started(&game));
                        tokio::spawn(async move {
                            relay.tell_tournament(&seat.tournament, news.encode()).await
                        });
                    }
                }
                // Each end in its own task, as each game's actor passed it on before: one
                // tournament rebuilt from the store holds up no other's results.
                GameEvent::Ended { game, seat: Some(seat), outcome, plies } => {
                    let (tournaments, relay) = (tournaments.clone(), relay.clone());
                    tokio::spawn(game_ended(
                        tournaments,
                        relay,
                        seat.tournament,
                        game,
                        outcome,
                        plies,
                    ));
                }
                GameEvent::Started { seat: None, .. } | GameEvent::Ended { seat: None, .. } => {}
            }
        }
    });
}

/// A tournament game's end for its tournament: its actor here (started again if it has
/// none), or the node that runs it.
async fn game_ended(
    tournaments: Tournaments,
    relay: Arc<dyn Relay>,
    tournament: String,
    game: GameId,
    outcome: Outcome,
    plies: u32,
) {
    let news = News::ended(&game, outcome, plies);
    match tournaments.game_ended(&tournament, game.clone(), outcome, plies).await {
        Ok(true) => {}
        // On a cluster another node may run the tournament: it is told over NATS.
        Ok(false) | Err(TournamentError::Elsewhere(_)) => {
            relay.tell_tournament(&tournament, news.encode()).await;
        }
        Err(e) => {
            tracing::warn!(tournament, game = %game, error = %e, "result not passed on")
        }
    }
}

/// News of a tournament's game from the node that serves it, for the node that runs the
/// tournament (issue 39): JSON over NATS.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum News {
    /// The game's first move was played.
    Started { game: String },
    /// The game ended.
    Ended { game: String, result: String, termination: String, plies: u32 },
}

/// News read back, for the tournament's actor.
#[derive(Debug, PartialEq, Eq)]
enum Heard {
    Started(GameId),
    Ended(GameId, Outcome, u32),
}

impl News {
    fn started(game: &GameId) -> News {
        News::Started { game: game.to_string() }
    }

    fn ended(game: &GameId, outcome: Outcome, plies: u32) -> News {
        News::Ended {
            game: game.to_string(),
            result: outcome.result.as_str().to_owned(),
            termination: outcome.termination.label().to_owned(),
            plies,
        }
    }

    fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// What the news says; `None` (logged) for news that does not read.
    fn read(bytes: &[u8]) -> Option<Heard> {
        let news: News = serde_json::from_slice(bytes)
            .map_err(|e| tracing::error!(error = %e, "a tournament's news does not read"))
            .ok()?;
        match news {
            News::Started { game } => Some(Heard::Started(GameId::parse(&game)?)),
            News::Ended { game, result, termination, plies } => {
                let result = result.parse().ok()?;
                let termination = Termination::from_label(&termination)?;
                Some(Heard::Ended(GameId::parse(&game)?, Outcome { result, termination }, plies))
            }
        }
    }
}

/// Passes the news of the tournament's games served by other nodes to its actor, until the
/// actor ends.
async fn follow_games_elsewhere(relay: &dyn Relay, id: String, handle: TournamentHandle) {
    use futures_util::StreamExt;
    let Some(mut news) = relay.tournament_news(&id).await else { return };
    tokio::spawn(async move {
        loop {
            tokio::select! {
                bytes = news.next() => {
                    let Some(bytes) = bytes else { break };
                    let alive = match News::read(&bytes) {
                        Some(Heard::Started(game)) => handle.game_started(game),
                        Some(Heard::Ended(game, outcome, plies)) => {
                            handle.game_ended(game, outcome, plies).await
                        }
                        None => true,
                    };
                    if !alive {
                        break;
                    }
                }
                () = handle.closed() => break,
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_end_crosses_nodes_unchanged() {
        let outcome = Outcome {
            result: rookery_arbiter::GameResult::Win(rookery_core::Color::Black),
            termination: Termination::Checkmate,
        };
        let game = GameId::parse("abcdEFGH").unwrap();
        let news = News::ended(&game, outcome, 4);
        assert_eq!(News::read(&news.encode()), Some(Heard::Ended(game.clone(), outcome, 4)));
        assert_eq!(News::read(&News::started(&game).encode()), Some(Heard::Started(game)));
        assert!(News::read(b"{\"op\":\"ended\"}").is_none());
    }
}
