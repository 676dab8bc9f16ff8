//! Property test (issue 4): random games through the arbiter — random legal and illegal
//! moves in every input form, offers, declines, acceptances, touches, claims, resignations,
//! time passing until flags fall — always end with exactly one outcome, refuse everything
//! afterwards, and export PGN that replays to the same final position and result.

use std::ops::ControlFlow;

use proptest::prelude::*;
use rookery_arbiter::{DrawClaim, Event, Game, GameSpec, MoveInput, RuleSet, TimeControl};
use rookery_core::{Position, SanPlus, Square};
use rookery_pgn::{Location, RawTag, Reader, Visitor};

/// Replays a PGN's main line the way `rookery pgn replay` does.
#[derive(Default)]
struct Replay {
    pos: Option<Position>,
    plies: usize,
    result: Option<String>,
    error: bool,
}

impl Visitor for Replay {
    type Output = (Option<Position>, usize, Option<String>, bool);

    fn begin_game(&mut self) {
        *self = Replay { pos: Some(Position::new()), ..Replay::default() };
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, _at: Location) {
        match name {
            b"FEN" => self.pos = Position::from_fen(&value.decode_utf8()).ok(),
            b"Result" => self.result = Some(value.decode_utf8().into_owned()),
            _ => {}
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn san(&mut self, san: SanPlus, _at: Location) -> ControlFlow<()> {
        let Some(pos) = self.pos.as_mut() else { return ControlFlow::Break(()) };
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                self.error = true;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self) -> Self::Output {
        (self.pos, self.plies, self.result.clone(), self.error)
    }
}

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
                game.play(us, &MoveInput::Squares { from, to, promotion: None }, false, now)
            }
            7 => game.play(!us, &MoveInput::Uci("e2e4".into()), false, now),
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
                    0 => MoveInput::Uci(m.to_uci()),
                    1 => MoveInput::San(pos.san(m)),
                    _ => MoveInput::Squares {
                        from: m.from(),
                        to: m.to(),
                        promotion: m.promotion_role(),
                    },
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
    prop_assert!(game.play(us, &MoveInput::Uci("e2e4".into()), false, now + 1).is_err());
    prop_assert!(game.poll(now + 10_000_000).is_empty());
    prop_assert_eq!(game.outcome(), Some(outcome));

    let pgn = game.to_pgn();
    let mut reader = Reader::new(pgn.as_bytes());
    let (pos, plies, result, error) = reader.read_game(&mut Replay::default()).unwrap().unwrap();
    prop_assert!(!error, "the PGN replays:\n{}", pgn);
    prop_assert_eq!(plies, game.plies().len());
    prop_assert_eq!(pos.unwrap().to_fen(), game.position().to_fen(), "final position\n{}", pgn);
    prop_assert_eq!(result.as_deref(), Some(outcome.result.pgn()));
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
