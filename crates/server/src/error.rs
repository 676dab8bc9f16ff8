//! One error type for the HTTP API, mapped to a status, a machine code and a log level once;
//! and the extractors that read requests into typed values, so that every refusal, a
//! query string's or a body's included, is this JSON object.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

pub use crate::limits::Limit;
use crate::lobby::SeekError;
use crate::protocol::{FieldError, Fields};
use rookery_cluster::lobby::SeekRefusal;
use rookery_competitions::{RefusalClass, TournamentError, TournamentRefusal};

/// The largest request body read, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// An API error: what the client is told, and with which status.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON of the expected shape.
    #[error("bad JSON: {0}")]
    BadJson(String),
    /// A field is unknown, missing or has a bad value.
    #[error("field {field}: {message}")]
    BadField {
        /// The field.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The body is larger than [`MAX_BODY`].
    #[error("the body is larger than {max} bytes")]
    TooLarge {
        /// The limit.
        max: usize,
    },
    /// The request needs a signed-in user.
    #[error("sign in first")]
    NotSignedIn,
    /// The CSRF header is missing or wrong.
    #[error("missing or wrong X-CSRF-Token header")]
    Csrf,
    /// Not allowed for this visitor.
    #[error("{0}")]
    Forbidden(String),
    /// Wrong username or password.
    #[error("wrong username or password")]
    BadCredentials,
    /// Wrong username or first-log-in code, or a code used or expired (class accounts).
    #[error("wrong username or first-log-in code, or the code was used or has expired")]
    BadCode,
    /// Nothing by that name.
    #[error("{0} not found")]
    NotFound(String),
    /// The method is not one this path answers.
    #[error("method not allowed here")]
    MethodNotAllowed,
    /// Someone else accepted the seek first, or it was cancelled.
    #[error("seek {0:?} is no longer open: someone else accepted it or it was cancelled")]
    SeekGone(String),
    /// The username is taken.
    #[error("the username {0:?} is taken")]
    UsernameTaken(String),
    /// No engine analysis while the game is played (RULES.md §8.5).
    #[error("no engine analysis while the game is played (§8.5)")]
    GameInProgress,
    /// An aborted game was not played: nothing to analyse.
    #[error("an aborted game was not played: there is nothing to analyse")]
    GameAborted,
    /// A client holds or does too much (issue 37): sockets, seeks, sign-ups, log-in failures.
    #[error("{0}")]
    TooMany(Limit),
    /// A tournament refused the request in its state (docs/api.md, "Tournaments"): the code
    /// names the state, the message says it in words.
    #[error("{0}")]
    Tournament(TournamentRefusal),
    /// On a cluster (issue 39): the live game is served by another node, whose lease runs;
    /// the client should ask again (the load balancer normally sends it there).
    #[error("this game is served by node {0:?}: connect again")]
    Elsewhere(String),
    /// A fault of the server (the database failed): logged, and the client told little.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadJson(_) | ApiError::BadField { .. } => StatusCode::BAD_REQUEST,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotSignedIn | ApiError::BadCredentials | ApiError::BadCode => {
                StatusCode::UNAUTHORIZED
            }
            ApiError::Csrf | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::SeekGone(_)
            | ApiError::UsernameTaken(_)
            | ApiError::GameInProgress
            | ApiError::GameAborted
            | ApiError::Tournament(_) => StatusCode::CONFLICT,
            // One owner's seeks are a conflict with their own: cancel one.
            ApiError::TooMany(Limit::SeeksPerOwner(_)) => StatusCode::CONFLICT,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Elsewhere(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The machine code in the JSON body.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadJson(_) => "bad_json",
            ApiError::BadField { .. } => "bad_field",
            ApiError::TooLarge { .. } => "too_large",
            ApiError::NotSignedIn => "not_signed_in",
            ApiError::Csrf => "csrf",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::BadCredentials | ApiError::BadCode => "bad_credentials",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::SeekGone(_) => "gone",
            ApiError::UsernameTaken(_) => "username_taken",
            ApiError::GameInProgress => "game_in_progress",
            ApiError::GameAborted => "game_aborted",
            ApiError::TooMany(limit) => limit.code(),
            ApiError::Tournament(r) => r.code(),
            ApiError::Elsewhere(_) => "elsewhere",
            ApiError::Internal(_) => "internal",
        }
    }

    /// How loud the log is: the server's faults are errors, the clients' are debug notes.
    pub fn level(&self) -> tracing::Level {
        match self {
            ApiError::Internal(_) => tracing::Level::ERROR,
            _ => tracing::Level::DEBUG,
        }
    }

    /// A bad field.
    pub fn field(field: &str, message: impl Into<String>) -> ApiError {
        ApiError::BadField { field: field.to_owned(), message: message.into() }
    }
}

impl From<rookery_store::StoreError> for ApiError {
    fn from(e: rookery_store::StoreError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

/// A game not created, as HTTP: a position refused names the `fen` field.
impl From<crate::live::CreateError> for ApiError {
    fn from(e: crate::live::CreateError) -> ApiError {
        match e {
            crate::live::CreateError::Position(e) => ApiError::field("fen", e.to_string()),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

/// A tournament's refusal as HTTP (docs/api.md, "Tournaments"): most are 409 with their code.
impl From<TournamentRefusal> for ApiError {
    fn from(r: TournamentRefusal) -> ApiError {
        match r.class() {
            RefusalClass::NotSignedIn => ApiError::NotSignedIn,
            RefusalClass::Forbidden => ApiError::Forbidden(r.to_string()),
            RefusalClass::BadField(field) => ApiError::field(field, r.to_string()),
            RefusalClass::Conflict => ApiError::Tournament(r),
        }
    }
}

/// The tournament host's errors as HTTP: its refusals, another node's tournament, and faults.
impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        match e {
            TournamentError::Refused(r) => r.into(),
            TournamentError::Elsewhere(node) => ApiError::Elsewhere(node),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<crate::live::LocateError> for ApiError {
    fn from(e: crate::live::LocateError) -> ApiError {
        match e {
            crate::live::LocateError::Elsewhere(node) => ApiError::Elsewhere(node),
            crate::live::LocateError::Store(e) => e.into(),
        }
    }
}

impl From<crate::live::StoredGameError> for ApiError {
    fn from(e: crate::live::StoredGameError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl From<Limit> for ApiError {
    fn from(limit: Limit) -> ApiError {
        ApiError::TooMany(limit)
    }
}

impl From<SeekError> for ApiError {
    fn from(e: SeekError) -> ApiError {
        match e {
            SeekError::RatedTakebacks => ApiError::field("rules", e.to_string()),
            SeekError::TooMany(limit) => ApiError::TooMany(limit),
            SeekError::Gone(id) => ApiError::SeekGone(id),
            SeekError::Forbidden(why) => ApiError::Forbidden(why.into()),
            SeekError::NotFound(id) => ApiError::NotFound(format!("seek {id:?}")),
            SeekError::Create(e) => e.into(),
            SeekError::Elsewhere(refusal) => refusal.into(),
            SeekError::BadAnswer { .. } => ApiError::Internal(e.to_string()),
        }
    }
}

/// Another node's refusal of an accept or a cancel, answered as this node's would be.
impl From<SeekRefusal> for ApiError {
    fn from(e: SeekRefusal) -> ApiError {
        match e {
            SeekRefusal::Gone(id) => ApiError::SeekGone(id),
            SeekRefusal::Forbidden(why) => ApiError::Forbidden(why),
            SeekRefusal::NotFound(what) => ApiError::NotFound(what),
            SeekRefusal::Internal(why) => ApiError::Internal(format!("on another node: {why}")),
        }
    }
}

impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> ApiError {
        match e {
            FieldError::BadJson(why) => ApiError::BadJson(why),
            FieldError::BadField { field, message } => ApiError::BadField { field, message },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        match (&self, self.level()) {
            (ApiError::Internal(detail), _) => tracing::error!(%detail, "internal error"),
            (_, tracing::Level::ERROR) => {
                tracing::error!(code = self.code(), error = %self, "request failed")
            }
            _ => tracing::debug!(code = self.code(), error = %self, "request refused"),
        }
        let mut body = serde_json::json!({ "code": self.code(), "message": self.to_string() });
        if let ApiError::BadField { field, .. } = &self {
            body["field"] = serde_json::Value::from(field.as_str());
        }
        (status, Json(serde_json::json!({ "error": body }))).into_response()
    }
}

/// A request body read from its JSON fields (each type names its own).
pub trait FromBody: Sized {
    /// Takes the type's fields; unknown ones are refused afterwards.
    ///
    /// # Errors
    /// [`FieldError`] naming the field.
    fn from_fields(f: &mut Fields) -> Result<Self, FieldError>;
}

/// A JSON body read strictly into `T`: unknown fields are refused and errors name the field;
/// a body over [`MAX_BODY`] is refused with `too_large`.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: FromBody> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e: BytesRejection| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge { max: MAX_BODY }
            } else {
                ApiError::BadJson(e.body_text())
            }
        })?;
        if bytes.len() > MAX_BODY {
            return Err(ApiError::TooLarge { max: MAX_BODY });
        }
        let mut f = Fields::parse_body(&bytes)?;
        let value = T::from_fields(&mut f)?;
        f.finish()?;
        Ok(Body(value))
    }
}

/// The largest body of an upload (a TRF file), in bytes.
pub const MAX_UPLOAD: usize = 1024 * 1024;

/// A JSON body like [`Body`], up to [`MAX_UPLOAD`] (the route raises its body limit too).
pub struct Upload<T>(pub T);

impl<S: Send + Sync, T: FromBody> FromRequest<S> for Upload<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Upload<T>, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e: BytesRejection| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge { max: MAX_UPLOAD }
            } else {
                ApiError::BadJson(e.body_text())
            }
        })?;
        let mut f = Fields::parse_body(&bytes)?;
        let value = T::from_fields(&mut f)?;
        f.finish()?;
        Ok(Upload(value))
    }
}

/// A query string read strictly into `T`, like a body.
pub struct QueryOf<T>(pub T);

impl<S: Send + Sync, T: FromBody> FromRequestParts<S> for QueryOf<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<QueryOf<T>, ApiError> {
        let Query(pairs) = Query::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|e: QueryRejection| ApiError::field("query", e.body_text()))?;
        let mut f = Fields::from_pairs(pairs)?;
        let value = T::from_fields(&mut f)?;
        f.finish()?;
        Ok(QueryOf(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One variant per cause, mapped once to its status, code and words (docs/api.md).
    #[test]
    fn each_cause_has_its_status_and_code() {
        let cases = [
            (ApiError::SeekGone("s1".into()), 409, "gone"),
            (ApiError::UsernameTaken("ann".into()), 409, "username_taken"),
            (ApiError::GameInProgress, 409, "game_in_progress"),
            (ApiError::GameAborted, 409, "game_aborted"),
            (ApiError::TooMany(Limit::SeeksPerOwner(10)), 409, "too_many_seeks"),
            (ApiError::TooMany(Limit::SeeksPerAddress(20)), 429, "too_many_seeks"),
            (ApiError::TooMany(Limit::SocketsPerGame(4)), 429, "too_many_sockets"),
            (ApiError::TooMany(Limit::LogIns(30)), 429, "rate_limited"),
            (ApiError::Internal("disk".into()), 500, "internal"),
        ];
        for (e, status, code) in cases {
            assert_eq!((e.status().as_u16(), e.code()), (status, code), "{e:?}");
        }
        assert_eq!(
            ApiError::TooMany(Limit::SocketsPerGame(4)).to_string(),
            "at most 4 open sockets per visitor on one game (or the lobby); close one first"
        );
        assert_eq!(ApiError::Internal("disk".into()).level(), tracing::Level::ERROR);
        assert_eq!(ApiError::GameInProgress.level(), tracing::Level::DEBUG);
    }

    /// One of each error the API answers: a new variant breaks the match below until it
    /// joins the list, and a code missing from docs/api.md fails the test.
    fn every_error() -> Vec<ApiError> {
        let limits = [
            Limit::SocketsPerVisitor(1),
            Limit::SocketsPerGame(1),
            Limit::SeeksPerAddress(1),
            Limit::SeeksPerMinute(1),
            Limit::SeeksPerOwner(1),
            Limit::SignUps(1),
            Limit::LogInsToName { name: "ann".into(), max: 1 },
            Limit::LogIns(1),
            Limit::NameGuessed("ann".into()),
            Limit::ClassAccounts { max: 1, left: 0 },
        ];
        let mut all = vec![
            ApiError::BadJson(String::new()),
            ApiError::field("f", "m"),
            ApiError::TooLarge { max: MAX_BODY },
            ApiError::NotSignedIn,
            ApiError::Csrf,
            ApiError::Forbidden(String::new()),
            ApiError::BadCredentials,
            ApiError::BadCode,
            ApiError::NotFound(String::new()),
            ApiError::MethodNotAllowed,
            ApiError::SeekGone(String::new()),
            ApiError::UsernameTaken(String::new()),
            ApiError::GameInProgress,
            ApiError::GameAborted,
            ApiError::Elsewhere(String::new()),
            ApiError::Internal(String::new()),
        ];
        all.extend(limits.into_iter().map(ApiError::TooMany));
        for e in &all {
            match e {
                ApiError::BadJson(_)
                | ApiError::BadField { .. }
                | ApiError::TooLarge { .. }
                | ApiError::NotSignedIn
                | ApiError::Csrf
                | ApiError::Forbidden(_)
                | ApiError::BadCredentials
                | ApiError::BadCode
                | ApiError::NotFound(_)
                | ApiError::MethodNotAllowed
                | ApiError::SeekGone(_)
                | ApiError::UsernameTaken(_)
                | ApiError::GameInProgress
                | ApiError::GameAborted
                | ApiError::TooMany(_)
                | ApiError::Tournament { .. }
                | ApiError::Elsewhere(_)
                | ApiError::Internal(_) => {}
            }
        }
        all
    }

    /// The codes and statuses of docs/api.md's "Error codes" table.
    fn documented() -> std::collections::BTreeMap<String, (Vec<u16>, String)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md");
        let text = std::fs::read_to_string(path).unwrap();
        let table = text.split("## Error codes").nth(1).unwrap().split("\n## ").next().unwrap();
        let mut codes = std::collections::BTreeMap::new();
        for line in table.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let statuses = cells[2].split(", ").map(|s| s.parse().unwrap()).collect();
            codes.insert(cells[1].trim_matches('`').to_owned(), (statuses, cells[3].to_owned()));
        }
        codes
    }

    #[test]
    fn every_code_is_documented_and_every_documented_code_exists() {
        let documented = documented();
        let mut answered: std::collections::BTreeMap<String, Vec<u16>> = Default::default();
        let errors = every_error().into_iter().map(|e| (e.code(), e.status().as_u16()));
        let refusals = rookery_listener::Refusal::ALL
            .into_iter()
            .map(|r| (r.code(), r.status_line()[..3].parse().unwrap()));
        for (code, status) in errors.chain(refusals) {
            let statuses = answered.entry(code.to_owned()).or_default();
            if !statuses.contains(&status) {
                statuses.push(status);
                statuses.sort_unstable();
            }
        }
        for (code, statuses) in &answered {
            let row = documented.get(code).map(|(statuses, _)| statuses);
            assert_eq!(row, Some(statuses), "docs/api.md, Error codes: {code}");
        }
        // The tournaments' rows ("tournament: …", "arena: …") are checked both ways against
        // TournamentRefusal by rookery-competitions' own test.
        for (code, (_, meaning)) in &documented {
            assert!(
                answered.contains_key(code)
                    || meaning.starts_with("tournament:")
                    || meaning.starts_with("arena:"),
                "docs/api.md lists {code}, which no error has"
            );
        }
    }
}
