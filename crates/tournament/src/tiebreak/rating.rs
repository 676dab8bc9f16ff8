//! The rating-based tie-breaks (C.07 Article 10), over the two FIDE rating tables of
//! [`crate::fide_rating`] (Handbook B.02, FIDE Rating Regulations, 8.1a and 8.1b).

use crate::fide_rating::{expected_score, rating_difference};
use crate::Outcome;

use super::rounds::{Context, Record};
use super::{Modifier, Value};

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
    fn means_round_half_up() {
        assert_eq!(mean_half_up(&[2000, 2001]), Some(2001));
        assert_eq!(mean_half_up(&[2000, 2000, 2001]), Some(2000));
        assert_eq!(mean_half_up(&[]), None);
    }
}
