//! Class accounts (issue 51): an organiser (a teacher, a club's coach) creates a class's
//! accounts at once from a list of names and §11 levels, and prints a slip per player with a
//! first-log-in code. The player logs in once with the code and chooses a password. No sign-up
//! is made, so the class never meets the limit on sign-ups per address; the organiser is
//! limited per day instead (`--class-accounts-per-day`).
//!
//! The list is read here, at the edge, into [`ClassRow`]s; a bad row refuses the whole list,
//! naming its line and field, and nothing is created (the store creates all or none).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use rookery_ladder::{Level, Points};
use rookery_store::{NewClassAccount, StoreError, User};
use serde::Serialize;

use crate::accounts::{hash_password, start_session, validate_password, validate_username};
use crate::client::ClientAddr;
use crate::clock::now_ms;
use crate::error::{ApiError, Body, FromBody};
use crate::identity::{token_hash, Visitor};
use crate::protocol::{FieldError, Fields, LevelView};
use crate::state::AppState;

/// Rows one list may hold.
pub const MAX_ROWS: usize = 100;
/// How long a first-log-in code works after it is printed: a school term's start.
const CODE_LIFETIME_MS: u64 = 30 * 24 * 3600 * 1000;
/// A day, the organiser's limit's window.
const DAY_MS: u64 = 24 * 3600 * 1000;

/// One player of a class list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRow {
    /// The line of the list it was on (1-based).
    pub line: usize,
    /// The username.
    pub name: String,
    /// The §11 level the player starts at (their points are its lowest).
    pub level: Level,
}

/// Why a class list cannot be read: the line, the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, {field}: {problem}")]
pub struct ClassListError {
    /// The line (1-based; 0 for the list as a whole).
    pub line: usize,
    /// `name`, `level` or `list`.
    pub field: &'static str,
    /// What is wrong, naming the text.
    pub problem: String,
}

/// Reads a class list: one player a line, `name` then an optional `level`, separated by
/// commas, semicolons or tabs (as spreadsheets save CSV in different locales); a first line
/// whose first field is `name` (or `username`, `姓名`, `用户名`) is a header; blank lines are
/// skipped; a field may be in double quotes. Levels as `25`, `level 25`, `level-25`, `25级`,
/// or `unranked`/`无级别` (also an empty field).
///
/// # Errors
/// The first bad line: a name that is not a valid username or is on the list twice (in any
/// case), a level that is not one, a line of more than two fields; an empty list, or one of
/// more than [`MAX_ROWS`] players.
pub fn parse_class_list(text: &str) -> Result<Vec<ClassRow>, ClassListError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let separator = text.lines().find(|l| !l.trim().is_empty()).map_or(',', |first| {
        if first.contains('\t') {
            '\t'
        } else if first.contains(';') && !first.contains(',') {
            ';'
        } else {
            ','
        }
    });
    let mut rows: Vec<ClassRow> = Vec::new();
    let mut seen_header = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let bad = |field, problem: String| ClassListError { line, field, problem };
        let fields = split_fields(raw, separator).map_err(|p| bad("list", p))?;
        let name = fields[0].as_str();
        if rows.is_empty() && !seen_header && is_header(name) {
            seen_header = true;
            continue;
        }
        if fields.len() > 2 {
            return Err(bad(
                "list",
                format!("{} fields: expected a name and a level", fields.len()),
            ));
        }
        if let Err(e) = validate_username(name) {
            let problem = match e {
                ApiError::BadField { message, .. } => message,
                other => other.to_string(),
            };
            return Err(bad("name", problem));
        }
        if let Some(twin) = rows.iter().find(|r| r.name.eq_ignore_ascii_case(name)) {
            return Err(bad("name", format!("{name:?} is on line {} too", twin.line)));
        }
        let level = parse_level(fields.get(1).map_or("", String::as_str))
            .map_err(|problem| bad("level", problem))?;
        if rows.len() == MAX_ROWS {
            return Err(bad("list", format!("more than {MAX_ROWS} players: split the list")));
        }
        rows.push(ClassRow { line, name: name.to_owned(), level });
    }
    if rows.is_empty() {
        return Err(ClassListError {
            line: 0,
            field: "list",
            problem: "no players: give one name a line, with a level after a comma".to_owned(),
        });
    }
    Ok(rows)
}

/// Whether a first field names the column rather than a player.
fn is_header(first: &str) -> bool {
    ["name", "username", "姓名", "用户名"].iter().any(|h| first.eq_ignore_ascii_case(h))
}

/// The fields of one line, trimmed, quotes removed (`""` inside quotes is one `"`).
fn split_fields(line: &str, separator: char) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = line.trim_end_matches('\r').chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ' ') {
            chars.next();
        }
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => return Err("a quoted field is not closed".to_owned()),
                }
            }
            while chars.peek().is_some_and(|c| *c == ' ') {
                chars.next();
            }
            if chars.peek().is_some_and(|c| *c != separator) {
                return Err(format!("text after the quoted field {field:?}"));
            }
        } else {
            while let Some(c) = chars.peek().copied().filter(|c| *c != separator) {
                field.push(c);
                chars.next();
            }
            field = field.trim().to_owned();
        }
        fields.push(field);
        if chars.next().is_none() {
            return Ok(fields);
        }
    }
}

/// A level as people write it: `25`, `level 25`, `level-25`, `25级`, `unranked`, `无级别`, or
/// nothing (unranked).
fn parse_level(text: &str) -> Result<Level, String> {
    let lower = text.trim().to_lowercase();
    if lower.is_empty() || lower == "unranked" || lower == "无级别" {
        return Ok(Level::UNRANKED);
    }
    let digits = lower
        .strip_prefix("level")
        .unwrap_or(&lower)
        .trim_start_matches(['-', ' '])
        .trim_end_matches('级')
        .trim();
    digits
        .parse::<u8>()
        .ok()
        .and_then(Level::new)
        .filter(|l| l.is_ranked())
        .ok_or_else(|| format!("{text:?} is not a level: 30 (the lowest) to 1, or unranked"))
}

/// A first-log-in code: 10 characters of Crockford's base 32 (50 random bits), printed as
/// `xxxxx-xxxxx`.
fn new_code() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let mut buf = [0u8; 10];
    // The OS generator failing is not recoverable in a server that must issue secrets.
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    let chars: String = buf.iter().map(|b| ALPHABET[usize::from(*b) % 32] as char).collect();
    format!("{}-{}", &chars[..5], &chars[5..])
}

/// A code as typed, in the form its hash was made of: case, dashes and spaces ignored, and
/// the letters Crockford reads as digits (`o` as 0, `i` and `l` as 1).
fn normalise_code(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\t'))
        .map(|c| match c.to_ascii_lowercase() {
            'o' => '0',
            'i' | 'l' => '1',
            c => c,
        })
        .collect()
}

/// The hash the store keeps of a code.
fn code_hash(code: &str) -> String {
    token_hash(&normalise_code(code))
}

/// `POST /api/v1/class/accounts`: a class list as text.
pub struct ClassBody {
    rows: Vec<ClassRow>,
}

impl FromBody for ClassBody {
    fn from_fields(f: &mut Fields) -> Result<ClassBody, FieldError> {
        let text: String = f.req("csv")?;
        let rows = parse_class_list(&text).map_err(|e| FieldError::field("csv", e.to_string()))?;
        Ok(ClassBody { rows })
    }
}

/// An account just created, with its code (shown this once).
#[derive(Serialize)]
struct Created {
    name: String,
    level: LevelView,
    points: String,
    code: String,
}

/// The answer to a class list: its accounts and when their codes stop working.
#[derive(Serialize)]
struct CreatedClass {
    accounts: Vec<Created>,
    expires_at_ms: u64,
}

/// The signed-in organiser.
fn organiser(visitor: &Visitor) -> Result<&User, ApiError> {
    match &visitor.identity {
        crate::identity::Identity::User(u) => Ok(u),
        crate::identity::Identity::Anonymous { .. } => Err(ApiError::NotSignedIn),
    }
}

/// `POST /api/v1/class/accounts`: creates a class's accounts, all or none.
pub async fn create(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
    Body(body): Body<ClassBody>,
) -> Result<Response, ApiError> {
    let me = organiser(&visitor)?;
    let now = now_ms();
    let per_day = u64::from(state.class_accounts_per_day);
    let made = state.store.class_accounts_created_since(me.id, (now - DAY_MS) as i64).await?;
    if made + body.rows.len() as u64 > per_day {
        return Err(ApiError::TooMany(crate::error::Limit::ClassAccounts {
            max: per_day,
            left: per_day.saturating_sub(made),
        }));
    }
    let codes: Vec<String> = body.rows.iter().map(|_| new_code()).collect();
    let accounts: Vec<NewClassAccount> = body
        .rows
        .iter()
        .zip(&codes)
        .map(|(row, code)| NewClassAccount {
            username: row.name.clone(),
            points: level_points(row.level),
            code_hash: code_hash(code),
        })
        .collect();
    let expires = now + CODE_LIFETIME_MS;
    let users = match state
        .store
        .create_class_accounts(me.id, &accounts, now as i64, expires as i64)
        .await
    {
        Ok(users) => users,
        Err(StoreError::UsernameTaken(name)) => {
            let line =
                body.rows.iter().find(|r| r.name.eq_ignore_ascii_case(&name)).map_or(0, |r| r.line);
            return Err(ApiError::field(
                "csv",
                ClassListError { line, field: "name", problem: format!("{name:?} is taken") }
                    .to_string(),
            ));
        }
        Err(e) => return Err(e.into()),
    };
    tracing::info!(organiser = %me.username, accounts = users.len(), "class accounts created");
    let accounts = users
        .iter()
        .zip(codes)
        .map(|(u, code)| Created {
            name: u.username.clone(),
            level: LevelView(u.level()),
            points: u.points.to_string(),
            code,
        })
        .collect();
    Ok((StatusCode::CREATED, Json(CreatedClass { accounts, expires_at_ms: expires }))
        .into_response())
}

/// The §11 points a player of `level` starts with: the level's lowest.
fn level_points(level: Level) -> Points {
    if level.is_ranked() {
        level.min_points()
    } else {
        Points::ZERO
    }
}

/// One account of the organiser's class, as listed.
#[derive(Serialize)]
pub struct Listed {
    name: String,
    level: LevelView,
    points: String,
    claimed: bool,
    created_at_ms: i64,
    expires_at_ms: i64,
}

/// The organiser's class.
#[derive(Serialize)]
pub struct ClassList {
    accounts: Vec<Listed>,
}

/// `GET /api/v1/class/accounts`: the accounts the signed-in organiser created, and whether
/// each player has logged in yet.
pub async fn list(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
) -> Result<Json<ClassList>, ApiError> {
    let me = organiser(&visitor)?;
    let accounts = state
        .store
        .class_accounts(me.id)
        .await?
        .into_iter()
        .map(|a| Listed {
            name: a.user.username.clone(),
            level: LevelView(a.user.level()),
            points: a.user.points.to_string(),
            claimed: a.claimed,
            created_at_ms: a.created_at_ms,
            expires_at_ms: a.expires_at_ms,
        })
        .collect();
    Ok(Json(ClassList { accounts }))
}

/// A new code for one player.
#[derive(Serialize)]
pub struct NewCode {
    name: String,
    code: String,
    expires_at_ms: u64,
}

/// `POST /api/v1/class/accounts/{name}/code`: a new first-log-in code for a player of the
/// organiser's class who lost the slip or the password; the old password and sessions end.
pub async fn renew(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
    Path(name): Path<String>,
) -> Result<Json<NewCode>, ApiError> {
    let me = organiser(&visitor)?;
    let code = new_code();
    let expires = now_ms() + CODE_LIFETIME_MS;
    let user = state
        .store
        .renew_class_code(me.id, &name, &code_hash(&code), expires as i64)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("{name:?} in your class")))?;
    tracing::info!(organiser = %me.username, user = %user.username, "class code renewed");
    Ok(Json(NewCode { name: user.username, code, expires_at_ms: expires }))
}

/// `POST /api/v1/account/first-login`: a class account's first log-in.
pub struct FirstLogin {
    username: String,
    code: String,
    password: String,
}

impl FromBody for FirstLogin {
    fn from_fields(f: &mut Fields) -> Result<FirstLogin, FieldError> {
        Ok(FirstLogin {
            username: f.req("username")?,
            code: f.req("code")?,
            password: f.req("password")?,
        })
    }
}

/// `POST /api/v1/account/first-login`: the name, the printed code and a new password; signs
/// in. A wrong name or code counts as a failed log-in (the same throttle), and says no more
/// than a wrong password does.
pub async fn first_login(
    State(state): State<Arc<AppState>>,
    Extension(addr): Extension<ClientAddr>,
    headers: axum::http::HeaderMap,
    Body(body): Body<FirstLogin>,
) -> Result<Response, ApiError> {
    validate_password(&body.password)?;
    let now = now_ms();
    let browser = crate::accounts::browser(&headers);
    state.logins.check(&body.username, addr, browser.as_deref(), now)?;
    let hash = hash_password(body.password).await?;
    let claimed = state
        .store
        .claim_class_account(&body.username, &code_hash(&body.code), &hash, now as i64)
        .await?;
    let Some(user) = claimed else {
        state.logins.failed(&body.username, addr, now);
        return Err(ApiError::BadCode);
    };
    tracing::info!(user = %user.username, "first log-in of a class account");
    state.logins.succeeded(&user.username, browser.as_deref(), now);
    start_session(&state, &user, StatusCode::OK).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    #[test]
    fn a_class_list_reads_as_spreadsheets_write_it() {
        let text = "\u{feff}Name,Level\r\nann,25\r\n\r\nBen, level 12\n\"cat\",\"12级\"\ndan,\neve\nfay;x\n";
        let err = parse_class_list(text).unwrap_err();
        assert_eq!(err.to_string().split(':').next(), Some("line 8, name"), "{err}");
        let rows = parse_class_list(&text.replace("fay;x\n", "fay,level-30\ngus,无级别")).unwrap();
        let got: Vec<(usize, &str, Level)> =
            rows.iter().map(|r| (r.line, r.name.as_str(), r.level)).collect();
        assert_eq!(
            got,
            [
                (2, "ann", level(25)),
                (4, "Ben", level(12)),
                (5, "cat", level(12)),
                (6, "dan", Level::UNRANKED),
                (7, "eve", Level::UNRANKED),
                (8, "fay", level(30)),
                (9, "gus", Level::UNRANKED),
            ]
        );
        let semicolons = parse_class_list("姓名;级别\nann;25\nben;3").unwrap();
        assert_eq!(semicolons[1].level, level(3));
        let tabs = parse_class_list("ann\t25\n").unwrap();
        assert_eq!(tabs[0].level, level(25));
    }

    #[test]
    fn a_bad_line_refuses_the_list_naming_the_line_and_the_field() {
        let cases = [
            ("ann,25\n1ben,3", "line 2, name: 3 to 20 letters"),
            ("ann,25\nben,31", "line 2, level: \"31\" is not a level"),
            ("ann,25\nben,0", "line 2, level: \"0\" is not a level"),
            ("ann,25\nben,master", "line 2, level: \"master\" is not a level"),
            ("ann,25\nANN,3", "line 2, name: \"ANN\" is on line 1 too"),
            ("ann,25,x", "line 1, list: 3 fields"),
            ("\"ann,25", "line 1, list: a quoted field is not closed"),
            ("name,level\n\n", "line 0, list: no players"),
            ("anon-1,3", "line 1, name: \"anon-1\" is reserved"),
        ];
        for (text, expected) in cases {
            let e = parse_class_list(text).unwrap_err().to_string();
            assert!(e.starts_with(expected), "{text:?}: {e}");
        }
        let long: String = (0..=MAX_ROWS).map(|i| format!("pupil{i},\n")).collect();
        let e = parse_class_list(&long).unwrap_err().to_string();
        assert!(e.starts_with("line 101, list: more than 100 players"), "{e}");
    }

    #[test]
    fn codes_are_read_as_printed_or_as_misread() {
        let code = new_code();
        assert_eq!(code.len(), 11);
        assert_eq!(code.as_bytes()[5], b'-');
        assert_eq!(code_hash(&code), code_hash(&code.to_uppercase().replace('-', " ")));
        assert_eq!(normalise_code("OIL-1o"), "01110");
        assert_ne!(new_code(), new_code());
    }

    #[test]
    fn a_level_starts_at_its_lowest_points() {
        assert_eq!(level_points(level(30)), Points::from_whole(100));
        assert_eq!(level_points(level(1)), Points::from_whole(3000));
        assert_eq!(level_points(Level::UNRANKED), Points::ZERO);
    }
}
