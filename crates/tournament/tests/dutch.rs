//! The Dutch engine against the tournaments of an independent engine: every round of every
//! tournament re-paired from the rounds before it must come out as the file has it.
//!
//! The data: `data/dutch-rtg/` (499 tournaments made by bbpPairings 6.0.0's generator and
//! paired by its Dutch engine; the README there says how). The crate is optimised in test
//! builds (the workspace's `profile.dev`), so this runs in about half a minute.

mod swiss_support;

use std::path::PathBuf;

use rookery_tournament::{dutch, trf};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch-rtg")
}

fn describe(check: &dutch::RoundCheck) -> String {
    let show = |p: &rookery_tournament::RoundPairing| {
        let mut pairs: Vec<String> =
            p.pairs.iter().map(|x| format!("{}-{}", x.white, x.black)).collect();
        pairs.sort();
        format!("{} bye {:?}", pairs.join(" "), p.bye.map(|b| b.get()))
    };
    match &check.expected {
        Ok(expected) => format!(
            "round {}: rules {} / file {}",
            check.round,
            show(expected),
            show(&check.actual)
        ),
        Err(e) => format!("round {}: {e}", check.round),
    }
}

#[test]
fn every_round_of_the_reference_tournaments() {
    let dir = data_dir();
    let files = swiss_support::trf_files(&dir);
    assert_eq!(files.len(), 499, "{}", dir.display());
    let mut failures = Vec::new();
    let mut rounds = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let tournament = trf::read(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for check in dutch::check(&tournament) {
            rounds += 1;
            if !check.agrees() {
                failures.push(format!(
                    "{}: {}",
                    file.file_name().unwrap().to_string_lossy(),
                    describe(&check)
                ));
            }
        }
    }
    eprintln!("{} files, {rounds} rounds, {} differ", files.len(), failures.len());
    assert!(failures.is_empty(), "{} rounds differ:\n{}", failures.len(), failures.join("\n"));
}
