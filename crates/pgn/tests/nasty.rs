//! Hand-made files in tests/data/nasty, one per thing real PGN throws at a reader (issue 3):
//! what the visitor sees, and for broken games, each error's game, line, column and token.

mod common;

use common::{data, read_all, Event, Game};
use rookery_core::Color;
use rookery_pgn::{GameResult, Location, Nag, ReadErrorKind};

fn read(name: &str) -> Vec<Game> {
    read_all(&data(&format!("nasty/{name}")))
}

fn comments(game: &Game) -> Vec<&str> {
    game.events
        .iter()
        .filter_map(|e| match e {
            Event::Comment(c) => Some(c.as_str()),
            _ => None,
        })
        .collect()
}

fn assert_clean(name: &str, games: &[Game]) {
    for (i, g) in games.iter().enumerate() {
        assert!(g.errors.is_empty(), "{name}, game {}: {:?}", i + 1, g.errors);
    }
}

#[test]
fn tag_pairs_with_escapes_spacing_and_sloppiness() {
    let games = read("tags.pgn");
    assert_clean("tags.pgn", &games);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let want = [
        ("Event", r#"The "Big" One"#),
        ("Site", r"C:\chess\games"),
        ("Date", "2024.01.02"),
        ("Round", "1"),
        ("White", "Alpha"),
        ("Black", "Beta"),
        ("Result", "1-0"),               // its `]` is missing
        ("Annotator", r#""Doc" Smith"#), // quotes left unescaped
        ("Empty", ""),
    ];
    let got: Vec<(&str, &str)> = g.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(got, want);
    assert_eq!(g.sans(), ["e4"]);
    assert_eq!(g.result, Some(GameResult::Win(Color::White)));
}

#[test]
fn brace_and_semicolon_comments() {
    let games = read("comments.pgn");
    assert_clean("comments.pgn", &games);
    let g = &games[0];
    assert_eq!(
        comments(g),
        [
            "A game comment before the first move",
            "a comment that spans ( three ) lines [and has brackets]; and a semicolon",
            "a rest-of-line comment {with braces",
            "",
            "spaced out",
            "a whole line of comment",
            "nested { opening brace",
        ]
    );
    assert_eq!(g.sans(), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(g.events.first(), Some(&Event::Comment(comments(g)[0].to_owned())));
}

#[test]
fn percent_escape_lines_are_skipped_everywhere() {
    let games = read("escapes.pgn");
    assert_clean("escapes.pgn", &games);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tags.len(), 2);
    assert_eq!(games[0].sans(), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(games[0].result, Some(GameResult::NoResult));
}

#[test]
fn nags_and_suffix_annotations() {
    let games = read("nags.pgn");
    assert_clean("nags.pgn", &games);
    let nags: Vec<u8> = games[0]
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Nag(Nag(n)) => Some(*n),
            _ => None,
        })
        .collect();
    // Attached (e4!) and standalone (O-O !) suffixes, $n, then evaluation symbols.
    assert_eq!(nags, [1, 2, 3, 4, 5, 6, 1, 255, 1, 2, 3, 4, 5, 6, 14, 19, 16, 0, 146, 18]);
    assert_eq!(games[0].sans().len(), 21);
    // Each NAG follows its move.
    assert_eq!(games[0].events[0..2], [Event::San("e4".parse().unwrap()), Event::Nag(Nag(1))]);
}

#[test]
fn nested_variations() {
    let games = read("variations.pgn");
    assert_clean("variations.pgn", &games);
    let text: Vec<String> = games[0]
        .events
        .iter()
        .map(|e| match e {
            Event::San(s) => s.to_string(),
            Event::Begin => "(".to_owned(),
            Event::End => ")".to_owned(),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        text.join(" "),
        "e4 ( d4 d5 ( Nf6 c4 ( Nf3 ) e6 ) c4 ) ( c4 ) e5 Nf3 ( f4 exf4 ( d5 exd5 ) Nf3 ) ( ) Nc6"
    );
}

#[test]
fn move_numbers_in_every_form() {
    let games = read("move-numbers.pgn");
    assert_clean("move-numbers.pgn", &games);
    assert_eq!(
        games[0].sans(),
        [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
            "d6", "c3"
        ]
    );
}

#[test]
fn fen_and_setup_are_tags_like_any_other() {
    let games = read("fen-setup.pgn");
    assert_clean("fen-setup.pgn", &games);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("SetUp"), Some("1"));
    assert_eq!(games[0].tag("FEN"), Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"));
    assert_eq!(games[0].sans(), ["Kd7", "e4", "Kc6"]);
    assert_eq!(games[1].tag("SetUp"), None);
    assert_eq!(games[1].sans(), ["Qg7#"]);
}

#[test]
fn byte_order_mark_and_crlf() {
    let games = read("bom-crlf.pgn");
    assert_clean("bom-crlf.pgn", &games);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("bom and crlf"));
    assert_eq!(comments(&games[0]), ["a comment over two lines", "line comment"]);
    assert_eq!(games[0].sans(), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    // Line 5 is `2. Nf3 {a comment`; the BOM is not a column.
    assert_eq!(games[0].move_locations[2], Location { line: 5, column: 4 });
    assert_eq!(games[0].move_locations[0], Location { line: 4, column: 4 });
    assert_eq!(games[1].sans(), ["d4"]);
}

#[test]
fn latin1_and_utf8_side_by_side() {
    let games = read("latin1.pgn");
    assert_clean("latin1.pgn", &games);
    let g = &games[0];
    assert_eq!(g.tag("White"), Some("Jörg Müller"));
    assert_eq!(g.tag("Black"), Some("José Raúl Capablanca"));
    assert_eq!(g.tag("Site"), Some("UTF-8 here: café"));
    assert_eq!(comments(g), ["Großartig!"]);
}

#[test]
fn all_four_results_and_tagless_games() {
    let games = read("results.pgn");
    assert_clean("results.pgn", &games);
    let results: Vec<Option<GameResult>> = games.iter().map(|g| g.result).collect();
    use GameResult::*;
    let (white, black) = (Win(Color::White), Win(Color::Black));
    assert_eq!(results, [Some(white), Some(black), Some(Draw), Some(NoResult), Some(white)]);
    assert!(games[..4].iter().all(|g| g.tags.is_empty() && g.sans().len() == 2));
    // A marker inside a variation does not end the game.
    assert_eq!(games[4].sans(), ["e4", "d4", "e5"]);
}

#[test]
fn missing_results_end_at_the_next_tags_or_the_end() {
    let games = read("missing-results.pgn");
    assert_clean("missing-results.pgn", &games);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(games[1].tag("Event"), Some("tags only, then the next game"));
    assert!(games[1].events.is_empty());
    assert_eq!(games[2].sans(), ["d4", "d5"]);
    assert!(games.iter().all(|g| g.result.is_none()));
}

#[test]
fn empty_games() {
    let games = read("empty-games.pgn");
    assert_clean("empty-games.pgn", &games);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].tags.len(), 2);
    assert_eq!(games[0].result, None);
    assert_eq!(games[1].tag("Event"), Some("only a result"));
    assert_eq!(games[1].result, Some(GameResult::NoResult));
    assert!(games[2].tags.is_empty() && games[2].events.is_empty());
    assert_eq!(games[2].result, Some(GameResult::NoResult));
    assert!(read_all(b"").is_empty());
    assert!(read_all(b" \r\n\n\t ").is_empty());
    assert!(read_all(b"\xef\xbb\xbf\n").is_empty());
    assert!(read_all(b"{ a comment between games }\n% and an escape\n").is_empty());
}

#[test]
fn garbage_is_reported_where_it_is_and_reading_goes_on() {
    let games = read("garbage.pgn");
    assert_eq!(games.len(), 8);
    let errors: Vec<(u64, u64, u64, &str)> = games
        .iter()
        .flat_map(|g| &g.errors)
        .map(|e| (e.game, e.location.line, e.location.column, e.token.as_str()))
        .collect();
    assert_eq!(
        errors,
        [
            (1, 3, 13, "Kx9"),
            (3, 11, 7, "&&"),
            (4, 15, 7, ")"),
            (5, 19, 7, "$999"),
            (6, 21, 1, "[Event x]"),
            (7, 30, 1, ""),
            (8, 32, 7, "{never closed"),
        ]
    );
    let kinds: Vec<&ReadErrorKind> =
        games.iter().flat_map(|g| &g.errors).map(|e| &e.kind).collect();
    assert!(matches!(kinds[0], ReadErrorKind::InvalidSan(_)));
    assert_eq!(kinds[1], &ReadErrorKind::UnexpectedToken);
    assert_eq!(kinds[2], &ReadErrorKind::UnmatchedClose);
    assert_eq!(kinds[3], &ReadErrorKind::InvalidNag);
    assert_eq!(kinds[4], &ReadErrorKind::MalformedTag("the value is not in quotes"));
    assert_eq!(kinds[5], &ReadErrorKind::UnclosedVariation);
    assert_eq!(kinds[6], &ReadErrorKind::UnterminatedComment);
    // Moves before the error are delivered, the rest of the game is skipped, its result kept.
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    assert_eq!(games[0].result, Some(GameResult::NoResult));
    assert_eq!(games[1].sans(), ["d4"]);
    assert!(games[1].errors.is_empty());
    assert_eq!(games[2].result, Some(GameResult::Win(Color::White)));
    // A malformed tag costs only that tag.
    assert_eq!(games[5].tag("Site"), Some("after a malformed tag"));
    assert_eq!(games[5].sans(), ["c4"]);
    // An unclosed variation is closed for the visitor.
    assert_eq!(games[6].events.iter().filter(|e| **e == Event::End).count(), 1);
    assert_eq!(
        games[0].errors[0].to_string(),
        r#"game 1, line 3, column 13: not a move in SAN: "Kx9""#
    );
}

#[test]
fn the_visitor_may_skip_movetext_variations_and_the_rest_of_a_game() {
    use common::Recorder;
    use rookery_pgn::Reader;

    let bytes = data("nasty/variations.pgn");
    let mut r = Recorder { skip_variations: true, ..Recorder::default() };
    let g = Reader::new(&bytes[..]).read_game(&mut r).unwrap().unwrap();
    assert_eq!(g.sans(), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(g.result, Some(GameResult::NoResult));

    let mut r = Recorder { skip_movetext: true, ..Recorder::default() };
    let g = Reader::new(&bytes[..]).read_game(&mut r).unwrap().unwrap();
    assert!(g.events.is_empty());
    assert_eq!(g.result, Some(GameResult::NoResult));

    // A skipped variation that never closes is still an error.
    let bytes = data("nasty/garbage.pgn");
    let mut r = Recorder { skip_variations: true, ..Recorder::default() };
    let mut reader = Reader::new(&bytes[..]);
    let games: Vec<Game> = std::iter::from_fn(|| reader.read_game(&mut r).unwrap()).collect();
    assert_eq!(games[6].errors.len(), 1);
    assert_eq!(games[6].errors[0].kind, ReadErrorKind::UnclosedVariation);
    assert_eq!(games[6].sans(), ["e4"]);

    let bytes = data("nasty/results.pgn");
    let mut r = Recorder { max_moves: Some(1), ..Recorder::default() };
    let mut reader = Reader::new(&bytes[..]);
    let g = reader.read_game(&mut r).unwrap().unwrap();
    assert_eq!((g.sans().len(), g.result), (1, Some(GameResult::Win(Color::White))));
    let g = reader.read_game(&mut r).unwrap().unwrap();
    assert_eq!((g.sans(), g.result), (vec!["d4".to_owned()], Some(GameResult::Win(Color::Black))));
    assert!(reader.skip_game().unwrap());
    assert_eq!(reader.games(), 3);
}

#[test]
fn comments_longer_than_the_buffer_are_cut_not_fatal() {
    let mut text = b"1. e4 {".to_vec();
    text.extend(std::iter::repeat_n(b'x', 10_000));
    text.extend_from_slice(b"} e5 *\n1. d4 *\n");
    let games = common::read_all_from(&text[..], 4096);
    assert_eq!(games.len(), 2);
    assert!(games[0].errors.is_empty());
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    let Event::Comment(c) = &games[0].events[1] else { panic!("{:?}", games[0].events) };
    assert!(c.len() >= 2048 && c.len() < 4096, "{}", c.len());
    assert_eq!(games[1].sans(), ["d4"]);
}

#[test]
fn a_visitor_that_wants_no_comments_is_told_all_else() {
    // Every nasty file, and comments longer than the buffer, unterminated, and after `;`.
    let mut long = b"1. e4 {".to_vec();
    long.extend(std::iter::repeat_n(b'x', 10_000));
    long.extend_from_slice(b"} e5 ; to the end\n2. Nf3 {\nx\n} (2. d4 {y}) *\n1. d4 { no end");
    let files = common::data_dir("nasty").into_iter().chain([("long comments".to_owned(), long)]);
    for (name, bytes) in files {
        for capacity in [2048, 4096, 64 * 1024] {
            let games = common::read_all_from(&bytes[..], capacity);
            let skipped = common::read_all_without_comments_from(&bytes[..], capacity);
            assert_eq!(skipped, common::without_comments(&games), "{name}, capacity {capacity}");
        }
    }
}

#[test]
fn clock_and_eval_commands_in_comments() {
    use rookery_pgn::comment::{self, Eval};

    let games = read("clock-eval.pgn");
    assert_clean("clock-eval.pgn", &games);
    let clocks: Vec<Vec<u64>> = games
        .iter()
        .map(|g| comments(g).iter().filter_map(|c| comment::clock(c.as_bytes())).collect())
        .collect();
    assert_eq!(
        clocks,
        [
            vec![180_000, 178_000, 175_000, 170_000, 171_000, 160_000, 169_000],
            vec![179_900, 179_100],
        ]
    );
    let evals: Vec<Eval> =
        comments(&games[0]).iter().filter_map(|c| comment::eval(c.as_bytes())).collect();
    use Eval::{Centipawns, Mate};
    assert_eq!(evals, [Centipawns(17), Centipawns(20), Centipawns(-50), Centipawns(-40), Mate(1)]);
    let text = comment::without_commands(comments(&games[0])[2].as_bytes()).into_owned();
    assert_eq!(String::from_utf8(text).unwrap(), "(0.20 → -0.50) Inaccuracy.");
    assert_eq!(games[0].result, Some(GameResult::Win(Color::White)));
}

#[test]
fn old_mac_line_ends_do_not_swallow_the_file() {
    let games = read_all(b"[Event \"cr\"]\r[Site \"x\"]\r\r1. e4 ; note\r1... e5 *\r\r1. d4 *\r");
    assert_eq!(games.len(), 2);
    assert_clean("cr", &games);
    assert_eq!(games[0].tags.len(), 2);
    assert_eq!(games[0].sans(), ["e4", "e5"]);
    assert_eq!(comments(&games[0]), ["note"]);
    assert_eq!(games[1].sans(), ["d4"]);
}

/// Comments read inside the reader's loop for plain movetext (issue 41) count their lines as
/// the general path does: the moves after them, and an error, are where they stand. The game
/// is read many times over with a small buffer, so that comments fall on both sides of where
/// the plain loop hands over to the general one, and every copy must be read alike.
#[test]
fn moves_after_comments_are_placed_right_on_either_path() {
    let game = "[Event \"c\"]\n\n1. e4 {a\ntwo-line comment} e5 {x} 2. Nf3\n\
                { [%clk 0:00:59.5] } Nc6 {\n}\n3. Kx9 1-0\n\n";
    let lines = game.matches('\n').count() as u64;
    let copies = 300;
    let text = game.repeat(copies);
    for games in [read_all(game.as_bytes()), common::read_all_from(text.as_bytes(), 2048)] {
        for (k, g) in games.iter().enumerate() {
            let at = |line: u64, column| Location { line: line + k as u64 * lines, column };
            assert_eq!(g.sans(), ["e4", "e5", "Nf3", "Nc6"], "copy {k}");
            // (The recorder collapses white space.)
            assert_eq!(comments(g), ["a two-line comment", "x", "[%clk 0:00:59.5]", ""]);
            assert_eq!(g.move_locations, [at(3, 4), at(4, 19), at(4, 29), at(5, 22)], "copy {k}");
            let e = &g.errors[0];
            assert_eq!((e.location, e.token.as_str()), (at(7, 4), "Kx9"), "copy {k}");
        }
    }
}
