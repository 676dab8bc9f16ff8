//! The perft of each library the benchmarks compare, shared by `benches/perft.rs` (in
//! process) and `examples/perft_library.rs` (one whole process a run).

/// The perft count of `library` (`rookery`, `shakmaty`, `cozy-chess`, `chess`), or `None` for
/// a library without Chess960.
///
/// # Panics
/// An unknown library, or a FEN the library does not read.
pub fn run(library: &str, fen: &str, depth: u32, chess960: bool) -> Option<u64> {
    Some(match library {
        "rookery" => {
            let mode = if chess960 {
                rookery_core::CastlingMode::Chess960
            } else {
                rookery_core::CastlingMode::Standard
            };
            let pos = rookery_core::Position::from_fen_in(fen, mode).expect("valid FEN");
            rookery_core::perft::perft(&pos, depth)
        }
        "shakmaty" => {
            use shakmaty::{fen::Fen, CastlingMode, Chess};
            let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
            let pos: Chess =
                fen.parse::<Fen>().expect("valid FEN").into_position(mode).expect("legal position");
            shakmaty::perft(&pos, depth)
        }
        "cozy-chess" => {
            let board = cozy_chess::Board::from_fen(fen, chess960).expect("valid FEN");
            cozy_perft(&board, depth)
        }
        "chess" if chess960 => return None,
        "chess" => {
            let board: chess::Board = fen.parse().expect("valid FEN");
            chess::MoveGen::movegen_perft_test(&board, depth as usize) as u64
        }
        other => panic!("unknown library {other:?}"),
    })
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
