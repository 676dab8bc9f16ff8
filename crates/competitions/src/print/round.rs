//! A round's documents: the pairings by board and by name, the scoresheets, the result slips.

use std::fmt::Write;

use rookery_tournament::competition::{Entrant, EntrantId, Round};

use super::words::Words;
use super::SCORESHEET_MOVES;
use crate::book::Tour;
use crate::log::result_name;
use crate::text::html;

/// One round's documents.
pub(super) struct Page<'a> {
    pub(super) tour: &'a Tour,
    pub(super) round: &'a Round,
    pub(super) number: u32,
    pub(super) w: &'static Words,
}

impl Page<'_> {
    fn entrant(&self, id: EntrantId) -> &Entrant {
        &self.tour.book.comp.entrants()[id.0 as usize]
    }

    /// `GM Name (2450)`.
    fn player(&self, id: EntrantId) -> String {
        let e = self.entrant(id);
        player_label(e.title.as_deref(), &e.name, e.rating.map(u32::from))
    }

    fn heading(&self, out: &mut String, title: &str) {
        heading(out, &self.tour.settings.name, self.w, self.number, title);
    }

    fn result(&self, board: usize) -> &'static str {
        self.round.boards[board].result.map_or("", result_name)
    }

    pub(super) fn by_board(&self, out: &mut String, title: &str, qr: Option<String>) {
        let w = self.w;
        out.push_str("<div class=\"sheet\">");
        out.push_str(&qr.unwrap_or_default());
        self.heading(out, title);
        let _ = write!(
            out,
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            w.board, w.white, w.result, w.black
        );
        for (i, b) in self.round.boards.iter().enumerate() {
            let _ = write!(
                out,
                "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                i + 1,
                self.player(b.white),
                self.result(i),
                self.player(b.black)
            );
        }
        if let Some(pab) = self.round.pab {
            let _ = write!(
                out,
                "<tr><td></td><td>{}</td><td colspan=\"2\">{}</td></tr>",
                self.player(pab),
                w.bye
            );
        }
        out.push_str("</table></div>");
    }

    pub(super) fn by_name(&self, out: &mut String, title: &str, qr: Option<String>) {
        let w = self.w;
        // (name, board, colour, opponent)
        let mut lines: Vec<(String, String, String, String)> = Vec::new();
        for (i, b) in self.round.boards.iter().enumerate() {
            let board = (i + 1).to_string();
            lines.push((
                self.entrant(b.white).name.clone(),
                board.clone(),
                w.white.into(),
                self.player(b.black),
            ));
            lines.push((
                self.entrant(b.black).name.clone(),
                board,
                w.black.into(),
                self.player(b.white),
            ));
        }
        if let Some(pab) = self.round.pab {
            lines.push((
                self.entrant(pab).name.clone(),
                String::new(),
                String::new(),
                w.bye.into(),
            ));
        }
        let paired: Vec<EntrantId> = self
            .round
            .boards
            .iter()
            .flat_map(|b| [b.white, b.black])
            .chain(self.round.pab)
            .collect();
        for (i, e) in self.tour.book.comp.entrants().iter().enumerate() {
            let id = EntrantId(i as u32);
            let entered = e.first_round <= self.number;
            if entered && !paired.contains(&id) {
                lines.push((e.name.clone(), String::new(), String::new(), w.absent.into()));
            }
        }
        lines.sort_by(|a, b| {
            a.0.to_lowercase().cmp(&b.0.to_lowercase()).then_with(|| a.0.cmp(&b.0))
        });
        // An imported list's clubs (issue 53), so that a player finds the right namesake: a
        // column only when some entrant has one.
        let club_of = |name: &str| {
            let comp = &self.tour.book.comp;
            let id = comp.entrants().iter().position(|e| e.name == name)?;
            self.tour.book.guests.get(&(id as u32))?.club.clone()
        };
        let clubs = self.tour.book.guests.values().any(|g| g.club.is_some());
        out.push_str("<div class=\"sheet\">");
        out.push_str(&qr.unwrap_or_default());
        self.heading(out, title);
        let club_head = if clubs { format!("<th>{}</th>", w.club) } else { String::new() };
        let _ = write!(
            out,
            "<table><tr><th>{}</th>{club_head}<th>{}</th><th>{}</th><th>{}</th></tr>",
            w.name, w.board, w.colour, w.opponent
        );
        for (name, board, colour, opponent) in &lines {
            let club = if clubs {
                format!("<td>{}</td>", html(&club_of(name).unwrap_or_default()))
            } else {
                String::new()
            };
            let _ = write!(
                out,
                "<tr><td>{}</td>{club}<td class=\"n\">{board}</td><td>{colour}</td><td>{opponent}</td></tr>",
                html(name)
            );
        }
        out.push_str("</table></div>");
    }

    pub(super) fn scoresheets(&self, out: &mut String) {
        for (i, b) in self.round.boards.iter().enumerate() {
            let sheet = Sheet {
                round: self.number,
                board: (i + 1).to_string(),
                white: self.player(b.white),
                black: self.player(b.black),
            };
            scoresheet(out, self.tour, self.w, &sheet);
        }
    }

    pub(super) fn slips(&self, out: &mut String) {
        let w = self.w;
        out.push_str("<div class=\"slips\">");
        for (i, b) in self.round.boards.iter().enumerate() {
            let _ = write!(
                out,
                "<div class=\"slip\"><b>{}</b> — {} {} — {} {}<br>{}: {}<br>{}: {}\
                 <p>1-0 □ &nbsp; ½-½ ({}) □ &nbsp; 0-1 □</p>\
                 <p class=\"sign\">{}: ________ &nbsp; ________</p></div>",
                html(&self.tour.settings.name),
                w.round,
                self.number,
                w.board,
                i + 1,
                w.white,
                self.player(b.white),
                w.black,
                self.player(b.black),
                w.draw,
                w.signature
            );
        }
        out.push_str("</div>");
    }
}

/// The heading of a round's page: the event, then `Round N — title`.
pub(super) fn heading(out: &mut String, event: &str, w: &Words, round: u32, title: &str) {
    let _ = write!(out, "<h1>{}</h1><h2>{} {round} — {title}</h2>", html(event), w.round);
}

/// A player as the documents name them: `GM Name (2450)`, escaped.
pub(super) fn player_label(title: Option<&str>, name: &str, rating: Option<u32>) -> String {
    let mut s = String::new();
    if let Some(title) = title {
        let _ = write!(s, "{} ", html(title));
    }
    s.push_str(&html(name));
    if let Some(rating) = rating {
        let _ = write!(s, " ({rating})");
    }
    s
}

/// What a scoresheet is pre-filled with besides the event: the round, the board as the
/// hall numbers it (`3`, a team event's `2.3`), the players as HTML (a team player's with
/// the team).
pub(super) struct Sheet {
    pub(super) round: u32,
    pub(super) board: String,
    pub(super) white: String,
    pub(super) black: String,
}

/// One scoresheet, a page: the event and its time control, the round, the board and the
/// players, the notation rule, two columns of move lines, the result and the signatures.
pub(super) fn scoresheet(out: &mut String, tour: &Tour, w: &Words, sheet: &Sheet) {
    let _ = write!(
        out,
        "<div class=\"sheet\"><h1>{}</h1><table><tr><th>{}</th><td>{} ({})</td>\
         <th>{}</th><td>{}</td><th>{}</th><td>{}</td></tr>\
         <tr><th>{}</th><td colspan=\"5\">{}</td></tr>\
         <tr><th>{}</th><td colspan=\"5\">{}</td></tr></table>\
         <p class=\"rule\">{}</p><div class=\"moves\">",
        w.scoresheet,
        w.event,
        html(&tour.settings.name),
        html(&tour.settings.time_control),
        w.round,
        sheet.round,
        w.board,
        sheet.board,
        w.white,
        sheet.white,
        w.black,
        sheet.black,
        w.notation
    );
    let half = SCORESHEET_MOVES / 2;
    for column in 0..2 {
        let _ = write!(out, "<table><tr><th></th><th>{}</th><th>{}</th></tr>", w.white, w.black);
        for m in 1..=half {
            let _ = write!(
                out,
                "<tr><td class=\"n\">{}</td><td></td><td></td></tr>",
                column * half + m
            );
        }
        out.push_str("</table>");
    }
    let _ = write!(
        out,
        "</div><p class=\"sign\">{}: 1-0 □ &nbsp; ½-½ □ &nbsp; 0-1 □</p>\
         <p class=\"sign\">{} ({}): ________ &nbsp; {} ({}): ________</p></div>",
        w.result, w.signature, w.white, w.signature, w.black
    );
}
