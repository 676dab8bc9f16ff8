//! Perft of one position as a whole process, for timing one build of the core against another
//! (`cargo run --release -p rookery-core --example perft -- "<fen>" <depth>`): it uses
//! only `Position::from_fen` and `perft`, so the same file builds against older cores.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(fen), Some(depth)) = (args.first(), args.get(1).and_then(|d| d.parse().ok())) else {
        eprintln!("usage: perft \"<fen>\" <depth>");
        std::process::exit(2);
    };
    let pos: rookery_core::Position = match fen.parse() {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{fen:?}: {e}");
            std::process::exit(2);
        }
    };
    println!("{}", rookery_core::perft::perft(&pos, depth));
}
