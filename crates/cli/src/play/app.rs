//! The game as the screen sees it: the arbiter's [`Game`] plus what only a user interface has
//! (a cursor, a selected piece, the text being typed, a message, an overlay). Changed only by
//! [`App::apply`] and [`App::tick`], both at a time `now` in milliseconds passed in by the
//! caller: the terminal loop reads a monotonic clock, tests advance a fake one.

use std::path::PathBuf;

use ratatui::layout::Rect;
use rookery_arbiter::{
    DrawClaim, Event, Game, MoveInput, Obligation, Rejected, Rejection, RuleSetName,
};
use rookery_core::{CastlingSide, Color, Move, Piece, Rank, Role, SanPlus, Square};
use rookery_engine::{Limits, Score, TimeLeft};

use super::screen::Look;
use super::setup::{Config, Mode};
use super::worker::{Reply, Worker};

/// What a person asks for, whatever key or click said it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A character of move text.
    Type(char),
    /// Deletes the last character of the move text.
    Backspace,
    /// Plays the typed move (with no text: as [`Action::Pick`]).
    Submit,
    /// Completes the typed move text as far as the legal moves agree.
    Complete,
    /// Clears the text, the selection or the promotion choice; shows the result again after
    /// the game.
    Cancel,
    /// Moves the board cursor by screen direction (files right, ranks up as seen).
    Cursor {
        /// Squares to the right on the screen.
        right: i8,
        /// Squares up on the screen.
        up: i8,
    },
    /// Selects the piece under the cursor, or moves the selected piece there.
    Pick,
    /// Selects or moves to this square (a mouse click).
    PickSquare(Square),
    /// Turns the board around.
    Flip,
    /// Sends (or withdraws) a draw offer with the next move (RULES.md §7).
    OfferDraw,
    /// Accepts the opponent's draw offer, or claims a draw under claimed-draw rules.
    AcceptDraw,
    /// Declines the opponent's draw offer.
    DeclineDraw,
    /// Resigns (asked twice, to be sure).
    Resign,
    /// Takes back the last move (casual rules against the engine only).
    Takeback,
    /// Writes the game as PGN.
    Save,
    /// Shows the keys.
    Help,
    /// Leaves.
    Quit,
}

/// What covers the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Nothing.
    None,
    /// The list of keys.
    Help,
    /// The result of the game.
    GameOver,
}

/// How a message is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// News.
    Info,
    /// A refusal or a problem.
    Warning,
}

/// The state of the terminal game.
pub struct App {
    pub(super) game: Game,
    /// The Chess960 start position's number, when the game began from one by `--960`.
    pub(super) chess960: Option<u16>,
    pub(super) mode: Mode,
    pub(super) look: Look,
    pub(super) now: u64,
    pub(super) flipped: bool,
    pub(super) cursor: Square,
    pub(super) selected: Option<Square>,
    /// A pawn move waiting for its promotion piece.
    pub(super) promotion: Option<(Square, Square)>,
    pub(super) input: String,
    /// The text of the last refused move, which ↑ brings back into an empty input.
    pub(super) recall: Option<String>,
    /// A draw offer goes with the next move.
    pub(super) offer_armed: bool,
    resign_armed: bool,
    /// Quitting a game in progress was asked once; asking again leaves.
    quit_armed: bool,
    pub(super) message: Option<(String, Tone)>,
    pub(super) overlay: Overlay,
    save_path: PathBuf,
    auto_save: bool,
    /// Where the game was last written.
    pub(super) saved: Option<PathBuf>,
    over_seen: bool,
    worker: Option<Worker>,
    /// The size of the screen at the last draw, for mapping mouse clicks.
    pub(super) screen: Rect,
    quit: bool,
}

impl App {
    /// Starts the game of `config` at `now`, with the engine's thread if there is an engine.
    ///
    /// # Errors
    /// A position or PGN that cannot be played, or an engine that cannot start.
    pub fn new(config: Config, now: u64) -> anyhow::Result<App> {
        let game = config.start_game(now)?;
        let worker = match config.mode {
            Mode::HotSeat => None,
            Mode::Engine { level, .. } => Some(Worker::spawn(level, config.seed)?),
        };
        let bottom_black = match config.mode {
            Mode::Engine { human: Color::Black, .. } => !config.flipped,
            _ => config.flipped,
        };
        let mut app = App {
            game,
            chess960: config.chess960,
            mode: config.mode,
            look: config.look,
            now,
            flipped: bottom_black,
            cursor: if bottom_black { Square::E7 } else { Square::E2 },
            selected: None,
            promotion: None,
            input: String::new(),
            recall: None,
            offer_armed: false,
            resign_armed: false,
            quit_armed: false,
            message: None,
            overlay: Overlay::None,
            save_path: config.save,
            auto_save: config.auto_save,
            saved: None,
            over_seen: false,
            worker,
            screen: Rect::new(0, 0, 80, 24),
            quit: false,
        };
        app.tick(now);
        Ok(app)
    }

    /// `true` once the person has asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Lets time pass: notices a fallen flag, takes the engine's move, starts the engine when
    /// it is on move.
    pub fn tick(&mut self, now: u64) {
        self.now = self.now.max(now);
        let events = self.game.poll(self.now);
        self.note(&events);
        if let Some(reply) = self.worker.as_mut().and_then(Worker::try_reply) {
            self.engine_reply(reply);
        }
        self.ask_engine();
        self.after_change();
    }

    /// Carries out one action at `now`.
    pub fn apply(&mut self, action: Action, now: u64) {
        self.now = self.now.max(now);
        if action != Action::Resign {
            self.resign_armed = false;
        }
        if action != Action::Quit {
            self.quit_armed = false;
        }
        if self.overlay == Overlay::Help {
            // Any key closes the help; Ctrl-C still quits.
            self.overlay = Overlay::None;
            if action == Action::Quit {
                self.quit();
            }
            return;
        }
        if self.overlay == Overlay::GameOver {
            match action {
                // The box says "q quit".
                Action::Save | Action::Quit | Action::Help | Action::Flip | Action::Type('q') => {}
                Action::Cancel => {
                    self.overlay = Overlay::None;
                    return;
                }
                _ => return,
            }
        }
        match action {
            // Once the game is over no move is typed: `q` leaves.
            Action::Type('q') if self.game.is_over() => self.leave(),
            Action::Type(c) => self.type_char(c),
            Action::Backspace => {
                self.input.pop();
            }
            Action::Submit => self.submit(),
            Action::Complete => self.complete(),
            Action::Cancel => self.cancel(),
            // ↑ into an empty input brings back the move just refused, to correct it.
            Action::Cursor { right: 0, up: 1 }
                if self.input.is_empty() && self.recall.is_some() =>
            {
                self.input = self.recall.take().unwrap_or_default();
            }
            Action::Cursor { right, up } => self.move_cursor(right, up),
            Action::Pick => self.pick(self.cursor),
            Action::PickSquare(sq) => self.pick(sq),
            Action::Flip => self.flipped = !self.flipped,
            Action::OfferDraw => self.offer_draw(),
            Action::AcceptDraw => self.accept_draw(),
            Action::DeclineDraw => self.decline_draw(),
            Action::Resign => self.resign(),
            Action::Takeback => self.takeback(),
            Action::Save => self.save(),
            Action::Help => self.overlay = Overlay::Help,
            Action::Quit => self.quit(),
        }
        self.tick(self.now);
    }

    // ----- who acts -----

    /// The colour that may move now from this keyboard, or why none may.
    fn mover(&self) -> Result<Color, &'static str> {
        let turn = self.game.position().turn();
        match self.mode {
            Mode::HotSeat => Ok(turn),
            Mode::Engine { human, .. } if human == turn => Ok(human),
            Mode::Engine { .. } => Err("wait: Rookery is thinking"),
        }
    }

    /// The colour that answers offers and resigns from this keyboard: the person against the
    /// engine, the side on move in hot-seat.
    fn player(&self) -> Color {
        match self.mode {
            Mode::HotSeat => self.game.position().turn(),
            Mode::Engine { human, .. } => human,
        }
    }

    /// The engine's colour, if there is an engine.
    pub(super) fn engine_color(&self) -> Option<Color> {
        match self.mode {
            Mode::HotSeat => None,
            Mode::Engine { human, .. } => Some(!human),
        }
    }

    /// `true` while the engine searches.
    pub(super) fn is_thinking(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_thinking)
    }

    // ----- moves -----

    fn type_char(&mut self, c: char) {
        if self.promotion.is_some() {
            if let Some(role) = Role::from_char(c).filter(|_| "qrbnQRBN".contains(c)) {
                return self.promote(role);
            }
        }
        if c == '?' && self.input.is_empty() {
            self.overlay = Overlay::Help;
            return;
        }
        if !c.is_control() && self.input.chars().count() < 12 {
            self.input.push(c);
        }
    }

    fn submit(&mut self) {
        if self.promotion.is_some() {
            return self.promote(Role::Queen);
        }
        let text = self.input.trim().to_owned();
        if text.is_empty() {
            return self.pick(self.cursor);
        }
        // `0-0` is how some people type castling; SAN writes the letter O.
        let text = if text.starts_with("0-0") { text.replace('0', "O") } else { text };
        let played = match text.parse::<MoveInput>() {
            Ok(input) => self.play(input),
            Err(e) => {
                self.warn(e.to_string());
                false
            }
        };
        // A refused text is cleared, so that the next keys start afresh, and kept for ↑.
        let typed = std::mem::take(&mut self.input);
        self.recall = (!played).then_some(typed);
    }

    /// The legal moves the typed text can still become: SAN first, else UCI.
    pub(super) fn completions(&self) -> Vec<String> {
        let text = self.input.trim();
        if text.is_empty() || self.mover().is_err() || self.game.is_over() {
            return Vec::new();
        }
        let pos = self.game.position();
        let moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| match self.game.obligation() {
                None => true,
                Some(Obligation::MovePiece(sq)) => m.from() == sq,
                Some(Obligation::Capture(sq)) => m.to() == sq || m.is_en_passant(),
            })
            .collect();
        let mut sans: Vec<String> =
            moves.iter().map(|&m| SanPlus::from_move(pos, m).to_string()).collect();
        sans.retain(|san| san.starts_with(text));
        if !sans.is_empty() {
            sans.sort();
            return sans;
        }
        let mut ucis: Vec<String> = moves.iter().map(|m| m.to_uci()).collect();
        ucis.retain(|uci| uci.starts_with(text));
        ucis.sort();
        ucis
    }

    fn complete(&mut self) {
        let options = self.completions();
        let Some(first) = options.first() else {
            if !self.input.is_empty() {
                self.warn(format!("no legal move starts with \"{}\"", self.input.trim()));
            }
            return;
        };
        let common = options.iter().fold(first.as_str(), |common, option| {
            let len = common.chars().zip(option.chars()).take_while(|(a, b)| a == b).count();
            &common[..common.char_indices().nth(len).map_or(common.len(), |(i, _)| i)]
        });
        if common.len() > self.input.trim().len() {
            self.input = common.to_owned();
        }
    }

    fn move_cursor(&mut self, right: i8, up: i8) {
        let (files, ranks) = if self.flipped { (-right, -up) } else { (right, up) };
        if let Some(sq) = self.cursor.offset(i32::from(files), i32::from(ranks)) {
            self.cursor = sq;
        }
    }

    /// Select-and-move: the first pick takes up one of your pieces (a touch, §8.1), the second
    /// puts it down.
    fn pick(&mut self, sq: Square) {
        self.cursor = sq;
        if self.game.is_over() {
            return self.warn("the game is over".into());
        }
        let by = match self.mover() {
            Ok(by) => by,
            Err(why) => return self.warn(why.into()),
        };
        let pos = self.game.position();
        let board = pos.board();
        // In Chess960 the king castles by moving onto its own rook (RULES.md §13), as on the
        // site: with the king taken up, a rook it may castle with is where it goes, not the
        // next piece to take up. (Standard chess castles by the king's two-square move.)
        let castles_onto = |from: Square| {
            pos.is_chess960()
                && from == pos.king_of(by)
                && CastlingSide::ALL.iter().any(|&side| pos.castles().rook(by, side) == Some(sq))
        };
        match self.selected {
            Some(from) if from == sq => self.selected = None,
            Some(from) if castles_onto(from) => {
                self.play(MoveInput::squares(from, sq, None));
                self.selected = None;
            }
            _ if board.color_at(sq) == Some(by) => {
                self.selected = Some(sq);
                self.message = None;
                match self.game.touch(by, sq, self.now) {
                    Ok(events) => self.note(&events),
                    Err(rejected) => self.refused(&rejected, None),
                }
            }
            None if board.color_at(sq).is_none() => {
                self.warn(format!("no piece on {sq}: pick one of {}'s pieces", title(by)));
            }
            None => self.warn(format!("the piece on {sq} is not {}'s", title(by))),
            Some(from) => {
                let promotes = board.piece_at(from) == Some(Piece { color: by, role: Role::Pawn })
                    && sq.rank() == Rank::Eighth.relative_to(by);
                if promotes
                    && self
                        .game
                        .position()
                        .legal_moves()
                        .iter()
                        .any(|m| m.from() == from && m.to() == sq)
                {
                    self.promotion = Some((from, sq));
                    self.info("promote to: q queen · r rook · b bishop · n knight".into());
                    return;
                }
                self.play(MoveInput::squares(from, sq, None));
                self.selected = None;
            }
        }
    }

    fn promote(&mut self, role: Role) {
        let Some((from, to)) = self.promotion.take() else { return };
        self.selected = None;
        self.play(MoveInput::squares(from, to, Some(role)));
    }

    /// Plays the person's move; `true` if it was played.
    fn play(&mut self, input: MoveInput) -> bool {
        let by = match self.mover() {
            Ok(by) => by,
            Err(why) => {
                self.warn(why.into());
                return false;
            }
        };
        let offer = self.offer_armed;
        match self.game.play(by, &input, offer, self.now) {
            Ok(events) => {
                self.offer_armed = false;
                self.selected = None;
                self.message = None;
                self.note(&events);
                true
            }
            Err(rejected) => {
                // A refused offer is never left armed, or every next move would be refused
                // with it (issue 51).
                if matches!(rejected.reason, Rejection::OfferNotAllowed(_)) {
                    self.offer_armed = false;
                }
                self.refused(&rejected, Some(&input));
                false
            }
        }
    }

    // ----- offers, resignation, takebacks, saving -----

    fn offer_draw(&mut self) {
        if self.game.is_over() {
            return;
        }
        if self.offer_armed {
            self.offer_armed = false;
            return self.info("draw offer withdrawn".into());
        }
        // Issue 51: an offer the arbiter would refuse (§7) is refused here, with its reason,
        // rather than armed to have every following move refused with it.
        if let Err(reason) = self.game.check_offer(self.player()) {
            return self.warn(reason.to_string());
        }
        self.offer_armed = true;
        self.info("a draw offer goes with your next move (Ctrl-D again to withdraw)".into());
    }

    fn accept_draw(&mut self) {
        let by = self.player();
        if self.game.pending_offer() == Some(!by) {
            return match self.game.accept_draw(by, self.now) {
                Ok(events) => self.note(&events),
                Err(rejected) => self.refused(&rejected, None),
            };
        }
        // Under claimed-draw rules (FIDE 9.2, 9.3) the same key claims, but only a claim that
        // holds: a wrong one costs time (FIDE 9.5).
        let claim = if self.game.repetitions() >= 3 {
            Some(DrawClaim::ThreefoldRepetition)
        } else if self.game.position().halfmoves() >= 100 {
            Some(DrawClaim::FiftyMoves)
        } else {
            None
        };
        match claim {
            Some(claim) if self.mover() == Ok(by) => {
                match self.game.claim_draw(by, claim, None, self.now) {
                    Ok(events) => self.note(&events),
                    Err(rejected) => self.refused(&rejected, None),
                }
            }
            _ => self.warn("there is no draw offer to accept and no draw to claim".into()),
        }
    }

    fn decline_draw(&mut self) {
        match self.game.decline_draw(self.player(), self.now) {
            Ok(events) => self.note(&events),
            Err(rejected) => self.refused(&rejected, None),
        }
    }

    fn resign(&mut self) {
        if self.game.is_over() {
            return;
        }
        if !self.resign_armed {
            self.resign_armed = true;
            let who = title(self.player());
            return self
                .warn(format!("press Ctrl-R again to resign for {who}; any other key cancels"));
        }
        self.resign_armed = false;
        match self.game.resign(self.player(), self.now) {
            Ok(events) => self.note(&events),
            Err(rejected) => self.refused(&rejected, None),
        }
    }

    fn takeback(&mut self) {
        let Mode::Engine { human, .. } = self.mode else {
            return self.warn("takebacks are only for casual games against the engine".into());
        };
        if self.game.rules().name != RuleSetName::Casual {
            return self.warn("takebacks are only for casual games against the engine".into());
        }
        if let Some(worker) = &mut self.worker {
            worker.cancel();
        }
        let result = self
            .game
            .request_takeback(human, self.now)
            .and_then(|_| self.game.accept_takeback(!human, self.now));
        match result {
            Ok(events) => {
                self.selected = None;
                self.promotion = None;
                self.note(&events);
                self.info("move taken back".into());
            }
            Err(rejected) => self.refused(&rejected, None),
        }
    }

    fn save(&mut self) {
        let path = self.save_path.clone();
        match std::fs::write(&path, self.game.to_pgn()) {
            Ok(()) => {
                self.info(format!("saved to {}", path.display()));
                self.saved = Some(path);
            }
            Err(e) => self.warn(format!("cannot write {}: {e}", path.display())),
        }
    }

    fn cancel(&mut self) {
        self.message = None;
        if self.promotion.take().is_some() {
            self.selected = None;
        } else if !self.input.is_empty() {
            self.input.clear();
        } else if self.selected.take().is_none() && self.game.is_over() {
            self.overlay = Overlay::GameOver;
        }
    }

    /// Ctrl-C or Ctrl-Q: leaves at once when nothing would be lost, else asks first (issue
    /// 41: a game in progress was abandoned by one stray key).
    fn quit(&mut self) {
        let in_progress = !self.game.is_over() && !self.game.plies().is_empty();
        if in_progress && !self.quit_armed {
            self.quit_armed = true;
            let kept = if self.auto_save {
                format!("it is saved to {}", self.save_path.display())
            } else {
                "Ctrl-S saves it first".to_owned()
            };
            return self.warn(format!("the game is not over: Ctrl-C again to leave ({kept})"));
        }
        self.leave();
    }

    fn leave(&mut self) {
        if self.auto_save && !self.game.plies().is_empty() {
            self.save();
        }
        self.quit = true;
    }

    // ----- the engine -----

    /// Starts a search when the engine is on move and not yet searching.
    fn ask_engine(&mut self) {
        let Some(engine) = self.engine_color() else { return };
        if self.game.is_over() || self.game.position().turn() != engine || self.is_thinking() {
            return;
        }
        let start = *self.game.start_position();
        let mut pos = start;
        let mut history = Vec::with_capacity(self.game.plies().len());
        for ply in self.game.plies() {
            history.push(pos.repetition_key());
            pos.play_unchecked(ply.m);
        }
        let clock = self.game.clock();
        let limits = match clock.remaining(engine, self.now) {
            None => Limits::default(),
            Some(ms) => {
                let periods = clock.time_control().periods();
                let period = (clock.period(engine) as usize).min(periods.len().saturating_sub(1));
                let increment = periods.get(period).map_or(0, |p| p.bonus.amount_ms());
                Limits::clock(TimeLeft {
                    remaining: std::time::Duration::from_millis(ms),
                    increment: std::time::Duration::from_millis(increment),
                    moves_to_go: clock.moves_to_control(engine),
                })
            }
        };
        if let Some(worker) = &mut self.worker {
            worker.start(pos, history, limits);
        }
    }

    /// Waits for the engine's move and plays it (tests only: the terminal loop polls).
    #[cfg(test)]
    pub fn await_engine(&mut self, now: u64) {
        let reply = self
            .worker
            .as_mut()
            .and_then(|w| w.wait_reply(std::time::Duration::from_secs(60)))
            .expect("the engine answers within a minute");
        self.now = self.now.max(now);
        self.engine_reply(reply);
        self.tick(now);
    }

    /// Plays the engine's answer, or accepts the person's draw offer when the engine stands
    /// worse (at least half a pawn down, or mated).
    fn engine_reply(&mut self, reply: Reply) {
        let Some(engine) = self.engine_color() else { return };
        if self.game.is_over() || self.game.position().turn() != engine {
            return;
        }
        let worse = match reply.score {
            Some(Score::Centipawns(cp)) => cp <= -50,
            Some(Score::Mate(n)) => n < 0,
            None => false,
        };
        if self.game.pending_offer() == Some(!engine) && worse {
            if let Ok(events) = self.game.accept_draw(engine, self.now) {
                self.note(&events);
                self.info("Rookery accepts your draw offer".into());
                return;
            }
        }
        let Some(m) = reply.best else { return };
        let input = MoveInput::from(m);
        match self.game.play(engine, &input, false, self.now) {
            Ok(events) => self.note(&events),
            Err(rejected) => self.refused(&rejected, Some(&input)),
        }
    }

    // ----- messages -----

    fn info(&mut self, text: String) {
        self.message = Some((text, Tone::Info));
    }

    fn warn(&mut self, text: String) {
        self.message = Some((text, Tone::Warning));
    }

    /// Turns what the arbiter says into the message line.
    fn note(&mut self, events: &[Event]) {
        for event in events {
            match event {
                Event::MovePlayed { color, san, .. } if Some(*color) == self.engine_color() => {
                    self.info(format!("Rookery plays {san}"));
                }
                Event::DrawOffered(by) => {
                    let text = match self.mode {
                        Mode::HotSeat => format!(
                            "{} offers a draw: Ctrl-Y accept, Ctrl-N decline, or just move",
                            title(*by)
                        ),
                        Mode::Engine { .. } => "you offer a draw with your move".to_owned(),
                    };
                    self.info(text);
                }
                Event::DrawDeclined { by, .. } => {
                    let who = self.name(*by);
                    self.info(format!("{who} declines the draw"));
                }
                Event::Obliged { color, obligation } => {
                    self.info(format!("touch-move: {} {obligation}", title(*color)));
                }
                Event::TimeAdded { color, ms } => {
                    self.info(format!("{} gets {} s more on the clock", title(*color), ms / 1000));
                }
                Event::Berserk { color } => {
                    self.info(format!("{} goes berserk: half the time", title(*color)));
                }
                Event::DrawClaimable(_) => {
                    let who = title(self.game.position().turn());
                    self.info(format!("{who} may claim a draw: Ctrl-Y"));
                }
                Event::TakebackRequested(_) | Event::TakenBack { .. } | Event::Check(_) => {}
                Event::MovePlayed { .. }
                | Event::IllegalMoveCounted { .. }
                | Event::GameOver(_) => {}
            }
        }
    }

    /// Explains a refusal, with the illegal-move count when the rule set keeps one (§8.4).
    fn refused(&mut self, rejected: &Rejected, input: Option<&MoveInput>) {
        let mut text = match (&rejected.reason, input) {
            (Rejection::Illegal(why), Some(input)) => format!("illegal move {input}: {why}"),
            (reason, _) => reason.to_string(),
        };
        // What happened all the same goes on the same line: the count (§8.4), the opponent's
        // extra time (FIDE 7.5.3), the piece that must now move (§8.3).
        for event in &rejected.events {
            match event {
                Event::IllegalMoveCounted { color, count, limit: Some(limit), .. } => {
                    text.push_str(&format!(
                        " · {}'s illegal move {count} of {limit} (the {} loses)",
                        title(*color),
                        ordinal(*limit)
                    ));
                }
                Event::TimeAdded { color, ms } => {
                    text.push_str(&format!(" · {} gets {} s more", title(*color), ms / 1000));
                }
                Event::Obliged { color, obligation } => {
                    text.push_str(&format!(" · {} {obligation}", title(*color)));
                }
                _ => {}
            }
        }
        if matches!(rejected.reason, Rejection::OfferNotAllowed(_)) {
            text.push_str(" · the offer is withdrawn");
        }
        if matches!(rejected.reason, Rejection::Illegal(_))
            && self.game.rules().name == RuleSetName::Casual
        {
            text.push_str(" · not counted in casual games");
        }
        self.note(&rejected.events);
        self.warn(text);
    }

    /// The player's name as the screen says it.
    pub(super) fn name(&self, color: Color) -> String {
        match self.mode {
            Mode::Engine { human, .. } if human != color => "Rookery".to_owned(),
            Mode::Engine { .. } => "you".to_owned(),
            Mode::HotSeat => title(color).to_owned(),
        }
    }

    /// The player as the clocks name them: empty in hot-seat, where the colour says it.
    pub(super) fn label(&self, color: Color) -> String {
        match self.mode {
            Mode::HotSeat => String::new(),
            Mode::Engine { level, .. } if Some(color) == self.engine_color() => {
                format!("Rookery L{}", level.get())
            }
            Mode::Engine { .. } => "you".to_owned(),
        }
    }

    /// Once the game ends: the result screen, the engine stopped, the game written if asked.
    fn after_change(&mut self) {
        if !self.game.is_over() || self.over_seen {
            return;
        }
        self.over_seen = true;
        self.overlay = Overlay::GameOver;
        self.selected = None;
        self.promotion = None;
        self.input.clear();
        self.offer_armed = false;
        if let Some(worker) = &mut self.worker {
            worker.cancel();
        }
        if self.auto_save {
            self.save();
        }
    }
}

/// The colour's name at the start of a sentence.
pub(super) fn title(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn ordinal(n: u8) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}
