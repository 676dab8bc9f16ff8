//! The terminal game driven through its input layer without a terminal: key and mouse events
//! in, ratatui's `TestBackend` buffer out, a fake clock in milliseconds.

use std::path::PathBuf;

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use rookery_arbiter::{GameResult, GameSpec, RuleSet, Termination};
use rookery_core::{Color, Square};
use rookery_engine::Level;

use super::app::App;
use super::screen::{board_geometry, Look, MIN_SIZE};
use super::setup::{Config, Mode};
use super::{input, render};

const WIDTH: u16 = 100;
const HEIGHT: u16 = 34;

pub(super) fn spec(rules: RuleSet, tc: &str) -> GameSpec {
    GameSpec {
        rules,
        time_control: Some(tc.parse().expect("a valid time control")),
        white: "?".into(),
        black: "?".into(),
        ..GameSpec::default()
    }
}

fn hot_seat(rules: RuleSet, tc: &str) -> App {
    App::new(Config::hot_seat(spec(rules, tc)), 0).expect("the game starts")
}

fn against_engine(rules: RuleSet, human: Color) -> App {
    let mut config = Config::hot_seat(spec(rules, "-"));
    config.mode = Mode::Engine { human, level: Level::MIN };
    App::new(config, 0).expect("the game starts")
}

/// Draws the screen at `width` × `height` and returns the buffer.
fn draw_at(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| {
            app.screen = frame.area();
            render::draw(frame, app);
        })
        .expect("drawing works");
    terminal.backend().buffer().clone()
}

pub(super) fn draw(app: &mut App) -> Buffer {
    draw_at(app, WIDTH, HEIGHT)
}

/// The screen as text, one line per row, trailing blanks cut.
fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        for x in area.left()..area.right() {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub(super) fn screen(app: &mut App) -> String {
    text(&draw(app))
}

/// The message, on the two rows above the typed move.
pub(super) fn status(app: &mut App) -> String {
    let shown = screen(app);
    let rows: Vec<&str> = shown.lines().skip(HEIGHT as usize - 4).take(2).collect();
    rows.join(" ").trim_end().to_owned()
}

/// The symbol drawn in the middle of `sq`.
fn glyph(app: &mut App, sq: Square) -> String {
    let buffer = draw(app);
    let board = board_geometry(app.screen, app.look, app.flipped).expect("room for a board");
    let rect = board.square_rect(sq);
    buffer[(rect.x + rect.width / 2, rect.y + rect.height / 2)].symbol().to_owned()
}

fn send(app: &mut App, event: Event, now: u64) {
    if let Some(action) = input::action(&event, app) {
        app.apply(action, now);
    }
}

pub(super) fn key(app: &mut App, code: KeyCode, now: u64) {
    send(app, Event::Key(KeyEvent::new(code, KeyModifiers::NONE)), now);
}

pub(super) fn ctrl(app: &mut App, c: char, now: u64) {
    send(app, Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)), now);
}

pub(super) fn type_text(app: &mut App, text: &str, now: u64) {
    for c in text.chars() {
        key(app, KeyCode::Char(c), now);
    }
}

/// Types a move and presses Enter.
pub(super) fn type_move(app: &mut App, text: &str, now: u64) {
    type_text(app, text, now);
    key(app, KeyCode::Enter, now);
}

/// A left click in the middle of `sq` as the screen shows it.
pub(super) fn click(app: &mut App, sq: Square, now: u64) {
    draw(app);
    let board = board_geometry(app.screen, app.look, app.flipped).expect("room for a board");
    let rect = board.square_rect(sq);
    let event = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: rect.x + rect.width / 2,
        row: rect.y + rect.height / 2,
        modifiers: KeyModifiers::NONE,
    });
    send(app, event, now);
}

fn outcome(app: &App) -> Option<(GameResult, Termination)> {
    app.game.outcome().map(|o| (o.result, o.termination))
}

pub(super) fn sans(app: &App) -> Vec<String> {
    app.game.plies().iter().map(|p| p.san.to_string()).collect()
}

/// `rookery play` arguments as clap reads them.
pub(super) fn parse_args(args: &[&str]) -> super::Args {
    #[derive(clap::Parser)]
    struct Play {
        #[command(flatten)]
        args: super::Args,
    }
    let args = std::iter::once("play").chain(args.iter().copied());
    <Play as clap::Parser>::try_parse_from(args).expect("the arguments parse").args
}

pub(super) fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rookery-play-{}-{name}", std::process::id()))
}

#[test]
fn fools_mate_typed_as_san_with_completion() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    type_move(&mut app, "f3", 1_000);
    type_move(&mut app, "e5", 2_000);
    type_move(&mut app, "g4", 3_000);
    type_text(&mut app, "Qh", 4_000);
    assert!(screen(&mut app).contains("move> Qh_  Tab: Qh4#"), "{}", screen(&mut app));
    key(&mut app, KeyCode::Tab, 4_000);
    assert_eq!(app.input, "Qh4#");
    key(&mut app, KeyCode::Enter, 4_000);
    assert_eq!(sans(&app), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(outcome(&app), Some((GameResult::Win(Color::Black), Termination::Checkmate)));
    let shown = screen(&mut app);
    assert!(shown.contains("Game over"), "{shown}");
    assert!(shown.contains("0-1  Black wins by checkmate"), "{shown}");
    key(&mut app, KeyCode::Esc, 5_000);
    let shown = screen(&mut app);
    assert!(shown.contains("  2. g4      Qh4#"), "the move list in SAN: {shown}");
    assert_eq!(glyph(&mut app, Square::H4), "♛");
    assert_eq!(status(&mut app), "game over: 0-1 Black wins by checkmate");
    // `q` leaves once the game is over.
    key(&mut app, KeyCode::Char('q'), 6_000);
    assert!(app.should_quit());
}

#[test]
fn fools_mate_by_mouse_and_cursor() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    // 1. f3 by mouse.
    click(&mut app, Square::F2, 100);
    assert_eq!(app.selected, Some(Square::F2));
    assert_eq!(glyph(&mut app, Square::F3), "•", "the selected pawn's targets are marked");
    click(&mut app, Square::F3, 200);
    // 1... e5 by the cursor, which follows the clicks.
    assert_eq!(app.cursor, Square::F3);
    key(&mut app, KeyCode::Left, 300);
    for _ in 0..4 {
        key(&mut app, KeyCode::Up, 300);
    }
    key(&mut app, KeyCode::Char(' '), 300);
    key(&mut app, KeyCode::Down, 300);
    key(&mut app, KeyCode::Down, 300);
    key(&mut app, KeyCode::Enter, 300);
    // 2. g4 by mouse, 2... Qh4# by the cursor (d8, four right and four down).
    click(&mut app, Square::G2, 400);
    click(&mut app, Square::G4, 500);
    click(&mut app, Square::D8, 600);
    for _ in 0..4 {
        key(&mut app, KeyCode::Right, 600);
        key(&mut app, KeyCode::Down, 600);
    }
    assert_eq!(app.cursor, Square::H4);
    key(&mut app, KeyCode::Char(' '), 600);
    assert_eq!(sans(&app), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(outcome(&app), Some((GameResult::Win(Color::Black), Termination::Checkmate)));
    assert!(screen(&mut app).contains("0-1  Black wins by checkmate"));
}

#[test]
fn illegal_attempts_are_explained_and_counted_under_seed() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    type_move(&mut app, "Bc4", 1_000);
    assert_eq!(
        status(&mut app),
        "illegal move Bc4: another piece is in the way · White's illegal move 1 of 3 (the third \
         loses)"
    );
    assert!(screen(&mut app).contains("illegal moves: White 1/3 · Black 0/3"));
    // Issue 41: the refused text leaves the box, so that the next keys are not appended to
    // it, and ↑ brings it back to correct.
    assert_eq!(app.input, "");
    assert!(screen(&mut app).contains("move> _  ↑ brings back Bc4"), "{}", screen(&mut app));
    key(&mut app, KeyCode::Up, 1_000);
    assert_eq!(app.input, "Bc4");
    key(&mut app, KeyCode::Up, 1_000);
    assert_eq!(app.input, "Bc4", "↑ recalls once; then it moves the cursor");
    key(&mut app, KeyCode::Esc, 1_000);
    // Not a move at all is refused but not counted (§8.2).
    type_move(&mut app, "Nd4", 1_000);
    assert!(status(&mut app).starts_with("not a move"), "{}", status(&mut app));
    assert!(screen(&mut app).contains("illegal moves: White 1/3"));
    key(&mut app, KeyCode::Esc, 1_000);
    // By select-and-move too; the third loses (§8.4).
    click(&mut app, Square::A1, 2_000);
    click(&mut app, Square::A3, 2_000);
    assert!(screen(&mut app).contains("illegal moves: White 2/3"));
    type_move(&mut app, "Ke2", 3_000);
    assert_eq!(outcome(&app), Some((GameResult::Win(Color::Black), Termination::IllegalMoves)));
    assert!(screen(&mut app).contains("0-1  Black wins by illegal moves"));
}

#[test]
fn illegal_attempt_in_check_binds_the_piece() {
    let mut spec = spec(RuleSet::SEED, "-");
    spec.fen = Some("4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1".into());
    let mut app = App::new(Config::hot_seat(spec), 0).expect("the game starts");
    type_move(&mut app, "Kd1", 0);
    assert_eq!(
        status(&mut app),
        "illegal move Kd1: the king would move into check · White's illegal move 1 of 3 (the \
         third loses) · White must move the piece on e1"
    );
    assert!(screen(&mut app).contains("touch-move: must move the piece on e1"));
    key(&mut app, KeyCode::Esc, 0);
    type_text(&mut app, "K", 0);
    assert_eq!(app.completions(), ["Kf1", "Kxd2"]);
}

#[test]
fn casual_rules_refuse_without_counting() {
    let mut app = hot_seat(RuleSet::CASUAL, "-");
    type_move(&mut app, "Bc4", 1_000);
    assert_eq!(
        status(&mut app),
        "illegal move Bc4: another piece is in the way · not counted in casual games"
    );
    assert!(!screen(&mut app).contains("illegal moves:"));
}

#[test]
fn touch_move_obligation_is_shown_and_kept() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    click(&mut app, Square::G1, 100);
    assert!(screen(&mut app).contains("touch-move: White must move the piece on g1"));
    key(&mut app, KeyCode::Esc, 200);
    type_move(&mut app, "e4", 300);
    assert_eq!(status(&mut app), "touch-move: you must move the piece on g1");
    key(&mut app, KeyCode::Esc, 300);
    // Completion offers only the moves the obligation allows.
    type_text(&mut app, "N", 400);
    assert_eq!(app.completions(), ["Nf3", "Nh3"]);
    type_text(&mut app, "f", 400);
    key(&mut app, KeyCode::Tab, 400);
    key(&mut app, KeyCode::Enter, 400);
    assert_eq!(sans(&app), ["Nf3"]);
    assert!(!screen(&mut app).contains("touch-move:"));
}

#[test]
fn completion_lists_and_extends_typed_moves() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    type_text(&mut app, "N", 0);
    assert_eq!(app.completions(), ["Na3", "Nc3", "Nf3", "Nh3"]);
    assert!(screen(&mut app).contains("move> N_  Tab: Na3 Nc3 Nf3 Nh3"));
    key(&mut app, KeyCode::Tab, 0);
    assert_eq!(app.input, "N", "no common prefix longer than the text");
    type_text(&mut app, "c", 0);
    key(&mut app, KeyCode::Tab, 0);
    assert_eq!(app.input, "Nc3");
    key(&mut app, KeyCode::Esc, 0);
    // UCI text completes among UCI moves.
    type_text(&mut app, "e2", 0);
    assert_eq!(app.completions(), ["e2e3", "e2e4"]);
    type_move(&mut app, "e4", 0);
    assert_eq!(sans(&app), ["e4"]);
    type_text(&mut app, "zz", 0);
    assert!(screen(&mut app).contains("no legal move starts with this"));
}

#[test]
fn draw_offer_accepted_and_declined() {
    let mut app = hot_seat(RuleSet::SEED, "300+2");
    ctrl(&mut app, 'd', 1_000);
    assert_eq!(
        status(&mut app),
        "a draw offer goes with your next move (Ctrl-D again to withdraw)"
    );
    assert!(screen(&mut app).contains("draw offer goes with your next move"));
    type_move(&mut app, "e4", 1_000);
    assert_eq!(
        status(&mut app),
        "White offers a draw: Ctrl-Y accept, Ctrl-N decline, or just move"
    );
    assert!(screen(&mut app).contains("draw offered by White"));
    ctrl(&mut app, 'n', 2_000);
    assert_eq!(status(&mut app), "Black declines the draw");
    type_move(&mut app, "e5", 3_000);
    // §7: after a declined offer, White may offer again only once Black has offered; the key
    // says so at once and arms nothing (issue 51).
    ctrl(&mut app, 'd', 4_000);
    assert!(status(&mut app).starts_with("draw offer not allowed: your last offer was declined"));
    type_move(&mut app, "Nf3", 4_000);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    ctrl(&mut app, 'd', 5_000);
    ctrl(&mut app, 'd', 5_000);
    assert_eq!(status(&mut app), "draw offer withdrawn");
    ctrl(&mut app, 'd', 5_000);
    type_move(&mut app, "Nc6", 5_000);
    assert_eq!(
        status(&mut app),
        "Black offers a draw: Ctrl-Y accept, Ctrl-N decline, or just move"
    );
    ctrl(&mut app, 'y', 6_000);
    assert_eq!(outcome(&app), Some((GameResult::Draw, Termination::Agreement)));
    assert!(screen(&mut app).contains("1/2-1/2  Draw by agreement"));
}

/// Issue 51: after a declined offer (§7), Ctrl-D armed an offer that the arbiter then refused
/// with every move, until Ctrl-D was pressed again. The key is refused up front with the
/// reason, and the next move is played.
#[test]
fn a_barred_draw_offer_is_refused_at_the_key_and_the_next_move_plays() {
    let mut app = hot_seat(RuleSet::FIDE, "1800");
    ctrl(&mut app, 'd', 1_000);
    type_move(&mut app, "e4", 1_000);
    ctrl(&mut app, 'n', 2_000);
    type_move(&mut app, "e5", 3_000);
    ctrl(&mut app, 'd', 4_000);
    assert_eq!(
        status(&mut app),
        "draw offer not allowed: your last offer was declined; you may offer again after your \
         opponent has offered"
    );
    assert!(!app.offer_armed);
    assert!(!screen(&mut app).contains("draw offer goes with your next move"));
    type_move(&mut app, "Nf3", 5_000);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    type_move(&mut app, "Nc6", 6_000);
    type_move(&mut app, "Bb5", 7_000);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
}

/// Issue 51: whatever armed it, an offer the arbiter refuses is disarmed with the refusal, so
/// the move typed next is played without it.
#[test]
fn an_offer_refused_with_a_move_is_disarmed() {
    let mut app = hot_seat(RuleSet::SEED, "300+2");
    ctrl(&mut app, 'd', 1_000);
    type_move(&mut app, "e4", 1_000);
    ctrl(&mut app, 'n', 2_000);
    type_move(&mut app, "e5", 3_000);
    // Armed behind the key's back, as a state the key's own check did not foresee would.
    app.offer_armed = true;
    type_move(&mut app, "Nf3", 4_000);
    assert_eq!(sans(&app), ["e4", "e5"], "the move sent with a refused offer is not played");
    assert!(status(&mut app).starts_with("draw offer not allowed: your last offer was declined"));
    assert!(!app.offer_armed);
    assert!(!screen(&mut app).contains("draw offer goes with your next move"));
    key(&mut app, KeyCode::Up, 4_000);
    key(&mut app, KeyCode::Enter, 4_000);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"], "↑ and Enter play it without the offer");
}

#[test]
fn draw_offer_to_the_engine_is_answered() {
    let mut app = against_engine(RuleSet::SEED, Color::White);
    ctrl(&mut app, 'd', 0);
    type_move(&mut app, "e4", 0);
    app.await_engine(100);
    // Level 1 is not worse after 1. e4: it declines by moving (§7).
    assert_eq!(app.game.plies().len(), 2);
    assert_eq!(app.game.pending_offer(), None);
    assert!(app.game.outcome().is_none());
}

#[test]
fn flag_falls_on_a_fake_clock() {
    let mut app = hot_seat(RuleSet::SEED, "60+0");
    app.tick(30_000);
    let shown = screen(&mut app);
    assert!(shown.contains("▶ White ") && shown.contains("0:30"), "{shown}");
    assert!(shown.contains("1:00"), "Black's clock stands: {shown}");
    app.tick(55_500);
    assert!(screen(&mut app).contains("0:04.5"), "tenths under ten seconds");
    app.tick(60_000);
    assert!(app.game.outcome().is_none(), "a move at the deadline is in time (§5)");
    app.tick(60_001);
    assert_eq!(outcome(&app), Some((GameResult::Win(Color::Black), Termination::Timeout)));
    let shown = screen(&mut app);
    assert!(shown.contains("0-1  Black wins on time"), "{shown}");
    assert!(shown.contains("0:00.0"), "{shown}");
}

#[test]
fn save_pgn_and_continue_from_it() {
    let path = temp_file("save.pgn");
    let mut config = Config::hot_seat(spec(RuleSet::SEED, "300+2"));
    config.save = path.clone();
    let mut app = App::new(config, 0).expect("the game starts");
    type_move(&mut app, "e4", 1_000);
    type_move(&mut app, "e5", 2_000);
    type_move(&mut app, "Nf3", 3_000);
    ctrl(&mut app, 's', 4_000);
    assert_eq!(status(&mut app), format!("saved to {}", path.display()));
    let pgn = std::fs::read_to_string(&path).expect("the file was written");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"300+2\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 { [%clk 0:05:01] } 1... e5 { [%clk 0:05:01] } 2. Nf3"), "{pgn}");

    // Read it back as `--pgn` does: the game goes on from Black's second move.
    let mut config = Config::hot_seat(spec(RuleSet::SEED, "300+2"));
    let args = parse_args(&["--pgn", path.to_str().expect("a UTF-8 temp path"), "--ascii"]);
    let loaded = super::setup::config(args, &super::setup::WallClock { unix_secs: 0, nanos: 0 })
        .expect("the saved game loads");
    config.moves = loaded.moves;
    config.pgn = loaded.pgn;
    let mut app = App::new(config, 0).expect("the game continues");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    type_move(&mut app, "Nc6", 1_000);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn save_flag_writes_the_finished_game() {
    let path = temp_file("auto.pgn");
    let mut config = Config::hot_seat(spec(RuleSet::SEED, "-"));
    config.save = path.clone();
    config.auto_save = true;
    let mut app = App::new(config, 0).expect("the game starts");
    for m in ["f3", "e5", "g4", "Qh4#"] {
        type_move(&mut app, m, 0);
    }
    let pgn = std::fs::read_to_string(&path).expect("written when the game ended");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[RookeryTermination \"checkmate\"]"), "{pgn}");
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# { termination: checkmate } 0-1"), "{pgn}");
    assert!(screen(&mut app).contains(&format!("saved to {}", path.display())));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_pgn_move_names_file_line_and_column() {
    let path = temp_file("bad.pgn");
    std::fs::write(&path, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").expect("a temp file");
    let args = parse_args(&["--pgn", path.to_str().expect("a UTF-8 temp path")]);
    let wall = super::setup::WallClock { unix_secs: 0, nanos: 0 };
    let error = super::setup::config(args, &wall).expect_err("an illegal move is refused");
    assert!(error
        .0
        .starts_with(&format!("{}: line 3, column 13: cannot play Ke3", path.display())));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn the_engine_replies_and_takes_back_in_casual_games() {
    let mut app = against_engine(RuleSet::CASUAL, Color::White);
    type_move(&mut app, "e4", 0);
    // Drawing does not tick: the search started by the move is still on.
    assert!(app.is_thinking());
    assert!(screen(&mut app).contains("Rookery is thinking…"));
    app.await_engine(500);
    assert_eq!(app.game.plies().len(), 2);
    let reply = app.game.plies()[1].san;
    assert_eq!(status(&mut app), format!("Rookery plays {reply}"));
    assert!(screen(&mut app).contains(&format!("  1. e4      {reply}")));
    ctrl(&mut app, 'z', 1_000);
    assert!(app.game.plies().is_empty(), "both moves are taken back");
    assert_eq!(status(&mut app), "move taken back");
    assert!(!app.is_thinking());
}

#[test]
fn the_engine_opens_when_it_has_white() {
    let mut app = against_engine(RuleSet::SEED, Color::Black);
    assert!(app.flipped, "the person's pieces are at the bottom");
    app.await_engine(100);
    assert_eq!(app.game.plies().len(), 1);
    assert_eq!(app.game.plies()[0].color, Color::White);
    ctrl(&mut app, 'z', 200);
    assert_eq!(status(&mut app), "takebacks are only for casual games against the engine");
}

#[test]
fn takeback_is_refused_in_hot_seat() {
    let mut app = hot_seat(RuleSet::CASUAL, "-");
    type_move(&mut app, "e4", 0);
    ctrl(&mut app, 'z', 0);
    assert_eq!(status(&mut app), "takebacks are only for casual games against the engine");
    assert_eq!(sans(&app), ["e4"]);
}

#[test]
fn resigning_asks_twice() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    ctrl(&mut app, 'r', 0);
    assert_eq!(status(&mut app), "press Ctrl-R again to resign for White; any other key cancels");
    key(&mut app, KeyCode::Left, 0);
    ctrl(&mut app, 'r', 0);
    assert!(app.game.outcome().is_none(), "another key cancelled the first press");
    ctrl(&mut app, 'r', 0);
    assert_eq!(outcome(&app), Some((GameResult::Win(Color::Black), Termination::Resignation)));
}

#[test]
fn flip_turns_the_board_and_the_light_square_stays_right() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    let buffer = draw(&mut app);
    let board = board_geometry(app.screen, app.look, false).expect("room for a board");
    let bottom_left = board.square_rect(Square::A1);
    let bottom_right = board.square_rect(Square::H1);
    assert_eq!(glyph(&mut app, Square::A1), "♖");
    // RULES.md §1: the right-hand corner square nearest each player is light.
    let light = buffer[(bottom_right.x, bottom_right.y)].bg;
    let dark = buffer[(bottom_left.x, bottom_left.y)].bg;
    assert_ne!(light, dark);
    ctrl(&mut app, 'f', 0);
    assert!(app.flipped);
    let buffer = draw(&mut app);
    // The same screen cells now hold h8 (bottom left) and a8 (bottom right).
    assert_eq!(
        buffer[(bottom_left.x + bottom_left.width / 2, bottom_left.y + bottom_left.height / 2)]
            .symbol(),
        "♜"
    );
    assert_eq!(buffer[(bottom_right.x, bottom_right.y)].bg, light, "a8 is light, at Black's right");
    let flipped = board_geometry(app.screen, app.look, true).expect("room for a board");
    assert_eq!(flipped.square_at(bottom_left.x, bottom_left.y), Some(Square::H8));
    // The cursor keys follow the screen: Up from e2 goes toward White now.
    key(&mut app, KeyCode::Up, 0);
    assert_eq!(app.cursor, Square::E1);
}

#[test]
fn promotion_by_select_and_move_asks_for_the_piece() {
    let mut spec = spec(RuleSet::SEED, "-");
    spec.fen = Some("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1".into());
    let mut app = App::new(Config::hot_seat(spec), 0).expect("the game starts");
    click(&mut app, Square::E7, 0);
    click(&mut app, Square::E8, 0);
    assert!(screen(&mut app).contains("promote to: q queen · r rook · b bishop · n knight"));
    key(&mut app, KeyCode::Char('n'), 0);
    assert_eq!(sans(&app), ["e8=N+"]);
    assert_eq!(glyph(&mut app, Square::E8), "♘");
}

#[test]
fn ascii_board_and_small_and_large_screens() {
    let mut config = Config::hot_seat(spec(RuleSet::SEED, "-"));
    config.look = Look::Ascii;
    let mut app = App::new(config, 0).expect("the game starts");
    type_move(&mut app, "e4", 0);
    let shown = screen(&mut app);
    assert!(shown.contains("8  r  n  b  q  k  b  n  r"), "{shown}");
    assert!(shown.contains("4     .     . (P) .     ."), "light a4, dark b4: {shown}");
    assert!(shown.contains("1  R  N  B  Q  K  B  N  R"), "{shown}");
    assert!(shown.contains("    a  b  c  d  e  f  g  h"), "{shown}");
    // Resizes: every size draws, the board shrinks to fit, and a tiny screen says so.
    let mut app = hot_seat(RuleSet::SEED, "-");
    for (width, height) in [(27, 14), (60, 20), (120, 40), (200, 60)] {
        let buffer = draw_at(&mut app, width, height);
        let board = board_geometry(app.screen, app.look, false).expect("room for a board");
        let rect = board.square_rect(Square::H8);
        assert!(rect.right() <= width && rect.bottom() <= height, "{width}×{height}");
        assert_eq!(buffer[(rect.x + rect.width / 2, rect.y + rect.height / 2)].symbol(), "♜");
    }
    let tiny = text(&draw_at(&mut app, 26, 14));
    assert!(tiny.starts_with("enlarge the"), "{tiny}");
}

#[test]
fn help_overlay_lists_the_keys() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    key(&mut app, KeyCode::F(1), 0);
    let shown = screen(&mut app);
    for (keys, what) in input::KEYS {
        assert!(shown.contains(keys) && shown.contains(what), "{keys}: {shown}");
    }
    key(&mut app, KeyCode::Char('x'), 0);
    assert!(!screen(&mut app).contains(" Keys "));
    assert!(app.input.is_empty(), "the key that closes the help is not typed");
    type_text(&mut app, "?", 0);
    assert!(screen(&mut app).contains(" Keys "));
    ctrl(&mut app, 'c', 0);
    assert!(app.should_quit(), "Ctrl-C quits even with the help open");
}

/// Prints the screen shown in the README (`cargo test -p rookery --bin rookery
/// readme_capture -- --ignored --nocapture`).
#[test]
#[ignore]
fn readme_capture() {
    let mut app = hot_seat(RuleSet::SEED, "300+2");
    for (i, m) in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"].into_iter().enumerate() {
        type_move(&mut app, m, 4_000 * (i as u64 + 1));
    }
    type_text(&mut app, "O", 40_000);
    app.tick(41_000);
    print!("{}", text(&draw_at(&mut app, 84, 30)));
}

/// Issue 41: `q` in the "Game over" box quits, as the box says.
#[test]
fn q_in_the_game_over_box_quits() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    for m in ["f3", "e5", "g4", "Qh4#"] {
        type_move(&mut app, m, 0);
    }
    let shown = screen(&mut app);
    assert!(shown.contains(" Game over ") && shown.contains("after 2 moves"), "{shown}");
    type_text(&mut app, "q", 0);
    assert!(app.should_quit());
}

/// Issue 41: "after 1 move", not "after 1 moves".
#[test]
fn the_game_over_box_counts_one_move_in_the_singular() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    ctrl(&mut app, 'r', 0);
    ctrl(&mut app, 'r', 0);
    assert!(screen(&mut app).contains("after 0 moves"));
    let mut app = hot_seat(RuleSet::SEED, "-");
    type_move(&mut app, "e4", 0);
    ctrl(&mut app, 'r', 0);
    ctrl(&mut app, 'r', 0);
    let shown = screen(&mut app);
    assert!(shown.contains("after 1 move\u{20}") || shown.contains("after 1 move\n"), "{shown}");
}

/// Issue 41: whatever size the game accepts, both clocks are on the screen; in the side
/// panel they are the last thing to shrink.
#[test]
fn the_clocks_stay_at_every_accepted_width() {
    let mut app = hot_seat(RuleSet::SEED, "300+2");
    type_move(&mut app, "e4", 1_000);
    type_move(&mut app, "e5", 2_000);
    app.tick(12_000);
    for look in [Look::TrueColor, Look::Ascii] {
        app.look = look;
        for width in MIN_SIZE.0..=100 {
            for height in [MIN_SIZE.1, 20, 34] {
                let shown = text(&draw_at(&mut app, width, height));
                // White has thought 10 s since Black's move; Black's clock stands.
                assert!(
                    shown.contains("4:51") && shown.contains("5:01"),
                    "{look:?} {width}×{height}:\n{shown}"
                );
            }
        }
    }
}

/// Issue 41: Ctrl-C in a game in progress asks first, and saves with `--save`; with nothing
/// to lose it leaves at once.
#[test]
fn quitting_a_game_in_progress_asks_first_and_saves() {
    let mut app = hot_seat(RuleSet::SEED, "-");
    ctrl(&mut app, 'c', 0);
    assert!(app.should_quit(), "no move yet: nothing to lose");
    let path = temp_file("quit.pgn");
    let mut config = Config::hot_seat(spec(RuleSet::SEED, "-"));
    config.save = path.clone();
    config.auto_save = true;
    let mut app = App::new(config, 0).expect("the game starts");
    type_move(&mut app, "e4", 0);
    ctrl(&mut app, 'c', 0);
    assert!(!app.should_quit());
    assert_eq!(
        status(&mut app),
        format!("the game is not over: Ctrl-C again to leave (it is saved to {})", path.display())
    );
    type_text(&mut app, "e", 0);
    ctrl(&mut app, 'c', 0);
    assert!(!app.should_quit(), "another key in between disarms it");
    ctrl(&mut app, 'q', 0);
    assert!(app.should_quit());
    let pgn = std::fs::read_to_string(&path).expect("saved on leaving");
    assert!(pgn.contains("1. e4 *"), "{pgn}");
    let _ = std::fs::remove_file(&path);
}

/// Issue 41: `--save` is checked before the game starts.
#[test]
fn a_save_path_that_cannot_be_written_is_refused_up_front() {
    let wall = super::setup::WallClock { unix_secs: 0, nanos: 0 };
    let dir = std::env::temp_dir();
    let dir_text = dir.to_str().expect("a UTF-8 temp path");
    let error = super::setup::config(parse_args(&["--save", dir_text]), &wall)
        .expect_err("a directory is refused");
    assert_eq!(error.0, format!("--save {dir_text}: is a directory, not a file"));
    let error = super::setup::config(parse_args(&["--save", "/nonexistent/dir/g.pgn"]), &wall)
        .expect_err("a missing directory is refused");
    assert_eq!(error.0, "--save /nonexistent/dir/g.pgn: no such directory");
}

/// Issue 41, RULES.md §9: no clock runs before both sides have moved.
#[test]
fn the_clocks_wait_for_both_first_moves() {
    let wall = super::setup::WallClock { unix_secs: 0, nanos: 0 };
    let config = super::setup::config(parse_args(&["--tc", "60+0"]), &wall).expect("valid");
    let mut app = App::new(config, 0).expect("the game starts");
    app.tick(20_000);
    assert_eq!(app.game.clock().remaining(Color::White, 20_000), Some(60_000));
    type_move(&mut app, "e4", 20_000);
    app.tick(25_000);
    assert_eq!(app.game.clock().remaining(Color::Black, 25_000), Some(60_000));
    type_move(&mut app, "e5", 25_000);
    app.tick(35_000);
    assert_eq!(app.game.clock().remaining(Color::White, 35_000), Some(50_000));
}

/// Issue 41: a `--pgn` continuation keeps the players' names and writes the earlier moves
/// without invented `[%clk]` readings.
#[test]
fn a_continued_game_keeps_its_players_and_invents_no_clock() {
    let path = temp_file("names.pgn");
    std::fs::write(&path, "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap();
    let wall = super::setup::WallClock { unix_secs: 0, nanos: 0 };
    let args = parse_args(&["--pgn", path.to_str().expect("UTF-8"), "--tc", "300+2"]);
    let config = super::setup::config(args, &wall).expect("the game loads");
    let mut app = App::new(config, 0).expect("the game continues");
    type_move(&mut app, "Nc6", 4_000);
    let pgn = app.game.to_pgn();
    assert!(pgn.contains("[White \"Ann\"]") && pgn.contains("[Black \"Bob\"]"), "{pgn}");
    // Black had 5:02 after e5 (its first move earned the increment), thought 4 s, gains 2.
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 { [%clk 0:05:00] }"), "{pgn}");
    // Against the engine, the engine's side is the engine.
    let args =
        parse_args(&["--pgn", path.to_str().expect("UTF-8"), "--level", "1", "--color", "white"]);
    let config = super::setup::config(args, &wall).expect("the game loads");
    assert_eq!(
        (config.spec.white.as_str(), config.spec.black.as_str()),
        ("Ann", "Rookery level 1")
    );
    let _ = std::fs::remove_file(&path);
}
