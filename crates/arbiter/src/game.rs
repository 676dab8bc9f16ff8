//! One game as an arbiter runs it (RULES.md §4–§10). Pure and deterministic: every action
//! takes `now` in milliseconds; nothing here reads a clock.
//!
//! Conventions decided here:
//! - Without a [`StartPolicy`], White's clock starts when the game is created (FIDE 6.2: the
//!   arbiter starts White's clock). With one (online play), no clock runs before both sides
//!   have made their first move: each first move presses a clock that is started and stopped
//!   in the same millisecond (so it counts toward period controls and earns its increment),
//!   and the clock runs from the second first move on. A side that misses its first-move
//!   deadline ends the game as the policy says ([`Termination::NoStart`]).
//! - Every action first checks the running clock: if the flag has fallen (strictly after the
//!   deadline), the game ends on time and the action is refused with the events saying so.
//!   A move completed at the deadline millisecond is in time (§5).
//! - The first binding touch is the obligation; later touches change nothing until a move is
//!   made (§8.1). A touch with no legal consequence binds nothing.

use rookery_core::legality::{Attempt, Illegal, NotAMove};
use rookery_core::san::{San, SanError, SanPlus};
use rookery_core::{
    ByColor, CastlingMode, Color, GameResult, Move, Position, Role, Square, UciMove,
};

use crate::clock::{Clock, ClockState};
use crate::event::{ActionResult, DrawClaim, Event, MoveInput, Obligation, Rejected, Rejection};
use crate::outcome::{Outcome, Termination};
use crate::repetition::Repetitions;
use crate::rules::{DrawPolicy, IllegalMovePolicy, RuleSet};
use crate::start::{MissedStart, StartPolicy};
use crate::time_control::TimeControl;

/// The unchecked description of a game to start: the raw twin of [`Game`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSpec {
    /// The starting position as FEN; `None` for the standard start. A Chess960 game gives
    /// its start here (X-FEN, Shredder-FEN or `KQkq`), so that its record carries it.
    pub fen: Option<String>,
    /// How castling is played and written: standard chess, or Chess960 (RULES.md §13), in
    /// which `fen` is read and the moves, castling included, are judged and recorded.
    pub castling_mode: CastlingMode,
    /// The rule set (default `seed`).
    pub rules: RuleSet,
    /// The time control (default: unknown, never flags).
    pub time_control: Option<TimeControl>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Extra PGN tags (Event, Site, Date, Round, …), written after the roster.
    pub tags: Vec<(String, String)>,
    /// How the game starts: `None`, the clock runs from the creation (FIDE 6.2); `Some`, the
    /// clocks wait for both sides' first moves, each due by a deadline.
    pub start: Option<StartPolicy>,
}

/// Why a [`GameSpec`] cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpecError {
    /// The FEN is unreadable or illegal.
    Fen(rookery_core::FenError),
    /// The starting position is already over (checkmate or stalemate).
    AlreadyOver(String),
}

impl std::fmt::Display for GameSpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameSpecError::Fen(e) => write!(f, "{e}"),
            GameSpecError::AlreadyOver(fen) => {
                write!(f, "the starting position has no legal move: {fen:?}")
            }
        }
    }
}

impl std::error::Error for GameSpecError {}

/// One ply of the game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// The move.
    pub m: Move,
    /// Its SAN, with `+` or `#`.
    pub san: SanPlus,
    /// Who made it.
    pub color: Color,
    /// When it was made (the clock press), in ms.
    pub at_ms: u64,
    /// Time spent on it, in ms.
    pub spent_ms: u64,
    /// The mover's time after it, bonus included, if timed.
    pub clock_ms: Option<u64>,
    /// A draw was offered with it (§7).
    pub offered_draw: bool,
    /// Illegal attempts counted against the mover before it.
    pub illegal_attempts: Vec<Illegal>,
    /// It gave check.
    pub gave_check: bool,
    /// The clock as it was before the move (for takebacks).
    pub clock_before: ClockState,
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    spec: GameSpec,
    start: Position,
    position: Position,
    clock: Clock,
    started_at: u64,
    plies: Vec<PlyRecord>,
    /// Every position so far, the start included, for repetitions (§6.3, §6.5).
    history: Repetitions,
    strikes: ByColor<u8>,
    /// Illegal attempts since the last move, to be recorded with it.
    pending_attempts: Vec<Illegal>,
    /// The side whose draw offer stands (§7).
    offer: Option<Color>,
    /// A side whose offer was declined may not offer again until the opponent offers (§7).
    offer_barred: ByColor<bool>,
    obligation: Option<Obligation>,
    takeback_request: Option<Color>,
    outcome: Option<Outcome>,
    /// Under a start policy, while a first move is awaited: since when (ms).
    awaiting_since: u64,
    /// The side whose first-move deadline passed, if one did.
    missed_start: Option<Color>,
}

impl Game {
    /// Starts a game at `now`: the clock of the side to move starts running, unless the spec
    /// has a [`StartPolicy`] (then the first-move deadline runs instead).
    ///
    /// # Errors
    /// [`GameSpecError`] for a bad or finished starting position.
    pub fn new(spec: GameSpec, now: u64) -> Result<Game, GameSpecError> {
        let start = match &spec.fen {
            None => Position::new()
                .with_castling_mode(spec.castling_mode)
                .map_err(|e| GameSpecError::Fen(e.into()))?,
            Some(fen) => {
                Position::from_fen_in(fen, spec.castling_mode).map_err(GameSpecError::Fen)?
            }
        };
        if !start.has_legal_moves() {
            return Err(GameSpecError::AlreadyOver(start.to_fen()));
        }
        let tc = spec.time_control.clone().unwrap_or_else(TimeControl::unknown);
        let mut clock = Clock::new(tc);
        if spec.start.is_none() {
            // A fresh clock always starts.
            let _ = clock.start(start.turn(), now);
        }
        Ok(Game {
            start,
            position: start,
            clock,
            started_at: now,
            plies: Vec::new(),
            history: Repetitions::new(&start),
            strikes: ByColor::default(),
            pending_attempts: Vec::new(),
            offer: None,
            offer_barred: ByColor::default(),
            obligation: None,
            takeback_request: None,
            outcome: None,
            awaiting_since: now,
            missed_start: None,
            spec,
        })
    }

    /// The spec the game was created from.
    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.spec.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The starting position.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// When the game was created, in ms.
    pub fn started_at(&self) -> u64 {
        self.started_at
    }

    /// The moves so far.
    pub fn plies(&self) -> &[PlyRecord] {
        &self.plies
    }

    /// Drops the clock readings of the moves so far, for moves replayed from a record that
    /// had none to give (a game continued from PGN): the record then writes them without
    /// `[%clk]` rather than with the readings of an instant replay. The clocks themselves
    /// are unchanged.
    pub fn forget_clock_readings(&mut self) {
        for ply in &mut self.plies {
            ply.clock_ms = None;
        }
    }

    /// The side asking to take back its last move, if any (rule sets with takebacks).
    pub fn takeback_request(&self) -> Option<Color> {
        self.takeback_request
    }

    /// The side whose draw offer stands, if any (§7).
    pub fn pending_offer(&self) -> Option<Color> {
        self.offer
    }

    /// Whether `color` may not offer a draw now (§7): its last offer was declined and the
    /// opponent has not offered since. A move sent with an offer is then refused whole.
    pub fn offer_barred(&self, color: Color) -> bool {
        self.offer_barred[color]
    }

    /// Whether `by` may send a draw offer with its next move now (§7), and if not, why: its
    /// last offer was declined and the opponent has not offered since, or its offer still
    /// stands. [`Game::play`] refuses a move sent with a refused offer for this same reason, so
    /// a user interface can refuse the offer before the move is made.
    ///
    /// # Errors
    /// [`Rejection::OfferNotAllowed`] with the reason.
    pub fn check_offer(&self, by: Color) -> Result<(), Rejection> {
        if self.offer_barred[by] {
            return Err(Rejection::OfferNotAllowed(
                "your last offer was declined; you may offer again after your opponent has offered",
            ));
        }
        if self.offer == Some(by) {
            return Err(Rejection::OfferNotAllowed("your offer is still standing"));
        }
        Ok(())
    }

    /// Illegal moves counted against `color` (§8.4).
    pub fn strikes(&self, color: Color) -> u8 {
        self.strikes[color]
    }

    /// Illegal attempts counted since the last move (§8.4), not yet recorded with a move.
    pub fn unplayed_attempts(&self) -> &[Illegal] {
        &self.pending_attempts
    }

    /// What the side to move is bound to by touch-move, if anything (§8.1, §8.3).
    pub fn obligation(&self) -> Option<Obligation> {
        self.obligation
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// `true` once the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How often the current position has occurred (same placement, side to move, castling
    /// rights and legal en passant: §6.5), counted since the last capture or pawn move.
    pub fn repetitions(&self) -> usize {
        self.history.count(&self.position)
    }

    /// Detects a fallen flag or a missed first-move deadline without any action (§5, §9).
    pub fn poll(&mut self, now: u64) -> Vec<Event> {
        let mut events = Vec::new();
        self.check_flag(now, &mut events);
        events
    }

    /// Whether [`Game::poll`] at `now` would end the game: a flag has fallen or a first-move
    /// deadline has passed. Reads the clock; changes nothing.
    pub fn is_expired(&self, now: u64) -> bool {
        self.outcome.is_none()
            && (self.clock.flagged(now).is_some()
                || self.first_move_deadline().is_some_and(|(_, deadline)| now > deadline))
    }

    /// The start policy, if the clocks wait for the first moves.
    pub fn start_policy(&self) -> Option<StartPolicy> {
        self.spec.start
    }

    /// While a first move is awaited under a [`StartPolicy`]: the side that owes it and the
    /// last millisecond in which it may still make it.
    pub fn first_move_deadline(&self) -> Option<(Color, u64)> {
        let policy = self.spec.start?;
        if self.outcome.is_some() || !self.awaiting_first_moves() {
            return None;
        }
        Some((self.position.turn(), self.awaiting_since.saturating_add(policy.first_move_ms)))
    }

    /// The side whose first-move deadline passed, once it has (the game ended
    /// [`Termination::NoStart`]).
    pub fn missed_start(&self) -> Option<Color> {
        self.missed_start
    }

    /// The outcome in words for people ([`Outcome::describe`]), naming the side that made no
    /// first move when the game was aborted for it.
    pub fn describe_outcome(&self) -> Option<String> {
        Some(self.outcome?.describe_missed(self.missed_start))
    }

    /// `true` before both sides have made their first move.
    pub fn awaiting_first_moves(&self) -> bool {
        self.plies.len() < 2
    }

    /// Plays a move for `by` at `now`, with a draw offer if `offer_draw` (§7: an offer is made
    /// with one's own move).
    ///
    /// # Errors
    /// [`Rejected`] with the reason; an illegal move also carries its strike events (§8.4).
    pub fn play(
        &mut self,
        by: Color,
        input: &MoveInput,
        offer_draw: bool,
        now: u64,
    ) -> ActionResult {
        self.play_after_lag(by, input, offer_draw, now, 0)
    }

    /// [`Game::play`] for a move that reached the arbiter at `now`, `lag` ms after the player
    /// made it (a server's lag allowance): the mover's clock stops at `now - lag`, the flag is
    /// judged there, and the opponent's clock starts at `now` ([`Clock::press_after_lag`]),
    /// so the opponent is never charged the mover's lag.
    ///
    /// # Errors
    /// As for [`Game::play`].
    pub fn play_after_lag(
        &mut self,
        by: Color,
        input: &MoveInput,
        offer_draw: bool,
        now: u64,
        lag: u64,
    ) -> ActionResult {
        self.begin_action(now.saturating_sub(lag))?;
        if by != self.position.turn() {
            return Err(Rejection::NotYourTurn.into());
        }
        let m = match self.judge(input)? {
            Attempt::Legal(m) => m,
            Attempt::NotAMove(why) => return Err(Rejection::NotAMove(why).into()),
            Attempt::Illegal(why) => {
                let from = attempted_from(&self.position, input);
                return Err(self.count_illegal(by, why, from, now));
            }
        };
        if let Some(obligation) = self.obligation {
            let kept = match obligation {
                Obligation::MovePiece(sq) => m.from() == sq,
                Obligation::Capture(sq) => captures_on(&m, sq),
            };
            if !kept {
                return Err(Rejection::TouchMove(obligation).into());
            }
        }
        if offer_draw {
            self.check_offer(by)?;
        }
        let mut events = Vec::new();
        self.make_move(by, m, offer_draw, now, lag, &mut events);
        Ok(events)
    }

    /// Touches the piece on `sq` (§8.1): binds the player when touch-move is on and the touch
    /// has a legal consequence.
    ///
    /// # Errors
    /// [`Rejected`] when the game is over or it is not `by`'s turn.
    pub fn touch(&mut self, by: Color, sq: Square, now: u64) -> ActionResult {
        self.begin_action(now)?;
        if by != self.position.turn() {
            return Err(Rejection::NotYourTurn.into());
        }
        if !self.spec.rules.touch_move || self.obligation.is_some() {
            return Ok(Vec::new());
        }
        let pos = &self.position;
        let obligation = match pos.board().color_at(sq) {
            Some(c) if c == by && pos.legal_moves().iter().any(|m| m.from() == sq) => {
                Some(Obligation::MovePiece(sq))
            }
            Some(c) if c != by && pos.legal_moves().iter().any(|m| captures_on(m, sq)) => {
                Some(Obligation::Capture(sq))
            }
            _ => None,
        };
        Ok(match obligation {
            Some(obligation) => {
                self.obligation = Some(obligation);
                vec![Event::Obliged { color: by, obligation }]
            }
            None => Vec::new(),
        })
    }

    /// Accepts the opponent's standing draw offer (§6.1, §7).
    ///
    /// # Errors
    /// [`Rejection::NoOfferPending`] when the opponent has no offer standing.
    pub fn accept_draw(&mut self, by: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        if self.offer != Some(!by) {
            return Err(Rejection::NoOfferPending.into());
        }
        let mut events = Vec::new();
        self.finish(GameResult::Draw, Termination::Agreement, now, &mut events);
        Ok(events)
    }

    /// Declines the opponent's standing draw offer in words (§7).
    ///
    /// # Errors
    /// [`Rejection::NoOfferPending`] when the opponent has no offer standing.
    pub fn decline_draw(&mut self, by: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        if self.offer != Some(!by) {
            return Err(Rejection::NoOfferPending.into());
        }
        self.offer = None;
        self.offer_barred[!by] = true;
        Ok(vec![Event::DrawDeclined { by, by_moving: false }])
    }

    /// Claims a draw (claimed-draw rules only, FIDE 9.2, 9.3), by the player on move, for the
    /// current position or for the position after `intended` (which is then written but not
    /// played if the claim is correct, FIDE 9.2.1.1). An incorrect claim gives the opponent
    /// the FIDE 9.5 time, and the intended move, if any, is played (FIDE 9.5.1).
    ///
    /// # Errors
    /// [`Rejected`] when claims are not used, it is not `by`'s turn, or the claim is wrong.
    pub fn claim_draw(
        &mut self,
        by: Color,
        claim: DrawClaim,
        intended: Option<&MoveInput>,
        now: u64,
    ) -> ActionResult {
        self.begin_action(now)?;
        if self.spec.rules.draws != DrawPolicy::Claimed {
            return Err(Rejection::ClaimsNotUsed.into());
        }
        if by != self.position.turn() {
            return Err(Rejection::NotYourTurn.into());
        }
        let intended_move = match intended {
            None => None,
            Some(input) => match self.judge(input)? {
                Attempt::Legal(m) => Some(m),
                Attempt::NotAMove(why) => return Err(Rejection::NotAMove(why).into()),
                Attempt::Illegal(why) => return Err(Rejection::Illegal(why).into()),
            },
        };
        let holds = match intended_move {
            None => self.claim_holds(claim, &self.position, false),
            Some(m) => {
                let mut after = self.position;
                after.play_unchecked(m);
                self.claim_holds(claim, &after, true)
            }
        };
        let mut events = Vec::new();
        if holds {
            let termination = match claim {
                DrawClaim::ThreefoldRepetition => Termination::ThreefoldRepetition,
                DrawClaim::FiftyMoves => Termination::FiftyMoves,
            };
            self.finish(GameResult::Draw, termination, now, &mut events);
            return Ok(events);
        }
        if let Some(penalty) = self.spec.rules.penalty_ms(self.clock.time_control()) {
            self.add_time(!by, penalty, &mut events);
        }
        if let Some(m) = intended_move {
            self.make_move(by, m, false, now, 0, &mut events);
        }
        Err(Rejected { reason: Rejection::ClaimIncorrect(claim), events })
    }

    /// Resigns (§5). Under `fide`, resigning when the opponent could never mate draws
    /// (FIDE 5.1.2).
    ///
    /// # Errors
    /// [`Rejection::GameOver`] when the game is over.
    pub fn resign(&mut self, by: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        let mut events = Vec::new();
        if self.spec.rules.resignation_needs_mating_material
            && !crate::dead::can_ever_mate(&self.position, !by)
        {
            self.finish(
                GameResult::Draw,
                Termination::ResignationVsInsufficientMaterial,
                now,
                &mut events,
            );
        } else {
            self.finish(GameResult::Win(!by), Termination::Resignation, now, &mut events);
        }
        Ok(events)
    }

    /// Aborts the game: only before each side has moved. No result, no rating change.
    ///
    /// # Errors
    /// [`Rejection::TooLateToAbort`] once both sides have moved.
    pub fn abort(&mut self, _by: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        if self.plies.len() >= 2 {
            return Err(Rejection::TooLateToAbort.into());
        }
        let mut events = Vec::new();
        self.finish(GameResult::NoResult, Termination::Aborted, now, &mut events);
        Ok(events)
    }

    /// Asks to take back `by`'s last move (rule sets with takebacks only; §8.1: never in
    /// rated play).
    ///
    /// # Errors
    /// [`Rejected`] when takebacks are not allowed or `by` has not moved.
    pub fn request_takeback(&mut self, by: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        if !self.spec.rules.takebacks {
            return Err(Rejection::TakebacksNotAllowed.into());
        }
        if !self.plies.iter().any(|p| p.color == by) {
            return Err(Rejection::NoTakeback.into());
        }
        if self.takeback_request == Some(by) {
            return Err(Rejection::TakebackPending.into());
        }
        self.takeback_request = Some(by);
        Ok(vec![Event::TakebackRequested(by)])
    }

    /// Grants the opponent's takeback request: the moves back to before the requester's last
    /// move are undone, and the requester's clock runs again from `now`.
    ///
    /// # Errors
    /// [`Rejection::NoTakeback`] when the opponent has not asked.
    pub fn accept_takeback(&mut self, by: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        let Some(requester) = self.takeback_request.filter(|&r| r == !by) else {
            return Err(Rejection::NoTakeback.into());
        };
        self.takeback_request = None;
        while let Some(last) = self.plies.pop() {
            self.history.pop();
            if last.color == requester {
                let mut state = last.clock_before;
                if self.spec.start.is_some() && self.awaiting_first_moves() {
                    // Back before the clocks started: they stand as they were, and the
                    // first-move deadline starts afresh.
                    self.awaiting_since = now;
                } else {
                    state.running_since = Some(now);
                    state.move_elapsed = 0;
                }
                if let Ok(mut clock) = Clock::from_state(self.clock.time_control().clone(), state) {
                    for color in Color::ALL {
                        if self.clock.has_no_bonus(color) {
                            clock.keep_no_bonus(color);
                        }
                    }
                    self.clock = clock;
                }
                break;
            }
        }
        let mut pos = self.start;
        for ply in &self.plies {
            pos.play_unchecked(ply.m);
        }
        self.position = pos;
        self.offer = None;
        self.obligation = None;
        Ok(vec![Event::TakenBack { plies: self.plies.len() as u32 }])
    }

    /// Ends the game at `now` for a reason only the caller knows (a player abandoned the game
    /// and the opponent claimed, as lichess does).
    pub fn adjudicate(
        &mut self,
        result: GameResult,
        termination: Termination,
        now: u64,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        if self.outcome.is_none() {
            self.finish(result, termination, now, &mut events);
        }
        events
    }

    /// The competition's arbiter adds `ms` to `color`'s clock (RULES.md §12), at `now`.
    ///
    /// # Errors
    /// [`Rejection::GameOver`] when the game is over (or a flag has fallen).
    pub fn arbiter_add_time(&mut self, color: Color, ms: u64, now: u64) -> ActionResult {
        self.begin_action(now)?;
        let mut events = Vec::new();
        self.add_time(color, ms, &mut events);
        Ok(events)
    }

    /// `color` goes berserk (an arena): half the remaining time and no increment, only before
    /// its first move.
    ///
    /// # Errors
    /// [`Rejection::GameOver`] when the game is over; [`Rejection::TooLateToAbort`] once
    /// `color` has moved (berserk is for the start of a game).
    pub fn berserk(&mut self, color: Color, now: u64) -> ActionResult {
        self.begin_action(now)?;
        if self.clock.moves(color) > 0 {
            return Err(Rejection::TooLateToAbort.into());
        }
        self.clock.berserk(color);
        Ok(vec![Event::Berserk { color }])
    }

    // ----- internals -----

    /// Common start of every action: the game must go on and the flag must not have fallen.
    fn begin_action(&mut self, now: u64) -> Result<(), Rejected> {
        if self.outcome.is_some() {
            return Err(Rejection::GameOver.into());
        }
        let mut events = Vec::new();
        if self.check_flag(now, &mut events) {
            return Err(Rejected { reason: Rejection::GameOver, events });
        }
        Ok(())
    }

    /// Ends the game on time if the running side's flag has fallen (§5, §9), or as the start
    /// policy says if a first-move deadline has passed.
    fn check_flag(&mut self, now: u64, events: &mut Vec<Event>) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        if let (Some((late, deadline)), Some(policy)) =
            (self.first_move_deadline(), self.spec.start)
        {
            if now <= deadline {
                return false;
            }
            self.missed_start = Some(late);
            let result = match policy.missed {
                MissedStart::Abort => GameResult::NoResult,
                MissedStart::Forfeit => GameResult::Win(!late),
            };
            self.finish(result, Termination::NoStart, deadline, events);
            return true;
        }
        let Some(flagged) = self.clock.flagged(now) else { return false };
        if crate::dead::can_ever_mate(&self.position, !flagged) {
            self.finish(GameResult::Win(!flagged), Termination::Timeout, now, events);
        } else {
            self.finish(GameResult::Draw, Termination::TimeoutVsInsufficientMaterial, now, events);
        }
        true
    }

    /// Judges a move as sent: legal, illegal with its reason, or not a move.
    fn judge(&self, input: &MoveInput) -> Result<Attempt, Rejected> {
        let pos = &self.position;
        match input {
            MoveInput::Uci(UciMove::Normal { from, to, promotion }) => {
                Ok(pos.attempt(*from, *to, *promotion))
            }
            MoveInput::Uci(UciMove::Null) | MoveInput::San(SanPlus { san: San::Null, .. }) => {
                Ok(Attempt::NotAMove(NotAMove::Pass))
            }
            MoveInput::San(san) => match san.san.to_move(pos) {
                Ok(m) => Ok(Attempt::Legal(m)),
                Err(SanError::Ambiguous { .. }) => Err(Rejection::Ambiguous(*san).into()),
                Err(_) => Ok(san_attempt(pos, &san.san)),
            },
        }
    }

    /// Counts an illegal move by the rule set (§8.2–§8.4) and builds the refusal.
    fn count_illegal(
        &mut self,
        by: Color,
        why: Illegal,
        from: Option<Square>,
        now: u64,
    ) -> Rejected {
        let mut events = Vec::new();
        let rules = self.spec.rules;
        let limit = match rules.illegal_moves {
            IllegalMovePolicy::RejectOnly => None,
            IllegalMovePolicy::Strikes { limit } => Some(limit),
            IllegalMovePolicy::Fide => Some(2),
        };
        if let Some(limit) = limit {
            self.strikes[by] = self.strikes[by].saturating_add(1);
            let count = self.strikes[by];
            self.pending_attempts.push(why);
            events.push(Event::IllegalMoveCounted {
                color: by,
                count,
                limit: Some(limit),
                reason: why,
            });
            if count >= limit {
                // FIDE 7.5.5: drawn if the opponent could never mate; `seed` (§5) simply loses.
                if rules.illegal_moves == IllegalMovePolicy::Fide
                    && !crate::dead::can_ever_mate(&self.position, !by)
                {
                    self.finish(
                        GameResult::Draw,
                        Termination::IllegalMovesVsInsufficientMaterial,
                        now,
                        &mut events,
                    );
                } else {
                    self.finish(GameResult::Win(!by), Termination::IllegalMoves, now, &mut events);
                }
            } else if rules.illegal_moves == IllegalMovePolicy::Fide {
                if let Some(penalty) = rules.penalty_ms(self.clock.time_control()) {
                    self.add_time(!by, penalty, &mut events);
                }
            }
        }
        // §8.3: after an illegal attempt in check, the piece that was moved must answer the
        // check if it can.
        if rules.touch_move
            && self.outcome.is_none()
            && self.obligation.is_none()
            && self.position.is_check()
        {
            if let Some(from) = from {
                if self.position.legal_moves().iter().any(|m| m.from() == from) {
                    let obligation = Obligation::MovePiece(from);
                    self.obligation = Some(obligation);
                    events.push(Event::Obliged { color: by, obligation });
                }
            }
        }
        Rejected { reason: Rejection::Illegal(why), events }
    }

    fn add_time(&mut self, color: Color, ms: u64, events: &mut Vec<Event>) {
        if self.clock.time_control().is_timed() {
            self.clock.add_time(color, ms);
            events.push(Event::TimeAdded { color, ms });
        }
    }

    /// Plays a legal move: presses the clock (the mover's stopping `lag` ms before `now`, the
    /// opponent's starting at `now`), records the move, settles offers, and ends the game if
    /// the move did (§5, §6).
    fn make_move(
        &mut self,
        by: Color,
        m: Move,
        offer_draw: bool,
        now: u64,
        lag: u64,
        events: &mut Vec<Event>,
    ) {
        let clock_before = self.clock.state();
        let awaiting = self.spec.start.is_some() && self.awaiting_first_moves();
        if awaiting {
            // A first move: the clock is pressed in the millisecond it starts.
            if self.clock.active().is_none() {
                let _ = self.clock.start(by, now);
            } else {
                let _ = self.clock.resume(now);
            }
        }
        let (mut spent_ms, clock_ms) = match self.clock.press_after_lag(now, lag) {
            Ok(report) => (report.spent, report.remaining),
            Err(_) => (0, None),
        };
        if awaiting {
            spent_ms = now.saturating_sub(lag).saturating_sub(self.awaiting_since);
            self.awaiting_since = now;
            if self.plies.is_empty() {
                // Only one side has moved: the other's clock waits for its first move.
                let _ = self.clock.stop(now);
            }
        }
        let san = SanPlus::from_move(&self.position, m);
        self.position.play_unchecked(m);
        self.history.push(&self.position);
        let gave_check = self.position.is_check();
        self.plies.push(PlyRecord {
            m,
            san,
            color: by,
            at_ms: now,
            spent_ms,
            clock_ms,
            offered_draw: offer_draw,
            illegal_attempts: std::mem::take(&mut self.pending_attempts),
            gave_check,
            clock_before,
        });
        self.obligation = None;
        self.takeback_request = None;
        events.push(Event::MovePlayed {
            ply: self.plies.len() as u32,
            color: by,
            m,
            san,
            spent_ms,
            remaining_ms: clock_ms,
        });
        if gave_check {
            events.push(Event::Check(!by));
        }
        // §7: moving declines the opponent's offer; an offer goes with one's own move.
        if self.offer == Some(!by) {
            self.offer = None;
            self.offer_barred[!by] = true;
            events.push(Event::DrawDeclined { by, by_moving: true });
        }
        if offer_draw {
            self.offer = Some(by);
            self.offer_barred[!by] = false;
            events.push(Event::DrawOffered(by));
        }
        self.settle_after_move(by, now, events);
    }

    /// The endings a move can bring (§4–§6), in order of precedence: checkmate first (it wins
    /// even on the 75th move, FIDE 9.6.2).
    fn settle_after_move(&mut self, by: Color, now: u64, events: &mut Vec<Event>) {
        let pos = self.position;
        let automatic = self.spec.rules.draws == DrawPolicy::Automatic;
        let repetitions = self.repetitions();
        let ending = if pos.is_checkmate() {
            Some((GameResult::Win(by), Termination::Checkmate))
        } else if pos.is_stalemate() {
            Some((GameResult::Draw, Termination::Stalemate))
        } else if crate::dead::is_dead(&pos) {
            Some((GameResult::Draw, Termination::DeadPosition))
        } else if repetitions >= 5 {
            Some((GameResult::Draw, Termination::FivefoldRepetition))
        } else if pos.halfmoves() >= 150 {
            Some((GameResult::Draw, Termination::SeventyFiveMoves))
        } else if automatic && repetitions >= 3 {
            let termination = if self.is_perpetual_check() {
                Termination::PerpetualCheck
            } else {
                Termination::ThreefoldRepetition
            };
            Some((GameResult::Draw, termination))
        } else if automatic && pos.halfmoves() >= 100 {
            Some((GameResult::Draw, Termination::FiftyMoves))
        } else {
            None
        };
        match ending {
            Some((result, termination)) => self.finish(result, termination, now, events),
            None if !automatic => {
                if repetitions >= 3 {
                    events.push(Event::DrawClaimable(DrawClaim::ThreefoldRepetition));
                }
                if pos.halfmoves() >= 100 {
                    events.push(Event::DrawClaimable(DrawClaim::FiftyMoves));
                }
            }
            None => {}
        }
    }

    /// §6.3: the current position occurs for the third time and every move of one side since
    /// it first occurred gave check.
    fn is_perpetual_check(&self) -> bool {
        let Some(first) = self.history.first_occurrence(&self.position) else {
            return false;
        };
        // Plies after position `first` are self.plies[first..].
        let since = &self.plies[first..];
        Color::ALL.into_iter().any(|side| {
            let mut moves = since.iter().filter(|p| p.color == side).peekable();
            moves.peek().is_some() && moves.all(|p| p.gave_check)
        })
    }

    /// Whether `claim` holds for `pos`: the current position, or (`intended`) the position
    /// the intended move would make (FIDE 9.2.1.1).
    fn claim_holds(&self, claim: DrawClaim, pos: &Position, intended: bool) -> bool {
        match claim {
            DrawClaim::FiftyMoves => pos.halfmoves() >= 100,
            DrawClaim::ThreefoldRepetition if intended => self.history.count_if_pushed(pos) >= 3,
            DrawClaim::ThreefoldRepetition => self.history.count(pos) >= 3,
        }
    }

    /// Ends the game at `now`. The clocks stop with it; a fallen flag stops at its
    /// deadline, so the display reads 0 rather than the time before the last move.
    fn finish(
        &mut self,
        result: GameResult,
        termination: Termination,
        now: u64,
        events: &mut Vec<Event>,
    ) {
        let outcome = Outcome { result, termination };
        self.outcome = Some(outcome);
        self.offer = None; // §7: offers expire when the game ends.
        self.obligation = None;
        self.takeback_request = None;
        let deadline = self.clock.running().and_then(|c| self.clock.flag_deadline(c));
        let _ = self.clock.stop(deadline.map_or(now, |d| d.min(now)));
        events.push(Event::GameOver(outcome));
    }
}

/// `true` if `m` captures the piece on `sq`, en passant included (§3, §8.1).
fn captures_on(m: &Move, sq: Square) -> bool {
    m.to() == sq
        || (m.is_en_passant() && m.to().file() == sq.file() && m.from().rank() == sq.rank())
}

/// The square a move was attempted from, for §8.3.
fn attempted_from(pos: &Position, input: &MoveInput) -> Option<Square> {
    match input {
        MoveInput::Uci(UciMove::Normal { from, .. }) => Some(*from),
        MoveInput::Uci(UciMove::Null) => None,
        MoveInput::San(san) => san_candidates(pos, &san.san).into_iter().next(),
    }
}

/// The squares of the pieces a SAN move could mean by their movement pattern.
fn san_candidates(pos: &Position, san: &San) -> Vec<Square> {
    match *san {
        San::Castle(_) => vec![pos.king_of(pos.turn())],
        San::Null => Vec::new(),
        San::Normal { role, file, rank, to, promotion, .. } => pos
            .board()
            .by_piece(role.of(pos.turn()))
            .into_iter()
            .filter(|sq| file.is_none_or(|f| sq.file() == f) && rank.is_none_or(|r| sq.rank() == r))
            .filter(|&sq| !matches!(pos.attempt(sq, to, promotion), Attempt::NotAMove(_)))
            .collect(),
    }
}

/// Judges a SAN move that names no legal move: illegal (counted) if some piece's pattern fits,
/// otherwise not a move.
fn san_attempt(pos: &Position, san: &San) -> Attempt {
    // §8.2 "castling illegally": castling without the right (the king or that rook has moved)
    // is still a castling attempt, not a king step; with it, the king goes onto its rook, which
    // names castling in both standard chess and Chess960 (§13).
    if let San::Castle(side) = *san {
        let us = pos.turn();
        return match pos.castles().rook(us, side) {
            None => Attempt::Illegal(Illegal::CastlingRightLost),
            Some(rook) => pos.attempt(pos.king_of(us), rook, None),
        };
    }
    let target = match *san {
        San::Castle(side) => Some(side.king_to(pos.turn())),
        San::Normal { to, .. } => Some(to),
        San::Null => None,
    };
    let promotion = match *san {
        San::Normal { promotion, .. } => promotion,
        _ => None,
    };
    let mut fallback = Attempt::NotAMove(rookery_core::NotAMove::NotThePattern(match *san {
        San::Normal { role, .. } => role,
        _ => Role::King,
    }));
    if let Some(to) = target {
        for from in san_candidates(pos, san) {
            match pos.attempt(from, to, promotion) {
                a @ Attempt::Illegal(_) => return a,
                a @ Attempt::NotAMove(_) => fallback = a,
                Attempt::Legal(_) => {}
            }
        }
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passing_is_not_a_move_and_is_not_counted() {
        let spec = GameSpec { rules: crate::RuleSet::SEED, ..GameSpec::default() };
        let mut game = Game::new(spec, 0).unwrap();
        for pass in ["0000", "--"] {
            let r = game.play(Color::White, &pass.parse().unwrap(), false, 1).unwrap_err();
            assert_eq!(r.reason, Rejection::NotAMove(NotAMove::Pass), "{pass}");
            assert_eq!(r.reason.to_string(), "not a move: passing is not a move");
        }
        assert_eq!(game.strikes(Color::White), 0);
        game.play(Color::White, &"e4".parse().unwrap(), false, 2).unwrap();
        assert_eq!(game.plies()[0].san.to_string(), "e4", "the record keeps the SAN typed");
    }

    /// The spec's castling mode reads the start and the moves (RULES.md §13): from start 291
    /// (BQNRKRNB) a Chess960 game castles, the king dropped on its rook or moved two squares,
    /// recorded king-takes-rook; read as standard chess, the same start is refused, its
    /// castling rights fitting no standard rook.
    #[test]
    fn the_castling_mode_reads_the_start_and_the_moves() {
        let fen = "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1";
        let spec = GameSpec {
            fen: Some(fen.into()),
            castling_mode: CastlingMode::Chess960,
            ..GameSpec::default()
        };
        let mut game = Game::new(spec.clone(), 0).unwrap();
        assert!(game.start_position().is_chess960());
        for (t, (color, uci)) in [
            (Color::White, "g1f3"),
            (Color::Black, "c8d6"),
            (Color::White, "e1f1"),
            (Color::Black, "e8c8"),
        ]
        .into_iter()
        .enumerate()
        {
            game.play(color, &uci.parse().unwrap(), false, t as u64 + 1).unwrap();
        }
        let record: Vec<String> =
            game.plies().iter().map(|p| format!("{} {}", p.m.to_uci(), p.san)).collect();
        assert_eq!(record, ["g1f3 Nf3", "c8d6 Nd6", "e1f1 O-O", "e8d8 O-O-O"]);
        assert!(game.to_pgn().contains(&format!("[FEN \"{fen}\"]")));
        let standard = GameSpec { castling_mode: CastlingMode::Standard, ..spec };
        assert!(matches!(Game::new(standard, 0), Err(GameSpecError::Fen(_))));
        // Without a FEN, the standard start in either mode.
        let c960 = GameSpec { castling_mode: CastlingMode::Chess960, ..GameSpec::default() };
        assert!(Game::new(c960, 0).unwrap().start_position().is_chess960());
    }
}
