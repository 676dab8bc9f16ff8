//! Arena: continuous pairing while the competition runs (RULES.md §12), as lichess's arena
//! tournaments work (lila `modules/tournament`, learned from its design, not its code).
//!
//! An [`Arena`] is a pure state machine driven by timed events; it never reads a clock.
//! Times are milliseconds on the caller's clock (as `rookery-arbiter` takes them), the same
//! clock for every call. The site calls [`Arena::pair`] whenever it likes (lichess does every
//! few seconds); everybody who is in the arena and not playing is paired then, if a good
//! pairing exists (see [`pairing`](self#pairing)).
//!
//! - Players [`join`](Arena::join) and [`leave`](Arena::leave) at any time; a player who left
//!   is not paired, and one who comes back keeps their score, sheet and colour history.
//! - Games end by [`finish`](Arena::finish). A game counts only if it ends before the arena
//!   does; games still running at the end count for nobody (as on lichess, where only games
//!   finished before the end are scored).
//! - Pairing stops a little before the end, when a new game would hardly have time to
//!   finish: lila's window, [`ArenaSettings::pairing_close_window`].
//! - Scoring: 2/1/0 with streaks and berserk as switches ([below](self#scoring)).
//!
//! # Pairing
//!
//! One maximum-weight matching ([`crate::matching`]) of the waiting players, whose weight
//! prefers, in this order (lila `arena/AntmaPairing.scala`, `ColorHistory.scala`):
//!
//! 1. never the opponent of one's last game, unless those two are all the arena has left
//!    (then there is no other choice; lila pairs such a "duel" too);
//! 2. never a fourth game of one colour in a row (lila's `maxStrike = 3`);
//! 3. as many games as possible;
//! 4. no third game of one colour in a row, when a pairing of as many games avoids it;
//! 5. alternation: not two players who both had the same colour last;
//! 6. closeness: `|rank a − rank b| × factor + |rating a − rating b|`, the factor running
//!    from 2,000 for the leader to 300 for the last, so that leaders meet leaders.
//!
//! White goes to whoever had it less recently (the shorter White run or longer Black run,
//! then fewer Whites overall), and only between equal histories to a coin from the seed.
//! With an odd number waiting, whoever became free last waits for the next call (lila's
//! `WaitingUsers.evenNumber`), unless nobody else could be paired without them. Above 100
//! waiting players the list is cut by rank into groups of 100, each matched on its own.
//!
//! # Scoring
//!
//! See [`SheetEntry`] and [`BERSERK_MIN_PLIES`]: 2 a win, 1 a draw; twice that after two wins
//! running (if streaks are on); +1 for a berserk win of at least 7 moves (if berserk is on).

mod pairing;
mod rng;
mod sheet;

use std::collections::BTreeMap;
use std::fmt;

pub use pairing::ColourHistory;
pub use sheet::{ArenaPoints, Sheet, SheetEntry, BERSERK_MIN_PLIES};

use rookery_core::Color;

use crate::model::{Outcome, PlayerId};
use pairing::Candidate;
use rng::SplitMix64;

/// The clock of every game of an arena, in milliseconds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameClock {
    /// The initial time of each side.
    pub initial: u64,
    /// The increment per move.
    pub increment: u64,
}

impl GameClock {
    /// The clock of a player who goes berserk: half the initial time, no increment (lichess).
    pub const fn berserk(self) -> GameClock {
        GameClock { initial: self.initial / 2, increment: 0 }
    }
}

/// What an arena is: when, how long, its games' clock, and the scoring switches.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ArenaSettings {
    /// When the arena starts (ms).
    pub starts_at: u64,
    /// How long it lasts (ms).
    pub duration: u64,
    /// The clock of its games.
    pub clock: GameClock,
    /// Streaks: double points after two wins running.
    pub streaks: bool,
    /// Berserk: a player may halve their clock for a bonus point.
    pub berserk: bool,
}

impl ArenaSettings {
    /// When the arena ends (ms).
    pub const fn ends_at(&self) -> u64 {
        self.starts_at.saturating_add(self.duration)
    }

    /// How long before the end pairing stops: half the initial time, but at least 30 s and
    /// at most 2 min (lila `Tournament.pairingsClosedSeconds`). A game paired later could
    /// seldom finish in time, and would not count.
    pub const fn pairing_close_window(&self) -> u64 {
        let half = self.clock.initial / 2;
        let window = if half < 120_000 { half } else { 120_000 };
        if window > 30_000 {
            window
        } else {
            30_000
        }
    }

    /// When pairing stops (ms): the end minus [`pairing_close_window`](Self::pairing_close_window),
    /// and never before the start.
    pub const fn pairing_closes_at(&self) -> u64 {
        let closes = self.ends_at().saturating_sub(self.pairing_close_window());
        if closes > self.starts_at {
            closes
        } else {
            self.starts_at
        }
    }
}

/// Why settings make no arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ArenaSettingsError {
    /// The duration is zero.
    NoDuration,
    /// The clock gives no time at all (0+0).
    NoClock,
}

impl fmt::Display for ArenaSettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaSettingsError::NoDuration => f.write_str("the arena's duration is zero"),
            ArenaSettingsError::NoClock => f.write_str("the arena's clock is 0+0"),
        }
    }
}

impl std::error::Error for ArenaSettingsError {}

/// A game's number in its arena, from 1, in the order games were paired.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct GameId(pub u32);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.0)
    }
}

/// A game the arena paired.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ArenaGame {
    /// Its number.
    pub id: GameId,
    /// The player with White.
    pub white: PlayerId,
    /// The player with Black.
    pub black: PlayerId,
    /// When it was paired (ms).
    pub paired_at: u64,
}

impl ArenaGame {
    /// The colour `player` has in this game, if they play in it.
    pub fn colour_of(&self, player: PlayerId) -> Option<Color> {
        if player == self.white {
            Some(Color::White)
        } else if player == self.black {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The player with `colour`.
    pub const fn player(&self, colour: Color) -> PlayerId {
        match colour {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameStatus {
    /// Still being played.
    Playing,
    /// Over: the winner (`None`: a draw), its length, and whether it counted (it ended
    /// before the arena did).
    Finished {
        /// The winner's colour, or `None` for a draw.
        winner: Option<Color>,
        /// Half-moves played.
        plies: u32,
        /// Whether it was scored.
        counted: bool,
    },
}

/// What [`Arena::finish`] scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameScore {
    /// Whether the game counted (it ended before the arena).
    pub counted: bool,
    /// White's points from it.
    pub white: ArenaPoints,
    /// Black's points from it.
    pub black: ArenaPoints,
}

/// Why an arena event was refused. The arena is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ArenaError {
    /// The arena is over: nobody joins, leaves or goes berserk.
    Over,
    /// The player is already in the arena.
    AlreadyJoined(PlayerId),
    /// The player is not in the arena (never joined, or left).
    NotJoined(PlayerId),
    /// No game has this number.
    NoSuchGame(GameId),
    /// The game is already over.
    GameOver(GameId),
    /// The player does not play in the game.
    NotInGame(GameId, PlayerId),
    /// Berserk is off in this arena.
    BerserkOff,
    /// The player already went berserk in this game.
    AlreadyBerserk(GameId, PlayerId),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Over => f.write_str("the arena is over"),
            ArenaError::AlreadyJoined(p) => write!(f, "player {p} is already in the arena"),
            ArenaError::NotJoined(p) => write!(f, "player {p} is not in the arena"),
            ArenaError::NoSuchGame(g) => write!(f, "{g} does not exist"),
            ArenaError::GameOver(g) => write!(f, "{g} is already over"),
            ArenaError::NotInGame(g, p) => write!(f, "player {p} does not play in {g}"),
            ArenaError::BerserkOff => f.write_str("berserk is off in this arena"),
            ArenaError::AlreadyBerserk(g, p) => write!(f, "player {p} is already berserk in {g}"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// One line of the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Standing {
    /// Place, from 1: by score, then performance (rating without games), then rating, then
    /// player number (lila's order: score, then performance).
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// The rating the player joined with (the latest join).
    pub rating: u16,
    /// Points: the sum of the sheet.
    pub score: ArenaPoints,
    /// Performance rating over the counted games, if any.
    pub performance: Option<i32>,
    /// Whether the next game would score double.
    pub on_fire: bool,
    /// Whether the player is in the arena now (not left).
    pub active: bool,
    /// The counted games.
    pub sheet: Sheet,
}

#[derive(Clone, Debug)]
struct Entrant {
    rating: u16,
    active: bool,
    playing: Option<GameId>,
    free_since: u64,
    colours: ColourHistory,
    last_opponent: Option<PlayerId>,
    sheet: Sheet,
}

#[derive(Clone, Debug)]
struct GameRecord {
    game: ArenaGame,
    /// White's and Black's berserk.
    berserk: [bool; 2],
    status: GameStatus,
}

/// An arena tournament. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Arena {
    settings: ArenaSettings,
    rng: SplitMix64,
    players: BTreeMap<PlayerId, Entrant>,
    games: Vec<GameRecord>,
}

const fn side(colour: Color) -> usize {
    match colour {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Arena {
    /// A new arena with no players. `seed` drives the only random choice (colours when two
    /// players' histories are equal): the same seed and events give the same games.
    ///
    /// # Errors
    ///
    /// If the duration is zero or the clock is 0+0.
    pub fn new(settings: ArenaSettings, seed: u64) -> Result<Arena, ArenaSettingsError> {
        if settings.duration == 0 {
            return Err(ArenaSettingsError::NoDuration);
        }
        if settings.clock.initial == 0 && settings.clock.increment == 0 {
            return Err(ArenaSettingsError::NoClock);
        }
        Ok(Arena {
            settings,
            rng: SplitMix64::new(seed),
            players: BTreeMap::new(),
            games: Vec::new(),
        })
    }

    /// The settings.
    pub fn settings(&self) -> &ArenaSettings {
        &self.settings
    }

    /// Whether the arena is over at `now`.
    pub fn ended(&self, now: u64) -> bool {
        now >= self.settings.ends_at()
    }

    /// Whether [`pair`](Self::pair) pairs at `now`: after the start and before pairing closes.
    pub fn is_pairing_open(&self, now: u64) -> bool {
        self.settings.starts_at <= now && now < self.settings.pairing_closes_at()
    }

    /// Adds `player` (with `rating`), or brings back a player who left, with their score.
    /// Players may join before the start; they are paired from the start.
    ///
    /// # Errors
    ///
    /// If the arena is over or the player is already in.
    pub fn join(&mut self, player: PlayerId, rating: u16, now: u64) -> Result<(), ArenaError> {
        if self.ended(now) {
            return Err(ArenaError::Over);
        }
        match self.players.get_mut(&player) {
            Some(entrant) if entrant.active => Err(ArenaError::AlreadyJoined(player)),
            Some(entrant) => {
                entrant.active = true;
                entrant.rating = rating;
                if entrant.playing.is_none() {
                    entrant.free_since = now;
                }
                Ok(())
            }
            None => {
                let entrant = Entrant {
                    rating,
                    active: true,
                    playing: None,
                    free_since: now,
                    colours: ColourHistory::default(),
                    last_opponent: None,
                    sheet: Sheet::default(),
                };
                self.players.insert(player, entrant);
                Ok(())
            }
        }
    }

    /// Takes `player` out of pairing. A game they are playing goes on and counts.
    ///
    /// # Errors
    ///
    /// If the arena is over or the player is not in it.
    pub fn leave(&mut self, player: PlayerId, now: u64) -> Result<(), ArenaError> {
        if self.ended(now) {
            return Err(ArenaError::Over);
        }
        match self.players.get_mut(&player) {
            Some(entrant) if entrant.active => {
                entrant.active = false;
                Ok(())
            }
            _ => Err(ArenaError::NotJoined(player)),
        }
    }

    /// Pairs the players who are in the arena and not playing, and returns the new games,
    /// best-ranked board first. Nothing before the start or once pairing has closed.
    pub fn pair(&mut self, now: u64) -> Vec<ArenaGame> {
        if !self.is_pairing_open(now) {
            return Vec::new();
        }
        let ranks = self.ranks();
        let mut candidates: Vec<Candidate> = self
            .players
            .iter()
            .filter(|(_, e)| e.active && e.playing.is_none())
            .map(|(&player, e)| Candidate {
                player,
                rank: ranks[&player],
                rating: e.rating,
                colours: e.colours,
                last_opponent: e.last_opponent,
                free_since: e.free_since,
            })
            .collect();
        candidates.sort_by_key(|c| c.rank);
        let active = self.players.values().filter(|e| e.active).count();
        // "When another choice exists": only when these two are all the arena has left may
        // they meet twice running.
        let rematch_allowed = active == 2 && candidates.len() == 2;
        let pairs = pairing::pair(&candidates, rematch_allowed, &mut self.rng);
        pairs.into_iter().map(|(white, black)| self.start_game(white, black, now)).collect()
    }

    fn start_game(&mut self, white: PlayerId, black: PlayerId, now: u64) -> ArenaGame {
        let id = GameId(u32::try_from(self.games.len() + 1).expect("fewer than 2³² games"));
        let game = ArenaGame { id, white, black, paired_at: now };
        for (player, colour, opponent) in
            [(white, Color::White, black), (black, Color::Black, white)]
        {
            let entrant = self.players.get_mut(&player).expect("candidates are players");
            entrant.playing = Some(id);
            entrant.colours = entrant.colours.push(colour);
            entrant.last_opponent = Some(opponent);
        }
        self.games.push(GameRecord { game, berserk: [false; 2], status: GameStatus::Playing });
        game
    }

    /// `player` goes berserk in `game`: returns the clock they now play with. The site
    /// allows it only before the player's first move (lichess), which the arena cannot see.
    ///
    /// # Errors
    ///
    /// If berserk is off, the game does not exist or is over, the player is not in it, or
    /// already went berserk.
    pub fn berserk(&mut self, game: GameId, player: PlayerId) -> Result<GameClock, ArenaError> {
        if !self.settings.berserk {
            return Err(ArenaError::BerserkOff);
        }
        let record = self.record_mut(game)?;
        if record.status != GameStatus::Playing {
            return Err(ArenaError::GameOver(game));
        }
        let colour = record.game.colour_of(player).ok_or(ArenaError::NotInGame(game, player))?;
        if record.berserk[side(colour)] {
            return Err(ArenaError::AlreadyBerserk(game, player));
        }
        record.berserk[side(colour)] = true;
        Ok(self.settings.clock.berserk())
    }

    /// Ends `game`: `winner` (`None` for a draw) after `plies` half-moves. Both players are
    /// free again. The game is scored if it ended before the arena did.
    ///
    /// # Errors
    ///
    /// If the game does not exist or is already over.
    pub fn finish(
        &mut self,
        game: GameId,
        winner: Option<Color>,
        plies: u32,
        now: u64,
    ) -> Result<GameScore, ArenaError> {
        let counted = !self.ended(now);
        let extras =
            sheet::Extras { streaks: self.settings.streaks, berserk: self.settings.berserk };
        let record = self.record_mut(game)?;
        if record.status != GameStatus::Playing {
            return Err(ArenaError::GameOver(game));
        }
        record.status = GameStatus::Finished { winner, plies, counted };
        let (arena_game, berserk) = (record.game, record.berserk);
        let mut points = [0; 2];
        for colour in [Color::White, Color::Black] {
            let player = arena_game.player(colour);
            let entrant = self.players.get_mut(&player).expect("games are between players");
            entrant.playing = None;
            entrant.free_since = now;
            if counted {
                let outcome = match winner {
                    None => Outcome::Draw,
                    Some(w) if w == colour => Outcome::Win,
                    Some(_) => Outcome::Loss,
                };
                let scored = sheet::Game {
                    game,
                    opponent: arena_game.player(colour.other()),
                    colour,
                    outcome,
                    plies,
                    berserk: berserk[side(colour)],
                };
                let entry = sheet::score(extras, &entrant.sheet, scored);
                points[side(colour)] = entry.points;
                entrant.sheet.0.push(entry);
            }
        }
        Ok(GameScore { counted, white: points[0], black: points[1] })
    }

    fn record_mut(&mut self, game: GameId) -> Result<&mut GameRecord, ArenaError> {
        let index = (game.0 as usize).checked_sub(1).ok_or(ArenaError::NoSuchGame(game))?;
        self.games.get_mut(index).ok_or(ArenaError::NoSuchGame(game))
    }

    /// A game and where it stands.
    pub fn game(&self, game: GameId) -> Option<(ArenaGame, GameStatus)> {
        let record = self.games.get((game.0 as usize).checked_sub(1)?)?;
        Some((record.game, record.status))
    }

    /// The games still being played.
    pub fn playing(&self) -> impl Iterator<Item = ArenaGame> + '_ {
        self.games.iter().filter(|r| r.status == GameStatus::Playing).map(|r| r.game)
    }

    /// Whether `player` went berserk in `game`.
    pub fn is_berserk(&self, game: GameId, player: PlayerId) -> bool {
        self.games
            .get((game.0 as usize).wrapping_sub(1))
            .is_some_and(|r| r.game.colour_of(player).is_some_and(|colour| r.berserk[side(colour)]))
    }

    /// A player's colour history (for the site's display and for tests).
    pub fn colour_history(&self, player: PlayerId) -> Option<ColourHistory> {
        self.players.get(&player).map(|e| e.colours)
    }

    /// The standings: every player who ever joined, best first.
    pub fn standings(&self) -> Vec<Standing> {
        self.ranking()
            .into_iter()
            .enumerate()
            .map(|(index, (player, performance))| {
                let e = &self.players[&player];
                Standing {
                    rank: u32::try_from(index + 1).unwrap_or(u32::MAX),
                    player,
                    rating: e.rating,
                    score: e.sheet.total(),
                    performance,
                    on_fire: self.settings.streaks && e.sheet.is_on_fire(),
                    active: e.active,
                    sheet: e.sheet.clone(),
                }
            })
            .collect()
    }

    /// Every player with their performance, best first: by score, then performance (or
    /// rating before any game, lila's `magicScore`), then rating, then number.
    fn ranking(&self) -> Vec<(PlayerId, Option<i32>)> {
        let rating_of = |p: PlayerId| self.players.get(&p).map_or(0, |e| e.rating);
        let mut keyed: Vec<_> = self
            .players
            .iter()
            .map(|(&player, e)| {
                let performance = e.sheet.performance(rating_of);
                let magic = performance.unwrap_or(i32::from(e.rating));
                ((e.sheet.total(), magic, e.rating), player, performance)
            })
            .collect();
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        keyed.into_iter().map(|(_, player, performance)| (player, performance)).collect()
    }

    fn ranks(&self) -> BTreeMap<PlayerId, u32> {
        (self.ranking().into_iter().zip(1..)).map(|((player, _), rank)| (player, rank)).collect()
    }
}
