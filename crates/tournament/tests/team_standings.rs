//! Team standings and the board prize table (issue 54), on small competitions computed by
//! hand: match and game points, team Sonneborn–Berger, Buchholz (with the bye's dummy under
//! the 2024 and 2026 texts of C.07 Art. 16.4) and direct encounter.

mod team_support;

use rookery_tournament::team::board_prizes::board_prizes;
use rookery_tournament::team::round_robin;
use rookery_tournament::team::standings::{standings, Hundredths, TeamTiebreak};
use rookery_tournament::team::{
    BoardColours, BoardResult, LineUp, Team, TeamCompetition, TeamMatch, TeamPlayer, TeamRound,
    TeamScoring,
};
use rookery_tournament::{Regulations, Score};
use team_support::{competition, play, results};

/// Four teams, a single round robin: rounds 1-4 2-3, 4-3 1-2, 2-4 3-1. Game points of the
/// team named first: 1-4 3-1, 2-3 2-2, 4-3 2½-1½, 1-2 1-3, 2-4 2-2, 3-1 1½-2½.
///
/// | team | MP | GP  | SB (opp. MP × own GP)       | BH (opp. MP) |
/// |------|----|-----|-----------------------------|--------------|
/// | 1    | 4  | 6½  | 3×3 + 4×1 + 1×2½ = 15½      | 3+4+1 = 8    |
/// | 2    | 4  | 7   | 1×2 + 4×3 + 3×2 = 20        | 1+4+3 = 8    |
/// | 3    | 1  | 5   | 4×2 + 3×1½ + 4×1½ = 18½     | 4+3+4 = 11   |
/// | 4    | 3  | 5½  | 4×1 + 1×2½ + 4×2 = 14½      | 4+1+4 = 9    |
fn four_teams() -> TeamCompetition {
    let mut c = competition(4, TeamScoring::default());
    let lines = [[(3, 0), (2, 0)], [(2, 1), (1, 0)], [(2, 0), (1, 1)]];
    for (r, line) in lines.iter().enumerate() {
        let pairing = round_robin::round(4, Default::default(), r as u32 + 1).unwrap();
        let mut game = line.iter();
        play(&mut c, &pairing, |_, _| {
            let &(wins, draws) = game.next().unwrap();
            results(wins, draws)
        });
    }
    c
}

fn h(points: f64) -> Hundredths {
    Hundredths((points * 100.0).round() as u64)
}

#[test]
fn the_values_are_as_computed_by_hand() {
    let c = four_teams();
    use TeamTiebreak::*;
    let table =
        standings(&c, &[MatchPoints, GamePoints, SonnebornBerger, Buchholz], Regulations::C07_2026);
    let by_team = |n: u32| table.iter().find(|s| s.team.get() == n).unwrap();
    let expected = [
        (1, [4.0, 6.5, 15.5, 8.0]),
        (2, [4.0, 7.0, 20.0, 8.0]),
        (3, [1.0, 5.0, 18.5, 11.0]),
        (4, [3.0, 5.5, 14.5, 9.0]),
    ];
    for (team, values) in expected {
        let got = &by_team(team).tiebreaks;
        assert_eq!(got, &values.map(h).to_vec(), "team {team}");
    }
    assert_eq!(by_team(1).total.game_points, Score(65));
    assert_eq!(h(15.5).to_string(), "15.5");
    assert_eq!(Hundredths(1225).to_string(), "12.25");
}

fn order(c: &TeamCompetition, tiebreaks: &[TeamTiebreak]) -> Vec<(usize, u32)> {
    standings(c, tiebreaks, Regulations::C07_2026).iter().map(|s| (s.rank, s.team.get())).collect()
}

#[test]
fn tie_breaks_rank_in_the_order_given() {
    let c = four_teams();
    use TeamTiebreak::*;
    // 1 and 2 tie on 4 MP. Direct encounter: 2 beat 1.
    assert_eq!(order(&c, &[DirectEncounter, GamePoints]), [(1, 2), (2, 1), (3, 4), (4, 3)]);
    // Game points: 7 against 6½.
    assert_eq!(order(&c, &[GamePoints]), [(1, 2), (2, 1), (3, 4), (4, 3)]);
    // Buchholz ties them (8 each) and leaves them sharing the rank; SB then splits them.
    assert_eq!(order(&c, &[Buchholz]), [(1, 1), (1, 2), (3, 4), (4, 3)]);
    assert_eq!(order(&c, &[Buchholz, SonnebornBerger]), [(1, 2), (2, 1), (3, 4), (4, 3)]);
}

#[test]
fn a_bye_counts_as_a_dummy_opponent_capped_in_2026() {
    // Three teams: 2-3 4-0, 1-2 2-2, 3-1 0-4; each has one bye (2 MP). MP: 1 and 2 five, 3 two.
    let mut c = competition(3, TeamScoring::default());
    for (r, (wins, draws)) in [(4, 0), (2, 0), (0, 0)].into_iter().enumerate() {
        let pairing = round_robin::round(3, Default::default(), r as u32 + 1).unwrap();
        play(&mut c, &pairing, |_, _| results(wins, draws));
    }
    let totals = c.totals();
    assert_eq!(totals.iter().map(|t| t.match_points.0).collect::<Vec<_>>(), [50, 50, 20]);
    let bh = |regulations| {
        standings(&c, &[TeamTiebreak::Buchholz], regulations)
            .iter()
            .map(|s| (s.team.get(), s.tiebreaks[0]))
            .collect::<Vec<_>>()
    };
    // 2024: the dummy has the team's own 5 MP: 5 + 5 + 2 = 12 for team 1. 2026: no more than
    // a draw's 1 MP times 3 rounds: 3 + 5 + 2 = 10. Team 3's own 2 is under the cap: 12 both.
    let v2024 = bh(Regulations::C07_2024);
    let v2026 = bh(Regulations::C07_2026);
    assert!(v2024.contains(&(1, h(12.0))) && v2024.contains(&(3, h(12.0))), "{v2024:?}");
    assert!(v2026.contains(&(1, h(10.0))) && v2026.contains(&(3, h(12.0))), "{v2026:?}");
}

#[test]
fn the_board_prize_table_counts_games_played_on_each_board() {
    use BoardResult::*;
    let roster = |t: &str| (1..=5).map(|p| TeamPlayer::new(format!("{t}{p}"), None)).collect();
    let a = Team::new("A", None, 4, roster("A")).unwrap();
    let b = Team::new("B", None, 4, roster("B")).unwrap();
    let mut c = TeamCompetition::new(
        vec![a.clone(), b.clone()],
        TeamScoring::default(),
        BoardColours::Alternating,
    )
    .unwrap();
    let id = |n| rookery_tournament::team::TeamId::new(n).unwrap();
    // Round 1, A White on board 1: A1 beats B1, A2-B2 drawn, B3 beats A3, A4-B4 drawn.
    let r1 = TeamMatch {
        white: id(1),
        black: id(2),
        white_line_up: a.regular_line_up(),
        black_line_up: b.regular_line_up(),
        results: vec![WhiteWins, Draw, BlackWins, Draw],
    };
    // Round 2, B White on board 1, A's reserve A5 on board 4: B1-A1 drawn, A2 (White) beats
    // B2, board 3 a forfeit (not counted), B4 beats A5.
    let r2 = TeamMatch {
        white: id(2),
        black: id(1),
        white_line_up: b.regular_line_up(),
        black_line_up: LineUp::new(&a, &[0, 1, 2, 4]).unwrap(),
        results: vec![Draw, WhiteWins, WhiteWinsByForfeit, BlackWins],
    };
    for m in [r1, r2] {
        c.add_round(TeamRound { matches: vec![m], ..Default::default() }).unwrap();
    }
    let table = board_prizes(&c, 2);
    let line = |board: usize| {
        table[board - 1]
            .iter()
            .map(|r| format!("{} {}/{} {}", r.name, r.points, r.games, r.per_mille()))
            .collect::<Vec<_>>()
    };
    assert_eq!(line(1), ["A1 1.5/2 750", "B1 0.5/2 250"]);
    assert_eq!(line(2), ["A2 1.5/2 750", "B2 0.5/2 250"]);
    assert_eq!(line(3), ["B3 1.0/1 1000", "A3 0.0/1 0"]);
    // Two games needed: B4 first; A4 (50 %, one game) and A5 after, by percentage.
    assert_eq!(line(4), ["B4 1.5/2 750", "A4 0.5/1 500", "A5 0.0/1 0"]);
    assert!(table[3][0].eligible && !table[3][1].eligible);
}
