//! Judging a game's moves by the engine's evaluations, as lichess does: evaluations become
//! win percentages, a move's loss of winning chances makes it an inaccuracy, a mistake or a
//! blunder, and a player's accuracy is a mean of per-move accuracies weighted by how
//! volatile the game was around each move.
//!
//! The formulas are lichess's, written again here from their description in its sources
//! (lichess-org/lila and lichess-org/scalachess, AGPL; nothing copied):
//! - `WinPercent` (lila `modules/analyse/src/main/WinPercent.scala`, scalachess `eval.scala`):
//!   winning chances `2 / (1 + exp(-0.00368208 · cp)) - 1` in [-1, 1] (the multiplier from
//!   lila PR #11148), win % `50 + 50 · chances` of the centipawns clamped to ±1000
//!   (`Cp.CEILING`); a mate counts as the ceiling of its winner.
//! - `AccuracyPercent.fromWinPercents` (lila `modules/analyse/src/main/AccuracyPercent.scala`):
//!   100 if the mover's win % did not drop, else `103.1668100711649 · exp(-0.04354415386753951
//!   · drop) - 3.166924740191411 + 1` (the `+ 1` is lichess's "uncertainty bonus"), within
//!   0..=100.
//! - `AccuracyPercent.gameAccuracy`: a window of `moves / 10` positions (2 to 8) slides over
//!   the win percentages; each move is weighted by the standard deviation of its window
//!   (0.5 to 12); a player's accuracy is the mean of the weighted mean and the harmonic mean
//!   (each value at least 1, scalalib `Maths.harmonicMean`) of their moves' accuracies.
//! - `Advice` (lila `modules/tree/src/main/Advice.scala`): from two centipawn evaluations,
//!   a loss of winning chances of at least 0.3 is a blunder, 0.2 a mistake, 0.1 an
//!   inaccuracy (15, 10 and 5 points of win %); with mates, allowing a forced mate is a
//!   blunder (a mistake if the mover was already 7 pawns down, an inaccuracy past 9.99), and
//!   so is losing one's own forced mate (with the same grades by what is left).

use rookery_core::{ByColor, Color};

/// An evaluation of a position, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// A forced mate: `moves` moves away (0: the side to move is checkmated), for `winner`.
    Mate {
        /// Moves to mate; 0 on the board.
        moves: u32,
        /// Who mates.
        winner: Color,
    },
}

/// Centipawns beyond this count as this much (lichess's `Cp.CEILING`).
const CEILING: i32 = 1000;

impl Eval {
    /// White's centipawns, a mate counted as the ceiling (lichess's `forceAsCp`, then
    /// `ceiled`).
    fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CEILING, CEILING),
            Eval::Mate { winner: Color::White, .. } => CEILING,
            Eval::Mate { winner: Color::Black, .. } => -CEILING,
        }
    }

    /// The mate in moves from White's point of view (negative when Black mates), for the
    /// record; `None` for centipawns.
    pub fn signed_mate(self) -> Option<i32> {
        match self {
            Eval::Cp(_) => None,
            Eval::Mate { moves, winner } => {
                let moves = moves as i32;
                Some(if winner == Color::White { moves } else { -moves })
            }
        }
    }

    /// White's win percentage, 0 to 100.
    pub fn white_win_percent(self) -> f64 {
        50.0 + 50.0 * winning_chances(self.ceiled_cp())
    }
}

/// Winning chances of centipawns, in [-1, 1].
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// A move's accuracy, 0 to 100, from the mover's win percentages before and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    (103.166_810_071_164_9 * (-0.043_544_153_869_537_51 * drop).exp() - 3.166_924_740_191_411 + 1.0)
        .clamp(0.0, 100.0)
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!`.
    Inaccuracy,
    /// `?`.
    Mistake,
    /// `??`.
    Blunder,
}

impl Judgement {
    /// `inaccuracy`, `mistake` or `blunder`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The move-assessment glyph: `?!`, `?` or `??`.
    pub const fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// The judgement of `mover`'s move from the position evaluated `before` to the one evaluated
/// `after` (both from White's point of view), or `None` for a good enough move.
pub fn judge(before: Eval, after: Eval, mover: Color) -> Option<Judgement> {
    // The mover's point of view.
    let pov = |cp: i32| if mover == Color::White { cp } else { -cp };
    let mate_pov = |e: Eval| match e {
        Eval::Cp(_) => None,
        Eval::Mate { moves, winner } => Some((winner == mover, moves)),
    };
    match (before, after) {
        (Eval::Cp(b), Eval::Cp(a)) => {
            // Not ceiled: lichess judges on the raw centipawns.
            let loss = winning_chances(pov(b)) - winning_chances(pov(a));
            [(0.3, Judgement::Blunder), (0.2, Judgement::Mistake), (0.1, Judgement::Inaccuracy)]
                .into_iter()
                .find(|&(threshold, _)| loss >= threshold)
                .map(|(_, j)| j)
        }
        _ => {
            let grade = |left: i32| {
                if left > 999 {
                    Judgement::Inaccuracy
                } else if left > 700 {
                    Judgement::Mistake
                } else {
                    Judgement::Blunder
                }
            };
            let cp = |e: Eval| match e {
                Eval::Cp(cp) => pov(cp),
                Eval::Mate { .. } => 0,
            };
            match (mate_pov(before), mate_pov(after)) {
                // A forced mate against the mover where there was none.
                (None, Some((false, _))) => Some(grade(-cp(before))),
                // The mover's own forced mate, gone.
                (Some((true, _)), None) => Some(grade(cp(after))),
                // …and now one against them.
                (Some((true, _)), Some((false, _))) => Some(Judgement::Blunder),
                _ => None,
            }
        }
    }
}

/// Each player's accuracy over a game, 0 to 100, from the evaluations of its positions
/// (`evals[0]` before the first move, then one after each move, White's point of view) when
/// `first` moves first; `None` for a player who made no move.
///
/// Lichess starts from a fixed +0.15 because it does not analyse the starting position; this
/// starts from the evaluation of the real one, which is also right for games set up from a
/// FEN.
pub fn game_accuracy(evals: &[Eval], first: Color) -> ByColor<Option<f64>> {
    let wins: Vec<f64> = evals.iter().map(|e| e.white_win_percent()).collect();
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return ByColor { white: None, black: None };
    }
    let size = (moves / 10).clamp(2, 8).min(wins.len());
    // The first moves get the first window, so that there is one window per move.
    let first_windows = std::iter::repeat_n(&wins[..size], size - 2);
    let weights =
        first_windows.chain(wins.windows(size)).map(|w| standard_deviation(w).clamp(0.5, 12.0));
    let mut by_color: ByColor<Vec<(f64, f64)>> = ByColor::default();
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let mover = if i % 2 == 0 { first } else { !first };
        let (before, after) = match mover {
            Color::White => (pair[0], pair[1]),
            Color::Black => (100.0 - pair[0], 100.0 - pair[1]),
        };
        by_color.get_mut(mover).push((move_accuracy(before, after), weight));
    }
    ByColor::new_with(|color| {
        let moves = by_color.get(color);
        let weighted = weighted_mean(moves)?;
        let harmonic = harmonic_mean(moves.iter().map(|&(a, _)| a))?;
        Some((weighted + harmonic) / 2.0)
    })
}

/// The population standard deviation.
fn standard_deviation(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

fn weighted_mean(xs: &[(f64, f64)]) -> Option<f64> {
    let (sum, weights) = xs.iter().fold((0.0, 0.0), |(s, w), &(x, wx)| (s + x * wx, w + wx));
    (weights != 0.0).then(|| sum / weights)
}

/// The harmonic mean, each value taken as at least 1 (a 0 % move would make it 0).
fn harmonic_mean(xs: impl ExactSizeIterator<Item = f64>) -> Option<f64> {
    let n = xs.len();
    (n > 0).then(|| n as f64 / xs.map(|x| 1.0 / x.max(1.0)).sum::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Color = Color::White;
    const B: Color = Color::Black;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    #[test]
    fn win_percentages() {
        assert!(close(Eval::Cp(0).white_win_percent(), 50.0));
        // Lichess's page on accuracy: +1.00 is about 59 %, −3.00 about 25 %.
        assert!(
            close(Eval::Cp(100).white_win_percent(), 59.10),
            "{}",
            Eval::Cp(100).white_win_percent()
        );
        assert!(close(Eval::Cp(-300).white_win_percent(), 24.88));
        // Past the ceiling everything is the ceiling, and a mate is the ceiling of its winner.
        let top = Eval::Cp(1000).white_win_percent();
        assert!(close(Eval::Cp(5000).white_win_percent(), top));
        assert!(close(Eval::Mate { moves: 3, winner: W }.white_win_percent(), top));
        assert!(close(Eval::Mate { moves: 0, winner: B }.white_win_percent(), 100.0 - top));
        assert_eq!(Eval::Mate { moves: 2, winner: B }.signed_mate(), Some(-2));
    }

    #[test]
    fn move_accuracies() {
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        // No drop is 100; the curve then falls: 103.17·e^(−0.0435·d) − 2.17, down to the
        // uncertainty bonus of 1.
        assert!(close(move_accuracy(60.0, 50.0), 64.58), "{}", move_accuracy(60.0, 50.0));
        assert!(close(move_accuracy(90.0, 10.0), 1.0), "{}", move_accuracy(90.0, 10.0));
    }

    /// Each row: before, after (White's view), mover, the judgement.
    #[test]
    fn judgements() {
        let cp = Eval::Cp;
        let mate = |moves, winner| Eval::Mate { moves, winner };
        let cases = [
            (cp(0), cp(-20), W, None),
            // 0.1, 0.2 and 0.3 of winning chances: about 55, 111 and 172 centipawns from 0.
            (cp(0), cp(-60), W, Some(Judgement::Inaccuracy)),
            (cp(0), cp(-120), W, Some(Judgement::Mistake)),
            (cp(0), cp(-180), W, Some(Judgement::Blunder)),
            // Black's loss is White's gain.
            (cp(0), cp(180), B, Some(Judgement::Blunder)),
            (cp(0), cp(-180), B, None),
            // Far ahead, a pawn matters less.
            (cp(900), cp(750), W, None),
            // A mate allowed…
            (cp(50), mate(3, B), W, Some(Judgement::Blunder)),
            (cp(-800), mate(3, B), W, Some(Judgement::Mistake)),
            (cp(-1200), mate(3, B), W, Some(Judgement::Inaccuracy)),
            // …or lost, or turned round.
            (mate(2, W), cp(300), W, Some(Judgement::Blunder)),
            (mate(2, W), cp(1500), W, Some(Judgement::Inaccuracy)),
            (mate(2, B), cp(-300), B, Some(Judgement::Blunder)),
            (mate(2, W), mate(1, B), W, Some(Judgement::Blunder)),
            // Mating on the board, or a slower mate, is no mistake.
            (mate(1, W), mate(0, W), W, None),
            (mate(2, W), mate(4, W), W, None),
            (mate(3, B), mate(2, B), W, None),
        ];
        for (before, after, mover, expected) in cases {
            assert_eq!(judge(before, after, mover), expected, "{before:?} → {after:?} by {mover}");
        }
    }

    #[test]
    fn accuracy_of_a_game() {
        // Nobody moved.
        assert_eq!(game_accuracy(&[Eval::Cp(20)], W), ByColor { white: None, black: None });
        // White plays well; Black throws a piece away with the first move.
        let evals = [20, 25, 330, 325, 330, 325].map(Eval::Cp);
        let acc = game_accuracy(&evals, W);
        let (white, black) = (acc.white.unwrap(), acc.black.unwrap());
        assert!(white > 95.0, "{white}");
        assert!(black < 60.0 && black > 20.0, "{black}");
        // The same game seen from a position where Black moves first: the roles swap.
        let mirrored = evals.map(|e| Eval::Cp(-e.ceiled_cp()));
        let acc = game_accuracy(&mirrored, B);
        assert!(close(acc.black.unwrap(), white) && close(acc.white.unwrap(), black));
    }
}
