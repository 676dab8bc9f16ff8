//! The messages the clients see (docs/protocol.md), built from a live arbiter [`Game`], or
//! from a finished game's stored record: the full game, a move, an event, the end.

use rookery_arbiter::{
    DrawClaim, DrawPolicy, Event, Game, GameRecord, GameResult, IllegalMovePolicy, Outcome,
    RecordedPly, RuleSet, Termination,
};
use rookery_core::{ByColor, Color};
use rookery_pgn::main_line::{MainLine, Ply};
use rookery_pgn::Location;
use rookery_store::{GameStatus, GameSummary, PlayerKind, RatingChanges};

use super::{Meta, StoredGameError};
use crate::protocol::{
    Abandoned, ChangeView, ClockView, Dests, EndMessage, EventMessage, FirstMove, GameId, GameView,
    LadderView, MoveMessage, MoveView, OpeningView, PlayerView, ServerMessage, TournamentRef,
    Variant,
};

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

impl Crowd {
    fn abandoned(&self) -> Option<Abandoned> {
        self.abandoned.map(|(color, claim_in_ms)| Abandoned { color, claim_in_ms })
    }

    /// The `crowd` event.
    pub fn event(&self) -> ServerMessage {
        ServerMessage::Event(EventMessage::Crowd {
            spectators: self.spectators,
            white_online: self.online[Color::White],
            black_online: self.online[Color::Black],
            abandoned: self.abandoned(),
        })
    }
}

/// Both clocks at game time `now`.
fn clock_view(game: &Game, now: u64) -> ClockView {
    let clock = game.clock();
    let running = if game.is_over() { None } else { clock.running() };
    ClockView {
        white_ms: clock.remaining(Color::White, now),
        black_ms: clock.remaining(Color::Black, now),
        running,
        delay_ms: running.and_then(|c| clock.delay_remaining(c, now)),
        server_ms: None,
    }
}

/// The illegal move that loses under `rules`, when counted by number.
fn strike_limit(rules: RuleSet) -> Option<u8> {
    match rules.illegal_moves {
        IllegalMovePolicy::RejectOnly => None,
        IllegalMovePolicy::Strikes { limit } => Some(limit),
        IllegalMovePolicy::Fide => Some(2),
    }
}

/// A player in a `game`: engines are always online.
fn player(p: &rookery_store::Player, online: bool) -> PlayerView {
    PlayerView { online: Some(online || p.kind == PlayerKind::Engine), ..PlayerView::of(p) }
}

/// While a first move is awaited (issue 37): whose, and how long is left before the game is
/// aborted (or forfeited).
fn first_move(game: &Game, now: u64) -> Option<FirstMove> {
    let (color, deadline) = game.first_move_deadline()?;
    Some(FirstMove { color, ms: deadline.saturating_sub(now) })
}

/// The live game (the `game` of `hello` and `state`, and `GET /api/v1/games/{id}`).
pub fn live_view(meta: &Meta, game: &Game, now: u64, crowd: &Crowd) -> GameView {
    let rules = game.rules();
    let pos = game.position();
    let over = game.is_over();
    let mut claimable = Vec::new();
    if !over && rules.draws == DrawPolicy::Claimed {
        if game.repetitions() >= 3 {
            claimable.push(DrawClaim::ThreefoldRepetition);
        }
        if pos.halfmoves() >= 100 {
            claimable.push(DrawClaim::FiftyMoves);
        }
    }
    let outcome = game.outcome();
    let status = match outcome {
        None => GameStatus::Live,
        Some(o) if o.result == GameResult::NoResult => GameStatus::Aborted,
        Some(_) => GameStatus::Finished,
    };
    GameView {
        id: meta.id.clone(),
        status,
        rules: rules.label(),
        time_control: meta.time_control.clone(),
        speed: meta.speed,
        rated: meta.rated,
        variant: meta.variant,
        white: player(&meta.white, crowd.online[Color::White]),
        black: player(&meta.black, crowd.online[Color::Black]),
        initial_fen: *game.start_position(),
        moves: game
            .plies()
            .iter()
            .map(|p| MoveView { uci: p.m.into(), san: p.san, clock_ms: p.clock_ms })
            .collect(),
        fen: *pos,
        ply: game.plies().len(),
        turn: pos.turn(),
        check: pos.is_check(),
        dests: Dests::of(pos, over),
        clock: clock_view(game, now),
        offer: if over { None } else { game.pending_offer() },
        takeback: if over { None } else { game.takeback_request() },
        strikes: ByColor::new_with(|c| game.strikes(c)),
        offer_barred: ByColor::new_with(|c| !over && game.offer_barred(c)),
        strike_limit: strike_limit(rules),
        obligation: if over { None } else { game.obligation() },
        claimable,
        result: outcome.map(|o| o.result),
        termination: outcome.map(|o| o.termination),
        reason: game.describe_outcome(),
        first_move: first_move(game, now),
        spectators: crowd.spectators,
        abandoned: crowd.abandoned(),
        created_at_ms: meta.created_at_ms,
        tournament: meta.tournament.as_ref().map(TournamentRef::of),
        opening: opening_of(game),
    }
}

/// The opening the game has reached (crates/openings).
fn opening_of(game: &Game) -> Option<OpeningView> {
    let moves: Vec<rookery_core::Move> = game.plies().iter().map(|p| p.m).collect();
    OpeningView::of_game(game.start_position(), &moves)
}

/// The game's PGN record with its opening's `ECO` and `Opening` tags (issue 38).
pub fn record_pgn(game: &Game) -> String {
    let tags = opening_of(game)
        .map(|o| {
            vec![("ECO".to_owned(), o.eco.to_owned()), ("Opening".to_owned(), o.name.to_owned())]
        })
        .unwrap_or_default();
    game.to_pgn_with(&tags)
}

/// The record of a game as its replay holds it: what [`GameRecord::from_pgn`] reads back from
/// the game's PGN, but for the clocks, which are to the millisecond here.
pub fn record_of(game: &Game) -> GameRecord {
    GameRecord {
        start: *game.start_position(),
        plies: game
            .plies()
            .iter()
            .map(|p| RecordedPly {
                m: p.m,
                san: p.san,
                color: p.color,
                clock_ms: p.clock_ms,
                offered_draw: p.offered_draw,
                illegal_attempts: p.illegal_attempts.clone(),
            })
            .collect(),
        unplayed_attempts: game.unplayed_attempts().to_vec(),
        tags: game.spec().tags.clone(),
    }
}

/// The main line of a record, as the engine analysis reads it.
pub fn main_line(record: &GameRecord) -> MainLine {
    MainLine {
        tags: record.tags.clone(),
        start: record.start,
        plies: record
            .plies
            .iter()
            .map(|p| Ply {
                m: p.m,
                san: p.san,
                at: Location { line: 0, column: 0 },
                comments: Vec::new(),
            })
            .collect(),
        comments: Vec::new(),
        result: None,
    }
}

/// A finished (or aborted) game no actor holds, from what is stored: its row and its
/// `record` (read once from its PGN, see [`crate::live::finished_record`]). Its clocks are
/// the record's, with the flag-fallen side at zero.
///
/// # Errors
/// [`StoredGameError`] for a row that does not read.
pub fn finished_view(g: &GameSummary, record: &GameRecord) -> Result<GameView, StoredGameError> {
    let id = GameId::parse(&g.id).ok_or_else(|| StoredGameError::Id(g.id.clone()))?;
    let rules: RuleSet = g.rules.parse().map_err(StoredGameError::Rules)?;
    let time_control: rookery_arbiter::TimeControl =
        g.time_control.parse().map_err(StoredGameError::TimeControl)?;
    let variant = Variant::of_start(g.variant, &record.start).map_err(StoredGameError::Variant)?;
    let result = g.result.ok_or(StoredGameError::NoRecord)?;
    let termination = match g.termination.as_deref() {
        Some(label) => Termination::from_label(label)
            .ok_or_else(|| StoredGameError::Termination(label.to_owned()))?,
        None => return Err(StoredGameError::NoRecord),
    };
    let end = record.end();
    let flagged =
        matches!(termination, Termination::Timeout | Termination::TimeoutVsInsufficientMaterial)
            .then_some(end.turn());
    let clock = |c: Color| {
        if flagged == Some(c) && time_control.is_timed() {
            Some(0)
        } else {
            record.last_clock_ms(c, &time_control)
        }
    };
    let missed_start = (termination == Termination::NoStart).then_some(end.turn());
    let strikes = |c: Color| u8::try_from(record.strikes(c)).unwrap_or(u8::MAX);
    Ok(GameView {
        id,
        status: g.status,
        rules: rules.label(),
        speed: time_control.speed().name(),
        clock: ClockView {
            white_ms: clock(Color::White),
            black_ms: clock(Color::Black),
            running: None,
            delay_ms: None,
            server_ms: None,
        },
        time_control,
        rated: g.rated,
        variant,
        white: player(&g.white, false),
        black: player(&g.black, false),
        initial_fen: record.start,
        moves: record
            .plies
            .iter()
            .map(|p| MoveView { uci: p.m.into(), san: p.san, clock_ms: p.clock_ms })
            .collect(),
        fen: end,
        ply: record.plies.len(),
        turn: end.turn(),
        check: end.is_check(),
        dests: Dests::default(),
        offer: None,
        takeback: None,
        strikes: ByColor::new_with(strikes),
        offer_barred: ByColor::default(),
        strike_limit: strike_limit(rules),
        obligation: None,
        claimable: Vec::new(),
        result: Some(result),
        termination: Some(termination),
        reason: Some(Outcome { result, termination }.describe_missed(missed_start)),
        first_move: None,
        spectators: 0,
        abandoned: None,
        created_at_ms: g.created_at_ms.max(0) as u64,
        tournament: g.tournament.as_ref().map(TournamentRef::of),
        opening: OpeningView::of_game(
            &record.start,
            &record.plies.iter().map(|p| p.m).collect::<Vec<_>>(),
        ),
    })
}

/// The messages for the events of one action, in order. `GameOver` is left out: the actor
/// sends `end` once the result is stored.
pub fn event_messages(game: &Game, events: &[Event], now: u64) -> Vec<ServerMessage> {
    let mut out = Vec::new();
    for event in events {
        let event = match event {
            Event::MovePlayed { ply, color, m, san, .. } => {
                let offered =
                    events.iter().any(|e| matches!(e, Event::DrawOffered(c) if c == color));
                let pos = game.position();
                // When one action plays two moves (a wrong claim with a written move), only the
                // last describes the position.
                let latest = game.plies().len() as u32 == *ply;
                out.push(ServerMessage::Move(Box::new(MoveMessage {
                    ply: *ply,
                    uci: (*m).into(),
                    san: *san,
                    by: *color,
                    offer_draw: offered,
                    fen: latest.then_some(*pos),
                    check: latest && pos.is_check(),
                    dests: if latest { Dests::of(pos, game.is_over()) } else { Dests::default() },
                    clock: clock_view(game, now),
                    first_move: first_move(game, now),
                    opening: if latest { opening_of(game) } else { None },
                })));
                continue;
            }
            Event::Check(_) | Event::GameOver(_) | Event::TakenBack { .. } => continue,
            Event::DrawOffered(by) => EventMessage::DrawOffered { by: *by },
            Event::DrawDeclined { by, by_moving } => {
                EventMessage::DrawDeclined { by: *by, by_moving: *by_moving }
            }
            Event::Obliged { color, obligation } => {
                EventMessage::Obliged { color: *color, obligation: *obligation }
            }
            Event::IllegalMoveCounted { color, count, limit, reason } => {
                EventMessage::IllegalMove {
                    color: *color,
                    count: *count,
                    limit: *limit,
                    reason: *reason,
                    code: *reason,
                }
            }
            Event::TimeAdded { color, ms } => {
                EventMessage::TimeAdded { color: *color, ms: *ms, clock: clock_view(game, now) }
            }
            Event::Berserk { color } => {
                EventMessage::Berserk { color: *color, clock: clock_view(game, now) }
            }
            Event::DrawClaimable(claim) => EventMessage::DrawClaimable { claim: *claim },
            Event::TakebackRequested(by) => EventMessage::TakebackRequested { by: *by },
        };
        out.push(ServerMessage::Event(event));
    }
    out
}

/// The `end` message.
pub fn end_message(game: &Game, now: u64, ladder: Option<&RatingChanges>) -> ServerMessage {
    let outcome = game.outcome();
    ServerMessage::End(Box::new(EndMessage {
        result: outcome.map(|o| o.result),
        termination: outcome.map(|o| o.termination),
        reason: game.describe_outcome(),
        clock: clock_view(game, now),
        ladder: ladder.map(|l| LadderView {
            white: ChangeView::of(&l.white),
            black: ChangeView::of(&l.black),
        }),
    }))
}
