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
