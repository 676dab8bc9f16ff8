//! Team round robin over the Berger tables (issue 54): every two teams meet once a cycle, an
//! odd field has one bye a round, and colours by board alternate from board 1 as documented
//! in `team::round_robin`.

use std::collections::HashMap;

use rookery_core::Color;
use rookery_tournament::berger::{self, Cycles};
use rookery_tournament::team::round_robin::{self, RoundRobinSettings};
use rookery_tournament::team::{BoardColours, TeamId};

fn settings(cycles: Cycles) -> RoundRobinSettings {
    RoundRobinSettings { cycles, ..Default::default() }
}

#[test]
fn every_two_teams_meet_once_a_cycle() {
    for teams in [4u32, 5, 6, 8] {
        for cycles in [Cycles::Single, Cycles::Double] {
            let schedule = round_robin::schedule(teams, settings(cycles)).unwrap();
            let per_cycle = teams + teams % 2 - 1;
            assert_eq!(schedule.len() as u32, per_cycle * cycles.count(), "{teams} teams");
            // (lower, higher) -> the team with White on board 1, per meeting.
            let mut meetings: HashMap<(TeamId, TeamId), Vec<TeamId>> = HashMap::new();
            let mut byes: HashMap<TeamId, u32> = HashMap::new();
            for (r, round) in schedule.iter().enumerate() {
                let mut seen = Vec::new();
                for &(w, b) in &round.matches {
                    assert_ne!(w, b);
                    seen.extend([w, b]);
                    meetings.entry((w.min(b), w.max(b))).or_default().push(w);
                }
                if let Some(bye) = round.bye {
                    seen.push(bye);
                    *byes.entry(bye).or_default() += 1;
                }
                seen.sort();
                seen.dedup();
                assert_eq!(
                    seen.len() as u32,
                    teams,
                    "{teams} teams, round {}: everybody once",
                    r + 1
                );
                assert_eq!(round.bye.is_some(), teams % 2 == 1, "{teams} teams, round {}", r + 1);
            }
            assert_eq!(meetings.len() as u32, teams * (teams - 1) / 2, "{teams} teams");
            for ((a, b), whites) in &meetings {
                assert_eq!(whites.len() as u32, cycles.count(), "{teams} teams: {a}-{b}");
                if cycles == Cycles::Double {
                    assert_ne!(whites[0], whites[1], "{teams} teams: {a}-{b} reversed in cycle 2");
                }
            }
            if teams % 2 == 1 {
                assert!(byes.values().all(|&n| n == cycles.count()), "{teams} teams: {byes:?}");
            }
        }
    }
}

#[test]
fn the_tables_are_the_berger_tables_with_the_first_named_team_white_on_board_one() {
    for teams in [4u32, 5, 6, 8] {
        for r in 1..=berger::rounds(teams, Cycles::Single).unwrap() {
            let table = berger::round_pairing(teams, Cycles::Single, r).unwrap();
            let round = round_robin::round(teams, settings(Cycles::Single), r).unwrap();
            let pairs: Vec<(u32, u32)> =
                round.matches.iter().map(|(w, b)| (w.get(), b.get())).collect();
            let expected: Vec<(u32, u32)> =
                table.pairs.iter().map(|p| (p.white.get(), p.black.get())).collect();
            assert_eq!(pairs, expected, "{teams} teams, round {r}");
            let flipped =
                RoundRobinSettings { first_named: Color::Black, ..settings(Cycles::Single) };
            let reversed = round_robin::round(teams, flipped, r).unwrap();
            let back: Vec<(u32, u32)> =
                reversed.matches.iter().map(|(w, b)| (b.get(), w.get())).collect();
            assert_eq!(back, expected, "{teams} teams, round {r}, first-named Black");
        }
    }
    // Five teams play the table of six; who meets the dummy 6 has the bye.
    assert_eq!(
        round_robin::round(5, settings(Cycles::Single), 1).unwrap().to_string(),
        "2-5 3-4 (bye 1)"
    );
}

#[test]
fn board_colours_alternate_from_board_one() {
    // Round 1 of four teams: 1-4, 2-3. Team 1 has White on boards 1 and 3, team 4 on 2 and 4.
    let round = round_robin::round(4, settings(Cycles::Single), 1).unwrap();
    let (first, _) = round.matches[0];
    assert_eq!(first, TeamId::new(1).unwrap());
    let c = BoardColours::Alternating;
    let colours: Vec<Color> = (1..=4).map(|b| c.colour_of_first(b)).collect();
    assert_eq!(colours, [Color::White, Color::Black, Color::White, Color::Black]);
    // Six boards, still alternating; Same gives the first team White throughout.
    assert!((1..=6).all(|b| c.colour_of_first(b).is_white() == (b % 2 == 1)));
    assert!((1..=6).all(|b| BoardColours::Same.colour_of_first(b).is_white()));
}

#[test]
fn out_of_range_is_an_error_not_a_panic() {
    assert!(round_robin::round(1, settings(Cycles::Single), 1).is_err());
    assert!(round_robin::round(4, settings(Cycles::Single), 4).is_err());
    assert!(round_robin::round(4, settings(Cycles::Single), 0).is_err());
}
