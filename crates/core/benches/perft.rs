//! Perft speed of Rookery against shakmaty, cozy-chess and the `chess` crate, measured in the
//! same run, interleaved (library by library within each round), single-threaded, with bulk
//! counting at the last ply in each library's own idiom. Also asserts every node count.
//!
//! Run: `cargo bench -p rookery-core --bench perft` (`-- --rounds N` for more rounds). The
//! five standard positions, then five Chess960 positions in each library's Chess960 mode.
//! Each cell is the best of the rounds, which filters out noise from the shared machine.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::run;

/// The five standard positions of the Chess Programming Wiki's "Perft Results" page, at the
/// depths of the issue, with their published counts.
const POSITIONS: [(&str, &str, u32, u64); 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15_833_292),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89_941_194),
];

/// Chess960 positions of the published suite (`tests/data/chess960.perft`, lines 28, 40, 51, 60
/// and 70: every castling right, kings and rooks off their standard files) at depth 5, in
/// each library's Chess960 mode (the `chess` crate has none).
const CHESS960: [(&str, &str, u32, u64); 5] = [
    ("960-28", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 5, 8_146_062),
    ("960-40", "qnnbrk1r/1p1ppbpp/2p5/p4p2/2NP3P/8/PPP1PPP1/Q1NBRKBR w HEhe - 0 9", 5, 17_819_770),
    ("960-51", "nbqnbrkr/2ppp1p1/pp3p1p/8/4N2P/1N6/PPPPPPP1/1BQ1BRKR w HFhf - 0 9", 5, 12_719_546),
    ("960-60", "bnn1qrkr/pp1ppp1p/2p5/b3Q1p1/8/5P1P/PPPPP1P1/BNNB1RKR w HFhf - 2 9", 5, 29_742_670),
    ("960-70", "nnqr1krb/p1p1pppp/2bp4/8/1p1P4/4P3/PPP2PPP/NNQRBKRB w GDgd - 0 9", 5, 18_162_741),
];

const LIBRARIES: [&str; 4] = ["rookery", "shakmaty", "cozy-chess", "chess"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    println!("perft, single thread, best of {rounds} interleaved rounds\n");
    println!(
        "{:<9} {:>2} {:>11} | {:>9} {:>9} {:>9} {:>9} | {:>8} {:>8} {:>8}",
        "position",
        "d",
        "nodes",
        "rookery",
        "shakmaty",
        "cozy",
        "chess",
        "/shak",
        "/cozy",
        "/chess"
    );
    println!("{:<9} {:>2} {:>11} | {:>39} | ratio of Rookery's speed", "", "", "", "Mnps");
    let mut worst = [f64::INFINITY; 3];
    let table = POSITIONS.iter().map(|p| (p, false)).chain(CHESS960.iter().map(|p| (p, true)));
    for (&(name, fen, depth, expected), chess960) in table {
        let mut best = [Duration::MAX; 4];
        for _ in 0..rounds {
            for (i, library) in LIBRARIES.iter().enumerate() {
                let start = Instant::now();
                let Some(nodes) = black_box(run(library, black_box(fen), depth, chess960)) else {
                    continue;
                };
                let took = start.elapsed();
                assert_eq!(nodes, expected, "{library} perft({depth}) of {name}: {fen}");
                best[i] = best[i].min(took);
            }
        }
        // A library that did not run (no Chess960) has no speed: 0, and no ratio.
        let mnps: Vec<f64> = best
            .iter()
            .map(
                |&t| if t == Duration::MAX { 0.0 } else { expected as f64 / t.as_secs_f64() / 1e6 },
            )
            .collect();
        let ratios: Vec<f64> = (1..4).map(|i| mnps[0] / mnps[i]).collect();
        for (w, r) in worst.iter_mut().zip(&ratios) {
            if r.is_finite() {
                *w = w.min(*r);
            }
        }
        let cell = |x: f64, width: usize| {
            if x.is_finite() {
                format!("{x:>width$.2}")
            } else {
                format!("{:>width$}", "-")
            }
        };
        println!(
            "{:<9} {:>2} {:>11} | {:>9.1} {:>9.1} {:>9.1} {:>9} | {} {} {}",
            name,
            depth,
            expected,
            mnps[0],
            mnps[1],
            mnps[2],
            if chess960 { "-".to_owned() } else { format!("{:.1}", mnps[3]) },
            cell(ratios[0], 8),
            cell(ratios[1], 8),
            cell(ratios[2], 8)
        );
    }
    println!(
        "\nworst ratio: {:.2} against shakmaty, {:.2} against cozy-chess, {:.2} against chess",
        worst[0], worst[1], worst[2]
    );
}
