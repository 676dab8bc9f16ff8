//! The README's examples are true (issue 37): every `$ rookery …` line of a `console` block
//! whose command needs no file, network or time is run, and its output must be the lines shown
//! below it, where a line `…` stands for any number of lines.

use std::process::Command;

/// Subcommands whose output depends only on their arguments (and the repository's files).
const DETERMINISTIC: &[&str] = &["perft", "moves", "rate", "pair"];

/// Splits a command line at spaces, keeping double-quoted words whole.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Whether `actual` fits `expected`, where `…` matches any run of lines.
fn fits(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"…", rest)) => (0..=actual.len()).any(|skip| fits(rest, &actual[skip..])),
        Some((line, rest)) => actual.first() == Some(line) && fits(rest, &actual[1..]),
    }
}

#[test]
fn readme_examples_print_what_they_show() {
    let readme = include_str!("../../../README.md");
    let mut ran = 0;
    let mut in_console = false;
    let lines: Vec<&str> = readme.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        let Some(command) = line.strip_prefix("$ rookery ").filter(|_| in_console) else {
            continue;
        };
        let mut expected = Vec::new();
        while i < lines.len() && !lines[i].starts_with("$ ") && !lines[i].starts_with("```") {
            expected.push(lines[i]);
            i += 1;
        }
        let args = words(command);
        if command.contains('|') || !DETERMINISTIC.contains(&args[0].as_str()) {
            continue;
        }
        let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args(&args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .output()
            .unwrap();
        assert!(out.status.success(), "README: `rookery {command}` failed");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let actual: Vec<&str> = stdout.lines().collect();
        assert!(
            fits(&expected, &actual),
            "README: `rookery {command}` shows\n{}\nbut prints\n{stdout}",
            expected.join("\n")
        );
        ran += 1;
    }
    assert!(ran >= 7, "only {ran} README examples were run");
}

#[test]
fn the_ellipsis_matches_any_run_of_lines() {
    assert!(fits(&["a", "…", "d"], &["a", "b", "c", "d"]));
    assert!(fits(&["a", "…", "d"], &["a", "d"]));
    assert!(!fits(&["a", "…", "b8=Q+", "O-O-O"], &["a", "b8=Q+", "b8=N", "O-O-O"]));
    assert_eq!(
        words(r#"moves --fen "4k3/8 w - - 0 1" --san"#),
        ["moves", "--fen", "4k3/8 w - - 0 1", "--san"]
    );
}
