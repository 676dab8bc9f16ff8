#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod codegen;
pub mod data;
pub mod model;
pub mod nnue;
pub mod selfplay;
pub mod wdl;

pub use data::{sample, Dataset, Labelled, SampleStats, Sampling};
pub use model::{error, fit_k, gradient, sigmoid, Adam, Weights};

/// How the weights are optimised.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Full passes over the data, one Adam step each.
    pub epochs: u32,
    /// Adam's step size in centipawns.
    pub rate: f64,
    /// L2 regularisation toward the starting weights: this much times the sum of squared
    /// differences (in centipawns) is added to the error.
    pub l2: f64,
}

/// Minimises the error of `start` on `data` at constant `k` along `schedule`, for the
/// weights `mask` allows; `progress` hears each epoch's number, error and weights (before
/// its step). Returns the
/// weights.
pub fn optimise(
    data: &Dataset,
    start: &Weights,
    mask: &[bool],
    k: f64,
    schedule: &Schedule,
    threads: usize,
    mut progress: impl FnMut(u32, f64, &Weights),
) -> Weights {
    let mut weights = start.clone();
    let mut adam = Adam::new(weights.0.len(), schedule.rate);
    for epoch in 0..schedule.epochs {
        let (error, mut grad) = gradient(data, &weights, k, threads);
        if schedule.l2 > 0.0 {
            for ((g, w), w0) in grad.iter_mut().zip(&weights.0).zip(&start.0) {
                *g += 2.0 * schedule.l2 * (w - w0);
            }
        }
        progress(epoch, error, &weights);
        adam.step(&mut weights, &grad, mask);
    }
    weights
}
