//! What only the whole file can confirm: pairing numbers run from 1 without gaps, every
//! pairing number named exists, opponents' entries agree, announced byes agree with the
//! entries, and each declared score is the sum of the rounds (bbpPairings refuses a file
//! whose scores do not add up, and so does this reader: a wrong score pairs wrongly).

use std::collections::BTreeMap;

use super::error::{Feature, ReadError, ReadErrorKind};
use super::player::{round_column, POINTS_COLUMN};
use super::read::{AccelerationRecord, Reader, MAX_ROUND};
use crate::{Acceleration, AnnouncedBye, PlayerId, ResultCode, RoundEntry, Score, Tournament};

fn error(line: u32, column: usize, kind: ReadErrorKind) -> ReadError {
    ReadError::new(line, u32::try_from(column).unwrap_or(u32::MAX), kind)
}

/// Whether two opponents' results can both be true.
fn agree(ours: ResultCode, theirs: ResultCode) -> bool {
    use ResultCode::*;
    matches!(
        (ours, theirs),
        (Win, Loss)
            | (Loss, Win)
            | (Draw, Draw)
            | (UnratedWin, UnratedLoss)
            | (UnratedLoss, UnratedWin)
            | (UnratedDraw, UnratedDraw)
            | (ForfeitWin, ForfeitLoss)
            | (ForfeitLoss, ForfeitWin)
            | (ForfeitLoss, ForfeitLoss)
    )
}

impl Reader {
    /// The tournament the records describe, once the whole file agrees with itself.
    pub fn finish(mut self) -> Result<Tournament, ReadError> {
        self.players.sort_by_key(|p| p.id);
        for (index, record) in self.players.iter().enumerate() {
            if record.id.index() != index {
                let kind = ReadErrorKind::MissingPlayer(index as u32 + 1);
                return Err(error(record.line, 5, kind));
            }
        }
        let count = self.players.len();
        for record in &self.players {
            for (index, entry) in record.blocks.iter().enumerate() {
                if let Some(opponent) = entry.and_then(|e| e.opponent) {
                    if opponent.index() >= count {
                        let column = round_column(index as u32 + 1);
                        return Err(error(
                            record.line,
                            column,
                            ReadErrorKind::UnknownPlayer(opponent),
                        ));
                    }
                }
            }
        }
        for reference in &self.references {
            if reference.value.index() >= count {
                let kind = ReadErrorKind::UnknownPlayer(reference.value);
                return Err(error(reference.line, reference.column, kind));
            }
        }
        let played = self
            .players
            .iter()
            .filter_map(|p| p.blocks.iter().rposition(|e| e.is_some_and(|e| e.was_paired())))
            .map(|i| i as u32 + 1)
            .max()
            .unwrap_or(0);
        self.apply_byes(played)?;

        let mut t = std::mem::take(&mut self.t);
        t.scoring = self.scoring.scoring;
        t.players = self
            .players
            .iter()
            .map(|record| {
                let mut player = record.player.clone();
                player.rounds =
                    record.blocks.iter().map(|e| e.unwrap_or(RoundEntry::ABSENT)).collect();
                if player.rounds.len() < played as usize {
                    player.rounds.resize(played as usize, RoundEntry::ABSENT);
                }
                player
            })
            .collect();
        t.byes = self.byes.iter().map(|b| b.value).collect();
        t.accelerations = accelerations(&self.accelerations);

        self.check_opponents(&t)?;
        if let (Some(declared), Some(line)) = (t.rounds, self.rounds_line) {
            if played > declared {
                return Err(error(line, 5, ReadErrorKind::TooManyRounds { declared, played }));
            }
        }
        self.check_scores(&t, played)?;
        Ok(t)
    }

    /// `240` records: a bye for a round the player's line leaves blank becomes his entry if
    /// the round has been played (a later round keeps it as an announcement only: a blank
    /// there would otherwise read as an absence); a bye that his entry or an earlier bye
    /// contradicts is an error. `XXZ` records become `240 Z` byes for the round to be paired.
    fn apply_byes(&mut self, played: u32) -> Result<(), ReadError> {
        if let Some(absence) = self.absences.first().filter(|_| played >= MAX_ROUND) {
            let kind = ReadErrorKind::Unsupported(Feature::RoundAfter999);
            return Err(error(absence.line, absence.column, kind));
        }
        for absence in self.absences.drain(..) {
            let bye = AnnouncedBye {
                player: absence.value,
                round: played + 1,
                kind: crate::ByeKind::Zero,
            };
            let located =
                super::read::Located { value: bye, line: absence.line, column: absence.column };
            self.byes.push(located);
        }
        for (index, located) in self.byes.iter().enumerate() {
            let bye = located.value;
            let earlier = self.byes[..index].iter().map(|b| b.value);
            if earlier
                .filter(|b| (b.player, b.round) == (bye.player, bye.round))
                .any(|b| b.kind != bye.kind)
            {
                let kind =
                    ReadErrorKind::ByeContradictsEntry { player: bye.player, round: bye.round };
                return Err(error(located.line, located.column, kind));
            }
            let blocks = &mut self.players[bye.player.index()].blocks;
            let index = bye.round as usize - 1;
            match blocks.get(index).copied().flatten() {
                Some(entry) if entry == RoundEntry::bye(bye.kind.result()) => {}
                Some(_) => {
                    let kind =
                        ReadErrorKind::ByeContradictsEntry { player: bye.player, round: bye.round };
                    return Err(error(located.line, located.column, kind));
                }
                None if bye.round <= played => {
                    if blocks.len() <= index {
                        blocks.resize(index + 1, None);
                    }
                    blocks[index] = Some(RoundEntry::bye(bye.kind.result()));
                }
                None => {}
            }
        }
        Ok(())
    }

    fn check_opponents(&self, t: &Tournament) -> Result<(), ReadError> {
        let mut pab: Vec<Option<PlayerId>> = Vec::new();
        for (record, player) in self.players.iter().zip(&t.players) {
            let id = record.id;
            for (index, entry) in player.rounds.iter().enumerate() {
                let round = index as u32 + 1;
                let column = round_column(round);
                if entry.result == ResultCode::PairingAllocatedBye {
                    if pab.len() <= index {
                        pab.resize(index + 1, None);
                    }
                    if let Some(first) = pab[index] {
                        let kind = ReadErrorKind::DuplicatePab { round, first, player: id };
                        return Err(error(record.line, column + 7, kind));
                    }
                    pab[index] = Some(id);
                }
                let Some(opponent) = entry.opponent else { continue };
                let theirs = t.players[opponent.index()].rounds.get(index);
                if theirs.and_then(|e| e.opponent) != Some(id) {
                    let theirs = theirs.and_then(|e| e.opponent);
                    let kind =
                        ReadErrorKind::OpponentMismatch { player: id, round, opponent, theirs };
                    return Err(error(record.line, column, kind));
                }
                let theirs = theirs.expect("the opponent names the player back");
                if entry.colour.is_some() && entry.colour == theirs.colour {
                    let kind = ReadErrorKind::ColourMismatch { player: id, round, opponent };
                    return Err(error(record.line, column + 5, kind));
                }
                if !agree(entry.result, theirs.result) {
                    let kind = ReadErrorKind::ResultMismatch {
                        player: id,
                        round,
                        opponent,
                        result: entry.result,
                        theirs: theirs.result,
                    };
                    return Err(error(record.line, column + 7, kind));
                }
            }
        }
        Ok(())
    }

    /// The declared points must be the score after the rounds played, to which bbpPairings
    /// also lets a file add the acceleration of the round to be paired and the points of a
    /// bye already entered for it (JaVaFo AUM: "the Points field must be updated").
    fn check_scores(&self, t: &Tournament, played: u32) -> Result<(), ReadError> {
        for record in &self.players {
            let id = record.id;
            let player = &t.players[id.index()];
            let computed = t.adjusted_score_after(id, played);
            let acceleration = i64::from(t.acceleration(id, played + 1).tenths());
            let next = match player.round(played + 1) {
                Some(entry) => Some(t.scoring.points(entry.result)),
                None => t
                    .byes
                    .iter()
                    .find(|b| b.player == id && b.round == played + 1)
                    .map(|b| t.scoring.points(b.kind.result())),
            };
            let next = i64::from(next.unwrap_or(Score::ZERO).tenths());
            let declared = i64::from(player.points.tenths());
            let accepted = [
                computed,
                computed + acceleration,
                computed + next,
                computed + next + acceleration,
            ];
            if !accepted.contains(&declared) {
                let kind =
                    ReadErrorKind::ScoreMismatch { player: id, declared: player.points, computed };
                return Err(error(record.line, POINTS_COLUMN, kind));
            }
        }
        Ok(())
    }
}

/// One [`Acceleration`] per player, in pairing-number order, from the `250` and `XXA`
/// records in the order of the file (a later one overwrites the rounds it names), without
/// trailing zeros; players left with none are dropped. The same points thus read the same
/// whichever records said them.
fn accelerations(records: &[AccelerationRecord]) -> Vec<Acceleration> {
    let mut by_player: BTreeMap<PlayerId, Vec<Score>> = BTreeMap::new();
    let mut set = |player: PlayerId, from: usize, values: &mut dyn Iterator<Item = Score>| {
        let points = by_player.entry(player).or_default();
        for (index, value) in (from..).zip(values) {
            if points.len() <= index {
                points.resize(index + 1, Score::ZERO);
            }
            points[index] = value;
        }
    };
    for record in records {
        match record {
            AccelerationRecord::Range { players, rounds, points } => {
                for n in players.0.get()..=players.1.get() {
                    let player = PlayerId::new(n).expect("a range of pairing numbers from 1");
                    let count = (rounds.1 - rounds.0 + 1) as usize;
                    set(player, rounds.0 as usize - 1, &mut std::iter::repeat_n(*points, count));
                }
            }
            AccelerationRecord::PerRound { player, points } => {
                set(*player, 0, &mut points.iter().copied());
            }
        }
    }
    by_player
        .into_iter()
        .filter_map(|(player, mut points)| {
            while points.last() == Some(&Score::ZERO) {
                points.pop();
            }
            (!points.is_empty()).then_some(Acceleration { player, points })
        })
        .collect()
}
