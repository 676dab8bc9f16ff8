//! Byte scanning for the reader: what each byte is, where a token ends, and where a line or a
//! comment ends (with `memchr`, as tag pairs and comments need it).

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

/// Where the first `\n` or `\r` is, by `memchr`: a line is seldom short.
#[inline]
pub(crate) fn position_line_end(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', bytes)
}

/// Where the first `a` or `b` is. The first 24 bytes a word at a time, inline, then `memchr`
/// (vector instructions). A `{ [%clk 0:10:00] }` comment ends within those 24 bytes, and
/// there a call of `memchr`, through its pointer to the processor's version, cost more than
/// the search (issue 41: about a fifth of the time of a loop over such comments).
#[inline(always)]
pub(crate) fn position_either(bytes: &[u8], a: u8, b: u8) -> Option<usize> {
    const HEAD: usize = 24;
    if let Some(head) = bytes.first_chunk::<HEAD>() {
        for (k, word) in head.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let found = zero_bytes(word ^ splat(a)) | zero_bytes(word ^ splat(b));
            if found != 0 {
                return Some(k * 8 + (found.trailing_zeros() / 8) as usize);
            }
        }
        return memchr::memchr2(a, b, &bytes[HEAD..]).map(|i| HEAD + i);
    }
    memchr::memchr2(a, b, bytes)
}

/// How many bytes of a tag value [`position_value_end`] looks at.
pub(crate) const SHORT_VALUE: usize = 24;

/// Where the first `"`, `\\`, `\n` or `\r` of `head` is, a word at a time: the end of a
/// short tag value, or what stops the one-pass reading of its tag.
#[inline(always)]
pub(crate) fn position_value_end(head: &[u8; SHORT_VALUE]) -> Option<usize> {
    for (k, word) in head.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let found = zero_bytes(word ^ splat(b'"'))
            | zero_bytes(word ^ splat(b'\\'))
            | zero_bytes(word ^ splat(b'\n'))
            | zero_bytes(word ^ splat(b'\r'));
        if found != 0 {
            return Some(k * 8 + (found.trailing_zeros() / 8) as usize);
        }
    }
    None
}

/// `b` in each byte of a word.
#[inline(always)]
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of each zero byte of `word` set, and of no byte below the first zero byte:
/// a borrow can mark a byte above a zero byte, never below, so the lowest mark is exact
/// (Mycroft's test, as in *Bit Twiddling Hacks*, "Determine if a word has a zero byte").
#[inline(always)]
const fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(splat(1)) & !word & splat(0x80)
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
    fn value_ends_found_as_the_byte_loop_does() {
        for s in samples(SHORT_VALUE) {
            let Some(head) = s.first_chunk::<SHORT_VALUE>() else { continue };
            let want = head.iter().position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'));
            assert_eq!(position_value_end(head), want, "{s:?}");
        }
    }

    #[test]
    fn line_ends_found_as_the_byte_loop_does() {
        // Past 32 bytes: `memchr`'s vector loops, not only its short-input path.
        for s in samples(70) {
            let want = s.iter().position(|&b| is_line_end(b));
            assert_eq!(position_line_end(&s), want, "{s:?}");
            let want = s.iter().position(|&b| b == b'"' || b == b'\\');
            assert_eq!(position_either(&s, b'"', b'\\'), want, "{s:?}");
        }
    }
}
