//! Ending games early on the engines' own scores, as cutechess-cli's `-resign` (with
//! `twosided=true`) and `-draw` do: both engines must agree, move after move.

use core::fmt;
use core::str::FromStr;

use rookery_arbiter::{GameResult, Outcome, Termination};
use rookery_core::{ByColor, Color};
use rookery_uci::ScoreValue;

/// Resign adjudication: a side loses once, for `moves` consecutive moves of each engine, its
/// own score was at most `-cp` and its opponent's at least `cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of each side.
    pub moves: u32,
    /// The score threshold, in centipawns.
    pub cp: i32,
}

/// Draw adjudication: from full move `move_number` on, a game is drawn once, for `moves`
/// consecutive moves of each engine, both scores lay within `cp` of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move at which the rule may apply.
    pub move_number: u32,
    /// Consecutive moves of each side.
    pub moves: u32,
    /// The score threshold, in centipawns.
    pub cp: i32,
}

/// Text that is not a rule: `moves,cp` or `movenumber,moves,cp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleError(pub String);

impl fmt::Display for ParseRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.0)
    }
}

impl std::error::Error for ParseRuleError {}

fn numbers<const N: usize>(text: &str, form: &str) -> Result<[i64; N], ParseRuleError> {
    let error = || ParseRuleError(format!("{form} (whole numbers), found {text:?}"));
    let parts: Vec<i64> =
        text.split(',').map(|p| p.trim().parse().map_err(|_| error())).collect::<Result<_, _>>()?;
    let parts: [i64; N] = parts.try_into().map_err(|_| error())?;
    if parts.iter().any(|&n| !(0..=100_000).contains(&n)) {
        return Err(error());
    }
    Ok(parts)
}

impl FromStr for ResignRule {
    type Err = ParseRuleError;

    /// Reads `moves,cp`, such as `3,600`.
    fn from_str(text: &str) -> Result<ResignRule, ParseRuleError> {
        let [moves, cp] = numbers(text, "moves,cp")?;
        Ok(ResignRule { moves: moves.max(1) as u32, cp: cp as i32 })
    }
}

impl FromStr for DrawRule {
    type Err = ParseRuleError;

    /// Reads `movenumber,moves,cp`, such as `40,8,10`.
    fn from_str(text: &str) -> Result<DrawRule, ParseRuleError> {
        let [move_number, moves, cp] = numbers(text, "movenumber,moves,cp")?;
        Ok(DrawRule { move_number: move_number as u32, moves: moves.max(1) as u32, cp: cp as i32 })
    }
}

/// A score for comparisons: mates are beyond any centipawn value.
fn centipawns(score: ScoreValue) -> i32 {
    match score {
        ScoreValue::Centipawns(cp) => cp,
        ScoreValue::Mate(n) if n > 0 => 100_000 - n,
        ScoreValue::Mate(n) => -100_000 - n,
    }
}

/// What the adjudicator decides after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side loses.
    Resign(Color),
    /// The game is drawn.
    Draw,
}

impl Verdict {
    /// The game's outcome: the result, and the termination that says it was adjudicated
    /// ([`Termination::ResignAdjudication`], [`Termination::DrawAdjudication`]), which the
    /// PGN writes as `[Termination "adjudication"]` with Rookery's label in its own tag.
    pub fn outcome(self) -> Outcome {
        match self {
            Verdict::Resign(loser) => Outcome {
                result: GameResult::Win(!loser),
                termination: Termination::ResignAdjudication,
            },
            Verdict::Draw => {
                Outcome { result: GameResult::Draw, termination: Termination::DrawAdjudication }
            }
        }
    }
}

/// Follows one game's scores and applies the rules.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    /// Per side: consecutive own moves at or below `-cp`, at or above `cp`, and within `cp`.
    losing: ByColor<u32>,
    winning: ByColor<u32>,
    drawish: ByColor<u32>,
}

impl Adjudicator {
    /// An adjudicator for one game; with neither rule it never decides.
    pub fn new(resign: Option<ResignRule>, draw: Option<DrawRule>) -> Adjudicator {
        Adjudicator { resign, draw, ..Adjudicator::default() }
    }

    /// Records the score `mover` reported with its move (from its own side; `None` if it
    /// reported none, which breaks its streaks), made at full move `fullmove`.
    pub fn record(
        &mut self,
        mover: Color,
        score: Option<ScoreValue>,
        fullmove: u32,
    ) -> Option<Verdict> {
        let cp = score.map(centipawns);
        let bump = |count: &mut u32, yes: bool| *count = if yes { *count + 1 } else { 0 };
        if let Some(rule) = self.resign {
            bump(&mut self.losing[mover], cp.is_some_and(|cp| cp <= -rule.cp));
            bump(&mut self.winning[mover], cp.is_some_and(|cp| cp >= rule.cp));
            let other = !mover;
            for loser in [mover, other] {
                if self.losing[loser] >= rule.moves && self.winning[!loser] >= rule.moves {
                    return Some(Verdict::Resign(loser));
                }
            }
        }
        if let Some(rule) = self.draw {
            bump(&mut self.drawish[mover], cp.is_some_and(|cp| cp.abs() <= rule.cp));
            if fullmove >= rule.move_number
                && self.drawish.white >= rule.moves
                && self.drawish.black >= rule.moves
            {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Color = Color::White;
    const BLACK: Color = Color::Black;

    fn cp(n: i32) -> Option<ScoreValue> {
        Some(ScoreValue::Centipawns(n))
    }

    #[test]
    fn parses_rules() {
        assert_eq!("3,600".parse(), Ok(ResignRule { moves: 3, cp: 600 }));
        assert_eq!("40, 8, 10".parse(), Ok(DrawRule { move_number: 40, moves: 8, cp: 10 }));
        assert!("3".parse::<ResignRule>().is_err());
        assert!("3,600,1".parse::<ResignRule>().is_err());
        assert!("a,b,c".parse::<DrawRule>().is_err());
        assert!("1,-5".parse::<ResignRule>().is_err());
    }

    #[test]
    fn resign_needs_both_engines_for_enough_moves() {
        let mut a = Adjudicator::new(Some(ResignRule { moves: 2, cp: 500 }), None);
        assert_eq!(a.record(WHITE, cp(600), 10), None);
        assert_eq!(a.record(BLACK, cp(-650), 10), None);
        assert_eq!(a.record(WHITE, cp(700), 11), None);
        // Black's own score agrees for the second time: Black loses.
        assert_eq!(a.record(BLACK, cp(-700), 11), Some(Verdict::Resign(BLACK)));
        // One engine disagreeing resets the count.
        let mut a = Adjudicator::new(Some(ResignRule { moves: 2, cp: 500 }), None);
        for (side, score) in [(WHITE, 600), (BLACK, -600), (WHITE, 600), (BLACK, -100)] {
            assert_eq!(a.record(side, cp(score), 10), None);
        }
        // Mate scores count beyond any threshold.
        assert_eq!(a.record(WHITE, Some(ScoreValue::Mate(3)), 12), None);
        assert_eq!(a.record(BLACK, Some(ScoreValue::Mate(-2)), 12), None);
        assert_eq!(a.record(WHITE, Some(ScoreValue::Mate(2)), 13), None);
        assert_eq!(a.record(BLACK, Some(ScoreValue::Mate(-1)), 13), Some(Verdict::Resign(BLACK)));
    }

    #[test]
    fn draw_waits_for_the_move_number() {
        let mut a = Adjudicator::new(None, Some(DrawRule { move_number: 30, moves: 2, cp: 10 }));
        for fullmove in 20..30 {
            assert_eq!(a.record(WHITE, cp(5), fullmove), None);
            assert_eq!(a.record(BLACK, cp(-3), fullmove), None);
        }
        assert_eq!(a.record(WHITE, cp(0), 30), Some(Verdict::Draw));
        // A move without a score breaks the streak.
        let mut a = Adjudicator::new(None, Some(DrawRule { move_number: 1, moves: 2, cp: 10 }));
        assert_eq!(a.record(WHITE, cp(0), 1), None);
        assert_eq!(a.record(BLACK, cp(0), 1), None);
        assert_eq!(a.record(WHITE, None, 2), None);
        assert_eq!(a.record(BLACK, cp(0), 2), None);
        assert_eq!(a.record(WHITE, cp(0), 3), None);
        assert_eq!(a.record(BLACK, cp(0), 3), None);
        assert_eq!(a.record(WHITE, cp(0), 4), Some(Verdict::Draw));
    }

    #[test]
    fn verdicts_are_written_as_adjudications() {
        // Issue 41: the PGN standard's `adjudication`, never `normal` as a resignation or an
        // agreement would be: neither engine resigned or offered a draw.
        let resign = Verdict::Resign(BLACK).outcome();
        assert_eq!(resign.result, GameResult::Win(WHITE));
        assert_eq!(resign.termination.label(), "resign_adjudication");
        let draw = Verdict::Draw.outcome();
        assert_eq!(draw.result, GameResult::Draw);
        assert_eq!(draw.termination.label(), "draw_adjudication");
        for outcome in [resign, draw] {
            assert_eq!(outcome.termination.pgn_value(), "adjudication");
            assert_eq!(
                Termination::from_label(outcome.termination.label()),
                Some(outcome.termination)
            );
        }
    }
}
