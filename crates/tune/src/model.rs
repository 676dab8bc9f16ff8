//! The tuned model: the evaluation's weights as a vector, the logistic map from evaluation to
//! expected score, the mean squared error over a [`Dataset`] and its gradient, the fit of the
//! scaling constant K, and the Adam optimiser.
//!
//! Texel's tuning method (Peter Österlund 2014; CPW "Texel's Tuning Method"): a position
//! evaluated `v` centipawns for White is expected to score `σ(v) = 1 / (1 + 10^(−K·v/400))`
//! for White; the error is the mean of `(result − σ(v))²` over the positions. K is fitted
//! first with the weights fixed, then the weights with K fixed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rookery_engine::tuning::{Params, Term, S};

use crate::data::{Dataset, Entry};

/// The weights as one vector: `2·i` is the middlegame value of the term with
/// [`Term::index`] `i`, `2·i + 1` its endgame value.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights(pub Vec<f64>);

impl Weights {
    /// The tunable weights of `params`.
    pub fn from_params(params: &Params) -> Weights {
        let mut w = vec![0.0; 2 * Term::COUNT];
        for term in Term::all() {
            let S(mg, eg) = params.get(term);
            w[2 * term.index()] = f64::from(mg);
            w[2 * term.index() + 1] = f64::from(eg);
        }
        Weights(w)
    }

    /// `base` with these weights, rounded to whole centipawns.
    pub fn to_params(&self, base: &Params) -> Params {
        let mut params = base.clone();
        for term in Term::all() {
            let mg = self.0[2 * term.index()].round() as i32;
            let eg = self.0[2 * term.index() + 1].round() as i32;
            params.set(term, S(mg, eg));
        }
        params
    }

    /// The evaluation of `entry` in White's view.
    #[inline]
    pub fn evaluate(&self, entry: &Entry<'_>) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (&term, &coef) in entry.terms.iter().zip(entry.coefs) {
            let i = 2 * usize::from(term);
            mg += f64::from(coef) * self.0[i];
            eg += f64::from(coef) * self.0[i + 1];
        }
        mg * f64::from(entry.mg_weight) + eg * f64::from(entry.eg_weight) + f64::from(entry.fixed)
    }
}

/// Which weights the optimiser may change: by default every term's middlegame and endgame
/// value, but the king attack's endgame value, which the evaluation does not have.
pub fn default_mask() -> Vec<bool> {
    let mut mask = vec![true; 2 * Term::COUNT];
    for term in Term::all() {
        if !term.has_endgame() {
            mask[2 * term.index() + 1] = false;
        }
    }
    mask
}

/// The expected score for White of an evaluation `v` for White.
#[inline]
pub fn sigmoid(k: f64, v: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * v / 400.0))
}

/// Positions per unit of work: the sums are taken per chunk and the chunks added in order,
/// so that the result does not depend on the number of threads.
const CHUNK: usize = 8192;

/// Runs `f` on each chunk of `data` on `threads` threads and returns the results in order.
fn map_chunks<T: Send>(
    data: &Dataset,
    threads: usize,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    let n = data.len().div_ceil(CHUNK);
    let out: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            scope.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= n {
                    break;
                }
                let range = c * CHUNK..((c + 1) * CHUNK).min(data.len());
                *out[c].lock().expect("no thread panics holding it") = Some(f(range));
            });
        }
    });
    out.into_iter().map(|m| m.into_inner().expect("no poison").expect("every chunk done")).collect()
}

/// The mean squared error of `weights` on `data` with constant `k`.
pub fn error(data: &Dataset, weights: &Weights, k: f64, threads: usize) -> f64 {
    let sums = map_chunks(data, threads, |range| {
        range
            .map(|i| {
                let e = data.get(i);
                let d = f64::from(e.result) - sigmoid(k, weights.evaluate(&e));
                d * d
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / data.len().max(1) as f64
}

/// The mean squared error of `weights` on `data` and its gradient with respect to every
/// weight.
pub fn gradient(data: &Dataset, weights: &Weights, k: f64, threads: usize) -> (f64, Vec<f64>) {
    let dsig = k * std::f64::consts::LN_10 / 400.0;
    let parts = map_chunks(data, threads, |range| {
        let mut grad = vec![0.0; weights.0.len()];
        let mut sum = 0.0;
        for i in range {
            let e = data.get(i);
            let s = sigmoid(k, weights.evaluate(&e));
            let d = f64::from(e.result) - s;
            sum += d * d;
            // d/dv (r − σ(v))² = −2 (r − σ) σ (1 − σ) K ln 10 / 400.
            let g = -2.0 * d * s * (1.0 - s) * dsig;
            let (gm, ge) = (g * f64::from(e.mg_weight), g * f64::from(e.eg_weight));
            for (&term, &coef) in e.terms.iter().zip(e.coefs) {
                let j = 2 * usize::from(term);
                grad[j] += gm * f64::from(coef);
                grad[j + 1] += ge * f64::from(coef);
            }
        }
        (sum, grad)
    });
    let n = data.len().max(1) as f64;
    let mut total = vec![0.0; weights.0.len()];
    let mut sum = 0.0;
    for (s, g) in parts {
        sum += s;
        for (t, x) in total.iter_mut().zip(g) {
            *t += x;
        }
    }
    for t in &mut total {
        *t /= n;
    }
    (sum / n, total)
}

/// The K that minimises the error of `weights` on `data`: a golden-section search on
/// `[0.05, 5]`, to a precision of 10⁻⁶ (the error is unimodal in K).
pub fn fit_k(data: &Dataset, weights: &Weights, threads: usize) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.05, 5.0);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let mut fc = error(data, weights, c, threads);
    let mut fd = error(data, weights, d, threads);
    while b - a > 1e-6 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = error(data, weights, c, threads);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = error(data, weights, d, threads);
        }
    }
    (a + b) / 2.0
}

/// The Adam optimiser (Kingma and Ba 2015), with its step size in centipawns.
#[derive(Clone, Debug)]
pub struct Adam {
    /// The step size.
    pub rate: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-12;

    /// An optimiser for `n` weights.
    pub fn new(n: usize, rate: f64) -> Adam {
        Adam { rate, m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    /// One step down `grad`, for the weights that `mask` allows.
    pub fn step(&mut self, weights: &mut Weights, grad: &[f64], mask: &[bool]) {
        self.t += 1;
        let c1 = 1.0 - Adam::BETA1.powi(self.t);
        let c2 = 1.0 - Adam::BETA2.powi(self.t);
        for (i, w) in weights.0.iter_mut().enumerate() {
            if !mask[i] {
                continue;
            }
            self.m[i] = Adam::BETA1 * self.m[i] + (1.0 - Adam::BETA1) * grad[i];
            self.v[i] = Adam::BETA2 * self.v[i] + (1.0 - Adam::BETA2) * grad[i] * grad[i];
            let m = self.m[i] / c1;
            let v = self.v[i] / c2;
            *w -= self.rate * m / (v.sqrt() + Adam::EPSILON);
        }
    }
}
