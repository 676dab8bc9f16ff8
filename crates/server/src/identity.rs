//! Who is asking: a signed-in user or an anonymous visitor, from the request's cookies; and
//! the CSRF check (double-submit: the `rookery_csrf` cookie echoed in `X-CSRF-Token`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rookery_store::{Player, PlayerKind, User, UserId};
use sha2::{Digest, Sha256};

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::secrets::{hex, random_hex};
use crate::state::AppState;

/// The session cookie of a signed-in user.
pub const SESSION_COOKIE: &str = "rookery_session";
/// The anonymous visitor's id.
pub const ANON_COOKIE: &str = "rookery_anon";
/// The CSRF token, readable by the page.
pub const CSRF_COOKIE: &str = "rookery_csrf";
/// Sessions last 30 days.
pub const SESSION_MS: u64 = 30 * 24 * 3600 * 1000;

/// Who is asking.
#[derive(Clone, Debug)]
pub enum Identity {
    /// A signed-in user.
    User(User),
    /// An anonymous visitor, known by the hash of their cookie.
    Anonymous {
        /// The public name derived from the secret cookie (`anon-` and 8 hex digits).
        name: String,
    },
}

impl Identity {
    /// The name shown to others.
    pub fn name(&self) -> &str {
        match self {
            Identity::User(u) => &u.username,
            Identity::Anonymous { name } => name,
        }
    }

    /// The user id of a signed-in user.
    pub fn user_id(&self) -> Option<UserId> {
        match self {
            Identity::User(u) => Some(u.id),
            Identity::Anonymous { .. } => None,
        }
    }

    /// As a player of a game.
    pub fn as_player(&self) -> Player {
        match self {
            Identity::User(u) => Player {
                kind: PlayerKind::User,
                user_id: Some(u.id),
                name: u.username.clone(),
                engine_level: None,
            },
            Identity::Anonymous { name } => Player {
                kind: PlayerKind::Anonymous,
                user_id: None,
                name: name.clone(),
                engine_level: None,
            },
        }
    }

    /// `true` if this visitor is `player`.
    pub fn is(&self, player: &Player) -> bool {
        match (self, player.kind) {
            (Identity::User(u), PlayerKind::User) => player.user_id == Some(u.id),
            (Identity::Anonymous { name }, PlayerKind::Anonymous) => *name == player.name,
            _ => false,
        }
    }
}

/// The visitor of one request, put in the request's extensions by [`identify`].
#[derive(Clone, Debug)]
pub struct Visitor {
    /// Who.
    pub identity: Identity,
    /// The CSRF token the page must echo.
    pub csrf: String,
    /// The hash of the session token, if signed in (to log out).
    pub session_hash: Option<String>,
}

/// SHA-256 of a secret token, as stored in the database (a stolen database gives no
/// usable session).
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn anon_name(token: &str) -> String {
    format!("anon-{}", &token_hash(token)[..8])
}

/// The value of cookie `name` in the request's headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// A `Set-Cookie` value.
pub fn set_cookie(
    name: &str,
    value: &str,
    http_only: bool,
    max_age_s: u64,
    same_site: &str,
) -> String {
    let http_only = if http_only { "; HttpOnly" } else { "" };
    format!("{name}={value}; Path=/; Max-Age={max_age_s}; SameSite={same_site}{http_only}")
}

/// Works out the visitor from the cookies (setting the anonymous and CSRF cookies of a new
/// visitor), refuses state-changing requests without the CSRF header, and runs the handler.
pub async fn identify(
    State(state): State<Arc<AppState>>,
    mut req: Request,
    next: Next,
) -> Response {
    let headers = req.headers();
    let mut new_cookies = Vec::new();
    let mut session_hash = None;
    let mut identity = None;
    if let Some(token) = cookie(headers, SESSION_COOKIE) {
        let hash = token_hash(token);
        match state.store.session_user(&hash, now_ms() as i64).await {
            Ok(Some(user)) => {
                identity = Some(Identity::User(user));
                session_hash = Some(hash);
            }
            Ok(None) => {}
            Err(e) => return ApiError::from(e).into_response(),
        }
    }
    let anon = match cookie(headers, ANON_COOKIE) {
        Some(token) => token.to_owned(),
        None => {
            let token = random_hex(16);
            new_cookies.push(set_cookie(ANON_COOKIE, &token, true, 400 * 24 * 3600, "Lax"));
            token
        }
    };
    let identity = identity.unwrap_or_else(|| Identity::Anonymous { name: anon_name(&anon) });
    let csrf = match cookie(headers, CSRF_COOKIE) {
        Some(token) => token.to_owned(),
        None => {
            let token = random_hex(16);
            new_cookies.push(set_cookie(CSRF_COOKIE, &token, false, 400 * 24 * 3600, "Strict"));
            token
        }
    };
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let mut response = if changes_state
        && headers.get("x-csrf-token").and_then(|v| v.to_str().ok()) != Some(csrf.as_str())
    {
        ApiError::Csrf.into_response()
    } else {
        req.extensions_mut().insert(Visitor { identity, csrf, session_hash });
        next.run(req).await
    };
    for c in new_cookies {
        if let Ok(v) = HeaderValue::from_str(&c) {
            response.headers_mut().append(SET_COOKIE, v);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_read_strictly() {
        let mut h = HeaderMap::new();
        h.insert(COOKIE, HeaderValue::from_static("a=1; rookery_anon=abc123; x=\"y\""));
        assert_eq!(cookie(&h, ANON_COOKIE), Some("abc123"));
        assert_eq!(cookie(&h, "x"), None);
        assert_eq!(cookie(&h, "missing"), None);
    }

    #[test]
    fn anonymous_names_hide_the_token() {
        let name = anon_name("deadbeef");
        assert!(name.starts_with("anon-") && name.len() == 13);
        assert!(!name.contains("deadbeef"));
    }
}
