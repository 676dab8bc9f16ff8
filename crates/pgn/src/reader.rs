//! The streaming reader: one buffer, refilled in place, and a push visitor.
//!
//! Import format as the PGN standard (Steven J. Edwards, 1994) describes it in §4.2 and §8, and
//! as real files write it: tag pairs (§8.1) with escaped quotes (§7), `{}` and `;` comments
//! (§5), `%` escape lines (§6), move numbers with `.` and `...` (§8.2.2.1), SAN (§8.2.3, read
//! by `rookery_core`), suffix annotations and NAGs (§8.2.3.8, §8.2.4), variations (§8.2.5) and
//! termination markers (§8.2.6); plus a UTF-8 byte order mark, CRLF line ends, Latin-1 bytes,
//! missing results and empty games. Anything else is an error that names the game, line and
//! column, after which the reader goes on with the next game.

use std::io::{self, Read};
use std::ops::ControlFlow;

use rookery_core::SanPlus;

use crate::buffer::{Buffer, DEFAULT_CAPACITY, LOOKAHEAD};
use crate::scan::{
    class, class_of, is_delimiter, is_line_end, is_tag_name_end, position_either,
    position_line_end, position_value_end, token_len, token_len_short, SHORT_VALUE,
};
use crate::visitor::SkipVisitor;
use crate::{
    GameResult, Location, Nag, RawTag, ReadError, ReadErrorKind, Visitor, SEVEN_TAG_ROSTER,
};

const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads PGN games one at a time from any [`Read`], in constant memory: one buffer, allocated
/// when the reader is made and reused for every game. Wrap nothing in a `BufReader`; the reader
/// buffers by itself.
///
/// Tokens are delivered as borrowed slices of the buffer, so a comment (or a line comment, or a
/// tag pair's line) longer than the buffer's capacity cannot be delivered whole: a comment is
/// cut to the capacity, a tag pair is an error ([`ReadErrorKind::TagTooLong`]).
pub struct Reader<R> {
    buf: Buffer<R>,
    /// Games begun so far; the number of the current game.
    games: u64,
    started: bool,
}

impl<R: Read> Reader<R> {
    /// A reader with the default buffer of 64 KiB.
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_capacity(DEFAULT_CAPACITY, inner)
    }

    /// A reader with a buffer of `capacity` bytes (at least 2 KiB are used): the longest comment
    /// delivered whole, and the longest line a tag pair may stand on.
    pub fn with_capacity(capacity: usize, inner: R) -> Reader<R> {
        Reader { buf: Buffer::new(inner, capacity), games: 0, started: false }
    }

    /// The buffer's capacity in bytes.
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// How many games have begun so far: the number of the last game read.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// How many bytes of the input have been consumed (more may have been read ahead).
    pub fn bytes_read(&self) -> u64 {
        self.buf.offset()
    }

    /// Where the next unread byte sits.
    pub fn location(&self) -> Location {
        self.buf.location()
    }

    /// The input back. Bytes read ahead into the buffer are lost.
    pub fn into_inner(self) -> R {
        self.buf.into_inner()
    }

    /// Reads the next game through `visitor` and returns what its
    /// [`end_game`](Visitor::end_game) made, or `None` at the end of the input. Syntax errors
    /// go to [`Visitor::error`] and end that game; the next call reads the next game.
    ///
    /// # Errors
    /// Only errors of the underlying reader; PGN text never makes this fail.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if self.next_game()?.is_none() {
            return Ok(None);
        }
        self.games += 1;
        visitor.begin_game();
        visitor.begin_tags();
        self.read_tags(visitor)?;
        match visitor.end_tags() {
            ControlFlow::Continue(()) => self.read_movetext(visitor)?,
            ControlFlow::Break(()) => self.skip_movetext(visitor, 0)?,
        }
        Ok(Some(visitor.end_game()))
    }

    /// Steps over what stands before the next game, as [`Reader::read_game`] does first, and
    /// returns the offset of the game's first byte from the start of the input (its line is
    /// [`Reader::location`]'s), or `None` at the end of the input. The game is read by the next
    /// call of `read_game`, as it would have been without this one: a reader started at that
    /// offset reads the same games from there, which is what lets a file be cut there
    /// ([`crate::parallel`]).
    ///
    /// # Errors
    /// Only errors of the underlying reader.
    pub fn next_game(&mut self) -> io::Result<Option<u64>> {
        if !self.started {
            self.started = true;
            self.buf.ensure()?;
            if self.buf.available().starts_with(BOM) {
                self.buf.consume(BOM.len());
                self.buf.restart_line();
            }
        }
        Ok(self.skip_to_game()?.then(|| self.buf.offset()))
    }

    /// Reads every remaining game through `visitor`, dropping what `end_game` makes.
    ///
    /// # Errors
    /// Only errors of the underlying reader.
    pub fn read_all<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        while self.read_game(visitor)?.is_some() {}
        Ok(())
    }

    /// Skips the next game; `false` at the end of the input.
    ///
    /// # Errors
    /// Only errors of the underlying reader.
    pub fn skip_game(&mut self) -> io::Result<bool> {
        Ok(self.read_game(&mut SkipVisitor)?.is_some())
    }

    /// Skips what may stand between games (white space, comments, escape lines, a byte order
    /// mark where files were concatenated); `false` at the end of the input. A comment before a
    /// game's first tag or move belongs to no game and is dropped.
    fn skip_to_game(&mut self) -> io::Result<bool> {
        loop {
            self.buf.skip_whitespace()?;
            match self.buf.peek() {
                None => return Ok(false),
                Some(b'%') if self.buf.at_line_start() => self.skip_line()?,
                Some(b';') => self.skip_line()?,
                Some(b'{') => self.skip_comment()?,
                Some(0xef) if self.buf.available().starts_with(BOM) => {
                    self.buf.consume(BOM.len());
                }
                Some(_) => return Ok(true),
            }
        }
    }

    /// Consumes the rest of the line, not its line end.
    fn skip_line(&mut self) -> io::Result<()> {
        self.buf.skip_until(is_line_end)?;
        Ok(())
    }

    /// Consumes a `{` comment whatever its length; an unclosed one runs to the end of input.
    fn skip_comment(&mut self) -> io::Result<()> {
        self.buf.consume(1);
        if self.buf.skip_to_byte(b'}')? {
            self.buf.consume(1);
        }
        Ok(())
    }

    fn error<V: Visitor>(&self, v: &mut V, at: Location, token: &[u8], kind: ReadErrorKind) {
        v.error(ReadError::new(self.games, at, token, kind));
    }

    /// The tag pair section (§8.1): tag pairs and escape lines, up to the first other token.
    ///
    /// A game may have no movetext at all, and some files put blank lines among a game's tags,
    /// so a blank line cannot end the section; a tag of the Seven Tag Roster seen twice does:
    /// it starts the next game.
    fn read_tags<V: Visitor>(&mut self, v: &mut V) -> io::Result<()> {
        let mut roster_seen = 0u8;
        loop {
            if self.read_plain_tags(v, &mut roster_seen).is_break() {
                return Ok(());
            }
            self.buf.skip_whitespace()?;
            match self.buf.peek() {
                Some(b'[') => {
                    if self.read_tag(v, &mut roster_seen)?.is_break() {
                        return Ok(());
                    }
                }
                Some(b'%') if self.buf.at_line_start() => self.skip_line()?,
                _ => return Ok(()),
            }
        }
    }

    /// The tag pairs that stand on lines already buffered and read as [`parse_tag`] reads them,
    /// in one loop with the line count in locals, as [`Reader::read_tag`] would read them (it
    /// finds the same line end in the same bytes). Stops before anything else, for
    /// [`Reader::read_tags`]' general loop. `Break` when a repeated roster tag ends the section.
    #[inline]
    fn read_plain_tags<V: Visitor>(&mut self, v: &mut V, roster_seen: &mut u8) -> ControlFlow<()> {
        let offset = self.buf.offset();
        let (mut line, mut line_start) = self.buf.line_state();
        let bytes = self.buf.available();
        let mut i = 0;
        let mut flow = ControlFlow::Continue(());
        while let Some(&b) = bytes.get(i) {
            match class_of(b) {
                class::BLANK => i += 1,
                class::NEWLINE => {
                    i += 1;
                    line += 1;
                    line_start = offset + i as u64;
                }
                _ if b == b'[' => {
                    let (text, tag) = match parse_short_tag(&bytes[i..]) {
                        Some(tag) => (&bytes[i..], tag),
                        None => {
                            let Some(end) = position_line_end(&bytes[i..]) else { break };
                            let text = &bytes[i..i + end];
                            let Ok(tag) = parse_tag(text) else { break };
                            (text, tag)
                        }
                    };
                    let name = &text[tag.name.0..tag.name.1];
                    if let Some(k) = roster_index(name) {
                        if *roster_seen & 1 << k != 0 {
                            flow = ControlFlow::Break(());
                            break;
                        }
                        *roster_seen |= 1 << k;
                    }
                    let at = Location { line, column: offset + i as u64 - line_start + 1 };
                    v.tag(name, RawTag(&text[tag.value.0..tag.value.1]), at);
                    i += tag.len;
                }
                _ => break,
            }
        }
        self.buf.consume_counted(i, line, line_start);
        flow
    }

    /// One tag pair, which must stand on one line (it may share it with others). `Break`, and
    /// nothing consumed, for a roster tag already in `roster_seen`.
    fn read_tag<V: Visitor>(
        &mut self,
        v: &mut V,
        roster_seen: &mut u8,
    ) -> io::Result<ControlFlow<()>> {
        let at = self.buf.location();
        let end = match self.buf.find_line_end(0)? {
            Some(end) => end,
            None if self.buf.is_eof() => self.buf.available().len(),
            None => {
                let bytes = self.buf.available();
                self.error(v, at, &bytes[..LOOKAHEAD.min(bytes.len())], ReadErrorKind::TagTooLong);
                self.skip_line()?;
                return Ok(ControlFlow::Continue(()));
            }
        };
        let line = &self.buf.available()[..end];
        match parse_tag(line) {
            Ok(tag) => {
                let name = &line[tag.name.0..tag.name.1];
                if let Some(i) = roster_index(name) {
                    if *roster_seen & 1 << i != 0 {
                        return Ok(ControlFlow::Break(()));
                    }
                    *roster_seen |= 1 << i;
                }
                v.tag(name, RawTag(&line[tag.value.0..tag.value.1]), at);
                self.buf.consume(tag.len);
            }
            Err(why) => {
                let shown = line.strip_suffix(b"\r").unwrap_or(line);
                v.error(ReadError::new(self.games, at, shown, ReadErrorKind::MalformedTag(why)));
                self.buf.consume(end);
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The movetext section (§8.2), up to and including the termination marker, or up to the
    /// next game's tags or the end of input when the marker is missing.
    fn read_movetext<V: Visitor>(&mut self, v: &mut V) -> io::Result<()> {
        let mut depth: u32 = 0;
        let comments = v.wants_comments();
        loop {
            if self.read_plain_tokens(v, depth, comments)?.is_break() {
                return Ok(());
            }
            self.buf.skip_whitespace()?;
            let bytes = self.buf.available();
            let Some(&first) = bytes.first() else { break };
            match first {
                b'[' => break,
                b'{' => self.read_comment(v, comments)?,
                b';' => self.read_line_comment(v, comments)?,
                b'%' if self.buf.at_line_start() => self.skip_line()?,
                b'(' => {
                    self.buf.consume(1);
                    match v.begin_variation() {
                        ControlFlow::Continue(()) => depth = depth.saturating_add(1),
                        ControlFlow::Break(()) => {
                            if self.skip_tokens(1, true)? != Skipped::Closed {
                                let at = self.buf.location();
                                self.error(v, at, b"", ReadErrorKind::UnclosedVariation);
                                return Ok(());
                            }
                        }
                    }
                }
                b')' => {
                    if depth == 0 {
                        return self.fail(v, 0, 1, ReadErrorKind::UnmatchedClose);
                    }
                    self.buf.consume(1);
                    depth -= 1;
                    v.end_variation();
                }
                b'$' => {
                    let len = 1 + token_len(&bytes[1..]);
                    let Some(nag) = Nag::from_ascii(&bytes[..len]) else {
                        return self.fail(v, depth, len, ReadErrorKind::InvalidNag);
                    };
                    self.buf.consume(len);
                    v.nag(nag);
                }
                _ => {
                    // A lone delimiter that starts no token (`}`, `]`, `"`) is a token of one.
                    let len = token_len(bytes).max(1);
                    let token = &bytes[..len];
                    if first.is_ascii_digit() || first == b'*' || first == b'.' {
                        match number_or_result(token) {
                            Some(Number::Skip(n)) => self.buf.consume(n),
                            Some(Number::Result(r)) => {
                                self.buf.consume(len);
                                // A marker inside a variation is a slip; only the main line's
                                // marker ends the game.
                                if depth == 0 {
                                    v.result(r);
                                    return Ok(());
                                }
                            }
                            Some(Number::San) => {
                                if self.read_san(v, len, depth)?.is_break() {
                                    return Ok(());
                                }
                            }
                            None => {
                                return self.fail(v, depth, len, ReadErrorKind::UnexpectedToken)
                            }
                        }
                    } else if first.is_ascii_alphabetic() && token != b"N" {
                        if self.read_san(v, len, depth)?.is_break() {
                            return Ok(());
                        }
                    } else if let Some(nag) = Nag::from_glyph(token) {
                        self.buf.consume(len);
                        v.nag(nag);
                    } else if first == b'-' {
                        // `--`, the null move of analysis files.
                        if self.read_san(v, len, depth)?.is_break() {
                            return Ok(());
                        }
                    } else {
                        return self.fail(v, depth, len, ReadErrorKind::UnexpectedToken);
                    }
                }
            }
        }
        if depth > 0 {
            for _ in 0..depth {
                v.end_variation();
            }
            let at = self.buf.location();
            self.error(v, at, b"", ReadErrorKind::UnclosedVariation);
        }
        Ok(())
    }

    /// The tokens that make up nearly all movetext (white space, move numbers, moves, a result
    /// marker of digits, comments whose end is buffered) in one loop over the buffered bytes, with the line count in locals.
    /// Stops before any other token, and where fewer than [`LOOKAHEAD`] bytes remain to be
    /// scanned, and leaves it to the general loop of [`Reader::read_movetext`], which reads
    /// every token the same way: a token read here starts where the general loop would have
    /// found at least [`LOOKAHEAD`] bytes buffered too, so it sees the same bytes.
    /// `Break` when the game is over for the reader.
    #[inline]
    fn read_plain_tokens<V: Visitor>(
        &mut self,
        v: &mut V,
        depth: u32,
        comments: bool,
    ) -> io::Result<ControlFlow<()>> {
        let offset = self.buf.offset();
        let (mut line, mut line_start) = self.buf.line_state();
        let bytes = self.buf.available();
        let limit =
            if self.buf.is_eof() { bytes.len() } else { bytes.len().saturating_sub(LOOKAHEAD) };
        let mut i = 0;
        // White space, then one token. Movetext has a rhythm, a number, White's move, Black's
        // move (`12.Nf3 Nc6 `), and each place in it gets its own copy of this code, so that a
        // branch predictor sees one likely kind of token at each; one copy would have to guess,
        // after every move, whether a move or a number comes next. Any token may still come
        // at any place.
        macro_rules! next_token {
            ($rhythm:lifetime) => {
                // One space and a token, as nearly every token is written: the two bytes are
                // looked at together, not the second after the first (the bytes loop below
                // reads them alike; issue 41).
                let spaced = bytes.get(i..i + 2).filter(|_| i + 1 < limit).is_some_and(|pair| {
                    pair[0] == b' ' && !matches!(class_of(pair[1]), class::BLANK | class::NEWLINE)
                });
                if spaced {
                    i += 1;
                } else {
                    loop {
                        match bytes.get(i).filter(|_| i < limit).map(|&b| class_of(b)) {
                            Some(class::BLANK) => i += 1,
                            Some(class::NEWLINE) => {
                                i += 1;
                                line += 1;
                                line_start = offset + i as u64;
                            }
                            Some(_) => break,
                            None => break $rhythm,
                        }
                    }
                }
                if bytes[i] == b'{' {
                    // A comment whose end is buffered, as `read_comment` reads it: engine and
                    // server files have one after every move (`{ [%clk 0:03:00] }`), and
                    // leaving this loop for each cost more than the comment (issue 41).
                    // Its end and its newlines in one pass, by `memchr`; the line count
                    // changes only once the end is found (else the general loop reads it).
                    let body = &bytes[i + 1..];
                    let (mut k, mut lines, mut last_line) = (0, 0, line_start);
                    let n = loop {
                        let Some(j) = position_either(&body[k..], b'}', b'\n') else {
                            break $rhythm;
                        };
                        if body[k + j] == b'}' {
                            break k + j;
                        }
                        lines += 1;
                        last_line = offset + (i + 1 + k + j + 1) as u64;
                        k += j + 1;
                    };
                    line += lines;
                    line_start = last_line;
                    if comments {
                        v.comment(&body[..n]);
                    }
                    i += n + 2;
                } else {
                    let at = Location { line, column: offset + i as u64 - line_start + 1 };
                    match plain_token(v, bytes, i, at) {
                        Plain::Next(next) => i = next,
                        Plain::Result(next, result) => {
                            i = next;
                            // A marker inside a variation is a slip; only the main line's marker
                            // ends the game.
                            if depth == 0 {
                                self.buf.consume_counted(i, line, line_start);
                                v.result(result);
                                return Ok(ControlFlow::Break(()));
                            }
                        }
                        Plain::Halt(next) => {
                            self.buf.consume_counted(next, line, line_start);
                            self.skip_movetext(v, depth)?;
                            return Ok(ControlFlow::Break(()));
                        }
                        Plain::Other => break $rhythm,
                    }
                }
            };
        }
        'rhythm: loop {
            next_token!('rhythm);
            next_token!('rhythm);
            next_token!('rhythm);
        }
        self.buf.consume_counted(i, line, line_start);
        Ok(ControlFlow::Continue(()))
    }

    /// A move token of `len` bytes, with any suffix annotation (§8.2.3.8) as a NAG after it.
    /// `Break` when the game is over for the reader (an error, or the visitor's wish).
    fn read_san<V: Visitor>(
        &mut self,
        v: &mut V,
        len: usize,
        depth: u32,
    ) -> io::Result<ControlFlow<()>> {
        let at = self.buf.location();
        let token = &self.buf.available()[..len];
        let san = match SanPlus::from_ascii(token) {
            Ok(san) => san,
            Err(e) => {
                self.fail(v, depth, len, ReadErrorKind::InvalidSan(e))?;
                return Ok(ControlFlow::Break(()));
            }
        };
        let nag = suffix_annotation(token);
        self.buf.consume(len);
        if v.san(san, at).is_break() {
            self.skip_movetext(v, depth)?;
            return Ok(ControlFlow::Break(()));
        }
        if let Some(nag) = nag {
            v.nag(nag);
        }
        Ok(ControlFlow::Continue(()))
    }

    /// A `{` comment (§5), delivered without its braces when `deliver`.
    fn read_comment<V: Visitor>(&mut self, v: &mut V, deliver: bool) -> io::Result<()> {
        let at = self.buf.location();
        match self.buf.find_byte(1, b'}')? {
            Some(end) => {
                if deliver {
                    v.comment(&self.buf.available()[1..end]);
                }
                self.buf.consume_counting(end + 1);
            }
            None if self.buf.is_eof() => {
                let bytes = self.buf.available();
                let n = bytes.len();
                self.error(v, at, &bytes[..n.min(LOOKAHEAD)], ReadErrorKind::UnterminatedComment);
                self.buf.consume_counting(n);
            }
            None => {
                // Longer than the buffer: deliver what fits, skip the rest.
                let bytes = self.buf.available();
                let n = bytes.len();
                if deliver {
                    v.comment(&bytes[1..]);
                }
                self.buf.consume_counting(n);
                if self.buf.skip_to_byte(b'}')? {
                    self.buf.consume(1);
                } else {
                    self.error(v, at, b"{", ReadErrorKind::UnterminatedComment);
                }
            }
        }
        Ok(())
    }

    /// A `;` comment (§5): the rest of the line, delivered without the `;` and line end when
    /// `deliver`.
    fn read_line_comment<V: Visitor>(&mut self, v: &mut V, deliver: bool) -> io::Result<()> {
        let end = self.buf.find_line_end(1)?.unwrap_or(self.buf.available().len());
        if deliver {
            v.comment(&self.buf.available()[1..end]);
        }
        self.buf.consume(end);
        // Only a line longer than the buffer has anything left.
        self.skip_line()
    }

    /// Reports a syntax error at the token of `len` bytes and skips the rest of the game.
    fn fail<V: Visitor>(
        &mut self,
        v: &mut V,
        depth: u32,
        len: usize,
        kind: ReadErrorKind,
    ) -> io::Result<()> {
        let at = self.buf.location();
        self.error(v, at, &self.buf.available()[..len], kind);
        self.buf.consume(len);
        self.skip_movetext(v, depth)
    }

    /// Skips the rest of a game's movetext; its termination marker still goes to the visitor.
    fn skip_movetext<V: Visitor>(&mut self, v: &mut V, depth: u32) -> io::Result<()> {
        if let Skipped::Result(result) = self.skip_tokens(depth, false)? {
            v.result(result);
        }
        Ok(())
    }

    /// Skips movetext tokens, keeping count of parentheses from `depth`. With `variation`, stops
    /// after the `)` that brings the count to 0; otherwise after a termination marker outside
    /// any variation. Either way, stops before the next game's `[` or at the end of input.
    fn skip_tokens(&mut self, mut depth: u32, variation: bool) -> io::Result<Skipped> {
        loop {
            self.buf.skip_whitespace()?;
            let bytes = self.buf.available();
            let Some(&first) = bytes.first() else { return Ok(Skipped::Cut) };
            match first {
                b'[' => return Ok(Skipped::Cut),
                b'{' => self.skip_comment()?,
                b';' => self.skip_line()?,
                b'%' if self.buf.at_line_start() => self.skip_line()?,
                b'(' => {
                    self.buf.consume(1);
                    depth = depth.saturating_add(1);
                }
                b')' => {
                    self.buf.consume(1);
                    if variation && depth == 1 {
                        return Ok(Skipped::Closed);
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {
                    let len = token_len(bytes).max(1);
                    let result = GameResult::from_ascii(&bytes[..len]);
                    self.buf.consume(len);
                    if let (Some(result), 0, false) = (result, depth, variation) {
                        return Ok(Skipped::Result(result));
                    }
                }
            }
        }
    }
}

/// How skipping movetext ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skipped {
    /// After the `)` of the skipped variation.
    Closed,
    /// After the game's termination marker.
    Result(GameResult),
    /// Before the next game's `[`, or at the end of input.
    Cut,
}

/// What a token that starts with a digit, `*` or `.` is.
enum Number {
    /// A move number indication (§8.2.2.1) or stray dots: skip this many bytes.
    Skip(usize),
    /// A termination marker (§8.2.6).
    Result(GameResult),
    /// Castling written with zeros.
    San,
}

fn number_or_result(token: &[u8]) -> Option<Number> {
    if let Some(result) = GameResult::from_ascii(token) {
        return Some(Number::Result(result));
    }
    if token.starts_with(b"0-0") {
        return Some(Number::San);
    }
    let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = token[digits..].iter().take_while(|&&b| b == b'.').count();
    // `12.`, `12...`, `12` and `...` stand alone; `12.e4` is a number then a move.
    (digits + dots == token.len() || dots > 0).then_some(Number::Skip(digits + dots))
}

/// The NAG of a suffix annotation written onto a move (`e4!?`, `Nf3+?!`), if any.
fn suffix_annotation(token: &[u8]) -> Option<Nag> {
    let tail = token.len() - token.iter().rev().take_while(|b| b"!?+#".contains(b)).count();
    let mut glyph = [0u8; 2];
    let mut n = 0;
    for &b in &token[tail..] {
        if b == b'!' || b == b'?' {
            *glyph.get_mut(n)? = b;
            n += 1;
        }
    }
    Nag::from_glyph(&glyph[..n])
}

/// `false` when [`suffix_annotation`] finds no glyph in `token` for sure: a glyph stands among
/// the marks that end the token, so a check or mate sign after anything but a mark ends a
/// token with none (`Nf3+`, a move in ten in engine games), and it is not asked.
#[inline(always)]
fn may_have_suffix_annotation(token: &[u8]) -> bool {
    match token {
        [.., b'!' | b'?'] => true,
        [.., before, b'+' | b'#'] => b"!?+#".contains(before),
        _ => false,
    }
}

/// What [`plain_token`] made of the token at an offset.
enum Plain {
    /// A move number or a move, read: go on at this offset.
    Next(usize),
    /// A termination marker, ending at this offset.
    Result(usize, GameResult),
    /// A move after which the visitor broke off, ending at this offset.
    Halt(usize),
    /// Another token, for the general loop.
    Other,
}

/// The move number, move or digit result marker at `bytes[i]`, which [`Reader::read_movetext`]'s
/// general loop would read the same way; a move goes to the visitor, with any suffix
/// annotation as a NAG after it.
#[inline(always)]
fn plain_token<V: Visitor>(v: &mut V, bytes: &[u8], i: usize, at: Location) -> Plain {
    let rest = &bytes[i..];
    match rest.first().map(|&b| class_of(b)) {
        Some(class::NUMBER) => {
            // `12.` and `7.` followed by no other dot, the usual move numbers, without loops.
            let digit = |k: usize| rest.get(k).is_some_and(u8::is_ascii_digit);
            let dot = |k: usize| rest.get(k) == Some(&b'.');
            if digit(0) && digit(1) && dot(2) && !dot(3) {
                return Plain::Next(i + 3);
            }
            if digit(0) && dot(1) && !dot(2) {
                return Plain::Next(i + 2);
            }
            // `12...` and `7...` before Black's moves, as engine and server files number each
            // move after a comment.
            if digit(0) && digit(1) && dot(2) && dot(3) && dot(4) && !dot(5) {
                return Plain::Next(i + 5);
            }
            if digit(0) && dot(1) && dot(2) && dot(3) && !dot(4) {
                return Plain::Next(i + 4);
            }
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            let dots = rest[digits..].iter().take_while(|&&b| b == b'.').count();
            // As `number_or_result`: `12.`, `12...`, `...` and `12` stand alone, `12.e4` is a
            // number then a move.
            if dots > 0 || rest.get(digits).is_none_or(|&b| is_delimiter(b)) {
                return Plain::Next(i + digits + dots);
            }
            let len = token_len(rest);
            match GameResult::from_ascii(&rest[..len]) {
                Some(result) => Plain::Result(i + len, result),
                None => Plain::Other,
            }
        }
        Some(class::LETTER) => {
            let token = &rest[..token_len_short(rest)];
            // A lone `N` is the novelty glyph; an error is reported by the general loop.
            if token == b"N" {
                return Plain::Other;
            }
            let Ok(san) = SanPlus::from_ascii(token) else { return Plain::Other };
            if v.san(san, at).is_break() {
                return Plain::Halt(i + token.len());
            }
            if may_have_suffix_annotation(token) {
                if let Some(nag) = suffix_annotation(token) {
                    v.nag(nag);
                }
            }
            Plain::Next(i + token.len())
        }
        _ => Plain::Other,
    }
}

/// The place of a tag in the Seven Tag Roster ([`SEVEN_TAG_ROSTER`]), if it is one.
#[inline]
fn roster_index(name: &[u8]) -> Option<usize> {
    let i = match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"White" => 4,
        b"Black" => 5,
        b"Result" => 6,
        _ => return None,
    };
    debug_assert_eq!(SEVEN_TAG_ROSTER[i].0.as_bytes(), name);
    Some(i)
}

/// Where the parts of a tag pair sit in its line.
struct TagSpan {
    name: (usize, usize),
    value: (usize, usize),
    /// Bytes up to and including the `]`.
    len: usize,
}

/// The form export format writes and nearly every file has, `[Name "value"]` with one space
/// and no escape, read in one pass; `None` for any other, which [`parse_tag`] then reads (for
/// this form the two agree).
#[inline]
fn parse_plain_tag(line: &[u8]) -> Option<TagSpan> {
    let name_end = 1 + line.get(1..)?.iter().position(|&b| is_tag_name_end(b))?;
    if name_end == 1 || line.get(name_end..name_end + 2)? != b" \"" {
        return None;
    }
    let value_start = name_end + 2;
    let value_end = value_start + position_either(&line[value_start..], b'"', b'\\')?;
    if line[value_end] != b'"' || line.get(value_end + 1) != Some(&b']') {
        return None;
    }
    Some(TagSpan { name: (1, name_end), value: (value_start, value_end), len: value_end + 2 })
}

/// [`parse_plain_tag`] of the line that starts `bytes`, for a tag whose value is shorter than
/// [`SHORT_VALUE`] bytes, without looking for the line's end first: the name and the value
/// are read up to a line end as well, so a tag found here stands within the line, and
/// `parse_plain_tag` of that line finds the same spans (issue 41: a `memchr` call a tag for the
/// line end cost more than reading a tag such as `[Round "1"]`). `None` for any other, which
/// the caller reads through the line end.
#[inline]
fn parse_short_tag(bytes: &[u8]) -> Option<TagSpan> {
    let name_end = 1 + bytes.get(1..)?.iter().position(|&b| is_tag_name_end(b) || b == b'\n')?;
    if name_end == 1 || bytes.get(name_end..name_end + 2)? != b" \"" {
        return None;
    }
    let value_start = name_end + 2;
    let head = bytes.get(value_start..)?.first_chunk::<SHORT_VALUE>()?;
    let value_end = value_start + position_value_end(head)?;
    if bytes[value_end] != b'"' || bytes.get(value_end + 1) != Some(&b']') {
        return None;
    }
    Some(TagSpan { name: (1, name_end), value: (value_start, value_end), len: value_end + 2 })
}

/// Reads `[Name "value"]` at the start of `line` (§8.1: a tag name, a string, brackets; white
/// space tolerated around each). A missing `]` at the end of the line is tolerated, as real
/// files lack it, and so are unescaped quotes in a value that ends the line.
fn parse_tag(line: &[u8]) -> Result<TagSpan, &'static str> {
    match parse_plain_tag(line) {
        Some(tag) => Ok(tag),
        None => parse_tag_general(line),
    }
}

/// [`parse_tag`] for any form.
fn parse_tag_general(line: &[u8]) -> Result<TagSpan, &'static str> {
    let blank = |i: &mut usize| {
        while matches!(line.get(*i), Some(b' ' | b'\t')) {
            *i += 1;
        }
    };
    let mut i = 1;
    blank(&mut i);
    let name_start = i;
    while let Some(&b) = line.get(i) {
        if matches!(b, b' ' | b'\t' | b'\r' | b'"' | b'[' | b']') {
            break;
        }
        i += 1;
    }
    if i == name_start {
        return Err("no tag name");
    }
    let name = (name_start, i);
    blank(&mut i);
    if line.get(i) != Some(&b'"') {
        return Err("the value is not in quotes");
    }
    i += 1;
    let value_start = i;
    loop {
        match line.get(i) {
            None => return Err("the value's closing quote is missing"),
            Some(b'\\') => i += 2,
            Some(b'"') => break,
            Some(_) => i += 1,
        }
    }
    let value = (value_start, i);
    i += 1;
    blank(&mut i);
    match line.get(i) {
        Some(b']') => Ok(TagSpan { name, value, len: i + 1 }),
        None | Some(b'\r') => Ok(TagSpan { name, value, len: i }),
        Some(_) => {
            // Quotes left unescaped inside the value, as in `[White ""Socrates""]`: when the
            // line ends in `"]`, the value runs to that last quote.
            let trimmed = line.trim_ascii_end();
            match trimmed.strip_suffix(b"\"]") {
                Some(inner) if inner.len() >= value_start => {
                    Ok(TagSpan { name, value: (value_start, inner.len()), len: trimmed.len() })
                }
                _ => Err("text after the value"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_results() {
        assert!(matches!(number_or_result(b"12."), Some(Number::Skip(3))));
        assert!(matches!(number_or_result(b"12..."), Some(Number::Skip(5))));
        assert!(matches!(number_or_result(b"3.e4"), Some(Number::Skip(2))));
        assert!(matches!(number_or_result(b"..."), Some(Number::Skip(3))));
        assert!(matches!(number_or_result(b"7"), Some(Number::Skip(1))));
        assert!(matches!(number_or_result(b"1/2-1/2"), Some(Number::Result(GameResult::Draw))));
        assert!(matches!(number_or_result(b"0-0-0+"), Some(Number::San)));
        assert!(number_or_result(b"1-1").is_none());
        assert!(number_or_result(b"12e4").is_none());
    }

    #[test]
    fn suffixes() {
        assert_eq!(suffix_annotation(b"e4!?"), Some(Nag(5)));
        assert_eq!(suffix_annotation(b"Nf3+?!"), Some(Nag(6)));
        assert_eq!(suffix_annotation(b"Qh7#!!"), Some(Nag(3)));
        assert_eq!(suffix_annotation(b"e4"), None);
        assert_eq!(suffix_annotation(b"e4!!!"), None);
    }

    #[test]
    fn short_tags_read_as_their_lines_are() {
        let names: [&[u8]; 4] = [b"E", b"Event", b"E\nv", b"E\rv"];
        let openers: [&[u8]; 3] = [b" \"", b"  \"", b"\n\""];
        let long = [b'v'; 30];
        let values: [&[u8]; 9] =
            [b"", b"1", b"x\\\"y", b"a\nb", b"a\rb", &long[..22], &long[..23], &long[..24], &long];
        let closers: [&[u8]; 4] = [b"\"]", b"\" ]", b"\"", b"\"\n]"];
        let tails: [&[u8]; 4] = [b"\n", b"\r\n", b" [Site \"y\"]\n", b""];
        let mut found = 0;
        for name in names {
            for opener in openers {
                for value in values {
                    for closer in closers {
                        for tail in tails {
                            for pad in [0, 30] {
                                let bytes = [&b"["[..], name, opener, value, closer, tail].concat();
                                let bytes = [bytes, vec![b' '; pad]].concat();
                                let end = position_line_end(&bytes).unwrap_or(bytes.len());
                                let want = parse_plain_tag(&bytes[..end])
                                    .map(|t| (t.name, t.value, t.len));
                                if let Some(t) = parse_short_tag(&bytes) {
                                    assert_eq!(Some((t.name, t.value, t.len)), want, "{bytes:?}");
                                    found += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        // The usual form is read here, for both names and the four values up to 23 bytes
        // without an escape, after each tail when padded: 32 at least.
        assert!(found >= 32, "{found}");
        assert!(parse_short_tag(b"[Round \"1\"]\n[White \"Stockfish\"]\n").is_some());
    }

    #[test]
    fn only_tokens_that_may_have_a_glyph_are_asked() {
        let marks = b"!?+#x";
        let mut tails: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let longer: Vec<Vec<u8>> = tails
                .iter()
                .flat_map(|t| marks.iter().map(move |&m| [&t[..], &[m]].concat()))
                .collect();
            tails.extend(longer);
        }
        for head in [&b""[..], b"e4", b"Nf3", b"O-O"] {
            for tail in &tails {
                let token = [head, &tail[..]].concat();
                if !may_have_suffix_annotation(&token) {
                    assert_eq!(suffix_annotation(&token), None, "{token:?}");
                }
            }
        }
        assert!(!may_have_suffix_annotation(b"Nf3+"));
        assert!(may_have_suffix_annotation(b"Nf3+!"));
    }

    #[test]
    fn roster_indices_follow_the_roster() {
        for (i, (name, _)) in SEVEN_TAG_ROSTER.iter().enumerate() {
            assert_eq!(roster_index(name.as_bytes()), Some(i), "{name}");
        }
        assert_eq!(roster_index(b"ECO"), None);
        assert_eq!(roster_index(b"event"), None);
    }

    #[test]
    fn tag_spans() {
        let line = br#"[Event "A \"B\" C"] [Site "x"]"#;
        let t = parse_tag(line).unwrap();
        assert_eq!(&line[t.name.0..t.name.1], b"Event");
        assert_eq!(&line[t.value.0..t.value.1], br#"A \"B\" C"#);
        assert_eq!(&line[t.len..], br#" [Site "x"]"#);
        assert!(parse_tag(b"[ Event  \"x\" ]").is_ok());
        assert!(parse_tag(b"[Event \"x\"").is_ok());
        let t = parse_tag(b"[White \"\"Socrates Expert\"\"]  \r").unwrap();
        assert_eq!((t.value, t.len), ((8, 25), 27));
        assert_eq!(parse_tag(b"[Event \"x\" y").err(), Some("text after the value"));
        assert_eq!(parse_tag(b"[Event x]").err(), Some("the value is not in quotes"));
        assert_eq!(parse_tag(b"[Event \"x]").err(), Some("the value's closing quote is missing"));
        assert_eq!(parse_tag(b"[Event \"x\\").err(), Some("the value's closing quote is missing"));
        assert_eq!(parse_tag(b"[]").err(), Some("no tag name"));
        // The one-pass reading of the common form agrees with the general one.
        let plain: [&[u8]; 5] =
            [br#"[Event "x"]"#, br#"[E "x"] "#, br#"[Event ""]"#, b"[Ev \"x\"]\r", br#"[a "b"]]"#];
        for line in plain {
            let (a, b) = (parse_plain_tag(line).unwrap(), parse_tag_general(line).unwrap());
            assert_eq!((a.name, a.value, a.len), (b.name, b.value, b.len), "{line:?}");
        }
        for other in
            [&br#"[a "b" ]"#[..], br#"[a  "b"]"#, br#"[a "\"b"]"#, br#"[ a "b"]"#, b"[a \"b"]
        {
            assert!(parse_plain_tag(other).is_none(), "{other:?}");
        }
    }
}
