//! Knockout (RULES.md §12): a seeded bracket of matches, the winner of each going on, the
//! loser out, until one player is left.
//!
//! - [`Bracket`]: the seeding. Entrants are numbered by seed (1 the strongest); the bracket has
//!   the next power of two of places, the missing entrants are byes for the top seeds, and
//!   seeds 1 and 2 can meet only in the final (see [`Bracket`] for the order).
//! - [`Match`]: one match under its [`MatchRules`]: classical games, tie-break stages, an
//!   Armageddon game; colours alternating; decided as soon as one player cannot be caught.
//!   The colour rules are in [the module's page](minimatch).
//! - [`Knockout`]: the bracket and its matches as results come in: winners placed in the next
//!   round, the matches playable now, the champion, and a view of every round to draw.
//!
//! No randomness and no clock: a drawing of lots (for colours, or to settle a match the
//! regulations leave level) is done by the organiser and passed in as its result.

mod bracket;
pub mod minimatch;

use std::fmt;

pub use bracket::{Bracket, BracketError, MatchId, RoundName, Side, MAX_ENTRANTS};
pub use minimatch::{
    Armageddon, ArmageddonColours, Decision, GameResult, How, Match, MatchRules, MatchState,
    NextGame, Phase, RecordError, RulesError, Stage,
};

use crate::model::PlayerId;
use crate::score::Score;

/// Why a knockout cannot be made or cannot take an action.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum KnockoutError {
    /// No bracket for that many entrants.
    Bracket(BracketError),
    /// The regulations of a round are not playable.
    Rules {
        /// The round.
        round: u32,
        /// What is wrong with them.
        error: RulesError,
    },
    /// A round the bracket does not have.
    NoSuchRound {
        /// The round asked for.
        round: u32,
        /// The number of rounds of the bracket.
        rounds: u32,
    },
    /// The regulations of a round whose matches have begun cannot change.
    RoundBegun {
        /// The round.
        round: u32,
    },
    /// A match the bracket does not have.
    NoSuchMatch {
        /// The match asked for.
        id: MatchId,
    },
    /// A match of a player with a bye: it has no games.
    Bye {
        /// The match.
        id: MatchId,
    },
    /// A match whose players are not both known yet.
    NotReady {
        /// The match.
        id: MatchId,
    },
    /// The match cannot take that result.
    Record {
        /// The match.
        id: MatchId,
        /// Why.
        error: RecordError,
    },
}

impl fmt::Display for KnockoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnockoutError::Bracket(e) => e.fmt(f),
            KnockoutError::Rules { round, error } => write!(f, "round {round}: {error}"),
            KnockoutError::NoSuchRound { round, rounds } => {
                write!(f, "round {round} does not exist: this knockout has rounds 1 to {rounds}")
            }
            KnockoutError::RoundBegun { round } => {
                write!(f, "round {round} has begun: its regulations can no longer change")
            }
            KnockoutError::NoSuchMatch { id } => write!(f, "match {id} does not exist"),
            KnockoutError::Bye { id } => write!(f, "match {id} is a bye: it has no games"),
            KnockoutError::NotReady { id } => {
                write!(f, "match {id} waits for the winners of the round before")
            }
            KnockoutError::Record { id, error } => write!(f, "match {id}: {error}"),
        }
    }
}

impl std::error::Error for KnockoutError {}

impl From<BracketError> for KnockoutError {
    fn from(e: BracketError) -> KnockoutError {
        KnockoutError::Bracket(e)
    }
}

/// One place of the bracket where two sides meet.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Slot {
    sides: [Side; 2],
    /// The players of the sides, once known.
    players: [Option<PlayerId>; 2],
    /// The match, once both players are known and neither side is a bye.
    game: Option<Match>,
}

impl Slot {
    fn is_bye(&self) -> bool {
        self.sides.contains(&Side::Bye)
    }

    /// Who goes on from here: the player with the bye, or the match's winner.
    fn winner(&self) -> Option<PlayerId> {
        if self.is_bye() {
            self.players.into_iter().flatten().next()
        } else {
            self.game.as_ref()?.decision().map(|d| d.winner)
        }
    }
}

/// A knockout in progress: the bracket, the regulations of each round, and every match.
///
/// # Examples
///
/// ```
/// use rookery_tournament::knockout::{GameResult, Knockout, MatchId, MatchRules};
///
/// // Three players: seed 1 has a bye, seeds 2 and 3 play two games.
/// let mut knockout = Knockout::new(3, MatchRules::classical(2, "90+30"))?;
/// let first = MatchId { round: 1, number: 2 };
/// knockout.record(first, 1, GameResult::Draw)?;
/// knockout.record(first, 2, GameResult::WhiteWins)?; // seed 3 has White in game 2
/// let final_ = MatchId { round: 2, number: 1 };
/// assert_eq!(knockout.playable()[0].0, final_);
/// knockout.record(final_, 1, GameResult::WhiteWins)?;
/// knockout.record(final_, 2, GameResult::Draw)?;
/// assert_eq!(knockout.champion().map(|p| p.get()), Some(1));
/// # Ok::<(), rookery_tournament::knockout::KnockoutError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Knockout {
    bracket: Bracket,
    /// The regulations of round `r` at index `r - 1`.
    rules: Vec<MatchRules>,
    /// The slots of round `r` at index `r - 1`, in bracket order.
    rounds: Vec<Vec<Slot>>,
}

impl Knockout {
    /// A knockout of `entrants` players, seeded 1 to `entrants`, every round's matches under
    /// `rules` (change a round's with [`Knockout::set_round_rules`] before it begins). The
    /// round-1 matches are made at once; the byes are through to round 2.
    ///
    /// # Errors
    ///
    /// If there is no bracket of `entrants` ([`Bracket::new`]), or `rules` are not playable.
    pub fn new(entrants: u32, rules: MatchRules) -> Result<Knockout, KnockoutError> {
        let bracket = Bracket::new(entrants)?;
        rules.check().map_err(|error| KnockoutError::Rules { round: 1, error })?;
        let rounds = (1..=bracket.rounds())
            .map(|round| {
                bracket
                    .round(round)
                    .into_iter()
                    .map(|(_, sides)| {
                        let player = |side| match side {
                            Side::Seed(seed) => Some(seed),
                            _ => None,
                        };
                        Slot { sides, players: sides.map(player), game: None }
                    })
                    .collect()
            })
            .collect();
        let mut knockout =
            Knockout { bracket, rules: vec![rules; bracket.rounds() as usize], rounds };
        for number in 1..=bracket.matches_in(1) {
            let id = MatchId { round: 1, number };
            knockout.open(id);
            knockout.settle(id);
        }
        Ok(knockout)
    }

    /// The bracket.
    pub fn bracket(&self) -> &Bracket {
        &self.bracket
    }

    /// The regulations of round `round`, if the bracket has it.
    pub fn round_rules(&self, round: u32) -> Option<&MatchRules> {
        self.rules.get(round.checked_sub(1)? as usize)
    }

    /// Sets the regulations of round `round` (the final often has more games), as long as no
    /// match of it has been made.
    ///
    /// # Errors
    ///
    /// If the round does not exist, a match of it has its two players already, or the rules
    /// are not playable.
    pub fn set_round_rules(&mut self, round: u32, rules: MatchRules) -> Result<(), KnockoutError> {
        let rounds = self.bracket.rounds();
        if round == 0 || round > rounds {
            return Err(KnockoutError::NoSuchRound { round, rounds });
        }
        if self.rounds[round as usize - 1].iter().any(|slot| slot.game.is_some()) {
            return Err(KnockoutError::RoundBegun { round });
        }
        rules.check().map_err(|error| KnockoutError::Rules { round, error })?;
        self.rules[round as usize - 1] = rules;
        Ok(())
    }

    fn slot(&self, id: MatchId) -> Option<&Slot> {
        self.rounds.get(id.round.checked_sub(1)? as usize)?.get(id.number.checked_sub(1)? as usize)
    }

    fn slot_mut(&mut self, id: MatchId) -> Option<&mut Slot> {
        self.rounds
            .get_mut(id.round.checked_sub(1)? as usize)?
            .get_mut(id.number.checked_sub(1)? as usize)
    }

    /// Match `id`, once its two players are known (a bye has none).
    pub fn game(&self, id: MatchId) -> Option<&Match> {
        self.slot(id)?.game.as_ref()
    }

    /// Records the result of game `game` of match `id` and returns where the match stands.
    /// A decided match sends its winner to the next round's match.
    ///
    /// # Errors
    ///
    /// If there is no such match, it is a bye or waits for its players, or the match cannot
    /// take the result ([`Match::record`]). Nothing changes then.
    pub fn record(
        &mut self,
        id: MatchId,
        game: u32,
        result: GameResult,
    ) -> Result<MatchState, KnockoutError> {
        let state = self
            .playing_mut(id)?
            .record(game, result)
            .map_err(|error| KnockoutError::Record { id, error })?
            .clone();
        self.settle(id);
        Ok(state)
    }

    /// Decides match `id`, level after every stage with no Armageddon game, for `winner` (the
    /// organiser's drawing of lots), and sends the winner on.
    ///
    /// # Errors
    ///
    /// As [`Knockout::record`], and if the match is not level or `winner` is not in it.
    pub fn decide_by_lot(
        &mut self,
        id: MatchId,
        winner: PlayerId,
    ) -> Result<Decision, KnockoutError> {
        let decision = self
            .playing_mut(id)?
            .decide_by_lot(winner)
            .map_err(|error| KnockoutError::Record { id, error })?;
        self.settle(id);
        Ok(decision)
    }

    fn playing_mut(&mut self, id: MatchId) -> Result<&mut Match, KnockoutError> {
        let slot = self.slot_mut(id).ok_or(KnockoutError::NoSuchMatch { id })?;
        if slot.is_bye() {
            return Err(KnockoutError::Bye { id });
        }
        slot.game.as_mut().ok_or(KnockoutError::NotReady { id })
    }

    /// If slot `id` has a winner, puts them in the next round and makes that match when both
    /// of its players are known.
    fn settle(&mut self, id: MatchId) {
        let Some(winner) = self.slot(id).and_then(Slot::winner) else { return };
        let Some((next, side)) = id.next(self.bracket.rounds()) else { return };
        self.slot_mut(next).expect("the next match is in the bracket").players[side] = Some(winner);
        self.open(next);
    }

    /// Makes match `id` once both its players are known (the higher seed first), under its
    /// round's rules.
    fn open(&mut self, id: MatchId) {
        let rules = &self.rules[id.round as usize - 1];
        let slot = self.rounds[id.round as usize - 1].get(id.number as usize - 1);
        let Some(Slot { players: [Some(a), Some(b)], game: None, .. }) = slot else { return };
        let game = Match::new(rules.clone(), *a.min(b), *a.max(b)).expect("rules checked when set");
        self.slot_mut(id).expect("the match is in the bracket").game = Some(game);
    }

    /// The first round with a match not decided (byes count as decided); `None` when the
    /// knockout is over.
    pub fn current_round(&self) -> Option<u32> {
        let index = self
            .rounds
            .iter()
            .position(|round| round.iter().any(|slot| slot.winner().is_none()))?;
        Some(index as u32 + 1)
    }

    /// Every match that has a game to play now, with that game, round by round in bracket
    /// order. A match of the next round is here as soon as both its players are known, even
    /// if other matches of the current round go on: when to start it is the organiser's call
    /// (most wait for the round to end; [`Knockout::current_round`] says which that is).
    pub fn playable(&self) -> Vec<(MatchId, NextGame)> {
        self.ids()
            .filter_map(|id| match self.game(id)?.state() {
                MatchState::Next(next) => Some((id, next.clone())),
                _ => None,
            })
            .collect()
    }

    /// The matches level after every stage, waiting for the organiser's decision
    /// ([`Knockout::decide_by_lot`]).
    pub fn level(&self) -> Vec<MatchId> {
        self.ids()
            .filter(|&id| self.game(id).map(Match::state) == Some(&MatchState::Level))
            .collect()
    }

    fn ids(&self) -> impl Iterator<Item = MatchId> + '_ {
        (1..=self.bracket.rounds()).flat_map(move |round| {
            (1..=self.bracket.matches_in(round)).map(move |number| MatchId { round, number })
        })
    }

    /// The winner of the final, once it is decided.
    pub fn champion(&self) -> Option<PlayerId> {
        self.rounds.last()?.first()?.winner()
    }

    /// Every round as a bracket is drawn: each match with its two sides (where they come
    /// from and who they are, once known), its score and its state.
    pub fn view(&self) -> Vec<RoundView> {
        self.rounds
            .iter()
            .zip(1..)
            .map(|(slots, round)| RoundView {
                round,
                name: self.bracket.round_name(round),
                matches: slots
                    .iter()
                    .zip(1..)
                    .map(|(slot, number)| match_view(MatchId { round, number }, slot))
                    .collect(),
            })
            .collect()
    }
}

fn match_view(id: MatchId, slot: &Slot) -> MatchView {
    let (score, status) = match &slot.game {
        _ if slot.is_bye() => (None, MatchStatus::Bye { winner: slot.winner() }),
        None => (None, MatchStatus::Waiting),
        Some(game) => {
            let [higher, lower] = game.score();
            // The match keeps the higher seed first; the view keeps the bracket's sides.
            let score = if slot.players[0] == Some(game.players()[0]) {
                [higher, lower]
            } else {
                [lower, higher]
            };
            let status = match game.state() {
                MatchState::Next(next) => MatchStatus::Playing(next.clone()),
                MatchState::Decided(decision) => MatchStatus::Decided(*decision),
                MatchState::Level => MatchStatus::Level,
            };
            (Some(score), status)
        }
    };
    MatchView { id, sides: slot.sides, players: slot.players, score, status }
}

/// One round of a knockout as a bracket draws it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RoundView {
    /// The round, from 1.
    pub round: u32,
    /// What it is called.
    pub name: RoundName,
    /// Its matches, top of the bracket first.
    pub matches: Vec<MatchView>,
}

/// One match of a knockout as a bracket draws it: two sides, upper first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MatchView {
    /// The match.
    pub id: MatchId,
    /// Where each side comes from.
    pub sides: [Side; 2],
    /// Each side's player, once known (never for a bye).
    pub players: [Option<PlayerId>; 2],
    /// Each side's points so far, once the match is made.
    pub score: Option<[Score; 2]>,
    /// Where the match stands.
    pub status: MatchStatus,
}

/// Where a match of the bracket stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MatchStatus {
    /// One side is a bye: the other goes through without playing.
    Bye {
        /// The player through, `None` only if the bye faces a bye (which standard seeding
        /// never makes).
        winner: Option<PlayerId>,
    },
    /// Waiting for the winners of the round before.
    Waiting,
    /// Being played: the next game.
    Playing(NextGame),
    /// Level after every stage, waiting for the organiser's decision.
    Level,
    /// Over.
    Decided(Decision),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> PlayerId {
        PlayerId::new(n).unwrap()
    }

    const fn m(round: u32, number: u32) -> MatchId {
        MatchId { round, number }
    }

    #[test]
    fn byes_go_through_and_winners_fill_the_next_round() {
        let mut k = Knockout::new(6, MatchRules::classical(2, "90+30")).unwrap();
        assert_eq!(k.current_round(), Some(1));
        let playable: Vec<MatchId> = k.playable().into_iter().map(|(id, _)| id).collect();
        assert_eq!(playable, [m(1, 2), m(1, 3)]);
        assert_eq!(k.record(m(1, 1), 1, GameResult::Draw), Err(KnockoutError::Bye { id: m(1, 1) }));
        assert_eq!(
            k.record(m(2, 1), 1, GameResult::Draw),
            Err(KnockoutError::NotReady { id: m(2, 1) })
        );
        // Seed 5 beats seed 4 (game 1: seed 4 White).
        k.record(m(1, 2), 1, GameResult::BlackWins).unwrap();
        k.record(m(1, 2), 2, GameResult::WhiteWins).unwrap();
        let semi = &k.view()[1].matches[0];
        assert_eq!(semi.players, [Some(id(1)), Some(id(5))]);
        assert_eq!(semi.sides, [Side::Winner(m(1, 1)), Side::Winner(m(1, 2))]);
        assert!(matches!(&semi.status, MatchStatus::Playing(next) if next.white == id(1)));
        // The other semi-final waits for match 1.3.
        assert_eq!(k.view()[1].matches[1].players, [None, Some(id(2))]);
        assert_eq!(k.view()[1].matches[1].status, MatchStatus::Waiting);
        assert_eq!(k.current_round(), Some(1));
    }

    #[test]
    fn the_view_keeps_the_bracket_sides_and_their_scores() {
        let mut k = Knockout::new(8, MatchRules::classical(2, "90+30")).unwrap();
        for number in 1..=4 {
            // The higher seed wins both games.
            let [a, b] = [GameResult::WhiteWins, GameResult::BlackWins];
            k.record(m(1, number), 1, a).unwrap();
            k.record(m(1, number), 2, b).unwrap();
        }
        assert_eq!(k.current_round(), Some(2));
        // Semi-final 2.2 is 3 (upper) against 2 (lower); seed 2 is the higher seed.
        k.record(m(2, 2), 1, GameResult::WhiteWins).unwrap();
        let view = &k.view()[1].matches[1];
        assert_eq!(view.players, [Some(id(3)), Some(id(2))]);
        assert_eq!(view.score, Some([Score::ZERO, Score::ONE]));
        assert_eq!(k.view()[1].name, RoundName::SemiFinal);
    }

    #[test]
    fn a_round_s_rules_change_until_it_begins() {
        let mut k = Knockout::new(4, MatchRules::classical(2, "90+30")).unwrap();
        assert_eq!(
            k.set_round_rules(1, MatchRules::classical(4, "90+30")),
            Err(KnockoutError::RoundBegun { round: 1 })
        );
        k.set_round_rules(2, MatchRules::classical(4, "90+30")).unwrap();
        assert_eq!(
            k.set_round_rules(3, MatchRules::classical(4, "90+30")).unwrap_err().to_string(),
            "round 3 does not exist: this knockout has rounds 1 to 2"
        );
        for number in 1..=2 {
            k.record(m(1, number), 1, GameResult::WhiteWins).unwrap();
            k.record(m(1, number), 2, GameResult::BlackWins).unwrap();
        }
        assert_eq!(k.game(m(2, 1)).unwrap().rules().games, 4);
    }

    #[test]
    fn a_level_match_waits_for_the_lot() {
        let mut k = Knockout::new(2, MatchRules::classical(1, "90+30")).unwrap();
        k.record(m(1, 1), 1, GameResult::Draw).unwrap();
        assert_eq!(k.level(), [m(1, 1)]);
        assert!(k.playable().is_empty());
        assert_eq!(k.champion(), None);
        k.decide_by_lot(m(1, 1), id(2)).unwrap();
        assert_eq!(k.champion(), Some(id(2)));
        assert_eq!(k.current_round(), None);
        assert_eq!(
            k.record(m(1, 1), 2, GameResult::Draw).unwrap_err().to_string(),
            "match 1.1: game 2: the match is over, won by 2 (lots)"
        );
    }
}
