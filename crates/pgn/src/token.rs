//! Numeric annotation glyphs (PGN standard §8.2.4, §10) and the suffix annotations that stand
//! for them (§8.2.3.8). The game termination markers (§8.2.6) are rookery-core's
//! [`GameResult`](rookery_core::GameResult).

use std::fmt;

/// A numeric annotation glyph, `$0` to `$255` (PGN standard §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `!`, a good move.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `?`, a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `!!`, a brilliant move.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `??`, a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `!?`, a speculative move.
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `?!`, a dubious move.
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The glyph for a move suffix annotation (§8.2.3.8: `!` `?` `!!` `??` `!?` `?!` are
    /// `$1`…`$6`) or for one of the evaluation symbols that real files write instead of their
    /// NAG (`=` `+=` `=+` `+/-` `-/+` `+-` `-+`, `∞`, their Unicode forms, `□` and `N`).
    pub fn from_glyph(glyph: &[u8]) -> Option<Nag> {
        let n = match glyph {
            b"!" => 1,
            b"?" => 2,
            b"!!" => 3,
            b"??" => 4,
            b"!?" => 5,
            b"?!" => 6,
            b"\xe2\x96\xa1" => 7, // □
            b"=" => 10,
            b"\xe2\x88\x9e" => 13, // ∞
            b"+=" | b"\xe2\xa9\xb2" => 14,
            b"=+" | b"\xe2\xa9\xb1" => 15,
            b"+/-" | b"\xc2\xb1" => 16,
            b"-/+" | b"\xe2\x88\x93" => 17,
            b"+-" => 18,
            b"-+" => 19,
            b"N" => 146,
            _ => return None,
        };
        Some(Nag(n))
    }

    /// Reads `$n` (the form export format writes, §8.2.4).
    pub fn from_ascii(text: &[u8]) -> Option<Nag> {
        let digits = text.strip_prefix(b"$")?;
        if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = digits.iter().fold(0u16, |n, d| n * 10 + u16::from(d - b'0'));
        u8::try_from(n).ok().map(Nag)
    }
}

impl fmt::Display for Nag {
    /// `$n`, as export format writes every NAG.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_annotations_are_nags_one_to_six() {
        let glyphs: [&[u8]; 6] = [b"!", b"?", b"!!", b"??", b"!?", b"?!"];
        for (i, g) in glyphs.iter().enumerate() {
            assert_eq!(Nag::from_glyph(g), Some(Nag(i as u8 + 1)), "{g:?}");
        }
        assert_eq!(Nag::from_glyph(b"!!!"), None);
        assert_eq!(Nag::from_glyph("±".as_bytes()), Some(Nag(16)));
    }

    #[test]
    fn dollar_nags() {
        assert_eq!(Nag::from_ascii(b"$0"), Some(Nag(0)));
        assert_eq!(Nag::from_ascii(b"$255"), Some(Nag(255)));
        assert_eq!(Nag::from_ascii(b"$256"), None);
        assert_eq!(Nag::from_ascii(b"$"), None);
        assert_eq!(Nag::from_ascii(b"$1a"), None);
        assert_eq!(Nag::from_ascii(b"$0001"), None);
        assert_eq!(Nag(14).to_string(), "$14");
    }
}
