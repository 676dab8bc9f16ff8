//! One rule at a time: the hand-made cases of `data/dutch/` (their README), each paired and
//! compared with the pairing worked out by hand from the rules.

use std::path::Path;

use rookery_tournament::{dutch, trf, RoundPairing};

/// The pairing as JaVaFo prints it.
fn javafo(pairing: &RoundPairing) -> String {
    let mut text = format!("{}\n", pairing.pairs.len() + pairing.bye.is_some() as usize);
    for pair in &pairing.pairs {
        text.push_str(&format!("{} {}\n", pair.white, pair.black));
    }
    if let Some(bye) = pairing.bye {
        text.push_str(&format!("{bye} 0\n"));
    }
    text
}

#[test]
fn every_case_pairs_as_worked_out_by_hand() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 7);
    for case in cases {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let t = trf::read(&std::fs::read_to_string(&case).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = std::fs::read_to_string(case.with_extension("pairs")).unwrap();
        let got = match dutch::pair(&t, t.rounds_played() + 1) {
            Ok(pairing) => javafo(&pairing),
            Err(dutch::PairError::NoPairing(_)) => "no pairing\n".to_owned(),
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(got, expected, "{name}");
    }
}
