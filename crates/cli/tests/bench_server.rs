//! `rookery bench server` as an operator runs it: a short load spread over two load generator
//! processes whose reports merge into one, and a run that could not measure the server
//! refused before it starts.

use std::process::{Command, Output};

fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery")).args(args).output().expect("the binary runs")
}

#[test]
fn games_spread_over_two_processes_merge_into_one_report() {
    let o = rookery(&[
        "bench",
        "server",
        "--games",
        "21",
        "--client-processes",
        "2",
        "--competing-load",
        "1",
        "--ramp-s",
        "1",
        "--duration-s",
        "3",
        "--move-interval-ms",
        "200..300",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(report["client_processes"], 2);
    assert_eq!(report["competing_load"], 1);
    assert_eq!(report["games"], 21);
    // 11 + 10 games, every one live at the end.
    assert_eq!(report["games_live"], 21, "{report}");
    assert_eq!(report["valid"], true, "{report}");
    assert!(report["moves"].as_u64().unwrap() > 21, "{report}");
    assert!(report["round_trip"]["p50_ms"].as_f64().unwrap() > 0.0);
    assert!(report["server"]["cpu_cores"].as_f64().is_some(), "the server's CPU over the window");
}

#[test]
fn a_run_past_the_open_file_limit_is_refused_before_it_starts() {
    let o = rookery(&["bench", "server", "--games", "5000000"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("open files for 5000000 games but the limit is"), "{stderr}");
}
