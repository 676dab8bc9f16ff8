//! The Berger tables against the FIDE Handbook: every file in `tests/data/berger/` is a table
//! as C.05 Annex 1 prints it (or, for `double-*`, derived from it by the Annex's rule, as the
//! file says), and `berger::schedule` must give it exactly, for each field size the file
//! names. The format:
//!
//! ```text
//! # comment lines cite the source
//! players 3 4          # the field sizes the table is for (the Handbook's "3 or 4 players")
//! cycles double        # optional; single by default
//! Rd 1: 1-4, 2-3.      # one round, White first, as printed
//! ```
//!
//! For a field one smaller than the table, the table's highest number is the dummy: its
//! opponent has the bye (C.05 Annex 1: "the highest number counts as a bye").

use std::fs;
use std::path::Path;

use rookery_tournament::berger::{self, Cycles};
use rookery_tournament::{Pair, PlayerId, RoundPairing};

struct Table {
    sizes: Vec<u32>,
    cycles: Cycles,
    /// (White, Black) by round, as printed.
    rounds: Vec<Vec<(u32, u32)>>,
}

fn parse(path: &Path) -> Table {
    let text = fs::read_to_string(path).expect("read table");
    let name = path.display();
    let mut table = Table { sizes: Vec::new(), cycles: Cycles::Single, rounds: Vec::new() };
    let mut cites_source = false;
    for (index, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", index + 1);
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            cites_source |= comment.contains("C.05");
        } else if let Some(sizes) = line.strip_prefix("players ") {
            table.sizes = sizes
                .split_whitespace()
                .map(|n| n.parse().unwrap_or_else(|_| panic!("{at}: bad size {n:?}")))
                .collect();
        } else if line == "cycles double" {
            table.cycles = Cycles::Double;
        } else if let Some(rest) = line.strip_prefix("Rd ") {
            let (number, games) = rest.split_once(':').unwrap_or_else(|| panic!("{at}: no ':'"));
            let number: usize = number.parse().unwrap_or_else(|_| panic!("{at}: bad round"));
            assert_eq!(number, table.rounds.len() + 1, "{at}: rounds out of order");
            let games = games
                .trim()
                .trim_end_matches('.')
                .split(',')
                .map(|game| {
                    let (white, black) = game
                        .trim()
                        .split_once('-')
                        .unwrap_or_else(|| panic!("{at}: bad game {game:?}"));
                    let number = |s: &str| {
                        s.parse::<u32>().unwrap_or_else(|_| panic!("{at}: bad number {s:?}"))
                    };
                    (number(white), number(black))
                })
                .collect();
            table.rounds.push(games);
        } else if !line.is_empty() {
            panic!("{at}: unreadable line {line:?}");
        }
    }
    assert!(cites_source, "{name}: the comments must cite C.05");
    assert!(!table.sizes.is_empty(), "{name}: no 'players' line");
    table
}

/// What the printed round means for a field of `players`: numbers above `players` are the
/// dummy, whose opponent has the bye.
fn expected_round(games: &[(u32, u32)], players: u32) -> RoundPairing {
    let id = |n: u32| PlayerId::new(n).expect("numbers start at 1");
    let mut round = RoundPairing::default();
    for &(white, black) in games {
        if white > players {
            round.bye = Some(id(black));
        } else if black > players {
            round.bye = Some(id(white));
        } else {
            round.pairs.push(Pair { white: id(white), black: id(black) });
        }
    }
    round
}

#[test]
fn schedules_equal_the_handbook_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/berger");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .expect("tests/data/berger")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    let mut sizes_seen = Vec::new();
    for path in &paths {
        let table = parse(path);
        let name = path.file_name().unwrap().to_string_lossy();
        for &players in &table.sizes {
            let schedule = berger::schedule(players, table.cycles)
                .unwrap_or_else(|e| panic!("{name}, {players} players: {e}"));
            assert_eq!(
                schedule.rounds().len(),
                table.rounds.len(),
                "{name}, {players} players: number of rounds"
            );
            for (index, printed) in table.rounds.iter().enumerate() {
                let expected = expected_round(printed, players);
                assert_eq!(
                    schedule.rounds()[index],
                    expected,
                    "{name}, {players} players, round {}",
                    index + 1
                );
                let direct = berger::round_pairing(players, table.cycles, index as u32 + 1);
                assert_eq!(direct.as_ref(), Ok(&expected), "{name}, {players}: round_pairing");
            }
            if table.cycles == Cycles::Single {
                sizes_seen.push(players);
            }
        }
    }
    sizes_seen.sort();
    assert_eq!(sizes_seen, (3..=16).collect::<Vec<_>>(), "every published size is checked");
}

#[test]
fn the_text_form_is_one_round_per_line_with_the_bye_last() {
    // C.05 Annex 1, "5 or 6 players", for 5: the dummy 6 gives the bye.
    let schedule = berger::schedule(5, Cycles::Single).unwrap();
    assert_eq!(
        schedule.to_string(),
        "Round 1: 2-5 3-4 (bye 1)\n\
         Round 2: 5-3 1-2 (bye 4)\n\
         Round 3: 3-1 4-5 (bye 2)\n\
         Round 4: 1-4 2-3 (bye 5)\n\
         Round 5: 4-2 5-1 (bye 3)\n"
    );
}

#[test]
fn a_tournament_is_paired_by_its_number_of_players() {
    // Six players: C.05 Annex 1, "5 or 6 players", round 3: 2-6, 3-1, 4-5.
    let tournament = rookery_tournament::Tournament {
        players: vec![Default::default(); 6],
        rounds: Some(10),
        ..Default::default()
    };
    let cycles = Cycles::from_rounds(6, tournament.rounds.unwrap()).unwrap();
    assert_eq!(cycles, Cycles::Double);
    let round = berger::pair_round(&tournament, cycles, 3).unwrap();
    assert_eq!(round, expected_round(&[(2, 6), (3, 1), (4, 5)], 6));
    assert_eq!(
        berger::pair_round(&tournament, cycles, 11).unwrap_err().to_string(),
        "round 11 does not exist: this round robin has rounds 1 to 10"
    );
}
