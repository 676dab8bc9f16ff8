//! Chess960 (RULES.md §13) against published and independent data:
//!
//! - the Chess960 perft suite (`data/chess960.perft`, 960 positions in Shredder-FEN with their
//!   counts to depth 6; sources in the file): `cargo test` checks every count up to 4 million
//!   nodes (depths 1–4 of every position); the deep run, every depth to 6, is
//!   `cargo test --release -p rookery-core --test chess960 -- --ignored`;
//! - games from python-chess with `chess960=True` (`data/chess960-games.txt`, made by
//!   `scripts/chess960-oracle.py`): at every ply the X-FEN, the number of legal moves and the
//!   sets of their UCI (king-takes-rook castling) and SAN texts, the move played read from its
//!   UCI and written as SAN, and the end of each game;
//! - the castling cases Guidelines II spells out, one by one.

use rookery_core::perft::perft;
use rookery_core::{chess960, CastlingMode, CastlingSide, Fen, Move, Position, Square};

struct PerftCase {
    line: usize,
    fen: String,
    counts: Vec<u64>,
}

fn perft_suite() -> Vec<PerftCase> {
    let text = include_str!("data/chess960.perft");
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().to_owned();
        let counts = parts
            .map(|n| n.parse().unwrap_or_else(|_| panic!("line {}: bad count {n:?}", i + 1)))
            .collect();
        cases.push(PerftCase { line: i + 1, fen, counts });
    }
    cases
}

/// Checks every count of the suite up to `budget` nodes, on `threads` threads; the nodes
/// counted.
fn run_perft_suite(budget: u64, threads: usize) -> u64 {
    let cases = perft_suite();
    assert_eq!(cases.len(), 960, "the suite has 960 positions");
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let cases = &cases;
                scope.spawn(move || {
                    let mut total = 0;
                    for case in cases.iter().skip(t).step_by(threads) {
                        let pos = Position::from_fen_in(&case.fen, CastlingMode::Chess960)
                            .unwrap_or_else(|e| panic!("line {}: {e}: {}", case.line, case.fen));
                        assert_eq!(
                            Fen::from_position(&pos).to_shredder(),
                            case.fen,
                            "line {}: Shredder-FEN round trip",
                            case.line
                        );
                        for (depth, &expected) in (1..).zip(&case.counts) {
                            if expected > budget {
                                continue;
                            }
                            let nodes = perft(&pos, depth);
                            assert_eq!(
                                nodes, expected,
                                "line {}: perft({depth}) of {}",
                                case.line, case.fen
                            );
                            total += nodes;
                        }
                    }
                    total
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("no perft worker panics")).sum()
    })
}

#[test]
fn chess960_perft_suite_within_budget() {
    let total = run_perft_suite(4_000_000, 2);
    assert!(total > 300_000_000, "only {total} nodes checked");
}

#[test]
#[ignore = "deep: about half an hour on two cores in release mode"]
fn chess960_perft_suite_deep() {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let total = run_perft_suite(u64::MAX, threads);
    println!("{total} nodes");
}

/// 64-bit FNV-1a of `items` sorted and joined by single spaces, as the oracle writes it.
fn fnv_of_set(mut items: Vec<String>) -> String {
    items.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in items.join(" ").bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[test]
fn python_chess_games_replay_identically() {
    let text = include_str!("data/chess960-games.txt");
    let (mut games, mut plies, mut castlings) = (0, 0, 0);
    let mut pos: Option<Position> = None;
    for (i, line) in text.lines().enumerate() {
        let at = i + 1;
        if line.starts_with('#') {
            continue;
        }
        if let Some(number) = line.strip_prefix("game ") {
            let number: u16 = number.parse().unwrap_or_else(|_| panic!("line {at}: {line}"));
            pos = Some(chess960::position(number).expect("a start number"));
            games += 1;
            continue;
        }
        let current = pos.as_mut().unwrap_or_else(|| panic!("line {at}: no game started"));
        if let Some(end) = line.strip_prefix("end ") {
            let fields: Vec<&str> = end.split('|').collect();
            assert_eq!(current.to_fen(), fields[0], "line {at}: final FEN");
            let ended = match fields[2] {
                "checkmate" => current.is_checkmate(),
                "stalemate" => current.is_stalemate(),
                "insufficient_material" => current.is_insufficient_material(),
                "max_plies" => true,
                other => panic!("line {at}: an end this test does not know: {other}"),
            };
            assert!(ended, "line {at}: the game should end by {}", fields[2]);
            continue;
        }
        let fields: Vec<&str> = line.split('|').collect();
        assert_eq!(fields.len(), 6, "line {at}: {line}");
        let fen = current.to_fen();
        assert_eq!(fen, fields[0], "line {at}: X-FEN");
        let read = Position::from_fen_in(fields[0], CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("line {at}: {e}"));
        assert_eq!(read.to_fen(), fen, "line {at}: the X-FEN reads back");
        assert_eq!(read.repetition_key(), current.repetition_key(), "line {at}: the same key");
        assert_eq!(read.castles(), current.castles(), "line {at}: the same castling rooks");
        let moves = current.legal_moves();
        assert_eq!(moves.len().to_string(), fields[1], "line {at}: legal moves of {fen}");
        let ucis: Vec<String> = moves.iter().map(|m| m.to_uci()).collect();
        assert_eq!(fnv_of_set(ucis.clone()), fields[2], "line {at}: UCI set of {fen}: {ucis:?}");
        let sans: Vec<String> = moves.iter().map(|&m| current.san(m)).collect();
        assert_eq!(fnv_of_set(sans.clone()), fields[3], "line {at}: SAN set of {fen}: {sans:?}");
        let m = current.parse_uci(fields[4]).unwrap_or_else(|e| panic!("line {at}: {e}"));
        assert_eq!(current.san(m), fields[5], "line {at}: SAN of {}", fields[4]);
        assert_eq!(current.parse_san(fields[5]), Ok(m), "line {at}: {} reads back", fields[5]);
        castlings += usize::from(m.is_castle());
        current.play_unchecked(m);
        plies += 1;
    }
    assert!(games >= 200 && plies >= 20_000, "{games} games, {plies} plies");
    assert!(castlings >= 200, "only {castlings} castlings");
}

fn pos960(fen: &str) -> Position {
    Position::from_fen_in(fen, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn castle(pos: &Position, side: CastlingSide) -> Option<Move> {
    pos.legal_moves().iter().copied().find(|m| m.castling_side() == Some(side))
}

/// The cases of Guidelines II, each played and checked square by square.
#[test]
fn castling_by_guidelines_ii() {
    // King on b1, rook on a1: long castling jumps the rook over the king (king c1, rook d1).
    let pos = pos960("6k1/8/8/8/8/8/8/RK6 w A - 0 1");
    let m = castle(&pos, CastlingSide::QueenSide).expect("O-O-O is legal");
    assert_eq!(m.to_uci(), "b1a1");
    assert_eq!(pos.san(m), "O-O-O");
    let mut after = pos;
    after.play_unchecked(m);
    assert_eq!(after.to_fen(), "6k1/8/8/8/8/8/8/2KR4 b - - 1 1");

    // King already on g1: short castling moves only the rook (h1 to f1).
    let pos = pos960("6k1/8/8/8/8/8/8/6KR w H - 0 1");
    let m = castle(&pos, CastlingSide::KingSide).expect("O-O is legal");
    assert_eq!(m.to_uci(), "g1h1");
    let mut after = pos;
    after.play_unchecked(m);
    assert_eq!(after.to_fen(), "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");

    // Rook already on d1: long castling moves only the king (e1 to c1).
    let pos = pos960("4k3/8/8/8/8/8/8/3RK3 w D - 0 1");
    let mut after = pos;
    after.play_unchecked(castle(&pos, CastlingSide::QueenSide).expect("O-O-O is legal"));
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");

    // A piece on the rook's landing square blocks castling, though nothing stands between
    // king and rook and the king's own path is free: king b1, rook a1, a bishop on d1.
    let pos = pos960("4k3/8/8/8/8/8/8/RK1B4 w A - 0 1");
    assert_eq!(castle(&pos, CastlingSide::QueenSide), None);
    assert!(pos.parse_san("O-O-O").unwrap_err().to_string().contains("must cross"));
    assert_eq!(
        pos.attempt(Square::B1, Square::A1, None),
        rookery_core::Attempt::Illegal(rookery_core::Illegal::CastlingBlocked)
    );

    // The castling rook shields the king's landing square: king e1, rook b1, an enemy rook
    // on a1 covers c1 once b1 is empty.
    let pos = pos960("4k3/8/8/8/8/8/8/rR2K3 w B - 0 1");
    assert_eq!(castle(&pos, CastlingSide::QueenSide), None);
    assert!(pos.parse_san("O-O-O").is_err());

    // Not out of check, not through an attacked square.
    let pos = pos960("4k3/8/8/8/8/8/8/1K4R1 w G - 0 1");
    assert!(castle(&pos, CastlingSide::KingSide).is_some());
    let through = pos960("4k3/8/8/8/8/8/3r4/1K4R1 w G - 0 1");
    assert_eq!(castle(&through, CastlingSide::KingSide), None);
    let in_check = pos960("1r2k3/8/8/8/8/8/8/1K4R1 w G - 0 1");
    assert_eq!(castle(&in_check, CastlingSide::KingSide), None);
}

/// The four ways a player may castle (Guidelines II.3.2): all read to the same move, in UCI
/// both forms, in SAN `O-O`; and the arbiter's judge of a dragged king agrees.
#[test]
fn castling_is_read_in_every_form() {
    let pos = pos960("4k3/8/8/8/8/8/8/1K4R1 w G - 0 1");
    let m = castle(&pos, CastlingSide::KingSide).unwrap();
    assert_eq!(pos.parse_uci("b1g1"), Ok(m), "king onto its rook");
    assert_eq!(pos.parse_san("O-O"), Ok(m));
    assert_eq!(pos.attempt(Square::B1, Square::G1, None), rookery_core::Attempt::Legal(m));
    // The king's own landing square is the rook's square here; a one-file king step stays an
    // ordinary move.
    let pos = pos960("4k3/8/8/8/8/8/8/4K2R w H - 0 1");
    let m = castle(&pos, CastlingSide::KingSide).unwrap();
    assert_eq!(pos.parse_uci("e1h1"), Ok(m));
    assert_eq!(pos.parse_uci("e1g1"), Ok(m), "the king's two-square move");
    assert_eq!(pos.attempt(Square::E1, Square::G1, None), rookery_core::Attempt::Legal(m));
    assert!(!pos.parse_uci("e1f1").unwrap().is_castle());
    // In standard chess castling stays the king's move, and the king onto its rook reads too.
    let standard: Position = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
    let m = castle(&standard, CastlingSide::KingSide).unwrap();
    assert_eq!(m.to_uci(), "e1g1");
    assert_eq!(standard.parse_uci("e1h1"), Ok(m));
}

/// X-FEN names a rook by its file when another rook of that side stands further out;
/// Shredder-FEN always does; KQkq means the outermost rook. Standard chess refuses rights a
/// standard game cannot have.
#[test]
fn castling_fields_in_x_fen_and_shredder_fen() {
    // White rooks on a1, c1 and h1, king on e1; the right is with the c1 rook: X-FEN "C".
    let pos = pos960("4k3/8/8/8/8/8/8/R1R1K2R w CH - 0 1");
    assert_eq!(
        pos.castles().rook(rookery_core::Color::White, CastlingSide::QueenSide),
        Some(Square::C1)
    );
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1");
    assert_eq!(Fen::from_position(&pos).to_shredder(), "4k3/8/8/8/8/8/8/R1R1K2R w HC - 0 1");
    assert_eq!(pos960("4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1"), pos);
    // "Q" is the outermost rook: a1.
    let outer = pos960("4k3/8/8/8/8/8/8/R1R1K2R w KQ - 0 1");
    assert_eq!(
        outer.castles().rook(rookery_core::Color::White, CastlingSide::QueenSide),
        Some(Square::A1)
    );
    // A start position's rights in all three forms.
    let start = chess960::position(0).unwrap();
    assert_eq!(start.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    assert_eq!(
        Fen::from_position(&start).to_shredder(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    assert_eq!(pos960("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"), start);
    // Standard chess: a right with the king off e1 is refused, in Chess960 it is fine.
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    assert!(Position::from_fen(fen).unwrap_err().to_string().contains("castling right"));
    // The standard start in Chess960 mode writes its castling king-takes-rook.
    let normal = chess960::position(chess960::STANDARD).unwrap();
    assert_eq!(normal.to_fen(), rookery_core::fen::STARTING_FEN);
    assert_eq!(
        normal.castling_move(CastlingSide::KingSide).map(|m| m.to_uci()),
        Some("e1h1".into())
    );
    assert_eq!(normal.with_castling_mode(CastlingMode::Standard).unwrap(), Position::new());
}
