//! The reader's one buffer over any [`Read`], refilled in place, and the cheap line and column
//! bookkeeping that lets every error say where it is.
//!
//! Invariant: between calls, `buf[start..end]` holds the bytes not yet consumed, and
//! `base + start` is their offset in the input. `line` counts the newlines consumed so far (plus
//! one) and `line_start` is the offset just after the last of them, so the column of the next
//! byte is a subtraction. Newlines are counted only where they can occur: in whitespace,
//! comments and skipped lines, never inside a move token.

use std::io::{self, Read};

use crate::scan::{class, class_of, position_line_end};
use crate::Location;

/// The default capacity: the longest comment or line delivered whole.
pub(crate) const DEFAULT_CAPACITY: usize = 64 * 1024;

/// Below this many buffered bytes the buffer is refilled before the next token, so that any
/// token that matters (a move, a number, a NAG) can be scanned without checking for a refill.
pub(crate) const LOOKAHEAD: usize = 1024;

pub(crate) struct Buffer<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// Offset in the input of `buf[0]`.
    base: u64,
    eof: bool,
    line: u64,
    line_start: u64,
}

impl<R: Read> Buffer<R> {
    pub(crate) fn new(inner: R, capacity: usize) -> Buffer<R> {
        Buffer {
            inner,
            buf: vec![0; capacity.max(2 * LOOKAHEAD)].into_boxed_slice(),
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            line: 1,
            line_start: 0,
        }
    }

    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    pub(crate) fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// The bytes buffered and not yet consumed.
    #[inline]
    pub(crate) fn available(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.available().first().copied()
    }

    /// Whether the whole input has been read into the buffer.
    #[inline]
    pub(crate) fn is_eof(&self) -> bool {
        self.eof
    }

    /// Whether no more bytes can be buffered without consuming some first.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.end - self.start == self.buf.len()
    }

    /// Makes at least [`LOOKAHEAD`] bytes available, or all that remain.
    #[inline]
    pub(crate) fn ensure(&mut self) -> io::Result<()> {
        if self.end - self.start < LOOKAHEAD && !self.eof {
            self.fill(LOOKAHEAD)?;
        }
        Ok(())
    }

    /// Makes as many bytes available as the buffer holds, or all that remain.
    pub(crate) fn fill_up(&mut self) -> io::Result<()> {
        self.fill(self.buf.len())
    }

    fn fill(&mut self, want: usize) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.base += self.start as u64;
            self.end -= self.start;
            self.start = 0;
        }
        while self.end < want && !self.eof {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Consumes `n` bytes that contain no newline.
    #[inline]
    pub(crate) fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.end - self.start);
        self.start += n;
    }

    /// Consumes `n` bytes, counting the newlines among them.
    pub(crate) fn consume_counting(&mut self, n: usize) {
        let bytes = &self.buf[self.start..self.start + n];
        let mut newlines = 0;
        let mut last = None;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                newlines += 1;
                last = Some(i);
            }
        }
        if let Some(i) = last {
            self.line += newlines;
            self.line_start = self.base + (self.start + i + 1) as u64;
        }
        self.start += n;
    }

    /// The line of the next byte, and the offset in the input where that line starts.
    #[inline]
    pub(crate) fn line_state(&self) -> (u64, u64) {
        (self.line, self.line_start)
    }

    /// Consumes `n` bytes whose newlines the caller has counted: `line` and `line_start` are
    /// the [`Buffer::line_state`] after them.
    #[inline]
    pub(crate) fn consume_counted(&mut self, n: usize, line: u64, line_start: u64) {
        debug_assert!(n <= self.end - self.start);
        self.start += n;
        self.line = line;
        self.line_start = line_start;
    }

    /// Where the next byte sits (1-based; the column counts bytes).
    #[inline]
    pub(crate) fn location(&self) -> Location {
        Location { line: self.line, column: self.offset() - self.line_start + 1 }
    }

    /// The offset in the input of the next byte: how many bytes have been consumed.
    #[inline]
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.start as u64
    }

    /// Whether the next byte is the first of its line (where a `%` escape may start).
    #[inline]
    pub(crate) fn at_line_start(&self) -> bool {
        self.offset() == self.line_start
    }

    /// Starts line 1 after the bytes consumed so far (a byte order mark is not a column).
    pub(crate) fn restart_line(&mut self) {
        self.line_start = self.offset();
    }

    /// Skips spaces, tabs, carriage returns, form feeds and newlines (PGN standard §7: white
    /// space separates tokens), leaving the next token's first byte buffered, if any.
    #[inline(always)]
    pub(crate) fn skip_whitespace(&mut self) -> io::Result<()> {
        // The common cases, inline: already at a token, or one space before it; with more than
        // the lookahead still buffered (so `ensure` would do nothing).
        if self.end - self.start > LOOKAHEAD + 1 {
            let blank = |b: u8| matches!(class_of(b), class::BLANK | class::NEWLINE);
            if let [first, second, ..] = self.buf[self.start..self.end] {
                if !blank(first) {
                    return Ok(());
                }
                if first == b' ' && !blank(second) {
                    self.start += 1;
                    return Ok(());
                }
            }
        }
        self.skip_whitespace_slow()
    }

    fn skip_whitespace_slow(&mut self) -> io::Result<()> {
        loop {
            self.ensure()?;
            let bytes = &self.buf[self.start..self.end];
            let mut i = 0;
            let mut line = self.line;
            let mut line_end = None;
            while i < bytes.len() {
                match bytes[i] {
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
                    b'\n' => {
                        i += 1;
                        line += 1;
                        line_end = Some(i);
                    }
                    _ => break,
                }
            }
            self.line = line;
            if let Some(e) = line_end {
                self.line_start = self.base + (self.start + e) as u64;
            }
            let done = i < bytes.len() || self.eof;
            self.start += i;
            if done {
                return Ok(());
            }
        }
    }

    /// Finds the first byte at or after `from` that `stop` accepts, refilling the buffer up to
    /// its capacity. `None` when there is none before the end of the input or within a full
    /// buffer (tell the two apart with [`Buffer::is_eof`]).
    pub(crate) fn find(
        &mut self,
        from: usize,
        stop: impl Fn(u8) -> bool,
    ) -> io::Result<Option<usize>> {
        let mut from = from;
        loop {
            let bytes = self.available();
            if let Some(i) = bytes.get(from..).and_then(|b| b.iter().position(|&c| stop(c))) {
                return Ok(Some(from + i));
            }
            from = bytes.len();
            if self.eof || self.is_full() {
                return Ok(None);
            }
            self.fill_up()?;
        }
    }

    /// [`Buffer::find`] for the first byte equal to `c`, by `memchr`.
    pub(crate) fn find_byte(&mut self, from: usize, c: u8) -> io::Result<Option<usize>> {
        let mut from = from;
        loop {
            let bytes = self.available();
            if let Some(i) = bytes.get(from..).and_then(|b| memchr::memchr(c, b)) {
                return Ok(Some(from + i));
            }
            from = bytes.len();
            if self.eof || self.is_full() {
                return Ok(None);
            }
            self.fill_up()?;
        }
    }

    /// [`Buffer::find`] for the first line end (`\n` or `\r`), eight bytes at a time.
    pub(crate) fn find_line_end(&mut self, from: usize) -> io::Result<Option<usize>> {
        let mut from = from;
        loop {
            let bytes = self.available();
            if let Some(i) = bytes.get(from..).and_then(position_line_end) {
                return Ok(Some(from + i));
            }
            from = bytes.len();
            if self.eof || self.is_full() {
                return Ok(None);
            }
            self.fill_up()?;
        }
    }

    /// Consumes everything up to, not including, the first byte `stop` accepts (or to the end
    /// of the input), counting newlines; however long that is.
    pub(crate) fn skip_until(&mut self, stop: impl Fn(u8) -> bool + Copy) -> io::Result<bool> {
        loop {
            match self.find(0, stop)? {
                Some(i) => {
                    self.consume_counting(i);
                    return Ok(true);
                }
                None => {
                    let n = self.available().len();
                    self.consume_counting(n);
                    if self.eof {
                        return Ok(false);
                    }
                    self.fill_up()?;
                }
            }
        }
    }
}

impl<R: Read> Buffer<R> {
    /// [`Buffer::skip_until`] for the first byte equal to `c`, by `memchr`.
    pub(crate) fn skip_to_byte(&mut self, c: u8) -> io::Result<bool> {
        loop {
            match self.find_byte(0, c)? {
                Some(i) => {
                    self.consume_counting(i);
                    return Ok(true);
                }
                None => {
                    let n = self.available().len();
                    self.consume_counting(n);
                    if self.eof {
                        return Ok(false);
                    }
                    self.fill_up()?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte per call, to exercise every refill boundary.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn whitespace_counts_lines_across_refills() {
        let mut text = vec![b' '; 3000];
        text.extend_from_slice(b"\n\n  \r\nx");
        let mut buf = Buffer::new(Trickle(&text), 2048);
        buf.skip_whitespace().unwrap();
        assert_eq!(buf.peek(), Some(b'x'));
        assert_eq!(buf.location(), Location { line: 4, column: 1 });
        buf.consume(1);
        buf.skip_whitespace().unwrap();
        assert_eq!(buf.peek(), None);
    }

    #[test]
    fn find_fills_up_to_capacity_then_gives_up() {
        let mut text = vec![b'a'; 5000];
        text.push(b'}');
        let mut buf = Buffer::new(&text[..], 2048);
        assert_eq!(buf.find(0, |b| b == b'}').unwrap(), None);
        assert!(buf.is_full());
        assert!(buf.skip_until(|b| b == b'}').unwrap());
        assert_eq!(buf.peek(), Some(b'}'));
        assert_eq!(buf.offset(), 5000);
        assert_eq!(buf.location(), Location { line: 1, column: 5001 });
    }

    #[test]
    fn consume_counting_tracks_the_last_newline() {
        let mut buf = Buffer::new(&b"ab\ncd\nef"[..], 2048);
        buf.ensure().unwrap();
        buf.consume_counting(7);
        assert_eq!(buf.location(), Location { line: 3, column: 2 });
        assert!(!buf.at_line_start());
    }
}
