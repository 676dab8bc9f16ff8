//! Direct encounter (C.07 Article 6): it orders a group of tied players by the points they
//! scored against each other, so it is a ranking step, not a number per player.

use std::cmp::Ordering;

use crate::Score;

use super::rounds::Record;

/// An exact non-negative fraction of tenths of a point.
#[derive(Clone, Copy, Debug)]
struct Fraction {
    numerator: u64,
    denominator: u64,
}

impl Fraction {
    const ZERO: Fraction = Fraction { numerator: 0, denominator: 1 };

    fn add(self, numerator: u64, denominator: u64) -> Fraction {
        let n = self.numerator * denominator + numerator * self.denominator;
        let d = self.denominator * denominator;
        let g = gcd(n, d);
        Fraction { numerator: n / g, denominator: d / g }
    }

    fn cmp(self, other: Fraction) -> Ordering {
        (u128::from(self.numerator) * u128::from(other.denominator))
            .cmp(&(u128::from(other.numerator) * u128::from(self.denominator)))
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// What one tied player scored against the others of the group.
#[derive(Clone, Copy, Debug)]
struct Mini {
    player: usize,
    /// The points scored against the other tied players, a repeated pairing counting its
    /// average (6.1.2).
    points: Fraction,
    /// The most the player could have with a win against every tied player not met.
    most: Fraction,
    /// Whether the player met every other tied player.
    met_all: bool,
}

fn mini_table(records: &[Record], group: &[usize], win: Score) -> Vec<Mini> {
    group
        .iter()
        .map(|&player| {
            // Per opponent in the group: points (tenths) and games.
            let mut against: Vec<(usize, u64, u64)> = Vec::new();
            for round in &records[player].rounds {
                // Only games played over the board count: in a Swiss tournament a forfeit is
                // not an encounter (6.1.1).
                let Some(opponent) = round.opponent.filter(|_| round.played) else { continue };
                if opponent == player || !group.contains(&opponent) {
                    continue;
                }
                let points = u64::from(round.points.tenths());
                match against.iter_mut().find(|(o, _, _)| *o == opponent) {
                    Some(entry) => {
                        entry.1 += points;
                        entry.2 += 1;
                    }
                    None => against.push((opponent, points, 1)),
                }
            }
            let points = against.iter().fold(Fraction::ZERO, |sum, &(_, p, n)| sum.add(p, n));
            let missing = (group.len() - 1 - against.len()) as u64;
            Mini {
                player,
                points,
                most: points.add(missing * u64::from(win.tenths()), 1),
                met_all: missing == 0,
            }
        })
        .collect()
}

/// Splits a group of tied players (given best pairing number first) into ordered subgroups.
///
/// When every tied player met every other, the points among them order them, equal points
/// staying together (6.2). When some did not meet — a Swiss tournament — a player is placed
/// ahead of the rest only if no result of the missing games could catch them: their points
/// exceed what every other player could reach by winning all their missing games (6.3); this
/// repeats down the order until it fails, and the rest stay together.
fn split(records: &[Record], group: &[usize], win: Score) -> Vec<Vec<usize>> {
    let mut table = mini_table(records, group, win);
    // Stable: equal points keep the group's order.
    table.sort_by(|a, b| b.points.cmp(a.points));
    if table.iter().all(|m| m.met_all) {
        let mut tiers: Vec<Vec<usize>> = Vec::new();
        for (i, m) in table.iter().enumerate() {
            match tiers.last_mut() {
                Some(tier) if table[i - 1].points.cmp(m.points) == Ordering::Equal => {
                    tier.push(m.player)
                }
                _ => tiers.push(vec![m.player]),
            }
        }
        return tiers;
    }
    let mut tiers = Vec::new();
    let mut rest = &table[..];
    while rest.len() > 1 {
        let best_of_others =
            rest[1..].iter().map(|m| m.most).max_by(|a, b| a.cmp(*b)).expect("others exist");
        if rest[0].points.cmp(best_of_others) != Ordering::Greater {
            break;
        }
        tiers.push(vec![rest[0].player]);
        rest = &rest[1..];
    }
    tiers.push(rest.iter().map(|m| m.player).collect());
    tiers
}

/// Orders a group of players tied so far by direct encounter, applied again to every
/// subgroup it leaves tied until nothing changes (6.2). Returns the subgroups, best first;
/// each keeps the order it was given in.
pub(crate) fn direct_encounter(records: &[Record], group: &[usize], win: Score) -> Vec<Vec<usize>> {
    if group.len() < 2 {
        return vec![group.to_vec()];
    }
    let tiers = split(records, group, win);
    if tiers.len() == 1 {
        return tiers;
    }
    tiers
        .into_iter()
        .flat_map(|mut tier| {
            // Keep the given order inside a subgroup (pairing numbers, for a stable display).
            tier.sort_by_key(|p| group.iter().position(|g| g == p));
            direct_encounter(records, &tier, win)
        })
        .collect()
}
