//! Scenario tests: small readable files in `tests/scenarios/*.scn`, each a game played by
//! timed actions with the expected events and outcome. Every scenario cites the RULES.md §
//! it tests. The format:
//!
//! ```text
//! # §7: comment lines start with '#'
//! rules seed                  # seed | fide | casual (default seed)
//! tc 300+2                    # PGN TimeControl syntax (default: unknown, never flags)
//! fen <FEN>                   # start position (default: the standard one)
//! start <abort|forfeit>:<ms>  # clocks wait for the first moves, each due within <ms>
//! <ms> <white|black> <action> [args] => <expectation>
//! result <1-0|0-1|1/2-1/2|*> <termination>   # or: ongoing
//! strikes <white|black> <n>
//! clock <white|black> <ms> at <ms>
//! deadline <white|black> <ms>  # the side owing a first move and its last ms; or: deadline none
//! obligation <none|move <square>|capture <square>>   # touch-move (§8.1, §8.3)
//! pgn-has <text>             # white space in the PGN compares as single spaces
//! ```
//! Actions: `play <uci|san|from-to[promo]> [offer]`, `touch <square>`, `accept`, `decline`,
//! `claim <threefold|fifty> [<move>]`, `resign`, `abort`, `poll`, `takeback`,
//! `accept-takeback`. Expectations: `ok [labels…]` or `rejected <reason> [labels…]`, where
//! the labels must appear among the events in order: `move`, `check`, `offer`, `declined`,
//! `declined-by-moving`, `obliged`, `illegal:<n>`, `time-added:<color>:<ms>`,
//! `claimable:<threefold|fifty>`, `takeback-requested`, `taken-back`, `over:<termination>`.
//! A label written `!<prefix>` asserts instead that no event's label starts with `<prefix>`
//! (`!time-added`: no time was added at all). Rejection reasons: `game-over`, `not-your-turn`,
//! `unreadable`, `not-a-move`, `ambiguous`, `illegal`, `touch-move`, `offer-not-allowed`,
//! `no-offer`, `claims-not-used`, `claim-incorrect`, `too-late-to-abort`,
//! `takebacks-not-allowed`, `no-takeback`, `takeback-pending`. A ` #` starts a trailing comment on any line.

use std::path::Path;

use rookery_arbiter::{
    DrawClaim, Event, Game, GameSpec, MoveInput, Obligation, Rejection, RuleSet, StartPolicy,
    TimeControl,
};
use rookery_core::{Color, Square};

fn color(word: &str, at: &str) -> Color {
    match word {
        "white" => Color::White,
        "black" => Color::Black,
        _ => panic!("{at}: expected white or black, found {word:?}"),
    }
}

fn event_label(e: &Event) -> String {
    match e {
        Event::MovePlayed { .. } => "move".into(),
        Event::Check(_) => "check".into(),
        Event::DrawOffered(_) => "offer".into(),
        Event::DrawDeclined { by_moving: false, .. } => "declined".into(),
        Event::DrawDeclined { by_moving: true, .. } => "declined-by-moving".into(),
        Event::Obliged { .. } => "obliged".into(),
        Event::IllegalMoveCounted { count, .. } => format!("illegal:{count}"),
        Event::TimeAdded { color, ms } => format!("time-added:{}:{ms}", color.name()),
        Event::Berserk { color } => format!("berserk:{}", color.name()),
        Event::DrawClaimable(DrawClaim::ThreefoldRepetition) => "claimable:threefold".into(),
        Event::DrawClaimable(DrawClaim::FiftyMoves) => "claimable:fifty".into(),
        Event::TakebackRequested(_) => "takeback-requested".into(),
        Event::TakenBack { .. } => "taken-back".into(),
        Event::GameOver(o) => format!("over:{}", o.termination),
    }
}

fn rejection_label(r: &Rejection) -> &'static str {
    match r {
        Rejection::GameOver => "game-over",
        Rejection::NotYourTurn => "not-your-turn",
        Rejection::NotAMove(_) => "not-a-move",
        Rejection::Ambiguous(_) => "ambiguous",
        Rejection::Illegal(_) => "illegal",
        Rejection::TouchMove(_) => "touch-move",
        Rejection::OfferNotAllowed(_) => "offer-not-allowed",
        Rejection::NoOfferPending => "no-offer",
        Rejection::ClaimsNotUsed => "claims-not-used",
        Rejection::ClaimIncorrect(_) => "claim-incorrect",
        Rejection::TooLateToAbort => "too-late-to-abort",
        Rejection::TakebacksNotAllowed => "takebacks-not-allowed",
        Rejection::NoTakeback => "no-takeback",
        Rejection::TakebackPending => "takeback-pending",
    }
}

/// A move as a scenario writes it: `e2-e4` (squares, as a board sends them; `e7-e8q`), UCI or
/// SAN. Text that reads as none is refused at the edge, before the arbiter sees anything: the
/// scenario expects `rejected unreadable` then.
fn move_input(text: &str) -> Option<MoveInput> {
    let b = text.as_bytes();
    if b.len() >= 5 && b[2] == b'-' {
        let from: Square = text[0..2].parse().unwrap();
        let to: Square = text[3..5].parse().unwrap();
        let promotion = text[5..].chars().next().and_then(rookery_core::Role::from_char);
        return Some(MoveInput::squares(from, to, promotion));
    }
    text.parse().ok()
}

/// Runs one scenario file; returns the number of checks made.
fn run(path: &Path) -> usize {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let mut spec = GameSpec { white: "white".into(), black: "black".into(), ..GameSpec::default() };
    let mut game: Option<Game> = None;
    let mut checks = 0;
    assert!(text.contains('§'), "{name}: a scenario must cite the RULES.md § it tests");
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        let line = raw.split(" #").next().unwrap().trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "rules" => spec.rules = words[1].parse::<RuleSet>().unwrap(),
            "tc" => spec.time_control = Some(words[1].parse::<TimeControl>().unwrap()),
            "fen" => spec.fen = Some(words[1..].join(" ")),
            "start" => spec.start = Some(words[1].parse::<StartPolicy>().unwrap()),
            "deadline" => {
                // deadline <white|black> <ms> | deadline none
                let g = game.get_or_insert_with(|| Game::new(spec.clone(), 0).expect("valid spec"));
                let expected = match words[1] {
                    "none" => None,
                    side => Some((color(side, &at), words[2].parse::<u64>().unwrap())),
                };
                assert_eq!(g.first_move_deadline(), expected, "{at}: first-move deadline");
                checks += 1;
            }
            "result" => {
                let g = game.as_ref().expect("a game");
                let o = g.outcome().unwrap_or_else(|| panic!("{at}: the game is not over"));
                assert_eq!(o.result.as_str(), words[1], "{at}: result ({o})");
                assert_eq!(o.termination.label(), words[2], "{at}: termination ({o})");
                checks += 1;
            }
            "ongoing" => {
                let g = game.as_ref().expect("a game");
                assert_eq!(g.outcome(), None, "{at}: the game should go on");
                checks += 1;
            }
            "strikes" => {
                let g = game.as_ref().expect("a game");
                let n: u8 = words[2].parse().unwrap();
                assert_eq!(g.strikes(color(words[1], &at)), n, "{at}: strikes");
                checks += 1;
            }
            "clock" => {
                let g = game.get_or_insert_with(|| Game::new(spec.clone(), 0).expect("valid spec"));
                let ms: u64 = words[2].parse().unwrap();
                let now: u64 = words[4].parse().unwrap();
                assert_eq!(g.clock().remaining(color(words[1], &at), now), Some(ms), "{at}: clock");
                checks += 1;
            }
            "obligation" => {
                let g = game.as_ref().expect("a game");
                let expected = match words.get(1) {
                    Some(&"none") | None => None,
                    Some(&"move") => Some(Obligation::MovePiece(words[2].parse().unwrap())),
                    Some(&"capture") => Some(Obligation::Capture(words[2].parse().unwrap())),
                    Some(other) => panic!("{at}: unknown obligation {other}"),
                };
                assert_eq!(g.obligation(), expected, "{at}: obligation");
                checks += 1;
            }
            "pgn-has" => {
                let g = game.as_ref().expect("a game");
                // Line breaks fall where the writer wraps: compare with white space collapsed.
                let needle = line["pgn-has".len()..].trim();
                let pgn = g.to_pgn();
                let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(flat.contains(needle), "{at}: PGN lacks {needle:?}:\n{pgn}");
                checks += 1;
            }
            _ => {
                let (action, expectation) =
                    line.split_once("=>").unwrap_or_else(|| panic!("{at}: no '=>' expectation"));
                let aw: Vec<&str> = action.split_whitespace().collect();
                let now: u64 =
                    aw[0].parse().unwrap_or_else(|_| panic!("{at}: bad time {:?}", aw[0]));
                let g = game.get_or_insert_with(|| Game::new(spec.clone(), 0).expect("valid spec"));
                let by = color(aw[1], &at);
                let result = match aw[2] {
                    "play" => {
                        let Some(mv) = move_input(aw[3]) else {
                            // Refused at the edge: the arbiter sees nothing, counts nothing.
                            let ew: Vec<&str> = expectation.split_whitespace().collect();
                            assert_eq!(ew, ["rejected", "unreadable"], "{at}: unreadable move");
                            checks += 1;
                            continue;
                        };
                        g.play(by, &mv, aw.get(4) == Some(&"offer"), now)
                    }
                    "touch" => g.touch(by, aw[3].parse().unwrap(), now),
                    "accept" => g.accept_draw(by, now),
                    "decline" => g.decline_draw(by, now),
                    "claim" => {
                        let claim = match aw[3] {
                            "threefold" => DrawClaim::ThreefoldRepetition,
                            "fifty" => DrawClaim::FiftyMoves,
                            other => panic!("{at}: unknown claim {other}"),
                        };
                        let intended = aw.get(4).map(|m| {
                            move_input(m).unwrap_or_else(|| panic!("{at}: unreadable move {m}"))
                        });
                        g.claim_draw(by, claim, intended.as_ref(), now)
                    }
                    "resign" => g.resign(by, now),
                    "abort" => g.abort(by, now),
                    "poll" => Ok(g.poll(now)),
                    "takeback" => g.request_takeback(by, now),
                    "accept-takeback" => g.accept_takeback(by, now),
                    other => panic!("{at}: unknown action {other}"),
                };
                let ew: Vec<&str> = expectation.split_whitespace().collect();
                let (events, labels) = match (ew[0], result) {
                    ("ok", Ok(events)) => (events, &ew[1..]),
                    ("rejected", Err(rejected)) => {
                        assert_eq!(
                            rejection_label(&rejected.reason),
                            ew[1],
                            "{at}: {}",
                            rejected.reason
                        );
                        (rejected.events, &ew[2..])
                    }
                    (_, Ok(events)) => panic!("{at}: expected {expectation:?}, got ok {events:?}"),
                    (_, Err(r)) => {
                        panic!("{at}: expected {expectation:?}, got rejected: {r} {:?}", r.events)
                    }
                };
                let got: Vec<String> = events.iter().map(event_label).collect();
                let mut it = got.iter();
                for want in labels {
                    if let Some(prefix) = want.strip_prefix('!') {
                        let found = got.iter().find(|g| g.starts_with(prefix));
                        assert!(found.is_none(), "{at}: unexpected event {found:?} among {got:?}");
                        continue;
                    }
                    assert!(
                        it.any(|g| g == want),
                        "{at}: expected event {want} in order among {got:?}"
                    );
                }
                checks += 1;
            }
        }
    }
    checks
}

#[test]
fn scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    files.sort();
    let mut checks = 0;
    for f in &files {
        checks += run(f);
    }
    assert!(files.len() >= 60, "only {} scenarios", files.len());
    assert!(checks >= 300, "only {checks} checks");
}
