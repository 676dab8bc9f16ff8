//! Any bytes as FEN: no panic; whatever is accepted round-trips and generates moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rookery_core::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen(text) {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).expect("our own FEN reads back");
        assert_eq!(back.to_fen(), fen);
        assert_eq!(back.repetition_key(), pos.repetition_key());
        let moves = pos.legal_moves();
        assert_eq!(moves.len() as u64, pos.count_legal_moves());
        for &m in moves.iter() {
            assert!(pos.is_legal(m));
            let mut child = pos;
            child.play_unchecked(m);
            assert_eq!(child.zobrist(), child.compute_key());
        }
    }
});
