//! Read → write → read gives the same games, on every clean game of the real corpus and of the
//! hand-made files; writing is idempotent; export lines stay below 80 columns.

mod common;

use common::{data_dir, read_all, write_all, Game};
use rookery_pgn::{LINE_LIMIT, SEVEN_TAG_ROSTER};

fn clean_games(bytes: &[u8]) -> Vec<Game> {
    read_all(bytes).into_iter().filter(|g| g.errors.is_empty()).collect()
}

fn check_file(name: &str, bytes: &[u8]) {
    let first = clean_games(bytes);
    let text = write_all(&first);
    let second = read_all(&text);
    assert_eq!(first.len(), second.len(), "{name}: game count");
    for (i, (a, b)) in first.iter().zip(&second).enumerate() {
        let at = format!("{name}, game {}", i + 1);
        assert!(b.errors.is_empty(), "{at}: {:?}", b.errors);
        assert_eq!(a.events, b.events, "{at}");
        assert_eq!(Some(a.final_result()), b.result, "{at}");
        let roster: Vec<&str> = b.tags.iter().take(7).map(|(k, _)| k.as_str()).collect();
        let want: Vec<&str> = SEVEN_TAG_ROSTER.iter().map(|(k, _)| *k).collect();
        assert_eq!(roster, want, "{at}");
        for (k, v) in &a.tags {
            if k != "Result" && a.tag(k) == Some(v.as_str()) {
                assert_eq!(b.tag(k), Some(v.as_str()), "{at}: tag {k}");
            }
        }
    }
    assert_eq!(write_all(&second), text, "{name}: writing is not idempotent");
    let text = String::from_utf8(text).expect("the writer writes UTF-8");
    for line in text.lines() {
        let single_token = !line.trim().contains(' ');
        assert!(
            line.chars().count() < LINE_LIMIT || line.starts_with('[') || single_token,
            "{name}: {line:?}"
        );
    }
}

#[test]
fn real_corpus_round_trips() {
    for (name, bytes) in data_dir("real") {
        check_file(&name, &bytes);
    }
}

#[test]
fn nasty_files_round_trip() {
    for (name, bytes) in data_dir("nasty") {
        check_file(&name, &bytes);
    }
}
