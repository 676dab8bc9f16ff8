//! One file read on several threads, its games handed on in the file's order and numbered as
//! one reader numbers them.
//!
//! The file is cut into parts of about a given size, each cut just before a `[` that starts a
//! line after an empty line, where a game's first tag usually stands. Each part is read by a
//! [`Reader`] of its own, started at the part's first byte, on whichever thread is free; it
//! reads the games that start in its part, then goes on until it finds a game starting at a
//! later cut. A reader started at an offset where a game starts reads the same games from there
//! as a reader that came to that offset from the start of the file ([`Reader::next_game`]), so
//! a cut is kept only when the reader of the part before it finds a game starting exactly
//! there. A cut that falls inside a game (an empty line and a `[` in a comment, a game without
//! a result) is not: that part's reader reads on to the next cut that is a game's start, and
//! what the readers of the parts in between read is dropped. Whatever the cuts, the games
//! handed on are those one reader reads, with the same numbers, lines and columns.
//!
//! Memory stays bounded: at most two parts a thread are read ahead of the one handed on.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Mutex;
use std::thread;

use crate::{Location, ReadError, Reader, Visitor};

/// What came before a part in the file, for renumbering what its reader reports: its games
/// are numbered from 1 and its lines from 1, as if the part were a file of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Games read before the part.
    pub games: u64,
    /// Line ends before the part (which starts at the beginning of a line, so columns stay).
    pub lines: u64,
}

impl Origin {
    /// `game`, a number given by a part's reader, in the whole file.
    pub fn game(self, game: u64) -> u64 {
        game + self.games
    }

    /// `at`, a place a part's reader reported, in the whole file.
    pub fn location(self, at: Location) -> Location {
        Location { line: at.line + self.lines, column: at.column }
    }

    /// `error`, reported by a part's reader, numbered in the whole file.
    pub fn read_error(self, error: &mut ReadError) {
        error.game = self.game(error.game);
        error.location = self.location(error.location);
    }
}

/// How a file is read by [`read_file`].
#[derive(Clone, Copy, Debug)]
pub struct Parallel {
    /// Threads reading parts (at least 1).
    pub threads: usize,
    /// The size of a part in bytes, about: a cut is made at the first game's start found at or
    /// after each multiple of it.
    pub part: u64,
}

impl Parallel {
    /// Parts of 1 MiB: a few milliseconds of work each, so that the last part read leaves the
    /// other threads little to wait for, and thousands of games in memory at most.
    pub const PART: u64 = 1 << 20;
}

/// Reads every game of the file at `path` with visitors made by `make`, one a part, on
/// `parallel.threads` threads, and hands each game's [`Visitor::end_game`] output to `each` in
/// the file's order, with the [`Origin`] to renumber it by and the offset up to which the file
/// has been handed on (for a progress bar). Returns the bytes read: the file's length.
///
/// # Errors
/// An error of reading the file, or the first error `each` returns; then no more games are
/// handed on and the threads stop after the part they are reading.
pub fn read_file<V, E>(
    path: &Path,
    parallel: Parallel,
    make: impl Fn() -> V + Sync,
    mut each: impl FnMut(V::Output, Origin, u64) -> Result<(), E>,
) -> Result<u64, E>
where
    V: Visitor,
    V::Output: Send,
    E: From<io::Error>,
{
    let cuts = cuts(&mut File::open(path)?, parallel.part.max(1))?;
    let threads = parallel.threads.clamp(1, cuts.len());
    let stop = AtomicBool::new(false);
    let (jobs, queue) = mpsc::channel::<(usize, SyncSender<io::Result<Part<V::Output>>>)>();
    let queue = Mutex::new(queue);
    thread::scope(|scope| {
        // As many threads as the system gives, up to `threads`: fewer only read more slowly.
        let mut spawned = 0;
        while spawned < threads {
            let reader = thread::Builder::new().spawn_scoped(scope, || loop {
                // The lock is held only while a job is taken; a poisoned one means a thread
                // panicked, which the scope passes on.
                let job = match queue.lock() {
                    Ok(queue) => queue.recv(),
                    Err(_) => return,
                };
                let Ok((index, done)) = job else { return };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let _ = done.send(read_part(path, &cuts, index, &make));
            });
            match reader {
                Ok(_) => spawned += 1,
                Err(e) if spawned == 0 => return Err(e.into()),
                Err(_) => break,
            }
        }
        let threads = spawned;
        let result = (|| {
            // Parts given out and not yet handed on, in order, each with where its reader's
            // answer will come.
            let mut pending: VecDeque<(usize, Answer<V::Output>)> = VecDeque::new();
            let mut given = 0;
            // The next part whose games are handed on, and what came before it.
            let (mut next, mut origin) = (0, Origin::default());
            loop {
                while given < cuts.len() && pending.len() < 2 * threads {
                    let (done, answer) = mpsc::sync_channel(1);
                    // The threads outlive this loop: a send cannot fail here.
                    let _ = jobs.send((given, done));
                    pending.push_back((given, answer));
                    given += 1;
                }
                let Some((index, answer)) = pending.pop_front() else {
                    // Every part given out was handed on or dropped, and none read to the end:
                    // impossible, as the last part's reader reads to the end of the input.
                    return Err(io::Error::other("a part of the file was not read").into());
                };
                let part = answer
                    .recv()
                    .map_err(|_| io::Error::other("a thread reading the file stopped"))??;
                if index < next {
                    continue; // read by the reader of an earlier part
                }
                let done = part.end.map_or(part.bytes, |end| cuts[end]);
                for output in part.outputs {
                    each(output, origin, done)?;
                }
                match part.end {
                    Some(end) => {
                        origin.games += part.games;
                        origin.lines += part.lines;
                        next = end;
                    }
                    None => return Ok(part.bytes),
                }
            }
        })();
        stop.store(true, Ordering::Relaxed);
        drop(jobs);
        result
    })
}

/// Where the answer of a part's reader comes.
type Answer<O> = Receiver<io::Result<Part<O>>>;

/// What the reader of one part read.
struct Part<O> {
    outputs: Vec<O>,
    /// The cut at which it stopped, a game starting there; `None` if it read to the end.
    end: Option<usize>,
    /// Games begun and line ends passed before it stopped.
    games: u64,
    lines: u64,
    /// The offset in the file where it stopped.
    bytes: u64,
}

/// Reads part `index` of the file: its games, and any after them up to a game that starts at
/// a later cut.
fn read_part<V: Visitor>(
    path: &Path,
    cuts: &[u64],
    index: usize,
    make: &impl Fn() -> V,
) -> io::Result<Part<V::Output>> {
    let start = cuts[index];
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut reader = Reader::new(file);
    let mut visitor = make();
    let mut outputs = Vec::new();
    let later = &cuts[index + 1..];
    let mut end = None;
    while let Some(offset) = reader.next_game()? {
        let at = start + offset;
        if later.first().is_some_and(|&cut| at >= cut) {
            if let Ok(k) = later.binary_search(&at) {
                end = Some(index + 1 + k);
                break;
            }
        }
        outputs.extend(reader.read_game(&mut visitor)?);
    }
    Ok(Part {
        outputs,
        end,
        games: reader.games(),
        lines: reader.location().line - 1,
        bytes: start + reader.bytes_read(),
    })
}

/// The offsets where parts start: 0, then the first place at or after each multiple of
/// `part` (counted from the last cut) where a line starting with `[` follows an empty line.
/// Where `part` bytes hold no such place (one long game), the search goes on after them.
fn cuts(file: &mut File, part: u64) -> io::Result<Vec<u64>> {
    let size = file.metadata()?.len();
    let mut cuts = vec![0];
    let mut window = Vec::with_capacity(WINDOW);
    let mut from = part;
    while from < size {
        match find_cut(file, from, part, &mut window)? {
            Found::Cut(cut) => {
                cuts.push(cut);
                from = cut + part;
            }
            Found::NoneBefore(end) => from = end,
        }
    }
    Ok(cuts)
}

/// What [`find_cut`] found.
#[derive(Debug, PartialEq)]
enum Found {
    /// A cut at this offset.
    Cut(u64),
    /// No cut from where it looked up to this offset (the file's end, or where it stopped).
    NoneBefore(u64),
}

/// The first game-like start (`\n\n[` or `\n\r\n[`, the offset of its `[`) at or after `from`,
/// looked for over about `limit` bytes.
fn find_cut(file: &mut File, from: u64, limit: u64, window: &mut Vec<u8>) -> io::Result<Found> {
    // Read from three bytes before, for the empty line before `from`.
    let mut at = from.saturating_sub(3);
    // A game is a few kilobytes: look at 4 KiB first, then at twice as much each time.
    let mut wanted = 4096;
    loop {
        file.seek(SeekFrom::Start(at))?;
        window.clear();
        file.by_ref().take(wanted).read_to_end(window)?;
        for i in memchr::memchr_iter(b'[', window) {
            let before = &window[..i];
            if (before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n")) && at + i as u64 >= from {
                return Ok(Found::Cut(at + i as u64));
            }
        }
        let end = at + window.len() as u64;
        if (window.len() as u64) < wanted || end >= from + limit {
            return Ok(Found::NoneBefore(end)); // the end of the file, or of the search
        }
        // The next window starts three bytes before this one's end: a `[` there may follow
        // an empty line whose bytes this window ends with.
        at = end - 3;
        wanted = (2 * wanted).min(WINDOW as u64);
    }
}

/// The most [`find_cut`] reads at once.
const WINDOW: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn cuts_of(text: &str, part: u64) -> Vec<u64> {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        cuts(&mut file, part).unwrap()
    }

    #[test]
    fn cuts_fall_before_a_tag_after_an_empty_line() {
        let text =
            "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\r\n\r\n1. d4 *\r\n\r\n[Event \"c\"]\n";
        let b = text.find("[Event \"b").unwrap() as u64;
        let c = text.find("[Event \"c").unwrap() as u64;
        assert_eq!(cuts_of(text, 1), vec![0, b, c]);
        assert_eq!(cuts_of(text, b), vec![0, b, c]);
        assert_eq!(cuts_of(text, b + 1), vec![0, c]);
        assert_eq!(cuts_of(text, 1000), vec![0]);
        // `[` after one line end only, or not at a line's start, is no cut.
        assert_eq!(cuts_of("[A \"1\"]\n[B \"2\"]\n\n x [C]", 1), vec![0]);
        // A game longer than a part and its window: the search goes on after it.
        let long =
            format!("[A \"1\"]\n\n1. e4 {{{}}} *\n\n[B \"2\"]\n\n1. d4 *\n", "y".repeat(20_000));
        assert_eq!(cuts_of(&long, 10), vec![0, long.find("[B").unwrap() as u64]);
    }

    #[test]
    fn a_cut_is_found_across_windows() {
        // Windows of 4, 8, 16, 32 and then 64 KiB, each from three bytes before the last end.
        let ends = [4096, 4093 + 8192, 12_282 + 16_384, 28_663 + 32_768];
        let near_ends = ends.iter().flat_map(|end| end - 6..end + 2);
        for pad in near_ends.chain([64 * 1024 - 5, 64 * 1024, 200_000, 300_000]) {
            let text = format!("{}\n\n[Event \"x\"]\n", " ".repeat(pad));
            assert_eq!(cuts_of(&text, 1), vec![0, pad as u64 + 2], "pad {pad}");
        }
    }
}
