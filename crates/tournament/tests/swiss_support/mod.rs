//! What the tests of the Swiss systems share: the tournament files of a folder, the
//! hand-worked cases, a random configuration per seed, the rules no round of any system may
//! break, and the run over generated tournaments. Each test uses part of it.
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rookery_core::Color;
use rookery_tournament::dutch::{PairError, RoundCheck};
use rookery_tournament::generator::{generate, GenerateError, GeneratorConfig};
use rookery_tournament::{trf, PlayerId, ResultCode, RoundPairing, Tournament};

/// A Swiss system's engine.
pub type Pair = fn(&Tournament, u32) -> Result<RoundPairing, PairError>;

/// The `.trf` files of `dir`, sorted.
pub fn trf_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    files
}

/// Pairs the next round of each `NAME.trf` of `dir` and compares it with `NAME.pairs`, the
/// pairing worked out by hand as JaVaFo prints it (`no pairing` when the rules give none).
pub fn assert_hand_worked_cases(dir: &Path, pair: Pair, at_least: usize) {
    let cases = trf_files(dir);
    assert!(cases.len() >= at_least, "{}", dir.display());
    for case in cases {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let t = trf::read(&std::fs::read_to_string(&case).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = std::fs::read_to_string(case.with_extension("pairs")).unwrap();
        let got = match pair(&t, t.rounds_played() + 1) {
            Ok(pairing) => pairing.to_javafo(),
            Err(PairError::NoPairing(_)) => "no pairing\n".to_owned(),
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(got, expected, "{name}");
    }
}

/// A configuration drawn from the seed: 4 to 79 players, 3 to 11 rounds (fewer than the
/// players), draws, forfeits, retirements and half-point byes from none to frequent, and
/// now and then another point system.
pub fn config(seed: u64) -> GeneratorConfig {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5bd1_e995;
    let mut next = |n: u64| {
        x ^= x >> 29;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 32;
        x % n
    };
    // A rate is "one in N": 0 for never, else from 2 (never everyone).
    let mut rate = |n: u64| match next(n) {
        1 => 2,
        r => r,
    };
    let (forfeits, retired, byes) = (rate(40), rate(30), rate(25));
    let players = 4 + next(76);
    let rounds = (3 + next(9)).min(players - 1);
    let mut text = format!(
        "PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage={}\nForfeitRate={}\n\
         RetiredRate={}\nHalfPointByeRate={}\n",
        next(61),
        forfeits,
        retired,
        byes,
    );
    if next(5) == 0 {
        text.push_str("PointsForWin=3.0\nPointsForDraw=1.0\n");
    }
    text.parse().expect("a valid configuration")
}

/// The rules no round may break (C.04.1; C.04.3 and C.04.4.2 [C1]–[C3]). With
/// `topscorers`, the Dutch system's exception: a topscorer (or his opponent) may pass a
/// colour difference of ±2 or have a colour three times running in the last round; the
/// Burstein system has none.
pub fn assert_sound(t: &Tournament, seed: u64, topscorers: bool) {
    let rounds = t.rounds_played();
    let mut met: HashSet<(PlayerId, PlayerId)> = HashSet::new();
    let mut no_bye: HashSet<PlayerId> = HashSet::new();
    for round in 1..=rounds {
        let mut byes = 0;
        for id in t.player_ids() {
            let player = t.player(id).unwrap();
            let Some(entry) = player.round(round) else { continue };
            if entry.result == ResultCode::PairingAllocatedBye {
                byes += 1;
                assert!(!no_bye.contains(&id), "seed {seed}: round {round}: player {id} gets a second PAB, or one after a win without playing");
            }
            if let Some(opponent) = entry.opponent {
                let back = t.player(opponent).unwrap().round(round).unwrap();
                assert_eq!(
                    back.opponent,
                    Some(id),
                    "seed {seed}: round {round}: {id} and {opponent}"
                );
                if entry.is_played() && id < opponent {
                    assert!(
                        met.insert((id, opponent)),
                        "seed {seed}: round {round}: {id} meets {opponent} again"
                    );
                }
            }
        }
        assert!(byes <= 1, "seed {seed}: round {round}: {byes} PABs");
        for id in t.player_ids() {
            let entry = *t.player(id).unwrap().round(round).unwrap();
            let won_without_playing =
                !entry.is_played() && t.scoring.points(entry.result) >= t.scoring.win;
            if entry.result == ResultCode::PairingAllocatedBye || won_without_playing {
                no_bye.insert(id);
            }
        }
        // Colours: a difference beyond ±2 or three in a row only for a topscorer (or his
        // opponent) in the last round.
        let last = round == rounds;
        let threshold = (round - 1) * t.scoring.win.tenths() / 2;
        for id in t.player_ids() {
            let player = t.player(id).unwrap();
            let colours: Vec<Color> = player
                .rounds
                .iter()
                .take(round as usize)
                .filter(|e| e.is_played())
                .filter_map(|e| e.colour)
                .collect();
            let difference: i32 =
                colours.iter().map(|&c| if c == Color::White { 1 } else { -1 }).sum();
            let three =
                colours.windows(3).next_back().is_some_and(|w| w[0] == w[1] && w[1] == w[2]);
            let entry = player.round(round).unwrap();
            if (difference.abs() > 2 || three) && entry.is_played() {
                let top = |p: PlayerId| t.score_after(p, round - 1).tenths() > threshold;
                let excused = topscorers && last && (top(id) || entry.opponent.is_some_and(top));
                assert!(excused, "seed {seed}: round {round}: player {id} colours {colours:?}");
            }
        }
    }
}

/// Generates a tournament for each seed, paired by `pair`, and asserts that it keeps the rules
/// and that `check` re-pairs every round the same.
pub fn run(
    seeds: std::ops::Range<u64>,
    pair: Pair,
    check: fn(&Tournament) -> Vec<RoundCheck>,
    topscorers: bool,
) {
    let mut checked = 0;
    let mut impossible = 0;
    for seed in seeds {
        let config = config(seed);
        let t = match generate(&config, seed, pair) {
            Ok(t) => t,
            // Few players and many rounds: a round no pairing can make (1.9.3) ends it.
            Err(GenerateError::Pairing { error: PairError::NoPairing(_), .. }) => {
                impossible += 1;
                continue;
            }
            Err(e) => panic!("seed {seed}: {e}\n{config}"),
        };
        assert_sound(&t, seed, topscorers);
        for check in check(&t) {
            assert!(
                check.agrees(),
                "seed {seed}: round {} re-pairs differently\n{config}",
                check.round
            );
        }
        checked += 1;
    }
    println!("{checked} tournaments checked, {impossible} stopped at a round no pairing can make");
    assert!(checked > impossible * 10);
}
