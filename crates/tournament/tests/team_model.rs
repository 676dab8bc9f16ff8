//! Teams, line-ups and matches (issue 54): line-up validation names what is wrong, board
//! results roll up into game and match points, and a round is checked when it is added.

use rookery_tournament::team::{
    BoardColours, BoardResult, LineUp, LineUpError, Team, TeamCompetition, TeamCompetitionError,
    TeamError, TeamId, TeamMatch, TeamPlayer, TeamRound, TeamScoring,
};
use rookery_tournament::Score;

fn team(name: &str, players: usize) -> Team {
    let roster = (1..=players).map(|i| TeamPlayer::new(format!("{name} {i}"), None)).collect();
    Team::new(name, None, 4, roster).unwrap()
}

fn id(n: u32) -> TeamId {
    TeamId::new(n).unwrap()
}

#[test]
fn a_line_up_keeps_the_roster_order() {
    let t = team("Rooks", 6);
    // A reserve (roster 5, 6) may replace a board player, relative order kept.
    assert!(LineUp::new(&t, &[0, 1, 2, 3]).is_ok());
    assert!(LineUp::new(&t, &[0, 2, 3, 4]).is_ok());
    assert!(LineUp::new(&t, &[1, 3, 4, 5]).is_ok());
    let by_names = LineUp::by_names(&t, &["Rooks 1", "Rooks 2", "Rooks 4", "Rooks 6"]).unwrap();
    assert_eq!(by_names.positions(), [0, 1, 3, 5]);
    assert_eq!(by_names.on_board(3), Some(3));
    assert_eq!(t.regular_line_up().positions(), [0, 1, 2, 3]);
    assert_eq!(t.reserves().len(), 2);
}

#[test]
fn line_up_errors_name_team_player_and_board() {
    let t = team("Rooks", 6);
    let cases: &[(&[usize], LineUpError, &str)] = &[
        (
            &[0, 1, 2],
            LineUpError::WrongCount { team: "Rooks".into(), boards: 4, players: 3 },
            "the line-up of team \"Rooks\" names 3 players for 4 boards",
        ),
        (
            &[0, 1, 2, 6],
            LineUpError::NoSuchPosition { team: "Rooks".into(), position: 6, roster: 6 },
            "team \"Rooks\" has no roster position 7 (its roster has 6 players)",
        ),
        (
            &[0, 1, 1, 3],
            LineUpError::Duplicate { team: "Rooks".into(), player: "Rooks 2".into() },
            "team \"Rooks\" fields player \"Rooks 2\" on two boards",
        ),
        (
            &[0, 4, 2, 3],
            LineUpError::OutOfOrder {
                team: "Rooks".into(),
                board: 3,
                player: "Rooks 3".into(),
                above: "Rooks 5".into(),
            },
            "team \"Rooks\" fields \"Rooks 3\" on board 3 below \"Rooks 5\", who comes after \
             them on the roster",
        ),
    ];
    for (positions, error, text) in cases {
        let got = LineUp::new(&t, positions).unwrap_err();
        assert_eq!(&got, error, "{positions:?}");
        assert_eq!(got.to_string(), *text, "{positions:?}");
    }
    let unknown = LineUp::by_names(&t, &["Rooks 1", "Bishops 2", "Rooks 3", "Rooks 4"]);
    assert_eq!(
        unknown.unwrap_err().to_string(),
        "player \"Bishops 2\" is not on the roster of team \"Rooks\""
    );
}

#[test]
fn the_initial_order_by_rating_keeps_ties_as_given() {
    let t = |name: &str, rating| {
        let roster = (1..=4).map(|i| TeamPlayer::new(format!("{name} {i}"), None)).collect();
        Team::new(name, rating, 4, roster).unwrap()
    };
    let teams = vec![t("A", Some(2000)), t("B", None), t("C", Some(2100)), t("D", Some(2000))];
    let names: Vec<String> =
        rookery_tournament::team::by_rating(teams).iter().map(|t| t.name().to_owned()).collect();
    assert_eq!(names, ["C", "A", "D", "B"]);
}

#[test]
fn team_errors_name_the_team() {
    let p = |n: &str| TeamPlayer::new(n, Some(2000));
    assert_eq!(Team::new(" ", None, 4, vec![]).unwrap_err(), TeamError::EmptyName);
    assert_eq!(
        Team::new("Kings", None, 4, vec![p("a"), p("b"), p("c")]).unwrap_err().to_string(),
        "team \"Kings\" plays on 4 boards but its roster has only 3 players"
    );
    assert_eq!(
        Team::new("Kings", None, 2, vec![p("a"), p("a")]).unwrap_err().to_string(),
        "team \"Kings\" lists player \"a\" twice"
    );
    assert_eq!(
        Team::new("Kings", None, 0, vec![]).unwrap_err().to_string(),
        "team \"Kings\" has no boards"
    );
}

fn played(white: u32, black: u32, results: [BoardResult; 4], teams: &[Team]) -> TeamMatch {
    TeamMatch {
        white: id(white),
        black: id(black),
        white_line_up: teams[white as usize - 1].regular_line_up(),
        black_line_up: teams[black as usize - 1].regular_line_up(),
        results: results.to_vec(),
    }
}

#[test]
fn board_results_roll_up_into_game_and_match_points() {
    use BoardResult::*;
    let teams = vec![team("A", 4), team("B", 4), team("C", 5)];
    let mut c =
        TeamCompetition::new(teams.clone(), TeamScoring::default(), BoardColours::Alternating)
            .unwrap();
    // A has White on boards 1 and 3. Board 1 A wins, board 2 (A Black) draw, board 3 B wins by
    // forfeit (Black), board 4 (A Black) A wins: A 1 + ½ + 0 + 1 = 2½, B 1½.
    let m = played(1, 2, [WhiteWins, Draw, BlackWinsByForfeit, BlackWins], &teams);
    assert_eq!(c.game_points(&m, rookery_core::Color::White), Score(25));
    assert_eq!(c.game_points(&m, rookery_core::Color::Black), Score(15));
    c.add_round(TeamRound { matches: vec![m], bye: Some(id(3)), absent: vec![] }).unwrap();
    let totals = c.totals();
    assert_eq!((totals[0].match_points, totals[0].game_points), (Score(20), Score(25)));
    assert_eq!((totals[1].match_points, totals[1].game_points), (Score(0), Score(15)));
    // The bye: the match points of a win and half the boards.
    assert_eq!((totals[2].match_points, totals[2].game_points), (Score(20), Score(20)));
    let entries = c.entries();
    assert!(entries[0][0].played);
    // A 2-2 match is drawn: one match point each.
    let m = played(2, 1, [Draw, BlackWins, BlackWins, Draw], &teams);
    c.add_round(TeamRound { matches: vec![m], bye: Some(id(3)), absent: vec![] }).unwrap();
    assert_eq!(c.totals()[0].match_points, Score(30));
    // A match of forfeits only is no meeting.
    let m = played(
        1,
        2,
        [WhiteWinsByForfeit, BlackWinsByForfeit, DoubleForfeit, DoubleForfeit],
        &teams,
    );
    c.add_round(TeamRound { matches: vec![m], bye: None, absent: vec![id(3)] }).unwrap();
    assert!(!c.entries()[2][0].played);
}

#[test]
fn bad_rounds_are_refused_with_the_team_named() {
    use BoardResult::*;
    let teams = vec![team("A", 4), team("B", 4), team("C", 6)];
    let mut c =
        TeamCompetition::new(teams.clone(), TeamScoring::default(), BoardColours::Same).unwrap();
    let twice = TeamRound {
        matches: vec![played(1, 2, [Draw; 4], &teams)],
        bye: Some(id(2)),
        absent: vec![],
    };
    assert_eq!(c.add_round(twice).unwrap_err().to_string(), "round 1: team \"B\" appears twice");
    let unknown = TeamRound {
        matches: vec![played(1, 2, [Draw; 4], &teams)],
        bye: TeamId::new(9),
        absent: vec![],
    };
    assert_eq!(c.add_round(unknown).unwrap_err().to_string(), "round 1: there is no team 9");
    // C's line-up (with a reserve) used for A, whose roster is shorter.
    let mut foreign = played(1, 2, [Draw; 4], &teams);
    foreign.white_line_up = LineUp::new(&teams[2], &[0, 1, 2, 5]).unwrap();
    let err = c.add_round(TeamRound { matches: vec![foreign], ..Default::default() }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "round 1: team \"A\" has no roster position 6 (its roster has 4 players)"
    );
    let mut short = played(1, 2, [Draw; 4], &teams);
    short.results.pop();
    let err = c.add_round(TeamRound { matches: vec![short], ..Default::default() }).unwrap_err();
    assert!(
        matches!(err, TeamCompetitionError::ResultCount { results: 3, boards: 4, .. }),
        "{err}"
    );
    assert!(c.rounds().is_empty(), "a refused round changes nothing");
    let five =
        Team::new("Five", None, 5, (0..5).map(|i| TeamPlayer::new(i.to_string(), None)).collect())
            .unwrap();
    let err =
        TeamCompetition::new(vec![team("A", 4), five], TeamScoring::default(), BoardColours::Same);
    assert_eq!(
        err.unwrap_err().to_string(),
        "team \"Five\" plays on 5 boards where the first team plays on 4"
    );
    let err = TeamCompetition::new(
        vec![team("A", 4), team("A", 5)],
        TeamScoring::default(),
        BoardColours::Same,
    );
    assert_eq!(err.unwrap_err().to_string(), "two teams are called \"A\"");
    let _ = WhiteWins;
}
