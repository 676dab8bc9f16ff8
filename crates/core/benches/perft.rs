//! Perft speed of Rookery against shakmaty, cozy-chess and the `chess` crate, measured in the
//! same run, interleaved (library by library within each round), single-threaded, with bulk
//! counting at the last ply in each library's own idiom. Also asserts every node count.
//!
//! Run: `cargo bench -p rookery-core --bench perft` (`-- --rounds N` for more rounds).
//! Each cell is the best of the rounds, which filters out noise from the shared machine.

use std::hint::black_box;
use std::time::{Duration, Instant};

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

const LIBRARIES: [&str; 4] = ["rookery", "shakmaty", "cozy-chess", "chess"];

fn run(library: &str, fen: &str, depth: u32) -> u64 {
    match library {
        "rookery" => {
            let pos: rookery_core::Position = fen.parse().expect("valid FEN");
            rookery_core::perft::perft(&pos, depth)
        }
        "shakmaty" => {
            use shakmaty::{fen::Fen, CastlingMode, Chess};
            let pos: Chess = fen
                .parse::<Fen>()
                .expect("valid FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal position");
            shakmaty::perft(&pos, depth)
        }
        "cozy-chess" => {
            let board: cozy_chess::Board = fen.parse().expect("valid FEN");
            cozy_perft(&board, depth)
        }
        "chess" => {
            let board: chess::Board = fen.parse().expect("valid FEN");
            chess::MoveGen::movegen_perft_test(&board, depth as usize) as u64
        }
        _ => unreachable!(),
    }
}

/// cozy-chess has no perft of its own; this is the one from its README and examples.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

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
    for (name, fen, depth, expected) in POSITIONS {
        let mut best = [Duration::MAX; 4];
        for _ in 0..rounds {
            for (i, library) in LIBRARIES.iter().enumerate() {
                let start = Instant::now();
                let nodes = black_box(run(library, black_box(fen), depth));
                let took = start.elapsed();
                assert_eq!(nodes, expected, "{library} perft({depth}) of {name}: {fen}");
                best[i] = best[i].min(took);
            }
        }
        let mnps: Vec<f64> = best.iter().map(|t| expected as f64 / t.as_secs_f64() / 1e6).collect();
        let ratios: Vec<f64> = (1..4).map(|i| mnps[0] / mnps[i]).collect();
        for (w, r) in worst.iter_mut().zip(&ratios) {
            *w = w.min(*r);
        }
        println!(
            "{:<9} {:>2} {:>11} | {:>9.1} {:>9.1} {:>9.1} {:>9.1} | {:>8.2} {:>8.2} {:>8.2}",
            name,
            depth,
            expected,
            mnps[0],
            mnps[1],
            mnps[2],
            mnps[3],
            ratios[0],
            ratios[1],
            ratios[2]
        );
    }
    println!(
        "\nworst ratio: {:.2} against shakmaty, {:.2} against cozy-chess, {:.2} against chess",
        worst[0], worst[1], worst[2]
    );
}
