//! Invariants of RULES.md §11 and of the Glicko-2 updates, checked on random inputs.
//!
//! The three the issue asks for: every game is zero-sum, a win never loses points, and the lower
//! side never gains less from a win than from a draw. The rest guard the arithmetic.

use proptest::prelude::*;
use rookery_ladder::{award, Glicko2, Ladder, Level, PairResult, Points, Rating};

const MAX: i64 = Points::MAX.hundredths();

fn points_from(hundredths: i64) -> Points {
    Points::from_hundredths(hundredths).expect("strategy stays in range")
}

/// Points where the ladder lives (±5000), anywhere in range, or exactly on a §11 band edge
/// from a random base.
fn pair() -> impl Strategy<Value = (Points, Points)> {
    let edges = prop::sample::select(vec![
        0i64, 1, 999, 1_000, 1_001, 9_999, 10_000, 10_001, 19_999, 20_000, 20_001,
    ]);
    prop_oneof![
        (-500_000i64..=500_000, -500_000i64..=500_000),
        (-MAX..=MAX, -MAX..=MAX),
        (-500_000i64..=500_000, edges, any::<bool>()).prop_map(|(base, diff, flip)| if flip {
            (base + diff, base)
        } else {
            (base, base + diff)
        }),
    ]
    .prop_map(|(a, b)| (points_from(a), points_from(b)))
}

fn result() -> impl Strategy<Value = PairResult> {
    prop::sample::select(PairResult::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn zero_sum_always((a, b) in pair(), r in result()) {
        let (da, db) = award(a, b, r);
        prop_assert_eq!(da.hundredths() + db.hundredths(), 0);
    }

    #[test]
    fn a_win_never_loses_points((a, b) in pair()) {
        prop_assert!(!award(a, b, PairResult::AWins).0.is_negative());
        prop_assert!(!award(a, b, PairResult::BWins).1.is_negative());
    }

    #[test]
    fn lower_side_gains_at_least_as_much_from_a_win_as_from_a_draw((a, b) in pair()) {
        prop_assume!(a != b);
        let (lower, higher) = if a < b { (a, b) } else { (b, a) };
        let win = award(lower, higher, PairResult::AWins).0;
        let draw = award(lower, higher, PairResult::Draw).0;
        prop_assert!(win >= draw, "win {} < draw {}", win, draw);
    }

    #[test]
    fn argument_order_does_not_matter((a, b) in pair(), r in result()) {
        let (da, db) = award(a, b, r);
        prop_assert_eq!(award(b, a, r.swapped()), (db, da));
    }

    #[test]
    fn only_the_difference_matters((a, b) in pair(), shift in -100_000i64..=100_000, r in result()) {
        let (Some(a2), Some(b2)) = (
            Points::from_hundredths(a.hundredths() + shift),
            Points::from_hundredths(b.hundredths() + shift),
        ) else {
            return Ok(());
        };
        prop_assert_eq!(award(a2, b2, r), award(a, b, r));
    }

    /// A draw moves points from the higher side to the lower, and swaps their order only in the
    /// narrow band where §11 gives the lower side more than half the gap (see
    /// `section11.rs::a_draw_can_swap_the_order_just_above_diff_10`).
    #[test]
    fn a_draw_never_helps_the_higher_side((a, b) in pair()) {
        let (da, db) = award(a, b, PairResult::Draw);
        let (lower_delta, higher_delta) = if a <= b { (da, db) } else { (db, da) };
        prop_assert!(!lower_delta.is_negative() && !higher_delta.is_positive());
        let new_a = a.hundredths() + da.hundredths();
        let new_b = b.hundredths() + db.hundredths();
        if a != b && (a < b) != (new_a <= new_b) {
            prop_assert!(
                (1_000..=1_111).contains(&a.abs_diff(b)),
                "draw swapped the order: {} {} -> {} {}", a, b, new_a, new_b
            );
        }
    }

    #[test]
    fn display_and_parse_round_trip(h in -MAX..=MAX) {
        let p = points_from(h);
        prop_assert_eq!(p.to_string().parse::<Points>(), Ok(p));
    }

    #[test]
    fn parse_never_panics_and_names_its_input(s in "\\PC{0,24}") {
        if let Err(e) = s.parse::<Points>() {
            prop_assert_eq!(e.input(), s.as_str());
        }
    }

    #[test]
    fn parse_agrees_with_integer_arithmetic(whole in 0i64..10_000_000, cents in 0i64..100, neg in any::<bool>()) {
        let text = format!("{}{whole}.{cents:02}", if neg { "-" } else { "" });
        let want = (whole * 100 + cents) * if neg { -1 } else { 1 };
        prop_assert_eq!(text.parse::<Points>().map(Points::hundredths), Ok(want));
        prop_assert!(format!("{text}1").parse::<Points>().is_err(), "three decimals accepted");
    }

    #[test]
    fn level_is_monotone_in_points(x in -500_000i64..=500_000, y in -500_000i64..=500_000) {
        let (lo, hi) = (x.min(y), x.max(y));
        prop_assert!(Level::of(points_from(lo)) <= Level::of(points_from(hi)));
        let level = Level::of(points_from(x));
        prop_assert!(level.min_points() <= points_from(x));
        prop_assert_eq!(level.label().parse::<Level>(), Ok(level));
    }

    #[test]
    fn ladder_stays_zero_sum(games in prop::collection::vec((0usize..5, 0usize..5, result()), 0..60)) {
        let names = ["ann", "ben", "cai", "dan", "eve"];
        let mut ladder = Ladder::new();
        for (w, b, r) in games {
            if w != b {
                ladder.record(names[w], names[b], r).unwrap();
            }
        }
        let total: i64 = ladder.players().map(|p| p.points().hundredths()).sum();
        prop_assert_eq!(total, 0);
        let rows = ladder.standings();
        prop_assert!(rows.windows(2).all(|w| w[0].player.points() >= w[1].player.points()));
        for p in ladder.players() {
            let (lo, hi) = ladder.glicko().deviation_bounds();
            prop_assert!((lo..=hi).contains(&p.rating().deviation));
        }
    }

    #[test]
    fn glicko2_winner_never_drops(
        ra in 600.0f64..2800.0, rda in 45.0f64..350.0, va in 0.03f64..0.1,
        rb in 600.0f64..2800.0, rdb in 45.0f64..350.0, vb in 0.03f64..0.1,
    ) {
        let glicko = Glicko2::default();
        let (a, b) = (Rating::new(ra, rda, va), Rating::new(rb, rdb, vb));
        let (a2, b2) = glicko.rate_game(a, b, PairResult::AWins);
        prop_assert!(a2.rating >= a.rating && b2.rating <= b.rating, "{:?} {:?}", a2, b2);
        for r in [a2, b2] {
            prop_assert!((45.0..=350.0).contains(&r.deviation), "{:?}", r);
            prop_assert!(r.volatility.is_finite() && r.volatility > 0.0, "{:?}", r);
        }
    }
}
