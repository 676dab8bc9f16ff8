//! A small reader for the EPD test suites in `tests/data/`: a position (the four FEN fields
//! of EPD) and operations such as `bm` (best moves, SAN), `dm` (direct mate in moves) and
//! `id`. Lines starting with `#` are comments.

// Each suite uses the fields it needs.
#![allow(dead_code)]

use rookery_core::{Move, Position};

/// One EPD record.
pub struct Record {
    /// The line number in its file.
    pub line: usize,
    pub fen: String,
    pub position: Position,
    pub best: Vec<Move>,
    pub mate: Option<i32>,
    pub id: String,
}

/// The records of `tests/data/<name>`.
pub fn read(name: &str) -> Vec<Record> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut record = parse(l).unwrap_or_else(|e| panic!("{name}:{}: {e}: {l}", i + 1));
            record.line = i + 1;
            record
        })
        .collect()
}

fn parse(line: &str) -> Result<Record, String> {
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    if fields.len() < 5 {
        return Err("fewer than four FEN fields and operations".into());
    }
    let fen = fields[..4].join(" ");
    let position: Position = format!("{fen} 0 1").parse().map_err(|e| format!("{e}"))?;
    let mut record =
        Record { line: 0, fen, position, best: Vec::new(), mate: None, id: String::new() };
    for op in fields[4].split(';').map(str::trim).filter(|op| !op.is_empty()) {
        let (name, args) = op.split_once(' ').unwrap_or((op, ""));
        match name {
            "bm" => {
                for san in args.split_whitespace() {
                    let m = record.position.parse_san(san).map_err(|e| format!("bm {san}: {e}"))?;
                    record.best.push(m);
                }
            }
            "dm" => record.mate = Some(args.trim().parse().map_err(|_| format!("dm {args}"))?),
            "id" => record.id = args.trim().trim_matches('"').to_owned(),
            _ => {}
        }
    }
    Ok(record)
}
