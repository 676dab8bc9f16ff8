//! The colour rules the Dutch and Burstein systems word alike (C.04.3 5.2, C.04.4.2 5.2),
//! and the board order of every Swiss system (C.04.2 3.6).
//!
//! The two texts give the same steps in the same order: both preferences granted, the
//! stronger one, alternation from the latest round the two had different colours, then the
//! higher-ranked player's preference, or, when neither has played, the initial colour to the
//! higher-ranked player if their pairing number is odd. They differ in who ranks higher,
//! which each system says ([`Allocation::higher`]).

use std::cmp::Ordering;
use std::collections::HashMap;

use rookery_core::Color;

use super::entrant::Entrant;
use super::PairError;
use crate::model::{Pair, PlayerId, Tournament};

/// The colour of `p` when the preferences or the colour histories decide it: both
/// preferences granted (or the only one), the stronger one (of two absolute ones, which only
/// the Dutch topscorers can have, the wider colour difference), then the colours of the
/// latest round in which the two had different ones, reversed (played games only, latest
/// first: C.04.2 3.4). `None` when none of these decides.
pub(crate) fn from_preferences(p: &Entrant, q: &Entrant) -> Option<Color> {
    match (p.preference, q.preference) {
        (None, None) => return None,
        (Some(c), None) => return Some(c),
        (None, Some(c)) => return Some(c.other()),
        (Some(a), Some(b)) if a != b => return Some(a),
        _ => {}
    }
    let preferred = p.preference?;
    if p.is_absolute() && (!q.is_absolute() || p.imbalance > q.imbalance) {
        return Some(preferred);
    }
    if q.is_absolute() && (!p.is_absolute() || q.imbalance > p.imbalance) {
        return Some(preferred.other());
    }
    if p.is_strong() && !q.is_strong() {
        return Some(preferred);
    }
    if q.is_strong() && !p.is_strong() {
        return Some(preferred.other());
    }
    p.colours
        .iter()
        .rev()
        .zip(q.colours.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(_, &theirs)| theirs)
}

/// The colour of the higher-ranked player when the preferences leave it open: their
/// preference, or without one the initial colour if their pairing number is odd (`rank` is
/// 0-based) and the other colour if it is even.
pub(crate) fn of_higher(higher: &Entrant, initial: Color) -> Color {
    higher.preference.unwrap_or(if higher.rank.is_multiple_of(2) {
        initial
    } else {
        initial.other()
    })
}

/// How one system allocates colours: which of two players ranks higher for its last colour
/// rule.
pub(crate) trait Allocation {
    /// Whether `p` ranks above `q` for the colour rule that falls back on the higher-ranked
    /// player.
    fn higher(&self, p: &Entrant, q: &Entrant) -> bool;
}

/// The game of `p` and `q` with colours allocated, `initial` being the initial colour.
pub(crate) fn make_pair(p: &Entrant, q: &Entrant, initial: Color, rules: &dyn Allocation) -> Pair {
    let colour = from_preferences(p, q).unwrap_or_else(|| {
        if rules.higher(p, q) {
            of_higher(p, initial)
        } else {
            of_higher(q, initial).other()
        }
    });
    if colour == Color::White {
        Pair { white: p.id, black: q.id }
    } else {
        Pair { white: q.id, black: p.id }
    }
}

/// The games of `pairs` (indices into `entrants`) with colours allocated, in board order.
///
/// # Errors
///
/// [`PairError::InitialColourUnknown`] when two players who never played meet and the
/// tournament neither gives the initial colour nor shows it in a round already paired.
pub(crate) fn allocate(
    tournament: &Tournament,
    entrants: &[Entrant],
    pairs: &[(usize, usize)],
    rules: &dyn Allocation,
) -> Result<Vec<Pair>, PairError> {
    let initial = tournament.initial_colour.or_else(|| tournament.inferred_initial_colour());
    let mut games = Vec::with_capacity(pairs.len());
    for &(a, b) in pairs {
        let (p, q) = (&entrants[a], &entrants[b]);
        let needs_initial = p.preference.is_none() && q.preference.is_none();
        let initial = match initial {
            Some(c) => c,
            None if needs_initial => return Err(PairError::InitialColourUnknown),
            // Not read when a preference decides.
            None => Color::White,
        };
        games.push(make_pair(p, q, initial, rules));
    }
    let index: HashMap<PlayerId, usize> =
        entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    board_order(&mut games, &|id| &entrants[index[&id]]);
    Ok(games)
}

/// Sorts games into board order (C.04.2 3.6): the higher score of the pair's higher-ranked
/// player, then the higher score of the other, then the smaller pairing number of the
/// higher-ranked player; scores without acceleration.
pub(crate) fn board_order<'e>(pairs: &mut [Pair], entrant: &dyn Fn(PlayerId) -> &'e Entrant) {
    let key = |pair: &Pair| {
        let (a, b) = (entrant(pair.white), entrant(pair.black));
        let (high, low) =
            if (b.unaccelerated, a.rank) < (a.unaccelerated, b.rank) { (a, b) } else { (b, a) };
        (high.unaccelerated, low.unaccelerated, std::cmp::Reverse(high.rank))
    };
    pairs.sort_by(|x, y| match key(y).cmp(&key(x)) {
        Ordering::Equal => Ordering::Equal,
        other => other,
    });
}
