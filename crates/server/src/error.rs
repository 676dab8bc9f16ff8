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

use crate::protocol::{FieldError, Fields};

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
    /// Nothing by that name.
    #[error("{0} not found")]
    NotFound(String),
    /// The method is not one this path answers.
    #[error("method not allowed here")]
    MethodNotAllowed,
    /// Someone was first (an accepted seek) or the name is taken.
    #[error("{message}")]
    Conflict {
        /// A machine code.
        code: &'static str,
        /// Words.
        message: String,
    },
    /// A client holds or does too much (issue 37): sockets, seeks, log-in failures.
    #[error("{message}")]
    TooMany {
        /// A machine code.
        code: &'static str,
        /// Words naming the limit.
        message: String,
    },
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
            ApiError::NotSignedIn | ApiError::BadCredentials => StatusCode::UNAUTHORIZED,
            ApiError::Csrf | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
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
            ApiError::BadCredentials => "bad_credentials",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Conflict { code, .. } => code,
            ApiError::TooMany { code, .. } => code,
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
