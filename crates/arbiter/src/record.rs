//! The game's record as PGN (RULES.md §10): the seven-tag roster, the start position, the
//! rule set, time control and termination, and every move with its `[%clk]` comment; draw
//! offers and counted illegal moves are noted in comments.

use rookery_core::legality::Illegal;
use rookery_pgn::comment::clock_command;
use rookery_pgn::{GameResult as PgnResult, Writer};

use crate::game::Game;
use crate::outcome::GameResult;

impl Game {
    /// The game in PGN export format.
    pub fn to_pgn(&self) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_pgn(&mut Writer::new(&mut out));
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Writes the game to a PGN writer.
    ///
    /// # Errors
    /// The writer's I/O errors.
    pub fn write_pgn<W: std::io::Write>(&self, w: &mut Writer<W>) -> std::io::Result<()> {
        let spec = self.spec();
        let result = self.outcome().map_or("*", |o| o.result.pgn());
        let mut tags: Vec<(String, String)> = vec![
            ("White".into(), spec.white.clone()),
            ("Black".into(), spec.black.clone()),
            ("Result".into(), result.into()),
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
        if let Some(outcome) = self.outcome() {
            tags.push(("Termination".into(), outcome.termination.label().into()));
        }
        w.tags(&tags)?;
        let start = self.start_position();
        w.set_start(start.fullmoves(), start.turn());
        for ply in self.plies() {
            let san: rookery_core::SanPlus = ply.san.parse().expect("the arbiter writes valid SAN");
            w.san(&san)?;
            let mut comment = String::new();
            if let Some(ms) = ply.clock_ms {
                // §10: `[%clk h:mm:ss]`, whole seconds, rounded down as a clock shows them.
                comment.push_str(&clock_command(ms / 1000 * 1000));
            }
            if !ply.illegal_attempts.is_empty() {
                push_note(&mut comment, &attempts_note(&ply.illegal_attempts));
            }
            if ply.offered_draw {
                push_note(&mut comment, "draw offered");
            }
            if !comment.is_empty() {
                w.comment(&comment)?;
            }
        }
        // Counted attempts that no move followed: the one that lost the game (§8.4), or those
        // before a resignation or a flag fall.
        if !self.unplayed_attempts().is_empty() {
            w.comment(&attempts_note(self.unplayed_attempts()))?;
        }
        w.end_game(match self.outcome().map(|o| o.result) {
            Some(GameResult::Win(rookery_core::Color::White)) => PgnResult::WhiteWins,
            Some(GameResult::Win(rookery_core::Color::Black)) => PgnResult::BlackWins,
            Some(GameResult::Draw) => PgnResult::Draw,
            Some(GameResult::Aborted) | None => PgnResult::Unknown,
        })
    }
}

fn attempts_note(attempts: &[Illegal]) -> String {
    let reasons: Vec<&str> = attempts.iter().map(|i| i.describe()).collect();
    format!("illegal attempt: {}", reasons.join("; "))
}

fn push_note(comment: &mut String, note: &str) {
    if !comment.is_empty() {
        comment.push(' ');
    }
    comment.push_str(note);
}
