//! What can be wrong with a TRF file, and where; and what cannot be written as one.

use std::fmt;

use crate::score::Tenths;
use crate::{PlayerId, ResultCode, Score};

/// A TRF file that cannot be read: where, and why.
///
/// Lines count from 1 and end at CR, LF or CRLF. Columns count characters (not bytes) from
/// 1, as TRF's fixed columns do, so a name with accents does not shift them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The line, from 1.
    pub line: u32,
    /// The column (character) within the line, from 1, where the offending field starts.
    pub column: u32,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

impl ReadError {
    pub(crate) fn new(line: u32, column: u32, kind: ReadErrorKind) -> ReadError {
        ReadError { line, column, kind }
    }
}

/// A field of a TRF record, to name it in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// A player's starting rank (`001` columns 5–8).
    PairingNumber,
    /// A rating (`001` columns 49–52).
    Rating,
    /// A FIDE number (`001` columns 58–68).
    FideNumber,
    /// Points (`001` columns 81–84, and points in `162`, `250`, `299`, `XXA`, `XXS`, `BB?`).
    Points,
    /// A rank (`001` columns 86–89).
    Rank,
    /// The opponent of a round (`001` columns 92–95, …).
    Opponent,
    /// The colour of a round (`001` column 97, …).
    Colour,
    /// The result of a round (`001` column 99, …).
    Result,
    /// A round number (`240`, `250`, `260`, `299`).
    Round,
    /// A player named by pairing number outside `001` records.
    Player,
    /// The number of rounds (`142`, `XXR`).
    RoundCount,
    /// The initial colour (`152`, `XXC`).
    InitialColour,
    /// The kind of a bye (`240` column 5).
    ByeKind,
    /// The kind of an abnormal assignment (`299` column 5).
    AssignmentKind,
    /// A `CODE=VALUE` entry of `XXS`.
    ScoringEntry,
    /// The text of C.07 (Rookery's `C07` record, column 5).
    Regulations,
    /// A team's name (`013` columns 5–36).
    TeamName,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::PairingNumber => "pairing number",
            Field::Rating => "rating",
            Field::FideNumber => "FIDE number",
            Field::Points => "points",
            Field::Rank => "rank",
            Field::Opponent => "opponent",
            Field::Colour => "colour",
            Field::Result => "result",
            Field::Round => "round number",
            Field::Player => "player",
            Field::RoundCount => "number of rounds",
            Field::InitialColour => "initial colour",
            Field::ByeKind => "kind of bye",
            Field::AssignmentKind => "kind of assignment",
            Field::ScoringEntry => "scoring entry",
            Field::Regulations => "tie-break regulations (2024 or 2026)",
            Field::TeamName => "team name",
        })
    }
}

/// A feature of a TRF file that the crate does not model, so it refuses the file rather than
/// read it wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// JaVaFo's `XXC rank`: players paired by their positional ids, not their pairing numbers.
    PositionalIds,
    /// Team competitions' match points (`250` columns 5–8, `299` columns 8–11).
    MatchPoints,
    /// A round after round 999 outside `001` records (an `XXA` value past the 999th, an `XXZ`
    /// absence after round 999): the records that name a round give it three columns.
    RoundAfter999,
    /// An `XXS` scoring that gives a result a different value with White and with Black.
    ScoringByColour,
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Feature::PositionalIds => "XXC rank (pairing by positional ids)",
            Feature::MatchPoints => "match points (team competitions)",
            Feature::RoundAfter999 => "a round after round 999 outside `001` records",
            Feature::ScoringByColour => "scoring a result differently with White and with Black",
        })
    }
}

/// What is wrong with a TRF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The input is not UTF-8 ([`read_bytes`](super::read_bytes) only).
    InvalidUtf8,
    /// A record code (columns 1–3) that neither TRF-2026 nor TRF(x)/TRF(bx) defines.
    UnknownCode(String),
    /// Column 4, after the record code, is not blank.
    NoBlankAfterCode,
    /// A column that separates two fields of a round is not blank.
    ExpectedBlank(char),
    /// A field that does not read as what it should hold.
    InvalidField {
        /// The field.
        field: Field,
        /// Its text, trimmed.
        text: String,
    },
    /// A mandatory field is blank.
    Missing(Field),
    /// A record that TRF allows once appears again (`012`, `022`, … `192`).
    Duplicate(String),
    /// A setting ([`Field::RoundCount`], [`Field::InitialColour`]) given twice with different
    /// values.
    ConflictingSetting(Field),
    /// A feature the crate does not model.
    Unsupported(Feature),
    /// An `XXS`, `162` or `BB?` scoring code that does not exist.
    UnknownScoringCode(String),
    /// A round or player range whose first value is after its last.
    ReversedRange {
        /// The field of the range.
        field: Field,
        /// Its first value.
        first: u32,
        /// Its last value.
        last: u32,
    },
    /// Two `001` records with the same pairing number.
    DuplicatePlayer {
        /// The pairing number.
        player: PlayerId,
        /// The line of the first.
        first_line: u32,
    },
    /// Pairing numbers must run from 1 without gaps; this one has no `001` record.
    MissingPlayer(u32),
    /// A pairing number that no `001` record has.
    UnknownPlayer(PlayerId),
    /// A player paired with himself.
    SelfPairing {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
    },
    /// A bye or absence (`H F U Z`, blank) that names an opponent.
    UnexpectedOpponent {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The result.
        result: ResultCode,
    },
    /// A game (`1 = 0 W D L`) without opponent.
    MissingOpponent {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The result.
        result: ResultCode,
    },
    /// A bye or absence with a colour.
    UnexpectedColour {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The result.
        result: ResultCode,
    },
    /// A game played over the board without colour.
    MissingColour {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The result.
        result: ResultCode,
    },
    /// A player's round names an opponent whose entry for the round does not name him back.
    OpponentMismatch {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The opponent he names.
        opponent: PlayerId,
        /// Whom the opponent's entry names instead.
        theirs: Option<PlayerId>,
    },
    /// Two opponents with the same colour.
    ColourMismatch {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The opponent.
        opponent: PlayerId,
    },
    /// Two opponents' results that cannot both be true (`1` against `1`, `+` against `0` …).
    ResultMismatch {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
        /// The opponent.
        opponent: PlayerId,
        /// The player's result.
        result: ResultCode,
        /// The opponent's result.
        theirs: ResultCode,
    },
    /// A second pairing-allocated bye in one round (TRF-2026: at most one per round).
    DuplicatePab {
        /// The round.
        round: u32,
        /// The player with the first.
        first: PlayerId,
        /// The player with the second.
        player: PlayerId,
    },
    /// A `240`/`XXZ` bye for a round in which the player's own entry, or an earlier bye,
    /// says otherwise.
    ByeContradictsEntry {
        /// The player.
        player: PlayerId,
        /// The round.
        round: u32,
    },
    /// The declared points (columns 81–84) are not the sum of the rounds under the scoring
    /// (nor that sum plus the acceleration or the bye entered for the next round).
    ScoreMismatch {
        /// The player.
        player: PlayerId,
        /// The points declared.
        declared: Score,
        /// The sum of the rounds, in tenths.
        computed: i64,
    },
    /// More rounds were played than the `142`/`XXR` line declares.
    TooManyRounds {
        /// The rounds declared.
        declared: u32,
        /// The rounds played.
        played: u32,
    },
}

fn result_name(code: ResultCode) -> &'static str {
    match code {
        ResultCode::Win => "a win",
        ResultCode::Draw => "a draw",
        ResultCode::Loss => "a loss",
        ResultCode::UnratedWin => "an unrated win",
        ResultCode::UnratedDraw => "an unrated draw",
        ResultCode::UnratedLoss => "an unrated loss",
        ResultCode::ForfeitWin => "a forfeit win",
        ResultCode::ForfeitLoss => "a forfeit loss",
        ResultCode::HalfPointBye => "a half-point bye",
        ResultCode::FullPointBye => "a full-point bye",
        ResultCode::PairingAllocatedBye => "the pairing-allocated bye",
        ResultCode::ZeroPointBye => "a zero-point bye",
    }
}

impl fmt::Display for ReadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ReadErrorKind::*;
        match self {
            InvalidUtf8 => f.write_str("invalid UTF-8"),
            UnknownCode(code) => write!(f, "unknown record code {code:?}"),
            NoBlankAfterCode => f.write_str("expected a blank after the record code"),
            ExpectedBlank(c) => write!(f, "expected a blank between fields, found {c:?}"),
            InvalidField { field, text } => write!(f, "invalid {field} {text:?}"),
            Missing(field) => write!(f, "missing {field}"),
            Duplicate(code) => write!(f, "a second {code} record (it is allowed once)"),
            ConflictingSetting(what) => write!(f, "the {what} contradicts an earlier record"),
            Unsupported(feature) => write!(f, "{feature} is not supported"),
            UnknownScoringCode(code) => write!(f, "unknown scoring code {code:?}"),
            ReversedRange { field, first, last } => {
                write!(f, "the first {field} ({first}) is after the last ({last})")
            }
            DuplicatePlayer { player, first_line } => {
                write!(f, "pairing number {player} is used twice (first on line {first_line})")
            }
            MissingPlayer(n) => {
                write!(
                    f,
                    "no player has pairing number {n} (pairing numbers run from 1 without gaps)"
                )
            }
            UnknownPlayer(id) => write!(f, "no player has pairing number {id}"),
            SelfPairing { player, round } => {
                write!(f, "player {player} meets himself in round {round}")
            }
            UnexpectedOpponent { player, round, result } => write!(
                f,
                "player {player} has an opponent in round {round}, but {} ({}) takes none",
                result_name(*result),
                result.to_char()
            ),
            MissingOpponent { player, round, result } => write!(
                f,
                "player {player} has no opponent in round {round}, but {} ({}) needs one",
                result_name(*result),
                result.to_char()
            ),
            UnexpectedColour { player, round, result } => write!(
                f,
                "player {player} has a colour in round {round}, but {} ({}) takes none",
                result_name(*result),
                result.to_char()
            ),
            MissingColour { player, round, result } => write!(
                f,
                "player {player} has no colour in round {round}, but {} ({}) needs one",
                result_name(*result),
                result.to_char()
            ),
            OpponentMismatch { player, round, opponent, theirs } => {
                write!(f, "player {player} meets player {opponent} in round {round}, but ")?;
                match theirs {
                    Some(other) => write!(f, "player {opponent} meets player {other}"),
                    None => write!(f, "player {opponent} has no opponent then"),
                }
            }
            ColourMismatch { player, round, opponent } => {
                write!(f, "players {player} and {opponent} have the same colour in round {round}")
            }
            ResultMismatch { player, round, opponent, result, theirs } => write!(
                f,
                "player {player}'s result {} against player {opponent} in round {round} \
                 contradicts his opponent's {}",
                result.to_char(),
                theirs.to_char()
            ),
            DuplicatePab { round, first, player } => write!(
                f,
                "player {player} has a second pairing-allocated bye in round {round} \
                 (player {first} has one)"
            ),
            ByeContradictsEntry { player, round } => {
                write!(f, "the bye of player {player} in round {round} contradicts his entry or another bye")
            }
            ScoreMismatch { player, declared, computed } => write!(
                f,
                "player {player} declares {declared} points, but his rounds add up to {}",
                Tenths(i128::from(*computed))
            ),
            TooManyRounds { declared, played } => {
                write!(f, "{played} rounds have been played, but the tournament has {declared}")
            }
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.kind)
    }
}

impl std::error::Error for ReadError {}

/// A tournament that does not fit in a TRF file: a value too wide for its columns, or text
/// that would break a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// What could not be written (`player 4 name`, `tournament name`, …).
    pub what: String,
    /// Why.
    pub kind: WriteErrorKind,
}

/// Why a value cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteErrorKind {
    /// Longer than its columns hold.
    TooLong {
        /// The characters the columns hold.
        max: usize,
    },
    /// Text with a line break, or (in a list of codes) a comma.
    InvalidText,
    /// Points assigned for the pairing-allocated bye: a `299` record has no letter for it.
    PabAssignment,
    /// A record that names players (`299`) naming none.
    NoPlayer,
    /// A forbidden-pairs record (`260`) with fewer than two players.
    FewerThanTwoPlayers,
    /// A team record (`013`) with no player, or more than its columns hold.
    TeamPlayers {
        /// The players the record has columns for.
        max: usize,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.what)?;
        match &self.kind {
            WriteErrorKind::TooLong { max } => write!(f, "longer than {max} characters"),
            WriteErrorKind::InvalidText => f.write_str("contains a line break or a comma"),
            WriteErrorKind::PabAssignment => {
                f.write_str("TRF has no abnormal assignment for the pairing-allocated bye")
            }
            WriteErrorKind::NoPlayer => f.write_str("no player"),
            WriteErrorKind::FewerThanTwoPlayers => f.write_str("fewer than two players"),
            WriteErrorKind::TeamPlayers { max } => {
                write!(f, "a team record holds 1 to {max} players")
            }
        }
    }
}

impl std::error::Error for WriteError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_line_column_and_player() {
        let player = PlayerId::new(4).unwrap();
        let e = ReadError::new(12, 92, ReadErrorKind::SelfPairing { player, round: 3 });
        assert_eq!(e.to_string(), "line 12, column 92: player 4 meets himself in round 3");
        let e = ReadError::new(
            5,
            81,
            ReadErrorKind::ScoreMismatch { player, declared: Score(25), computed: -5 },
        );
        assert_eq!(
            e.to_string(),
            "line 5, column 81: player 4 declares 2.5 points, but his rounds add up to -0.5"
        );
    }

    #[test]
    fn settings_features_and_unwritable_records_read_as_before() {
        let read = |kind| ReadError::new(7, 5, kind).to_string();
        assert_eq!(
            read(ReadErrorKind::ConflictingSetting(Field::RoundCount)),
            "line 7, column 5: the number of rounds contradicts an earlier record"
        );
        assert_eq!(
            read(ReadErrorKind::ConflictingSetting(Field::InitialColour)),
            "line 7, column 5: the initial colour contradicts an earlier record"
        );
        let features = [
            (Feature::PositionalIds, "XXC rank (pairing by positional ids)"),
            (Feature::MatchPoints, "match points (team competitions)"),
            (Feature::RoundAfter999, "a round after round 999 outside `001` records"),
            (Feature::ScoringByColour, "scoring a result differently with White and with Black"),
        ];
        for (feature, text) in features {
            let expected = format!("line 7, column 5: {text} is not supported");
            assert_eq!(read(ReadErrorKind::Unsupported(feature)), expected);
        }
        let write = |kind| WriteError { what: "abnormal points for players [1]".into(), kind };
        let cases = [
            (
                WriteErrorKind::PabAssignment,
                "TRF has no abnormal assignment for the pairing-allocated bye",
            ),
            (WriteErrorKind::NoPlayer, "no player"),
            (WriteErrorKind::FewerThanTwoPlayers, "fewer than two players"),
        ];
        for (kind, text) in cases {
            let expected = format!("abnormal points for players [1]: {text}");
            assert_eq!(write(kind).to_string(), expected);
        }
    }
}
