//! Training positions: sampled from games, labelled with the game's result, resolved to a
//! quiet position by the engine's quiescence search, and stored as the sparse coefficients of
//! the evaluation's trace.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rookery_core::{Color, GameResult, Position};
use rookery_engine::tuning::{quiet, trace, Params, Term};
use rookery_pgn::{MainLineReader, Reader};

/// Which positions of the games become training positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Plies of each game skipped: the opening, which books rather than evaluation decide.
    pub skip_plies: u32,
    /// Keep about one position in this many, chosen by a hash of `seed`, the game's number
    /// and the ply: the same positions on every run, whatever else changes.
    pub every: u64,
    /// The sampling seed.
    pub seed: u64,
    /// Read only the first games.
    pub max_games: Option<u64>,
}

/// A position and the result of its game, from White's point of view (1, ½ or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled {
    /// The position as it stood in the game.
    pub pos: Position,
    /// The game's result for White.
    pub result: f32,
    /// The game's number in the input, from 1.
    pub game: u64,
}

/// What [`sample`] read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SampleStats {
    /// Games in the input.
    pub games: u64,
    /// Games whose positions were used: a result and only legal moves.
    pub used: u64,
    /// Games without a result (`*`), with an illegal or unreadable move, or an unreadable
    /// `[FEN]`.
    pub skipped: u64,
    /// Positions past the opening and not in check: the candidates.
    pub candidates: u64,
    /// Positions kept.
    pub kept: u64,
}

/// SplitMix64 (Steele, Lea and Flood 2014): a hash good enough to sample with.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A game's result for White: 1, ½ or 0; `None` for `*`.
fn white_score(result: GameResult) -> Option<f32> {
    match result {
        GameResult::Win(Color::White) => Some(1.0),
        GameResult::Win(Color::Black) => Some(0.0),
        GameResult::Draw => Some(0.5),
        GameResult::NoResult => None,
    }
}

/// Samples labelled positions from the PGN text `pgn`, in the order of the games: each
/// game's main line is played by rookery-pgn's one replay (its `[FEN]` honoured), and labelled
/// with the game's termination marker.
///
/// # Errors
/// Only what reading `pgn` can fail with; bad games are counted and skipped.
pub fn sample(pgn: &[u8], sampling: &Sampling) -> std::io::Result<(Vec<Labelled>, SampleStats)> {
    let mut reader = Reader::new(pgn);
    let mut main_line = MainLineReader::default();
    let mut out = Vec::new();
    let mut stats = SampleStats::default();
    while sampling.max_games.is_none_or(|max| stats.games < max) {
        let Some(line) = reader.read_game(&mut main_line)? else { break };
        stats.games += 1;
        let game = stats.games;
        // Games without a result (`*`), or whose main line cannot be played, are skipped.
        let labelled = line.ok().and_then(|l| Some((l.result.and_then(white_score)?, l)));
        let Some((result, line)) = labelled else {
            stats.skipped += 1;
            continue;
        };
        stats.used += 1;
        let mut pos = line.start;
        for (i, m) in line.moves().enumerate() {
            pos.play_unchecked(m);
            let ply = i as u64 + 1;
            if ply <= u64::from(sampling.skip_plies) || pos.is_check() {
                continue;
            }
            stats.candidates += 1;
            let key = splitmix(sampling.seed ^ splitmix(game ^ splitmix(ply)));
            if key.is_multiple_of(sampling.every) {
                stats.kept += 1;
                out.push(Labelled { pos, result, game });
            }
        }
    }
    Ok((out, stats))
}

/// Training positions as the sparse, pre-weighted coefficients of their evaluation, so that
/// a position's evaluation in White's view is
/// `Σ coef · (mg[term] · mg_weight + eg[term] · eg_weight) + fixed`.
///
/// Stored column-wise, for memory: 1.4 million positions of the corpus take about 250 MB.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Where each position's entries start in `terms` and `coefs`; one more than positions.
    offsets: Vec<u32>,
    terms: Vec<u16>,
    coefs: Vec<f32>,
    mg_weight: Vec<f32>,
    eg_weight: Vec<f32>,
    fixed: Vec<f32>,
    result: Vec<f32>,
}

/// One position of a [`Dataset`].
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// Term indices ([`Term::index`]).
    pub terms: &'a [u16],
    /// Their coefficients, White's minus Black's.
    pub coefs: &'a [f32],
    /// The weight of middlegame values (`phase / 24`).
    pub mg_weight: f32,
    /// The weight of endgame values (`scale/8 · (24 − phase) / 24`).
    pub eg_weight: f32,
    /// The untuned part, in White's view.
    pub fixed: f32,
    /// The game's result for White.
    pub result: f32,
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset { offsets: vec![0], ..Dataset::default() }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// `true` without positions.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Nonzero coefficients stored, over all positions.
    pub fn entries(&self) -> usize {
        self.terms.len()
    }

    /// Adds a position from its coefficients: `(term index, coefficient)` pairs.
    pub fn push(
        &mut self,
        coefs: impl IntoIterator<Item = (usize, f64)>,
        mg_weight: f64,
        eg_weight: f64,
        fixed: f64,
        result: f32,
    ) {
        for (term, coef) in coefs {
            if coef != 0.0 {
                self.terms.push(u16::try_from(term).expect("fewer than 65536 terms"));
                self.coefs.push(coef as f32);
            }
        }
        self.offsets.push(u32::try_from(self.terms.len()).expect("fewer than 2^32 entries"));
        self.mg_weight.push(mg_weight as f32);
        self.eg_weight.push(eg_weight as f32);
        self.fixed.push(fixed as f32);
        self.result.push(result);
    }

    /// Adds the positions of `other`.
    pub fn append(&mut self, other: &Dataset) {
        let base = *self.offsets.last().expect("offsets start with 0");
        self.offsets.extend(other.offsets[1..].iter().map(|o| o + base));
        self.terms.extend_from_slice(&other.terms);
        self.coefs.extend_from_slice(&other.coefs);
        self.mg_weight.extend_from_slice(&other.mg_weight);
        self.eg_weight.extend_from_slice(&other.eg_weight);
        self.fixed.extend_from_slice(&other.fixed);
        self.result.extend_from_slice(&other.result);
    }

    /// The `i`th position.
    pub fn get(&self, i: usize) -> Entry<'_> {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        Entry {
            terms: &self.terms[range.clone()],
            coefs: &self.coefs[range],
            mg_weight: self.mg_weight[i],
            eg_weight: self.eg_weight[i],
            fixed: self.fixed[i],
            result: self.result[i],
        }
    }

    /// Resolves each position to its quiet leaf with `params` ([`quiet`]) and adds the
    /// leaf's trace, labelled with the game's result, on `threads` threads. The order is
    /// that of `positions`, whatever the number of threads.
    pub fn build(positions: &[Labelled], params: &Params, threads: usize) -> Dataset {
        const CHUNK: usize = 4096;
        let chunks: Vec<&[Labelled]> = positions.chunks(CHUNK).collect();
        let done: Vec<Mutex<Option<Dataset>>> = chunks.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(chunk) = chunks.get(i) else { break };
                    let mut part = Dataset::new();
                    for labelled in *chunk {
                        part.push_position(&labelled.pos, labelled.result, params);
                    }
                    *done[i].lock().expect("no thread panics holding it") = Some(part);
                });
            }
        });
        let mut all = Dataset::new();
        for part in done {
            all.append(&part.into_inner().expect("no poison").expect("every chunk done"));
        }
        all
    }

    /// Adds the quiet leaf of `pos` with `result`.
    pub fn push_position(&mut self, pos: &Position, result: f32, params: &Params) {
        let (leaf, _) = quiet(pos, params);
        let (trace, _) = trace(&leaf, params);
        // One coefficient serves both halves: they are equal, but for the king attack,
        // whose endgame value is held at zero.
        let coefs = (0..Term::COUNT).map(|i| (i, trace.mg[i]));
        self.push(coefs, trace.mg_weight(), trace.eg_weight(), f64::from(trace.fixed), result);
    }
}
