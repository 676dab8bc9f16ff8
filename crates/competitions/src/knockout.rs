//! A knockout on the site (RULES.md §12, *Knockout*; issue 54): the pure crate's
//! [`Knockout`] (bracket, byes, each match's state machine) with the entrants behind its
//! seeds, folded from the log; and the bracket as the API shows it.
//!
//! The bracket is seeded once, at the start, by rating (seed 1 the highest; ties by entry
//! order): 1 v N, the byes to the top seeds. A round of the bracket is on once every match of
//! the round before is decided: results for a later round's match are refused until then,
//! even when both its players are known.

use rookery_tournament::competition::{BoardResult, EntrantId};
use rookery_tournament::knockout::{
    GameResult, How, Knockout, KnockoutError, MatchId, MatchStatus, NextGame, Phase, RoundName,
    Side,
};
use rookery_tournament::PlayerId;
use serde::Serialize;

use crate::log::{result_name, KnockoutLots, KnockoutResult, KnockoutSeeded};
use crate::refusal::TournamentRefusal;
use crate::settings::Settings;

/// A knockout under way: its entrants by seed and the bracket.
#[derive(Clone, Debug)]
pub(crate) struct KnockoutBook {
    /// The entrant of seed `s` at index `s - 1`.
    seeds: Vec<EntrantId>,
    bracket: Knockout,
}

impl KnockoutBook {
    /// The bracket of `seeded`, under the settings' match regulations.
    pub(crate) fn seeded(
        settings: &Settings,
        seeded: &KnockoutSeeded,
        entrants: usize,
    ) -> Result<KnockoutBook, TournamentRefusal> {
        let mut seen = std::collections::BTreeSet::new();
        if let Some(&bad) =
            seeded.seeds.iter().find(|&&n| n as usize >= entrants || !seen.insert(n))
        {
            return Err(TournamentRefusal::Competition(
                rookery_tournament::competition::CompetitionError::UnknownEntrant(EntrantId(bad)),
            ));
        }
        let bracket = Knockout::new(seeded.seeds.len() as u32, settings.match_rules())
            .map_err(TournamentRefusal::Knockout)?;
        Ok(KnockoutBook { seeds: seeded.seeds.iter().copied().map(EntrantId).collect(), bracket })
    }

    /// The entrant behind seed `player`.
    pub(crate) fn entrant(&self, player: PlayerId) -> EntrantId {
        self.seeds[player.index()]
    }

    /// The next game of match `round.number`, if its round is on.
    ///
    /// # Errors
    ///
    /// No such match, a bye, a round not on yet, a match decided or level.
    pub(crate) fn next_game(&self, round: u32, number: u32) -> Result<NextGame, TournamentRefusal> {
        let id = MatchId { round, number };
        self.round_on(id)?;
        let Some(game) = self.bracket.game(id) else {
            // The bracket's own words: no such match, a bye, or waiting.
            let err = self.bracket.clone().record(id, 1, GameResult::Draw).err();
            return Err(TournamentRefusal::Knockout(err.unwrap_or(KnockoutError::NotReady { id })));
        };
        match game.state() {
            rookery_tournament::knockout::MatchState::Next(next) => Ok(next.clone()),
            rookery_tournament::knockout::MatchState::Decided(decision) => {
                Err(TournamentRefusal::Knockout(KnockoutError::Record {
                    id,
                    error: rookery_tournament::knockout::RecordError::Decided {
                        game: game.games().len() as u32 + 1,
                        decision: *decision,
                    },
                }))
            }
            rookery_tournament::knockout::MatchState::Level => {
                Err(TournamentRefusal::Knockout(KnockoutError::Record {
                    id,
                    error: rookery_tournament::knockout::RecordError::NothingToPlay {
                        game: game.games().len() as u32 + 1,
                    },
                }))
            }
        }
    }

    /// A match's round is on when every match of the rounds before is decided.
    fn round_on(&self, id: MatchId) -> Result<(), TournamentRefusal> {
        match self.bracket.current_round() {
            Some(current) if id.round > current => {
                Err(TournamentRefusal::KnockoutRoundNotOn { round: id.round, current })
            }
            _ => Ok(()),
        }
    }

    /// Folds `knockout_result`.
    pub(crate) fn record(&mut self, r: &KnockoutResult) -> Result<(), TournamentRefusal> {
        let id = MatchId { round: r.round, number: r.number };
        self.round_on(id)?;
        let result = match r.result {
            BoardResult::WhiteWon => GameResult::WhiteWins,
            BoardResult::BlackWon => GameResult::BlackWins,
            BoardResult::Draw => GameResult::Draw,
            // RULES.md §12 as the pure crate applies it: a forfeit loses the match.
            BoardResult::WhiteByForfeit => GameResult::Forfeit(rookery_core::Color::Black),
            BoardResult::BlackByForfeit => GameResult::Forfeit(rookery_core::Color::White),
            BoardResult::DoubleForfeit => return Err(TournamentRefusal::DoubleForfeitInMatch),
        };
        self.bracket.record(id, r.game, result).map_err(TournamentRefusal::Knockout)?;
        Ok(())
    }

    /// Folds `knockout_lots`: a match level after every stage decided by the arbiter.
    pub(crate) fn lots(&mut self, l: &KnockoutLots) -> Result<(), TournamentRefusal> {
        let id = MatchId { round: l.round, number: l.number };
        let seed = self.seeds.iter().position(|e| e.0 == l.winner);
        let Some(seed) = seed else {
            return Err(TournamentRefusal::NotInMatch);
        };
        self.bracket.decide_by_lot(id, PlayerId::from_index(seed)).map_err(|e| match e {
            KnockoutError::Record {
                error: rookery_tournament::knockout::RecordError::NotInMatch { .. },
                ..
            } => TournamentRefusal::NotInMatch,
            e => TournamentRefusal::Knockout(e),
        })?;
        Ok(())
    }

    /// The games to play now: the next game of every match of the round on, with the
    /// entrants of White and Black.
    pub(crate) fn to_play(&self) -> Vec<(MatchId, NextGame, [EntrantId; 2])> {
        let Some(current) = self.bracket.current_round() else { return Vec::new() };
        self.bracket
            .playable()
            .into_iter()
            .filter(|(id, _)| id.round == current)
            .map(|(id, next)| {
                let players = [self.entrant(next.white), self.entrant(next.black)];
                (id, next, players)
            })
            .collect()
    }

    /// The champion, once the final is decided.
    pub(crate) fn champion(&self) -> Option<EntrantId> {
        self.bracket.champion().map(|p| self.entrant(p))
    }
}

/// The seeds of a knockout: the entrants playing, by rating (highest first; no rating last),
/// ties by entry order.
pub(crate) fn seeds(entrants: &[(EntrantId, Option<u16>)]) -> KnockoutSeeded {
    let mut order = entrants.to_vec();
    order.sort_by_key(|&(e, rating)| (std::cmp::Reverse(rating.unwrap_or(0)), e.0));
    KnockoutSeeded { seeds: order.into_iter().map(|(e, _)| e.0).collect() }
}

/// `bracket` in a knockout's view (docs/api.md, *Knockout*).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BracketView {
    /// Places in round 1 (the next power of two).
    pub size: u32,
    /// Byes in round 1 (to the top seeds).
    pub byes: u32,
    /// The winner of the final.
    pub champion: Option<String>,
    /// Every round, round 1 first.
    pub rounds: Vec<BracketRound>,
}

/// One round of the bracket.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BracketRound {
    /// From 1.
    pub round: u32,
    /// `final`, `semi_final`, `quarter_final`, `round_of_16` …
    pub name: String,
    /// Its matches, top of the bracket first.
    pub matches: Vec<MatchView>,
}

/// One match of the bracket: two sides, upper first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchView {
    /// `round.number`: `1.2`, the address `enter` takes as `round` and `board`.
    pub id: String,
    /// Its number in the round (the `board` of `enter`).
    pub number: u32,
    /// The two sides.
    pub sides: [SideView; 2],
    /// Each side's points (`1.5`), once the match is made; an Armageddon draw counts half.
    pub score: Option<[String; 2]>,
    /// `bye`, `waiting`, `playing`, `level` (the arbiter decides: `lots`), `decided`.
    pub state: &'static str,
    /// Who goes on.
    pub winner: Option<String>,
    /// Where it was decided: `classical`, `tiebreak`, `armageddon`, `forfeit`, `lots`.
    pub how: Option<&'static str>,
    /// The games played, in order.
    pub games: Vec<GameView>,
    /// The game to play now.
    pub next: Option<GameView>,
}

/// A side of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideView {
    /// The player's seed, once known.
    pub seed: Option<u32>,
    /// The player's name, once known.
    pub name: Option<String>,
    /// A bye.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bye: bool,
    /// The match whose winner comes here (`1.2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner_of: Option<String>,
}

/// One game of a match, played or to play.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    /// Its number in the match, from 1 (the `game` of `enter`).
    pub game: u32,
    /// Online: the game of the site (`{id}k{round}m{match}g{game}`); absent over the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `classical`, a tie-break stage's name (`rapid`, `blitz`), `armageddon`.
    pub stage: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Its time control (the Armageddon game's: `White 300, Black 240`).
    pub time_control: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`; none for the game to play.
    pub result: Option<&'static str>,
}

fn round_name(name: RoundName) -> String {
    match name {
        RoundName::Final => "final".to_owned(),
        RoundName::SemiFinal => "semi_final".to_owned(),
        RoundName::QuarterFinal => "quarter_final".to_owned(),
        RoundName::RoundOf(places) => format!("round_of_{places}"),
    }
}

fn how_name(how: How) -> &'static str {
    match how {
        How::Classical => "classical",
        How::Tiebreak(_) => "tiebreak",
        How::Armageddon => "armageddon",
        How::Forfeit => "forfeit",
        How::Lots => "lots",
    }
}

fn game_result_name(result: GameResult) -> &'static str {
    result_name(match result {
        GameResult::WhiteWins => BoardResult::WhiteWon,
        GameResult::Draw => BoardResult::Draw,
        GameResult::BlackWins => BoardResult::BlackWon,
        GameResult::Forfeit(rookery_core::Color::White) => BoardResult::BlackByForfeit,
        GameResult::Forfeit(rookery_core::Color::Black) => BoardResult::WhiteByForfeit,
    })
}

impl KnockoutBook {
    /// The bracket as the API shows it, `name` naming an entrant and `game_id` a match game's
    /// game of the site (online only).
    pub(crate) fn view(
        &self,
        settings: &Settings,
        name: &dyn Fn(EntrantId) -> String,
        game_id: &dyn Fn(MatchId, u32) -> Option<String>,
    ) -> BracketView {
        let rules = settings.match_rules();
        let player = |p: PlayerId| name(self.entrant(p));
        let stage = |phase: Phase| match phase {
            Phase::Classical => "classical".to_owned(),
            Phase::Tiebreak(n) => rules.tiebreaks[n - 1].name.clone(),
            Phase::Armageddon => "armageddon".to_owned(),
        };
        let time_control = |phase: Phase| match phase {
            Phase::Classical => rules.time_control.clone(),
            Phase::Tiebreak(n) => rules.tiebreaks[n - 1].time_control.clone(),
            Phase::Armageddon => rules.armageddon.as_ref().map_or_else(String::new, |a| {
                format!("White {}, Black {}", a.white_time, a.black_time)
            }),
        };
        let next_view = |id: MatchId, n: &NextGame| GameView {
            game: n.game,
            id: game_id(id, n.game),
            stage: stage(n.phase),
            white: player(n.white),
            black: player(n.black),
            time_control: time_control(n.phase),
            result: None,
        };
        let bracket = self.bracket.bracket();
        let rounds = self
            .bracket
            .view()
            .into_iter()
            .map(|r| BracketRound {
                round: r.round,
                name: round_name(r.name),
                matches: r
                    .matches
                    .into_iter()
                    .map(|m| {
                        let sides = [0, 1].map(|i| SideView {
                            seed: m.players[i].map(PlayerId::get),
                            name: m.players[i].map(player),
                            bye: m.sides[i] == Side::Bye,
                            winner_of: match m.sides[i] {
                                Side::Winner(id) => Some(id.to_string()),
                                _ => None,
                            },
                        });
                        let games = self
                            .bracket
                            .game(m.id)
                            .map(|g| {
                                g.games()
                                    .iter()
                                    .zip(1..)
                                    .map(|(p, n)| GameView {
                                        game: n,
                                        id: game_id(m.id, n),
                                        stage: stage(p.phase),
                                        white: player(p.white),
                                        black: player(p.black),
                                        time_control: time_control(p.phase),
                                        result: Some(game_result_name(p.result)),
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        let (state, winner, how, next) = match &m.status {
                            MatchStatus::Bye { winner } => ("bye", *winner, None, None),
                            MatchStatus::Waiting => ("waiting", None, None, None),
                            MatchStatus::Playing(n) => {
                                ("playing", None, None, Some(next_view(m.id, n)))
                            }
                            MatchStatus::Level => ("level", None, None, None),
                            MatchStatus::Decided(d) => {
                                ("decided", Some(d.winner), Some(how_name(d.how)), None)
                            }
                        };
                        MatchView {
                            id: m.id.to_string(),
                            number: m.id.number,
                            sides,
                            score: m.score.map(|s| s.map(|x| x.to_string())),
                            state,
                            winner: winner.map(player),
                            how,
                            games,
                            next,
                        }
                    })
                    .collect(),
            })
            .collect();
        BracketView {
            size: bracket.size(),
            byes: bracket.byes(),
            champion: self.bracket.champion().map(player),
            rounds,
        }
    }
}
