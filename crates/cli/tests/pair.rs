//! `rookery pair` as a tournament director runs it: `-p` prints the next round as JaVaFo
//! does, `-c` checks every round, `-g` generates a tournament the checker accepts, Berger
//! tables, and a one-line error with status 2 for each kind of bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rookery_tournament::{dutch, trf, Tournament};

fn rtg(seed: u32) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tournament/tests/data/dutch-rtg")
        .join(format!("rtg-{seed:06}.trf"))
}

fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

fn read(path: &Path) -> Tournament {
    trf::read_bytes(&std::fs::read(path).unwrap()).unwrap()
}

/// `rookery pair FLAGS -g CONFIG -o NAME -s SEED`, the configuration `config` written to
/// `dir` first: the process's output and the tournament file's path.
fn generate(dir: &Path, flags: &[&str], config: &str, seed: u32, name: &str) -> (Output, PathBuf) {
    let config_path = dir.join(format!("{name}.rtg"));
    std::fs::write(&config_path, config).unwrap();
    let out = dir.join(name);
    let seed = seed.to_string();
    let mut args = vec!["pair"];
    args.extend_from_slice(flags);
    args.extend(["-g", config_path.to_str().unwrap(), "-o", out.to_str().unwrap(), "-s", &seed]);
    (rookery(&args), out)
}

/// A failure the user caused: status 2 and one line on stderr, which contains `needle`.
fn assert_usage_error(o: &Output, needle: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "{needle:?} in {err:?}");
}

#[test]
fn pairs_the_next_round_as_the_reference_engine_did() {
    let dir = tempfile::tempdir().unwrap();
    // Small with many PABs, a half-point bye, and the last round of 120 players.
    for (seed, round) in [(206, 3), (303, 4), (93, 10)] {
        let full = read(&rtg(seed));
        let before = dir.path().join(format!("before-{seed}.trf"));
        std::fs::write(&before, trf::write(&full.before_round(round)).unwrap()).unwrap();
        let o = rookery(&["pair", "--dutch", before.to_str().unwrap(), "-p"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let printed = text(&o.stdout);
        let mut lines = printed.lines();
        let count: usize = lines.next().unwrap().parse().unwrap();
        let rest: Vec<&str> = lines.collect();
        assert_eq!(rest.len(), count);
        let expected = dutch::pairing_of(&full, round);
        assert_eq!(count, expected.pairs.len() + expected.bye.is_some() as usize);
        for pair in &expected.pairs {
            assert!(
                rest.contains(&format!("{} {}", pair.white, pair.black).as_str()),
                "{pair:?} in {printed}"
            );
        }
        if let Some(bye) = expected.bye {
            assert_eq!(rest.last().unwrap(), &format!("{bye} 0"), "the bye is listed last");
        }
        // The same into a file.
        let out = dir.path().join("pairs.txt");
        let o =
            rookery(&["pair", "--dutch", before.to_str().unwrap(), "-p", out.to_str().unwrap()]);
        assert!(o.status.success() && o.stdout.is_empty());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), printed);
    }
}

#[test]
fn check_accepts_a_faithful_tournament_and_names_the_rounds_of_another() {
    let o = rookery(&["pair", "--dutch", rtg(42).to_str().unwrap(), "-c"]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("every round as the rules give it"), "{out}");

    // Swap the colours of one round-2 game: that round, and only it, differs.
    let mut t = read(&rtg(42));
    let white = t
        .players
        .iter()
        .position(|p| p.rounds[1].colour == Some(rookery_core::Color::White))
        .unwrap();
    let black = t.players[white].rounds[1].opponent.unwrap().index();
    for p in [white, black] {
        let entry = &mut t.players[p].rounds[1];
        entry.colour = entry.colour.map(|c| c.other());
    }
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("swapped.trf");
    std::fs::write(&bad, trf::write(&t).unwrap()).unwrap();
    let o = rookery(&["pair", "--dutch", bad.to_str().unwrap(), "-c"]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.contains(": round 2:"), "{out}");
    assert!(out.lines().last().unwrap().ends_with("1 differ") || out.contains("differ"), "{out}");
}

#[test]
fn generated_tournaments_are_reproducible_and_pass_the_checker() {
    let dir = tempfile::tempdir().unwrap();
    let config = "PlayersNumber=31\nRoundsNumber=7\nDrawPercentage=35\nForfeitRate=15\nRetiredRate=20\nHalfPointByeRate=10\n";
    let mut files = Vec::new();
    for name in ["a.trf", "b.trf"] {
        let (o, file) = generate(dir.path(), &["--dutch"], config, 5, name);
        assert!(o.status.success(), "{}", text(&o.stderr));
        files.push(file);
    }
    let (a, b) = (&files[0], &files[1]);
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap(), "same seed, same file");
    let o = rookery(&["pair", "--dutch", a.to_str().unwrap(), "-c"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert_eq!(read(a).players.len(), 31);
}

#[test]
fn baku_acceleration_is_computed_written_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let config = "PlayersNumber=30\nRoundsNumber=9\nDrawPercentage=30\n";
    let (o, accelerated) = generate(dir.path(), &["--dutch", "--baku"], config, 3, "baku.trf");
    assert!(o.status.success(), "{}", text(&o.stderr));
    // 30 players: GA is the first 16 (half rounded up to an even number); nine rounds: a
    // whole virtual point in rounds 1-3, half a point in rounds 4-5, as 250 records.
    let t = read(&accelerated);
    assert_eq!(t.kind.as_deref(), Some("FIDE_DUTCH_BAKU"));
    assert_eq!(t.accelerations.len(), 16);
    let points: Vec<String> = t.accelerations[15].points.iter().map(|p| p.to_string()).collect();
    assert_eq!(points, ["1.0", "1.0", "1.0", "0.5", "0.5"]);
    let o = rookery(&["pair", "--dutch", accelerated.to_str().unwrap(), "-c"]);
    assert!(o.status.success(), "{}", text(&o.stdout));

    // Without the 250 lines the file's type still asks for the method: computed again, the
    // same rounds. Without the type either, the rounds differ from a plain Dutch pairing,
    // unless --baku is given.
    let original = String::from_utf8(std::fs::read(&accelerated).unwrap()).unwrap();
    let without = |codes: &[&str]| {
        original
            .split('\r')
            .filter(|l| !codes.iter().any(|c| l.starts_with(c)))
            .collect::<Vec<_>>()
            .join("\r")
    };
    let declared = dir.path().join("declared.trf");
    std::fs::write(&declared, without(&["250"])).unwrap();
    assert!(rookery(&["pair", "--dutch", declared.to_str().unwrap(), "-c"]).status.success());
    let plain = dir.path().join("plain.trf");
    std::fs::write(&plain, without(&["250", "092"])).unwrap();
    let o = rookery(&["pair", "--dutch", plain.to_str().unwrap(), "-c"]);
    assert_eq!(o.status.code(), Some(1), "a plain Dutch pairing differs: {}", text(&o.stdout));
    assert!(rookery(&["pair", "--dutch", "--baku", plain.to_str().unwrap(), "-c"])
        .status
        .success());
    // GA ending elsewhere (late entries) is another acceleration: the rounds differ.
    let o = rookery(&[
        "pair",
        "--dutch",
        "--baku",
        "--baku-last-ga",
        "14",
        plain.to_str().unwrap(),
        "-c",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));

    assert_usage_error(
        &rookery(&[
            "pair",
            "--dutch",
            "--baku",
            "--baku-last-ga",
            "31",
            plain.to_str().unwrap(),
            "-c",
        ]),
        "last GA player 31",
    );
    assert_usage_error(
        &rookery(&[
            "pair",
            "--dutch",
            "--baku",
            "--baku-last-ga",
            "0",
            plain.to_str().unwrap(),
            "-c",
        ]),
        "--baku-last-ga",
    );
}

#[test]
fn a_generated_round_that_no_pairing_satisfies_leaves_the_file_up_to_it_and_status_3() {
    // Six players, five rounds, frequent forfeits: with seed 5 round 5 cannot be paired.
    let dir = tempfile::tempdir().unwrap();
    let config = "PlayersNumber=6\nRoundsNumber=5\nForfeitRate=3\nRetiredRate=0\n";
    let (o, out) = generate(dir.path(), &["--dutch"], config, 5, "t.trf");
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("round 5") && err.contains("t.trf holds the tournament"), "{err}");
    // The file has the four rounds paired, each as the rules give it, and pairing the fifth
    // from it says again that no pairing exists, with the same status.
    let t = read(&out);
    assert_eq!(t.rounds_played(), 4);
    assert!(rookery(&["pair", "--dutch", out.to_str().unwrap(), "-c"]).status.success());
    let o = rookery(&["pair", "--dutch", out.to_str().unwrap(), "-p"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        text(&o.stderr).contains("no pairing complies with the absolute criteria"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn round_robin_schedules() {
    let o = rookery(&["pair", "--round-robin", "4"]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout).lines().count(), 3);
    let o = rookery(&["pair", "--round-robin", "5", "--double"]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout).lines().count(), 10);
}

#[test]
fn knockout_brackets() {
    let o = rookery(&["pair", "--knockout", "6"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    let round_one: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("Round 1")).skip(1).take(4).collect();
    assert_eq!(round_one, ["  1.1  1 - bye", "  1.2  4 - 5", "  1.3  3 - 6", "  1.4  2 - bye"]);
    // A seed through on a bye is named in round 2, not as the "winner" of a match not played.
    assert!(
        out.contains("Round 2, semi-final:\n  2.1  1 - winner 1.2\n  2.2  winner 1.3 - 2\n"),
        "{out}"
    );
    assert!(out.contains("Round 3, final:\n  3.1  winner 2.1 - winner 2.2\n"), "{out}");
    assert_usage_error(&rookery(&["pair", "--knockout", "1"]), "--knockout 1");
    let o = rookery(&["pair", "--knockout", "8", "--round-robin", "8"]);
    assert_eq!(o.status.code(), Some(2), "one system at a time");
}

#[test]
fn bad_input_is_one_line_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.trf");
    assert_usage_error(
        &rookery(&["pair", "--dutch", missing.to_str().unwrap(), "-p"]),
        "missing.trf",
    );
    assert_usage_error(
        &rookery(&["pair", "--dutch", dir.path().to_str().unwrap(), "-c"]),
        "directory",
    );
    let broken = dir.path().join("broken.trf");
    std::fs::write(&broken, "001    1      Test0001 Player0001               2762                             2.5    4    12 w =    11 x 1\r").unwrap();
    assert_usage_error(
        &rookery(&["pair", "--dutch", broken.to_str().unwrap(), "-c"]),
        "line 1, column",
    );
    // Pairing the next round needs the number of rounds: a finished file does not say it.
    assert_usage_error(&rookery(&["pair", "--dutch", rtg(1).to_str().unwrap(), "-p"]), "XXR");
    assert_usage_error(&rookery(&["pair", "--round-robin", "1"]), "--round-robin 1");
    assert_usage_error(&rookery(&["pair", "--dutch", rtg(1).to_str().unwrap()]), "-p");
    assert_usage_error(&rookery(&["pair", rtg(1).to_str().unwrap(), "-c"]), "--dutch");
    let config = dir.path().join("bad.txt");
    std::fs::write(&config, "PlayersNumber=ten\n").unwrap();
    let out = dir.path().join("out.trf");
    assert_usage_error(
        &rookery(&["pair", "--dutch", "-g", config.to_str().unwrap(), "-o", out.to_str().unwrap()]),
        "PlayersNumber",
    );
}

#[test]
fn burstein_generates_checks_and_pairs_like_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let config = "PlayersNumber=27\nRoundsNumber=8\nDrawPercentage=30\nForfeitRate=20\nRetiredRate=25\nHalfPointByeRate=10\n";
    let (o, file) = generate(dir.path(), &["--burstein"], config, 7, "burstein.trf");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = rookery(&["pair", "--burstein", file.to_str().unwrap(), "-c"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("(C.04.4.2, 2026)"), "{}", text(&o.stdout));
    // The Dutch checker disagrees with it after the seeding rounds (four of eight).
    let o = rookery(&["pair", "--dutch", file.to_str().unwrap(), "-c"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));

    // -p: round 6 again, as the library pairs it, White first, the PAB last.
    let full = read(&file);
    let before = dir.path().join("before.trf");
    std::fs::write(&before, trf::write(&full.before_round(6)).unwrap()).unwrap();
    let o = rookery(&["pair", "--burstein", before.to_str().unwrap(), "-p"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let pairing = rookery_tournament::burstein::pair(&read(&before), 6).unwrap();
    assert_eq!(text(&o.stdout), pairing.to_javafo());
    assert_eq!(rookery_tournament::burstein::pairing_of(&full, 6).pairs.len(), pairing.pairs.len());

    assert_usage_error(&rookery(&["pair", "--burstein", rtg(1).to_str().unwrap(), "-p"]), "XXR");
    let o = rookery(&["pair", "--dutch", "--burstein", file.to_str().unwrap(), "-c"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// Issue 54: a Swiss the site runs (a `Competition`, as the server's tournament actor folds
/// it), exported as its TRF, is re-paired round by round by `rookery pair -c` with the same
/// system, for each system and acceleration the site offers; a late entry included, which
/// moves the last GA player down the list (the `250` lines carry the site's groups).
#[test]
fn a_site_swiss_exported_checks_with_rookery_pair_under_each_system() {
    use rookery_core::Color;
    use rookery_tournament::acceleration::Method;
    use rookery_tournament::competition::{Action, BoardResult, Competition, Settings, System};
    use rookery_tournament::{Regulations, Scoring, SwissSystem};

    let dir = tempfile::tempdir().unwrap();
    let baku = Some(Method::Baku { last_ga: None });
    for (pairing, acceleration, flag) in [
        (SwissSystem::Dutch, None, "--dutch"),
        (SwissSystem::Burstein, None, "--burstein"),
        (SwissSystem::Dutch, baku, "--dutch"),
        (SwissSystem::Burstein, baku, "--burstein"),
    ] {
        let mut c = Competition::new(Settings {
            name: "Site Swiss".into(),
            system: System::Swiss { rounds: 5, pairing, acceleration },
            scoring: Scoring::default(),
            initial_colour: Color::White,
            tiebreaks: Vec::new(),
            regulations: Regulations::C07_2026,
            max_requested_byes: 1,
            late_entry_until: 2,
            check_in: false,
        });
        let join = |c: &mut Competition, key: &str, rating: u16| {
            let name = key.to_owned();
            c.apply(&Action::Join { key: key.into(), name, rating: Some(rating), title: None })
                .unwrap();
        };
        for i in 0..9u16 {
            join(&mut c, &format!("p{i}"), 2200 - 40 * i);
        }
        for round in 1..=5u32 {
            if round == 2 {
                join(&mut c, "late", 2300);
            }
            let paired = c.pair_next().unwrap();
            c.apply(&paired).unwrap();
            c.apply(&Action::Publish { round }).unwrap();
            let boards = c.rounds()[round as usize - 1].boards.len() as u32;
            for board in 1..=boards {
                let result = [BoardResult::WhiteWon, BoardResult::Draw, BoardResult::BlackWon]
                    [((round * 2 + board) % 3) as usize];
                c.apply(&Action::Result { round, board, result }).unwrap();
            }
        }
        let file = dir.path().join(format!("{flag}-{}.trf", acceleration.is_some()));
        std::fs::write(&file, trf::write(&c.to_tournament()).unwrap()).unwrap();
        let o = rookery(&["pair", flag, file.to_str().unwrap(), "-c"]);
        let out = text(&o.stdout);
        assert!(o.status.success(), "{flag} {acceleration:?}: {out}{}", text(&o.stderr));
        assert!(out.contains("5 rounds checked, every round as the rules give it"), "{out}");
        if acceleration.is_none() {
            continue;
        }
        // Without the 250 lines the type (092 *_BAKU) has the checker draw GA from all ten
        // players: the first six, not the site's seven (the late entry is number 1, the last GA
        // player of round 1 number 7), and the rounds differ; --baku-last-ga 7 says it again.
        let written = std::fs::read_to_string(&file).unwrap();
        let bare: Vec<&str> = written.split('\r').filter(|l| !l.starts_with("250")).collect();
        let bare_file = dir.path().join(format!("{flag}-bare.trf"));
        std::fs::write(&bare_file, bare.join("\r")).unwrap();
        let bare_path = bare_file.to_str().unwrap();
        let o = rookery(&["pair", flag, bare_path, "-c"]);
        assert_eq!(o.status.code(), Some(1), "{flag}: GA of six differs: {}", text(&o.stdout));
        let o = rookery(&["pair", flag, "--baku", "--baku-last-ga", "7", bare_path, "-c"]);
        assert!(o.status.success(), "{flag} --baku-last-ga 7: {}", text(&o.stdout));
    }
}

#[test]
fn team_swiss_and_team_round_robin() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("league.teams");
    std::fs::write(&file, "rounds 3\nteam Rooks\nteam Knights\nteam Bishops\nteam Pawns\n")
        .unwrap();
    // Round 1 by C.04.6 Art. 3.6 and 4.3.1: 1-2 and 3-4, the odd numbers White on board 1.
    let o = rookery(&["pair", "--team-swiss", file.to_str().unwrap(), "-p"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "2\n1 2\n3 4\n");
    let o = rookery(&["pair", "--team-round-robin", "4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "Round 1: 1-4 2-3\nRound 2: 4-3 1-2\nRound 3: 2-4 3-1\n");
    let o = rookery(&["pair", "--team-round-robin", "5", "--double"]);
    assert_eq!(text(&o.stdout).lines().count(), 10);
    // Two teams that have met: no pairing, status 3.
    let met = dir.path().join("met.teams");
    std::fs::write(&met, "rounds 2\nteam A\nteam B\nround 1-2 1=0=\n").unwrap();
    let o = rookery(&["pair", "--team-swiss", met.to_str().unwrap(), "-p"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    let bad = dir.path().join("bad.teams");
    std::fs::write(&bad, "rounds 3\nplayers 4\n").unwrap();
    assert_usage_error(&rookery(&["pair", "--team-swiss", bad.to_str().unwrap(), "-p"]), "line 2");
    assert_usage_error(&rookery(&["pair", "--team-round-robin", "1"]), "--team-round-robin 1");
}
