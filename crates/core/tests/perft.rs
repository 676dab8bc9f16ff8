//! The perft suite of `tests/data/perftsuite.epd` (sources cited in the file): every position at
//! every published depth whose count fits the node budget. `cargo test` runs a budget of
//! 4 million nodes per depth; the deep run (every depth up to 3 billion nodes) is
//! `cargo test --release -p rookery-core --test perft -- --ignored`.

use rookery_core::perft::perft;
use rookery_core::Position;

struct Case {
    line: usize,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn suite() -> Vec<Case> {
    let text = include_str!("data/perftsuite.epd");
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().expect("split yields one part").trim().to_owned();
        let depths = parts
            .map(|p| {
                let p = p.trim();
                let (d, n) = p
                    .strip_prefix('D')
                    .and_then(|r| r.split_once(' '))
                    .unwrap_or_else(|| panic!("line {}: bad depth field {p:?}", i + 1));
                (d.parse().expect("depth"), n.trim().parse().expect("count"))
            })
            .collect();
        cases.push(Case { line: i + 1, fen, depths });
    }
    cases
}

fn run(budget: u64) -> u64 {
    let cases = suite();
    assert!(cases.len() >= 106, "the suite has {} positions", cases.len());
    let mut total = 0;
    for case in &cases {
        let pos: Position =
            case.fen.parse().unwrap_or_else(|e| panic!("line {}: {e}: {}", case.line, case.fen));
        for &(depth, expected) in &case.depths {
            if expected > budget {
                continue;
            }
            let nodes = perft(&pos, depth);
            assert_eq!(nodes, expected, "line {}: perft({depth}) of {}", case.line, case.fen);
            total += nodes;
        }
    }
    total
}

#[test]
fn perft_suite_within_budget() {
    let total = run(4_000_000);
    assert!(total > 90_000_000, "only {total} nodes checked");
}

#[test]
#[ignore = "deep: minutes in release mode"]
fn perft_suite_deep() {
    run(3_000_000_000);
}
