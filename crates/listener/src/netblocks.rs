//! Lists of addresses and CIDR blocks (`127.0.0.1/32,10.0.0.0/8,::1`), as the operator gives
//! them: the balancers trusted to send the PROXY protocol (`--proxy-protocol`) and the
//! networks trusted with no limit per address (`--trusted-networks`). Imports nothing of the
//! server's: the limits and the client's address both read it.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// A list of addresses and CIDR blocks, as `127.0.0.1/32,10.0.0.0/8,::1`: the balancers whose
/// connections begin with a PROXY protocol header (`--proxy-protocol`), and the networks
/// trusted with no limit per address (`--trusted-networks`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressBlocks(Vec<Block>);

/// One address block: its first address and prefix length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    network: IpAddr,
    prefix: u8,
}

impl AddressBlocks {
    /// Whether `ip` is in one of the blocks (an IPv4-mapped IPv6 peer, as a dual-stack
    /// listener sees IPv4 clients, counts as its IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            IpAddr::V4(_) => ip,
        };
        self.0.iter().any(|block| match (block.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                mask_v4(u32::from(ip), block.prefix) == u32::from(net)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                mask_v6(u128::from(ip), block.prefix) == u128::from(net)
            }
            _ => false,
        })
    }
}

/// `bits` with all but the first `prefix` bits cleared.
fn mask_v4(bits: u32, prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        bits & (u32::MAX << (32 - u32::from(prefix)))
    }
}

/// `bits` with all but the first `prefix` bits cleared.
fn mask_v6(bits: u128, prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        bits & (u128::MAX << (128 - u32::from(prefix)))
    }
}

/// Why a list of addresses and blocks cannot be read: the entry, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{entry:?}: {problem}")]
pub struct AddressBlocksError {
    /// The entry (empty for an empty list or an empty entry).
    pub entry: String,
    /// What is wrong with it.
    pub problem: String,
}

impl FromStr for AddressBlocks {
    type Err = AddressBlocksError;

    fn from_str(text: &str) -> Result<AddressBlocks, AddressBlocksError> {
        let mut blocks = Vec::new();
        for entry in text.split(',').map(str::trim) {
            let bad = |problem: &str| AddressBlocksError {
                entry: entry.to_owned(),
                problem: problem.to_owned(),
            };
            if entry.is_empty() {
                return Err(bad("an empty entry: give addresses or CIDR blocks, comma-separated"));
            }
            let (address, prefix) = match entry.split_once('/') {
                Some((address, prefix)) => (address, Some(prefix)),
                None => (entry, None),
            };
            let network: IpAddr =
                address.parse().map_err(|_| bad("not an IPv4 or IPv6 address"))?;
            let max = if network.is_ipv4() { 32 } else { 128 };
            let prefix = match prefix {
                None => max,
                Some(p) => p
                    .parse::<u8>()
                    .ok()
                    .filter(|p| *p <= max)
                    .ok_or_else(|| bad(&format!("the prefix length is not 0 to {max}")))?,
            };
            let masked = match network {
                IpAddr::V4(v4) => IpAddr::V4(Ipv4Addr::from(mask_v4(u32::from(v4), prefix))),
                IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(mask_v6(u128::from(v6), prefix))),
            };
            if masked != network {
                return Err(bad(&format!(
                    "bits set past the /{prefix} prefix (the block is {masked}/{prefix})"
                )));
            }
            blocks.push(Block { network, prefix });
        }
        Ok(AddressBlocks(blocks))
    }
}

impl fmt::Display for AddressBlocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, block) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{}/{}", block.network, block.prefix)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_blocks_are_addresses_and_blocks() {
        let trusted: AddressBlocks = "127.0.0.1/32, 10.0.0.0/8,::1,2001:db8::/32".parse().unwrap();
        assert_eq!(trusted.to_string(), "127.0.0.1/32,10.0.0.0/8,::1/128,2001:db8::/32");
        let cases = [
            ("127.0.0.1", true),
            ("127.0.0.2", false),
            ("10.200.3.4", true),
            ("11.0.0.1", false),
            ("::1", true),
            ("::2", false),
            ("2001:db8:ffff::1", true),
            ("2001:db9::1", false),
            // A dual-stack listener's view of 127.0.0.1.
            ("::ffff:127.0.0.1", true),
        ];
        for (ip, expected) in cases {
            assert_eq!(trusted.contains(ip.parse().unwrap()), expected, "{ip}");
        }
        let everyone: AddressBlocks = "0.0.0.0/0".parse().unwrap();
        assert!(everyone.contains("203.0.113.9".parse().unwrap()));
        assert!(!everyone.contains("2001:db8::1".parse().unwrap()), "IPv4 blocks hold no IPv6");
    }

    #[test]
    fn bad_address_lists_name_the_entry() {
        let cases = [
            ("", "\"\": an empty entry"),
            ("127.0.0.1,", "\"\": an empty entry"),
            ("localhost", "\"localhost\": not an IPv4 or IPv6 address"),
            ("10.0.0.0/33", "\"10.0.0.0/33\": the prefix length is not 0 to 32"),
            ("::/129", "\"::/129\": the prefix length is not 0 to 128"),
            ("10.0.0.1/8", "\"10.0.0.1/8\": bits set past the /8 prefix (the block is 10.0.0.0/8)"),
        ];
        for (text, expected) in cases {
            let e = text.parse::<AddressBlocks>().unwrap_err().to_string();
            assert!(e.starts_with(expected), "{text:?}: {e}");
        }
    }
}
