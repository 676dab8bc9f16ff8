//! Any bytes as a move list typed from a scoresheet (issue 53), read from a few positions rich
//! in special moves: no panic; every move read is legal, and a refusal names a move that is
//! in the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rookery_core::scoresheet::read_moves;
use rookery_core::Position;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for fen in POSITIONS {
        let start: Position = fen.parse().expect("valid FEN");
        match read_moves(&start, text) {
            Ok(moves) => {
                let mut pos = start;
                for m in moves {
                    assert!(pos.is_legal(m));
                    pos.play_unchecked(m);
                }
            }
            Err(e) => assert!(text.contains(e.error.text())),
        }
    }
});
