//! Tie-break values and ranks from published sources, data-driven: every `NAME.expected` in
//! tests/data/tiebreak/ is checked against the standings of `NAME.trf` beside it. Each file
//! cites its source in its `###` lines.
//!
//! An expected line is `YEAR CODE V1 V2 …`: under the C.07 text of YEAR, tie-break CODE has
//! value Vn for pairing number n (`.` = the source states none). `YEAR rank:LIST R1 R2 …` gives
//! the ranks by score and then the comma-separated tie-break LIST. A value may be marked `!`
//! where the C.07 value differs from the one the source printed; the file says why.

use std::fs;
use std::path::{Path, PathBuf};

use rookery_tournament::{standings, PlayerId, Regulations, Tiebreak, Tournament};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiebreak")
}

fn read_tournament(path: &Path) -> Tournament {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    rookery_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks one `.expected` file; returns the number of values checked.
fn check(expected: &Path) -> usize {
    let tournament = read_tournament(&expected.with_extension("trf"));
    let rounds = tournament.rounds_with_entries();
    let text = fs::read_to_string(expected).expect("expected file is readable");
    let mut checked = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("###") {
            continue;
        }
        let at = format!("{}:{}", expected.display(), number + 1);
        let mut fields = line.split_whitespace();
        let regulations: Regulations =
            fields.next().unwrap().parse().unwrap_or_else(|e| panic!("{at}: {e}"));
        let what = fields.next().unwrap_or_else(|| panic!("{at}: no tie-break"));
        let (list, ranks) = match what.strip_prefix("rank:") {
            Some(list) => (list, true),
            None => (what, false),
        };
        let list: Vec<Tiebreak> = list
            .split(',')
            .map(|code| code.parse().unwrap_or_else(|e| panic!("{at}: {e}")))
            .collect();
        let table = standings(&tournament, rounds, &list, regulations);
        for (index, want) in fields.enumerate() {
            let want = want.trim_start_matches('!');
            if want == "." {
                continue;
            }
            let player = PlayerId::from_index(index);
            let row = table.row(player).unwrap_or_else(|| panic!("{at}: no player {player}"));
            let got = if ranks { row.rank.to_string() } else { row.values[0].to_string() };
            assert_eq!(got, want, "{at}: {what} of player {player} under {regulations}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn published_values_match() {
    let mut files: Vec<PathBuf> = fs::read_dir(data_dir())
        .expect("tests/data/tiebreak exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "expected"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "expected files: {files:?}");
    let checked: usize = files.iter().map(|f| check(f)).sum();
    assert!(checked > 300, "only {checked} values checked");
}
