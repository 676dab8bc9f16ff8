//! Sign-up, log-in, log-out: usernames validated, passwords hashed with Argon2id (on a
//! blocking thread: a hash takes tens of milliseconds); sign-ups limited per address, failed
//! log-ins throttled apart from them ([`crate::ratelimit::LoginThrottle`]).

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use rookery_ladder::Level;
use rookery_store::{StoreError, User};
use serde_json::{json, Value};

use crate::client::ClientAddr;
use crate::clock::now_ms;
use crate::error::{ApiError, Body, FromBody, Limit};
use crate::identity::{
    cookie, set_cookie, token_hash, Identity, Visitor, ANON_COOKIE, SESSION_COOKIE, SESSION_MS,
};
use crate::protocol::{FieldError, Fields};
use crate::secrets::random_hex;
use crate::state::AppState;

/// A user as the API shows it.
pub fn user_json(u: &User) -> Value {
    json!({
        "name": u.username,
        "created_at_ms": u.created_at_ms,
        "points": u.points.to_string(),
        "level": crate::protocol::LevelView(Level::of(u.points)),
        "rating": { "rating": round1(u.rating.rating), "deviation": round1(u.rating.deviation), "volatility": u.rating.volatility },
        "wins": u.wins, "draws": u.draws, "losses": u.losses,
    })
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Checks a username: 3 to 20 ASCII letters, digits, `_` or `-`, starting with a letter.
/// Names that could pass for anonymous visitors or the engine are refused.
pub fn validate_username(name: &str) -> Result<(), ApiError> {
    const RULE: &str = "3 to 20 letters, digits, _ or -, starting with a letter";
    let ok_len = (3..=20).contains(&name.len());
    let ok_chars = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let ok_start = name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    if !(ok_len && ok_chars && ok_start) {
        return Err(ApiError::field("username", format!("{RULE}: {name:?}")));
    }
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("anon-") || lower.starts_with("rookery") {
        return Err(ApiError::field("username", format!("{name:?} is reserved")));
    }
    Ok(())
}

pub(crate) fn validate_password(password: &str) -> Result<(), ApiError> {
    if !(8..=256).contains(&password.chars().count()) {
        return Err(ApiError::field("password", "8 to 256 characters"));
    }
    Ok(())
}

/// A username and a password, as sign-up and log-in take them.
pub struct Credentials {
    username: String,
    password: String,
}

impl FromBody for Credentials {
    fn from_fields(f: &mut Fields) -> Result<Credentials, FieldError> {
        Ok(Credentials { username: f.req("username")?, password: f.req("password")? })
    }
}

/// `GET /api/v1/account`.
pub async fn me(Extension(visitor): Extension<Visitor>) -> Json<Value> {
    Json(match &visitor.identity {
        Identity::User(u) => {
            json!({ "user": user_json(u), "anonymous_name": null, "csrf": visitor.csrf })
        }
        Identity::Anonymous { name } => {
            json!({ "user": null, "anonymous_name": name, "csrf": visitor.csrf })
        }
    })
}

/// The browser asking, for the log-in throttle: the hash of its visitor cookie (set on its
/// first request; a browser without one is new).
pub(crate) fn browser(headers: &HeaderMap) -> Option<String> {
    cookie(headers, ANON_COOKIE).map(token_hash)
}

/// `POST /api/v1/account/signup`.
pub async fn signup(
    State(state): State<Arc<AppState>>,
    Extension(addr): Extension<ClientAddr>,
    headers: HeaderMap,
    Body(creds): Body<Credentials>,
) -> Result<Response, ApiError> {
    validate_username(&creds.username)?;
    validate_password(&creds.password)?;
    let now = now_ms();
    // Counted apart from log-ins: a club signing up behind one address can still log in. A
    // trusted network (`--trusted-networks`) is not counted.
    if !addr.is_trusted() {
        let key = addr.to_string();
        if !state.signups.allows(&key, now) {
            return Err(ApiError::TooMany(Limit::SignUps(state.signups.limit())));
        }
        state.signups.record(&key, now);
    }
    let hash = hash_password(creds.password).await?;
    let user = match state.store.create_user(&creds.username, &hash, now as i64).await {
        Ok(user) => user,
        Err(StoreError::UsernameTaken(_)) => return Err(ApiError::UsernameTaken(creds.username)),
        Err(e) => return Err(e.into()),
    };
    tracing::info!(user = %user.username, "signed up");
    state.logins.succeeded(&user.username, browser(&headers).as_deref(), now);
    start_session(&state, &user, StatusCode::CREATED).await
}

/// The Argon2id hash of `password`, with a new salt, made on a blocking thread.
pub(crate) async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(random_hex(16).as_bytes()).map_err(|e| e.to_string())?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
    .map_err(ApiError::Internal)
}

/// `POST /api/v1/account/login`.
pub async fn login(
    State(state): State<Arc<AppState>>,
    Extension(addr): Extension<ClientAddr>,
    headers: HeaderMap,
    Body(creds): Body<Credentials>,
) -> Result<Response, ApiError> {
    let now = now_ms();
    let browser = browser(&headers);
    state.logins.check(&creds.username, addr, browser.as_deref(), now)?;
    let stored = state.store.password_hash(&creds.username).await?;
    let password = creds.password;
    let expected = stored.as_ref().map(|(_, h)| h.clone());
    let ok = tokio::task::spawn_blocking(move || {
        // An unknown name costs a hash too, so timing does not tell which names exist.
        let text = expected.as_deref().unwrap_or_else(|| dummy_hash());
        let valid = PasswordHash::new(text)
            .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
            .unwrap_or(false);
        valid && expected.is_some()
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let user = match (ok, stored) {
        (true, Some((id, _))) => state.store.user(id).await?,
        _ => None,
    };
    let Some(user) = user else {
        state.logins.failed(&creds.username, addr, now);
        return Err(ApiError::BadCredentials);
    };
    tracing::info!(user = %user.username, "logged in");
    state.logins.succeeded(&user.username, browser.as_deref(), now);
    start_session(&state, &user, StatusCode::OK).await
}

/// A real Argon2id hash of nothing anyone knows, verified against when the name is unknown.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let Ok(salt) = SaltString::encode_b64(b"rookery-dummy-salt") else { return String::new() };
        let secret = random_hex(16);
        Argon2::default()
            .hash_password(secret.as_bytes(), &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Starts a session for `user` and answers with the user and its cookie.
pub(crate) async fn start_session(
    state: &AppState,
    user: &User,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = random_hex(32);
    let now = now_ms() as i64;
    state.store.create_session(&token_hash(&token), user.id, now, now + SESSION_MS as i64).await?;
    let mut response = (status, Json(user_json(user))).into_response();
    let cookie = set_cookie(SESSION_COOKIE, &token, true, SESSION_MS / 1000, "Lax");
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(SET_COOKIE, v);
    }
    Ok(response)
}

/// `POST /api/v1/account/logout`.
pub async fn logout(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
) -> Result<Response, ApiError> {
    if let Some(hash) = &visitor.session_hash {
        state.store.delete_session(hash).await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    let cookie = set_cookie(SESSION_COOKIE, "", true, 0, "Lax");
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(SET_COOKIE, v);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        for ok in ["alice", "Bob_2", "x-y-z", "abc"] {
            assert!(validate_username(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "1abc",
            "_abc",
            "a b c",
            "ålice",
            "a".repeat(21).as_str(),
            "anon-123",
            "Rookery1",
            "ab;DROP",
        ] {
            assert!(validate_username(bad).is_err(), "{bad}");
        }
    }
}
