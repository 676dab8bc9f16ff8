//! A team event's documents (issue 54): a round's matches (each match's teams, then its
//! boards with the colours and the players), the scoresheets of every board of a round
//! (the individual sheet's template, with the teams), and the team standings with the
//! crosstable of matches. The heading, the player's label and the scoresheet are the
//! individual documents' (`round`); the words are the language's (`words`).

use std::fmt::Write;

use rookery_core::Color;
use rookery_tournament::team::{BoardColours, TeamId};
use rookery_tournament::Score;

use super::round::{heading, player_label, scoresheet, Sheet};
use super::words::Words;
use super::Document;
use crate::book::Tour;
use crate::log::result_name;
use crate::refusal::TournamentRefusal;
use crate::team::{MatchBook, TeamBook};
use crate::text::{html, tc_label};

/// The documents a team event prints; the others are a player's event's.
pub(super) fn printable(document: Document) -> Result<(), TournamentRefusal> {
    match document {
        Document::PairingsByBoard | Document::Scoresheets | Document::Standings => Ok(()),
        _ => Err(TournamentRefusal::WrongFormat(
            "a team event prints its matches (pairings), scoresheets and standings",
        )),
    }
}

/// A team event's page of one round or of the event.
pub(super) struct TeamPage<'a> {
    pub(super) tour: &'a Tour,
    pub(super) team: &'a TeamBook,
    pub(super) w: &'static Words,
}

impl TeamPage<'_> {
    fn name(&self, t: TeamId) -> &str {
        self.team.teams[t.index()].team.name()
    }

    /// The player of team `t` on `board` of `round` as the documents name them, and their
    /// team: `Name (2100)`, `Rooks`.
    fn player(&self, round: u32, t: TeamId, board: u32) -> String {
        let team = &self.team.teams[t.index()].team;
        self.team
            .line_up_of(round, t)
            .on_board(board as usize)
            .and_then(|p| team.roster().get(p))
            .map(|p| player_label(None, &p.name, p.rating))
            .unwrap_or_default()
    }

    /// A match's game points so far, its first team's first.
    fn score(m: &MatchBook) -> [Score; 2] {
        let mut score = [Score::ZERO; 2];
        for (result, board) in m.results.iter().zip(1..) {
            let Some(r) = result else { continue };
            let first = BoardColours::Alternating.colour_of_first(board);
            let r = crate::team::board_result(*r);
            score[0] += r.points(first);
            score[1] += r.points(!first);
        }
        score
    }

    /// Each board of match `m` of `round`: (board, White's and Black's label with the team,
    /// the result so far).
    fn boards(&self, round: u32, m: &MatchBook) -> Vec<(u32, String, String, &'static str)> {
        (1..=m.results.len() as u32)
            .map(|board| {
                let first = BoardColours::Alternating.colour_of_first(board as usize);
                let (white, black) = match first {
                    Color::White => (m.white, m.black),
                    Color::Black => (m.black, m.white),
                };
                let label = |t: TeamId| {
                    format!("{} — {}", self.player(round, t, board), html(self.name(t)))
                };
                let result = m.results[board as usize - 1].map_or("", result_name);
                (board, label(white), label(black), result)
            })
            .collect()
    }

    /// The matches of round `number`: each match a heading row (its number, the teams, the
    /// game points once begun), then its boards as `match.board`, White, result, Black.
    pub(super) fn matches(&self, out: &mut String, number: u32, title: &str, qr: Option<String>) {
        let (w, round) = (self.w, &self.team.rounds[number as usize - 1]);
        out.push_str("<div class=\"sheet\">");
        out.push_str(&qr.unwrap_or_default());
        heading(out, &self.tour.settings.name, w, number, title);
        let _ = write!(
            out,
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            w.board, w.white, w.result, w.black
        );
        for (m, n) in round.matches.iter().zip(1..) {
            let score = if m.begun() {
                let [a, b] = Self::score(m);
                format!(" {a} : {b}")
            } else {
                String::new()
            };
            let _ = write!(
                out,
                "<tr class=\"match\"><th colspan=\"4\">{n}. {} – {}{score}</th></tr>",
                html(self.name(m.white)),
                html(self.name(m.black))
            );
            for (board, white, black, result) in self.boards(number, m) {
                let _ = write!(
                    out,
                    "<tr><td class=\"n\">{n}.{board}</td><td>{white}</td><td>{result}</td>\
                     <td>{black}</td></tr>"
                );
            }
        }
        if let Some(bye) = round.bye {
            let _ = write!(
                out,
                "<tr><td></td><td>{}</td><td colspan=\"2\">{}</td></tr>",
                html(self.name(bye)),
                w.team.bye
            );
        }
        out.push_str("</table></div>");
    }

    /// A scoresheet for every board of every match of round `number`, the board numbered as
    /// the desk enters its result (`match.board`).
    pub(super) fn scoresheets(&self, out: &mut String, number: u32) {
        for (m, n) in self.team.rounds[number as usize - 1].matches.iter().zip(1..) {
            for (board, white, black, _) in self.boards(number, m) {
                let sheet = Sheet { round: number, board: format!("{n}.{board}"), white, black };
                scoresheet(out, self.tour, self.w, &sheet);
            }
        }
    }

    /// The team standings with the event's tie-breaks, then the crosstable of matches: each
    /// team (by number, in rank order) and each round's opponent by number, the team's colour
    /// on board 1 and its game points in the match, then its match and game points.
    pub(super) fn standings(&self, out: &mut String) {
        let w = self.w;
        let done = self.team.rounds.iter().take_while(|r| r.finished()).count();
        let (rows, _) = self.team.standing_rows(self.tour.settings.regulations());
        let _ = write!(
            out,
            "<div class=\"sheet\"><h1>{}</h1><h2>{} — {}</h2><p>{}, {}</p>\
             <table><tr><th class=\"n\">{}</th><th>{}</th><th class=\"n\">{}</th>\
             <th class=\"n\">{}</th>",
            html(&self.tour.settings.name),
            w.standings,
            (w.after_round)(done as u32),
            self.tour.settings.format.as_str(),
            html(&tc_label(&self.tour.settings.time_control)),
            w.rank,
            w.team.team,
            w.team.match_points,
            w.team.game_points,
        );
        for t in self.team.settings.tiebreak_list() {
            let _ = write!(out, "<th class=\"n\">{}</th>", t.code());
        }
        out.push_str("</tr>");
        for row in &rows {
            out.push_str("<tr>");
            for (i, cell) in row.cells().iter().enumerate() {
                // The team's name left, the figures right.
                let class = if i == 1 { "" } else { " class=\"n\"" };
                let _ = write!(out, "<td{class}>{}</td>", html(cell));
            }
            out.push_str("</tr>");
        }
        let _ = write!(
            out,
            "</table><h2>{}</h2><table class=\"cross\"><tr><th class=\"n\">{}</th><th>{}</th>",
            w.crosstable, w.number, w.team.team
        );
        for r in 1..=done {
            let _ = write!(out, "<th>{r}</th>");
        }
        let _ = write!(
            out,
            "<th class=\"n\">{}</th><th class=\"n\">{}</th></tr>",
            w.team.match_points, w.team.game_points
        );
        for row in &rows {
            let Ok(number) = self.team.find(&row.team) else { continue };
            let t = TeamId::from_index(number as usize - 1);
            let _ = write!(out, "<tr><td class=\"n\">{number}</td><td>{}</td>", html(&row.team));
            for round in &self.team.rounds[..done] {
                let _ = write!(out, "<td>{}</td>", html(&cross_cell(round, t, w)));
            }
            let _ = write!(
                out,
                "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                row.match_points, row.game_points
            );
        }
        out.push_str("</table></div>");
    }
}

/// Team `t`'s cell of a finished round: `4w 1.5` (the opponent's number, the colour on board
/// 1, the game points), the bye, or nothing when the team was not paired.
fn cross_cell(round: &crate::team::RoundBook, t: TeamId, w: &Words) -> String {
    if round.bye == Some(t) {
        return w.bye.to_owned();
    }
    round
        .matches
        .iter()
        .find(|m| m.white == t || m.black == t)
        .map(|m| {
            let [a, b] = TeamPage::score(m);
            let (opponent, colour, points) =
                if m.white == t { (m.black, 'w', a) } else { (m.white, 'b', b) };
            format!("{}{colour} {points}", opponent.get())
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::fixtures;
    use crate::{Document, Lang, PrintRequest};

    fn print(document: Document, round: Option<u32>, lang: Lang) -> String {
        let request = PrintRequest { document, round, lang, page_url: None };
        fixtures::team_finished().print(&request).unwrap()
    }

    /// Each match a heading row with its teams and score, then its boards by
    /// `match.board`, the colours alternating (board 2's White is the second team's).
    #[test]
    fn the_match_list_gives_each_match_then_its_boards() {
        let page = print(Document::PairingsByBoard, Some(2), Lang::En);
        assert!(page.contains("<h2>Round 2 — Matches</h2>"), "{page}");
        let rooks_knights = "<th colspan=\"4\">2. Rooks – Knights 1.0 : 0.0</th></tr>\
             <tr><td class=\"n\">2.1</td><td>Ruiz, Ana (2200) — Rooks</td><td>1-0</td>\
             <td>Kim, Min (2150) — Knights</td></tr>\
             <tr><td class=\"n\">2.2</td><td>Kent, Ola (1850) — Knights</td><td>--</td>\
             <td>Rao, Dev (2100) — Rooks</td></tr>";
        assert!(page.contains(rooks_knights), "the reserve fielded on board 2: {page}");
        let zh = print(Document::PairingsByBoard, Some(2), Lang::Zh);
        for words in ["<html lang=\"zh-Hans\">", "团体对阵表", "<th>台次</th><th>白方</th>"]
        {
            assert!(zh.contains(words), "{words}: {zh}");
        }
        assert!(zh.contains("2. Rooks – Knights 1.0 : 0.0"), "{zh}");
    }

    /// A sheet a board, pre-filled as an individual one (the same template), with the teams.
    #[test]
    fn every_board_of_the_round_has_its_scoresheet() {
        let page = print(Document::Scoresheets, Some(1), Lang::En);
        assert_eq!(page.matches("<div class=\"sheet\">").count(), 4, "{page}");
        let board = "<th>Board</th><td>1.2</td></tr><tr><th>White</th>\
                     <td colspan=\"5\">王, 芳 (1800) — Pawns, Inc.</td></tr>\
                     <tr><th>Black</th><td colspan=\"5\">Rao, Dev (2100) — Rooks</td>";
        assert!(page.contains(board), "{page}");
        assert!(page.contains("Record every move"), "the notation rule: {page}");
        let zh = print(Document::Scoresheets, Some(1), Lang::Zh);
        assert!(zh.contains("记录纸") && zh.contains("代数记录法"), "{zh}");
    }

    /// The standings with the tie-breaks in the event's order, then the crosstable of
    /// matches in rank order: opponent, colour on board 1, game points.
    #[test]
    fn the_standings_carry_the_crosstable_of_matches() {
        let page = print(Document::Standings, None, Lang::En);
        let head = "<th class=\"n\">Rk</th><th>Team</th><th class=\"n\">MP</th>\
                    <th class=\"n\">GP</th><th class=\"n\">GP</th><th class=\"n\">DE</th>\
                    <th class=\"n\">SB</th><th class=\"n\">BH</th>";
        assert!(page.contains(head), "{page}");
        let cross = "<tr><td class=\"n\">1</td><td>Rooks</td><td>4w 1.5</td><td>2w 1.0</td>\
                     <td>3b 1.5</td><td class=\"n\">6.0</td><td class=\"n\">4.0</td></tr>";
        assert!(page.contains(cross), "{page}");
        let zh = print(Document::Standings, None, Lang::Zh);
        for words in ["成绩排名 — 第 3 轮后", "<th>队伍</th>", "场分", "局分", "交叉表"]
        {
            assert!(zh.contains(words), "{words}: {zh}");
        }
    }

    /// What a team event does not print is refused, not printed from the empty individual
    /// book; a round not paired is refused as for any event.
    #[test]
    fn other_documents_are_refused() {
        let tour = fixtures::team_finished();
        for document in [Document::PairingsByName, Document::ResultSlips, Document::WallChart] {
            let request = PrintRequest { document, round: Some(1), lang: Lang::En, page_url: None };
            let refused = tour.print(&request).unwrap_err();
            assert_eq!(refused.code(), "wrong_format", "{document:?}");
        }
        let request = PrintRequest {
            document: Document::Scoresheets,
            round: Some(4),
            lang: Lang::En,
            page_url: None,
        };
        assert!(matches!(tour.print(&request), Err(crate::TournamentRefusal::RoundNotPaired(4))));
    }
}
