use super::*;
use crate::{dutch, trf, ByeKind, Score, Tournament};

/// A Dutch Swiss without acceleration, as every competition was before the system could be
/// chosen.
fn swiss(rounds: u32) -> System {
    System::Swiss { rounds, pairing: SwissSystem::Dutch, acceleration: None }
}

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
        check_in: false,
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
    let mut c = Competition::new(settings(swiss(5)));
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
fn a_result_taken_back_opens_its_round_again_until_the_next_is_paired() {
    let mut c = Competition::new(settings(swiss(3)));
    for i in 0..4 {
        join(&mut c, &format!("p{i}"), 2000 - i as u16);
    }
    c.apply(&c.pair_next().unwrap()).unwrap();
    c.apply(&Action::Publish { round: 1 }).unwrap();
    let no_result = CompetitionError::Round { round: 1, problem: RoundProblem::NoResult };
    let clear = |board, result| Action::ClearResult { round: 1, board, result };
    assert_eq!(c.apply(&clear(1, BoardResult::Draw)), Err(no_result));
    for board in [1, 2] {
        c.apply(&Action::Result { round: 1, board, result: BoardResult::WhiteWon }).unwrap();
    }
    assert_eq!(c.rounds()[0].state, RoundState::Finished);
    let before = c.clone();
    // The last result undone: the round is open, the board waits for its result again, and
    // entering the right one leaves the competition as if it had been typed right at once.
    assert_eq!(
        c.apply(&clear(2, BoardResult::Draw)),
        Err(CompetitionError::Round { round: 1, problem: RoundProblem::OtherResult })
    );
    c.apply(&clear(2, BoardResult::WhiteWon)).unwrap();
    assert_eq!(c.rounds()[0].state, RoundState::Published);
    assert_eq!(c.rounds()[0].boards[1].result, None);
    assert_eq!(
        c.pair_next(),
        Err(CompetitionError::Round { round: 2, problem: RoundProblem::PreviousUnfinished })
    );
    c.apply(&Action::Result { round: 1, board: 2, result: BoardResult::WhiteWon }).unwrap();
    assert_eq!(c, before);
    // Once round 2 is paired from it, round 1's results are corrected, never taken back.
    c.apply(&c.pair_next().unwrap()).unwrap();
    assert_eq!(
        c.apply(&clear(1, BoardResult::WhiteWon)),
        Err(CompetitionError::Round { round: 1, problem: RoundProblem::NotLastPaired })
    );
    assert_eq!(
        c.apply(&Action::ClearResult { round: 2, board: 7, result: BoardResult::Draw }),
        Err(CompetitionError::UnknownBoard { round: 2, board: 7 })
    );
}

#[test]
fn unpairing_is_refused_once_a_result_is_in() {
    let mut c = Competition::new(settings(swiss(3)));
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
    let (settings, actions) = import(&original, swiss(rounds)).unwrap();
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
    let mut c = Competition::new(settings(swiss(3)));
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
    swiss_by(swiss(5), rounds_to_play)
}

/// [`swiss_with_every_record`] for a Swiss of 5 rounds paired by `system`.
fn swiss_by(system: System, rounds_to_play: u32) -> Competition {
    let mut c = Competition::new(settings(system));
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
        let mut c = Competition::new(Settings { max_requested_byes: limit, ..settings(swiss(5)) });
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

/// Issue 54: every Swiss the site can make — Dutch or Burstein, with or without the Baku
/// acceleration — exports a report whose type (`092`) and virtual points (`250`) let the
/// pairings checker of its system re-pair every round as the competition paired it, late
/// entry, byes, withdrawal and forfeits included.
#[test]
fn every_swiss_system_exports_a_report_its_checker_re_pairs_without_a_discrepancy() {
    let baku = Some(Method::Baku { last_ga: None });
    for (pairing, acceleration, kind) in [
        (SwissSystem::Dutch, None, "Individual: Swiss-System (FIDE Dutch, C.04.3 2026)"),
        (SwissSystem::Burstein, None, "FIDE_BURSTEIN"),
        (SwissSystem::Dutch, baku, "FIDE_DUTCH_BAKU"),
        (SwissSystem::Burstein, baku, "FIDE_BURSTEIN_BAKU"),
    ] {
        let case = format!("{pairing} {acceleration:?}");
        // Round 4's result corrected before round 5 is paired (after it, the checker would
        // rightly pair round 5 otherwise).
        let mut c = swiss_by(System::Swiss { rounds: 5, pairing, acceleration }, 4);
        play_round(&mut c);
        assert!(c.is_over(), "{case}");
        // Through the text, as `rookery pair -c` reads it.
        let text = trf::write(&c.to_tournament()).unwrap();
        let t = trf::read(&text).unwrap_or_else(|e| panic!("{case}: {e}\n{text}"));
        assert_eq!(t.kind.as_deref(), Some(kind), "{case}");
        assert_eq!(acceleration::declared(&t), acceleration.is_some(), "{case}");
        let checks = pairing.check(&t);
        assert_eq!(checks.len(), 5, "{case}");
        for check in &checks {
            assert!(check.agrees(), "{case}: round {}: {:?}\n{text}", check.round, check.expected);
        }
        if acceleration.is_none() {
            assert!(t.accelerations.is_empty(), "{case}: no 250 line");
            continue;
        }
        // Seven entrants in round 1 make GA the first four (C.04.5.1); the late entry (1900,
        // ranked before p2 by name) joins GA at number 3, the last GA player p3 moving to 5.
        let ga: Vec<u32> = t.accelerations.iter().map(|a| a.player.get()).collect();
        assert_eq!(ga, [1, 2, 3, 4, 5], "{case}\n{text}");
        assert_eq!(c.tpn(c.find("p3").unwrap()).get(), 5, "{case}");
        assert_eq!(t.accelerations[0].points, [Score::ONE, Score::ONE, Score::HALF], "{case}");
        // The 250 lines are what the checker needs: without them round 1 differs.
        let bare = Tournament { accelerations: Vec::new(), ..t.clone() };
        let first = &pairing.check(&bare)[0];
        assert!(!first.agrees(), "{case}: round 1 is paired as if not accelerated");
    }
}

/// Issue 54: the acceleration is the competition's own, not the CLI's guess from the final
/// list: GA is drawn from the entrants of round 1, and an entrant who joins later takes his
/// place in it by the ranking list.
#[test]
fn the_last_ga_player_is_drawn_from_round_one_and_kept_after_a_late_entry() {
    let baku = Some(Method::Baku { last_ga: None });
    let system = System::Swiss { rounds: 5, pairing: SwissSystem::Burstein, acceleration: baku };
    let mut c = Competition::new(settings(system));
    assert_eq!(c.acceleration(), None, "no entrant, no groups");
    for i in 0..9 {
        join(&mut c, &format!("p{i}"), 2000 - 50 * i as u16);
    }
    // Nine entrants: GA is 2·⌈9/4⌉ = 6.
    let last = |c: &Competition| match c.acceleration() {
        Some(Method::Baku { last_ga }) => last_ga.map(|p| p.get()),
        None => None,
    };
    assert_eq!(last(&c), Some(6));
    play_round(&mut c);
    // A late entry at the top moves p5, the last of GA, to number 7; one at the bottom
    // changes nothing.
    join(&mut c, "strong", 2100);
    join(&mut c, "weak", 1000);
    assert_eq!(last(&c), Some(7));
    assert_eq!(c.tpn(c.find("p5").unwrap()).get(), 7);
    // Given in the settings, the last GA player is the arbiter's.
    let given = Method::Baku { last_ga: PlayerId::new(2) };
    let c = Competition::new(settings(System::Swiss {
        rounds: 5,
        pairing: SwissSystem::Dutch,
        acceleration: Some(given),
    }));
    assert_eq!(c.acceleration(), Some(given));
    assert_eq!(Competition::new(settings(swiss(5))).acceleration(), None);
}

/// A scoring the Baku method was not made for is refused when the round is paired, by name.
#[test]
fn an_acceleration_that_cannot_apply_refuses_the_pairing() {
    let baku = Some(Method::Baku { last_ga: None });
    let mut c = Competition::new(Settings {
        scoring: Scoring { win: Score(30), ..Scoring::default() },
        ..settings(System::Swiss { rounds: 3, pairing: SwissSystem::Dutch, acceleration: baku })
    });
    for i in 0..4 {
        join(&mut c, &format!("p{i}"), 2000 - i as u16);
    }
    let refused = c.pair_next().unwrap_err();
    assert!(matches!(refused, CompetitionError::Acceleration(_)), "{refused:?}");
    assert!(refused.to_string().starts_with("the Baku acceleration: "), "{refused}");
}

/// Issue 53: over the board, only the entrants checked in are paired; an absent round scores
/// as a zero-point absence, kept as it was when the round was paired; a late entrant is
/// paired from the round after entry once checked in.
#[test]
fn with_a_check_in_only_the_present_are_paired() {
    let mut c = Competition::new(Settings { check_in: true, ..settings(swiss(3)) });
    let players: Vec<EntrantId> =
        (0..6).map(|i| join(&mut c, &format!("p{i}"), 2000 - 50 * i as u16)).collect();
    assert!(!c.is_present(players[0]), "nobody is present before the check-in");
    assert_eq!(c.pair_next(), Err(CompetitionError::TooFewEntrants));
    for &p in &players[..5] {
        c.apply(&Action::CheckIn { entrant: p, present: true }).unwrap();
    }
    c.apply(&Action::CheckIn { entrant: players[4], present: false }).unwrap();
    play_round(&mut c);
    let paired = |c: &Competition, round: usize| -> Vec<EntrantId> {
        let r = &c.rounds()[round - 1];
        r.boards.iter().flat_map(|b| [b.white, b.black]).chain(r.pab).collect()
    };
    assert_eq!(paired(&c, 1).len(), 4);
    assert!(!paired(&c, 1).contains(&players[4]) && !paired(&c, 1).contains(&players[5]));
    // Present from round 2 on; the absence of round 1 stands.
    c.apply(&Action::CheckIn { entrant: players[5], present: true }).unwrap();
    let late = join(&mut c, "late", 1500);
    c.apply(&Action::CheckIn { entrant: late, present: true }).unwrap();
    assert!(!c.takes_part(players[5], 1) && c.takes_part(players[5], 2));
    play_round(&mut c);
    assert_eq!(paired(&c, 2).len(), 6, "four, the late-comer and the late entrant");
    let t = c.to_tournament();
    assert_eq!(t.player(c.tpn(players[5])).unwrap().rounds[0].result, ResultCode::ZeroPointBye);
    assert_eq!(t.player(c.tpn(late)).unwrap().rounds[0].result, ResultCode::ZeroPointBye);
    for check in dutch::check(&t) {
        assert!(check.agrees(), "round {}: {:?}", check.round, check.expected);
    }
    // Unpairing forgets who was absent from the round undone.
    let next = c.pair_next().unwrap();
    c.apply(&next).unwrap();
    c.apply(&Action::CheckIn { entrant: players[4], present: true }).unwrap();
    assert!(!c.takes_part(players[4], 3));
    c.apply(&Action::Unpair { round: 3 }).unwrap();
    assert!(c.takes_part(players[4], 3));
    assert_eq!(
        c.apply(&Action::CheckIn { entrant: EntrantId(99), present: true }),
        Err(CompetitionError::UnknownEntrant(EntrantId(99)))
    );
}

/// A round robin keeps an absent entrant in its table: the games are forfeits.
#[test]
fn an_absent_entrant_of_a_round_robin_forfeits() {
    let mut c = Competition::new(Settings {
        check_in: true,
        ..settings(System::RoundRobin { cycles: Cycles::Single })
    });
    let players: Vec<EntrantId> =
        (0..4).map(|i| join(&mut c, &format!("p{i}"), 2000 - i as u16)).collect();
    for &p in &players[..3] {
        c.apply(&Action::CheckIn { entrant: p, present: true }).unwrap();
    }
    let paired = c.pair_next().unwrap();
    c.apply(&paired).unwrap();
    c.apply(&Action::Publish { round: 1 }).unwrap();
    let forfeits = c.forfeits_of_withdrawn(1);
    assert_eq!(forfeits.len(), 1);
    let Action::Result { result, board, .. } = forfeits[0] else { panic!("{forfeits:?}") };
    let b = c.rounds()[0].boards[board as usize - 1];
    let expected = if b.white == players[3] {
        BoardResult::BlackByForfeit
    } else {
        BoardResult::WhiteByForfeit
    };
    assert_eq!(result, expected);
}

#[test]
fn a_rekeyed_entrant_is_found_by_its_new_key_only() {
    let mut c = Competition::new(settings(swiss(3)));
    let a = join(&mut c, "guest:li wei", 1800);
    join(&mut c, "ann", 1700);
    c.apply(&Action::Rekey { entrant: a, key: "liwei".into() }).unwrap();
    assert_eq!((c.find("liwei"), c.find("guest:li wei")), (Some(a), None));
    assert_eq!(
        c.apply(&Action::Rekey { entrant: a, key: "ann".into() }),
        Err(CompetitionError::DuplicateKey("ann".into()))
    );
}
