//! Server → client on both sockets (docs/protocol.md): one enum, [`ServerMessage`], written
//! by serde with the field names the protocol documents and the browser reads (web/js). Values
//! stay typed up to here: colours, moves, results and terminations are written by their one
//! spelling in [`ser`].

use std::fmt;
use std::sync::Arc;

use rookery_arbiter::{DrawClaim, GameResult, Obligation, Rejection, Termination, TimeControl};
use rookery_core::legality::Illegal;
use rookery_core::{ByColor, Color, Position, SanPlus, Square, UciMove};
use rookery_ladder::{Level, Points};
use rookery_store::{GameStatus, PlayerKind};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::{GameId, ParseError, ProtocolError, Refusal, Seek, Variant};

/// One message of the server, on the game socket or the lobby's.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The full state, first on every game connection.
    Hello {
        /// The client's colour, `None` for a spectator.
        #[serde(serialize_with = "ser::opt_color")]
        you: Option<Color>,
        /// The game.
        game: Box<GameView>,
    },
    /// The full state again: after a takeback, and in answer to `sync`.
    State {
        /// The game.
        game: Box<GameView>,
    },
    /// A move was played.
    Move(Box<MoveMessage>),
    /// Something else the arbiter decided, or who is here.
    Event(EventMessage),
    /// The game is over.
    End(Box<EndMessage>),
    /// An action refused, to its sender.
    Rejected {
        /// Why: `code` and `message`.
        #[serde(flatten)]
        refusal: Refusal,
        /// The game's ply, when known.
        ply: Option<usize>,
    },
    /// A message refused before it reached the game: `code`, `message` and for a bad field
    /// `field`.
    Error(ProtocolError),
    /// The answer to `ping`.
    Pong {
        /// The server's clock (Unix ms).
        server_ms: u64,
    },
    /// The open seeks a lobby visitor can see, on connection.
    Seeks {
        /// The seeks.
        seeks: Vec<Arc<Seek>>,
    },
    /// A seek opened.
    SeekAdded {
        /// The seek.
        seek: Arc<Seek>,
    },
    /// A seek is gone (accepted, cancelled or expired).
    SeekRemoved {
        /// Its id.
        id: String,
    },
    /// A seek of the visitor's was accepted: the game to open.
    GameStarted {
        /// The seek.
        seek: String,
        /// The game.
        game: GameId,
    },
    /// How many games are live.
    Live {
        /// The number.
        games: usize,
    },
}

impl ServerMessage {
    /// The clocks this message carries, if any.
    pub fn clock_mut(&mut self) -> Option<&mut ClockView> {
        match self {
            ServerMessage::Hello { game, .. } | ServerMessage::State { game } => {
                Some(&mut game.clock)
            }
            ServerMessage::Move(m) => Some(&mut m.clock),
            ServerMessage::End(m) => Some(&mut m.clock),
            ServerMessage::Event(
                EventMessage::TimeAdded { clock, .. } | EventMessage::Berserk { clock, .. },
            ) => Some(clock),
            _ => None,
        }
    }

    /// The message as JSON text, as it goes on the socket.
    pub fn to_text(&self) -> String {
        // Every value here serialises (no map with non-string keys, no failing impl).
        serde_json::to_string(self).expect("a server message serialises")
    }
}

/// A player as the protocol shows one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// `user`, `anonymous` or `engine`.
    #[serde(serialize_with = "ser::display")]
    pub kind: PlayerKind,
    /// The engine's level.
    pub engine_level: Option<u8>,
    /// Whether the player has a connection to the game (engines always); only in a `game`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online: Option<bool>,
}

impl PlayerView {
    /// A stored player, without presence.
    pub fn of(p: &rookery_store::Player) -> PlayerView {
        PlayerView {
            name: p.name.clone(),
            kind: p.kind,
            engine_level: p.engine_level,
            online: None,
        }
    }
}

/// Both clocks at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// White's time (`None` untimed).
    pub white_ms: Option<u64>,
    /// Black's time.
    pub black_ms: Option<u64>,
    /// Whose clock runs.
    #[serde(serialize_with = "ser::opt_color")]
    pub running: Option<Color>,
    /// The delay left before the running side's time falls (delay controls).
    pub delay_ms: Option<u64>,
    /// The server's clock (Unix ms) at which these times held: a client that knows its
    /// offset from `pong` counts from here, not from when the message happened to arrive
    /// (issue 38). Absent for a finished game's stored clocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_ms: Option<u64>,
}

/// The legal moves of the side to move: from-square → to-squares, each once, in the order the
/// move generator makes them.
///
/// A castling is where its move goes: the king's two-square step in standard chess (`e1g1`);
/// in Chess960 the king's own rook (`e1h1`) and also, when the king travels two files or
/// more, its castling square (`g1`, `c1`), so that a board lets the king be dropped on
/// either, the four ways FIDE's Guidelines II allow. The server reads both (RULES.md §13).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dests(Vec<(Square, Vec<Square>)>);

impl Dests {
    /// The destinations in `pos`; none when the game is over.
    pub fn of(pos: &Position, over: bool) -> Dests {
        let mut dests = Dests::default();
        if !over {
            for m in pos.legal_moves().iter() {
                dests.add(m.from(), m.to());
                if let (true, Some(side)) = (pos.is_chess960(), m.castling_side()) {
                    let king_to = side.king_to(pos.turn());
                    if m.from().file().index().abs_diff(king_to.file().index()) >= 2 {
                        dests.add(m.from(), king_to);
                    }
                }
            }
        }
        dests
    }

    fn add(&mut self, from: Square, to: Square) {
        let i = match self.0.iter().position(|(f, _)| *f == from) {
            Some(i) => i,
            None => {
                self.0.push((from, Vec::new()));
                self.0.len() - 1
            }
        };
        if !self.0[i].1.contains(&to) {
            self.0[i].1.push(to);
        }
    }
}

impl Serialize for Dests {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Squares<'a>(&'a [Square]);
        impl Serialize for Squares<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|sq| sq.to_string()))
            }
        }
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (from, to) in &self.0 {
            map.serialize_entry(&from.to_string(), &Squares(to))?;
        }
        map.end()
    }
}

/// A move of the game's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// In UCI.
    #[serde(serialize_with = "ser::display")]
    pub uci: UciMove,
    /// In SAN.
    #[serde(serialize_with = "ser::display")]
    pub san: SanPlus,
    /// The mover's time after it, if timed.
    pub clock_ms: Option<u64>,
}

/// Whose first move is awaited, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FirstMove {
    /// The side that owes it.
    #[serde(serialize_with = "ser::color")]
    pub color: Color,
    /// The time left, in ms.
    pub ms: u64,
}

/// A player gone from a live game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Abandoned {
    /// Who.
    #[serde(serialize_with = "ser::color")]
    pub color: Color,
    /// In how many ms the opponent may claim.
    pub claim_in_ms: u64,
}

/// The full game: the `game` of `hello` and `state`, and `GET /api/v1/games/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The id.
    pub id: GameId,
    /// `live`, `finished` or `aborted`.
    #[serde(serialize_with = "ser::display")]
    pub status: GameStatus,
    /// The rule set's label.
    pub rules: &'static str,
    /// The time control.
    #[serde(serialize_with = "ser::display")]
    pub time_control: TimeControl,
    /// Its speed.
    pub speed: &'static str,
    /// Whether it counts for the ladder.
    pub rated: bool,
    /// Standard chess or Chess960: written as two fields, `variant` (`standard` or
    /// `chess960`) and `position` (the Chess960 start's number, `null` in standard chess).
    #[serde(flatten)]
    pub variant: Variant,
    /// White.
    pub white: PlayerView,
    /// Black.
    pub black: PlayerView,
    /// The start position.
    #[serde(serialize_with = "ser::fen")]
    pub initial_fen: Position,
    /// The moves.
    pub moves: Vec<MoveView>,
    /// The position now.
    #[serde(serialize_with = "ser::fen")]
    pub fen: Position,
    /// The number of moves played.
    pub ply: usize,
    /// The side to move.
    #[serde(serialize_with = "ser::color")]
    pub turn: Color,
    /// Whether it is in check.
    pub check: bool,
    /// Its legal moves.
    pub dests: Dests,
    /// Both clocks.
    pub clock: ClockView,
    /// The side whose draw offer stands.
    #[serde(serialize_with = "ser::opt_color")]
    pub offer: Option<Color>,
    /// The side asking for a takeback.
    #[serde(serialize_with = "ser::opt_color")]
    pub takeback: Option<Color>,
    /// Illegal moves counted against each side.
    #[serde(serialize_with = "ser::by_color")]
    pub strikes: ByColor<u8>,
    /// The sides that may not offer a draw now: their last offer was declined and the
    /// opponent has not offered since (§7).
    #[serde(serialize_with = "ser::by_color")]
    pub offer_barred: ByColor<bool>,
    /// The illegal move that loses, when counted by number.
    pub strike_limit: Option<u8>,
    /// What a touch obliges the side to move to do.
    #[serde(serialize_with = "ser::opt_obligation")]
    pub obligation: Option<Obligation>,
    /// Draws the side to move may claim now.
    #[serde(serialize_with = "ser::claims")]
    pub claimable: Vec<DrawClaim>,
    /// The result, once over.
    #[serde(serialize_with = "ser::opt_display")]
    pub result: Option<GameResult>,
    /// Why it ended.
    #[serde(serialize_with = "ser::opt_display")]
    pub termination: Option<Termination>,
    /// The end in words.
    pub reason: Option<String>,
    /// Whose first move is awaited.
    pub first_move: Option<FirstMove>,
    /// Spectator connections.
    pub spectators: usize,
    /// A player gone.
    pub abandoned: Option<Abandoned>,
    /// When it was created (Unix ms).
    pub created_at_ms: u64,
    /// A tournament game's tournament and seat (docs/protocol.md, *Tournament games*);
    /// `None` (`null`) for other games.
    pub tournament: Option<TournamentRef>,
    /// The opening, by the last named position the game went through (`null` before one,
    /// and for a game set up from another position).
    pub opening: Option<OpeningView>,
}

/// An opening's ECO code and English name: `{"eco":"B90","name":"Sicilian Defense: Najdorf
/// Variation"}` (crates/openings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningView {
    /// `A00` to `E99`.
    pub eco: &'static str,
    /// The name.
    pub name: &'static str,
}

impl OpeningView {
    /// The opening of a game from `start` through `moves`.
    pub fn of_game(start: &Position, moves: &[rookery_core::Move]) -> Option<OpeningView> {
        rookery_openings::of_game(start, moves).map(|o| OpeningView { eco: o.eco, name: o.name })
    }
}

/// Where a tournament game sits: `{"id":…,"name":…,"round":3,"board":1,"berserk":false}`
/// (`round` `null` in an arena, whose `board` is the game's number; `berserk` whether its
/// players may go berserk: an arena with berserk on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentRef {
    /// The tournament id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The round.
    pub round: Option<u32>,
    /// The board.
    pub board: u32,
    /// Berserk allowed.
    pub berserk: bool,
}

impl TournamentRef {
    /// From the stored seat.
    pub fn of(seat: &rookery_store::TournamentSeat) -> TournamentRef {
        TournamentRef {
            id: seat.tournament.clone(),
            name: seat.name.clone(),
            round: seat.round,
            board: seat.board,
            berserk: seat.berserk,
        }
    }
}

/// The `move` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveMessage {
    /// The number of moves played after this one.
    pub ply: u32,
    /// In UCI.
    #[serde(serialize_with = "ser::display")]
    pub uci: UciMove,
    /// In SAN.
    #[serde(serialize_with = "ser::display")]
    pub san: SanPlus,
    /// Who moved.
    #[serde(serialize_with = "ser::color")]
    pub by: Color,
    /// A draw was offered with it.
    pub offer_draw: bool,
    /// The position after it, when it is the action's last move.
    #[serde(serialize_with = "ser::opt_fen")]
    pub fen: Option<Position>,
    /// Whether that position is check.
    pub check: bool,
    /// Its legal moves (none when not the last move, or the game is over).
    pub dests: Dests,
    /// Both clocks.
    pub clock: ClockView,
    /// Whose first move is awaited now.
    pub first_move: Option<FirstMove>,
    /// The opening reached, on the message of the latest move (see [`GameView::opening`]).
    pub opening: Option<OpeningView>,
}

/// The `event` message, by `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventMessage {
    /// A draw was offered with a move (§7).
    DrawOffered {
        /// By whom.
        #[serde(serialize_with = "ser::color")]
        by: Color,
    },
    /// Declined in words, or by moving.
    DrawDeclined {
        /// By whom.
        #[serde(serialize_with = "ser::color")]
        by: Color,
        /// By moving.
        by_moving: bool,
    },
    /// A touch binds the player (§8.1, §8.3).
    Obliged {
        /// Whom.
        #[serde(serialize_with = "ser::color")]
        color: Color,
        /// To do what.
        #[serde(serialize_with = "ser::obligation")]
        obligation: Obligation,
    },
    /// An illegal move was counted (§8.2, §8.4).
    IllegalMove {
        /// Against whom.
        #[serde(serialize_with = "ser::color")]
        color: Color,
        /// How many now.
        count: u8,
        /// The one that loses.
        limit: Option<u8>,
        /// Why it was illegal.
        #[serde(serialize_with = "ser::display")]
        reason: Illegal,
        /// The same reason as a code, for a client to say it in its own language.
        #[serde(serialize_with = "ser::illegal")]
        code: Illegal,
    },
    /// Time given to a side (FIDE 7.5.3, 9.5).
    TimeAdded {
        /// To whom.
        #[serde(serialize_with = "ser::color")]
        color: Color,
        /// How much.
        ms: u64,
        /// Both clocks after it.
        clock: ClockView,
    },
    /// A player went berserk (an arena): half their time, no increment from now on.
    Berserk {
        /// Who.
        #[serde(serialize_with = "ser::color")]
        color: Color,
        /// Both clocks after it.
        clock: ClockView,
    },
    /// The side to move may claim a draw now (`fide`).
    DrawClaimable {
        /// Which.
        #[serde(serialize_with = "ser::claim")]
        claim: DrawClaim,
    },
    /// A takeback was asked for (casual).
    TakebackRequested {
        /// By whom.
        #[serde(serialize_with = "ser::color")]
        by: Color,
    },
    /// Who is here.
    Crowd {
        /// Spectator connections.
        spectators: usize,
        /// White has a connection.
        white_online: bool,
        /// Black has a connection.
        black_online: bool,
        /// A player gone.
        abandoned: Option<Abandoned>,
    },
}

/// A level, by its label and both names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelView(pub Level);

impl Serialize for LevelView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Level", 3)?;
        st.serialize_field("label", self.0.label())?;
        st.serialize_field("en", &self.0.en().to_string())?;
        st.serialize_field("zh", &self.0.zh().to_string())?;
        st.end()
    }
}

/// What the game did to one player's ladder standing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChangeView {
    /// §11 points before.
    #[serde(serialize_with = "ser::display")]
    pub points_before: Points,
    /// §11 points after.
    #[serde(serialize_with = "ser::display")]
    pub points_after: Points,
    /// The level after.
    pub level: LevelView,
    /// The Glicko-2 rating before, to a tenth.
    pub rating_before: f64,
    /// The rating after.
    pub rating_after: f64,
}

impl ChangeView {
    /// From the store's record of the change.
    pub fn of(c: &rookery_store::RatingChange) -> ChangeView {
        let tenth = |r: f64| (r * 10.0).round() / 10.0;
        ChangeView {
            points_before: c.points_before,
            points_after: c.points_after,
            level: LevelView(Level::of(c.points_after)),
            rating_before: tenth(c.rating_before.rating),
            rating_after: tenth(c.rating_after.rating),
        }
    }
}

/// Both players' ladder changes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LadderView {
    /// White's.
    pub white: ChangeView,
    /// Black's.
    pub black: ChangeView,
}

/// The `end` message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EndMessage {
    /// The result.
    #[serde(serialize_with = "ser::opt_display")]
    pub result: Option<GameResult>,
    /// Why it ended.
    #[serde(serialize_with = "ser::opt_display")]
    pub termination: Option<Termination>,
    /// In words.
    pub reason: Option<String>,
    /// Both clocks at the end.
    pub clock: ClockView,
    /// The ladder changes of a rated game between two accounts.
    pub ladder: Option<LadderView>,
}

/// `"variant":"chess960","position":518` (`"position":null` in standard chess): a game's
/// variant and start as the game view and the lists write them.
impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Variant", 2)?;
        st.serialize_field("variant", self.name())?;
        st.serialize_field("position", &self.number())?;
        st.end()
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for Refusal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// The touch-move obligation, spelt as in `obliged`.
        struct Bound(Obligation);
        impl Serialize for Bound {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                ser::obligation(&self.0, s)
            }
        }
        let mut st = s.serialize_struct("Refusal", 3)?;
        st.serialize_field("code", self.code())?;
        st.serialize_field("message", &self.to_string())?;
        // What a client needs to say it in its own words (issue 38), as codes and squares.
        match self {
            Refusal::Arbiter(Rejection::Illegal(why)) => {
                st.serialize_field("reason", ser::illegal_code(*why))?;
            }
            Refusal::Arbiter(Rejection::TouchMove(o)) => {
                st.serialize_field("obligation", &Bound(*o))?;
            }
            _ => {}
        }
        st.end()
    }
}

impl Serialize for ProtocolError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let field = match self {
            ProtocolError::Parse(ParseError::BadField { field, .. }) => Some(field),
            _ => None,
        };
        let mut st = s.serialize_struct("ProtocolError", 2 + usize::from(field.is_some()))?;
        st.serialize_field("code", self.code())?;
        st.serialize_field("message", &self.to_string())?;
        if let Some(field) = field {
            st.serialize_field("field", field)?;
        }
        st.end()
    }
}

/// How values are spelt on the wire: each by its one text form.
pub(crate) mod ser {
    use super::*;

    pub fn display<T: fmt::Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn opt_display<T: fmt::Display, S: Serializer>(
        v: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub fn color<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn opt_color<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_str(c.name()),
            None => s.serialize_none(),
        }
    }

    pub fn by_color<T: Serialize, S: Serializer>(v: &ByColor<T>, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("ByColor", 2)?;
        st.serialize_field("white", &v.white)?;
        st.serialize_field("black", &v.black)?;
        st.end()
    }

    pub fn fen<S: Serializer>(pos: &Position, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&pos.to_fen())
    }

    pub fn opt_fen<S: Serializer>(pos: &Option<Position>, s: S) -> Result<S::Ok, S::Error> {
        match pos {
            Some(pos) => s.serialize_str(&pos.to_fen()),
            None => s.serialize_none(),
        }
    }

    pub fn claim<S: Serializer>(c: &DrawClaim, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    pub fn claims<S: Serializer>(c: &[DrawClaim], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(c.iter().map(|c| c.name()))
    }

    /// An illegal move's reason as a code: `king_into_check`, `pinned`…
    pub fn illegal_code(why: Illegal) -> &'static str {
        match why {
            Illegal::KingIntoCheck => "king_into_check",
            Illegal::DoesNotAnswerCheck => "does_not_answer_check",
            Illegal::Pinned => "pinned",
            Illegal::EnPassantExposesKing => "en_passant_exposes_king",
            Illegal::PathBlocked => "path_blocked",
            Illegal::OwnPiece => "own_piece",
            Illegal::PawnCapturesNothing => "pawn_captures_nothing",
            Illegal::PawnBlocked => "pawn_blocked",
            Illegal::CastlingRightLost => "castling_right_lost",
            Illegal::CastlingBlocked => "castling_blocked",
            Illegal::CastlingOutOfCheck => "castling_out_of_check",
            Illegal::CastlingThroughCheck => "castling_through_check",
            Illegal::CastlingIntoCheck => "castling_into_check",
        }
    }

    pub fn illegal<S: Serializer>(why: &Illegal, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(illegal_code(*why))
    }

    pub fn obligation<S: Serializer>(o: &Obligation, s: S) -> Result<S::Ok, S::Error> {
        let (kind, square) = match *o {
            Obligation::MovePiece(sq) => ("move_piece", sq),
            Obligation::Capture(sq) => ("capture", sq),
        };
        let mut st = s.serialize_struct("Obligation", 2)?;
        st.serialize_field("kind", kind)?;
        st.serialize_field("square", &square.to_string())?;
        st.end()
    }

    pub fn opt_obligation<S: Serializer>(o: &Option<Obligation>, s: S) -> Result<S::Ok, S::Error> {
        match o {
            Some(o) => obligation(o, s),
            None => s.serialize_none(),
        }
    }
}
