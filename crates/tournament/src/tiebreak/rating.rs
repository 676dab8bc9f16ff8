//! The rating-based tie-breaks (C.07 Article 10) and the two FIDE rating tables they use
//! (Handbook B.02, FIDE Rating Regulations, 8.1a and 8.1b).

use crate::Outcome;

use super::rounds::{Context, Record};
use super::{Modifier, Value};

/// Table 8.1a of the FIDE Rating Regulations: the rating difference `dp` for a fractional
/// score `p` of 0.50 to 1.00, in hundredths from 50; scores below 0.50 take the negated
/// difference of `1 - p`.
const DP: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// Table 8.1b: the expected score `PD` of the higher rated player for a rating difference `D`,
/// as the last `D` of each band with its `PD` in hundredths; past 735 points `PD` is 1.00.
const PD_BANDS: [(u32, u32); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];

/// `dp` for a fractional score in hundredths (0 to 100), table 8.1a.
pub(crate) fn rating_difference(p: u32) -> i32 {
    let p = p.min(100) as i32;
    if p >= 50 {
        DP[(p - 50) as usize]
    } else {
        -DP[(50 - p) as usize]
    }
}

/// The expected score, in hundredths, of a player rated `difference` points above the
/// opponent (negative: below), table 8.1b.
pub(crate) fn expected_score(difference: i32) -> u32 {
    let d = difference.unsigned_abs();
    let pd = PD_BANDS.iter().find(|&&(last, _)| d <= last).map_or(100, |&(_, pd)| pd);
    if difference >= 0 {
        pd
    } else {
        100 - pd
    }
}

/// The opponents' ratings and the points (in tenths, 1 / ½ / 0 whatever the tournament's
/// scoring: Article 10 rates games) of every game played over the board; `None` when the
/// rating-based tie-breaks are dropped.
fn rated_games(record: &Record, context: &Context) -> Option<Vec<(i32, u32)>> {
    let ratings = context.ratings.as_ref()?;
    let games = record
        .rounds
        .iter()
        .filter(|r| r.played)
        .filter_map(|r| {
            let points = match r.code.outcome() {
                Outcome::Win => 10,
                Outcome::Draw => 5,
                Outcome::Loss => 0,
            };
            Some((ratings[r.opponent?], points))
        })
        .collect();
    Some(games)
}

/// The mean rounded to the nearest integer, 0.5 up (10.1).
fn mean_half_up(values: &[i32]) -> Option<i32> {
    let n = i64::try_from(values.len()).ok().filter(|&n| n > 0)?;
    let sum: i64 = values.iter().map(|&v| i64::from(v)).sum();
    Some(i32::try_from((2 * sum + n).div_euclid(2 * n)).expect("a mean of ratings fits"))
}

/// `ARO` (10.1): the average rating of the opponents played over the board, rounded to the
/// nearest integer (0.5 up); `ARO-C1` leaves out the lowest rating (14.1.1).
pub(crate) fn average_rating_of_opponents(
    record: &Record,
    modifier: Modifier,
    context: &Context,
) -> Value {
    let Some(games) = rated_games(record, context) else { return Value::Undefined };
    let mut ratings: Vec<i32> = games.iter().map(|&(rating, _)| rating).collect();
    ratings.sort_unstable();
    let (cut, _) = modifier.cuts();
    ratings.drain(..cut.min(ratings.len()));
    mean_half_up(&ratings).map_or(Value::Undefined, Value::Rating)
}

/// `TPR` (10.2): the rounded ARO plus the difference `dp` of table 8.1a for the fractional
/// score over the games played over the board, rounded to hundredths (0.005 up).
pub(crate) fn performance_rating(record: &Record, context: &Context) -> Value {
    let Some(games) = rated_games(record, context) else { return Value::Undefined };
    let ratings: Vec<i32> = games.iter().map(|&(rating, _)| rating).collect();
    let Some(aro) = mean_half_up(&ratings) else { return Value::Undefined };
    let n = games.len() as u32;
    let tenths: u32 = games.iter().map(|&(_, points)| points).sum();
    let p = (20 * tenths + n).div_euclid(2 * n);
    Value::Rating(aro + rating_difference(p))
}

/// `PTP` (10.3): the lowest rating whose expected score (table 8.1b) against the opponents
/// played over the board reaches the points scored in those games. A zero score gives the
/// lowest opponent's rating less 800.
pub(crate) fn perfect_performance(record: &Record, context: &Context) -> Value {
    let Some(games) = rated_games(record, context) else { return Value::Undefined };
    let (Some(lowest), Some(highest)) =
        (games.iter().map(|g| g.0).min(), games.iter().map(|g| g.0).max())
    else {
        return Value::Undefined;
    };
    let target: u32 = games.iter().map(|&(_, points)| 10 * points).sum();
    let expected = |rating: i32| -> u32 {
        games.iter().map(|&(opponent, _)| expected_score(rating - opponent)).sum()
    };
    // The expected score never falls as the rating rises: search the lowest rating that
    // reaches the target between 800 below the lowest and 800 above the highest opponent,
    // where it is 0 and the number of games.
    let (mut low, mut high) = (lowest - 800, highest + 800);
    if expected(low) >= target {
        return Value::Rating(low);
    }
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if expected(middle) >= target {
            high = middle;
        } else {
            low = middle;
        }
    }
    Value::Rating(high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_b02_8_1() {
        assert_eq!(rating_difference(100), 800);
        assert_eq!(rating_difference(83), 273);
        assert_eq!(rating_difference(50), 0);
        assert_eq!(rating_difference(17), -273);
        assert_eq!(rating_difference(0), -800);
        assert_eq!(expected_score(0), 50);
        assert_eq!(expected_score(3), 50);
        assert_eq!(expected_score(4), 51);
        assert_eq!(expected_score(735), 99);
        assert_eq!(expected_score(736), 100);
        assert_eq!(expected_score(-400), 8);
        // The table is monotone and symmetric.
        for d in -900..900 {
            assert!(expected_score(d) <= expected_score(d + 1), "{d}");
            assert_eq!(expected_score(d) + expected_score(-d), 100, "{d}");
        }
        for p in 0..100 {
            assert!(rating_difference(p) < rating_difference(p + 1), "{p}");
        }
    }

    #[test]
    fn means_round_half_up() {
        assert_eq!(mean_half_up(&[2000, 2001]), Some(2001));
        assert_eq!(mean_half_up(&[2000, 2000, 2001]), Some(2000));
        assert_eq!(mean_half_up(&[]), None);
    }
}
