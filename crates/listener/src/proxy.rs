//! The PROXY protocol (HAProxy's `send-proxy-v2` and `send-proxy`; issue 39): a balancer that
//! opens a connection to a node first sends one header saying whom it relays, so that every
//! limit per client address (issue 37) counts the players' addresses, not the balancer's.
//!
//! Only connections from the balancers the operator trusts (`--proxy-protocol`,
//! [`AddressBlocks`](crate::netblocks::AddressBlocks)) are read this way; anyone else could claim any address. The format is
//! HAProxy's `doc/proxy-protocol.txt` (version 1, text, §2.1; version 2, binary, §2.2), read
//! here in one function, [`parse`], on the bytes received so far: a header is at most
//! [`MAX_HEADER`] bytes, and what follows it in the same read is the client's and is handed on.
//! Written here rather than taken from a crate: it is a hundred lines, and its errors name
//! what was wrong the way the rest of the server's do.

use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use tokio::io::{AsyncRead, AsyncReadExt};

/// The first twelve bytes of a version 2 header (§2.2).
const V2_SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";
/// The start of a version 1 header (§2.1).
const V1_PREFIX: &[u8] = b"PROXY ";
/// A version 1 header's longest line, CRLF included (§2.1: "107 bytes").
const V1_MAX: usize = 107;
/// The longest header read: a version 2 header with UNIX addresses (232 bytes) and the TLVs
/// HAProxy may add (ALPN, authority, unique id, SSL) fits, with room. A longer one is refused.
pub(crate) const MAX_HEADER: usize = 1024;

/// What a PROXY protocol header says of the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProxyHeader {
    /// The balancer relays a client: the client's address, and the address it reached.
    Proxied {
        /// The client's address and port, as the balancer saw them.
        source: SocketAddr,
        /// The address and port the client connected to.
        destination: SocketAddr,
    },
    /// The balancer's own connection (a health check: version 2 `LOCAL`) or one whose
    /// addresses it does not tell (version 1 `UNKNOWN`, version 2 `UNSPEC` or UNIX sockets):
    /// the connection's own peer address stands (§2.1, §2.2).
    Local,
}

impl ProxyHeader {
    /// The client's address, when the header gives one.
    pub(crate) fn source(self) -> Option<SocketAddr> {
        match self {
            ProxyHeader::Proxied { source, .. } => Some(source),
            ProxyHeader::Local => None,
        }
    }
}

/// What [`parse`] made of the bytes received so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// A valid start of a header: read more.
    Incomplete,
    /// A whole header, `len` bytes long; the bytes after it are the client's.
    Complete {
        /// The header.
        header: ProxyHeader,
        /// Its length in bytes.
        len: usize,
    },
}

/// Why a connection from a trusted balancer has no valid PROXY protocol header.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HeaderError {
    /// The connection begins with something else (a client that is not a balancer, or a
    /// balancer not told to send the header).
    #[error("not a PROXY protocol header: the connection begins {0}")]
    NotProxy(Shown),
    /// A version 1 line without its CRLF within the 107 bytes the protocol allows.
    #[error("PROXY v1 header with no CRLF within {V1_MAX} bytes: {0}")]
    V1TooLong(Shown),
    /// A version 1 line of the wrong shape.
    #[error("PROXY v1 header {line:?}: {problem}")]
    V1Line {
        /// The line, without its CRLF.
        line: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A version 2 header of another version than 2.
    #[error("PROXY v2 header of version {0} (only 2 is defined)")]
    V2Version(u8),
    /// A version 2 header with a command other than LOCAL (0) or PROXY (1).
    #[error("PROXY v2 header with command {0} (0 LOCAL and 1 PROXY are defined)")]
    V2Command(u8),
    /// A version 2 header with an unknown address family or transport.
    #[error("PROXY v2 header with address family and transport byte {0:#04x}")]
    V2Family(u8),
    /// A version 2 header too short for its addresses.
    #[error("PROXY v2 header of {len} address bytes, fewer than the {needs} of {family}")]
    V2Short {
        /// The family (`IPv4`, `IPv6`).
        family: &'static str,
        /// The bytes its addresses take.
        needs: usize,
        /// The header's length field.
        len: usize,
    },
    /// A header longer than [`MAX_HEADER`].
    #[error("PROXY v2 header of {len} bytes, more than the {MAX_HEADER} accepted")]
    Oversized {
        /// Its length, the 16 fixed bytes included.
        len: usize,
    },
    /// The connection ended before the header did.
    #[error("connection closed after {got} bytes, within its PROXY protocol header")]
    Truncated {
        /// The bytes received.
        got: usize,
    },
    /// The header did not come in time.
    #[error("no whole PROXY protocol header within {0:?}")]
    Timeout(std::time::Duration),
    /// Reading failed.
    #[error("reading the PROXY protocol header: {0}")]
    Io(#[from] io::Error),
}

/// The first bytes of a connection, shown in an error: text as text, the rest in hex.
#[derive(Debug)]
pub(crate) struct Shown(Vec<u8>);

impl Shown {
    fn of(bytes: &[u8]) -> Shown {
        Shown(bytes.iter().copied().take(24).collect())
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.iter().all(|b| b.is_ascii_graphic() || b" \r\n\t".contains(b)) {
            write!(f, "{:?}", String::from_utf8_lossy(&self.0))
        } else {
            let hex: Vec<String> = self.0.iter().map(|b| format!("{b:02x}")).collect();
            write!(f, "with bytes {}", hex.join(" "))
        }
    }
}

/// Reads the header `bytes` begin with, as far as they go.
///
/// # Errors
/// [`HeaderError`] naming what is wrong, as soon as the bytes cannot begin a valid header.
pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed, HeaderError> {
    let starts = |prefix: &[u8]| {
        let n = bytes.len().min(prefix.len());
        bytes[..n] == prefix[..n]
    };
    if starts(&V2_SIGNATURE) {
        if bytes.len() < V2_SIGNATURE.len() {
            return Ok(Parsed::Incomplete);
        }
        parse_v2(bytes)
    } else if starts(V1_PREFIX) {
        if bytes.len() < V1_PREFIX.len() {
            return Ok(Parsed::Incomplete);
        }
        parse_v1(bytes)
    } else {
        Err(HeaderError::NotProxy(Shown::of(bytes)))
    }
}

/// Version 1: `PROXY TCP4|TCP6 SOURCE DESTINATION SPORT DPORT\r\n` or `PROXY UNKNOWN …\r\n`.
fn parse_v1(bytes: &[u8]) -> Result<Parsed, HeaderError> {
    let window = &bytes[..bytes.len().min(V1_MAX)];
    let Some(end) = window.windows(2).position(|w| w == b"\r\n") else {
        if bytes.len() >= V1_MAX {
            return Err(HeaderError::V1TooLong(Shown::of(bytes)));
        }
        return Ok(Parsed::Incomplete);
    };
    let len = end + 2;
    let bad = |problem: String| HeaderError::V1Line {
        line: String::from_utf8_lossy(&bytes[..end]).into_owned(),
        problem,
    };
    let line = std::str::from_utf8(&bytes[..end]).map_err(|_| bad("not ASCII".into()))?;
    let fields: Vec<&str> = line.split(' ').collect();
    match fields.get(1).copied() {
        // §2.1: whatever follows UNKNOWN is ignored; the real peer stands.
        Some("UNKNOWN") => Ok(Parsed::Complete { header: ProxyHeader::Local, len }),
        Some(family @ ("TCP4" | "TCP6")) => {
            let [_, _, source, destination, sport, dport] = fields[..] else {
                return Err(bad(format!(
                    "{} fields, not the 6 of PROXY {family} SOURCE DESTINATION SPORT DPORT",
                    fields.len()
                )));
            };
            let ip = |text: &str, field: &str| -> Result<IpAddr, HeaderError> {
                let ip = if family == "TCP4" {
                    text.parse::<Ipv4Addr>().map(IpAddr::V4).ok()
                } else {
                    text.parse::<Ipv6Addr>().map(IpAddr::V6).ok()
                };
                ip.ok_or_else(|| bad(format!("{field} address {text:?} is not {family}")))
            };
            let port = |text: &str, field: &str| -> Result<u16, HeaderError> {
                // Decimal digits only (no sign), no leading zero (§2.1).
                let canonical = text.bytes().all(|b| b.is_ascii_digit())
                    && !(text.len() > 1 && text.starts_with('0'));
                text.parse::<u16>()
                    .ok()
                    .filter(|_| canonical)
                    .ok_or_else(|| bad(format!("{field} port {text:?} is not 0 to 65535")))
            };
            let source = SocketAddr::new(ip(source, "source")?, port(sport, "source")?);
            let destination =
                SocketAddr::new(ip(destination, "destination")?, port(dport, "destination")?);
            Ok(Parsed::Complete { header: ProxyHeader::Proxied { source, destination }, len })
        }
        other => {
            Err(bad(format!("protocol {:?}, not TCP4, TCP6 or UNKNOWN", other.unwrap_or_default())))
        }
    }
}

/// Version 2: the signature, version and command, family and transport, a big-endian length,
/// then that many bytes: the addresses, then TLVs (ignored).
fn parse_v2(bytes: &[u8]) -> Result<Parsed, HeaderError> {
    let Some(fixed) = bytes.get(..16) else { return Ok(Parsed::Incomplete) };
    let version = fixed[12] >> 4;
    if version != 2 {
        return Err(HeaderError::V2Version(version));
    }
    let command = fixed[12] & 0x0f;
    if command > 1 {
        return Err(HeaderError::V2Command(command));
    }
    let rest = usize::from(u16::from_be_bytes([fixed[14], fixed[15]]));
    let len = 16 + rest;
    if len > MAX_HEADER {
        return Err(HeaderError::Oversized { len });
    }
    // The family is checked before the whole header has come: a bad one is refused at once.
    let family = fixed[13];
    let needs = match family {
        // UNSPEC (any transport): no addresses told.
        0x00..=0x02 => None,
        // TCP over IPv4, over IPv6.
        0x11 => Some(("IPv4", 12)),
        0x21 => Some(("IPv6", 36)),
        // UNIX stream sockets: addresses that are not the client's.
        0x31 => None,
        _ if command == 0 => None,
        _ => return Err(HeaderError::V2Family(family)),
    };
    if let Some((family, needs)) = needs {
        if command == 1 && rest < needs {
            return Err(HeaderError::V2Short { family, needs, len: rest });
        }
    }
    let Some(body) = bytes.get(16..len) else { return Ok(Parsed::Incomplete) };
    // §2.2: LOCAL — the receiver "must use the real connection endpoints", whatever follows.
    let header = match (command, family) {
        (1, 0x11) => {
            let ip = |at: usize| {
                IpAddr::V4(Ipv4Addr::new(body[at], body[at + 1], body[at + 2], body[at + 3]))
            };
            let port = |at: usize| u16::from_be_bytes([body[at], body[at + 1]]);
            ProxyHeader::Proxied {
                source: SocketAddr::new(ip(0), port(8)),
                destination: SocketAddr::new(ip(4), port(10)),
            }
        }
        (1, 0x21) => {
            let ip = |at: usize| {
                let mut octets = [0u8; 16];
                octets.copy_from_slice(&body[at..at + 16]);
                IpAddr::V6(Ipv6Addr::from(octets))
            };
            let port = |at: usize| u16::from_be_bytes([body[at], body[at + 1]]);
            ProxyHeader::Proxied {
                source: SocketAddr::new(ip(0), port(32)),
                destination: SocketAddr::new(ip(16), port(34)),
            }
        }
        _ => ProxyHeader::Local,
    };
    Ok(Parsed::Complete { header, len })
}

/// Reads a PROXY protocol header from `io`: the header, and the bytes read past it (the
/// client's first, to be read before the rest of the connection). The caller bounds the time.
///
/// # Errors
/// [`HeaderError`]: a bad header, or the connection ending or failing within it.
pub(crate) async fn read_header<R: AsyncRead + Unpin>(
    io: &mut R,
) -> Result<(ProxyHeader, Vec<u8>), HeaderError> {
    let mut buf = vec![0u8; MAX_HEADER];
    let mut got = 0;
    loop {
        if let Parsed::Complete { header, len } = parse(&buf[..got])? {
            buf.truncate(got);
            return Ok((header, buf.split_off(len)));
        }
        // `parse` refuses any header longer than the buffer before it fills up.
        let n = io.read(&mut buf[got..]).await?;
        if n == 0 {
            return Err(HeaderError::Truncated { got });
        }
        got += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 2 header: `ver_cmd`, `family`, then `body` (addresses and TLVs).
    fn v2(ver_cmd: u8, family: u8, body: &[u8]) -> Vec<u8> {
        let mut bytes = V2_SIGNATURE.to_vec();
        bytes.extend([ver_cmd, family]);
        bytes.extend(u16::try_from(body.len()).unwrap().to_be_bytes());
        bytes.extend(body);
        bytes
    }

    fn complete(bytes: &[u8]) -> (ProxyHeader, usize) {
        match parse(bytes) {
            Ok(Parsed::Complete { header, len }) => (header, len),
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(bytes)),
        }
    }

    fn error(bytes: &[u8]) -> String {
        match parse(bytes) {
            Err(e) => e.to_string(),
            other => panic!("{:?}: {other:?}, not an error", String::from_utf8_lossy(bytes)),
        }
    }

    fn proxied(source: &str, destination: &str) -> ProxyHeader {
        ProxyHeader::Proxied {
            source: source.parse().unwrap(),
            destination: destination.parse().unwrap(),
        }
    }

    #[test]
    fn v1_headers_give_the_source_and_leave_what_follows() {
        let cases: [(&str, ProxyHeader); 4] = [
            (
                "PROXY TCP4 192.0.2.7 198.51.100.1 56324 443\r\n",
                proxied("192.0.2.7:56324", "198.51.100.1:443"),
            ),
            (
                "PROXY TCP6 2001:db8::7 2001:db8::1 65535 0\r\n",
                proxied("[2001:db8::7]:65535", "[2001:db8::1]:0"),
            ),
            ("PROXY UNKNOWN\r\n", ProxyHeader::Local),
            ("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n", ProxyHeader::Local),
        ];
        for (line, expected) in cases {
            let mut bytes = line.as_bytes().to_vec();
            bytes.extend_from_slice(b"GET / HTTP/1.1\r\n");
            assert_eq!(complete(&bytes), (expected, line.len()), "{line:?}");
            // Every proper prefix asks for more.
            for n in 0..line.len() {
                assert!(
                    matches!(parse(&bytes[..n]), Ok(Parsed::Incomplete)),
                    "{line:?} cut at {n}"
                );
            }
        }
    }

    #[test]
    fn bad_v1_lines_are_refused_naming_the_fault() {
        let cases = [
            ("PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n", "protocol \"TCP5\""),
            ("PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n", "5 fields"),
            ("PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n", "source address \"1.2.3\" is not TCP4"),
            ("PROXY TCP4 2001:db8::1 5.6.7.8 1 2\r\n", "source address \"2001:db8::1\""),
            ("PROXY TCP6 ::1 5.6.7.8 1 2\r\n", "destination address \"5.6.7.8\" is not TCP6"),
            ("PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n", "source port \"65536\""),
            ("PROXY TCP4 1.2.3.4 5.6.7.8 1 +2\r\n", "destination port \"+2\""),
            ("PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n", "source port \"01\""),
            ("PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n", "7 fields"),
        ];
        for (line, expected) in cases {
            let e = error(line.as_bytes());
            assert!(e.contains(expected), "{line:?}: {e}");
            assert!(e.contains(line.trim_end()), "the error quotes the line: {e}");
        }
    }

    #[test]
    fn v2_headers_give_the_source_and_skip_tlvs() {
        let mut ipv4 = vec![192, 0, 2, 7, 198, 51, 100, 1];
        ipv4.extend(56324u16.to_be_bytes());
        ipv4.extend(443u16.to_be_bytes());
        let mut ipv6 = "2001:db8::7".parse::<Ipv6Addr>().unwrap().octets().to_vec();
        ipv6.extend("2001:db8::1".parse::<Ipv6Addr>().unwrap().octets());
        ipv6.extend(40000u16.to_be_bytes());
        ipv6.extend(8080u16.to_be_bytes());
        // A TLV after the addresses (PP2_TYPE_AUTHORITY, "a.b"), which is skipped.
        let mut ipv4_tlv = ipv4.clone();
        ipv4_tlv.extend([0x02, 0x00, 0x03, b'a', b'.', b'b']);
        let cases = [
            (
                "PROXY TCP/IPv4",
                v2(0x21, 0x11, &ipv4),
                proxied("192.0.2.7:56324", "198.51.100.1:443"),
            ),
            (
                "PROXY TCP/IPv4 and a TLV",
                v2(0x21, 0x11, &ipv4_tlv),
                proxied("192.0.2.7:56324", "198.51.100.1:443"),
            ),
            (
                "PROXY TCP/IPv6",
                v2(0x21, 0x21, &ipv6),
                proxied("[2001:db8::7]:40000", "[2001:db8::1]:8080"),
            ),
            ("LOCAL, no addresses", v2(0x20, 0x00, &[]), ProxyHeader::Local),
            ("LOCAL with addresses", v2(0x20, 0x11, &ipv4), ProxyHeader::Local),
            ("PROXY UNSPEC", v2(0x21, 0x00, &[]), ProxyHeader::Local),
            ("PROXY UNIX stream", v2(0x21, 0x31, &[0; 216]), ProxyHeader::Local),
        ];
        for (name, header, expected) in cases {
            let mut bytes = header.clone();
            bytes.extend_from_slice(b"GET / HTTP/1.1\r\n");
            assert_eq!(complete(&bytes), (expected, header.len()), "{name}");
            for n in 0..header.len() {
                assert!(matches!(parse(&bytes[..n]), Ok(Parsed::Incomplete)), "{name} cut at {n}");
            }
        }
    }

    #[test]
    fn bad_v2_headers_are_refused_naming_the_fault() {
        let cases = [
            ("version 1", v2(0x11, 0x11, &[0; 12]), "of version 1"),
            ("command 2", v2(0x22, 0x11, &[0; 12]), "command 2"),
            ("UDP over IPv4", v2(0x21, 0x12, &[0; 12]), "byte 0x12"),
            ("family 4", v2(0x21, 0x41, &[0; 12]), "byte 0x41"),
            ("short IPv4", v2(0x21, 0x11, &[0; 11]), "11 address bytes, fewer than the 12 of IPv4"),
            ("short IPv6", v2(0x21, 0x21, &[0; 12]), "12 address bytes, fewer than the 36 of IPv6"),
            ("oversized", v2(0x21, 0x11, &[0; MAX_HEADER]), "1040 bytes, more than the 1024"),
        ];
        for (name, bytes, expected) in cases {
            // Refused from the sixteen fixed bytes, before the rest comes.
            let e = error(&bytes[..16]);
            assert!(e.contains(expected), "{name}: {e}");
        }
    }

    #[test]
    fn garbage_is_refused_at_its_first_wrong_byte() {
        let cases: [(&[u8], &str); 4] = [
            (b"GET / HTTP/1.1\r\n", r#"begins "GET / HTTP/1.1\r\n""#),
            (b"PROXX", "begins \"PROXX\""),
            (b"\r\n\r\n\0\r\nQUIX", "with bytes 0d 0a 0d 0a 00 0d 0a 51 55 49 58"),
            (b"\x16\x03\x01", "with bytes 16 03 01"),
        ];
        for (bytes, expected) in cases {
            let e = error(bytes);
            assert!(e.starts_with("not a PROXY protocol header"), "{e}");
            assert!(e.contains(expected), "{e}");
        }
        let mut long = b"PROXY TCP4 ".to_vec();
        long.resize(V1_MAX + 10, b'1');
        let e = error(&long);
        assert!(e.contains("no CRLF within 107 bytes"), "{e}");
        assert!(matches!(parse(&long[..V1_MAX - 1]), Ok(Parsed::Incomplete)));
    }

    #[tokio::test]
    async fn read_header_hands_on_the_bytes_after_it_and_names_a_truncation() {
        let header = b"PROXY TCP4 192.0.2.7 198.51.100.1 56324 443\r\n";
        // The header split over two reads, the client's bytes in the second.
        let (first, second) = header.split_at(20);
        let mut second = second.to_vec();
        second.extend_from_slice(b"GET /health");
        let mut io = first.chain(&second[..]);
        let (got, early) = read_header(&mut io).await.unwrap();
        assert_eq!(got.source(), Some("192.0.2.7:56324".parse().unwrap()));
        assert_eq!(early, b"GET /health");

        let mut io = &header[..30];
        let e = read_header(&mut io).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            "connection closed after 30 bytes, within its PROXY protocol header"
        );
        let mut io = &b"GET /health HTTP/1.1\r\n"[..];
        assert!(matches!(read_header(&mut io).await, Err(HeaderError::NotProxy(_))));
    }
}
