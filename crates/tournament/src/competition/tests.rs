use super::*;
use crate::{dutch, trf, ByeKind};

fn settings(system: System) -> Settings {
    Settings {
        name: "Club championship".into(),
        system,
        scoring: Scoring::default(),
        initial_colour: Color::White,
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
    c.apply(&Action::Bye { entrant: players[2], round: 2, kind: ByeKind::Half, requested: true })
        .unwrap();
    assert_eq!(
        c.apply(&Action::Bye {
            entrant: players[2],
            round: 3,
            kind: ByeKind::Half,
            requested: true
        }),
        Err(CompetitionError::TooManyByes { entrant: players[2], name: "p2".into(), limit: 1 })
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
        Err(CompetitionError::Round { round: 1, problem: RoundProblem::HasResults })
    );
    assert_eq!(
        c.pair_next(),
        Err(CompetitionError::Round { round: 2, problem: RoundProblem::PreviousUnfinished })
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

/// Plays a Swiss of seven, then eight, with every kind of record its report holds: a
/// half-point bye and a zero-point bye asked for, a full-point bye, PABs, a late entry, a
/// withdrawal, a forfeit, a double forfeit and a corrected result.
fn swiss_with_every_record(rounds_to_play: u32) -> Competition {
    let mut c = Competition::new(settings(System::Swiss { rounds: 5 }));
    let players: Vec<EntrantId> =
        (0..7).map(|i| join(&mut c, &format!("p{i}"), 2000 - 50 * i as u16)).collect();
    c.apply(&Action::Bye { entrant: players[2], round: 2, kind: ByeKind::Half, requested: true })
        .unwrap();
    c.apply(&Action::Bye { entrant: players[3], round: 3, kind: ByeKind::Zero, requested: true })
        .unwrap();
    c.apply(&Action::Bye { entrant: players[4], round: 4, kind: ByeKind::Full, requested: true })
        .unwrap();
    play_round(&mut c);
    // The result of board 2 corrected to a forfeit after the round ended.
    c.apply(&Action::Result { round: 1, board: 2, result: BoardResult::WhiteByForfeit }).unwrap();
    join(&mut c, "late", 1900);
    play_round(&mut c);
    c.apply(&Action::Result { round: 2, board: 1, result: BoardResult::BlackWon }).unwrap();
    c.apply(&Action::Withdraw { entrant: players[6], from_round: 3 }).unwrap();
    while c.rounds().len() < rounds_to_play as usize {
        play_round(&mut c);
    }
    if rounds_to_play >= 4 {
        c.apply(&Action::Result { round: 4, board: 2, result: BoardResult::DoubleForfeit })
            .unwrap();
    }
    c
}

/// The competition the report of `c` imports as, under the same settings (one requested bye
/// each at most).
fn imported(c: &Competition) -> Competition {
    let text = trf::write(&c.to_tournament()).unwrap();
    let file = trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let (_, actions) = import(&file, c.settings().system).unwrap();
    let mut again = Competition::new(c.settings().clone());
    for action in &actions {
        again.apply(action).unwrap_or_else(|e| panic!("{action:?}: {e}\n{text}"));
    }
    again
}

/// Issue 51: a withdrawal is written as an absence in each round after it, a late entry as an
/// absence in the rounds before it; neither is a bye the player asked for, and the import
/// must not count them against the limit.
#[test]
fn a_report_with_every_kind_of_record_imports_back_to_the_same_tournament() {
    let c = swiss_with_every_record(5);
    assert!(c.is_over());
    let again = imported(&c);
    assert!(again.is_over());
    assert_eq!(again.to_tournament(), c.to_tournament());
    let list = &c.settings().tiebreaks;
    let regulations = c.settings().regulations;
    assert_eq!(
        crate::standings(&again.to_tournament(), 5, list, regulations),
        crate::standings(&c.to_tournament(), 5, list, regulations)
    );
    let withdrawn = |c: &Competition| -> Vec<(String, u32)> {
        c.entrants().iter().filter_map(|e| e.withdrawn_from.map(|w| (e.name.clone(), w))).collect()
    };
    assert_eq!(withdrawn(&again), withdrawn(&c), "the withdrawal is read back as one");
}

/// A report made between rounds says who will not be paired next (a withdrawal, a bye asked
/// for a later round), so that the competition imported pairs the next round as the site
/// would.
#[test]
fn a_report_between_rounds_imports_to_the_same_next_pairing() {
    let c = swiss_with_every_record(2);
    let again = imported(&c);
    assert_eq!(again.to_tournament(), c.to_tournament());
    let paired = |c: &Competition| {
        let Action::Paired { boards, pab, .. } = c.pair_next().unwrap() else { unreachable!() };
        let name = |e: EntrantId| c.entrants()[e.0 as usize].name.clone();
        let boards: Vec<_> = boards.into_iter().map(|(w, b)| (name(w), name(b))).collect();
        (boards, pab.map(name))
    };
    assert_eq!(paired(&again), paired(&c));
}

/// Issue 51: refusals name the player and count in words.
#[test]
fn too_many_byes_names_the_player_and_counts_in_words() {
    for (limit, said) in [
        (0, "p2 may ask for no bye"),
        (1, "p2 has asked for the 1 bye allowed"),
        (2, "p2 has asked for the 2 byes allowed"),
    ] {
        let mut c = Competition::new(Settings {
            max_requested_byes: limit,
            ..settings(System::Swiss { rounds: 5 })
        });
        let players: Vec<EntrantId> =
            (0..4).map(|i| join(&mut c, &format!("p{i}"), 2000 - 50 * i as u16)).collect();
        for round in 1..=limit {
            c.apply(&Action::Bye {
                entrant: players[2],
                round,
                kind: ByeKind::Half,
                requested: true,
            })
            .unwrap();
        }
        let refused = c.apply(&Action::Bye {
            entrant: players[2],
            round: 4,
            kind: ByeKind::Zero,
            requested: true,
        });
        assert_eq!(refused.unwrap_err().to_string(), said, "limit {limit}");
    }
}
