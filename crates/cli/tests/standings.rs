//! `rookery standings` as a user runs it: the README's example run word for word, JSON that
//! parses, and a one-line error with status 2 naming the bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tournament/tests/data/tiebreak")
        .join(name)
        .display()
        .to_string()
}

fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The example of the README's `rookery standings` section, as printed there.
#[test]
fn readme_example_is_what_the_program_prints() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("the README is readable");
    let command = "$ rookery standings crates/tournament/tests/data/tiebreak/hamilton_2018.trf \
                   --tiebreaks DE,PS,BH,SB,BH-C1 | head -4\n";
    let start = readme.find(command).expect("the README shows the example") + command.len();
    let shown: Vec<&str> = readme[start..].lines().take(4).collect();
    let o = rookery(&["standings", &data("hamilton_2018.trf"), "--tiebreaks", "DE,PS,BH,SB,BH-C1"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let printed = text(&o.stdout);
    assert_eq!(printed.lines().take(4).collect::<Vec<_>>(), shown);
    assert_eq!(printed.lines().count(), 28, "a header and 27 players");
}

#[test]
fn json_has_a_row_per_player_with_every_tiebreak() {
    let o = rookery(&[
        "standings",
        &data("held_swiss_5.trf"),
        "--json",
        "--regulations",
        "2024",
        "--tiebreaks",
        "BH,ARO-C1,DE",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(json["regulations"], "C.07 2024");
    assert_eq!(json["after_round"], 5);
    let rows = json["standings"].as_array().expect("an array of rows");
    assert_eq!(rows.len(), 16);
    assert_eq!(rows[0]["pairing_number"], 2);
    assert_eq!(rows[0]["tiebreaks"]["BH"], 13.0);
    // Nick (12) played one game: ARO-C1 cuts it and has no value.
    let nick = rows.iter().find(|r| r["pairing_number"] == 12).unwrap();
    assert!(nick["tiebreaks"]["ARO-C1"].is_null());
}

#[test]
fn ties_left_by_the_list_share_a_rank_unless_ordered_by_pairing_number() {
    let file = data("held_swiss_5.trf");
    let shared = text(&rookery(&["standings", &file, "--tiebreaks", "DE"]).stdout);
    // Alyx (1), Charline (3), David (4) and Stephan (16), on 3.5, never all met: rank 2 each.
    let ranks: Vec<&str> = shared.lines().skip(2).take(4).map(|l| &l[..4]).collect();
    assert_eq!(ranks, ["   2"; 4]);
    let strict =
        text(&rookery(&["standings", &file, "--tiebreaks", "DE", "--by-pairing-number"]).stdout);
    let ranks: Vec<&str> = strict.lines().skip(2).take(4).map(|l| &l[..4]).collect();
    assert_eq!(ranks, ["   2", "   3", "   4", "   5"]);
}

#[test]
fn errors_are_one_line_naming_the_input() {
    let trf = data("held_swiss_5.trf");
    let expected = data("held_swiss_5.expected");
    let cases: [(&[&str], &str); 5] = [
        (&["standings", "no-such-file.trf"], "rookery: cannot read no-such-file.trf: "),
        (&["standings", "."], "rookery: cannot read .: "),
        (&["standings", &expected], &format!("rookery: {expected}: line 12, column 4: ")),
        (&["standings", &trf, "--tiebreaks", "BH,XY"], "rookery: unknown tie-break \"XY\""),
        (&["standings", &trf, "--round", "6"], "--round 6: only 5 rounds have been played"),
    ];
    for (args, message) in cases {
        let o = rookery(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let o = rookery(&["standings", &trf, "--regulations", "2025"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("2025"));
}

/// Issue 51: a file that says which text of C.07 its tie-breaks follow (Rookery's record
/// `C07`, which the site's export writes) is ranked by that text, unless `--regulations`
/// says otherwise.
#[test]
fn the_file_s_c07_record_chooses_the_text_unless_regulations_is_given() {
    let original = std::fs::read_to_string(data("held_swiss_5.trf")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("held_swiss_5_c07_2024.trf");
    let mut lines: Vec<&str> = original.lines().collect();
    let first_player = lines.iter().position(|l| l.starts_with("001")).unwrap();
    lines.insert(first_player, "C07 2024");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let file = file.display().to_string();
    let list = ["--tiebreaks", "BH,BH-C1,SB,ARO"];
    let run = |path: &str, more: &[&str]| {
        let o = rookery(&[&["standings", path, "--json"][..], &list, more].concat());
        assert!(o.status.success(), "{more:?}: {}", text(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("valid JSON")
    };
    let read = run(&file, &[]);
    assert_eq!(read["regulations"], "C.07 2024");
    assert_eq!(read, run(&data("held_swiss_5.trf"), &["--regulations", "2024"]));
    assert_eq!(run(&file, &["--regulations", "2026"])["regulations"], "C.07 2026");
}

/// `--fide-k`: FIDE rating changes (B.02 8.3) as a rating officer computes them by hand.
#[test]
fn fide_rating_changes_are_those_worked_by_hand() {
    let o = rookery(&["standings", &data("held_swiss_5.trf"), "--fide-k", "20", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let rows = json["standings"].as_array().expect("an array of rows");
    let change =
        |n: u32| &rows.iter().find(|r| r["pairing_number"] == n).unwrap()["fide_rating_change"];
    // Bruno (2150): won against 1750 (D 400, PD .92), 1900 (D 250, .81) and 1450 (D 700
    // counted as 400, .92), drew with 2200 (D -50, .43) and 2100 (D 50, .57): 20 × (4 - 3.65).
    assert_eq!(change(2)["change"], 7.0);
    assert_eq!(change(2)["games"], 5);
    // Maria (1700): the forfeit won against Jessica is not rated; drew with 2100 (.08), lost to
    // 1450 (D 250, .81) and 2000 (D -300, .15), won against 1900 (D -200, .24):
    // 20 × (1.5 - 1.28).
    assert_eq!(change(11)["change"], 4.4);
    assert_eq!(change(11)["games"], 4);
    // Nick (1650) played one game, lost to 2050 (D -400, .08): 20 × (0 - .08).
    assert_eq!(change(12)["change"], -1.6);

    let table = rookery(&["standings", &data("held_swiss_5.trf"), "--fide-k", "auto"]);
    assert!(table.status.success(), "{}", text(&table.stderr));
    let stephan = text(&table.stdout).lines().find(|l| l.contains("Stephan")).unwrap().to_owned();
    // 1450, born 1990: K 20; 3.5 points against an expected .86.
    assert!(stephan.ends_with("20    +52.80"), "{stephan}");

    let bad = rookery(&["standings", &data("held_swiss_5.trf"), "--fide-k", "50"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("expected auto or a K of 1 to 40, not \"50\""));
}
