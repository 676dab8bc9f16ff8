//! The JSON the clients see (docs/protocol.md): the full game, a move, an event, the end.

use rookery_arbiter::{DrawPolicy, Event, Game, GameResult, IllegalMovePolicy, Obligation};
use rookery_core::{ByColor, Color, Position};
use rookery_store::{Player, PlayerKind, RatingChanges};
use serde_json::{json, Map, Value};

use super::Meta;

/// `"white"` or `"black"`.
fn color_name(c: Color) -> &'static str {
    c.name()
}

/// Who is watching and who has gone.
#[derive(Clone, Debug, Default)]
pub struct Crowd {
    /// Spectator connections.
    pub spectators: usize,
    /// Whether each player has a connection.
    pub online: ByColor<bool>,
    /// A player who left, and in how many ms the opponent may claim.
    pub abandoned: Option<(Color, u64)>,
}

/// A player as the protocol shows it.
pub fn player_json(p: &Player) -> Value {
    json!({
        "name": p.name,
        "kind": match p.kind { PlayerKind::User => "user", PlayerKind::Anonymous => "anonymous", PlayerKind::Engine => "engine" },
        "engine_level": p.engine_level,
    })
}

/// Both clocks at game time `now`.
pub fn clock_json(game: &Game, now: u64) -> Value {
    let clock = game.clock();
    let running = if game.is_over() { None } else { clock.running() };
    json!({
        "white_ms": clock.remaining(Color::White, now),
        "black_ms": clock.remaining(Color::Black, now),
        "running": running.map(color_name),
        "delay_ms": running.and_then(|c| clock.delay_remaining(c, now)),
    })
}

/// The legal moves of the side to move, from-square → to-squares.
pub fn dests_json(pos: &Position, over: bool) -> Value {
    let mut map = Map::new();
    if !over {
        for m in pos.legal_moves().iter() {
            let uci = m.to_uci();
            let (from, to) = (&uci[0..2], &uci[2..4]);
            let entry = map.entry(from.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = entry {
                if !list.iter().any(|v| v == to) {
                    list.push(Value::from(to));
                }
            }
        }
    }
    Value::Object(map)
}

fn obligation_json(o: Option<Obligation>) -> Value {
    match o {
        None => Value::Null,
        Some(Obligation::MovePiece(sq)) => {
            json!({ "kind": "move_piece", "square": sq.to_string() })
        }
        Some(Obligation::Capture(sq)) => json!({ "kind": "capture", "square": sq.to_string() }),
    }
}

/// The game's status label.
pub fn status(game: &Game) -> &'static str {
    match game.outcome() {
        None => "live",
        Some(o) if o.result == GameResult::Aborted => "aborted",
        Some(_) => "finished",
    }
}

/// The full game (the `game` of `hello` and `state`, and `GET /api/v1/games/{id}`).
pub fn game_json(meta: &Meta, game: &Game, now: u64, crowd: &Crowd) -> Value {
    let rules = game.rules();
    let pos = game.position();
    let moves: Vec<Value> = game
        .plies()
        .iter()
        .map(|p| json!({ "uci": p.m.to_uci(), "san": p.san, "clock_ms": p.clock_ms }))
        .collect();
    let over = game.is_over();
    let mut claimable = Vec::new();
    if !over && rules.draws == DrawPolicy::Claimed {
        if game.repetitions() >= 3 {
            claimable.push("threefold");
        }
        if pos.halfmoves() >= 100 {
            claimable.push("fifty");
        }
    }
    let strike_limit = match rules.illegal_moves {
        IllegalMovePolicy::RejectOnly => None,
        IllegalMovePolicy::Strikes { limit } => Some(limit),
        IllegalMovePolicy::Fide => Some(2),
    };
    let outcome = game.outcome();
    let mut white = player_json(&meta.white);
    let mut black = player_json(&meta.black);
    white["online"] =
        Value::from(crowd.online[Color::White] || meta.white.kind == PlayerKind::Engine);
    black["online"] =
        Value::from(crowd.online[Color::Black] || meta.black.kind == PlayerKind::Engine);
    json!({
        "id": meta.id.as_str(),
        "status": status(game),
        "rules": rules.label(),
        "time_control": meta.time_control.to_string(),
        "speed": meta.speed,
        "rated": meta.rated,
        "white": white,
        "black": black,
        "initial_fen": game.start_position().to_fen(),
        "moves": moves,
        "fen": pos.to_fen(),
        "ply": game.plies().len(),
        "turn": color_name(pos.turn()),
        "check": pos.is_check(),
        "dests": dests_json(pos, over),
        "clock": clock_json(game, now),
        "offer": if over { None } else { game.pending_offer().map(color_name) },
        "takeback": if over { None } else { game.takeback_request().map(color_name) },
        "strikes": { "white": game.strikes(Color::White), "black": game.strikes(Color::Black) },
        "strike_limit": strike_limit,
        "obligation": obligation_json(if over { None } else { game.obligation() }),
        "claimable": claimable,
        "result": outcome.map(|o| o.result.pgn()),
        "termination": outcome.map(|o| o.termination.label()),
        "reason": game.describe_outcome(),
        "first_move": first_move_json(game, now),
        "spectators": crowd.spectators,
        "abandoned": abandoned_json(crowd),
        "created_at_ms": meta.created_at_ms,
    })
}

/// While a first move is awaited (issue 37): whose, and how long is left before the game is
/// aborted (or forfeited).
fn first_move_json(game: &Game, now: u64) -> Value {
    match game.first_move_deadline() {
        None => Value::Null,
        Some((color, deadline)) => json!({
            "color": color_name(color),
            "ms": deadline.saturating_sub(now),
        }),
    }
}

fn abandoned_json(crowd: &Crowd) -> Value {
    match crowd.abandoned {
        None => Value::Null,
        Some((color, claim_in_ms)) => {
            json!({ "color": color_name(color), "claim_in_ms": claim_in_ms })
        }
    }
}

/// The `crowd` event.
pub fn crowd_json(crowd: &Crowd) -> Value {
    json!({
        "t": "event", "kind": "crowd",
        "spectators": crowd.spectators,
        "white_online": crowd.online[Color::White],
        "black_online": crowd.online[Color::Black],
        "abandoned": abandoned_json(crowd),
    })
}

/// The messages for the events of one action, in order. `GameOver` is left out: the actor
/// sends `end` once the result is stored.
pub fn event_messages(game: &Game, events: &[Event], now: u64) -> Vec<Value> {
    let mut out = Vec::new();
    for event in events {
        let msg = match event {
            Event::MovePlayed { ply, color, m, san, .. } => {
                let offered =
                    events.iter().any(|e| matches!(e, Event::DrawOffered(c) if c == color));
                let pos = game.position();
                let latest = game.plies().len() as u32 == *ply;
                json!({
                    "t": "move", "ply": ply, "uci": m.to_uci(), "san": san, "by": color_name(*color),
                    "offer_draw": offered,
                    "fen": if latest { Value::from(pos.to_fen()) } else { Value::Null },
                    "check": latest && pos.is_check(),
                    "dests": if latest { dests_json(pos, game.is_over()) } else { json!({}) },
                    "clock": clock_json(game, now),
                    "first_move": first_move_json(game, now),
                })
            }
            Event::Check(_) | Event::GameOver(_) | Event::TakenBack { .. } => continue,
            Event::DrawOffered(by) => {
                json!({ "t": "event", "kind": "draw_offered", "by": color_name(*by) })
            }
            Event::DrawDeclined { by, by_moving } => {
                json!({ "t": "event", "kind": "draw_declined", "by": color_name(*by), "by_moving": by_moving })
            }
            Event::Obliged { color, obligation } => json!({
                "t": "event", "kind": "obliged", "color": color_name(*color), "obligation": obligation_json(Some(*obligation)),
            }),
            Event::IllegalMoveCounted { color, count, limit, reason } => json!({
                "t": "event", "kind": "illegal_move", "color": color_name(*color), "count": count,
                "limit": limit, "reason": reason.to_string(),
            }),
            Event::TimeAdded { color, ms } => {
                json!({ "t": "event", "kind": "time_added", "color": color_name(*color), "ms": ms, "clock": clock_json(game, now) })
            }
            Event::DrawClaimable(claim) => {
                json!({ "t": "event", "kind": "draw_claimable", "claim": claim.name() })
            }
            Event::TakebackRequested(by) => {
                json!({ "t": "event", "kind": "takeback_requested", "by": color_name(*by) })
            }
        };
        out.push(msg);
    }
    out
}

/// A level as the API shows it everywhere: the machine label and both names.
pub fn level_json(level: rookery_ladder::Level) -> Value {
    json!({ "label": level.label(), "en": level.en().to_string(), "zh": level.zh().to_string() })
}

/// One side's ladder change.
fn change_json(c: &rookery_store::RatingChange) -> Value {
    json!({
        "points_before": c.points_before.to_string(),
        "points_after": c.points_after.to_string(),
        "level": level_json(rookery_ladder::Level::of(c.points_after)),
        "rating_before": (c.rating_before.rating * 10.0).round() / 10.0,
        "rating_after": (c.rating_after.rating * 10.0).round() / 10.0,
    })
}

/// The `end` message.
pub fn end_json(game: &Game, now: u64, ladder: Option<&RatingChanges>) -> Value {
    let outcome = game.outcome();
    json!({
        "t": "end",
        "result": outcome.map(|o| o.result.pgn()),
        "termination": outcome.map(|o| o.termination.label()),
        "reason": game.describe_outcome(),
        "clock": clock_json(game, now),
        "ladder": ladder.map(|l| json!({ "white": change_json(&l.white), "black": change_json(&l.black) })),
    })
}
