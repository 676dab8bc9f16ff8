//! Colours in the team Swiss system: a team's colour preference (C.04.6 Art. 1.7) and the
//! allocation of colours to a pair (Art. 4). A team's colour in a round is its colour on
//! board 1 (Art. 1.6.1); rounds without a match (the bye, absence) have none and are skipped.
//!
//! Reconstructed from the documentation of an independent implementation (see the crate
//! README), not from the Handbook's own text.

use rookery_core::Color;

use crate::score::Score;

/// Which preferences teams have (Art. 1.7): the regulations of the event choose.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum PreferenceType {
    /// Type A (1.7.1): a team has a preference or none.
    #[default]
    A,
    /// Type B (1.7.2): strong and mild preferences.
    B,
    /// No colour preferences at all.
    None,
}

/// How strongly a team wants a colour.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Strength {
    /// Type B mild.
    Mild,
    /// Type A, or Type B strong.
    Strong,
}

/// A team's colour preference.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Preference {
    /// The colour wanted.
    pub colour: Color,
    /// How strongly ([`Strength::Strong`] for every Type A preference).
    pub strength: Strength,
}

/// The colour difference: Whites minus Blacks over the rounds played.
pub fn colour_difference(history: &[Option<Color>]) -> i32 {
    history.iter().flatten().map(|c| if c.is_white() { 1 } else { -1 }).sum()
}

fn last_played(history: &[Option<Color>], n: usize) -> Vec<Color> {
    let played: Vec<Color> = history.iter().flatten().copied().collect();
    played[played.len().saturating_sub(n)..].to_vec()
}

/// The preference of a team whose board-1 colours so far are `history` (Art. 1.7).
///
/// A preference for White (the rules for Black mirror them), Type A and Type B strong: the
/// colour difference is below −1, or it is 0 or −1 and the last two matches played were both
/// Black. Type B mild: the colour difference is −1, or it is 0, the last match played was
/// Black and this is not the last round. A team that has played no match has none.
pub fn preference(
    history: &[Option<Color>],
    kind: PreferenceType,
    last_round: bool,
) -> Option<Preference> {
    if kind == PreferenceType::None {
        return None;
    }
    let played = last_played(history, 2);
    let cd = colour_difference(history);
    let strong_for = |c: Color| {
        let (sign, beyond) = if c.is_white() { (-1, cd < -1) } else { (1, cd > 1) };
        beyond || ((cd == 0 || cd == sign) && played.len() == 2 && played.iter().all(|&p| p == !c))
    };
    for colour in Color::ALL {
        if strong_for(colour) {
            return Some(Preference { colour, strength: Strength::Strong });
        }
    }
    if kind == PreferenceType::A {
        return None;
    }
    let last = played.last().copied()?;
    let mild = match cd {
        -1 => Some(Color::White),
        1 => Some(Color::Black),
        0 if !last_round => Some(!last),
        _ => None,
    };
    mild.map(|colour| Preference { colour, strength: Strength::Mild })
}

/// One team of a pair, as colour allocation sees it.
#[derive(Clone, Copy, Debug)]
pub struct ColourTeam<'a> {
    /// Its pairing number in this round (its rank by score, then initial order).
    pub tpn: usize,
    /// Its primary score.
    pub primary: Score,
    /// Its secondary score (Art. 4.2.2).
    pub secondary: Score,
    /// Its board-1 colour in each round so far, `None` where it had no match.
    pub history: &'a [Option<Color>],
}

/// Which of `a` and `b` has White on board 1 (Art. 4): `true` for `a`.
///
/// The first-team (4.2) has the higher primary score, then the higher secondary score, then
/// the smaller pairing number. Then the first step that decides:
///
/// 1. (4.3.1) neither team has played a match: the first-team has the initial colour when its
///    pairing number is odd, the other colour when it is even;
/// 2. (4.3.2) only one team has a preference: it is granted;
/// 3. (4.3.3) the preferences are for opposite colours: both are granted;
/// 4. (4.3.4, Type B) only one preference is strong: it is granted;
/// 5. (4.3.5) the team with the lower colour difference has White;
/// 6. (4.3.6) going back from the latest round, in the first round in which one team had White
///    and the other Black, each gets the colour it did not have then;
/// 7. (4.3.7) the first-team's preference is granted;
/// 8. (4.3.8) the first-team has the colour it did not have in the last match it played;
/// 9. (4.3.9) the other team has the colour it did not have in the last match it played.
///
/// Should nothing decide (neither team has played, which step 1 took), the first-team has
/// White.
pub fn allocate(
    a: ColourTeam<'_>,
    b: ColourTeam<'_>,
    kind: PreferenceType,
    last_round: bool,
    initial: Color,
) -> bool {
    let a_first = (b.primary, b.secondary, a.tpn) < (a.primary, a.secondary, b.tpn);
    let (first, other) = if a_first { (a, b) } else { (b, a) };
    // `first_white` answers for the first-team; turned back into an answer for `a` at the end.
    let first_white = first_team_white(first, other, kind, last_round, initial);
    first_white == a_first
}

fn first_team_white(
    first: ColourTeam<'_>,
    other: ColourTeam<'_>,
    kind: PreferenceType,
    last_round: bool,
    initial: Color,
) -> bool {
    let played = |t: ColourTeam<'_>| t.history.iter().any(Option::is_some);
    // 4.3.1
    if !played(first) && !played(other) {
        let colour = if first.tpn % 2 == 1 { initial } else { !initial };
        return colour.is_white();
    }
    let pf = preference(first.history, kind, last_round);
    let po = preference(other.history, kind, last_round);
    match (pf, po) {
        // 4.3.2
        (Some(p), None) => return p.colour.is_white(),
        (None, Some(p)) => return p.colour.is_black(),
        // 4.3.3
        (Some(p), Some(q)) if p.colour != q.colour => return p.colour.is_white(),
        // 4.3.4
        (Some(p), Some(q)) if kind == PreferenceType::B && p.strength != q.strength => {
            return if p.strength == Strength::Strong {
                p.colour.is_white()
            } else {
                q.colour.is_black()
            };
        }
        _ => {}
    }
    // 4.3.5
    let (cf, co) = (colour_difference(first.history), colour_difference(other.history));
    if cf != co {
        return cf < co;
    }
    // 4.3.6
    for (f, o) in first.history.iter().zip(other.history).rev() {
        if let (Some(f), Some(o)) = (f, o) {
            if f != o {
                return f.is_black();
            }
        }
    }
    // 4.3.7
    if let Some(p) = pf {
        return p.colour.is_white();
    }
    // 4.3.8
    if let Some(last) = first.history.iter().rev().flatten().next() {
        return last.is_black();
    }
    // 4.3.9
    if let Some(last) = other.history.iter().rev().flatten().next() {
        return last.is_white();
    }
    true
}
