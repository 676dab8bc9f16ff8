//! The engine's promises: a legal move under any limit, draws by repetition and the
//! fifty-move rule seen, time kept on a fake clock, levels that do not blunder queens, and
//! threads that agree.

use std::time::Duration;

use rookery_core::Position;
use rookery_engine::{
    Collect, Engine, Level, Limits, ManualClock, Options, Score, SearchOutcome, Signals, TimeLeft,
};

fn search(engine: &mut Engine, pos: &Position, history: &[u64], limits: &Limits) -> SearchOutcome {
    let clock = ManualClock::new(Duration::ZERO);
    engine.search(pos, history, limits, &Signals::new(), &clock, &mut ())
}

fn position(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The position after `moves` (UCI) from `fen`, and the repetition keys before it.
fn play(fen: &str, moves: &[&str]) -> (Position, Vec<u64>) {
    let mut pos = position(fen);
    let mut history = Vec::new();
    for text in moves {
        let m = *pos.legal_moves().iter().find(|m| m.to_uci() == *text).unwrap();
        history.push(pos.repetition_key());
        pos.play_unchecked(m);
    }
    (pos, history)
}

const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/8/8/5k2/8/4K2q w - - 0 1",
];

#[test]
fn always_a_legal_move() {
    let mut engine = Engine::new();
    for fen in POSITIONS {
        let pos = position(fen);
        for limits in [
            Limits::nodes(1),
            Limits::nodes(2),
            Limits::nodes(100),
            Limits::depth(1),
            Limits::movetime(Duration::ZERO),
            Limits::clock(TimeLeft::default()),
        ] {
            let outcome = search(&mut engine, &pos, &[], &limits);
            let best = outcome.best.unwrap_or_else(|| panic!("{fen} {limits:?}: no move"));
            assert!(pos.is_legal(best), "{fen} {limits:?}: {best}");
        }
    }
}

#[test]
fn stopped_before_starting_still_answers() {
    let mut engine = Engine::new();
    let signals = Signals::new();
    signals.stop();
    for fen in POSITIONS {
        let pos = position(fen);
        let outcome = engine.search(
            &pos,
            &[],
            &Limits::default(),
            &signals,
            &ManualClock::new(Duration::ZERO),
            &mut (),
        );
        assert!(pos.is_legal(outcome.best.unwrap()), "{fen}");
    }
}

#[test]
fn no_move_in_mate_or_stalemate() {
    let mut engine = Engine::new();
    for fen in [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let mut collect = Collect::default();
        let outcome = engine.search(
            &position(fen),
            &[],
            &Limits::depth(3),
            &Signals::new(),
            &ManualClock::new(Duration::ZERO),
            &mut collect,
        );
        assert_eq!(outcome.best, None, "{fen}");
        assert_eq!(collect.best.map(|b| b.best), Some(None), "{fen}");
    }
}

#[test]
fn searchmoves_restrict_the_root() {
    let mut engine = Engine::new();
    let pos = Position::new();
    let only: Vec<_> = pos.legal_moves().iter().copied().filter(|m| m.to_uci() == "a2a3").collect();
    let limits = Limits { depth: Some(4), search_moves: only.clone(), ..Limits::default() };
    assert_eq!(search(&mut engine, &pos, &[], &limits).best, Some(only[0]));
}

#[test]
fn repetition_against_the_game_history_is_a_draw() {
    // Black, a queen down, can repeat the position after its rook's first move.
    let fen = "1r6/7k/8/8/3Q4/8/8/R5K1 b - - 0 1";
    let mut engine = Engine::new();
    let lost = search(&mut engine, &position(fen), &[], &Limits::depth(6));
    assert!(matches!(lost.score, Some(Score::Centipawns(cp)) if cp < -500), "{lost:?}");
    let (pos, history) = play(fen, &["b8b7", "d4d5", "b7b8", "d5d4"]);
    engine.clear();
    let drawn = search(&mut engine, &pos, &history, &Limits::depth(6));
    assert_eq!(drawn.score, Some(Score::Centipawns(0)), "{drawn:?}");
    assert_eq!(drawn.best.map(|m| m.to_uci()), Some("b8b7".to_owned()));
}

#[test]
fn fifty_move_rule() {
    // Mate in one still mates on the 100th half-move: the mate comes first.
    let mut engine = Engine::new();
    let mate = search(
        &mut engine,
        &position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80"),
        &[],
        &Limits::depth(4),
    );
    assert_eq!(mate.score, Some(Score::Mate(1)));
    // King and queen against king, but the fifty-move rule strikes before any mate.
    let draw =
        search(&mut engine, &position("8/8/8/3k4/8/8/1Q6/4K3 w - - 99 80"), &[], &Limits::depth(6));
    assert_eq!(draw.score, Some(Score::Centipawns(0)), "{draw:?}");
    let win =
        search(&mut engine, &position("8/8/8/3k4/8/8/1Q6/4K3 w - - 0 80"), &[], &Limits::depth(6));
    assert!(
        matches!(win.score, Some(Score::Centipawns(cp)) if cp > 500)
            || matches!(win.score, Some(Score::Mate(_))),
        "{win:?}"
    );
}

#[test]
fn time_is_kept_on_a_fake_clock() {
    // Every reading of this clock (one per 1024 nodes) advances it by ten milliseconds.
    let mut engine = Engine::new();
    let pos = position(POSITIONS[1]);
    for (remaining, increment, moves_to_go) in
        [(60_000, 0, None), (1_000, 100, None), (5_000, 0, Some(1)), (40, 0, None)]
    {
        let clock = ManualClock::new(Duration::from_millis(10));
        let limits = Limits::clock(TimeLeft {
            remaining: Duration::from_millis(remaining),
            increment: Duration::from_millis(increment),
            moves_to_go,
        });
        let outcome = engine.search(&pos, &[], &limits, &Signals::new(), &clock, &mut ());
        assert!(pos.is_legal(outcome.best.unwrap()));
        // At most half the clock, or four fifths before a time control, less the overhead.
        let share = if moves_to_go == Some(1) { remaining * 4 / 5 } else { remaining / 2 };
        let allowed = Duration::from_millis(share).saturating_sub(Options::default().move_overhead);
        // A few readings after the limit: the final report and the answer.
        assert!(
            outcome.time <= allowed + Duration::from_millis(60),
            "{remaining}+{increment}: {:?}",
            outcome.time
        );
        assert!(outcome.depth >= 1);
    }
    let clock = ManualClock::new(Duration::from_millis(10));
    let outcome = engine.search(
        &pos,
        &[],
        &Limits::movetime(Duration::from_millis(300)),
        &Signals::new(),
        &clock,
        &mut (),
    );
    assert!(
        outcome.time >= Duration::from_millis(300) && outcome.time <= Duration::from_millis(360),
        "{:?}",
        outcome.time
    );
}

#[test]
fn nodes_limit_is_exact_on_one_thread() {
    let mut engine = Engine::new();
    for nodes in [1, 10, 1_000, 12_345] {
        let outcome = search(&mut engine, &Position::new(), &[], &Limits::nodes(nodes));
        assert_eq!(outcome.nodes, nodes);
    }
}

#[test]
fn the_same_search_twice_is_the_same() {
    let pos = position(POSITIONS[1]);
    let run = || {
        let mut engine = Engine::new();
        let outcome = search(&mut engine, &pos, &[], &Limits::depth(8));
        (outcome.best, outcome.nodes, outcome.score, outcome.pv)
    };
    assert_eq!(run(), run());
}

#[test]
fn threads_find_the_same_mate() {
    let mut engine = Engine::with_options(Options { threads: 3, ..Options::default() }).unwrap();
    let pos = position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let outcome = search(&mut engine, &pos, &[], &Limits::depth(6));
    assert_eq!(outcome.best.map(|m| m.to_uci()), Some("h5f7".to_owned()));
    assert_eq!(outcome.score, Some(Score::Mate(1)));
    for fen in POSITIONS {
        let pos = position(fen);
        let outcome = search(&mut engine, &pos, &[], &Limits::nodes(20_000));
        assert!(pos.is_legal(outcome.best.unwrap()));
    }
}

#[test]
fn multipv_ranks_lines() {
    let mut engine = Engine::with_options(Options { multipv: 4, ..Options::default() }).unwrap();
    let mut collect = Collect::default();
    engine.search(
        &Position::new(),
        &[],
        &Limits::depth(5),
        &Signals::new(),
        &ManualClock::new(Duration::ZERO),
        &mut collect,
    );
    let last: Vec<_> = collect.infos.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(last.iter().map(|i| i.multipv).collect::<Vec<_>>(), [1, 2, 3, 4]);
    let firsts: std::collections::HashSet<_> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 4, "four different moves");
    let cp = |s: Score| match s {
        Score::Centipawns(cp) => cp,
        Score::Mate(_) => panic!("no mate from the start"),
    };
    assert!(last.windows(2).all(|w| cp(w[0].score) >= cp(w[1].score)));
}

#[test]
fn levels_never_drop_the_queen() {
    // Positions where the queen can be left en prise or traded for nothing; every level must
    // keep it (scores from its own multi-PV search rule such moves out).
    let positions = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 2 3",
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR b KQkq - 0 3",
        "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R b KQkq - 0 6",
        "4k3/8/8/3q4/8/2N5/8/4K3 b - - 0 1",
    ];
    for fen in positions {
        let pos = position(fen);
        for n in 1..=8 {
            let mut engine = Engine::new();
            engine.set_level(Level::new(n));
            for seed in 0..6 {
                engine.set_seed(seed);
                let outcome = search(&mut engine, &pos, &[], &Limits::default());
                let m = outcome.best.unwrap();
                let mut after = pos;
                after.play_unchecked(m);
                // Does the opponent win the queen at once?
                let us = pos.turn();
                let queen_lost = after.legal_moves().iter().any(|&reply| {
                    after.captured_role(reply) == Some(rookery_core::Role::Queen) && {
                        let mut next = after;
                        next.play_unchecked(reply);
                        // ... and cannot take back on that square.
                        !next.legal_moves().iter().any(|r| r.to() == reply.to())
                    }
                });
                assert!(
                    !queen_lost,
                    "level {n} seed {seed} hangs the queen with {m} in {fen} ({us})"
                );
            }
        }
    }
}

#[test]
fn levels_vary_their_moves() {
    let pos = Position::new();
    let mut engine = Engine::new();
    engine.set_level(Level::new(2));
    let mut moves = std::collections::HashSet::new();
    for seed in 0..20 {
        engine.set_seed(seed);
        moves.insert(search(&mut engine, &pos, &[], &Limits::default()).best);
    }
    assert!(moves.len() >= 3, "{moves:?}");
}

#[test]
fn a_network_from_a_file() {
    use rookery_engine::nnue::{Weights, QA, QB, SCALE};
    use std::path::Path;

    let pos = position(POSITIONS[1]);
    let run = |engine: &mut Engine, depth| {
        engine.clear();
        let outcome = search(engine, &pos, &[], &Limits::depth(depth));
        (outcome.best, outcome.nodes, outcome.score)
    };
    let mut engine = Engine::new();
    let built_in = (run(&mut engine, 1), run(&mut engine, 8));
    assert_eq!(engine.eval_file(), None);

    // The built-in network's own file searches the same trees.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue");
    engine.set_eval_file(Some(&file)).unwrap();
    assert_eq!(engine.eval_file(), Some(file.as_path()));
    assert_eq!((run(&mut engine, 1), run(&mut engine, 8)), built_in);

    // Another network (the same with half a pawn more for the side to move) scores otherwise.
    let dir = std::env::temp_dir().join(format!("rookery-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut weights = Weights::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    let before = weights.evaluate(&pos);
    weights.output_bias.iter_mut().for_each(|b| *b += 50 * QA * QB / SCALE);
    assert_eq!(weights.evaluate(&pos), before + 50);
    let other = dir.join("other.nnue");
    std::fs::write(&other, weights.to_bytes()).unwrap();
    engine.set_eval_file(Some(&other)).unwrap();
    assert_ne!(run(&mut engine, 1).2, built_in.0 .2);

    // A file that is missing or not a network is refused, naming it, and the network in use
    // stays.
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, "not a network").unwrap();
    for bad in [dir.join("missing.nnue"), garbage] {
        let error = engine.set_eval_file(Some(&bad)).unwrap_err();
        assert_eq!(error.path, bad);
        assert!(error.to_string().contains(&bad.display().to_string()), "{error}");
        assert_eq!(engine.eval_file(), Some(other.as_path()));
    }
    std::fs::remove_dir_all(&dir).unwrap();

    // And back to the built-in network.
    engine.set_eval_file(None).unwrap();
    assert_eq!((run(&mut engine, 1), run(&mut engine, 8)), built_in);
}
