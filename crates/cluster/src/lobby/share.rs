//! This node's part of the cluster's lobby, run until the server stops: it publishes its
//! lobby's notes, hears the others', and answers accepts of its seeks.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use rookery_store::Player;
use tokio::sync::{broadcast, mpsc};

use super::wire::{Answer, Ask, Note, SeekRefusal, WireSeek};
use super::{ask_subject, Link, LocalLobby, Said, NOTES, SNAPSHOT_EVERY};
use crate::now_ms;

/// How long publishing a note may take before it is given up (NATS out of reach: the next
/// snapshot after it returns says all).
const PUBLISH_TIMEOUT: Duration = Duration::from_secs(1);

impl Note {
    /// The note of what this node's lobby said.
    fn of(said: Said, node: &str) -> Note {
        let node = node.to_owned();
        match said {
            Said::Opened(seek) => Note::Opened { node, seek: WireSeek::of(&seek) },
            Said::Closed(seek) => Note::Closed { node, id: seek.id.clone() },
            Said::Message { audience, text } => Note::Message { node, audience, text },
        }
    }
}

/// Shares `local`'s lobby with the other nodes' over `link` until the server stops: publishes
/// its notes, hears the others' into its [`super::Elsewhere`], and answers accepts of its
/// seeks.
pub async fn share<L: LocalLobby>(local: Arc<L>, link: Link) {
    let Link { client, node } = link.clone();
    let (mut notes, mut asks) =
        match (client.subscribe(NOTES).await, client.subscribe(ask_subject(&node)).await) {
            (Ok(notes), Ok(asks)) => (notes, asks),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!(error = %e, "cannot share the lobby with the other nodes");
                return;
            }
        };
    let elsewhere = local.elsewhere();
    let (presence_tx, mut presence) = mpsc::unbounded_channel();
    if elsewhere.presence.set(presence_tx).is_err() || elsewhere.link.set(link).is_err() {
        tracing::error!("the lobby is already shared");
        return;
    }
    let mut events = local.subscribe();
    let mut snapshot = tokio::time::interval(SNAPSHOT_EVERY);
    snapshot.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let publish = |note: Note| {
        let client = client.clone();
        async move {
            // While NATS is out of reach nothing is queued: the snapshot after it returns
            // says all, and a publish must not hold up hearing the others.
            if client.connection_state() != async_nats::connection::State::Connected {
                return;
            }
            let Ok(payload) = serde_json::to_vec(&note) else { return };
            match tokio::time::timeout(PUBLISH_TIMEOUT, client.publish(NOTES, payload.into())).await
            {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::debug!(error = %e, "a lobby note is not published"),
                Err(_) => tracing::debug!("a lobby note is not published in time"),
            }
        }
    };
    loop {
        tokio::select! {
            note = notes.next() => {
                let Some(note) = note else { break };
                match serde_json::from_slice::<Note>(&note.payload) {
                    Ok(note) if note.node() == node => {}
                    Ok(note) => {
                        elsewhere.counts.notes_heard.fetch_add(1, Ordering::Relaxed);
                        for heard in elsewhere.hear(note, now_ms()) {
                            local.tell(heard);
                        }
                    }
                    Err(e) => {
                        elsewhere.counts.notes_unread.fetch_add(1, Ordering::Relaxed);
                        tracing::warn!(error = %e, "a lobby note does not read");
                    }
                }
            }
            ask = asks.next() => {
                let Some(ask) = ask else { break };
                let Some(reply_to) = ask.reply else { continue };
                let (local, client) = (local.clone(), client.clone());
                // Each on its own: an accept creates a game, and others need not wait.
                tokio::spawn(async move {
                    let answer = match serde_json::from_slice::<Ask>(&ask.payload) {
                        Ok(ask) => answer(&*local, ask).await,
                        Err(e) => Answer::Refused {
                            error: SeekRefusal::Internal(format!("the request does not read: {e}")),
                        },
                    };
                    let payload = serde_json::to_vec(&answer).unwrap_or_default();
                    let _ = client.publish(reply_to, payload.into()).await;
                });
            }
            event = events.recv() => match event {
                Ok(message) => if let Some(said) = L::said(&message) { publish(Note::of(said, &node)).await },
                // Missed: the next snapshot says all.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
            Some((name, here)) = presence.recv() => {
                publish(Note::Present { node: node.clone(), name, here }).await;
            }
            _ = snapshot.tick() => {
                let (seeks, present) = local.own();
                let seeks = seeks.iter().map(|s| WireSeek::of(s)).collect();
                publish(Note::Lobby { node: node.clone(), seeks, present }).await;
                for heard in elsewhere.forget_silent(now_ms()) {
                    local.tell(heard);
                }
            }
        }
    }
}

/// Answers another node's `ask` of a seek of this node.
async fn answer<L: LocalLobby>(local: &L, ask: Ask) -> Answer {
    local.elsewhere().counts.answered.fetch_add(1, Ordering::Relaxed);
    let (accept, seek, by) = match ask {
        Ask::Accept { seek, by } => (true, seek, by),
        Ask::Cancel { seek, by } => (false, seek, by),
    };
    let me = match Player::try_from(by) {
        Ok(me) => me,
        Err(e) => {
            let error = SeekRefusal::Internal(format!("the asking player does not read: {e}"));
            return Answer::Refused { error };
        }
    };
    let done = if accept {
        local.accept(seek, me).await.map(|game| Answer::Game { game })
    } else {
        local.cancel(&seek, &me).map(|()| Answer::Cancelled)
    };
    done.unwrap_or_else(|error| Answer::Refused { error })
}
