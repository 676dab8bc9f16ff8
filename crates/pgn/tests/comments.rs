//! `{` comments as the reader's fast paths find their ends (issue 41: `memchr` for the `}`):
//! a `}` at every place relative to the buffer's refills and to the scan's vector width, braces
//! inside a comment (PGN has no nesting: the first `}` ends it), and where an unterminated
//! comment is reported.

mod common;

use std::io::{self, Read};

use common::{
    read_all, read_all_from, read_all_without_comments_from, without_comments, Event, Game,
};
use rookery_pgn::{Location, ReadErrorKind};

/// A reader that hands out at most `chunk` bytes per call, so refills fall everywhere.
struct Chunks<'a> {
    bytes: &'a [u8],
    chunk: usize,
}

impl Read for Chunks<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.bytes.len().min(self.chunk).min(out.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// The line and column of byte `at` of `text`.
fn location_of(text: &[u8], at: usize) -> Location {
    let before = &text[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    Location { line, column: (at - line_start + 1) as u64 }
}

fn comments(game: &Game) -> Vec<&str> {
    game.events
        .iter()
        .filter_map(|e| match e {
            Event::Comment(c) => Some(c.as_str()),
            _ => None,
        })
        .collect()
}

/// One game whose comments have every length from 0 to 80 bytes, some with a newline, each
/// after a move, behind `shift` bytes of white space: its text, the comments' texts and where
/// each move starts.
fn game(shift: usize) -> (Vec<u8>, Vec<String>, Vec<usize>) {
    let mut text = b"[Event \"comments\"]\n\n".to_vec();
    text.extend(std::iter::repeat_n(b' ', shift));
    let (mut bodies, mut moves) = (Vec::new(), Vec::new());
    let sans = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for len in 0..=80usize {
        if len % 2 == 0 {
            text.extend(format!("{}. ", len / 2 + 1).as_bytes());
        }
        moves.push(text.len());
        text.extend(sans[len % 4].as_bytes());
        text.extend(b" {");
        // `[%clk 0:10:00]`-like bytes, a newline in every third comment, a `{` in every fifth.
        let body: Vec<u8> = (0..len)
            .map(|k| match k {
                _ if len % 3 == 0 && k == len / 2 => b'\n',
                _ if len % 5 == 0 && k == len / 3 => b'{',
                _ => b"[%clk 0:10:00] "[k % 15],
            })
            .collect();
        text.extend(&body);
        text.extend(b"}");
        text.push(if len % 7 == 0 { b'\n' } else { b' ' });
        bodies.push(common::collapse(std::str::from_utf8(&body).unwrap()));
    }
    text.extend(b"*\n");
    (text, bodies, moves)
}

#[test]
fn comment_ends_found_at_every_place_of_the_buffer() {
    for shift in 0..70 {
        let (text, bodies, moves) = game(shift);
        // A long file, so the comments cross the 2 KiB buffer's refills at every place.
        let copies = 3;
        let file: Vec<u8> = text.repeat(copies);
        let want_locations: Vec<Location> = moves.iter().map(|&m| location_of(&text, m)).collect();
        for chunk in [1, 7, 64, 1000, 1 << 20] {
            let games = read_all_from(Chunks { bytes: &file, chunk }, 2048);
            assert_eq!(games.len(), copies, "shift {shift}, chunk {chunk}");
            let skipped = read_all_without_comments_from(Chunks { bytes: &file, chunk }, 2048);
            assert_eq!(skipped, without_comments(&games), "shift {shift}, chunk {chunk}");
            for (g, game) in games.iter().enumerate() {
                let at = format!("shift {shift}, chunk {chunk}, game {}", g + 1);
                assert!(game.errors.is_empty(), "{at}: {:?}", game.errors);
                assert_eq!(comments(game), bodies, "{at}");
                assert_eq!(game.sans().len(), moves.len(), "{at}");
                // Lines counted inside comments: each move is where the text puts it.
                let line_offset = (g * text.iter().filter(|&&b| b == b'\n').count()) as u64;
                let got: Vec<Location> = game
                    .move_locations
                    .iter()
                    .map(|l| Location { line: l.line - line_offset, column: l.column })
                    .collect();
                assert_eq!(got, want_locations, "{at}");
            }
        }
    }
}

#[test]
fn braces_do_not_nest() {
    let games = read_all(b"1. e4 { a { b } e5 { c {{ } 2. Nf3 {}{ { } *\n");
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert!(game.errors.is_empty(), "{:?}", game.errors);
    assert_eq!(comments(game), ["a { b", "c {{", "", "{"]);
    assert_eq!(game.sans(), ["e4", "e5", "Nf3"]);
}

#[test]
fn a_closing_brace_outside_a_comment_is_an_error() {
    let games = read_all(b"1. e4 { a { b } } e5 *\n");
    let error = &games[0].errors[0];
    assert_eq!(error.kind, ReadErrorKind::UnexpectedToken);
    assert_eq!(error.location, Location { line: 1, column: 17 });
    assert_eq!(games[0].sans(), ["e4"]);
}

#[test]
fn unterminated_comment_reported_where_it_opens() {
    let short = b"[Event \"e\"]\n\n1. e4 { ok } e5\n2. Nf3 {never\nclosed e6\n".to_vec();
    let mut long = short.clone();
    long.extend(b"x".repeat(5000));
    long.extend(b"\nstill open\n");
    for (text, token) in [(&short, "{never"), (&long, "{")] {
        for chunk in [1, 7, 64, 1 << 20] {
            let games = read_all_from(Chunks { bytes: text, chunk }, 2048);
            let at = format!("{} bytes, chunk {chunk}", text.len());
            assert_eq!(games.len(), 1, "{at}");
            let errors = &games[0].errors;
            assert_eq!(errors.len(), 1, "{at}: {errors:?}");
            assert_eq!(errors[0].kind, ReadErrorKind::UnterminatedComment, "{at}");
            assert_eq!(errors[0].location, Location { line: 4, column: 8 }, "{at}");
            assert_eq!(errors[0].game, 1, "{at}");
            // The token shown is the comment's first line, or its `{` when it outgrew the buffer.
            assert_eq!(errors[0].token, token, "{at}");
            assert_eq!(games[0].sans(), ["e4", "e5", "Nf3"], "{at}");
            assert_eq!(comments(&games[0]).first(), Some(&"ok"), "{at}");
        }
    }
}
