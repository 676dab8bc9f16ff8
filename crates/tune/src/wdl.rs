//! The calibration of `UCI_ShowWDL` ([`rookery_uci::WdlModel`]): the logistic model's `a` and
//! `b` that make the engine's scores most likely to have produced the results of its games.

use rookery_uci::WdlModel;

/// Scores beyond this many centipawns count as this many: the games are decided long before,
/// and the model's tails say nothing there.
pub const CLAMP_CP: i32 = 2000;

/// Results tallied by score: for each centipawn value from −[`CLAMP_CP`] to [`CLAMP_CP`],
/// how many positions of won, drawn and lost games (for the side the score is for).
#[derive(Clone, Debug)]
pub struct Tally(Vec<[u64; 3]>);

impl Default for Tally {
    fn default() -> Tally {
        Tally(vec![[0; 3]; (2 * CLAMP_CP + 1) as usize])
    }
}

impl Tally {
    /// Adds a position scored `cp` for White whose game White scored `result` (1, ½ or 0),
    /// once from each side, so that the fit is symmetric.
    pub fn add(&mut self, cp: i32, result: f64) {
        let outcome = if result > 0.75 {
            0
        } else if result < 0.25 {
            2
        } else {
            1
        };
        let cp = cp.clamp(-CLAMP_CP, CLAMP_CP);
        self.0[(cp + CLAMP_CP) as usize][outcome] += 1;
        self.0[(CLAMP_CP - cp) as usize][2 - outcome] += 1;
    }

    /// The positions tallied (each counted once, not once a side).
    pub fn len(&self) -> u64 {
        self.0.iter().flatten().sum::<u64>() / 2
    }

    /// Whether nothing was tallied.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The mean negative log-likelihood of the results under `model`, per position and side.
    pub fn loss(&self, model: &WdlModel) -> f64 {
        let (mut sum, mut n) = (0.0, 0u64);
        for (i, counts) in self.0.iter().enumerate() {
            if counts.iter().all(|&c| c == 0) {
                continue;
            }
            let p = model.probabilities(f64::from(i as i32 - CLAMP_CP));
            for (&count, p) in counts.iter().zip(p) {
                sum -= count as f64 * p.max(1e-12).ln();
                n += count;
            }
        }
        sum / n.max(1) as f64
    }

    /// The model of least [`Tally::loss`]: a grid over `a` in 0..600 and `b` in 10..600
    /// centipawns, then a finer one around the best, to a tenth of a centipawn.
    pub fn fit(&self) -> WdlModel {
        let mut best = WdlModel { a: 100.0, b: 100.0 };
        let mut best_loss = self.loss(&best);
        let (mut centre, mut step, mut span) = ((300.0, 305.0), 10.0, 30);
        while step >= 0.1 {
            for i in -span..=span {
                for j in -span..=span {
                    let model = WdlModel {
                        a: centre.0 + f64::from(i) * step,
                        b: centre.1 + f64::from(j) * step,
                    };
                    if model.a < 0.0 || model.b < 1.0 {
                        continue;
                    }
                    let loss = self.loss(&model);
                    if loss < best_loss {
                        (best, best_loss) = (model, loss);
                    }
                }
            }
            centre = (best.a, best.b);
            step /= 10.0;
            span = 10;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;
    use rookery_uci::WdlModel;

    /// Results drawn from a known model come back as that model.
    #[test]
    fn the_fit_finds_the_model_that_made_the_data() {
        let truth = WdlModel { a: 180.0, b: 70.0 };
        let mut tally = Tally::default();
        let mut state = 7u64;
        for cp in (-600..=600).step_by(3) {
            for _ in 0..200 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let u = (state >> 11) as f64 / (1u64 << 53) as f64;
                let [win, draw, _] = truth.probabilities(f64::from(cp));
                let result = if u < win {
                    1.0
                } else if u < win + draw {
                    0.5
                } else {
                    0.0
                };
                tally.add(cp, result);
            }
        }
        let fit = tally.fit();
        assert!((fit.a - truth.a).abs() < 8.0 && (fit.b - truth.b).abs() < 5.0, "{fit:?}");
    }
}
