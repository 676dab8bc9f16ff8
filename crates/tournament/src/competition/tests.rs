use super::*;
use crate::{dutch, trf, ByeKind};

fn settings(system: System) -> Settings {
    Settings {
        name: "Club championship".into(),
        system,
        scoring: Scoring::default(),
        initial_colour: Colour::White,
        tiebreaks: vec!["BH-C1".parse().unwrap(), "SB".parse().unwrap()],
        regulations: Regulations::C07_2026,
        max_requested_byes: 1,
        late_entry_until: 2,
    }
}

fn join(c: &mut Competition, key: &str, rating: u16) -> EntrantId {
    c.apply(&Action::Join { key: key.into(), name: key.into(), rating: Some(rating), title: None })
        .unwrap();
    c.find(key).unwrap()
}

/// Pairs, publishes and plays the next round: the higher-rated player wins, equal ratings
/// draw, board 1 of even rounds is drawn.
fn play_round(c: &mut Competition) -> u32 {
    let paired = c.pair_next().unwrap();
    c.apply(&paired).unwrap();
    let round = c.rounds().len() as u32;
    c.apply(&Action::Publish { round }).unwrap();
    for action in c.forfeits_of_withdrawn(round) {
        c.apply(&action).unwrap();
    }
    let boards = c.rounds()[round as usize - 1].boards.clone();
    for (i, b) in boards.iter().enumerate() {
        if b.result.is_some() {
            continue;
        }
        let rating = |e: EntrantId| c.entrants()[e.0 as usize].rating;
        let result = if i == 0 && round.is_multiple_of(2) || rating(b.white) == rating(b.black) {
            BoardResult::Draw
        } else if rating(b.white) > rating(b.black) {
            BoardResult::WhiteWon
        } else {
            BoardResult::BlackWon
        };
        c.apply(&Action::Result { round, board: i as u32 + 1, result }).unwrap();
    }
    round
}

#[test]
fn a_swiss_with_byes_a_late_entry_and_a_withdrawal_checks_as_the_rules_pair_it() {
    let mut c = Competition::new(settings(System::Swiss { rounds: 5 }));
    let players: Vec<EntrantId> =
        (0..7).map(|i| join(&mut c, &format!("p{i}"), 2000 - 50 * i as u16)).collect();
    c.apply(&Action::Bye { entrant: players[2], round: 2, kind: ByeKind::Half }).unwrap();
    assert_eq!(
        c.apply(&Action::Bye { entrant: players[2], round: 3, kind: ByeKind::Half }),
        Err(CompetitionError::TooManyByes { entrant: players[2], limit: 1 })
    );
    play_round(&mut c);
    // A late entry before round 2 is paired; absent in round 1.
    let late = join(&mut c, "late", 1900);
    play_round(&mut c);
    assert_eq!(
        c.apply(&Action::Join {
            key: "later".into(),
            name: "later".into(),
            rating: None,
            title: None
        }),
        Err(CompetitionError::EntriesClosed)
    );
    c.apply(&Action::Withdraw { entrant: players[6], from_round: 3 }).unwrap();
    while !c.is_over() {
        play_round(&mut c);
    }
    let t = c.to_tournament();
    assert_eq!(t.rounds_played(), 5);
    assert_eq!(t.player(c.tpn(late)).unwrap().rounds[0].result, ResultCode::ZeroPointBye);
    assert_eq!(t.player(c.tpn(players[2])).unwrap().rounds[1].result, ResultCode::HalfPointBye);
    // The report re-pairs round by round as the competition paired it, and reads back.
    for check in dutch::check(&t) {
        assert!(check.agrees(), "round {}: {:?}", check.round, check.expected);
    }
    let text = trf::write(&t).unwrap();
    assert_eq!(trf::read(&text).unwrap(), t);
}

#[test]
fn a_double_round_robin_follows_the_berger_table_and_forfeits_a_withdrawn_entrant() {
    let mut c = Competition::new(settings(System::RoundRobin { cycles: Cycles::Double }));
    let players: Vec<EntrantId> =
        (0..4).map(|i| join(&mut c, &format!("p{i}"), 2000 - i as u16)).collect();
    assert_eq!(c.total_rounds(), 6);
    let table = berger::schedule(4, Cycles::Double).unwrap();
    for round in 1..=3 {
        play_round(&mut c);
        let expected = table.round(round).unwrap();
        let got: Vec<(u32, u32)> = c.rounds()[round as usize - 1]
            .boards
            .iter()
            .map(|b| (c.tpn(b.white).get(), c.tpn(b.black).get()))
            .collect();
        let want: Vec<(u32, u32)> =
            expected.pairs.iter().map(|p| (p.white.get(), p.black.get())).collect();
        assert_eq!(got, want, "round {round}");
    }
    c.apply(&Action::Withdraw { entrant: players[3], from_round: 4 }).unwrap();
    while !c.is_over() {
        play_round(&mut c);
    }
    for round in c.rounds().iter().skip(3) {
        let board =
            round.boards.iter().find(|b| b.white == players[3] || b.black == players[3]).unwrap();
        assert!(!board.result.unwrap().is_played(), "a withdrawn entrant's games are forfeits");
    }
    assert_eq!(c.pair_next(), Err(CompetitionError::Over));
}

#[test]
fn unpairing_is_refused_once_a_result_is_in() {
    let mut c = Competition::new(settings(System::Swiss { rounds: 3 }));
    for i in 0..4 {
        join(&mut c, &format!("p{i}"), 2000 - i as u16);
    }
    let paired = c.pair_next().unwrap();
    c.apply(&paired).unwrap();
    c.apply(&Action::Unpair { round: 1 }).unwrap();
    c.apply(&paired).unwrap();
    c.apply(&Action::Publish { round: 1 }).unwrap();
    c.apply(&Action::Result { round: 1, board: 1, result: BoardResult::Draw }).unwrap();
    assert_eq!(
        c.apply(&Action::Unpair { round: 1 }),
        Err(CompetitionError::Round { round: 1, why: "has results" })
    );
    assert_eq!(
        c.pair_next(),
        Err(CompetitionError::Round { round: 2, why: "the round before is not finished" })
    );
    assert_eq!(
        c.apply(&Action::Result { round: 1, board: 9, result: BoardResult::Draw }),
        Err(CompetitionError::UnknownBoard { round: 1, board: 9 })
    );
}

#[test]
fn a_reference_tournament_imports_and_exports_as_it_was() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch-rtg/rtg-000303.trf");
    let original = trf::read(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rounds = original.rounds_played();
    let (settings, actions) = import(&original, System::Swiss { rounds }).unwrap();
    let mut c = Competition::new(settings);
    for action in &actions {
        c.apply(action).unwrap_or_else(|e| panic!("{action:?}: {e}"));
    }
    assert!(c.is_over());
    let exported = c.to_tournament();
    for (a, b) in exported.players.iter().zip(&original.players) {
        assert_eq!(a.rounds, b.rounds, "{}", a.name);
        assert_eq!(a.points, b.points);
    }
}

#[test]
fn a_forbidden_pair_lifted_may_meet_again() {
    let mut c = Competition::new(settings(System::Swiss { rounds: 3 }));
    let a = join(&mut c, "ann", 2000);
    let b = join(&mut c, "bob", 1900);
    c.apply(&Action::ForbidPair { a, b }).unwrap();
    assert_eq!(c.forbidden_pairs(), [(a, b)]);
    // Named in either order, the pair is lifted.
    c.apply(&Action::AllowPair { a: b, b: a }).unwrap();
    assert_eq!(c.forbidden_pairs(), []);
    assert_eq!(
        c.apply(&Action::AllowPair { a, b: EntrantId(9) }),
        Err(CompetitionError::UnknownEntrant(EntrantId(9)))
    );
    // Two players only: forbidden, they could not be paired; allowed again, they are.
    let paired = c.pair_next().unwrap();
    let Action::Paired { boards, .. } = paired else { panic!("{paired:?}") };
    assert_eq!(boards.len(), 1);
}
