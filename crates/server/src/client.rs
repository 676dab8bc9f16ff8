//! The client's address: the one place that says who is asking, network-wise. Every limit per
//! address (connections, seeks, sign-ups, log-ins) reads it from here. It is the TCP peer or,
//! from a balancer trusted with `--proxy-protocol`, the client its PROXY protocol header
//! names (proxy.rs; the accept loop, listener.rs, puts it in each request, where handlers take
//! it as an `Extension`). An address in a network the operator trusts (`--trusted-networks`:
//! a school's or a club's, where a class shares one public address) is marked so, and no limit
//! per address applies to it; the limits per account and per visitor still do.

use std::net::SocketAddr;

pub use rookery_protocol::ClientAddr;

use crate::netblocks::AddressBlocks;

/// The client behind a TCP peer address, trusted when the peer is in `trusted`.
pub fn of_peer(peer: SocketAddr, trusted: Option<&AddressBlocks>) -> ClientAddr {
    ClientAddr::from_peer(peer).trusted(trusted.is_some_and(|t| t.contains(peer.ip())))
}
