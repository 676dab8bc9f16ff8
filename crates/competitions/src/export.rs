//! A tournament's exports: TRF-2026, standings as CSV and as a printable page, the list of its
//! games (for the PGN). Written from the typed standings and crosstable, as the views are.

use std::collections::HashMap;
use std::fmt::Write;

use rookery_core::Color;
use rookery_tournament::competition::RoundState;
use rookery_tournament::trf::{self, LineEnding, WriteOptions};

use super::book::Tour;
use super::calendar;
use super::log::{Entry, IncidentKind, Misconduct, Penalty, Sanction};
use super::settings::Format;
use super::standings::{CrossRow, StandingRows};

/// The exports.
#[derive(Clone, Copy, Debug)]
pub enum Export {
    /// TRF-2026, CR or LF line ends.
    Trf {
        /// LF line ends.
        lf: bool,
    },
    /// Standings as CSV.
    Csv,
    /// A printable page.
    Html,
    /// The game ids, in round and board order (for the PGN).
    Games,
}

/// One standings line as the exports write it.
struct Line {
    rank: u32,
    name: String,
    tpn: Option<u32>,
    rating: Option<u16>,
    score: String,
    tiebreaks: Vec<String>,
}

impl Tour {
    /// The standings lines and the crosstable, a Swiss's or an arena's (which has none).
    fn export_rows(&self) -> (Vec<Line>, Vec<CrossRow>) {
        let (standings, cross) = if self.settings.format == Format::Arena {
            (self.arena_standings().0, Vec::new())
        } else {
            self.standings()
        };
        let lines = match standings.rows {
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
        };
        (lines, cross)
    }

    /// The exports as text.
    pub fn export(&self, export: Export) -> String {
        match export {
            Export::Trf { lf } => {
                let mut t = self.book.comp.to_tournament();
                // A guest's particulars from the imported list, as a rating officer wants them
                // on the `001` line (issue 53): federation, FIDE ID, birth (the year alone).
                for (player, id) in t.players.iter_mut().zip(self.book.comp.pairing_order()) {
                    if let Some(g) = self.book.guests.get(&id.0) {
                        player.federation = g.federation.clone();
                        player.fide_id = g.fide_id;
                        player.birth_date = g.birth_year.map(|y| format!("{y}/00/00"));
                    }
                }
                t.name = Some(self.settings.name.clone());
                t.time_control = Some(self.settings.time_control.clone());
                // The dates a rating report needs (TRF `042`, `052`, `132`): the start, the
                // end (the last round's date while it runs), each round's publication.
                let rounds = self.round_dates();
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
            Export::Csv => self.csv(),
            Export::Html => self.html(),
        }
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

    /// The game ids, in round and board order, then the arena's.
    fn game_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
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
        for line in self.export_rows().0 {
            let text = |n: Option<String>| n.unwrap_or_default();
            let _ = write!(
                out,
                "{},{},{},{},{}",
                line.rank,
                csv(&line.name),
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

    /// A printable page: standings with tie-breaks and the crosstable, with its notes of
    /// the incidents over the board.
    fn html(&self) -> String {
        let (lines, cross) = self.export_rows();
        let mut out = format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>{0}</title>\
             <style>body{{font-family:sans-serif}}table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:2px 6px}}@media print{{a{{color:black}}}}</style>\
             </head><body><h1>{0}</h1><p>{1}, {2}, {3}</p><h2>Standings</h2><table><tr><th>Rk</th><th>Name</th><th>Pts</th>",
            html(&self.settings.name),
            self.settings.format.as_str(),
            html(&tc_label(&self.settings.time_control)),
            self.book.status.as_str()
        );
        for code in &self.settings.tiebreaks {
            let _ = write!(out, "<th>{}</th>", html(code));
        }
        out.push_str("</tr>");
        for line in &lines {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td>",
                line.rank,
                html(&line.name),
                line.score
            );
            for t in &line.tiebreaks {
                let _ = write!(out, "<td>{t}</td>");
            }
            out.push_str("</tr>");
        }
        out.push_str("</table><h2>Crosstable</h2><table><tr><th>No</th><th>Name</th>");
        for r in 1..=self.book.comp.rounds().len() {
            let _ = write!(out, "<th>{r}</th>");
        }
        out.push_str("<th>Pts</th></tr>");
        let (notes, note_of) = self.incident_notes();
        let rounds = self.book.comp.rounds();
        for row in &cross {
            let _ = write!(out, "<tr><td>{}</td><td>{}</td>", row.tpn, html(&row.name));
            for (i, c) in row.rounds.iter().enumerate() {
                // Over the board, the round's board with incidents is marked with its note.
                let board = rounds.get(i).and_then(|r| {
                    r.boards.iter().position(|b| {
                        self.name_of(b.white) == row.name || self.name_of(b.black) == row.name
                    })
                });
                let note = board.and_then(|b| note_of.get(&(i as u32 + 1, b as u32 + 1)));
                match note {
                    Some(n) => {
                        let _ = write!(out, "<td>{}<sup>{n}</sup></td>", html(c));
                    }
                    None => {
                        let _ = write!(out, "<td>{}</td>", html(c));
                    }
                }
            }
            let _ = write!(out, "<td>{}</td></tr>", row.score.as_deref().unwrap_or(""));
        }
        out.push_str("</table>");
        if !notes.is_empty() {
            out.push_str("<h2>Incidents</h2><ol>");
            for note in &notes {
                let _ = write!(out, "<li>{}</li>", html(note));
            }
            out.push_str("</ol>");
        }
        out.push_str("</body></html>\n");
        out
    }

    /// The crosstable's notes (over the board; issue 53): each board with incidents, in round
    /// and board order, in words; and the note's number (from 1) of each (round, board).
    fn incident_notes(&self) -> (Vec<String>, HashMap<(u32, u32), usize>) {
        let mut notes = Vec::new();
        let mut note_of = HashMap::new();
        for (i, r) in self.book.comp.rounds().iter().enumerate() {
            let round = i as u32 + 1;
            for (board, list) in self.incidents(round) {
                let Some(b) = r.boards.get((board as usize).wrapping_sub(1)) else { continue };
                let (white, black) = (self.name_of(b.white), self.name_of(b.black));
                let said: Vec<String> = list
                    .iter()
                    .map(|(v, color)| {
                        let who = match color {
                            Some(Color::White) => format!("{white}: "),
                            Some(Color::Black) => format!("{black}: "),
                            None => String::new(),
                        };
                        let reason =
                            v.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
                        format!(
                            "{who}{}. Decision: {}{reason}",
                            incident_words(&v.what),
                            v.decision
                        )
                    })
                    .collect();
                notes.push(format!(
                    "Round {round}, board {board} ({white} – {black}): {}",
                    said.join("; ")
                ));
                note_of.insert((round, board), notes.len());
            }
        }
        (notes, note_of)
    }
}

/// An incident in the printable page's words (English, as the page is).
fn incident_words(what: &IncidentKind) -> String {
    match *what {
        IncidentKind::IllegalMove { count, penalty, added_ms, .. } => {
            let penalty = match penalty {
                Penalty::None => "counted".to_owned(),
                Penalty::TimeAdded => {
                    format!("{} s to the opponent", added_ms.unwrap_or(0) / 1000)
                }
                Penalty::Loss => "game lost".to_owned(),
            };
            format!("illegal move {count}, {penalty}")
        }
        IncidentKind::TimeAdded { seconds, .. } => format!("{seconds} s added"),
        IncidentKind::ColourMixup { before_quarter: true } => {
            "colours mixed up, replayed with the right colours".to_owned()
        }
        IncidentKind::ColourMixup { before_quarter: false } => {
            "colours mixed up, the game continued".to_owned()
        }
        IncidentKind::IrregularityAfter => {
            "irregularity found after the game, the result stands".to_owned()
        }
        IncidentKind::Misconduct { what, sanction, .. } => {
            let what = match what {
                Misconduct::Notes => "notes or books",
                Misconduct::OutsideHelp => "outside help",
                Misconduct::RepeatedDrawOffers => "repeated draw offers",
                Misconduct::Other => "other",
            };
            let sanction = match sanction {
                Sanction::Warning => "warning",
                Sanction::TimeDeducted => "time deducted",
                Sanction::Loss => "game lost",
            };
            format!("misconduct ({what}), {sanction}")
        }
    }
}

fn csv(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A time control as the site's pages write it (web/js `tcLabel`): minutes and the increment
/// or delay in seconds, `180` as `3+0`, `300d5` as `5d5`, `90+30` as `1.5+30`, `30+0` as
/// `30s+0`; other controls (several periods, days a move) as they are.
fn tc_label(tc: &str) -> String {
    let minutes = |seconds: &str| -> Option<String> {
        let s: f64 = seconds.parse().ok()?;
        let min = s / 60.0;
        Some(if min.fract() == 0.0 {
            format!("{min}")
        } else if min < 1.0 {
            format!("{seconds}s")
        } else {
            format!("{min:.1}")
        })
    };
    let simple = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if simple(tc) {
        return minutes(tc).map_or_else(|| tc.to_owned(), |m| format!("{m}+0"));
    }
    if let Some(at) = tc.find(['+', 'd', 'b']) {
        let (base, rest) = tc.split_at(at);
        if simple(base) && simple(&rest[1..]) {
            if let Some(m) = minutes(base) {
                return format!("{m}{rest}");
            }
        }
    }
    tc.to_owned()
}

/// `text` escaped for HTML text and attribute values.
pub(crate) fn html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
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
    use super::*;

    /// Issue 51: the printable standings said "180" where the pages say "3+0".
    #[test]
    fn time_controls_read_as_the_pages_write_them() {
        let cases = [
            ("180", "3+0"),
            ("300+3", "5+3"),
            ("90+30", "1.5+30"),
            ("30", "30s+0"),
            ("300d5", "5d5"),
            ("600b2", "10b2"),
            ("40/5400:1800+30", "40/5400:1800+30"),
            ("3d", "3d"),
            ("-", "-"),
        ];
        for (tc, label) in cases {
            assert_eq!(tc_label(tc), label, "{tc}");
        }
    }
}
