//! Who gets White (C.04.3 Art. 5) and in which order the boards are listed (C.04.2 3.6).

use std::cmp::Ordering;

use rookery_core::Color;

use super::entrant::Entrant;
use crate::model::{Pair, PlayerId};

/// Whether `a` ranks above `b` (1.2): higher score, then smaller pairing number.
pub(crate) fn ranks_above(a: &Entrant, b: &Entrant) -> bool {
    (b.score, a.rank) < (a.score, b.rank)
}

/// The colour player `p` gets against `q` (5.2), `initial` being the initial colour (5.1).
pub(crate) fn colour_for(p: &Entrant, q: &Entrant, initial: Color) -> Color {
    if let Some(colour) = from_preferences(p, q) {
        return colour;
    }
    // 5.2.4: the higher-ranked player's preference; 5.2.5: without one, the initial colour
    // to the higher-ranked player if their pairing number is odd.
    let (higher, p_is_higher) = if ranks_above(p, q) { (p, true) } else { (q, false) };
    let higher_colour =
        higher.preference.unwrap_or(if higher.rank % 2 == 0 { initial } else { initial.other() });
    if p_is_higher {
        higher_colour
    } else {
        higher_colour.other()
    }
}

/// 5.2.1–5.2.3: the colour of `p` when the preferences or the colour histories decide it.
fn from_preferences(p: &Entrant, q: &Entrant) -> Option<Color> {
    match (p.preference, q.preference) {
        (None, None) => return None,
        (Some(c), None) => return Some(c),
        (None, Some(c)) => return Some(c.other()),
        (Some(a), Some(b)) if a != b => return Some(a),
        _ => {}
    }
    // Both want the same colour. 5.2.2: the stronger preference; of two absolute ones (only
    // topscorers can meet so), the wider colour difference.
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
    // 5.2.3: alternate from the latest round in which they had different colours, counting
    // played games only, latest first (C.04.2 3.4).
    p.colours
        .iter()
        .rev()
        .zip(q.colours.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(_, &theirs)| theirs)
}

/// The game of `p` and `q` with colours allocated.
pub(crate) fn make_pair(p: &Entrant, q: &Entrant, initial: Color) -> Pair {
    if colour_for(p, q, initial) == Color::White {
        Pair { white: p.id, black: q.id }
    } else {
        Pair { white: q.id, black: p.id }
    }
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
