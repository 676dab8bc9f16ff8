//! The point system in its three spellings: TRF-2026 `162`, bbpPairings' TRF(bx) `BBW`…`BBU`
//! and JaVaFo's TRF(x) `XXS`; read into one [`Scoring`], written in the first spelling that
//! can say it.
//!
//! `162` and `BB?` give one value for every kind of win (`W`: over the board, by forfeit,
//! the full-point bye) and of draw (`D`: and the half-point bye); the PAB follows the win
//! unless `P`/`BBU` says otherwise. `XXS` names each kind apart, and its PAB stays 1.0 unless
//! `PAB=` says otherwise (JaVaFo AUM, "XXS").

use super::columns::{parse_points, Line};
use super::error::{Feature, Field, ReadError, ReadErrorKind};
use crate::{Score, Scoring};

/// The scoring as the records read so far say it.
#[derive(Default)]
pub(super) struct ScoringReader {
    pub scoring: Scoring,
    /// Whether a `P`, `BBU` or `PAB=` set the PAB: then a later win value leaves it alone.
    pab_explicit: bool,
    /// `XXS` values given for one colour (`WW`, `BW`, `WD`, `BD`, `WL`, `BL`): the crate scores
    /// both colours alike, so two that differ are refused.
    by_colour: [Option<Score>; 6],
}

impl ScoringReader {
    fn set_win(&mut self, points: Score) {
        let s = &mut self.scoring;
        (s.win, s.forfeit_win, s.full_point_bye) = (points, points, points);
        if !self.pab_explicit {
            s.pairing_allocated_bye = points;
        }
    }

    fn set_draw(&mut self, points: Score) {
        (self.scoring.draw, self.scoring.half_point_bye) = (points, points);
    }

    fn set_pab(&mut self, points: Score) {
        self.scoring.pairing_allocated_bye = points;
        self.pab_explicit = true;
    }

    /// `162  W 3.0    D 1.0 …`: a code at column 6, its points at 7–10, every 9 columns.
    pub fn read_162(&mut self, line: &Line) -> Result<(), ReadError> {
        if line.at(5) != ' ' {
            return Err(line.error(5, ReadErrorKind::ExpectedBlank(line.at(5))));
        }
        let mut column = 6;
        while column <= line.chars.len() {
            let code = line.at(column);
            let points = line
                .points(column + 1, column + 4)?
                .ok_or_else(|| line.error(column + 1, ReadErrorKind::Missing(Field::Points)))?;
            match code.to_ascii_uppercase() {
                'W' => self.set_win(points),
                'D' => self.set_draw(points),
                'L' => self.scoring.loss = points,
                'A' => (self.scoring.zero_point_bye, self.scoring.forfeit_loss) = (points, points),
                'P' => self.set_pab(points),
                // An unknown result (adjourned game): no result code of a round says it.
                'X' => {}
                _ => {
                    let kind = ReadErrorKind::UnknownScoringCode(code.to_string());
                    return Err(line.error(column, kind));
                }
            }
            for blank in column + 5..column + 9 {
                if blank <= line.chars.len() && line.at(blank) != ' ' {
                    return Err(line.error(blank, ReadErrorKind::ExpectedBlank(line.at(blank))));
                }
            }
            column += 9;
        }
        Ok(())
    }

    /// `BBW  3.0`: one value after the code. `letter` is the code's third letter.
    pub fn read_bb(&mut self, line: &Line, letter: char) -> Result<(), ReadError> {
        let end = line.chars.len().max(5);
        let points = line
            .points(5, end)?
            .ok_or_else(|| line.error(5, ReadErrorKind::Missing(Field::Points)))?;
        match letter {
            'W' => self.set_win(points),
            'D' => self.set_draw(points),
            'L' => self.scoring.loss = points,
            'Z' => self.scoring.zero_point_bye = points,
            'F' => self.scoring.forfeit_loss = points,
            'U' => self.set_pab(points),
            _ => unreachable!("the reader routes BBW, BBD, BBL, BBZ, BBF and BBU only"),
        }
        Ok(())
    }

    /// `XXS W=3 D=1 PAB=1`: `CODE=VALUE` entries separated by blanks.
    pub fn read_xxs(&mut self, line: &Line) -> Result<(), ReadError> {
        for (column, token) in line.tokens(5) {
            let Some((code, value)) = token.split_once('=') else {
                let kind = ReadErrorKind::InvalidField { field: Field::ScoringEntry, text: token };
                return Err(line.error(column, kind));
            };
            let value_column = column + code.chars().count() + 1;
            let points = parse_points(value).ok_or_else(|| {
                let kind = ReadErrorKind::InvalidField { field: Field::Points, text: value.into() };
                line.error(value_column, kind)
            })?;
            let s = &mut self.scoring;
            match code.to_ascii_uppercase().as_str() {
                "W" => {
                    (s.win, s.forfeit_win, s.full_point_bye) = (points, points, points);
                    self.by_colour[0..2].fill(Some(points));
                }
                "D" => {
                    self.set_draw(points);
                    self.by_colour[2..4].fill(Some(points));
                }
                "FW" => s.forfeit_win = points,
                "FL" => s.forfeit_loss = points,
                "ZPB" => s.zero_point_bye = points,
                "HPB" => s.half_point_bye = points,
                "FPB" => s.full_point_bye = points,
                "PAB" => self.set_pab(points),
                code @ ("WW" | "BW" | "WD" | "BD" | "WL" | "BL") => {
                    let slot = ["WW", "BW", "WD", "BD", "WL", "BL"]
                        .iter()
                        .position(|c| *c == code)
                        .expect("listed");
                    let other = slot ^ 1;
                    if self.by_colour[other].is_some_and(|p| p != points) {
                        let kind = ReadErrorKind::Unsupported(Feature::ScoringByColour);
                        return Err(line.error(column, kind));
                    }
                    self.by_colour[slot] = Some(points);
                    match slot / 2 {
                        0 => s.win = points,
                        1 => s.draw = points,
                        _ => s.loss = points,
                    }
                }
                _ => {
                    let kind = ReadErrorKind::UnknownScoringCode(code.to_owned());
                    return Err(line.error(column, kind));
                }
            }
        }
        Ok(())
    }
}

/// The records that say `scoring`: none for the default; `162` when it can say it (every
/// win alike, every draw alike, forfeit losses like absences, values below 100); else the
/// `BB?` lines bbpPairings reads when they can; else `XXS`, which can say anything.
pub(super) fn scoring_lines(s: &Scoring) -> Vec<String> {
    let default = Scoring::default();
    if *s == default {
        return Vec::new();
    }
    let wins_alike = s.win == s.forfeit_win && s.win == s.full_point_bye;
    let draws_alike = s.draw == s.half_point_bye;
    let all = [
        s.win,
        s.draw,
        s.loss,
        s.forfeit_win,
        s.forfeit_loss,
        s.half_point_bye,
        s.full_point_bye,
        s.pairing_allocated_bye,
        s.zero_point_bye,
    ];
    let fits = all.iter().all(|p| p.tenths() <= 999);
    if wins_alike && draws_alike && s.zero_point_bye == s.forfeit_loss && fits {
        let mut entries = Vec::new();
        let mut entry = |code: char, points: Score, standard: Score| {
            if points != standard {
                entries.push(format!("{code}{points:>4}"));
            }
        };
        entry('W', s.win, default.win);
        entry('D', s.draw, default.draw);
        entry('L', s.loss, default.loss);
        entry('A', s.zero_point_bye, default.zero_point_bye);
        entry('P', s.pairing_allocated_bye, s.win);
        return vec![format!("162  {}", entries.join("    "))];
    }
    if wins_alike && draws_alike {
        let mut lines = Vec::new();
        let mut line = |code: &str, points: Score, standard: Score| {
            if points != standard {
                lines.push(format!("{code} {points:>4}"));
            }
        };
        line("BBW", s.win, default.win);
        line("BBD", s.draw, default.draw);
        line("BBL", s.loss, default.loss);
        line("BBZ", s.zero_point_bye, default.zero_point_bye);
        line("BBF", s.forfeit_loss, default.forfeit_loss);
        line("BBU", s.pairing_allocated_bye, s.win);
        return lines;
    }
    vec![
        format!(
            "XXS WW={} BW={} WD={} BD={} WL={} BL={}",
            s.win, s.win, s.draw, s.draw, s.loss, s.loss
        ),
        format!(
            "XXS FW={} FL={} ZPB={} HPB={} FPB={} PAB={}",
            s.forfeit_win,
            s.forfeit_loss,
            s.zero_point_bye,
            s.half_point_bye,
            s.full_point_bye,
            s.pairing_allocated_bye
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Result<Scoring, ReadError> {
        let mut reader = ScoringReader::default();
        for (i, text) in lines.iter().enumerate() {
            let line = Line::new(i as u32 + 1, text);
            match &text[..3] {
                "162" => reader.read_162(&line)?,
                "XXS" => reader.read_xxs(&line)?,
                bb => reader.read_bb(&line, bb.chars().nth(2).unwrap())?,
            }
        }
        Ok(reader.scoring)
    }

    #[test]
    fn the_pab_follows_the_win_unless_given() {
        let s = read(&["162  W 3.0    D 1.0"]).unwrap();
        assert_eq!((s.win, s.draw, s.pairing_allocated_bye), (Score(30), Score(10), Score(30)));
        let s = read(&["BBU  1.0", "BBW  3.0"]).unwrap();
        assert_eq!((s.win, s.pairing_allocated_bye), (Score(30), Score(10)));
        // JaVaFo AUM: "XXS W=3" and "XXS D=1" give a PAB of 1.0, like a draw.
        let s = read(&["XXS W=3", "XXS D=1"]).unwrap();
        assert_eq!((s.win, s.pairing_allocated_bye), (Score(30), Score(10)));
    }

    #[test]
    fn every_scoring_is_written_so_that_it_reads_back() {
        let cases = [
            Scoring::default(),
            Scoring { win: Score(30), pairing_allocated_bye: Score(30), ..Scoring::default() },
            Scoring { zero_point_bye: Score(5), ..Scoring::default() },
            Scoring { half_point_bye: Score(0), ..Scoring::default() },
            Scoring {
                win: Score(1000),
                forfeit_win: Score(1000),
                full_point_bye: Score(1000),
                ..Scoring::default()
            },
        ];
        for scoring in cases {
            let lines = scoring_lines(&scoring);
            let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
            assert_eq!(read(&refs).unwrap(), scoring, "{lines:?}");
        }
    }

    #[test]
    fn colour_specific_values_must_agree() {
        let e = read(&["XXS WW=1 BW=0.5"]).unwrap_err();
        assert_eq!(e.column, 10);
        assert!(matches!(e.kind, ReadErrorKind::Unsupported(_)));
    }
}
