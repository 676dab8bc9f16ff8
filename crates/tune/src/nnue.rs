//! Training the engine's network ([`rookery_engine::nnue`]) on scored positions.
//!
//! The data are the lines `rookery-selfplay --positions` writes, `FEN | centipawns for White |
//! result for White`. Each position's target blends the two, from the side to move's view:
//! `(1 − r)·σ(score / K) + r·result`, `r` being [`Training::result_weight`]; the network's
//! prediction is `σ(output / K)` and the loss the squared difference (the sigmoid's scale `K`
//! is [`SIGMOID_CP`] centipawns). The optimiser is Adam on mini-batches, each split across
//! threads by fixed halves, so a run's result depends on the seed and the data only. Weights
//! are kept within what the engine's integer arithmetic can hold, then quantised.

use std::fmt;

use rookery_core::{Color, Position};
use rookery_engine::nnue::{self, HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE};

use crate::data::splitmix;

/// Centipawns per unit of the logistic function that turns a score into an expected result.
/// Flatter than the engine's own scale (the Texel tuner's `K`, about 153 centipawns on this
/// base), so that a queen up and a rook up are still told apart: at 153 both are a certain
/// win and the network, trained on the loss of expected results, learns a queen worth 250.
pub const SIGMOID_CP: f32 = 400.0;

/// The largest weight the quantised network holds: `1.98 · QB` is within the engine's
/// [`nnue::MAX_OUTPUT`], so that each output weight's product with the clipped activation fits
/// an `i16`.
const CLIP: f32 = 1.98;
const _: () = assert!(CLIP * QB as f32 <= nnue::MAX_OUTPUT as f32);

/// A training position: its inputs from both sides, whose turn it is, and its labels from the
/// side to move's view.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// White's and Black's view of each piece; `len` are used.
    features: [(u16, u16); 32],
    len: u8,
    white_to_move: bool,
    /// Whether either side may still castle.
    castling: bool,
    /// The search's score, centipawns.
    score: f32,
    /// The game's result, 1 a win.
    result: f32,
}

/// A line of the data that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

impl Sample {
    /// A sample from a data line, `FEN | centipawns for White | result for White`.
    ///
    /// # Errors
    /// What is missing or malformed, named.
    pub fn parse(line: &str) -> Result<Sample, String> {
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen), Some(score), Some(result), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("expected `FEN | score | result`, found {line:?}"));
        };
        let pos: Position = fen.parse().map_err(|e| format!("FEN {fen:?}: {e}"))?;
        let score: f32 = score.parse().map_err(|_| format!("score {score:?} is not a number"))?;
        let result: f32 = match result {
            "1" | "1.0" => 1.0,
            "0.5" => 0.5,
            "0" | "0.0" => 0.0,
            _ => return Err(format!("result {result:?} is not 1, 0.5 or 0")),
        };
        Ok(Sample::new(&pos, score, result))
    }

    /// A sample of `pos` with the search's `score` and the game's `result`, both for White.
    ///
    /// # Panics
    /// If `pos` has more than 32 pieces.
    pub fn new(pos: &Position, score: f32, result: f32) -> Sample {
        let mut sample = Sample {
            features: [(0, 0); 32],
            len: 0,
            white_to_move: pos.turn() == Color::White,
            castling: pos.castling_rights().bits() != 0,
            score,
            result,
        };
        for [w, b] in nnue::features(pos.board()) {
            sample.features[usize::from(sample.len)] = (w as u16, b as u16);
            sample.len += 1;
        }
        if !sample.white_to_move {
            sample.score = -score;
            sample.result = 1.0 - result;
        }
        sample
    }

    /// The same position with the files reversed (a to h), if neither side may castle: then
    /// the position is as good for the same side, and the data twice as large.
    pub fn mirrored(&self) -> Option<Sample> {
        if self.castling {
            return None;
        }
        let mut mirror = *self;
        // An input is `side · 384 + role · 64 + square`, the file in the low three bits.
        for (w, b) in &mut mirror.features[..usize::from(self.len)] {
            *w ^= 7;
            *b ^= 7;
        }
        Some(mirror)
    }

    /// What the network is trained to predict: the blend of the search's expected result
    /// and the game's, side to move's view.
    fn target(&self, result_weight: f32) -> f32 {
        (1.0 - result_weight) * sigmoid(self.score / SIGMOID_CP) + result_weight * self.result
    }

    fn features(&self) -> &[(u16, u16)] {
        &self.features[..usize::from(self.len)]
    }

    /// The output bucket: one input a piece.
    fn bucket(&self) -> usize {
        nnue::output_bucket(u32::from(self.len))
    }
}

/// Reads data lines, skipping blank ones.
///
/// # Errors
/// The first line that is not a sample.
pub fn parse(text: &str) -> Result<Vec<Sample>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| Sample::parse(line).map_err(|message| ParseError { line: i + 1, message }))
        .collect()
}

/// The mean loss of another evaluation's verdicts, `evals[i]` centipawns for the side to move
/// of `samples[i]`: the figure to compare a network's loss with.
pub fn eval_loss(samples: &[Sample], evals: &[i32], result_weight: f32) -> f64 {
    let total: f64 = samples
        .iter()
        .zip(evals)
        .map(|(s, &e)| f64::from(sigmoid(e as f32 / SIGMOID_CP) - s.target(result_weight)).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The network in floating point, as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`.
    hidden: Vec<f32>,
    hidden_bias: Vec<f32>,
    /// Each bucket's output weights, `2 · HIDDEN`: the side to move's half, then the other's.
    output: Vec<f32>,
    /// Each bucket's output bias.
    output_bias: Vec<f32>,
}

/// The clipped, squared activation and its derivative.
#[inline]
fn screlu(x: f32) -> (f32, f32) {
    if x <= 0.0 {
        (0.0, 0.0)
    } else if x >= 1.0 {
        (1.0, 0.0)
    } else {
        (x * x, 2.0 * x)
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Network {
    /// Small random weights from `seed`.
    pub fn random(seed: u64) -> Network {
        let mut state = seed;
        let mut uniform = |scale: f32| {
            state = splitmix(state);
            ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        };
        Network {
            hidden: (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect(),
            hidden_bias: (0..HIDDEN).map(|_| uniform(0.1)).collect(),
            output: (0..OUTPUT_BUCKETS * 2 * HIDDEN).map(|_| uniform(0.1)).collect(),
            output_bias: vec![0.0; OUTPUT_BUCKETS],
        }
    }

    /// The network a quantised one stands for: each weight divided by its scale, so that
    /// training can go on from a network the engine plays with ([`Network::quantise`] gives
    /// the same weights back).
    pub fn from_weights(weights: &nnue::Weights) -> Network {
        let real = |row: &[i16; HIDDEN], scale: i32| row.map(|w| f32::from(w) / scale as f32);
        Network {
            hidden: weights.hidden.iter().flat_map(|row| real(row, QA)).collect(),
            hidden_bias: real(&weights.hidden_bias, QA).to_vec(),
            output: weights.output.iter().flatten().flat_map(|row| real(row, QB)).collect(),
            output_bias: weights.output_bias.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
        }
    }

    fn len(&self) -> usize {
        self.hidden.len() + self.hidden_bias.len() + self.output.len() + self.output_bias.len()
    }

    fn zeroed(&self) -> Network {
        Network {
            hidden: vec![0.0; self.hidden.len()],
            hidden_bias: vec![0.0; HIDDEN],
            output: vec![0.0; OUTPUT_BUCKETS * 2 * HIDDEN],
            output_bias: vec![0.0; OUTPUT_BUCKETS],
        }
    }

    /// Every weight, in one order.
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.hidden
            .iter_mut()
            .chain(&mut self.hidden_bias)
            .chain(&mut self.output)
            .chain(&mut self.output_bias)
    }

    /// The two accumulators of a sample: the side to move's, then the other's.
    fn accumulate(&self, sample: &Sample) -> ([f32; HIDDEN], [f32; HIDDEN]) {
        let mut white = [0.0f32; HIDDEN];
        white.copy_from_slice(&self.hidden_bias);
        let mut black = white;
        for &(w, b) in sample.features() {
            let (w, b) = (usize::from(w) * HIDDEN, usize::from(b) * HIDDEN);
            white.iter_mut().zip(&self.hidden[w..w + HIDDEN]).for_each(|(a, x)| *a += x);
            black.iter_mut().zip(&self.hidden[b..b + HIDDEN]).for_each(|(a, x)| *a += x);
        }
        if sample.white_to_move {
            (white, black)
        } else {
            (black, white)
        }
    }

    /// The output weights of `bucket`.
    fn output_weights(&self, bucket: usize) -> &[f32] {
        &self.output[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN]
    }

    /// The network's output for a sample's accumulators, in units of [`SCALE`] centipawns.
    fn output(&self, bucket: usize, us: &[f32; HIDDEN], them: &[f32; HIDDEN]) -> f32 {
        let (ours, theirs) = self.output_weights(bucket).split_at(HIDDEN);
        let half = |acc: &[f32; HIDDEN], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&x, &w)| screlu(x).0 * w).sum()
        };
        half(us, ours) + half(them, theirs) + self.output_bias[bucket]
    }

    /// The evaluation of `pos` in centipawns for the side to move, unquantised.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let sample = Sample::new(pos, 0.0, 0.5);
        let (us, them) = self.accumulate(&sample);
        self.output(sample.bucket(), &us, &them) * SCALE as f32
    }

    /// The expected result the network predicts for a sample, from its output.
    fn predict(out: f32) -> f32 {
        sigmoid(out * (SCALE as f32 / SIGMOID_CP))
    }

    /// The loss of one sample, adding its gradient to `grad`.
    fn backward(&self, sample: &Sample, result_weight: f32, grad: &mut Network) -> f32 {
        let (us, them) = self.accumulate(sample);
        let bucket = sample.bucket();
        let predicted = Network::predict(self.output(bucket, &us, &them));
        let k = SCALE as f32 / SIGMOID_CP;
        let error = predicted - sample.target(result_weight);
        let g = 2.0 * error * predicted * (1.0 - predicted) * k;

        grad.output_bias[bucket] += g;
        let mut delta = [[0.0f32; HIDDEN]; 2];
        let first = bucket * 2 * HIDDEN;
        for (side, acc) in [&us, &them].into_iter().enumerate() {
            let at = first + side * HIDDEN;
            let weights = &self.output[at..at + HIDDEN];
            let grads = &mut grad.output[at..at + HIDDEN];
            for i in 0..HIDDEN {
                let (a, da) = screlu(acc[i]);
                grads[i] += g * a;
                delta[side][i] = g * weights[i] * da;
            }
        }
        let (white, black) =
            if sample.white_to_move { (&delta[0], &delta[1]) } else { (&delta[1], &delta[0]) };
        for i in 0..HIDDEN {
            grad.hidden_bias[i] += white[i] + black[i];
        }
        for &(w, b) in sample.features() {
            let (w, b) = (usize::from(w) * HIDDEN, usize::from(b) * HIDDEN);
            grad.hidden[w..w + HIDDEN].iter_mut().zip(white).for_each(|(g, d)| *g += d);
            grad.hidden[b..b + HIDDEN].iter_mut().zip(black).for_each(|(g, d)| *g += d);
        }
        error * error
    }

    /// The mean loss over `samples`.
    pub fn loss(&self, samples: &[Sample], result_weight: f32) -> f64 {
        let total: f64 = samples
            .iter()
            .map(|s| {
                let (us, them) = self.accumulate(s);
                let out = self.output(s.bucket(), &us, &them);
                let error = Network::predict(out) - s.target(result_weight);
                f64::from(error * error)
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    /// The quantised weights the engine reads.
    pub fn quantise(&self) -> nnue::Weights {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let row = |values: &[f32], scale: i32| {
            let mut row = [0i16; HIDDEN];
            row.iter_mut().zip(values).for_each(|(r, &v)| *r = q(v, scale));
            row
        };
        nnue::Weights {
            hidden: self.hidden.chunks_exact(HIDDEN).map(|r| row(r, QA)).collect(),
            hidden_bias: row(&self.hidden_bias, QA),
            output: std::array::from_fn(|b| {
                let (ours, theirs) = self.output_weights(b).split_at(HIDDEN);
                [row(ours, QB), row(theirs, QB)]
            }),
            output_bias: std::array::from_fn(|b| {
                (self.output_bias[b] * (QA * QB) as f32).round() as i32
            }),
        }
    }
}

/// How a network is trained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// Full passes over the data.
    pub epochs: u32,
    /// Samples per Adam step.
    pub batch: usize,
    /// Adam's step size at the start; it falls along a cosine to a hundredth by the end.
    pub rate: f32,
    /// The weight of the game's result in the target, against the search's score.
    pub result_weight: f32,
    /// Threads each batch is split across.
    pub threads: usize,
    /// Seeds the starting weights and the order of the samples.
    pub seed: u64,
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut Network, grad: &mut Network, rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let grads = grad.values_mut();
        for (((w, g), m), v) in net.values_mut().zip(grads).zip(&mut self.m).zip(&mut self.v) {
            *m = B1 * *m + (1.0 - B1) * *g;
            *v = B2 * *v + (1.0 - B2) * *g * *g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *w = w.clamp(-CLIP, CLIP);
            *g = 0.0;
        }
    }
}

/// Trains `net` (random weights from [`Network::random`], or a network to go on from) on
/// `train`; `progress` hears each epoch's number, training loss and the network after it.
pub fn train(
    mut net: Network,
    train: &[Sample],
    settings: &Training,
    mut progress: impl FnMut(u32, f64, &Network),
) -> Network {
    let mut adam = Adam { m: vec![0.0; net.len()], v: vec![0.0; net.len()], t: 0 };
    let threads = settings.threads.max(1);
    let mut grads: Vec<Network> = (0..threads).map(|_| net.zeroed()).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut state = splitmix(settings.seed ^ 0x5eed);
    let steps = (train.len().div_ceil(settings.batch) as u64 * u64::from(settings.epochs)).max(1);
    let mut step = 0u64;
    for epoch in 0..settings.epochs {
        // Fisher–Yates, seeded.
        for i in (1..order.len()).rev() {
            state = splitmix(state);
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let mut total = 0.0f64;
        for batch in order.chunks(settings.batch) {
            let part = batch.len().div_ceil(threads);
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let net = &net;
                let handles: Vec<_> = batch
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .map(|(chunk, grad)| {
                        scope.spawn(move || {
                            chunk
                                .iter()
                                .map(|&i| {
                                    let sample = &train[i as usize];
                                    f64::from(net.backward(sample, settings.result_weight, grad))
                                })
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a training thread panicked")).collect()
            });
            total += losses.iter().sum::<f64>();
            // The batch's mean gradient, summed in a fixed order.
            let (first, rest) = grads.split_first_mut().expect("at least one thread");
            for other in rest {
                first.values_mut().zip(other.values_mut()).for_each(|(a, b)| {
                    *a += *b;
                    *b = 0.0;
                });
            }
            let scale = 1.0 / batch.len() as f32;
            first.values_mut().for_each(|g| *g *= scale);
            let progress = step as f32 / steps as f32;
            let rate = settings.rate
                * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            adam.step(&mut net, first, rate);
            step += 1;
        }
        progress(epoch, total / train.len().max(1) as f64, &net);
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_read_from_the_side_to_moves_view() {
        let white = Sample::parse("4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1 | 900 | 1").unwrap();
        assert!(white.white_to_move);
        assert_eq!((white.score, white.result, white.len), (900.0, 1.0, 4));
        let black = Sample::parse("4k3/8/8/8/8/8/3QP3/4K3 b - - 0 1 | 900 | 1").unwrap();
        assert_eq!((black.score, black.result), (-900.0, 0.0));

        assert!(white.mirrored().is_some());
        let start = Sample::new(&Position::new(), 0.0, 0.5);
        assert!(start.mirrored().is_none(), "castling rights are not mirrored");
        let mirrored = Sample::parse("3k4/8/8/8/8/8/3PQ3/3K4 w - - 0 1 | 900 | 1").unwrap();
        let mut ours = white.mirrored().unwrap().features().to_vec();
        let mut theirs = mirrored.features().to_vec();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs);

        let err = parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.5\n\nbad | 1 | 1\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("\"bad\""), "{err}");
        assert!(Sample::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | x | 1").is_err());
        assert!(Sample::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1 | 2").is_err());
        assert!(Sample::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 1").is_err());
    }

    /// The gradient `backward` adds agrees with the loss's change when a weight moves.
    #[test]
    fn gradients_match_finite_differences() {
        let samples = parse(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 35 | 1\n\
             8/5k2/8/3P4/8/8/2K5/8 b - - 0 1 | -250 | 0.5\n",
        )
        .unwrap();
        let mut net = Network::random(3);
        // Spread the hidden biases so that some neurons sit inside the activation's slope.
        net.hidden_bias.iter_mut().enumerate().for_each(|(i, b)| *b = i as f32 / HIDDEN as f32);
        let mut grad = net.zeroed();
        for s in &samples {
            net.backward(s, 0.3, &mut grad);
        }
        let loss = |net: &Network| net.loss(&samples, 0.3) * samples.len() as f64;
        let white_pawn_d5 = nnue::feature(
            Color::White,
            rookery_core::Piece { color: Color::White, role: rookery_core::Role::Pawn },
            "d5".parse().unwrap(),
        );
        // Indices into `values_mut`: hidden weights of an input present, hidden biases,
        // output weights of both halves in the buckets of the two samples (32 pieces and
        // 3) and of one with none, the output biases.
        let hidden = INPUTS * HIDDEN;
        let output = hidden + HIDDEN;
        let full = output + (OUTPUT_BUCKETS - 1) * 2 * HIDDEN;
        let biases = net.len() - OUTPUT_BUCKETS;
        let probes = [
            white_pawn_d5 * HIDDEN + 40,
            white_pawn_d5 * HIDDEN + 90,
            hidden + 40,
            output + 5,
            output + HIDDEN + 70,
            full + 9,
            full + HIDDEN + 100,
            output + 3 * 2 * HIDDEN + 9,
            biases,
            biases + 3,
            net.len() - 1,
        ];
        let h = 1e-2;
        for i in probes {
            let analytic = f64::from(*grad.values_mut().nth(i).unwrap());
            let (mut up, mut down) = (net.clone(), net.clone());
            *up.values_mut().nth(i).unwrap() += h;
            *down.values_mut().nth(i).unwrap() -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(h));
            let tolerance = 1e-4 + 0.05 * numeric.abs();
            assert!((analytic - numeric).abs() < tolerance, "weight {i}: {analytic} vs {numeric}");
        }
        assert!(grad.values_mut().any(|g| *g != 0.0));
    }

    #[test]
    fn training_fits_and_quantising_keeps_the_evaluation() {
        // Material: White a queen up wins, a queen down loses, level draws.
        let mut lines = String::new();
        for (fen, score, result) in [
            ("4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1", 900, "1"),
            ("4k3/3qp3/8/8/8/8/8/4K3 w - - 0 1", -900, "0"),
            ("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", 0, "0.5"),
            ("4k3/8/8/8/8/8/3QP3/4K3 b - - 0 1", 900, "1"),
            ("4k3/3qp3/8/8/8/8/8/4K3 b - - 0 1", -900, "0"),
        ] {
            lines.push_str(&format!("{fen} | {score} | {result}\n"));
        }
        let samples = parse(&lines).unwrap();
        let settings =
            Training { epochs: 200, batch: 5, rate: 0.01, result_weight: 0.5, threads: 2, seed: 1 };
        let mut losses = Vec::new();
        let net = train(Network::random(1), &samples, &settings, |_, loss, _| losses.push(loss));
        assert!(losses[losses.len() - 1] < losses[0] / 4.0, "{losses:?}");
        let quantised = net.quantise();
        for fen in ["4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1", "4k3/3qp3/8/8/8/8/8/4K3 b - - 0 1"] {
            let pos: Position = fen.parse().unwrap();
            let (float, int) = (net.evaluate(&pos), quantised.evaluate(&pos));
            assert!(float > 200.0, "{fen}: {float}");
            assert!((float - int as f32).abs() < 0.02 * float.abs() + 10.0, "{fen}: {float} {int}");
        }
        let same = train(Network::random(1), &samples, &settings, |_, _, _| ());
        assert_eq!(same, net, "the same seed and data train the same network");

        // Read back for more training, the quantised network is itself again, and it starts
        // where the first training ended, not where random weights do.
        let restored = Network::from_weights(&quantised);
        assert_eq!(restored.quantise(), quantised);
        let mut again = Vec::new();
        let short = Training { epochs: 1, rate: 1e-4, ..settings };
        train(restored, &samples, &short, |_, loss, _| again.push(loss));
        assert!(again[0] < losses[0] / 4.0, "{again:?} after {losses:?}");
    }
}
