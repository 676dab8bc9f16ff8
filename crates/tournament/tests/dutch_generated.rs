//! Random tournaments paired by the Dutch engine, then checked: every round re-paired from
//! the rounds before it comes out the same (what another engine's checker does with them),
//! and every round keeps the rules no pairing may break: a perfect matching of the players
//! present with at most one PAB, no second meeting, no second PAB, none after a win without
//! playing, colour differences within ±2 and no colour three times running except for
//! topscorers in the last round.
//!
//! 300 seeds always; the 10,000 of the issue with `cargo test --release -p
//! rookery-tournament --test dutch_generated -- --ignored`.

mod swiss_support;

use rookery_tournament::dutch;
use swiss_support::run;

#[test]
fn generated_tournaments_pass_the_checker() {
    run(0..300, dutch::pair, dutch::check, true);
}

#[test]
#[ignore = "the 10,000 seeds of issue 36: about a minute in release"]
fn ten_thousand_generated_tournaments_pass_the_checker() {
    run(0..10_000, dutch::pair, dutch::check, true);
}
