//! The random tournament generator: one seed, one file; every configuration key does what
//! JaVaFo's and bbpPairings' RTG documentation says; what it makes is a valid TRF that reads
//! back as itself. Paired by the stand-in engine of `trf_support`.

mod trf_support;

use std::convert::Infallible;

use rookery_tournament::generator::{
    generate, ConfigErrorKind, GenerateError, GeneratorConfig, PairingFault,
};
use rookery_tournament::{
    trf, ByeKind, Pair, PlayerId, ResultCode, RoundPairing, Score, Tournament,
};
use trf_support::by_score;

fn config(text: &str) -> GeneratorConfig {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn make(text: &str, seed: u64) -> Tournament {
    generate(&config(text), seed, by_score).unwrap()
}

fn results(t: &Tournament) -> impl Iterator<Item = ResultCode> + '_ {
    t.players.iter().flat_map(|p| p.rounds.iter().map(|e| e.result))
}

fn count(t: &Tournament, code: ResultCode) -> usize {
    results(t).filter(|&r| r == code).count()
}

/// What every generated tournament must be.
fn check(t: &Tournament, what: &str) {
    let rounds = t.rounds.expect("the generator declares its rounds");
    for id in t.player_ids() {
        let player = t.player(id).unwrap();
        assert_eq!(player.rounds.len(), rounds as usize, "{what}: player {id}");
        assert_eq!(player.points, t.score_after(id, rounds), "{what}: player {id}");
    }
    let text = trf::write(t).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(trf::read(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}")), *t, "{what}");
}

#[test]
fn a_seed_makes_one_file() {
    for seed in [0, 1, 42, u64::MAX] {
        let a = trf::write(&make("", seed)).unwrap();
        let b = trf::write(&make("", seed)).unwrap();
        assert_eq!(a, b, "seed {seed}");
    }
    assert_ne!(make("", 1), make("", 2));
}

#[test]
fn generated_tournaments_are_valid_files() {
    for seed in 0..12 {
        check(&make("", seed), &format!("seed {seed}"));
    }
    check(&make("PlayersNumber=1\nRoundsNumber=3", 5), "one player");
    check(&make("PlayersNumber=2\nRoundsNumber=1", 5), "two players");
}

#[test]
fn unset_keys_are_drawn_in_bbppairings_ranges() {
    for seed in 0..20 {
        let t = make("", seed);
        assert!((15..=215).contains(&t.players.len()), "seed {seed}");
        assert!((5..=15).contains(&t.rounds.unwrap()), "seed {seed}");
        let ratings: Vec<u16> = t.players.iter().map(|p| p.rating.unwrap()).collect();
        assert!(ratings.iter().all(|r| (1400..=2800).contains(r)), "seed {seed}");
        assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "seed {seed}: pairing numbers by rating");
    }
}

#[test]
fn players_rounds_and_ratings() {
    let t = make("PlayersNumber=33\nRoundsNumber=7\nHighestRating=2200\nLowestRating=2100", 3);
    assert_eq!((t.players.len(), t.rounds, t.rounds_played()), (33, Some(7), 7));
    assert!(t.players.iter().all(|p| (2100..=2200).contains(&p.rating.unwrap())));
    // One bound alone keeps the other on its side.
    let t = make("LowestRating=2900", 3);
    assert!(t.players.iter().all(|p| p.rating.unwrap() >= 2900));
    let t = make("HighestRating=1000", 3);
    assert!(t.players.iter().all(|p| p.rating.unwrap() <= 1000));
}

#[test]
fn draw_percentage() {
    let base = "PlayersNumber=40\nRoundsNumber=9\nForfeitRate=0\n";
    let t = make(&format!("{base}DrawPercentage=0"), 8);
    assert_eq!(count(&t, ResultCode::Draw), 0);
    assert!(count(&t, ResultCode::Win) > 0);
    // Equal ratings leave the whole percentage to draws.
    let t = make(&format!("{base}DrawPercentage=100\nHighestRating=2000\nLowestRating=2000"), 8);
    assert_eq!(count(&t, ResultCode::Win), 0);
    let t = make(&format!("{base}DrawPercentage=50\nHighestRating=2000\nLowestRating=2000"), 8);
    let (draws, wins) = (count(&t, ResultCode::Draw), count(&t, ResultCode::Win));
    assert!(draws.abs_diff(2 * wins) < 40, "{draws} draw entries, {wins} wins");
}

#[test]
fn forfeit_rate() {
    let base = "PlayersNumber=30\nRoundsNumber=8\n";
    let t = make(&format!("{base}ForfeitRate=0"), 4);
    assert_eq!(count(&t, ResultCode::ForfeitWin) + count(&t, ResultCode::ForfeitLoss), 0);
    // Every game forfeited, by both players.
    let t = make(&format!("{base}ForfeitRate=1\nRetiredRate=0\nHalfPointByeRate=0"), 4);
    assert!(
        results(&t).all(|r| matches!(r, ResultCode::ForfeitLoss | ResultCode::PairingAllocatedBye))
    );
    check(&t, "double forfeits");
    // One game in 4: about 15 × 8 / 4 = 30 forfeited games.
    let t = make(&format!("{base}ForfeitRate=4\nRetiredRate=0\nHalfPointByeRate=0"), 4);
    let games =
        (0..30).map(|i| &t.players[i]).flat_map(|p| &p.rounds).filter(|e| e.opponent.is_some());
    let forfeited = games.filter(|e| !e.is_played()).count() / 2;
    assert!((15..=45).contains(&forfeited), "{forfeited} forfeited games");
    check(&t, "forfeits");
}

#[test]
fn retired_rate() {
    let base = "PlayersNumber=40\nRoundsNumber=8\nHalfPointByeRate=0\n";
    let t = make(&format!("{base}RetiredRate=0"), 6);
    assert_eq!(count(&t, ResultCode::ZeroPointBye), 0);
    let t = make(&format!("{base}RetiredRate=2"), 6);
    let retired: Vec<&rookery_tournament::Player> = t
        .players
        .iter()
        .filter(|p| p.rounds.contains(&rookery_tournament::RoundEntry::ABSENT))
        .collect();
    assert_eq!(retired.len(), 20);
    for player in retired {
        // Round 1 played; absent from the first absence to the end.
        let first =
            player.rounds.iter().position(|e| e.result == ResultCode::ZeroPointBye).unwrap();
        assert!(first >= 1);
        assert!(player.rounds[first..].iter().all(|e| e.result == ResultCode::ZeroPointBye));
    }
    check(&t, "retirements");
}

#[test]
fn half_point_bye_rate() {
    let base = "PlayersNumber=24\nRoundsNumber=6\nRetiredRate=0\n";
    let t = make(&format!("{base}HalfPointByeRate=0"), 9);
    assert_eq!(count(&t, ResultCode::HalfPointBye), 0);
    let t = make(&format!("{base}HalfPointByeRate=1"), 9);
    for player in &t.players {
        let byes: Vec<usize> =
            (0..6).filter(|&r| player.rounds[r].result == ResultCode::HalfPointBye).collect();
        assert_eq!(byes.len(), 1, "{}", player.name);
        assert!(byes[0] < 5, "no half-point bye in the last round");
    }
    check(&t, "half-point byes");
}

#[test]
fn point_system() {
    let t = make("PlayersNumber=15\nRoundsNumber=5\nPointsForWin=3\nPointsForDraw=1", 2);
    let s = t.scoring;
    assert_eq!(
        (s.win, s.draw, s.forfeit_win, s.full_point_bye),
        (Score(30), Score(10), Score(30), Score(30))
    );
    assert_eq!(
        (s.half_point_bye, s.pairing_allocated_bye),
        (Score(10), Score(30)),
        "the PAB follows the win"
    );
    check(&t, "3-1-0");
    let t = make("PlayersNumber=15\nRoundsNumber=5\nPointsForLoss=0.5\nPointsForForfeitLoss=0.2\nPointsForPAB=0.5", 2);
    let s = t.scoring;
    assert_eq!((s.loss, s.forfeit_loss, s.zero_point_bye), (Score(5), Score(2), Score(2)));
    assert_eq!(s.pairing_allocated_bye, Score(5));
    check(&t, "forfeit loss sets the zero-point bye");
    let t = make("PlayersNumber=15\nRoundsNumber=5\nPointsForForfeitLoss=0.2\nPointsForZPB=0.1", 2);
    assert_eq!((t.scoring.forfeit_loss, t.scoring.zero_point_bye), (Score(2), Score(1)));
    check(&t, "forfeit loss apart from the zero-point bye (BB? records)");
}

#[test]
fn the_pairing_function_sees_the_tournament_before_the_round() {
    let config = config("PlayersNumber=21\nRoundsNumber=7\nRetiredRate=5\nHalfPointByeRate=3");
    let mut rounds_seen = Vec::new();
    let t = generate(&config, 11, |t: &Tournament, round: u32| {
        rounds_seen.push(round);
        assert_eq!(t.rounds, Some(7));
        assert!(t.rounds_played() < round);
        // The entries of the round are the byes known in advance, and nothing else.
        let entered: Vec<PlayerId> =
            t.player_ids().filter(|&id| t.player(id).unwrap().round(round).is_some()).collect();
        let byes: Vec<PlayerId> = t.announced_byes(round).into_iter().map(|(id, _)| id).collect();
        assert_eq!(entered, byes);
        // As an ITDX file it reads back as itself.
        assert_eq!(trf::read(&trf::write(t).unwrap()).unwrap(), *t, "round {round}");
        by_score(t, round)
    })
    .unwrap();
    assert_eq!(rounds_seen, [1, 2, 3, 4, 5, 6, 7]);
    let byes =
        (1..=7).flat_map(|r| t.announced_byes(r)).filter(|&(_, k)| k == ByeKind::Half).count();
    assert_eq!(byes, 7, "21 players, one in 3 takes a half-point bye");
}

#[test]
fn pairing_errors_name_the_round() {
    let config = config("PlayersNumber=6\nRoundsNumber=3\nRetiredRate=0\nHalfPointByeRate=0");
    let failing = |_: &Tournament, round: u32| {
        if round == 2 {
            Err("no pairing")
        } else {
            Ok(by_score_unwrapped(round))
        }
    };
    fn by_score_unwrapped(_: u32) -> RoundPairing {
        let id = |n| PlayerId::new(n).unwrap();
        RoundPairing {
            pairs: vec![
                Pair { white: id(1), black: id(2) },
                Pair { white: id(3), black: id(4) },
                Pair { white: id(5), black: id(6) },
            ],
            bye: None,
        }
    }
    let error = generate(&config, 1, failing).unwrap_err();
    assert_eq!(error.to_string(), "pairing round 2: no pairing");
    // The tournament up to the round that failed comes with the error: round 1 played, round
    // 2 not paired, and a checker reading it back sees one round.
    let GenerateError::Pairing { round: 2, error: "no pairing", before } = error else {
        panic!("{error:?}");
    };
    assert_eq!(before.rounds_played(), 1);
    assert!(before.players.iter().all(|p| p.round(1).is_some_and(|e| e.was_paired())));
    let written = rookery_tournament::trf::write(&before).unwrap();
    assert_eq!(rookery_tournament::trf::read(&written).unwrap().rounds_played(), 1);

    let id = |n| PlayerId::new(n).unwrap();
    let leaves_one_out = |_: &Tournament, _: u32| {
        Ok::<_, Infallible>(RoundPairing {
            pairs: vec![Pair { white: id(1), black: id(2) }],
            bye: Some(id(3)),
        })
    };
    let error = generate(&config, 1, leaves_one_out).unwrap_err();
    assert_eq!(
        error,
        GenerateError::InvalidPairing { round: 1, fault: PairingFault::Unpaired(id(4)) }
    );
    assert_eq!(error.to_string(), "the pairing of round 1 is invalid: player 4 is left unpaired");

    let twice = |_: &Tournament, _: u32| {
        let pairs = vec![Pair { white: id(1), black: id(2) }, Pair { white: id(2), black: id(3) }];
        Ok::<_, Infallible>(RoundPairing { pairs, bye: None })
    };
    let fault = |e| match e {
        GenerateError::InvalidPairing { fault, .. } => fault,
        GenerateError::Pairing { .. } => unreachable!(),
    };
    assert_eq!(fault(generate(&config, 1, twice).unwrap_err()), PairingFault::PairedTwice(id(2)));
    let stranger = |_: &Tournament, _: u32| {
        Ok::<_, Infallible>(RoundPairing {
            pairs: vec![Pair { white: id(1), black: id(9) }],
            bye: None,
        })
    };
    assert_eq!(
        fault(generate(&config, 1, stranger).unwrap_err()),
        PairingFault::UnknownPlayer(id(9))
    );
    // Pairing a player who asked for a bye.
    let config = GeneratorConfig::parse(
        "PlayersNumber=6\nRoundsNumber=3\nRetiredRate=0\nHalfPointByeRate=1",
    )
    .unwrap();
    let everyone = |_: &Tournament, round: u32| Ok::<_, Infallible>(by_score_unwrapped(round));
    assert!(matches!(
        fault(generate(&config, 1, everyone).unwrap_err()),
        PairingFault::Unavailable(_)
    ));
}

#[test]
fn configuration_errors_name_line_and_key() {
    let e = GeneratorConfig::parse("# RTG\nPlayersNumber=20\nDrawPercentage=half\n").unwrap_err();
    assert_eq!((e.line, e.key.as_str()), (3, "DrawPercentage"));
    assert!(matches!(e.kind, ConfigErrorKind::InvalidValue { .. }));
    assert_eq!(
        e.to_string(),
        "line 3, DrawPercentage: invalid value \"half\" (expected a whole number from 0 to 100)"
    );
    let e = GeneratorConfig::parse("PlayerNumber=20").unwrap_err();
    assert_eq!((e.line, e.key.as_str(), e.kind), (1, "PlayerNumber", ConfigErrorKind::UnknownKey));
    // bbpPairings' misspelling is accepted.
    assert_eq!(config("HalfPointByteRate=3"), config("HalfPointByeRate=3"));
}
