//! One rule at a time: the hand-made cases of `data/dutch/` (their README), each paired and
//! compared with the pairing worked out by hand from the rules.

use std::path::Path;

mod swiss_support;

use rookery_tournament::dutch;

#[test]
fn every_case_pairs_as_worked_out_by_hand() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    swiss_support::assert_hand_worked_cases(&dir, dutch::pair, 7);
}
