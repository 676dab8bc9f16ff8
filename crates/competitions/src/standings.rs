//! The standings as the views and the exports show them: a Swiss's or round robin's with
//! their tie-breaks (C.07) and crosstable, an arena's with its games and players' cards.

use rookery_tournament::competition::RoundState;
use rookery_tournament::{standings, ResultCode};
use serde::Serialize;

use rookery_ladder::Level;
use rookery_protocol::LevelView;
use rookery_tournament::fide_rating::{self, KHistory, K};

use crate::book::Tour;
use crate::calendar;
use crate::settings::Format;

/// An arena player's card: `{"score":"11","games":3,"streak":3,"on_fire":true,"berserks":3,
/// "berserk_points":3,"performance":1890,"sheet":"3+ 3+ 5*+"}` (`streak`: the wins running at
/// the end of the sheet).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaCard {
    /// Points.
    pub score: String,
    /// Games counted.
    pub games: usize,
    /// Wins running at the end of the sheet.
    pub streak: usize,
    /// The next game scores double.
    pub on_fire: bool,
    /// Games gone berserk in.
    pub berserks: usize,
    /// Berserk bonus points won.
    pub berserk_points: usize,
    /// Performance rating.
    pub performance: Option<i32>,
    /// The sheet as lichess writes it.
    pub sheet: String,
}

/// The standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingsView {
    /// The C.07 codes (none in an arena).
    pub tiebreaks: Vec<String>,
    /// The rows, best first.
    pub rows: StandingRows,
}

/// The standings' rows of a Swiss or round robin, or of an arena.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum StandingRows {
    /// By score and tie-breaks.
    Competition(Vec<StandingRow>),
    /// By score, then performance.
    Arena(Vec<ArenaStandingRow>),
}

/// A Swiss's or round robin's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingRow {
    /// Place.
    pub rank: u32,
    /// Name.
    pub name: String,
    /// Pairing number.
    pub tpn: u32,
    /// Score.
    pub score: String,
    /// The tie-breaks' values, in the settings' order.
    pub tiebreaks: Vec<String>,
    /// The C.07 performance rating (10.2), once a round is finished.
    pub performance: Option<i64>,
    /// Over the board, a FIDE-rated player's rating change over the event's rated games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fide_rating_change: Option<FideChange>,
    /// Over the board in a rated event, an account's §11 points and level before and after
    /// the event's games (RULES.md §11).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ladder: Option<LadderView>,
    /// The rating (not shown: the exports write it).
    #[serde(skip)]
    pub rating: Option<u16>,
}

/// A FIDE-rated player's change over the event, as a rating officer computes it (FIDE Rating
/// Regulations from 1 March 2024, 8.3): `{"k":20,"games":5,"change":"+12.40"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FideChange {
    /// The development coefficient (8.3.3), capped so that K × games ≤ 700.
    pub k: u8,
    /// Rated games counted: played (not forfeits or byes) against a FIDE-rated opponent.
    pub games: u32,
    /// `K × Σ(W − PD)`, to the hundredth (`+12.40`, `-3.00`, `0.00`).
    pub change: String,
}

/// What an over-the-board event's rated games did to a player's §11 standing: `{"points_before":
/// "412.50","points_after":"436.00","level_before":{…},"level_after":{…},"games":5}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderView {
    /// Points before the event's first game.
    pub points_before: String,
    /// Points after its last.
    pub points_after: String,
    /// The level before (`label`, `en`, `zh`).
    pub level_before: LevelView,
    /// The level after.
    pub level_after: LevelView,
    /// Rated games counted.
    pub games: u32,
}

/// An arena's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaStandingRow {
    /// Place.
    pub rank: u32,
    /// Name.
    pub name: String,
    /// Points.
    pub score: String,
    /// Performance rating.
    pub performance: Option<i32>,
    /// The next game scores double.
    pub on_fire: bool,
    /// In the arena now.
    pub active: bool,
    /// The sheet.
    pub sheet: String,
    /// The rating (not shown: the exports write it).
    #[serde(skip)]
    pub rating: u16,
}

/// One line of the crosstable.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossRow {
    /// Pairing number.
    pub tpn: usize,
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: Option<u16>,
    /// Score (none for a player without a row in the standings).
    pub score: Option<String>,
    /// chess-results' cells, round by round.
    pub rounds: Vec<String>,
}

/// An arena's games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaGames {
    /// Every game paired, in order.
    pub games: Vec<ArenaGameView>,
    /// How many are being played.
    pub now_playing: usize,
}

/// An arena game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaGameView {
    /// The game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or none while played.
    pub result: Option<&'static str>,
    /// Who went berserk.
    pub berserk: BerserkView,
}

/// Who went berserk in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BerserkView {
    /// White.
    pub white: bool,
    /// Black.
    pub black: bool,
}

/// One standings line as the exports write it.
pub(crate) struct Line {
    pub(crate) rank: u32,
    pub(crate) name: String,
    pub(crate) tpn: Option<u32>,
    pub(crate) rating: Option<u16>,
    pub(crate) score: String,
    pub(crate) tiebreaks: Vec<String>,
}

impl Tour {
    /// The standings and the crosstable, a Swiss's or an arena's (which has none).
    pub(crate) fn any_standings(&self) -> (StandingsView, Vec<CrossRow>) {
        if self.settings.format == Format::Arena {
            (self.arena_standings().0, Vec::new())
        } else {
            self.standings()
        }
    }

    pub(crate) fn rounds_done(&self) -> u32 {
        self.book.comp.rounds().iter().take_while(|r| r.state == RoundState::Finished).count()
            as u32
    }

    pub(crate) fn arena_games_paired(&self) -> u32 {
        self.book.arena.as_ref().map_or(0, |a| {
            let mut n = 0;
            while a.game(rookery_tournament::arena::GameId(n + 1)).is_some() {
                n += 1;
            }
            n
        })
    }

    /// An entrant's §11 span over the event, if they are an account with a rated game.
    fn ladder_view(&self, e: rookery_tournament::competition::EntrantId) -> Option<LadderView> {
        let key = &self.book.comp.entrants().get(e.0 as usize)?.key;
        let span = self.ladder.get(self.book.users.get(key)?)?;
        Some(LadderView {
            points_before: span.points_before.to_string(),
            points_after: span.points_after.to_string(),
            level_before: LevelView(Level::of(span.points_before)),
            level_after: LevelView(Level::of(span.points_after)),
            games: span.games,
        })
    }

    /// Over the board, each player's FIDE rating change (pairing-number order; none online,
    /// where ratings are the site's). Only a guest whose list gave a FIDE rating is rated here:
    /// an account's rating is the site's, and a list's national rating is not FIDE's. K is
    /// 8.3.3's from what the list says — 40 for a junior (18 or under in the event's year)
    /// under 2300, 10 from 2400, else 20 — taking every player as established (30 games or
    /// more: the list does not say), as the rating officer's software does without a history.
    fn fide_changes(&self, t: &rookery_tournament::Tournament) -> Vec<Option<FideChange>> {
        if !self.settings.over_the_board {
            return Vec::new();
        }
        let order = self.book.comp.pairing_order();
        let year = self.book.started_at.map(|ms| calendar::date_of(ms).0);
        let mut rated = t.clone();
        let guest_of = |index: usize| self.book.guests.get(&order[index].0);
        for (index, p) in rated.players.iter_mut().enumerate() {
            let fide = guest_of(index).is_some_and(|g| g.fide_rating.is_some());
            if !fide {
                p.rating = None;
            }
        }
        fide_rating::event_changes(&rated, |id| {
            let g = guest_of(id.index())?;
            let rating = g.fide_rating?;
            let age =
                year.zip(g.birth_year).and_then(|(y, b)| u16::try_from(y - i64::from(b)).ok());
            Some(K::of(&KHistory {
                rating,
                games_before: u32::MAX,
                age_this_year: age,
                reached_2400: false,
            }))
        })
        .into_iter()
        .map(|c| {
            c.filter(|c| c.games > 0).map(|c| FideChange {
                k: c.k.get(),
                games: c.games,
                change: c.to_string(),
            })
        })
        .collect()
    }

    /// A Swiss's or round robin's standings and crosstable.
    pub fn standings(&self) -> (StandingsView, Vec<CrossRow>) {
        let t = self.book.comp.to_tournament();
        let order = self.book.comp.pairing_order();
        let list = self.settings.tiebreak_list();
        let done = self.rounds_done();
        let table = standings(&t, done, &list, self.settings.regulations());
        // A player's card shows the C.07 performance rating (10.2) whatever the tie-breaks;
        // before a round is finished there is none (and entries come in by the thousand).
        let tpr = rookery_tournament::Tiebreak::PerformanceRating;
        let perf = (done > 0).then(|| standings(&t, done, &[tpr], self.settings.regulations()));
        let fide = self.fide_changes(&t);
        let rows = table
            .rows
            .iter()
            .map(|row| {
                let e = order[row.player.index()];
                let performance = perf.as_ref().and_then(|p| p.value(row.player, tpr));
                StandingRow {
                    rank: row.rank,
                    name: self.name_of(e).to_owned(),
                    tpn: row.player.get(),
                    score: row.score.to_string(),
                    tiebreaks: row.values.iter().map(|v| v.to_string()).collect(),
                    performance: performance.and_then(|v| v.to_f64()).map(|p| p.round() as i64),
                    fide_rating_change: fide.get(row.player.index()).cloned().flatten(),
                    ladder: self.ladder_view(e),
                    rating: self.book.comp.entrants()[e.0 as usize].rating,
                }
            })
            .collect();
        let view = StandingsView {
            tiebreaks: self.settings.tiebreaks.clone(),
            rows: StandingRows::Competition(rows),
        };
        let rounds = self.book.comp.rounds().len() as u32;
        let cross = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| CrossRow {
                tpn: i + 1,
                name: p.name.clone(),
                rating: p.rating,
                score: table
                    .rows
                    .iter()
                    .find(|row| row.player.index() == i)
                    .map(|row| row.score.to_string()),
                rounds: (1..=rounds).map(|r| p.round(r).map(cell).unwrap_or_default()).collect(),
            })
            .collect();
        (view, cross)
    }

    /// An arena's standings and games (none before it starts).
    pub fn arena_standings(&self) -> (StandingsView, Option<ArenaGames>) {
        let Some(arena) = &self.book.arena else {
            let rows = StandingRows::Arena(Vec::new());
            return (StandingsView { tiebreaks: Vec::new(), rows }, None);
        };
        let name =
            |p: rookery_tournament::PlayerId| self.book.arena_players[p.index()].name.clone();
        let rows = arena
            .standings()
            .iter()
            .map(|s| ArenaStandingRow {
                rank: s.rank,
                name: name(s.player),
                score: s.score.to_string(),
                performance: s.performance,
                on_fire: s.on_fire,
                active: s.active,
                sheet: s.sheet.to_string(),
                rating: self.book.arena_players[s.player.index()].rating,
            })
            .collect();
        let mut games = Vec::new();
        let mut n = 1;
        let mut playing = 0;
        while let Some((g, status)) = arena.game(rookery_tournament::arena::GameId(n)) {
            let result = match status {
                rookery_tournament::arena::GameStatus::Playing => {
                    playing += 1;
                    None
                }
                rookery_tournament::arena::GameStatus::Finished { winner, .. } => {
                    Some(match winner {
                        Some(rookery_core::Color::White) => "1-0",
                        Some(rookery_core::Color::Black) => "0-1",
                        None => "1/2-1/2",
                    })
                }
            };
            games.push(ArenaGameView {
                game: self.arena_game(n).to_string(),
                white: name(g.white),
                black: name(g.black),
                result,
                berserk: BerserkView {
                    white: arena.is_berserk(g.id, g.white),
                    black: arena.is_berserk(g.id, g.black),
                },
            });
            n += 1;
        }
        let view = StandingsView { tiebreaks: Vec::new(), rows: StandingRows::Arena(rows) };
        (view, Some(ArenaGames { games, now_playing: playing }))
    }

    /// Each arena player's card, by player number.
    pub(crate) fn arena_cards(&self) -> Vec<Option<ArenaCard>> {
        let mut cards = vec![None; self.book.arena_players.len()];
        let Some(arena) = &self.book.arena else { return cards };
        for s in arena.standings() {
            let entries = &s.sheet.0;
            let streak = entries
                .iter()
                .rev()
                .take_while(|e| e.outcome == rookery_tournament::Outcome::Win)
                .count();
            if let Some(card) = cards.get_mut(s.player.index()) {
                *card = Some(ArenaCard {
                    score: s.score.to_string(),
                    games: entries.len(),
                    streak,
                    on_fire: s.on_fire,
                    berserks: entries.iter().filter(|e| e.berserk).count(),
                    berserk_points: entries.iter().filter(|e| e.berserk_bonus).count(),
                    performance: s.performance,
                    sheet: s.sheet.to_string(),
                });
            }
        }
        cards
    }
}

/// chess-results' crosstable cell: opponent's number, colour, result.
fn cell(e: &rookery_tournament::RoundEntry) -> String {
    let result = match e.result {
        ResultCode::Win | ResultCode::UnratedWin => "1",
        ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfPointBye => "½",
        ResultCode::Loss | ResultCode::UnratedLoss => "0",
        ResultCode::ForfeitWin | ResultCode::FullPointBye | ResultCode::PairingAllocatedBye => "+",
        ResultCode::ForfeitLoss | ResultCode::ZeroPointBye => "-",
    };
    match (e.opponent, e.colour) {
        (Some(o), Some(c)) => {
            let c = if c == rookery_core::Color::White { "w" } else { "b" };
            format!("{}{c}{result}", o.get())
        }
        _ => result.to_owned(),
    }
}

/// One line per standings row, as the exports write them.
pub(crate) fn lines_of(rows: StandingRows) -> Vec<Line> {
    match rows {
        StandingRows::Competition(rows) => rows
            .into_iter()
            .map(|r| Line {
                rank: r.rank,
                name: r.name,
                tpn: Some(r.tpn),
                rating: r.rating,
                score: r.score,
                tiebreaks: r.tiebreaks,
            })
            .collect(),
        StandingRows::Arena(rows) => rows
            .into_iter()
            .map(|r| Line {
                rank: r.rank,
                name: r.name,
                tpn: None,
                rating: Some(r.rating),
                score: r.score,
                tiebreaks: Vec::new(),
            })
            .collect(),
    }
}
