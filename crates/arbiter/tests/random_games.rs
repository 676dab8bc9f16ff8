//! Property test (issue 4): random games through the arbiter — random legal and illegal
//! moves in every input form, offers, declines, acceptances, touches, claims, resignations,
//! time passing until flags fall — always end with exactly one outcome, refuse everything
//! afterwards, and export PGN that replays to the same final position and result.

use proptest::prelude::*;
use rookery_arbiter::{
    DrawClaim, Event, Game, GameRecord, GameSpec, MoveInput, RuleSet, TimeControl,
};
use rookery_core::{Color, Square};
use rookery_pgn::main_line::{read_main_line, Options};

fn play_random_game(seed: u64, rules: RuleSet, tc: &str) -> Result<(), TestCaseError> {
    let mut x = seed | 1;
    let mut rand = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n.max(1)
    };
    let spec = GameSpec {
        rules,
        time_control: Some(tc.parse::<TimeControl>().unwrap()),
        white: "w".into(),
        black: "b".into(),
        ..GameSpec::default()
    };
    let mut game = Game::new(spec, 0).unwrap();
    let mut now = 0u64;
    let mut game_over_events = 0;
    let mut steps = 0;
    while !game.is_over() && steps < 2_000 {
        steps += 1;
        now += rand(3_000);
        let pos = *game.position();
        let us = pos.turn();
        let moves = pos.legal_moves();
        let result = match rand(40) {
            0 => game.resign(if rand(2) == 0 { us } else { !us }, now),
            1 => game.accept_draw(if rand(2) == 0 { us } else { !us }, now),
            2 => game.decline_draw(us, now),
            3 => game.touch(us, Square::new(rand(64) as u32).unwrap(), now),
            4 => game.claim_draw(us, DrawClaim::ThreefoldRepetition, None, now),
            5 => game.claim_draw(us, DrawClaim::FiftyMoves, None, now),
            6 => {
                let from = Square::new(rand(64) as u32).unwrap();
                let to = Square::new(rand(64) as u32).unwrap();
                game.play(us, &MoveInput::squares(from, to, None), false, now)
            }
            7 => game.play(!us, &"e2e4".parse().unwrap(), false, now),
            8 => Ok(game.poll(now)),
            _ => {
                let m = moves[rand(moves.len() as u64) as usize];
                // Honour a touch-move obligation most of the time.
                let m = match game.obligation() {
                    Some(rookery_arbiter::Obligation::MovePiece(sq)) if rand(4) != 0 => {
                        moves.iter().copied().find(|m| m.from() == sq).unwrap_or(m)
                    }
                    Some(rookery_arbiter::Obligation::Capture(sq)) if rand(4) != 0 => {
                        moves.iter().copied().find(|m| m.to() == sq).unwrap_or(m)
                    }
                    _ => m,
                };
                let input = match rand(3) {
                    0 => m.to_uci().parse().unwrap(),
                    1 => pos.san(m).parse().unwrap(),
                    _ => MoveInput::from(m),
                };
                game.play(us, &input, rand(10) == 0, now)
            }
        };
        let events = match result {
            Ok(events) => events,
            Err(rejected) => rejected.events,
        };
        game_over_events += events.iter().filter(|e| matches!(e, Event::GameOver(_))).count();
    }
    if !game.is_over() {
        let events = game.resign(game.position().turn(), now).unwrap();
        game_over_events += events.iter().filter(|e| matches!(e, Event::GameOver(_))).count();
    }
    prop_assert_eq!(game_over_events, 1, "exactly one GameOver event");
    let outcome = game.outcome().unwrap();
    // Nothing is accepted after the end, and the outcome stays.
    let us = game.position().turn();
    prop_assert!(game.resign(us, now + 1).is_err());
    prop_assert!(game.play(us, &"e2e4".parse().unwrap(), false, now + 1).is_err());
    prop_assert!(game.poll(now + 10_000_000).is_empty());
    prop_assert_eq!(game.outcome(), Some(outcome));

    let pgn = game.to_pgn();
    let line = read_main_line(&pgn, Options::default()).unwrap();
    let line = line.map_err(|e| TestCaseError::fail(format!("the PGN replays: {e}\n{pgn}")))?;
    prop_assert_eq!(line.plies.len(), game.plies().len());
    prop_assert_eq!(line.end().to_fen(), game.position().to_fen(), "final position\n{}", pgn);
    prop_assert_eq!(line.tag("Result"), Some(outcome.result.as_str()));
    prop_assert_eq!(line.result, Some(outcome.result));
    // The standard's Termination value, and Rookery's own label beside it (issue 41).
    prop_assert_eq!(line.tag("Termination"), Some(outcome.termination.pgn_value()));
    prop_assert_eq!(line.tag("RookeryTermination"), Some(outcome.termination.label()));

    // The record reads back: what a finished game is served from (issue 37).
    let record = GameRecord::from_pgn(&pgn).unwrap();
    prop_assert_eq!(record.end(), *game.position());
    prop_assert_eq!(record.plies.len(), game.plies().len());
    for (read, played) in record.plies.iter().zip(game.plies()) {
        prop_assert_eq!(read.m, played.m);
        prop_assert_eq!(read.san, played.san);
        prop_assert_eq!(read.color, played.color);
        // Whole seconds, tenths below a minute (issue 41).
        let shown = |ms: u64| if ms < 60_000 { ms / 100 * 100 } else { ms / 1000 * 1000 };
        prop_assert_eq!(read.clock_ms, played.clock_ms.map(shown));
        prop_assert_eq!(read.offered_draw, played.offered_draw);
        prop_assert_eq!(&read.illegal_attempts, &played.illegal_attempts);
    }
    prop_assert_eq!(&record.unplayed_attempts, game.unplayed_attempts());
    for color in [Color::White, Color::Black] {
        prop_assert_eq!(record.strikes(color), usize::from(game.strikes(color)), "{:?}", color);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn random_games_end_once_and_replay(seed in any::<u64>(), rules in 0usize..3, tc in 0usize..4) {
        let tc = ["60+1", "120", "300b3", "40/300:60+2"][tc];
        play_random_game(seed, RuleSet::ALL[rules], tc)?;
    }
}
