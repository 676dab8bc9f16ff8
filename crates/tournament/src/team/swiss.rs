//! The team Swiss system, FIDE Handbook C.04.6 (in force from 1 February 2026), as
//! reconstructed from the documentation of an independent implementation: see the crate
//! README for the source and its limits. The article numbers below are that documentation's.
//!
//! A round, in order:
//!
//! 1. The teams to pair (all but the absent) are ranked by primary score (Art. 1.2: match
//!    points, or game points if the regulations say so), then by the initial order the
//!    regulations fixed; the rank is the pairing number (TPN) of the round.
//! 2. With an odd number of teams, the pairing-allocated bye (Art. 3.4) goes to a team that
//!    has not had one and leaves the rest pairable: the lowest score, then the most matches
//!    played, then the largest pairing number.
//! 3. Score brackets from the top (Art. 3.6). A bracket holds the teams of one score and those
//!    left over from the brackets above. An odd bracket takes an upfloater (Art. 3.5): the
//!    lowest-ranked team of the next score group (then of the groups below it, each from its
//!    lowest-ranked team up) with which the bracket can be paired completely. The bracket is
//!    then paired by lexicographic enumeration (see `team/bracket.rs`); teams it cannot
//!    pair float down to the next bracket.
//! 4. Colours by Art. 4 ([`colour::allocate`]); the colour of a match
//!    is the colour on board 1 (Art. 1.6.1).
//! 5. Tables ordered by the higher primary score of the two teams, then the smaller pairing
//!    number.
//!
//! Absolute criteria: no two teams meet twice (a match in which no board was played over the
//! board is no meeting), no forbidden pair, no second bye. Colours are never absolute (no
//! absolute colour rule for teams); C8 and C9 are quality criteria of the bracket search.

use std::fmt;

use rookery_core::Color;

use super::bracket::{Bracket, Field};
use super::colour::{self, ColourTeam, PreferenceType};
use super::competition::TeamCompetition;
use super::roster::TeamId;
use super::TeamPairing;
use crate::score::Score;

/// What the team Swiss system needs besides the competition.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TeamSwissSettings {
    /// The number of rounds of the event (for the last round of Art. 1.7.2); 0 if unknown.
    pub rounds: u32,
    /// The colour preferences teams have (Art. 1.7).
    pub preference: PreferenceType,
    /// The initial colour drawn by lot before round 1 (Art. 4.1); White unless set.
    pub initial_colour: InitialColour,
    /// Pairs of teams that must not meet.
    pub forbidden: Vec<(TeamId, TeamId)>,
    /// Teams not to pair in this round.
    pub absent: Vec<TeamId>,
}

/// The initial colour (Art. 4.1): what the odd pairing numbers get on board 1 in round 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum InitialColour {
    /// White (the default).
    #[default]
    White,
    /// Black.
    Black,
}

impl InitialColour {
    fn colour(self) -> Color {
        match self {
            InitialColour::White => Color::White,
            InitialColour::Black => Color::Black,
        }
    }
}

/// Why a round cannot be paired.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TeamSwissError {
    /// The round is past the number of rounds of the event.
    PastLastRound {
        /// The round to pair.
        round: usize,
        /// The event's rounds.
        rounds: u32,
    },
    /// A team named in the settings does not exist.
    UnknownTeam {
        /// The number.
        team: TeamId,
    },
    /// No pairing keeps the absolute criteria (every team has met every other, …).
    NoPairing {
        /// The round.
        round: usize,
    },
}

impl fmt::Display for TeamSwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeamSwissError::PastLastRound { round, rounds } => {
                write!(f, "round {round} is past the last round ({rounds})")
            }
            TeamSwissError::UnknownTeam { team } => write!(f, "there is no team {team}"),
            TeamSwissError::NoPairing { round } => write!(
                f,
                "round {round} cannot be paired: no pairing avoids a second meeting, a forbidden \
                 pair and a second bye"
            ),
        }
    }
}

impl std::error::Error for TeamSwissError {}

/// A team as the pairing of one round sees it.
struct Entrant {
    id: TeamId,
    primary: Score,
    secondary: Score,
    history: Vec<Option<Color>>,
    matches: usize,
    had_bye: bool,
}

/// Pairs the next round of `competition` (the one after its last) by C.04.6.
///
/// # Errors
///
/// If the round is past [`TeamSwissSettings::rounds`], a team in the settings does not exist,
/// or no pairing keeps the absolute criteria.
pub fn pair(
    competition: &TeamCompetition,
    settings: &TeamSwissSettings,
) -> Result<TeamPairing, TeamSwissError> {
    let round = competition.rounds().len() + 1;
    if settings.rounds != 0 && round > settings.rounds as usize {
        return Err(TeamSwissError::PastLastRound { round, rounds: settings.rounds });
    }
    let count = competition.teams().len();
    let named = settings.forbidden.iter().flat_map(|&(a, b)| [a, b]);
    if let Some(team) = named.chain(settings.absent.iter().copied()).find(|t| t.index() >= count) {
        return Err(TeamSwissError::UnknownTeam { team });
    }
    let scoring = competition.scoring();
    let entries = competition.entries();
    let totals = competition.totals();
    let mut met = vec![vec![false; count]; count];
    for (a, b) in &settings.forbidden {
        met[a.index()][b.index()] = true;
        met[b.index()][a.index()] = true;
    }
    for row in &entries {
        for (team, entry) in row.iter().enumerate() {
            if let (Some((opponent, _)), true) = (entry.opponent, entry.played) {
                met[team][opponent.index()] = true;
            }
        }
    }
    // Art. 1.2: rank by primary score, then the initial order.
    let mut teams: Vec<Entrant> = (0..count)
        .map(TeamId::from_index)
        .filter(|id| !settings.absent.contains(id))
        .map(|id| Entrant {
            id,
            primary: scoring.primary_of(totals[id.index()]),
            secondary: scoring.secondary_of(totals[id.index()]),
            history: entries.iter().map(|r| r[id.index()].opponent.map(|(_, c)| c)).collect(),
            matches: entries.iter().filter(|r| r[id.index()].opponent.is_some()).count(),
            had_bye: entries.iter().any(|r| r[id.index()].bye),
        })
        .collect();
    teams.sort_by(|a, b| b.primary.cmp(&a.primary).then(a.id.cmp(&b.id)));
    let last_round = settings.rounds != 0 && round == settings.rounds as usize;
    let field = field(&teams, &met, settings.preference, last_round);
    let no_pairing = TeamSwissError::NoPairing { round };

    let mut open: Vec<usize> = (0..teams.len()).collect();
    let mut bye = None;
    if open.len() % 2 == 1 {
        // Art. 3.4: lowest score, most matches played, largest pairing number.
        let mut candidates: Vec<usize> =
            open.iter().copied().filter(|&t| !teams[t].had_bye).collect();
        candidates.sort_by(|&a, &b| {
            (teams[a].primary, std::cmp::Reverse(teams[a].matches), std::cmp::Reverse(a)).cmp(&(
                teams[b].primary,
                std::cmp::Reverse(teams[b].matches),
                std::cmp::Reverse(b),
            ))
        });
        let chosen = candidates
            .into_iter()
            .find(|&c| {
                field.pairable(&open.iter().copied().filter(|&t| t != c).collect::<Vec<_>>())
            })
            .ok_or(no_pairing.clone())?;
        open.retain(|&t| t != chosen);
        bye = Some(teams[chosen].id);
    }
    if !field.pairable(&open) {
        return Err(no_pairing);
    }
    let pairs = pair_brackets(&teams, &field, open).ok_or(no_pairing)?;

    let initial = settings.initial_colour.colour();
    let view = |t: usize| ColourTeam {
        tpn: t + 1,
        primary: teams[t].primary,
        secondary: teams[t].secondary,
        history: &teams[t].history,
    };
    let mut tables: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| {
            if colour::allocate(view(a), view(b), settings.preference, last_round, initial) {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    tables.sort_by_key(|&(a, b)| {
        (std::cmp::Reverse(teams[a].primary.max(teams[b].primary)), a.min(b))
    });
    Ok(TeamPairing {
        matches: tables.into_iter().map(|(w, b)| (teams[w].id, teams[b].id)).collect(),
        bye,
    })
}

fn field(teams: &[Entrant], met: &[Vec<bool>], kind: PreferenceType, last_round: bool) -> Field {
    let prefs: Vec<_> =
        teams.iter().map(|t| colour::preference(&t.history, kind, last_round)).collect();
    let n = teams.len();
    let mut allowed = vec![vec![false; n]; n];
    let mut clash = vec![vec![(0, 0); n]; n];
    for i in 0..n {
        for j in 0..n {
            allowed[i][j] = i != j && !met[teams[i].id.index()][teams[j].id.index()];
            if let (Some(p), Some(q)) = (prefs[i], prefs[j]) {
                if p.colour == q.colour {
                    // C9 counts under Type B only; under Type A every preference is strong.
                    let strong = kind == PreferenceType::B
                        && p.strength == colour::Strength::Strong
                        && q.strength == p.strength;
                    clash[i][j] = (1, u8::from(strong));
                }
            }
        }
    }
    Field { allowed, clash }
}

/// The pairs of every bracket from the top, as positions (pairing number − 1).
fn pair_brackets(
    teams: &[Entrant],
    field: &Field,
    mut open: Vec<usize>,
) -> Option<Vec<(usize, usize)>> {
    let mut pairs = Vec::new();
    let mut carried: Vec<usize> = Vec::new();
    while !open.is_empty() || !carried.is_empty() {
        // The next score group: the open teams of the highest score left.
        let top = open.first().map(|&t| teams[t].primary);
        let group: Vec<usize> =
            open.iter().copied().filter(|&t| Some(teams[t].primary) == top).collect();
        open.retain(|t| !group.contains(t));
        let mut members = carried.clone();
        members.extend(group);
        members.sort_unstable();
        carried.clear();
        let outside = |open: &[usize], taken: usize| -> Vec<usize> {
            open.iter().copied().filter(|&t| t != taken).collect()
        };
        let mut found = None;
        if members.len() % 2 == 1 && !open.is_empty() {
            // Art. 3.5: the next score group's lowest-ranked team first, then upwards, then
            // the groups below.
            let mut candidates = open.clone();
            candidates
                .sort_by_key(|&t| (std::cmp::Reverse(teams[t].primary), std::cmp::Reverse(t)));
            for up in candidates {
                let mut with = members.clone();
                with.push(up);
                with.sort_unstable();
                let bracket =
                    Bracket { field, members: with, outside: outside(&open, up), may_float: true };
                if let Some(p) = bracket.pair(true) {
                    open.retain(|&t| t != up);
                    found = Some(p);
                    break;
                }
            }
        }
        let found = match found {
            Some(p) => p,
            None => {
                let may_float = !open.is_empty();
                let bracket = Bracket {
                    field,
                    members: members.clone(),
                    outside: outside(&open, usize::MAX),
                    may_float,
                };
                bracket.pair(false)?
            }
        };
        for &t in &members {
            if !found.iter().any(|&(a, b)| a == t || b == t) {
                carried.push(t);
            }
        }
        // The last bracket may not float (`may_float` is false): it pairs every team left or
        // the round has no pairing, so the loop ends.
        pairs.extend(found);
    }
    Some(pairs)
}
