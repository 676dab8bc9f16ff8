//! Perft of one position by one library as a whole process, to time Rookery against the
//! reference libraries as a user runs a program (start-up included), one process a run:
//! `cargo run --release -p rookery-core --example perft_library -- LIBRARY "<fen>" DEPTH [--960]`
//! with LIBRARY one of rookery, shakmaty, cozy-chess, chess (no Chess960). BENCHMARKS.md,
//! "Chess960 in the core", pairs them with `farm-bench --vs`.

#[path = "../benches/common/mod.rs"]
mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let chess960 = args.iter().any(|a| a == "--960");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--960").collect();
    let (Some(library), Some(fen), Some(depth)) =
        (args.first(), args.get(1), args.get(2).and_then(|d| d.parse().ok()))
    else {
        eprintln!("usage: perft_library rookery|shakmaty|cozy-chess|chess \"<fen>\" DEPTH [--960]");
        std::process::exit(2);
    };
    if !["rookery", "shakmaty", "cozy-chess", "chess"].contains(&library.as_str()) {
        eprintln!("perft_library: unknown library {library:?}");
        std::process::exit(2);
    }
    match common::run(library, fen, depth, chess960) {
        Some(nodes) => println!("{nodes}"),
        None => {
            eprintln!("perft_library: {library} has no Chess960 mode");
            std::process::exit(2);
        }
    }
}
