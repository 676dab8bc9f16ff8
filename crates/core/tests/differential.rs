//! Differential test against shakmaty: random playouts from varied starts, comparing at every
//! ply the legal move set, check status, checkmate/stalemate, insufficient material, the FEN
//! (legal en passant only), and the Zobrist key (incremental = from scratch = shakmaty's
//! Polyglot-compatible key).

use std::collections::BTreeSet;

use rookery_core::Position;
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// Varied starts: the opening, middlegames with castling and en passant chances, promotions,
/// pins and endgames.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/4k3/3pP3/8/8/8/4K2R w K d6 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "8/PPPk4/8/8/8/8/4Kppp/8 b - - 0 1",
    "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
    "8/8/2k5/8/8/5K2/8/3B1b2 w - - 0 1",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1b1/2NP1N2/PPP2PPP/R1B1K2R b KQ - 0 9",
];

/// A small deterministic generator (xorshift64*), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// shakmaty's castling mode for ours.
fn their_mode(ours: &Position) -> CastlingMode {
    if ours.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

fn compare(ours: &Position, theirs: &Chess, trail: &str) {
    let mode = their_mode(ours);
    let fen = ours.to_fen();
    let their_fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    assert_eq!(fen, their_fen, "FEN after {trail}");
    let our_moves: BTreeSet<String> = ours.legal_moves().iter().map(|m| m.to_uci()).collect();
    let their_moves: BTreeSet<String> =
        theirs.legal_moves().iter().map(|m| m.to_uci(mode).to_string()).collect();
    assert_eq!(our_moves, their_moves, "legal moves of {fen} after {trail}");
    assert_eq!(ours.count_legal_moves() as usize, our_moves.len(), "count of {fen}");
    assert_eq!(ours.has_legal_moves(), !their_moves.is_empty(), "has legal moves in {fen}");
    let mut our_tactical = BTreeSet::new();
    ours.for_each_legal_capture_or_promotion(|m| {
        assert!(our_tactical.insert(m.to_uci()), "{m} twice among the captures of {fen}");
    });
    let their_tactical: BTreeSet<String> = theirs
        .capture_moves()
        .iter()
        .chain(theirs.promotion_moves().iter())
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    assert_eq!(our_tactical, their_tactical, "captures and promotions of {fen} after {trail}");
    let mut our_quiet = BTreeSet::new();
    ours.for_each_legal_quiet(|m| {
        assert!(our_quiet.insert(m.to_uci()), "{m} twice among the quiet moves of {fen}");
    });
    let their_quiet: BTreeSet<String> = their_moves.difference(&their_tactical).cloned().collect();
    assert_eq!(our_quiet, their_quiet, "quiet moves of {fen} after {trail}");
    assert_eq!(ours.is_check(), theirs.is_check(), "check in {fen}");
    assert_eq!(ours.checkers().count() as usize, theirs.checkers().count(), "checkers in {fen}");
    assert_eq!(ours.is_checkmate(), theirs.is_checkmate(), "checkmate in {fen}");
    assert_eq!(ours.is_stalemate(), theirs.is_stalemate(), "stalemate in {fen}");
    for (color, their_color) in [
        (rookery_core::Color::White, shakmaty::Color::White),
        (rookery_core::Color::Black, shakmaty::Color::Black),
    ] {
        assert_eq!(
            ours.has_insufficient_material(color),
            theirs.has_insufficient_material(their_color),
            "insufficient material of {color} in {fen}"
        );
    }
    assert_eq!(ours.zobrist(), ours.compute_key(), "incremental key of {fen} after {trail}");
    let their_key: Zobrist64 = theirs.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(ours.zobrist(), their_key.0, "Polyglot key of {fen}");
    let their_legal_key: Zobrist64 = theirs.zobrist_hash(EnPassantMode::Legal);
    assert_eq!(ours.repetition_key(), their_legal_key.0, "repetition key of {fen}");
    let reparsed = Position::from_fen_in(&fen, ours.castling_mode()).expect("our FEN reads back");
    assert_eq!(reparsed.to_fen(), fen, "FEN round trip");
    assert_eq!(reparsed.repetition_key(), ours.repetition_key(), "key after FEN round trip");
}

#[test]
fn random_playouts_agree_with_shakmaty() {
    let mut rng = Rng(0x005e_ed0f_2026);
    let playouts = 3_000;
    let mut positions = 0u64;
    for game in 0..playouts {
        let start = STARTS[game % STARTS.len()];
        let mut ours: Position = start.parse().expect("valid start");
        let mut theirs: Chess = start
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal start");
        let mut trail = String::new();
        for _ply in 0..300 {
            compare(&ours, &theirs, &trail);
            positions += 1;
            let moves = ours.legal_moves();
            if moves.is_empty() || ours.halfmoves() >= 150 {
                break;
            }
            // Prefer captures now and then, so games reach endgames and promotions.
            let m = moves[rng.below(moves.len())];
            let uci = m.to_uci();
            let their_move = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("UCI text")
                .to_move(&theirs)
                .unwrap_or_else(|e| panic!("shakmaty rejects {uci} in {}: {e}", ours.to_fen()));
            theirs.play_unchecked(their_move);
            ours.play_unchecked(m);
            trail.push_str(&uci);
            trail.push(' ');
        }
    }
    assert!(positions > 100_000, "only {positions} positions compared");
}

/// `is_legal` on one move agrees with the generator on every from/to/kind combination.
#[test]
fn is_legal_agrees_with_generation() {
    use rookery_core::{Move, MoveKind, Role, Square};
    let mut rng = Rng(0x1e9a1);
    for game in 0..300 {
        let mut pos: Position = STARTS[game % STARTS.len()].parse().unwrap();
        for _ in 0..80 {
            let legal = pos.legal_moves();
            for from in Square::ALL {
                for to in Square::ALL {
                    for kind in [
                        MoveKind::Normal,
                        MoveKind::EnPassant,
                        MoveKind::Castle,
                        MoveKind::Promotion(Role::Queen),
                        MoveKind::Promotion(Role::Knight),
                        MoveKind::Promotion(Role::King),
                    ] {
                        let m = Move::new(from, to, kind);
                        assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.to_fen());
                    }
                }
            }
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[rng.below(legal.len())]);
        }
    }
}

/// SAN of every legal move agrees with shakmaty's, and reads back to the same move.
#[test]
fn san_agrees_with_shakmaty() {
    let mut rng = Rng(0x05a9_2026);
    let mut checked = 0u64;
    for game in 0..600 {
        let start = STARTS[game % STARTS.len()];
        let mut ours: Position = start.parse().unwrap();
        let mut theirs: Chess =
            start.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        for _ply in 0..200 {
            let moves = ours.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter() {
                let their_move =
                    m.to_uci().parse::<shakmaty::uci::UciMove>().unwrap().to_move(&theirs).unwrap();
                let their_san = shakmaty::san::SanPlus::from_move(theirs.clone(), their_move);
                let san = ours.san(m);
                assert_eq!(san, their_san.to_string(), "SAN of {m} in {}", ours.to_fen());
                assert_eq!(ours.parse_san(&san), Ok(m), "{san} reads back in {}", ours.to_fen());
                checked += 1;
            }
            let m = moves[rng.below(moves.len())];
            let their_move =
                m.to_uci().parse::<shakmaty::uci::UciMove>().unwrap().to_move(&theirs).unwrap();
            theirs.play_unchecked(their_move);
            ours.play_unchecked(m);
        }
    }
    assert!(checked > 500_000, "only {checked} moves checked");
}

/// `San::to_move`, which looks only at the pieces a SAN move can name, against the legal-move
/// list (itself checked against shakmaty above), on random playouts from the varied starts
/// (pins, checks, en passant, promotions, castling): for every role, destination, origin
/// hint (none, or the file, rank or square of each piece of that role) and promotion, the
/// legal moves that fit decide the answer. One is the move; none is an error that is not
/// `Ambiguous`; several are `Ambiguous`. Castling reads as the castling move when it is legal.
#[test]
fn san_reading_agrees_with_the_legal_moves() {
    use rookery_core::san::SanError;
    use rookery_core::{CastlingSide, Move, Role, San, Square};

    let mut rng = Rng(0x0041_5a2e);
    let mut resolved = 0u64;
    let mut ambiguous = 0u64;
    for game in 0..70 {
        let start = STARTS[game % STARTS.len()];
        let mut pos: Position = start.parse().unwrap();
        for _ply in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let fen = pos.to_fen();
            for side in CastlingSide::ALL {
                let castle = moves.iter().find(|m| m.castling_side() == Some(side));
                let found = San::Castle(side).find_move(&pos);
                assert_eq!(found, San::Castle(side).to_move(&pos).ok(), "{side:?} in {fen}");
                match (San::Castle(side).to_move(&pos), castle) {
                    (Ok(m), Some(&c)) => assert_eq!(m, c, "{side:?} in {fen}"),
                    (Err(_), None) => {}
                    (got, want) => panic!("{side:?} in {fen}: {got:?}, legal: {want:?}"),
                }
            }
            for role in Role::ALL {
                let pieces = pos.board().by_piece(role.of(pos.turn()));
                let mut hints = vec![(None, None)];
                for sq in pieces {
                    hints.extend([
                        (Some(sq.file()), None),
                        (None, Some(sq.rank())),
                        (Some(sq.file()), Some(sq.rank())),
                    ]);
                }
                let promotions: &[Option<Role>] = if role == Role::Pawn {
                    &[None, Some(Role::Queen), Some(Role::Knight), Some(Role::King)]
                } else {
                    &[None, Some(Role::Queen)]
                };
                for to in Square::ALL {
                    let onto: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| {
                            m.to() == to
                                && m.castling_side().is_none()
                                && pos.board().role_at(m.from()) == Some(role)
                        })
                        .collect();
                    for &(file, rank) in &hints {
                        for &promotion in promotions {
                            let san =
                                San::Normal { role, file, rank, capture: false, to, promotion };
                            let fits: Vec<Move> = onto
                                .iter()
                                .copied()
                                .filter(|m| {
                                    file.is_none_or(|f| m.from().file() == f)
                                        && rank.is_none_or(|r| m.from().rank() == r)
                                        && m.promotion_role() == promotion
                                })
                                .collect();
                            let answer = san.to_move(&pos);
                            let found = san.find_move(&pos);
                            assert_eq!(found, answer.as_ref().ok().copied(), "{san} in {fen}");
                            match (answer, fits.as_slice()) {
                                (Ok(m), [only]) => {
                                    assert_eq!(m, *only, "{san} in {fen}");
                                    resolved += 1;
                                }
                                (Err(SanError::Ambiguous { .. }), [_, _, ..]) => ambiguous += 1,
                                (Err(e), []) => assert!(
                                    !matches!(e, SanError::Ambiguous { .. }),
                                    "{san} in {fen}: {e}"
                                ),
                                (got, _) => panic!("{san} in {fen}: {got:?}, legal: {fits:?}"),
                            }
                        }
                    }
                }
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(resolved > 50_000 && ambiguous > 100, "{resolved} resolved, {ambiguous} ambiguous");
}

/// Chess960 (RULES.md §13): random playouts from random start positions, compared at every ply
/// as above (legal moves with castling written king-takes-rook, captures and quiet moves,
/// check, mate, the X-FEN, the keys), and the SAN of every legal move both ways.
#[test]
fn chess960_playouts_agree_with_shakmaty() {
    let mut rng = Rng(0x0960_2026);
    let (mut positions, mut castlings, mut sans) = (0u64, 0u64, 0u64);
    for _game in 0..1_000 {
        let number = rng.below(960) as u16;
        let mut ours = rookery_core::chess960::position(number).expect("a start position");
        let start = ours.to_fen();
        let mut theirs: Chess = start
            .parse::<Fen>()
            .expect("our X-FEN reads in shakmaty")
            .into_position(CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("start {number} {start}: {e}"));
        let mut trail = format!("start {number}: ");
        for ply in 0..200 {
            compare(&ours, &theirs, &trail);
            positions += 1;
            let moves = ours.legal_moves();
            if moves.is_empty() || ours.halfmoves() >= 100 {
                break;
            }
            if ply % 4 == 0 {
                for &m in moves.iter() {
                    let their_move = m
                        .to_uci()
                        .parse::<shakmaty::uci::UciMove>()
                        .unwrap()
                        .to_move(&theirs)
                        .unwrap_or_else(|e| panic!("{m} in {}: {e}", ours.to_fen()));
                    let their_san = shakmaty::san::SanPlus::from_move(theirs.clone(), their_move);
                    let san = ours.san(m);
                    assert_eq!(san, their_san.to_string(), "SAN of {m} in {}", ours.to_fen());
                    assert_eq!(
                        ours.parse_san(&san),
                        Ok(m),
                        "{san} reads back in {}",
                        ours.to_fen()
                    );
                    sans += 1;
                }
            }
            // Castle whenever it is legal, half of the time, so that most games castle.
            let castles: Vec<_> = moves.iter().copied().filter(|m| m.is_castle()).collect();
            let m = if !castles.is_empty() && rng.below(2) == 0 {
                castlings += 1;
                castles[rng.below(castles.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let uci = m.to_uci();
            let their_move = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("UCI text")
                .to_move(&theirs)
                .unwrap_or_else(|e| panic!("shakmaty rejects {uci} in {}: {e}", ours.to_fen()));
            theirs.play_unchecked(their_move);
            ours.play_unchecked(m);
            trail.push_str(&uci);
            trail.push(' ');
        }
    }
    assert!(positions > 50_000, "only {positions} positions compared");
    assert!(castlings > 1_000, "only {castlings} castlings played");
    assert!(sans > 100_000, "only {sans} SAN moves compared");
}

/// `is_legal` agrees with the generator in Chess960 positions too, castling moves onto any
/// square included.
#[test]
fn chess960_is_legal_agrees_with_generation() {
    use rookery_core::{Move, MoveKind, Square};
    let mut rng = Rng(0x0960_1e9a);
    for _game in 0..150 {
        let mut pos = rookery_core::chess960::position(rng.below(960) as u16).unwrap();
        for _ in 0..40 {
            let legal = pos.legal_moves();
            for from in Square::ALL {
                for to in Square::ALL {
                    for kind in [MoveKind::Normal, MoveKind::Castle] {
                        let m = Move::new(from, to, kind);
                        assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.to_fen());
                    }
                }
            }
            if legal.is_empty() {
                break;
            }
            let castles: Vec<_> = legal.iter().copied().filter(|m| m.is_castle()).collect();
            let m = if !castles.is_empty() && rng.below(2) == 0 {
                castles[rng.below(castles.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.play_unchecked(m);
        }
    }
}
