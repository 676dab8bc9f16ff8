//! A ladder: results replayed by player name into points (RULES.md §11), win/draw/loss counts
//! and Glicko-2 ratings, and the standings table they make.

use std::collections::HashMap;
use std::error::Error;
use std::fmt;

use crate::{award, Glicko2, Level, PairResult, Points, Rating};

/// One player's record on a [`Ladder`].
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    name: String,
    points: Points,
    wins: u64,
    draws: u64,
    losses: u64,
    rating: Rating,
}

impl Player {
    fn new(name: &str, rating: Rating) -> Player {
        Player { name: name.to_owned(), points: Points::ZERO, wins: 0, draws: 0, losses: 0, rating }
    }

    /// The player's name, exactly as first recorded.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The current §11 points (0 before any game).
    #[must_use]
    pub fn points(&self) -> Points {
        self.points
    }

    /// The level, read from the current points (RULES.md §11).
    #[must_use]
    pub fn level(&self) -> Level {
        Level::of(self.points)
    }

    /// Games played: wins + draws + losses.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Games won.
    #[must_use]
    pub fn wins(&self) -> u64 {
        self.wins
    }

    /// Games drawn.
    #[must_use]
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Games lost.
    #[must_use]
    pub fn losses(&self) -> u64 {
        self.losses
    }

    /// The Glicko-2 rating after the player's last game.
    #[must_use]
    pub fn rating(&self) -> Rating {
        self.rating
    }

    /// Counts a game; `result` has this player as A.
    fn count(&mut self, result: PairResult) {
        match result {
            PairResult::AWins => self.wins += 1,
            PairResult::BWins => self.losses += 1,
            PairResult::Draw => self.draws += 1,
        }
    }
}

/// One row of [`Ladder::standings`]: a rank and the player holding it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct StandingsRow<'a> {
    /// 1 for the most points; players with equal points share a rank, and the next rank skips
    /// accordingly (1, 2, 2, 4).
    pub rank: usize,
    /// The player, with points, level, games, wins, draws, losses and rating.
    pub player: &'a Player,
}

/// Results replayed in order, by player name, into a standings table.
///
/// Each game moves §11 points with [`award`] and updates both Glicko-2 ratings as one rating
/// period ([`Glicko2::rate_game`]). A name not seen before enters with 0 points and the
/// system's initial rating. Names are compared exactly (case and spaces matter).
///
/// ```
/// use rookery_ladder::{PairResult, Ladder};
///
/// let mut ladder = Ladder::new();
/// ladder.record("alice", "bob", PairResult::AWins)?; // equal points: 10
/// // alice (10) beats carol (0): diff 10, so the higher side gains 10 − 10/12.5 = 9.20.
/// ladder.record("carol", "alice", PairResult::BWins)?;
/// let rows = ladder.standings();
/// let table: Vec<_> =
///     rows.iter().map(|r| (r.rank, r.player.name(), r.player.points().to_string())).collect();
/// assert_eq!(table, [(1, "alice", "19.20".into()), (2, "carol", "-9.20".into()), (3, "bob", "-10.00".into())]);
/// assert_eq!((rows[0].player.games(), rows[0].player.wins()), (2, 2));
/// # Ok::<(), rookery_ladder::RecordError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Ladder {
    glicko: Glicko2,
    players: Vec<Player>,
    by_name: HashMap<String, usize>,
}

impl Ladder {
    /// An empty ladder with the default (lichess-like) Glicko-2 system.
    #[must_use]
    pub fn new() -> Ladder {
        Ladder::default()
    }

    /// An empty ladder rating with `glicko`.
    #[must_use]
    pub fn with_glicko(glicko: Glicko2) -> Ladder {
        Ladder { glicko, ..Ladder::default() }
    }

    /// Records one rated game between `white` and `black`; `result` takes White as A.
    /// Returns the points deltas `(white, black)`, as [`award`] computes them.
    ///
    /// # Errors
    ///
    /// [`RecordError::SamePlayer`] when both names are the same, and
    /// [`RecordError::OutOfRange`] when a total would leave the range of [`Points`]. The ladder
    /// is unchanged on error.
    pub fn record(
        &mut self,
        white: &str,
        black: &str,
        result: PairResult,
    ) -> Result<(Points, Points), RecordError> {
        if white == black {
            return Err(RecordError::SamePlayer { name: white.to_owned() });
        }
        let initial = self.glicko.initial();
        let (w, b) = (self.get(white), self.get(black));
        let points_w = w.map_or(Points::ZERO, Player::points);
        let points_b = b.map_or(Points::ZERO, Player::points);
        let rating_w = w.map_or(initial, Player::rating);
        let rating_b = b.map_or(initial, Player::rating);

        let (delta_w, delta_b) = award(points_w, points_b, result);
        let out_of_range = |name: &str| RecordError::OutOfRange { name: name.to_owned() };
        let new_w = points_w.checked_add(delta_w).ok_or_else(|| out_of_range(white))?;
        let new_b = points_b.checked_add(delta_b).ok_or_else(|| out_of_range(black))?;
        let (rating_w, rating_b) = self.glicko.rate_game(rating_w, rating_b, result);

        for (name, points, rating, result) in
            [(white, new_w, rating_w, result), (black, new_b, rating_b, result.swapped())]
        {
            let player = self.entry(name);
            player.points = points;
            player.rating = rating;
            player.count(result);
        }
        Ok((delta_w, delta_b))
    }

    /// The player called `name`, if they have played.
    #[must_use]
    pub fn player(&self, name: &str) -> Option<&Player> {
        self.get(name)
    }

    /// Every player, in order of first appearance.
    pub fn players(&self) -> impl ExactSizeIterator<Item = &Player> + '_ {
        self.players.iter()
    }

    /// The number of players.
    #[must_use]
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether no game has been recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// The Glicko-2 system the ladder rates with.
    #[must_use]
    pub fn glicko(&self) -> &Glicko2 {
        &self.glicko
    }

    /// The standings table: every player, most points first.
    ///
    /// Players with equal points share a rank and are listed by name (byte order); RULES.md §11
    /// sets no tie-break, so none is invented.
    #[must_use]
    pub fn standings(&self) -> Vec<StandingsRow<'_>> {
        let mut sorted: Vec<&Player> = self.players.iter().collect();
        sorted.sort_by(|x, y| y.points.cmp(&x.points).then_with(|| x.name.cmp(&y.name)));
        let mut rows: Vec<StandingsRow<'_>> = Vec::with_capacity(sorted.len());
        for (i, player) in sorted.into_iter().enumerate() {
            let rank = match rows.last() {
                Some(prev) if prev.player.points == player.points => prev.rank,
                _ => i + 1,
            };
            rows.push(StandingsRow { rank, player });
        }
        rows
    }

    fn get(&self, name: &str) -> Option<&Player> {
        self.by_name.get(name).map(|&i| &self.players[i])
    }

    fn entry(&mut self, name: &str) -> &mut Player {
        let i = match self.by_name.get(name) {
            Some(&i) => i,
            None => {
                self.players.push(Player::new(name, self.glicko.initial()));
                self.by_name.insert(name.to_owned(), self.players.len() - 1);
                self.players.len() - 1
            }
        };
        &mut self.players[i]
    }
}

/// The error of [`Ladder::record`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// White and Black are the same player.
    SamePlayer {
        /// The name on both sides.
        name: String,
    },
    /// The player's points would leave the range of [`Points`].
    OutOfRange {
        /// The player whose total would overflow.
        name: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::SamePlayer { name } => {
                write!(f, "player {name:?} is on both sides of the game")
            }
            RecordError::OutOfRange { name } => {
                write!(f, "points of player {name:?} would leave the range of ±{}", Points::MAX)
            }
        }
    }
}

impl Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Points {
        s.parse().unwrap()
    }

    #[test]
    fn replays_points_counts_and_ratings() {
        let mut ladder = Ladder::new();
        assert!(ladder.is_empty());
        assert_eq!(ladder.record("a", "b", PairResult::AWins), Ok((p("10"), p("-10"))));
        // diff 20, b is lower and wins: 10 + 20/10 = 12.
        assert_eq!(ladder.record("a", "b", PairResult::BWins), Ok((p("-12"), p("12"))));
        // a -2, b 2: diff 4 < 10, a draw changes nothing.
        assert_eq!(ladder.record("b", "a", PairResult::Draw), Ok((p("0"), p("0"))));
        let a = ladder.player("a").unwrap();
        assert_eq!((a.points(), a.wins(), a.draws(), a.losses(), a.games()), (p("-2"), 1, 1, 1, 3));
        assert_eq!(a.level(), Level::UNRANKED);
        let b = ladder.player("b").unwrap();
        assert_eq!((b.points(), b.wins(), b.draws(), b.losses()), (p("2"), 1, 1, 1));
        assert!(a.rating().deviation < 350.0 && b.rating().deviation < 350.0);
        assert_eq!(ladder.len(), 2);
        assert_eq!(ladder.players().map(Player::name).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(ladder.player("A"), None);
    }

    #[test]
    fn ratings_follow_glicko2_game_by_game() {
        let glicko = Glicko2::with_tau(0.5).unwrap();
        let mut ladder = Ladder::with_glicko(glicko);
        ladder.record("x", "y", PairResult::AWins).unwrap();
        let (x, y) = glicko.rate_game(glicko.initial(), glicko.initial(), PairResult::AWins);
        assert_eq!(ladder.player("x").unwrap().rating(), x);
        assert_eq!(ladder.player("y").unwrap().rating(), y);
        assert_eq!(ladder.glicko().tau(), 0.5);
    }

    #[test]
    fn ties_share_a_rank() {
        let mut ladder = Ladder::new();
        ladder.record("d", "c", PairResult::AWins).unwrap(); // d 10, c -10
        ladder.record("b", "a", PairResult::AWins).unwrap(); // b 10, a -10
        ladder.record("e", "f", PairResult::Draw).unwrap(); // e 0, f 0
        let rows = ladder.standings();
        let table: Vec<(usize, &str)> = rows.iter().map(|r| (r.rank, r.player.name())).collect();
        assert_eq!(table, [(1, "b"), (1, "d"), (3, "e"), (3, "f"), (5, "a"), (5, "c")]);
    }

    #[test]
    fn errors_leave_the_ladder_unchanged() {
        let mut ladder = Ladder::new();
        let err = ladder.record("a", "a", PairResult::Draw).unwrap_err();
        assert_eq!(err, RecordError::SamePlayer { name: "a".into() });
        assert_eq!(err.to_string(), r#"player "a" is on both sides of the game"#);
        assert!(ladder.is_empty());

        // A player at the top of the range cannot gain the 10 of a close win.
        let mut ladder = Ladder::new();
        for (name, points) in [("top", Points::MAX), ("next", p("9999999999995"))] {
            ladder.entry(name).points = points;
        }
        let before: Vec<Player> = ladder.players().cloned().collect();
        let err = ladder.record("next", "top", PairResult::BWins).unwrap_err();
        assert_eq!(err, RecordError::OutOfRange { name: "top".into() });
        assert!(err.to_string().starts_with(r#"points of player "top" would leave"#), "{err}");
        assert_eq!(ladder.players().cloned().collect::<Vec<_>>(), before);
        // Nor can a newcomer join against it: the higher side's win is worth 0 across 200+.
        assert_eq!(
            ladder.record("top", "new", PairResult::AWins),
            Ok((Points::ZERO, Points::ZERO))
        );
    }

    #[test]
    fn levels_come_from_points() {
        let mut ladder = Ladder::new();
        for _ in 0..10 {
            // The gap widens until the higher side's win is worth 2, then nothing (§11).
            ladder.record("champ", "rookie", PairResult::AWins).unwrap();
            ladder.record("rookie", "champ", PairResult::BWins).unwrap();
        }
        let champ = ladder.player("champ").unwrap();
        assert_eq!(champ.level(), Level::of(champ.points()));
        assert_eq!(champ.wins(), 20);
        assert_eq!(ladder.player("rookie").unwrap().losses(), 20);
        let total: i64 = ladder.players().map(|pl| pl.points().hundredths()).sum();
        assert_eq!(total, 0, "zero-sum over the whole ladder");
    }
}
