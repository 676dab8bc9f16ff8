//! The tournament as the API shows it (docs/api.md, "Tournaments"): typed views written by
//! serde with the documented field names, built from the state ([`Tour`]) once per change.

use rookery_store::TournamentStatus;
use rookery_tournament::berger::{self, Cycles};
use rookery_tournament::competition::{EntrantId, RoundState};
use serde::Serialize;

use super::book::{ArenaPlayer, Tour};
use std::collections::BTreeMap;

use rookery_core::Color;

use super::knockout::BracketView;
use super::log::{bye_name, result_name, Entry, IncidentKind};
use super::settings::{Acceleration, Format, KnockoutSettings, PairingSystem, Settings};
use super::standings::{ArenaCard, ArenaGames, CrossRow, StandingRows, StandingsView};
use crate::team::view::TeamsView;

pub use crate::log_view::{LogDetail, LogEntryView, LogNames};

/// `GET /api/v1/tournaments` and every view's head (docs/api.md, *Summary*).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The tournament id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `swiss`, `round_robin`, `double_round_robin`, `arena`.
    pub format: Format,
    /// `seed` or `fide`.
    pub rules: String,
    /// The time control text.
    pub time_control: String,
    /// Its speed category.
    pub speed: &'static str,
    /// Whether played games change §11 points.
    pub rated: bool,
    /// Played as Chess960 (RULES.md §13); absent in standard chess.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Played at real boards, its results entered by the arbiter; absent online.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub over_the_board: bool,
    /// A Swiss's rounds, a round robin's for its players, `null` for an arena.
    pub rounds: Option<u32>,
    /// A Swiss's pairing system, `dutch` or `burstein`; `null` for a round robin or an arena.
    pub pairing_system: Option<PairingSystem>,
    /// A Swiss's acceleration, `none` or `baku`; `null` for a round robin or an arena.
    pub acceleration: Option<Acceleration>,
    /// `upcoming`, `running`, `finished`, `cancelled`.
    pub status: &'static str,
    /// The scheduled start.
    pub starts_at_ms: Option<u64>,
    /// The arbiter's name.
    pub created_by: Option<String>,
    /// Players entered.
    pub players: u32,
    /// The last round paired (an arena: games paired).
    pub round: u32,
    /// The entry conditions.
    pub conditions: Conditions,
}

/// Who may join.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conditions {
    /// An account is needed (always).
    pub account: bool,
    /// The best level admitted.
    pub min_level: Option<u8>,
    /// The worst level admitted.
    pub max_level: Option<u8>,
    /// A password is asked.
    pub password: bool,
}

/// `GET /api/v1/tournaments/{id}`: the summary's fields and the whole state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentView {
    /// The summary's fields.
    #[serde(flatten)]
    pub summary: Summary,
    /// How far the log the view reflects goes (its length).
    pub seq: usize,
    /// The last round's state.
    pub round_state: Option<RoundStateName>,
    /// The settings.
    pub settings: SettingsView,
    /// The players, in order of entry.
    pub players: Vec<PlayerView>,
    /// An arena's number of players (a Swiss's are `players`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players_count: Option<usize>,
    /// The pairs who never meet, by name.
    pub forbidden_pairs: Vec<[String; 2]>,
    /// The rounds paired.
    pub rounds_list: Vec<RoundView>,
    /// The standings.
    pub standings: StandingsView,
    /// The crosstable (none for an arena).
    pub crosstable: Vec<CrossRow>,
    /// An arena's games, once it has started.
    pub arena: Option<ArenaGames>,
    /// A knockout's bracket, once seeded (at the start); absent for the other formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracket: Option<BracketView>,
    /// A team event's teams, matches, standings and board prizes; absent for the other
    /// formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<TeamsView>,
    /// The log.
    pub log: Vec<LogEntryView>,
}

/// A round's state as shown; `unpaired` only in a `round_paired` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundStateName {
    /// A Swiss preview.
    Paired,
    /// Its games are on.
    Published,
    /// Every board has its result.
    Finished,
    /// Its pairing undone.
    Unpaired,
}

impl From<RoundState> for RoundStateName {
    fn from(s: RoundState) -> RoundStateName {
        match s {
            RoundState::Paired => RoundStateName::Paired,
            RoundState::Published => RoundStateName::Published,
            RoundState::Finished => RoundStateName::Finished,
        }
    }
}

/// The settings as the view shows them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingsView {
    /// `seed` or `fide`.
    pub rules: String,
    /// The time control text.
    pub time_control: String,
    /// Rated.
    pub rated: bool,
    /// Rounds (none for an arena).
    pub rounds: Option<u32>,
    /// The scheduled start.
    pub starts_at_ms: Option<u64>,
    /// The C.07 codes.
    pub tiebreaks: Vec<String>,
    /// `2024` or `2026`.
    pub regulations: String,
    /// The default time, s.
    pub forfeit_s: u64,
    /// Byes a player may ask for.
    pub max_byes: u32,
    /// Late entries until this round is paired.
    pub late_join_until: u32,
    /// An arena's berserk switch.
    pub berserk: Option<bool>,
    /// An arena's streaks switch.
    pub streaks: Option<bool>,
    /// An arena's length, s.
    pub duration_s: Option<u64>,
    /// An arena's end, once started.
    pub ends_at_ms: Option<u64>,
    /// When an arena stops pairing, once started.
    pub pairing_closes_at_ms: Option<u64>,
    /// A knockout's match regulations; absent for the other formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knockout: Option<KnockoutSettings>,
    /// A team event's regulations; absent for the other formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<crate::settings::TeamSettings>,
}

/// A player's entry: the answer to a join, and the head of `players[]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerEntry {
    /// The name shown.
    pub name: String,
    /// The pairing number (none in an arena).
    pub tpn: Option<u32>,
    /// The rating.
    pub rating: Option<u16>,
    /// Withdrawn (an arena: left).
    pub withdrawn: bool,
    /// The first round they may be paired in (none in an arena).
    pub first_round: Option<u32>,
    /// The byes asked for.
    pub byes: Vec<ByeView>,
    /// Over the board: checked in for the next pairing (issue 53); absent online.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub present: Option<bool>,
    /// A guest entry (no account, not yet linked to one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// Over the board: the board the entrant keeps every round, if fixed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_board: Option<u32>,
}

/// A bye asked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ByeView {
    /// The round.
    pub round: u32,
    /// `half`, `zero`, `full`.
    pub kind: &'static str,
}

/// One of `players[]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// The entry.
    #[serde(flatten)]
    pub entry: PlayerEntry,
    /// The score as the standings write it.
    pub score: String,
    /// An arena player's card (none before the arena starts, and in a Swiss).
    pub arena: Option<ArenaCard>,
}

/// A round as `rounds_list` shows it (and `round_paired`, without `absent`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundView {
    /// The round.
    pub round: u32,
    /// Its state.
    pub state: RoundStateName,
    /// The pairing-allocated bye, by name.
    pub bye: Option<String>,
    /// Who is absent: byes asked for, withdrawals (none in a message).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent: Option<Vec<Absent>>,
    /// The boards.
    pub boards: Vec<BoardView>,
    /// A Chess960 tournament's start position of the round, once published: the same on
    /// every board (RULES.md §13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess960: Option<u16>,
}

/// A player absent from a round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Absent {
    /// The name.
    pub player: String,
    /// `half`, `zero`, `full`.
    pub kind: &'static str,
}

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardView {
    /// The board, from 1.
    pub board: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result, once in.
    pub result: Option<&'static str>,
    /// Whether the result is a forfeit.
    pub forfeit: bool,
    /// The game, once published.
    pub game: Option<String>,
    /// A move was played, or a result is in (api.md, `unpair`).
    pub started: bool,
    /// `live` or `finished` once published.
    pub status: Option<&'static str>,
    /// The incidents recorded at the board (over the board), in order; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub incidents: Vec<IncidentView>,
    /// Over the board, the results the players reported from their phones while the board
    /// has none; absent when neither has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reports: Option<ReportsView>,
}

/// What each player of a board reported (`null`: not yet), and whether they disagree — the
/// board is then the arbiter's to decide.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportsView {
    /// White's report.
    pub white: Option<&'static str>,
    /// Black's report.
    pub black: Option<&'static str>,
    /// Both reported, differently.
    pub disputed: bool,
}

/// An incident as the view shows it (docs/api.md, `rounds_list[].boards[].incidents`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IncidentView {
    /// Its place in the log.
    pub seq: i64,
    /// What happened: `kind` and its particulars.
    #[serde(flatten)]
    pub what: IncidentKind,
    /// The name of the player it concerns (the one of `color`), if it concerns one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The arbiter's decision.
    pub decision: String,
    /// The arbiter's reason, if given.
    pub reason: Option<String>,
}

impl Tour {
    /// A round's incidents by board, each with the colour of the player it concerns, read
    /// from the log (where the reasons are) since the round was last paired.
    pub(crate) fn incidents(
        &self,
        round: u32,
    ) -> BTreeMap<u32, Vec<(IncidentView, Option<Color>)>> {
        let mut by_board: BTreeMap<u32, Vec<_>> = BTreeMap::new();
        for shown in &self.log {
            let i = match &shown.detail.data.0 {
                Entry::Incident(i) if i.round == round => i,
                // An unpaired round's boards are gone, and their incidents with them (as in
                // the book).
                Entry::Unpair(u) if u.round == round => {
                    by_board.clear();
                    continue;
                }
                _ => continue,
            };
            let view = IncidentView {
                seq: shown.seq,
                what: i.what,
                player: None,
                decision: i.decision.clone(),
                reason: shown.reason.clone(),
            };
            by_board.entry(i.board).or_default().push((view, i.what.color()));
        }
        by_board
    }

    pub(crate) fn name_of(&self, e: EntrantId) -> &str {
        &self.book.comp.entrants()[e.0 as usize].name
    }

    /// A round as `rounds_list` shows it.
    pub fn round_view(&self, round: u32) -> Option<RoundView> {
        let r = self.book.comp.rounds().get((round as usize).checked_sub(1)?)?;
        let mut incidents = self.incidents(round);
        let boards = r
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let board = i as u32 + 1;
                // Over the board a game is played in the hall: the site records it once its
                // result is entered.
                let recorded = !self.settings.over_the_board || b.result.is_some();
                let game = (r.state != RoundState::Paired && recorded)
                    .then(|| self.board_game(round, board).to_string());
                let status = match (r.state, b.result) {
                    (RoundState::Paired, _) => None,
                    (_, Some(_)) => Some("finished"),
                    (_, None) => Some("live"),
                };
                let reports = self.book.reports.get(&(round, board)).filter(|_| b.result.is_none());
                let reports = reports.map(|r| ReportsView {
                    white: r.white.map(result_name),
                    black: r.black.map(result_name),
                    disputed: r.white.is_some() && r.black.is_some() && r.white != r.black,
                });
                BoardView {
                    reports,
                    board,
                    white: self.name_of(b.white).to_owned(),
                    black: self.name_of(b.black).to_owned(),
                    result: b.result.map(result_name),
                    forfeit: b.result.is_some_and(|x| !x.is_played()),
                    // Started: a move was played, or a result is in (api.md, `unpair`).
                    started: b.result.is_some()
                        || game.as_ref().is_some_and(|g| self.started.contains(g)),
                    game,
                    status,
                    incidents: incidents
                        .remove(&board)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(mut view, color)| {
                            view.player = color.map(|c| {
                                let e = if c == Color::White { b.white } else { b.black };
                                self.name_of(e).to_owned()
                            });
                            view
                        })
                        .collect(),
                }
            })
            .collect();
        let mut absent: Vec<Absent> = self
            .book
            .comp
            .requested_byes()
            .iter()
            .filter(|((r, _), _)| *r == round)
            .map(|((_, e), k)| Absent { player: self.name_of(*e).to_owned(), kind: bye_name(*k) })
            .collect();
        for (i, e) in self.book.comp.entrants().iter().enumerate() {
            if e.withdrawn_from.is_some_and(|w| w <= round) && e.first_round <= round {
                let id = EntrantId(i as u32);
                let paired = r.boards.iter().any(|b| b.white == id || b.black == id);
                if !paired {
                    absent.push(Absent { player: e.name.clone(), kind: "zero" });
                }
            }
        }
        // Over the board: not checked in when the round was paired (a zero-point absence).
        let comp = &self.book.comp;
        for (i, e) in comp.entrants().iter().enumerate() {
            let id = EntrantId(i as u32);
            let out = e.first_round <= round
                && e.withdrawn_from.is_none_or(|w| round < w)
                && !comp.requested_byes().contains_key(&(round, id))
                && !comp.takes_part(id, round);
            if out {
                absent.push(Absent { player: e.name.clone(), kind: "absent" });
            }
        }
        Some(RoundView {
            round,
            state: r.state.into(),
            bye: r.pab.map(|p| self.name_of(p).to_owned()),
            absent: Some(absent),
            boards,
            chess960: self.book.chess960_starts.get(&round).copied(),
        })
    }

    fn byes_of(&self, id: EntrantId) -> Vec<ByeView> {
        let byes = self.book.comp.requested_byes().iter().filter(|((_, x), _)| *x == id);
        byes.map(|((r, _), k)| ByeView { round: *r, kind: bye_name(*k) }).collect()
    }

    /// The answer to a join: the player's entry as `players[]` shows it, without building
    /// the whole view (`score` as it stands, `rank` not computed).
    pub fn entry(&self, name: &str) -> Option<PlayerEntry> {
        let key = name.to_lowercase();
        if self.settings.format == Format::Arena {
            let p = self.book.arena_players.iter().find(|p| p.key == key)?;
            return Some(arena_entry(p));
        }
        let comp = &self.book.comp;
        let id = comp.find(&key)?;
        Some(self.entrant_entry(id, comp.tpn(id).get()))
    }

    /// A Swiss's or round robin's player, of pairing number `tpn`.
    fn entrant_entry(&self, id: EntrantId, tpn: u32) -> PlayerEntry {
        let e = &self.book.comp.entrants()[id.0 as usize];
        PlayerEntry {
            name: e.name.clone(),
            tpn: Some(tpn),
            rating: e.rating,
            withdrawn: e.withdrawn_from.is_some(),
            first_round: Some(e.first_round),
            byes: self.byes_of(id),
            present: self.settings.over_the_board.then(|| self.book.comp.is_present(id)),
            guest: self.book.guests.contains_key(&id.0) && !self.book.users.contains_key(&e.key),
            fixed_board: self.book.fixed_boards.get(&id.0).copied(),
        }
    }

    /// `rounds`: a Swiss's, a round robin's for its players, none for an arena.
    fn rounds(&self) -> Option<u32> {
        if self.settings.format == Format::Knockout {
            let players = self.book.comp.entrants().len() as u32;
            return rookery_tournament::knockout::Bracket::new(players.max(2))
                .ok()
                .map(|b| b.rounds());
        }
        if let Some(team) = &self.book.team {
            return Some(team.total_rounds(&self.settings));
        }
        (self.settings.format != Format::Arena).then(|| self.book.comp.total_rounds())
    }

    /// The counts the list shows: players entered, rounds paired (an arena: games paired).
    pub fn counts(&self) -> (u32, u32) {
        if self.settings.format == Format::Arena {
            (self.book.arena_players.len() as u32, self.arena_games_paired())
        } else if let Some(team) = &self.book.team {
            (team.teams.len() as u32, team.rounds.len() as u32)
        } else {
            (self.book.comp.entrants().len() as u32, self.book.comp.rounds().len() as u32)
        }
    }

    /// The summary of `GET /api/v1/tournaments`.
    pub fn summary(&self) -> Summary {
        let (players, round) = self.counts();
        let creator = self.names.get(&self.row.created_by.0).map(String::as_str);
        summary_of(&self.row.id, &self.settings, self.book.status, creator, players, round)
    }

    fn settings_view(&self) -> SettingsView {
        let s = &self.settings;
        let arena = self.book.arena.as_ref().map(|a| *a.settings());
        let is_arena = s.format == Format::Arena;
        SettingsView {
            rules: s.rules.clone(),
            time_control: s.time_control.clone(),
            rated: s.rated,
            rounds: self.rounds(),
            starts_at_ms: s.starts_at_ms,
            tiebreaks: s.tiebreaks.clone(),
            regulations: s.regulations.to_string(),
            forfeit_s: s.forfeit_s,
            max_byes: s.max_byes,
            late_join_until: s.late_join_until,
            berserk: is_arena.then_some(s.berserk),
            streaks: is_arena.then_some(s.streaks),
            duration_s: s.duration_s,
            ends_at_ms: arena.map(|a| a.ends_at()),
            pairing_closes_at_ms: arena.map(|a| a.pairing_closes_at()),
            knockout: s.knockout.clone(),
            team: s.team.clone(),
        }
    }

    /// `GET /api/v1/tournaments/{id}`.
    pub fn view(&self) -> TournamentView {
        let comp = &self.book.comp;
        let mut view = TournamentView {
            summary: self.summary(),
            seq: self.log.len(),
            round_state: comp.rounds().last().map(|r| r.state.into()),
            settings: self.settings_view(),
            players: Vec::new(),
            players_count: None,
            forbidden_pairs: Vec::new(),
            rounds_list: Vec::new(),
            standings: StandingsView { tiebreaks: Vec::new(), rows: StandingRows::Arena(vec![]) },
            crosstable: Vec::new(),
            arena: None,
            bracket: self.book.knockout.as_ref().map(|k| {
                let online = !self.settings.over_the_board;
                k.view(
                    &self.settings,
                    &|e| self.book.comp.entrants()[e.0 as usize].name.clone(),
                    &|m, game| {
                        online.then(|| self.knockout_game(m.round, m.number, game).to_string())
                    },
                )
            }),
            teams: self.book.team.as_ref().map(|t| {
                let online = !self.settings.over_the_board;
                t.view(self.settings.regulations(), &|r, m, b| {
                    online.then(|| self.team_game(r, m, b).to_string())
                })
            }),
            log: self.log.clone(),
        };
        if self.settings.format == Format::Arena {
            let (standings, games) = self.arena_standings();
            let score = |name: &str| match &standings.rows {
                StandingRows::Arena(rows) => rows.iter().find(|r| r.name == name).map(|r| &r.score),
                StandingRows::Competition(_) => None,
            };
            let cards = self.arena_cards();
            view.players = self
                .book
                .arena_players
                .iter()
                .zip(cards)
                .map(|(p, card)| PlayerView {
                    score: score(&p.name).cloned().unwrap_or_else(|| "0".into()),
                    entry: arena_entry(p),
                    arena: card,
                })
                .collect();
            view.players_count = Some(self.book.arena_players.len());
            view.standings = standings;
            view.arena = games;
        } else {
            let (standings, cross) = self.standings();
            // Pairing numbers from one sort (`tpn` per player sorts each time).
            let mut tpn = vec![0u32; comp.entrants().len()];
            for (i, e) in comp.pairing_order().iter().enumerate() {
                tpn[e.0 as usize] = i as u32 + 1;
            }
            let score = |name: &str| cross.iter().find(|r| r.name == name)?.score.clone();
            view.players = comp
                .entrants()
                .iter()
                .enumerate()
                .map(|(i, e)| PlayerView {
                    entry: self.entrant_entry(EntrantId(i as u32), tpn[i]),
                    score: score(&e.name).unwrap_or_else(|| "0.0".into()),
                    arena: None,
                })
                .collect();
            view.forbidden_pairs = comp
                .forbidden_pairs()
                .iter()
                .map(|&(a, b)| [self.name_of(a).to_owned(), self.name_of(b).to_owned()])
                .collect();
            view.rounds_list =
                (1..=comp.rounds().len() as u32).filter_map(|r| self.round_view(r)).collect();
            view.standings = standings;
            view.crosstable = cross;
        }
        view
    }
}

/// An arena player's entry: no pairing number, no first round, no byes.
fn arena_entry(p: &ArenaPlayer) -> PlayerEntry {
    PlayerEntry {
        name: p.name.clone(),
        tpn: None,
        rating: Some(p.rating),
        withdrawn: !p.active,
        first_round: None,
        byes: Vec::new(),
        present: None,
        guest: false,
        fixed_board: None,
    }
}

/// The summary's fields (docs/api.md, *Summary*) from the settings and the counts: the same
/// for a tournament's actor and for the list, which reads them from the store.
pub fn summary_of(
    id: &str,
    s: &Settings,
    status: TournamentStatus,
    created_by: Option<&str>,
    players: u32,
    round: u32,
) -> Summary {
    let swiss = s.format == Format::Swiss;
    let rounds = match s.format {
        Format::Swiss => s.rounds,
        Format::RoundRobin => berger::rounds(players.max(2), Cycles::Single).ok(),
        Format::DoubleRoundRobin => berger::rounds(players.max(2), Cycles::Double).ok(),
        Format::Arena => None,
        Format::Knockout => {
            rookery_tournament::knockout::Bracket::new(players.max(2)).ok().map(|b| b.rounds())
        }
        // `players` counts the teams.
        Format::TeamSwiss => s.rounds,
        Format::TeamRoundRobin => berger::rounds(players.max(2), Cycles::Single).ok(),
    };
    Summary {
        id: id.to_owned(),
        name: s.name.clone(),
        format: s.format,
        rules: s.rules.clone(),
        time_control: s.time_control.clone(),
        speed: s.time_control().speed().name(),
        rated: s.rated,
        chess960: s.chess960,
        over_the_board: s.over_the_board,
        rounds,
        pairing_system: swiss.then_some(s.pairing_system),
        acceleration: swiss.then_some(s.acceleration),
        status: status.as_str(),
        starts_at_ms: s.starts_at_ms,
        created_by: created_by.map(str::to_owned),
        players,
        round,
        conditions: Conditions {
            account: true,
            min_level: s.min_level,
            max_level: s.max_level,
            password: s.password.is_some(),
        },
    }
}

#[cfg(test)]
mod tests {
    use rookery_tournament::competition::Action;
    use serde_json::json;

    use super::*;
    use crate::book::Book;
    use crate::log::{Entry, EntryData};

    /// Issue 51: the audit log named players only by entrant number (`{"entrant":1}`).
    #[test]
    fn log_details_name_the_players_beside_their_numbers() {
        let settings: Settings = serde_json::from_value(json!({
            "name": "Club", "format": "swiss", "rounds": 5, "duration_s": null,
            "time_control": "600+5", "rules": "seed", "rated": false, "starts_at_ms": null,
            "tiebreaks": ["BH"], "regulations": 2026, "forfeit_s": 60, "max_byes": 1,
            "late_join_until": 1, "min_level": null, "max_level": null, "password": null,
            "berserk": false, "streaks": false, "seed": 0
        }))
        .unwrap();
        let mut book = Book::new(&settings);
        for name in ["ann", "bob", "cat"] {
            let join =
                Action::Join { key: name.into(), name: name.into(), rating: None, title: None };
            book.comp.apply(&join).unwrap();
        }
        let cases = [
            (
                "withdraw",
                json!({"entrant":1,"round":3}),
                json!({"entrant":1,"round":3,"name":"bob"}),
            ),
            (
                "forbid_pair",
                json!({"a":0,"b":2}),
                json!({"a":0,"b":2,"a_name":"ann","b_name":"cat"}),
            ),
            (
                "paired",
                json!({"round":1,"boards":[[2,0]],"pab":1}),
                json!({"round":1,"boards":[[2,0]],"pab":1,"board_names":[["cat","ann"]],"pab_name":"bob"}),
            ),
            (
                "paired",
                json!({"round":1,"boards":[],"pab":null}),
                json!({"round":1,"boards":[],"pab":null,"board_names":[]}),
            ),
            (
                "result",
                json!({"round":1,"board":1,"result":"1-0"}),
                json!({"round":1,"board":1,"result":"1-0"}),
            ),
        ];
        for (kind, stored, shown) in cases {
            let stored = rookery_store::LogEntry {
                seq: 0,
                at_ms: 0,
                by: None,
                kind: kind.into(),
                data: stored.to_string(),
                reason: None,
            };
            let entry = Entry::decode(&stored).unwrap();
            let names = book.log_names(&entry);
            let detail = LogDetail { data: EntryData(entry), names };
            assert_eq!(serde_json::to_value(&detail).unwrap(), shown, "{kind}");
        }
    }
}
