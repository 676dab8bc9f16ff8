//! A tournament's state: the pure fold of its log ([`Book`]), with its row, settings and the
//! log as shown ([`Tour`], what the views need); and the refusals a fold can give.

use std::collections::{BTreeSet, HashMap};

use rookery_store::{Player, PlayerKind, TournamentRow, TournamentStatus, UserId};
use rookery_tournament::arena::{Arena, ArenaError, GameId as ArenaGameId};
use rookery_tournament::competition::{
    Action, Competition, CompetitionError, EntrantId, RoundProblem,
};
use rookery_tournament::PlayerId;
use serde_json::Value;

use super::log::Entry;
use super::settings::{Format, Settings};
use crate::error::ApiError;
use crate::protocol::GameId;

/// A refusal: 409 with the code.
pub fn refused(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::Tournament { code, message: message.into() }
}

pub(super) fn competition_error(e: CompetitionError) -> ApiError {
    let code = match &e {
        CompetitionError::UnknownEntrant(_) => "no_player",
        CompetitionError::DuplicateKey(_) => "already_joined",
        CompetitionError::EntriesClosed => "entries_closed",
        CompetitionError::Round { problem, .. } => match problem {
            RoundProblem::PairedAlready | RoundProblem::NotToPair => "round_paired",
            RoundProblem::PreviousUnfinished => "round_not_finished",
            RoundProblem::HasResults => "round_started",
            RoundProblem::GameHasResult => "has_result",
            RoundProblem::NotNext
            | RoundProblem::NotAwaitingPublication
            | RoundProblem::NotLastPaired
            | RoundProblem::NotPublished
            | RoundProblem::NotPaired => "not_paired",
        },
        CompetitionError::UnknownBoard { .. } => "no_board",
        CompetitionError::TooManyByes { .. } => "too_many_byes",
        CompetitionError::BadPairing(_) | CompetitionError::Pairing(_) => "pairing",
        CompetitionError::Over => "over",
        CompetitionError::TooFewEntrants => "too_few_players",
    };
    refused(code, e.to_string())
}

/// An arena's refusal, its players named (the arena knows them by number only).
pub(super) fn arena_error(e: ArenaError, players: &[ArenaPlayer]) -> ApiError {
    let code = match e {
        ArenaError::Over => "over",
        ArenaError::AlreadyJoined(_) => "already_joined",
        ArenaError::NotJoined(_) => "not_joined",
        ArenaError::NoSuchGame(_)
        | ArenaError::GameOver(_)
        | ArenaError::NotInGame(..)
        | ArenaError::BerserkOff
        | ArenaError::AlreadyBerserk(..) => "berserk_refused",
    };
    let name = |p: PlayerId| {
        players.get(p.index()).map_or_else(|| format!("player {p}"), |x| x.name.clone())
    };
    let message = match e {
        ArenaError::AlreadyJoined(p) => format!("{} is already in the arena", name(p)),
        ArenaError::NotJoined(p) => format!("{} is not in the arena", name(p)),
        ArenaError::NotInGame(g, p) => format!("{} does not play in {g}", name(p)),
        ArenaError::AlreadyBerserk(g, p) => format!("{} is already berserk in {g}", name(p)),
        ArenaError::Over
        | ArenaError::NoSuchGame(_)
        | ArenaError::GameOver(_)
        | ArenaError::BerserkOff => e.to_string(),
    };
    refused(code, message)
}

/// An arena entrant (player numbers from 1).
#[derive(Clone, Debug)]
pub struct ArenaPlayer {
    pub key: String,
    pub name: String,
    pub user_id: i64,
    pub rating: u16,
    pub active: bool,
}

/// The state the log folds into: pure, cloned to try a change before storing it.
#[derive(Clone)]
pub struct Book {
    pub status: TournamentStatus,
    pub comp: Competition,
    pub users: HashMap<String, i64>,
    pub arena: Option<Arena>,
    pub arena_players: Vec<ArenaPlayer>,
    /// Boards whose game was restarted with the colours turned round.
    pub restarted: BTreeSet<(u32, u32)>,
    pub started_at: Option<u64>,
}

/// One entry of the log as shown.
#[derive(Clone, Debug)]
pub struct Shown {
    pub seq: i64,
    pub at_ms: i64,
    pub by: Option<String>,
    pub kind: &'static str,
    pub data: Value,
    pub reason: Option<String>,
}

impl Book {
    pub(super) fn new(settings: &Settings) -> Book {
        Book {
            status: TournamentStatus::Upcoming,
            comp: Competition::new(settings.competition()),
            users: HashMap::new(),
            arena: None,
            arena_players: Vec::new(),
            restarted: BTreeSet::new(),
            started_at: None,
        }
    }

    /// Applies one entry at `at` (Unix ms).
    pub(super) fn fold(
        &mut self,
        settings: &Settings,
        entry: &Entry,
        at: u64,
    ) -> Result<(), ApiError> {
        match entry {
            Entry::Competition(action, user_id) => {
                self.comp.apply(action).map_err(competition_error)?;
                if let (Action::Join { key, .. }, Some(uid)) = (action, user_id) {
                    self.users.insert(key.clone(), *uid);
                }
                if let Action::SwapColours { round, board } = action {
                    self.restarted.insert((*round, *board));
                }
                if let Action::Unpair { round } = action {
                    self.restarted.retain(|(r, _)| r != round);
                }
            }
            Entry::Start => {
                if self.status != TournamentStatus::Upcoming {
                    return Err(refused("not_running", "the tournament has started already"));
                }
                self.status = TournamentStatus::Running;
                self.started_at = Some(at);
                if settings.format == Format::Arena {
                    let mut arena = Arena::new(settings.arena(at), settings.seed)
                        .map_err(|e| refused("not_running", e.to_string()))?;
                    for (i, p) in self.arena_players.iter().enumerate() {
                        if p.active {
                            arena
                                .join(PlayerId::from_index(i), p.rating, at)
                                .map_err(|e| arena_error(e, &self.arena_players))?;
                        }
                    }
                    self.arena = Some(arena);
                }
            }
            Entry::End => self.status = TournamentStatus::Finished,
            Entry::Cancel => self.status = TournamentStatus::Cancelled,
            Entry::AddTime { .. } | Entry::SwapDeclined { .. } => {}
            Entry::ArenaJoin { player, key, name, user_id, rating } => {
                let index = *player as usize - 1;
                if index == self.arena_players.len() {
                    self.arena_players.push(ArenaPlayer {
                        key: key.clone(),
                        name: name.clone(),
                        user_id: *user_id,
                        rating: *rating,
                        active: true,
                    });
                } else if let Some(p) = self.arena_players.get_mut(index) {
                    if p.active && self.arena.is_none() {
                        return Err(refused(
                            "already_joined",
                            format!("{name} has already joined"),
                        ));
                    }
                    p.active = true;
                } else {
                    return Err(refused("no_player", format!("no arena player {player}")));
                }
                if let Some(arena) = &mut self.arena {
                    arena
                        .join(PlayerId::from_index(index), *rating, at)
                        .map_err(|e| arena_error(e, &self.arena_players))?;
                }
            }
            Entry::ArenaLeave { player } => {
                let index = *player as usize - 1;
                if let Some(arena) = &mut self.arena {
                    arena
                        .leave(PlayerId::from_index(index), at)
                        .map_err(|e| arena_error(e, &self.arena_players))?;
                }
                if let Some(p) = self.arena_players.get_mut(index) {
                    p.active = false;
                }
            }
            Entry::ArenaPair { games } => {
                let arena =
                    self.arena.as_mut().ok_or_else(|| refused("not_running", "no arena"))?;
                let paired: Vec<(u32, u32)> =
                    arena.pair(at).iter().map(|g| (g.white.get(), g.black.get())).collect();
                if &paired != games {
                    // The arena is deterministic (seed and times): a stored pairing it would
                    // not make again means the log was not written by this code.
                    return Err(ApiError::Internal(format!(
                        "arena pairing at {at} replays as {paired:?}, stored {games:?}"
                    )));
                }
            }
            Entry::ArenaResult { game, winner, plies } => {
                let arena =
                    self.arena.as_mut().ok_or_else(|| refused("not_running", "no arena"))?;
                arena
                    .finish(ArenaGameId(*game), *winner, *plies, at)
                    .map_err(|e| arena_error(e, &self.arena_players))?;
            }
            Entry::Berserk { game, player } => {
                let arena =
                    self.arena.as_mut().ok_or_else(|| refused("not_running", "no arena"))?;
                arena
                    .berserk(ArenaGameId(*game), PlayerId::from_index(*player as usize - 1))
                    .map_err(|e| arena_error(e, &self.arena_players))?;
            }
        }
        Ok(())
    }
}

/// The tournament: its row, settings, state and log (everything the views need).
pub struct Tour {
    pub row: TournamentRow,
    pub settings: Settings,
    pub book: Book,
    pub log: Vec<Shown>,
    pub names: HashMap<i64, String>,
    /// The games that have a move (not in the log: the games tell their first moves).
    pub started: std::collections::HashSet<String>,
}

impl Tour {
    /// The game id of a round's board (`x`: restarted with the colours turned round).
    pub fn board_game(&self, round: u32, board: u32) -> GameId {
        let x = if self.book.restarted.contains(&(round, board)) { "x" } else { "" };
        GameId::parse(&format!("{}r{round}b{board}{x}", self.row.id))
            .expect("ids of letters and digits")
    }

    /// An arena game's id.
    pub fn arena_game(&self, game: u32) -> GameId {
        GameId::parse(&format!("{}g{game}", self.row.id)).expect("ids of letters and digits")
    }

    /// Which board (round, board) or arena game (None, n) a game id is.
    pub fn seat_of(&self, game: &str) -> Option<(Option<u32>, u32)> {
        let rest = game.strip_prefix(self.row.id.as_str())?;
        if let Some(n) = rest.strip_prefix('g') {
            return Some((None, n.parse().ok()?));
        }
        let rest = rest.strip_prefix('r')?;
        let (round, board) = rest.split_once('b')?;
        let board = board.trim_end_matches('x');
        let (round, board) = (round.parse().ok()?, board.parse().ok()?);
        (self.board_game(round, board).as_str() == game).then_some((Some(round), board))
    }

    /// The account behind an entrant.
    pub fn player_of(&self, entrant: EntrantId) -> Player {
        let e = &self.book.comp.entrants()[entrant.0 as usize];
        Player {
            kind: PlayerKind::User,
            user_id: self.book.users.get(&e.key).map(|&u| UserId(u)),
            name: e.name.clone(),
            engine_level: None,
        }
    }
}
