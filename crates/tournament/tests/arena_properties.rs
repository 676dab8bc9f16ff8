//! Arena properties over random event scripts: players joining and leaving, pairing calls,
//! games finishing with any result at any time, berserk, and the end of the arena. What must
//! hold whatever happens (RULES.md §12, and lichess's arena as lila runs it):
//!
//! - the same seed and events give the same games, points and standings (a replay);
//! - nobody is in two games at once, and nobody who left is paired;
//! - nobody meets their last opponent again while anybody else is in the arena;
//! - nobody has one colour four times running, and a third time only against an opponent
//!   who had that colour at least twice running too (so one of them had to);
//! - a score is the sum of its sheet, and of the points the finished games gave;
//! - a game that ends when the arena is over counts for nobody;
//! - no game is paired before the start or once pairing has closed.
//!
//! That a third colour in a row happens only when no pairing of as many games avoids it is
//! proved against exhaustive search in the pairing module's own tests.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use rookery_core::Color;
use rookery_tournament::arena::{Arena, ArenaGame, ArenaSettings, GameClock, GameScore, Standing};
use rookery_tournament::PlayerId;

#[derive(Clone, Debug)]
enum Action {
    Join(u32, u16),
    Leave(u32),
    Pair,
    /// Finish the running game at this index (modulo), with 0 draw, 1 White, 2 Black.
    Finish(usize, u8, u32),
    Berserk(usize, bool),
    Wait(u64),
}

fn action(players: u32) -> impl Strategy<Value = Action> {
    prop_oneof![
        3 => (1..=players, 1000u16..2400).prop_map(|(p, r)| Action::Join(p, r)),
        1 => (1..=players).prop_map(Action::Leave),
        4 => Just(Action::Pair),
        4 => (any::<usize>(), 0u8..3, 0u32..120).prop_map(|(g, r, p)| Action::Finish(g, r, p)),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(g, s)| Action::Berserk(g, s)),
        2 => (0u64..15_000).prop_map(Action::Wait),
    ]
}

#[derive(Clone, Debug)]
struct Script {
    settings: ArenaSettings,
    seed: u64,
    actions: Vec<Action>,
}

fn script() -> impl Strategy<Value = Script> {
    (2u32..=12, 120_000u64..1_800_000, 1u64..=5, any::<bool>(), any::<bool>(), any::<u64>())
        .prop_flat_map(|(players, duration, minutes, streaks, berserk, seed)| {
            let settings = ArenaSettings {
                starts_at: 5_000,
                duration,
                clock: GameClock { initial: minutes * 60_000, increment: 0 },
                streaks,
                berserk,
            };
            prop::collection::vec(action(players), 1..400).prop_map(move |actions| Script {
                settings,
                seed,
                actions,
            })
        })
}

/// Everything observable, for comparing replays.
#[derive(PartialEq, Debug, Default)]
struct Log {
    games: Vec<ArenaGame>,
    scores: Vec<GameScore>,
    standings: Vec<Standing>,
}

/// Runs a script, checking the properties as it goes; returns what it saw.
fn run(script: &Script) -> Result<Log, TestCaseError> {
    let mut arena = Arena::new(script.settings, script.seed).unwrap();
    let settings = script.settings;
    let mut log = Log::default();
    let mut now = 0;
    let mut active: BTreeSet<PlayerId> = BTreeSet::new();
    let mut last_opponent: BTreeMap<PlayerId, PlayerId> = BTreeMap::new();
    let mut colours: BTreeMap<PlayerId, Vec<Color>> = BTreeMap::new();
    let mut points: BTreeMap<PlayerId, u32> = BTreeMap::new();
    let id = |n: u32| PlayerId::new(n).unwrap();
    // The end comes in the middle of most scripts; finish whatever is left after it.
    let tail = [Action::Wait(settings.duration + 10_000), Action::Finish(0, 0, 30)];
    let leftovers = std::iter::repeat_n(Action::Finish(0, 1, 30), 12);
    for action in script.actions.iter().chain(&tail).cloned().chain(leftovers) {
        match action {
            Action::Join(p, rating) => {
                if arena.join(id(p), rating, now).is_ok() {
                    active.insert(id(p));
                }
            }
            Action::Leave(p) => {
                if arena.leave(id(p), now).is_ok() {
                    active.remove(&id(p));
                }
            }
            Action::Wait(ms) => now += ms,
            Action::Berserk(g, black) => {
                let playing: Vec<ArenaGame> = arena.playing().collect();
                if let Some(game) = playing.get(g % playing.len().max(1)) {
                    let who = if black { game.black } else { game.white };
                    let _ = arena.berserk(game.id, who);
                }
            }
            Action::Finish(g, result, plies) => {
                let playing: Vec<ArenaGame> = arena.playing().collect();
                let Some(game) = playing.get(g % playing.len().max(1)) else { continue };
                let winner = [None, Some(Color::White), Some(Color::Black)][result as usize];
                let before = arena.standings();
                let score = arena.finish(game.id, winner, plies, now).unwrap();
                prop_assert_eq!(score.counted, now < settings.ends_at());
                if score.counted {
                    *points.entry(game.white).or_default() += score.white;
                    *points.entry(game.black).or_default() += score.black;
                } else {
                    prop_assert_eq!((score.white, score.black), (0, 0));
                    prop_assert_eq!(&before, &arena.standings(), "a late game changed nothing");
                }
                log.scores.push(score);
            }
            Action::Pair => {
                let busy: BTreeSet<PlayerId> =
                    arena.playing().flat_map(|g| [g.white, g.black]).collect();
                let games = arena.pair(now);
                if now < settings.starts_at || now >= settings.pairing_closes_at() {
                    prop_assert!(games.is_empty(), "paired at {} outside the window", now);
                }
                let mut seen = BTreeSet::new();
                for game in &games {
                    for (p, o) in [(game.white, game.black), (game.black, game.white)] {
                        prop_assert!(seen.insert(p), "{} twice in one pairing", p);
                        prop_assert!(!busy.contains(&p), "{} paired while playing", p);
                        prop_assert!(active.contains(&p), "{} paired after leaving", p);
                        if last_opponent.get(&p) == Some(&o) {
                            prop_assert_eq!(active.len(), 2, "{} met {} twice running", p, o);
                        }
                    }
                    // Colour runs, before this game.
                    let run = |p: PlayerId| -> (Option<Color>, usize) {
                        let history = colours.get(&p).map(Vec::as_slice).unwrap_or(&[]);
                        let last = history.last().copied();
                        (last, history.iter().rev().take_while(|&&c| Some(c) == last).count())
                    };
                    for (p, c, o) in [
                        (game.white, Color::White, game.black),
                        (game.black, Color::Black, game.white),
                    ] {
                        let (last, length) = run(p);
                        if last == Some(c) && length >= 2 {
                            prop_assert!(length < 3, "{} has {:?} a fourth time", p, c);
                            let (other_last, other_length) = run(o);
                            prop_assert!(
                                other_last == Some(c) && other_length >= 2,
                                "{} has {:?} a third time though {} could take it",
                                p,
                                c,
                                o
                            );
                        }
                    }
                    for (p, c, o) in [
                        (game.white, Color::White, game.black),
                        (game.black, Color::Black, game.white),
                    ] {
                        colours.entry(p).or_default().push(c);
                        last_opponent.insert(p, o);
                    }
                }
                log.games.extend(games);
            }
        }
        // Never two running games for one player.
        let mut in_game = BTreeSet::new();
        for game in arena.playing() {
            prop_assert!(in_game.insert(game.white) && in_game.insert(game.black));
        }
    }
    prop_assert!(arena.ended(now));
    prop_assert_eq!(arena.playing().count(), 0, "the tail finishes every game");
    log.standings = arena.standings();
    for line in &log.standings {
        prop_assert_eq!(line.score, line.sheet.total(), "score of {}", line.player);
        prop_assert_eq!(line.score, points.get(&line.player).copied().unwrap_or(0));
        let counted: BTreeSet<_> = line.sheet.0.iter().map(|e| e.game).collect();
        prop_assert_eq!(counted.len(), line.sheet.0.len(), "a game counted twice");
    }
    let ranks: Vec<u32> = log.standings.iter().map(|s| s.rank).collect();
    prop_assert_eq!(ranks, (1..=log.standings.len() as u32).collect::<Vec<_>>());
    Ok(log)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn replays_agree_and_the_rules_hold(script in script()) {
        let first = run(&script)?;
        let second = run(&script)?;
        prop_assert_eq!(first, second);
    }
}

/// A large arena pairs everybody who waits, in groups, quickly.
#[test]
fn a_thousand_waiting_players_are_paired() {
    let settings = ArenaSettings {
        starts_at: 0,
        duration: 3_600_000,
        clock: GameClock { initial: 180_000, increment: 0 },
        streaks: true,
        berserk: true,
    };
    let mut arena = Arena::new(settings, 9).unwrap();
    for n in 1..=1000u32 {
        arena.join(PlayerId::new(n).unwrap(), 1000 + (n * 7 % 1400) as u16, 0).unwrap();
    }
    let games = arena.pair(0);
    assert_eq!(games.len(), 500);
    // Second wave: everybody finishes, and nobody meets the same opponent.
    for (i, game) in games.iter().enumerate() {
        let winner = [None, Some(Color::White), Some(Color::Black)][i % 3];
        arena.finish(game.id, winner, 40, 60_000).unwrap();
    }
    let again = arena.pair(60_000);
    assert_eq!(again.len(), 500);
    let first: BTreeSet<_> =
        games.iter().map(|g| (g.white.min(g.black), g.white.max(g.black))).collect();
    assert!(again.iter().all(|g| !first.contains(&(g.white.min(g.black), g.white.max(g.black)))));
}
