//! Pairing the players who are waiting (the order of preferences is in the [parent
//! module](super)'s documentation), as lichess's arena does (lila `modules/tournament/.../
//! arena/PairingSystem.scala`, `AntmaPairing.scala`, `ColorHistory.scala`).
//!
//! Each preference is a band of bits in the edge weight, far enough above the next that no
//! sum of lower terms over a group can outweigh one unit of it; a group has at most
//! [`MAX_GROUP`] players, so that bound holds and the matching stays fast (O(n³) per group).

use rookery_core::Color;

use super::rng::SplitMix64;
use crate::model::PlayerId;

use crate::matching::maximum_weight_matching;

/// The most players matched together; above it the waiting list is cut, by rank, into groups
/// of this size (lila's `maxGroupSize`). Even, so that the groups before the last are even.
pub(super) const MAX_GROUP: usize = 100;

/// The games a group can hold, plus one: the factor between two bands.
const BAND: i64 = (MAX_GROUP / 2 + 1) as i64;
/// Closeness is capped so that its band is bounded.
const CLOSENESS_CAP: i64 = 1 << 30;
const ALTERNATION: i64 = CLOSENESS_CAP * BAND;
const THIRD_IN_A_ROW: i64 = ALTERNATION * BAND;
const GAME: i64 = THIRD_IN_A_ROW * BAND;
// Two bands per game at most, so the weight of one game stays positive and a whole group's
// weight fits in an i64 with room for the matching's dual variables (twice the largest).
const _: () = assert!(GAME > THIRD_IN_A_ROW + ALTERNATION + CLOSENESS_CAP);
const _: () = assert!(GAME.checked_mul(4 * BAND).is_some());

/// A player's recent colours: the signed length of their current run (`+k`: the last `k`
/// games with White, `−k`: with Black) and whites minus blacks over all games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ColourHistory {
    /// The current run: positive for White, negative for Black, 0 before any game.
    pub streak: i32,
    /// Games with White minus games with Black.
    pub balance: i32,
}

impl ColourHistory {
    /// The history after one more game with `colour`.
    pub fn push(self, colour: Color) -> ColourHistory {
        match colour {
            Color::White => {
                ColourHistory { streak: self.streak.max(0) + 1, balance: self.balance + 1 }
            }
            Color::Black => {
                ColourHistory { streak: self.streak.min(0) - 1, balance: self.balance - 1 }
            }
        }
    }

    /// The colour the player should have next to alternate, if any.
    pub fn due(self) -> Option<Color> {
        match self.streak {
            0 => None,
            s if s > 0 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }
}

/// A waiting player as pairing sees them.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub player: PlayerId,
    /// Rank in the standings, from 1.
    pub rank: u32,
    pub rating: u16,
    pub colours: ColourHistory,
    pub last_opponent: Option<PlayerId>,
    /// When the player last became free (joined, or finished a game).
    pub free_since: u64,
}

/// Pairs `candidates` (in rank order) and returns the games, (White, Black), best-ranked
/// board first. `rematch_allowed`: the candidates are the only players left in the arena.
pub(super) fn pair(
    candidates: &[Candidate],
    rematch_allowed: bool,
    rng: &mut SplitMix64,
) -> Vec<(PlayerId, PlayerId)> {
    if candidates.len() < 2 {
        return Vec::new();
    }
    // An odd number: leave out whoever became free last (lila `WaitingUsers.evenNumber`):
    // they have waited least, and the next player to finish will give them a game. Unless
    // that leaves nobody pairable.
    let mut pairs = Vec::new();
    if candidates.len() % 2 == 1 {
        let last = (0..candidates.len())
            .max_by_key(|&i| (candidates[i].free_since, candidates[i].rank))
            .expect("not empty");
        let rest: Vec<Candidate> = candidates
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != last)
            .map(|(_, c)| c.clone())
            .collect();
        pairs = pair_groups(&rest, rematch_allowed);
    }
    if pairs.is_empty() {
        pairs = pair_groups(candidates, rematch_allowed);
    }
    pairs.sort_by_key(|(a, b)| a.rank.min(b.rank));
    pairs.iter().map(|(a, b)| allocate_colours(a, b, rng)).collect()
}

fn pair_groups(candidates: &[Candidate], rematch_allowed: bool) -> Vec<(Candidate, Candidate)> {
    let max_rank = candidates.iter().map(|c| c.rank).max().unwrap_or(1).max(1);
    candidates
        .chunks(MAX_GROUP)
        .flat_map(|group| {
            let mut edges = Vec::new();
            for (i, a) in group.iter().enumerate() {
                for (j, b) in group.iter().enumerate().skip(i + 1) {
                    if let Some(w) = weight(a, b, max_rank, rematch_allowed) {
                        edges.push((i, j, w));
                    }
                }
            }
            let mates = maximum_weight_matching(group.len(), &edges);
            mates
                .iter()
                .enumerate()
                .filter_map(|(i, mate)| {
                    mate.filter(|&j| i < j).map(|j| (group[i].clone(), group[j].clone()))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The weight of pairing `a` with `b`, or `None` when they must not meet.
pub(super) fn weight(
    a: &Candidate,
    b: &Candidate,
    max_rank: u32,
    rematch_allowed: bool,
) -> Option<i64> {
    let rematch = a.last_opponent == Some(b.player) || b.last_opponent == Some(a.player);
    if rematch && !rematch_allowed {
        return None;
    }
    let (sa, sb) = (a.colours.streak, b.colours.streak);
    // Both on 3+ of one colour: one of them would get a fourth.
    if (sa >= 3 && sb >= 3) || (sa <= -3 && sb <= -3) {
        return None;
    }
    let third = (sa >= 2 && sb >= 2) || (sa <= -2 && sb <= -2);
    let same_last = sa.signum() * sb.signum() > 0;
    let rank_gap = i64::from(a.rank.abs_diff(b.rank));
    let best_rank = a.rank.min(b.rank);
    let factor = 300 + 1700 * i64::from(max_rank.saturating_sub(best_rank)) / i64::from(max_rank);
    let rating_gap = i64::from(a.rating.abs_diff(b.rating));
    let closeness = (rank_gap * factor + rating_gap).min(CLOSENESS_CAP - 1);
    Some(GAME - THIRD_IN_A_ROW * i64::from(third) - ALTERNATION * i64::from(same_last) - closeness)
}

/// White to the one whose colours call for it more (lila `ColorHistory.firstGetsWhite`):
/// the shorter White run (or longer Black run), then the lower balance, then a coin.
fn allocate_colours(a: &Candidate, b: &Candidate, rng: &mut SplitMix64) -> (PlayerId, PlayerId) {
    let key = |c: &Candidate| (c.colours.streak, c.colours.balance);
    let a_white = match key(a).cmp(&key(b)) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => rng.coin(),
    };
    if a_white {
        (a.player, b.player)
    } else {
        (b.player, a.player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn candidate(n: u32, streak: i32, last: Option<u32>) -> Candidate {
        Candidate {
            player: PlayerId::new(n).unwrap(),
            rank: n,
            rating: 1500,
            colours: ColourHistory { streak, balance: streak },
            last_opponent: last.and_then(PlayerId::new),
            free_since: 0,
        }
    }

    #[test]
    fn the_colour_history_counts_runs() {
        let h = ColourHistory::default().push(Color::White).push(Color::White);
        assert_eq!(h, ColourHistory { streak: 2, balance: 2 });
        assert_eq!(h.push(Color::Black), ColourHistory { streak: -1, balance: 1 });
        assert_eq!(h.due(), Some(Color::Black));
    }

    #[test]
    fn the_one_with_more_whites_gets_black() {
        let mut rng = SplitMix64::new(1);
        let (a, b) = (candidate(1, 2, None), candidate(2, -1, None));
        assert_eq!(allocate_colours(&a, &b, &mut rng), (b.player, a.player));
    }

    /// The lexicographic objective by exhaustive search: (games, −thirds, −same-last,
    /// −closeness), over matchings that respect the hard rules.
    fn best_objective(c: &[Candidate], rematch: bool) -> i64 {
        fn go(free: u32, c: &[Candidate], rematch: bool, max_rank: u32) -> i64 {
            let Some(i) = (0..c.len()).find(|&i| free & (1 << i) != 0) else { return 0 };
            let rest = free & !(1 << i);
            let mut best = go(rest, c, rematch, max_rank);
            for j in 0..c.len() {
                if rest & (1 << j) != 0 {
                    if let Some(w) = weight(&c[i], &c[j], max_rank, rematch) {
                        best = best.max(w + go(rest & !(1 << j), c, rematch, max_rank));
                    }
                }
            }
            best
        }
        let max_rank = c.iter().map(|c| c.rank).max().unwrap();
        go((1 << c.len()) - 1, c, rematch, max_rank)
    }

    fn candidates() -> impl Strategy<Value = Vec<Candidate>> {
        (2usize..=10).prop_flat_map(|n| {
            prop::collection::vec((-3i32..=3, prop::option::of(1u32..=10), 1000u16..2200), n)
                .prop_map(move |specs| {
                    specs
                        .into_iter()
                        .enumerate()
                        .map(|(i, (streak, last, rating))| Candidate {
                            rating,
                            ..candidate(i as u32 + 1, streak, last.filter(|&l| l != i as u32 + 1))
                        })
                        .collect()
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_pairing_is_optimal_and_keeps_the_hard_rules(c in candidates()) {
            let mut rng = SplitMix64::new(7);
            let games = pair_groups(&c, false);
            let max_rank = c.iter().map(|c| c.rank).max().unwrap();
            let total: i64 = games
                .iter()
                .map(|(a, b)| weight(a, b, max_rank, false).expect("only allowed pairs"))
                .sum();
            prop_assert_eq!(total, best_objective(&c, false));
            for (a, b) in &games {
                prop_assert!(a.last_opponent != Some(b.player) && b.last_opponent != Some(a.player));
                let (white, black) = allocate_colours(a, b, &mut rng);
                // Whoever is due a colour by a run of two gets it unless both are.
                for (who, got) in [(white, Color::White), (black, Color::Black)] {
                    let c = if a.player == who { a } else { b };
                    let other = if a.player == who { b } else { a };
                    if c.colours.streak.abs() >= 2 && c.colours.due() != Some(got) {
                        prop_assert_eq!(other.colours.due(), c.colours.due());
                    }
                }
            }
        }
    }
}
