//! Any bytes as SAN, resolved in a few positions rich in special moves: no panic, and a move
//! that resolves is legal and writes back to SAN that resolves to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rookery_core::san::SanPlus;
use rookery_core::Position;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Ok(san) = SanPlus::from_ascii(data) else { return };
    for fen in POSITIONS {
        let pos: Position = fen.parse().expect("valid FEN");
        if let Ok(m) = san.san.to_move(&pos) {
            assert!(pos.is_legal(m));
            let written = pos.san(m);
            assert_eq!(pos.parse_san(&written), Ok(m));
        }
    }
});
