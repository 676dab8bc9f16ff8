//! TCP connections: how many, from whom, and for how long when silent (issue 37).

use std::time::Duration;

use crate::netblocks::AddressBlocks;

/// TCP connections: how many, from whom, and for how long when silent.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// A request's headers must arrive within this time of the connection opening (or of the
    /// previous response on a kept-alive connection), or the connection is closed: silent and
    /// slow-header ("slowloris") connections end.
    pub header_timeout: Duration,
    /// A connection on which nothing is read or written for this long is closed, in the
    /// middle of a request too. Not applied to WebSockets, which have their own pings.
    pub idle_timeout: Duration,
    /// Open connections (WebSockets included) at most, over all clients. The server lowers it
    /// to stay below [`ConnectionLimits::open_files`].
    pub max_connections: usize,
    /// Open connections (WebSockets included) at most per client address (IPv6: per /64).
    pub max_per_address: usize,
    /// The process's open-file limit, when known: the connection cap stays
    /// [`OPEN_FILES_RESERVE`] below it, so the server never runs out of descriptors.
    pub open_files: Option<u64>,
    /// The balancers whose connections begin with a PROXY protocol header naming the client
    /// (`--proxy-protocol`; issue 39): the client's address is then the one every limit per
    /// address counts. `None`: every connection is its TCP peer's, and no header is read.
    pub proxy_protocol: Option<AddressBlocks>,
    /// Networks trusted with no limit per address (`--trusted-networks`; issue 51): a school's
    /// or a club's, whose players share one public address. Connections, sign-ups, failed
    /// log-ins and seeks from them are counted per account (or visitor) only, as everywhere.
    pub trusted_networks: Option<AddressBlocks>,
}

/// Descriptors kept free for the database, refused connections being answered, and the rest.
pub const OPEN_FILES_RESERVE: u64 = 128;

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 10_000,
            max_per_address: 256,
            open_files: None,
            proxy_protocol: None,
            trusted_networks: None,
        }
    }
}

/// Refused connections answered at once at least (`429`/`503` and their JSON), even when
/// the open-file limit leaves no room beside the connection cap: the reserve holds them.
const MIN_REFUSING: u64 = 64;
/// Refused connections answered at once at most; past it, in a flood, they are just closed.
const MAX_REFUSING: u64 = 4096;

impl ConnectionLimits {
    /// How many refused connections may be answered at once: each holds a descriptor while
    /// its answer is read (up to 2 s), so as many as the open-file limit leaves beside the
    /// connection cap and half the reserve, from [`MIN_REFUSING`] to [`MAX_REFUSING`]. Issue
    /// 51: at a fixed 64, a burst of 844 connections over one address's cap got 64 answers.
    pub fn max_refusing(&self) -> usize {
        let spare = match self.open_files {
            Some(files) => files
                .saturating_sub(self.effective_max_connections() as u64 + OPEN_FILES_RESERVE / 2),
            None => MAX_REFUSING,
        };
        spare.clamp(MIN_REFUSING, MAX_REFUSING) as usize
    }

    /// The cap on open connections in force: [`ConnectionLimits::max_connections`], lowered
    /// below the open-file limit (to half of it when it is tiny).
    pub fn effective_max_connections(&self) -> usize {
        let Some(files) = self.open_files else { return self.max_connections.max(1) };
        let room =
            if files > 2 * OPEN_FILES_RESERVE { files - OPEN_FILES_RESERVE } else { files / 2 };
        self.max_connections.min(usize::try_from(room).unwrap_or(usize::MAX)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_answered_in_the_room_the_open_file_limit_leaves() {
        let limits = |files| ConnectionLimits { open_files: files, ..ConnectionLimits::default() };
        // 20,000 descriptors, 10,000 connections: 9,936 spare, 4,096 answered at once.
        assert_eq!(limits(Some(20_000)).max_refusing(), 4096);
        assert_eq!(limits(Some(11_000)).max_refusing(), 936);
        // The cap lowered to the limit less the reserve: half the reserve.
        assert_eq!(limits(Some(5_000)).max_refusing(), 64);
        assert_eq!(limits(Some(100)).max_refusing(), 64);
        assert_eq!(limits(None).max_refusing(), 4096);
    }

    #[test]
    fn the_connection_cap_stays_below_the_open_file_limit() {
        let mut c = ConnectionLimits { max_connections: 10_000, ..ConnectionLimits::default() };
        assert_eq!(c.effective_max_connections(), 10_000);
        c.open_files = Some(1024);
        assert_eq!(c.effective_max_connections(), 1024 - OPEN_FILES_RESERVE as usize);
        c.open_files = Some(100);
        assert_eq!(c.effective_max_connections(), 50);
        c.open_files = Some(1 << 20);
        assert_eq!(c.effective_max_connections(), 10_000);
    }
}
