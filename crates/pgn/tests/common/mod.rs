//! A visitor that records everything the reader reports, for the integration tests; and the
//! writer driven from such a record.

#![allow(dead_code)]

use std::io::Read;
use std::ops::ControlFlow;

use rookery_core::SanPlus;
use rookery_pgn::tag::decode_text;
use rookery_pgn::{GameResult, Location, Nag, RawTag, ReadError, Reader, Visitor, Writer};

/// One movetext event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    San(SanPlus),
    Nag(Nag),
    /// The comment's text, decoded, its white space collapsed to single spaces.
    Comment(String),
    Begin,
    End,
}

/// One game as the reader reported it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    pub events: Vec<Event>,
    pub result: Option<GameResult>,
    pub errors: Vec<ReadError>,
    /// Where each move started, in order.
    pub move_locations: Vec<Location>,
}

impl Game {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn sans(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::San(s) => Some(s.to_string()),
                _ => None,
            })
            .collect()
    }

    /// The termination marker, else the `Result` tag, else `*`.
    pub fn final_result(&self) -> GameResult {
        self.result
            .or_else(|| self.tag("Result").and_then(|r| GameResult::from_ascii(r.as_bytes())))
            .unwrap_or(GameResult::NoResult)
    }
}

pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[derive(Default)]
pub struct Recorder {
    pub game: Game,
    /// Tags and moves are recorded in full, but the movetext is skipped when set.
    pub skip_movetext: bool,
    /// Variations are skipped when set.
    pub skip_variations: bool,
    /// Moves after this many are skipped (the visitor breaks).
    pub max_moves: Option<usize>,
    /// Comments are not wanted ([`Visitor::wants_comments`]) when set.
    pub skip_comments: bool,
}

impl Visitor for Recorder {
    type Output = Game;

    fn begin_game(&mut self) {
        self.game = Game::default();
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, _at: Location) {
        self.game.tags.push((decode_text(name).into_owned(), value.decode_utf8().into_owned()));
    }

    fn end_tags(&mut self) -> ControlFlow<()> {
        if self.skip_movetext {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn san(&mut self, san_plus: SanPlus, at: Location) -> ControlFlow<()> {
        self.game.events.push(Event::San(san_plus));
        self.game.move_locations.push(at);
        match self.max_moves {
            Some(max) if self.game.move_locations.len() >= max => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }

    fn nag(&mut self, nag: Nag) {
        self.game.events.push(Event::Nag(nag));
    }

    fn wants_comments(&self) -> bool {
        !self.skip_comments
    }

    fn comment(&mut self, comment: &[u8]) {
        assert!(!self.skip_comments, "a comment handed over after wants_comments said false");
        self.game.events.push(Event::Comment(collapse(&decode_text(comment))));
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        if self.skip_variations {
            return ControlFlow::Break(());
        }
        self.game.events.push(Event::Begin);
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self) {
        self.game.events.push(Event::End);
    }

    fn result(&mut self, result: GameResult) {
        assert!(self.game.result.is_none(), "two results in one game");
        self.game.result = Some(result);
    }

    fn error(&mut self, error: ReadError) {
        self.game.errors.push(error);
    }

    fn end_game(&mut self) -> Game {
        std::mem::take(&mut self.game)
    }
}

pub fn read_all_from(input: impl Read, capacity: usize) -> Vec<Game> {
    read_all_with(Recorder::default(), input, capacity)
}

/// [`read_all_from`] by a visitor that wants no comments.
pub fn read_all_without_comments_from(input: impl Read, capacity: usize) -> Vec<Game> {
    read_all_with(Recorder { skip_comments: true, ..Recorder::default() }, input, capacity)
}

/// The games as read with comments, their comments taken out: what a visitor that wants none
/// must be told.
pub fn without_comments(games: &[Game]) -> Vec<Game> {
    let mut games = games.to_vec();
    for game in &mut games {
        game.events.retain(|e| !matches!(e, Event::Comment(_)));
    }
    games
}

fn read_all_with(mut recorder: Recorder, input: impl Read, capacity: usize) -> Vec<Game> {
    let mut reader = Reader::with_capacity(capacity, input);
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut recorder).expect("reading from memory") {
        games.push(game);
    }
    games
}

pub fn read_all(bytes: &[u8]) -> Vec<Game> {
    read_all_from(bytes, 64 * 1024)
}

pub fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// Every `.pgn` file under `tests/data/<dir>`, sorted, as (file name, bytes).
pub fn data_dir(dir: &str) -> Vec<(String, Vec<u8>)> {
    let full = format!("{}/tests/data/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&full)
        .unwrap_or_else(|e| panic!("{full}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Writes a recorded game in export format.
pub fn write_game(w: &mut Writer<Vec<u8>>, game: &Game) {
    let result = game.final_result();
    let mut tags = game.tags.clone();
    tags.retain(|(k, _)| k != "Result");
    tags.push(("Result".to_owned(), result.to_string()));
    w.tags(&tags).unwrap();
    if let Some(fen) = game.tag("FEN") {
        if let Ok(pos) = rookery_core::Position::from_fen(fen) {
            w.set_start(pos.fullmoves(), pos.turn());
        }
    }
    for event in &game.events {
        match event {
            Event::San(san) => w.san(san).unwrap(),
            Event::Nag(nag) => w.nag(*nag).unwrap(),
            Event::Comment(text) => w.comment(text).unwrap(),
            Event::Begin => w.begin_variation().unwrap(),
            Event::End => w.end_variation().unwrap(),
        }
    }
    w.end_game(result).unwrap();
}

pub fn write_all(games: &[Game]) -> Vec<u8> {
    let mut w = Writer::new(Vec::new());
    for game in games {
        write_game(&mut w, game);
    }
    w.into_inner()
}
