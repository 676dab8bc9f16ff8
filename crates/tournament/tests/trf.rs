//! TRF on real files: the 499 tournaments of bbpPairings' random generator (`data/dutch-rtg/`,
//! see its README) and hand-made files in the ITDX spellings (`data/trf/itdx/`: TRF-2026,
//! TRF(x), TRF(bx), before round 1). Every file reads, and reading what the writer writes
//! gives the same tournament.

use std::path::{Path, PathBuf};

use rookery_core::Color;
use rookery_tournament::trf::{self, LineEnding, WriteOptions};
use rookery_tournament::{ByeKind, PlayerId, Regulations, ResultCode, Score, Scoring, Tournament};

fn data(dir: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    if dir == "rtg" {
        root.join("dutch-rtg")
    } else {
        root.join("trf").join(dir)
    }
}

fn trf_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Tournament {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    trf::read_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reads the file, writes it, reads that back: the same tournament.
fn round_trip(path: &Path) -> Tournament {
    let tournament = read(path);
    let text = trf::write(&tournament).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(text.ends_with('\r') && !text.contains('\n'), "{}: CR line endings", path.display());
    let again =
        trf::read(&text).unwrap_or_else(|e| panic!("{}: rewritten: {e}\n{text}", path.display()));
    assert_eq!(again, tournament, "{}: read → write → read", path.display());
    tournament
}

/// What a finished generated tournament must be: everyone has an entry every round, and
/// the declared points are the sum of the rounds.
fn check_generated(path: &Path, t: &Tournament) {
    let name = path.display();
    let rounds = t.rounds_played();
    assert!(rounds >= 3, "{name}: {rounds} rounds");
    assert_eq!(t.planned_rounds(), rounds, "{name}");
    assert_eq!(t.kind.as_deref(), Some("FIDE_DUTCH_2025"), "{name}");
    for id in t.player_ids() {
        let player = t.player(id).unwrap();
        assert_eq!(player.rounds.len(), rounds as usize, "{name}: player {id}");
        assert_eq!(t.score_after(id, rounds), player.points, "{name}: player {id}");
    }
}

#[test]
fn every_generated_tournament_reads_and_round_trips() {
    let files = trf_files(&data("rtg"));
    assert_eq!(files.len(), 499);
    for path in files {
        let t = round_trip(&path);
        check_generated(&path, &t);
    }
}

#[test]
fn player_records_are_written_in_the_columns_they_were_read_from() {
    for path in trf_files(&data("rtg")) {
        let original = std::fs::read_to_string(&path).unwrap();
        let written = trf::write(&read(&path)).unwrap();
        let players = |text: &str| -> Vec<String> {
            text.split('\r').filter(|l| l.starts_with("001")).map(str::to_owned).collect()
        };
        assert_eq!(players(&written), players(&original), "{}", path.display());
    }
}

#[test]
fn byes_entered_before_a_round_are_known_when_pairing_it() {
    // rtg-000379: player 8 asked for a half-point bye in round 4 (`0000 - H`).
    let t = read(&data("rtg").join("rtg-000379.trf"));
    let byes: Vec<_> = (1..=t.rounds_played()).map(|r| t.announced_byes(r)).collect();
    assert!(byes.iter().flatten().all(|&(_, kind)| kind == ByeKind::Half));
    let (round, &[(player, ByeKind::Half)]) = byes
        .iter()
        .enumerate()
        .find(|(_, b)| !b.is_empty())
        .map(|(r, b)| (r as u32 + 1, b.as_slice()))
        .unwrap()
    else {
        panic!("one half-point bye")
    };
    let before = t.before_round(round);
    assert_eq!(before.rounds_played(), round - 1);
    assert_eq!(before.announced_byes(round), [(player, ByeKind::Half)]);
    assert_eq!(before.planned_rounds(), t.rounds_played());
    // The tournament as it stood then is itself a valid file.
    assert_eq!(trf::read(&trf::write(&before).unwrap()).unwrap(), before);
}

#[test]
fn absences_are_zero_point_byes_known_in_advance() {
    // rtg-000113: one player absent (`0000 - Z`) in one round.
    let t = read(&data("rtg").join("rtg-000113.trf"));
    let absent: Vec<_> = (1..=t.rounds_played())
        .flat_map(|r| t.announced_byes(r).into_iter().map(move |b| (r, b)))
        .collect();
    assert_eq!(absent.len(), 1);
    assert_eq!(absent[0].1 .1, ByeKind::Zero);
}

#[test]
fn the_initial_colour_is_inferred_from_round_1() {
    for path in trf_files(&data("rtg")) {
        let t = read(&path);
        assert_eq!(t.initial_colour, None);
        // The highest player who played round 1 had the initial colour (rtg-000113: player
        // 1 was absent, player 2 had Black).
        let top = t.players.iter().map(|p| p.rounds[0]).find(|e| e.was_paired()).unwrap();
        assert_eq!(t.inferred_initial_colour(), top.colour, "{}", path.display());
    }
}

fn id(n: u32) -> PlayerId {
    PlayerId::new(n).unwrap()
}

#[test]
fn trf26_records_before_round_4() {
    let t = round_trip(&data("itdx").join("trf26-before-round-4.trf"));
    assert_eq!(t.name.as_deref(), Some("Rookery Open"));
    assert_eq!(t.deputy_arbiters, ["Deputy, One", "Deputy, Two"]);
    assert_eq!(t.rounds, Some(6));
    assert_eq!(t.initial_colour, Some(Color::White));
    assert_eq!(t.inferred_initial_colour(), Some(Color::White));
    let three = Score::from_tenths(30);
    assert_eq!(
        t.scoring,
        Scoring {
            win: three,
            forfeit_win: three,
            full_point_bye: three,
            pairing_allocated_bye: three,
            draw: Score::ONE,
            half_point_bye: Score::ONE,
            ..Scoring::default()
        }
    );
    assert_eq!(t.tie_breaks, ["BH:C1", "BH", "SB"]);
    assert_eq!(t.standings_tie_breaks, ["PTS", "BH:C1", "BH", "SB"]);
    assert_eq!(t.rounds_played(), 3);
    assert_eq!(t.announced_byes(4), [(id(4), ByeKind::Half), (id(6), ByeKind::Zero)]);
    assert_eq!(t.announced_byes(2), [(id(6), ByeKind::Half)]);
    assert_eq!(t.acceleration(id(5), 4), Score::ONE);
    assert_eq!(t.acceleration(id(4), 4), Score::ZERO);
    assert!(t.is_forbidden(id(2), id(3), 4) && !t.is_forbidden(id(2), id(3), 1));
    // 299: player 3's forfeit win of round 1 is worth 1.0, not 3.0.
    assert_eq!(t.score_after(id(3), 3), Score::from_tenths(70));
    assert_eq!(t.adjusted_score_after(id(3), 3), 50);
    let alpha = &t.players[0];
    assert_eq!((alpha.sex, alpha.title.as_deref()), (Some('w'), Some("FM")));
    assert_eq!((alpha.federation.as_deref(), alpha.fide_id), (Some("ITA"), Some(12_345_678)));
    assert_eq!(alpha.birth_date.as_deref(), Some("1990/01/02"));
    assert_eq!(t.players[3].name, "Délia, Dörte");
    assert_eq!(t.players[5].rating, None);
    // 132 keeps its columns; the NRS record and the counts are kept as they are.
    let dates = t.other_lines.iter().find(|(code, _)| code == "132").unwrap();
    assert_eq!(dates.1.find('2'), Some(92 - 5));
    assert!(t.other_lines.iter().any(|(code, _)| code == "ITA"));
}

#[test]
fn trf26_trfx_and_trfbx_say_the_same_tournament() {
    let t26 = read(&data("itdx").join("trf26-before-round-4.trf"));
    let x = round_trip(&data("itdx").join("trfx-before-round-4.trf"));
    let bx = round_trip(&data("itdx").join("trfbx-before-round-4.trf"));
    assert_eq!(x.scoring, t26.scoring);
    assert_eq!(bx.scoring, t26.scoring);
    for t in [&x, &bx] {
        assert_eq!(t.rounds, Some(6));
        assert_eq!(t.initial_colour, Some(Color::White));
        assert_eq!(t.announced_byes(4), t26.announced_byes(4));
        assert_eq!(t.accelerations, t26.accelerations);
        assert!(t.is_forbidden(id(3), id(2), 1));
        for (a, b) in t.players.iter().zip(&t26.players) {
            assert_eq!(a.rounds, b.rounds);
        }
    }
}

#[test]
fn a_tournament_before_round_1() {
    let t = round_trip(&data("itdx").join("before-round-1.trf"));
    assert_eq!((t.rounds_played(), t.planned_rounds()), (0, 5));
    assert_eq!(t.initial_colour, Some(Color::Black));
    assert!(t.players.iter().all(|p| p.rounds.is_empty() && p.points == Score::ZERO));
}

#[test]
fn line_endings_are_a_writing_option() {
    let t = read(&data("itdx").join("trf26-before-round-4.trf"));
    for ending in [LineEnding::Lf, LineEnding::CrLf] {
        let text = trf::write_with(&t, WriteOptions { line_ending: ending }).unwrap();
        assert_eq!(text.contains('\r'), ending == LineEnding::CrLf);
        assert_eq!(trf::read(&text).unwrap(), t);
    }
}

#[test]
fn every_result_code_round_trips() {
    let mut t = read(&data("itdx").join("before-round-1.trf"));
    t.rounds = Some(12);
    let game = |opponent: u32, colour, result| rookery_tournament::RoundEntry {
        opponent: Some(id(opponent)),
        colour: Some(colour),
        result,
    };
    let bye = rookery_tournament::RoundEntry::bye;
    use ResultCode::*;
    // Players 1 and 2 meet six times, with every pair of results that agree; 3 to 6 take
    // every bye.
    let pairs = [
        (Win, Loss),
        (Draw, Draw),
        (UnratedWin, UnratedLoss),
        (UnratedDraw, UnratedDraw),
        (ForfeitWin, ForfeitLoss),
        (ForfeitLoss, ForfeitLoss),
    ];
    for (a, b) in pairs {
        t.players[0].rounds.push(game(2, Color::White, a));
        t.players[1].rounds.push(game(1, Color::Black, b));
    }
    for p in &mut t.players[2..] {
        p.rounds.resize(6, bye(ZeroPointBye));
    }
    for code in [HalfPointBye, FullPointBye, PairingAllocatedBye, ZeroPointBye] {
        for p in &mut t.players[2..] {
            p.rounds.push(bye(code));
        }
        t.players[0].rounds.push(bye(ZeroPointBye));
        t.players[1].rounds.push(bye(ZeroPointBye));
    }
    // One PAB a round: players 4 to 6 are absent in round 9 instead.
    for p in &mut t.players[3..] {
        p.rounds[8] = bye(ZeroPointBye);
    }
    for i in 0..t.players.len() {
        let id = PlayerId::from_index(i);
        t.players[i].points = t.score_after(id, 10);
    }
    let text = trf::write(&t).unwrap();
    assert_eq!(trf::read(&text).unwrap(), t, "{text}");
    assert!(text.contains("     2 w W") && text.contains("  0000 - F"));
}

/// TRF-2026 has no record for the text of C.07 that the tie-breaks of `202` follow, so
/// Rookery writes its own, `C07` (issue 51: without it a file of a tournament on the 2024 text
/// was ranked by the 2026 one). It reads back; a year that is no text of C.07, or a second
/// record, is an error naming its place.
#[test]
fn the_c07_record_says_which_text_of_c07_the_tie_breaks_follow() {
    let mut t = read(&data("itdx").join("trf26-before-round-4.trf"));
    assert_eq!(t.tie_break_regulations, None, "a file without the record does not say");
    for regulations in Regulations::ALL {
        t.tie_break_regulations = Some(regulations);
        let text = trf::write_with(&t, WriteOptions { line_ending: LineEnding::Lf }).unwrap();
        let record = format!("C07 {}", regulations.year());
        assert!(text.lines().any(|l| l == record), "{record} in\n{text}");
        assert_eq!(trf::read(&text).unwrap(), t, "{record}");
    }
    let text = trf::write_with(&t, WriteOptions { line_ending: LineEnding::Lf }).unwrap();
    let line = text.lines().position(|l| l == "C07 2026").unwrap() + 1;
    let bad = text.replace("C07 2026", "C07 2025");
    assert_eq!(
        trf::read(&bad).unwrap_err().to_string(),
        format!("line {line}, column 5: invalid tie-break regulations (2024 or 2026) \"2025\"")
    );
    let twice = text.replace("C07 2026", "C07 2026\nC07 2024");
    assert_eq!(
        trf::read(&twice).unwrap_err().to_string(),
        format!("line {}, column 1: a second C07 record (it is allowed once)", line + 1)
    );
}

/// TRF-2026 `013`: a team's name in columns 5–36, its players' pairing numbers from column 37,
/// every 5 columns; a team event's `001` lines are each player's games board by board.
#[test]
fn team_records_read_and_round_trip() {
    // Columns 1–80, the points at 81–84, the rank's columns blank, round 1 from column 90.
    let player = |n: u32, name: &str, points: &str, round: &str| {
        format!("{:<80}{points:>4}     {round}\r", format!("001 {n:>4}      {name}"))
    };
    let text = [
        "012 Club league\r".to_owned(),
        player(1, "Alpha, Anna", "1.0", "     3 w 1"),
        player(2, "Beta, Bert", "0.0", "     4 b -"),
        player(3, "Gamma, Gus", "0.0", "     1 b 0"),
        player(4, "Delta, Dora", "1.0", "     2 w +"),
        "013 Rooks                              1    2\r".to_owned(),
        "013 Knights                            3    4\r".to_owned(),
    ]
    .concat();
    let text = text.as_str();
    let t = trf::read(text).unwrap();
    let names: Vec<(&str, Vec<u32>)> = t
        .teams
        .iter()
        .map(|team| (team.name.as_str(), team.players.iter().map(|p| p.get()).collect()))
        .collect();
    assert_eq!(names, [("Rooks", vec![1, 2]), ("Knights", vec![3, 4])]);
    let written = trf::write(&t).unwrap();
    assert!(written.contains("013 Knights                            3    4\r"), "{written}");
    assert_eq!(trf::read(&written).unwrap(), t);

    // A team naming a player the file does not have is refused where it names them.
    let bad = text.replace(
        "013 Knights                            3    4",
        "013 Knights                            3    9",
    );
    let e = trf::read(&bad).unwrap_err();
    assert_eq!((e.line, e.column), (7, 42), "{e}");
    // A record without a name is refused at the name.
    let e = trf::read(&text.replace("013 Rooks   ", "013         ")).unwrap_err();
    assert_eq!((e.line, e.column), (6, 5), "{e}");
}
