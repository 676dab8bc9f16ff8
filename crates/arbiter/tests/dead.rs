//! Dead positions and unwinnability (RULES.md §6.2, §5): the textbook suite in
//! `tests/data/dead_positions.txt`, a differential test against `chasolver` (M. Ambrona's
//! reference implementation of "A Practical Algorithm for Chess Unwinnability", FUN 2022) on
//! positions from random but plausible games, and an independent brute-force check of every
//! "unwinnable" verdict on the textbook suite.

#[path = "dead/support.rs"]
mod support;

use support::{cases, Case};

use std::collections::HashSet;
use std::str::FromStr;

use rookery_arbiter::dead::{analyse, is_dead_with, Analysis, Method};
use rookery_arbiter::{can_ever_mate, is_dead, winnability, Budget, Winnability};
use rookery_core::{Color, Position};

fn color(name: &str) -> Color {
    match name {
        "white" => Color::White,
        "black" => Color::Black,
        other => panic!("unknown side {other:?}"),
    }
}

/// Replays a helpmate and checks that it ends with `winner` giving checkmate.
fn replays_to_mate(pos: &Position, winner: Color, a: &Analysis) -> Result<(), String> {
    let mut p = *pos;
    for &m in &a.helpmate {
        p = p.play(m).map_err(|_| format!("illegal move {m} in the helpmate"))?;
    }
    if p.is_checkmate() && p.turn() != winner {
        Ok(())
    } else {
        Err(format!("helpmate {:?} does not end in mate by {winner:?}", a.helpmate))
    }
}

/// The textbook suite, table-driven: every failure names its line, FEN and source.
#[test]
fn textbook_positions() {
    let cases = cases();
    let dead = cases.iter().filter(|c| c.label == "dead").count();
    let alive = cases.iter().filter(|c| c.label.starts_with("winnable")).count();
    assert!(dead >= 30, "the suite needs at least 30 dead positions, has {dead}");
    assert!(alive >= 30, "the suite needs at least 30 winnable look-alikes, has {alive}");
    let mut failures = Vec::new();
    let (mut helpmates, mut undetermined) = (0, Vec::new());
    for c in &cases {
        let pos = c.position();
        let mut fail = |what: String| {
            failures
                .push(format!("line {}: {} ; {} ; {}: {what}", c.line, c.fen, c.label, c.source))
        };
        let (kind, side) = match c.label.split_once(':') {
            Some((k, s)) => (k, Some(color(s))),
            None => (c.label.as_str(), None),
        };
        match (kind, side) {
            ("dead", None) => {
                if !is_dead(&pos) {
                    fail("is_dead (per-move budget) says not dead".into());
                }
                for side in Color::ALL {
                    let a = analyse(&pos, side, &Budget::TIMEOUT);
                    if a.winnability != Winnability::Unwinnable {
                        fail(format!("{side:?}: {:?} by {:?}", a.winnability, a.method));
                    }
                    if can_ever_mate(&pos, side) {
                        fail(format!("can_ever_mate({side:?}) is true"));
                    }
                }
            }
            ("winnable", None) => {
                if is_dead(&pos) || is_dead_with(&pos, &Budget::TIMEOUT) {
                    fail("called dead".into());
                }
            }
            ("winnable", Some(side)) => {
                // Must never be called unwinnable; a helpmate found must replay to mate.
                let a = analyse(&pos, side, &Budget::TIMEOUT);
                match a.winnability {
                    Winnability::Unwinnable => {
                        fail(format!("{side:?}: unwinnable by {:?}", a.method))
                    }
                    Winnability::Winnable => {
                        helpmates += 1;
                        if let Err(e) = replays_to_mate(&pos, side, &a) {
                            fail(e);
                        }
                    }
                    Winnability::Undetermined => undetermined.push(c.line),
                }
                if is_dead(&pos) || !can_ever_mate(&pos, side) {
                    fail("called dead or unwinnable".into());
                }
            }
            ("unwinnable", Some(side)) => {
                if winnability(&pos, side, &Budget::TIMEOUT) != Winnability::Unwinnable {
                    fail(format!("{side:?} not proven unwinnable"));
                }
                if can_ever_mate(&pos, side) {
                    fail(format!("can_ever_mate({side:?}) is true"));
                }
            }
            _ => fail("unknown label".into()),
        }
    }
    eprintln!("helpmates found: {helpmates}; undetermined (not required): lines {undetermined:?}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// A helpmate search that shares no code with the analysis: plain depth-first search over
/// every legal move, with a set of (position, depth) already refuted.
fn brute_force_mate(
    pos: &Position,
    winner: Color,
    depth: u32,
    seen: &mut HashSet<(u64, u32)>,
) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.is_check() && pos.turn() != winner;
    }
    if depth == 0 || !seen.insert((pos.zobrist(), depth)) {
        return false;
    }
    moves.iter().any(|&m| {
        let mut child = *pos;
        child.play_unchecked(m);
        brute_force_mate(&child, winner, depth - 1, seen)
    })
}

/// Every "unwinnable" verdict on the suite survives an independent exhaustive search four
/// plies deep, and every "winnable" one comes with a helpmate that replays to mate.
#[test]
fn verdicts_survive_brute_force() {
    for c in cases() {
        let pos = c.position();
        for side in Color::ALL {
            let a = analyse(&pos, side, &Budget::TIMEOUT);
            match a.winnability {
                Winnability::Unwinnable => assert!(
                    !brute_force_mate(&pos, side, 4, &mut HashSet::new()),
                    "line {}: {} called unwinnable for {side:?}, but a short mate exists",
                    c.line,
                    c.fen
                ),
                Winnability::Winnable => {
                    if let Err(e) = replays_to_mate(&pos, side, &a) {
                        panic!("line {}: {}: {e}", c.line, c.fen);
                    }
                }
                Winnability::Undetermined => {}
            }
        }
    }
}

fn chasolver_verdict(pos: &Position, side: Color) -> Option<Option<bool>> {
    let board = chess::Board::from_str(&pos.to_fen()).ok()?;
    let side = match side {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    Some(match chasolver::winnability(&board, side) {
        Some(chasolver::Winnability::Winnable { .. }) => Some(true),
        Some(chasolver::Winnability::Unwinnable) => Some(false),
        None => None,
    })
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    skipped: usize,
    /// Sides chasolver proves unwinnable / finds a mate for.
    reference_unwinnable: usize,
    reference_winnable: usize,
    /// Our verdicts (analysis with 5,000 nodes, then `can_ever_mate`).
    helpmates: usize,
    unwinnable: usize,
    undetermined: usize,
    /// Positions dead for chasolver, and for `is_dead` with the per-move budget.
    reference_dead: usize,
    dead_per_move: usize,
    reference_time: std::time::Duration,
    our_time: std::time::Duration,
}

/// The differential test on a few hundred positions, so that `cargo test` stays quick (the
/// analysis runs unoptimised there). The deep run below is the real check.
#[test]
fn agrees_with_chasolver() {
    differential(12);
}

/// The differential test on about 5,000 positions of 240 games plus the suite. Optimise the
/// crates involved, as the workspace does for the rules core:
/// `cargo test -p rookery-arbiter --test dead --config 'profile.dev.package.rookery-arbiter.opt-level=3'
/// --config 'profile.dev.package.chess.opt-level=3' --config 'profile.dev.package.chasolver.opt-level=3'
/// -- --ignored agrees_with_chasolver_deep --nocapture` (about a minute).
#[test]
#[ignore = "deep run: thousands of positions, best with optimised crates (see the doc comment)"]
fn agrees_with_chasolver_deep() {
    let t = differential(240);
    assert!(t.positions >= 5_000, "too few positions: {t:?}");
}

/// Never calls dead what chasolver proves winnable, and proves at least every unwinnable
/// verdict of chasolver's full check, on positions of `games` random games plus the suite.
fn differential(games: usize) -> Tally {
    let mut positions = support::positions(0x5eed_dead, games, 220, 9);
    positions.extend(cases().iter().map(Case::position));
    let mut t = Tally::default();
    let mut failures = Vec::new();
    for pos in &positions {
        let fen = pos.to_fen();
        let clock = std::time::Instant::now();
        let reference: Option<Vec<Option<bool>>> =
            Color::ALL.into_iter().map(|side| chasolver_verdict(pos, side)).collect();
        t.reference_time += clock.elapsed();
        let Some(reference) = reference else {
            t.skipped += 1;
            continue;
        };
        t.positions += 1;
        let clock = std::time::Instant::now();
        for side in Color::ALL {
            let theirs = reference[side.index()];
            match theirs {
                Some(true) => t.reference_winnable += 1,
                Some(false) => t.reference_unwinnable += 1,
                None => {}
            }
            let a = analyse(pos, side, &Budget::nodes(5_000));
            let unwinnable = match a.winnability {
                Winnability::Winnable => {
                    t.helpmates += 1;
                    if let Err(e) = replays_to_mate(pos, side, &a) {
                        failures.push(format!("{fen}: {side:?}: {e}"));
                    }
                    if !can_ever_mate(pos, side) {
                        failures
                            .push(format!("{fen}: {side:?}: helpmate found, can_ever_mate false"));
                    }
                    false
                }
                Winnability::Unwinnable => true,
                Winnability::Undetermined => !can_ever_mate(pos, side),
            };
            if unwinnable {
                t.unwinnable += 1;
                if theirs == Some(true) {
                    failures.push(format!(
                        "{fen}: {side:?} UNSOUND: we prove unwinnable ({:?}), chasolver mates",
                        a.method
                    ));
                }
            } else if a.winnability == Winnability::Undetermined {
                t.undetermined += 1;
            }
            if theirs == Some(false) && !unwinnable {
                failures.push(format!("{fen}: {side:?}: chasolver proves unwinnable, we do not"));
            }
            if a.winnability == Winnability::Winnable && theirs == Some(false) {
                failures.push(format!("{fen}: {side:?}: our helpmate contradicts chasolver"));
            }
        }
        if is_dead(pos) {
            t.dead_per_move += 1;
            if reference.contains(&Some(true)) {
                failures.push(format!("{fen}: UNSOUND: is_dead, but chasolver mates"));
            }
        }
        if reference == [Some(false), Some(false)] {
            t.reference_dead += 1;
            if !is_dead_with(pos, &Budget::TIMEOUT) {
                failures
                    .push(format!("{fen}: chasolver proves dead, is_dead_with(TIMEOUT) does not"));
            }
        }
        t.our_time += clock.elapsed();
    }
    eprintln!("chasolver differential: {t:#?}");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    t
}

/// The community test vectors of chasolver (3,400 positions, `tests/positions.txt` of the
/// crate, or D3-Chess `tests/test-vector.txt`): run with
/// `ROOKERY_UNWINNABILITY_VECTORS=path cargo test -p rookery-arbiter --test dead -- --ignored
/// community_vectors --nocapture` (optimised as for `agrees_with_chasolver_deep`);
/// `ROOKERY_DEAD_NODES` sets the node budget (default 20,000). Fails on any unsound verdict;
/// reports the unwinnable sides and dead positions it does not prove.
#[test]
#[ignore = "needs a path to chasolver's test vectors in ROOKERY_UNWINNABILITY_VECTORS"]
fn community_vectors() {
    let path = std::env::var("ROOKERY_UNWINNABILITY_VECTORS").expect("set the path");
    let text = std::fs::read_to_string(&path).expect("readable vectors");
    let budget =
        std::env::var("ROOKERY_DEAD_NODES").map_or(20_000, |s| s.parse().expect("a number"));
    let mut failures = Vec::new();
    let (mut total, mut unwinnable, mut proven, mut dead, mut dead_found) = (0, 0, 0, 0, 0);
    for (i, line) in text.lines().enumerate() {
        let Some((label, fen)) = line.split_once(' ') else { continue };
        if line.starts_with('#') || label.len() != 2 {
            continue;
        }
        let Ok(pos) = Position::from_fen(fen) else { continue };
        total += 1;
        for (side, mark) in [(Color::White, 'W'), (Color::Black, 'B')] {
            let winnable = label.contains(mark);
            let a = analyse(&pos, side, &Budget::nodes(budget));
            if a.winnability == Winnability::Winnable {
                if let Err(e) = replays_to_mate(&pos, side, &a) {
                    failures.push(format!("line {}: {fen}: {side:?}: {e}", i + 1));
                }
            }
            let ours = a.winnability == Winnability::Unwinnable;
            if winnable && ours {
                failures.push(format!("line {}: {fen}: {side:?} UNSOUND ({:?})", i + 1, a.method));
            }
            if !winnable {
                unwinnable += 1;
                if ours {
                    proven += 1;
                } else {
                    eprintln!("line {}: {fen}: {side:?} unwinnable, not proven", i + 1);
                }
            }
        }
        if label == "--" {
            dead += 1;
            if is_dead(&pos) {
                dead_found += 1;
            } else {
                eprintln!("line {}: {fen}: dead, is_dead (per move) misses it", i + 1);
            }
        }
    }
    eprintln!(
        "{total} positions; unwinnable sides proven {proven}/{unwinnable}; dead found per move {dead_found}/{dead}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The initial position: a helpmate (a fool's mate) turns up in the quick search.
#[test]
fn initial_position_is_winnable_at_once() {
    let start = Position::new();
    for side in Color::ALL {
        let a = analyse(&start, side, &Budget::PER_MOVE);
        assert_eq!(a.winnability, Winnability::Winnable, "{side:?}");
        assert_eq!(a.method, Method::Search);
        replays_to_mate(&start, side, &a).unwrap();
    }
    assert!(!is_dead(&start));
}
