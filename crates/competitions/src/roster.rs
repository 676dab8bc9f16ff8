//! An over-the-board event's player list, imported from a spreadsheet's CSV or from a TRF
//! (issue 53): read whole or refused whole, the first bad row named by its line and field, so
//! that nothing is half-imported.
//!
//! CSV: a header row names the columns, in any order, in English or Chinese, any case
//! (`name`/`姓名` is the one required); commas, semicolons or tabs between fields (what the
//! header row uses), RFC 4180 quoting, a UTF-8 byte-order mark ignored. An unknown column is
//! refused rather than dropped, so that a misspelt `ratng` does not lose every rating.

use std::collections::HashMap;
use std::fmt;

use rookery_ladder::Level;
use rookery_tournament::trf::{self, year_of};

/// The most players one import may hold.
pub const MAX_PLAYERS: usize = 10_000;

/// One player of the list, as the event will seed and report them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RosterEntry {
    /// The line of the list it was read from (1-based), for a refusal that names it.
    pub line: u64,
    /// Name, `Lastname, Firstname` by FIDE's convention (kept as written).
    pub name: String,
    /// FIDE identifier.
    pub fide_id: Option<u64>,
    /// The national federation's identifier, as written.
    pub national_id: Option<String>,
    /// FIDE rating.
    pub rating: Option<u16>,
    /// National rating.
    pub national_rating: Option<u16>,
    /// Federation, three capital letters.
    pub federation: Option<String>,
    /// Year of birth.
    pub birth_year: Option<u16>,
    /// Club or school.
    pub club: Option<String>,
    /// Title (`GM`, `IM`, `WGM`, `FM`, `WIM`, `CM`, `WFM`, `WCM`).
    pub title: Option<String>,
    /// The §11 level the player holds (RULES.md §11).
    pub level: Option<Level>,
    /// A team event's team (issue 54): the list's players of one team, in the list's order,
    /// are its roster in board order.
    pub team: Option<String>,
}

/// The columns a CSV may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// `name`, `player`, `姓名`.
    Name,
    /// `fide id`, `fide_id`, `fideid`, `id fide`.
    FideId,
    /// `national id`, `national_id`.
    NationalId,
    /// `rating`, `fide rating`, `elo`, `等级分`.
    Rating,
    /// `national rating`, `national_rating`.
    NationalRating,
    /// `federation`, `fed`.
    Federation,
    /// `birth year`, `born`, `birth`, `出生年份`.
    BirthYear,
    /// `club`, `school`, `俱乐部`, `单位`.
    Club,
    /// `title`, `称号`.
    Title,
    /// `level`, `级别`.
    Level,
    /// `team`, `队`, `队名`, `队伍` (a team event's; issue 54).
    Team,
}

impl Column {
    const ALL: [Column; 11] = [
        Column::Name,
        Column::FideId,
        Column::NationalId,
        Column::Rating,
        Column::NationalRating,
        Column::Federation,
        Column::BirthYear,
        Column::Club,
        Column::Title,
        Column::Level,
        Column::Team,
    ];

    /// The spellings a header may use, lower case with single spaces (`_` reads as a space).
    fn spellings(self) -> &'static [&'static str] {
        match self {
            Column::Name => &["name", "player", "姓名"],
            Column::FideId => &["fide id", "fideid", "id fide", "fide"],
            Column::NationalId => &["national id", "nat id"],
            Column::Rating => &["rating", "fide rating", "elo", "等级分"],
            Column::NationalRating => &["national rating", "nat rating"],
            Column::Federation => &["federation", "fed"],
            Column::BirthYear => &["birth year", "born", "birth", "出生年份"],
            Column::Club => &["club", "school", "俱乐部", "单位"],
            Column::Title => &["title", "称号"],
            Column::Level => &["level", "级别"],
            Column::Team => &["team", "队", "队名", "队伍"],
        }
    }

    /// The canonical name, as errors say it.
    pub fn name(self) -> &'static str {
        match self {
            Column::Name => "name",
            Column::FideId => "fide_id",
            Column::NationalId => "national_id",
            Column::Rating => "rating",
            Column::NationalRating => "national_rating",
            Column::Federation => "federation",
            Column::BirthYear => "birth_year",
            Column::Club => "club",
            Column::Title => "title",
            Column::Level => "level",
            Column::Team => "team",
        }
    }

    fn of_header(header: &str) -> Option<Column> {
        let key = header.trim().to_lowercase().replace(['_', '-'], " ");
        let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
        Column::ALL.into_iter().find(|c| c.spellings().contains(&key.as_str()))
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a list was refused (nothing of it is imported).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    /// Nothing but blank lines.
    #[error("the list is empty")]
    Empty,
    /// Not CSV as RFC 4180 writes it (an unclosed quote, a row of another width).
    #[error("line {line}: {message}")]
    Csv {
        /// 1-based.
        line: u64,
        /// What the reader found.
        message: String,
    },
    /// A header no column answers to.
    #[error("line 1: unknown column {header:?} (known: name, fide_id, national_id, rating, national_rating, federation, birth_year, club, title, level, team)")]
    UnknownColumn {
        /// As written.
        header: String,
    },
    /// Two headers for one column.
    #[error("line 1: the column {column} is given twice")]
    DuplicateColumn {
        /// The column.
        column: Column,
    },
    /// The header has no `name`.
    #[error("line 1: no name column (a header row naming the columns is required)")]
    NoNameColumn,
    /// A value that does not read.
    #[error("line {line}, column {column}: {value:?} is not {expected}")]
    Field {
        /// 1-based.
        line: u64,
        /// The column.
        column: Column,
        /// As written.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// The same player twice.
    #[error("line {line}: {what} is already on line {first_line}")]
    Duplicate {
        /// 1-based, the second.
        line: u64,
        /// 1-based, the first.
        first_line: u64,
        /// `FIDE ID 1503014`, `the name "Li, Wei" with no FIDE ID`.
        what: String,
    },
    /// More than [`MAX_PLAYERS`].
    #[error("more than {MAX_PLAYERS} players")]
    TooMany,
    /// A TRF that does not read.
    #[error("TRF: {0}")]
    Trf(String),
}

/// Reads a list: a TRF when the first record says so (`012`, `001`, …), else CSV.
///
/// # Errors
/// The first fault found; see [`RosterError`].
pub fn import(text: &str) -> Result<Vec<RosterEntry>, RosterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().find(|l| !l.trim().is_empty()).ok_or(RosterError::Empty)?;
    let is_trf = first.len() > 4
        && first.as_bytes()[..3].iter().all(u8::is_ascii_digit)
        && first.as_bytes()[3] == b' ';
    if is_trf {
        from_trf(text)
    } else {
        from_csv(text)
    }
}

/// Reads a TRF's players (the `001` records), in pairing-number order.
///
/// # Errors
/// The TRF reader's error (line and column), or a list without players.
pub fn from_trf(text: &str) -> Result<Vec<RosterEntry>, RosterError> {
    let tournament = trf::read(text).map_err(|e| RosterError::Trf(e.to_string()))?;
    if tournament.players.is_empty() {
        return Err(RosterError::Empty);
    }
    if tournament.players.len() > MAX_PLAYERS {
        return Err(RosterError::TooMany);
    }
    // Each player's line: the `001` record with the starting number (columns 5-8).
    let lines: HashMap<usize, u64> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("001"))
        .filter_map(|(i, l)| Some((l.get(4..8)?.trim().parse().ok()?, i as u64 + 1)))
        .collect();
    Ok(tournament
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| RosterEntry {
            line: lines.get(&(i + 1)).copied().unwrap_or(0),
            name: p.name.clone(),
            fide_id: p.fide_id.filter(|&id| id > 0),
            rating: p.rating.filter(|&r| r > 0),
            federation: p.federation.clone(),
            birth_year: p.birth_date.as_deref().and_then(year_of),
            title: p.title.as_ref().map(|t| t.to_uppercase()),
            ..RosterEntry::default()
        })
        .collect())
}

/// Reads a CSV list with a header row.
///
/// # Errors
/// The first fault found; see [`RosterError`].
pub fn from_csv(text: &str) -> Result<Vec<RosterEntry>, RosterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let header_line = text.lines().next().unwrap_or_default();
    let delimiter = [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|&d| header_line.bytes().filter(|&b| b == d).count())
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader.headers().map_err(csv_error)?.clone();
    let mut columns: Vec<Option<Column>> = Vec::with_capacity(headers.len());
    for header in &headers {
        if header.is_empty() {
            // A spreadsheet's trailing empty column.
            columns.push(None);
            continue;
        }
        let column = Column::of_header(header)
            .ok_or_else(|| RosterError::UnknownColumn { header: header.to_owned() })?;
        if columns.contains(&Some(column)) {
            return Err(RosterError::DuplicateColumn { column });
        }
        columns.push(Some(column));
    }
    if !columns.contains(&Some(Column::Name)) {
        return Err(RosterError::NoNameColumn);
    }
    let mut entries = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for record in reader.records() {
        let record = record.map_err(csv_error)?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(str::is_empty) {
            continue;
        }
        if entries.len() == MAX_PLAYERS {
            return Err(RosterError::TooMany);
        }
        let mut entry = RosterEntry { line, ..RosterEntry::default() };
        for (value, column) in record.iter().zip(&columns) {
            if let (Some(column), false) = (column, value.is_empty()) {
                read_field(&mut entry, *column, value).map_err(|expected| RosterError::Field {
                    line,
                    column: *column,
                    value: value.to_owned(),
                    expected,
                })?;
            }
        }
        if entry.name.is_empty() {
            return Err(RosterError::Field {
                line,
                column: Column::Name,
                value: String::new(),
                expected: "a name (every player needs one)",
            });
        }
        let key = match entry.fide_id {
            Some(id) => format!("FIDE ID {id}"),
            None => format!("the name {:?} with no FIDE ID", entry.name),
        };
        if let Some(&first_line) = seen.get(&key) {
            return Err(RosterError::Duplicate { line, first_line, what: key });
        }
        seen.insert(key, line);
        entries.push(entry);
    }
    if entries.is_empty() {
        return Err(RosterError::Empty);
    }
    Ok(entries)
}

fn csv_error(e: csv::Error) -> RosterError {
    let line = e.position().map_or(0, csv::Position::line);
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields where the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text (save the sheet as CSV UTF-8)".to_owned(),
        _ => e.to_string(),
    };
    RosterError::Csv { line, message }
}

/// Sets one field from its text; the error says what was expected.
fn read_field(entry: &mut RosterEntry, column: Column, value: &str) -> Result<(), &'static str> {
    match column {
        Column::Name => {
            if value.chars().count() > 100 || value.chars().any(char::is_control) {
                return Err("a name (at most 100 characters, no control characters)");
            }
            entry.name = value.to_owned();
        }
        Column::FideId => {
            entry.fide_id =
                Some(value.parse().ok().filter(|&id| id > 0).ok_or("a FIDE ID (digits)")?);
        }
        Column::NationalId => {
            if value.chars().count() > 32 {
                return Err("a national ID (at most 32 characters)");
            }
            entry.national_id = Some(value.to_owned());
        }
        Column::Rating => entry.rating = Some(rating(value)?),
        Column::NationalRating => entry.national_rating = Some(rating(value)?),
        Column::Federation => {
            if value.len() != 3 || !value.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err("a federation (three letters, as CHN)");
            }
            entry.federation = Some(value.to_ascii_uppercase());
        }
        Column::BirthYear => {
            let year = year_of(value).filter(|y| (1900..=2100).contains(y));
            entry.birth_year = Some(year.ok_or("a year of birth (1990, or a date 1990-05-01)")?);
        }
        Column::Club => {
            if value.chars().count() > 100 {
                return Err("a club (at most 100 characters)");
            }
            entry.club = Some(value.to_owned());
        }
        Column::Title => {
            let title = value.to_ascii_uppercase();
            const TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];
            if !TITLES.contains(&title.as_str()) {
                return Err("a title (GM, IM, WGM, FM, WIM, CM, WFM, WCM)");
            }
            entry.title = Some(title);
        }
        Column::Level => {
            entry.level =
                Some(level(value).ok_or("a level (12, level 12, 12级, unranked, 无级别)")?)
        }
        Column::Team => {
            if value.chars().count() > 80 {
                return Err("a team's name (at most 80 characters)");
            }
            entry.team = Some(value.to_owned());
        }
    }
    Ok(())
}

/// A rating: a whole number up to 3500; 0 reads as unrated.
fn rating(value: &str) -> Result<u16, &'static str> {
    value.parse::<u16>().ok().filter(|&r| r <= 3500).ok_or("a rating (a whole number 0-3500)")
}

/// `12`, `level 12`, `level-12`, `12级`, `unranked`, `无级别`.
fn level(value: &str) -> Option<Level> {
    let v = value.trim().to_lowercase();
    if v == "unranked" || v == "无级别" {
        return Some(Level::UNRANKED);
    }
    let digits =
        v.trim_start_matches("level").trim_start_matches(['-', ' ']).trim_end_matches('级');
    Level::new(digits.trim().parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_in_any_column_order_reads() {
        let text = "\u{feff}Name,Rating,FIDE ID,Birth year,Club,Level,Title,Fed\n\
                    \"Li, Wei\",2105,8600123,2009-03-01,Beijing No. 4,level 12,fm,chn\n\
                    \"Ding, Yi\",,,2012,,unranked,,\n\
                    Wang Fang,1850,,,\"School \"\"Red\"\"\",15级,,\n";
        let list = import(text).unwrap();
        assert_eq!(list.len(), 3);
        assert_eq!(list[0].name, "Li, Wei");
        assert_eq!(list[0].rating, Some(2105));
        assert_eq!(list[0].fide_id, Some(8_600_123));
        assert_eq!(list[0].birth_year, Some(2009));
        assert_eq!(list[0].level, Level::new(12));
        assert_eq!(list[0].title.as_deref(), Some("FM"));
        assert_eq!(list[0].federation.as_deref(), Some("CHN"));
        assert_eq!(list[1].rating, None);
        assert_eq!(list[1].level, Some(Level::UNRANKED));
        assert_eq!(list[2].club.as_deref(), Some("School \"Red\""));
        assert_eq!(list[2].level, Level::new(15));
        assert_eq!(list.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3, 4]);
    }

    #[test]
    fn chinese_headers_and_semicolons_read() {
        let text = "姓名;等级分;出生年份;单位;级别\n张三;1500;2011;实验小学;20级\n";
        let list = import(text).unwrap();
        assert_eq!(list[0].name, "张三");
        assert_eq!(list[0].rating, Some(1500));
        assert_eq!(list[0].club.as_deref(), Some("实验小学"));
        assert_eq!(list[0].level, Level::new(20));
    }

    #[test]
    fn a_bad_row_refuses_the_whole_list_naming_line_and_field() {
        let text = "name,rating\nAlice,1800\nBob,18OO\nCarol,1700\n";
        let e = import(text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column rating: \"18OO\" is not a rating (a whole number 0-3500)"
        );
        let e = import("name,ratng\nAlice,1800\n").unwrap_err();
        assert!(e.to_string().starts_with("line 1: unknown column \"ratng\""), "{e}");
        let e = import("name,rating,elo\nAlice,1,2\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: the column rating is given twice");
        let e = import("rating\n1800\n").unwrap_err();
        assert_eq!(e, RosterError::NoNameColumn);
        let e = import("name,rating\nAlice,1800,extra\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: 3 fields where the header has 2");
        let e = import("name,fide id\nAlice,123\nAlicia,123\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: FIDE ID 123 is already on line 2");
        let e = import("name,club\nAlice,A\nAlice,B\n").unwrap_err();
        assert!(e.to_string().contains("the name \"Alice\" with no FIDE ID is already on line 2"));
        let e = import("name,rating\n,1800\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2, column name"), "{e}");
        assert_eq!(import("\n\n").unwrap_err(), RosterError::Empty);
        assert_eq!(import("name\n\n").unwrap_err(), RosterError::Empty);
        let e = import("name,birth year\nAlice,1066\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2, column birth_year"), "{e}");
        let e = import("name,level\nAlice,level 31\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2, column level"), "{e}");
    }

    #[test]
    fn blank_rows_and_an_empty_trailing_column_are_skipped() {
        let list = import("name,rating,\nAlice,1800,\n,,\nBob,,\n").unwrap();
        assert_eq!(list.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["Alice", "Bob"]);
    }

    #[test]
    fn a_trf_reads_its_players() {
        let text = "012 Club Open\n\
001    1 m FM Li, Wei                           2105 CHN     8600123 2009/03/01  0.0    1\n\
001    2 w    Ding, Yi                             0                 2012/00/00  0.0    2\n";
        let list = import(text).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].name, "Li, Wei");
        assert_eq!(list[0].title.as_deref(), Some("FM"));
        assert_eq!(list[0].rating, Some(2105));
        assert_eq!(list[0].fide_id, Some(8_600_123));
        assert_eq!(list[0].birth_year, Some(2009));
        assert_eq!(list[1].rating, None);
        assert_eq!((list[0].line, list[1].line), (2, 3));
        let e = import("012 Open\n001    x\n").unwrap_err();
        assert!(matches!(e, RosterError::Trf(_)), "{e}");
    }

    proptest::proptest! {
        /// Whatever the bytes, the import answers: a list or an error, never a panic.
        #[test]
        fn any_text_gets_an_answer(text in "(name|rating|fide id|level|,|;|\"|\n|[0-9]|[a-zA-Z 级]){0,80}") {
            let _ = import(&text);
        }

        /// Every list it accepts has a name for every player and no FIDE ID twice.
        #[test]
        fn accepted_lists_are_whole(rows in proptest::collection::vec(("[A-Za-z]{0,3}", 0u32..4, 0u32..3000), 0..8)) {
            let mut text = "name,fide id,rating\n".to_owned();
            for (name, id, rating) in &rows {
                let id = if *id == 0 { String::new() } else { id.to_string() };
                text.push_str(&format!("{name},{id},{rating}\n"));
            }
            if let Ok(list) = import(&text) {
                proptest::prop_assert!(list.iter().all(|e| !e.name.is_empty()));
                let mut ids: Vec<_> = list.iter().filter_map(|e| e.fide_id).collect();
                let n = ids.len();
                ids.sort_unstable();
                ids.dedup();
                proptest::prop_assert_eq!(ids.len(), n);
                proptest::prop_assert_eq!(list.len(), rows.len());
            }
        }
    }
}
