//! The client's address: the one place that says who is asking, network-wise. Every limit per
//! address (connections, seeks, sign-ups, log-ins) reads it from here. It is the TCP peer or,
//! from a balancer trusted with `--proxy-protocol`, the client its PROXY protocol header
//! names (proxy.rs; the accept loop, listener.rs, puts it in each request). An address in a
//! network the operator trusts (`--trusted-networks`: a school's or a club's, where a class
//! shares one public address) is marked so, and no limit per address applies to it; the
//! limits per account and per visitor still do.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::error::ApiError;
use crate::netblocks::AddressBlocks;

/// A client address as the limits count it: an IPv4 address, or an IPv6 /64 network (what
/// one subscriber is given, so one client cannot pose as 2^64 others), and whether it is in
/// a trusted network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddr {
    ip: IpAddr,
    trusted: bool,
}

impl ClientAddr {
    /// The client behind a TCP peer address, not trusted.
    pub fn from_peer(peer: SocketAddr) -> ClientAddr {
        ClientAddr::from_ip(peer.ip())
    }

    /// The client of an IP address (IPv4-mapped IPv6 addresses are IPv4), not trusted.
    pub fn from_ip(ip: IpAddr) -> ClientAddr {
        let ip = match ip {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let network = u128::from(v6) & !((1u128 << 64) - 1);
                    IpAddr::V6(Ipv6Addr::from(network))
                }
            },
        };
        ClientAddr { ip, trusted: false }
    }

    /// The client behind a TCP peer address, trusted when the peer is in `trusted`.
    pub fn of_peer(peer: SocketAddr, trusted: Option<&AddressBlocks>) -> ClientAddr {
        ClientAddr {
            trusted: trusted.is_some_and(|t| t.contains(peer.ip())),
            ..ClientAddr::from_peer(peer)
        }
    }

    /// The address (for IPv6, the first of its /64 network).
    pub fn ip(self) -> IpAddr {
        self.ip
    }

    /// Whether the address is in a network trusted with `--trusted-networks`: no limit per
    /// address applies to it.
    pub fn is_trusted(self) -> bool {
        self.trusted
    }
}

impl fmt::Display for ClientAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ip {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// Handlers take the client address as an argument; the accept loop (listener.rs) put it in
/// the request.
impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddr, ApiError> {
        parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .ok_or_else(|| ApiError::Internal("no client address on the request".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_counts_by_network_and_mapped_ipv4_as_ipv4() {
        let a = ClientAddr::from_ip("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = ClientAddr::from_ip("2001:db8:1:2:bbbb::9".parse().unwrap());
        let c = ClientAddr::from_ip("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.to_string(), "2001:db8:1:2::/64");
        let mapped = ClientAddr::from_ip("::ffff:192.0.2.7".parse().unwrap());
        assert_eq!(mapped, ClientAddr::from_ip("192.0.2.7".parse().unwrap()));
        assert_eq!(mapped.to_string(), "192.0.2.7");
    }
}
