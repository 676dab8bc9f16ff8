//! Makes a balanced opening set (EPD) from a PGN collection: each game's first N plies,
//! duplicates removed, kept when a fixed-budget search of the position by `rookery-engine`
//! scores it within a margin of equality. This is how `scripts/data/openings.epd` was made:
//!
//! ```sh
//! cargo run -p rookery-match --example make_openings -- \
//!     crates/pgn/tests/data/real/gnuchess-book-first-2000.pgn 8 50000 40 \
//!     > scripts/data/openings.epd
//! ```
//!
//! Arguments: the PGN file, the plies, the node budget per position and the margin in
//! centipawns. Deterministic: one thread, a cleared table per position, a node budget.

use std::collections::HashSet;
use std::time::Duration;

use rookery_core::Position;
use rookery_engine::{Engine, Limits, ManualClock, Score, Signals};
use rookery_match::opening;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, plies, nodes, margin] = &args[..] else {
        return Err("usage: make_openings FILE.pgn PLIES NODES MARGIN_CP".into());
    };
    let plies: usize = plies.parse()?;
    let nodes: u64 = nodes.parse()?;
    let margin: i32 = margin.parse()?;
    let openings = opening::load(std::path::Path::new(path), Some(plies))?;
    let file_name = std::path::Path::new(path).file_name().map(|n| n.to_string_lossy());
    let file_name = file_name.unwrap_or_default();
    let mut engine = Engine::new();
    let mut seen = HashSet::new();
    let (mut kept, mut short, mut duplicate) = (0, 0, 0);
    println!("# Balanced openings: the first {plies} plies of the games of {file_name},");
    println!("# duplicates removed, kept when rookery-engine scores the position within");
    println!(
        "# {margin} cp of equality after {nodes} nodes (ce: that score, for the side to move)."
    );
    println!("# Made by: cargo run -p rookery-match --example make_openings -- {}", args.join(" "));
    for (game, o) in openings.iter().enumerate() {
        if o.moves.len() < plies {
            short += 1;
            continue;
        }
        let pos = o.position();
        if !seen.insert(pos.zobrist()) {
            duplicate += 1;
            continue;
        }
        engine.clear();
        let outcome = engine.search(
            &pos,
            &[],
            &Limits::nodes(nodes),
            &Signals::new(),
            &ManualClock::new(Duration::ZERO),
            &mut (),
        );
        let Some(Score::Centipawns(cp)) = outcome.score else { continue };
        if cp.abs() > margin {
            continue;
        }
        kept += 1;
        let fen = pos.to_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        println!(
            "{} hmvc {}; fmvn {}; ce {cp}; c0 \"game {}: {}\";",
            fields[..4].join(" "),
            fields[4],
            fields[5],
            game + 1,
            san_line(&o.start, &o.moves)
        );
    }
    eprintln!(
        "{} games: {kept} kept, {short} shorter than {plies} plies, {duplicate} duplicates, {} \
         unbalanced",
        openings.len(),
        openings.len() - kept - short - duplicate
    );
    Ok(())
}

/// The moves in SAN with move numbers, as `1. e4 e5 2. Nf3`.
fn san_line(start: &Position, moves: &[rookery_core::Move]) -> String {
    let mut pos = *start;
    let mut out = Vec::new();
    for &m in moves {
        if pos.turn().is_white() {
            out.push(format!("{}.", pos.fullmoves()));
        }
        out.push(pos.san(m));
        pos.play_unchecked(m);
    }
    out.join(" ")
}
