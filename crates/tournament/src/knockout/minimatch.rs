//! One match of a knockout between two players: its regulations ([`MatchRules`]), and its
//! state ([`Match`]) as game results come in, up to a winner.
//!
//! The rules applied (RULES.md §12: "matches of N games with alternating colours, then
//! tie-break games as the regulations say, last an Armageddon game"):
//!
//! - The classical games come first, then each tie-break stage in the organiser's order, then
//!   the Armageddon game if the regulations have one.
//! - Colours alternate game by game through the whole match, across stages: the higher seed
//!   has [`MatchRules::higher_seed_first`] in game 1, the other colour in game 2, and so on,
//!   whatever stage a game belongs to (with stages of an even number of games, as is usual,
//!   every stage opens with the colours of game 1). A stage may instead open on a colour of
//!   its own ([`Stage::higher_seed_first`]: a new drawing of lots, as some regulations have
//!   it), and the alternation goes on from there.
//! - A stage ends as soon as one player cannot be caught in it: when the difference of the
//!   stage's scores is more than the points its remaining games hold (2–0 or 1½–½ after 2 of
//!   2 games; 1–0 after 1 of 2 is not yet). A stage ending level sends the match to the next
//!   stage; the classical score is level by then, so a stage's winner leads the whole match.
//! - The Armageddon game: White has more time, and a draw wins the match for Black. Its
//!   colours follow [`ArmageddonColours`]: the alternation, or a colour given to the higher
//!   seed (by the regulations, or by a drawing of lots done outside this crate and passed in).
//! - A forfeit (a player who does not turn up for a game) loses the match, not only the game
//!   (the rule this crate applies; regulations that forfeit only the game are not modelled);
//!   the match is then decided [`How::Forfeit`].
//! - Level after every stage with no Armageddon game: the regulations must say what then (a
//!   drawing of lots, another stage): the match waits in [`MatchState::Level`] for
//!   [`Match::decide_by_lot`].

use std::fmt;

use rookery_core::Color;

use crate::model::PlayerId;
use crate::score::Score;

/// The most games one stage may have. A cap on a number typed by hand, far above any
/// regulations (the longest classical knockout matches are of 8 games).
pub const MAX_STAGE_GAMES: u32 = 100;

/// A group of tie-break games at one time control: e.g. two rapid games at `25+10`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Stage {
    /// What the stage is called where it is shown: `rapid`, `blitz`.
    pub name: String,
    /// The number of games, at least 1.
    pub games: u32,
    /// The time control of its games, as the regulations write it: `25+10`.
    pub time_control: String,
    /// The higher seed's colour in the stage's first game when the regulations draw colours
    /// anew for it; `None` (the usual case) to go on alternating from the game before.
    pub higher_seed_first: Option<Color>,
}

impl Stage {
    /// A stage of `games` games at `time_control`, colours going on alternating.
    pub fn new(name: impl Into<String>, games: u32, time_control: impl Into<String>) -> Stage {
        Stage {
            name: name.into(),
            games,
            time_control: time_control.into(),
            higher_seed_first: None,
        }
    }
}

/// Who has which colour in the Armageddon game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ArmageddonColours {
    /// The alternation goes on: the Armageddon game is one more game of the match.
    Alternate,
    /// The higher seed has this colour: what the regulations give the higher seed, or what a
    /// drawing of lots gave (drawn by the organiser, passed in as a value).
    HigherSeed(Color),
}

/// The last game, if the match is still level after every stage: White has more time, Black
/// wins the match on a draw.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Armageddon {
    /// White's time, as the regulations write it: `5` (minutes), `5+2`.
    pub white_time: String,
    /// Black's time, less than White's: `4`, `4+2`.
    pub black_time: String,
    /// Who has White.
    pub colours: ArmageddonColours,
}

/// The regulations of a match: classical games, then tie-break stages, then an optional
/// Armageddon game. Checked when a [`Match`] is made.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MatchRules {
    /// The number of classical games, at least 1.
    pub games: u32,
    /// The classical time control: `90/40+30+30`.
    pub time_control: String,
    /// The higher seed's colour in game 1: the regulations' or a drawing of lots'.
    pub higher_seed_first: Color,
    /// The tie-break stages, in the order they are played. A stage played again if still
    /// level is listed again.
    pub tiebreaks: Vec<Stage>,
    /// The last game, if the match is level after every stage.
    pub armageddon: Option<Armageddon>,
}

impl MatchRules {
    /// `games` classical games at `time_control`, the higher seed White in game 1, with no
    /// tie-breaks yet.
    pub fn classical(games: u32, time_control: impl Into<String>) -> MatchRules {
        MatchRules {
            games,
            time_control: time_control.into(),
            higher_seed_first: Color::White,
            tiebreaks: Vec::new(),
            armageddon: None,
        }
    }

    /// Whether the regulations are playable: every stage of 1 to [`MAX_STAGE_GAMES`] games.
    ///
    /// # Errors
    ///
    /// The first stage that is not.
    pub fn check(&self) -> Result<(), RulesError> {
        let bad = |games: u32| games == 0 || games > MAX_STAGE_GAMES;
        if bad(self.games) {
            return Err(RulesError { phase: Phase::Classical, games: self.games });
        }
        match self.tiebreaks.iter().position(|stage| bad(stage.games)) {
            Some(index) => Err(RulesError {
                phase: Phase::Tiebreak(index + 1),
                games: self.tiebreaks[index].games,
            }),
            None => Ok(()),
        }
    }

    fn stage_games(&self, phase: Phase) -> u32 {
        match phase {
            Phase::Classical => self.games,
            Phase::Tiebreak(n) => self.tiebreaks[n - 1].games,
            Phase::Armageddon => 1,
        }
    }

    fn time_control(&self, phase: Phase) -> String {
        match phase {
            Phase::Classical => self.time_control.clone(),
            Phase::Tiebreak(n) => self.tiebreaks[n - 1].time_control.clone(),
            Phase::Armageddon => {
                let a = self.armageddon.as_ref().expect("an Armageddon phase has its rules");
                format!("White {}, Black {}", a.white_time, a.black_time)
            }
        }
    }

    /// The phase after `phase`, if the regulations have one.
    fn after(&self, phase: Phase) -> Option<Phase> {
        let next = match phase {
            Phase::Classical => Phase::Tiebreak(1),
            Phase::Tiebreak(n) => Phase::Tiebreak(n + 1),
            Phase::Armageddon => return None,
        };
        match next {
            Phase::Tiebreak(n) if n > self.tiebreaks.len() => {
                self.armageddon.as_ref().map(|_| Phase::Armageddon)
            }
            next => Some(next),
        }
    }
}

/// Regulations with a stage of no games, or too many.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RulesError {
    /// The stage.
    pub phase: Phase,
    /// Its number of games.
    pub games: u32,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} has {} games: a stage has 1 to {MAX_STAGE_GAMES}", self.phase, self.games)
    }
}

impl std::error::Error for RulesError {}

/// A part of a match.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Phase {
    /// The classical games.
    Classical,
    /// Tie-break stage `n` (from 1) of [`MatchRules::tiebreaks`].
    Tiebreak(usize),
    /// The Armageddon game.
    Armageddon,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Classical => f.write_str("the classical stage"),
            Phase::Tiebreak(n) => write!(f, "tie-break stage {n}"),
            Phase::Armageddon => f.write_str("the Armageddon game"),
        }
    }
}

/// The result of one game of a match.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// White won (over the board, on time …).
    WhiteWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
    /// The player of this colour did not turn up: they lose the match.
    Forfeit(Color),
}

/// How a match was decided.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum How {
    /// In the classical games.
    Classical,
    /// In tie-break stage `n` (from 1).
    Tiebreak(usize),
    /// In the Armageddon game (a draw counts for Black).
    Armageddon,
    /// A player forfeited a game.
    Forfeit,
    /// Level after every stage: by the organiser's decision (a drawing of lots).
    Lots,
}

impl fmt::Display for How {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            How::Classical => f.write_str("classical"),
            How::Tiebreak(n) => write!(f, "tie-break stage {n}"),
            How::Armageddon => f.write_str("Armageddon"),
            How::Forfeit => f.write_str("forfeit"),
            How::Lots => f.write_str("lots"),
        }
    }
}

/// The game a match plays next.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct NextGame {
    /// The stage it belongs to.
    pub phase: Phase,
    /// Its number in the match, from 1: what [`Match::record`] takes.
    pub game: u32,
    /// Its number in its stage, from 1.
    pub stage_game: u32,
    /// White.
    pub white: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// Its time control, as the regulations write it (for the Armageddon game both times:
    /// `White 5, Black 4`).
    pub time_control: String,
}

/// A decided match.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Decision {
    /// Who goes through.
    pub winner: PlayerId,
    /// Who is out.
    pub loser: PlayerId,
    /// Where it was decided.
    pub how: How,
}

/// Where a match stands.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MatchState {
    /// A game to play.
    Next(NextGame),
    /// Over.
    Decided(Decision),
    /// Level after every stage, and no Armageddon game: the organiser decides
    /// ([`Match::decide_by_lot`]).
    Level,
}

/// A result the match cannot take.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RecordError {
    /// The match is decided already.
    Decided {
        /// The game the result was for.
        game: u32,
        /// The decision.
        decision: Decision,
    },
    /// That game has its result already.
    AlreadyRecorded {
        /// The game.
        game: u32,
    },
    /// Games are recorded in order, and that one is not the next.
    NotNext {
        /// The game the result was for.
        game: u32,
        /// The game to record next.
        next: u32,
    },
    /// The match is level after every stage and has no game left: the organiser decides it
    /// ([`Match::decide_by_lot`]).
    NothingToPlay {
        /// The game the result was for.
        game: u32,
    },
    /// The match is not level after every stage: nothing to draw lots for.
    NotLevel,
    /// The player named is not in the match.
    NotInMatch {
        /// The player.
        player: PlayerId,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RecordError::Decided { game, decision } => write!(
                f,
                "game {game}: the match is over, won by {} ({})",
                decision.winner, decision.how
            ),
            RecordError::AlreadyRecorded { game } => {
                write!(f, "game {game} has its result already")
            }
            RecordError::NotNext { game, next } => {
                write!(f, "game {game} is not the next game: game {next} is")
            }
            RecordError::NothingToPlay { game } => write!(
                f,
                "game {game}: the match is level after every stage and has no game left: \
                 the organiser decides it"
            ),
            RecordError::NotLevel => {
                f.write_str("the match is not level after every stage: no lots to draw")
            }
            RecordError::NotInMatch { player } => write!(f, "player {player} is not in the match"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One game played (or forfeited) in a match.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PlayedGame {
    /// The stage.
    pub phase: Phase,
    /// White.
    pub white: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// The result.
    pub result: GameResult,
}

/// The points of `higher` and of the other player in `games`; an Armageddon draw counts half a
/// point each (it decides the match, not the score), a forfeited game nothing.
fn points(games: &[PlayedGame], higher: PlayerId) -> [Score; 2] {
    let mut score = [Score::ZERO; 2];
    for game in games {
        let (white, black) = match game.result {
            GameResult::WhiteWins => (Score::ONE, Score::ZERO),
            GameResult::Draw => (Score::HALF, Score::HALF),
            GameResult::BlackWins => (Score::ZERO, Score::ONE),
            GameResult::Forfeit(_) => continue,
        };
        let (mine, theirs) = if game.white == higher { (white, black) } else { (black, white) };
        score[0] += mine;
        score[1] += theirs;
    }
    score
}

/// A match between two players, as its games are played.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Match {
    rules: MatchRules,
    /// The higher seed (the lower seed number), then the other.
    players: [PlayerId; 2],
    games: Vec<PlayedGame>,
    state: MatchState,
}

impl Match {
    /// A match between `higher` (the higher seed) and `lower`, under `rules`.
    ///
    /// # Errors
    ///
    /// If the rules have a stage of no games or of too many ([`MatchRules::check`]).
    pub fn new(rules: MatchRules, higher: PlayerId, lower: PlayerId) -> Result<Match, RulesError> {
        rules.check()?;
        let mut m =
            Match { rules, players: [higher, lower], games: Vec::new(), state: MatchState::Level };
        m.state = m.compute_state();
        Ok(m)
    }

    /// The higher seed, then the other.
    pub fn players(&self) -> [PlayerId; 2] {
        self.players
    }

    /// The regulations.
    pub fn rules(&self) -> &MatchRules {
        &self.rules
    }

    /// The games recorded, in order.
    pub fn games(&self) -> &[PlayedGame] {
        &self.games
    }

    /// Where the match stands: the next game, the decision, or level with nothing left.
    pub fn state(&self) -> &MatchState {
        &self.state
    }

    /// The decision, if the match is over.
    pub fn decision(&self) -> Option<Decision> {
        match self.state {
            MatchState::Decided(decision) => Some(decision),
            _ => None,
        }
    }

    /// The points of the higher seed and of the other over every game played; an Armageddon
    /// draw counts half a point each (it decides the match, not the score). A forfeited game
    /// counts nothing.
    pub fn score(&self) -> [Score; 2] {
        points(&self.games, self.players[0])
    }

    /// Records the result of game `game` (from 1), which must be the next game, and returns
    /// where the match stands now.
    ///
    /// # Errors
    ///
    /// If the match is decided or level with nothing left to play, if the game has a result
    /// already, or if it is not the next game. The match is unchanged.
    pub fn record(&mut self, game: u32, result: GameResult) -> Result<&MatchState, RecordError> {
        let recorded = self.games.len() as u32;
        if game >= 1 && game <= recorded {
            return Err(RecordError::AlreadyRecorded { game });
        }
        let next = match &self.state {
            MatchState::Next(next) => next,
            MatchState::Decided(decision) => {
                return Err(RecordError::Decided { game, decision: *decision })
            }
            MatchState::Level => return Err(RecordError::NothingToPlay { game }),
        };
        if game != next.game {
            return Err(RecordError::NotNext { game, next: next.game });
        }
        let next = next.clone();
        self.games.push(PlayedGame {
            phase: next.phase,
            white: next.white,
            black: next.black,
            result,
        });
        self.state = self.compute_state();
        Ok(&self.state)
    }

    /// Decides a match level after every stage (and no Armageddon game) for `winner`: the
    /// organiser's drawing of lots, or whatever else the regulations say.
    ///
    /// # Errors
    ///
    /// If the match is not in [`MatchState::Level`], or `winner` is not one of its players.
    pub fn decide_by_lot(&mut self, winner: PlayerId) -> Result<Decision, RecordError> {
        if self.state != MatchState::Level {
            return Err(RecordError::NotLevel);
        }
        let loser = self.opponent(winner).ok_or(RecordError::NotInMatch { player: winner })?;
        let decision = Decision { winner, loser, how: How::Lots };
        self.state = MatchState::Decided(decision);
        Ok(decision)
    }

    fn opponent(&self, player: PlayerId) -> Option<PlayerId> {
        match self.players {
            [a, b] if a == player => Some(b),
            [a, b] if b == player => Some(a),
            _ => None,
        }
    }

    fn decided(&self, winner: PlayerId, how: How) -> MatchState {
        let loser = self.opponent(winner).expect("the winner is a player of the match");
        MatchState::Decided(Decision { winner, loser, how })
    }

    /// The state after the games recorded: a pure function of the rules and the games.
    fn compute_state(&self) -> MatchState {
        if let Some(last) = self.games.last() {
            if let GameResult::Forfeit(absent) = last.result {
                let present = if absent == Color::White { last.black } else { last.white };
                return self.decided(present, How::Forfeit);
            }
        }
        // Walk the stages: the games of each, until one is unfinished or decided.
        let mut phase = Phase::Classical;
        let mut done = 0usize;
        loop {
            let total = self.rules.stage_games(phase);
            let played = self.games.len().saturating_sub(done).min(total as usize) as u32;
            let [higher, lower] =
                points(&self.games[done..done + played as usize], self.players[0]);
            let left = Score::from_tenths(10 * (total - played));
            let how = match phase {
                Phase::Classical => How::Classical,
                Phase::Tiebreak(n) => How::Tiebreak(n),
                Phase::Armageddon => How::Armageddon,
            };
            if phase == Phase::Armageddon && played == 1 {
                // A draw counts for Black.
                let game = self.games[done];
                let winner =
                    if game.result == GameResult::WhiteWins { game.white } else { game.black };
                return self.decided(winner, how);
            }
            if higher > lower + left {
                return self.decided(self.players[0], how);
            }
            if lower > higher + left {
                return self.decided(self.players[1], how);
            }
            if played < total {
                return MatchState::Next(self.next_game(phase, played + 1));
            }
            done += total as usize;
            match self.rules.after(phase) {
                Some(next) => phase = next,
                None => return MatchState::Level,
            }
        }
    }

    /// The game after the games recorded, the `stage_game`th of `phase`.
    fn next_game(&self, phase: Phase, stage_game: u32) -> NextGame {
        let game = self.games.len() as u32 + 1;
        let higher_colour = self.higher_seed_colour(phase, stage_game, game);
        let [higher, lower] = self.players;
        let (white, black) =
            if higher_colour == Color::White { (higher, lower) } else { (lower, higher) };
        NextGame {
            phase,
            game,
            stage_game,
            white,
            black,
            time_control: self.rules.time_control(phase),
        }
    }

    /// The higher seed's colour in game `game` of the match, the `stage_game`th of `phase`.
    fn higher_seed_colour(&self, phase: Phase, stage_game: u32, game: u32) -> Color {
        let alternate = |first: Color, nth: u32| if nth % 2 == 1 { first } else { first.other() };
        match phase {
            Phase::Armageddon => match self.rules.armageddon.as_ref().map(|a| a.colours) {
                Some(ArmageddonColours::HigherSeed(colour)) => colour,
                _ => self.continued_colour(game),
            },
            Phase::Tiebreak(n) => match self.rules.tiebreaks[n - 1].higher_seed_first {
                Some(first) => alternate(first, stage_game),
                None => self.continued_colour(game),
            },
            Phase::Classical => alternate(self.rules.higher_seed_first, game),
        }
    }

    /// The higher seed's colour in game `game` when it goes on alternating from the game
    /// before (the higher seed's first colour for game 1).
    fn continued_colour(&self, game: u32) -> Color {
        match self.games.get(game as usize - 2) {
            Some(before) if before.white == self.players[0] => Color::Black,
            Some(_) => Color::White,
            None => self.rules.higher_seed_first,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> PlayerId {
        PlayerId::new(n).unwrap()
    }

    /// Two classical games, two rapid, two blitz, then Armageddon (higher seed White).
    fn world_cup() -> MatchRules {
        MatchRules {
            tiebreaks: vec![Stage::new("rapid", 2, "25+10"), Stage::new("blitz", 2, "5+3")],
            armageddon: Some(Armageddon {
                white_time: "5".into(),
                black_time: "4".into(),
                colours: ArmageddonColours::HigherSeed(Color::White),
            }),
            ..MatchRules::classical(2, "90+30")
        }
    }

    fn next(m: &Match) -> NextGame {
        match m.state() {
            MatchState::Next(next) => next.clone(),
            other => panic!("expected a next game, got {other:?}"),
        }
    }

    #[test]
    fn a_match_is_decided_when_the_leader_cannot_be_caught() {
        let mut m = Match::new(world_cup(), id(1), id(8)).unwrap();
        m.record(1, GameResult::WhiteWins).unwrap();
        // 1-0 with one game left: not yet.
        assert_eq!(next(&m).game, 2);
        m.record(2, GameResult::Draw).unwrap();
        assert_eq!(
            m.decision(),
            Some(Decision { winner: id(1), loser: id(8), how: How::Classical })
        );
        assert_eq!(m.score(), [Score::from_tenths(15), Score::HALF]);
    }

    #[test]
    fn a_long_stage_ends_early() {
        let mut m = Match::new(MatchRules::classical(4, "90+30"), id(2), id(3)).unwrap();
        // Seed 3 wins games 1 to 3: 3-0 with one game left.
        m.record(1, GameResult::BlackWins).unwrap();
        m.record(2, GameResult::WhiteWins).unwrap();
        m.record(3, GameResult::BlackWins).unwrap();
        assert_eq!(m.decision().map(|d| d.winner), Some(id(3)));
        assert!(matches!(m.record(4, GameResult::Draw), Err(RecordError::Decided { game: 4, .. })));
    }

    #[test]
    fn level_stages_lead_to_the_tie_breaks_with_colours_alternating() {
        let mut m = Match::new(world_cup(), id(4), id(5)).unwrap();
        let mut seen = Vec::new();
        for game in 1..=6 {
            let n = next(&m);
            seen.push((n.phase, n.stage_game, n.white.get(), n.time_control.clone()));
            m.record(game, GameResult::Draw).unwrap();
        }
        assert_eq!(
            seen,
            [
                (Phase::Classical, 1, 4, "90+30".to_string()),
                (Phase::Classical, 2, 5, "90+30".to_string()),
                (Phase::Tiebreak(1), 1, 4, "25+10".to_string()),
                (Phase::Tiebreak(1), 2, 5, "25+10".to_string()),
                (Phase::Tiebreak(2), 1, 4, "5+3".to_string()),
                (Phase::Tiebreak(2), 2, 5, "5+3".to_string()),
            ]
        );
        let armageddon = next(&m);
        assert_eq!(
            (armageddon.phase, armageddon.white, armageddon.black),
            (Phase::Armageddon, id(4), id(5))
        );
        assert_eq!(armageddon.time_control, "White 5, Black 4");
        // A draw goes to Black.
        m.record(7, GameResult::Draw).unwrap();
        assert_eq!(
            m.decision(),
            Some(Decision { winner: id(5), loser: id(4), how: How::Armageddon })
        );
    }

    #[test]
    fn a_stage_of_odd_length_carries_the_alternation_on() {
        let rules = MatchRules {
            tiebreaks: vec![Stage::new("rapid", 1, "15+10"), Stage::new("blitz", 2, "3+2")],
            armageddon: Some(Armageddon {
                white_time: "5".into(),
                black_time: "4".into(),
                colours: ArmageddonColours::Alternate,
            }),
            higher_seed_first: Color::Black,
            ..MatchRules::classical(1, "90+30")
        };
        let mut m = Match::new(rules, id(1), id(2)).unwrap();
        let mut whites = Vec::new();
        for game in 1..=4 {
            whites.push(next(&m).white.get());
            m.record(game, GameResult::Draw).unwrap();
        }
        assert_eq!(whites, [2, 1, 2, 1]);
        let armageddon = next(&m);
        assert_eq!((armageddon.phase, armageddon.white), (Phase::Armageddon, id(2)));
        m.record(5, GameResult::WhiteWins).unwrap();
        assert_eq!(m.decision().map(|d| (d.winner, d.how)), Some((id(2), How::Armageddon)));
    }

    #[test]
    fn a_stage_may_draw_its_colours_anew() {
        let mut rapid = Stage::new("rapid", 2, "25+10");
        rapid.higher_seed_first = Some(Color::Black);
        let rules = MatchRules { tiebreaks: vec![rapid], ..MatchRules::classical(2, "90+30") };
        let mut m = Match::new(rules, id(1), id(2)).unwrap();
        m.record(1, GameResult::Draw).unwrap();
        m.record(2, GameResult::Draw).unwrap();
        assert_eq!(next(&m).white, id(2));
        m.record(3, GameResult::Draw).unwrap();
        assert_eq!(next(&m).white, id(1));
        // Level after every stage, with no Armageddon: the organiser decides.
        m.record(4, GameResult::Draw).unwrap();
        assert_eq!(m.state(), &MatchState::Level);
        assert_eq!(m.record(5, GameResult::Draw), Err(RecordError::NothingToPlay { game: 5 }));
        assert_eq!(m.decide_by_lot(id(3)), Err(RecordError::NotInMatch { player: id(3) }));
        assert_eq!(m.decide_by_lot(id(2)).unwrap().how, How::Lots);
        assert_eq!(m.decide_by_lot(id(2)), Err(RecordError::NotLevel));
    }

    #[test]
    fn a_forfeit_loses_the_match() {
        let mut m = Match::new(world_cup(), id(1), id(2)).unwrap();
        // Game 1: seed 1 White; game 2: seed 2 White, and seed 2 does not come.
        m.record(1, GameResult::BlackWins).unwrap();
        m.record(2, GameResult::Forfeit(Color::White)).unwrap();
        assert_eq!(m.decision(), Some(Decision { winner: id(1), loser: id(2), how: How::Forfeit }));
    }

    #[test]
    fn bad_results_are_errors_and_change_nothing() {
        let mut m = Match::new(world_cup(), id(1), id(2)).unwrap();
        m.record(1, GameResult::Draw).unwrap();
        let before = m.clone();
        assert_eq!(
            m.record(1, GameResult::WhiteWins),
            Err(RecordError::AlreadyRecorded { game: 1 })
        );
        assert_eq!(
            m.record(3, GameResult::WhiteWins),
            Err(RecordError::NotNext { game: 3, next: 2 })
        );
        assert_eq!(
            m.record(0, GameResult::WhiteWins),
            Err(RecordError::NotNext { game: 0, next: 2 })
        );
        assert_eq!(m, before);
        assert_eq!(
            RecordError::NotNext { game: 3, next: 2 }.to_string(),
            "game 3 is not the next game: game 2 is"
        );
    }

    #[test]
    fn rules_without_games_are_refused() {
        let error = Match::new(MatchRules::classical(0, "90+30"), id(1), id(2)).unwrap_err();
        assert_eq!(error.to_string(), "the classical stage has 0 games: a stage has 1 to 100");
        let rules = MatchRules {
            tiebreaks: vec![Stage::new("rapid", 2, "25+10"), Stage::new("blitz", 0, "5+3")],
            ..MatchRules::classical(2, "90+30")
        };
        assert_eq!(rules.check(), Err(RulesError { phase: Phase::Tiebreak(2), games: 0 }));
    }
}
