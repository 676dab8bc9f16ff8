//! A tournament's exports: TRF-2026, standings as CSV and as a printable page, the list of its
//! games and their PGN. Written from the typed standings and crosstable, as the views are; a
//! team event's from its book (`team::export`).

use std::fmt::Write;

use rookery_tournament::competition::RoundState;
use rookery_tournament::trf::{self, LineEnding, WriteOptions};

use super::book::Tour;
use super::calendar;
use super::log::Entry;
use super::print::{Document, Lang, PrintRequest};
use super::refusal::TournamentRefusal;
use super::standings::lines_of;
use super::text::csv_field;

/// The exports.
#[derive(Clone, Copy, Debug)]
pub enum Export {
    /// TRF-2026, CR or LF line ends.
    Trf {
        /// LF line ends.
        lf: bool,
    },
    /// Standings as CSV (a team event's: the teams').
    Csv,
    /// A team event's board prize table as CSV.
    BoardPrizesCsv,
    /// A printable page.
    Html,
    /// The game ids, in round and board order (for the PGN).
    Games,
}

impl Tour {
    /// The exports as text.
    ///
    /// # Errors
    /// [`TournamentRefusal::WrongFormat`] for the board prizes of an event without teams.
    pub fn export(&self, export: Export) -> Result<String, TournamentRefusal> {
        let team = self.book.team.as_ref();
        let regulations = self.settings.regulations();
        Ok(match export {
            Export::Trf { lf } => {
                // The dates a rating report needs (TRF `042`, `052`, `132`): the start, the
                // end (the last round's date while it runs), each round's: an individual
                // round's publication, a team round's pairing.
                let (mut t, rounds) = match team {
                    Some(team) => (
                        team.report(&self.settings),
                        team.rounds.iter().map(|r| r.paired_at).collect(),
                    ),
                    None => (self.individual_report(), self.round_dates()),
                };
                t.name = Some(self.settings.name.clone());
                t.time_control = Some(self.settings.time_control.clone());
                let end = self.ended_at().or_else(|| rounds.last().copied());
                t.start_date = self.book.started_at.map(calendar::trf_date);
                t.end_date = end.map(calendar::trf_date);
                if !rounds.is_empty() {
                    t.other_lines.push(("132".to_owned(), round_dates_record(&rounds)));
                }
                let ending = if lf { LineEnding::Lf } else { LineEnding::Cr };
                trf::write_with(&t, WriteOptions { line_ending: ending })
                    .unwrap_or_else(|e| format!("error: {e}"))
            }
            Export::Games => self.game_ids().join("\n"),
            Export::Csv => match team {
                Some(team) => team.standings_csv(regulations),
                None => self.csv(),
            },
            Export::BoardPrizesCsv => team
                .ok_or(TournamentRefusal::WrongFormat("only a team event has board prizes"))?
                .board_prizes_csv(regulations),
            // The printed standings' one template, in English.
            Export::Html => {
                let request = PrintRequest {
                    document: Document::Standings,
                    round: None,
                    lang: Lang::En,
                    page_url: None,
                };
                self.print(&request)?
            }
        })
    }

    /// The PGN of the tournament's games, given the records the site holds of them (by game
    /// id, as [`Export::Games`] lists them): an individual event's are the records as they
    /// are; a team event's name the teams (see `TeamBook::pgn`).
    pub fn pgn(&self, records: &[(String, String)]) -> String {
        match &self.book.team {
            Some(team) => team.pgn(
                &self.settings.name,
                &|round, seat| self.team_game(round, seat.number, seat.board).to_string(),
                records,
            ),
            None => {
                let mut out = String::new();
                for (_, pgn) in records {
                    out.push_str(pgn.trim_end());
                    out.push_str("\n\n");
                }
                out
            }
        }
    }

    /// An individual event's report: the competition's, with an imported guest's particulars
    /// as a rating officer wants them on the `001` line (issue 53): federation, FIDE ID,
    /// birth (the year alone).
    fn individual_report(&self) -> rookery_tournament::Tournament {
        let mut t = self.book.comp.to_tournament();
        for (player, id) in t.players.iter_mut().zip(self.book.comp.pairing_order()) {
            if let Some(g) = self.book.guests.get(&id.0) {
                player.federation = g.federation.clone();
                player.fide_id = g.fide_id;
                player.birth_date = g.birth_year.map(|y| format!("{y}/00/00"));
            }
        }
        t
    }

    /// When each round was published (Unix ms), round 1 first: its games' date.
    pub(crate) fn round_dates(&self) -> Vec<u64> {
        let mut dates = vec![None; self.book.comp.rounds().len()];
        for e in &self.log {
            if let Entry::Publish(p) = &e.detail.data.0 {
                if let Some(date) = dates.get_mut((p.round as usize).wrapping_sub(1)) {
                    *date = Some(e.at_ms as u64);
                }
            }
        }
        dates.into_iter().map_while(|d| d).collect()
    }

    /// When the tournament ended (its `end` entry), if it has.
    fn ended_at(&self) -> Option<u64> {
        self.log
            .iter()
            .rev()
            .find(|e| matches!(e.detail.data.0, Entry::End(_)))
            .map(|e| e.at_ms as u64)
    }

    /// The game ids, in round and board order, then the arena's; a team event's played on the
    /// site in round, match and board order.
    fn game_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        if let Some(team) = &self.book.team {
            for (r, round) in team.rounds.iter().zip(1..).filter(|(r, _)| r.on) {
                for (m, number) in r.matches.iter().zip(1..) {
                    for board in 1..=m.results.len() as u32 {
                        ids.push(self.team_game(round, number, board).to_string());
                    }
                }
            }
        }
        for (i, r) in self.book.comp.rounds().iter().enumerate() {
            if r.state == RoundState::Paired {
                continue;
            }
            for b in 0..r.boards.len() {
                ids.push(self.board_game(i as u32 + 1, b as u32 + 1).to_string());
            }
        }
        for n in 1..=self.arena_games_paired() {
            ids.push(self.arena_game(n).to_string());
        }
        ids
    }

    /// `rank,name,tpn,rating,score,<tie-break codes…>`, one line per player.
    fn csv(&self) -> String {
        let mut out = String::from("rank,name,tpn,rating,score");
        for code in &self.settings.tiebreaks {
            let _ = write!(out, ",{code}");
        }
        out.push('\n');
        for line in lines_of(self.any_standings().0.rows) {
            let text = |n: Option<String>| n.unwrap_or_default();
            let _ = write!(
                out,
                "{},{},{},{},{}",
                line.rank,
                csv_field(&line.name),
                text(line.tpn.map(|t| t.to_string())),
                text(line.rating.map(|r| r.to_string())),
                line.score
            );
            for t in &line.tiebreaks {
                let _ = write!(out, ",{t}");
            }
            out.push('\n');
        }
        out
    }
}

/// TRF's `132` record after its code and space: each round's date (`YY/MM/DD`) above the
/// round's column of the player lines (the first at column 92, then every 10 columns).
fn round_dates_record(dates: &[u64]) -> String {
    let mut rest = " ".repeat(91 - 4);
    for (i, &ms) in dates.iter().enumerate() {
        if i > 0 {
            rest.push_str("  ");
        }
        rest.push_str(&calendar::trf_round_date(ms));
    }
    rest
}

#[cfg(test)]
mod tests {
    use rookery_tournament::trf::{self, LineEnding, WriteOptions};
    use rookery_tournament::{PlayerId, ResultCode};

    use crate::fixtures;
    use crate::Export;

    /// The report reads back with our own reader, every `013` team with its players in board
    /// order, and writes back the same; each player's games are there board by board.
    #[test]
    fn the_trf_report_reads_back_with_its_teams_and_games() {
        let text = fixtures::team_finished().export(Export::Trf { lf: true }).unwrap();
        let t = trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let options = WriteOptions { line_ending: LineEnding::Lf };
        assert_eq!(trf::write_with(&t, options).unwrap(), text);
        let teams: Vec<(&str, Vec<u32>)> = t
            .teams
            .iter()
            .map(|team| (team.name.as_str(), team.players.iter().map(|p| p.get()).collect()))
            .collect();
        let expected =
            [("Rooks", 1..=3), ("Knights", 4..=6), ("Bishops", 7..=9), ("Pawns, Inc.", 10..=12)];
        let expected: Vec<(&str, Vec<u32>)> =
            expected.into_iter().map(|(n, r)| (n, r.collect())).collect();
        assert_eq!(teams, expected);
        for (line, team) in text.lines().filter(|l| l.starts_with("013")).zip(&t.teams) {
            // TRF-2026: the name in columns 5–36, the first player at 37–40.
            let first = line.chars().skip(36).take(4).collect::<String>();
            assert_eq!(first.trim(), team.players[0].to_string(), "{line}");
        }
        assert!(text.contains("\n352 WB\n") && text.contains("\n082 4\n"), "{text}");
        let rounds = |n: u32| {
            let p = t.player(PlayerId::new(n).unwrap()).unwrap();
            let entries: Vec<_> = p
                .rounds
                .iter()
                .map(|e| (e.opponent.map_or(0, |o| o.get()), e.colour, e.result))
                .collect();
            (p.name.clone(), p.points.to_string(), entries)
        };
        use rookery_core::Color::{Black, White};
        use ResultCode::*;
        // Board 1 of Rooks, then Knights' board 2, who lost a forfeit, sat out round 2 for the
        // reserve and won round 3; the reserve's one board was a double forfeit.
        let cases = [
            (
                1,
                "Ruiz, Ana",
                "2.5",
                [(10, Some(White), Win), (4, Some(White), Win), (7, Some(Black), Draw)],
            ),
            (
                5,
                "Kaur, Jas",
                "1.0",
                [(8, Some(Black), ForfeitLoss), (0, None, ZeroPointBye), (11, Some(Black), Win)],
            ),
            (
                6,
                "Kent, Ola",
                "0.0",
                [(0, None, ZeroPointBye), (2, Some(White), ForfeitLoss), (0, None, ZeroPointBye)],
            ),
            (
                8,
                "Bo, Li",
                "1.5",
                [(5, Some(White), ForfeitWin), (11, Some(White), Draw), (2, Some(Black), Loss)],
            ),
        ];
        for (n, name, points, entries) in cases {
            assert_eq!(
                rounds(n),
                (name.to_owned(), points.to_owned(), entries.to_vec()),
                "player {n}"
            );
        }
    }

    /// The standings' columns are the event's tie-breaks in order; the values are the
    /// fixture's worked by hand (C.07 team SB: each opponent's match points times the game
    /// points scored against it; BH: the opponents' match points).
    #[test]
    fn the_standings_and_board_prizes_are_one_csv_each() {
        let tour = fixtures::team_finished();
        let standings = tour.export(Export::Csv).unwrap();
        assert_eq!(
            standings,
            "rank,team,match_points,game_points,GP,DE,SB,BH\n\
             1,Rooks,6.0,4.0,4,0,8.5,6\n\
             2,Bishops,3.0,3.5,3.5,0,7,9\n\
             3,\"Pawns, Inc.\",2.0,2.5,2.5,0,7,10\n\
             4,Knights,1.0,1.0,1,0,2,11\n"
        );
        let prizes = tour.export(Export::BoardPrizesCsv).unwrap();
        let lines: Vec<&str> = prizes.lines().collect();
        assert_eq!(lines[0], "board,player,team,points,games,percent,eligible");
        assert_eq!(lines[1], "1,\"Ruiz, Ana\",Rooks,2.5,3,83.3,yes");
        // A forfeit is no game on the board: one game played, short of the two a prize needs.
        assert_eq!(lines.last(), Some(&"2,\"Kaur, Jas\",Knights,1.0,1,100.0,no"));
        assert_eq!(lines.len(), 1 + 8, "{prizes}");
    }

    /// An event without teams has no board prizes: refused, not an empty table.
    #[test]
    fn board_prizes_need_teams() {
        let mut tour = fixtures::team_finished();
        tour.book.team = None;
        assert!(tour.export(Export::BoardPrizesCsv).is_err());
    }

    /// At the board, a game is its result with the teams; a forfeit is left out; a record the
    /// site holds keeps its moves and its own tags but is named as the event names it.
    #[test]
    fn the_pgn_names_the_teams_and_the_boards() {
        let tour = fixtures::team_finished();
        let pgn = tour.pgn(&[]);
        // 12 boards, of which one forfeit and one double forfeit.
        assert_eq!(pgn.matches("[Event \"Club <League>\"]").count(), 10, "{pgn}");
        let round_1_board_2 = "[Round \"1.2\"]\n[White \"王, 芳\"]\n[Black \"Rao, Dev\"]\n\
                               [Result \"1/2-1/2\"]\n[WhiteTeam \"Pawns, Inc.\"]\n\
                               [BlackTeam \"Rooks\"]\n[Board \"2\"]\n\n1/2-1/2";
        assert!(pgn.contains(round_1_board_2), "{pgn}");
        assert!(!pgn.contains("Kent, Ola"), "the double forfeit is no game: {pgn}");

        let id = tour.team_game(3, 2, 2).to_string();
        let stored = "[Event \"Rookery tournament tx1\"]\n[Site \"Rookery, game x\"]\n\
                      [Date \"2026.06.11\"]\n[Round \"3.4\"]\n[White \"Rao, Dev\"]\n\
                      [Black \"Bo, Li\"]\n[Result \"1-0\"]\n[GameId \"x\"]\n\n1. e4 e5 1-0\n";
        let pgn = tour.pgn(&[(id, stored.to_owned())]);
        let expected = "[Event \"Club <League>\"]\n[Site \"Rookery, game x\"]\n\
                        [Date \"2026.06.11\"]\n[Round \"3.4\"]\n[White \"Rao, Dev\"]\n\
                        [Black \"Bo, Li\"]\n[Result \"1-0\"]\n[WhiteTeam \"Rooks\"]\n\
                        [BlackTeam \"Bishops\"]\n[Board \"2\"]\n[GameId \"x\"]\n\n1. e4 e5 1-0\n";
        assert!(pgn.ends_with(&format!("{}\n\n", expected.trim_end())), "{pgn}");
    }
}
