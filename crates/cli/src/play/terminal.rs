//! The real terminal: raw mode, the alternate screen and mouse reports on the way in, all of
//! it undone on every way out (a normal quit, an error, a panic). The loop here is the only
//! place that reads the time: `now` is milliseconds since the game started.

use std::io::{self, Stdout};
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

use super::app::App;
use super::{input, render};

/// How often the screen is redrawn while nothing happens: the clocks show tenths under ten
/// seconds.
const FRAME: Duration = Duration::from_millis(100);

/// Restores the terminal when dropped: on return, on `?` and while a panic unwinds.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore();
    }
}

fn restore() {
    let _ = disable_raw_mode();
    let _ =
        execute!(io::stdout(), DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
}

/// Runs the game on the terminal until the player quits.
///
/// # Errors
/// Terminal I/O errors; the terminal is restored first.
pub fn run(mut app: App) -> anyhow::Result<App> {
    // A panic message printed on the alternate screen in raw mode would be lost: restore
    // first, then let the usual hook print it.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    enable_raw_mode()?;
    let _restore = Restore;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal: Terminal<CrosstermBackend<Stdout>> =
        Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.hide_cursor()?;
    let started = Instant::now();
    let now = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    loop {
        app.tick(now());
        terminal.draw(|frame| {
            app.screen = frame.area();
            render::draw(frame, &app);
        })?;
        if app.should_quit() {
            break;
        }
        if event::poll(FRAME)? {
            let event = event::read()?;
            if let Some(action) = input::action(&event, &app) {
                app.apply(action, now());
            }
        }
    }
    Ok(app)
}
