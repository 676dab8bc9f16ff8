//! Levels for people: a weaker engine that errs the way people do.
//!
//! A level limits the search (depth and nodes) and then, instead of the best move, plays a
//! move chosen by a seeded random generator among the moves whose scores lie within a margin
//! of the best, nearer moves more likely (as Stockfish's `Skill` does, with its own weights).
//! Scores come from a multi-PV search, so a candidate is a move the engine itself judged
//! playable at that depth: a move that drops the queen loses far more than any margin and is
//! never chosen.

use core::fmt;

use rookery_core::Move;

use crate::score::MATE_IN_MAX_PLY;
use crate::thread::RootMove;

/// A playing level from 1 (beginner) to 8 (expert). Full strength is no level at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// Per level: depth, node budget, margin in centipawns, candidate lines. Level 1 is the
/// beginner's: with the 2,000 nodes, margin of 300 and six lines it had, it stood only about
/// 50 Elo below level 2 with three of the last four networks; now it stands about 250 below
/// (BENCHMARKS.md, "Levels").
const LEVELS: [(u32, u64, i32, usize); 8] = [
    (1, 1_000, 400, 8),
    (2, 6_000, 220, 6),
    (3, 20_000, 160, 5),
    (4, 60_000, 110, 5),
    (6, 200_000, 70, 4),
    (8, 600_000, 40, 4),
    (10, 2_000_000, 20, 3),
    (14, 8_000_000, 8, 2),
];

/// The weakest and strongest `UCI_Elo` the levels stand for.
pub const ELO_RANGE: (u32, u32) = (800, 2400);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(8);

    /// Level `n`, for `n` from 1 to 8.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 8 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level's number, 1 to 8.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The level for a UCI `Skill Level` from 0 to 20: 20 is full strength (`None`), 0 to 19
    /// spread over levels 1 to 8.
    pub fn from_skill(skill: u32) -> Option<Level> {
        (skill < 20).then(|| Level(1 + (skill * 8 / 20) as u8))
    }

    /// The level for a `UCI_Elo` rating, [`ELO_RANGE`] spread evenly over the eight levels.
    pub fn from_elo(elo: u32) -> Level {
        let (low, high) = ELO_RANGE;
        let step = (high - low) / 7;
        let n = (elo.clamp(low, high) - low + step / 2) / step;
        Level(1 + n.min(7) as u8)
    }

    /// The deepest iteration searched.
    pub(crate) fn depth(self) -> u32 {
        LEVELS[self.0 as usize - 1].0
    }

    /// The node budget.
    pub(crate) fn nodes(self) -> u64 {
        LEVELS[self.0 as usize - 1].1
    }

    /// How far below the best a candidate may score.
    pub(crate) fn margin(self) -> i32 {
        LEVELS[self.0 as usize - 1].2
    }

    /// The lines searched for candidates.
    pub(crate) fn candidates(self) -> usize {
        LEVELS[self.0 as usize - 1].3
    }

    /// Picks a move among the searched root moves (best first): within the margin of the
    /// best, weighted by closeness to it, by the generator seeded with `seed`.
    pub(crate) fn pick(self, root_moves: &[RootMove], seed: u64) -> Option<Move> {
        let lines = &root_moves[..root_moves.len().min(self.candidates())];
        let best = lines.first()?.score;
        let margin = self.margin();
        let weights: Vec<u64> = lines
            .iter()
            .map(|rm| {
                let loss = best - rm.score;
                let losing_mate = rm.score <= -MATE_IN_MAX_PLY && best > -MATE_IN_MAX_PLY;
                if loss > margin || losing_mate {
                    0
                } else {
                    // Linear in closeness: the best move is (margin + 1) times as likely as
                    // one at the edge of the margin.
                    (margin - loss + margin / 4 + 1) as u64
                }
            })
            .collect();
        let total: u64 = weights.iter().sum();
        if total == 0 {
            return Some(lines[0].mv);
        }
        let mut ticket = splitmix64(seed) % total;
        for (rm, weight) in lines.iter().zip(weights) {
            if ticket < weight {
                return Some(rm.mv);
            }
            ticket -= weight;
        }
        Some(lines[0].mv)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): one good 64-bit mix of a seed.
pub(crate) fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Bound;
    use rookery_core::Square;

    fn rm(mv: Move, score: i32) -> RootMove {
        RootMove {
            mv,
            score,
            previous_score: score,
            bound: Bound::Exact,
            seldepth: 1,
            pv: vec![mv],
        }
    }

    #[test]
    fn maps_skill_and_elo() {
        assert_eq!(Level::from_skill(20), None);
        assert_eq!(Level::from_skill(0), Level::new(1));
        assert_eq!(Level::from_skill(19), Level::new(8));
        assert_eq!(Level::from_elo(0), Level::MIN);
        assert_eq!(Level::from_elo(800), Level::MIN);
        assert_eq!(Level::from_elo(2400), Level::MAX);
        assert_eq!(Level::from_elo(9999), Level::MAX);
        let levels: Vec<u8> = (800..=2400).step_by(100).map(|e| Level::from_elo(e).get()).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(9), None);
    }

    #[test]
    fn picks_within_the_margin_only() {
        let a = Move::normal(Square::E2, Square::E4);
        let b = Move::normal(Square::D2, Square::D4);
        let blunder = Move::normal(Square::D1, Square::H5);
        let lines = [rm(a, 50), rm(b, 20), rm(blunder, -850)];
        let level = Level::MIN;
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200 {
            let m = level.pick(&lines, seed).unwrap();
            assert_ne!(m, blunder);
            seen.insert(m);
        }
        assert_eq!(seen.len(), 2, "both playable moves are chosen sometimes");
        // The strongest level keeps to the best move here.
        for seed in 0..50 {
            assert_eq!(Level::MAX.pick(&lines, seed), Some(a));
        }
    }
}
