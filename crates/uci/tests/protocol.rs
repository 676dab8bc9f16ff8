//! Every command and message of the protocol: parsed, formatted, and the errors of malformed
//! lines, table-driven so that a failure names the line.

use std::time::Duration;

use rookery_core::{Role, Square};
use rookery_uci::{
    Command, Go, InfoField, Message, OptionDecl, OptionKind, ParseError, Registration, Score,
    ScoreBound, ScoreValue, StartPosition, Status, UciMove,
};

fn mv(text: &str) -> UciMove {
    text.parse().unwrap()
}

#[test]
fn commands_parse_and_format_canonically() {
    let cases: Vec<(&str, Command)> = vec![
        ("uci", Command::Uci),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
        ("isready", Command::IsReady),
        (
            "setoption name Hash value 128",
            Command::SetOption { name: "Hash".into(), value: Some("128".into()) },
        ),
        (
            "setoption name Move Overhead value 50",
            Command::SetOption { name: "Move Overhead".into(), value: Some("50".into()) },
        ),
        (
            "setoption name Clear Hash",
            Command::SetOption { name: "Clear Hash".into(), value: None },
        ),
        (
            "setoption name Book File value /tmp/my book.bin",
            Command::SetOption { name: "Book File".into(), value: Some("/tmp/my book.bin".into()) },
        ),
        ("register later", Command::Register(Registration::Later)),
        (
            "register name Ann Example code 42-x",
            Command::Register(Registration::Now {
                name: "Ann Example".into(),
                code: "42-x".into(),
            }),
        ),
        ("ucinewgame", Command::UciNewGame),
        ("position startpos", Command::Position { start: StartPosition::Standard, moves: vec![] }),
        (
            "position startpos moves e2e4 e7e5 e1e2",
            Command::Position {
                start: StartPosition::Standard,
                moves: vec![mv("e2e4"), mv("e7e5"), mv("e1e2")],
            },
        ),
        (
            "position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7b8n",
            Command::Position {
                start: StartPosition::Fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap()),
                moves: vec![UciMove::Normal {
                    from: Square::B7,
                    to: Square::B8,
                    promotion: Some(Role::Knight),
                }],
            },
        ),
        ("go", Command::Go(Go::default())),
        ("go infinite", Command::Go(Go { infinite: true, ..Go::default() })),
        ("go perft 5", Command::Go(Go { perft: Some(5), ..Go::default() })),
        (
            "go ponder wtime 60000 btime 59000 winc 1000 binc 1000 movestogo 12",
            Command::Go(Go {
                ponder: true,
                wtime: Some(Duration::from_secs(60)),
                btime: Some(Duration::from_secs(59)),
                winc: Some(Duration::from_secs(1)),
                binc: Some(Duration::from_secs(1)),
                moves_to_go: Some(12),
                ..Go::default()
            }),
        ),
        (
            "go depth 12 nodes 100000 mate 3 movetime 2500",
            Command::Go(Go {
                depth: Some(12),
                nodes: Some(100_000),
                mate: Some(3),
                movetime: Some(Duration::from_millis(2500)),
                ..Go::default()
            }),
        ),
        (
            "go infinite searchmoves e2e4 d2d4",
            Command::Go(Go {
                infinite: true,
                search_moves: vec![mv("e2e4"), mv("d2d4")],
                ..Go::default()
            }),
        ),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("bench", Command::Bench { depth: None }),
        ("bench 6", Command::Bench { depth: Some(6) }),
    ];
    for (text, expected) in cases {
        let parsed: Command = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed, expected, "{text}");
        assert_eq!(parsed.to_string(), text);
    }
}

#[test]
fn commands_tolerate_spacing_and_order() {
    let go: Command = "  go   searchmoves e2e4   depth 3 ".parse().unwrap();
    assert_eq!(go.to_string(), "go depth 3 searchmoves e2e4");
    let negative: Command = "go wtime -50 btime 100".parse().unwrap();
    assert_eq!(negative.to_string(), "go wtime 0 btime 100", "an overdrawn clock reads as zero");
}

#[test]
fn malformed_commands_are_typed_errors() {
    let expected = |after, expected, found: Option<&str>| ParseError::Expected {
        after,
        expected,
        found: found.map(str::to_owned),
    };
    let cases: Vec<(&str, ParseError, &str)> = vec![
        ("", ParseError::Empty, "empty line"),
        ("hello world", ParseError::UnknownCommand("hello".into()), "unknown command \"hello\""),
        (
            "go depth",
            expected("depth", "a number", None),
            "expected a number after \"depth\", found the end of the line",
        ),
        (
            "go depth x",
            expected("depth", "a number", Some("x")),
            "expected a number after \"depth\", found \"x\"",
        ),
        (
            "go fast",
            ParseError::Unexpected { command: "go", token: "fast".into() },
            "unexpected \"fast\" in \"go\"",
        ),
        ("go searchmoves e2e4 e9e4", ParseError::BadMove("e9e4".into()), "invalid move \"e9e4\""),
        (
            "position",
            expected("position", "startpos or fen", None),
            "expected startpos or fen after \"position\", found the end of the line",
        ),
        (
            "position startpos e2e4",
            ParseError::Unexpected { command: "position", token: "e2e4".into() },
            "unexpected \"e2e4\" in \"position\"",
        ),
        (
            "position startpos moves e2e4 castle",
            ParseError::BadMove("castle".into()),
            "invalid move \"castle\"",
        ),
        (
            "debug maybe",
            expected("debug", "on or off", Some("maybe")),
            "expected on or off after \"debug\", found \"maybe\"",
        ),
        (
            "setoption Hash 1",
            expected("setoption", "name", Some("Hash")),
            "expected name after \"setoption\", found \"Hash\"",
        ),
        (
            "setoption name",
            expected("name", "an option name", None),
            "expected an option name after \"name\", found the end of the line",
        ),
        (
            "isready now",
            ParseError::Unexpected { command: "isready", token: "now".into() },
            "unexpected \"now\" in \"isready\"",
        ),
        (
            "bench deep",
            expected("bench", "a number", Some("deep")),
            "expected a number after \"bench\", found \"deep\"",
        ),
    ];
    for (text, error, message) in cases {
        assert_eq!(text.parse::<Command>(), Err(error), "{text}");
        assert_eq!(text.parse::<Command>().unwrap_err().to_string(), message, "{text}");
    }
    let bad_fen = "position fen 8/8/8 w - - 0 1".parse::<Command>().unwrap_err();
    assert!(matches!(bad_fen, ParseError::BadFen { .. }));
    assert!(bad_fen.to_string().starts_with("invalid FEN \"8/8/8 w - - 0 1\": "), "{bad_fen}");
}

#[test]
fn messages_parse_and_format_canonically() {
    let score = |value, bound| InfoField::Score(Score { value, bound });
    let cases: Vec<(&str, Message)> = vec![
        ("id name Rookery 0.1.0", Message::IdName("Rookery 0.1.0".into())),
        ("id author The Rookery developers", Message::IdAuthor("The Rookery developers".into())),
        ("uciok", Message::UciOk),
        ("readyok", Message::ReadyOk),
        ("bestmove e2e4", Message::BestMove { best: mv("e2e4"), ponder: None }),
        ("bestmove e7e8q ponder d8e8", Message::BestMove { best: mv("e7e8q"), ponder: Some(mv("d8e8")) }),
        ("bestmove 0000", Message::BestMove { best: UciMove::Null, ponder: None }),
        ("copyprotection checking", Message::CopyProtection(Status::Checking)),
        ("registration error", Message::Registration(Status::Error)),
        ("info depth 12 seldepth 18 multipv 2 score cp -35 upperbound nodes 123456 nps 1000000 hashfull 42 tbhits 0 time 123 pv e2e4 e7e5", Message::Info(vec![
            InfoField::Depth(12), InfoField::SelDepth(18), InfoField::MultiPv(2),
            score(ScoreValue::Centipawns(-35), Some(ScoreBound::Upper)),
            InfoField::Nodes(123_456), InfoField::Nps(1_000_000), InfoField::HashFull(42), InfoField::TbHits(0),
            InfoField::Time(Duration::from_millis(123)), InfoField::Pv(vec![mv("e2e4"), mv("e7e5")]),
        ])),
        ("info depth 9 score cp 35 wdl 120 822 58", Message::Info(vec![InfoField::Depth(9), score(ScoreValue::Centipawns(35), None), InfoField::Wdl { win: 120, draw: 822, loss: 58 }])),
        ("info score mate -3 lowerbound", Message::Info(vec![score(ScoreValue::Mate(-3), Some(ScoreBound::Lower))])),
        ("info currmove e2e4 currmovenumber 1", Message::Info(vec![InfoField::CurrMove(mv("e2e4")), InfoField::CurrMoveNumber(1)])),
        ("info sbhits 3 cpuload 950", Message::Info(vec![InfoField::SbHits(3), InfoField::CpuLoad(950)])),
        ("info refutation d1h5 g6h5", Message::Info(vec![InfoField::Refutation(vec![mv("d1h5"), mv("g6h5")])])),
        ("info currline 1 d1h5 g6h5", Message::Info(vec![InfoField::CurrLine { cpu: Some(1), moves: vec![mv("d1h5"), mv("g6h5")] }])),
        ("info currline e2e4", Message::Info(vec![InfoField::CurrLine { cpu: None, moves: vec![mv("e2e4")] }])),
        ("info depth 3 string hello  world", Message::Info(vec![InfoField::Depth(3), InfoField::String("hello world".into())])),
        ("option name Hash type spin default 16 min 1 max 65536", Message::Option(OptionDecl { name: "Hash".into(), kind: OptionKind::Spin { default: 16, min: 1, max: 65536 } })),
        ("option name Ponder type check default false", Message::Option(OptionDecl { name: "Ponder".into(), kind: OptionKind::Check { default: false } })),
        ("option name Style type combo default Normal var Solid var Normal var Risky", Message::Option(OptionDecl {
            name: "Style".into(),
            kind: OptionKind::Combo { default: "Normal".into(), vars: vec!["Solid".into(), "Normal".into(), "Risky".into()] },
        })),
        ("option name Clear Hash type button", Message::Option(OptionDecl { name: "Clear Hash".into(), kind: OptionKind::Button })),
        ("option name SyzygyPath type string default <empty>", Message::Option(OptionDecl { name: "SyzygyPath".into(), kind: OptionKind::String { default: String::new() } })),
    ];
    for (text, expected) in cases {
        let parsed: Message = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed, expected, "{text}");
        let canonical = text.replace("  ", " ");
        assert_eq!(parsed.to_string(), canonical);
    }
}

#[test]
fn malformed_messages_are_typed_errors() {
    let cases = [
        ("bestmove", "expected a move after \"bestmove\", found the end of the line"),
        ("bestmove e2e4 ponder", "expected a move after \"ponder\", found the end of the line"),
        ("bestmove e2e4 maybe e7e5", "unexpected \"maybe\" in \"bestmove\""),
        ("info depth deep", "expected a number after \"depth\", found \"deep\""),
        ("info score 35", "expected cp or mate after \"score\", found \"35\""),
        ("info wdl 1 2", "expected a number after \"wdl\", found the end of the line"),
        (
            "option name Hash type spin default 16 min 1",
            "expected a number after \"max\", found the end of the line",
        ),
        (
            "option name Hash type knob default 1",
            "expected check, spin, combo, button or string after \"type\", found \"knob\"",
        ),
        ("option type check default true", "expected name after \"option\", found \"type\""),
        (
            "option name type check default true",
            "expected an option name after \"name\", found \"type\"",
        ),
        ("id nickname R", "expected name or author after \"id\", found \"nickname\""),
        ("readyok now", "unexpected \"now\" in \"readyok\""),
    ];
    for (text, message) in cases {
        let error = text.parse::<Message>().unwrap_err();
        assert_eq!(error.to_string(), message, "{text}");
    }
}
