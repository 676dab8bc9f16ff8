//! The web UI's routes (the UI itself lands separately).

use axum::Router;

/// The routes serving the embedded web UI.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
}
