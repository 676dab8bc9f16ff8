//! Events for the crate's tests, built entry by entry as the log builds them: a finished team
//! event for the exports' and the documents' tests (four teams of two boards and a reserve, a
//! round robin at the board over three rounds, with a draw, a forfeit, a double forfeit and a
//! reserve fielded).

use std::collections::{HashMap, HashSet};

use rookery_store::{TournamentRow, TournamentStatus, UserId};
use rookery_tournament::competition::BoardResult;

use crate::book::{Book, Tour};
use crate::log::{self, Entry, LineUpEntry, RosterPlayer, TeamRegistered, TeamResult};
use crate::team::fixture::{settings, T0, TEAMS};

/// Each board's result, by (round, match): board 1 then board 2, from the board's White.
fn results(round: u32, number: u32) -> [BoardResult; 2] {
    use BoardResult::*;
    match (round, number) {
        (1, 1) => [WhiteWon, Draw],
        (1, 2) => [BlackWon, WhiteByForfeit],
        (2, 1) => [Draw, Draw],
        (2, 2) => [WhiteWon, DoubleForfeit],
        (3, 1) => [BlackWon, BlackWon],
        _ => [Draw, WhiteWon],
    }
}

/// The event, finished: every round paired and played, Knights fielding their reserve on
/// board 2 in round 2.
pub(crate) fn team_finished() -> Tour {
    let settings = settings();
    let row = TournamentRow {
        id: "tx1".into(),
        name: settings.name.clone(),
        format: settings.format.as_str().into(),
        settings: serde_json::to_string(&settings).expect("settings"),
        status: TournamentStatus::Upcoming,
        created_by: UserId(1),
        created_at_ms: T0 as i64,
        starts_at_ms: None,
    };
    let book = Book::new(&settings);
    let mut tour = Tour {
        row,
        settings,
        book,
        log: Vec::new(),
        names: HashMap::new(),
        started: HashSet::new(),
        ladder: HashMap::new(),
    };
    let fold = |tour: &mut Tour, entry: Entry, at: u64| {
        tour.book.fold(&tour.settings, &entry, at).unwrap_or_else(|e| panic!("{entry:?}: {e}"));
    };
    for (name, players) in TEAMS {
        let players = players
            .iter()
            .map(|&(name, rating)| RosterPlayer {
                name: name.into(),
                rating: Some(rating),
                user_id: None,
            })
            .collect();
        fold(
            &mut tour,
            Entry::Team(TeamRegistered { name: name.into(), players, captain: None }),
            T0,
        );
    }
    fold(&mut tour, Entry::Start(log::Empty {}), T0);
    for round in 1..=3 {
        let at = T0 + u64::from(round - 1) * 86_400_000;
        let team = tour.book.team.as_ref().expect("a team event");
        let paired = team.pair_next(&tour.settings).expect("a round to pair");
        let matches = paired.matches.len() as u32;
        fold(&mut tour, Entry::TeamPaired(paired), at);
        if round == 2 {
            let line_up = LineUpEntry { round, team: 2, players: vec![1, 3] };
            fold(&mut tour, Entry::LineUp(line_up), at);
        }
        for number in 1..=matches {
            for (result, board) in results(round, number).into_iter().zip(1..) {
                let entry = Entry::TeamResult(TeamResult { round, number, board, result });
                fold(&mut tour, entry, at);
            }
        }
    }
    fold(&mut tour, Entry::End(log::Empty {}), T0 + 3 * 86_400_000);
    tour.row.status = tour.book.status;
    tour
}
