//! Every weight of the evaluation in one place: the [`Params`] it computes from, the [`Term`]s
//! a tuner may change, and the value sets — [`HAND_SET`], Rookery's hand-written values, and
//! [`TUNED`], the values the tuning program (`crates/tune`) fits from game results, written
//! into `params/tuned.rs`. [`ACTIVE`] is the set the engine plays with.
//!
//! Each tunable weight is an [`S`]: a middlegame and an endgame value, blended by the game
//! phase (CPW "Tapered Eval"). The other fields are fixed: the phase weights that define the
//! taper, and the constants of the terms that are not linear in their weights (how the
//! number of king attackers scales the attack, the endgame scale factors, mop-up); see
//! [`crate::trace`] for how the tuner treats each.

use core::fmt;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use rookery_core::{Role, Square};

mod hand_set;
mod tuned;

pub use hand_set::HAND_SET;
pub use tuned::TUNED;

/// The parameters the engine plays with: [`TUNED`], fitted to the engine's own games. The
/// first fit beat the hand-set weights by +31 ± 34 Elo in 222 games at 3+0.03; the second,
/// on more games and with mobility by count, pawn storms and three minor-piece terms, beat
/// the first by about +48 in two steps of 292 and 392 games (BENCHMARKS.md, "Evaluation
/// tuning"). Changing this changes the bench signature.
pub const ACTIVE: Params = TUNED;

/// The game phase of the starting material, with [`Params::phase`]'s weights: knights and
/// bishops 1, rooks 2, queens 4.
pub const PHASE_MAX: i32 = 24;

/// A middlegame and an endgame value, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// The length of a row of [`Params::mobility`]: a queen attacks at most 27 squares.
pub const MOBILITY_MAX: usize = 28;

/// The numbers of safe squares a piece can attack, by role: `0..MOBILITY_SQUARES[role]`
/// (eight for a knight, 13 for a bishop, 14 for a rook, 27 for a queen); the rest of its row
/// of [`Params::mobility`] is zero.
pub const MOBILITY_SQUARES: [usize; 6] = [0, 9, 14, 15, 28, 0];

/// A mobility table that grows by `per_square[role]` with each safe square, zero at
/// `typical[role]` squares: how the hand-set weights count mobility.
pub const fn linear_mobility(per_square: [S; 6], typical: [i32; 6]) -> [[S; MOBILITY_MAX]; 6] {
    let mut table = [[S(0, 0); MOBILITY_MAX]; 6];
    let mut role = 0;
    while role < 6 {
        let mut n = 0;
        while n < MOBILITY_SQUARES[role] {
            let steps = n as i32 - typical[role];
            table[role][n] = S(per_square[role].0 * steps, per_square[role].1 * steps);
            n += 1;
        }
        role += 1;
    }
    table
}

/// The evaluation's weights. Arrays by role are indexed by [`Role::index`] (pawn first);
/// entries that no position can use (the king's material, a pawn's mobility) are zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material by role.
    pub material: [S; 6],
    /// Piece-square tables by role, laid out as a board is drawn: index 0 is a8, 63 is h1,
    /// from White's point of view (Black reads them mirrored, see [`psqt_index`]).
    pub psqt: [[S; 64]; 6],
    /// Mobility: by role and by the number of safe squares the piece attacks (neither our
    /// own nor guarded by an enemy pawn), up to `MOBILITY_SQUARES`.
    pub mobility: [[S; MOBILITY_MAX]; 6],
    /// Middlegame weight of a piece that attacks the enemy king's zone, by role, before
    /// [`Params::king_attack_scale`] and the halving without a queen.
    pub king_attack: [i32; 6],
    /// Fixed: the share of the attack weight that counts, in percent, by number of attackers.
    pub king_attack_scale: [i32; 8],
    /// Two bishops or more.
    pub bishop_pair: S,
    /// A rook on a file without pawns.
    pub rook_open_file: S,
    /// A rook on a file with enemy pawns only.
    pub rook_semi_open_file: S,
    /// Per pawn in front of another of its side on the same file.
    pub doubled: S,
    /// A pawn with no pawn of its side on the files beside it.
    pub isolated: S,
    /// A passed pawn, by relative rank (0 is the first rank).
    pub passed: [S; 8],
    /// A pawn defended by a pawn or with a pawn of its side beside it on its rank (a
    /// phalanx), by relative rank.
    pub connected: [S; 8],
    /// A pawn behind all the pawns of its side on the files beside it, not isolated, whose
    /// square in front an enemy pawn attacks: it cannot advance and no pawn can defend it.
    pub backward: S,
    /// A passed pawn whose square in front is occupied.
    pub passed_blocked: S,
    /// Per shield file (the king's and those beside it), the enemy pawn nearest in front of
    /// the king that no pawn of ours blocks, by its rank relative to the king's side (0: the
    /// file holds no such enemy pawn): a pawn storm.
    pub storm: [S; 8],
    /// Per shield file whose nearest enemy pawn in front of the king is blocked by one of ours.
    pub storm_blocked: S,
    /// Per bishop, per pawn of its side on squares of the bishop's colour.
    pub bishop_pawns: S,
    /// A knight or bishop with a pawn (of either side) right in front of it.
    pub minor_behind_pawn: S,
    /// Per knight or bishop, per king step from its own king.
    pub king_protector: S,
    /// Per king step of the enemy king from the square in front of a passed pawn, times the
    /// pawn's relative rank minus 2 (from the fourth rank on), distance capped at 5.
    pub passed_king_theirs: S,
    /// The same for the own king.
    pub passed_king_ours: S,
    /// Per shield file (the king's and those beside it) with a pawn right in front of a king
    /// on its first two ranks.
    pub shield_near: S,
    /// Per shield file with a pawn two squares in front of the king.
    pub shield_far: S,
    /// Per shield file with pawns only further away.
    pub shield_missing: S,
    /// Per shield file without any pawn of the king's side.
    pub shield_open: S,
    /// A king beyond its second rank (no shield counted).
    pub king_exposed: S,
    /// Middlegame weight, added to [`Params::king_attack`]'s sum, of a safe check the attacker
    /// has with a piece of this role: a square from which it would give check, that it
    /// attacks, and that the defender does not guard (or guards only with king or queen
    /// against two attackers). Counted once per role, as Stockfish 11's classical `kingDanger`.
    pub safe_check: [i32; 6],
    /// Middlegame weight, added to [`Params::king_attack`]'s sum, per square of the enemy
    /// king's zone that we attack and that it defends only with king or queen, or not at all.
    pub king_zone_weak: i32,
    /// Per enemy piece attacked by one of our pawns that is itself safe (not attacked, or
    /// defended), by the victim's role: it has to move, and loses a tempo or material.
    pub threat_by_pawn: [S; 6],
    /// Per enemy piece attacked by one of our knights or bishops, by the victim's role; minor
    /// pieces count only when no pawn defends them (else it is an even trade offered).
    pub threat_by_minor: [S; 6],
    /// Per enemy piece attacked by one of our rooks, by the victim's role; minor pieces count
    /// only when no pawn defends them.
    pub threat_by_rook: [S; 6],
    /// Per enemy piece or pawn that we attack and that is undefended, or a piece attacked
    /// twice and defended once, never by a pawn (Stockfish 11's `Hanging`).
    pub hanging: S,
    /// Per weak enemy piece or pawn (attacked, not protected by a pawn or twice) that our
    /// king attacks: in the endgame the king wins such pawns.
    pub threat_by_king: S,
    /// Per enemy piece that one of our pawns would attack after a safe push, one or two
    /// squares (Stockfish 11's `ThreatByPawnPush`).
    pub threat_by_push: S,
    /// A passed pawn none of whose squares up to promotion is occupied or attacked by the
    /// enemy, times the pawn's relative rank minus 2 (from the fourth rank on).
    pub passed_free_path: S,
    /// A passed pawn whose path is not free, but whose square in front is empty and not
    /// attacked by the enemy, times the pawn's relative rank minus 2.
    pub passed_safe_push: S,
    /// A knight on an outpost: the fourth to sixth rank, defended by a pawn, where no enemy
    /// pawn can ever attack it.
    pub knight_outpost: S,
    /// A bishop on an outpost.
    pub bishop_outpost: S,
    /// Fixed: a bonus for the side to move, added after the taper.
    pub tempo: i32,
    /// Fixed: game phase per piece, by role ([`PHASE_MAX`] at the start).
    pub phase: [i32; 6],
    /// Fixed: the non-pawn material (endgame values) a side without pawns needs beyond the
    /// other's to win, and that a side needs to mate a bare king.
    pub winning_edge: i32,
    /// Fixed: endgame scale, in eighths, when the stronger side has no pawns and too little
    /// material to win.
    pub scale_pawnless: i32,
    /// Fixed: endgame scale, in eighths, with one bishop each on opposite colours and no other
    /// pieces.
    pub scale_opposite_bishops: i32,
    /// Fixed: mop-up bonus per step of the bare king from the centre.
    pub mop_up_edge: i32,
    /// Fixed: mop-up bonus per step the kings are closer than 7 apart.
    pub mop_up_closeness: i32,
}

/// The index into a [`Params::psqt`] table of a piece on `sq`: tables are drawn rank 8
/// first from White's point of view, so White mirrors the rank and Black reads as is.
#[inline]
pub const fn psqt_index(white: bool, sq: Square) -> usize {
    if white {
        sq.index() ^ 56
    } else {
        sq.index()
    }
}

/// A tunable weight of [`Params`]: an [`S`], or for the king danger terms
/// ([`Term::KingAttack`], [`Term::SafeCheck`], [`Term::KingZoneWeak`]) a middlegame value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// [`Params::material`].
    Material(Role),
    /// [`Params::psqt`], by role and table index.
    Psqt(Role, usize),
    /// [`Params::mobility`], by role and number of safe squares.
    Mobility(Role, usize),
    /// [`Params::king_attack`] (middlegame only).
    KingAttack(Role),
    /// [`Params::safe_check`] (middlegame only).
    SafeCheck(Role),
    /// [`Params::threat_by_pawn`], by the victim's role.
    ThreatByPawn(Role),
    /// [`Params::threat_by_minor`], by the victim's role.
    ThreatByMinor(Role),
    /// [`Params::threat_by_rook`], by the victim's role.
    ThreatByRook(Role),
    /// [`Params::bishop_pair`].
    BishopPair,
    /// [`Params::rook_open_file`].
    RookOpenFile,
    /// [`Params::rook_semi_open_file`].
    RookSemiOpenFile,
    /// [`Params::doubled`].
    Doubled,
    /// [`Params::isolated`].
    Isolated,
    /// [`Params::passed`], by relative rank.
    Passed(usize),
    /// [`Params::connected`], by relative rank.
    Connected(usize),
    /// [`Params::passed_blocked`].
    PassedBlocked,
    /// [`Params::storm`], by relative rank.
    Storm(usize),
    /// [`Params::storm_blocked`].
    StormBlocked,
    /// [`Params::bishop_pawns`].
    BishopPawns,
    /// [`Params::minor_behind_pawn`].
    MinorBehindPawn,
    /// [`Params::king_protector`].
    KingProtector,
    /// [`Params::passed_king_theirs`].
    PassedKingTheirs,
    /// [`Params::passed_king_ours`].
    PassedKingOurs,
    /// [`Params::shield_near`].
    ShieldNear,
    /// [`Params::shield_far`].
    ShieldFar,
    /// [`Params::shield_missing`].
    ShieldMissing,
    /// [`Params::shield_open`].
    ShieldOpen,
    /// [`Params::king_exposed`].
    KingExposed,
    /// [`Params::king_zone_weak`] (middlegame only).
    KingZoneWeak,
    /// [`Params::hanging`].
    Hanging,
    /// [`Params::threat_by_king`].
    ThreatByKing,
    /// [`Params::threat_by_push`].
    ThreatByPush,
    /// [`Params::passed_free_path`].
    PassedFreePath,
    /// [`Params::passed_safe_push`].
    PassedSafePush,
    /// [`Params::knight_outpost`].
    KnightOutpost,
    /// [`Params::bishop_outpost`].
    BishopOutpost,
    /// [`Params::backward`].
    Backward,
}

/// The single terms after the per-role and per-rank blocks, in index order.
const SINGLES: [Term; 26] = [
    Term::BishopPair,
    Term::RookOpenFile,
    Term::RookSemiOpenFile,
    Term::Doubled,
    Term::Isolated,
    Term::PassedBlocked,
    Term::PassedKingTheirs,
    Term::PassedKingOurs,
    Term::ShieldNear,
    Term::ShieldFar,
    Term::ShieldMissing,
    Term::ShieldOpen,
    Term::KingExposed,
    Term::KingZoneWeak,
    Term::Hanging,
    Term::ThreatByKing,
    Term::ThreatByPush,
    Term::PassedFreePath,
    Term::PassedSafePush,
    Term::KnightOutpost,
    Term::BishopOutpost,
    Term::Backward,
    Term::StormBlocked,
    Term::BishopPawns,
    Term::MinorBehindPawn,
    Term::KingProtector,
];

const PSQT_AT: usize = 6;
const MOBILITY_AT: usize = PSQT_AT + 6 * 64;
const KING_ATTACK_AT: usize = MOBILITY_AT + 6 * MOBILITY_MAX;
const SAFE_CHECK_AT: usize = KING_ATTACK_AT + 6;
const THREAT_BY_PAWN_AT: usize = SAFE_CHECK_AT + 6;
const THREAT_BY_MINOR_AT: usize = THREAT_BY_PAWN_AT + 6;
const THREAT_BY_ROOK_AT: usize = THREAT_BY_MINOR_AT + 6;
const PASSED_AT: usize = THREAT_BY_ROOK_AT + 6;
const CONNECTED_AT: usize = PASSED_AT + 8;
const STORM_AT: usize = CONNECTED_AT + 8;
const SINGLES_AT: usize = STORM_AT + 8;

impl Term {
    /// The number of terms; [`Term::index`] is below it.
    pub const COUNT: usize = SINGLES_AT + SINGLES.len();

    /// A dense index, `0..Term::COUNT`.
    pub fn index(self) -> usize {
        match self {
            Term::Material(role) => role.index(),
            Term::Psqt(role, i) => PSQT_AT + 64 * role.index() + i,
            Term::Mobility(role, n) => MOBILITY_AT + MOBILITY_MAX * role.index() + n,
            Term::KingAttack(role) => KING_ATTACK_AT + role.index(),
            Term::SafeCheck(role) => SAFE_CHECK_AT + role.index(),
            Term::ThreatByPawn(role) => THREAT_BY_PAWN_AT + role.index(),
            Term::ThreatByMinor(role) => THREAT_BY_MINOR_AT + role.index(),
            Term::ThreatByRook(role) => THREAT_BY_ROOK_AT + role.index(),
            Term::Passed(rank) => PASSED_AT + rank,
            Term::Connected(rank) => CONNECTED_AT + rank,
            Term::Storm(rank) => STORM_AT + rank,
            single => {
                SINGLES_AT + SINGLES.iter().position(|&t| t == single).expect("a single term")
            }
        }
    }

    /// Every term, in index order.
    pub fn all() -> Vec<Term> {
        let mut all = Vec::with_capacity(Term::COUNT);
        all.extend(Role::ALL.map(Term::Material));
        for role in Role::ALL {
            all.extend((0..64).map(|i| Term::Psqt(role, i)));
        }
        for role in Role::ALL {
            all.extend((0..MOBILITY_MAX).map(|n| Term::Mobility(role, n)));
        }
        all.extend(Role::ALL.map(Term::KingAttack));
        all.extend(Role::ALL.map(Term::SafeCheck));
        all.extend(Role::ALL.map(Term::ThreatByPawn));
        all.extend(Role::ALL.map(Term::ThreatByMinor));
        all.extend(Role::ALL.map(Term::ThreatByRook));
        all.extend((0..8).map(Term::Passed));
        all.extend((0..8).map(Term::Connected));
        all.extend((0..8).map(Term::Storm));
        all.extend(SINGLES);
        all
    }

    /// `false` for a term without an endgame value: the king danger terms
    /// ([`Term::KingAttack`], [`Term::SafeCheck`], [`Term::KingZoneWeak`]).
    pub fn has_endgame(self) -> bool {
        !matches!(self, Term::KingAttack(_) | Term::SafeCheck(_) | Term::KingZoneWeak)
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Term::Material(role) => write!(f, "material[{}]", role.name()),
            Term::Psqt(role, i) => {
                let sq = Square::from_index_wrapping((i ^ 56) as u32);
                write!(f, "psqt[{}][{sq}]", role.name())
            }
            Term::Mobility(role, n) => write!(f, "mobility[{}][{n}]", role.name()),
            Term::KingAttack(role) => write!(f, "king_attack[{}]", role.name()),
            Term::SafeCheck(role) => write!(f, "safe_check[{}]", role.name()),
            Term::ThreatByPawn(role) => write!(f, "threat_by_pawn[{}]", role.name()),
            Term::ThreatByMinor(role) => write!(f, "threat_by_minor[{}]", role.name()),
            Term::ThreatByRook(role) => write!(f, "threat_by_rook[{}]", role.name()),
            Term::Passed(rank) => write!(f, "passed[{}]", rank + 1),
            Term::Connected(rank) => write!(f, "connected[{}]", rank + 1),
            Term::Storm(rank) => write!(f, "storm[{rank}]"),
            other => {
                let name = format!("{other:?}");
                // CamelCase to snake_case, as the field is named.
                for (i, c) in name.chars().enumerate() {
                    if c.is_ascii_uppercase() && i > 0 {
                        f.write_str("_")?;
                    }
                    write!(f, "{}", c.to_ascii_lowercase())?;
                }
                Ok(())
            }
        }
    }
}

impl Params {
    /// The value of `term` (`S(mg, 0)` for the middlegame-only terms, see
    /// [`Term::has_endgame`]).
    pub fn get(&self, term: Term) -> S {
        match term {
            Term::KingAttack(role) => S(self.king_attack[role.index()], 0),
            Term::SafeCheck(role) => S(self.safe_check[role.index()], 0),
            Term::KingZoneWeak => S(self.king_zone_weak, 0),
            _ => *self.slot(term),
        }
    }

    /// Sets `term` (only the middlegame value for the middlegame-only terms).
    pub fn set(&mut self, term: Term, value: S) {
        match term {
            Term::KingAttack(role) => self.king_attack[role.index()] = value.0,
            Term::SafeCheck(role) => self.safe_check[role.index()] = value.0,
            Term::KingZoneWeak => self.king_zone_weak = value.0,
            _ => *self.slot_mut(term) = value,
        }
    }
}

/// `Params::slot` and `Params::slot_mut`: the field of each [`S`]-valued term, written once
/// for both.
macro_rules! slots {
    ($($term:pat => $field:ident $([$index:expr])*,)*) => {
        impl Params {
            fn slot(&self, term: Term) -> &S {
                match term {
                    $($term => &self.$field$([$index])*,)*
                    _ => unreachable!("{term}: king danger weights are not S"),
                }
            }

            fn slot_mut(&mut self, term: Term) -> &mut S {
                match term {
                    $($term => &mut self.$field$([$index])*,)*
                    _ => unreachable!("{term}: king danger weights are not S"),
                }
            }
        }
    };
}

slots! {
    Term::Material(role) => material[role.index()],
    Term::Psqt(role, i) => psqt[role.index()][i],
    Term::Mobility(role, n) => mobility[role.index()][n],
    Term::ThreatByPawn(role) => threat_by_pawn[role.index()],
    Term::ThreatByMinor(role) => threat_by_minor[role.index()],
    Term::ThreatByRook(role) => threat_by_rook[role.index()],
    Term::BishopPair => bishop_pair,
    Term::RookOpenFile => rook_open_file,
    Term::RookSemiOpenFile => rook_semi_open_file,
    Term::Doubled => doubled,
    Term::Isolated => isolated,
    Term::Passed(rank) => passed[rank],
    Term::Connected(rank) => connected[rank],
    Term::Storm(rank) => storm[rank],
    Term::StormBlocked => storm_blocked,
    Term::BishopPawns => bishop_pawns,
    Term::MinorBehindPawn => minor_behind_pawn,
    Term::KingProtector => king_protector,
    Term::PassedBlocked => passed_blocked,
    Term::PassedKingTheirs => passed_king_theirs,
    Term::PassedKingOurs => passed_king_ours,
    Term::ShieldNear => shield_near,
    Term::ShieldFar => shield_far,
    Term::ShieldMissing => shield_missing,
    Term::ShieldOpen => shield_open,
    Term::KingExposed => king_exposed,
    Term::Hanging => hanging,
    Term::ThreatByKing => threat_by_king,
    Term::ThreatByPush => threat_by_push,
    Term::PassedFreePath => passed_free_path,
    Term::PassedSafePush => passed_safe_push,
    Term::KnightOutpost => knight_outpost,
    Term::BishopOutpost => bishop_outpost,
    Term::Backward => backward,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_indices_are_dense_and_in_order() {
        let all = Term::all();
        assert_eq!(all.len(), Term::COUNT);
        for (i, term) in all.iter().enumerate() {
            assert_eq!(term.index(), i, "{term}");
        }
    }

    #[test]
    fn get_and_set_reach_every_term() {
        let mut params = HAND_SET;
        for (i, term) in Term::all().into_iter().enumerate() {
            let v = i as i32 + 1;
            params.set(term, S(v, if term.has_endgame() { -v } else { 0 }));
        }
        for (i, term) in Term::all().into_iter().enumerate() {
            let v = i as i32 + 1;
            assert_eq!(params.get(term), S(v, if term.has_endgame() { -v } else { 0 }), "{term}");
        }
        assert_eq!(Term::Psqt(Role::Knight, 0).to_string(), "psqt[knight][a8]");
        assert_eq!(Term::RookSemiOpenFile.to_string(), "rook_semi_open_file");
    }

    #[test]
    fn mobility_rows_hold_every_count_a_piece_can_reach() {
        use rookery_core::{attacks, Bitboard};
        let reach = |role: Role, sq: Square| match role {
            Role::Knight => attacks::knight(sq),
            Role::Bishop => attacks::bishop(sq, Bitboard::EMPTY),
            Role::Rook => attacks::rook(sq, Bitboard::EMPTY),
            _ => attacks::queen(sq, Bitboard::EMPTY),
        };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let most = Square::ALL.iter().map(|&sq| reach(role, sq).count() as usize).max();
            assert_eq!(most, Some(MOBILITY_SQUARES[role.index()] - 1), "{role:?}");
        }
        // The hand-set table is linear: zero at the typical count, one step per square.
        let knight = HAND_SET.mobility[Role::Knight.index()];
        assert_eq!((knight[4], knight[5], knight[0]), (S(0, 0), S(4, 4), S(-16, -16)));
        assert!(HAND_SET.mobility[Role::Pawn.index()].iter().all(|&s| s == S(0, 0)));
    }

    #[test]
    fn the_taper_starts_full() {
        for params in [HAND_SET, TUNED] {
            let start: i32 = [(0, 8), (1, 2), (2, 2), (3, 2), (4, 1)]
                .iter()
                .map(|&(role, n)| params.phase[role] * n)
                .sum();
            assert_eq!(start * 2, PHASE_MAX);
        }
    }
}
