//! The `001` record: one player, his fixed fields and one 10-column block per round.
//!
//! ```text
//! 001    1 m  GM Surname, Name                    2762 NOR     1503014 1990/11/30  2.5    4    12 w =  0000 - H
//! 1-3 5-8 10 11-13 15-47                         49-52 54-56 58-68  70-79     81-84 86-89 92-95 97 99 (102 …)
//! ```

use rookery_core::Color;

use super::columns::Line;
use super::error::{Field, ReadError, ReadErrorKind};
use crate::{Player, PlayerId, ResultCode, RoundEntry};

/// Column of round 1's block; each round takes 10 columns (TRF-2026 player section).
pub(super) const FIRST_ROUND_COLUMN: usize = 92;
/// Width of a round's block.
pub(super) const ROUND_WIDTH: usize = 10;
/// Column of the points field.
pub(super) const POINTS_COLUMN: usize = 81;

/// The column where round `round`'s block (from 1) starts.
pub(super) fn round_column(round: u32) -> usize {
    FIRST_ROUND_COLUMN + (round as usize - 1) * ROUND_WIDTH
}

/// A `001` record as read, before the rest of the file confirms it.
#[derive(Debug)]
pub(super) struct PlayerRecord {
    /// The pairing number.
    pub id: PlayerId,
    /// The line of the record.
    pub line: u32,
    /// The fixed fields; `rounds` is left empty.
    pub player: Player,
    /// One entry per round block, `None` for a blank block (nothing said: an absence unless
    /// a `240` record says more). Trailing blank blocks are dropped.
    pub blocks: Vec<Option<RoundEntry>>,
}

pub(super) fn read_player(line: &Line) -> Result<PlayerRecord, ReadError> {
    let id = match line.player(5, 8, Field::PairingNumber)? {
        Some(id) => id,
        None if line.field(5, 8).is_empty() => {
            return Err(line.error(5, ReadErrorKind::Missing(Field::PairingNumber)))
        }
        None => {
            let kind =
                ReadErrorKind::InvalidField { field: Field::PairingNumber, text: line.field(5, 8) };
            return Err(line.error(5, kind));
        }
    };
    let text = |from, to| Some(line.field(from, to)).filter(|s| !s.is_empty());
    let rating = match line.number(49, 52, Field::Rating)? {
        Some(r) => Some(u16::try_from(r).map_err(|_| invalid(line, 49, Field::Rating))?),
        None => None,
    };
    let fide_id = match line.field(58, 68) {
        s if s.is_empty() => None,
        s if s.bytes().all(|b| b.is_ascii_digit()) => {
            Some(s.parse::<u64>().map_err(|_| invalid(line, 58, Field::FideNumber))?)
        }
        _ => return Err(invalid(line, 58, Field::FideNumber)),
    };
    let points = line
        .points(POINTS_COLUMN, POINTS_COLUMN + 3)?
        .ok_or_else(|| line.error(POINTS_COLUMN, ReadErrorKind::Missing(Field::Points)))?;
    // bbpPairings writes the rank five wide (85–89); the specification says 86–89.
    let rank = line.number(85, 89, Field::Rank)?;
    let player = Player {
        sex: Some(line.at(10)).filter(|c| *c != ' '),
        title: text(11, 13),
        name: line.field(15, 47),
        rating,
        federation: text(54, 56),
        fide_id,
        birth_date: text(70, 79),
        points,
        rank,
        rounds: Vec::new(),
    };
    for column in [90, 91] {
        expect_blank(line, column)?;
    }
    let mut blocks = Vec::new();
    let mut round = 1u32;
    while round_column(round) <= line.chars.len() {
        blocks.push(read_block(line, id, round)?);
        round += 1;
    }
    while blocks.last() == Some(&None) {
        blocks.pop();
    }
    Ok(PlayerRecord { id, line: line.number, player, blocks })
}

fn invalid(line: &Line, column: usize, field: Field) -> ReadError {
    let text = match field {
        Field::Rating => line.field(49, 52),
        Field::FideNumber => line.field(58, 68),
        _ => line.at(column).to_string(),
    };
    line.error(column, ReadErrorKind::InvalidField { field, text })
}

fn expect_blank(line: &Line, column: usize) -> Result<(), ReadError> {
    match line.at(column) {
        ' ' => Ok(()),
        c => Err(line.error(column, ReadErrorKind::ExpectedBlank(c))),
    }
}

/// One round's block: opponent (4 columns), colour, result, each after a blank.
fn read_block(line: &Line, id: PlayerId, round: u32) -> Result<Option<RoundEntry>, ReadError> {
    let start = round_column(round);
    for offset in [4, 6, 8, 9] {
        expect_blank(line, start + offset)?;
    }
    let opponent_text = line.field(start, start + 3);
    let opponent = line.player(start, start + 3, Field::Opponent)?;
    let colour = match line.at(start + 5) {
        'w' | 'W' => Some(Color::White),
        'b' | 'B' => Some(Color::Black),
        '-' | ' ' => None,
        _ => return Err(invalid(line, start + 5, Field::Colour)),
    };
    let result_char = line.at(start + 7);
    if opponent_text.is_empty() && line.at(start + 5) == ' ' && result_char == ' ' {
        return Ok(None);
    }
    let result = match result_char {
        ' ' => ResultCode::ZeroPointBye,
        c => ResultCode::from_char(c).ok_or_else(|| invalid(line, start + 7, Field::Result))?,
    };
    // `0000 - +` and `0000 - -` are TRF-16 forms of the bye and of an absence: read as
    // bbpPairings reads them (paired and scored as the PAB; not paired, scored as a ZPB).
    let result = match (opponent, result) {
        (None, ResultCode::ForfeitWin) => ResultCode::PairingAllocatedBye,
        (None, ResultCode::ForfeitLoss) => ResultCode::ZeroPointBye,
        (_, result) => result,
    };
    use ReadErrorKind::*;
    let player = id;
    let fault = if opponent == Some(id) {
        Some((start, SelfPairing { player, round }))
    } else if opponent.is_some() && !result.has_opponent() {
        Some((start, UnexpectedOpponent { player, round, result }))
    } else if opponent.is_none() && result.has_opponent() {
        Some((start, MissingOpponent { player, round, result }))
    } else if colour.is_some() && !result.has_opponent() {
        Some((start + 5, UnexpectedColour { player, round, result }))
    } else if colour.is_none() && result.is_played() {
        Some((start + 5, MissingColour { player, round, result }))
    } else {
        None
    };
    if let Some((column, kind)) = fault {
        return Err(line.error(column, kind));
    }
    Ok(Some(RoundEntry { opponent, colour, result }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<PlayerRecord, ReadError> {
        read_player(&Line::new(1, text))
    }

    const HEAD: &str =
        "001    3      Test0003 Player0003               2725                             2.5    5";

    #[test]
    fn fixed_fields_and_blocks() {
        let record = read(&format!("{HEAD}    14 w 1  0000 - H            0000 - U")).unwrap();
        assert_eq!(record.id.get(), 3);
        assert_eq!(record.player.name, "Test0003 Player0003");
        assert_eq!(record.player.rating, Some(2725));
        assert_eq!(record.player.points.tenths(), 25);
        assert_eq!(record.player.rank, Some(5));
        let results: Vec<_> = record.blocks.iter().map(|b| b.map(|e| e.result)).collect();
        assert_eq!(
            results,
            [
                Some(ResultCode::Win),
                Some(ResultCode::HalfPointBye),
                None,
                Some(ResultCode::PairingAllocatedBye)
            ]
        );
    }

    #[test]
    fn blocks_are_checked_where_they_stand() {
        let e = read(&format!("{HEAD}     3 w 1")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 92));
        let e = read(&format!("{HEAD}     4 w 1    12 w Z")).unwrap_err();
        assert_eq!(e.column, 102);
        assert!(matches!(e.kind, ReadErrorKind::UnexpectedOpponent { .. }));
        let e = read(&format!("{HEAD}     4 w 1    12 x 1")).unwrap_err();
        assert_eq!(e.column, 107);
    }
}
