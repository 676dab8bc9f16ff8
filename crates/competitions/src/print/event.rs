//! The event's documents: the standings (tie-breaks, performance, over the board each
//! FIDE-rated player's rating change; then the crosstable with the incidents' notes) and the
//! wall chart (pairing-number order, each round's opponent, colour and result, the score).

use std::collections::HashMap;
use std::fmt::Write;

use rookery_core::Color;

use super::words::{IncidentWords, Words};
use crate::book::Tour;
use crate::log::{IncidentKind, Misconduct, Penalty, Sanction};
use crate::standings::lines_of;
use crate::standings::{CrossRow, StandingRows};
use crate::text::{html, tc_label};

/// A player's performance rating, FIDE rating change and §11 span, as printed.
#[derive(Clone, Default)]
struct RatingColumns {
    performance: Option<i64>,
    fide: Option<String>,
    ladder: Option<String>,
}

impl Tour {
    /// The standings, the crosstable and its notes.
    pub(super) fn print_standings(&self, out: &mut String, w: &Words) {
        // Computed once: the lines and the rating officer's columns come from the same rows.
        let (standings, cross) = self.any_standings();
        let extra = rating_columns(&standings.rows, w);
        let lines = lines_of(standings.rows);
        let fide = extra.values().any(|c| c.fide.is_some());
        let ladder = extra.values().any(|c| c.ladder.is_some());
        let perf = !extra.is_empty();
        let _ = write!(
            out,
            "<div class=\"sheet\"><h1>{}</h1><h2>{} — {}</h2><p>{}, {}</p>\
             <table><tr><th class=\"n\">{}</th><th class=\"n\">{}</th><th>{}</th>\
             <th class=\"n\">{}</th><th class=\"n\">{}</th>",
            html(&self.settings.name),
            w.standings,
            (w.after_round)(self.rounds_done()),
            self.settings.format.as_str(),
            html(&tc_label(&self.settings.time_control)),
            w.rank,
            w.number,
            w.name,
            w.rating,
            w.points,
        );
        for code in &self.settings.tiebreaks {
            let _ = write!(out, "<th class=\"n\">{}</th>", html(code));
        }
        if perf {
            let _ = write!(out, "<th class=\"n\">{}</th>", w.performance);
        }
        if fide {
            let _ = write!(out, "<th class=\"n\">{}</th>", w.fide_change);
        }
        if ladder {
            let _ = write!(out, "<th class=\"n\">{}</th>", w.ladder);
        }
        out.push_str("</tr>");
        for line in &lines {
            let cell = |v: Option<String>| v.unwrap_or_default();
            let _ = write!(
                out,
                "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
                line.rank,
                cell(line.tpn.map(|t| t.to_string())),
                html(&line.name),
                cell(line.rating.map(|r| r.to_string())),
                line.score
            );
            for t in &line.tiebreaks {
                let _ = write!(out, "<td class=\"n\">{t}</td>");
            }
            let c = extra.get(&line.name).cloned().unwrap_or_default();
            if perf {
                let p = c.performance.map(|p| p.to_string());
                let _ = write!(out, "<td class=\"n\">{}</td>", cell(p));
            }
            if fide {
                let _ = write!(out, "<td class=\"n\">{}</td>", cell(c.fide));
            }
            if ladder {
                let _ = write!(out, "<td class=\"n\">{}</td>", html(&cell(c.ladder)));
            }
            out.push_str("</tr>");
        }
        out.push_str("</table>");
        if !cross.is_empty() {
            let _ = write!(out, "<h2>{}</h2>", w.crosstable);
            self.cross_table(out, w, &cross, false);
        }
        out.push_str("</div>");
    }

    /// The wall chart: the crosstable in pairing-number order, across the page.
    pub(super) fn print_wall_chart(&self, out: &mut String, w: &Words, qr: Option<String>) {
        let (_, cross) = self.any_standings();
        let _ = write!(
            out,
            "<div class=\"sheet wide\">{}<h1>{}</h1><h2>{} — {}</h2>",
            qr.unwrap_or_default(),
            html(&self.settings.name),
            w.wall_chart,
            (w.after_round)(self.rounds_done()),
        );
        self.cross_table(out, w, &cross, true);
        out.push_str("</div>");
    }

    /// The crosstable rows with their cells (chess-results': the opponent's number, the
    /// colour, the result), a board with incidents marked with its note's number, and the
    /// notes under it. On the wall chart also each player's federation or club.
    fn cross_table(&self, out: &mut String, w: &Words, cross: &[CrossRow], wall: bool) {
        let rounds = self.book.comp.rounds();
        let (notes, note_of) = self.incident_notes(w);
        let order = self.book.comp.pairing_order();
        let place = |tpn: usize| {
            let g = self.book.guests.get(&order.get(tpn - 1)?.0)?;
            g.federation.clone().or_else(|| g.club.clone())
        };
        let places = wall && cross.iter().any(|r| place(r.tpn).is_some());
        let _ = write!(
            out,
            "<table class=\"{}\"><tr><th class=\"n\">{}</th><th>{}</th>",
            if wall { "wall" } else { "cross" },
            w.number,
            w.name
        );
        if places {
            let _ = write!(out, "<th>{}/{}</th>", w.federation, w.club);
        }
        if wall {
            let _ = write!(out, "<th class=\"n\">{}</th>", w.rating);
        }
        for r in 1..=rounds.len() {
            let _ = write!(out, "<th>{r}</th>");
        }
        let _ = write!(out, "<th class=\"n\">{}</th></tr>", w.points);
        for row in cross {
            let _ = write!(out, "<tr><td class=\"n\">{}</td><td>{}</td>", row.tpn, html(&row.name));
            if places {
                let _ = write!(out, "<td>{}</td>", html(&place(row.tpn).unwrap_or_default()));
            }
            if wall {
                let rating = row.rating.map(|r| r.to_string()).unwrap_or_default();
                let _ = write!(out, "<td class=\"n\">{rating}</td>");
            }
            for (i, c) in row.rounds.iter().enumerate() {
                // Over the board, the round's board with incidents is marked with its note.
                let board = rounds.get(i).and_then(|r| {
                    r.boards.iter().position(|b| {
                        self.name_of(b.white) == row.name || self.name_of(b.black) == row.name
                    })
                });
                match board.and_then(|b| note_of.get(&(i as u32 + 1, b as u32 + 1))) {
                    Some(n) => {
                        let _ = write!(out, "<td>{}<sup>{n}</sup></td>", html(c));
                    }
                    None => {
                        let _ = write!(out, "<td>{}</td>", html(c));
                    }
                }
            }
            let _ = write!(out, "<td class=\"n\">{}</td></tr>", row.score.as_deref().unwrap_or(""));
        }
        out.push_str("</table>");
        if !notes.is_empty() {
            let _ = write!(out, "<h2>{}</h2><ol class=\"notes\">", w.incidents);
            for note in &notes {
                let _ = write!(out, "<li>{}</li>", html(note));
            }
            out.push_str("</ol>");
        }
    }

    /// The crosstable's notes (over the board; issue 53): each board with incidents, in round
    /// and board order, in words; and the note's number (from 1) of each (round, board).
    fn incident_notes(&self, w: &Words) -> (Vec<String>, HashMap<(u32, u32), usize>) {
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
                            "{who}{}. {}: {}{reason}",
                            incident_words(&v.what, &w.incident),
                            w.decision,
                            v.decision
                        )
                    })
                    .collect();
                notes.push(format!(
                    "{} {round}, {} {board} ({white} – {black}): {}",
                    w.round,
                    w.board.to_lowercase(),
                    said.join("; ")
                ));
                note_of.insert((round, board), notes.len());
            }
        }
        (notes, note_of)
    }
}

/// Each Swiss or round-robin player's performance, FIDE change and §11 span by name, as
/// printed (none in an arena, whose rows carry no such columns).
fn rating_columns(rows: &StandingRows, w: &Words) -> HashMap<String, RatingColumns> {
    let StandingRows::Competition(rows) = rows else { return HashMap::new() };
    let level = |v: &rookery_protocol::LevelView| {
        if w.lang == super::Lang::Zh {
            v.0.zh().to_string()
        } else {
            v.0.en().to_string()
        }
    };
    rows.iter()
        .map(|r| {
            let ladder = r.ladder.as_ref().map(|l| {
                format!(
                    "{} → {} ({} → {})",
                    l.points_before,
                    l.points_after,
                    level(&l.level_before),
                    level(&l.level_after)
                )
            });
            let columns = RatingColumns {
                performance: r.performance,
                fide: r.fide_rating_change.as_ref().map(|c| c.change.clone()),
                ladder,
            };
            (r.name.clone(), columns)
        })
        .collect()
}

/// An incident in the document's words.
fn incident_words(what: &IncidentKind, w: &IncidentWords) -> String {
    match *what {
        IncidentKind::IllegalMove { count, penalty, added_ms, .. } => {
            let penalty = match penalty {
                Penalty::None => w.counted.to_owned(),
                Penalty::TimeAdded => {
                    format!("{} {}", added_ms.unwrap_or(0) / 1000, w.seconds_to_opponent)
                }
                Penalty::Loss => w.game_lost.to_owned(),
            };
            format!("{} {count}, {penalty}", w.illegal_move)
        }
        IncidentKind::TimeAdded { seconds, .. } => format!("{seconds} {}", w.seconds_added),
        IncidentKind::ColourMixup { before_quarter: true } => w.mixup_replayed.to_owned(),
        IncidentKind::ColourMixup { before_quarter: false } => w.mixup_continued.to_owned(),
        IncidentKind::IrregularityAfter => w.irregularity_after.to_owned(),
        IncidentKind::Misconduct { what, sanction, .. } => {
            let what = match what {
                Misconduct::Notes => w.notes,
                Misconduct::OutsideHelp => w.outside_help,
                Misconduct::RepeatedDrawOffers => w.repeated_draw_offers,
                Misconduct::Other => w.other,
            };
            let sanction = match sanction {
                Sanction::Warning => w.warning,
                Sanction::TimeDeducted => w.time_deducted,
                Sanction::Loss => w.game_lost,
            };
            format!("{} ({what}), {sanction}", w.misconduct)
        }
    }
}
