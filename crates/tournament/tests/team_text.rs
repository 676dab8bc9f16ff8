//! The team file format of `team::text`: a file reads into the competition it describes, and a
//! bad line is refused with its number and what is wrong.

use rookery_tournament::team::colour::PreferenceType;
use rookery_tournament::team::swiss::{self, InitialColour};
use rookery_tournament::team::text::{self, TeamFileErrorKind};
use rookery_tournament::team::{PrimaryScore, TeamId};
use rookery_tournament::Score;

const LEAGUE: &str = "\
# Club league: five teams, five rounds
rounds 5
boards 4
primary match
points 2 1 0
preference B   # strong and mild
initial white
forbid 1 5
team Rooks
team Knights
team Bishops
team Pawns
team Kings
round 1-2 1=0= 3-4 11=0 bye 5
absent 3
";

#[test]
fn the_example_reads_as_written() {
    let file = text::read(LEAGUE).unwrap();
    let c = &file.competition;
    assert_eq!(c.teams().len(), 5);
    assert_eq!(c.teams()[4].name(), "Kings");
    assert_eq!(c.rounds().len(), 1);
    assert_eq!(file.settings.rounds, 5);
    assert_eq!(file.settings.preference, PreferenceType::B);
    assert_eq!(file.settings.initial_colour, InitialColour::White);
    assert_eq!(c.scoring().primary, PrimaryScore::MatchPoints);
    let id = |n| TeamId::new(n).unwrap();
    assert_eq!(file.settings.forbidden, [(id(1), id(5))]);
    assert_eq!(file.settings.absent, [id(3)]);
    // 1-2 1=0=: Rooks win board 1, draw 2 and 4, lose 3: 2-2. 3-4 11=0: Bishops 2½-1½.
    let totals = c.totals();
    assert_eq!((totals[0].match_points, totals[0].game_points), (Score(10), Score(20)));
    assert_eq!((totals[2].match_points, totals[2].game_points), (Score(20), Score(25)));
    assert_eq!(totals[4].match_points, Score(20), "the bye");
    // Round 2 without Bishops: Kings (2, bye) and the rest; Rooks may not meet Kings.
    let pairing = swiss::pair(c, &file.settings).unwrap();
    assert!(pairing.matches.iter().all(|&(w, b)| w != id(3) && b != id(3)));
    assert!(!pairing
        .matches
        .iter()
        .any(|&(w, b)| (w, b) == (id(1), id(5)) || (w, b) == (id(5), id(1))));
}

#[test]
fn game_points_and_other_match_points() {
    let file = text::read(
        "rounds 3\nprimary game\npoints 3 1 0\nboards 2\nteam A\nteam B\nround 2-1 +x\n",
    )
    .unwrap();
    let totals = file.competition.totals();
    // B won board 1 by forfeit, board 2 double forfeit: 1-0 to B, three match points.
    assert_eq!((totals[1].match_points, totals[1].game_points), (Score(30), Score(10)));
    assert_eq!(totals[0].match_points, Score::ZERO);
    assert_eq!(file.competition.scoring().primary, PrimaryScore::GamePoints);
}

#[test]
fn errors_name_the_line() {
    let cases = [
        ("team A\nteam B\n", "no \"rounds\" line: how many rounds?"),
        ("rounds five\n", "line 1: \"five\" is not a value for rounds"),
        ("rounds 3\nboards 100000000\n", "line 2: \"100000000\" is not a value for boards"),
        ("rounds 3\nprimary\n", "line 2: primary needs a value"),
        ("rounds 3\npreference C\n", "line 2: \"C\" is not a value for preference"),
        ("rounds 3\nplayers 4\n", "line 2: unknown keyword \"players\" (known: rounds, boards, primary, points, preference, initial, forbid, team, round, absent)"),
        ("rounds 3\nteam A\nteam B\nround 1-3 1111\n", "line 4: there is no team 3"),
        ("rounds 3\nteam A\nteam B\nround 1-2 111\n", "line 4: results \"111\" are not 4 of 1 = 0 + - x (one a board, board 1 first)"),
        ("rounds 3\nteam A\nteam B\nround 1-2 11?1\n", "line 4: results \"11?1\" are not 4 of 1 = 0 + - x (one a board, board 1 first)"),
        ("rounds 3\nteam A\nteam B\nround 12 1111\n", "line 4: \"12\" is not a match (W-B RESULTS), bye N or absent N"),
        ("rounds 3\nteam A\nteam B\nround 1-2 1111 bye 1\n", "line 4: round 1: team \"A\" appears twice"),
        ("rounds 3\nteam A\nteam A\n", "line 2: two teams are called \"A\""),
        ("rounds 3\nteam A\n", "line 2: a team competition needs at least 2 teams, got 1"),
        ("rounds 3\nboards 0\nteam A\nteam B\n", "line 3: team \"A\" has no boards"),
        ("rounds 3\nteam A\nteam B\nforbid 1\n", "line 4: \"1\" is not a value for forbid"),
    ];
    for (file, expected) in cases {
        let error = text::read(file).unwrap_err();
        assert_eq!(error.to_string(), expected, "{file:?}");
    }
    let error =
        text::read("rounds 3\nteam A\nteam B\nround 1-2 1111\nround 1-9 1111\n").unwrap_err();
    assert_eq!((error.line, error.kind), (5, TeamFileErrorKind::UnknownTeam("9".into())));
}

mod round_trip {
    use proptest::prelude::*;
    use rookery_tournament::team::text::{self, TeamFile};
    use rookery_tournament::team::{BoardResult, TeamId, TeamMatch, TeamRound};

    const RESULTS: [BoardResult; 6] = [
        BoardResult::WhiteWins,
        BoardResult::Draw,
        BoardResult::BlackWins,
        BoardResult::WhiteWinsByForfeit,
        BoardResult::BlackWinsByForfeit,
        BoardResult::DoubleForfeit,
    ];

    /// A file of `teams` teams on `boards` boards whose rounds pair the teams in the order of
    /// each permutation (two by two, the odd one out the bye), board results from `codes`.
    fn file(
        teams: usize,
        boards: usize,
        header: &str,
        rounds: &[Vec<usize>],
        codes: &[u8],
    ) -> TeamFile {
        let mut text = format!("{header}\nboards {boards}\n");
        for t in 1..=teams {
            text += &format!("team Team {t}\n");
        }
        let mut file = text::read(&text).unwrap();
        let mut code = codes.iter().cycle();
        for order in rounds {
            let id = |i: usize| TeamId::from_index(order[i] % teams);
            let mut seen = vec![false; teams];
            let mut slots: Vec<TeamId> = Vec::new();
            for i in 0..order.len() {
                if !seen[id(i).index()] {
                    seen[id(i).index()] = true;
                    slots.push(id(i));
                }
            }
            let c = &file.competition;
            let mut round = TeamRound::default();
            for pair in slots.chunks(2) {
                match *pair {
                    [white, black] => round.matches.push(TeamMatch {
                        white,
                        black,
                        white_line_up: c.team(white).unwrap().regular_line_up(),
                        black_line_up: c.team(black).unwrap().regular_line_up(),
                        results: (0..boards)
                            .map(|_| RESULTS[*code.next().unwrap() as usize % 6])
                            .collect(),
                    }),
                    [odd] if code.next().unwrap().is_multiple_of(2) => round.bye = Some(odd),
                    [odd] => round.absent.push(odd),
                    _ => unreachable!("chunks of two"),
                }
            }
            for (t, _) in seen.iter().enumerate().filter(|(_, seen)| !**seen) {
                round.absent.push(TeamId::from_index(t));
            }
            file.competition.add_round(round).unwrap();
        }
        file
    }

    proptest! {
        #[test]
        fn what_is_written_reads_back_the_same(
            teams in 2usize..10,
            boards in 1usize..7,
            header in prop::sample::select(vec![
                "rounds 9\nprimary match\npoints 2 1 0\npreference A\ninitial white",
                "rounds 7\nprimary game\npoints 3 1 0\npreference B\ninitial black\nforbid 1 2",
                "rounds 5\npoints 1 0.5 0\npreference none\nabsent 2",
            ]),
            rounds in prop::collection::vec(prop::collection::vec(0usize..10, 0..10), 0..6),
            codes in prop::collection::vec(any::<u8>(), 1..40),
        ) {
            let original = file(teams, boards, header, &rounds, &codes);
            let written = text::write(&original);
            let back = text::read(&written).map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
            prop_assert_eq!(&back, &original, "{}", written);
        }
    }
}
