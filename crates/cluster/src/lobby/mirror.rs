//! The other nodes' lobbies, as this node last heard of them (issue 39): their open seeks and
//! the names with a lobby socket open there.
//!
//! Each node publishes what changes in its lobby as it happens, and the whole of it every
//! [`super::SNAPSHOT_EVERY`]. A change is applied as it comes; a whole lobby
//! replaces what was held of that node, so a change NATS lost is healed by the next one. A
//! node not heard of for a few snapshots is forgotten: it died, or this node lost NATS, and
//! its seeks can no longer be accepted. Every method returns the seeks that appeared or
//! vanished, so that the lobby sockets are told only of real changes, once.
//!
//! Time is passed in (Unix ms): nothing here reads a clock.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rookery_protocol::Seek;

/// What this node holds of the other nodes' lobbies.
#[derive(Debug, Default)]
pub(crate) struct Mirror {
    nodes: HashMap<String, NodeLobby>,
}

/// One other node's lobby.
#[derive(Debug, Default)]
struct NodeLobby {
    /// Its open seeks, by id.
    seeks: HashMap<String, Arc<Seek>>,
    /// The names with a lobby socket open on it.
    present: HashSet<String>,
    /// When it was last heard of (Unix ms).
    heard_ms: u64,
}

/// Seeks that appeared in or vanished from the mirror.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// New seeks.
    pub(crate) added: Vec<Arc<Seek>>,
    /// Seeks gone.
    pub(crate) removed: Vec<Arc<Seek>>,
}

impl Mirror {
    fn heard(&mut self, node: &str, now: u64) -> &mut NodeLobby {
        let lobby = self.nodes.entry(node.to_owned()).or_default();
        lobby.heard_ms = lobby.heard_ms.max(now);
        lobby
    }

    /// The whole lobby of `node`, heard at `now`, replaces what was held of it.
    pub(crate) fn replace(
        &mut self,
        node: &str,
        seeks: Vec<Seek>,
        present: Vec<String>,
        now: u64,
    ) -> Changes {
        let lobby = self.heard(node, now);
        let mut changes = Changes::default();
        let mut fresh: HashMap<String, Arc<Seek>> = HashMap::with_capacity(seeks.len());
        for seek in seeks {
            // A seek does not change once open: the one held stays, and is not news.
            let seek = match lobby.seeks.remove(&seek.id) {
                Some(held) => held,
                None => {
                    let seek = Arc::new(seek);
                    changes.added.push(seek.clone());
                    seek
                }
            };
            fresh.insert(seek.id.clone(), seek);
        }
        changes.removed.extend(lobby.seeks.drain().map(|(_, seek)| seek));
        lobby.seeks = fresh;
        lobby.present = present.into_iter().collect();
        changes
    }

    /// `node` opened `seek`, heard at `now`: the seek if it is new here.
    pub(crate) fn add(&mut self, node: &str, seek: Seek, now: u64) -> Option<Arc<Seek>> {
        let lobby = self.heard(node, now);
        if lobby.seeks.contains_key(&seek.id) {
            return None;
        }
        let seek = Arc::new(seek);
        lobby.seeks.insert(seek.id.clone(), seek.clone());
        Some(seek)
    }

    /// `node` closed the seek `id`, heard at `now`: the seek if it was held.
    pub(crate) fn remove(&mut self, node: &str, id: &str, now: u64) -> Option<Arc<Seek>> {
        self.heard(node, now).seeks.remove(id)
    }

    /// `name` opened its first lobby socket on `node` (`here`), or closed its last.
    pub(crate) fn set_present(&mut self, node: &str, name: &str, here: bool, now: u64) {
        let lobby = self.heard(node, now);
        if here {
            lobby.present.insert(name.to_owned());
        } else {
            lobby.present.remove(name);
        }
    }

    /// Forgets the nodes not heard of since `now - silent_ms`: their seeks.
    pub(crate) fn forget_silent(&mut self, now: u64, silent_ms: u64) -> Vec<Arc<Seek>> {
        let silent: Vec<String> = self
            .nodes
            .iter()
            .filter(|(_, lobby)| now.saturating_sub(lobby.heard_ms) > silent_ms)
            .map(|(node, _)| node.clone())
            .collect();
        let mut gone = Vec::new();
        for node in silent {
            if let Some(lobby) = self.nodes.remove(&node) {
                tracing::info!(
                    node,
                    seeks = lobby.seeks.len(),
                    "a node's lobby is no longer heard: its seeks are gone"
                );
                gone.extend(lobby.seeks.into_values());
            }
        }
        gone
    }

    /// Every seek held.
    pub(crate) fn seeks(&self) -> impl Iterator<Item = &Arc<Seek>> {
        self.nodes.values().flat_map(|lobby| lobby.seeks.values())
    }

    /// How many seeks `name` holds on the other nodes.
    pub(crate) fn seeks_of(&self, name: &str) -> usize {
        self.seeks().filter(|s| s.owner.name == name).count()
    }

    /// The node that holds the seek `id`, and the seek.
    pub(crate) fn find(&self, id: &str) -> Option<(&str, &Arc<Seek>)> {
        self.nodes.iter().find_map(|(node, lobby)| Some((node.as_str(), lobby.seeks.get(id)?)))
    }

    /// Whether `name` has a lobby socket open on another node.
    pub(crate) fn is_present(&self, name: &str) -> bool {
        self.nodes.values().any(|lobby| lobby.present.contains(name))
    }

    /// How many nodes are heard of.
    pub(crate) fn nodes(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::tests::seek;

    fn ids(seeks: &[Arc<Seek>]) -> Vec<&str> {
        let mut ids: Vec<&str> = seeks.iter().map(|s| s.id.as_str()).collect();
        ids.sort();
        ids
    }

    fn held(mirror: &Mirror) -> Vec<String> {
        let mut ids: Vec<String> = mirror.seeks().map(|s| s.id.clone()).collect();
        ids.sort();
        ids
    }

    #[test]
    fn a_whole_lobby_replaces_the_node_and_says_what_changed() {
        let mut mirror = Mirror::default();
        let changes = mirror.replace("a", vec![seek("s1", "ann"), seek("s2", "ann")], vec![], 0);
        assert_eq!(ids(&changes.added), ["s1", "s2"]);
        assert!(changes.removed.is_empty());
        // s2 closed and s3 opened, both messages lost: the next snapshot heals it.
        let changes = mirror.replace("a", vec![seek("s1", "ann"), seek("s3", "bob")], vec![], 1);
        assert_eq!(ids(&changes.added), ["s3"]);
        assert_eq!(ids(&changes.removed), ["s2"]);
        assert_eq!(held(&mirror), ["s1", "s3"]);
        assert_eq!((mirror.seeks_of("ann"), mirror.seeks_of("bob")), (1, 1));
        // Another node's lobby is its own.
        mirror.replace("b", vec![seek("t1", "cy"), seek("t2", "ann")], vec![], 1);
        assert_eq!((mirror.seeks_of("ann"), mirror.seeks_of("Ann")), (2, 0));
        let changes = mirror.replace("a", vec![], vec![], 2);
        assert_eq!(ids(&changes.removed), ["s1", "s3"]);
        assert_eq!(held(&mirror), ["t1", "t2"]);
        assert_eq!(mirror.seeks_of("ann"), 1);
        assert_eq!(mirror.find("t1").map(|(node, s)| (node, s.id.as_str())), Some(("b", "t1")));
        assert!(mirror.find("s1").is_none());
    }

    #[test]
    fn changes_are_news_once_whichever_way_they_come() {
        let mut mirror = Mirror::default();
        assert!(mirror.add("a", seek("s1", "ann"), 0).is_some());
        assert!(mirror.add("a", seek("s1", "ann"), 0).is_none(), "a seek added twice");
        let changes = mirror.replace("a", vec![seek("s1", "ann")], vec![], 1);
        assert!(changes.added.is_empty() && changes.removed.is_empty(), "{changes:?}");
        assert!(mirror.remove("a", "s1", 2).is_some());
        assert!(mirror.remove("a", "s1", 2).is_none(), "a seek removed twice");
        assert!(mirror.remove("b", "s1", 2).is_none(), "removed by a node that never held it");
    }

    #[test]
    fn a_silent_node_is_forgotten_with_its_seeks() {
        let mut mirror = Mirror::default();
        mirror.replace("a", vec![seek("s1", "ann")], vec!["ann".into()], 1_000);
        mirror.replace("b", vec![seek("t1", "bob")], vec![], 1_000);
        // b is heard again at 5 s, a is not.
        mirror.replace("b", vec![seek("t1", "bob")], vec![], 5_000);
        assert!(mirror.forget_silent(6_000, 6_000).is_empty(), "a heard 5 s ago stays");
        let gone = mirror.forget_silent(7_001, 6_000);
        assert_eq!(ids(&gone), ["s1"]);
        assert_eq!(held(&mirror), ["t1"]);
        assert!(!mirror.is_present("ann"), "a forgotten node's names are not present");
        assert_eq!(mirror.nodes(), 1);
    }

    #[test]
    fn presence_follows_changes_and_snapshots() {
        let mut mirror = Mirror::default();
        mirror.set_present("a", "ann", true, 0);
        assert!(mirror.is_present("ann"));
        assert!(!mirror.is_present("Ann"), "names are compared as the lobby keeps them");
        mirror.set_present("a", "ann", false, 1);
        assert!(!mirror.is_present("ann"));
        mirror.replace("a", vec![], vec!["bob".into()], 2);
        assert!(mirror.is_present("bob"));
        mirror.replace("a", vec![], vec![], 3);
        assert!(!mirror.is_present("bob"), "a snapshot without bob says he left");
    }
}
