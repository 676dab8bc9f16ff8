//! Bad TRF files, one per kind of error: `data/trf/bad/NAME.trf` is `valid.trf` changed in
//! one place (its first line says where), and the reader must name that place and say what
//! is wrong.

use std::path::Path;

use rookery_tournament::trf::{self, Feature, Field, ReadErrorKind};
use rookery_tournament::{PlayerId, ResultCode, Score};

fn id(n: u32) -> PlayerId {
    PlayerId::new(n).unwrap()
}

fn read(name: &str) -> Result<rookery_tournament::Tournament, trf::ReadError> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/trf/bad")
        .join(format!("{name}.trf"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    trf::read_bytes(&bytes)
}

#[test]
fn the_valid_file_reads() {
    let t = read("valid").unwrap();
    assert_eq!((t.players.len(), t.rounds_played()), (4, 2));
}

#[test]
fn each_bad_file_names_its_line_column_and_fault() {
    use ReadErrorKind::*;
    use ResultCode::*;
    let invalid = |field, text: &str| InvalidField { field, text: text.to_owned() };
    let cases: Vec<(&str, u32, u32, ReadErrorKind)> = vec![
        ("invalid-utf8", 3, 19, InvalidUtf8),
        ("unknown-code", 7, 1, UnknownCode("999".into())),
        ("no-blank-after-code", 2, 4, NoBlankAfterCode),
        ("expected-blank", 3, 98, ExpectedBlank('x')),
        ("invalid-rating", 4, 49, invalid(Field::Rating, "20O0")),
        ("missing-points", 5, 81, Missing(Field::Points)),
        ("unknown-result", 3, 99, invalid(Field::Result, "X")),
        ("duplicate-header", 7, 1, Duplicate("012".into())),
        ("conflicting-rounds", 8, 5, ConflictingSetting(Field::RoundCount)),
        ("unsupported-positional-ids", 7, 5, Unsupported(Feature::PositionalIds)),
        ("unknown-scoring-code", 7, 6, UnknownScoringCode("Q".into())),
        ("reversed-range", 7, 5, ReversedRange { field: Field::Round, first: 5, last: 2 }),
        ("duplicate-player", 6, 5, DuplicatePlayer { player: id(1), first_line: 3 }),
        ("missing-player", 4, 5, MissingPlayer(2)),
        ("unknown-player", 7, 7, UnknownPlayer(id(9))),
        ("self-pairing", 6, 92, SelfPairing { player: id(4), round: 1 }),
        (
            "zero-point-bye-with-opponent",
            6,
            102,
            UnexpectedOpponent { player: id(4), round: 2, result: ZeroPointBye },
        ),
        ("missing-opponent", 5, 102, MissingOpponent { player: id(3), round: 2, result: Draw }),
        (
            "unexpected-colour",
            3,
            117,
            UnexpectedColour { player: id(1), round: 3, result: HalfPointBye },
        ),
        ("missing-colour", 4, 97, MissingColour { player: id(2), round: 1, result: Win }),
        (
            "opponent-mismatch",
            5,
            102,
            OpponentMismatch { player: id(3), round: 2, opponent: id(2), theirs: Some(id(1)) },
        ),
        ("colour-mismatch", 5, 107, ColourMismatch { player: id(3), round: 2, opponent: id(4) }),
        (
            "result-mismatch",
            5,
            109,
            ResultMismatch { player: id(3), round: 2, opponent: id(4), result: Draw, theirs: Win },
        ),
        ("duplicate-pab", 4, 119, DuplicatePab { round: 3, first: id(1), player: id(2) }),
        ("bye-contradicts-entry", 7, 11, ByeContradictsEntry { player: id(1), round: 2 }),
        (
            "score-mismatch",
            4,
            81,
            ScoreMismatch { player: id(2), declared: Score::from_tenths(15), computed: 10 },
        ),
        ("too-many-rounds", 7, 5, TooManyRounds { declared: 1, played: 2 }),
    ];
    for (name, line, column, kind) in cases {
        let error = read(name).expect_err(name);
        assert_eq!(
            (error.line, error.column, &error.kind),
            (line, column, &kind),
            "{name}: {error}"
        );
    }
}

#[test]
fn messages_read_as_sentences() {
    let message = |name| read(name).unwrap_err().to_string();
    assert_eq!(message("self-pairing"), "line 6, column 92: player 4 meets himself in round 1");
    assert_eq!(
        message("zero-point-bye-with-opponent"),
        "line 6, column 102: player 4 has an opponent in round 2, but a zero-point bye (Z) takes none"
    );
    assert_eq!(
        message("score-mismatch"),
        "line 4, column 81: player 2 declares 1.5 points, but his rounds add up to 1.0"
    );
    assert_eq!(
        message("opponent-mismatch"),
        "line 5, column 102: player 3 meets player 2 in round 2, but player 2 meets player 1"
    );
    assert_eq!(
        message("missing-player"),
        "line 4, column 5: no player has pairing number 2 (pairing numbers run from 1 without gaps)"
    );
    assert_eq!(message("unknown-code"), "line 7, column 1: unknown record code \"999\"");
}

#[test]
fn every_kind_of_error_has_a_bad_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/trf/bad");
    let files = std::fs::read_dir(dir).unwrap().count();
    // valid.trf and one file per case above.
    assert_eq!(files, 28);
}
