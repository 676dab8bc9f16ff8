//! Drawing the game with ratatui: the board (Unicode pieces on coloured squares, or ASCII
//! letters), the clocks and the move list beside it, then a message line, the move being
//! typed, the key reminder, and an overlay for the help or the result. Everything is computed
//! from the [`App`] and the screen size, so a resize is just the next draw.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Colour, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;
use rookery_arbiter::IllegalMovePolicy;
use rookery_core::{Color, File, Piece, Rank, Role, Square};

use super::app::{title, App, Overlay, Tone};
use super::input::KEYS;
use super::screen::{board_geometry, BoardGeometry, Look, BOTTOM_ROWS, MIN_SIZE};

/// The colours of one look.
struct Palette {
    light: Colour,
    dark: Colour,
    last_light: Colour,
    last_dark: Colour,
    selected: Colour,
    check: Colour,
    piece: Colour,
    hint: Colour,
}

impl Palette {
    fn of(look: Look) -> Option<Palette> {
        match look {
            Look::Ascii => None,
            // lichess's brown board.
            Look::TrueColor => Some(Palette {
                light: Colour::Rgb(240, 217, 181),
                dark: Colour::Rgb(181, 136, 99),
                last_light: Colour::Rgb(205, 210, 106),
                last_dark: Colour::Rgb(170, 162, 58),
                selected: Colour::Rgb(130, 151, 105),
                check: Colour::Rgb(230, 90, 80),
                piece: Colour::Rgb(0, 0, 0),
                hint: Colour::Rgb(70, 70, 70),
            }),
            Look::Indexed => Some(Palette {
                light: Colour::Indexed(223),
                dark: Colour::Indexed(137),
                last_light: Colour::Indexed(186),
                last_dark: Colour::Indexed(143),
                selected: Colour::Indexed(107),
                check: Colour::Indexed(167),
                piece: Colour::Indexed(16),
                hint: Colour::Indexed(238),
            }),
        }
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let screen = frame.area();
    let Some(board) = board_geometry(screen, app.look, app.flipped) else {
        let text =
            format!("enlarge the terminal: rookery play needs {}×{}", MIN_SIZE.0, MIN_SIZE.1);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), screen);
        return;
    };
    draw_board(frame.buffer_mut(), app, &board);
    let main_height = screen.height - BOTTOM_ROWS;
    let panel_x = board.outer_width() + 2;
    // The shortest clock line, `▶0:00.0`, needs 7 cells; with less, the clocks go to the
    // status line, so that no screen the game accepts hides them.
    let clocks_in_panel = panel_x + 7 <= screen.right();
    if panel_x < screen.right() {
        let panel = Rect::new(panel_x, screen.y, screen.right() - panel_x, main_height);
        frame.render_widget(Paragraph::new(panel_lines(app, panel.width, panel.height)), panel);
    }
    let bottom = Rect::new(screen.x, screen.y + main_height, screen.width, BOTTOM_ROWS);
    let [status, input, keys] =
        Layout::vertical([Constraint::Length(2), Constraint::Length(1), Constraint::Length(1)])
            .areas(bottom);
    let status_text = status_line(app, !clocks_in_panel);
    frame.render_widget(Paragraph::new(status_text).wrap(Wrap { trim: true }), status);
    frame.render_widget(Paragraph::new(input_line(app)), input);
    let dim =
        if app.look == Look::Ascii { Style::new() } else { Style::new().fg(Colour::DarkGray) };
    let reminder = "Enter play · Tab complete · Ctrl-D draw · Ctrl-R resign · Ctrl-S save · \
                    Ctrl-F flip · F1 help · Ctrl-C quit";
    frame.render_widget(Paragraph::new(Span::styled(reminder, dim)), keys);
    match app.overlay {
        Overlay::None => {}
        Overlay::Help => draw_help(frame, screen),
        Overlay::GameOver => draw_game_over(frame, app, screen),
    }
}

fn draw_board(buf: &mut Buffer, app: &App, board: &BoardGeometry) {
    let palette = Palette::of(app.look);
    let pos = app.game.position();
    let last = app.game.plies().last().map(|p| (p.m.from(), p.m.to()));
    let in_check = pos.is_check().then(|| pos.king_of(pos.turn()));
    let selected = app.selected.or(app.promotion.map(|(from, _)| from));
    let targets: Vec<Square> = match selected {
        Some(from) => {
            pos.legal_moves().iter().filter(|m| m.from() == from).map(|m| m.to()).collect()
        }
        None => Vec::new(),
    };
    for sq in Square::ALL {
        let rect = board.square_rect(sq);
        let is_last = last.is_some_and(|(from, to)| sq == from || sq == to);
        let piece = pos.board().piece_at(sq);
        let centre = (rect.x + rect.width / 2, rect.y + rect.height / 2);
        match &palette {
            Some(p) => {
                let bg = if in_check == Some(sq) {
                    p.check
                } else if selected == Some(sq) {
                    p.selected
                } else if is_last {
                    if sq.is_light() {
                        p.last_light
                    } else {
                        p.last_dark
                    }
                } else if sq.is_light() {
                    p.light
                } else {
                    p.dark
                };
                let style = Style::new().bg(bg).fg(p.piece);
                buf.set_style(rect, style);
                for y in rect.top()..rect.bottom() {
                    buf.set_string(rect.x, y, " ".repeat(rect.width as usize), style);
                }
                let glyph = match piece {
                    Some(piece) => unicode_glyph(piece).to_string(),
                    None if targets.contains(&sq) => "•".to_owned(),
                    None => " ".to_owned(),
                };
                let glyph_style = if piece.is_none() { style.fg(p.hint) } else { style };
                buf.set_string(centre.0, centre.1, glyph, glyph_style);
                if targets.contains(&sq) && piece.is_some() {
                    buf.set_string(rect.x, centre.1, "·", style.fg(p.hint));
                }
                if app.cursor == sq && app.overlay == Overlay::None {
                    let cursor = style.add_modifier(Modifier::BOLD);
                    buf.set_string(rect.x, centre.1, "[", cursor);
                    buf.set_string(rect.right() - 1, centre.1, "]", cursor);
                }
            }
            None => {
                // Without colour: the piece letter, `.` on dark empty squares, and marks
                // either side for the cursor, selection, check and last move.
                let glyph = match piece {
                    Some(piece) => piece.char(),
                    None if targets.contains(&sq) => '*',
                    None if sq.is_dark() => '.',
                    None => ' ',
                };
                let (left, right) = if app.cursor == sq && app.overlay == Overlay::None {
                    ('[', ']')
                } else if selected == Some(sq) {
                    ('<', '>')
                } else if in_check == Some(sq) {
                    ('!', '!')
                } else if is_last {
                    ('(', ')')
                } else {
                    (' ', ' ')
                };
                let text = format!("{left}{glyph}{right}");
                buf.set_string(rect.x, rect.y, text, Style::new());
            }
        }
    }
    let label = if palette.is_some() { Style::new().fg(Colour::Gray) } else { Style::new() };
    for rank in Rank::ALL {
        let rect = board.square_rect(Square::from_coords(File::A, rank));
        let y = rect.y + rect.height / 2;
        buf.set_string(board.x - 2, y, rank.char().to_string(), label);
    }
    for file in File::ALL {
        let rect = board.square_rect(Square::from_coords(file, Rank::First));
        let y = board.y + 8 * board.height;
        buf.set_string(rect.x + rect.width / 2, y, file.char().to_string(), label);
    }
}

/// The figurine: outline for White, solid for Black, as in printed diagrams.
fn unicode_glyph(piece: Piece) -> char {
    match (piece.color, piece.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// A clock reading: `m:ss`, `h:mm:ss` from an hour, tenths under ten seconds.
pub fn format_clock(ms: u64) -> String {
    let secs = ms / 1000;
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else if ms < 10_000 {
        format!("0:{:02}.{}", secs, ms % 1000 / 100)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// A clock's line in a panel `width` cells wide: the marker, the clock, and as much of the
/// player's name as fits. The clock is the last thing to go (issue 41): names shrink to the
/// colour, then to its letter, before the clock loses a cell.
fn clock_line(marker: &str, colour: &str, label: &str, clock: &str, width: usize) -> String {
    let wide = format!("{marker} {colour:<6}{label:<14}{clock:>9}");
    if wide.chars().count() <= width {
        return wide;
    }
    let initial = &colour[..1];
    [format!("{marker} {colour} {clock}"), format!("{marker} {initial} {clock}")]
        .into_iter()
        .find(|line| line.chars().count() <= width)
        .unwrap_or_else(|| format!("{marker}{clock}"))
}

fn panel_lines(app: &App, width: u16, height: u16) -> Vec<Line<'static>> {
    let game = &app.game;
    let ascii = app.look == Look::Ascii;
    let bold = if ascii { Style::new() } else { Style::new().add_modifier(Modifier::BOLD) };
    let mut lines = Vec::new();
    let tc = game.clock().time_control().to_string();
    let tc = if tc == "-" { "no clock".to_owned() } else { tc };
    let variant = match (game.start_position().is_chess960(), app.chess960) {
        (true, Some(n)) => format!("Chess960 #{n} · "),
        (true, None) => "Chess960 · ".to_owned(),
        (false, _) => String::new(),
    };
    lines.push(Line::from(format!("Rookery · {variant}{} rules · {tc}", game.rules().label())));
    lines.push(Line::from(""));
    let turn = game.position().turn();
    let top = if app.flipped { Color::White } else { Color::Black };
    for color in [top, !top] {
        let marker = match (turn == color && !game.is_over(), ascii) {
            (true, true) => ">",
            (true, false) => "▶",
            (false, _) => " ",
        };
        let clock =
            game.clock().remaining(color, app.now).map_or_else(|| "-".to_owned(), format_clock);
        let line = clock_line(marker, title(color), &app.label(color), &clock, width.into());
        // The clock is the line's end, in bold.
        let split = line.len() - clock.len();
        lines.push(Line::from(vec![
            Span::raw(line[..split].to_owned()),
            Span::styled(line[split..].to_owned(), bold),
        ]));
    }
    lines.push(Line::from(""));
    if let Some(outcome) = game.outcome() {
        lines.push(Line::styled(format!("{} {}", outcome.result, outcome.describe()), bold));
    } else {
        let mut state = format!("{} to move", title(turn));
        if game.position().is_check() {
            state.push_str(" · check");
        }
        if app.is_thinking() {
            state = "Rookery is thinking…".to_owned();
        }
        lines.push(Line::from(state));
    }
    if let IllegalMovePolicy::Strikes { limit } = game.rules().illegal_moves {
        lines.push(Line::from(format!(
            "illegal moves: White {}/{limit} · Black {}/{limit}",
            game.strikes(Color::White),
            game.strikes(Color::Black)
        )));
    } else if game.rules().illegal_moves == IllegalMovePolicy::Fide {
        lines.push(Line::from(format!(
            "illegal moves: White {}/2 · Black {}/2",
            game.strikes(Color::White),
            game.strikes(Color::Black)
        )));
    }
    if let Some(obligation) = game.obligation() {
        lines.push(Line::from(format!("touch-move: {obligation}")));
    }
    if let Some(by) = game.pending_offer() {
        lines.push(Line::from(format!("draw offered by {}", title(by))));
    }
    if app.offer_armed {
        lines.push(Line::from("draw offer goes with your next move"));
    }
    lines.push(Line::from(""));
    lines.push(Line::styled("Moves", bold));
    let mut rows = move_rows(app);
    let room = (height as usize).saturating_sub(lines.len());
    if rows.len() > room {
        rows.drain(..rows.len() - room);
    }
    lines.extend(rows.into_iter().map(Line::from));
    lines
}

/// The move list in SAN, a numbered row per move pair.
fn move_rows(app: &App) -> Vec<String> {
    let start = app.game.start_position();
    let mut number = start.fullmoves();
    let mut rows = Vec::new();
    let mut row = String::new();
    for (i, ply) in app.game.plies().iter().enumerate() {
        if ply.color == Color::White {
            row = format!("{number:>3}. {:<8}", ply.san.to_string());
        } else {
            if i == 0 {
                row = format!("{number:>3}. {:<8}", "…");
            }
            row.push_str(&ply.san.to_string());
            rows.push(std::mem::take(&mut row));
            number += 1;
        }
    }
    if !row.is_empty() {
        rows.push(row);
    }
    if let Some(outcome) = app.game.outcome() {
        rows.push(format!("     {}", outcome.result));
    }
    rows
}

fn status_line(app: &App, with_clocks: bool) -> Line<'static> {
    let ascii = app.look == Look::Ascii;
    let clocks = [Color::White, Color::Black]
        .map(|c| app.game.clock().remaining(c, app.now).map(format_clock));
    if let (true, [Some(white), Some(black)]) = (with_clocks, &clocks) {
        let message = app.message.as_ref().map_or_else(String::new, |(t, _)| format!(" · {t}"));
        return Line::from(format!("W {white} · B {black}{message}"));
    }
    match &app.message {
        Some((text, Tone::Warning)) if !ascii => {
            Line::styled(text.clone(), Style::new().fg(Colour::LightRed))
        }
        Some((text, _)) => Line::from(text.clone()),
        None => {
            let game = &app.game;
            let text = match game.outcome() {
                Some(outcome) => format!("game over: {} {}", outcome.result, outcome.describe()),
                None if app.is_thinking() => "Rookery is thinking…".to_owned(),
                None => {
                    let turn = game.position().turn();
                    let check = if game.position().is_check() { " · check" } else { "" };
                    format!("{} to move{check}", title(turn))
                }
            };
            Line::from(text)
        }
    }
}

fn input_line(app: &App) -> Line<'static> {
    if app.promotion.is_some() {
        return Line::from("promote to: q queen · r rook · b bishop · n knight (Enter: queen)");
    }
    let mut spans = vec![Span::raw("move> "), Span::raw(app.input.clone()), Span::raw("_")];
    if let (true, Some(refused)) = (app.input.is_empty(), &app.recall) {
        spans.push(Span::raw(format!("  ↑ brings back {refused}")));
    } else if app.input.is_empty() {
        spans.push(Span::raw("  type a move (e4, Nf3, e2e4) or pick with arrows and Space"));
    } else {
        let options = app.completions();
        let text = match options.len() {
            0 => "  no legal move starts with this".to_owned(),
            n if n <= 8 => format!("  Tab: {}", options.join(" ")),
            n => format!("  Tab: {} … ({n})", options[..8].join(" ")),
        };
        spans.push(Span::raw(text));
    }
    Line::from(spans)
}

/// A box of `width` × `height` in the middle of `screen`, clipped to it.
fn centred(screen: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(screen.width);
    let height = height.min(screen.height);
    Rect::new(
        screen.x + (screen.width - width) / 2,
        screen.y + (screen.height - height) / 2,
        width,
        height,
    )
}

fn draw_help(frame: &mut Frame, screen: Rect) {
    let mut lines: Vec<Line> =
        KEYS.iter().map(|(keys, what)| Line::from(format!(" {keys:<22}{what}"))).collect();
    lines.push(Line::from(""));
    lines.push(Line::from(" any key closes this help"));
    let area = centred(screen, 72, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" Keys ")), area);
}

fn draw_game_over(frame: &mut Frame, app: &App, screen: Rect) {
    let Some(outcome) = app.game.outcome() else { return };
    let mut lines = vec![
        Line::from(""),
        Line::from(format!("  {}  {}", outcome.result, outcome.describe())),
        Line::from(match app.game.plies().len().div_ceil(2) {
            1 => "  after 1 move".to_owned(),
            n => format!("  after {n} moves"),
        }),
        Line::from(""),
    ];
    if let Some(path) = &app.saved {
        lines.push(Line::from(format!("  saved to {}", path.display())));
    }
    lines.push(Line::from("  Ctrl-S save PGN · Esc see the board · q quit"));
    let area = centred(screen, 60, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" Game over ")), area);
}
