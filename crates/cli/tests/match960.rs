//! `rookery match --960` end to end (RULES.md §13): Chess960 games between two `rookery uci`
//! processes, each engine told `UCI_Chess960`, each game's PGN carrying its variant and start,
//! and every game replaying legally from that start as Chess960.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rookery_core::{chess960, CastlingMode, Position};

const ROOKERY: &str = env!("CARGO_BIN_EXE_rookery");

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rookery-match960-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(ROOKERY).arg("match").args(args).output().expect("the binary runs")
}

fn rookery_match(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "rookery match {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn executable(path: &Path, body: &str) -> String {
    std::fs::write(path, body).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_owned()
}

/// `rookery uci`, with every line the match sends it written to a log of its own in `dir`
/// (`uci.<pid>.log`: engines run side by side, and one shared file would mix their lines).
fn logged_rookery(dir: &Path) -> String {
    let body = format!("#!/bin/sh\ntee '{}/uci.'$$'.log' | '{ROOKERY}' uci\n", dir.display());
    executable(&dir.join("engine"), &body)
}

/// The lines of every engine's log in `dir`.
fn logged_lines(dir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("uci.") && name.ends_with(".log") {
            let text = std::fs::read_to_string(&path).unwrap();
            lines.extend(text.lines().map(str::to_owned));
        }
    }
    lines
}

/// One game of a PGN file as these tests read it.
#[derive(Debug)]
struct Game {
    tags: Vec<(String, String)>,
    /// The SAN moves.
    moves: Vec<String>,
}

impl Game {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Replays the moves from `[FEN]` as Chess960, or names the first that is not legal.
    fn replay(&self) -> Result<Position, String> {
        let fen = self.tag("FEN").ok_or("no [FEN]")?;
        let mut pos = Position::from_fen_in(fen, CastlingMode::Chess960)
            .map_err(|e| format!("[FEN \"{fen}\"]: {e}"))?;
        for (i, san) in self.moves.iter().enumerate() {
            let m = pos.parse_san(san).map_err(|e| format!("ply {} {san}: {e}", i + 1))?;
            pos.play_unchecked(m);
        }
        Ok(pos)
    }
}

/// The games of a PGN file as `rookery match` writes it: tag pairs, then movetext with move
/// numbers, `{ … }` comments and the result.
fn games(path: &Path) -> Vec<Game> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = Vec::new();
    let mut game = Game { tags: Vec::new(), moves: Vec::new() };
    let mut movetext = String::new();
    let finish = |game: &mut Game, movetext: &mut String| {
        let mut depth = 0;
        let plain: String = movetext
            .chars()
            .filter(|&c| {
                depth += i32::from(c == '{');
                let keep = depth == 0;
                depth -= i32::from(c == '}');
                keep
            })
            .collect();
        game.moves = plain
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
            .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.').to_owned())
            .filter(|t| !t.is_empty())
            .collect();
        movetext.clear();
        std::mem::replace(game, Game { tags: Vec::new(), moves: Vec::new() })
    };
    for line in text.lines() {
        if let Some(pair) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !movetext.trim().is_empty() {
                games.push(finish(&mut game, &mut movetext));
            }
            let (name, value) = pair.split_once(' ').unwrap();
            game.tags.push((name.to_owned(), value.trim_matches('"').to_owned()));
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !game.tags.is_empty() {
        games.push(finish(&mut game, &mut movetext));
    }
    games
}

/// The standard position as Chess960 start 518 is the one a standard-chess arbiter can start
/// already: the engines are told `UCI_Chess960`, and the PGN says Chess960 with its start.
#[test]
fn the_engines_are_told_and_the_pgn_says_chess960() {
    let dir = scratch("told");
    let pgn = dir.join("games.pgn");
    let engine = logged_rookery(&dir);
    let out = rookery_match(&[
        "--engine",
        &format!("{engine} nodes=300 name=a"),
        "--engine",
        &format!("{engine} nodes=300 name=b"),
        "--tc",
        "600+1",
        "--games",
        "2",
        "--960-positions",
        "518",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("Chess960 start positions 518"), "{progress}");
    let sent = logged_lines(&dir);
    // Each engine is started once to learn its name and once for the games.
    let told = sent.iter().filter(|l| *l == "setoption name UCI_Chess960 value true").count();
    assert_eq!(told, 4, "{sent:?}");
    let games = games(&pgn);
    assert_eq!(games.len(), 2);
    let start = chess960::position(518).unwrap().to_fen();
    for game in &games {
        assert_eq!(game.tag("Variant"), Some("Chess960"), "{game:?}");
        assert_eq!(game.tag("SetUp"), Some("1"), "{game:?}");
        assert_eq!(game.tag("FEN"), Some(start.as_str()), "{game:?}");
        assert!(game.moves.len() > 10, "{game:?}");
        game.replay().unwrap_or_else(|e| panic!("{e}: {game:?}"));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Random start positions from a seed, each played twice with colours swapped; every game
/// replays from its own start, and castling reaches the engines king-takes-rook.
#[test]
fn random_start_positions_are_played_from_both_sides() {
    let dir = scratch("random");
    let pgn = dir.join("games.pgn");
    let engine = logged_rookery(&dir);
    let play = |pgn: &Path| {
        rookery_match(&[
            "--engine",
            &format!("{engine} nodes=400 name=a"),
            "--engine",
            &format!("{engine} nodes=400 name=b"),
            "--tc",
            "600+1",
            "--games",
            "6",
            "--concurrency",
            "2",
            "--960",
            "--seed",
            "11",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
    };
    let out = play(&pgn);
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("3 random Chess960 start positions (seed 11)"), "{progress}");
    let games = games(&pgn);
    assert_eq!(games.len(), 6);
    let fen_of_round = |round: usize| {
        let game = games.iter().find(|g| g.tag("Round") == Some(&round.to_string()));
        game.and_then(|g| g.tag("FEN")).unwrap().to_owned()
    };
    let starts: Vec<String> = (0..3).map(|k| fen_of_round(2 * k + 1)).collect();
    for (k, start) in starts.iter().enumerate() {
        assert_eq!(fen_of_round(2 * k + 2), *start, "a start is played twice");
        let pos = Position::from_fen_in(start, CastlingMode::Chess960).unwrap();
        assert!(chess960::number(pos.board()).is_some(), "{start} is a start position");
    }
    assert!(starts[0] != starts[1] && starts[1] != starts[2], "{starts:?}");
    for game in &games {
        assert_eq!(game.tag("Variant"), Some("Chess960"), "{game:?}");
        let white = game.tag("White").unwrap();
        let round: usize = game.tag("Round").unwrap().parse().unwrap();
        assert_eq!(white, if round % 2 == 1 { "a" } else { "b" }, "colours alternate");
        game.replay().unwrap_or_else(|e| panic!("{e}: {game:?}"));
    }
    // Every castling sent to an engine is written the Chess960 way: the king onto its rook.
    let sent = logged_lines(&dir);
    assert!(sent.iter().any(|l| l.starts_with("position fen ")), "{sent:?}");
    let mut castlings = 0;
    for line in &sent {
        let Some(rest) = line.strip_prefix("position fen ") else { continue };
        let (fen, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
        let mut pos = Position::from_fen_in(fen, CastlingMode::Chess960).unwrap();
        for text in moves.split_whitespace() {
            let m = pos.parse_uci(text).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(!m.is_castle() || m.to_uci() == text, "{text} in {line}");
            castlings += usize::from(m.is_castle());
            pos.play_unchecked(m);
        }
    }
    assert!(castlings > 0, "no castling reached the engines: {sent:?}");
    // The same seed plays the same positions.
    let again = dir.join("again.pgn");
    play(&again);
    let mut first: Vec<_> = games.iter().map(|g| g.tag("FEN").unwrap().to_owned()).collect();
    let mut second: Vec<_> =
        self::games(&again).iter().map(|g| g.tag("FEN").unwrap().to_owned()).collect();
    first.sort();
    second.sort();
    assert_eq!(first, second);
    let _ = std::fs::remove_dir_all(dir);
}

/// An engine that cannot play Chess960 stops the match before it starts, naming the option;
/// flags that make no sense are usage errors (exit code 2, one line).
#[test]
fn engines_without_chess960_and_bad_flags_are_refused() {
    let dir = scratch("refused");
    let plain = executable(
        &dir.join("plain"),
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo 'id name plain'; \
         echo 'option name Hash type spin default 16 min 1 max 64'; echo uciok ;; isready) \
         echo readyok ;; quit) exit 0 ;; esac; done\n",
    );
    let rookery = format!("{ROOKERY} uci");
    let out = run(&["--engine", &rookery, "--engine", &plain, "--960", "--games", "2"]);
    assert!(!out.status.success());
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("the engine has no option \"UCI_Chess960\" (it has: Hash)"), "{error}");
    for args in [
        vec!["--seed", "3"],
        vec!["--960-positions", "960"],
        vec!["--960-positions", "1,x"],
        vec!["--960-positions", "5", "--openings", "scripts/data/openings.epd"],
    ] {
        let mut all = vec!["--engine", &rookery, "--engine", &rookery];
        all.extend(args.iter());
        let out = run(&all);
        let error = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {error}");
        assert_eq!(error.lines().count(), 1, "{args:?}: {error}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
