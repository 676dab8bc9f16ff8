//! The registry of the tournaments a server runs: the handle of each running actor, and the
//! finished tournaments read lately, folded once and kept. The actors hold it (to reach the
//! store and the host, and to leave it when they end); [`crate::host`] starts them into it.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use rookery_store::Store;

use crate::book::Tour;
use crate::handle::TournamentHandle;
use crate::view::TournamentView;

/// A tournament no actor runs (finished or cancelled), folded from the store once and kept:
/// reads are served from here, not rebuilt from the log each time.
pub struct Finished {
    /// The tournament.
    pub tour: Tour,
    /// Its view.
    pub view: Arc<TournamentView>,
}

/// How many finished tournaments are kept folded (the list shows the last 50).
const FINISHED_KEPT: usize = 256;

/// The finished tournaments kept, and their ids, the first read first.
#[derive(Default)]
struct FinishedKept {
    by_id: HashMap<String, Arc<Finished>>,
    order: VecDeque<String>,
}

/// The running tournaments, and the finished ones read lately. Cheap to clone: clones share
/// one registry.
pub struct Tournaments<H> {
    shared: Arc<Shared<H>>,
}

impl<H> Clone for Tournaments<H> {
    fn clone(&self) -> Self {
        Tournaments { shared: self.shared.clone() }
    }
}

struct Shared<H> {
    store: Store,
    host: H,
    /// This node's id on a cluster; `None` alone.
    node: Option<String>,
    actors: Mutex<HashMap<String, TournamentHandle>>,
    finished: Mutex<FinishedKept>,
    /// Held while a finished tournament's actor is started again, so that it gets one.
    reviving: tokio::sync::Mutex<()>,
}

impl<H> Tournaments<H> {
    /// The tournaments stored in `store`, whose games `host` serves, run on the node `node` of
    /// a cluster (`None`: a single node).
    pub fn new(store: Store, host: H, node: Option<String>) -> Tournaments<H> {
        Tournaments {
            shared: Arc::new(Shared {
                store,
                host,
                node,
                actors: Mutex::default(),
                finished: Mutex::default(),
                reviving: tokio::sync::Mutex::new(()),
            }),
        }
    }

    pub(crate) fn store(&self) -> &Store {
        &self.shared.store
    }

    pub(crate) fn host(&self) -> &H {
        &self.shared.host
    }

    /// Whether this node is one of a cluster's.
    pub(crate) fn on_cluster(&self) -> bool {
        self.shared.node.is_some()
    }

    /// The actor of `id`, if it runs here.
    pub fn get(&self, id: &str) -> Option<TournamentHandle> {
        self.shared.actors.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    pub(crate) fn insert(&self, id: String, handle: TournamentHandle) {
        self.shared.actors.lock().unwrap_or_else(|e| e.into_inner()).insert(id, handle);
    }

    pub(crate) fn remove(&self, id: &str) {
        self.shared.actors.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Held while an actor is started again (one at a time).
    pub(crate) async fn reviving(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.shared.reviving.lock().await
    }

    /// The finished tournament `id`, if it is kept.
    pub(crate) fn kept(&self, id: &str) -> Option<Arc<Finished>> {
        self.shared.finished.lock().unwrap_or_else(|e| e.into_inner()).by_id.get(id).cloned()
    }

    /// Keeps the finished tournament `id`, forgetting the oldest read beyond
    /// [`FINISHED_KEPT`].
    pub(crate) fn keep(&self, id: &str, finished: Arc<Finished>) {
        let mut cache = self.shared.finished.lock().unwrap_or_else(|e| e.into_inner());
        if cache.by_id.insert(id.to_owned(), finished).is_none() {
            cache.order.push_back(id.to_owned());
        }
        while cache.order.len() > FINISHED_KEPT {
            if let Some(old) = cache.order.pop_front() {
                cache.by_id.remove(&old);
            }
        }
    }

    /// Forgets the folded copy of `id`: an actor serves it from now on, and the copy would
    /// fall behind.
    pub(crate) fn forget_finished(&self, id: &str) {
        let mut cache = self.shared.finished.lock().unwrap_or_else(|e| e.into_inner());
        if cache.by_id.remove(id).is_some() {
            cache.order.retain(|x| x != id);
        }
    }
}
