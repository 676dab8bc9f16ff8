//! Properties of the Berger schedules for any field size, beyond the 3–16 the Handbook
//! prints (`berger_tables.rs`): C.05 Annex 1's promises (everybody meets everybody once a
//! cycle; the highest number is the bye of an odd field; the second cycle reverses the
//! colours; the swap of the first cycle's last two rounds avoids three same colours in a
//! row) and the colour pattern the tables have (each player alternates, with at most one
//! repeat a cycle in an even field and none in an odd one).

use std::collections::HashMap;

use proptest::prelude::*;
use rookery_core::Color;
use rookery_tournament::berger::{self, Cycles, Schedule, MAX_PLAYERS};
use rookery_tournament::PlayerId;

fn cycles() -> impl Strategy<Value = Cycles> {
    prop_oneof![Just(Cycles::Single), Just(Cycles::Double)]
}

/// Each player's colour by round (None: the bye), players 1..=n.
fn colours(schedule: &Schedule) -> Vec<Vec<Option<Color>>> {
    let n = schedule.players() as usize;
    let mut by_player = vec![Vec::new(); n];
    for round in schedule.rounds() {
        let mut this = vec![None; n];
        for pair in &round.pairs {
            this[pair.white.index()] = Some(Color::White);
            this[pair.black.index()] = Some(Color::Black);
        }
        for (player, colour) in this.into_iter().enumerate() {
            by_player[player].push(colour);
        }
    }
    by_player
}

/// The longest run of one colour in consecutive games (a bye neither breaks nor extends it).
fn longest_run(colours: &[Option<Color>]) -> usize {
    let games: Vec<Color> = colours.iter().flatten().copied().collect();
    games.chunk_by(|a, b| a == b).map(<[Color]>::len).max().unwrap_or(0)
}

/// How many times a game has the colour of the game before.
fn repeats(colours: &[Option<Color>]) -> usize {
    let games: Vec<Color> = colours.iter().flatten().copied().collect();
    games.windows(2).filter(|w| w[0] == w[1]).count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_round_pairs_everybody_once_and_byes_only_odd_fields(
        players in 2u32..=120,
        cycles in cycles(),
    ) {
        let schedule = berger::schedule(players, cycles).unwrap();
        let per_cycle = players - 1 + players % 2;
        prop_assert_eq!(schedule.rounds().len() as u32, per_cycle * cycles.count());
        for (index, round) in schedule.rounds().iter().enumerate() {
            let mut seen = vec![false; players as usize];
            let everyone = round
                .pairs
                .iter()
                .flat_map(|p| [p.white, p.black])
                .chain(round.bye);
            for id in everyone {
                prop_assert!(id.get() <= players, "round {}: {} out of range", index + 1, id);
                prop_assert!(!seen[id.index()], "round {}: {} twice", index + 1, id);
                seen[id.index()] = true;
            }
            prop_assert!(seen.iter().all(|&s| s), "round {}: somebody unpaired", index + 1);
            prop_assert_eq!(round.bye.is_some(), players % 2 == 1);
        }
    }

    #[test]
    fn every_two_players_meet_once_a_cycle_and_the_second_time_colours_reversed(
        players in 2u32..=120,
        cycles in cycles(),
    ) {
        let schedule = berger::schedule(players, cycles).unwrap();
        let per_cycle = (players - 1 + players % 2) as usize;
        let mut byes = HashMap::new();
        for (number, cycle) in schedule.rounds().chunks(per_cycle).enumerate() {
            let mut met: HashMap<(PlayerId, PlayerId), Color> = HashMap::new();
            for round in cycle {
                for pair in &round.pairs {
                    let key = (pair.white.min(pair.black), pair.white.max(pair.black));
                    let colour_of_lower =
                        if key.0 == pair.white { Color::White } else { Color::Black };
                    prop_assert!(met.insert(key, colour_of_lower).is_none(), "{:?} twice", key);
                }
                if let Some(bye) = round.bye {
                    *byes.entry(bye).or_insert(0) += 1;
                }
            }
            let n = players as usize;
            prop_assert_eq!(met.len(), n * (n - 1) / 2, "cycle {}", number + 1);
            if number == 1 {
                // Cycle 2 against cycle 1, rebuilt.
                let first = &schedule.rounds()[..per_cycle];
                for round in first {
                    for pair in &round.pairs {
                        let key = (pair.white.min(pair.black), pair.white.max(pair.black));
                        let was = if key.0 == pair.white { Color::White } else { Color::Black };
                        prop_assert_eq!(met[&key], was.other(), "{:?}", key);
                    }
                }
            }
        }
        if players % 2 == 1 {
            prop_assert!(byes.len() == players as usize);
            prop_assert!(byes.values().all(|&b| b == cycles.count()));
        }
    }

    #[test]
    fn colours_alternate_as_the_tables_make_them(players in 2u32..=120) {
        let schedule = berger::schedule(players, Cycles::Single).unwrap();
        for (index, colours) in colours(&schedule).iter().enumerate() {
            let player = index + 1;
            // Even fields: one repeat at most (around the game against the fixed player n);
            // odd fields: the bye takes that place, and colours alternate strictly.
            let allowed = if players % 2 == 0 { 1 } else { 0 };
            prop_assert!(repeats(colours) <= allowed, "player {}: {:?}", player, colours);
            let whites = colours.iter().filter(|c| **c == Some(Color::White)).count() as i64;
            let blacks = colours.iter().filter(|c| **c == Some(Color::Black)).count() as i64;
            prop_assert!((whites - blacks).abs() <= 1, "player {}: {:?}", player, colours);
        }
    }

    #[test]
    fn no_three_same_colours_in_a_row_in_a_double(players in 2u32..=120) {
        let schedule = berger::schedule(players, Cycles::Double).unwrap();
        for (index, colours) in colours(&schedule).iter().enumerate() {
            prop_assert!(longest_run(colours) <= 2, "player {}: {:?}", index + 1, colours);
            let whites = colours.iter().filter(|c| **c == Some(Color::White)).count();
            prop_assert_eq!(whites * 2, colours.iter().flatten().count(), "player {}", index + 1);
        }
    }

    #[test]
    fn one_round_equals_that_round_of_the_schedule(
        players in 2u32..=MAX_PLAYERS,
        cycles in cycles(),
        pick in any::<prop::sample::Index>(),
    ) {
        let rounds = berger::rounds(players, cycles).unwrap();
        let round = pick.index(rounds as usize) as u32 + 1;
        let direct = berger::round_pairing(players, cycles, round).unwrap();
        if players <= 200 {
            let schedule = berger::schedule(players, cycles).unwrap();
            prop_assert_eq!(Some(&direct), schedule.round(round));
        }
        prop_assert_eq!(direct.pairs.len() as u32, players / 2);
    }
}

/// Why the swap: without it, the plain table twice over gives player 1 three Blacks running
/// from 6 players up (the Vega manual, appendix C, and C.05 Annex 1 say the same).
#[test]
fn without_the_swap_a_double_would_give_three_in_a_row() {
    for players in (6..=40).step_by(2) {
        let single = berger::schedule(players, Cycles::Single).unwrap();
        let plain: Vec<Option<Color>> = single
            .rounds()
            .iter()
            .chain(single.rounds())
            .enumerate()
            .map(|(index, round)| {
                let reversed = index >= single.rounds().len();
                round.pairs.iter().find_map(|p| {
                    let colour = if p.white.get() == 1 {
                        Color::White
                    } else if p.black.get() == 1 {
                        Color::Black
                    } else {
                        return None;
                    };
                    Some(if reversed { colour.other() } else { colour })
                })
            })
            .collect();
        assert!(longest_run(&plain) >= 3, "{players} players: {plain:?}");
    }
}

#[test]
fn sizes_outside_the_limits_are_refused() {
    for players in [0, 1] {
        assert_eq!(
            berger::schedule(players, Cycles::Single),
            Err(berger::BergerError::TooFewPlayers { players })
        );
    }
    assert_eq!(
        berger::schedule(MAX_PLAYERS + 1, Cycles::Double),
        Err(berger::BergerError::TooManyPlayers { players: MAX_PLAYERS + 1 })
    );
    assert_eq!(
        berger::round_pairing(4, Cycles::Single, 0),
        Err(berger::BergerError::NoSuchRound { round: 0, rounds: 3 })
    );
}
