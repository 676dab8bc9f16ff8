//! `rookery match` end to end: the real `rookery uci` binary against itself, and against
//! engines that misbehave (tiny shell scripts), counted as the match statistics say.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rookery_pgn::{MainLineReader, Reader};

const ROOKERY: &str = env!("CARGO_BIN_EXE_rookery");

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rookery-match-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rookery_match(args: &[&str]) -> Output {
    let out = Command::new(ROOKERY).arg("match").args(args).output().expect("the binary runs");
    assert!(
        out.status.success(),
        "rookery match {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Per engine: its name, and its time losses, crashes, stalls and illegal moves.
type FailureRows = Vec<(String, [u64; 4])>;

/// The numbers of the final table: (wins, losses, draws, games) from the first line, and the
/// failure rows.
fn table(out: &Output) -> ((u64, u64, u64, u64), FailureRows) {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let first = text.lines().next().expect("a score line");
    let after = first.split_once(": ").expect("Score of A vs B: w - l - d  [s] n").1;
    let numbers: Vec<u64> = after
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|t| t.parse().ok())
        .collect();
    let (w, l, d, n) = (numbers[0], numbers[1], numbers[2], numbers[numbers.len() - 1]);
    let header = text.lines().position(|l| l.starts_with("engine")).expect("a failure table");
    let rows = text.lines().skip(header + 1).map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let counts: Vec<u64> =
            words[words.len() - 4..].iter().map(|w| w.parse().unwrap()).collect();
        (words[..words.len() - 4].join(" "), [counts[0], counts[1], counts[2], counts[3]])
    });
    ((w, l, d, n), rows.collect())
}

/// Replays every game of a PGN file from its `[FEN]` (rookery-pgn's main-line replay):
/// (result, termination, moves) per game.
fn replay(path: &Path) -> Vec<(String, String, Vec<String>)> {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = Reader::new(file);
    let mut visitor = MainLineReader::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor).unwrap() {
        let line = game.unwrap_or_else(|e| panic!("{e}"));
        let tag = |name| line.tag(name).unwrap_or("").to_owned();
        let moves = line.plies.iter().map(|p| p.san.to_string()).collect();
        games.push((tag("Result"), tag("Termination"), moves));
    }
    games
}

#[test]
fn rookery_against_itself() {
    let dir = scratch("self");
    let pgn = dir.join("games.pgn");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/data/openings.epd");
    let engine = |level: u8| format!("{ROOKERY} uci option.Level={level} name=level{level}");
    let out = rookery_match(&[
        "--engine",
        &engine(2),
        "--engine",
        &engine(3),
        "--tc",
        "5+0.05",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let ((w, l, d, n), rows) = table(&out);
    assert_eq!((w + l + d, n), (4, 4), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(rows.len(), 2);
    for (name, [time_losses, crashes, stalls, illegal]) in &rows {
        assert!(name == "level2" || name == "level3", "{name}");
        assert_eq!((crashes, stalls, illegal), (&0, &0, &0), "{name}");
        assert_eq!(*time_losses, 0, "{name} lost on time at level 2/3 with 5 s");
    }
    let progress = String::from_utf8_lossy(&out.stderr);
    assert_eq!(progress.lines().filter(|l| l.starts_with("game ")).count(), 4, "{progress}");
    // The PGN reads back, and every game replays legally to a result.
    let games = replay(&pgn);
    assert_eq!(games.len(), 4);
    let text = std::fs::read_to_string(&pgn).unwrap();
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "TimeControl", "FEN"] {
        assert_eq!(text.matches(&format!("[{tag} ")).count(), 4, "[{tag}] in every game");
    }
    for (result, termination, moves) in &games {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()), "{result}");
        assert!(!termination.is_empty());
        assert!(!moves.is_empty());
    }
    // Colours alternate per opening: the first opening's FEN twice, then the second's.
    let fens: Vec<&str> = text.lines().filter(|l| l.starts_with("[FEN ")).collect();
    let rounds: Vec<&str> = text.lines().filter(|l| l.starts_with("[Round ")).collect();
    let fen_of = |round: &str| fens[rounds.iter().position(|r| *r == round).unwrap()];
    assert_eq!(fen_of("[Round \"1\"]"), fen_of("[Round \"2\"]"));
    assert_ne!(fen_of("[Round \"1\"]"), fen_of("[Round \"3\"]"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Writes an executable shell script that speaks just enough UCI, with `on_go` for `go`.
fn script(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let body = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo \"id name {name}\"; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go*) {on_go} ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n"
    );
    std::fs::write(&path, body).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_owned()
}

#[cfg(unix)]
#[test]
fn misbehaving_engines_are_counted() {
    let dir = scratch("bad");
    let rookery = format!("{ROOKERY} uci option.Level=1 name=rookery");
    // Illegal moves: `a1a1` is no move, `e2e5` none either; both lose at once.
    let illegal = script(&dir, "illegal", "echo 'info depth 1 score cp 0'; echo 'bestmove e2e5'");
    let garbage = script(&dir, "garbage", "echo 'bestmove banana'");
    // A crash: the process exits when asked to move, and is restarted for the next game.
    let crash = script(&dir, "crash", "exit 3");
    // A hang: never answers `go`; the flag falls, the margin passes, and it is restarted.
    let hang = script(&dir, "hang", ":");
    let cases = [
        (illegal, [0, 0, 0, 2]),
        (garbage, [0, 0, 0, 2]),
        (crash, [0, 2, 0, 0]),
        (hang, [2, 0, 2, 0]),
    ];
    for (bad, counts) in cases {
        let out = rookery_match(&[
            "--engine",
            &rookery,
            "--engine",
            &bad,
            "--tc",
            "1+0",
            "--games",
            "2",
            "--timeout-margin",
            "200",
        ]);
        let ((w, l, d, n), rows) = table(&out);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!((w, l, d, n), (2, 0, 0, 2), "{bad}: rookery wins both\n{stdout}");
        assert_eq!(rows[0].1, [0, 0, 0, 0], "{bad}: rookery is clean\n{stdout}");
        assert_eq!(rows[1].1, counts, "{bad}\n{stdout}");
    }
    // An engine that does not start fails the match at once, naming it.
    let out = Command::new(ROOKERY)
        .args(["match", "--engine", "/nonexistent/engine", "--engine", &rookery])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/engine"), "{err}");
    // An option the engine does not have is refused before any game.
    let typo = format!("{ROOKERY} uci option.Levle=3");
    let out = Command::new(ROOKERY)
        .args(["match", "--engine", &typo, "--engine", &rookery])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no option \"Levle\""), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn node_limits_go_with_every_search() {
    let dir = scratch("nodes");
    // This engine exits (a crash) unless `go` carries `nodes 777`, and then answers the null
    // move (an illegal move): the match's counts tell which.
    let strict = script(
        &dir,
        "strict",
        r#"case "$line" in *" nodes 777"*) echo 'bestmove 0000' ;; *) exit 3 ;; esac"#,
    );
    let rookery = format!("{ROOKERY} uci option.Level=1 name=rookery");
    let out = rookery_match(&[
        "--engine",
        &rookery,
        "--engine",
        &format!("{strict} nodes=777"),
        "--tc",
        "1+0",
        "--games",
        "2",
    ]);
    let ((w, l, d, _), rows) = table(&out);
    assert_eq!((w, l, d), (2, 0, 0));
    assert_eq!(rows[1].1, [0, 0, 0, 2], "{}", String::from_utf8_lossy(&out.stdout));

    // At a fixed node count, with a clock it cannot run out of, Rookery plays the same games
    // however busy the machine is.
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/data/openings.epd");
    let run = |k: u8| {
        let pgn = dir.join(format!("run{k}.pgn"));
        rookery_match(&[
            "--engine",
            &format!("{ROOKERY} uci nodes=300 name=a"),
            "--engine",
            &format!("{ROOKERY} uci nodes=300 name=b"),
            "--tc",
            "600+1",
            "--games",
            "2",
            "--openings",
            openings.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        replay(&pgn)
    };
    let first = run(1);
    assert_eq!(first.len(), 2);
    assert!(first.iter().all(|(_, _, moves)| moves.len() > 10), "{first:?}");
    assert_eq!(first, run(2));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        vec!["--engine", "a"],
        vec!["--engine", "a", "--engine", "b", "--tc", "-"],
        vec!["--engine", "a", "--engine", "b", "--sprt", "10,0"],
        vec!["--engine", "a", "--engine", "b", "--tc", "fast"],
        vec!["--engine", "a", "--engine", "b", "--openings", "/nonexistent.epd"],
    ] {
        let out = Command::new(ROOKERY).arg("match").args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{args:?}");
    }
}

/// Issue 41: a game ended on the engines' scores is written as the PGN standard says,
/// `[Termination "adjudication"]`, with Rookery's label (`resign_adjudication`,
/// `draw_adjudication`) in its own tag and in the final comment, as the other endings are.
#[test]
fn adjudicated_games_say_so_in_the_pgn() {
    let dir = scratch("adjudicated");
    // A queen up for White: both engines' scores pass 500 cp at once, long before a mate. And
    // a symmetrical knight ending: both scores within two pawns, and not a dead position.
    let cases = [
        ("4k3/8/8/8/8/8/3QP3/4K3 w - -", "--resign-adjudication", "2,500", "1-0", "resign"),
        ("4k3/pp6/2n5/8/8/2N5/PP6/4K3 w - -", "--draw-adjudication", "1,2,200", "1/2-1/2", "draw"),
    ];
    for (fen, flag, rule, result, kind) in cases {
        let openings = dir.join(format!("{kind}.epd"));
        std::fs::write(&openings, format!("{fen}\n")).unwrap();
        let pgn = dir.join(format!("{kind}.pgn"));
        rookery_match(&[
            "--engine",
            &format!("{ROOKERY} uci nodes=300 name=a"),
            "--engine",
            &format!("{ROOKERY} uci nodes=300 name=b"),
            "--tc",
            "600+1",
            "--games",
            "2",
            "--openings",
            openings.to_str().unwrap(),
            flag,
            rule,
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        let games = replay(&pgn);
        assert_eq!(games.len(), 2, "{kind}");
        let label = format!("{kind}_adjudication");
        for (game_result, termination, moves) in &games {
            assert_eq!((game_result.as_str(), termination.as_str()), (result, "adjudication"));
            assert!(moves.len() >= 3, "{kind}: adjudicated after {} plies", moves.len());
        }
        let text = std::fs::read_to_string(&pgn).unwrap();
        let tag = format!("[RookeryTermination \"{label}\"]");
        assert_eq!(text.matches(&tag).count(), 2, "{tag}\n{text}");
        let comment = format!("{{ termination: {label} }} {result}");
        assert_eq!(text.matches(&comment).count(), 2, "{comment}\n{text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
