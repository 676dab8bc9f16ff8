//! What the Swiss systems need to know about each player before a round is paired: score,
//! colour difference and preference, floats, whether the PAB may go to them (C.04.1, C.04.3
//! Art. 1; C.04.4.2 1.5 defines the colour preferences in the same words, without floats).

use rookery_core::Color;

use crate::model::{PlayerId, ResultCode, Tournament};
use crate::score::Score;

/// How strongly a player wants a colour (C.04.3 1.7, C.04.4.2 1.5).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Strength {
    /// No game played yet: no preference (1.7.4).
    None,
    /// Colour difference 0: alternate (1.7.3).
    Mild,
    /// Colour difference ±1 (1.7.2).
    Strong,
    /// Colour difference beyond ±1, or the same colour in the two latest games (1.7.1).
    Absolute,
}

/// A float a player received in an earlier round (1.4.2, 1.4.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Float {
    None,
    Down,
    Up,
}

/// One player to be paired, with everything the criteria read.
#[derive(Clone, Debug)]
pub(crate) struct Entrant {
    pub id: PlayerId,
    /// Place among the players who take part in this pairing or took part in an earlier
    /// one, by pairing number (0-based): what the colour rule 5.2.5 calls the pairing
    /// number, as JaVaFo and bbpPairings count it (a player who never took part is skipped).
    pub rank: usize,
    /// The score with this round's acceleration: what brackets are made of.
    pub score: Score,
    /// The score without acceleration: what boards are ordered by (C.04.2 3.6).
    pub unaccelerated: Score,
    /// Colours of the games played, oldest first (C.04.2 3.4: unplayed rounds do not count).
    pub colours: Vec<Color>,
    /// |whites − blacks|.
    pub imbalance: u32,
    pub preference: Option<Color>,
    pub strength: Strength,
    /// The colour of the two latest games, when they had the same one.
    pub repeated: Option<Color>,
    pub played_games: u32,
    /// The floats of the previous round and of the round before it.
    pub floats: [Float; 2],
    /// C2: neither a PAB nor a win's points without playing so far.
    pub bye_eligible: bool,
    /// Players met over the board (C1; a forfeit is no meeting, C.04.2 3.5).
    pub opponents: Vec<PlayerId>,
}

impl Entrant {
    pub fn is_absolute(&self) -> bool {
        self.strength == Strength::Absolute
    }

    pub fn is_strong(&self) -> bool {
        self.strength == Strength::Strong
    }

    /// |colour difference| > 1.
    pub fn has_absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
}

/// The pairing data of every player taking part in `round`, in pairing-number order. A bye
/// or absence known before the round (`0000 - H`, `F`, `Z` in its column, a `240` or `XXZ`
/// record) keeps a player out.
pub(crate) fn entrants(tournament: &Tournament, round: u32) -> Vec<Entrant> {
    let played_rounds = round - 1;
    let scoring = &tournament.scoring;
    let away: Vec<PlayerId> =
        tournament.announced_byes(round).into_iter().map(|(id, _)| id).collect();
    let mut out = Vec::new();
    let mut rank = 0;
    for (index, player) in tournament.players.iter().enumerate() {
        let id = PlayerId::from_index(index);
        let present = !away.contains(&id);
        let history = &player.rounds[..player.rounds.len().min(played_rounds as usize)];
        let took_part_before = history.iter().any(|e| e.was_paired());
        if !present {
            if took_part_before {
                rank += 1;
            }
            continue;
        }
        let unaccelerated = score_after(tournament, id, played_rounds);
        let mut colours = Vec::new();
        let mut opponents = Vec::new();
        let mut bye_eligible = true;
        for entry in history {
            if entry.is_played() {
                if let Some(colour) = entry.colour {
                    colours.push(colour);
                }
                if let Some(opponent) = entry.opponent {
                    opponents.push(opponent);
                }
            } else if entry.result == ResultCode::PairingAllocatedBye
                || scoring.points(entry.result) >= scoring.win
            {
                bye_eligible = false;
            }
        }
        let whites = colours.iter().filter(|&&c| c == Color::White).count() as i64;
        let blacks = colours.len() as i64 - whites;
        let imbalance = (whites - blacks).unsigned_abs() as u32;
        let fewer = if whites > blacks { Color::Black } else { Color::White };
        let repeated = match colours.as_slice() {
            [.., a, b] if a == b => Some(*b),
            _ => None,
        };
        let (preference, strength) = if imbalance > 1 {
            (Some(fewer), Strength::Absolute)
        } else if let Some(c) = repeated {
            (Some(c.other()), Strength::Absolute)
        } else if imbalance == 1 {
            (Some(fewer), Strength::Strong)
        } else if let Some(&last) = colours.last() {
            (Some(last.other()), Strength::Mild)
        } else {
            (None, Strength::None)
        };
        let floats = [
            float_in(tournament, id, played_rounds),
            float_in(tournament, id, played_rounds.saturating_sub(1)),
        ];
        out.push(Entrant {
            id,
            rank,
            score: unaccelerated + tournament.acceleration(id, round),
            unaccelerated,
            played_games: colours.len() as u32,
            colours,
            imbalance,
            preference,
            strength,
            repeated,
            floats,
            bye_eligible,
            opponents,
        });
        rank += 1;
    }
    out
}

/// The float player `id` received in `round` (from 1; none for round 0): a downfloat when
/// they met a lower score or scored more than a loss without playing, an upfloat when they
/// met a higher score (1.4.2–1.4.4). Scores are those the round was paired with,
/// acceleration included.
fn float_in(tournament: &Tournament, id: PlayerId, round: u32) -> Float {
    let Some(entry) = round.checked_sub(1).and_then(|_| tournament.player(id)?.round(round)) else {
        return Float::None;
    };
    if !entry.is_played() {
        let scoring = &tournament.scoring;
        return if scoring.points(entry.result) > scoring.loss { Float::Down } else { Float::None };
    }
    let Some(opponent) = entry.opponent else { return Float::None };
    let before =
        |p: PlayerId| score_after(tournament, p, round - 1) + tournament.acceleration(p, round);
    let (own, theirs) = (before(id), before(opponent));
    if own > theirs {
        Float::Down
    } else if own < theirs {
        Float::Up
    } else {
        Float::None
    }
}

/// A player's score after `rounds` rounds, `299` records applied; a score below zero (a
/// penalty larger than the points) pairs as zero.
pub(crate) fn score_after(tournament: &Tournament, id: PlayerId, rounds: u32) -> Score {
    let tenths = tournament.adjusted_score_after(id, rounds).max(0);
    Score::from_tenths(u32::try_from(tenths).unwrap_or(u32::MAX))
}
