//! The scoresheet reader (issue 53) by property: any text, and move lists of any words, never
//! panic; every legal move, written as SAN, as UCI, in small letters or with its origin square
//! (the slips `scoresheet` forgives), reads back as that move or as an ambiguity that lists it,
//! in positions rich in castling, en passant and promotions.

use proptest::prelude::*;
use rookery_core::scoresheet::{read_move, read_moves, TypedMoveError};
use rookery_core::{Position, Role, UciMove};

const POSITIONS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
    "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
];

/// The ways a person may write `m` in `pos`.
fn spellings(pos: &Position, m: rookery_core::Move) -> Vec<String> {
    let san = pos.san(m);
    let uci = UciMove::from_move(m).to_string();
    let mut out = vec![san.clone(), uci.clone(), san.trim_end_matches(['+', '#']).replace('x', "")];
    if let Some(side) = m.castling_side() {
        let zeros = if side == rookery_core::CastlingSide::KingSide { "0-0" } else { "0-0-0" };
        out.push(zeros.to_owned());
        out.push(zeros.replace('0', "o"));
    }
    let role = pos.board().role_at(m.from());
    if !matches!(role, Some(Role::Pawn | Role::King) | None) {
        out.push(format!("{}{uci}", role.unwrap().char()));
        out.push(format!("{}{uci}", role.unwrap().upper_char()));
        out.push(san.to_ascii_lowercase());
    }
    out
}

#[test]
fn every_legal_move_reads_back_however_it_is_written() {
    for fen in POSITIONS {
        let pos: Position = fen.parse().unwrap();
        for &m in &pos.legal_moves() {
            for text in spellings(&pos, m) {
                match read_move(&pos, &text) {
                    Ok(read) => assert_eq!(read, m, "{text:?} in {fen}"),
                    // `bxc3` in small letters may be the b-pawn's or a bishop's: both listed.
                    Err(TypedMoveError::Ambiguous { candidates, .. }) => {
                        assert!(
                            candidates.contains(&pos.san(m)),
                            "{text:?} in {fen}: {candidates:?}"
                        )
                    }
                    Err(e) => panic!("{text:?} in {fen}: {e}"),
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn any_text_never_panics(text in "\\PC{0,16}") {
        for fen in POSITIONS {
            let pos: Position = fen.parse().unwrap();
            if let Ok(m) = read_move(&pos, &text) {
                prop_assert!(pos.is_legal(m));
            }
        }
    }

    #[test]
    fn any_move_list_stops_at_its_first_bad_move(
        words in proptest::collection::vec("[0-9.]{0,3}[KQRBNkqrbnOo0]?[a-h]?[1-8]?[x-]?[a-h][1-8]", 0..12)
    ) {
        let start = Position::new();
        let text = words.join(" ");
        match read_moves(&start, &text) {
            Ok(moves) => {
                let mut pos = start;
                for m in moves {
                    prop_assert!(pos.is_legal(m));
                    pos.play_unchecked(m);
                }
            }
            Err(e) => prop_assert!(!e.error.text().is_empty() && e.ply < words.len(), "{e}"),
        }
    }
}
