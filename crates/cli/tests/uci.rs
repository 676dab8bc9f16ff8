//! `rookery uci` and `rookery bench` as a GUI and a user run them: a real process talking over
//! pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn uci_over_pipes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut read_until = |prefix: &str| -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut lines = Vec::new();
        loop {
            assert!(Instant::now() < deadline, "no {prefix} in {lines:?}");
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "EOF before {prefix}: {lines:?}");
            let line = line.trim_end().to_owned();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    };
    writeln!(stdin, "uci").unwrap();
    let handshake = read_until("uciok");
    assert!(handshake[0].starts_with("id name Rookery"), "{handshake:?}");
    writeln!(stdin, "isready").unwrap();
    assert_eq!(read_until("readyok"), ["readyok"]);
    // A search that only `stop` ends, with `isready` answered meanwhile.
    writeln!(stdin, "position startpos moves e2e4 c7c5\ngo infinite\nisready").unwrap();
    let thinking = read_until("readyok");
    assert!(!thinking.iter().any(|l| l.starts_with("bestmove")), "{thinking:?}");
    std::thread::sleep(Duration::from_millis(100));
    writeln!(stdin, "stop").unwrap();
    let answer = read_until("bestmove");
    let best = answer.last().unwrap().split_whitespace().nth(1).unwrap().to_owned();
    let pos: rookery_core::Position =
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2".parse().unwrap();
    assert!(pos.legal_moves().iter().any(|m| m.to_uci() == best), "{best} is not legal");
    // A clock search and a perft.
    writeln!(stdin, "go wtime 500 btime 500 winc 10 binc 10").unwrap();
    read_until("bestmove");
    writeln!(stdin, "position startpos\ngo perft 4").unwrap();
    assert_eq!(read_until("Nodes searched").last().unwrap(), "Nodes searched: 197281");
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn bench_prints_its_signature() {
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args(["bench", "--depth", "5"])
            .output()
            .expect("the binary runs");
        assert!(out.status.success());
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 12, "one line per position: {stderr}");
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("Nodes searched  : "))
            .expect("the node count")
            .parse::<u64>()
            .unwrap()
    };
    let nodes = run();
    assert!(nodes > 0);
    assert_eq!(run(), nodes, "the signature is deterministic");
}

/// Issue 41, its command line: `(printf 'uci\ngo\n'; sleep .3; printf
/// 'ucinewgame\nisready\nstop\nquit\n'; sleep 3) | rookery uci` froze with neither `readyok`
/// nor `bestmove`. The real process must answer both and exit at once.
#[test]
fn ucinewgame_during_a_search_does_not_freeze_the_process() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    writeln!(stdin, "uci\ngo").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "ucinewgame\nisready\nstop\nquit").unwrap();
    let started = Instant::now();
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(10)) {
        lines.push(line);
    }
    assert!(started.elapsed() < Duration::from_secs(5), "{lines:?}");
    let answers: Vec<&String> =
        lines.iter().filter(|l| *l == "readyok" || l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert!(answers[0].starts_with("bestmove"), "the search is stopped first: {lines:?}");
    assert!(child.wait().unwrap().success());
}

/// A `rookery uci` process spoken to line by line.
struct Uci {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Uci { child, stdin, stdout }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "EOF before {prefix}: {lines:?}"
            );
            let line = line.trim_end().to_owned();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `go` with `limits`: the `bestmove` line's move, and the lines before it.
    fn go(&mut self, limits: &str) -> (String, Vec<String>) {
        self.send(&format!("go {limits}"));
        let lines = self.read_until("bestmove");
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_owned();
        (best, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}

/// `UCI_Chess960` over pipes (RULES.md §13): castling that mates is answered in king-takes-rook
/// form, and a search from each of a sample of the 960 start positions answers a legal move.
#[test]
fn chess960_over_pipes() {
    use rookery_core::{chess960, CastlingMode, Position};
    let mut uci = Uci::start();
    uci.send("uci");
    let handshake = uci.read_until("uciok");
    assert!(
        handshake.contains(&"option name UCI_Chess960 type check default false".to_owned()),
        "{handshake:?}"
    );
    uci.send("setoption name UCI_Chess960 value true");
    // Mates in one that only castling gives (see rookery-engine's tests/chess960.rs): the
    // king standing still on g1, the king on b1 castling long, the rook standing still on f1.
    for (fen, mate) in [
        ("4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1", "g1h1"),
        ("4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1", "g1h1"),
        ("2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1", "b1a1"),
        ("8/8/8/8/8/B1N5/PP1PPP2/k3KR2 w F - 0 1", "e1f1"),
    ] {
        uci.send("ucinewgame");
        uci.send(&format!("position fen {fen}"));
        let (best, lines) = uci.go("depth 4");
        assert_eq!(best, mate, "{fen}: {lines:?}");
        assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{fen}: {lines:?}");
    }
    // The standard start read as Chess960, castling sent king-takes-rook: the same game.
    uci.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1 f8c5");
    uci.send("go perft 1");
    let perft = uci.read_until("Nodes searched");
    assert!(perft.contains(&"f1e1: 1".to_owned()), "the rook on f1: {perft:?}");
    // A sample of start positions: the ends, the standard one, and a seeded spread, each as
    // X-FEN and as Shredder-FEN; every answer legal, castling king-takes-rook.
    let mut sample = vec![0, 1, 2, 518, 958, 959];
    let mut state = 55_u64;
    for _ in 0..14 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        sample.push(((state >> 33) % 960) as u16);
    }
    for (i, &n) in sample.iter().enumerate() {
        let start = chess960::position(n).unwrap();
        let fen = rookery_core::Fen::from_position(&start);
        let text = if i % 2 == 0 { fen.to_string() } else { fen.to_shredder() };
        uci.send("ucinewgame");
        let check = Position::from_fen_in(&text, CastlingMode::Chess960).unwrap();
        assert_eq!(check.to_setup(), start.to_setup(), "{text}");
        // From the start, then four plies in, when castling may be nearer.
        let mut pos = start;
        let mut moves = Vec::new();
        for ply in 0..2 {
            let command = match ply {
                0 => format!("position fen {text}"),
                _ => format!("position fen {text} moves {}", moves.join(" ")),
            };
            uci.send(&command);
            let (best, lines) = uci.go("nodes 3000");
            let m = pos.parse_uci(&best).unwrap_or_else(|e| panic!("{command}: {e}: {lines:?}"));
            assert_eq!(m.to_uci(), best, "{command}: written as Chess960 writes it");
            for _ in 0..4 {
                let legal = pos.legal_moves();
                let m = legal[(usize::from(n) + moves.len()) % legal.len()];
                moves.push(m.to_uci());
                pos.play_unchecked(m);
            }
        }
    }
    uci.quit();
}
