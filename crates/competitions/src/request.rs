//! What a request asks of a tournament ([`Op`]), the arbiter's decisions among them
//! ([`ArbiterAction`]): the vocabulary of its handle and its actor.

use rookery_core::Color;
use rookery_tournament::competition::BoardResult;
use rookery_tournament::ByeKind;

use crate::export::Export;
use crate::log::{Misconduct, Sanction};
use crate::print::PrintRequest;
use crate::roster::RosterEntry;

/// What a request asks of the tournament.
#[derive(Clone, Debug)]
pub enum Op {
    /// The view.
    View,
    /// The `clock` socket message.
    Clock,
    /// Join (with the password if any).
    Join {
        /// The password given.
        password: Option<String>,
    },
    /// Withdraw oneself.
    Withdraw,
    /// Ask for a bye.
    Bye {
        /// The round.
        round: u32,
        /// Half or zero.
        kind: ByeKind,
    },
    /// Take a bye back.
    CancelBye {
        /// The round.
        round: u32,
    },
    /// Over the board, a player's own report of their board's result (from their phone).
    Report {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result.
        result: BoardResult,
    },
    /// Go berserk in an arena game.
    Berserk {
        /// The game.
        game: String,
    },
    /// An arbiter's action.
    Arbiter {
        /// What.
        action: ArbiterAction,
        /// Why.
        reason: Option<String>,
    },
    /// An over-the-board board's moves, typed from its paper scoresheet by the arbiter or
    /// one of the board's players (issue 53): they replace the record's moves.
    Moves {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The move list as typed (numbers optional; see `rookery_core::scoresheet`).
        moves: String,
    },
    /// A team's line-up for a round, entered by its captain.
    LineUp {
        /// The round.
        round: u32,
        /// The team, by name.
        team: String,
        /// The players, board 1 first, by name.
        players: Vec<String>,
    },
    /// An export, as text.
    Export(Export),
    /// The PGN of the games, given the site's record of each: (game id, PGN), in the order
    /// [`Export::Games`] lists them (the records are the server's, the tags the event's).
    Pgn(Vec<(String, String)>),
    /// A printable document (HTML).
    Print(PrintRequest),
}

/// The arbiter's actions (docs/api.md).
#[derive(Clone, Debug)]
pub enum ArbiterAction {
    /// Starts a tournament without a scheduled time.
    Start,
    /// Pairs the next round.
    Pair,
    /// Publishes a previewed Swiss round.
    Publish {
        /// The round.
        round: u32,
    },
    /// Undoes the last round's pairing while none of its games has started.
    Unpair {
        /// The round.
        round: u32,
    },
    /// Withdraws a player from a round on.
    Withdraw {
        /// The player's account name.
        player: String,
        /// From this round (default: the next to pair).
        round: Option<u32>,
    },
    /// Pairs a withdrawn player again from the next round.
    Reinstate {
        /// The player's account name.
        player: String,
    },
    /// A bye for a round not yet paired, beyond the players' limit if the arbiter wishes.
    Bye {
        /// The player's account name.
        player: String,
        /// The round.
        round: u32,
        /// Half, zero or full.
        kind: ByeKind,
    },
    /// A bye taken back.
    CancelBye {
        /// The player's account name.
        player: String,
        /// The round.
        round: u32,
    },
    /// Two players who never meet.
    ForbidPair {
        /// One.
        a: String,
        /// The other.
        b: String,
    },
    /// A forbidden pair lifted.
    AllowPair {
        /// One.
        a: String,
        /// The other.
        b: String,
    },
    /// Time added to a running game's clock.
    AddTime {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// Whose clock.
        color: Color,
        /// How much, 1 to 3,600 s.
        seconds: u64,
    },
    /// A result reported from a board of an over-the-board tournament (the desk's entry; a
    /// correction is a [`ArbiterAction::Result`], with its reason). In a knockout the board
    /// is the match's number in its round, and the result is its next game's.
    Enter {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result.
        result: BoardResult,
        /// A knockout: the game of the match the desk means; refused unless it is the next
        /// (a slip entered twice is not taken for the next game's).
        game: Option<u32>,
    },
    /// Over the board, the desk takes back a result it entered (a slip: the wrong board or
    /// result typed), while its round is the last paired and the event is on: the board waits
    /// for its result again. `result` is the one taken back: a result changed since (another
    /// desk, a correction) is not.
    Undo {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result taken back.
        result: BoardResult,
    },
    /// A knockout match level after every stage, with no Armageddon game, decided for
    /// `winner` (a drawing of lots, or what the regulations say; the reason says which).
    Lots {
        /// The bracket round.
        round: u32,
        /// The match in its round.
        board: u32,
        /// Who goes on, by name.
        winner: String,
    },
    /// A result declared or corrected.
    Result {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The result.
        result: BoardResult,
    },
    /// A game restarted with the colours turned round (RULES.md §12).
    SwapColours {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// An imported player list (issue 53): each player a guest entrant, before round 1 of an
    /// over-the-board tournament; refused whole.
    Import {
        /// The players, as the list was read.
        entries: Vec<RosterEntry>,
    },
    /// One guest entrant (no account) added at the desk of an over-the-board tournament.
    Guest {
        /// Name.
        name: String,
        /// Rating, if any.
        rating: Option<u16>,
        /// Title, if any.
        title: Option<String>,
    },
    /// Entrants of an over-the-board tournament marked present or absent.
    CheckIn {
        /// The entrants, by account or guest name.
        players: Vec<String>,
        /// Present, or absent.
        present: bool,
    },
    /// An entrant of an over-the-board tournament keeps a board in every round paired from
    /// now on (a wheelchair place, the arbiters' table), or is freed (`None`).
    FixBoard {
        /// The entrant, by account or guest name.
        player: String,
        /// The board, from 1.
        board: Option<u32>,
    },
    /// A guest entrant linked to an account: the account's from now on, with its games.
    Link {
        /// The guest, by name.
        player: String,
        /// The account's name.
        account: String,
    },
    /// An incident at a board of an over-the-board tournament, with the arbiter's decision
    /// (RULES.md §12); an illegal move's penalty follows the rule set (§8.4).
    Incident {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// What happened.
        report: IncidentReport,
        /// The arbiter's decision, in their words.
        decision: String,
    },
    /// A team registered before the start of a team event (RULES.md §12, *Teams*).
    Team {
        /// The team's name.
        name: String,
        /// The roster in board order, reserves after: (name, rating).
        players: Vec<(String, Option<u16>)>,
        /// The captain's account name, if one is named.
        captain: Option<String>,
    },
    /// A team's captain named (an account name).
    Captain {
        /// The team, by name.
        team: String,
        /// The account's name.
        account: String,
    },
    /// A team's line-up for a round, entered at the desk (a captain's is [`Op::LineUp`]).
    LineUp {
        /// The round.
        round: u32,
        /// The team, by name.
        team: String,
        /// The players, board 1 first, by name.
        players: Vec<String>,
    },
    /// A board's result in a team match, from the desk (`3.2 1-0`); refused if the board has
    /// one (a correction is [`ArbiterAction::TeamResult`], with its reason).
    TeamEnter {
        /// The round.
        round: u32,
        /// The match in its round.
        number: u32,
        /// The board.
        board: u32,
        /// From the board's White's side.
        result: BoardResult,
    },
    /// A board's result in a team match declared or corrected, with a reason.
    TeamResult {
        /// The round.
        round: u32,
        /// The match in its round.
        number: u32,
        /// The board.
        board: u32,
        /// From the board's White's side.
        result: BoardResult,
    },
    /// Two teams that must not meet (a team Swiss; a round robin's tables are fixed).
    ForbidTeamPair {
        /// One team, by name.
        a: String,
        /// The other.
        b: String,
    },
    /// A forbidden team pair lifted (the names in either order).
    AllowTeamPair {
        /// One team, by name.
        a: String,
        /// The other.
        b: String,
    },
    /// A team marked absent (it did not turn up: its match of the round paired is lost by
    /// forfeit, and a team Swiss does not pair it) or present again.
    TeamAbsent {
        /// The team, by name.
        team: String,
        /// Absent (`false`: present again).
        absent: bool,
    },
    /// Ends the tournament now.
    End,
    /// Cancels it.
    Cancel,
}

/// An incident as the desk reports it: players by name, checked against the board.
#[derive(Clone, Debug)]
pub enum IncidentReport {
    /// An illegal move by `player`.
    IllegalMove {
        /// By name.
        player: String,
    },
    /// Time added to `player`'s clock.
    TimeAdded {
        /// By name.
        player: String,
        /// 1 to 3,600.
        seconds: u32,
    },
    /// The colours found the wrong way round during the game.
    ColourMixup {
        /// Found before a quarter of the first period was used.
        before_quarter: bool,
    },
    /// An irregularity found after the game: the result stands.
    IrregularityAfter,
    /// A player's misconduct and its sanction.
    Misconduct {
        /// By name.
        player: String,
        /// What they did.
        what: Misconduct,
        /// The sanction.
        sanction: Sanction,
    },
}

impl ArbiterAction {
    /// Whether RULES.md §12 wants a reason recorded.
    pub fn needs_reason(&self) -> bool {
        matches!(
            self,
            ArbiterAction::Withdraw { .. }
                | ArbiterAction::Reinstate { .. }
                | ArbiterAction::AddTime { .. }
                | ArbiterAction::Result { .. }
                | ArbiterAction::SwapColours { .. }
                | ArbiterAction::Lots { .. }
                | ArbiterAction::TeamResult { .. }
                | ArbiterAction::End
                | ArbiterAction::Cancel
        )
    }
}
