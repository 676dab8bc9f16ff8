//! The team event of the crate's tests: four teams of two boards and a reserve, a round robin
//! at the board (the event played to its end is [`crate::fixtures::team_finished`]).

use crate::log::{RosterPlayer, TeamRegistered};
use crate::settings::Settings;

/// The teams, in their initial order (their ratings fall), each roster board order first.
pub(crate) const TEAMS: [(&str, [(&str, u16); 3]); 4] = [
    ("Rooks", [("Ruiz, Ana", 2200), ("Rao, Dev", 2100), ("Roth, Eva", 1900)]),
    ("Knights", [("Kim, Min", 2150), ("Kaur, Jas", 2050), ("Kent, Ola", 1850)]),
    ("Bishops", [("Bell, Tom", 2000), ("Bo, Li", 1950), ("Baker, Sam", 1800)]),
    ("Pawns, Inc.", [("Pike, Uma", 1900), ("王, 芳", 1800), ("Pratt, Al", 1700)]),
];

/// 9 June 2026, 10:00 UTC: round 1's pairing; each later one a day after.
pub(crate) const T0: u64 = 1_781_000_000_000;

pub(crate) fn settings() -> Settings {
    serde_json::from_value(serde_json::json!({
        "name": "Club <League>", "format": "team_round_robin", "rounds": null,
        "duration_s": null, "time_control": "5400+30", "rules": "seed", "rated": false,
        "starts_at_ms": null, "tiebreaks": [], "regulations": 2026, "forfeit_s": 60,
        "max_byes": 1, "late_join_until": 1, "min_level": null, "max_level": null,
        "password": null, "berserk": false, "streaks": false, "seed": 0,
        "over_the_board": true,
        "team": {"boards": 2, "reserves": 1, "primary": "match_points",
                 "tiebreaks": ["GP", "DE", "SB", "BH"], "board_prize_min_games": 2}
    }))
    .expect("team settings")
}

/// The teams registered, as the log writes them.
pub(crate) fn registered() -> Vec<TeamRegistered> {
    TEAMS
        .iter()
        .map(|(name, players)| TeamRegistered {
            name: (*name).into(),
            players: players
                .iter()
                .map(|&(name, rating)| RosterPlayer {
                    name: name.into(),
                    rating: Some(rating),
                    user_id: None,
                })
                .collect(),
            captain: None,
        })
        .collect()
}
