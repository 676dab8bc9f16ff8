//! A fuzzer of command sequences (issue 41): random UCI commands with random small delays,
//! sent to the loop over a real pipe while it searches, as a GUI does. The loop must never
//! hang: every `isready` is answered within a bounded time, even during a search; every
//! accepted `go` gets exactly one `bestmove`; `quit` or the end of the input ends the loop
//! within a bounded time.
//!
//! `ROOKERY_UCI_FUZZ_SEQUENCES=N` runs N sequences instead of the default 40 (the figure
//! the closing note quotes); `ROOKERY_UCI_FUZZ_SEED` picks another seed.

use std::io::{BufReader, PipeWriter, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the loop may take to answer `isready` or `uci`, or to end after `quit`: generous
/// for a debug build on a loaded machine, far below what a hang looks like.
const BOUND: Duration = Duration::from_secs(5);

/// Commands in one sequence.
const LENGTH: usize = 24;

/// SplitMix64: a seeded generator, so that a failing sequence can be run again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The loop's output, sent to the test line by line.
struct Lines {
    buffer: Vec<u8>,
    tx: Sender<String>,
}

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let line = String::from_utf8(std::mem::take(&mut self.buffer)).unwrap();
                // The test may have stopped listening after a failure.
                let _ = self.tx.send(line);
            } else {
                self.buffer.push(b);
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a command asks of the loop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    Nothing,
    /// An accepted search: exactly one `bestmove`, some time later.
    Search,
    /// `readyok`, at once.
    Ready,
    /// `uciok`, at once.
    UciOk,
}

/// The commands a sequence is drawn from: searches of every kind (bounded, practically
/// endless, endless, pondering, at a mated or stalemated root), the commands that must stop
/// a search first, and lines the loop rejects.
const COMMANDS: &[(&str, Expect)] = &[
    ("go depth 1", Expect::Search),
    ("go depth 4", Expect::Search),
    ("go depth 60", Expect::Search),
    ("go", Expect::Search),
    ("go infinite", Expect::Search),
    ("go movetime 30", Expect::Search),
    ("go nodes 3000", Expect::Search),
    ("go mate 2", Expect::Search),
    ("go wtime 300 btime 300 winc 10 binc 10", Expect::Search),
    ("go ponder wtime 2000 btime 2000", Expect::Search),
    ("go searchmoves e2e4 d2d4 depth 3", Expect::Search),
    ("go depth -1", Expect::Nothing),
    ("go movetime soon", Expect::Nothing),
    ("go perft 2", Expect::Nothing),
    ("ponderhit", Expect::Nothing),
    ("stop", Expect::Nothing),
    ("stop", Expect::Nothing),
    ("isready", Expect::Ready),
    ("isready", Expect::Ready),
    ("isready", Expect::Ready),
    ("uci", Expect::UciOk),
    ("ucinewgame", Expect::Nothing),
    ("position startpos", Expect::Nothing),
    ("position startpos moves e2e4 e7e5 g1f3", Expect::Nothing),
    ("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", Expect::Nothing),
    ("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Expect::Nothing),
    ("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Expect::Nothing),
    ("position startpos moves e2e5", Expect::Nothing),
    ("setoption name Hash value 2", Expect::Nothing),
    ("setoption name MultiPV value 2", Expect::Nothing),
    ("setoption name MultiPV value 1", Expect::Nothing),
    ("setoption name UCI_ShowWDL value true", Expect::Nothing),
    ("setoption name UCI_AnalyseMode value true", Expect::Nothing),
    ("setoption name Clear Hash", Expect::Nothing),
    ("setoption name Colour value blue", Expect::Nothing),
    ("hello", Expect::Nothing),
];

/// The loop on its own thread, fed through a pipe.
struct Loop {
    input: Option<PipeWriter>,
    output: Receiver<String>,
    thread: JoinHandle<()>,
    /// Every line so far, both ways, for failure messages.
    transcript: Vec<String>,
    bestmoves: usize,
    readyoks: usize,
    uciok: usize,
}

impl Loop {
    fn start() -> Loop {
        let (reader, input) = std::io::pipe().expect("a pipe");
        let (tx, output) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            rookery_uci::run(BufReader::new(reader), Lines { buffer: Vec::new(), tx })
                .expect("pipe I/O does not fail");
        });
        Loop {
            input: Some(input),
            output,
            thread,
            transcript: Vec::new(),
            bestmoves: 0,
            readyoks: 0,
            uciok: 0,
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!(">{line}"));
        let input = self.input.as_mut().expect("input open");
        writeln!(input, "{line}").expect("the loop reads its input");
    }

    /// Takes one line of output, waiting until `deadline` at most.
    fn take(&mut self, deadline: Instant) -> Result<(), RecvTimeoutError> {
        let line = self.output.recv_timeout(deadline.saturating_duration_since(Instant::now()))?;
        if line.starts_with("bestmove") {
            self.bestmoves += 1;
        } else if line == "readyok" {
            self.readyoks += 1;
        } else if line == "uciok" {
            self.uciok += 1;
        }
        self.transcript.push(format!("<{line}"));
        Ok(())
    }

    /// Reads lines until `done` holds; a hang fails the test with the transcript.
    fn wait(&mut self, what: &str, done: impl Fn(&Loop) -> bool) {
        let deadline = Instant::now() + BOUND;
        while !done(self) {
            if let Err(e) = self.take(deadline) {
                panic!("{e:?} waiting for {what}; transcript:\n{}", self.transcript.join("\n"))
            }
        }
    }
}

/// Runs one random sequence; returns the number of searches it started.
fn sequence(rng: &mut Rng) -> usize {
    let mut engine = Loop::start();
    let (mut searches, mut readies, mut ucis) = (0, 0, 0);
    for _ in 0..LENGTH {
        let (command, expect) = COMMANDS[rng.below(COMMANDS.len())];
        engine.send(command);
        match expect {
            Expect::Nothing => {}
            Expect::Search => searches += 1,
            Expect::Ready => {
                readies += 1;
                engine.wait("readyok", |l| l.readyoks == readies);
            }
            Expect::UciOk => {
                ucis += 1;
                engine.wait("uciok", |l| l.uciok == ucis);
            }
        }
        while engine.take(Instant::now()).is_ok() {}
        assert!(
            engine.bestmoves <= searches,
            "{} bestmoves for {searches} searches; transcript:\n{}",
            engine.bestmoves,
            engine.transcript.join("\n")
        );
        std::thread::sleep(Duration::from_millis(rng.below(12) as u64));
    }
    // `quit`, or `stop` and the end of the input: either ends the loop, whatever runs.
    engine.send(if rng.below(2) == 0 { "quit" } else { "stop" });
    engine.input = None;
    let deadline = Instant::now() + BOUND;
    loop {
        match engine.take(deadline) {
            Ok(()) => {}
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                panic!("the loop did not end; transcript:\n{}", engine.transcript.join("\n"))
            }
        }
    }
    assert_eq!(
        engine.bestmoves,
        searches,
        "one bestmove per go; transcript:\n{}",
        engine.transcript.join("\n")
    );
    assert_eq!(engine.readyoks, readies);
    engine.thread.join().expect("the loop does not panic");
    searches
}

#[test]
fn random_command_sequences_never_hang() {
    let env = |name: &str| std::env::var(name).ok().and_then(|n| n.parse::<u64>().ok());
    let count = env("ROOKERY_UCI_FUZZ_SEQUENCES").unwrap_or(40);
    let seed = env("ROOKERY_UCI_FUZZ_SEED").unwrap_or(41);
    let mut rng = Rng(seed);
    let started = Instant::now();
    let searches: usize = (0..count).map(|_| sequence(&mut rng)).sum();
    eprintln!(
        "{count} sequences of {LENGTH} commands (seed {seed}): {searches} searches, \
         {searches} bestmoves, hangs: 0, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
