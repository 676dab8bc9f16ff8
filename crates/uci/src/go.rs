//! The parameters of `go`.

use core::fmt;
use std::time::Duration;

use crate::error::Tokens;
use crate::{write_moves, ParseError, UciMove};

/// The parameters of a `go` command, as the GUI sent them.
///
/// Clock readings are [`Duration`]s: a negative reading (an engine that overstepped, which some
/// GUIs report as `wtime -20`) is read as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Search only these root moves (`searchmoves`, always written last).
    pub search_moves: Vec<UciMove>,
    /// Search in pondering mode: the engine's last `ponder` move was played on the board.
    pub ponder: bool,
    /// White's clock.
    pub wtime: Option<Duration>,
    /// Black's clock.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves to the next time control (absent: sudden death).
    pub moves_to_go: Option<u32>,
    /// Search this many plies only.
    pub depth: Option<u32>,
    /// Search this many nodes only.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `go perft N` (an extension, as in Stockfish): count the leaf nodes to depth N instead.
    pub perft: Option<u32>,
}

/// The keywords of `go`, which end a `searchmoves` list.
const KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn millis(tokens: &mut Tokens<'_>, key: &'static str) -> Result<Duration, ParseError> {
    let ms: i64 = tokens.number(key)?;
    Ok(Duration::from_millis(ms.max(0).unsigned_abs()))
}

impl Go {
    /// Reads the parameters after `go`.
    pub(crate) fn parse(tokens: &mut Tokens<'_>) -> Result<Go, ParseError> {
        let mut go = Go::default();
        while let Some(token) = tokens.next() {
            go.read(token, tokens)?;
        }
        Ok(go)
    }

    fn read(&mut self, token: &str, tokens: &mut Tokens<'_>) -> Result<(), ParseError> {
        match token {
            "searchmoves" => {
                while let Some(m) = tokens.peek().filter(|t| !KEYWORDS.contains(t)) {
                    self.search_moves.push(m.parse()?);
                    tokens.next();
                }
            }
            "ponder" => self.ponder = true,
            "wtime" => self.wtime = Some(millis(tokens, "wtime")?),
            "btime" => self.btime = Some(millis(tokens, "btime")?),
            "winc" => self.winc = Some(millis(tokens, "winc")?),
            "binc" => self.binc = Some(millis(tokens, "binc")?),
            "movestogo" => self.moves_to_go = Some(tokens.number("movestogo")?),
            "depth" => self.depth = Some(tokens.number("depth")?),
            "nodes" => self.nodes = Some(tokens.number("nodes")?),
            "mate" => self.mate = Some(tokens.number("mate")?),
            "movetime" => self.movetime = Some(millis(tokens, "movetime")?),
            "infinite" => self.infinite = true,
            "perft" => self.perft = Some(tokens.number("perft")?),
            other => return Err(ParseError::Unexpected { command: "go", token: other.to_owned() }),
        }
        Ok(())
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if let Some(depth) = self.perft {
            write!(f, " perft {depth}")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let times = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
        ];
        for (key, time) in times {
            if let Some(t) = time {
                write!(f, " {key} {}", t.as_millis())?;
            }
        }
        if let Some(n) = self.moves_to_go {
            write!(f, " movestogo {n}")?;
        }
        if let Some(n) = self.depth {
            write!(f, " depth {n}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.mate {
            write!(f, " mate {n}")?;
        }
        if let Some(t) = self.movetime {
            write!(f, " movetime {}", t.as_millis())?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.search_moves.is_empty() {
            f.write_str(" searchmoves")?;
            write_moves(f, &self.search_moves)?;
        }
        Ok(())
    }
}
