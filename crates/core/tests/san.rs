//! SAN reading on arbitrary input (property tests; `cargo test --release` runs them fast):
//! never a panic, and whatever resolves is a legal move whose canonical SAN reads back to it.

use proptest::prelude::*;
use rookery_core::{Position, SanPlus};

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
];

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let Ok(san) = SanPlus::from_ascii(bytes) else { return Ok(()) };
    for fen in POSITIONS {
        let pos: Position = fen.parse().unwrap();
        if let Ok(m) = san.san.to_move(&pos) {
            prop_assert!(pos.is_legal(m), "{san} gave illegal {m} in {fen}");
            prop_assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..12)) {
        check(&bytes)?;
    }

    #[test]
    fn san_shaped_text_resolves_to_legal_moves(
        text in "[KQRBNP]?[a-h]?[1-8]?[x:-]?[a-h][1-8](=?[QRBNKqrbn])?[+#!?]{0,2}|O-O(-O)?|0-0(-0)?"
    ) {
        check(text.as_bytes())?;
    }
}
