//! Each player's rounds as the tie-breaks see them: played or not, voluntary or not, and the
//! category of every unplayed round (C.07 Article 16, individual Swiss tournaments).

use rookery_core::Color;

use crate::{Outcome, ResultCode, RoundEntry, Score, Scoring, Tournament};

use super::Regulations;

/// What every tie-break of one standings computation shares.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    /// The rounds counted: 1 to `rounds`.
    pub rounds: u32,
    /// What each kind of round is worth.
    pub scoring: Scoring,
    /// The text applied.
    pub regulations: Regulations,
    /// Each player's rating for the rating-based tie-breaks, by index; `None` when the
    /// rating-based tie-breaks are dropped (Article 10: unrated players present and no rule
    /// for them).
    pub ratings: Option<Vec<i32>>,
}

impl Context {
    /// The context of `tournament` after `rounds` rounds. Unrated players get
    /// `unrated_rating` if given; without it, any unrated player drops the rating-based
    /// tie-breaks (C.07 Article 10).
    pub fn new(
        tournament: &Tournament,
        rounds: u32,
        regulations: Regulations,
        unrated_rating: Option<u16>,
    ) -> Context {
        let ratings = tournament
            .players
            .iter()
            .map(|p| p.rating.or(unrated_rating).map(i32::from))
            .collect::<Option<Vec<i32>>>();
        Context { rounds, scoring: tournament.scoring, regulations, ratings }
    }

    /// The points of a draw times the number of rounds: the 2026 cap of a bye's dummy
    /// (16.4.2). "The number of rounds in the tournament" is read as the rounds counted, so
    /// that standings after round 5 of 9 cap at 5 draws, as the final standings of a 5-round
    /// tournament would.
    pub fn draws_in_every_round(&self) -> Score {
        Score(self.scoring.draw.tenths() * self.rounds)
    }
}

/// The category of an unplayed round (C.07 16.2). Played games have none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Category {
    /// 16.2.1: a bye worth its points that the player did not ask to forgo a game for: the
    /// pairing-allocated bye, a full-point bye.
    Bye,
    /// 16.2.2: a forfeit win.
    ForfeitWin,
    /// 16.2.3: a voluntary unplayed round (a half- or zero-point bye, an absence) after which
    /// the player came back: some later round is not voluntary.
    VoluntaryThenBack,
    /// 16.2.4: a forfeit loss.
    ForfeitLoss,
    /// 16.2.5: a voluntary unplayed round after which the player never came back (a
    /// withdrawal, or byes to the end). For the opponents it counts as a draw (16.3.2).
    VoluntaryToTheEnd,
}

/// One round of one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Round {
    /// The opponent's index, for a game or a forfeit.
    pub opponent: Option<usize>,
    /// The colour, for a game or a forfeit.
    pub colour: Option<Color>,
    /// The TRF result code.
    pub code: ResultCode,
    /// The points awarded.
    pub points: Score,
    /// Whether the game was played over the board.
    pub played: bool,
    /// Whether the round is a voluntary unplayed round, a VUR (16.1.2: half- and zero-point
    /// byes, absences, forfeit losses): the rounds the Cut modifiers cut first (16.5).
    pub voluntary: bool,
    /// The category of an unplayed round.
    pub category: Option<Category>,
}

impl Round {
    fn new(entry: RoundEntry, players: usize, scoring: &Scoring) -> Round {
        // An opponent outside the player list is no opponent: the round is a bye.
        let opponent = entry.opponent.map(|id| id.index()).filter(|&i| i < players);
        let played = entry.result.is_played() && opponent.is_some();
        let voluntary = !played
            && match entry.result {
                ResultCode::HalfPointBye | ResultCode::ZeroPointBye | ResultCode::ForfeitLoss => {
                    true
                }
                ResultCode::FullPointBye
                | ResultCode::PairingAllocatedBye
                | ResultCode::ForfeitWin => false,
                // A game result without an opponent: only what scores as a win is not the
                // player's own choice.
                code => code.outcome() != Outcome::Win,
            };
        Round {
            opponent,
            colour: entry.colour,
            code: entry.result,
            points: scoring.points(entry.result),
            played,
            voluntary,
            category: None,
        }
    }
}

/// One player's rounds and scores.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Record {
    /// Rounds 1 to the context's `rounds`; a round without an entry is an absence.
    pub rounds: Vec<Round>,
    /// The score after those rounds.
    pub score: Score,
    /// The score the opponents' tie-breaks use (16.3): as awarded, except that voluntary
    /// unplayed rounds to the end count as draws.
    pub adjusted: Score,
}

impl Record {
    /// The records of every player, by index.
    pub fn all(tournament: &Tournament, context: &Context) -> Vec<Record> {
        let players = tournament.players.len();
        tournament
            .players
            .iter()
            .map(|player| {
                let mut rounds: Vec<Round> = (1..=context.rounds)
                    .map(|r| player.round(r).copied().unwrap_or(RoundEntry::ABSENT))
                    .map(|entry| Round::new(entry, players, &context.scoring))
                    .collect();
                classify(&mut rounds);
                let score = rounds.iter().map(|r| r.points).sum();
                let adjusted = rounds
                    .iter()
                    .map(|r| match r.category {
                        Some(Category::VoluntaryToTheEnd) => context.scoring.draw,
                        _ => r.points,
                    })
                    .sum();
                Record { rounds, score, adjusted }
            })
            .collect()
    }

    /// The score of the dummy opponent that stands in for an unplayed round (16.4), in the
    /// text the context applies.
    pub fn dummy_score(&self, round: &Round, records: &[Record], context: &Context) -> Score {
        let own = self.score;
        match context.regulations {
            Regulations::C07_2024 => own,
            Regulations::C07_2026 => match round.opponent {
                // 16.4.1: a forfeit's dummy scores no more than the scheduled opponent.
                Some(opponent) => own.min(records[opponent].adjusted),
                // 16.4.2: any other's no more than a draw in every round.
                None => own.min(context.draws_in_every_round()),
            },
        }
    }
}

/// Gives every unplayed round its category (16.2). A voluntary round is 16.2.3 if a later
/// round is not voluntary, 16.2.5 otherwise.
fn classify(rounds: &mut [Round]) {
    let mut back_later = false;
    for round in rounds.iter_mut().rev() {
        round.category = if round.played {
            None
        } else if round.opponent.is_some() {
            Some(if round.voluntary { Category::ForfeitLoss } else { Category::ForfeitWin })
        } else if !round.voluntary {
            Some(Category::Bye)
        } else if back_later {
            Some(Category::VoluntaryThenBack)
        } else {
            Some(Category::VoluntaryToTheEnd)
        };
        back_later |= !round.voluntary;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlayerId;

    fn round(entry: RoundEntry) -> Round {
        Round::new(entry, 2, &Scoring::default())
    }

    fn game(result: ResultCode) -> RoundEntry {
        RoundEntry { opponent: PlayerId::new(2), colour: Some(Color::White), result }
    }

    #[test]
    fn categories_follow_16_2() {
        let mut rounds = [
            round(RoundEntry::bye(ResultCode::HalfPointBye)),
            round(game(ResultCode::Win)),
            round(RoundEntry::bye(ResultCode::ZeroPointBye)),
            round(game(ResultCode::ForfeitLoss)),
            round(RoundEntry::bye(ResultCode::PairingAllocatedBye)),
            round(game(ResultCode::ForfeitWin)),
            round(RoundEntry::bye(ResultCode::HalfPointBye)),
            round(game(ResultCode::ForfeitLoss)),
            round(RoundEntry::ABSENT),
        ];
        classify(&mut rounds);
        let categories: Vec<_> = rounds.iter().map(|r| r.category).collect();
        assert_eq!(
            categories,
            [
                Some(Category::VoluntaryThenBack),
                None,
                Some(Category::VoluntaryThenBack),
                Some(Category::ForfeitLoss),
                Some(Category::Bye),
                Some(Category::ForfeitWin),
                // Only a forfeit loss and an absence follow: both voluntary.
                Some(Category::VoluntaryToTheEnd),
                Some(Category::ForfeitLoss),
                Some(Category::VoluntaryToTheEnd),
            ]
        );
    }

    #[test]
    fn voluntary_rounds_are_the_players_own_choice() {
        let voluntary = |entry| round(entry).voluntary;
        assert!(voluntary(RoundEntry::bye(ResultCode::HalfPointBye)));
        assert!(voluntary(RoundEntry::ABSENT));
        assert!(voluntary(game(ResultCode::ForfeitLoss)));
        assert!(!voluntary(game(ResultCode::ForfeitWin)));
        assert!(!voluntary(RoundEntry::bye(ResultCode::PairingAllocatedBye)));
        assert!(!voluntary(RoundEntry::bye(ResultCode::FullPointBye)));
        assert!(!voluntary(game(ResultCode::Loss)));
    }
}
