//! Keys and mouse clicks to [`Action`]s. Letters, digits and `-+=#` are move text (SAN or UCI),
//! so the commands sit on Ctrl keys, the function keys and the keys that no move uses.
//!
//! In raw mode the terminal sends Ctrl-C as a key rather than a signal: it quits like Ctrl-Q,
//! through the same path that restores the terminal.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::app::{Action, App};
use super::screen::board_geometry;

/// The keys, as the help overlay lists them: (keys, what they do).
pub const KEYS: [(&str, &str); 17] = [
    ("e4 Nf3 O-O e7e8q", "type a move in SAN or UCI, then Enter"),
    ("Tab", "complete the typed move (legal moves only)"),
    ("arrows + Space/Enter", "select a piece, then its square"),
    ("mouse click", "select a piece, then its square"),
    ("q r b n", "promotion piece after select-and-move"),
    ("Esc", "clear the text or selection; show the result"),
    ("↑ after a refused move", "bring its text back"),
    ("Ctrl-D", "offer a draw with your next move"),
    ("Ctrl-Y", "accept a draw offer (or claim a draw: fide)"),
    ("Ctrl-N", "decline a draw offer"),
    ("Ctrl-R Ctrl-R", "resign"),
    ("Ctrl-Z", "take back (casual rules, vs engine)"),
    ("Ctrl-S", "save the game as PGN"),
    ("Ctrl-F", "flip the board"),
    ("F1 or ?", "this help"),
    ("q", "quit, once the game is over"),
    ("Ctrl-C Ctrl-Q", "quit (twice during a game)"),
];

/// The action a terminal event asks for, if any.
pub fn action(event: &Event, app: &App) -> Option<Action> {
    match event {
        Event::Key(key) => key_action(key),
        Event::Mouse(mouse) => match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let board = board_geometry(app.screen, app.look, app.flipped)?;
                board.square_at(mouse.column, mouse.row).map(Action::PickSquare)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The action a key asks for, if any.
pub fn key_action(key: &KeyEvent) -> Option<Action> {
    // Terminals that report releases (Windows, the kitty protocol) would act twice.
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('c' | 'q') => Some(Action::Quit),
            KeyCode::Char('d') => Some(Action::OfferDraw),
            KeyCode::Char('y') => Some(Action::AcceptDraw),
            KeyCode::Char('n') => Some(Action::DeclineDraw),
            KeyCode::Char('r') => Some(Action::Resign),
            KeyCode::Char('z') => Some(Action::Takeback),
            KeyCode::Char('s') => Some(Action::Save),
            KeyCode::Char('f') => Some(Action::Flip),
            KeyCode::Char('h') => Some(Action::Backspace),
            _ => None,
        };
    }
    Some(match key.code {
        KeyCode::Char(' ') => Action::Pick,
        KeyCode::Char(c) => Action::Type(c),
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Enter => Action::Submit,
        KeyCode::Tab => Action::Complete,
        KeyCode::Esc => Action::Cancel,
        KeyCode::Left => Action::Cursor { right: -1, up: 0 },
        KeyCode::Right => Action::Cursor { right: 1, up: 0 },
        KeyCode::Up => Action::Cursor { right: 0, up: 1 },
        KeyCode::Down => Action::Cursor { right: 0, up: -1 },
        KeyCode::F(1) => Action::Help,
        _ => return None,
    })
}
