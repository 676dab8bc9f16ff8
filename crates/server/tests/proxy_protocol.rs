//! Issue 39: behind a balancer that speaks the PROXY protocol, the limits per client address
//! count the address the header names. Against a real server on an ephemeral port that
//! trusts 127.0.0.1 (`--proxy-protocol 127.0.0.1/32`); 127.0.0.2 is an untrusted client.
//! No test asserts a speed: a test waits, within a generous deadline, for a behaviour.

mod common;

use std::net::Ipv4Addr;
use std::time::Duration;

use common::{closed_by_server, connect_from, TestServer};
use rookery_server::Limits;
use tokio::io::AsyncWriteExt;

const HEALTH: &[u8] = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/// A version 2 PROXY header for a TCP/IPv4 client at `source` (`None`: LOCAL).
fn v2(source: Option<Ipv4Addr>) -> Vec<u8> {
    let mut bytes = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    match source {
        Some(ip) => {
            bytes.extend([0x21, 0x11, 0, 12]);
            bytes.extend(ip.octets());
            bytes.extend([127, 0, 0, 1]);
            bytes.extend(40_000u16.to_be_bytes());
            bytes.extend(8080u16.to_be_bytes());
        }
        None => bytes.extend([0x20, 0x00, 0, 0]),
    }
    bytes
}

/// Sends `bytes` on a new connection from `local` and reads the answer.
async fn exchange(server: &TestServer, local: &str, bytes: &[u8]) -> String {
    let mut tcp = connect_from(Some(local.parse().unwrap()), server.addr).await;
    tcp.write_all(bytes).await.unwrap();
    closed_by_server(&mut tcp).await
}

fn trusting_loopback(per_address: usize) -> Limits {
    let mut limits = Limits::default();
    limits.connections.header_timeout = Duration::from_secs(1);
    limits.connections.max_per_address = per_address;
    limits.connections.proxy_protocol = Some("127.0.0.1/32".parse().unwrap());
    limits
}

#[tokio::test]
async fn issue39_a_trusted_balancers_connections_count_as_the_clients_it_names() {
    let server = TestServer::start_limited(trusting_loopback(2)).await;
    // A balancer's connection that stalls before its header holds nothing but itself.
    let mut stalled = connect_from(Some("127.0.0.1".parse().unwrap()), server.addr).await;
    // 192.0.2.1 holds its two connections, through the balancer.
    let client = Ipv4Addr::new(192, 0, 2, 1);
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut tcp = connect_from(Some("127.0.0.1".parse().unwrap()), server.addr).await;
        tcp.write_all(&v2(Some(client))).await.unwrap();
        held.push(tcp);
    }
    // Its third, whichever header version, is refused; the header and the request may come
    // in one write.
    let refused = exchange(
        &server,
        "127.0.0.1",
        &[b"PROXY TCP4 192.0.2.1 127.0.0.1 40001 8080\r\n".as_slice(), HEALTH].concat(),
    )
    .await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains(r#""code":"too_many_connections""#), "{refused}");
    // Another client through the same balancer is served, and so are the balancer's own
    // health checks (LOCAL).
    let other = exchange(
        &server,
        "127.0.0.1",
        &[v2(Some([192, 0, 2, 2].into())), HEALTH.to_vec()].concat(),
    )
    .await;
    assert!(other.starts_with("HTTP/1.1 200"), "{other}");
    let local = exchange(&server, "127.0.0.1", &[v2(None), HEALTH.to_vec()].concat()).await;
    assert!(local.starts_with("HTTP/1.1 200"), "{local}");
    // The stalled connection is closed, unanswered, once the header timeout passes.
    assert_eq!(closed_by_server(&mut stalled).await, "");
    drop(held);
    server.stop().await;
}

#[tokio::test]
async fn issue39_only_trusted_peers_send_headers_and_they_must() {
    let server = TestServer::start_limited(trusting_loopback(256)).await;
    // From the balancer's address, a request without a header is closed unanswered.
    assert_eq!(exchange(&server, "127.0.0.1", HEALTH).await, "");
    // A bad header likewise.
    let bad = [b"PROXY TCP4 192.0.2.300 127.0.0.1 1 2\r\n".as_slice(), HEALTH].concat();
    assert_eq!(exchange(&server, "127.0.0.1", &bad).await, "");
    // Anyone else is served as before, with no header read…
    let direct = exchange(&server, "127.0.0.2", HEALTH).await;
    assert!(direct.starts_with("HTTP/1.1 200"), "{direct}");
    // …and a header from them is not believed: it is their request's first bytes.
    let forged = exchange(
        &server,
        "127.0.0.2",
        &[v2(Some([192, 0, 2, 9].into())), HEALTH.to_vec()].concat(),
    )
    .await;
    assert!(forged.starts_with("HTTP/1.1 400"), "{forged}");
    server.stop().await;
}

#[tokio::test]
async fn issue39_without_the_flag_nothing_is_read_before_the_request() {
    let mut limits = trusting_loopback(256);
    limits.connections.proxy_protocol = None;
    let server = TestServer::start_limited(limits).await;
    let health = exchange(&server, "127.0.0.1", HEALTH).await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let header_first = [b"PROXY TCP4 192.0.2.1 127.0.0.1 1 2\r\n".as_slice(), HEALTH].concat();
    let refused = exchange(&server, "127.0.0.1", &header_first).await;
    assert!(refused.starts_with("HTTP/1.1 400"), "{refused}");
    server.stop().await;
}
