//! The export format writer (PGN standard §4.3, §8): the Seven Tag Roster first, then the other
//! tags, then movetext with move numbers, wrapped into lines shorter than 80 columns, and a
//! blank line after each game.

use std::fmt::Write as _;
use std::io::{self, Write};

use rookery_core::{Color, SanPlus};

use crate::comment::clock_command;
use crate::tag::escape;
use crate::{GameResult, Nag};

/// Export format lines have fewer than this many characters (§8.2.1); tokens are never split,
/// so only a single token longer than that makes a longer line.
pub const LINE_LIMIT: usize = 80;

/// The Seven Tag Roster (§8.1.1) in its order, with the value each takes when unknown.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The move number and side to move of the next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ply {
    fullmove: u32,
    turn: Color,
}

impl Ply {
    const START: Ply = Ply { fullmove: 1, turn: Color::White };

    fn next(self) -> Ply {
        match self.turn {
            Color::White => Ply { fullmove: self.fullmove, turn: Color::Black },
            Color::Black => Ply { fullmove: self.fullmove.saturating_add(1), turn: Color::White },
        }
    }
}

/// Writes games in export format, a push API that mirrors the [`Visitor`](crate::Visitor):
/// [`tags`](Writer::tags), then moves, NAGs, comments and variations, then
/// [`end_game`](Writer::end_game).
///
/// ```
/// use rookery_core::SanPlus;
/// use rookery_pgn::{GameResult, Nag, Writer};
///
/// let mut w = Writer::new(Vec::new());
/// w.tags(&[("White", "Ding"), ("Annotator", "me"), ("Black", "Nepo")])?;
/// w.san(&SanPlus::from_ascii(b"e4").unwrap())?;
/// w.nag(Nag::GOOD_MOVE)?;
/// w.clock(60_000)?;
/// w.begin_variation()?;
/// w.san(&SanPlus::from_ascii(b"d4").unwrap())?;
/// w.end_variation()?;
/// w.san(&SanPlus::from_ascii(b"e5").unwrap())?;
/// w.end_game(GameResult::Draw)?;
/// let text = String::from_utf8(w.into_inner()).unwrap();
/// assert_eq!(text, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
///     [White \"Ding\"]\n[Black \"Nepo\"]\n[Result \"*\"]\n[Annotator \"me\"]\n\n\
///     1. e4 $1 { [%clk 0:01:00] } (1. d4) 1... e5 1/2-1/2\n\n");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Writer<W> {
    out: W,
    /// Characters on the current movetext line.
    column: usize,
    next: Ply,
    /// The ply of the last move written in the current line of play: where a variation starts.
    last: Option<Ply>,
    /// What `next` and `last` were outside each open variation.
    stack: Vec<(Ply, Option<Ply>)>,
    /// A black move needs its number restated (after a comment or variation, §8.2.2.2).
    restate: bool,
    /// Variations opened whose `(` waits for the next token.
    opening: usize,
    scratch: String,
}

impl<W: Write> Writer<W> {
    /// A writer onto `out`. Writes as it goes: wrap `out` in a `BufWriter` when it is a file.
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            column: 0,
            next: Ply::START,
            last: None,
            stack: Vec::new(),
            restate: true,
            opening: 0,
            scratch: String::new(),
        }
    }

    /// The output.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output back.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes a game's tag pair section and the blank line after it: the Seven Tag Roster in
    /// its order (the first value given for each, else `?`, `????.??.??` or `*`), then every
    /// other tag in the order given. Values are escaped (§7); a name keeps only the characters
    /// a tag name can hold, and a tag whose name is left empty is dropped.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn tags<K: AsRef<str>, V: AsRef<str>>(&mut self, tags: &[(K, V)]) -> io::Result<()> {
        for (name, default) in SEVEN_TAG_ROSTER {
            let value =
                tags.iter().find(|(k, _)| k.as_ref() == name).map_or(default, |t| t.1.as_ref());
            writeln!(self.out, "[{name} \"{}\"]", escape(value))?;
        }
        for (name, value) in tags {
            let name: String = name
                .as_ref()
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_control() && !"\"[]".contains(*c))
                .collect();
            if name.is_empty() || SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name) {
                continue;
            }
            writeln!(self.out, "[{name} \"{}\"]", escape(value.as_ref()))?;
        }
        writeln!(self.out)
    }

    /// Numbers the moves from `fullmove` with `turn` to move, as in a `[FEN]` start (default:
    /// move 1, White). Call it before the game's first move.
    pub fn set_start(&mut self, fullmove: u32, turn: Color) {
        self.next = Ply { fullmove, turn };
        self.last = None;
    }

    /// A move, after its number when White moves or when Black's number must be restated.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn san(&mut self, san: &SanPlus) -> io::Result<()> {
        let ply = self.next;
        if ply.turn == Color::White || self.restate {
            self.scratch.clear();
            let dots = if ply.turn == Color::White { "." } else { "..." };
            let _ = write!(self.scratch, "{}{dots}", ply.fullmove);
            self.token_from_scratch()?;
        }
        self.scratch.clear();
        let _ = write!(self.scratch, "{san}");
        self.token_from_scratch()?;
        self.last = Some(ply);
        self.next = ply.next();
        self.restate = false;
        Ok(())
    }

    /// A NAG, as `$n` (§8.2.4).
    ///
    /// # Errors
    /// Errors of the output.
    pub fn nag(&mut self, nag: Nag) -> io::Result<()> {
        self.scratch.clear();
        let _ = write!(self.scratch, "{nag}");
        self.token_from_scratch()
    }

    /// A comment, `{ text }`, its words wrapped like tokens. The text's white space becomes
    /// single spaces; a `}` in it, which would end the comment, is written as `)`.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        self.token("{")?;
        for word in text.split_whitespace() {
            if word.contains('}') {
                self.token(&word.replace('}', ")"))?;
            } else {
                self.token(word)?;
            }
        }
        self.token("}")?;
        self.restate = true;
        Ok(())
    }

    /// A clock comment, `{ [%clk h:mm:ss] }` (RULES.md §10).
    ///
    /// # Errors
    /// Errors of the output.
    pub fn clock(&mut self, millis: u64) -> io::Result<()> {
        self.comment(&clock_command(millis))
    }

    /// Opens a variation: an alternative to the last move written (§8.2.5).
    ///
    /// # Errors
    /// Errors of the output.
    pub fn begin_variation(&mut self) -> io::Result<()> {
        self.stack.push((self.next, self.last));
        if let Some(last) = self.last {
            self.next = last;
        }
        self.last = None;
        self.restate = true;
        self.opening += 1;
        Ok(())
    }

    /// Closes the innermost open variation; does nothing when none is open.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn end_variation(&mut self) -> io::Result<()> {
        let Some((next, last)) = self.stack.pop() else { return Ok(()) };
        if self.opening > 0 {
            // An empty variation: its `(` has not been written yet.
            self.opening -= 1;
            self.token("(")?;
        }
        if self.column + 1 >= LINE_LIMIT {
            self.out.write_all(b"\n")?;
            self.column = 0;
        }
        self.out.write_all(b")")?;
        self.column += 1;
        self.next = next;
        self.last = last;
        self.restate = true;
        Ok(())
    }

    /// Closes any open variations, writes the termination marker (§8.2.6) and the blank line
    /// that ends the game, and gets ready for the next game.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn end_game(&mut self, result: GameResult) -> io::Result<()> {
        while !self.stack.is_empty() {
            self.end_variation()?;
        }
        self.token(result.as_str())?;
        self.out.write_all(b"\n\n")?;
        self.column = 0;
        self.next = Ply::START;
        self.last = None;
        self.restate = true;
        Ok(())
    }

    fn token_from_scratch(&mut self) -> io::Result<()> {
        let text = std::mem::take(&mut self.scratch);
        let result = self.token(&text);
        self.scratch = text;
        result
    }

    /// Writes one movetext token, on a new line if it does not fit on this one; an opening
    /// parenthesis waiting for it goes first, glued to it.
    fn token(&mut self, text: &str) -> io::Result<()> {
        let len = self.opening + text.chars().count();
        if self.column > 0 {
            if self.column + 1 + len >= LINE_LIMIT {
                self.out.write_all(b"\n")?;
                self.column = 0;
            } else {
                self.out.write_all(b" ")?;
                self.column += 1;
            }
        }
        for _ in 0..self.opening {
            self.out.write_all(b"(")?;
        }
        self.opening = 0;
        self.out.write_all(text.as_bytes())?;
        self.column += len;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(text: &str) -> SanPlus {
        SanPlus::from_ascii(text.as_bytes()).unwrap()
    }

    fn movetext(f: impl FnOnce(&mut Writer<Vec<u8>>) -> io::Result<()>) -> String {
        let mut w = Writer::new(Vec::new());
        f(&mut w).unwrap();
        String::from_utf8(w.into_inner()).unwrap()
    }

    #[test]
    fn roster_first_with_defaults_then_others_escaped() {
        let text = movetext(|w| {
            w.tags(&[("ECO", "C20"), ("Result", "1-0"), ("White", "A \"B\" \\C"), ("Event", "x")])
        });
        let want = "[Event \"x\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                    [White \"A \\\"B\\\" \\\\C\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n";
        assert_eq!(text, want);
    }

    #[test]
    fn black_numbers_restated_after_comments_and_variations() {
        let text = movetext(|w| {
            w.san(&san("e4"))?;
            w.comment("best by test")?;
            w.san(&san("e5"))?;
            w.san(&san("Nf3"))?;
            w.begin_variation()?;
            w.san(&san("f4"))?;
            w.san(&san("exf4"))?;
            w.begin_variation()?;
            w.san(&san("d5"))?;
            w.end_variation()?;
            w.end_variation()?;
            w.san(&san("Nc6"))?;
            w.end_game(GameResult::NoResult)
        });
        assert_eq!(
            text,
            "1. e4 { best by test } 1... e5 2. Nf3 (2. f4 exf4 (2... d5)) 2... Nc6 *\n\n"
        );
    }

    #[test]
    fn fen_start_with_black_to_move() {
        let text = movetext(|w| {
            w.set_start(30, Color::Black);
            w.san(&san("Kf8"))?;
            w.san(&san("Kf1"))?;
            w.end_game(GameResult::Draw)
        });
        assert_eq!(text, "30... Kf8 31. Kf1 1/2-1/2\n\n");
    }

    #[test]
    fn wraps_below_80_columns_without_splitting_tokens() {
        let text = movetext(|w| {
            for _ in 0..60 {
                w.san(&san("Nf3"))?;
                w.san(&san("Nf6"))?;
                w.san(&san("Ng1"))?;
                w.san(&san("Ng8"))?;
            }
            w.comment(&"word ".repeat(50))?;
            w.begin_variation()?;
            w.end_variation()?;
            w.end_game(GameResult::Win(Color::White))
        });
        for line in text.lines() {
            assert!(line.len() < LINE_LIMIT, "{line:?}");
            assert!(!line.starts_with(' ') && !line.ends_with(' '), "{line:?}");
        }
        assert!(text.contains("()"));
        assert!(text.ends_with("1-0\n\n"));
        let words: Vec<&str> = text.split_whitespace().collect();
        assert!(words.contains(&"120.") && words.contains(&"Ng8"));
    }
}
