//! Win, draw and loss per mille from a score (`UCI_ShowWDL`), by a logistic model fitted on
//! the engine's own games.

use crate::ScoreValue;

/// The chances of a game from a score, Stockfish's win-rate model without its material term:
/// `win(x) = 1 / (1 + exp((a − x) / b))`, `loss(x) = win(−x)`, the draw the rest, for `x` the
/// score in centipawns from the side to move. `a` is the score at which a win is as likely as
/// not, `b` how fast the chances change around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Centipawns at which winning has probability ½.
    pub a: f64,
    /// The spread, in centipawns.
    pub b: f64,
}

impl WdlModel {
    /// The model `rookery uci` reports with: fitted by maximum likelihood with `rookery-wdl`
    /// (crates/tune) on the quiet positions of 1,600 games of the engine against itself at
    /// 3,000 nodes a move, each labelled with its game's result (the command and the figures
    /// are in this crate's README).
    pub const CALIBRATED: WdlModel = WdlModel { a: 160.6, b: 214.9 };

    /// The probability of a win at `cp`, between 0 and 1.
    pub fn win(&self, cp: f64) -> f64 {
        1.0 / (1.0 + ((self.a - cp) / self.b).exp())
    }

    /// Win, draw and loss at `cp`, each between 0 and 1, summing to 1 (for `a ≥ 0`).
    pub fn probabilities(&self, cp: f64) -> [f64; 3] {
        let (win, loss) = (self.win(cp), self.win(-cp));
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// `info wdl`: win, draw and loss per mille for the side to move, summing to 1000. A mate
    /// found is a certain win or loss.
    pub fn per_mille(&self, score: ScoreValue) -> [u32; 3] {
        match score {
            ScoreValue::Mate(n) if n > 0 => [1000, 0, 0],
            ScoreValue::Mate(_) => [0, 0, 1000],
            ScoreValue::Centipawns(cp) => {
                let [win, _, loss] = self.probabilities(f64::from(cp));
                let (mut win, mut loss) =
                    ((win * 1000.0).round() as u32, (loss * 1000.0).round() as u32);
                // Rounding may overshoot by one; the smaller chance gives it back, which keeps
                // the answer for −x the mirror of the answer for x.
                if win + loss > 1000 {
                    if win < loss {
                        win -= 1;
                    } else {
                        loss -= 1;
                    }
                }
                [win, 1000 - win - loss, loss]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WdlModel;
    use crate::ScoreValue;

    #[test]
    fn per_mille_sums_to_a_thousand_and_is_symmetric() {
        let model = WdlModel::CALIBRATED;
        for cp in [-3000, -400, -151, -1, 0, 1, 37, 150, 999, 32000] {
            let [w, d, l] = model.per_mille(ScoreValue::Centipawns(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            let [w2, _, l2] = model.per_mille(ScoreValue::Centipawns(-cp));
            assert_eq!((w, l), (l2, w2), "{cp}");
        }
        assert_eq!(model.per_mille(ScoreValue::Mate(3)), [1000, 0, 0]);
        assert_eq!(model.per_mille(ScoreValue::Mate(-1)), [0, 0, 1000]);
        assert_eq!(model.per_mille(ScoreValue::Mate(0)), [0, 0, 1000]);
    }
}
