//! The documents an arbiter prints for a round (issue 53): the pairings by board and by name,
//! pre-filled scoresheets and result slips, in English or simplified Chinese. One template
//! per document, written as HTML with a print style sheet (A4, a page per scoresheet, two
//! slips a row); a PDF is the browser's "print to PDF" of the same page, which embeds the
//! fonts it drew the Chinese text with.

use std::fmt::Write;

use rookery_tournament::competition::{Entrant, EntrantId, Round};

use super::book::Tour;
use super::export::html;
use super::log::result_name;
use super::refusal::TournamentRefusal;

/// A printable document of one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Document {
    /// The boards in order: board, White, result, Black.
    PairingsByBoard,
    /// Every player paired or absent, alphabetically: board and colour, opponent.
    PairingsByName,
    /// A scoresheet per board, a page each, with the names, colours and the notation rule.
    Scoresheets,
    /// A result slip per board for the players to sign.
    ResultSlips,
}

impl Document {
    /// Every document, in the order the pages offer them.
    pub const ALL: [Document; 4] = [
        Document::PairingsByBoard,
        Document::PairingsByName,
        Document::Scoresheets,
        Document::ResultSlips,
    ];

    /// The name in a URL: `pairings`, `pairings-by-name`, `scoresheets`, `slips`.
    pub fn slug(self) -> &'static str {
        match self {
            Document::PairingsByBoard => "pairings",
            Document::PairingsByName => "pairings-by-name",
            Document::Scoresheets => "scoresheets",
            Document::ResultSlips => "slips",
        }
    }

    /// Reads [`Document::slug`] back.
    pub fn from_slug(slug: &str) -> Option<Document> {
        Document::ALL.into_iter().find(|d| d.slug() == slug)
    }
}

/// The language of a printed document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese, as the source rulebook.
    Zh,
}

impl Lang {
    /// `en` or `zh`.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" | "zh-CN" | "zh-Hans" => Some(Lang::Zh),
            _ => None,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }
}

/// The words of the documents, one set per language.
struct Words {
    round: &'static str,
    board: &'static str,
    white: &'static str,
    black: &'static str,
    result: &'static str,
    name: &'static str,
    colour: &'static str,
    opponent: &'static str,
    pairings: &'static str,
    by_name: &'static str,
    scoresheet: &'static str,
    slip: &'static str,
    bye: &'static str,
    absent: &'static str,
    signature: &'static str,
    draw: &'static str,
    notation: &'static str,
    event: &'static str,
    club: &'static str,
}

const EN: Words = Words {
    round: "Round",
    board: "Board",
    white: "White",
    black: "Black",
    result: "Result",
    name: "Name",
    colour: "Colour",
    opponent: "Opponent",
    pairings: "Pairings",
    by_name: "Pairings by name",
    scoresheet: "Scoresheet",
    slip: "Result slip",
    bye: "bye",
    absent: "not paired",
    signature: "Signature",
    draw: "draw",
    notation: "Record every move, yours and your opponent's, in algebraic notation (Nf3, exd5, \
               O-O, O-O-O, e8=Q; + check, # mate), legibly, as the game goes. A player with less \
               than five minutes left in the period need not record, and completes the \
               scoresheet after the game. Offer a draw by writing (=) after your move.",
    event: "Event",
    club: "Club",
};

const ZH: Words = Words {
    round: "轮次",
    board: "台次",
    white: "白方",
    black: "黑方",
    result: "结果",
    name: "姓名",
    colour: "执色",
    opponent: "对手",
    pairings: "对阵表",
    by_name: "对阵表（按姓名）",
    scoresheet: "记录纸",
    slip: "成绩单",
    bye: "轮空",
    absent: "未编排",
    signature: "签名",
    draw: "和",
    notation: "对局中须用代数记录法（Nf3、exd5、O-O、O-O-O、e8=Q；+ 将军，# 将杀）清楚地记录双方的每一步着法。\
               某一时段所余时间不足五分钟的棋手可以不记录，对局结束后补全记录。提和时在着法后写 (=)。",
    event: "比赛",
    club: "单位",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// Moves a scoresheet has lines for (two columns of 30), as the common paper ones.
const SCORESHEET_MOVES: u32 = 60;

const STYLE: &str = "body{font-family:sans-serif;font-size:11pt;margin:0}\
    h1{font-size:15pt;margin:0 0 4pt}h2{font-size:12pt;margin:0 0 6pt}\
    table{border-collapse:collapse}td,th{border:1px solid #666;padding:2pt 5pt;text-align:left}\
    td.n{text-align:right}.sheet{page-break-after:always;padding:8mm}\
    .sheet:last-child{page-break-after:auto}.moves{display:flex;gap:6mm}\
    .moves table{flex:1}.moves td{height:14pt}.moves td.n{width:8mm}\
    .rule{font-size:9pt;margin:4pt 0}.slips{display:flex;flex-wrap:wrap}\
    .slip{width:48%;border:1px dashed #666;margin:1%;padding:4mm;box-sizing:border-box;\
    page-break-inside:avoid}.sign{margin-top:10pt}\
    @page{size:A4;margin:12mm}@media print{body{font-size:10pt}}";

impl Tour {
    /// `document` for `round` (the last paired when `None`) in `lang`, a whole HTML page.
    ///
    /// # Errors
    /// [`TournamentRefusal::RoundNotPaired`] when the round is not paired.
    pub fn print(
        &self,
        document: Document,
        round: Option<u32>,
        lang: Lang,
    ) -> Result<String, TournamentRefusal> {
        let round = round.unwrap_or(self.book.comp.rounds().len() as u32);
        let r = round
            .checked_sub(1)
            .and_then(|i| self.book.comp.rounds().get(i as usize))
            .ok_or(TournamentRefusal::RoundNotPaired(round))?;
        let w = words(lang);
        let title = match document {
            Document::PairingsByBoard => w.pairings,
            Document::PairingsByName => w.by_name,
            Document::Scoresheets => w.scoresheet,
            Document::ResultSlips => w.slip,
        };
        let mut out = format!(
            "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
             <title>{} — {} {round} — {}</title><style>{STYLE}</style></head><body>",
            lang.code(),
            html(&self.settings.name),
            w.round,
            title
        );
        let page = Page { tour: self, round: r, number: round, w };
        match document {
            Document::PairingsByBoard => page.by_board(&mut out, title),
            Document::PairingsByName => page.by_name(&mut out, title),
            Document::Scoresheets => page.scoresheets(&mut out),
            Document::ResultSlips => page.slips(&mut out),
        }
        out.push_str("</body></html>\n");
        Ok(out)
    }
}

/// One round's documents.
struct Page<'a> {
    tour: &'a Tour,
    round: &'a Round,
    number: u32,
    w: &'static Words,
}

impl Page<'_> {
    fn entrant(&self, id: EntrantId) -> &Entrant {
        &self.tour.book.comp.entrants()[id.0 as usize]
    }

    /// `GM Name (2450)`.
    fn player(&self, id: EntrantId) -> String {
        let e = self.entrant(id);
        let mut s = String::new();
        if let Some(title) = &e.title {
            let _ = write!(s, "{} ", html(title));
        }
        s.push_str(&html(&e.name));
        if let Some(rating) = e.rating {
            let _ = write!(s, " ({rating})");
        }
        s
    }

    fn heading(&self, out: &mut String, title: &str) {
        let _ = write!(
            out,
            "<h1>{}</h1><h2>{} {} — {}</h2>",
            html(&self.tour.settings.name),
            self.w.round,
            self.number,
            title
        );
    }

    fn result(&self, board: usize) -> &'static str {
        self.round.boards[board].result.map_or("", result_name)
    }

    fn by_board(&self, out: &mut String, title: &str) {
        let w = self.w;
        out.push_str("<div class=\"sheet\">");
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

    fn by_name(&self, out: &mut String, title: &str) {
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

    fn scoresheets(&self, out: &mut String) {
        let w = self.w;
        let tc = &self.tour.settings.time_control;
        for (i, b) in self.round.boards.iter().enumerate() {
            let _ = write!(
                out,
                "<div class=\"sheet\"><h1>{}</h1><table><tr><th>{}</th><td>{} ({})</td>\
                 <th>{}</th><td>{}</td><th>{}</th><td>{}</td></tr>\
                 <tr><th>{}</th><td colspan=\"5\">{}</td></tr>\
                 <tr><th>{}</th><td colspan=\"5\">{}</td></tr></table>\
                 <p class=\"rule\">{}</p><div class=\"moves\">",
                w.scoresheet,
                w.event,
                html(&self.tour.settings.name),
                html(tc),
                w.round,
                self.number,
                w.board,
                i + 1,
                w.white,
                self.player(b.white),
                w.black,
                self.player(b.black),
                w.notation
            );
            let half = SCORESHEET_MOVES / 2;
            for column in 0..2 {
                let _ = write!(
                    out,
                    "<table><tr><th></th><th>{}</th><th>{}</th></tr>",
                    w.white, w.black
                );
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
    }

    fn slips(&self, out: &mut String) {
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
