//! A tournament's state: the pure fold of its log ([`Book`]), with its row, settings and the
//! log as shown ([`Tour`], what the views need); and the refusals a fold can give.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rookery_core::ByColor;
use rookery_store::{Player, PlayerKind, TournamentRow, TournamentStatus, UserId};
use rookery_tournament::arena::{Arena, ArenaError, GameId as ArenaGameId};
use rookery_tournament::competition::{
    Action, BoardResult, Competition, CompetitionError, EntrantId,
};
use rookery_tournament::PlayerId;

use super::log::{self, Entry, Join};
use super::refusal::{TournamentError, TournamentRefusal};
use super::settings::{Format, Settings};
use crate::knockout::KnockoutBook;
use crate::log_view::{LogDetail, LogEntryView, LogNames};
use crate::team::TeamBook;
use rookery_protocol::GameId;

/// An arena's refusal, its player named (the arena knows them by number only).
pub(super) fn arena_error(e: ArenaError, players: &[ArenaPlayer]) -> TournamentRefusal {
    let player = match e {
        ArenaError::AlreadyJoined(p)
        | ArenaError::NotJoined(p)
        | ArenaError::NotInGame(_, p)
        | ArenaError::AlreadyBerserk(_, p) => Some(p),
        ArenaError::Over
        | ArenaError::NoSuchGame(_)
        | ArenaError::GameOver(_)
        | ArenaError::BerserkOff => None,
    };
    let name = player.map_or_else(String::new, |p: PlayerId| {
        players.get(p.index()).map_or_else(|| format!("player {p}"), |x| x.name.clone())
    });
    TournamentRefusal::Arena { error: e, name }
}

/// An arena entrant (player numbers from 1).
#[derive(Clone, Debug)]
pub(crate) struct ArenaPlayer {
    /// The account name in lower case.
    pub key: String,
    /// The name shown.
    pub name: String,
    /// The account.
    pub user_id: i64,
    /// The rating it joined with first.
    pub rating: u16,
    /// In the arena now.
    pub active: bool,
}

/// The state the log folds into: pure, cloned to try a change before storing it.
#[derive(Clone)]
pub(crate) struct Book {
    /// Where the tournament is in its life.
    pub status: TournamentStatus,
    /// A Swiss's or round robin's competition.
    pub comp: Competition,
    /// The account of each entrant, by key.
    pub users: HashMap<String, i64>,
    /// An arena's, once started.
    pub arena: Option<Arena>,
    /// An arena's players, by player number less one.
    pub arena_players: Vec<ArenaPlayer>,
    /// Boards whose game was restarted with the colours turned round.
    pub restarted: BTreeSet<(u32, u32)>,
    /// When it started (Unix ms).
    pub started_at: Option<u64>,
    /// A Chess960 tournament's start position of each published round (RULES.md §13).
    pub chess960_starts: BTreeMap<u32, u16>,
    /// The particulars of each entrant entered as a guest (by entrant number), kept once the
    /// guest is linked to an account (the TRF export wants them still).
    pub guests: BTreeMap<u32, log::Guest>,
    /// Each board's incidents (over the board), by (round, board), in the order recorded.
    pub incidents: BTreeMap<(u32, u32), Vec<log::Incident>>,
    /// A knockout's bracket, once seeded (at the start).
    pub knockout: Option<KnockoutBook>,
    /// A team event's teams, line-ups and matches.
    pub team: Option<TeamBook>,
    /// Over the board, the entrants who keep a board (entrant number → board, from 1).
    pub fixed_boards: BTreeMap<u32, u32>,
    /// Over the board, the results the players of a board without one reported, by
    /// (round, board): White's and Black's.
    pub reports: BTreeMap<(u32, u32), ByColor<Option<BoardResult>>>,
}

impl Book {
    pub(crate) fn new(settings: &Settings) -> Book {
        Book {
            status: TournamentStatus::Upcoming,
            comp: Competition::new(settings.competition()),
            users: HashMap::new(),
            arena: None,
            arena_players: Vec::new(),
            restarted: BTreeSet::new(),
            started_at: None,
            chess960_starts: BTreeMap::new(),
            guests: BTreeMap::new(),
            incidents: BTreeMap::new(),
            knockout: None,
            team: settings.format.is_team().then(|| TeamBook::new(settings)),
            fixed_boards: BTreeMap::new(),
            reports: BTreeMap::new(),
        }
    }

    /// A team event's book, or the refusal of an action only a team event takes.
    pub(crate) fn team_mut(&mut self) -> Result<&mut TeamBook, TournamentRefusal> {
        self.team.as_mut().ok_or(TournamentRefusal::WrongFormat("only a team event has teams"))
    }

    /// Applies one entry at `at` (Unix ms).
    pub(crate) fn fold(
        &mut self,
        settings: &Settings,
        entry: &Entry,
        at: u64,
    ) -> Result<(), TournamentError> {
        if let Some(action) = entry.action() {
            self.comp.apply(&action)?;
            match entry {
                Entry::Join(Join { key, user_id: Some(uid), .. }) => {
                    self.users.insert(key.clone(), *uid);
                }
                Entry::Join(Join { guest: Some(guest), .. }) => {
                    let entrant = self.comp.entrants().len() as u32 - 1;
                    self.guests.insert(entrant, guest.clone());
                }
                Entry::Link(l) => {
                    self.users.insert(l.key.clone(), l.user_id);
                }
                Entry::SwapColours(b) => {
                    self.restarted.insert((b.round, b.board));
                }
                Entry::Result(r) => {
                    self.reports.remove(&(r.round, r.board));
                }
                Entry::Unpair(r) => {
                    self.reports.retain(|(round, _), _| *round != r.round);
                    self.restarted.retain(|(round, _)| *round != r.round);
                    self.incidents.retain(|(round, _), _| *round != r.round);
                    self.chess960_starts.remove(&r.round);
                }
                Entry::Publish(log::Publish { round, chess960: Some(n) }) => {
                    self.chess960_starts.insert(*round, *n);
                }
                _ => {}
            }
            return Ok(());
        }
        match entry {
            Entry::Start(_) => {
                if self.status != TournamentStatus::Upcoming {
                    return Err(TournamentRefusal::Started.into());
                }
                if let Some(team) = &mut self.team {
                    team.start()?;
                }
                self.status = TournamentStatus::Running;
                self.started_at = Some(at);
                if settings.format == Format::Arena {
                    let mut arena = Arena::new(settings.arena(at), settings.seed)
                        .map_err(TournamentRefusal::ArenaSettings)?;
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
            Entry::End(_) => self.status = TournamentStatus::Finished,
            Entry::Cancel(_) => self.status = TournamentStatus::Cancelled,
            Entry::AddTime(_) | Entry::SwapDeclined(_) => {}
            Entry::KnockoutSeeded(seeded) => {
                if settings.format != Format::Knockout {
                    return Err(
                        TournamentRefusal::WrongFormat("only a knockout has a bracket").into()
                    );
                }
                if self.status != TournamentStatus::Running || self.knockout.is_some() {
                    return Err(TournamentRefusal::Started.into());
                }
                let entrants = self.comp.entrants().len();
                self.knockout = Some(KnockoutBook::seeded(settings, seeded, entrants)?);
            }
            Entry::KnockoutResult(r) => {
                self.knockout.as_mut().ok_or(TournamentRefusal::NotStarted)?.record(r)?;
            }
            Entry::KnockoutLots(l) => {
                self.knockout.as_mut().ok_or(TournamentRefusal::NotStarted)?.lots(l)?;
            }
            Entry::Team(t) => self.team_mut()?.register(t)?,
            Entry::TeamCaptain(c) => self.team_mut()?.captain(c)?,
            Entry::LineUp(l) => self.team_mut()?.line_up(settings, l)?,
            Entry::TeamPaired(p) => self.team_mut()?.paired(p, at)?,
            Entry::TeamRoundOn(r) => self.team_mut()?.round_on(r)?,
            Entry::TeamAbsent(a) => self.team_mut()?.absent(a)?,
            Entry::ForbidTeamPair(p) => self.team_mut()?.forbid(settings, p, true)?,
            Entry::AllowTeamPair(p) => self.team_mut()?.forbid(settings, p, false)?,
            Entry::TeamUnpair(u) => self.team_mut()?.unpair(u)?,
            Entry::TeamResult(r) => self.team_mut()?.result(r)?,
            Entry::Roster(r) => {
                for join in &r.players {
                    self.fold(settings, &Entry::Join(join.clone()), at)?;
                }
            }
            Entry::CheckIns(c) => {
                for &entrant in &c.entrants {
                    let present = c.present;
                    self.comp.apply(&Action::CheckIn { entrant: EntrantId(entrant), present })?;
                }
            }
            Entry::Report(r) => {
                let board = self
                    .comp
                    .rounds()
                    .get((r.round as usize).wrapping_sub(1))
                    .and_then(|round| round.boards.get((r.board as usize).wrapping_sub(1)))
                    .ok_or(TournamentRefusal::NoBoard { round: r.round, board: r.board })?;
                if board.result.is_some() {
                    return Err(TournamentRefusal::HasResult.into());
                }
                if !r.result.is_played() {
                    return Err(TournamentRefusal::ForfeitReported.into());
                }
                let reports = self.reports.entry((r.round, r.board)).or_default();
                *reports.get_mut(r.color) = Some(r.result);
            }
            Entry::FixBoard(f) => {
                if f.entrant as usize >= self.comp.entrants().len() {
                    return Err(CompetitionError::UnknownEntrant(EntrantId(f.entrant)).into());
                }
                match f.board {
                    Some(board) => self.fixed_boards.insert(f.entrant, board),
                    None => self.fixed_boards.remove(&f.entrant),
                };
            }
            Entry::Incident(i) => {
                self.incidents.entry((i.round, i.board)).or_default().push(i.clone());
            }
            Entry::ArenaJoin(log::ArenaJoin { player, key, name, user_id, rating }) => {
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
                        return Err(TournamentRefusal::AlreadyJoined(name.clone()).into());
                    }
                    p.active = true;
                } else {
                    return Err(TournamentRefusal::NoArenaPlayer(*player).into());
                }
                if let Some(arena) = &mut self.arena {
                    arena
                        .join(PlayerId::from_index(index), *rating, at)
                        .map_err(|e| arena_error(e, &self.arena_players))?;
                }
            }
            Entry::ArenaLeave(log::ArenaPlayer { player }) => {
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
            Entry::ArenaPair(log::ArenaPair { games }) => {
                let arena = self.arena.as_mut().ok_or(TournamentRefusal::NoArena)?;
                let paired: Vec<(u32, u32)> =
                    arena.pair(at).iter().map(|g| (g.white.get(), g.black.get())).collect();
                if &paired != games {
                    // The arena is deterministic (seed and times): a stored pairing it would
                    // not make again means the log was not written by this code.
                    return Err(TournamentError::ArenaReplay { at, paired, stored: games.clone() });
                }
            }
            Entry::ArenaResult(log::ArenaResult { game, winner, plies }) => {
                let arena = self.arena.as_mut().ok_or(TournamentRefusal::NoArena)?;
                arena
                    .finish(ArenaGameId(*game), *winner, *plies, at)
                    .map_err(|e| arena_error(e, &self.arena_players))?;
            }
            Entry::Berserk(log::Berserk { game, player }) => {
                let arena = self.arena.as_mut().ok_or(TournamentRefusal::NoArena)?;
                arena
                    .berserk(ArenaGameId(*game), PlayerId::from_index(*player as usize - 1))
                    .map_err(|e| arena_error(e, &self.arena_players))?;
            }
            e => unreachable!("{e:?} is an action of the competition, folded above"),
        }
        Ok(())
    }

    /// The names of the players `entry` numbers, as the book knows them.
    pub(crate) fn log_names(&self, entry: &Entry) -> LogNames {
        let entrant = |n: u32| self.comp.entrants().get(n as usize).map(|e| e.name.clone());
        let player = |n: u32| {
            let i = (n as usize).checked_sub(1)?;
            self.arena_players.get(i).map(|p| p.name.clone())
        };
        let pairs = |pairs: &[(u32, u32)], name: &dyn Fn(u32) -> Option<String>| {
            Some(pairs.iter().map(|&(w, b)| [name(w), name(b)]).collect())
        };
        let team = |n: u32| Some(self.team.as_ref()?.team(n)?.team.name().to_owned());
        let mut names = LogNames::default();
        match entry {
            Entry::Withdraw(x) | Entry::CancelBye(x) => names.name = entrant(x.entrant),
            Entry::CheckIn(x) => names.name = entrant(x.entrant),
            Entry::FixBoard(x) => names.name = entrant(x.entrant),
            Entry::CheckIns(x) => {
                names.entrant_names = Some(x.entrants.iter().map(|&n| entrant(n)).collect());
            }
            Entry::Link(x) => names.name = entrant(x.entrant),
            Entry::Reinstate(x) => names.name = entrant(x.entrant),
            Entry::Bye(x) => names.name = entrant(x.entrant),
            Entry::ForbidPair(p) | Entry::AllowPair(p) => {
                names.a_name = entrant(p.a);
                names.b_name = entrant(p.b);
            }
            Entry::Paired(p) => {
                names.board_names = pairs(&p.boards, &entrant);
                names.pab_name = p.pab.and_then(entrant);
            }
            Entry::ForbidTeamPair(p) | Entry::AllowTeamPair(p) => {
                names.a_name = team(p.a);
                names.b_name = team(p.b);
            }
            Entry::TeamAbsent(a) => names.name = team(a.team),
            Entry::KnockoutLots(l) => names.name = entrant(l.winner),
            Entry::ArenaLeave(p) => names.name = player(p.player),
            Entry::Berserk(b) => names.name = player(b.player),
            Entry::ArenaPair(g) => names.names = pairs(&g.games, &player),
            _ => {}
        }
        names
    }
}

/// The tournament: its row, settings, state and log (everything the views need).
pub struct Tour {
    /// The stored row.
    pub(crate) row: TournamentRow,
    /// The settings.
    pub(crate) settings: Settings,
    /// The state.
    pub(crate) book: Book,
    /// The log as shown.
    pub(crate) log: Vec<LogEntryView>,
    /// The names of the accounts the log names, by account id.
    pub(crate) names: HashMap<i64, String>,
    /// The games that have a move (not in the log: the games tell their first moves).
    pub(crate) started: std::collections::HashSet<String>,
    /// Over the board in a rated event, what its games did to each account's §11 points (by
    /// account id; from the store, not the log: the ladder awards them).
    pub(crate) ladder: HashMap<i64, rookery_store::LadderSpan>,
}

impl Tour {
    /// `entry`, stored as `stored`, as the log shows it (`by` the name of its author).
    pub fn shown(
        &self,
        stored: &rookery_store::LogEntry,
        entry: Entry,
        by: Option<String>,
    ) -> LogEntryView {
        LogEntryView {
            seq: stored.seq,
            at_ms: stored.at_ms,
            by,
            action: stored.kind.clone(),
            detail: LogDetail { names: self.book.log_names(&entry), data: log::EntryData(entry) },
            reason: stored.reason.clone(),
        }
    }

    /// The game id of a round's board (`x`: restarted with the colours turned round).
    pub fn board_game(&self, round: u32, board: u32) -> GameId {
        let x = if self.book.restarted.contains(&(round, board)) { "x" } else { "" };
        GameId::parse(&format!("{}r{round}b{board}{x}", self.row.id))
            .expect("ids of letters and digits")
    }

    /// The id of game `game` of knockout match `round.number` played on the site.
    pub fn knockout_game(&self, round: u32, number: u32, game: u32) -> GameId {
        GameId::parse(&format!("{}k{round}m{number}g{game}", self.row.id))
            .expect("ids of letters and digits")
    }

    /// The id of board `board` of match `number` of team round `round` played on the site.
    pub fn team_game(&self, round: u32, number: u32, board: u32) -> GameId {
        GameId::parse(&format!("{}t{round}m{number}b{board}", self.row.id))
            .expect("ids of letters and digits")
    }

    /// Which team board (round, match, board) a game id is.
    pub fn team_seat(&self, game: &str) -> Option<(u32, u32, u32)> {
        let rest = game.strip_prefix(self.row.id.as_str())?.strip_prefix('t')?;
        let (round, rest) = rest.split_once('m')?;
        let (number, board) = rest.split_once('b')?;
        let seat = (round.parse().ok()?, number.parse().ok()?, board.parse().ok()?);
        (self.team_game(seat.0, seat.1, seat.2).as_str() == game).then_some(seat)
    }

    /// Which knockout match game (round, match, game) a game id is.
    pub fn knockout_seat(&self, game: &str) -> Option<(u32, u32, u32)> {
        let rest = game.strip_prefix(self.row.id.as_str())?.strip_prefix('k')?;
        let (round, rest) = rest.split_once('m')?;
        let (number, n) = rest.split_once('g')?;
        let seat = (round.parse().ok()?, number.parse().ok()?, n.parse().ok()?);
        (self.knockout_game(seat.0, seat.1, seat.2).as_str() == game).then_some(seat)
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

    /// The account behind an entrant; a guest (an imported player, an entry at the desk)
    /// plays as a player without an account, as a guest of an online casual game does.
    pub fn player_of(&self, entrant: EntrantId) -> Player {
        let e = &self.book.comp.entrants()[entrant.0 as usize];
        let user_id = self.book.users.get(&e.key).map(|&u| UserId(u));
        Player {
            kind: if user_id.is_some() { PlayerKind::User } else { PlayerKind::Anonymous },
            user_id,
            name: e.name.clone(),
            engine_level: None,
        }
    }
}
