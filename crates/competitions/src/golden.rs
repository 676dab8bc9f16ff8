//! Scripted tournaments rendered at fixed times: every view, every message of the tournament
//! socket (and the lobby's `tournament_game`) and every export, compared with
//! `tests/data/tournament/` (recorded from the server's `json!` views before they were typed,
//! issue 52). `ROOKERY_BLESS=1 cargo test -p rookery-competitions golden` rewrites the files.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

use rookery_store::{TournamentRow, TournamentStatus, UserId};
use rookery_tournament::competition::{Action, BoardResult, EntrantId};
use rookery_tournament::ByeKind;
use serde_json::{json, Value};

use super::book::{Book, Tour};
use super::log::{self, Entry};
use super::message::{GameNotice, ResultNews, SocketError, TournamentMessage, YourGame};
use super::settings::Settings;
use super::view::{RoundStateName, RoundView};
use super::Export;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tournament");
const T0: u64 = 1_764_432_000_000;

/// What the socket or the API writes, read back.
fn json_of(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap()
}

fn settings(format: &str, extra: Value) -> Settings {
    let mut s = json!({
        "name": "Club <Open>", "format": format, "rounds": null, "duration_s": null,
        "time_control": "600+5", "rules": "seed", "rated": false, "starts_at_ms": null,
        "tiebreaks": ["BH-C1", "BH", "SB", "WIN"], "regulations": 2026, "forfeit_s": 60,
        "max_byes": 1, "late_join_until": 2, "min_level": null, "max_level": null,
        "password": null, "berserk": false, "streaks": false, "seed": 4
    });
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    serde_json::from_value(s).unwrap()
}

/// A tournament driven as its actor drives it: each entry folded, then shown.
struct Script {
    tour: Tour,
    at: u64,
    /// The socket messages, labelled.
    messages: Vec<(String, Value)>,
    /// The socket's messages shown, by kind.
    kinds: BTreeSet<&'static str>,
}

impl Script {
    fn new(id: &str, settings: Settings) -> Script {
        let row = TournamentRow {
            id: id.into(),
            name: settings.name.clone(),
            format: settings.format.as_str().into(),
            settings: serde_json::to_string(&settings).unwrap(),
            status: TournamentStatus::Upcoming,
            created_by: UserId(1),
            created_at_ms: T0 as i64,
            starts_at_ms: None,
        };
        let book = Book::new(&settings);
        let mut names = HashMap::new();
        names.insert(1, "arbiter".to_owned());
        Script {
            tour: Tour {
                row,
                settings,
                book,
                log: Vec::new(),
                names,
                started: HashSet::new(),
                ladder: HashMap::new(),
            },
            at: T0,
            messages: Vec::new(),
            kinds: BTreeSet::new(),
        }
    }

    fn record(&mut self, entry: Entry, by: Option<&str>, reason: Option<&str>) {
        self.at += 1000;
        let t = &mut self.tour;
        t.book.fold(&t.settings, &entry, self.at).unwrap_or_else(|e| panic!("{entry:?}: {e}"));
        let (kind, data) = entry.encode();
        let stored = rookery_store::LogEntry {
            seq: t.log.len() as i64,
            at_ms: self.at as i64,
            by: None,
            kind,
            data,
            reason: reason.map(str::to_owned),
        };
        let shown = t.shown(&stored, entry, by.map(str::to_owned));
        t.log.push(shown);
        t.row.status = t.book.status;
    }

    fn act(&mut self, action: Action) {
        self.record(Entry::of_action(action, None), None, None);
    }

    fn join(&mut self, name: &str, rating: Option<u16>, user: i64) {
        let action =
            Action::Join { key: name.to_lowercase(), name: name.into(), rating, title: None };
        self.record(Entry::of_action(action, Some(user)), Some(name), None);
        self.tour.names.insert(user, name.into());
    }

    fn pair(&mut self) -> u32 {
        let action = self.tour.book.comp.pair_next().unwrap();
        let Action::Paired { round, .. } = action else { unreachable!() };
        self.act(action);
        round
    }

    fn results(&mut self, round: u32, results: &[BoardResult]) {
        for (i, &result) in results.iter().enumerate() {
            self.act(Action::Result { round, board: i as u32 + 1, result });
        }
    }

    fn message(&mut self, label: &str, msg: TournamentMessage) {
        self.kinds.insert(kind(&msg));
        self.messages.push((label.to_owned(), json_of(&msg)));
    }
}

/// A finished Swiss of five: a requested bye, a forbidden pair, a withdrawal and its
/// forfeits, a forfeit, a double forfeit, a correction, log-only decisions.
fn swiss() -> Script {
    let mut s = Script::new("sw1ss000", settings("swiss", json!({"rounds": 3})));
    for (i, (name, rating)) in [
        ("Ann", Some(1800)),
        ("bob", Some(1700)),
        ("Cat, \"C\"", None),
        ("dave", Some(1500)),
        ("Eve", Some(1400)),
    ]
    .into_iter()
    .enumerate()
    {
        s.join(name, rating, i as i64 + 2);
    }
    s.act(Action::ForbidPair { a: EntrantId(0), b: EntrantId(1) });
    s.act(Action::Bye { entrant: EntrantId(4), round: 2, kind: ByeKind::Half, requested: true });
    s.record(Entry::Start(log::Empty {}), Some("arbiter"), None);
    let r1 = s.pair();
    let msg = s.tour.round_message(r1).unwrap();
    s.message("round_paired", msg);
    s.act(Action::Publish { round: r1 });
    s.tour.started.insert(s.tour.board_game(r1, 1).to_string());
    s.messages.push(("view_round_1_published".into(), json_of(&s.tour.view())));
    s.record(
        Entry::AddTime(log::AddTime {
            round: 1,
            board: 1,
            color: rookery_core::Color::Black,
            ms: 60_000,
        }),
        Some("arbiter"),
        Some("a clock fault"),
    );
    s.results(r1, &[BoardResult::WhiteWon, BoardResult::WhiteByForfeit]);
    s.record(
        Entry::of_action(Action::Withdraw { entrant: EntrantId(3), from_round: 2 }, None),
        Some("arbiter"),
        Some("ill"),
    );
    let r2 = s.pair();
    s.act(Action::Publish { round: r2 });
    for f in s.tour.book.comp.forfeits_of_withdrawn(r2) {
        s.act(f);
    }
    s.record(
        Entry::SwapDeclined(log::BoardRef { round: 2, board: 1 }),
        Some("arbiter"),
        Some("too late"),
    );
    let boards = s.tour.book.comp.rounds()[1].boards.len();
    let r2_results: Vec<BoardResult> =
        [BoardResult::Draw, BoardResult::BlackWon].into_iter().cycle().take(boards).collect();
    for (i, r) in r2_results.iter().enumerate() {
        if s.tour.book.comp.rounds()[1].boards[i].result.is_none() {
            s.act(Action::Result { round: r2, board: i as u32 + 1, result: *r });
        }
    }
    let r3 = s.pair();
    s.act(Action::Publish { round: r3 });
    let boards = s.tour.book.comp.rounds()[2].boards.len();
    for i in 0..boards {
        if s.tour.book.comp.rounds()[2].boards[i].result.is_none() {
            let r = if i == 0 { BoardResult::DoubleForfeit } else { BoardResult::BlackWon };
            s.act(Action::Result { round: r3, board: i as u32 + 1, result: r });
        }
    }
    s.record(Entry::End(log::Empty {}), None, None);
    // As the actor and the socket write them today (rounds.rs, arbiter.rs, api.rs).
    let id = s.tour.board_game(3, 2);
    let game = YourGame {
        round: Some(3),
        board: 2,
        game: id.to_string(),
        color: rookery_core::Color::Black,
        opponent: "bob".into(),
    };
    let notice = GameNotice {
        tournament: s.tour.row.id.clone(),
        name: s.tour.settings.name.clone(),
        game: game.clone(),
    };
    let lobby = serde_json::from_str(&notice.to_text()).unwrap();
    s.messages.push(("lobby_tournament_game".into(), lobby));
    s.message("your_game", TournamentMessage::YourGame(game));
    let unpaired = RoundView {
        round: 4,
        state: RoundStateName::Unpaired,
        bye: None,
        absent: None,
        boards: Vec::new(),
        chess960: None,
    };
    s.message("round_unpaired", TournamentMessage::RoundPaired(unpaired));
    s.message("pong", TournamentMessage::Pong { server_ms: 0 });
    s.message("error_rate_limited", TournamentMessage::Error(SocketError::RateLimited));
    s.message("error_unknown_type", TournamentMessage::Error(SocketError::UnknownType));
    s.record(
        Entry::of_action(Action::Result { round: 1, board: 1, result: BoardResult::Draw }, None),
        Some("arbiter"),
        Some("the scoresheets say a draw"),
    );
    let entry = s.tour.log.last().unwrap().clone();
    s.message("log", TournamentMessage::Log { entry: Box::new(entry) });
    let tournament = std::sync::Arc::new(s.tour.view());
    s.message("tournament", TournamentMessage::Tournament { tournament });
    s
}

/// A round robin of four, running: round 1 published with one result in.
fn round_robin() -> Script {
    let mut s = Script::new(
        "rr000000",
        settings(
            "round_robin",
            json!({"tiebreaks": ["DE", "SB", "WIN"], "password": "pw", "min_level": 20}),
        ),
    );
    for (i, name) in ["ann", "bob", "cat", "dave"].into_iter().enumerate() {
        s.join(name, Some(1500 + 10 * i as u16), i as i64 + 2);
    }
    s.record(Entry::Start(log::Empty {}), Some("arbiter"), None);
    let r1 = s.pair();
    s.act(Action::Publish { round: r1 });
    s.act(Action::Result { round: r1, board: 2, result: BoardResult::BlackWon });
    let news = ResultNews {
        round: Some(1),
        board: 2,
        game: s.tour.board_game(1, 2).to_string(),
        result: "0-1",
        forfeit: false,
        corrected: false,
    };
    s.message("result", TournamentMessage::Result(news));
    s
}

/// An arena of four, running: two waves, a berserk, a leave.
fn arena() -> Script {
    let mut s = Script::new(
        "ar3na000",
        settings(
            "arena",
            json!({"duration_s": 3600, "time_control": "180+2", "berserk": true, "streaks": true, "tiebreaks": []}),
        ),
    );
    for (i, name) in ["ann", "bob", "cat", "dave"].into_iter().enumerate() {
        let player = i as u32 + 1;
        s.record(
            Entry::ArenaJoin(log::ArenaJoin {
                player,
                key: name.into(),
                name: name.into(),
                user_id: i as i64 + 2,
                rating: 1500 + 50 * player as u16,
            }),
            Some(name),
            None,
        );
        s.tour.names.insert(i as i64 + 2, name.into());
    }
    s.record(Entry::Start(log::Empty {}), Some("arbiter"), None);
    let wave = |s: &mut Script| {
        let games: Vec<(u32, u32)> = s
            .tour
            .book
            .arena
            .clone()
            .unwrap()
            .pair(s.at + 1000)
            .iter()
            .map(|g| (g.white.get(), g.black.get()))
            .collect();
        s.record(Entry::ArenaPair(log::ArenaPair { games: games.clone() }), None, None);
        games
    };
    let first = wave(&mut s);
    s.record(Entry::Berserk(log::Berserk { game: 1, player: first[0].1 }), None, None);
    s.record(
        Entry::ArenaResult(log::ArenaResult {
            game: 1,
            winner: Some(rookery_core::Color::Black),
            plies: 40,
        }),
        None,
        None,
    );
    s.record(Entry::ArenaResult(log::ArenaResult { game: 2, winner: None, plies: 60 }), None, None);
    let second = wave(&mut s);
    assert!(!second.is_empty());
    s.record(
        Entry::ArenaResult(log::ArenaResult {
            game: 3,
            winner: Some(rookery_core::Color::White),
            plies: 31,
        }),
        None,
        None,
    );
    s.record(Entry::ArenaLeave(log::ArenaPlayer { player: 4 }), Some("dave"), None);
    let news = ResultNews {
        round: None,
        board: 3,
        game: s.tour.arena_game(3).to_string(),
        result: "1-0",
        forfeit: false,
        corrected: false,
    };
    s.message("result_arena", TournamentMessage::Result(news));
    s
}

/// An upcoming Swiss nobody has joined, scheduled, with conditions.
fn upcoming() -> Script {
    Script::new(
        "upc0m1ng",
        settings(
            "swiss",
            json!({"rounds": 5, "starts_at_ms": T0 + 3_600_000, "max_level": 25, "min_level": 3, "password": "x"}),
        ),
    )
}

/// Labelled JSON, named files, and the kinds of socket message shown.
type Rendered = (Vec<(String, Value)>, Vec<(String, String)>, BTreeSet<&'static str>);

/// Every kind of message the tournament socket sends: a new one stops the build here, and
/// the test below until the golden file shows an example of it.
const KINDS: [&str; 8] =
    ["tournament", "round_paired", "your_game", "result", "clock", "log", "pong", "error"];

fn kind(msg: &TournamentMessage) -> &'static str {
    match msg {
        TournamentMessage::Tournament { .. } => "tournament",
        TournamentMessage::RoundPaired(_) => "round_paired",
        TournamentMessage::YourGame(_) => "your_game",
        TournamentMessage::Result(_) => "result",
        TournamentMessage::Clock(_) => "clock",
        TournamentMessage::Log { .. } => "log",
        TournamentMessage::Pong { .. } => "pong",
        TournamentMessage::Error(_) => "error",
    }
}

fn render() -> Rendered {
    let mut out = Vec::new();
    let mut kinds = BTreeSet::from(["clock"]);
    let mut files = Vec::new();
    for (name, mut s) in [
        ("swiss", swiss()),
        ("round_robin", round_robin()),
        ("arena", arena()),
        ("upcoming", upcoming()),
    ] {
        let t = &s.tour;
        let mut lines = vec![
            ("view".to_owned(), json_of(&t.view())),
            ("summary".to_owned(), json_of(&t.summary())),
            ("clock".to_owned(), json_of(&TournamentMessage::Clock(t.clock(0)))),
            ("entry_ann".to_owned(), json_of(&t.entry("ann"))),
            ("entry_nobody".to_owned(), json_of(&t.entry("nobody"))),
            ("log_last".to_owned(), json_of(&t.log.last())),
        ];
        for r in 1..=t.book.comp.rounds().len() as u32 {
            lines.push((format!("round_{r}"), json_of(&t.round_view(r).unwrap())));
        }
        for e in [Export::Csv, Export::Html, Export::Trf { lf: true }, Export::Games] {
            let ext = match e {
                Export::Csv => "csv",
                Export::Html => "html",
                Export::Trf { .. } => "trf",
                Export::Games => "games",
                Export::BoardPrizesCsv => unreachable!("not an individual event's"),
            };
            files.push((format!("{name}.{ext}"), t.export(e).unwrap()));
        }
        lines.append(&mut s.messages);
        kinds.append(&mut s.kinds);
        for (label, v) in lines {
            out.push((format!("{name}/{label}"), v));
        }
    }
    (out, files, kinds)
}

#[test]
fn views_messages_and_exports_are_as_recorded() {
    let (rendered, files, kinds) = render();
    assert_eq!(kinds, BTreeSet::from(KINDS), "an example of every message");
    let golden = format!("{DIR}/views.txt");
    if std::env::var_os("ROOKERY_BLESS").is_some() {
        std::fs::create_dir_all(DIR).unwrap();
        let mut text =
            String::from("# Scripted tournaments' views and messages: `LABEL JSON` per line.\n");
        for (label, v) in &rendered {
            writeln!(text, "{label} {v}").unwrap();
        }
        std::fs::write(&golden, text).unwrap();
        for (name, body) in &files {
            std::fs::write(format!("{DIR}/{name}"), body).unwrap();
        }
        return;
    }
    let text = std::fs::read_to_string(&golden).unwrap();
    let expected: Vec<(&str, Value)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (label, json) = l.split_once(' ').unwrap();
            (label, serde_json::from_str(json).unwrap())
        })
        .collect();
    for ((label, got), (want_label, want)) in rendered.iter().zip(&expected) {
        assert_eq!(label, want_label);
        assert_eq!(got, want, "{label}");
    }
    assert_eq!(rendered.len(), expected.len());
    for (name, body) in &files {
        let want = std::fs::read_to_string(format!("{DIR}/{name}")).unwrap();
        assert_eq!(body, &want, "{name}");
    }
}

/// Issue 53: an over-the-board list — guests from a list and the desk, an account, the
/// check-in, a round, a link — stored, read back entry by entry and folded again (what the
/// revival does) gives the same state: the same competition, guests, accounts and presence.
#[test]
fn an_over_the_board_list_replays_from_its_stored_log() {
    let mut s = Script::new(
        "h4ll0000",
        settings("swiss", json!({"rounds": 3, "over_the_board": true, "check_in": true})),
    );
    let guest = |name: &str, rating: Option<u16>, particulars: log::Guest| log::Join {
        key: format!("guest:{}", name.to_lowercase()),
        name: name.into(),
        rating,
        title: None,
        user_id: None,
        guest: Some(particulars),
    };
    let listed = log::Guest {
        fide_id: Some(8_600_123),
        federation: Some("CHN".into()),
        birth_year: Some(2009),
        club: Some("No. 4".into()),
        ..log::Guest::default()
    };
    // A list (one `roster` entry), then one at the desk (a `join`).
    let list = vec![
        guest("Li, Wei", Some(2105), listed),
        guest("Wang Fang", Some(1850), log::Guest::default()),
    ];
    s.record(Entry::Roster(log::Roster { players: list }), Some("arbiter"), None);
    let desk = guest("Absent, Al", None, log::Guest::default());
    s.record(Entry::Join(desk), Some("arbiter"), None);
    s.join("Ann", Some(1700), 2);
    assert!((0..4).all(|n| !s.tour.book.comp.is_present(EntrantId(n))), "nobody checked in");
    s.record(
        Entry::CheckIns(log::CheckIns { entrants: vec![0, 1], present: true }),
        Some("arbiter"),
        None,
    );
    s.act(Action::CheckIn { entrant: EntrantId(3), present: true });
    s.record(Entry::Start(log::Empty {}), Some("arbiter"), None);
    let round = s.pair();
    s.act(Action::Publish { round });
    let r1 = s.tour.book.comp.rounds()[0].clone();
    assert_eq!(r1.boards.len() + r1.pab.iter().count(), 2, "three present: a board and a bye");
    assert!(!r1.boards.iter().any(|b| b.white == EntrantId(2) || b.black == EntrantId(2)));
    s.results(1, &[BoardResult::Draw]);
    s.record(
        Entry::Link(log::Link { entrant: 1, key: "wang".into(), user_id: 7 }),
        Some("arbiter"),
        None,
    );
    assert_eq!(s.tour.player_of(EntrantId(1)).user_id, Some(UserId(7)));
    assert_eq!(s.tour.player_of(EntrantId(0)).kind, rookery_store::PlayerKind::Anonymous);

    // Stored as the actor stores them, read back, folded into a fresh book.
    let mut again = Book::new(&s.tour.settings);
    for shown in &s.tour.log {
        let (kind, data) = shown.detail.data.0.encode();
        let stored = rookery_store::LogEntry {
            seq: shown.seq,
            at_ms: shown.at_ms,
            by: None,
            kind,
            data,
            reason: None,
        };
        let entry = Entry::decode(&stored).unwrap_or_else(|e| panic!("{e}"));
        again.fold(&s.tour.settings, &entry, shown.at_ms as u64).unwrap();
    }
    let book = &s.tour.book;
    assert_eq!(again.comp, book.comp);
    assert_eq!(again.guests, book.guests);
    assert_eq!(again.users, book.users);
    assert_eq!(book.comp.find("wang"), Some(EntrantId(1)));
    assert_eq!(book.guests.len(), 3);
    // The view marks guests and presence; the TRF carries the list's particulars.
    let view = json_of(&s.tour.view());
    let players = view["players"].as_array().unwrap();
    let row = |name: &str| players.iter().find(|p| p["name"] == name).unwrap().clone();
    assert_eq!(
        (row("Li, Wei")["guest"].clone(), row("Li, Wei")["present"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(
        (row("Wang Fang").get("guest"), row("Absent, Al")["present"].clone()),
        (None, json!(false))
    );
    let trf = s.tour.export(Export::Trf { lf: true }).unwrap();
    let li = trf.lines().find(|l| l.contains("Li, Wei")).unwrap();
    assert!(li.contains("CHN") && li.contains("8600123") && li.contains("2009/00/00"), "{li}");
}
