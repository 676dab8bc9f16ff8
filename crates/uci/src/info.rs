//! The fields of an `info` line.

use core::fmt;
use std::time::Duration;

use crate::error::Tokens;
use crate::{write_moves, ParseError, UciMove};

/// A score as `info score` reports it, from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// Centipawns or moves to mate.
    pub value: ScoreValue,
    /// Set when the score is only a bound (the search failed high or low).
    pub bound: Option<ScoreBound>,
}

/// The value of a [`Score`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreValue {
    /// `cp N`: centipawns.
    Centipawns(i32),
    /// `mate N`: mate in N moves (not plies); negative when the engine is getting mated.
    Mate(i32),
}

/// The bound a [`Score`] may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// One field of an `info` line (UCI, "info").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoField {
    /// `depth`: the search depth in plies.
    Depth(u32),
    /// `seldepth`: the selective search depth in plies.
    SelDepth(u32),
    /// `time`: the time searched.
    Time(Duration),
    /// `nodes`: the nodes searched.
    Nodes(u64),
    /// `pv`: the principal variation.
    Pv(Vec<UciMove>),
    /// `multipv`: which line of a multi-PV search this is, from 1.
    MultiPv(u32),
    /// `score`.
    Score(Score),
    /// `currmove`: the root move being searched.
    CurrMove(UciMove),
    /// `currmovenumber`: its number, from 1.
    CurrMoveNumber(u32),
    /// `hashfull`: how full the hash table is, in permill.
    HashFull(u32),
    /// `nps`: nodes per second.
    Nps(u64),
    /// `tbhits`: tablebase hits.
    TbHits(u64),
    /// `sbhits`: shredderbase hits.
    SbHits(u64),
    /// `cpuload`: the CPU usage, in permill.
    CpuLoad(u32),
    /// `wdl`: the chances of a win, a draw and a loss for the side to move, per mille (a
    /// Stockfish extension, sent with `UCI_ShowWDL`).
    Wdl {
        /// Win, per mille.
        win: u32,
        /// Draw, per mille.
        draw: u32,
        /// Loss, per mille.
        loss: u32,
    },
    /// `string`: free text to the end of the line (so always the last field).
    String(String),
    /// `refutation`: a move and the line that refutes it.
    Refutation(Vec<UciMove>),
    /// `currline`: the line a CPU is searching.
    CurrLine {
        /// The CPU number, from 1, if given.
        cpu: Option<u32>,
        /// The moves.
        moves: Vec<UciMove>,
    },
}

/// Reads moves as long as the next token is one.
fn moves(tokens: &mut Tokens<'_>) -> Vec<UciMove> {
    let mut moves = Vec::new();
    while let Some(m) = tokens.peek().and_then(|t| UciMove::from_ascii(t.as_bytes()).ok()) {
        moves.push(m);
        tokens.next();
    }
    moves
}

impl InfoField {
    /// Reads the fields after `info`.
    pub(crate) fn parse_all(tokens: &mut Tokens<'_>) -> Result<Vec<InfoField>, ParseError> {
        let mut fields = Vec::new();
        while let Some(key) = tokens.next() {
            let field = match key {
                "depth" => InfoField::Depth(tokens.number("depth")?),
                "seldepth" => InfoField::SelDepth(tokens.number("seldepth")?),
                "time" => InfoField::Time(Duration::from_millis(tokens.number("time")?)),
                "nodes" => InfoField::Nodes(tokens.number("nodes")?),
                "pv" => InfoField::Pv(moves(tokens)),
                "multipv" => InfoField::MultiPv(tokens.number("multipv")?),
                "score" => InfoField::Score(Score::parse(tokens)?),
                "currmove" => {
                    let token = tokens.next().ok_or(ParseError::Expected {
                        after: "currmove",
                        expected: "a move",
                        found: None,
                    })?;
                    InfoField::CurrMove(token.parse()?)
                }
                "currmovenumber" => InfoField::CurrMoveNumber(tokens.number("currmovenumber")?),
                "hashfull" => InfoField::HashFull(tokens.number("hashfull")?),
                "nps" => InfoField::Nps(tokens.number("nps")?),
                "tbhits" => InfoField::TbHits(tokens.number("tbhits")?),
                "sbhits" => InfoField::SbHits(tokens.number("sbhits")?),
                "cpuload" => InfoField::CpuLoad(tokens.number("cpuload")?),
                "wdl" => InfoField::Wdl {
                    win: tokens.number("wdl")?,
                    draw: tokens.number("wdl")?,
                    loss: tokens.number("wdl")?,
                },
                "string" => InfoField::String(tokens.rest().unwrap_or_default()),
                "refutation" => InfoField::Refutation(moves(tokens)),
                "currline" => {
                    let cpu = match tokens.peek() {
                        Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                            Some(tokens.number("currline")?)
                        }
                        _ => None,
                    };
                    InfoField::CurrLine { cpu, moves: moves(tokens) }
                }
                other => {
                    return Err(ParseError::Unexpected { command: "info", token: other.to_owned() })
                }
            };
            fields.push(field);
        }
        Ok(fields)
    }
}

impl From<rookery_engine::Score> for ScoreValue {
    /// The engine's score as `info score` reports it.
    fn from(score: rookery_engine::Score) -> ScoreValue {
        match score {
            rookery_engine::Score::Centipawns(cp) => ScoreValue::Centipawns(cp),
            rookery_engine::Score::Mate(n) => ScoreValue::Mate(n),
        }
    }
}

impl Score {
    fn parse(tokens: &mut Tokens<'_>) -> Result<Score, ParseError> {
        let value = match tokens.next() {
            Some("cp") => ScoreValue::Centipawns(tokens.number("cp")?),
            Some("mate") => ScoreValue::Mate(tokens.number("mate")?),
            found => {
                return Err(ParseError::Expected {
                    after: "score",
                    expected: "cp or mate",
                    found: found.map(str::to_owned),
                })
            }
        };
        let bound = match tokens.peek() {
            Some("lowerbound") => Some(ScoreBound::Lower),
            Some("upperbound") => Some(ScoreBound::Upper),
            _ => None,
        };
        if bound.is_some() {
            tokens.next();
        }
        Ok(Score { value, bound })
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ScoreValue::Centipawns(cp) => write!(f, "cp {cp}")?,
            ScoreValue::Mate(n) => write!(f, "mate {n}")?,
        }
        match self.bound {
            Some(ScoreBound::Lower) => f.write_str(" lowerbound"),
            Some(ScoreBound::Upper) => f.write_str(" upperbound"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for InfoField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoField::Depth(n) => write!(f, "depth {n}"),
            InfoField::SelDepth(n) => write!(f, "seldepth {n}"),
            InfoField::Time(t) => write!(f, "time {}", t.as_millis()),
            InfoField::Nodes(n) => write!(f, "nodes {n}"),
            InfoField::Pv(moves) => {
                f.write_str("pv")?;
                write_moves(f, moves)
            }
            InfoField::MultiPv(n) => write!(f, "multipv {n}"),
            InfoField::Score(score) => write!(f, "score {score}"),
            InfoField::CurrMove(m) => write!(f, "currmove {m}"),
            InfoField::CurrMoveNumber(n) => write!(f, "currmovenumber {n}"),
            InfoField::HashFull(n) => write!(f, "hashfull {n}"),
            InfoField::Nps(n) => write!(f, "nps {n}"),
            InfoField::TbHits(n) => write!(f, "tbhits {n}"),
            InfoField::SbHits(n) => write!(f, "sbhits {n}"),
            InfoField::CpuLoad(n) => write!(f, "cpuload {n}"),
            InfoField::Wdl { win, draw, loss } => write!(f, "wdl {win} {draw} {loss}"),
            InfoField::String(text) => write!(f, "string {text}"),
            InfoField::Refutation(moves) => {
                f.write_str("refutation")?;
                write_moves(f, moves)
            }
            InfoField::CurrLine { cpu, moves } => {
                f.write_str("currline")?;
                if let Some(cpu) = cpu {
                    write!(f, " {cpu}")?;
                }
                write_moves(f, moves)
            }
        }
    }
}
