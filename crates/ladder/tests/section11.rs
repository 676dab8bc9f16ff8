//! The RULES.md §11 award table, cell by cell, read from `tests/data/section11.txt`.
//!
//! Every line is checked as written (A the lower side) and again with A and B swapped, and
//! every award is checked to be zero-sum.

use rookery_ladder::{award, Band, PairResult, Points};

const TABLE: &str = include_str!("data/section11.txt");

struct Case {
    line: usize,
    text: &'static str,
    a: Points,
    b: Points,
    result: PairResult,
    delta_a: Points,
    delta_b: Points,
}

fn cases() -> Vec<Case> {
    TABLE
        .lines()
        .enumerate()
        .filter(|(_, text)| !text.trim().is_empty() && !text.starts_with('#'))
        .map(|(i, text)| {
            let line = i + 1;
            let fields: Vec<&str> = text.split_whitespace().collect();
            let [a, b, result, delta_a, delta_b] = fields[..] else {
                panic!("section11.txt:{line}: expected 5 fields: {text}");
            };
            let points = |s: &str| {
                s.parse::<Points>().unwrap_or_else(|e| panic!("section11.txt:{line}: {e}"))
            };
            Case {
                line,
                text,
                a: points(a),
                b: points(b),
                result: result.parse().unwrap_or_else(|e| panic!("section11.txt:{line}: {e}")),
                delta_a: points(delta_a),
                delta_b: points(delta_b),
            }
        })
        .collect()
}

#[test]
fn every_cell_in_both_orders() {
    let cases = cases();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    for c in &cases {
        let Case { line, text, a, b, result, delta_a, delta_b } = *c;
        assert!(a <= b, "section11.txt:{line}: A should be the lower side: {text}");
        assert_eq!(award(a, b, result), (delta_a, delta_b), "section11.txt:{line}: {text}");
        assert_eq!(
            award(b, a, result.swapped()),
            (delta_b, delta_a),
            "section11.txt:{line} swapped: {text}"
        );
        assert_eq!(
            delta_a.hundredths() + delta_b.hundredths(),
            0,
            "section11.txt:{line}: not zero-sum: {text}"
        );
    }
}

#[test]
fn every_band_and_result_is_covered() {
    let cases = cases();
    for band in [Band::Close, Band::Near, Band::Far, Band::Distant] {
        for result in PairResult::ALL {
            let n = cases
                .iter()
                .filter(|c| Band::of(c.a.abs_diff(c.b)) == band && c.result == result)
                .count();
            assert!(n >= 9, "{band:?} × {result}: only {n} cases");
        }
    }
    // The edges themselves, on both sides.
    for edge in [0, 1, 999, 1_000, 9_999, 10_000, 19_999, 20_000] {
        assert!(
            cases.iter().any(|c| c.a.abs_diff(c.b) == edge),
            "no case at diff {edge} hundredths"
        );
    }
}

/// The cells of §11 written out once more by hand, independent of the data file.
#[test]
fn band_edges_by_hand() {
    let p = |s: &str| s.parse::<Points>().unwrap();
    let zero = Points::ZERO;
    // (B's points with A at 0 so diff = B, lower wins, draw, higher wins), A lower.
    for (b, lower_wins, draw, higher_wins) in [
        ("0", "10", "0", "10"), // diff 0: the winner gains 10, a draw changes nothing
        ("9.99", "10", "0", "10"), // diff < 10
        ("10", "11", "5.5", "9.2"), // 10 + 1; (10 + 1) / 2; 10 − 0.8
        ("99.99", "20", "10", "2"), // 19.999; 9.9995; 2.0008
        ("100", "50", "25", "2"), // diff / 2; diff / 4; 2
        ("199.99", "100", "50", "2"), // 99.995; 49.9975; 2
        ("200", "100", "50", "0"), // diff / 2; diff / 4; 0
    ] {
        let b = p(b);
        assert_eq!(award(zero, b, PairResult::AWins), (p(lower_wins), -p(lower_wins)), "{b}");
        assert_eq!(award(zero, b, PairResult::Draw), (p(draw), -p(draw)), "{b}");
        assert_eq!(award(zero, b, PairResult::BWins), (-p(higher_wins), p(higher_wins)), "{b}");
    }
}

/// A quirk of the §11 table, kept as written: for 10 ≤ diff ≤ 11.11 a draw gives the lower side
/// (10 + diff/10) / 2, more than half the gap, so the two players swap places (at diff 10 the
/// lower side ends 1.00 ahead). At 11.12 they end level, and above it the order holds.
#[test]
fn a_draw_can_swap_the_order_just_above_diff_10() {
    let p = |s: &str| s.parse::<Points>().unwrap();
    let after_draw = |b: &str| {
        let (da, db) = award(Points::ZERO, p(b), PairResult::Draw);
        (da, p(b).checked_add(db).unwrap())
    };
    assert_eq!(after_draw("9.99"), (p("0"), p("9.99")));
    assert_eq!(after_draw("10"), (p("5.5"), p("4.5")));
    assert_eq!(after_draw("11.11"), (p("5.56"), p("5.55")));
    assert_eq!(after_draw("11.12"), (p("5.56"), p("5.56")));
    assert_eq!(after_draw("11.13"), (p("5.56"), p("5.57")));
    for hundredths in 1_113..=20_000 {
        let b = Points::from_hundredths(hundredths).unwrap();
        let (da, db) = award(Points::ZERO, b, PairResult::Draw);
        assert!(da < b.checked_add(db).unwrap(), "diff {b}: the draw swapped the order");
    }
}
