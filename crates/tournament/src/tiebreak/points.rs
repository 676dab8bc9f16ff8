//! The tie-breaks computed from points: the player's own results (C.07 Article 7) and the
//! strength of the opposition, Buchholz (8.1) and Sonneborn-Berger (9.1), with the Cut and
//! Median modifiers (Article 14) and the cut exception for voluntary unplayed rounds (16.5).

use rookery_core::Color;

use crate::{Outcome, Score};

use super::rounds::{Context, Record, Round};
use super::{Modifier, Value};

fn count(record: &Record, keep: impl Fn(&Round) -> bool) -> Value {
    let n = record.rounds.iter().filter(|r| keep(r)).count();
    Value::Count(u32::try_from(n).expect("rounds fit in u32"))
}

/// `WIN` (7.1): the rounds in which the player got, with or without playing, as many points
/// as a win gives — so forfeit wins and byes worth a win count.
pub(crate) fn wins(record: &Record, context: &Context) -> Value {
    count(record, |r| r.points == context.scoring.win)
}

/// `WON` (7.2): the games won over the board.
pub(crate) fn games_won(record: &Record) -> Value {
    count(record, |r| r.played && r.code.outcome() == Outcome::Win)
}

/// `BPG` (7.3): the games played over the board with Black; forfeits are not games played.
pub(crate) fn games_with_black(record: &Record) -> Value {
    count(record, |r| r.played && r.colour == Some(Color::Black))
}

/// `BWG` (7.4): the games won over the board with Black.
pub(crate) fn wins_with_black(record: &Record) -> Value {
    count(record, |r| {
        r.played && r.colour == Some(Color::Black) && r.code.outcome() == Outcome::Win
    })
}

/// `REP` (7.6): the rounds less the voluntary unplayed ones (half- and zero-point byes,
/// absences, forfeit losses); a pairing-allocated bye or a forfeit win was not the player's
/// choice and counts.
pub(crate) fn rounds_elected_to_play(record: &Record) -> Value {
    count(record, |r| !r.voluntary)
}

/// `PS` (7.5): the sum of the running scores after each round; `PS-C1` leaves out the score
/// after the first round (14.1.1).
pub(crate) fn progressive_scores(record: &Record, modifier: Modifier) -> Value {
    let (cut, _) = modifier.cuts();
    let mut running = 0u64;
    let mut sum = 0u64;
    for (i, round) in record.rounds.iter().enumerate() {
        running += u64::from(round.points.tenths());
        if i >= cut {
            sum += running;
        }
    }
    Value::Tenths(sum)
}

/// What one round adds to a Buchholz or Sonneborn-Berger sum.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Contribution {
    /// The opponent's adjusted score (16.3), or the dummy's score for an unplayed round
    /// (16.4): what decides which value is least significant.
    score: Score,
    /// What it adds: the score in tenths (Buchholz), or the score times the points the player
    /// got that round, in hundredths (Sonneborn-Berger).
    value: u64,
    /// Whether the round was a voluntary unplayed round (16.5).
    voluntary: bool,
}

/// One contribution per round counted: a played game brings the opponent's adjusted score,
/// any unplayed round (forfeits included) the dummy's (16.4).
fn contributions(
    records: &[Record],
    index: usize,
    context: &Context,
    times_points: bool,
) -> Vec<Contribution> {
    let record = &records[index];
    record
        .rounds
        .iter()
        .map(|round| {
            let score = match round.opponent {
                Some(opponent) if round.played => records[opponent].adjusted,
                _ => record.dummy_score(round, records, context),
            };
            let value = u64::from(score.tenths())
                * if times_points { u64::from(round.points.tenths()) } else { 1 };
            Contribution { score, value, voluntary: round.voluntary }
        })
        .collect()
}

/// The sum of the contributions left after the modifier's cuts.
///
/// Each low cut takes the least significant contribution — the lowest score, then the lowest
/// value (14.1.1) — unless the player has voluntary unplayed rounds: then the lowest of those
/// is cut instead, when it is not below the least significant one (16.5.1); the rule is
/// applied again for every further cut (16.5.2). Median modifiers then take the most
/// significant contributions (14.3, 14.4), with no exception. A modifier never cuts more
/// values than there are.
fn sum_after_cuts(mut list: Vec<Contribution>, modifier: Modifier) -> u64 {
    let (low, high) = modifier.cuts();
    let low = low.min(list.len());
    let high = high.min(list.len() - low);
    for _ in 0..low {
        let least = position_min(&list, |c| (c.score, c.value));
        let voluntary = list
            .iter()
            .enumerate()
            .filter(|(_, c)| c.voluntary)
            .min_by_key(|(i, c)| (c.value, c.score, *i))
            .map(|(i, _)| i);
        let cut = match (least, voluntary) {
            (Some(least), Some(v)) if list[v].value >= list[least].value => v,
            (least, _) => least.expect("a cut is only made while values are left"),
        };
        list.remove(cut);
    }
    for _ in 0..high {
        let most = list
            .iter()
            .enumerate()
            .max_by_key(|(i, c)| (c.score, c.value, std::cmp::Reverse(*i)))
            .map(|(i, _)| i)
            .expect("a cut is only made while values are left");
        list.remove(most);
    }
    list.iter().map(|c| c.value).sum()
}

/// The index of the first smallest element by `key`.
fn position_min<K: Ord>(list: &[Contribution], key: impl Fn(&Contribution) -> K) -> Option<usize> {
    list.iter().enumerate().min_by_key(|(i, c)| (key(c), *i)).map(|(i, _)| i)
}

/// `BH` and its modified forms (8.1, 14).
pub(crate) fn buchholz(
    records: &[Record],
    index: usize,
    modifier: Modifier,
    context: &Context,
) -> Value {
    Value::Tenths(sum_after_cuts(contributions(records, index, context, false), modifier))
}

/// `SB` and `SB-C1` (9.1, 14.1.1).
pub(crate) fn sonneborn_berger(
    records: &[Record],
    index: usize,
    modifier: Modifier,
    context: &Context,
) -> Value {
    Value::Hundredths(sum_after_cuts(contributions(records, index, context, true), modifier))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(score: u32, voluntary: bool) -> Contribution {
        Contribution { score: Score(score), value: u64::from(score), voluntary }
    }

    #[test]
    fn the_lowest_voluntary_round_is_cut_first_when_not_below_the_least() {
        // C.07 2026 worked example (Laxman): the voluntary round's dummy (5.0) is cut rather
        // than the least significant opponent (4.5).
        let list = vec![c(50, false), c(45, false), c(50, true), c(65, false)];
        assert_eq!(sum_after_cuts(list, Modifier::Cut(1)), 45 + 50 + 65);
        // Without a voluntary round the least significant goes.
        let list = vec![c(50, false), c(45, false), c(50, false)];
        assert_eq!(sum_after_cuts(list, Modifier::Cut(1)), 100);
    }

    #[test]
    fn cuts_never_take_more_than_there_is() {
        let list = vec![c(10, false), c(20, false)];
        assert_eq!(sum_after_cuts(list.clone(), Modifier::Median(2)), 0);
        assert_eq!(sum_after_cuts(list, Modifier::Cut(2)), 0);
        assert_eq!(sum_after_cuts(Vec::new(), Modifier::Cut(1)), 0);
    }

    #[test]
    fn median_cuts_the_least_then_the_most() {
        let list = vec![c(10, false), c(30, false), c(20, false), c(40, false)];
        assert_eq!(sum_after_cuts(list, Modifier::Median(1)), 50);
    }
}
