//! FIDE ratings (Handbook B.02, the FIDE Rating Regulations in force from 1 March 2024): the
//! two tables of 8.1 that the rating-based tie-breaks also use, and a rated player's rating
//! change over an event (8.3) with its development coefficient K (8.3.3).
//!
//! An over-the-board event's standings show each player's change as a rating officer computes
//! it before the event goes into the list: `ΔR = K × Σ(W − PD)` over the rated games, where
//! `W` is 1, ½ or 0 and `PD` the expected score of table 8.1b for the rating difference, a
//! difference of more than 400 points counted as 400. The change is exact in hundredths
//! (K is whole, `W` a half, `PD` a hundredth); the list rounds the period's sum.
//!
//! A game counts when it was played and rated (TRF `1`, `=`, `0`, not the `W`/`D`/`L` of a
//! game with less than a move each, nor forfeits and byes) and both players are rated: a rated
//! player's games against an unrated opponent change nothing here (they go into the unrated
//! player's first rating, which is not computed here).

use std::fmt;

use crate::{PlayerId, ResultCode, Tournament};

/// Table 8.1a: the rating difference `dp` for a fractional score `p` of 0.50 to 1.00, in
/// hundredths from 50; scores below 0.50 take the negated difference of `1 - p`.
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

/// `dp` for a fractional score in hundredths (0 to 100, more counts as 100), table 8.1a.
pub fn rating_difference(p: u32) -> i32 {
    let p = p.min(100) as i32;
    if p >= 50 {
        DP[(p - 50) as usize]
    } else {
        -DP[(50 - p) as usize]
    }
}

/// The expected score, in hundredths, of a player rated `difference` points above the
/// opponent (negative: below), table 8.1b.
pub fn expected_score(difference: i32) -> u32 {
    let d = difference.unsigned_abs();
    let pd = PD_BANDS.iter().find(|&&(last, _)| d <= last).map_or(100, |&(_, pd)| pd);
    if difference >= 0 {
        pd
    } else {
        100 - pd
    }
}

/// The largest rating difference a rating change counts (8.3.1: more is counted as 400).
pub const MAX_DIFFERENCE: i32 = 400;

/// The development coefficient of 8.3.3: 40, 20 or 10, lowered so that K times the games of
/// the rating period stays within 700.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct K(u8);

/// What K depends on, as the rating list and the player's record say before the event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KHistory {
    /// The published rating.
    pub rating: u16,
    /// Rated games the player had completed before this event, over all events.
    pub games_before: u32,
    /// The player's age at the end of this year (this year less the birth year), if known.
    pub age_this_year: Option<u16>,
    /// Whether a published rating of the player has ever reached 2400.
    pub reached_2400: bool,
}

impl K {
    /// K = 40: new to the list (under 30 rated games), or a junior under 2300.
    pub const NEW_OR_JUNIOR: K = K(40);
    /// K = 20: under 2400.
    pub const STANDARD: K = K(20);
    /// K = 10: a published rating once reached 2400.
    pub const TOP: K = K(10);

    /// A K of this value, when it is one 8.3.3 can give (1 to 40).
    pub const fn new(k: u8) -> Option<K> {
        if k >= 1 && k <= 40 {
            Some(K(k))
        } else {
            None
        }
    }

    /// The value.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// 8.3.3: 40 for a player new to the list until they have completed events with at
    /// least 30 games, and for every player until the end of the year of their 18th birthday
    /// as long as their rating stays under 2300; 10 once a published rating has reached 2400,
    /// even if it drops below; 20 otherwise.
    pub fn of(history: &KHistory) -> K {
        let junior = history.age_this_year.is_some_and(|age| age <= 18) && history.rating < 2300;
        if history.games_before < 30 || junior {
            K::NEW_OR_JUNIOR
        } else if history.reached_2400 || history.rating >= 2400 {
            K::TOP
        } else {
            K::STANDARD
        }
    }

    /// 8.3.3: when K times the number of games `n` of the rating period exceeds 700, K is the
    /// largest whole number such that `K × n` does not (at least 1).
    pub fn capped(self, n: u32) -> K {
        let most = 700 / n.max(1);
        K(u8::try_from(most.clamp(1, u32::from(self.0))).expect("at most 40"))
    }
}

impl fmt::Display for K {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The score of one rated game for the player: 1, ½ or 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameScore {
    /// 1.
    Win,
    /// ½.
    Draw,
    /// 0.
    Loss,
}

impl GameScore {
    /// In hundredths.
    const fn hundredths(self) -> i32 {
        match self {
            GameScore::Win => 100,
            GameScore::Draw => 50,
            GameScore::Loss => 0,
        }
    }
}

/// A rated player's change over the rated games of one event (8.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RatingChange {
    /// The K it was computed with.
    pub k: K,
    /// Rated games counted.
    pub games: u32,
    /// Points scored in them, in hundredths.
    pub score: i32,
    /// `Σ PD`, the expected score, in hundredths.
    pub expected: i32,
}

impl RatingChange {
    /// `K × Σ(W − PD)` in hundredths of a rating point (exact).
    pub fn hundredths(&self) -> i32 {
        i32::from(self.k.0) * (self.score - self.expected)
    }
}

impl fmt::Display for RatingChange {
    /// `+12.40`, `-3.00`, `0.00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.hundredths();
        let sign = match h.signum() {
            1 => "+",
            -1 => "-",
            _ => "",
        };
        let a = h.unsigned_abs();
        write!(f, "{sign}{}.{:02}", a / 100, a % 100)
    }
}

/// The change of a player rated `rating` with coefficient `k` over `games`: each game the
/// opponent's rating and the player's score.
pub fn rating_change(
    rating: u16,
    k: K,
    games: impl IntoIterator<Item = (u16, GameScore)>,
) -> RatingChange {
    let mut change = RatingChange { k, games: 0, score: 0, expected: 0 };
    for (opponent, score) in games {
        let difference =
            (i32::from(rating) - i32::from(opponent)).clamp(-MAX_DIFFERENCE, MAX_DIFFERENCE);
        change.games += 1;
        change.score += score.hundredths();
        change.expected += expected_score(difference) as i32;
    }
    change
}

/// The rated games of `player` in `tournament` (see the module's text): each opponent's
/// rating and the score; empty for an unrated player.
pub fn rated_games(tournament: &Tournament, player: PlayerId) -> Vec<(u16, GameScore)> {
    let Some(me) = tournament.players.get(player.index()) else { return Vec::new() };
    if !is_rated(me.rating) {
        return Vec::new();
    }
    me.rounds
        .iter()
        .filter_map(|entry| {
            let score = match entry.result {
                ResultCode::Win => GameScore::Win,
                ResultCode::Draw => GameScore::Draw,
                ResultCode::Loss => GameScore::Loss,
                _ => return None,
            };
            let opponent = tournament.players.get(entry.opponent?.index())?;
            let rating = opponent.rating.filter(|&r| is_rated(Some(r)))?;
            Some((rating, score))
        })
        .collect()
}

/// Every player's change over the event, in pairing-number order: `None` for an unrated
/// player or one `k` gives no K for. `k` is asked with the player's pairing number; the cap of
/// 8.3.3 is applied over this event's rated games (a rating period of one event).
pub fn event_changes(
    tournament: &Tournament,
    k: impl Fn(PlayerId) -> Option<K>,
) -> Vec<Option<RatingChange>> {
    (0..tournament.players.len())
        .map(|index| {
            let id = PlayerId::from_index(index);
            let rating = tournament.players[index].rating.filter(|&r| is_rated(Some(r)))?;
            let games = rated_games(tournament, id);
            let k = k(id)?.capped(games.len() as u32);
            Some(rating_change(rating, k, games))
        })
        .collect()
}

/// A rating of 0 is TRF's "unrated".
fn is_rated(rating: Option<u16>) -> bool {
    rating.is_some_and(|r| r > 0)
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
    fn k_follows_8_3_3() {
        let adult = KHistory {
            rating: 2100,
            games_before: 200,
            age_this_year: Some(35),
            reached_2400: false,
        };
        assert_eq!(K::of(&adult), K::STANDARD);
        assert_eq!(K::of(&KHistory { games_before: 29, ..adult }), K::NEW_OR_JUNIOR);
        assert_eq!(K::of(&KHistory { games_before: 30, ..adult }), K::STANDARD);
        // A junior under 2300 until the end of the year of the 18th birthday.
        assert_eq!(K::of(&KHistory { age_this_year: Some(18), ..adult }), K::NEW_OR_JUNIOR);
        assert_eq!(K::of(&KHistory { age_this_year: Some(19), ..adult }), K::STANDARD);
        assert_eq!(
            K::of(&KHistory { age_this_year: Some(16), rating: 2300, ..adult }),
            K::STANDARD
        );
        // 2400 once reached: 10, even below it again.
        assert_eq!(K::of(&KHistory { rating: 2400, ..adult }), K::TOP);
        assert_eq!(K::of(&KHistory { rating: 2380, reached_2400: true, ..adult }), K::TOP);
        assert_eq!(K::of(&KHistory { age_this_year: None, ..adult }), K::STANDARD);
        // K × n within 700.
        assert_eq!(K::NEW_OR_JUNIOR.capped(17), K::NEW_OR_JUNIOR);
        assert_eq!(K::NEW_OR_JUNIOR.capped(18), K(38));
        assert_eq!(K::STANDARD.capped(35), K::STANDARD);
        assert_eq!(K::STANDARD.capped(36), K(19));
        assert_eq!(K::TOP.capped(10_000), K(1));
        assert_eq!(K::new(0), None);
        assert_eq!(K::new(41), None);
    }

    /// Issue 53: ten players' changes over a 3-round event worked by hand from the
    /// Regulations' table 8.1b (D = own rating − opponent's, past ±400 counted as ±400; the
    /// lower-rated player's PD is 1 − the higher's), then read from the event's TRF. Player 10
    /// is unrated (no change; the games against them count for nobody's change), round 3's
    /// board 5 is a forfeit (never counted).
    #[test]
    fn ten_players_changes_by_hand() {
        // (start number, name, rating; each round's opponent, colour, result)
        type Game = (u32, char, char);
        let players: [(u32, &str, u16, [Game; 3]); 10] = [
            (1, "One", 2450, [(6, 'w', '1'), (2, 'b', '='), (3, 'w', '1')]),
            (2, "Two", 2310, [(7, 'b', '='), (1, 'w', '='), (5, 'b', '1')]),
            (3, "Three", 2205, [(8, 'w', '1'), (4, 'b', '0'), (1, 'b', '0')]),
            (4, "Four", 2120, [(9, 'b', '0'), (3, 'w', '1'), (7, 'b', '=')]),
            (5, "Five", 2050, [(10, 'w', '1'), (6, 'b', '='), (2, 'w', '0')]),
            (6, "Six", 1985, [(1, 'b', '0'), (5, 'w', '='), (9, 'b', '=')]),
            (7, "Seven", 1900, [(2, 'w', '='), (8, 'b', '1'), (4, 'w', '=')]),
            (8, "Eight", 1820, [(3, 'b', '0'), (7, 'w', '0'), (10, 'w', '+')]),
            (9, "Nine", 1600, [(4, 'w', '1'), (10, 'b', '0'), (6, 'w', '=')]),
            (10, "Ten", 0, [(5, 'b', '0'), (9, 'w', '1'), (8, 'b', '-')]),
        ];
        let mut text = String::from("012 Ten by hand\n");
        for (n, name, rating, rounds) in players {
            let points: f32 = rounds
                .iter()
                .map(|r| match r.2 {
                    '1' | '+' => 1.0,
                    '=' => 0.5,
                    _ => 0.0,
                })
                .sum();
            let rating = if rating == 0 { String::new() } else { rating.to_string() };
            text += &format!("001 {n:>4}      {name:<33} {rating:>4}{:28}{points:>4.1} {n:>4}", "");
            for (opponent, colour, result) in rounds {
                text += &format!("  {opponent:>4} {colour} {result}");
            }
            text.push('\n');
        }
        let t = crate::trf::read(&text).unwrap();
        // K: 10 for One (2400 reached), 40 for Four (a junior) and Seven (new to the list),
        // 20 for the others; none for the unrated Ten.
        let k = |id: PlayerId| match id.index() + 1 {
            1 => Some(K::TOP),
            4 | 7 => Some(K::NEW_OR_JUNIOR),
            10 => None,
            _ => Some(K::STANDARD),
        };
        let changes: Vec<Option<String>> = event_changes(&t, k)
            .into_iter()
            .map(|c| c.map(|c| format!("{} games {} of {}: {c}", c.games, c.score, c.expected)))
            .collect();
        // By hand, game by game (D → PD; score W):
        //   One 2450, K 10:  Six 1985 (D 465 → 400, .92) W; Two 2310 (140, .69) ½;
        //     Three 2205 (245, .80) W.  2.50 − 2.41 = .09 → +0.90
        //   Two 2310, K 20:  Seven 1900 (410 → 400, .92) ½; One (−140, .31) ½;
        //     Five 2050 (260, .82) W.  2.00 − 2.05 = −.05 → −1.00
        //   Three 2205, K 20:  Eight 1820 (385, .91) W; Four 2120 (85, .62) 0;
        //     One (−245, .20) 0.  1.00 − 1.73 = −.73 → −14.60
        //   Four 2120, K 40:  Nine 1600 (520 → 400, .92) 0; Three (−85, .38) W;
        //     Seven (220, .78) ½.  1.50 − 2.08 = −.58 → −23.20
        //   Five 2050, K 20:  Ten unrated, not counted; Six 1985 (65, .59) ½;
        //     Two (−260, .18) 0.  0.50 − 0.77 = −.27 → −5.40
        //   Six 1985, K 20:  One (−465 → −400, .08) 0; Five (−65, .41) ½;
        //     Nine (385, .91) ½.  1.00 − 1.40 = −.40 → −8.00
        //   Seven 1900, K 40:  Two (−410 → −400, .08) ½; Eight 1820 (80, .61) W;
        //     Four (−220, .22) ½.  2.00 − 0.91 = 1.09 → +43.60
        //   Eight 1820, K 20:  Three (−385, .09) 0; Seven (−80, .39) 0; Ten by forfeit, not
        //     counted.  0.00 − 0.48 = −.48 → −9.60
        //   Nine 1600, K 20:  Four (−520 → −400, .08) W; Ten unrated, not counted;
        //     Six (−385, .09) ½.  1.50 − 0.17 = 1.33 → +26.60
        //   Ten: unrated, no change.
        let want = [
            Some("3 games 250 of 241: +0.90"),
            Some("3 games 200 of 205: -1.00"),
            Some("3 games 100 of 173: -14.60"),
            Some("3 games 150 of 208: -23.20"),
            Some("2 games 50 of 77: -5.40"),
            Some("3 games 100 of 140: -8.00"),
            Some("3 games 200 of 91: +43.60"),
            Some("2 games 0 of 48: -9.60"),
            Some("2 games 150 of 17: +26.60"),
            None,
        ];
        assert_eq!(changes, want.map(|w| w.map(str::to_owned)));
    }

    #[test]
    fn a_change_by_hand() {
        // 2000 with K 20: a win against 2100 (D = -100, PD .36), a draw against 1950
        // (D = 50, PD .57), a loss against 2500 (D = -500 counted as -400, PD .08).
        let change = rating_change(
            2000,
            K::STANDARD,
            [(2100, GameScore::Win), (1950, GameScore::Draw), (2500, GameScore::Loss)],
        );
        assert_eq!((change.games, change.score, change.expected), (3, 150, 101));
        // 20 × (1.50 - 1.01) = 9.80.
        assert_eq!(change.hundredths(), 980);
        assert_eq!(change.to_string(), "+9.80");
        let loss = rating_change(2000, K::TOP, [(1600, GameScore::Loss)]);
        // D = 400, PD .92: 10 × (0 - .92) = -9.20.
        assert_eq!(loss.to_string(), "-9.20");
        assert_eq!(rating_change(2000, K::TOP, []).to_string(), "0.00");
    }
}
