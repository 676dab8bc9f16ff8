//! The tournament routes (docs/api.md, "Tournaments"): the edge of the tournament host
//! (`rookery-competitions`), which answers typed values and refuses with
//! `TournamentRefusal`s, mapped to HTTP once (crate::error).

mod bodies;
mod fields;
mod socket;
mod team_bodies;

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use rookery_competitions::log::{self, Entry};
use rookery_competitions::settings::{Format, Settings};
use rookery_competitions::view::{summary_of, Summary};
use rookery_competitions::{Answer, Document, Export, Op, PrintRequest, TournamentRefusal, Who};
use rookery_store::TournamentStatus;
use rookery_tournament::competition::{self, System};

pub use bodies::{
    ArbiterBody, BerserkBody, ByeBody, CreateBody, Empty, ImportBody, JoinBody, LineUpBody,
    MovesBody, PrintQuery, ReportBody, RosterBody, TrfQuery,
};
pub use socket::socket;

use crate::clock::now_ms;
use crate::error::{ApiError, Body, QueryOf, Upload};
use crate::identity::{Identity, Visitor};
use crate::protocol::random_id;
use crate::state::AppState;

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
async fn view_of(state: &Arc<AppState>, id: &str, op: Op) -> Result<Answer, ApiError> {
    if let Some(h) = state.tournaments.get(id) {
        return Ok(h.request(None, op).await?);
    }
    // On a cluster, a tournament no node runs (its node died) is taken over by the first
    // node asked about it (the balancer sends everything but games to one node).
    if state.ownership.node().is_some() {
        if let Some(h) = state.tournaments.running(id).await? {
            return Ok(h.request(None, op).await?);
        }
    }
    let f = state
        .tournaments
        .finished(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("tournament {id:?}")))?;
    Ok(match op {
        Op::Export(e) => Answer::Text(f.tour.export(e)?),
        Op::Pgn(records) => Answer::Text(f.tour.pgn(&records)),
        Op::Print(request) => Answer::Text(f.tour.print(&request)?),
        Op::Clock => Answer::Clock(f.tour.clock(now_ms())),
        _ => Answer::View(f.view.clone()),
    })
}

/// `GET /api/v1/tournaments`: summaries read from the store's rows (no log is folded, no
/// view built).
pub async fn list(State(state): Shared) -> Result<Json<List>, ApiError> {
    let mut out = List::default();
    for (statuses, limit) in [
        (&[TournamentStatus::Upcoming][..], 50),
        (&[TournamentStatus::Running][..], 1000),
        (&[TournamentStatus::Finished, TournamentStatus::Cancelled][..], 50),
    ] {
        let rows = state.store.tournament_summaries(statuses, limit).await?;
        let mut list = Vec::with_capacity(rows.len());
        for t in rows {
            let Ok(settings) = serde_json::from_str::<Settings>(&t.row.settings) else {
                tracing::error!(tournament = %t.row.id, "settings do not read");
                continue;
            };
            list.push(summary_of(
                &t.row.id,
                &settings,
                t.row.status,
                Some(&t.created_by_name),
                t.players,
                t.rounds_paired,
            ));
        }
        match statuses[0] {
            TournamentStatus::Upcoming => out.upcoming = list,
            TournamentStatus::Running => out.running = list,
            _ => out.finished = list,
        }
    }
    Ok(Json(out))
}

/// The list: the next 50 to start, every running one, the last 50 finished (or cancelled).
#[derive(Default, serde::Serialize)]
pub struct List {
    upcoming: Vec<Summary>,
    running: Vec<Summary>,
    finished: Vec<Summary>,
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
    let v = state
        .tournaments
        .create(random_id(8), &me, body.settings, TournamentStatus::Upcoming, Vec::new(), now_ms())
        .await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
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
        Format::Swiss => System::Swiss {
            rounds: settings.rounds.unwrap_or(t.planned_rounds()),
            pairing: settings.pairing_system.engine(),
            acceleration: settings.acceleration.method(),
        },
        Format::RoundRobin => {
            System::RoundRobin { cycles: rookery_tournament::berger::Cycles::Single }
        }
        Format::DoubleRoundRobin => {
            System::RoundRobin { cycles: rookery_tournament::berger::Cycles::Double }
        }
        Format::Arena => {
            return Err(ApiError::field("format", "an arena cannot be imported from a TRF"))
        }
        Format::Knockout => {
            return Err(ApiError::field("format", "a knockout cannot be imported from a TRF"))
        }
        Format::TeamSwiss | Format::TeamRoundRobin => {
            return Err(ApiError::field("format", "a team event cannot be imported from a TRF"))
        }
    };
    let (_, actions) =
        competition::import(&t, system).map_err(|e| ApiError::field("trf", e.to_string()))?;
    let mut entries = vec![];
    let mut started = false;
    for a in actions {
        if matches!(a, competition::Action::Paired { .. }) && !started {
            entries.push(Entry::Start(log::Empty {}));
            started = true;
        }
        entries.push(Entry::of_action(a, None));
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
    let v =
        state.tournaments.create(random_id(8), &me, settings, status, entries, now_ms()).await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// `GET /api/v1/tournaments/{id}`.
pub async fn get(State(state): Shared, Path(id): Path<String>) -> Result<Json<Answer>, ApiError> {
    Ok(Json(view_of(&state, &id, Op::View).await?))
}

async fn act(
    state: &Arc<AppState>,
    visitor: &Visitor,
    id: &str,
    op: Op,
) -> Result<Json<Answer>, ApiError> {
    let me = who(visitor).ok_or(ApiError::NotSignedIn)?;
    // A finished tournament gets its actor again (the arbiter's corrections); a cancelled
    // one is over.
    let Some(h) = state.tournaments.handle(id).await? else {
        return match state.store.tournament(id).await? {
            Some(_) => Err(TournamentRefusal::Closed.into()),
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
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::Join { password }).await
}

/// `POST /api/v1/tournaments/{id}/withdraw`.
pub async fn withdraw(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(Empty): Body<Empty>,
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::Withdraw).await
}

/// `POST /api/v1/tournaments/{id}/byes`.
pub async fn bye(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(ByeBody(round, kind)): Body<ByeBody>,
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::Bye { round, kind }).await
}

/// `POST /api/v1/tournaments/{id}/report`: over the board, a player's report of their
/// board's result (the same from both players enters it).
pub async fn report(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(ReportBody(round, board, result)): Body<ReportBody>,
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::Report { round, board, result }).await
}

/// `DELETE /api/v1/tournaments/{id}/byes/{round}`.
pub async fn cancel_bye(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path((id, round)): Path<(String, String)>,
) -> Result<Json<Answer>, ApiError> {
    let round: u32 = round
        .parse()
        .map_err(|_| ApiError::field("round", format!("a round number, not {round:?}")))?;
    act(&state, &visitor, &id, Op::CancelBye { round }).await
}

/// `POST /api/v1/tournaments/{id}/berserk`.
pub async fn berserk(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(BerserkBody(game)): Body<BerserkBody>,
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::Berserk { game }).await
}

/// `POST /api/v1/tournaments/{id}/arbiter`.
pub async fn arbiter(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(ArbiterBody(action, reason)): Body<ArbiterBody>,
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::Arbiter { action, reason }).await
}

/// `PUT /api/v1/tournaments/{id}/boards/{round}/{board}/moves`: an over-the-board board's
/// moves typed from its scoresheet (issue 53), by the arbiter or one of its players.
pub async fn moves(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path((id, round, board)): Path<(String, String, String)>,
    Body(MovesBody(moves)): Body<MovesBody>,
) -> Result<Json<Answer>, ApiError> {
    let number = |field: &str, text: &str| {
        text.parse::<u32>()
            .map_err(|_| ApiError::field(field, format!("a {field} number, not {text:?}")))
    };
    let (round, board) = (number("round", &round)?, number("board", &board)?);
    act(&state, &visitor, &id, Op::Moves { round, board, moves }).await
}

/// `POST /api/v1/tournaments/{id}/line_up`: a team's line-up for a round, entered by its
/// captain (docs/api.md, *Teams*).
pub async fn line_up(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Body(LineUpBody { round, team, players }): Body<LineUpBody>,
) -> Result<Json<Answer>, ApiError> {
    act(&state, &visitor, &id, Op::LineUp { round, team, players }).await
}

/// `POST /api/v1/tournaments/{id}/roster`: an over-the-board event's player list, each player
/// a guest entrant (issue 53).
pub async fn roster(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    Upload(RosterBody(entries)): Upload<RosterBody>,
) -> Result<Json<Answer>, ApiError> {
    let action = rookery_competitions::ArbiterAction::Import { entries };
    act(&state, &visitor, &id, Op::Arbiter { action, reason: None }).await
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
    view_of(state, id, Op::Export(e)).await?.into_text().ok_or(ApiError::Internal("export".into()))
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

/// `GET /api/v1/tournaments/{id}/board-prizes.csv`: a team event's board prize table.
pub async fn board_prizes_csv(
    State(state): Shared,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = export_text(&state, &id, Export::BoardPrizesCsv).await?;
    Ok(text_response(text, "text/csv; charset=utf-8", &format!("{id}-board-prizes.csv")))
}

/// `GET /api/v1/tournaments/{id}/standings.html`.
pub async fn html(State(state): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = export_text(&state, &id, Export::Html).await?;
    Ok(text_response(text, "text/html; charset=utf-8", &format!("{id}.html")))
}

/// `GET /api/v1/tournaments/{id}/print/{document}?round=N&lang=en|zh`: a round's pairings
/// (by board, by name), scoresheets or result slips, or the event's standings or wall chart,
/// as a printable page; the pairings and the wall chart with a QR code of the tournament's
/// page.
pub async fn print(
    State(state): Shared,
    Path((id, document)): Path<(String, String)>,
    headers: axum::http::HeaderMap,
    QueryOf(PrintQuery { round, lang }): QueryOf<PrintQuery>,
) -> Result<Response, ApiError> {
    let document = Document::from_slug(&document).ok_or_else(|| {
        let known: Vec<&str> = Document::ALL.iter().map(|d| d.slug()).collect();
        ApiError::NotFound(format!("document {document:?} ({})", known.join(", ")))
    })?;
    let page_url = site_address(&state, &headers).map(|base| format!("{base}/tournaments/{id}"));
    let request = PrintRequest { document, round, lang, page_url };
    let text = view_of(&state, &id, Op::Print(request))
        .await?
        .into_text()
        .ok_or(ApiError::Internal("print".into()))?;
    let name = format!("{id}-{}.html", document.slug());
    Ok(text_response(text, "text/html; charset=utf-8", &name))
}

/// Where players reach the site: the operator's `--public-url`, else the scheme and host the
/// request came with (a proxy's `X-Forwarded-Proto`, else `http`); none without a `Host`.
fn site_address(state: &AppState, headers: &axum::http::HeaderMap) -> Option<String> {
    if let Some(url) = &state.public_url {
        return Some(url.clone());
    }
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let host = text("host").filter(|h| !h.is_empty() && !h.contains(['/', ' ', '"', '<']))?;
    let scheme = match text("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    Some(format!("{scheme}://{host}"))
}

/// `GET /api/v1/tournaments/{id}/pgn`: the records the site holds of the tournament's games
/// (a live game's as it stands), tagged by the tournament (a team event's name the teams).
pub async fn pgn(State(state): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let ids = export_text(&state, &id, Export::Games).await?;
    let mut records = Vec::new();
    for game in ids.lines() {
        let Some(gid) = crate::protocol::GameId::parse(game) else { continue };
        let pgn = match state.live.get(&gid) {
            Some(h) => h.pgn().await,
            None => state.store.game_summary(game).await?.and_then(|g| g.pgn),
        };
        if let Some(pgn) = pgn {
            records.push((game.to_owned(), pgn));
        }
    }
    let out = view_of(&state, &id, Op::Pgn(records))
        .await?
        .into_text()
        .ok_or(ApiError::Internal("pgn".into()))?;
    Ok(text_response(out, "application/x-chess-pgn; charset=utf-8", &format!("{id}.pgn")))
}
