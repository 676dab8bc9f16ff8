//! Every server → client message of both sockets, rendered from scripted games at fixed
//! times and compared, field by field, with `tests/data/messages.txt`: the exact JSON the
//! browser reads (docs/protocol.md). `ROOKERY_BLESS=1 cargo test -p rookery-server messages`
//! rewrites the file.

use std::fmt::Write as _;

use rookery_arbiter::{Game, RuleSet, StartPolicy, Termination, TimeControl};
use rookery_core::{ByColor, Color};
use rookery_ladder::{Glicko2, Points};
use rookery_store::{
    GameStatus, GameSummary, Player, PlayerKind, RatingChange, RatingChanges, UserId,
};
use serde_json::Value;

use super::view::{end_message, event_messages, finished_view, live_view, Crowd};
use super::Meta;
use crate::protocol::{
    Chess960Start, ClientMessage, ClockView, GameAction, GameId, ParseError, ProtocolError,
    Refusal, ServerMessage, Variant,
};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/messages.txt");

/// A message as the socket carries it, read back as JSON.
fn json(msg: &ServerMessage) -> Value {
    serde_json::from_str(&msg.to_text()).unwrap()
}

fn player(name: &str, kind: PlayerKind) -> Player {
    let user_id = (kind == PlayerKind::User).then_some(UserId(7));
    let engine_level = (kind == PlayerKind::Engine).then_some(3);
    Player { kind, user_id, name: name.into(), engine_level }
}

fn meta(id: &str, rules: RuleSet, tc: &str, start: bool, black: Player) -> Meta {
    let time_control: TimeControl = tc.parse().unwrap();
    Meta {
        id: GameId::parse(id).unwrap(),
        white: player("alice", PlayerKind::User),
        black,
        rules,
        speed: time_control.speed().name(),
        start: start.then(|| StartPolicy::online(time_control.speed())),
        time_control,
        rated: false,
        variant: crate::protocol::Variant::Standard,
        initial_fen: None,
        created_at_ms: 1_764_432_000_000,
        tournament: None,
    }
}

/// Renders what the actor would send for one game, step by step.
struct Script {
    meta: Meta,
    game: Game,
    out: Vec<(String, Value)>,
}

impl Script {
    fn new(meta: Meta) -> Script {
        let game = Game::new(meta.spec(), 0).unwrap();
        Script { meta, game, out: Vec::new() }
    }

    fn push(&mut self, label: &str, msg: &ServerMessage) {
        self.out.push((format!("{}/{label}", self.meta.id), json(msg)));
    }

    fn hello(&mut self, label: &str, you: Option<Color>, now: u64, crowd: &Crowd) {
        let game = Box::new(live_view(&self.meta, &self.game, now, crowd));
        self.push(label, &ServerMessage::Hello { you, game });
    }

    fn state(&mut self, label: &str, now: u64, crowd: &Crowd) {
        let game = Box::new(live_view(&self.meta, &self.game, now, crowd));
        self.push(label, &ServerMessage::State { game });
    }

    /// One client message as a player's action at `now`: every broadcast it causes, or the
    /// `rejected` answer.
    fn act(&mut self, label: &str, by: Color, text: &str, now: u64) {
        let ClientMessage::Act { action, .. } = ClientMessage::parse(text).unwrap() else {
            panic!("{text}")
        };
        self.apply(label, GameAction::Player { by, action, lag_ms: 0 }, now);
    }

    fn apply(&mut self, label: &str, action: GameAction, now: u64) {
        let (events, refusal) = match action.apply(&mut self.game, now) {
            Ok(events) => (events, None),
            Err(r) => (r.events, Some(Refusal::Arbiter(r.reason))),
        };
        for (i, msg) in event_messages(&self.game, &events, now).iter().enumerate() {
            self.push(&format!("{label}.{i}"), msg);
        }
        if let Some(refusal) = refusal {
            let ply = Some(self.game.plies().len());
            self.push(&format!("{label}.rejected"), &ServerMessage::Rejected { refusal, ply });
        }
    }

    fn end(&mut self, label: &str, now: u64, ladder: Option<&RatingChanges>) {
        let msg = end_message(&self.game, now, ladder);
        self.push(label, &msg);
    }
}

fn changes() -> RatingChanges {
    let glicko = Glicko2::default();
    let side = |before: &str, after: &str, rating: f64| RatingChange {
        user_id: UserId(7),
        points_before: before.parse::<Points>().unwrap(),
        points_after: after.parse::<Points>().unwrap(),
        rating_before: glicko.initial(),
        rating_after: rookery_ladder::Rating { rating, ..glicko.initial() },
    };
    RatingChanges { white: side("0", "10", 1662.31), black: side("0", "-10", 1337.69) }
}

/// Every message kind, from scripted games; and the games, finished.
fn render() -> (Vec<(String, Value)>, Vec<Script>) {
    let mut all = Vec::new();
    let mut games = Vec::new();
    let crowd = Crowd {
        spectators: 2,
        online: ByColor { white: true, black: false },
        abandoned: Some((Color::Black, 12_000)),
    };

    // A seed blitz game between people: the fair start, touch-move, strikes, offers.
    let bob = player("bob", PlayerKind::Anonymous);
    let mut s = Script::new(meta("seedGame", RuleSet::SEED, "300+2", true, bob));
    s.hello("hello", Some(Color::White), 1_000, &Crowd::default());
    s.act("touch", Color::White, r#"{"t":"touch","square":"g1","ply":0}"#, 2_000);
    s.act("touch_move", Color::White, r#"{"t":"move","uci":"e2e4","ply":0}"#, 2_500);
    s.act("nf3", Color::White, r#"{"t":"move","san":"Nf3","ply":0,"offer_draw":true}"#, 3_000);
    s.act("e5", Color::Black, r#"{"t":"move","uci":"e7e5","ply":1}"#, 9_000);
    s.act("illegal", Color::White, r#"{"t":"move","uci":"f1c4","ply":2}"#, 10_000);
    s.act("not_your_turn", Color::Black, r#"{"t":"move","uci":"d7d5","ply":2}"#, 10_500);
    s.act("nxe5", Color::White, r#"{"t":"move","uci":"f3e5","ply":2}"#, 11_000);
    s.hello("hello_spectator", None, 12_000, &crowd);
    s.act("resign", Color::Black, r#"{"t":"resign"}"#, 13_000);
    s.end("end", 13_000, Some(&changes()));
    s.state("state_over", 14_000, &Crowd::default());
    all.append(&mut s.out);
    games.push(s);

    // A fide game: the time added for an illegal move, a claimable repetition, a claim.
    let carol = player("carol", PlayerKind::User);
    let mut s = Script::new(meta("fideGame", RuleSet::FIDE, "600+0", false, carol));
    s.act("illegal", Color::White, r#"{"t":"move","uci":"f1c4","ply":0}"#, 1_000);
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    for (ply, uci) in shuffle.into_iter().enumerate() {
        let by = if ply % 2 == 0 { Color::White } else { Color::Black };
        let text = format!(r#"{{"t":"move","uci":"{uci}","ply":{ply}}}"#);
        s.act(&format!("shuffle{ply}"), by, &text, 2_000 + ply as u64 * 1_000);
    }
    s.state("state_claimable", 11_000, &crowd);
    s.act("claim", Color::White, r#"{"t":"claim_draw","claim":"threefold","ply":8}"#, 12_000);
    s.end("end", 12_000, None);
    all.append(&mut s.out);
    games.push(s);

    // A casual game against the engine, untimed: a takeback; and one nobody starts.
    let engine = player("Rookery level 3", PlayerKind::Engine);
    let mut s = Script::new(meta("casualGame", RuleSet::CASUAL, "-", false, engine));
    s.act("e4", Color::White, r#"{"t":"move","uci":"e2e4","ply":0}"#, 1_000);
    s.act("c5", Color::Black, r#"{"t":"move","uci":"c7c5","ply":1}"#, 2_000);
    s.act("takeback", Color::White, r#"{"t":"takeback","ply":2}"#, 3_000);
    s.act("granted", Color::Black, r#"{"t":"accept_takeback","ply":2}"#, 3_000);
    s.state("state_after_takeback", 3_500, &Crowd::default());
    s.act("abort", Color::White, r#"{"t":"abort"}"#, 4_000);
    s.end("end", 4_000, None);
    all.append(&mut s.out);
    games.push(s);

    let dave = player("dave", PlayerKind::User);
    let mut s = Script::new(meta("noStart", RuleSet::SEED, "180+0", true, dave));
    s.act("e4", Color::White, r#"{"t":"move","uci":"e2e4","ply":0}"#, 1_000);
    s.apply("flag", GameAction::Flag, 40_000);
    s.end("end", 40_000, None);
    s.hello("hello_over", Some(Color::Black), 41_000, &Crowd::default());
    all.append(&mut s.out);
    games.push(s);

    // A flag falls.
    let erin = player("erin", PlayerKind::User);
    let mut s = Script::new(meta("timeout", RuleSet::SEED, "60+0", false, erin));
    s.act("e4", Color::White, r#"{"t":"move","uci":"e2e4","ply":0}"#, 1_500);
    s.act("e5", Color::Black, r#"{"t":"move","uci":"e7e5","ply":1}"#, 2_700);
    s.apply("flag", GameAction::Flag, 70_000);
    s.end("end", 70_000, None);
    all.append(&mut s.out);
    games.push(s);

    // A Chess960 game (issue 55; not among the finished ones, whose records are read back
    // from PGN) from start 291, BQNRKRNB: White castles by taking its rook with the king
    // (`e1f1`), Black by the king's two-square move (`e8c8`); both written back as the king
    // taking its rook, `O-O` and `O-O-O`, and the dests hold both forms.
    let gil = player("gil", PlayerKind::User);
    let mut m = meta("c960Game", RuleSet::CASUAL, "300+3", true, gil);
    m.variant = Variant::Chess960(Chess960Start::new(291).unwrap());
    m.initial_fen = m.variant.start_fen();
    let mut s = Script::new(m);
    s.hello("hello", Some(Color::White), 500, &Crowd::default());
    s.act("nf3", Color::White, r#"{"t":"move","uci":"g1f3","ply":0}"#, 1_000);
    s.act("nd6", Color::Black, r#"{"t":"move","uci":"c8d6","ply":1}"#, 2_000);
    s.act("castle_onto_rook", Color::White, r#"{"t":"move","uci":"e1f1","ply":2}"#, 3_000);
    s.act("castle_two_squares", Color::Black, r#"{"t":"move","uci":"e8c8","ply":3}"#, 4_000);
    s.state("state", 5_000, &Crowd::default());
    all.append(&mut s.out);

    // An arena game (not among the finished ones): its `tournament` seat, where berserk is
    // allowed, and Black's berserk before their first move, which both sides hear at once.
    let fay = player("fay", PlayerKind::User);
    let mut m = meta("arenaGame", RuleSet::SEED, "180+2", true, fay);
    m.tournament = Some(rookery_store::TournamentSeat {
        tournament: "t7Kq2mXa".into(),
        name: "Blitz Arena".into(),
        round: None,
        board: 14,
        berserk: true,
    });
    let mut s = Script::new(m);
    s.hello("hello", Some(Color::Black), 500, &Crowd::default());
    s.apply("berserk", GameAction::Berserk { color: Color::Black }, 1_000);
    all.append(&mut s.out);

    // The lobby socket.
    let seek = std::sync::Arc::new(crate::lobby::Seek {
        id: "s8f2k1ab".into(),
        owner: player("alice", PlayerKind::User),
        time_control: "300+2".parse().unwrap(),
        speed: "blitz",
        rated: true,
        rules: RuleSet::SEED,
        variant: crate::protocol::VariantChoice::Standard,
        color: crate::lobby::ColorChoice::Random,
        to: Some("Bob".into()),
        created_at_ms: 1_764_432_000_123,
        addr: crate::client::ClientAddr::from_ip([127, 0, 0, 1].into()),
    });
    let lobby = [
        ServerMessage::Seeks { seeks: vec![seek.clone()] },
        ServerMessage::SeekAdded { seek },
        ServerMessage::SeekRemoved { id: "s8f2k1ab".into() },
        ServerMessage::GameStarted {
            seek: "s8f2k1ab".into(),
            game: GameId::parse("k3Xq9TzA").unwrap(),
        },
        ServerMessage::Live { games: 12 },
    ];
    for (i, msg) in lobby.iter().enumerate() {
        all.push((format!("lobby{i}"), json(msg)));
    }

    // What a connection says by itself.
    all.push(("crowd".into(), json(&crowd.event())));
    all.push(("pong".into(), json(&ServerMessage::Pong { server_ms: 1_764_432_000_123 })));
    let refusals = [
        Refusal::StalePly { current: 4, sent: Some(3) },
        Refusal::StalePly { current: 4, sent: None },
        Refusal::Spectator,
        Refusal::NotAbandoned,
        Refusal::NotStarted,
        Refusal::GameOver,
        Refusal::Storage,
    ];
    for (i, refusal) in refusals.into_iter().enumerate() {
        let ply = (i % 2 == 0).then_some(4);
        all.push((format!("rejected{i}"), json(&ServerMessage::Rejected { refusal, ply })));
    }
    let errors = [
        ProtocolError::Parse(ClientMessage::parse("{").unwrap_err()),
        ProtocolError::Parse(ParseError::UnknownType("teleport".into())),
        ProtocolError::Parse(ClientMessage::parse(r#"{"t":"move","uci":42}"#).unwrap_err()),
        ProtocolError::TooLarge { max: 4096 },
        ProtocolError::RateLimited,
        ProtocolError::Binary,
    ];
    for (i, e) in errors.into_iter().enumerate() {
        all.push((format!("error{i}"), json(&ServerMessage::Error(e))));
    }
    (all, games)
}

#[test]
fn messages_are_as_documented() {
    let (rendered, _) = render();
    if std::env::var_os("ROOKERY_BLESS").is_some() {
        let mut text = String::from(
            "# Every server → client message of both sockets, rendered by \
             crates/server/src/live/tests.rs\n# from scripted games: `LABEL JSON` per line. \
             The browser (web/js) reads these fields.\n",
        );
        for (label, v) in &rendered {
            writeln!(text, "{label} {v}").unwrap();
        }
        std::fs::write(GOLDEN, text).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(GOLDEN).unwrap();
    let expected: Vec<(&str, Value)> = golden
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (label, json) = l.split_once(' ').unwrap();
            (label, serde_json::from_str(json).unwrap())
        })
        .collect();
    for ((label, got), (want_label, want)) in rendered.iter().zip(&expected) {
        assert_eq!(label, want_label);
        assert_eq!(got, want, "{label}: the message differs from tests/data/messages.txt");
    }
    assert_eq!(rendered.len(), expected.len(), "as many messages as recorded");
}

/// A finished game is served from its stored row and PGN record (issue 37): the same `game`
/// as the live actor's last one, but for the clocks, which are the record's (each side's
/// after its last move, to the second; the flag-fallen side's at zero).
#[test]
fn finished_games_are_served_from_their_record() {
    let (_, games) = render();
    assert_eq!(games.len(), 5);
    for s in games {
        let (game, meta) = (&s.game, &s.meta);
        let outcome = game.outcome().expect("over");
        let summary = GameSummary {
            id: meta.id.to_string(),
            white: meta.white.clone(),
            black: meta.black.clone(),
            rules: meta.rules.label().into(),
            time_control: meta.time_control.to_string(),
            rated: meta.rated,
            initial_fen: None,
            variant: rookery_core::CastlingMode::Standard,
            status: if outcome.result.is_decided() {
                GameStatus::Finished
            } else {
                GameStatus::Aborted
            },
            result: Some(outcome.result),
            termination: Some(outcome.termination.label().into()),
            created_at_ms: meta.created_at_ms as i64,
            ended_at_ms: Some(meta.created_at_ms as i64 + 100_000),
            pgn: Some(game.to_pgn()),
            tournament: None,
        };
        let record = crate::live::pgn_record(summary.pgn.as_deref()).unwrap();
        let served =
            finished_view(&summary, &record).unwrap_or_else(|e| panic!("{}: {e}", meta.id));
        let mut live = live_view(meta, game, 0, &Crowd::default());
        // As the record writes them: whole seconds, tenths below a minute (issue 41).
        let second = |ms: Option<u64>| {
            ms.map(|ms| if ms < 60_000 { ms / 100 * 100 } else { ms / 1000 * 1000 })
        };
        for m in &mut live.moves {
            m.clock_ms = second(m.clock_ms);
        }
        let flagged =
            matches!(outcome.termination, Termination::Timeout).then(|| game.position().turn());
        let last = |c: Color| match flagged {
            Some(f) if f == c => Some(0),
            _ => game
                .plies()
                .iter()
                .rev()
                .find(|p| p.color == c)
                .map_or(meta.time_control.initial_ms(), |p| second(p.clock_ms)),
        };
        live.clock = ClockView {
            white_ms: last(Color::White),
            black_ms: last(Color::Black),
            running: None,
            delay_ms: None,
            server_ms: None,
        };
        assert_eq!(served, live, "{}", meta.id);
    }
}
