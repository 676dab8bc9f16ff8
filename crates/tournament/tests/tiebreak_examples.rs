//! The worked examples of unplayed rounds annexed to FIDE C.07 (March 2026 text; printed in
//! the FIDE Arbiters' Manual 2026, pp. 258–261), each with the values of the old (1 August 2024)
//! and the new text, and small cases of Article 16 built by hand.
//!
//! The examples give one player's rounds and each opponent's final score; the tournament is
//! built around them: every opponent plays its other rounds against a filler player of its
//! own, over the board, so that its adjusted score (16.3) is its final score.

use rookery_core::Color;
use rookery_tournament::tiebreak::Value;
use rookery_tournament::{
    standings, Player, PlayerId, Regulations, ResultCode, RoundEntry, Tiebreak, Tournament,
};

/// One round of the example's player.
#[derive(Clone, Copy)]
enum Round {
    /// A game played against an opponent who finished on `score` (tenths).
    Game(ResultCode, u32),
    /// A forfeit against an opponent who finished on `score` (tenths).
    Forfeit(ResultCode, u32),
    /// A round without opponent.
    Bye(ResultCode),
}

fn mirror(code: ResultCode) -> ResultCode {
    match code {
        ResultCode::Win => ResultCode::Loss,
        ResultCode::Loss => ResultCode::Win,
        ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
        ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
        other => other,
    }
}

/// Player 1 plays `rounds`; each opponent and its filler are added after.
fn example(rounds: &[Round]) -> Tournament {
    let n = rounds.len();
    let mut players = vec![Player { name: "Example".into(), ..Player::default() }];
    let mut own = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let (code, score) = match *round {
            Round::Bye(code) => {
                own.push(RoundEntry::bye(code));
                continue;
            }
            Round::Game(code, score) | Round::Forfeit(code, score) => (code, score),
        };
        let opponent = players.len();
        let filler = opponent + 1;
        own.push(RoundEntry {
            opponent: PlayerId::new(opponent as u32 + 1),
            colour: Some(Color::White),
            result: code,
        });
        let theirs = mirror(code);
        // What the opponent still has to score over the other rounds, in half points.
        let got = rookery_tournament::Scoring::default().points(theirs).tenths();
        let mut halves = (score - got) / 5;
        let mut opponent_rounds = Vec::new();
        let mut filler_rounds = Vec::new();
        for s in 0..n {
            if s == r {
                opponent_rounds.push(RoundEntry {
                    opponent: PlayerId::new(1),
                    colour: Some(Color::Black),
                    result: theirs,
                });
                filler_rounds.push(RoundEntry::bye(ResultCode::PairingAllocatedBye));
                continue;
            }
            let result = match halves {
                0 => ResultCode::Loss,
                1 => ResultCode::Draw,
                _ => ResultCode::Win,
            };
            halves = halves.saturating_sub(2);
            opponent_rounds.push(RoundEntry {
                opponent: PlayerId::new(filler as u32 + 1),
                colour: Some(Color::White),
                result,
            });
            filler_rounds.push(RoundEntry {
                opponent: PlayerId::new(opponent as u32 + 1),
                colour: Some(Color::Black),
                result: mirror(result),
            });
        }
        assert_eq!(halves, 0, "round {}: an opponent's score must be reachable", r + 1);
        players.push(Player {
            name: format!("Opponent {}", r + 1),
            rounds: opponent_rounds,
            ..Player::default()
        });
        players.push(Player {
            name: format!("Filler {}", r + 1),
            rounds: filler_rounds,
            ..Player::default()
        });
    }
    players[0].rounds = own;
    Tournament { players, ..Tournament::default() }
}

fn value(tournament: &Tournament, code: &str, regulations: Regulations) -> String {
    let tiebreak: Tiebreak = code.parse().unwrap();
    let rounds = tournament.rounds_with_entries();
    let table = standings(tournament, rounds, &[tiebreak], regulations);
    table.value(PlayerId::new(1).unwrap(), tiebreak).unwrap().to_string()
}

fn check(tournament: &Tournament, cases: &[(&str, &str, &str)]) {
    for &(code, old, new) in cases {
        assert_eq!(value(tournament, code, Regulations::C07_2024), old, "{code}, 2024 text");
        assert_eq!(value(tournament, code, Regulations::C07_2026), new, "{code}, 2026 text");
    }
}

use ResultCode::{Draw, ForfeitLoss, Loss, Win, ZeroPointBye};

/// Laxman (1st SOA International Grandmasters 2024), 7/10 with a one-round withdrawal in
/// round 4: a zero-point bye, voluntary, after which he came back (16.2.3). The printed values:
/// BH 57 (dummy on his own 7.0) and 55 (2026: capped at a draw per round, 5.0, by 16.4.2);
/// BH-C1 50 both (16.5.1: the voluntary round's dummy, not below the least significant 4.5,
/// is the one cut); SB 37.25 both (the dummy times 0 points).
#[test]
fn annex_laxman_withdrawal_for_one_round() {
    let laxman = example(&[
        Round::Game(Win, 50),
        Round::Game(Win, 50),
        Round::Game(Loss, 65),
        Round::Bye(ZeroPointBye),
        Round::Game(Win, 45),
        Round::Game(Draw, 60),
        Round::Game(Win, 50),
        Round::Game(Draw, 65),
        Round::Game(Win, 55),
        Round::Game(Win, 60),
    ]);
    check(&laxman, &[("BH", "57.0", "55.0"), ("BH-C1", "50.0", "50.0"), ("SB", "37.25", "37.25")]);
}

/// Example 03: 6.5/10, a forfeit loss in round 9 against a player who finished on 7.5, then a
/// withdrawal (round 10, 16.2.5). Printed BH: 64.5 (both dummies on his own 6.5) and 63 (2026:
/// the forfeit's dummy capped by the scheduled opponent's 7.5 stays 6.5, the withdrawal's is
/// capped at 5.0).
#[test]
fn annex_example_03_forfeit_loss_then_withdrawal() {
    let player = example(&[
        Round::Game(Win, 35),
        Round::Game(Win, 60),
        Round::Game(Win, 65),
        Round::Game(Draw, 75),
        Round::Game(Win, 65),
        Round::Game(Loss, 80),
        Round::Game(Win, 65),
        Round::Game(Win, 70),
        Round::Forfeit(ForfeitLoss, 75),
        Round::Bye(ZeroPointBye),
    ]);
    check(&player, &[("BH", "64.5", "63.0")]);
}

/// A forfeit win against a player who finished low: the 2026 text caps the dummy at the
/// scheduled opponent's adjusted score (16.4.1), the 2024 text does not.
#[test]
fn forfeit_win_dummy_is_capped_by_the_scheduled_opponent_in_2026() {
    let player = example(&[
        Round::Game(Win, 20),
        Round::Forfeit(ResultCode::ForfeitWin, 10),
        Round::Game(Win, 10),
    ]);
    // Own score 3.0; the forfeit's dummy: 3.0 (2024) or the opponent's 1.0 (2026).
    check(
        &player,
        &[("BH", "6.0", "4.0"), ("SB", "6.00", "4.00"), ("WIN", "3", "3"), ("WON", "2", "2")],
    );
}

/// A withdrawn opponent's missing rounds count as draws for the players who met them
/// (16.3.2), whatever the text.
#[test]
fn a_withdrawn_opponent_counts_draws_for_the_rest() {
    let mut tournament = example(&[Round::Game(Win, 0), Round::Game(Win, 10)]);
    // Opponent 1 (index 1) lost both rounds; make it withdraw from round 2 instead.
    tournament.players[1].rounds.truncate(1);
    tournament.players[2].rounds[1] = RoundEntry::bye(ResultCode::PairingAllocatedBye);
    // Its score stays 0, but for BH it has 0 + a draw = 0.5.
    assert_eq!(value(&tournament, "BH", Regulations::C07_2024), "1.5");
    assert_eq!(value(&tournament, "BH", Regulations::C07_2026), "1.5");
}

#[test]
fn unrated_players_drop_the_rating_tie_breaks() {
    let tournament = example(&[Round::Game(Win, 10), Round::Game(Draw, 10)]);
    let table = standings(&tournament, 2, &[Tiebreak::PerformanceRating], Regulations::C07_2026);
    assert!(table.rows.iter().all(|row| row.values[0] == Value::Undefined));
    let mut rated = tournament.clone();
    for (i, p) in rated.players.iter_mut().enumerate() {
        p.rating = Some(2000 + i as u16);
    }
    let table = standings(&rated, 2, &[Tiebreak::PerformanceRating], Regulations::C07_2026);
    assert!(table.rows.iter().all(|row| row.values[0] != Value::Undefined));
}
