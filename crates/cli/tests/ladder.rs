//! `rookery ladder` on real PGN collections: the §11 invariants hold over the whole replay
//! (points are zero-sum, every game with a result is counted once per player, W/D/L add up).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn real_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../pgn/tests/data/real");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the real corpus is in the repository")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files
}

/// Games with a decisive or drawn Result tag, counted straight from the text.
fn games_with_results(text: &str) -> u64 {
    text.lines()
        .filter(|l| {
            let l = l.trim();
            l == "[Result \"1-0\"]" || l == "[Result \"0-1\"]" || l == "[Result \"1/2-1/2\"]"
        })
        .count() as u64
}

fn cents(v: &Value) -> i64 {
    (v.as_f64().expect("points are numbers") * 100.0).round() as i64
}

#[test]
fn replaying_the_real_corpus_keeps_the_ladder_invariants() {
    // Some files are Latin-1: keep the bytes for the binary, read the tags lossily here.
    let bytes: Vec<u8> = real_files().iter().flat_map(|p| std::fs::read(p).unwrap()).collect();
    let text = String::from_utf8_lossy(&bytes);
    let file = std::env::temp_dir().join(format!("rookery-ladder-{}.pgn", std::process::id()));
    std::fs::write(&file, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(["ladder", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let rated = json["rated"].as_u64().unwrap();
    let skipped = json["skipped"].as_u64().unwrap();
    // Every game with a result is counted: rated, or skipped with a reason on stderr (real
    // data has a game with the same name on both sides).
    assert_eq!(rated + skipped, games_with_results(&text));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.contains("skipped")).count() as u64,
        skipped,
        "{stderr}"
    );
    assert!(skipped * 100 < rated, "{skipped} skipped");
    assert!(rated >= 10, "the corpus has only {rated} rated games");
    let standings = json["standings"].as_array().unwrap();
    let total: i64 = standings.iter().map(|p| cents(&p["points"])).sum();
    assert_eq!(total, 0, "§11: every game is zero-sum");
    let games: u64 = standings.iter().map(|p| p["games"].as_u64().unwrap()).sum();
    assert_eq!(games, 2 * rated, "each rated game counts once for each player");
    let (mut wins, mut losses) = (0, 0);
    for p in standings {
        let (w, d, l) = (
            p["wins"].as_u64().unwrap(),
            p["draws"].as_u64().unwrap(),
            p["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, p["games"].as_u64().unwrap(), "{p}");
        wins += w;
        losses += l;
        let level = p["level"].as_str().unwrap();
        assert!(level == "unranked" || level.starts_with("level-"), "{level}");
    }
    assert_eq!(wins, losses);
    // Ranks are ordered by points.
    for pair in standings.windows(2) {
        assert!(cents(&pair[0]["points"]) >= cents(&pair[1]["points"]));
    }
}

#[test]
fn table_output_and_bad_input() {
    let deep_blue = real_files().into_iter().find(|p| p.to_string_lossy().contains("deep-blue"));
    let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .arg("ladder")
        .arg(deep_blue.unwrap())
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.starts_with("rank  player"), "{table}");
    assert!(table.contains("Deep Blue (Computer)") && table.contains("2/3/1"), "{table}");
    assert!(table.contains("6 games: 6 rated"), "{table}");
    let missing = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(["ladder", "/nonexistent/file.pgn"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/file.pgn"));
}

/// Issue 41: a player with an empty name is no one: the game is skipped, naming it, instead
/// of rating a nameless player.
#[test]
fn an_empty_name_is_a_skipped_game_named_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty-name.pgn");
    std::fs::write(
        &file,
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1-0\n\n\
         [White \"\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n\n0-1\n",
    )
    .unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_rookery")).arg("ladder").arg(&file).output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr, "rookery: game 2: skipped: empty White tag\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("2 games: 1 rated, 0 unfinished (*), 1 skipped"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.contains("Bob")).count(), 1, "{stdout}");
}
