//! A random tournament generator (RTG), as JaVaFo and bbpPairings have one: players with
//! random ratings, then round by round the byes and absences known in advance, a pairing
//! from the engine under test, and results drawn from the rating difference, with forfeits.
//! Checking an engine against another (FIDE C.04.A, "free pairings checker") starts here.
//!
//! The generator does not pair: it calls the pairing function it is given, so that any
//! engine (the Dutch one, a trivial one in tests) can be fed. The same configuration, seed
//! and pairing function give the same tournament, on every platform: the random numbers are
//! the crate's own (xoshiro256**) and the arithmetic on them is exact or IEEE-754 basic
//! operations only.
//!
//! What it simulates, after bbpPairings' generator (which spreads zero-point byes over random
//! rounds where this one makes players retire):
//! - Ratings uniform between `LowestRating` and `HighestRating`; pairing numbers by rating.
//! - Players who retire (one in `RetiredRate`): from a random round (2 or later) to the end
//!   they are absent, each absence entered as `0000 - Z` before the round is paired.
//! - Requested half-point byes (one player in `HalfPointByeRate`): one each, in a random
//!   round other than the last one and before any retirement, entered as `0000 - H` before
//!   the round is paired, as in the test data.
//! - In each game each player fails to appear with probability `1 - sqrt(1 - 1/ForfeitRate)`,
//!   so that one game in `ForfeitRate` is forfeited (by one side: `+`/`-`; by both: `-`/`-`).
//! - A played game is drawn with probability `DrawPercentage`% (at most `2 - 2E`), and won by
//!   the stronger player with probability `E - draw/2`, `E` his expected score
//!   `1 / (1 + 10^(-D/400))` for a rating difference `D` (the logistic Elo curve; bbpPairings
//!   uses the normal one, with a similar spread).

mod config;
mod random;

use std::fmt;

pub use config::{ConfigError, ConfigErrorKind, GeneratorConfig};

use rookery_core::Color;

use crate::{Player, PlayerId, ResultCode, RoundEntry, RoundPairing, Score, Scoring, Tournament};
use random::Random;

/// The tournament could not be generated: the pairing function failed, or gave something
/// that is not a pairing of the players present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError<E> {
    /// The pairing function returned an error for this round.
    Pairing {
        /// The round, from 1.
        round: u32,
        /// The pairing function's error.
        error: E,
        /// The tournament as it stood when the round was to be paired: the rounds before it
        /// with their results, and the byes and absences entered for it. Written out, it lets
        /// a checker confirm that no pairing exists (frequent forfeits make such rounds).
        before: Box<Tournament>,
    },
    /// The pairing function returned a pairing that is not one.
    InvalidPairing {
        /// The round, from 1.
        round: u32,
        /// What is wrong with it.
        fault: PairingFault,
    },
}

/// What is wrong with a pairing returned to the generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairingFault {
    /// A pairing number no player has.
    UnknownPlayer(PlayerId),
    /// A player who is not to be paired this round (a bye or an absence entered in advance).
    Unavailable(PlayerId),
    /// A player in two games, or in a game and the bye.
    PairedTwice(PlayerId),
    /// A player paired with himself.
    SelfPairing(PlayerId),
    /// A player present but neither in a game nor given the bye.
    Unpaired(PlayerId),
}

impl fmt::Display for PairingFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingFault::UnknownPlayer(id) => write!(f, "no player has pairing number {id}"),
            PairingFault::Unavailable(id) => write!(f, "player {id} is not to be paired"),
            PairingFault::PairedTwice(id) => write!(f, "player {id} is paired twice"),
            PairingFault::SelfPairing(id) => write!(f, "player {id} is paired with himself"),
            PairingFault::Unpaired(id) => write!(f, "player {id} is left unpaired"),
        }
    }
}

impl<E: fmt::Display> fmt::Display for GenerateError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Pairing { round, error, .. } => {
                write!(f, "pairing round {round}: {error}")
            }
            GenerateError::InvalidPairing { round, fault } => {
                write!(f, "the pairing of round {round} is invalid: {fault}")
            }
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for GenerateError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenerateError::Pairing { error, .. } => Some(error),
            GenerateError::InvalidPairing { .. } => None,
        }
    }
}

/// Every setting, the unset ones drawn from the seed.
struct Settings {
    players: u32,
    rounds: u32,
    draw_percentage: u32,
    forfeit_rate: f64,
    retired_rate: f64,
    half_point_bye_rate: f64,
    highest_rating: u16,
    lowest_rating: u16,
    scoring: Scoring,
}

impl Settings {
    /// Draws every default in a fixed order, used or not, so that setting one key leaves
    /// the others' draws, and the rest of the tournament, unchanged.
    fn new(config: &GeneratorConfig, random: &mut Random) -> Settings {
        let rounds = random.between(5, 15);
        let forfeit_rate = f64::from(random.between(6, 30));
        let retired_rate = f64::from(random.between(15, 3225));
        let half_point_bye_rate = f64::from(random.between(15, 3225));
        let draw_percentage = random.between(10, 50);
        let players = random.between(15, 215);
        let highest = random.between(2400, 2800) as u16;
        let lowest = random.between(1400, 2300) as u16;
        // One bound given: the other is drawn as usual but kept on its side of it.
        let (highest_rating, lowest_rating) = match (config.highest_rating, config.lowest_rating) {
            (Some(h), Some(l)) => (h, l),
            (Some(h), None) => (h, lowest.min(h)),
            (None, Some(l)) => (highest.max(l), l),
            (None, None) => (highest, lowest),
        };
        let win = config.win.unwrap_or(Score::ONE);
        let draw = config.draw.unwrap_or(Score::HALF);
        let forfeit_loss = config.forfeit_loss.unwrap_or(Score::ZERO);
        let scoring = Scoring {
            win,
            draw,
            loss: config.loss.unwrap_or(Score::ZERO),
            forfeit_win: win,
            forfeit_loss,
            half_point_bye: draw,
            full_point_bye: win,
            pairing_allocated_bye: config.pairing_allocated_bye.unwrap_or(win),
            zero_point_bye: config.zero_point_bye.unwrap_or(forfeit_loss),
        };
        Settings {
            players: config.players.unwrap_or(players),
            rounds: config.rounds.unwrap_or(rounds),
            draw_percentage: config.draw_percentage.unwrap_or(draw_percentage),
            forfeit_rate: config.forfeit_rate.unwrap_or(forfeit_rate),
            retired_rate: config.retired_rate.unwrap_or(retired_rate),
            half_point_bye_rate: config.half_point_bye_rate.unwrap_or(half_point_bye_rate),
            highest_rating,
            lowest_rating,
            scoring,
        }
    }
}

/// How many of `count` players one in `rate` is (none for a rate of 0).
fn share(count: u32, rate: f64) -> usize {
    if rate == 0.0 {
        return 0;
    }
    ((f64::from(count) / rate) as usize).min(count as usize)
}

/// The expected score of the stronger of two players `difference` rating points apart:
/// `1 / (1 + 10^(-D/400))`, the power taken by repeated squaring so that every platform
/// computes the same bits.
fn expected_score(difference: u32) -> f64 {
    /// 10^(-1/400): the factor one rating point takes off the odds.
    const STEP: f64 = 0.994_260_073_952_956_7;
    let mut power = 1.0;
    let mut base = STEP;
    let mut exponent = difference;
    while exponent > 0 {
        if exponent & 1 == 1 {
            power *= base;
        }
        base *= base;
        exponent >>= 1;
    }
    1.0 / (1.0 + power)
}

/// Generates a tournament from `config` and `seed`, pairing each round with `pair`.
///
/// `pair(&tournament, round)` is called for rounds 1, 2, … with the tournament as it stands
/// before that round: the rounds before it with their results, the byes and absences of the
/// round entered in advance (see [`Tournament::announced_byes`]), declared points equal to
/// the sum of the entries, and `rounds` set. It returns the games and the PAB; the
/// generator checks that every player present is paired exactly once.
///
/// The result reads back from its TRF ([`crate::trf`]) as itself, and bbpPairings reads it.
///
/// # Errors
///
/// The first error of `pair`, or the first pairing that is not one, with its round.
///
/// # Example
///
/// ```
/// use rookery_tournament::generator::{generate, GeneratorConfig};
/// use rookery_tournament::{Pair, RoundPairing};
///
/// let config: GeneratorConfig = "PlayersNumber=7\nRoundsNumber=3\n".parse()?;
/// // A pairing function that pairs the players present in order, the last one left out
/// // getting the bye (a real engine goes here).
/// let in_order = |t: &rookery_tournament::Tournament, round: u32| {
///     let present: Vec<_> =
///         t.player_ids().filter(|&id| t.player(id).unwrap().round(round).is_none()).collect();
///     let pairs = present.chunks_exact(2).map(|c| Pair { white: c[0], black: c[1] }).collect();
///     let bye = (present.len() % 2 == 1).then(|| *present.last().unwrap());
///     Ok::<_, std::convert::Infallible>(RoundPairing { pairs, bye })
/// };
/// let tournament = generate(&config, 42, in_order)?;
/// assert_eq!((tournament.players.len(), tournament.rounds_played()), (7, 3));
/// assert_eq!(generate(&config, 42, in_order)?, tournament);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate<E, F>(
    config: &GeneratorConfig,
    seed: u64,
    mut pair: F,
) -> Result<Tournament, GenerateError<E>>
where
    F: FnMut(&Tournament, u32) -> Result<RoundPairing, E>,
{
    let mut random = Random::new(seed);
    let settings = Settings::new(config, &mut random);
    let mut t = players(&settings, seed, &mut random);
    let count = settings.players as usize;

    // Round (from 1) from which each player is absent for good, and of his half-point bye.
    let mut retires = vec![u32::MAX; count];
    if settings.rounds >= 2 {
        for index in random.choose(count, share(settings.players, settings.retired_rate)) {
            retires[index] = random.between(2, settings.rounds);
        }
    }
    let mut half_point_byes = vec![None; count];
    for index in random.choose(count, share(settings.players, settings.half_point_bye_rate)) {
        let last = (settings.rounds - 1).min(retires[index].saturating_sub(1));
        if last >= 1 {
            half_point_byes[index] = Some(random.between(1, last));
        }
    }
    t.initial_colour = Some(if random.below(2) == 0 { Color::White } else { Color::Black });
    let no_show = if settings.forfeit_rate == 0.0 {
        0.0
    } else {
        1.0 - (1.0 - 1.0 / settings.forfeit_rate).sqrt()
    };

    for round in 1..=settings.rounds {
        for (index, player) in t.players.iter_mut().enumerate() {
            if round >= retires[index] {
                player.rounds.push(RoundEntry::ABSENT);
            } else if half_point_byes[index] == Some(round) {
                player.rounds.push(RoundEntry::bye(ResultCode::HalfPointBye));
            }
        }
        update_points(&mut t);
        let pairing = match pair(&t, round) {
            Ok(pairing) => pairing,
            Err(error) => {
                rank(&mut t);
                return Err(GenerateError::Pairing { round, error, before: Box::new(t) });
            }
        };
        check_pairing(&t, round, &pairing)
            .map_err(|fault| GenerateError::InvalidPairing { round, fault })?;
        for game in &pairing.pairs {
            let (white, black) = play(&t, game.white, game.black, &settings, no_show, &mut random);
            let entry = |opponent, colour, result| RoundEntry {
                opponent: Some(opponent),
                colour: Some(colour),
                result,
            };
            t.players[game.white.index()].rounds.push(entry(game.black, Color::White, white));
            t.players[game.black.index()].rounds.push(entry(game.white, Color::Black, black));
        }
        if let Some(bye) = pairing.bye {
            t.players[bye.index()].rounds.push(RoundEntry::bye(ResultCode::PairingAllocatedBye));
        }
        update_points(&mut t);
    }
    rank(&mut t);
    Ok(t)
}

/// The players, by rating, strongest first, and the header.
fn players(settings: &Settings, seed: u64, random: &mut Random) -> Tournament {
    let (low, high) = (u32::from(settings.lowest_rating), u32::from(settings.highest_rating));
    let mut ratings: Vec<u16> =
        (0..settings.players).map(|_| random.between(low, high) as u16).collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let players = ratings
        .into_iter()
        .enumerate()
        .map(|(index, rating)| Player {
            name: format!("Player {:04}", index + 1),
            rating: Some(rating),
            ..Player::default()
        })
        .collect();
    Tournament {
        name: Some(format!("Random tournament, seed {seed}")),
        rounds: Some(settings.rounds),
        scoring: settings.scoring,
        players,
        ..Tournament::default()
    }
}

/// Declared points: the sum of every entry so far.
fn update_points(t: &mut Tournament) {
    let scoring = t.scoring;
    for player in &mut t.players {
        player.points = player.rounds.iter().map(|e| scoring.points(e.result)).sum();
    }
}

fn check_pairing(t: &Tournament, round: u32, pairing: &RoundPairing) -> Result<(), PairingFault> {
    let mut seen = vec![false; t.players.len()];
    let mut take = |id: PlayerId| {
        let player = t.player(id).ok_or(PairingFault::UnknownPlayer(id))?;
        if std::mem::replace(&mut seen[id.index()], true) {
            return Err(PairingFault::PairedTwice(id));
        }
        if player.round(round).is_some() {
            return Err(PairingFault::Unavailable(id));
        }
        Ok(())
    };
    for game in &pairing.pairs {
        if game.white == game.black {
            return Err(PairingFault::SelfPairing(game.white));
        }
        take(game.white)?;
        take(game.black)?;
    }
    if let Some(bye) = pairing.bye {
        take(bye)?;
    }
    match t
        .player_ids()
        .find(|&id| !seen[id.index()] && t.player(id).is_some_and(|p| p.round(round).is_none()))
    {
        Some(id) => Err(PairingFault::Unpaired(id)),
        None => Ok(()),
    }
}

/// The results of one game, White's then Black's.
fn play(
    t: &Tournament,
    white: PlayerId,
    black: PlayerId,
    settings: &Settings,
    no_show: f64,
    random: &mut Random,
) -> (ResultCode, ResultCode) {
    let white_absent = random.chance(no_show);
    let black_absent = random.chance(no_show);
    if white_absent || black_absent {
        let forfeit =
            |absent| if absent { ResultCode::ForfeitLoss } else { ResultCode::ForfeitWin };
        return (forfeit(white_absent), forfeit(black_absent));
    }
    let rating = |id: PlayerId| u32::from(t.player(id).and_then(|p| p.rating).unwrap_or(0));
    let (w, b) = (rating(white), rating(black));
    let black_stronger = b > w;
    let expected = expected_score(w.abs_diff(b));
    let draw = (f64::from(settings.draw_percentage) / 100.0).min(2.0 - 2.0 * expected);
    let u = random.unit();
    if u < draw {
        return (ResultCode::Draw, ResultCode::Draw);
    }
    let stronger_wins = u < expected + draw / 2.0;
    if stronger_wins != black_stronger {
        (ResultCode::Win, ResultCode::Loss)
    } else {
        (ResultCode::Loss, ResultCode::Win)
    }
}

/// Ranks by points, ties in pairing order.
fn rank(t: &mut Tournament) {
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(t.players[i].points), i));
    for (position, index) in order.into_iter().enumerate() {
        t.players[index].rank = Some(position as u32 + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_scores_follow_the_logistic_curve() {
        assert_eq!(expected_score(0), 0.5);
        // 10^(-1) → 1/1.1 for 400 points; 10^(-2) → 1/1.01 for 800.
        assert!((expected_score(400) - 1.0 / 1.1).abs() < 1e-12);
        assert!((expected_score(800) - 1.0 / 1.01).abs() < 1e-12);
        assert!(expected_score(100) > expected_score(99));
    }

    #[test]
    fn shares_round_down() {
        assert_eq!(share(100, 0.0), 0);
        assert_eq!(share(100, 15.0), 6);
        assert_eq!(share(10, 1.0), 10);
    }
}
