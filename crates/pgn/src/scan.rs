//! Byte scanning for the reader: what each byte is, where a token ends, and where a line ends
//! (eight bytes at a time, as tag pairs and comments need it).
//!
//! The word-at-a-time test rests on one fact: in `(v - 0x01…01 * n) & !v & 0x80…80`, with
//! `n <= 0x80`, the lowest flagged byte is exactly the first byte of `v` below `n` (a borrow
//! only reaches the bytes above such a byte; bytes of `0x80` and more are never flagged). With
//! `n = 1` and `v = word ^ 0x01…01 * c` this finds the first byte equal to `c`. Only the
//! lowest flag is used, and the masks of several tests are or-ed, which keeps it exact.

/// A membership table for the bytes in `bytes`.
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// Bytes that end a move token: white space and the self-terminating tokens of §7.
static DELIMITER: [bool; 256] = byte_set(b" \t\n\r\x0b\x0c{}()[];$\"");

/// `true` for a byte that ends a move token (PGN standard §7: white space and the
/// self-terminating tokens `{ } ( ) [ ] ; $ "`).
#[inline]
pub(crate) fn is_delimiter(b: u8) -> bool {
    DELIMITER[usize::from(b)]
}

/// What a byte is to the reader's plain-token loop.
pub(crate) mod class {
    /// Anything else.
    pub(crate) const OTHER: u8 = 0;
    /// White space that does not end a line.
    pub(crate) const BLANK: u8 = 1;
    /// `\n`.
    pub(crate) const NEWLINE: u8 = 2;
    /// A digit or a dot: a move number starts.
    pub(crate) const NUMBER: u8 = 3;
    /// An ASCII letter: a move starts.
    pub(crate) const LETTER: u8 = 4;
}

static CLASS: [u8; 256] = {
    let mut table = [class::OTHER; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => class::BLANK,
            b'\n' => class::NEWLINE,
            b'0'..=b'9' | b'.' => class::NUMBER,
            b'a'..=b'z' | b'A'..=b'Z' => class::LETTER,
            _ => class::OTHER,
        };
        b += 1;
    }
    table
};

/// The [`class`] of a byte.
#[inline]
pub(crate) fn class_of(b: u8) -> u8 {
    CLASS[usize::from(b)]
}

/// Where a line ends: `\n`, or `\r` (of CRLF, or alone in old Mac files).
#[inline]
pub(crate) fn is_line_end(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGHS: u64 = ONES * 0x80;

/// Flags the bytes of `word` below `n` (`n <= 0x80`); exact for the lowest flag.
#[inline(always)]
fn below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS
}

/// Flags the bytes of `word` equal to `c`; exact for the lowest flag.
#[inline(always)]
fn equal(word: u64, c: u8) -> u64 {
    below(word ^ (ONES * u64::from(c)), 1)
}

/// The eight bytes at `i`, the first in the lowest byte.
#[inline(always)]
fn word_at(bytes: &[u8], i: usize) -> Option<u64> {
    let chunk = bytes.get(i..i + 8)?;
    Some(u64::from_le_bytes([
        chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
    ]))
}

/// The length of the token at the start of `bytes`: up to the first delimiter.
#[inline]
pub(crate) fn token_len(bytes: &[u8]) -> usize {
    bytes.iter().position(|&b| is_delimiter(b)).unwrap_or(bytes.len())
}

/// [`token_len`] without a branch per byte for tokens shorter than eight bytes (moves): the
/// delimiter flags of the first bytes go into one mask, and the loop exit that a byte loop
/// would mispredict once per token becomes a count of trailing zeros. Most moves are two to
/// four bytes long, so the bytes after those are looked at first. Always inlined: called once
/// a move, and in a large program (`rookery pgn`) the compiler left it a call.
#[inline(always)]
pub(crate) fn token_len_short(bytes: &[u8]) -> usize {
    if let Some(head) = bytes.first_chunk::<5>() {
        let mut flags = 0u32;
        for (k, &b) in head.iter().enumerate().skip(1) {
            flags |= u32::from(is_delimiter(b)) << k;
        }
        if flags != 0 && !is_delimiter(head[0]) {
            return flags.trailing_zeros() as usize;
        }
    }
    if let Some(head) = bytes.first_chunk::<8>() {
        let mut flags = 0u32;
        for (k, &b) in head.iter().enumerate() {
            flags |= u32::from(is_delimiter(b)) << k;
        }
        if flags != 0 {
            return flags.trailing_zeros() as usize;
        }
    }
    token_len(bytes)
}

/// Where the first `\n` or `\r` is, a word at a time.
#[inline]
pub(crate) fn position_line_end(bytes: &[u8]) -> Option<usize> {
    position_either(bytes, b'\n', b'\r')
}

/// Where the first `a` or `b` is, a word at a time.
#[inline]
pub(crate) fn position_either(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    let mut i = 0;
    while let Some(word) = word_at(bytes, i) {
        let flags = equal(word, a) | equal(word, b);
        if flags != 0 {
            return Some(i + flags.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    bytes[i..].iter().position(|&c| c == a || c == b).map(|k| i + k)
}

/// Bytes that end a tag name (§8.1.1 allows letters, digits and `_`; anything up to white
/// space, a quote or a bracket is taken).
static TAG_NAME_END: [bool; 256] = byte_set(b" \t\r\"[]");

/// `true` for a byte that ends a tag name.
#[inline]
pub(crate) fn is_tag_name_end(b: u8) -> bool {
    TAG_NAME_END[usize::from(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes next to the ones tested for, by one bit or by a borrow, mixed with those.
    const TRICKY: &[u8] = b"x\x00\x01\x09\x0a\x0b\x0c\x0d\x0e\x1f\x20\x21\x22\x23\x24\x28\x29\x2a\x2b\
        \x3a\x3b\x3c\x5a\x5b\x5c\x5d\x5e\x7a\x7b\x7c\x7d\x7e\x7f\x80\x8a\x8d\xa0\xbb\xdb\xdd\xfb\xff";

    /// Strings of every length up to `len` made of tricky bytes: each tricky byte last, after
    /// a different mix of the others for each, so that it lands at each place of a word.
    fn samples(len: usize) -> impl Iterator<Item = Vec<u8>> {
        let n = TRICKY.len();
        (0..n * n).flat_map(move |k| {
            (0..=len).map(move |l| {
                (0..l)
                    .map(|i| if i + 1 == l { TRICKY[k / n] } else { TRICKY[(k + i * 7) % n] })
                    .collect()
            })
        })
    }

    #[test]
    fn short_tokens_measured_as_the_byte_loop_does() {
        for s in samples(19) {
            assert_eq!(token_len_short(&s), token_len(&s), "{s:?}");
        }
    }

    #[test]
    fn line_ends_found_a_word_at_a_time() {
        for s in samples(19) {
            let want = s.iter().position(|&b| is_line_end(b));
            assert_eq!(position_line_end(&s), want, "{s:?}");
            let want = s.iter().position(|&b| b == b'"' || b == b'\\');
            assert_eq!(position_either(&s, b'"', b'\\'), want, "{s:?}");
        }
    }
}
