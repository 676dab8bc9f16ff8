//! Properties of knockouts of 2 to 64 players played out with random results and random
//! regulations: the seeding (everybody once in round 1 or a bye, the byes to the top seeds,
//! seeds 1 and 2 in opposite halves, the top four in different quarters), the progression
//! (each winner in the match its own feeds, one champion after exactly N - 1 matches), and
//! the match rules (colours alternating, a match over once decided, Armageddon draws to
//! Black).

use proptest::prelude::*;
use rookery_core::Color;
use rookery_tournament::knockout::{
    Armageddon, ArmageddonColours, Bracket, GameResult, How, Knockout, MatchRules, MatchState,
    MatchStatus, Phase, Side, Stage,
};
use rookery_tournament::PlayerId;

fn result() -> impl Strategy<Value = GameResult> {
    // Forfeits rare, draws common, so that tie-breaks and Armageddon games are reached.
    prop_oneof![
        4 => Just(GameResult::WhiteWins),
        6 => Just(GameResult::Draw),
        4 => Just(GameResult::BlackWins),
        1 => Just(GameResult::Forfeit(Color::White)),
        1 => Just(GameResult::Forfeit(Color::Black)),
    ]
}

fn colour() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn rules() -> impl Strategy<Value = MatchRules> {
    (
        1u32..=4,
        colour(),
        proptest::collection::vec(1u32..=3, 0..=3),
        proptest::option::of(proptest::option::of(colour())),
    )
        .prop_map(|(games, first, stages, armageddon)| MatchRules {
            games,
            time_control: "90+30".into(),
            higher_seed_first: first,
            tiebreaks: stages.into_iter().map(|g| Stage::new("rapid", g, "15+10")).collect(),
            armageddon: armageddon.map(|colours| Armageddon {
                white_time: "5".into(),
                black_time: "4".into(),
                colours: colours
                    .map_or(ArmageddonColours::Alternate, ArmageddonColours::HigherSeed),
            }),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn round_one_seats_everybody_once_and_byes_go_to_the_top(entrants in 2u32..=64) {
        let bracket = Bracket::new(entrants).unwrap();
        prop_assert!(bracket.size().is_power_of_two() && bracket.size() >= entrants);
        prop_assert!(bracket.size() < 2 * entrants);
        let round = bracket.round(1);
        let mut seen = vec![0; entrants as usize];
        let mut byes = Vec::new();
        for (index, (_, sides)) in round.iter().enumerate() {
            prop_assert_ne!(sides[0], Side::Bye, "a bye is never the upper side");
            for side in sides {
                if let Side::Seed(seed) = side {
                    seen[seed.index()] += 1;
                }
            }
            if let [Side::Seed(seed), Side::Bye] = sides {
                byes.push(seed.get());
            }
            // Halves: seed 1 in the upper, seed 2 in the lower.
            let upper_half = index < round.len() / 2;
            if sides.contains(&Side::Seed(PlayerId::new(1).unwrap())) {
                prop_assert!(upper_half || round.len() == 1);
            }
            if sides.contains(&Side::Seed(PlayerId::new(2).unwrap())) {
                prop_assert!(!upper_half);
            }
        }
        // Quarters (from 4 places): seeds 1 to 4 each in a different one.
        if bracket.size() >= 4 {
            let mut quarters: Vec<usize> = (1..=entrants.min(4))
                .map(|seed| {
                    let place = round
                        .iter()
                        .flat_map(|(_, sides)| sides)
                        .position(|side| *side == Side::Seed(PlayerId::new(seed).unwrap()))
                        .unwrap();
                    place * 4 / bracket.size() as usize
                })
                .collect();
            quarters.sort_unstable();
            quarters.dedup();
            prop_assert_eq!(quarters.len() as u32, entrants.min(4));
        }
        prop_assert!(seen.iter().all(|&n| n == 1), "every entrant once: {:?}", seen);
        byes.sort_unstable();
        prop_assert_eq!(byes, (1..=bracket.byes()).collect::<Vec<_>>());
    }

    #[test]
    fn random_results_end_with_one_champion_after_n_minus_one_matches(
        entrants in 2u32..=64,
        rules in rules(),
        results in proptest::collection::vec(result(), 1..200),
        lots in proptest::collection::vec(any::<bool>(), 1..64),
    ) {
        let mut knockout = Knockout::new(entrants, rules.clone()).unwrap();
        let rounds = knockout.bracket().rounds();
        let mut results = results.iter().cycle();
        let mut lots = lots.iter().cycle();
        let mut decided = 0u32;
        let mut steps = 0;
        loop {
            steps += 1;
            prop_assert!(steps < 100_000, "the knockout must end");
            let (id, next) = match knockout.playable().into_iter().next() {
                Some(playable) => playable,
                None => match knockout.level().first() {
                    Some(&id) => {
                        let players = knockout.game(id).unwrap().players();
                        let winner = players[usize::from(*lots.next().unwrap())];
                        prop_assert!(rules.armageddon.is_none(), "Armageddon leaves nothing level");
                        knockout.decide_by_lot(id, winner).unwrap();
                        decided += 1;
                        check_advanced(&knockout, id, winner, rounds)?;
                        continue;
                    }
                    None => break,
                },
            };
            // Colours alternate game by game, bar an Armageddon game with colours of its own.
            let game = knockout.game(id).unwrap();
            if let Some(before) = game.games().last() {
                let fixed = next.phase == Phase::Armageddon
                    && !matches!(rules.armageddon.as_ref().map(|a| a.colours), Some(ArmageddonColours::Alternate));
                if !fixed {
                    prop_assert_eq!(before.white, next.black, "match {} game {}", id, next.game);
                }
            }
            let result = *results.next().unwrap();
            let state = knockout.record(id, next.game, result).unwrap();
            // The same game twice is an error.
            prop_assert!(knockout.record(id, next.game, result).is_err());
            if let MatchState::Decided(decision) = state {
                decided += 1;
                if next.phase == Phase::Armageddon && result == GameResult::Draw {
                    prop_assert_eq!(decision.winner, next.black);
                    prop_assert_eq!(decision.how, How::Armageddon);
                }
                if let GameResult::Forfeit(absent) = result {
                    let present = if absent == Color::White { next.black } else { next.white };
                    prop_assert_eq!(decision.winner, present);
                }
                // Nothing more is taken.
                prop_assert!(knockout.record(id, next.game + 1, GameResult::Draw).is_err());
                check_advanced(&knockout, id, decision.winner, rounds)?;
            }
        }
        prop_assert_eq!(decided, entrants - 1);
        let champion = knockout.champion();
        prop_assert!(champion.is_some());
        prop_assert_eq!(knockout.current_round(), None);
        let view = knockout.view();
        let played = view.iter().flat_map(|r| &r.matches).filter(|m| matches!(m.status, MatchStatus::Decided(_))).count();
        prop_assert_eq!(played as u32, entrants - 1);
        let byes = view[0].matches.iter().filter(|m| matches!(m.status, MatchStatus::Bye { .. })).count();
        prop_assert_eq!(byes as u32, knockout.bracket().byes());
    }
}

/// The winner of match `id` sits on the side of the next match that `id` feeds.
fn check_advanced(
    knockout: &Knockout,
    id: rookery_tournament::knockout::MatchId,
    winner: PlayerId,
    rounds: u32,
) -> Result<(), TestCaseError> {
    match id.next(rounds) {
        Some((next, side)) => {
            let view = &knockout.view()[next.round as usize - 1].matches[next.number as usize - 1];
            prop_assert_eq!(view.sides[side], Side::Winner(id));
            prop_assert_eq!(view.players[side], Some(winner));
        }
        None => prop_assert_eq!(knockout.champion(), Some(winner)),
    }
    Ok(())
}
