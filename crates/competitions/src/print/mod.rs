//! The documents an arbiter prints (issue 53): for a round, the pairings by board and by
//! name, pre-filled scoresheets and result slips; for the event, the standings (with the
//! crosstable and the incidents' notes) and the wall chart — in English or simplified
//! Chinese. One template per document, written as HTML with a print style sheet (A4, a page
//! per scoresheet, two slips a row, the wall chart across the page); a PDF is the browser's
//! "print to PDF" of the same page, which embeds the fonts it drew the Chinese text with
//! (headless Chromium in the browser tests, read back with `pdftotext`). The pairings and the
//! wall chart carry a QR code of the tournament's page, for the players' phones.
//!
//!
//! A team event prints its own three (`team`): the round's matches in place of the pairings,
//! the scoresheets of every board, the team standings with the crosstable of matches.
//!
//! - [`words`]: the words of both languages.
//! - `round`: a round's documents; `event`: the event's; `team`: a team event's; `qr`: the
//!   QR code.

mod event;
mod qr;
mod round;
mod team;
mod words;

use self::round::Page;
use self::team::TeamPage;
use self::words::{words, Words};
use super::book::Tour;
use super::refusal::TournamentRefusal;
use super::text::html;

/// A printable document.
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
    /// The standings with tie-breaks, the crosstable in rank order, and the incidents' notes.
    Standings,
    /// The wall chart: every player in pairing-number order, each round's opponent, colour
    /// and result, the running score; across the page, for the hall's wall.
    WallChart,
}

impl Document {
    /// Every document, in the order the pages offer them.
    pub const ALL: [Document; 6] = [
        Document::PairingsByBoard,
        Document::PairingsByName,
        Document::Scoresheets,
        Document::ResultSlips,
        Document::Standings,
        Document::WallChart,
    ];

    /// The name in a URL: `pairings`, `pairings-by-name`, `scoresheets`, `slips`,
    /// `standings`, `wall-chart`.
    pub fn slug(self) -> &'static str {
        match self {
            Document::PairingsByBoard => "pairings",
            Document::PairingsByName => "pairings-by-name",
            Document::Scoresheets => "scoresheets",
            Document::ResultSlips => "slips",
            Document::Standings => "standings",
            Document::WallChart => "wall-chart",
        }
    }

    /// Reads [`Document::slug`] back.
    pub fn from_slug(slug: &str) -> Option<Document> {
        Document::ALL.into_iter().find(|d| d.slug() == slug)
    }

    /// A round's document (the others are the event's).
    fn of_a_round(self) -> bool {
        !matches!(self, Document::Standings | Document::WallChart)
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

/// What a document is printed with besides the tournament: which, for which round, in which
/// language, and the address of the tournament's page for its QR code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintRequest {
    /// Which.
    pub document: Document,
    /// A round's document: the round (the last paired when `None`). The event's: ignored
    /// (the standings as they are).
    pub round: Option<u32>,
    /// In which language.
    pub lang: Lang,
    /// The tournament's page, as the players' phones reach it (none: no QR code).
    pub page_url: Option<String>,
}

/// Moves a scoresheet has lines for (two columns of 30), as the common paper ones.
const SCORESHEET_MOVES: u32 = 60;

const STYLE: &str = "body{font-family:sans-serif;font-size:11pt;margin:0}\
    h1{font-size:15pt;margin:0 0 4pt}h2{font-size:12pt;margin:0 0 6pt}\
    table{border-collapse:collapse}td,th{border:1px solid #666;padding:2pt 5pt;text-align:left}\
    td.n,th.n{text-align:right}.sheet{page-break-after:always;padding:8mm}\
    .sheet:last-child{page-break-after:auto}.moves{display:flex;gap:6mm}\
    .moves table{flex:1}.moves td{height:14pt}.moves td.n{width:8mm}\
    .rule{font-size:9pt;margin:4pt 0}.slips{display:flex;flex-wrap:wrap}\
    .slip{width:48%;border:1px dashed #666;margin:1%;padding:4mm;box-sizing:border-box;\
    page-break-inside:avoid}.sign{margin-top:10pt}\
    .qr{float:right;text-align:center;font-size:8pt;width:32mm;margin:0 0 4mm 4mm}\
    .qr svg{width:30mm;height:30mm}.qr a{color:inherit;word-break:break-all}\
    .wall td,.wall th{font-size:9pt;padding:1pt 3pt}.notes{font-size:9pt}\
    tr{page-break-inside:avoid}\
    @page{size:A4;margin:12mm}@page wide{size:A4 landscape;margin:10mm}.wide{page:wide}\
    @media print{body{font-size:10pt}}";

impl Tour {
    /// The document `request` asks for, a whole HTML page.
    ///
    /// # Errors
    /// [`TournamentRefusal::RoundNotPaired`] when a round's document names a round not paired.
    pub fn print(&self, request: &PrintRequest) -> Result<String, TournamentRefusal> {
        let w = words(request.lang);
        let team = self.book.team.as_ref();
        if team.is_some() {
            team::printable(request.document)?;
        }
        let paired = team.map_or(self.book.comp.rounds().len(), |t| t.rounds.len()) as u32;
        let (title, number) = if request.document.of_a_round() {
            let number = request.round.unwrap_or(paired);
            if number == 0 || number > paired {
                return Err(TournamentRefusal::RoundNotPaired(number));
            }
            (format!("{} {number} — {}", w.round, self.title_of(request.document, w)), Some(number))
        } else {
            (self.title_of(request.document, w).to_owned(), None)
        };
        let mut out = format!(
            "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
             <title>{} — {}</title><style>{STYLE}</style></head><body>",
            request.lang.code(),
            html(&self.settings.name),
            title
        );
        let qr = request.page_url.as_deref().map(|url| qr::figure(url, w));
        match (team, request.document, number) {
            (Some(team), document, number) => {
                let page = TeamPage { tour: self, team, w };
                match (document, number) {
                    (Document::Scoresheets, Some(n)) => page.scoresheets(&mut out, n),
                    (_, Some(n)) => page.matches(&mut out, n, self.title_of(document, w), qr),
                    (_, None) => page.standings(&mut out),
                }
            }
            (None, document, Some(number)) => {
                let round = &self.book.comp.rounds()[number as usize - 1];
                self.print_round(&mut out, document, Page { tour: self, round, number, w }, qr)
            }
            (None, Document::Standings, None) => self.print_standings(&mut out, w),
            (None, _, None) => self.print_wall_chart(&mut out, w, qr),
        }
        out.push_str("</body></html>\n");
        Ok(out)
    }

    fn title_of(&self, document: Document, w: &Words) -> &'static str {
        match document {
            Document::PairingsByBoard if self.book.team.is_some() => w.team.match_list,
            Document::PairingsByBoard => w.pairings,
            Document::PairingsByName => w.by_name,
            Document::Scoresheets => w.scoresheet,
            Document::ResultSlips => w.slip,
            Document::Standings => w.standings,
            Document::WallChart => w.wall_chart,
        }
    }

    fn print_round(
        &self,
        out: &mut String,
        document: Document,
        page: Page<'_>,
        qr: Option<String>,
    ) {
        let title = self.title_of(document, page.w);
        match document {
            Document::PairingsByBoard => page.by_board(out, title, qr),
            Document::PairingsByName => page.by_name(out, title, qr),
            Document::Scoresheets => page.scoresheets(out),
            _ => page.slips(out),
        }
    }
}
