//! The lobby shared with the other nodes of a cluster (issue 39): what rookery-cluster's
//! shared lobby reaches of this node's ([`Shared`], a [`LocalLobby`]), and the refusals of
//! accepts and cancels asked by other nodes, with the same status and code as on this node.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use rookery_cluster::lobby::{Elsewhere, Heard, LocalLobby, Said, SeekRefusal};
use rookery_store::Player;
use tokio::sync::broadcast;

use super::{accept_here, cancel_here, Lobby, LobbyMessage, Seek, SeekError, SeekNews};
use crate::live::LiveGames;

/// This node's lobby, as the other nodes' lobbies reach it, with the live games, for the
/// accepts of its seeks that other nodes ask for (an accept creates the game here).
pub(crate) struct Shared {
    /// This node's lobby.
    pub(crate) lobby: Arc<Lobby>,
    /// This node's live games.
    pub(crate) live: Arc<LiveGames>,
}

impl LocalLobby for Shared {
    type Message = LobbyMessage;

    fn elsewhere(&self) -> &Elsewhere {
        &self.lobby.elsewhere
    }

    fn subscribe(&self) -> broadcast::Receiver<LobbyMessage> {
        self.lobby.events.subscribe()
    }

    fn said(message: &LobbyMessage) -> Option<Said> {
        if message.relayed {
            return None;
        }
        Some(match &message.seek {
            Some(SeekNews::Added(seek)) => Said::Opened(seek.clone()),
            Some(SeekNews::Removed(seek)) => Said::Closed(seek.clone()),
            None => {
                Said::Message { audience: message.audience.clone(), text: message.text.to_string() }
            }
        })
    }

    fn own(&self) -> (Vec<Arc<Seek>>, Vec<String>) {
        self.lobby.own()
    }

    fn tell(&self, heard: Heard) {
        self.lobby.told(heard);
    }

    fn accept(&self, seek: String, by: Player) -> BoxFuture<'_, Result<String, SeekRefusal>> {
        async move {
            let game = accept_here(&self.lobby, &self.live, &by, &seek).await?;
            Ok(game.to_string())
        }
        .boxed()
    }

    fn cancel(&self, seek: &str, by: &Player) -> Result<(), SeekRefusal> {
        Ok(cancel_here(&self.lobby, by, seek)?)
    }
}

impl Lobby {
    /// This node's own lobby: its seeks and present names.
    fn own(&self) -> (Vec<Arc<Seek>>, Vec<String>) {
        // One lock at a time: [`Lobby::expire_absent`] takes them in another order.
        let seeks: Vec<Arc<Seek>> =
            self.seeks.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        let present = self.present.lock().unwrap_or_else(|e| e.into_inner());
        (seeks, present.keys().cloned().collect())
    }

    /// Tells this node's lobby sockets what another node's lobby said.
    fn told(&self, heard: Heard) {
        let message = match heard {
            Heard::Said(Said::Opened(seek)) => LobbyMessage::of_seek(SeekNews::Added(seek), true),
            Heard::Said(Said::Closed(seek)) => LobbyMessage::of_seek(SeekNews::Removed(seek), true),
            Heard::Said(Said::Message { audience, text }) => {
                LobbyMessage { audience, seek: None, text: text.into(), relayed: true }
            }
            // As when the owner's last socket here closes: gone from every node's lobby,
            // their seeks here close.
            Heard::Left(name) => {
                if !self.is_present(&name) {
                    self.close_seeks_of(&name);
                }
                return;
            }
        };
        let _ = self.events.send(message);
    }
}

/// A refusal of this node's, told to the node that asked: the same status and code there
/// (error.rs maps the refusal back).
impl From<SeekError> for SeekRefusal {
    fn from(e: SeekError) -> SeekRefusal {
        match e {
            SeekError::Gone(id) => SeekRefusal::Gone(id),
            SeekError::Forbidden(why) => SeekRefusal::Forbidden(why.to_owned()),
            SeekError::NotFound(id) => SeekRefusal::NotFound(format!("seek {id:?}")),
            SeekError::Elsewhere(refusal) => refusal,
            other => {
                tracing::warn!(error = %other, "an accept for another node failed");
                SeekRefusal::Internal(other.to_string())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rookery_arbiter::RuleSet;
    use rookery_cluster::lobby::{Note, WireSeek, SILENT_FOR};

    use crate::client::ClientAddr;
    use crate::error::ApiError;
    use crate::lobby::ColorChoice;
    use rookery_store::{PlayerKind, UserId};

    use super::*;

    impl Lobby {
        /// Hears a note of another node, as the shared lobby does.
        fn hear(&self, note: Note, now: u64) {
            for heard in self.elsewhere.hear(note, now) {
                self.told(heard);
            }
        }

        /// Forgets the nodes not heard of for [`SILENT_FOR`] at `now`, as the shared lobby
        /// does.
        fn forget_silent(&self, now: u64) {
            for heard in self.elsewhere.forget_silent(now) {
                self.told(heard);
            }
        }
    }

    fn seek(owner: Player, to: Option<&str>) -> Seek {
        let addr = ClientAddr::from_ip("2001:db8:1:2::7".parse().unwrap());
        let tc = "900+10".parse().unwrap();
        let terms = crate::lobby::SeekTerms {
            time_control: tc,
            rated: true,
            rules: RuleSet::FIDE,
            variant: crate::protocol::VariantChoice::Standard,
            color: ColorChoice::Black,
        };
        crate::lobby::new_seek(owner, addr, terms, to.map(str::to_owned)).unwrap()
    }

    fn user(name: &str, id: i64) -> Player {
        Player {
            kind: PlayerKind::User,
            user_id: Some(UserId(id)),
            name: name.to_owned(),
            engine_level: None,
        }
    }

    #[test]
    fn errors_cross_the_wire_with_their_status_and_code() {
        let cases = || {
            [
                SeekError::Gone("abc".into()),
                SeekError::Forbidden("this challenge is for someone else"),
                SeekError::NotFound("abc".into()),
                SeekError::BadAnswer { node: "n2".into(), game: "?".into() },
            ]
        };
        for (sent, here) in cases().into_iter().zip(cases().map(ApiError::from)) {
            let (status, code, text) = (here.status(), here.code(), here.to_string());
            let wire = serde_json::to_string(&SeekRefusal::from(sent)).unwrap();
            let got = ApiError::from(serde_json::from_str::<SeekRefusal>(&wire).unwrap());
            assert_eq!((got.status(), got.code()), (status, code), "{wire}");
            if code != "internal" {
                assert_eq!(got.to_string(), text, "{wire}");
            }
        }
    }

    #[test]
    fn a_node_publishes_its_own_messages_only() {
        let news = SeekNews::Added(Arc::new(seek(user("ann", 7), None)));
        let own = LobbyMessage::of_seek(news.clone(), false);
        assert!(matches!(Shared::said(&own), Some(Said::Opened(_))));
        let relayed = LobbyMessage::of_seek(news, true);
        assert!(Shared::said(&relayed).is_none(), "a relayed message goes round again");
    }

    #[test]
    fn notes_of_another_node_reach_the_lobby_and_its_sockets() {
        let lobby = Lobby::new(crate::limits::SeekLimits::default());
        let mut sockets = lobby.events.subscribe();
        let sent = seek(user("ann", 7), None);
        let id = sent.id.clone();
        let opened = Note::Opened { node: "b".into(), seek: WireSeek::of(&sent) };
        lobby.hear(opened, 1_000);
        assert_eq!(lobby.holder(&id).as_deref(), Some("b"));
        assert_eq!(lobby.visible("cy").len(), 1);
        let told = sockets.try_recv().unwrap();
        assert!(told.relayed && told.text.contains("seek_added"), "{}", told.text);
        // The same seek in b's snapshot is not news; b falling silent closes it.
        let snapshot =
            Note::Lobby { node: "b".into(), seeks: vec![WireSeek::of(&sent)], present: vec![] };
        lobby.hear(snapshot, 2_000);
        assert!(sockets.try_recv().is_err(), "a seek told twice");
        lobby.forget_silent(2_000 + SILENT_FOR.as_millis() as u64 + 1);
        assert!(lobby.visible("cy").is_empty());
        assert!(sockets.try_recv().unwrap().text.contains("seek_removed"));
    }

    #[test]
    fn an_owner_present_on_another_node_keeps_the_seeks_here() {
        let limits = crate::limits::SeekLimits::default();
        let grace = limits.owner_grace.as_millis() as u64;
        let lobby = Lobby::new(limits);
        let ann = user("ann", 7);
        let mine = lobby.add(seek(ann.clone(), None)).unwrap();
        let theirs = lobby.add(seek(user("bob", 8), None)).unwrap();
        lobby.hear(Note::Present { node: "b".into(), name: "ann".into(), here: true }, 0);
        let later = mine.created_at_ms.max(theirs.created_at_ms) + grace;
        assert_eq!(lobby.expire_absent(later), 1, "bob is nowhere: his seek closes");
        assert!(lobby.peek(&mine.id).is_some(), "ann is in b's lobby");
        // Ann leaves b's lobby, and so every lobby: her seeks close.
        lobby.hear(Note::Present { node: "b".into(), name: "ann".into(), here: false }, 1);
        assert!(lobby.peek(&mine.id).is_none());
    }

    #[test]
    fn an_owners_seeks_on_other_nodes_count_against_the_limit_here() {
        let lobby = Lobby::new(crate::limits::SeekLimits::default());
        let ann = user("ann", 7);
        // Ann holds three seeks on b and one here: one more is allowed, then none.
        let on_b: Vec<WireSeek> = (0..3).map(|_| WireSeek::of(&seek(ann.clone(), None))).collect();
        lobby.hear(Note::Lobby { node: "b".into(), seeks: on_b, present: vec![] }, 0);
        lobby.add(seek(ann.clone(), None)).unwrap();
        lobby.add(seek(ann.clone(), None)).unwrap();
        let refused = ApiError::from(lobby.add(seek(ann.clone(), None)).unwrap_err());
        assert_eq!(refused.code(), "too_many_seeks");
        assert_eq!(refused.to_string(), "at most 5 open seeks each", "as on one node");
        assert!(lobby.add(seek(user("bob", 8), None)).is_ok(), "another owner's count is his");
        // b's seeks close: Ann may seek here again.
        lobby.hear(Note::Lobby { node: "b".into(), seeks: vec![], present: vec![] }, 1);
        assert!(lobby.add(seek(ann, None)).is_ok());
    }
}
