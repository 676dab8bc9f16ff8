//! Test material shared by `tests/dead.rs` and `benches/dead.rs` (which include this file):
//! the textbook suite of `tests/data/dead_positions.txt`, and random but plausible games from
//! the initial position. Deterministic: a seed gives the same positions on every machine.
//!
//! Two styles of game alternate. *Open* games prefer captures (the most valuable victim first), so they
//! run into endgames and bare kings. *Closed* games prefer quiet pawn steps and avoid captures,
//! so they run into locked pawn chains: the positions where dead-position analysis is hard.

#![allow(dead_code)] // each includer uses part of it

use rookery_core::{MoveKind, Position, Role};

/// The textbook suite, `tests/data/dead_positions.txt`.
pub const DATA: &str = include_str!("../data/dead_positions.txt");

/// One line of the data file: `<FEN> ; <label> ; <source>`.
pub struct Case {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// `dead`, `winnable`, `winnable:<side>` or `unwinnable:<side>`.
    pub label: String,
    /// Where the position comes from.
    pub source: String,
}

impl Case {
    /// The position of the line (panics, naming the line, on a bad FEN).
    pub fn position(&self) -> Position {
        Position::from_fen(&self.fen)
            .unwrap_or_else(|e| panic!("line {}: bad FEN {:?}: {e}", self.line, self.fen))
    }
}

/// Every position line of the suite.
pub fn cases() -> Vec<Case> {
    DATA.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let parts: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "line {}: expected `<FEN> ; <label> ; <source>`", i + 1);
            assert!(!parts[2].is_empty(), "line {}: every position cites its source", i + 1);
            Case {
                line: i + 1,
                fen: parts[0].to_owned(),
                label: parts[1].to_owned(),
                source: parts[2].to_owned(),
            }
        })
        .collect()
}

/// xorshift64* (Vigna), enough for choosing moves.
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn value(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Plays `games` games of at most `max_plies` plies and returns every `keep_every`-th position
/// of each (the final one included), alternating open and closed games.
pub fn positions(seed: u64, games: usize, max_plies: usize, keep_every: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let closed = game % 2 == 1;
        let mut pos = Position::new();
        for ply in 0..max_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                out.push(pos);
                break;
            }
            let pick = |f: &dyn Fn(&rookery_core::Move) -> bool| -> Vec<rookery_core::Move> {
                moves.iter().copied().filter(|m| f(m)).collect()
            };
            let captures = pick(&|m| pos.is_capture(*m));
            let quiet = pick(&|m| !pos.is_capture(*m));
            let pawn_steps =
                pick(&|m| !pos.is_capture(*m) && pos.board().role_at(m.from()) == Some(Role::Pawn));
            let roll = rng.below(100);
            let candidates = if closed {
                if !pawn_steps.is_empty() && roll < 55 {
                    pawn_steps
                } else if !quiet.is_empty() && roll < 92 {
                    quiet
                } else {
                    moves.to_vec()
                }
            } else if !captures.is_empty() && roll < 65 {
                let best = captures
                    .iter()
                    .map(|&m| pos.captured_role(m).map_or(0, value))
                    .max()
                    .unwrap_or(0);
                captures
                    .into_iter()
                    .filter(|&m| pos.captured_role(m).map_or(0, value) == best)
                    .collect()
            } else {
                moves.to_vec()
            };
            let mut m = candidates[rng.below(candidates.len())];
            if let MoveKind::Promotion(role) = m.kind() {
                // Mostly queens, as in real games; underpromotions now and then.
                if role != Role::Queen && rng.below(10) != 0 {
                    m = rookery_core::Move::promotion(m.from(), m.to(), Role::Queen);
                }
            }
            pos.play_unchecked(m);
            if ply % keep_every == keep_every - 1 {
                out.push(pos);
            }
        }
    }
    out
}
