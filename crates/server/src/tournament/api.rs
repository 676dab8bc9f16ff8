//! The tournament routes (docs/api.md, "Tournaments") and the tournament socket
//! (docs/protocol.md).

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use rookery_core::Color;
use rookery_store::{TournamentRow, TournamentStatus};
use rookery_tournament::competition::{self, System};
use rookery_tournament::ByeKind;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use super::actor::{refused, ArbiterAction, Export, Op};
use super::log::{bye_of, result_of, Entry};
use super::settings::{free_text, CreateBody, Format};
use super::Who;
use crate::error::{ApiError, Body, FromBody, QueryOf, Upload};
use crate::identity::{Identity, Visitor};
use crate::protocol::{FieldError, Fields};
use crate::state::{now_ms, random_id, AppState};

type Shared = State<Arc<AppState>>;

fn who(visitor: &Visitor) -> Option<Who> {
    match &visitor.identity {
        Identity::User(u) => Some(Who {
            user_id: u.id,
            name: u.username.clone(),
            points: u.points,
            rating: u.rating.rating.round().clamp(0.0, 9999.0) as u16,
        }),
        Identity::Anonymous { .. } => None,
    }
}

/// A tournament's view (or export), from its actor, or (over) from the folded copy kept.
async fn view_of(state: &Arc<AppState>, id: &str, op: Op) -> Result<Value, ApiError> {
    if let Some(h) = state.tournaments.get(id) {
        return h.request(None, op).await;
    }
    // On a cluster, a tournament no node runs (its node died) is taken over by the first
    // node asked about it (the balancer sends everything but games to one node).
    if state.ownership.node().is_some() {
        if let Some(h) = state.tournaments.running(state, id).await? {
            return h.request(None, op).await;
        }
    }
    let f = state
        .tournaments
        .finished(state, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("tournament {id:?}")))?;
    Ok(match op {
        Op::Export(e) => Value::String(f.tour.export(e)),
        Op::Clock => f.tour.clock_message(),
        _ => f.view.clone(),
    })
}

/// `GET /api/v1/tournaments`: summaries read from the store's rows (no log is folded, no
/// view built).
pub async fn list(State(state): Shared) -> Result<Json<Value>, ApiError> {
    let mut out = json!({"upcoming": [], "running": [], "finished": []});
    for (statuses, key, limit) in [
        (&[TournamentStatus::Upcoming][..], "upcoming", 50),
        (&[TournamentStatus::Running][..], "running", 1000),
        (&[TournamentStatus::Finished, TournamentStatus::Cancelled][..], "finished", 50),
    ] {
        let rows = state.store.tournament_summaries(statuses, limit).await?;
        let mut list = Vec::with_capacity(rows.len());
        for t in rows {
            let Ok(settings) = serde_json::from_str::<super::settings::Settings>(&t.row.settings)
            else {
                tracing::error!(tournament = %t.row.id, "settings do not read");
                continue;
            };
            list.push(super::view::summary_of(
                &t.row.id,
                &settings,
                t.row.status,
                Some(&t.created_by_name),
                t.players,
                t.rounds_paired,
            ));
        }
        out[key] = Value::Array(list);
    }
    Ok(Json(out))
}

async fn create_row(
    state: &Arc<AppState>,
    me: &Who,
    settings: super::settings::Settings,
    status: TournamentStatus,
    entries: Vec<Entry>,
) -> Result<Value, ApiError> {
    let id = random_id(8);
    let row = TournamentRow {
        id: id.clone(),
        name: settings.name.clone(),
        format: settings.format.as_str().to_owned(),
        settings: serde_json::to_string(&settings)
            .map_err(|e| ApiError::Internal(e.to_string()))?,
        status,
        created_by: me.user_id,
        created_at_ms: now_ms() as i64,
        starts_at_ms: settings.starts_at_ms.map(|t| t as i64),
    };
    state.store.create_tournament(&row).await?;
    for (seq, entry) in entries.iter().enumerate() {
        let (kind, data) = entry.encode();
        let e = rookery_store::LogEntry {
            seq: seq as i64,
            at_ms: row.created_at_ms,
            by: Some(me.user_id),
            kind: kind.to_owned(),
            data: data.to_string(),
            reason: None,
        };
        // Nobody has claimed the new tournament yet: its import is not fenced.
        let _unfenced = state.store.writer(None).append_tournament_log(&id, &e).await?;
    }
    let stored =
        state.store.tournament(&id).await?.ok_or_else(|| ApiError::Internal("gone".into()))?;
    if matches!(status, TournamentStatus::Finished | TournamentStatus::Cancelled) {
        let f = state
            .tournaments
            .finished(state, &id)
            .await?
            .ok_or_else(|| ApiError::Internal("gone".into()))?;
        let (players, rounds) = f.tour.counts();
        state.store.set_tournament_counts(&id, players, rounds).await?;
        return Ok(f.view.clone());
    }
    let h = state.tournaments.spawn(state, stored).await?;
    h.request(None, Op::View).await
}

/// `POST /api/v1/tournaments`.
pub async fn create(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Body(body): Body<CreateBody>,
) -> Result<Response, ApiError> {
    let me = who(&visitor).ok_or(ApiError::NotSignedIn)?;
    if body.settings.starts_at_ms.is_some_and(|t| t < now_ms()) {
        return Err(ApiError::field("starts_at_ms", "a time in the future"));
    }
    let v = create_row(&state, &me, body.settings, TournamentStatus::Upcoming, Vec::new()).await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// `POST /api/v1/tournaments/import`: the file read at the edge.
pub struct ImportBody {
    trf: rookery_tournament::Tournament,
    finished: bool,
    create: CreateBody,
}

impl FromBody for ImportBody {
    fn from_fields(f: &mut Fields) -> Result<ImportBody, FieldError> {
        let text = match f.opt::<Value>("trf")? {
            Some(Value::String(s)) => s,
            _ => return Err(FieldError::field("trf", "the TRF file as text")),
        };
        // The reader's error names its line and column (docs/api.md).
        let trf = rookery_tournament::trf::read(&text)
            .map_err(|e| FieldError::field("trf", e.to_string()))?;
        let finished = match free_text(f, "status")?.as_deref() {
            None | Some("running") => false,
            Some("finished") => true,
            Some(other) => {
                return Err(FieldError::field(
                    "status",
                    format!("finished or running, not {other:?}"),
                ))
            }
        };
        // The name and the time control default to the file's (012, 122; docs/api.md).
        if !f.has("name") {
            if let Some(name) = trf.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                f.default_to("name", json!(name.chars().take(80).collect::<String>()));
            }
        }
        if !f.has("time_control") {
            match trf.time_control.as_deref().map(str::trim) {
                Some(tc) if tc.parse::<rookery_arbiter::TimeControl>().is_ok() => {
                    f.default_to("time_control", json!(tc));
                }
                Some(tc) => {
                    return Err(FieldError::field(
                        "time_control",
                        format!(
                        "missing, and the file's (line 122) {tc:?} is not a time control: give one"
                    ),
                    ))
                }
                None => {
                    return Err(FieldError::field(
                        "time_control",
                        "missing, and the file has none (line 122): give one",
                    ))
                }
            }
        }
        // The tie-breaks and the text of C.07 default to the file's (202, C07; docs/api.md), so
        // that an export imports back ranked as it was.
        if !f.has("tiebreaks") && !trf.tie_breaks.is_empty() {
            for code in &trf.tie_breaks {
                if let Err(e) = code.parse::<rookery_tournament::Tiebreak>() {
                    return Err(FieldError::field(
                        "tiebreaks",
                        format!("missing, and the file's (line 202) are not all C.07 codes: {e}; give them"),
                    ));
                }
            }
            f.default_to("tiebreaks", json!(trf.tie_breaks));
        }
        if !f.has("regulations") {
            if let Some(regulations) = trf.tie_break_regulations {
                f.default_to("regulations", json!(regulations.year().to_string()));
            }
        }
        // A Swiss's rounds default to the file's (docs/api.md).
        if f.has("format") && !f.has("rounds") {
            let swiss = f.opt::<String>("format")?;
            if swiss.as_deref() == Some("swiss") {
                f.default_to("rounds", json!(trf.planned_rounds()));
            }
            f.default_to("format", json!(swiss));
        }
        let create = CreateBody::from_fields(f)?;
        Ok(ImportBody { trf, finished, create })
    }
}

/// `POST /api/v1/tournaments/import`: a tournament from a TRF file.
pub async fn import(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Upload(body): Upload<ImportBody>,
) -> Result<Response, ApiError> {
    let me = who(&visitor).ok_or(ApiError::NotSignedIn)?;
    let t = body.trf;
    let mut settings = body.create.settings;
    let system = match settings.format {
        Format::Swiss => System::Swiss { rounds: settings.rounds.unwrap_or(t.planned_rounds()) },
        Format::RoundRobin => {
            System::RoundRobin { cycles: rookery_tournament::berger::Cycles::Single }
        }
        Format::DoubleRoundRobin => {
            System::RoundRobin { cycles: rookery_tournament::berger::Cycles::Double }
        }
        Format::Arena => {
            return Err(ApiError::field("format", "an arena cannot be imported from a TRF"))
        }
    };
    let (_, actions) =
        competition::import(&t, system).map_err(|e| ApiError::field("trf", e.to_string()))?;
    let mut entries = vec![];
    let mut started = false;
    for a in actions {
        if matches!(a, competition::Action::Paired { .. }) && !started {
            entries.push(Entry::Start);
            started = true;
        }
        entries.push(Entry::Competition(a, None));
    }
    if settings.format == Format::Swiss && settings.rounds.is_none() {
        settings.rounds = Some(t.planned_rounds());
    }
    let status = if body.finished {
        TournamentStatus::Finished
    } else if started {
        TournamentStatus::Running
    } else {
        TournamentStatus::Upcoming
    };
    let v = create_row(&state, &me, settings, status, entries).await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// `GET /api/v1/tournaments/{id}`.
pub async fn get(State(state): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(view_of(&state, &id, Op::View).await?))
}

/// `{"password":…}`.
pub struct JoinBody(Option<String>);

impl FromBody for JoinBody {
    fn from_fields(f: &mut Fields) -> Result<JoinBody, FieldError> {
        Ok(JoinBody(free_text(f, "password")?))
    }
}

/// An empty body.
pub struct Empty;

impl FromBody for Empty {
    fn from_fields(_: &mut Fields) -> Result<Empty, FieldError> {
        Ok(Empty)
    }
}

async fn act(
    state: &Arc<AppState>,
    visitor: &Visitor,
    id: &str,
    op: Op,
) -> Result<Json<Value>, ApiError> {
    let me = who(visitor).ok_or(ApiError::NotSignedIn)?;
    // A finished tournament gets its actor again (the arbiter's corrections); a cancelled
    // one is over.
    let Some(h) = state.tournaments.handle(state, id).await? else {
        return match state.store.tournament(id).await? {
            Some(_) => Err(refused("not_running", "the tournament is over")),
            None => Err(ApiError::NotFound(format!("tournament {id:?}"))),
        };
    };
    Ok(Json(h.request(Some(me), op).await?))
}

/// `POST /api/v1/tournaments/{id}/join`.
pub async fn join(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(JoinBody(password)): Body<JoinBody>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &visitor, &id, Op::Join { password }).await
}

/// `POST /api/v1/tournaments/{id}/withdraw`.
pub async fn withdraw(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(Empty): Body<Empty>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &visitor, &id, Op::Withdraw).await
}

fn round_field(f: &mut Fields, name: &'static str) -> Result<u32, FieldError> {
    let r: i64 = f.req(name)?;
    if !(1..=999).contains(&r) {
        return Err(FieldError::field(name, format!("1 to 999, not {r}")));
    }
    Ok(r as u32)
}

/// `{"round":4,"kind":"half"}`.
pub struct ByeBody(u32, ByeKind);

impl FromBody for ByeBody {
    fn from_fields(f: &mut Fields) -> Result<ByeBody, FieldError> {
        let round = round_field(f, "round")?;
        let kind: String = f.req("kind")?;
        let kind = match kind.as_str() {
            "half" => ByeKind::Half,
            "zero" => ByeKind::Zero,
            _ => return Err(FieldError::field("kind", format!("half or zero, not {kind:?}"))),
        };
        Ok(ByeBody(round, kind))
    }
}

/// `POST /api/v1/tournaments/{id}/byes`.
pub async fn bye(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(ByeBody(round, kind)): Body<ByeBody>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &visitor, &id, Op::Bye { round, kind }).await
}

/// `DELETE /api/v1/tournaments/{id}/byes/{round}`.
pub async fn cancel_bye(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path((id, round)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let round: u32 = round
        .parse()
        .map_err(|_| ApiError::field("round", format!("a round number, not {round:?}")))?;
    act(&state, &visitor, &id, Op::CancelBye { round }).await
}

/// `{"game":…}`.
pub struct BerserkBody(String);

impl FromBody for BerserkBody {
    fn from_fields(f: &mut Fields) -> Result<BerserkBody, FieldError> {
        Ok(BerserkBody(f.req("game")?))
    }
}

/// `POST /api/v1/tournaments/{id}/berserk`.
pub async fn berserk(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(BerserkBody(game)): Body<BerserkBody>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &visitor, &id, Op::Berserk { game }).await
}

/// The arbiter's request.
pub struct ArbiterBody(ArbiterAction, Option<String>);

impl FromBody for ArbiterBody {
    fn from_fields(f: &mut Fields) -> Result<ArbiterBody, FieldError> {
        let action: String = f.req("action")?;
        let name = |f: &mut Fields, n: &'static str| -> Result<String, FieldError> {
            free_text(f, n)?.ok_or_else(|| FieldError::field(n, "missing"))
        };
        let a = match action.as_str() {
            "start" => ArbiterAction::Start,
            "pair" => ArbiterAction::Pair,
            "publish" => ArbiterAction::Publish { round: round_field(f, "round")? },
            "unpair" => ArbiterAction::Unpair { round: round_field(f, "round")? },
            "withdraw" => ArbiterAction::Withdraw {
                player: name(f, "player")?,
                round: if f.has("round") { Some(round_field(f, "round")?) } else { None },
            },
            "reinstate" => ArbiterAction::Reinstate { player: name(f, "player")? },
            "bye" => {
                let player = name(f, "player")?;
                let round = round_field(f, "round")?;
                let kind: String = f.req("kind")?;
                let kind = bye_of(&kind).ok_or_else(|| {
                    FieldError::field("kind", format!("half, zero or full, not {kind:?}"))
                })?;
                ArbiterAction::Bye { player, round, kind }
            }
            "cancel_bye" => ArbiterAction::CancelBye {
                player: name(f, "player")?,
                round: round_field(f, "round")?,
            },
            "forbid_pair" => ArbiterAction::ForbidPair { a: name(f, "a")?, b: name(f, "b")? },
            "allow_pair" => ArbiterAction::AllowPair { a: name(f, "a")?, b: name(f, "b")? },
            "add_time" => {
                let round = round_field(f, "round")?;
                let board = round_field(f, "board")?;
                let color: Color = f.req("color")?;
                let seconds: i64 = f.req("seconds")?;
                if !(1..=3600).contains(&seconds) {
                    return Err(FieldError::field("seconds", format!("1 to 3600, not {seconds}")));
                }
                ArbiterAction::AddTime { round, board, color, seconds: seconds as u64 }
            }
            "result" => {
                let round = round_field(f, "round")?;
                let board = round_field(f, "board")?;
                let result: String = f.req("result")?;
                let result = result_of(&result).ok_or_else(|| {
                    FieldError::field(
                        "result",
                        format!("1-0, 0-1, 1/2-1/2, +-, -+ or --, not {result:?}"),
                    )
                })?;
                ArbiterAction::Result { round, board, result }
            }
            "swap_colours" => ArbiterAction::SwapColours {
                round: round_field(f, "round")?,
                board: round_field(f, "board")?,
            },
            "end" => ArbiterAction::End,
            "cancel" => ArbiterAction::Cancel,
            other => return Err(FieldError::field("action", format!("unknown action {other:?}"))),
        };
        let reason = free_text(f, "reason")?.filter(|r| !r.trim().is_empty());
        if a.needs_reason() && reason.is_none() {
            return Err(FieldError::field(
                "reason",
                "this decision is recorded with its reason (RULES.md §12)",
            ));
        }
        Ok(ArbiterBody(a, reason))
    }
}

/// `POST /api/v1/tournaments/{id}/arbiter`.
pub async fn arbiter(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(ArbiterBody(action, reason)): Body<ArbiterBody>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &visitor, &id, Op::Arbiter { action, reason }).await
}

/// `?lines=lf`.
pub struct TrfQuery(bool);

impl FromBody for TrfQuery {
    fn from_fields(f: &mut Fields) -> Result<TrfQuery, FieldError> {
        let lines: Option<String> = f.opt("lines")?;
        match lines.as_deref() {
            None | Some("cr") => Ok(TrfQuery(false)),
            Some("lf") => Ok(TrfQuery(true)),
            Some(other) => Err(FieldError::field("lines", format!("cr or lf, not {other:?}"))),
        }
    }
}

fn text_response(body: String, content_type: &str, filename: &str) -> Response {
    (
        [
            (CONTENT_TYPE, content_type.to_owned()),
            (CONTENT_DISPOSITION, format!("inline; filename=\"{filename}\"")),
        ],
        body,
    )
        .into_response()
}

async fn export_text(state: &Arc<AppState>, id: &str, e: Export) -> Result<String, ApiError> {
    match view_of(state, id, Op::Export(e)).await? {
        Value::String(s) => Ok(s),
        _ => Err(ApiError::Internal("export".into())),
    }
}

/// `GET /api/v1/tournaments/{id}/trf`.
pub async fn trf(
    State(state): Shared,
    Path(id): Path<String>,
    QueryOf(TrfQuery(lf)): QueryOf<TrfQuery>,
) -> Result<Response, ApiError> {
    let text = export_text(&state, &id, Export::Trf { lf }).await?;
    Ok(text_response(text, "text/plain; charset=utf-8", &format!("{id}.trf")))
}

/// `GET /api/v1/tournaments/{id}/standings.csv`.
pub async fn csv(State(state): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = export_text(&state, &id, Export::Csv).await?;
    Ok(text_response(text, "text/csv; charset=utf-8", &format!("{id}.csv")))
}

/// `GET /api/v1/tournaments/{id}/standings.html`.
pub async fn html(State(state): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = export_text(&state, &id, Export::Html).await?;
    Ok(text_response(text, "text/html; charset=utf-8", &format!("{id}.html")))
}

/// `GET /api/v1/tournaments/{id}/pgn`.
pub async fn pgn(State(state): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let ids = export_text(&state, &id, Export::Games).await?;
    let mut out = String::new();
    for game in ids.lines() {
        let Some(gid) = crate::protocol::GameId::parse(game) else { continue };
        let pgn = match state.live.get(&gid) {
            Some(h) => h.pgn().await,
            None => state.store.game_summary(game).await?.and_then(|g| g.pgn),
        };
        if let Some(pgn) = pgn {
            out.push_str(pgn.trim_end());
            out.push_str("\n\n");
        }
    }
    Ok(text_response(out, "application/x-chess-pgn; charset=utf-8", &format!("{id}.pgn")))
}

/// `GET /api/v1/tournaments/{id}/socket`: counted among the visitor's sockets (issue 37),
/// 4 at most on one tournament; `ping`s come out of the shared message budget.
pub async fn socket(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::ws::same_origin(&headers)?;
    let permit = state.sockets.open(
        visitor.identity.name(),
        crate::sockets::Scope::Tournament(id.clone()),
        now_ms(),
    )?;
    let first = view_of(&state, &id, Op::View).await?;
    let clock = view_of(&state, &id, Op::Clock).await?;
    let h = state.tournaments.get(&id);
    let name = visitor.identity.name().to_owned();
    Ok(ws
        .max_message_size(crate::ws::MAX_FRAME)
        .max_frame_size(crate::ws::MAX_FRAME_READ)
        .on_upgrade(move |socket| watch(socket, state, h, name, (first, clock), permit))
        .into_response())
}

async fn watch(
    mut socket: WebSocket,
    state: Arc<AppState>,
    h: Option<super::TournamentHandle>,
    name: String,
    (first, first_clock): (Value, Value),
    permit: crate::sockets::SocketPermit,
) {
    let sub = match &h {
        Some(h) => h.subscribe().await,
        None => None,
    };
    let (view, clock, mut updates) = match sub {
        Some((v, clock, rx)) => (v, clock, Some(rx)),
        None => (first, first_clock, None),
    };
    let hello = json!({"t": "tournament", "tournament": view});
    if socket.send(Message::Text(hello.to_string().into())).await.is_err() {
        return;
    }
    // protocol.md: the `clock` is sent on connection (a countdown needs it at once).
    if socket.send(Message::Text(clock.to_string().into())).await.is_err() {
        return;
    }
    let mut closing = state.closing.subscribe();
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                None | Some(Ok(Message::Close(_))) => break,
                Some(Err(e)) => {
                    crate::ws::close_after(&mut socket, e).await;
                    break;
                }
                Some(Ok(Message::Text(t))) => {
                    let answer = if !permit.take_message(now_ms()) {
                        json!({"t": "error", "code": "rate_limited", "message": "too many messages on this tournament's sockets"})
                    } else if t.contains("\"ping\"") {
                        json!({"t": "pong", "server_ms": now_ms()})
                    } else {
                        json!({"t": "error", "code": "unknown_type", "message": "only ping is spoken here"})
                    };
                    if socket.send(Message::Text(answer.to_string().into())).await.is_err() { break }
                }
                Some(Ok(_)) => {}
            },
            msg = async { match &mut updates { Some(rx) => rx.recv().await, None => std::future::pending().await } } => {
                match msg {
                    // A player's own messages (`your_game`) go to their sockets only.
                    Ok(u) => if u.is_for(&name) && socket.send(Message::Text(u.text.to_string().into())).await.is_err() { break },
                    // A slow socket missed some events (a `your_game` among them, maybe): the
                    // whole state now, from which a page finds its player's game.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let Some(h) = &h else { continue };
                        let Ok(view) = h.request(None, Op::View).await else { continue };
                        let msg = json!({"t": "tournament", "tournament": view});
                        if socket.send(Message::Text(msg.to_string().into())).await.is_err() { break }
                    }
                    Err(broadcast::error::RecvError::Closed) => updates = None,
                }
            }
            _ = closing.changed() => break,
        }
    }
}
