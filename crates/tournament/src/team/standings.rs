//! Team standings: the teams ranked by the primary score, then by team tie-breaks of FIDE C.07
//! in the order the regulations list them.
//!
//! The definitions, for a competition whose primary score is match points (MP; with game
//! points (GP) primary, read the two the other way round):
//!
//! - `MP`, `GP`: the team's total match and game points.
//! - `SB`, team Sonneborn–Berger: for every round, the opponent's final primary score
//!   weighted by the team's own result in that match in the secondary score: MP primary, the
//!   opponent's MP times the GP scored against it; GP primary, the opponent's GP times the MP
//!   scored against it.
//! - `BH`, Buchholz: the sum of the opponents' final primary scores.
//! - `DE`, direct encounter (C.07 Art. 6): among teams still tied, the primary score of the
//!   matches between them, applied only when every two of them met.
//!
//! A round without an opponent (the bye, an absence) counts, for `SB` and `BH`, as a match
//! against a dummy opponent (C.07 Art. 16.4): under [`Regulations::C07_2024`] the dummy has
//! the team's own final primary score; under [`Regulations::C07_2026`] (16.4.2) no more than
//! a drawn match's primary points times the number of rounds.
//!
//! These are this crate's reading of C.07 for teams, written without the Handbook's text: the
//! crate README says so; check against the text before relying on them for prizes.

use std::fmt;

use super::competition::TeamCompetition;
use super::roster::TeamId;
use super::scoring::{PrimaryScore, RoundScore};
use crate::score::Score;
use crate::tiebreak::Regulations;

/// A team tie-break.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TeamTiebreak {
    /// `MP`: match points.
    MatchPoints,
    /// `GP`: game points.
    GamePoints,
    /// `SB`: team Sonneborn–Berger.
    SonnebornBerger,
    /// `BH`: Buchholz of the primary score.
    Buchholz,
    /// `DE`: direct encounter.
    DirectEncounter,
}

impl TeamTiebreak {
    /// The C.07 code: `MP`, `GP`, `SB`, `BH`, `DE`.
    pub const fn code(self) -> &'static str {
        match self {
            TeamTiebreak::MatchPoints => "MP",
            TeamTiebreak::GamePoints => "GP",
            TeamTiebreak::SonnebornBerger => "SB",
            TeamTiebreak::Buchholz => "BH",
            TeamTiebreak::DirectEncounter => "DE",
        }
    }
}

/// A tie-break value in hundredths of a point (a Sonneborn–Berger is a product of points).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Hundredths(pub u64);

impl fmt::Display for Hundredths {
    /// `12`, `12.5`, `12.25`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, frac) = (self.0 / 100, self.0 % 100);
        let text = match frac {
            0 => format!("{whole}"),
            f if f % 10 == 0 => format!("{whole}.{}", f / 10),
            f => format!("{whole}.{f:02}"),
        };
        f.pad(&text)
    }
}

/// One team's line of the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamStanding {
    /// The rank, from 1; teams tied on everything share it.
    pub rank: usize,
    /// The team.
    pub team: TeamId,
    /// Total match and game points.
    pub total: RoundScore,
    /// The values of the tie-breaks asked for, in their order (`DE` is 0: it ranks a group).
    pub tiebreaks: Vec<Hundredths>,
}

/// Ranks the teams of `competition` by the primary score, then by `tiebreaks` in order.
pub fn standings(
    competition: &TeamCompetition,
    tiebreaks: &[TeamTiebreak],
    regulations: Regulations,
) -> Vec<TeamStanding> {
    let scoring = competition.scoring();
    let entries = competition.entries();
    let totals = competition.totals();
    let n = totals.len();
    let primary: Vec<Score> = totals.iter().map(|&t| scoring.primary_of(t)).collect();
    let rounds = entries.len() as u64;
    let draw = match scoring.primary {
        PrimaryScore::MatchPoints => u64::from(scoring.draw.0),
        PrimaryScore::GamePoints => competition.boards() as u64 * 5,
    };
    let dummy = |team: usize| -> u64 {
        let own = u64::from(primary[team].0);
        match regulations {
            Regulations::C07_2024 => own,
            Regulations::C07_2026 => own.min(draw * rounds),
        }
    };
    let value = |tb: TeamTiebreak, team: usize| -> Hundredths {
        let tenths = |s: Score| u64::from(s.0) * 10;
        match tb {
            TeamTiebreak::MatchPoints => Hundredths(tenths(totals[team].match_points)),
            TeamTiebreak::GamePoints => Hundredths(tenths(totals[team].game_points)),
            TeamTiebreak::Buchholz => Hundredths(
                entries
                    .iter()
                    .map(|row| match row[team].opponent {
                        Some((o, _)) => u64::from(primary[o.index()].0),
                        None => dummy(team),
                    })
                    .sum::<u64>()
                    * 10,
            ),
            TeamTiebreak::SonnebornBerger => Hundredths(
                entries
                    .iter()
                    .map(|row| {
                        let own = u64::from(scoring.secondary_of(row[team].score).0);
                        let opponent = match row[team].opponent {
                            Some((o, _)) => u64::from(primary[o.index()].0),
                            None => dummy(team),
                        };
                        opponent * own
                    })
                    .sum(),
            ),
            TeamTiebreak::DirectEncounter => Hundredths(0),
        }
    };
    let values: Vec<Vec<Hundredths>> =
        (0..n).map(|t| tiebreaks.iter().map(|&tb| value(tb, t)).collect()).collect();

    // Groups of teams tied so far, best first; each tie-break splits them in turn.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(primary[t]));
    let mut groups: Vec<Vec<usize>> = split(order, |t| Hundredths(u64::from(primary[t].0)));
    for (k, &tb) in tiebreaks.iter().enumerate() {
        groups = groups
            .into_iter()
            .flat_map(|group| {
                if group.len() < 2 {
                    vec![group]
                } else if tb == TeamTiebreak::DirectEncounter {
                    direct_encounter(competition, &entries, group)
                } else {
                    let mut g = group;
                    g.sort_by_key(|&t| std::cmp::Reverse(values[t][k]));
                    split(g, |t| values[t][k])
                }
            })
            .collect();
    }
    let mut table = Vec::with_capacity(n);
    for group in groups {
        let rank = table.len() + 1;
        let mut group = group;
        group.sort_unstable();
        for team in group {
            table.push(TeamStanding {
                rank,
                team: TeamId::from_index(team),
                total: totals[team],
                tiebreaks: values[team].clone(),
            });
        }
    }
    table
}

/// Splits `sorted` (best first by `key`) into runs of one key.
fn split(sorted: Vec<usize>, key: impl Fn(usize) -> Hundredths) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for t in sorted {
        match groups.last_mut() {
            Some(g) if key(g[0]) == key(t) => g.push(t),
            _ => groups.push(vec![t]),
        }
    }
    groups
}

/// C.07 Art. 6 for teams: the primary points scored in the matches among `group`, when every
/// two of them met; otherwise the group stays tied.
fn direct_encounter(
    competition: &TeamCompetition,
    entries: &[Vec<super::TeamEntry>],
    group: Vec<usize>,
) -> Vec<Vec<usize>> {
    let scoring = competition.scoring();
    let mut points = vec![0u64; competition.teams().len()];
    let mut met = vec![vec![false; points.len()]; points.len()];
    for row in entries {
        for &t in &group {
            if let Some((o, _)) = row[t].opponent {
                if group.contains(&o.index()) {
                    met[t][o.index()] = true;
                    points[t] += u64::from(scoring.primary_of(row[t].score).0);
                }
            }
        }
    }
    let all_met = group.iter().all(|&a| group.iter().all(|&b| a == b || met[a][b]));
    if !all_met {
        return vec![group];
    }
    let mut g = group;
    g.sort_by_key(|&t| std::cmp::Reverse(points[t]));
    split(g, |t| Hundredths(points[t]))
}
