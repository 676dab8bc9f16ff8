//! One rule at a time: the hand-made cases of `data/burstein/` (their README), each paired and
//! compared with the pairing worked out by hand, and the Index (C.04.4.2 1.7) and the seeding
//! rounds (1.6.2) on worked examples.

mod swiss_support;

use std::path::Path;

use rookery_tournament::burstein::{self, OppositionIndex};
use rookery_tournament::{trf, ResultCode, RoundEntry, Score};

fn case(name: &str) -> rookery_tournament::Tournament {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/burstein").join(name);
    trf::read(&std::fs::read_to_string(path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_case_pairs_as_worked_out_by_hand() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/burstein");
    swiss_support::assert_hand_worked_cases(&dir, burstein::pair, 2);
}

#[test]
fn the_index_of_the_worked_example() {
    let t = case("index-and-colours.trf");
    let index = burstein::opposition_index(&t, 3);
    let at = |n: usize| index[n - 1];
    let expect = |buchholz: u32, sb: u64| OppositionIndex {
        buchholz: Score::from_tenths(buchholz),
        sonneborn_berger: sb,
    };
    assert_eq!(at(1), expect(20, 125));
    assert_eq!(at(3), expect(20, 125));
    assert_eq!(at(4), expect(25, 175));
    assert_eq!(at(8), expect(15, 75));
    assert!(at(4).cmp_rank(&at(1)).is_gt() && at(1).cmp_rank(&at(8)).is_gt());
}

/// 1.7.2: an unplayed round is a game against oneself; a series of zero-point byes up to the
/// current round counts as draws for the opponents.
#[test]
fn unplayed_rounds_in_the_index() {
    // Round 1: 1 beats 2, 3 has the PAB. Round 2: 2 is absent, 1 and 3 draw.
    let text = "012 Unplayed rounds\r\
XXR 5\r\
001    1      Alpha, Anna                       2100                             1.5    1     2 w 1     3 b =\r\
001    2      Beta, Bert                        2000                             0.0    3     1 b 0  0000 - Z\r\
001    3      Gamma, Gina                       1900                             1.5    2  0000 - U     1 w =\r";
    let t = trf::read(text).unwrap();
    let index = burstein::opposition_index(&t, 3);
    // 1: 2 seen with a draw for the absence (0 + ½), 3 on 1½.
    assert_eq!(
        index[0],
        OppositionIndex { buchholz: Score(20), sonneborn_berger: 10 * 5 + 5 * 15 }
    );
    // 2: 1 on 1½, then the absence against itself on 0.
    assert_eq!(index[1], OppositionIndex { buchholz: Score(15), sonneborn_berger: 0 });
    // 3: the PAB against itself on 1½ (1 point), then 1 on 1½ (a draw).
    assert_eq!(
        index[2],
        OppositionIndex { buchholz: Score(30), sonneborn_berger: 10 * 15 + 5 * 15 }
    );
    // Round 3: 2 takes a half-point bye, which ends his series; 1 and 3 are absent. For 1:
    // 2 on ½ (no draw added), 3 on 1½ + ½ (absent in the latest round), and his own absence
    // on his own 1½.
    let mut later = t.clone();
    let round3 = [
        (1, ResultCode::HalfPointBye),
        (0, ResultCode::ZeroPointBye),
        (2, ResultCode::ZeroPointBye),
    ];
    for (player, code) in round3 {
        later.players[player].rounds.push(RoundEntry::bye(code));
    }
    assert_eq!(burstein::opposition_index(&later, 4)[0].buchholz, Score(5 + 20 + 15));
}

#[test]
fn seeding_rounds_are_half_the_rounds_at_most_four() {
    let table = [(1, 0), (2, 1), (3, 1), (5, 2), (7, 3), (8, 4), (9, 4), (11, 4), (15, 4)];
    for (rounds, seeding) in table {
        assert_eq!(burstein::seeding_rounds(rounds), seeding, "{rounds} rounds");
    }
    // A seeding round is the Dutch system's (1.6.1).
    let t = case("index-and-colours.trf");
    for round in [1, 2] {
        let before = t.before_round(round);
        assert_eq!(burstein::pair(&before, round), rookery_tournament::dutch::pair(&before, round));
    }
}
