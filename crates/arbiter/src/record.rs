//! The game's record as PGN (RULES.md §10): the seven-tag roster, the start position, the
//! rule set, time control and termination, and every move with its `[%clk]` comment; draw
//! offers and counted illegal moves are noted in comments. [`GameRecord`] reads a record
//! back: a finished game is served from it, not replayed action by action.

use core::fmt;

use rookery_core::legality::Illegal;
use rookery_core::{Color, GameResult, Move, Position, SanPlus};
use rookery_pgn::comment::{clock, clock_command, without_commands};
use rookery_pgn::main_line::{read_main_line, Options};
use rookery_pgn::{MainLineError, Writer};

use crate::game::Game;
use crate::time_control::TimeControl;

impl Game {
    /// The game in PGN export format.
    pub fn to_pgn(&self) -> String {
        self.to_pgn_with(&[])
    }

    /// The game in PGN export format with `extra` tags after the game's own (what only the
    /// caller knows, such as the opening's `ECO` and `Opening`).
    pub fn to_pgn_with(&self, extra: &[(String, String)]) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_pgn_with(&mut Writer::new(&mut out), extra);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Writes the game to a PGN writer.
    ///
    /// # Errors
    /// The writer's I/O errors.
    pub fn write_pgn<W: std::io::Write>(&self, w: &mut Writer<W>) -> std::io::Result<()> {
        self.write_pgn_with(w, &[])
    }

    /// Writes the game to a PGN writer, with `extra` tags after the game's own.
    ///
    /// # Errors
    /// The writer's I/O errors.
    pub fn write_pgn_with<W: std::io::Write>(
        &self,
        w: &mut Writer<W>,
        extra: &[(String, String)],
    ) -> std::io::Result<()> {
        let spec = self.spec();
        let result = self.outcome().map_or(GameResult::NoResult, |o| o.result);
        let mut tags: Vec<(String, String)> = vec![
            ("White".into(), spec.white.clone()),
            ("Black".into(), spec.black.clone()),
            ("Result".into(), result.as_str().into()),
        ];
        for (name, value) in &spec.tags {
            if !tags.iter().any(|(n, _)| n == name) {
                tags.push((name.clone(), value.clone()));
            }
        }
        if spec.fen.is_some() {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), self.start_position().to_fen()));
        }
        tags.push(("TimeControl".into(), self.clock().time_control().to_string()));
        tags.push(("Ruleset".into(), self.rules().label().into()));
        // The standard's value where tools look for it (issue 41), Rookery's precise label
        // in a tag of its own and in the final comment.
        if let Some(outcome) = self.outcome() {
            tags.push(("Termination".into(), outcome.termination.pgn_value().into()));
            tags.push((TERMINATION_TAG.into(), outcome.termination.label().into()));
        }
        for (name, value) in extra {
            if !tags.iter().any(|(n, _)| n == name) {
                tags.push((name.clone(), value.clone()));
            }
        }
        w.tags(&tags)?;
        let start = self.start_position();
        w.set_start(start.fullmoves(), start.turn());
        for ply in self.plies() {
            w.san(&ply.san)?;
            let mut comment = String::new();
            if let Some(ms) = ply.clock_ms {
                // §10: `[%clk h:mm:ss]`, rounded down as a clock shows it: whole seconds, and
                // tenths below a minute, where whole seconds would read 0:00:00 in fast games
                // (python-chess and chess.com read `0:00:04.3`).
                let shown = if ms < 60_000 { ms / 100 * 100 } else { ms / 1000 * 1000 };
                comment.push_str(&clock_command(shown));
            }
            if !ply.illegal_attempts.is_empty() {
                push_note(&mut comment, &attempts_note(&ply.illegal_attempts));
            }
            if ply.offered_draw {
                // After the attempts' note, a semicolon, as between its reasons: the two notes
                // read as two ("…pinned to its king; draw offered").
                if !ply.illegal_attempts.is_empty() {
                    comment.push(';');
                }
                push_note(&mut comment, OFFER);
            }
            if !comment.is_empty() {
                w.comment(&comment)?;
            }
        }
        // Counted attempts that no move followed: the one that lost the game (§8.4), or those
        // before a resignation or a flag fall.
        if !self.unplayed_attempts().is_empty() {
            w.comment(&format!("{UNPLAYED}{}", reasons(self.unplayed_attempts())))?;
        }
        if let Some(outcome) = self.outcome() {
            w.comment(&format!("{FINAL}{}", outcome.termination.label()))?;
        }
        w.end_game(result)
    }
}

/// The note of the counted illegal attempts before a move.
const ATTEMPTS: &str = "illegal attempt: ";
/// The note of counted illegal attempts that no move followed (the losing one, or those before
/// a resignation or a flag fall): told apart from a move's own note, since it is another
/// side's.
const UNPLAYED: &str = "illegal attempt, no move followed: ";
/// The tag of Rookery's own termination label (`perpetual_check`, `illegal_moves` …); the
/// `Termination` tag holds the PGN standard's value.
pub const TERMINATION_TAG: &str = "RookeryTermination";
/// The final comment, before the result: the termination label again, for tools that show
/// comments but not tags.
const FINAL: &str = "termination: ";
/// The note of a draw offer made with a move.
const OFFER: &str = "draw offered";

fn reasons(attempts: &[Illegal]) -> String {
    let reasons: Vec<&str> = attempts.iter().map(|i| i.describe()).collect();
    reasons.join("; ")
}

fn attempts_note(attempts: &[Illegal]) -> String {
    format!("{ATTEMPTS}{}", reasons(attempts))
}

fn push_note(comment: &mut String, note: &str) {
    if !comment.is_empty() {
        comment.push(' ');
    }
    comment.push_str(note);
}

/// One move of a [`GameRecord`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedPly {
    /// The move.
    pub m: Move,
    /// Its SAN as recorded.
    pub san: SanPlus,
    /// Who made it.
    pub color: Color,
    /// The mover's clock after it (bonus included), to the second (the tenth below a
    /// minute), if timed.
    pub clock_ms: Option<u64>,
    /// A draw was offered with it.
    pub offered_draw: bool,
    /// Illegal attempts counted against the mover before it.
    pub illegal_attempts: Vec<Illegal>,
}

/// A game as its PGN record holds it ([`Game::write_pgn`], read back): what a finished game
/// shows without being replayed action by action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position it started from.
    pub start: Position,
    /// Its moves.
    pub plies: Vec<RecordedPly>,
    /// Counted illegal attempts that no move followed, by the side to move at the end.
    pub unplayed_attempts: Vec<Illegal>,
    /// The tags.
    pub tags: Vec<(String, String)>,
}

/// A record that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text holds no game.
    Empty,
    /// The game's main line cannot be played.
    MainLine(MainLineError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => f.write_str("the record holds no game"),
            RecordError::MainLine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

/// What one comment of a record says.
#[derive(Default)]
struct Notes {
    clock_ms: Option<u64>,
    offered_draw: bool,
    attempts: Vec<Illegal>,
    unplayed: Vec<Illegal>,
}

impl Notes {
    fn read(&mut self, comment: &str) {
        if let Some(ms) = clock(comment.as_bytes()) {
            self.clock_ms = Some(ms);
        }
        // The writer wraps long comments over lines: white space runs are one space.
        let text = without_commands(comment.as_bytes());
        let text = String::from_utf8_lossy(&text).split_whitespace().collect::<Vec<_>>().join(" ");
        let mut text = text.as_str();
        if let Some(rest) = text.strip_suffix(OFFER) {
            self.offered_draw = true;
            // Records written before the semicolon have none.
            text = rest.trim_end().trim_end_matches(';');
        }
        let (list, into) = if let Some(list) = text.strip_prefix(UNPLAYED) {
            (list, &mut self.unplayed)
        } else if let Some(list) = text.strip_prefix(ATTEMPTS) {
            (list, &mut self.attempts)
        } else {
            return;
        };
        into.extend(list.split("; ").filter_map(Illegal::from_description));
    }
}

impl GameRecord {
    /// Reads the record of a game, as [`Game::to_pgn`] writes it.
    ///
    /// # Errors
    /// [`RecordError`] when the text holds no game whose main line plays.
    pub fn from_pgn(pgn: &str) -> Result<GameRecord, RecordError> {
        let line = read_main_line(pgn, Options { comments: true, max_plies: None })
            .ok_or(RecordError::Empty)?
            .map_err(RecordError::MainLine)?;
        let mut unplayed = Vec::new();
        let mut before = Notes::default();
        line.comments.iter().for_each(|c| before.read(c));
        unplayed.append(&mut before.attempts);
        unplayed.append(&mut before.unplayed);
        let mut pos = line.start;
        let mut plies = Vec::with_capacity(line.plies.len());
        for ply in &line.plies {
            // A move's own notes are one comment; a later one is the unplayed attempts' (which
            // records written before UNPLAYED existed noted as ATTEMPTS).
            let (mut own, mut later) = (Notes::default(), Notes::default());
            for (i, c) in ply.comments.iter().enumerate() {
                if i == 0 {
                    own.read(c);
                } else {
                    later.read(c);
                }
            }
            unplayed.append(&mut own.unplayed);
            unplayed.append(&mut later.attempts);
            unplayed.append(&mut later.unplayed);
            plies.push(RecordedPly {
                m: ply.m,
                san: ply.san,
                color: pos.turn(),
                clock_ms: own.clock_ms,
                offered_draw: own.offered_draw,
                illegal_attempts: own.attempts,
            });
            pos.play_unchecked(ply.m);
        }
        Ok(GameRecord { start: line.start, plies, unplayed_attempts: unplayed, tags: line.tags })
    }

    /// The position after the last move.
    pub fn end(&self) -> Position {
        let mut pos = self.start;
        for ply in &self.plies {
            pos.play_unchecked(ply.m);
        }
        pos
    }

    /// The illegal attempts counted against `color` (§8.4).
    pub fn strikes(&self, color: Color) -> usize {
        let unplayed = if self.end().turn() == color { self.unplayed_attempts.len() } else { 0 };
        let played: usize =
            self.plies.iter().filter(|p| p.color == color).map(|p| p.illegal_attempts.len()).sum();
        played + unplayed
    }

    /// `color`'s clock at the end of the record: after its last move, else its starting time
    /// under `time_control` (`None` untimed).
    pub fn last_clock_ms(&self, color: Color, time_control: &TimeControl) -> Option<u64> {
        let last = self.plies.iter().rev().find(|p| p.color == color);
        last.and_then(|p| p.clock_ms).or_else(|| time_control.initial_ms())
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameSpec, RuleSet};

    #[test]
    fn unplayed_attempts_are_the_side_to_moves() {
        // Untimed, so the last move has no note of its own: the unplayed attempts' note must
        // still not be read as the mover's.
        let spec = GameSpec { rules: RuleSet::SEED, ..GameSpec::default() };
        let mut game = Game::new(spec, 0).unwrap();
        game.play(Color::White, &"e4".parse().unwrap(), false, 1).unwrap();
        for t in 2..5 {
            let _ = game.play(Color::Black, &"d8d6".parse().unwrap(), false, t);
        }
        assert!(game.is_over());
        let record = GameRecord::from_pgn(&game.to_pgn()).unwrap();
        assert_eq!((record.strikes(Color::White), record.strikes(Color::Black)), (0, 3));
        assert_eq!(record.plies[0].clock_ms, None);
    }

    #[test]
    fn an_attempt_and_an_offer_with_one_move_are_two_notes() {
        let spec = GameSpec { rules: RuleSet::SEED, ..GameSpec::default() };
        let mut game = Game::new(spec, 0).unwrap();
        game.play(Color::White, &"e4".parse().unwrap(), false, 1).unwrap();
        let _ = game.play(Color::Black, &"d8d6".parse().unwrap(), false, 2);
        game.play(Color::Black, &"e5".parse().unwrap(), true, 3).unwrap();
        let pgn = game.to_pgn();
        assert!(pgn.contains("in the way; draw offered }"), "{pgn}");
        let record = GameRecord::from_pgn(&pgn).unwrap();
        assert!(record.plies[1].offered_draw, "{pgn}");
        assert_eq!(record.plies[1].illegal_attempts.len(), 1, "{pgn}");
        // As written before the semicolon: read the same.
        let old = pgn.replace("in the way; draw offered", "in the way draw offered");
        assert_eq!(GameRecord::from_pgn(&old).unwrap(), record);
    }

    #[test]
    fn reads_records_written_before_the_unplayed_note() {
        let old = "[Result \"0-1\"]\n\n1. e4 { [%clk 0:04:59] draw offered } \
                   { illegal attempt: another piece is in the way; another piece is in the way } 0-1\n";
        let record = GameRecord::from_pgn(old).unwrap();
        assert!(record.plies[0].offered_draw && record.plies[0].illegal_attempts.is_empty());
        assert_eq!(record.plies[0].clock_ms, Some(299_000));
        assert_eq!((record.strikes(Color::White), record.strikes(Color::Black)), (0, 2));
        assert_eq!(GameRecord::from_pgn(""), Err(RecordError::Empty));
    }
}
