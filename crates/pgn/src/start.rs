//! Where a game starts, as its tags say it: the `[Variant]` (standard chess or Chess960,
//! RULES.md §13), and the `[SetUp]` and `[FEN]` pair (PGN standard §9.7.2), read and written.
//!
//! Reading: a `[Variant]` naming standard chess, or none, is standard chess; one naming Chess960
//! as lichess (`Chess960`), ChessBase and cutechess (`Fischerandom`), FIDE (`Freestyle`) or others
//! (`Chess 960`, `Fischer Random`) write it, in any case, makes the `[FEN]` a Chess960 position
//! (X-FEN or Shredder-FEN castling) and requires it: every Chess960 game has its own start, so a
//! game that does not give it cannot be replayed. Any other variant (crazyhouse, atomic …) is
//! refused by name. The `[FEN]` is honoured whatever `[SetUp]` says (files omit `[SetUp "1"]`
//! as often as they write it), and a fullmove number of 0, which real files write, is read as 1.
//!
//! Writing: [`start_tags`] are the tags a game from a given position carries, which for a
//! Chess960 game are always `[Variant "Chess960"]`, `[SetUp "1"]` and the X-FEN, even from the
//! standard start (number 518), so that every reader knows how castling is written.

use std::fmt;

use rookery_core::{CastlingMode, FenError, Position, PositionError};

/// The variants of chess a game can be replayed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess (no `[Variant]` tag, or `Standard`, `Chess`, `Normal`, `From Position`).
    #[default]
    Standard,
    /// Chess960, Fischer random chess (RULES.md §13).
    Chess960,
}

impl Variant {
    /// The variant a `[Variant]` tag's value names, read without regard to case, spaces,
    /// hyphens or underscores; `None` for a variant other than these two.
    pub fn from_tag(value: &str) -> Option<Variant> {
        if is_standard_variant(value) {
            return Some(Variant::Standard);
        }
        let name: String = value
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        // lichess `Chess960`; ChessBase, cutechess and Arena `Fischerandom`; FIDE's `Freestyle`
        // events; `Fischer Random (Chess)` and `Chess 960` elsewhere.
        let chess960 = [
            "chess960",
            "960",
            "fischerandom",
            "fischerrandom",
            "fischerrandomchess",
            "freestyle",
            "freestylechess",
        ];
        chess960.contains(&name.as_str()).then_some(Variant::Chess960)
    }

    /// The variant of a game whose `[Variant]` tag is `tag` (`None`: the game has none).
    ///
    /// # Errors
    /// [`StartError::Variant`] for a variant other than standard chess and Chess960.
    pub fn of_game(tag: Option<&str>) -> Result<Variant, StartError> {
        match tag {
            None => Ok(Variant::Standard),
            Some(value) => {
                Variant::from_tag(value).ok_or_else(|| StartError::Variant(value.to_owned()))
            }
        }
    }

    /// The variant of a position: Chess960 when it writes castling as Chess960 does.
    pub fn of(pos: &Position) -> Variant {
        if pos.is_chess960() {
            Variant::Chess960
        } else {
            Variant::Standard
        }
    }

    /// How positions of this variant write castling.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// The `[Variant]` value the writer gives it: `None` for standard chess, which needs no tag.
    pub fn tag_value(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
        }
    }

    /// The start position of a game of this variant whose `[FEN]` tag is `fen`, if it has one.
    ///
    /// # Errors
    /// [`StartError::MissingFen`] for a Chess960 game without a `[FEN]`, [`StartError::Fen`]
    /// for a `[FEN]` that is no legal position of this variant.
    pub fn start(self, fen: Option<&str>) -> Result<Position, StartError> {
        match (self, fen) {
            (Variant::Standard, None) => Ok(Position::new()),
            (Variant::Chess960, None) => Err(StartError::MissingFen),
            (variant, Some(fen)) => fen_tag_position_in(fen, variant.castling_mode())
                .map_err(|error| StartError::Fen { fen: fen.to_owned(), variant, error }),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Standard => "standard chess",
            Variant::Chess960 => "Chess960",
        })
    }
}

/// Why a game's tags give no start position. The caller knows which tag is at fault and where
/// it is: the `[Variant]` for the first two, the `[FEN]` for the last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// A `[Variant]` other than standard chess and Chess960; the tag's value.
    Variant(String),
    /// A Chess960 game without a `[FEN]` tag: its start position is unknown.
    MissingFen,
    /// The `[FEN]` tag is no legal position of the game's variant.
    Fen {
        /// The tag's value.
        fen: String,
        /// The variant it was read in.
        variant: Variant,
        /// Why.
        error: FenError,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Variant(variant) => write!(f, "unsupported variant {variant:?}"),
            StartError::MissingFen => f.write_str(
                "no [FEN] tag: a Chess960 game must give its start position ([SetUp \"1\"] and \
                 [FEN])",
            ),
            StartError::Fen { fen, error, .. } => {
                write!(f, "[FEN {fen:?}]: {error}{}", fen_hint(fen))
            }
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Fen { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// What to add to the error of a `[FEN]` that standard chess refuses for its castling rights
/// but Chess960 reads: the game forgot its `[Variant]` tag, and the message says so. Empty for
/// any other `[FEN]`.
pub(crate) fn fen_hint(fen: &str) -> &'static str {
    let refused_for_castling = matches!(
        fen_tag_position(fen),
        Err(FenError::Position(PositionError::InvalidCastlingRight(_)))
    );
    if refused_for_castling && fen_tag_position_in(fen, CastlingMode::Chess960).is_ok() {
        " (a Chess960 position: the game needs [Variant \"Chess960\"])"
    } else {
        ""
    }
}

/// The standard-chess position of a `[FEN]` tag. A fullmove number of 0, which real files
/// write, is read as 1.
///
/// # Errors
/// [`FenError`] for text that is not FEN of a legal position.
pub fn fen_tag_position(fen: &str) -> Result<Position, FenError> {
    fen_tag_position_in(fen, CastlingMode::Standard)
}

/// The position of a `[FEN]` tag with castling in `mode` (X-FEN and Shredder-FEN castling
/// fields are read in both). A fullmove number of 0, which real files write, is read as 1.
///
/// # Errors
/// [`FenError`] for text that is not FEN of a legal position.
pub fn fen_tag_position_in(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
    match Position::from_fen_in(fen, mode) {
        Err(FenError::Position(PositionError::ZeroFullmoves)) => {
            let fixed = fen.trim_end().strip_suffix(" 0").map(|f| format!("{f} 1"));
            Position::from_fen_in(fixed.as_deref().unwrap_or(fen), mode)
        }
        other => other,
    }
}

/// Whether a `[Variant]` tag names standard chess.
pub fn is_standard_variant(variant: &str) -> bool {
    let standard = ["standard", "chess", "normal", "from position"];
    standard.contains(&variant.trim().to_ascii_lowercase().as_str())
}

/// The names of the tags that say where a game starts, in the order [`start_tags`] gives them.
pub const START_TAG_NAMES: [&str; 3] = ["Variant", "SetUp", "FEN"];

/// The tags a game that starts at `start` carries to say so: none for standard chess from the
/// standard start; `[SetUp "1"]` and `[FEN]` for standard chess from another position; for
/// Chess960 always `[Variant "Chess960"]`, `[SetUp "1"]` and `[FEN]` with an X-FEN castling
/// field (`KQkq`, or the rook's file where another rook stands further out), the standard
/// start (number 518) included.
pub fn start_tags(start: &Position) -> Vec<(&'static str, String)> {
    let variant = Variant::of(start);
    let mut tags = Vec::with_capacity(3);
    if let Some(value) = variant.tag_value() {
        tags.push(("Variant", value.to_owned()));
    }
    if variant == Variant::Chess960 || *start != Position::new() {
        tags.push(("SetUp", "1".to_owned()));
        tags.push(("FEN", start.to_fen()));
    }
    tags
}

/// Puts the [`start_tags`] of `start` into `tags`: each replaces the value of the first tag of
/// its name, in place (later ones of that name are dropped), or is added at the end. Other
/// tags are left as they are, so a game from the standard start keeps any `[FEN]` it had.
pub fn set_start_tags(tags: &mut Vec<(String, String)>, start: &Position) {
    for (name, value) in start_tags(start) {
        let mut seen = false;
        tags.retain_mut(|(n, v)| {
            if n != name {
                return true;
            }
            if seen {
                return false;
            }
            seen = true;
            v.clone_from(&value);
            true
        });
        if !seen {
            tags.push((name.to_owned(), value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_core::chess960;

    #[test]
    fn variant_names_as_sites_and_programs_write_them() {
        for name in ["Chess960", "chess960", "Fischerandom", "FISCHERANDOM", "Chess 960"] {
            assert_eq!(Variant::from_tag(name), Some(Variant::Chess960), "{name}");
        }
        for name in ["Freestyle", "Fischer Random", "fischer-random", "FISCHER RANDOM CHESS"] {
            assert_eq!(Variant::from_tag(name), Some(Variant::Chess960), "{name}");
        }
        for name in ["Standard", "chess", " Normal ", "From Position"] {
            assert_eq!(Variant::from_tag(name), Some(Variant::Standard), "{name}");
        }
        for name in ["Crazyhouse", "Atomic", "King of the Hill", "Chess960 Crazyhouse", ""] {
            assert_eq!(Variant::from_tag(name), None, "{name}");
        }
    }

    #[test]
    fn a_chess960_start_needs_its_fen() {
        let start = Variant::Chess960
            .start(Some("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"));
        assert_eq!(start, Ok(chess960::position(0).unwrap()));
        // Shredder-FEN, and a fullmove number of 0.
        let shredder = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 0";
        assert_eq!(Variant::Chess960.start(Some(shredder)), start);
        assert_eq!(Variant::Chess960.start(None), Err(StartError::MissingFen));
        assert_eq!(Variant::Standard.start(None), Ok(Position::new()));
        assert!(Variant::Standard.start(None).unwrap().castling_mode() == CastlingMode::Standard);
    }

    #[test]
    fn a_standard_game_with_a_chess960_fen_is_told_its_tag() {
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
        let e = Variant::Standard.start(Some(fen)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "[FEN {fen:?}]: illegal position in FEN: castling right K without the king and \
                 rook on their starting squares (a Chess960 position: the game needs \
                 [Variant \"Chess960\"])"
            )
        );
        // No hint where Chess960 would not read it either.
        let e = Variant::Standard.start(Some("8/8/8/8/8/8/8/8 w - - 0 1")).unwrap_err();
        assert!(!e.to_string().contains("Chess960"), "{e}");
    }

    #[test]
    fn start_tags_say_chess960_even_from_the_standard_start() {
        assert!(start_tags(&Position::new()).is_empty());
        let from = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(
            start_tags(&from),
            [("SetUp", "1".to_owned()), ("FEN", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_owned())]
        );
        let normal = chess960::position(chess960::STANDARD).unwrap();
        assert_eq!(
            start_tags(&normal),
            [
                ("Variant", "Chess960".to_owned()),
                ("SetUp", "1".to_owned()),
                ("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned()),
            ]
        );
    }

    #[test]
    fn set_start_tags_replaces_in_place_and_adds_the_rest() {
        let start = chess960::position(0).unwrap();
        let mut tags: Vec<(String, String)> = [
            ("Event", "e"),
            ("Variant", "Fischerandom"),
            ("FEN", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"),
            ("Variant", "again"),
            ("Round", "1"),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
        set_start_tags(&mut tags, &start);
        let names: Vec<&str> = tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Event", "Variant", "FEN", "Round", "SetUp"]);
        assert_eq!(tags[1].1, "Chess960");
        assert_eq!(tags[2].1, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
        assert_eq!(tags[4].1, "1");
    }
}
