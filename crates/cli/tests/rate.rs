//! `rookery rate` end to end: the built binary, its JSON on stdout and its exit status
//! (RULES.md §11).

use std::process::{Command, Output};

fn rate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery"))
        .arg("rate")
        .args(args)
        .output()
        .expect("the rookery binary runs")
}

fn json(a: &str, b: &str, result: &str) -> String {
    let out = rate(&["--a", a, "--b", b, "--result", result]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "rate {a} {b} {result}: {:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "rate {a} {b} {result}: unexpected stderr: {stderr}");
    let stdout = String::from_utf8(out.stdout).expect("utf-8 output");
    assert_eq!(stdout.lines().count(), 1, "one line: {stdout}");
    stdout.trim_end().to_owned()
}

fn expected(deltas: (&str, &str), points: (&str, &str), levels: (&str, &str)) -> String {
    format!(
        "{{\"a_delta\": {}, \"b_delta\": {}, \"a_points\": {}, \"b_points\": {}, \
         \"a_level\": \"{}\", \"b_level\": \"{}\"}}",
        deltas.0, deltas.1, points.0, points.1, levels.0, levels.1
    )
}

#[test]
fn equal_points() {
    let (u, u2) = ("unranked", "unranked");
    let want = expected(("10.00", "-10.00"), ("10.00", "-10.00"), (u, u2));
    assert_eq!(json("0", "0", "a"), want);
    let want = expected(("-10.00", "10.00"), ("-10.00", "10.00"), (u, u2));
    assert_eq!(json("0", "0", "b"), want);
    let want = expected(("0.00", "0.00"), ("0.00", "0.00"), (u, u2));
    assert_eq!(json("0", "0", "draw"), want);
}

#[test]
fn every_band_through_the_binary() {
    // diff 9.99: a win is worth 10 either way, a draw nothing.
    assert_eq!(
        json("95", "104.99", "a"),
        expected(("10.00", "-10.00"), ("105.00", "94.99"), ("level-30", "unranked"))
    );
    // diff 10: the higher side's win is worth 10 − 10/12.5 = 9.20.
    assert_eq!(
        json("110", "100", "a"),
        expected(("9.20", "-9.20"), ("119.20", "90.80"), ("level-30", "unranked"))
    );
    // diff 99.99: the lower side's draw is worth (10 + 9.999) / 2 = 9.9995 → 10.00.
    assert_eq!(
        json("200.01", "300", "draw"),
        expected(("10.00", "-10.00"), ("210.01", "290.00"), ("level-29", "level-29"))
    );
    // diff 137.5: a draw is worth diff / 4 = 34.375 → 34.38 (half away from zero).
    assert_eq!(
        json("12.5", "150", "draw"),
        expected(("34.38", "-34.38"), ("46.88", "115.62"), ("unranked", "level-30"))
    );
    // diff 199.99, B lower wins: diff / 2 = 99.995 → 100.00.
    assert_eq!(
        json("3100", "2900.01", "b"),
        expected(("-100.00", "100.00"), ("3000.00", "3000.01"), ("level-1", "level-1"))
    );
    // diff 200: the higher side's win is worth nothing.
    assert_eq!(
        json("-100", "100", "b"),
        expected(("0.00", "0.00"), ("-100.00", "100.00"), ("unranked", "level-30"))
    );
}

#[test]
fn accepts_negative_and_fractional_points() {
    assert_eq!(
        json("-3", "0.01", "b"),
        expected(("-10.00", "10.00"), ("-13.00", "10.01"), ("unranked", "unranked"))
    );
    assert_eq!(
        json("-2999.5", "-3000", "draw"),
        expected(("0.00", "0.00"), ("-2999.50", "-3000.00"), ("unranked", "unranked"))
    );
    let out = rate(&["--a=-12.25", "--b=-1", "--result=a"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Bad input exits 2, prints nothing on stdout, and the message names the input.
#[test]
fn bad_input_exits_2() {
    for (args, named) in [
        (&["--a", "abc", "--b", "0", "--result", "a"][..], "abc"),
        (&["--a", "1.234", "--b", "0", "--result", "a"][..], "1.234"),
        (&["--a", "0", "--b", "1e5", "--result", "a"][..], "1e5"),
        (&["--a", "0", "--b", "1,5", "--result", "a"][..], "1,5"),
        (&["--a", "", "--b", "0", "--result", "a"][..], "--a"),
        (&["--a", "0", "--b", "0", "--result", "white"][..], "white"),
        (&["--a", "0", "--b", "0", "--result", "A"][..], "\"A\""),
        (&["--a", "0", "--b", "0", "--result", "1-0"][..], "1-0"),
        (&["--a", "10000000000000", "--b", "0", "--result", "a"][..], "10000000000000"),
        (&["--a", "9999999999999.99", "--b", "9999999999999.99", "--result", "a"][..], "--a"),
    ] {
        let out = rate(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", out.stdout);
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.contains(named), "{args:?}: the first line should name {named:?}: {stderr}");
    }
}

#[test]
fn missing_arguments_exit_2() {
    for args in [&["--b", "0", "--result", "a"][..], &["--a", "0", "--b", "0"][..]] {
        let out = rate(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_messages_say_what_is_wrong() {
    let first_line = |args: &[&str]| {
        let out = rate(args);
        String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or_default().to_owned()
    };
    let line = first_line(&["--a", "1.234", "--b", "0", "--result", "a"]);
    assert!(line.contains(r#"invalid points "1.234": more than two decimals"#), "{line}");
    let line = first_line(&["--a", "0", "--b", "0", "--result", "x"]);
    assert!(line.contains(r#"unknown result "x": expected a, b or draw"#), "{line}");
    let line = first_line(&["--a", "9999999999999.99", "--b", "9999999999999.99", "--result", "a"]);
    assert_eq!(
        line,
        "rookery: --a 9999999999999.99: the new points would leave the range of ±9999999999999.99"
    );
}
