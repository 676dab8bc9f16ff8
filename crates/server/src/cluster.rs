//! One node of several on one database (issue 39): its identity, its lease, and the live
//! games it owns.
//!
//! The database decides who owns a game (rookery-store's `claim_game`): a node claims a game
//! when it creates it, when it resumes it after a restart, and when a player's socket or
//! request reaches it for a live game that no live node serves (its owner died or stopped:
//! its lease ran out). Every write of the game is fenced by the epoch of that claim, so a
//! node that was paused or cut off past its lease writes nothing once it has been replaced:
//! its actor stops and its sockets close, and the players reconnect to the new owner. A
//! node renews its lease every quarter of it; one that finds its lease had lapsed (it was
//! paused, or the database was out of reach) checks each game it serves and stops those
//! claimed by others.
//!
//! A node knows its own lease by its clock too ([`Lease`]): past a heartbeat's sending plus
//! the lease, another node may have taken its games, so its actors serve nothing (no `hello`,
//! no view, no clock, no flag) until a heartbeat has renewed the lease and, if it had lapsed in
//! the database, the games' claims have been checked again (issue 51). A game still its own
//! after a lapse is credited the time since the node's last good heartbeat, as a game taken
//! over from a dead node is: nobody could have served it meanwhile, and nobody did.
//!
//! On a single node (no `--node-id`) none of this runs: games have no owner and writes are
//! not fenced.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rookery_store::{Claim, StoreError};
use tokio::sync::watch;

use crate::error::ApiError;
use crate::live::GameHandle;
use crate::protocol::GameId;
use crate::relay::RelayError;
use crate::state::{now_ms, AppState};

/// A node's identity in a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeConfig {
    /// Unique among the nodes sharing the database.
    pub id: String,
    /// How long a heartbeat keeps the node's games its own: after that, another node may
    /// take them over. Renewed every quarter of it.
    pub lease: Duration,
    /// The NATS server through which nodes relay the games of each other's sockets
    /// ([`crate::relay`]); `None`: a socket reaching a node that does not own its game is
    /// told where it is (`elsewhere`).
    pub nats: Option<String>,
}

impl NodeConfig {
    /// The default lease: short enough that a dead node's games move within a few seconds,
    /// long enough that a busy node renews it many times over.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(3);
}

/// Who serves a stored live game, as far as this node is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ownership {
    /// A single node: no owners, no fences.
    Single,
    /// This node, under this epoch.
    Mine {
        /// The epoch of the claim, which fences every write.
        epoch: i64,
        /// When taken from a node whose lease ran out: that node's last heartbeat (the
        /// database's clock, Unix ms), up to which the game was served.
        dead_owner_heartbeat: Option<i64>,
    },
    /// Another node, whose lease runs.
    Elsewhere(String),
    /// The game is over (or gone).
    NotLive,
}

/// Claims the stored game `id` for this node if it is in a cluster.
pub(crate) async fn claim(state: &AppState, id: &str) -> Result<Ownership, StoreError> {
    let Some(node) = &state.node else { return Ok(Ownership::Single) };
    match state.store.claim_game(id, &node.id).await {
        Ok(Claim::Claimed { epoch, previous, now_ms }) => {
            let dead_owner_heartbeat = previous.and_then(|previous| {
                let outage = previous.last_heartbeat_ms.map(|beat| now_ms - beat);
                tracing::warn!(game = id, from = %previous.node, outage_ms = ?outage, epoch, "taken over from a node whose lease ran out");
                previous.last_heartbeat_ms
            });
            Ok(Ownership::Mine { epoch, dead_owner_heartbeat })
        }
        Ok(Claim::Owned { owner }) => Ok(Ownership::Elsewhere(owner)),
        Err(StoreError::Conflict(_) | StoreError::NotFound(_)) => Ok(Ownership::NotLive),
        Err(e) => Err(e),
    }
}

/// The epoch of a game this node has just created: `None` on a single node.
pub(crate) async fn claim_new(state: &AppState, id: &str) -> Result<Option<i64>, ApiError> {
    match claim(state, id).await? {
        Ownership::Single => Ok(None),
        Ownership::Mine { epoch, .. } => Ok(Some(epoch)),
        other => Err(ApiError::Internal(format!("a new game {id:?} is {other:?}"))),
    }
}

/// Where a socket's game is served.
pub(crate) enum Located {
    /// On this node.
    Here(GameHandle),
    /// On another node, through the relay.
    Elsewhere,
    /// Nowhere: the game is over (or there is no such game).
    Over,
}

/// Finds who serves the game `id` for a socket that reached this node: its actor here; else,
/// on a cluster, a live game no live node serves is taken over; one another node serves is
/// handed over to this node if no player is connected there (the balancer sends a game's
/// sockets here: its moves then need no relay), and relayed otherwise. While the owner has
/// died, or is stopped (its node answers no probe: [`crate::relay::Relay::answering`]), but
/// its lease still runs, waits for the lease to run out (a few seconds), and takes the game
/// over then.
///
/// # Errors
/// [`ApiError::Elsewhere`] on a node without a relay, or when the owner neither answers nor
/// lets its lease run out; the store failing.
pub(crate) async fn locate(state: &Arc<AppState>, id: &GameId) -> Result<Located, ApiError> {
    if let Some(handle) = state.live.get(id) {
        return Ok(Located::Here(handle));
    }
    let give_up_at =
        state.node.as_ref().map_or(0, |n| now_ms() + n.lease.as_millis() as u64 + 1_000);
    let mut asked = false;
    loop {
        let owner = match state.live.take_over(state, id).await {
            Ok(Some(handle)) => return Ok(Located::Here(handle)),
            Ok(None) => return Ok(Located::Over),
            Err(ApiError::Elsewhere(owner)) => owner,
            Err(e) => return Err(e),
        };
        let Some(relay) = &state.relay else { return Err(ApiError::Elsewhere(owner)) };
        // A stopped owner cannot be relayed to, nor asked for the game (issue 51).
        if !*relay.answering(&owner).borrow() && now_ms() < give_up_at {
            asked = false;
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        // One hand-over asked for at most (two nodes asking at once must not bounce the
        // game), then one more look: granted, or given to another socket of this node meanwhile.
        if asked {
            return Ok(Located::Elsewhere);
        }
        asked = true;
        match relay.handoff(id).await {
            Ok(_) => continue,
            Err(RelayError::NoOwner) if now_ms() < give_up_at => {
                asked = false;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(RelayError::NoOwner) => return Err(ApiError::Elsewhere(owner)),
            Err(e @ RelayError::Failed(_)) => {
                tracing::debug!(game = %id, error = %e, "no answer to a hand-over: looking again");
            }
        }
    }
}

/// This node's lease as its game actors see it: by this machine's clock, whether it surely
/// still runs, and what the last lapse found (issue 51).
pub(crate) struct Lease(watch::Sender<LeaseState>);

/// See [`Lease`].
#[derive(Clone, Debug)]
pub(crate) struct LeaseState {
    /// Until when the lease surely runs: the last good heartbeat's sending plus the lease (the
    /// database starts the lease when it writes the heartbeat, later). Past it, another node
    /// may have claimed this node's games.
    valid_until: Instant,
    /// The wall clock (Unix ms) at the last good heartbeat's sending.
    beat_ms: u64,
    /// How many lapses have been found since the node started.
    pub(crate) lapses: u64,
    /// The last of them.
    pub(crate) lapse: Option<Arc<Lapse>>,
}

/// What a node found when a heartbeat told it its lease had lapsed in the database.
#[derive(Debug)]
pub(crate) struct Lapse {
    /// The wall clock (Unix ms) at the last good heartbeat before the lapse: the node served
    /// its games until then at least, and perhaps no longer.
    pub(crate) served_until_ms: u64,
    /// The wall clock when the lease had run out by this node's reckoning: a game this node
    /// began serving after it (claimed by the awake node) was served all along.
    pub(crate) ran_out_ms: u64,
    /// The games (and epochs) this node served that others have claimed since.
    pub(crate) lost: HashSet<(GameId, i64)>,
}

impl LeaseState {
    /// Whether the lease surely runs now, read together with the state: a renewal that
    /// comes after this reading and finds the lease run out wakes the reader.
    pub(crate) fn runs(&self) -> bool {
        Instant::now() < self.valid_until
    }
}

impl Lease {
    /// A lease not yet renewed: nothing is served under it until the first heartbeat.
    pub(crate) fn new() -> Lease {
        let state = LeaseState { valid_until: Instant::now(), beat_ms: 0, lapses: 0, lapse: None };
        Lease(watch::Sender::new(state))
    }

    /// Follows the lease: a change is sent when a lapse has been checked, and when a renewal
    /// comes after the lease had run out by this node's clock (not on every heartbeat).
    pub(crate) fn subscribe(&self) -> watch::Receiver<LeaseState> {
        self.0.subscribe()
    }

    /// A heartbeat sent at `sent` (wall clock `sent_ms`) renewed the lease, which had not
    /// lapsed in the database.
    fn renewed(&self, sent: Instant, sent_ms: u64, lease: Duration) {
        self.0.send_if_modified(|s| {
            // Under the state's lock: an actor that read the old state and found it run out
            // is woken, since this check comes after its reading.
            let ran_out = Instant::now() >= s.valid_until;
            s.valid_until = sent + lease;
            s.beat_ms = sent_ms;
            ran_out
        });
    }

    /// A heartbeat sent at `sent` renewed the lease, which had lapsed in the database: the
    /// games in `lost` are others' now; the rest are credited the time since the last good
    /// heartbeat.
    fn lapsed(&self, sent: Instant, sent_ms: u64, lease: Duration, lost: HashSet<(GameId, i64)>) {
        self.0.send_modify(|s| {
            let served_until_ms = s.beat_ms;
            let ran_out_ms = s.beat_ms + lease.as_millis() as u64;
            s.lapses += 1;
            s.lapse = Some(Arc::new(Lapse { served_until_ms, ran_out_ms, lost }));
            s.valid_until = sent + lease;
            s.beat_ms = sent_ms;
        });
    }
}

/// The first heartbeat of a node joining the cluster, before it resumes any game.
///
/// # Errors
/// The store failing.
pub(crate) async fn join(state: &AppState) -> Result<(), StoreError> {
    let Some(node) = &state.node else { return Ok(()) };
    let (sent, sent_ms) = (Instant::now(), now_ms());
    state.store.heartbeat(&node.id, node.lease.as_millis() as i64).await?;
    state.lease.renewed(sent, sent_ms, node.lease);
    Ok(())
}

/// Renews this node's lease until the server stops; after a lapse, tells the actors of the
/// games other nodes have claimed since to stop, and the others to credit the lapse.
pub(crate) async fn heartbeats(state: Arc<AppState>) {
    let Some(node) = state.node.clone() else { return };
    let lease_ms = node.lease.as_millis() as i64;
    let mut every = tokio::time::interval(node.lease / 4);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let (sent, sent_ms) = (Instant::now(), now_ms());
        match state.store.heartbeat(&node.id, lease_ms).await {
            Ok(beat) if beat.lapsed => {
                tracing::warn!(node = %node.id, "this node's lease had lapsed: checking the games it serves");
                let lost = lost_games(&state, &node.id).await;
                state.lease.lapsed(sent, sent_ms, node.lease, lost);
            }
            Ok(_) => state.lease.renewed(sent, sent_ms, node.lease),
            Err(e) => {
                tracing::error!(node = %node.id, error = %e, "cannot renew this node's lease")
            }
        }
    }
}

/// The games this node serves that the store says are no longer its own under the same
/// epoch; a game whose owner cannot be read is counted lost (its actor stops, and the next
/// socket claims it again): never served unchecked.
async fn lost_games(state: &AppState, node: &str) -> HashSet<(GameId, i64)> {
    let mut lost = HashSet::new();
    for handle in state.live.list() {
        let Some(epoch) = handle.epoch else { continue };
        let still = match state.store.game_owner(handle.meta.id.as_str()).await {
            Ok((owner, stored)) => owner.as_deref() == Some(node) && stored == epoch,
            Err(StoreError::NotFound(_)) => false,
            Err(e) => {
                tracing::error!(game = %handle.meta.id, error = %e, "cannot read a game's owner: its actor stops");
                false
            }
        };
        if !still {
            lost.insert((handle.meta.id.clone(), epoch));
        }
    }
    lost
}
