//! Random tournaments paired by the Burstein engine, then checked: every round re-paired from
//! the rounds before it comes out the same, and every round keeps the rules no pairing may
//! break: a perfect matching of the players present with at most one PAB, no second meeting,
//! no second PAB, none after a win without playing, colour differences within ±2 and no
//! colour three times running (C.04.4.2 [C3] has no exception for topscorers).
//!
//! 300 seeds always; 10,000 with `cargo test --release -p rookery-tournament --test
//! burstein_generated -- --ignored`.

mod swiss_support;

use rookery_tournament::burstein;
use swiss_support::run;

#[test]
fn generated_tournaments_pass_the_checker() {
    run(0..300, burstein::pair, burstein::check, false);
}

#[test]
#[ignore = "10,000 seeds: about a minute in release"]
fn ten_thousand_generated_tournaments_pass_the_checker() {
    run(0..10_000, burstein::pair, burstein::check, false);
}
