//! The lobby's seeks as the protocol carries them (docs/protocol.md, "Lobby socket"): an open
//! seek or challenge, the colour its owner asked for, and the client address it came from,
//! which the lobby counts per address (issue 37) and never shows.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use rookery_arbiter::{RuleSet, TimeControl};
use rookery_store::Player;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::{PlayerView, VariantChoice};

/// Which colour the seek's owner wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, decided when accepted.
    Random,
}

impl crate::FieldValue for ColorChoice {
    const EXPECTED: &'static str = "white, black or random";
    fn from_value(v: serde_json::Value) -> Result<ColorChoice, String> {
        match v.as_str() {
            Some("white") => Ok(ColorChoice::White),
            Some("black") => Ok(ColorChoice::Black),
            Some("random") => Ok(ColorChoice::Random),
            _ => Err(format!("white, black or random, not {v}")),
        }
    }
}

impl ColorChoice {
    /// The choice named `name` (`white`, `black` or `random`).
    pub fn from_name(name: &str) -> Option<ColorChoice> {
        [ColorChoice::White, ColorChoice::Black, ColorChoice::Random]
            .into_iter()
            .find(|c| c.name() == name)
    }

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// Whether the owner plays White, tossing a coin for `Random`.
    pub fn owner_is_white(self) -> bool {
        match self {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => {
                let mut b = [0u8; 1];
                let _ = getrandom::fill(&mut b);
                b[0] & 1 == 0
            }
        }
    }
}

/// An open seek (or a challenge to one user).
#[derive(Clone, Debug)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who made it.
    pub owner: Player,
    /// The time control.
    pub time_control: TimeControl,
    /// Its speed.
    pub speed: &'static str,
    /// Rated.
    pub rated: bool,
    /// The rule set.
    pub rules: RuleSet,
    /// Standard chess or Chess960 (its start chosen, or drawn when the game is made): a seek
    /// is a game of this variant, so only those who want that variant accept it.
    pub variant: VariantChoice,
    /// The owner's colour.
    pub color: ColorChoice,
    /// The challenged user's name (case as typed), for a challenge.
    pub to: Option<String>,
    /// When (Unix ms).
    pub created_at_ms: u64,
    /// The client address it came from (never shown).
    pub addr: ClientAddr,
}

impl Seek {
    /// Whether `name` may see it: everyone for open seeks; the two sides for a challenge.
    pub fn visible_to(&self, name: &str) -> bool {
        match &self.to {
            None => true,
            Some(to) => to.eq_ignore_ascii_case(name) || self.owner.name == name,
        }
    }
}

/// A seek as the API and the lobby socket show it (its address never).
impl Serialize for Seek {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Seek", 11)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("owner", &PlayerView::of(&self.owner))?;
        st.serialize_field("time_control", &self.time_control.to_string())?;
        st.serialize_field("speed", self.speed)?;
        st.serialize_field("rated", &self.rated)?;
        st.serialize_field("rules", self.rules.label())?;
        st.serialize_field("variant", self.variant.name())?;
        st.serialize_field("position", &self.variant.number())?;
        st.serialize_field("color", self.color.name())?;
        st.serialize_field("to", &self.to)?;
        st.serialize_field("created_at_ms", &self.created_at_ms)?;
        st.end()
    }
}

/// A client address as the limits count it: an IPv4 address, or an IPv6 /64 network (what
/// one subscriber is given, so one client cannot pose as 2^64 others), and whether it is in
/// a network the operator trusts (`--trusted-networks`), where no limit per address applies.
/// The server reads it at the edge (the TCP peer, or a trusted balancer's PROXY header).
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

    /// The same client, marked as in a trusted network or not.
    pub fn trusted(self, trusted: bool) -> ClientAddr {
        ClientAddr { trusted, ..self }
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
