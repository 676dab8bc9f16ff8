//! Arena scenarios: small readable files in `tests/data/arena/*.scn`, each an arena driven
//! by timed events with the games, points and sheets expected. Every scenario cites its
//! source (RULES.md §12, and lichess's arena rules as lila implements them). The format:
//!
//! ```text
//! # §12: comment lines start with '#'; " #" starts a trailing comment
//! arena duration <ms> clock <initial s>+<increment s> [streaks] [berserk] [seed <n>]
//! <ms> join <player> <rating> [=> error <kind>]
//! <ms> leave <player> [=> error <kind>]
//! <ms> pair => <games…> | none      # a game: white-black, or a~b when either colour will do
//! <ms> berserk <game> <player> => ok | error <kind>
//! <ms> finish <game> <winner|draw> <plies> => <player>:<points> <player>:<points> | late | error <kind>
//! sheet <player> => <entries…>      # as `Sheet`'s Display: 2 4* 5*+ 0 …
//! standings => <player>:<score> …   # every player, in rank order
//! fire <player> <yes|no>
//! colours <player> => <W|B…>        # the player's colours in every game paired so far
//! ```
//! The arena starts at 0. Error kinds: `over`, `already-joined`, `not-joined`,
//! `no-such-game`, `game-over`, `not-in-game`, `berserk-off`, `already-berserk`.

use std::path::Path;

use rookery_core::Color;
use rookery_tournament::arena::{Arena, ArenaError, ArenaGame, ArenaSettings, GameClock, GameId};
use rookery_tournament::PlayerId;

fn error_kind(e: &ArenaError) -> &'static str {
    match e {
        ArenaError::Over => "over",
        ArenaError::AlreadyJoined(_) => "already-joined",
        ArenaError::NotJoined(_) => "not-joined",
        ArenaError::NoSuchGame(_) => "no-such-game",
        ArenaError::GameOver(_) => "game-over",
        ArenaError::NotInGame(..) => "not-in-game",
        ArenaError::BerserkOff => "berserk-off",
        ArenaError::AlreadyBerserk(..) => "already-berserk",
    }
}

fn player(word: &str, at: &str) -> PlayerId {
    word.parse().ok().and_then(PlayerId::new).unwrap_or_else(|| panic!("{at}: bad player {word:?}"))
}

fn number<T: std::str::FromStr>(word: &str, at: &str) -> T {
    word.parse().unwrap_or_else(|_| panic!("{at}: bad number {word:?}"))
}

fn settings(words: &[&str], at: &str) -> (ArenaSettings, u64) {
    let mut settings = ArenaSettings {
        starts_at: 0,
        duration: 0,
        clock: GameClock { initial: 0, increment: 0 },
        streaks: false,
        berserk: false,
    };
    let mut seed = 0;
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        let mut value = || *words.next().unwrap_or_else(|| panic!("{at}: {word} needs a value"));
        match word {
            "duration" => settings.duration = number(value(), at),
            "clock" => {
                let (initial, increment) = value().split_once('+').expect("clock s+s");
                settings.clock = GameClock {
                    initial: number::<u64>(initial, at) * 1000,
                    increment: number::<u64>(increment, at) * 1000,
                };
            }
            "seed" => seed = number(value(), at),
            "streaks" => settings.streaks = true,
            "berserk" => settings.berserk = true,
            _ => panic!("{at}: unknown setting {word:?}"),
        }
    }
    (settings, seed)
}

/// Checks an event's result against `expect` (`ok`, `error <kind>`, or nothing: ok).
fn check_unit(result: Result<(), ArenaError>, expect: &[&str], at: &str) {
    match (result, expect) {
        (Ok(()), [] | ["ok"]) => {}
        (Err(e), ["error", kind]) => assert_eq!(error_kind(&e), *kind, "{at}: {e}"),
        (result, expect) => panic!("{at}: got {result:?}, expected {expect:?}"),
    }
}

/// Runs one scenario file; returns the number of checks made.
fn run(path: &Path) -> usize {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("§12"), "{name}: a scenario must cite RULES.md §12");
    let mut arena: Option<Arena> = None;
    let mut paired: Vec<ArenaGame> = Vec::new();
    let mut checks = 0;
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        let line = raw.split(" #").next().unwrap().trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (command, expect) = match line.split_once("=>") {
            Some((c, e)) => (c.trim(), e.split_whitespace().collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let words: Vec<&str> = command.split_whitespace().collect();
        if words[0] == "arena" {
            let (settings, seed) = settings(&words[1..], &at);
            arena = Some(Arena::new(settings, seed).unwrap_or_else(|e| panic!("{at}: {e}")));
            paired.clear();
            continue;
        }
        let arena = arena.as_mut().unwrap_or_else(|| panic!("{at}: no 'arena' line yet"));
        checks += 1;
        match words[0] {
            "sheet" => {
                let p = player(words[1], &at);
                let line = arena.standings().into_iter().find(|s| s.player == p).expect("listed");
                assert_eq!(line.sheet.to_string(), expect.join(" "), "{at}: sheet of {p}");
                assert_eq!(line.score, line.sheet.total(), "{at}: score is the sheet's sum");
            }
            "standings" => {
                let got: Vec<String> =
                    arena.standings().iter().map(|s| format!("{}:{}", s.player, s.score)).collect();
                assert_eq!(got, expect, "{at}: standings");
            }
            "colours" => {
                let p = player(words[1], &at);
                let got: String = paired
                    .iter()
                    .filter_map(|g| g.colour_of(p))
                    .map(|c| if c == Color::White { 'W' } else { 'B' })
                    .collect();
                assert_eq!(got, expect.concat(), "{at}: colours of {p}");
            }
            "fire" => {
                let p = player(words[1], &at);
                let line = arena.standings().into_iter().find(|s| s.player == p).expect("listed");
                assert_eq!(line.on_fire, words[2] == "yes", "{at}: fire of {p}");
            }
            _ => {
                let now: u64 = number(words[0], &at);
                paired.extend(event(arena, now, &words[1..], &expect, &at));
            }
        }
    }
    checks
}

/// Applies one event and checks its result; returns the games it paired.
fn event(arena: &mut Arena, now: u64, words: &[&str], expect: &[&str], at: &str) -> Vec<ArenaGame> {
    match words[0] {
        "join" => {
            let result = arena.join(player(words[1], at), number(words[2], at), now);
            check_unit(result, expect, at);
        }
        "leave" => check_unit(arena.leave(player(words[1], at), now), expect, at),
        "pair" => {
            let games = arena.pair(now);
            let expected: &[&str] = if expect == ["none"] { &[] } else { expect };
            assert_eq!(games.len(), expected.len(), "{at}: games {games:?}");
            for (game, want) in games.iter().zip(expected) {
                let (a, b, exact) = match want.split_once('-') {
                    Some((w, b)) => (w, b, true),
                    None => {
                        let (a, b) = want.split_once('~').expect("a-b or a~b");
                        (a, b, false)
                    }
                };
                let (a, b) = (player(a, at), player(b, at));
                let same = (game.white, game.black) == (a, b);
                let swapped = (game.white, game.black) == (b, a);
                assert!(same || (!exact && swapped), "{at}: got {game:?}, expected {want}");
            }
            return games;
        }
        "berserk" => {
            let result = arena.berserk(GameId(number(words[1], at)), player(words[2], at));
            check_unit(result.map(|_| ()), expect, at);
        }
        "finish" => {
            let game = GameId(number(words[1], at));
            let played = arena.game(game).map(|(g, _)| g);
            let colour_of = |p: &str| played.and_then(|g| g.colour_of(player(p, at)));
            let winner = match words[2] {
                "draw" => None,
                // A game that does not exist has no colours; the error is what is checked.
                p => Some(colour_of(p).unwrap_or(Color::White)),
            };
            let result = arena.finish(game, winner, number(words[3], at), now);
            match (result, expect) {
                (Ok(score), ["late"]) => assert!(!score.counted, "{at}: should not count"),
                (Ok(score), [a, b]) => {
                    assert!(score.counted, "{at}: should count");
                    for want in [a, b] {
                        let (p, points) = want.split_once(':').expect("player:points");
                        let got = match colour_of(p) {
                            Some(Color::White) => score.white,
                            Some(Color::Black) => score.black,
                            None => panic!("{at}: {p} does not play in {game}"),
                        };
                        assert_eq!(got, number::<u32>(points, at), "{at}: points of {p}");
                    }
                }
                (Err(e), ["error", kind]) => assert_eq!(error_kind(&e), *kind, "{at}: {e}"),
                (result, expect) => panic!("{at}: got {result:?}, expected {expect:?}"),
            }
        }
        other => panic!("{at}: unknown event {other:?}"),
    }
    Vec::new()
}

#[test]
fn scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/arena");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/arena")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6, "the scenarios are there");
    let checks: usize = paths.iter().map(|p| run(p)).sum();
    assert!(checks > 50, "only {checks} checks");
}
