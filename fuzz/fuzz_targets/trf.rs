//! Any bytes as a TRF file: the reader never panics; what it reads, the writer writes and the
//! reader reads back as the same tournament; and the questions a pairing engine asks of it
//! are answered for every round.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rookery_tournament::trf;

fuzz_target!(|data: &[u8]| {
    let Ok(tournament) = trf::read_bytes(data) else { return };
    let text = trf::write(&tournament).expect("a tournament read from TRF writes as TRF");
    let again = trf::read(&text).expect("what the writer writes reads");
    assert_eq!(again, tournament, "read → write → read");
    let played = tournament.rounds_played();
    assert!(played <= tournament.rounds_with_entries());
    for round in 1..=played + 1 {
        let _ = tournament.announced_byes(round);
        let before = tournament.before_round(round);
        assert!(before.rounds_played() < round);
    }
    let _ = tournament.inferred_initial_colour();
});
