//! The web UI, embedded in the binary at compile time (build.rs reads `web/`).
//!
//! - `index.html` for `/` and every client route (`/lobby`, `/game/{id}`, `/review/{id}`,
//!   `/@/{name}`, `/leaderboard`, `/login`, `/signup`, `/first-login`, `/class`,
//!   `/tournaments`, `/tournaments/{id}`, `/tournaments/new`,
//!   `/tournaments/{id}/boards/{round}/{board}/moves`): `Cache-Control: no-cache`, so a new
//!   binary's UI is picked up at once (revalidated by ETag).
//! - `/assets/{version}/{path}`: every other file of `web/`. The version is a hash of the whole
//!   UI, so these URLs never change content and are cached for a year (`immutable`). A request
//!   for another version (a page loaded before an upgrade) gets today's file, uncached.
//!
//! Every response has a strong ETag and answers `If-None-Match` with 304. Text files are sent
//! gzipped (made at build time) to a client that accepts it, with their own ETag and
//! `Vary: Accept-Encoding`.

use axum::extract::Path;
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG,
    IF_NONE_MATCH, REFERRER_POLICY, VARY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// One embedded file.
#[derive(Debug)]
pub struct Asset {
    /// The path under `web/`, with `/` separators.
    pub path: &'static str,
    /// The bytes.
    pub body: &'static [u8],
    /// A strong ETag, quoted.
    pub etag: &'static str,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The same bytes gzipped, for a text file that shrinks.
    pub gzip: Option<&'static [u8]>,
}

mod embedded {
    use super::Asset;
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

pub use embedded::VERSION;

/// The page's policy: scripts, styles and sockets from this origin only (chessground sets
/// inline `style` attributes, and the piece images are `data:` URLs).
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data:; connect-src 'self'; font-src 'self' data:; \
                   frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Not `public`: the identity middleware may add `Set-Cookie` to a first visitor's response,
/// which no shared cache must keep.
const IMMUTABLE: &str = "max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// The routes serving the embedded web UI.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let page = get(index);
    Router::new()
        .route("/", page.clone())
        .route("/lobby", page.clone())
        .route("/leaderboard", page.clone())
        .route("/tournaments", page.clone())
        .route("/tournaments/{id}", page.clone())
        .route("/tournaments/{id}/boards/{round}/{board}/moves", page.clone())
        .route("/login", page.clone())
        .route("/signup", page.clone())
        .route("/first-login", page.clone())
        .route("/class", page.clone())
        .route("/game/{id}", page.clone())
        .route("/review/{id}", page.clone())
        .route("/@/{name}", page)
        .route("/assets/{version}/{*path}", get(asset))
}

/// The embedded file at `path` under `web/`, if any (`index.html` included).
pub fn find(path: &str) -> Option<&'static Asset> {
    if path == "index.html" {
        return embedded::INDEX.as_ref();
    }
    embedded::FILES.binary_search_by(|a| a.path.cmp(path)).ok().map(|i| &embedded::FILES[i])
}

async fn index(headers: HeaderMap) -> Response {
    match embedded::INDEX.as_ref() {
        Some(asset) => respond(asset, REVALIDATE, &headers, true),
        None => {
            (StatusCode::NOT_FOUND, "the web UI was not embedded in this build").into_response()
        }
    }
}

/// Any other path: the page itself, which says "not found" in the visitor's language, with
/// the status that says so too (issue 38: an empty 404 told a person nothing).
pub async fn not_found() -> Response {
    // Not revalidated: a 304 would hide the status.
    let mut response = index(HeaderMap::new()).await;
    if response.status() == StatusCode::OK {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    response
}

async fn asset(Path((version, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    match find(&path).filter(|a| a.path != "index.html") {
        Some(asset) => {
            let cache = if version == VERSION { IMMUTABLE } else { REVALIDATE };
            respond(asset, cache, &headers, false)
        }
        None => (
            StatusCode::NOT_FOUND,
            [(CACHE_CONTROL, HeaderValue::from_static(REVALIDATE))],
            "no such file",
        )
            .into_response(),
    }
}

fn respond(
    asset: &'static Asset,
    cache: &'static str,
    headers: &HeaderMap,
    page: bool,
) -> Response {
    let gzip = asset.gzip.filter(|_| accepts_gzip(headers));
    // The gzipped bytes are another representation: another strong ETag ("…-gz").
    let etag = match gzip {
        Some(_) => format!("{}-gz\"", asset.etag.trim_end_matches('"')),
        None => asset.etag.to_owned(),
    };
    let mut out = HeaderMap::new();
    out.insert(ETAG, HeaderValue::from_str(&etag).expect("an ETag is ASCII"));
    if asset.gzip.is_some() {
        out.insert(VARY, HeaderValue::from_static("accept-encoding"));
    }
    out.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    out.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if page {
        out.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
        out.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        out.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    }
    if if_none_match(headers, &etag) {
        return (StatusCode::NOT_MODIFIED, out).into_response();
    }
    out.insert(CONTENT_TYPE, HeaderValue::from_static(asset.content_type));
    match gzip {
        Some(body) => {
            out.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            (StatusCode::OK, out, body).into_response()
        }
        None => (StatusCode::OK, out, asset.body).into_response(),
    }
}

/// `true` if `Accept-Encoding` lists `gzip` (or `*`) without `q=0` (RFC 9110 §12.5.3).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers.get_all(ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',').any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()).is_some_and(|q| q <= 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
    })
}

/// `true` if `If-None-Match` lists `etag` (or `*`); weak comparison, as RFC 9110 §13.1.2 says.
fn if_none_match(headers: &HeaderMap, etag: &str) -> bool {
    let bare = etag.trim_start_matches("W/");
    headers.get_all(IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == bare)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_names_the_versioned_assets() {
        let index = find("index.html").expect("web/index.html is embedded");
        let html = std::str::from_utf8(index.body).expect("utf-8");
        assert!(!html.contains("{{ASSETS}}"), "placeholder left in index.html");
        assert!(html.contains(&format!("/assets/{VERSION}/js/app.js")));
        for path in ["js/app.js", "css/app.css", "vendor/chessground/chessground.min.js"] {
            let asset = find(path).unwrap_or_else(|| panic!("{path} is embedded"));
            assert!(
                asset.etag.starts_with('"') && asset.etag.ends_with('"'),
                "{path}: {}",
                asset.etag
            );
        }
        assert_eq!(
            find("js/app.js").map(|a| a.content_type),
            Some("text/javascript; charset=utf-8")
        );
        assert!(find("tests/package.json").is_none(), "the e2e suite is not embedded");
    }

    #[test]
    fn text_is_gzipped_for_those_who_accept_it() {
        let js = find("js/app.js").expect("embedded");
        let gz = js.gzip.expect("app.js shrinks");
        assert!(gz.len() < js.body.len() && gz.starts_with(&[0x1f, 0x8b]));
        let with = |v: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(ACCEPT_ENCODING, HeaderValue::from_static(v));
            h
        };
        assert!(accepts_gzip(&with("gzip, deflate, br, zstd")));
        assert!(accepts_gzip(&with("br;q=1.0, gzip;q=0.8")));
        assert!(!accepts_gzip(&with("gzip;q=0, br")));
        assert!(!accepts_gzip(&with("identity")));
        assert!(!accepts_gzip(&HeaderMap::new()));
        let r = respond(js, IMMUTABLE, &with("gzip"), false);
        assert_eq!(r.headers()[CONTENT_ENCODING], "gzip");
        assert_eq!(r.headers()[VARY], "accept-encoding");
        assert!(r.headers()[ETAG].to_str().unwrap().ends_with("-gz\""));
        let plain = respond(js, IMMUTABLE, &HeaderMap::new(), false);
        assert!(plain.headers().get(CONTENT_ENCODING).is_none());
        assert_ne!(plain.headers()[ETAG], r.headers()[ETAG]);
    }

    #[test]
    fn etags_compare_weakly_and_in_lists() {
        let mut h = HeaderMap::new();
        h.insert(IF_NONE_MATCH, HeaderValue::from_static("\"x\", W/\"abc\""));
        assert!(if_none_match(&h, "\"abc\""));
        assert!(!if_none_match(&h, "\"abd\""));
        assert!(!if_none_match(&HeaderMap::new(), "\"abc\""));
    }
}
