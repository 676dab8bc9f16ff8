//! The push visitor that the [`Reader`](crate::Reader) drives through each game.

use std::ops::ControlFlow;

use rookery_core::SanPlus;

use crate::{GameResult, Location, Nag, RawTag, ReadError};

/// Receives one game at a time from a [`Reader`](crate::Reader).
///
/// For each game the reader calls, in this order: [`begin_game`](Visitor::begin_game),
/// [`begin_tags`](Visitor::begin_tags), [`tag`](Visitor::tag) for each tag pair,
/// [`end_tags`](Visitor::end_tags), then the movetext in the order of the text
/// ([`san`](Visitor::san), [`nag`](Visitor::nag), [`comment`](Visitor::comment),
/// [`begin_variation`](Visitor::begin_variation) and [`end_variation`](Visitor::end_variation),
/// always balanced), at most one [`result`](Visitor::result), and last
/// [`end_game`](Visitor::end_game), whose value [`Reader::read_game`](crate::Reader::read_game)
/// returns. [`error`](Visitor::error) may come at any point after `begin_game`; after an error
/// in the movetext the reader skips to the end of the game and only `result` (if the game has
/// one) and `end_game` follow. `comment` comes only in games for which
/// [`wants_comments`](Visitor::wants_comments), asked after `end_tags`, said `true`. Every
/// method but `end_game` does nothing by default.
///
/// Byte slices borrow the reader's buffer: copy what you keep.
pub trait Visitor {
    /// What the visitor makes of one game.
    type Output;

    /// A game starts: its first tag or movetext token has been seen.
    fn begin_game(&mut self) {}

    /// The tag pair section starts (§8.1); called even when the game has no tags.
    fn begin_tags(&mut self) {}

    /// One tag pair, `[name "value"]`, in the order of the text. `[FEN]` and `[SetUp]` are tags
    /// like any other: the visitor decides what they mean.
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, at: Location) {
        let _ = (name, value, at);
    }

    /// The tag pair section is over. `Break` skips the game's movetext: no movetext calls
    /// follow but `result`.
    fn end_tags(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A move, parsed as SAN but not checked against any position, starting at `at`. A suffix
    /// annotation such as `!?` written onto the move follows as a [`nag`](Visitor::nag).
    /// `Break` skips the rest of the game's movetext (after an illegal move, say).
    fn san(&mut self, san_plus: SanPlus, at: Location) -> ControlFlow<()> {
        let _ = (san_plus, at);
        ControlFlow::Continue(())
    }

    /// A numeric annotation glyph, written `$n`, as a suffix such as `!?` (§8.2.3.8) or as an
    /// evaluation symbol such as `+-`.
    fn nag(&mut self, nag: Nag) {
        let _ = nag;
    }

    /// Whether this game's comments go to [`comment`](Visitor::comment); asked once per game,
    /// after [`end_tags`](Visitor::end_tags) allowed the movetext. `false` lets the reader step
    /// over each comment without handing it over: the same syntax, the same errors and the
    /// same line count, no call (a file of engine games has a `{ [%clk …] }` after every
    /// move, and a visitor that ignores them paid a call for each; issue 41). `true` by
    /// default.
    fn wants_comments(&self) -> bool {
        true
    }

    /// A comment's text between `{` and `}`, or after `;` up to the end of the line (§5); raw
    /// bytes, white space and `[%clk …]` commands included (see [`crate::comment`]). A comment
    /// longer than the reader's buffer is cut to the buffer's length. Not called when
    /// [`wants_comments`](Visitor::wants_comments) said `false` for the game.
    fn comment(&mut self, comment: &[u8]) {
        let _ = comment;
    }

    /// A recursive annotation variation opens (§8.2.5): an alternative to the last move.
    /// `Break` skips it, up to and including its `)`; no `end_variation` follows then.
    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The innermost open variation closes.
    fn end_variation(&mut self) {}

    /// The game termination marker (§8.2.6). Games cut off without one get no call.
    fn result(&mut self, result: GameResult) {
        let _ = result;
    }

    /// A syntax error in this game; see [`ReadError`].
    fn error(&mut self, error: ReadError) {
        let _ = error;
    }

    /// The game is over; the value is what [`Reader::read_game`](crate::Reader::read_game)
    /// returns for it.
    fn end_game(&mut self) -> Self::Output;
}

/// A visitor that skips every game's movetext and makes nothing: counts games fast.
#[derive(Clone, Copy, Debug, Default)]
pub struct SkipVisitor;

impl Visitor for SkipVisitor {
    type Output = ();

    fn end_tags(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn end_game(&mut self) {}
}
