#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
//!
//! The accept loop (issue 37): the server runs hyper's HTTP/1 connections itself, rather than
//! through `axum::serve`, to bound what one client holds. Each connection has
//!
//! - a header timeout (hyper's `header_read_timeout`): silent and slow-header connections end;
//! - an idle timeout: nothing read or written for that long, and it is closed — until it
//!   becomes a WebSocket, which has its own pings (ws.rs);
//! - a place counted per client address and over all: past either cap a new connection is
//!   answered `429 too_many_connections` or `503 server_busy` (the API's JSON error object)
//!   and closed. The global cap stays below the open-file limit, so `accept` never fails for
//!   want of descriptors and the server keeps answering everyone else.
//!
//! Behind a balancer that speaks the PROXY protocol (`--proxy-protocol`, proxy.rs), a
//! connection from a trusted balancer's address first takes a place in the total only; its
//! own task reads the header (within the header timeout, so a stalled balancer connection
//! holds nothing but itself), and the client the header names then takes its place per
//! address, as a direct client would. A trusted connection without a valid header is closed.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower_service::Service;

mod limits;
mod netblocks;
mod proxy;

pub use limits::{ConnectionLimits, OPEN_FILES_RESERVE};
pub use netblocks::{AddressBlocks, AddressBlocksError};
pub use rookery_protocol::ClientAddr;

use proxy::HeaderError;

/// The client behind a TCP peer address, trusted when the peer is in `trusted`
/// (`--trusted-networks`): no limit per address applies to it.
pub fn client_of(peer: SocketAddr, trusted: Option<&AddressBlocks>) -> ClientAddr {
    ClientAddr::from_peer(peer).trusted(trusted.is_some_and(|t| t.contains(peer.ip())))
}

/// How long a refused connection may take to read its answer.
const REFUSAL_LINGER: Duration = Duration::from_secs(2);
/// At most one log line about refused connections per this interval.
const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (WebSockets are told to close by the application itself).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let max = limits.effective_max_connections();
    let open = Arc::new(OpenConnections::new(max, limits.max_per_address.max(1)));
    tracing::info!(
        max_connections = max,
        per_address = limits.max_per_address,
        open_files = ?limits.open_files,
        header_timeout_s = limits.header_timeout.as_secs_f64(),
        idle_timeout_s = limits.idle_timeout.as_secs_f64(),
        refusals_answered_at_once = limits.max_refusing(),
        "connection limits"
    );
    if max < limits.max_connections {
        tracing::warn!(
            "at most {max} connections, not {}: the open-file limit is {} (raise it with \
             `ulimit -n`)",
            limits.max_connections,
            limits.open_files.unwrap_or(0)
        );
    }
    // Connection tasks watch `stop` to shut down gracefully and hold `done` until they end.
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(());
    let refusing = Arc::new(Refusing { now: AtomicUsize::new(0), max: limits.max_refusing() });
    let refusals = Arc::new(Mutex::new(RefusalLog::default()));
    let mut shutdown = pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of descriptors despite the cap (another part of the process holds
                    // them): wait rather than spin.
                    tracing::error!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let client = client_of(peer, limits.trusted_networks.as_ref());
        let balanced = limits.proxy_protocol.as_ref().is_some_and(|t| t.contains(peer.ip()));
        let admitted = if balanced { open.admit_unplaced() } else { open.admit(client) };
        match admitted {
            Ok(slot) => {
                if let Err(e) = tcp.set_nodelay(true) {
                    tracing::debug!(error = %e, "cannot set TCP_NODELAY");
                }
                let conn = Connection {
                    tcp,
                    peer,
                    client,
                    slot,
                    balanced,
                    refusals: refusals.clone(),
                    refusing: refusing.clone(),
                    app: app.clone(),
                    limits: limits.clone(),
                    stop: stop_rx.clone(),
                    done: done_rx.clone(),
                };
                tokio::spawn(conn.run());
            }
            Err(refusal) => {
                refusals.lock().unwrap_or_else(|e| e.into_inner()).count(refusal, &open, client);
                refuse(tcp, refusal, &refusing);
            }
        }
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(done_rx);
    done_tx.closed().await;
}

/// Why a connection was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its address holds its cap.
    PerAddress,
    /// The server holds its cap.
    Global,
}

impl Refusal {
    /// Every refusal.
    pub const ALL: [Refusal; 2] = [Refusal::PerAddress, Refusal::Global];

    /// The API's error code (docs/api.md, "Error codes").
    pub fn code(self) -> &'static str {
        match self {
            Refusal::PerAddress => "too_many_connections",
            Refusal::Global => "server_busy",
        }
    }

    /// The HTTP status line it is answered with.
    pub fn status_line(self) -> &'static str {
        match self {
            Refusal::PerAddress => "429 Too Many Requests",
            Refusal::Global => "503 Service Unavailable",
        }
    }

    /// The words of the answer.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::PerAddress => {
                "too many open connections from your address; close some and retry"
            }
            Refusal::Global => "the server is full; retry in a moment",
        }
    }
}

/// Open connections, per client address and in all.
struct OpenConnections {
    max: usize,
    per_address: usize,
    counts: Mutex<(usize, HashMap<ClientAddr, usize>)>,
}

impl OpenConnections {
    fn new(max: usize, per_address: usize) -> OpenConnections {
        OpenConnections { max, per_address, counts: Mutex::new((0, HashMap::new())) }
    }

    fn admit(self: &Arc<Self>, client: ClientAddr) -> Result<Slot, Refusal> {
        let mut slot = self.admit_unplaced()?;
        slot.place(client)?;
        Ok(slot)
    }

    /// A place in the total only, for a connection whose client is not known yet (a
    /// balancer's, before its PROXY header): [`Slot::place`] gives it its address.
    fn admit_unplaced(self: &Arc<Self>) -> Result<Slot, Refusal> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let (total, _) = &mut *counts;
        if *total >= self.max {
            return Err(Refusal::Global);
        }
        *total += 1;
        Ok(Slot { open: self.clone(), client: None })
    }

    fn total(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

/// A connection's place in the total and, once its client is known, among its address's; given
/// back when the connection (or the WebSocket it became) closes.
struct Slot {
    open: Arc<OpenConnections>,
    client: Option<ClientAddr>,
}

impl Slot {
    /// Counts the connection as `client`'s, unless that address holds its cap (the slot then
    /// stays in the total only, until dropped). A trusted network's address has no cap and is
    /// counted in the total only.
    fn place(&mut self, client: ClientAddr) -> Result<(), Refusal> {
        if client.is_trusted() {
            return Ok(());
        }
        let mut counts = self.open.counts.lock().unwrap_or_else(|e| e.into_inner());
        let (_, per) = &mut *counts;
        let mine = per.get(&client).copied().unwrap_or(0);
        if mine >= self.open.per_address {
            return Err(Refusal::PerAddress);
        }
        per.insert(client, mine + 1);
        self.client = Some(client);
        Ok(())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.open.counts.lock().unwrap_or_else(|e| e.into_inner());
        let (total, per) = &mut *counts;
        *total = total.saturating_sub(1);
        let Some(client) = self.client else { return };
        if let Some(n) = per.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                per.remove(&client);
            }
        }
    }
}

/// Refusals, logged at most once per [`REFUSAL_LOG_EVERY`].
#[derive(Default)]
struct RefusalLog {
    last: Option<Instant>,
    per_address: u64,
    global: u64,
    /// Connections from a trusted balancer closed for want of a valid PROXY header.
    bad_header: u64,
    /// Where the last of them came from, and what was wrong.
    last_bad_header: String,
}

impl RefusalLog {
    fn count(&mut self, refusal: Refusal, open: &OpenConnections, client: ClientAddr) {
        match refusal {
            Refusal::PerAddress => self.per_address += 1,
            Refusal::Global => self.global += 1,
        }
        if self.due() {
            self.report(open, client);
        }
    }

    /// A trusted balancer's connection from `peer` closed: `error` says why.
    fn count_bad_header(&mut self, open: &OpenConnections, peer: SocketAddr, error: &HeaderError) {
        self.bad_header += 1;
        self.last_bad_header = format!("from {peer}: {error}");
        if self.due() {
            self.report(open, ClientAddr::from_peer(peer));
        }
    }

    /// Whether a report is due (none in the last [`REFUSAL_LOG_EVERY`]); if so, it is now.
    fn due(&mut self) -> bool {
        let now = Instant::now();
        if self.last.is_some_and(|t| now.duration_since(t) < REFUSAL_LOG_EVERY) {
            return false;
        }
        self.last = Some(now);
        true
    }

    /// Logs the refusals counted since the last report.
    fn report(&mut self, open: &OpenConnections, client: ClientAddr) {
        if self.global > 0 {
            tracing::warn!(
                open = open.total(),
                max_connections = open.max,
                refused = self.global,
                "connection limit reached: {} connections open (the cap, kept below the \
                 open-file limit); new connections are answered 503 until some close",
                open.total()
            );
        }
        if self.per_address > 0 {
            tracing::warn!(
                address = %client,
                per_address = open.per_address,
                refused = self.per_address,
                "connections refused: an address holds its cap of {} open connections",
                open.per_address
            );
        }
        if self.bad_header > 0 {
            tracing::warn!(
                refused = self.bad_header,
                "connections from a trusted balancer (--proxy-protocol) closed: no valid PROXY \
                 protocol header; the last {}",
                self.last_bad_header
            );
        }
        self.per_address = 0;
        self.global = 0;
        self.bad_header = 0;
    }
}

/// Refused connections being answered: how many now, and at most
/// ([`ConnectionLimits::max_refusing`]).
struct Refusing {
    now: AtomicUsize,
    max: usize,
}

/// Answers a refused connection with the JSON error object and closes it; while the most
/// that may be are being answered, just closes it.
fn refuse(tcp: TcpStream, refusal: Refusal, refusing: &Arc<Refusing>) {
    if refusing.now.fetch_add(1, Ordering::Relaxed) >= refusing.max {
        refusing.now.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    let (status, code, message) = (refusal.status_line(), refusal.code(), refusal.message());
    let body = serde_json::json!({ "error": { "code": code, "message": message } }).to_string();
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\nretry-after: 5\r\n\r\n{body}",
        body.len()
    );
    let refusing = refusing.clone();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut tcp = tcp;
        let _ = tokio::time::timeout(REFUSAL_LINGER, async {
            tcp.write_all(response.as_bytes()).await?;
            tcp.shutdown().await?;
            // Read what the client sent until it closes: closing with unread bytes would
            // reset the connection and could lose the answer.
            let mut sink = [0u8; 1024];
            while tcp.read(&mut sink).await? > 0 {}
            Ok::<_, io::Error>(())
        })
        .await;
        drop(tcp);
        refusing.now.fetch_sub(1, Ordering::Relaxed);
    });
}

/// One admitted connection.
struct Connection {
    tcp: TcpStream,
    peer: SocketAddr,
    client: ClientAddr,
    slot: Slot,
    /// From a trusted balancer: it begins with a PROXY header, and `slot` is not placed yet.
    balanced: bool,
    refusals: Arc<Mutex<RefusalLog>>,
    refusing: Arc<Refusing>,
    app: Router,
    limits: ConnectionLimits,
    stop: watch::Receiver<bool>,
    done: watch::Receiver<()>,
}

impl Connection {
    async fn run(self) {
        let Connection {
            mut tcp,
            mut peer,
            mut client,
            mut slot,
            balanced,
            refusals,
            refusing,
            app,
            limits,
            mut stop,
            done,
        } = self;
        let mut early = Vec::new();
        if balanced {
            let within = limits.header_timeout;
            let read = tokio::time::timeout(within, proxy::read_header(&mut tcp)).await;
            let (header, after) = match read.unwrap_or(Err(HeaderError::Timeout(within))) {
                Ok(read) => read,
                Err(e) => {
                    refusals
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .count_bad_header(&slot.open, peer, &e);
                    return;
                }
            };
            // LOCAL (the balancer's health checks): the balancer is the client.
            if let Some(source) = header.source() {
                peer = source;
                client = client_of(source, limits.trusted_networks.as_ref());
            }
            if let Err(refusal) = slot.place(client) {
                refusals
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .count(refusal, &slot.open, client);
                refuse(tcp, refusal, &refusing);
                return;
            }
            early = after;
        }
        let activity = Arc::new(Activity::new());
        let io = TokioIo::new(Tracked { tcp, early, activity: activity.clone(), _slot: slot });
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(client);
            app.clone().call(req)
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
        let mut conn = pin!(builder.serve_connection(io, service).with_upgrades());
        let idle = limits.idle_timeout;
        let mut stopping = false;
        loop {
            let quiet_until = tokio::time::Instant::from_std(activity.last() + idle);
            tokio::select! {
                // Ends when the client closes, a timeout fires, or the connection becomes a
                // WebSocket (hyper hands it over, with its slot, and the idle watch stops).
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%client, error = %e, "connection ended");
                    }
                    break;
                }
                () = tokio::time::sleep_until(quiet_until) => {
                    if activity.last().elapsed() >= idle {
                        tracing::debug!(%client, "idle connection closed");
                        break;
                    }
                }
                changed = stop.changed(), if !stopping => {
                    stopping = true;
                    if changed.is_ok() {
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
        }
        drop(done);
    }
}

/// When a connection last read or wrote, as an offset from its start.
struct Activity {
    start: Instant,
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Activity {
        Activity { start: Instant::now(), last_ms: AtomicU64::new(0) }
    }

    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    fn last(&self) -> Instant {
        self.start + Duration::from_millis(self.last_ms.load(Ordering::Relaxed))
    }
}

/// A TCP stream that notes its activity and holds its connection's [`Slot`] for as long as it
/// lives (as a WebSocket too).
struct Tracked {
    tcp: TcpStream,
    /// Bytes read with the PROXY header that follow it: the client's, read first.
    early: Vec<u8>,
    activity: Arc<Activity>,
    _slot: Slot,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if !self.early.is_empty() {
            let n = self.early.len().min(buf.remaining());
            buf.put_slice(&self.early[..n]);
            self.early.drain(..n);
            self.activity.touch();
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        let result = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        result
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.tcp).poll_write(cx, buf);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(text: &str) -> ClientAddr {
        ClientAddr::from_peer(SocketAddr::new(text.parse().unwrap(), 1))
    }

    #[test]
    fn caps_per_address_and_in_all() {
        let open = Arc::new(OpenConnections::new(3, 2));
        let a1 = open.admit(addr("10.0.0.1")).unwrap();
        let _a2 = open.admit(addr("10.0.0.1")).unwrap();
        assert_eq!(open.admit(addr("10.0.0.1")).err(), Some(Refusal::PerAddress));
        let _b1 = open.admit(addr("10.0.0.2")).unwrap();
        assert_eq!(open.admit(addr("10.0.0.3")).err(), Some(Refusal::Global));
        drop(a1);
        assert_eq!(open.total(), 2);
        let _c1 = open.admit(addr("10.0.0.3")).unwrap();
        assert_eq!(open.admit(addr("10.0.0.1")).err(), Some(Refusal::Global));
    }

    #[test]
    fn a_trusted_networks_address_has_no_cap_of_its_own_but_counts_in_all() {
        let trusted: AddressBlocks = "10.1.0.0/16".parse().unwrap();
        let school =
            |host: &str| client_of(SocketAddr::new(host.parse().unwrap(), 1), Some(&trusted));
        assert!(school("10.1.2.3").is_trusted());
        assert!(!school("10.2.0.1").is_trusted());
        let open = Arc::new(OpenConnections::new(4, 1));
        let held: Vec<Slot> = (0..3).map(|_| open.admit(school("10.1.2.3")).unwrap()).collect();
        assert_eq!(open.total(), 3);
        let _other = open.admit(school("10.2.0.1")).unwrap();
        assert_eq!(open.admit(school("10.1.2.3")).err(), Some(Refusal::Global));
        drop(held);
        assert_eq!(open.total(), 1);
    }

    #[test]
    fn a_balancers_connection_counts_in_all_at_once_and_per_address_once_placed() {
        let open = Arc::new(OpenConnections::new(3, 1));
        let mut a = open.admit_unplaced().unwrap();
        let mut b = open.admit_unplaced().unwrap();
        a.place(addr("192.0.2.1")).unwrap();
        assert_eq!(b.place(addr("192.0.2.1")), Err(Refusal::PerAddress));
        b.place(addr("192.0.2.2")).unwrap();
        let _c = open.admit_unplaced().unwrap();
        assert_eq!(open.admit_unplaced().err(), Some(Refusal::Global));
        drop(a);
        assert_eq!(open.total(), 2);
        // a's address is free again; b's is not.
        let _d = open.admit(addr("192.0.2.1")).unwrap();
        drop(_c);
        assert_eq!(open.admit(addr("192.0.2.2")).err(), Some(Refusal::PerAddress));
    }
}
