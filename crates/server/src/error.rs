//! One error type for the HTTP API, mapped to a status and a log level once.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An API error: what the client is told, and with which status.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON of the expected shape.
    #[error("bad JSON: {0}")]
    BadJson(String),
    /// A field has a bad value.
    #[error("field {field}: {message}")]
    BadField {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        message: String,
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
            ApiError::NotSignedIn | ApiError::BadCredentials => StatusCode::UNAUTHORIZED,
            ApiError::Csrf | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
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
            ApiError::NotSignedIn => "not_signed_in",
            ApiError::Csrf => "csrf",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::BadCredentials => "bad_credentials",
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict { code, .. } => code,
            ApiError::TooMany { code, .. } => code,
            ApiError::Internal(_) => "internal",
        }
    }

    /// A bad field.
    pub fn field(field: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::BadField { field, message: message.into() }
    }
}

impl From<rookery_store::StoreError> for ApiError {
    fn from(e: rookery_store::StoreError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let ApiError::Internal(detail) = &self {
            tracing::error!(%detail, "internal error");
        } else {
            tracing::debug!(code = self.code(), error = %self, "request refused");
        }
        let mut body = serde_json::json!({ "code": self.code(), "message": self.to_string() });
        if let ApiError::BadField { field, .. } = &self {
            body["field"] = serde_json::Value::from(*field);
        }
        (status, Json(serde_json::json!({ "error": body }))).into_response()
    }
}

/// Reads a JSON body strictly: unknown fields are refused, and errors name the field.
pub fn parse_body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.len() > 16 * 1024 {
        return Err(ApiError::BadJson("the body is larger than 16 KiB".into()));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::BadJson(e.to_string()))
}
