//! Why a tournament refuses a request (docs/api.md, "Tournaments"): one variant per cause,
//! each with its API code ([`TournamentRefusal::code`]) and its words (`Display`); and the
//! errors of the tournament host, refusals among them ([`TournamentError`]). The server maps
//! both to HTTP once.

use rookery_protocol::Refusal;
use rookery_store::StoreError;
use rookery_tournament::arena::{ArenaError, ArenaSettingsError};
use rookery_tournament::competition::{CompetitionError, RoundProblem};
use rookery_tournament::knockout::{KnockoutError, RecordError};
use rookery_tournament::team::swiss::TeamSwissError;
use rookery_tournament::team::{LineUpError, TeamError};

use super::log::LogError;

/// A request the tournament refuses in its state, or from this visitor.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentRefusal {
    /// Joining, byes and the arbiter's actions need an account.
    #[error("sign in first")]
    NotSignedIn,
    /// Only the tournament's creator arbitrates it.
    #[error("only the tournament's arbiter (its creator) may")]
    NotArbiter,
    /// The entry password was not given, or not this one.
    #[error("wrong or missing password")]
    WrongPassword,
    /// A player named (`player`) who has not joined.
    #[error("{0:?} has not joined")]
    UnknownPlayer(String),
    /// One of a pair named (`a` or `b`) who has not joined.
    #[error("has not joined")]
    UnknownOfPair(PairSide),
    /// A game id that is not one of this arena's.
    #[error("{0:?} is not a game of this arena")]
    NotArenaGame(String),
    /// An arena game number the arena has not paired.
    #[error("no such game")]
    NoArenaGame,
    /// The competition's own refusal (RULES.md §12).
    #[error("{0}")]
    Competition(CompetitionError),
    /// The arena's own refusal, its player named.
    #[error("{}", arena_words(error, name))]
    Arena {
        /// The arena's error.
        error: ArenaError,
        /// The player it concerns, by name (`player N` for a number without one).
        name: String,
    },
    /// Finished or cancelled: nothing but a correction of a result is taken.
    #[error("the tournament is over")]
    Closed,
    /// A pairing asked for before the start.
    #[error("start the tournament first")]
    NotStarted,
    /// A start asked for twice.
    #[error("the tournament has started already")]
    Started,
    /// An arena's action in a tournament whose arena is not open.
    #[error("no arena")]
    NoArena,
    /// The settings make no arena.
    #[error("{0}")]
    ArenaSettings(ArenaSettingsError),
    /// The player's §11 level is outside the entry conditions.
    #[error(
        "your level ({}) is outside the entry conditions: {}",
        level_name(*level),
        conditions(*min, *max)
    )]
    LevelOutside {
        /// The player's level number (1 best; 31: unranked).
        level: u8,
        /// The best level admitted.
        min: Option<u8>,
        /// The worst level admitted.
        max: Option<u8>,
    },
    /// An entry to an arena whose time is up.
    #[error("the arena is over")]
    ArenaOver,
    /// The visitor is not (or no longer) in the arena.
    #[error("you are not in the arena")]
    NotInArena,
    /// No such board.
    #[error("round {round} has no board {board}")]
    NoBoard {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// An incident naming a player who does not play on the board.
    #[error("{player} does not play on board {board} of round {round}")]
    NotOnBoard {
        /// The name given.
        player: String,
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// A start with fewer than two players.
    #[error("at least two players are needed")]
    TooFewPlayers,
    /// `pair` in an arena.
    #[error("an arena pairs by itself")]
    ArenaPairsItself,
    /// `allow_pair` for two who may meet.
    #[error("these two are not a forbidden pair")]
    NotForbidden,
    /// Time added to a game that is over.
    #[error("the game is over")]
    GameOver,
    /// Time added that the game refused.
    #[error("{0}")]
    TimeRefused(Refusal),
    /// A colour swap of a board with a result.
    #[error("the game has a result")]
    HasResult,
    /// An unpairing of a round one of whose games has started.
    #[error("a game of round {0} has started")]
    RoundStarted(u32),
    /// A colour swap after a quarter of the first period (RULES.md §12).
    #[error("a quarter of the first period is used: the game continues")]
    QuarterUsed,
    /// A second colour swap of one board.
    #[error("this game was restarted once already")]
    RestartedOnce,
    /// Berserk in a game one does not play.
    #[error("you do not play in this game")]
    NotYourGame,
    /// Berserk in a game that is over.
    #[error("the game is over")]
    BerserkTooLate,
    /// Berserk that the game refused (after one's first move).
    #[error("{0}")]
    BerserkRefused(Refusal),
    /// An arena entry twice before the start.
    #[error("{0} has already joined")]
    AlreadyJoined(String),
    /// An arena player number the arena does not have.
    #[error("no arena player {0}")]
    NoArenaPlayer(u32),
    /// A document asked for a round not paired (none of that number).
    #[error("round {0} is not paired")]
    RoundNotPaired(u32),
    /// A result entered as reported from a board, in a tournament whose games are played on
    /// the site (they report their own results; the arbiter decides with `result`).
    #[error("this tournament's games are played on the site: they report their own results")]
    PlayedOnline,
    /// Guests, an imported list or a check-in in a tournament played on the site.
    #[error(
        "this tournament's games are played on the site: its players join with their accounts"
    )]
    OnlineEntries,
    /// A list imported once round 1 is paired.
    #[error("round 1 is paired: add late entries one by one")]
    RosterTooLate,
    /// A guest named as an entrant is already (a list's line, if from a list).
    #[error("{}{name:?} is already entered", line.map_or_else(String::new, |l| format!("line {l}: ")))]
    DuplicateName {
        /// The name.
        name: String,
        /// The line of the list.
        line: Option<u64>,
    },
    /// A link of an entrant who is not a guest (entered with an account, or linked already).
    #[error("{0:?} is not a guest entry")]
    NotGuest(String),
    /// A link to an account that does not exist.
    #[error("no account {0:?}")]
    UnknownAccount(String),
    /// The knockout's own refusal: no such match, a bye, a match decided, a game not the next.
    #[error("{0}")]
    Knockout(KnockoutError),
    /// A result for a match of a bracket round that is not on yet.
    #[error("round {round} of the bracket is not on: a match of round {current} is undecided")]
    KnockoutRoundNotOn {
        /// The round asked for.
        round: u32,
        /// The round being played.
        current: u32,
    },
    /// `--` in a knockout match: a forfeit is one player's, and loses the match.
    #[error("a knockout game is forfeited by one player: +- or -+")]
    DoubleForfeitInMatch,
    /// A player's report of a forfeit: a player reports a game they played; a forfeit is
    /// the arbiter's to enter.
    #[error(
        "a player reports a played game's result: 1-0, 1/2-1/2 or 0-1 (a forfeit is the arbiter's)"
    )]
    ForfeitReported,
    /// A match decided for a player who does not play in it.
    #[error("the winner named does not play in this match")]
    NotInMatch,
    /// A board's moves typed by someone who is neither the arbiter nor one of its two players
    /// (a board with a guest: only the arbiter).
    #[error("only the arbiter or a player of round {round}, board {board} (both with accounts) may type its moves")]
    NotYourBoard {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// A board's moves typed before its result is in.
    #[error("round {round}, board {board} has no result yet: its moves are typed after it")]
    NoResultYet {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// A board's moves typed for a forfeit: no game was played.
    #[error("round {round}, board {board} was not played (a forfeit): it has no moves")]
    ForfeitBoard {
        /// The round.
        round: u32,
        /// The board.
        board: u32,
    },
    /// A typed move that does not read or is not legal: its number and text.
    #[error("{0}")]
    BadMove(rookery_core::scoresheet::MoveListError),
    /// Typed moves ending in a mate or stalemate that the board's result contradicts.
    #[error("the moves end in {ending}, but the board's result is {result}")]
    ContradictsResult {
        /// The end the moves reach (`checkmate, White winning`, `stalemate, a draw`).
        ending: &'static str,
        /// The board's result.
        result: &'static str,
    },
    /// An action of another format: pairing rounds in a knockout, a match's decision in a
    /// Swiss.
    #[error("{0}")]
    WrongFormat(&'static str),
    /// A roster the team rules refuse (no name, too short, a name twice).
    #[error("{0}")]
    Team(TeamError),
    /// A roster longer than the boards and the reserves the regulations allow.
    #[error(
        "team {team:?} lists {players} players: {boards} boards and at most {reserves} reserves"
    )]
    TooManyReserves {
        /// The team.
        team: String,
        /// The players listed.
        players: usize,
        /// The boards.
        boards: u32,
        /// The reserves allowed.
        reserves: u32,
    },
    /// A team name registered already.
    #[error("a team called {0:?} is registered already")]
    DuplicateTeam(String),
    /// A player on the roster of two teams.
    #[error("{player:?} is on the roster of team {team:?} already")]
    PlayerInTwoTeams {
        /// The player.
        player: String,
        /// The team that has them.
        team: String,
    },
    /// Teams are registered before the start.
    #[error("the event has started: teams are registered before it")]
    TeamsClosed,
    /// A team event started with fewer than two teams.
    #[error("at least two teams are needed")]
    TooFewTeams,
    /// A team named that is not registered.
    #[error("no team {0:?}")]
    UnknownTeam(String),
    /// A line-up that breaks the roster's order, names a player not on it, or the wrong count.
    #[error("round {round}: {error}")]
    LineUp {
        /// The round.
        round: u32,
        /// What is wrong.
        error: LineUpError,
    },
    /// A line-up for a round past the event's last.
    #[error("round {round} is past the last round ({rounds})")]
    PastLastRound {
        /// The round asked for.
        round: u32,
        /// The event's rounds.
        rounds: u32,
    },
    /// A line-up for a round already played, or whose match has a result.
    #[error("round {round}: team {team:?}'s line-up is fixed (its match has begun or is over)")]
    LineUpFixed {
        /// The round.
        round: u32,
        /// The team.
        team: String,
    },
    /// A line-up entered by an account that is not the team's captain.
    #[error("only the captain of team {0:?} or the arbiter may enter its line-up")]
    NotCaptain(String),
    /// No such match or board in a team round.
    #[error("round {round} has no match {number} with a board {board}")]
    NoTeamBoard {
        /// The round.
        round: u32,
        /// The match.
        number: u32,
        /// The board.
        board: u32,
    },
    /// A pairing asked for before every board of the round before has its result.
    #[error("round {0} is not finished: every board needs its result first")]
    TeamRoundUnfinished(u32),
    /// The team Swiss system's own refusal (no pairing keeps its absolute criteria, …).
    #[error("{0}")]
    TeamPairing(TeamSwissError),
    /// A team event's pairing stored that is not the next round's, or names a team twice.
    #[error("round {round}: {why}")]
    BadTeamPairing {
        /// The round.
        round: u32,
        /// What is wrong.
        why: String,
    },
    /// Online, a roster's player who is not an account.
    #[error("{0:?} has no account: an online team event's players are accounts")]
    NotAnAccount(String),
    /// An imported list for a team event without a team column.
    #[error("a team event's list needs a team column (team, 队名) naming each player's team")]
    NoTeamColumn,
    /// One of a forbidden team pair (`a` or `b`) that is not registered.
    #[error("no team {name:?}")]
    UnknownTeamOfPair {
        /// Which of the two.
        side: PairSide,
        /// The name given.
        name: String,
    },
    /// A forbidden team pair naming one team twice.
    #[error("{0:?} is named twice: a forbidden pair is two teams")]
    SameTeam(String),
    /// An unpairing of a team round that is not the last paired.
    #[error("round {round} is not the last round paired ({})", last_paired(*last))]
    TeamRoundNotLast {
        /// The round asked for.
        round: u32,
        /// The last round paired (0: none).
        last: u32,
    },
    /// An unpairing of a team round one of whose boards has a result.
    #[error("round {0} has a board with a result: it is played, not to be paired again")]
    TeamRoundBegun(u32),
}

/// The last round paired, in words.
fn last_paired(last: u32) -> String {
    match last {
        0 => "none is paired".to_owned(),
        n => format!("that is round {n}"),
    }
}

/// Which of a forbidden pair's two names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairSide {
    /// `a`.
    A,
    /// `b`.
    B,
}

/// How the edge answers a refusal (docs/api.md): most are 409 with their own code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalClass {
    /// 401 `not_signed_in`.
    NotSignedIn,
    /// 403 `forbidden`.
    Forbidden,
    /// 400 `bad_field`, naming the field.
    BadField(&'static str),
    /// 409 with [`TournamentRefusal::code`].
    Conflict,
}

impl TournamentRefusal {
    /// How the edge answers it.
    pub fn class(&self) -> RefusalClass {
        match self {
            TournamentRefusal::NotSignedIn => RefusalClass::NotSignedIn,
            TournamentRefusal::NotArbiter
            | TournamentRefusal::WrongPassword
            | TournamentRefusal::NotYourBoard { .. } => RefusalClass::Forbidden,
            TournamentRefusal::BadMove(_) => RefusalClass::BadField("moves"),
            TournamentRefusal::UnknownPlayer(_) => RefusalClass::BadField("player"),
            TournamentRefusal::UnknownOfPair(PairSide::A) => RefusalClass::BadField("a"),
            TournamentRefusal::UnknownOfPair(PairSide::B) => RefusalClass::BadField("b"),
            TournamentRefusal::NotArenaGame(_) | TournamentRefusal::NoArenaGame => {
                RefusalClass::BadField("game")
            }
            TournamentRefusal::RoundNotPaired(_) => RefusalClass::BadField("round"),
            TournamentRefusal::UnknownAccount(_) => RefusalClass::BadField("account"),
            TournamentRefusal::NotInMatch => RefusalClass::BadField("winner"),
            TournamentRefusal::DoubleForfeitInMatch | TournamentRefusal::ForfeitReported => {
                RefusalClass::BadField("result")
            }
            TournamentRefusal::Team(TeamError::EmptyName) => RefusalClass::BadField("name"),
            TournamentRefusal::Team(_)
            | TournamentRefusal::TooManyReserves { .. }
            | TournamentRefusal::PlayerInTwoTeams { .. }
            | TournamentRefusal::NotAnAccount(_)
            | TournamentRefusal::LineUp { .. } => RefusalClass::BadField("players"),
            TournamentRefusal::UnknownTeam(_) => RefusalClass::BadField("team"),
            TournamentRefusal::PastLastRound { .. } => RefusalClass::BadField("round"),
            TournamentRefusal::NoTeamColumn => RefusalClass::BadField("text"),
            TournamentRefusal::UnknownTeamOfPair { side: PairSide::A, .. } => {
                RefusalClass::BadField("a")
            }
            TournamentRefusal::UnknownTeamOfPair { side: PairSide::B, .. }
            | TournamentRefusal::SameTeam(_) => RefusalClass::BadField("b"),
            TournamentRefusal::NotCaptain(_) => RefusalClass::Forbidden,
            _ => RefusalClass::Conflict,
        }
    }

    /// The machine code (docs/api.md): a 409's names the state.
    pub fn code(&self) -> &'static str {
        use TournamentRefusal as R;
        match self {
            R::NotSignedIn => "not_signed_in",
            R::NotArbiter | R::WrongPassword | R::NotYourBoard { .. } => "forbidden",
            R::UnknownPlayer(_)
            | R::UnknownOfPair(_)
            | R::NotArenaGame(_)
            | R::NoArenaGame
            | R::RoundNotPaired(_)
            | R::UnknownAccount(_)
            | R::NotInMatch
            | R::DoubleForfeitInMatch
            | R::ForfeitReported
            | R::BadMove(_)
            | R::Team(_)
            | R::TooManyReserves { .. }
            | R::PlayerInTwoTeams { .. }
            | R::LineUp { .. }
            | R::UnknownTeam(_)
            | R::PastLastRound { .. }
            | R::NotAnAccount(_)
            | R::NoTeamColumn
            | R::UnknownTeamOfPair { .. }
            | R::SameTeam(_) => "bad_field",
            R::NotCaptain(_) => "forbidden",
            R::DuplicateTeam(_) => "duplicate_name",
            R::TeamsClosed => "entries_closed",
            R::TooFewTeams => "too_few_players",
            R::LineUpFixed { .. } => "too_late",
            R::NoTeamBoard { .. } => "no_board",
            R::TeamRoundUnfinished(_) => "round_not_finished",
            R::TeamPairing(_) | R::BadTeamPairing { .. } => "pairing",
            R::Competition(e) => competition_code(e),
            R::Arena { error, .. } => match error {
                ArenaError::Over => "over",
                ArenaError::AlreadyJoined(_) => "already_joined",
                ArenaError::NotJoined(_) => "not_joined",
                ArenaError::NoSuchGame(_)
                | ArenaError::GameOver(_)
                | ArenaError::NotInGame(..)
                | ArenaError::BerserkOff
                | ArenaError::AlreadyBerserk(..) => "berserk_refused",
            },
            R::Closed | R::NotStarted | R::Started | R::NoArena | R::ArenaSettings(_) => {
                "not_running"
            }
            R::LevelOutside { .. } => "level_outside",
            R::ArenaOver => "entries_closed",
            R::NotInArena => "not_joined",
            R::NoBoard { .. } => "no_board",
            R::NotOnBoard { .. } => "not_on_board",
            R::TooFewPlayers => "too_few_players",
            R::ArenaPairsItself => "not_paired",
            R::NotForbidden => "not_forbidden",
            R::GameOver | R::TimeRefused(_) | R::HasResult => "has_result",
            R::RoundStarted(_) | R::TeamRoundBegun(_) => "round_started",
            R::TeamRoundNotLast { .. } => "not_paired",
            R::QuarterUsed | R::RestartedOnce => "too_late",
            R::NotYourGame | R::BerserkTooLate | R::BerserkRefused(_) => "berserk_refused",
            R::AlreadyJoined(_) => "already_joined",
            R::NoArenaPlayer(_) => "no_player",
            R::PlayedOnline | R::OnlineEntries => "played_online",
            R::RosterTooLate => "round_paired",
            R::DuplicateName { .. } => "duplicate_name",
            R::NotGuest(_) => "not_guest",
            R::Knockout(e) => knockout_code(e),
            R::KnockoutRoundNotOn { .. } => "round_not_finished",
            R::WrongFormat(_) => "wrong_format",
            R::NoResultYet { .. } => "no_result",
            R::ForfeitBoard { .. } => "forfeit",
            R::ContradictsResult { .. } => "contradicts_result",
        }
    }
}

/// The code of the knockout's refusal.
fn knockout_code(e: &KnockoutError) -> &'static str {
    match e {
        KnockoutError::Bracket(_) => "too_few_players",
        KnockoutError::Rules { .. } | KnockoutError::RoundBegun { .. } => "pairing",
        KnockoutError::NoSuchRound { .. }
        | KnockoutError::NoSuchMatch { .. }
        | KnockoutError::Bye { .. } => "no_board",
        KnockoutError::NotReady { .. } => "round_not_finished",
        KnockoutError::Record { error, .. } => match error {
            RecordError::Decided { .. } | RecordError::AlreadyRecorded { .. } => "has_result",
            RecordError::NotNext { .. } => "not_next",
            RecordError::NothingToPlay { .. } => "match_level",
            RecordError::NotLevel | RecordError::NotInMatch { .. } => "not_level",
        },
    }
}

/// The code of the competition's refusal.
fn competition_code(e: &CompetitionError) -> &'static str {
    match e {
        CompetitionError::UnknownEntrant(_) => "no_player",
        CompetitionError::DuplicateKey(_) => "already_joined",
        CompetitionError::EntriesClosed => "entries_closed",
        CompetitionError::Round { problem, .. } => match problem {
            RoundProblem::PairedAlready | RoundProblem::NotToPair => "round_paired",
            RoundProblem::PreviousUnfinished => "round_not_finished",
            RoundProblem::HasResults => "round_started",
            RoundProblem::GameHasResult => "has_result",
            RoundProblem::NoResult => "no_result",
            RoundProblem::OtherResult => "other_result",
            RoundProblem::NotNext
            | RoundProblem::NotAwaitingPublication
            | RoundProblem::NotLastPaired
            | RoundProblem::NotPublished
            | RoundProblem::NotPaired => "not_paired",
        },
        CompetitionError::UnknownBoard { .. } => "no_board",
        CompetitionError::TooManyByes { .. } => "too_many_byes",
        CompetitionError::BadPairing(_)
        | CompetitionError::Pairing(_)
        | CompetitionError::Acceleration(_) => "pairing",
        CompetitionError::Over => "over",
        CompetitionError::TooFewEntrants => "too_few_players",
    }
}

fn arena_words(e: &ArenaError, name: &str) -> String {
    match e {
        ArenaError::AlreadyJoined(_) => format!("{name} is already in the arena"),
        ArenaError::NotJoined(_) => format!("{name} is not in the arena"),
        ArenaError::NotInGame(g, _) => format!("{name} does not play in {g}"),
        ArenaError::AlreadyBerserk(g, _) => format!("{name} is already berserk in {g}"),
        ArenaError::Over
        | ArenaError::NoSuchGame(_)
        | ArenaError::GameOver(_)
        | ArenaError::BerserkOff => e.to_string(),
    }
}

fn level_name(level: u8) -> String {
    if level > 30 {
        "unranked".to_owned()
    } else {
        format!("level {level}")
    }
}

fn conditions(min: Option<u8>, max: Option<u8>) -> String {
    let wanted =
        [min.map(|l| format!("level {l} or better")), max.map(|l| format!("level {l} or worse"))];
    wanted.into_iter().flatten().collect::<Vec<_>>().join(" and ")
}

impl From<CompetitionError> for TournamentRefusal {
    fn from(e: CompetitionError) -> TournamentRefusal {
        TournamentRefusal::Competition(e)
    }
}

/// What goes wrong in the tournament host: a refusal, or a fault (the store, a stored log
/// that does not read, the game host).
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// A refusal, told to the client.
    #[error(transparent)]
    Refused(#[from] TournamentRefusal),
    /// A stored log entry does not read.
    #[error("tournament {tournament}: {error}")]
    Log {
        /// The tournament.
        tournament: String,
        /// Why.
        error: LogError,
    },
    /// Stored settings that do not read.
    #[error("tournament {tournament}: settings: {error}")]
    Settings {
        /// The tournament.
        tournament: String,
        /// Why.
        error: String,
    },
    /// The arena is deterministic (seed and times): a stored pairing it would not make again
    /// means the log was not written by this code.
    #[error("arena pairing at {at} replays as {paired:?}, stored {stored:?}")]
    ArenaReplay {
        /// When.
        at: u64,
        /// What the arena pairs now.
        paired: Vec<(u32, u32)>,
        /// What the log says.
        stored: Vec<(u32, u32)>,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// On a cluster, another node runs the tournament.
    #[error("the tournament is run by node {0:?}")]
    Elsewhere(String),
    /// On a cluster, another node claimed the tournament: this node's claim is stale, and
    /// its write changed nothing.
    #[error("tournament {0:?} was claimed by another node: this node's claim is stale")]
    FencedOut(String),
    /// The tournament's actor has ended (the server stops, or another node took it).
    #[error("the tournament's actor has ended")]
    Ended,
    /// A tournament over (or gone) that was to be run.
    #[error("tournament {0:?} is over")]
    Over(String),
    /// A tournament just created is not in the store.
    #[error("tournament {0:?} is gone")]
    Gone(String),
    /// The live games failed to create or reach a game.
    #[error("games: {0}")]
    Games(String),
}

impl From<CompetitionError> for TournamentError {
    fn from(e: CompetitionError) -> TournamentError {
        TournamentError::Refused(e.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_tournament::arena::GameId;
    use rookery_tournament::competition::{EntrantId, PairingProblem};
    use rookery_tournament::knockout::MatchId;
    use rookery_tournament::PlayerId;

    /// One of each refusal: its class, code and words; every 409's code is in docs/api.md.
    #[test]
    fn each_refusal_has_its_class_code_and_words() {
        use RefusalClass::{BadField, Conflict, Forbidden};
        use TournamentRefusal as R;
        let p = PlayerId::from_index(2);
        let cases = [
            (R::NotSignedIn, RefusalClass::NotSignedIn, "not_signed_in", "sign in first"),
            (
                R::NotArbiter,
                Forbidden,
                "forbidden",
                "only the tournament's arbiter (its creator) may",
            ),
            (R::WrongPassword, Forbidden, "forbidden", "wrong or missing password"),
            (
                R::UnknownPlayer("Bob".into()),
                BadField("player"),
                "bad_field",
                "\"Bob\" has not joined",
            ),
            (R::UnknownOfPair(PairSide::A), BadField("a"), "bad_field", "has not joined"),
            (R::UnknownOfPair(PairSide::B), BadField("b"), "bad_field", "has not joined"),
            (
                R::NotArenaGame("x1".into()),
                BadField("game"),
                "bad_field",
                "\"x1\" is not a game of this arena",
            ),
            (R::NoArenaGame, BadField("game"), "bad_field", "no such game"),
            (
                R::Competition(CompetitionError::EntriesClosed),
                Conflict,
                "entries_closed",
                "entries are closed",
            ),
            (
                R::Competition(CompetitionError::Round {
                    round: 3,
                    problem: RoundProblem::PairedAlready,
                }),
                Conflict,
                "round_paired",
                "round 3: is paired already",
            ),
            (
                R::Competition(CompetitionError::Round {
                    round: 1,
                    problem: RoundProblem::OtherResult,
                }),
                Conflict,
                "other_result",
                "round 1: the board has another result now",
            ),
            (
                R::Competition(CompetitionError::TooManyByes {
                    entrant: EntrantId(2),
                    name: "Cleo".into(),
                    limit: 1,
                }),
                Conflict,
                "too_many_byes",
                "Cleo has asked for the 1 bye allowed",
            ),
            (
                R::Competition(CompetitionError::BadPairing(PairingProblem::PairedTwice {
                    entrant: EntrantId(2),
                    name: "Cleo".into(),
                })),
                Conflict,
                "pairing",
                "not a pairing: Cleo is paired twice",
            ),
            (
                R::Competition(CompetitionError::Round {
                    round: 2,
                    problem: RoundProblem::PreviousUnfinished,
                }),
                Conflict,
                "round_not_finished",
                "round 2: the round before is not finished",
            ),
            (
                R::Arena { error: ArenaError::NotInGame(GameId(4), p), name: "cat".into() },
                Conflict,
                "berserk_refused",
                "cat does not play in game 4",
            ),
            (
                R::Arena { error: ArenaError::Over, name: String::new() },
                Conflict,
                "over",
                "the arena is over",
            ),
            (R::Closed, Conflict, "not_running", "the tournament is over"),
            (R::NotStarted, Conflict, "not_running", "start the tournament first"),
            (R::Started, Conflict, "not_running", "the tournament has started already"),
            (R::NoArena, Conflict, "not_running", "no arena"),
            (R::ArenaOver, Conflict, "entries_closed", "the arena is over"),
            (R::NotInArena, Conflict, "not_joined", "you are not in the arena"),
            (R::NoBoard { round: 3, board: 9 }, Conflict, "no_board", "round 3 has no board 9"),
            (
                R::NotOnBoard { player: "Li Wei".into(), round: 2, board: 4 },
                Conflict,
                "not_on_board",
                "Li Wei does not play on board 4 of round 2",
            ),
            (
                R::PlayedOnline,
                Conflict,
                "played_online",
                "this tournament's games are played on the site: they report their own results",
            ),
            (R::RoundNotPaired(7), BadField("round"), "bad_field", "round 7 is not paired"),
            (
                R::OnlineEntries,
                Conflict,
                "played_online",
                "this tournament's games are played on the site: its players join with their accounts",
            ),
            (
                R::RosterTooLate,
                Conflict,
                "round_paired",
                "round 1 is paired: add late entries one by one",
            ),
            (
                R::DuplicateName { name: "Li, Wei".into(), line: Some(4) },
                Conflict,
                "duplicate_name",
                "line 4: \"Li, Wei\" is already entered",
            ),
            (
                R::DuplicateName { name: "Ann".into(), line: None },
                Conflict,
                "duplicate_name",
                "\"Ann\" is already entered",
            ),
            (R::NotGuest("ann".into()), Conflict, "not_guest", "\"ann\" is not a guest entry"),
            (R::UnknownAccount("zed".into()), BadField("account"), "bad_field", "no account \"zed\""),
            (R::TooFewPlayers, Conflict, "too_few_players", "at least two players are needed"),
            (R::ArenaPairsItself, Conflict, "not_paired", "an arena pairs by itself"),
            (R::NotForbidden, Conflict, "not_forbidden", "these two are not a forbidden pair"),
            (R::GameOver, Conflict, "has_result", "the game is over"),
            (R::TimeRefused(Refusal::GameOver), Conflict, "has_result", "the game is over"),
            (R::HasResult, Conflict, "has_result", "the game has a result"),
            (R::RoundStarted(4), Conflict, "round_started", "a game of round 4 has started"),
            (
                R::QuarterUsed,
                Conflict,
                "too_late",
                "a quarter of the first period is used: the game continues",
            ),
            (R::RestartedOnce, Conflict, "too_late", "this game was restarted once already"),
            (R::NotYourGame, Conflict, "berserk_refused", "you do not play in this game"),
            (R::BerserkTooLate, Conflict, "berserk_refused", "the game is over"),
            (R::AlreadyJoined("Ann".into()), Conflict, "already_joined", "Ann has already joined"),
            (R::NoArenaPlayer(7), Conflict, "no_player", "no arena player 7"),
            (
                R::Knockout(KnockoutError::NoSuchMatch { id: MatchId { round: 1, number: 5 } }),
                Conflict,
                "no_board",
                "match 1.5 does not exist",
            ),
            (
                R::Knockout(KnockoutError::Record {
                    id: MatchId { round: 1, number: 2 },
                    error: RecordError::NotNext { game: 4, next: 3 },
                }),
                Conflict,
                "not_next",
                "match 1.2: game 4 is not the next game: game 3 is",
            ),
            (
                R::Knockout(KnockoutError::Record {
                    id: MatchId { round: 2, number: 1 },
                    error: RecordError::NothingToPlay { game: 3 },
                }),
                Conflict,
                "match_level",
                "match 2.1: game 3: the match is level after every stage and has no game left: \
                 the organiser decides it",
            ),
            (
                R::Knockout(KnockoutError::Record {
                    id: MatchId { round: 2, number: 1 },
                    error: RecordError::NotLevel,
                }),
                Conflict,
                "not_level",
                "match 2.1: the match is not level after every stage: no lots to draw",
            ),
            (
                R::KnockoutRoundNotOn { round: 2, current: 1 },
                Conflict,
                "round_not_finished",
                "round 2 of the bracket is not on: a match of round 1 is undecided",
            ),
            (
                R::DoubleForfeitInMatch,
                BadField("result"),
                "bad_field",
                "a knockout game is forfeited by one player: +- or -+",
            ),
            (
                R::NotInMatch,
                BadField("winner"),
                "bad_field",
                "the winner named does not play in this match",
            ),
            (R::WrongFormat("not here"), Conflict, "wrong_format", "not here"),
            (
                R::NotYourBoard { round: 2, board: 3 },
                Forbidden,
                "forbidden",
                "only the arbiter or a player of round 2, board 3 (both with accounts) may type \
                 its moves",
            ),
            (
                R::NoResultYet { round: 2, board: 3 },
                Conflict,
                "no_result",
                "round 2, board 3 has no result yet: its moves are typed after it",
            ),
            (
                R::ForfeitBoard { round: 2, board: 3 },
                Conflict,
                "forfeit",
                "round 2, board 3 was not played (a forfeit): it has no moves",
            ),
            (
                R::BadMove(rookery_core::scoresheet::MoveListError {
                    ply: 3,
                    number: 2,
                    color: rookery_core::Color::Black,
                    error: rookery_core::scoresheet::TypedMoveError::Ambiguous {
                        text: "Nd7".into(),
                        candidates: vec!["Nbd7".into(), "Nfd7".into()],
                    },
                }),
                BadField("moves"),
                "bad_field",
                "move 2... \"Nd7\" is ambiguous: Nbd7 or Nfd7",
            ),
            (
                R::ContradictsResult { ending: "stalemate, a draw", result: "1-0" },
                Conflict,
                "contradicts_result",
                "the moves end in stalemate, a draw, but the board's result is 1-0",
            ),
            (R::TooFewTeams, Conflict, "too_few_players", "at least two teams are needed"),
            (
                R::DuplicateTeam("Lions".into()),
                Conflict,
                "duplicate_name",
                "a team called \"Lions\" is registered already",
            ),
            (
                R::TeamsClosed,
                Conflict,
                "entries_closed",
                "the event has started: teams are registered before it",
            ),
            (
                R::LineUpFixed { round: 2, team: "Lions".into() },
                Conflict,
                "too_late",
                "round 2: team \"Lions\"'s line-up is fixed (its match has begun or is over)",
            ),
            (
                R::NoTeamBoard { round: 1, number: 4, board: 1 },
                Conflict,
                "no_board",
                "round 1 has no match 4 with a board 1",
            ),
            (
                R::TeamRoundUnfinished(1),
                Conflict,
                "round_not_finished",
                "round 1 is not finished: every board needs its result first",
            ),
            (
                R::NotCaptain("Lions".into()),
                Forbidden,
                "forbidden",
                "only the captain of team \"Lions\" or the arbiter may enter its line-up",
            ),
            (R::UnknownTeam("Foxes".into()), BadField("team"), "bad_field", "no team \"Foxes\""),
            (
                R::NoTeamColumn,
                BadField("text"),
                "bad_field",
                "a team event's list needs a team column (team, 队名) naming each player's team",
            ),
            (
                R::PastLastRound { round: 6, rounds: 5 },
                BadField("round"),
                "bad_field",
                "round 6 is past the last round (5)",
            ),
            (
                R::UnknownTeamOfPair { side: PairSide::B, name: "Foxes".into() },
                BadField("b"),
                "bad_field",
                "no team \"Foxes\"",
            ),
            (
                R::SameTeam("Lions".into()),
                BadField("b"),
                "bad_field",
                "\"Lions\" is named twice: a forbidden pair is two teams",
            ),
            (
                R::TeamRoundNotLast { round: 1, last: 2 },
                Conflict,
                "not_paired",
                "round 1 is not the last round paired (that is round 2)",
            ),
            (
                R::TeamRoundNotLast { round: 1, last: 0 },
                Conflict,
                "not_paired",
                "round 1 is not the last round paired (none is paired)",
            ),
            (
                R::TeamRoundBegun(3),
                Conflict,
                "round_started",
                "round 3 has a board with a result: it is played, not to be paired again",
            ),
        ];
        // docs/api.md's "Error codes" table: its tournament rows are exactly the 409 codes.
        let docs =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md"))
                .unwrap();
        let table = docs.split("## Error codes").nth(1).unwrap().split("\n## ").next().unwrap();
        let documented: std::collections::BTreeSet<&str> = table
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split_once("` | 409 | "))
            .filter(|(_, meaning)| {
                meaning.starts_with("tournament:") || meaning.starts_with("arena:")
            })
            .map(|(code, _)| code)
            .collect();
        let mut conflicts = std::collections::BTreeSet::new();
        for (r, class, code, words) in cases {
            assert_eq!(
                (r.class(), r.code(), r.to_string().as_str()),
                (class, code, words),
                "{r:?}"
            );
            if class == Conflict {
                conflicts.insert(code);
            }
        }
        assert_eq!(conflicts, documented, "docs/api.md, Error codes: the tournaments' rows");
    }

    /// The level condition's words (docs/api.md, `join`).
    #[test]
    fn a_level_outside_the_conditions_is_said_in_words() {
        let r = TournamentRefusal::LevelOutside { level: 31, min: Some(20), max: None };
        assert_eq!(
            r.to_string(),
            "your level (unranked) is outside the entry conditions: level 20 or better"
        );
        assert_eq!(r.code(), "level_outside");
        let r = TournamentRefusal::LevelOutside { level: 12, min: Some(3), max: Some(10) };
        assert_eq!(
            r.to_string(),
            "your level (level 12) is outside the entry conditions: level 3 or better and level 10 or worse"
        );
    }
}
