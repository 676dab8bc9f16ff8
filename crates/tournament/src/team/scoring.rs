//! How board results roll up into a match: game points, match points, the colours of the
//! boards, and what a pairing-allocated bye is worth.

use rookery_core::Color;

use crate::score::Score;

/// The result of one board's game, White's side first, as an arbiter records it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoardResult {
    /// `1-0`, played.
    WhiteWins,
    /// `½-½`, played.
    Draw,
    /// `0-1`, played.
    BlackWins,
    /// `+/-`: Black did not play; White wins by forfeit.
    WhiteWinsByForfeit,
    /// `-/+`: White did not play; Black wins by forfeit.
    BlackWinsByForfeit,
    /// `-/-`: neither played; nobody scores.
    DoubleForfeit,
}

impl BoardResult {
    /// The game points the side of colour `side` scores.
    pub const fn points(self, side: Color) -> Score {
        match (self, side) {
            (BoardResult::Draw, _) => Score::HALF,
            (BoardResult::WhiteWins | BoardResult::WhiteWinsByForfeit, Color::White)
            | (BoardResult::BlackWins | BoardResult::BlackWinsByForfeit, Color::Black) => {
                Score::ONE
            }
            _ => Score::ZERO,
        }
    }

    /// Whether the game was played over the board.
    pub const fn is_played(self) -> bool {
        matches!(self, BoardResult::WhiteWins | BoardResult::Draw | BoardResult::BlackWins)
    }
}

/// Which team has White on which board.
///
/// C.04.6 Art. 1.6.1 (as reconstructed, see the crate README) gives a match its colour by
/// board 1: the team with White on board 1 is "White" in the match. The other boards follow
/// the event's regulations; team regulations (the Olympiad's, TRF-2026's `352 WBWB`) alternate.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum BoardColours {
    /// The match's White team has White on the odd boards (1, 3, …) and Black on the even
    /// ones: `WBWB`.
    #[default]
    Alternating,
    /// The match's White team has White on every board.
    Same,
}

impl BoardColours {
    /// The colour the match's White team (White on board 1) has on `board` (from 1).
    pub const fn colour_of_first(self, board: usize) -> Color {
        match self {
            BoardColours::Alternating if board.is_multiple_of(2) => Color::Black,
            _ => Color::White,
        }
    }
}

/// The score that ranks teams and brackets them for pairing (C.04.6 Art. 1.2 as reconstructed;
/// the regulations of the event choose).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum PrimaryScore {
    /// Match points (2/1/0 by default): the default of C.04.6 and of most team events.
    #[default]
    MatchPoints,
    /// Game points: the sum of the board results.
    GamePoints,
}

/// What the game points of a pairing-allocated bye are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ByeGamePoints {
    /// Half the boards (2 of 4). The default: see the crate README on byes.
    #[default]
    HalfTheBoards,
    /// Every board (4 of 4), as a match won by forfeit.
    AllBoards,
    /// None.
    Zero,
}

/// Points for matches and byes. Match points are kept in tenths like every score of the crate
/// (2 match points are `Score(20)`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TeamScoring {
    /// Match points for a match won (more game points than the opponent). Default 2.
    pub win: Score,
    /// Match points for a drawn match. Default 1.
    pub draw: Score,
    /// Match points for a lost match. Default 0.
    pub loss: Score,
    /// The score that ranks and pairs.
    pub primary: PrimaryScore,
    /// Match points of a pairing-allocated bye. Default: those of a win.
    pub bye_match_points: Score,
    /// Game points of a pairing-allocated bye.
    pub bye_game_points: ByeGamePoints,
}

impl Default for TeamScoring {
    fn default() -> TeamScoring {
        TeamScoring {
            win: Score(20),
            draw: Score(10),
            loss: Score::ZERO,
            primary: PrimaryScore::MatchPoints,
            bye_match_points: Score(20),
            bye_game_points: ByeGamePoints::HalfTheBoards,
        }
    }
}

/// What a team scored in one round.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct RoundScore {
    /// Match points.
    pub match_points: Score,
    /// Game points.
    pub game_points: Score,
}

impl TeamScoring {
    /// The match points for `own` game points against `theirs`. A match in which no board was
    /// played and nobody scored (every board a double forfeit) is lost by both teams.
    pub fn match_points(&self, own: Score, theirs: Score) -> Score {
        match own.cmp(&theirs) {
            std::cmp::Ordering::Greater => self.win,
            std::cmp::Ordering::Equal if own == Score::ZERO && theirs == Score::ZERO => self.loss,
            std::cmp::Ordering::Equal => self.draw,
            std::cmp::Ordering::Less => self.loss,
        }
    }

    /// What a pairing-allocated bye is worth to a team of `boards` boards.
    pub fn bye(&self, boards: usize) -> RoundScore {
        let boards = u32::try_from(boards).unwrap_or(u32::MAX);
        let game_points = match self.bye_game_points {
            ByeGamePoints::HalfTheBoards => Score(boards.saturating_mul(5)),
            ByeGamePoints::AllBoards => Score(boards.saturating_mul(10)),
            ByeGamePoints::Zero => Score::ZERO,
        };
        RoundScore { match_points: self.bye_match_points, game_points }
    }

    /// The primary score of `score`.
    pub fn primary_of(&self, score: RoundScore) -> Score {
        match self.primary {
            PrimaryScore::MatchPoints => score.match_points,
            PrimaryScore::GamePoints => score.game_points,
        }
    }

    /// The secondary score of `score`: the one that is not primary (C.04.6 Art. 4.2.2).
    pub fn secondary_of(&self, score: RoundScore) -> Score {
        match self.primary {
            PrimaryScore::MatchPoints => score.game_points,
            PrimaryScore::GamePoints => score.match_points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_colours_alternate_from_board_one() {
        let c = BoardColours::Alternating;
        assert_eq!(
            [1, 2, 3, 4].map(|b| c.colour_of_first(b)),
            [Color::White, Color::Black, Color::White, Color::Black]
        );
        assert_eq!(BoardColours::Same.colour_of_first(2), Color::White);
    }

    #[test]
    fn match_points_follow_game_points() {
        let s = TeamScoring::default();
        assert_eq!(s.match_points(Score(25), Score(15)), Score(20));
        assert_eq!(s.match_points(Score(20), Score(20)), Score(10));
        assert_eq!(s.match_points(Score(5), Score(35)), Score::ZERO);
        assert_eq!(s.match_points(Score::ZERO, Score::ZERO), Score::ZERO);
        assert_eq!(s.bye(4), RoundScore { match_points: Score(20), game_points: Score(20) });
    }
}
