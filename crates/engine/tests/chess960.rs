//! Chess960 (RULES.md §13): the engine plays it as it plays standard chess. A castling move
//! there goes from the king to its own rook (`e1h1`), so its `to()` is no longer where the
//! king lands; these tests hold the search to legal moves and lines in that notation, and to
//! the very same search when a standard position is merely written the Chess960 way.

use std::time::Duration;

use rookery_core::{chess960, CastlingMode, Move, Position, Rank, Role, UciMove};
use rookery_engine::{
    Collect, Engine, Limits, ManualClock, Options, Score, SearchOutcome, Signals,
};

fn search(engine: &mut Engine, pos: &Position, limits: &Limits) -> (SearchOutcome, Collect) {
    let clock = ManualClock::new(Duration::ZERO);
    let mut collect = Collect::default();
    let outcome = engine.search(pos, &[], limits, &Signals::new(), &clock, &mut collect);
    (outcome, collect)
}

/// A fresh single-threaded engine: the same search every time.
fn engine() -> Engine {
    Engine::with_options(Options::default()).expect("the default hash table")
}

fn in_mode(fen: &str, mode: CastlingMode) -> Position {
    Position::from_fen_in(fen, mode).unwrap_or_else(|e| panic!("{fen} ({mode:?}): {e}"))
}

/// Why `line` is not a legal sequence of moves from `pos` written as `pos` writes moves:
/// every move legal where it stands, and castling as the king taking its rook in Chess960, as
/// the king's two-square move in standard chess.
fn check_line(pos: &Position, line: &[Move]) -> Result<(), String> {
    let mut pos = *pos;
    for (i, &m) in line.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(format!("move {} ({m}) is illegal in {}", i + 1, pos.to_fen()));
        }
        if let Some(side) = m.castling_side() {
            let us = pos.turn();
            let expected = if pos.is_chess960() {
                pos.castles().rook(us, side).expect("a legal castling has its rook")
            } else {
                side.king_to(us)
            };
            if m.to() != expected {
                return Err(format!(
                    "castling {m} is not written as {expected} in {}",
                    pos.to_fen()
                ));
            }
        }
        pos.play_unchecked(m);
    }
    Ok(())
}

/// Standard positions with castling rights (CPW "Perft Results" 1, 2, 4 and 5).
const STANDARD: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// Chess960 positions whose one mate in one is castling, with the move: the king that does
/// not move (on g1, castling short), the king on b1 castling long, and the rook that does
/// not move (on f1, the king going from e1 to g1 and opening the first rank to the black king
/// on a1). Each was checked by hand: no other white move mates.
const CASTLING_MATES: [(&str, &str); 3] = [
    ("4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1", "g1h1"),
    ("2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1", "b1a1"),
    ("8/8/8/8/8/B1N5/PP1PPP2/k3KR2 w K - 0 1", "e1f1"),
];

/// A spread of start numbers: the ends, the standard position, and some between.
const STARTS: [u16; 10] = [0, 1, 2, 100, 233, 359, 518, 600, 777, 959];

#[test]
fn every_line_the_search_reports_is_legal_in_both_modes() {
    let mut cases: Vec<(String, Position)> = Vec::new();
    for fen in STANDARD {
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            cases.push((format!("{fen} ({mode:?})"), in_mode(fen, mode)));
        }
    }
    for n in STARTS {
        cases.push((format!("start {n}"), chess960::position(n).unwrap()));
    }
    for (fen, _) in CASTLING_MATES {
        cases.push((fen.to_owned(), in_mode(fen, CastlingMode::Chess960)));
    }
    for (name, pos) in &cases {
        let (outcome, collect) = search(&mut engine(), pos, &Limits::depth(6));
        assert!(!collect.infos.is_empty(), "{name}: no info");
        for info in &collect.infos {
            check_line(pos, &info.pv)
                .unwrap_or_else(|e| panic!("{name}, depth {}: {e}", info.depth));
        }
        let best = outcome.best.unwrap_or_else(|| panic!("{name}: no move"));
        let line: Vec<Move> = [Some(best), outcome.ponder].into_iter().flatten().collect();
        check_line(pos, &line).unwrap_or_else(|e| panic!("{name}, bestmove: {e}"));
        check_line(pos, &outcome.pv).unwrap_or_else(|e| panic!("{name}, final line: {e}"));
    }
}

/// The search keys nothing on how castling is written, so a standard position searched in
/// Chess960 mode walks the very same tree: the same nodes, the same lines move for move. (With
/// the move histories keyed by a castling's `to()`, the rook's square in Chess960, the trees
/// parted at this depth: 20,509 nodes against 20,506 on Kiwipete.)
#[test]
fn chess960_mode_searches_a_standard_position_exactly_as_standard_chess() {
    for fen in rookery_engine::bench::BENCH_POSITIONS {
        let standard = in_mode(fen, CastlingMode::Standard);
        let chess960 = in_mode(fen, CastlingMode::Chess960);
        let limits = Limits::depth(10);
        let (a, _) = search(&mut engine(), &standard, &limits);
        let (b, _) = search(&mut engine(), &chess960, &limits);
        assert_eq!(a.nodes, b.nodes, "{fen}: nodes");
        assert_eq!(a.score, b.score, "{fen}: score");
        assert_eq!(a.pv.len(), b.pv.len(), "{fen}: {:?} / {:?}", a.pv, b.pv);
        let mut pos = chess960;
        for (&m, &n) in a.pv.iter().zip(&b.pv) {
            // The standard move's text names the Chess960 move.
            assert_eq!(UciMove::from_move(m).to_move(&pos), Ok(n), "{fen}: {m} / {n}");
            pos.play_unchecked(n);
        }
    }
}

#[test]
fn castling_that_mates_is_found_and_written_king_takes_rook() {
    for (fen, mate) in CASTLING_MATES {
        let pos = in_mode(fen, CastlingMode::Chess960);
        let mates: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| {
                let mut after = pos;
                after.play_unchecked(m);
                after.is_checkmate()
            })
            .map(|m| m.to_uci())
            .collect();
        assert_eq!(mates, [mate], "{fen}: the one mate in one");
        for limits in [Limits::depth(2), Limits::mate(1), Limits::nodes(2_000)] {
            let (outcome, _) = search(&mut engine(), &pos, &limits);
            let best = outcome.best.map(|m| m.to_uci());
            assert_eq!(best.as_deref(), Some(mate), "{fen} {limits:?}");
            assert_eq!(outcome.score, Some(Score::Mate(1)), "{fen} {limits:?}");
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a seeded sequence for repeatable random games.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Random games from random start positions, castling half the time it is legal and
/// otherwise often bringing a piece off the back rank, so that castling, in all its odd
/// Chess960 forms, is often on the board; at every third ply, and wherever castling is legal,
/// a small search, whose answer and lines must all be legal.
#[test]
fn the_search_never_returns_an_illegal_move_in_random_chess960_games() {
    let mut rng = SplitMix(960);
    let mut engine = engine();
    let (mut searched, mut castling_possible, mut castling_chosen) = (0, 0, 0);
    // Castlings on the board where the king or the rook does not move.
    let mut standing_still = 0;
    for _ in 0..40 {
        let n = rng.below(u64::from(chess960::COUNT)) as u16;
        let mut pos = chess960::position(n).unwrap();
        engine.clear();
        for ply in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.halfmoves() >= 100 {
                break;
            }
            let castlings: Vec<Move> = legal.iter().copied().filter(|m| m.is_castle()).collect();
            if ply % 3 == 0 || !castlings.is_empty() {
                let limits = match rng.below(3) {
                    0 => Limits::depth(1 + rng.below(4) as u32),
                    1 => Limits::nodes(1 + rng.below(3_000)),
                    _ => Limits::nodes(1 + rng.below(20)),
                };
                let (outcome, collect) = search(&mut engine, &pos, &limits);
                let name = format!("start {n}, ply {ply}, {} ({limits:?})", pos.to_fen());
                let best = outcome.best.unwrap_or_else(|| panic!("{name}: no move"));
                check_line(&pos, &[best]).unwrap_or_else(|e| panic!("{name}: {e}"));
                for info in &collect.infos {
                    check_line(&pos, &info.pv).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                searched += 1;
                castling_possible += usize::from(!castlings.is_empty());
                let us = pos.turn();
                standing_still += castlings
                    .iter()
                    .filter(|m| {
                        let side = m.castling_side().unwrap();
                        m.from() == side.king_to(us) || m.to() == side.rook_to(us)
                    })
                    .count();
                castling_chosen += usize::from(best.is_castle());
            }
            // Minor pieces and queens off the back rank, to clear the way for castling.
            let back_rank = Rank::First.relative_to(pos.turn());
            let developing: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| {
                    m.from().rank() == back_rank
                        && matches!(
                            pos.board().role_at(m.from()),
                            Some(Role::Knight | Role::Bishop | Role::Queen)
                        )
                })
                .collect();
            let pick =
                |moves: &[Move], rng: &mut SplitMix| moves[rng.below(moves.len() as u64) as usize];
            let m = if !castlings.is_empty() && rng.below(2) == 0 {
                pick(&castlings, &mut rng)
            } else if !developing.is_empty() && rng.below(2) == 0 {
                pick(&developing, &mut rng)
            } else {
                pick(&legal, &mut rng)
            };
            pos.play_unchecked(m);
        }
    }
    // The walk is seeded, so these counts are fixed (876 searches, castling legal in 118 of
    // them, 50 castlings with the king or the rook standing still, 19 chosen); they show that
    // castling was on the board.
    assert!(searched > 800, "{searched} searches");
    assert!(castling_possible > 100, "castling legal in {castling_possible} searched positions");
    assert!(standing_still > 10, "{standing_still} castlings with the king or rook standing still");
    assert!(castling_chosen > 10, "the search castled {castling_chosen} times");
}
