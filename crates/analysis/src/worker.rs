//! The analyst: one background worker that analyses finished games one at a time, each
//! position searched by the built-in engine to a fixed node count on a blocking thread, so
//! that the server's own threads stay free for the players. The queue is the database
//! (`analyses` rows), so a restart loses no job; the worker only holds the running one's
//! progress.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rookery_core::{ByColor, Color, Position};
use rookery_engine::{Engine, Limits, Options, Score, Signals};
use rookery_pgn::main_line::MainLine;
use serde::Serialize;
use tokio::sync::Notify;

use rookery_store::{now_ms, Store, StoredGame};

use crate::judge::{game_accuracy, judge, move_accuracy, Eval, Judgement};

/// The worker's state, shared with the handlers.
pub struct Analyst {
    /// Nodes searched per position in the jobs queued from now on.
    nodes: u64,
    wake: Notify,
    closing: AtomicBool,
    running: Mutex<Option<Running>>,
}

/// The job being computed.
struct Running {
    game: String,
    done: Arc<AtomicUsize>,
    total: usize,
    signals: Arc<Signals>,
}

/// How far the running job is: positions searched out of all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Positions searched.
    pub done: usize,
    /// Positions in the game (moves + 1).
    pub total: usize,
}

impl Analyst {
    /// An analyst searching `nodes` nodes per position.
    pub fn new(nodes: u64) -> Analyst {
        Analyst {
            nodes: nodes.max(1),
            wake: Notify::new(),
            closing: AtomicBool::new(false),
            running: Mutex::new(None),
        }
    }

    /// Nodes searched per position.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A job was queued: take it if idle.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The progress of `game`'s analysis if it is the one running.
    pub fn progress(&self, game: &str) -> Option<Progress> {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running
            .as_ref()
            .filter(|r| r.game == game)
            .map(|r| Progress { done: r.done.load(Ordering::Relaxed).min(r.total), total: r.total })
    }

    /// The server stops: the running search ends at once and its job stays `running` in the
    /// database, to be queued again when the server starts.
    pub fn stop(&self) {
        self.closing.store(true, Ordering::Relaxed);
        if let Some(r) = self.running.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            r.signals.stop();
        }
        self.wake.notify_one();
    }

    fn is_closing(&self) -> bool {
        self.closing.load(Ordering::Relaxed)
    }
}

/// How the worker reads the main line of a finished game from what the store holds of it:
/// the server's one reading of a game's record (its PGN, or for a game its PGN reader cannot
/// read back, such as Chess960's, its action log), each position in the game's castling
/// mode; or why not.
pub type ReadLine = fn(&StoredGame) -> Result<MainLine, String>;

/// Takes queued jobs oldest first, one at a time, until the server stops, reading each game's
/// main line with `read_line`.
pub async fn run(store: Store, analyst: Arc<Analyst>, read_line: ReadLine) {
    while !analyst.is_closing() {
        match store.take_queued_analysis().await {
            Ok(Some(job)) => {
                let started = Instant::now();
                // The budget asked for with the job, so that its report says what it was.
                let nodes = u64::try_from(job.nodes).unwrap_or(1).max(1);
                let outcome = analyse_game(&store, &analyst, &job.game_id, nodes, read_line).await;
                if analyst.is_closing() {
                    break;
                }
                let stored = match outcome {
                    Ok(report) => {
                        tracing::info!(game = %job.game_id, secs = started.elapsed().as_secs_f32(), "game analysed");
                        store.finish_analysis(&job.game_id, &report, now_ms() as i64).await
                    }
                    Err(why) => {
                        tracing::warn!(game = %job.game_id, %why, "game analysis failed");
                        store.fail_analysis(&job.game_id, &why, now_ms() as i64).await
                    }
                };
                if let Err(e) = stored {
                    tracing::error!(game = %job.game_id, error = %e, "cannot store a game analysis");
                }
            }
            // A job queued after this read has left a permit in `wake`: nothing is missed.
            Ok(None) => analyst.wake.notified().await,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the analysis queue");
                tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            }
        }
    }
}

/// Reads the game's record and analyses its main line on a blocking thread: the report as
/// JSON, or why not.
async fn analyse_game(
    store: &Store,
    analyst: &Analyst,
    game: &str,
    nodes: u64,
    read_line: ReadLine,
) -> Result<String, String> {
    let stored = store
        .game(game)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("game {game:?} is gone"))?;
    let line = read_line(&stored)?;
    let running = Running {
        game: game.to_owned(),
        done: Arc::new(AtomicUsize::new(0)),
        total: line.plies.len() + 1,
        signals: Arc::new(Signals::new()),
    };
    let (done, signals) = (running.done.clone(), running.signals.clone());
    *analyst.running.lock().unwrap_or_else(|e| e.into_inner()) = Some(running);
    let report =
        tokio::task::spawn_blocking(move || analyse_line(&line, nodes, &done, &signals)).await;
    *analyst.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
    match report {
        Ok(Ok(Some(report))) => serde_json::to_string(&report).map_err(|e| e.to_string()),
        Ok(Ok(None)) => Err("stopped".into()),
        Ok(Err(e)) => Err(e),
        Err(e) => Err(format!("the analysis thread failed: {e}")),
    }
}

/// The analysis of a game, as stored and served (docs/api.md, "Analysis").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Nodes searched per position.
    pub nodes: u64,
    /// One per position, from the start: White's point of view.
    pub evals: Vec<PositionEval>,
    /// One per move.
    pub moves: Vec<MoveJudgement>,
    /// Accuracy and counts per player.
    pub players: ByColorReport,
}

/// The evaluation of one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionEval {
    /// Moves played before it.
    pub ply: usize,
    /// Centipawns for White, unless there is a mate.
    pub cp: Option<i32>,
    /// Mate in moves, negative when Black mates; 0 when the side to move is checkmated.
    pub mate: Option<i32>,
    /// White's win percentage (lichess's `WinPercent`), for the graph.
    pub win: f64,
    /// The engine's move, in UCI and SAN; none when the game is over on the board.
    pub best: Option<String>,
    /// The same in SAN.
    pub best_san: Option<String>,
    /// The depth reached.
    pub depth: u32,
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveJudgement {
    /// Moves played up to and including it (1 for the first).
    pub ply: usize,
    /// Who made it.
    pub color: &'static str,
    /// The move in SAN.
    pub san: String,
    /// Its accuracy, 0 to 100 (lichess's `AccuracyPercent`).
    pub accuracy: f64,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub judgement: Option<&'static str>,
    /// `?!`, `?` or `??`.
    pub glyph: Option<&'static str>,
    /// The engine's move instead, in SAN, for a judged move.
    pub better: Option<String>,
}

/// Per player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ByColorReport {
    /// White.
    pub white: PlayerReport,
    /// Black.
    pub black: PlayerReport,
}

/// One player's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerReport {
    /// Accuracy over the game (lichess's game accuracy), `None` without a move.
    pub accuracy: Option<f64>,
    /// `?!` moves.
    pub inaccuracies: u32,
    /// `?` moves.
    pub mistakes: u32,
    /// `??` moves.
    pub blunders: u32,
}

fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Searches every position of `line` for `nodes` nodes (a fixed budget, so the same game
/// always gets the same report), counting positions in `done`; `None` if `signals` stopped
/// it.
///
/// The positions are searched from the last to the first with one transposition table, as
/// fishnet does: what the later searches learnt (the refutation of a blunder, a mate) is in
/// the table when the position before is searched.
///
/// # Errors
/// The engine's hash table cannot be had.
pub fn analyse_line(
    line: &MainLine,
    nodes: u64,
    done: &AtomicUsize,
    signals: &Signals,
) -> Result<Option<Report>, String> {
    let mut positions: Vec<Position> = Vec::with_capacity(line.plies.len() + 1);
    let mut pos = line.start;
    positions.push(pos);
    for m in line.moves() {
        pos.play_unchecked(m);
        positions.push(pos);
    }
    let keys: Vec<u64> = positions.iter().map(Position::repetition_key).collect();
    let mut engine = Engine::with_options(Options { hash_mb: 16, ..Options::default() })
        .map_err(|e| e.to_string())?;
    let limits = Limits::nodes(nodes);
    let mut searched: Vec<(Eval, Option<rookery_core::Move>, u32)> =
        vec![(Eval::Cp(0), None, 0); positions.len()];
    for (i, pos) in positions.iter().enumerate().rev() {
        if signals.is_stopped() {
            return Ok(None);
        }
        searched[i] = if !pos.has_legal_moves() {
            let eval = if pos.is_check() {
                Eval::Mate { moves: 0, winner: !pos.turn() }
            } else {
                Eval::Cp(0)
            };
            (eval, None, 0)
        } else {
            let outcome =
                engine.search(pos, &keys[..i], &limits, signals, &Instant::now(), &mut ());
            if signals.is_stopped() {
                return Ok(None);
            }
            let white = |n: i32| if pos.turn() == Color::White { n } else { -n };
            let eval = match outcome.score {
                Some(Score::Mate(n)) => Eval::Mate {
                    moves: n.unsigned_abs(),
                    winner: if n > 0 { pos.turn() } else { !pos.turn() },
                },
                Some(Score::Centipawns(cp)) => Eval::Cp(white(cp)),
                None => Eval::Cp(0),
            };
            (eval, outcome.best, outcome.depth)
        };
        done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(Some(report(line, &positions, &searched, nodes)))
}

fn report(
    line: &MainLine,
    positions: &[Position],
    searched: &[(Eval, Option<rookery_core::Move>, u32)],
    nodes: u64,
) -> Report {
    let evals: Vec<PositionEval> = searched
        .iter()
        .zip(positions)
        .enumerate()
        .map(|(ply, (&(eval, best, depth), pos))| PositionEval {
            ply,
            cp: match eval {
                Eval::Cp(cp) => Some(cp),
                Eval::Mate { .. } => None,
            },
            mate: eval.signed_mate(),
            win: tenths(eval.white_win_percent()),
            best: best.map(|m| m.to_uci().to_string()),
            best_san: best.map(|m| pos.san(m)),
            depth,
        })
        .collect();
    let mut players = ByColor::<PlayerReport>::default();
    let mut moves = Vec::with_capacity(line.plies.len());
    for (i, ply) in line.plies.iter().enumerate() {
        let pos = &positions[i];
        let mover = pos.turn();
        let (before, best, _) = searched[i];
        let after = searched[i + 1].0;
        let pov = |w: f64| if mover == Color::White { w } else { 100.0 - w };
        let accuracy =
            move_accuracy(pov(before.white_win_percent()), pov(after.white_win_percent()));
        // The engine's own move is never marked, whatever a search of the next position says.
        let judgement = judge(before, after, mover).filter(|_| best != Some(ply.m));
        let counts = players.get_mut(mover);
        match judgement {
            Some(Judgement::Inaccuracy) => counts.inaccuracies += 1,
            Some(Judgement::Mistake) => counts.mistakes += 1,
            Some(Judgement::Blunder) => counts.blunders += 1,
            None => {}
        }
        moves.push(MoveJudgement {
            ply: i + 1,
            color: mover.name(),
            san: pos.san(ply.m),
            accuracy: tenths(accuracy),
            judgement: judgement.map(Judgement::as_str),
            glyph: judgement.map(Judgement::glyph),
            better: judgement.and(best).map(|m| pos.san(m)),
        });
    }
    let evals_only: Vec<Eval> = searched.iter().map(|s| s.0).collect();
    let accuracy = game_accuracy(&evals_only, line.start.turn());
    players.white.accuracy = accuracy.white.map(tenths);
    players.black.accuracy = accuracy.black.map(tenths);
    Report {
        nodes,
        evals,
        moves,
        players: ByColorReport { white: players.white, black: players.black },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_pgn::main_line::{self, read_main_line};

    fn line(pgn: &str) -> MainLine {
        read_main_line(pgn, main_line::Options::default()).unwrap().unwrap()
    }

    /// A fixed node budget makes the report a function of the game: computed once, it is the
    /// report anyone would get.
    #[test]
    fn the_same_game_gets_the_same_report() {
        let game = line("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0");
        let done = AtomicUsize::new(0);
        let first = analyse_line(&game, 5_000, &done, &Signals::new()).unwrap().unwrap();
        assert_eq!(done.load(Ordering::Relaxed), 8, "every position once");
        let again = analyse_line(&game, 5_000, &AtomicUsize::new(0), &Signals::new()).unwrap();
        assert_eq!(Some(first.clone()), again);
        assert_eq!((first.evals.len(), first.moves.len()), (8, 7));
        assert_eq!(first.evals[7].mate, Some(0), "Black is mated on the board");
        assert_eq!(first.evals[6].mate, Some(1), "after 3...Nf6 White mates in one");
        assert_eq!(first.moves[5].judgement, Some("blunder"), "{:?}", first.moves[5]);
    }

    #[test]
    fn a_stopped_analysis_reports_nothing() {
        let signals = Signals::new();
        signals.stop();
        let game = line("1. d4 d5 *");
        assert_eq!(analyse_line(&game, 5_000, &AtomicUsize::new(0), &signals), Ok(None));
    }
}
