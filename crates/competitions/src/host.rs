//! The tournaments a server runs (RULES.md §12, issue 40), as their actors are started: one
//! actor per tournament that is not over, created, resumed after a restart or revived for a
//! late game, into the registry ([`crate::registry`]), which also keeps the finished ones read
//! lately. On a cluster (issue 39) one node runs a tournament at a time, its writes fenced by
//! its claim.

use std::sync::Arc;

use rookery_arbiter::Outcome;
use rookery_protocol::GameId;
use rookery_store::{LogEntry, StoredTournament, TournamentRow, TournamentStatus};
use tokio::sync::mpsc;

use crate::actor::Actor;
use crate::handle::{TournamentHandle, Who};
use crate::log::Entry;
use crate::ports::{Host, TournamentClaim};
use crate::refusal::TournamentError;
use crate::registry::{Finished, Tournaments};
use crate::request::Op;
use crate::settings::Settings;
use crate::view::TournamentView;

impl<H: Host> Tournaments<H> {
    /// A tournament without an actor, folded from the store at the first read and kept
    /// (the oldest read first forgotten beyond the registry's bound). `None` if it does not
    /// exist.
    ///
    /// # Errors
    /// A store failure, or a log that does not fold.
    pub async fn finished(&self, id: &str) -> Result<Option<Arc<Finished>>, TournamentError> {
        if let Some(f) = self.kept(id) {
            return Ok(Some(f));
        }
        let Some(stored) = self.store().tournament(id).await? else { return Ok(None) };
        let tour = Actor::rebuild(self.clone(), stored).await?.into_tour();
        let view = Arc::new(tour.view());
        let f = Arc::new(Finished { tour, view });
        self.keep(id, f.clone());
        Ok(Some(f))
    }

    /// Tells a tournament that one of its games ended. A finished tournament whose actor is
    /// gone (a restart) gets one again: a game still played when it ended counts when it
    /// ends (api.md, `end`). `Ok(false)`: no actor here (on a cluster another node may run
    /// it: the server passes the news on). A result not passed on is picked up from the
    /// store when the tournament is next rebuilt.
    ///
    /// # Errors
    /// [`TournamentError::Elsewhere`] while another node runs it; a store failure, or a log
    /// that does not fold.
    pub async fn game_ended(
        &self,
        tournament: &str,
        game: GameId,
        outcome: Outcome,
        plies: u32,
    ) -> Result<bool, TournamentError> {
        match self.handle(tournament).await? {
            Some(h) => {
                h.game_ended(game, outcome, plies).await;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Tells a tournament that one of its games had its first move; `false`: no actor here
    /// (on a cluster another node may run it). Never waits: a game must not wait on a
    /// tournament that may be waiting on it.
    pub fn game_started(&self, tournament: &str, game: GameId) -> bool {
        match self.get(tournament) {
            Some(h) => {
                h.game_started(game);
                true
            }
            None => false,
        }
    }

    /// The actor of a tournament that may still act: a running one's, or a finished one's,
    /// started again from the store if it has none (after a restart), so that a late game's
    /// result and the arbiter's corrections still reach it. `None` for an unknown or
    /// cancelled tournament.
    ///
    /// # Errors
    /// A store failure, or a log that does not fold.
    pub async fn handle(&self, id: &str) -> Result<Option<TournamentHandle>, TournamentError> {
        self.revive(id, true).await
    }

    /// On a cluster, the actor of a tournament not over, started here if no node runs it (its
    /// node died); `None` for a finished, cancelled or unknown one, and on a single node when
    /// it has no actor.
    ///
    /// # Errors
    /// [`TournamentError::Elsewhere`] while another node runs it; a store failure, or a log
    /// that does not fold.
    pub async fn running(&self, id: &str) -> Result<Option<TournamentHandle>, TournamentError> {
        self.revive(id, false).await
    }

    async fn revive(
        &self,
        id: &str,
        finished_too: bool,
    ) -> Result<Option<TournamentHandle>, TournamentError> {
        if let Some(h) = self.get(id) {
            return Ok(Some(h));
        }
        let _one = self.reviving().await;
        if let Some(h) = self.get(id) {
            return Ok(Some(h));
        }
        let Some(stored) = self.store().tournament(id).await? else { return Ok(None) };
        // On one node a tournament not over always has its actor; on a cluster it may be run
        // by no node (its owner died): then it is taken over here.
        let revived = match stored.row.status {
            TournamentStatus::Finished => finished_too,
            TournamentStatus::Cancelled => false,
            _ => self.on_cluster(),
        };
        if !revived {
            return Ok(None);
        }
        let h = self.spawn(stored).await?;
        tracing::info!(tournament = %id, "tournament's actor started again");
        Ok(Some(h))
    }

    /// Starts the actor of a stored tournament.
    ///
    /// # Errors
    /// [`TournamentError::Elsewhere`] while another node runs it; a store failure, or a log
    /// that does not fold.
    pub async fn spawn(
        &self,
        stored: StoredTournament,
    ) -> Result<TournamentHandle, TournamentError> {
        let id = stored.row.id.clone();
        // One node runs a tournament at a time (issue 39), its writes fenced by the claim.
        let writer = match self.host().claim_tournament(&id).await? {
            TournamentClaim::Here(writer) => writer,
            TournamentClaim::Elsewhere(owner) => return Err(TournamentError::Elsewhere(owner)),
            TournamentClaim::Over => return Err(TournamentError::Over(id)),
        };
        let (tx, rx) = mpsc::channel(256);
        let handle = TournamentHandle { tx };
        let actor = Actor::rebuild(self.clone(), stored).await?.fenced_by(writer);
        // Its actor serves it from now on: the folded copy kept would fall behind.
        self.forget_finished(&id);
        self.insert(id.clone(), handle.clone());
        tokio::spawn(actor.run(rx));
        self.host().follow_elsewhere(&id, handle.clone()).await;
        Ok(handle)
    }

    /// Rebuilds every tournament not over (after a restart), and every finished one with a
    /// game still to count, and starts its actor.
    pub async fn resume_all(&self) {
        let stored = match self.store().tournaments_to_resume().await {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the tournaments to resume");
                return;
            }
        };
        for t in stored {
            let id = t.row.id.clone();
            match self.spawn(t).await {
                Ok(_) => tracing::info!(tournament = %id, "tournament resumed"),
                Err(TournamentError::Elsewhere(node)) => {
                    tracing::debug!(tournament = %id, node, "tournament run by another node")
                }
                Err(e) => {
                    tracing::error!(tournament = %id, error = %e, "cannot resume a tournament")
                }
            }
        }
    }

    /// Creates the tournament `id` (`by` its arbiter) with `settings` and the `entries` of its
    /// log so far (an import's), in `status`, at `now` (Unix ms); a tournament not over gets
    /// its actor. Its view.
    ///
    /// # Errors
    /// A store failure, or entries that do not fold.
    pub async fn create(
        &self,
        id: String,
        by: &Who,
        settings: Settings,
        status: TournamentStatus,
        entries: Vec<Entry>,
        now: u64,
    ) -> Result<Arc<TournamentView>, TournamentError> {
        let row = TournamentRow {
            id: id.clone(),
            name: settings.name.clone(),
            format: settings.format.as_str().to_owned(),
            settings: serde_json::to_string(&settings).expect("settings are plain data"),
            status,
            created_by: by.user_id,
            created_at_ms: now as i64,
            starts_at_ms: settings.starts_at_ms.map(|t| t as i64),
        };
        self.store().create_tournament(&row).await?;
        for (seq, entry) in entries.iter().enumerate() {
            let (kind, data) = entry.encode();
            let e = LogEntry {
                seq: seq as i64,
                at_ms: row.created_at_ms,
                by: Some(by.user_id),
                kind,
                data,
                reason: None,
            };
            // Nobody has claimed the new tournament yet: its import is not fenced.
            let _unfenced = self.store().writer(None).append_tournament_log(&id, &e).await?;
        }
        let gone = || TournamentError::Gone(id.clone());
        let stored = self.store().tournament(&id).await?.ok_or_else(gone)?;
        if matches!(status, TournamentStatus::Finished | TournamentStatus::Cancelled) {
            let f = self.finished(&id).await?.ok_or_else(gone)?;
            let (players, rounds) = f.tour.counts();
            self.store().set_tournament_counts(&id, players, rounds).await?;
            return Ok(f.view.clone());
        }
        let h = self.spawn(stored).await?;
        h.request(None, Op::View).await?.into_view().ok_or_else(gone)
    }
}
