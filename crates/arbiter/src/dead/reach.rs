//! Static reachability: an over-approximation of everything that can still happen on the board,
//! and the test "could the loser's king ever stand checkmated?" on top of it.
//!
//! This is our own formulation of the saturation idea of M. Ambrona, "A Practical Algorithm for
//! Chess Unwinnability", FUN 2022, §4 (static analysis of blocked positions). For every unit
//! (a man on the board now, followed through all its future moves, promotion included) we
//! compute `reach`, a superset of the squares it can ever stand on, and `captures`, of the
//! squares where it can ever capture; from them, `steady` (units that never move and are
//! never captured) and each side's `permanent` attacks (squares it attacks at every moment).
//!
//! # Rules
//! - Sliders, knights and kings spread by single steps (a slide is a chain of steps through
//!   empty squares), never onto a steady man of their own colour; kings never onto a square
//!   the enemy attacks permanently. Castling rights add the castling squares.
//! - Pawns push onto squares no steady unit holds, capture onto squares an enemy man may
//!   occupy, and count as any piece anywhere once they may reach the last rank.
//! - Refinements, each argued where it is implemented: file chains
//!   ([`Reach::file_bounds`]), gates ([`Gates`]) and the stalemate rule ([`Stall`]).
//!
//! # Why the fixpoint is sound
//! The rules are applied until nothing changes, starting from "every reach a single square,
//! everything steady": every round only grows reaches and shrinks the steady set and the
//! permanent attacks, so the iteration ends. At the fixpoint, take any continuation (up to a
//! checkmate, and not through a stalemate, which ends the game) and its first move that
//! leaves the approximation: a unit lands outside its reach. (Capturing a unit claimed never
//! captured, or moving a steady one, means landing outside some reach, since captures and
//! steadiness are read off the reaches.) Before that move every claim held: every unit stood
//! in its reach, no steady or never-captured unit had been touched. Each rule that left the
//! landing square out did so on facts of that moment: the steady units are in place and block
//! (and a pawn cannot capture straight ahead), a permanently attacking unit is present and its
//! rays are cut only by squares other units may occupy, and so on. A rule may rely on another
//! unit never being captured only if the excluded move could not be that very capture; the
//! refinements respect this. So the move is impossible, a contradiction: the approximation
//! holds for the whole continuation, and a mate is possible only if [`Reach::mate_conceivable`]
//! finds a square for it.

use rookery_core::{attacks, Bitboard, CastlingSide, Color, Position, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const FILE_AB: u64 = FILE_A | (FILE_A << 1);
const FILE_GH: u64 = FILE_H | (FILE_H >> 1);
const RANK_1: u64 = 0xff;
const RANK_8: u64 = RANK_1 << 56;

#[inline]
fn orth_step(b: u64) -> u64 {
    (b << 8) | (b >> 8) | ((b & !FILE_H) << 1) | ((b & !FILE_A) >> 1)
}

#[inline]
fn diag_step(b: u64) -> u64 {
    ((b & !FILE_H) << 9) | ((b & !FILE_A) << 7) | ((b & !FILE_H) >> 7) | ((b & !FILE_A) >> 9)
}

#[inline]
fn king_step(b: u64) -> u64 {
    orth_step(b) | diag_step(b)
}

#[inline]
fn knight_step(b: u64) -> u64 {
    let l1 = (b >> 1) & !FILE_H;
    let l2 = (b >> 2) & !FILE_GH;
    let r1 = (b << 1) & !FILE_A;
    let r2 = (b << 2) & !FILE_AB;
    let h1 = l1 | r1;
    let h2 = l2 | r2;
    (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8)
}

/// Squares the pawns of `color` on `b` attack.
#[inline]
fn pawn_attacks(color: Color, b: u64) -> u64 {
    attacks::pawns(color, Bitboard(b)).0
}

#[inline]
fn forward(color: Color, b: u64) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// Gates: men that shuttle between two squares and are never captured. Such a man always
/// stands on one of its two squares, so no man that cannot capture it ever moves directly
/// between them (a step, a knight jump or a slide through both needs the other square empty).
/// That is every man of its own colour, and every pawn pushing along the file. This is the
/// "obstacle that cannot get out of the way" rule of Ambrona's saturation, kept to
/// two-square reaches, the only ones a single step can cross.
struct Gates {
    /// (unit index, colour, square bit, square bit).
    pairs: [(usize, Color, u64, u64); 32],
    len: usize,
}

impl Gates {
    fn new() -> Gates {
        Gates { pairs: [(0, Color::White, 0, 0); 32], len: 0 }
    }

    /// The gates that bind `me`: of colour `color`, or of any colour if `None`.
    fn pairs(&self, me: usize, color: Option<Color>) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.pairs[..self.len]
            .iter()
            .filter(move |p| p.0 != me && color.is_none_or(|c| c == p.1))
            .map(|p| (p.2, p.3))
    }

    /// Squares of the gates that bind `me`.
    fn squares(&self, me: usize, color: Option<Color>) -> u64 {
        self.pairs(me, color).fold(0, |acc, (a, b)| acc | a | b)
    }

    /// Squares `me` may not step to from `from` (a single bit).
    fn closed_from(&self, from: u64, me: usize, color: Option<Color>) -> u64 {
        self.pairs(me, color).fold(0, |acc, (a, b)| {
            if a == from {
                acc | b
            } else if b == from {
                acc | a
            } else {
                acc
            }
        })
    }
}

/// The squares reached from `start` by repeated `step`s that stay inside `pass` and never
/// cross a gate of `color` (other than `me`'s own).
#[inline]
fn flood(
    start: u64,
    pass: u64,
    step: fn(u64) -> u64,
    gates: &Gates,
    me: usize,
    color: Color,
) -> u64 {
    let special = gates.squares(me, Some(color));
    let mut reach = start;
    loop {
        let mut next = reach | (step(reach & !special) & pass);
        for sq in Bitboard(reach & special) {
            let from = bit(sq);
            next |= step(from) & pass & !gates.closed_from(from, me, Some(color));
        }
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// The stalemate rule, after Ambrona's saturation: a king move after which the opponent has
/// no legal move and is not in check ends the game in stalemate, so no mate lies beyond it
/// and the move can be left out of a reach that only serves to rule mates out.
///
/// It applies to the king of a side with no rook, queen or promotion when every man of the
/// opponent never moves (so it has no move then either). A king move never gives check
/// itself; it can only discover one from a bishop, which is excluded below. The opponent's
/// king stands somewhere in `region` (its reach), not next to the target. Its only moves are
/// steps, and a step is impossible onto a square next to the target, a square a steady unit of
/// ours attacks for good, or a square a steady man of its own holds: facts that hold at every
/// moment, so the argument needs nothing about the opponent's later moves. If every square of
/// `region` has only such neighbours, the move stalemates.
struct Stall {
    /// The opponent king's reach.
    region: u64,
    /// Squares an opponent's pawn could push to, were they empty: our king must not leave one
    /// (a steady king may be all that blocks that pawn).
    pushable: u64,
    /// Squares the opponent's king can never step to, whatever our king does: attacked for
    /// good by our steady units, or held by its own steady men.
    closed: u64,
    /// The reach of this side's bishops.
    bishops: u64,
    steady: u64,
}

impl Stall {
    /// `true` if the king stepping from `from` to `to` stalemates the opponent for sure.
    fn stalemates(&self, from: Square, to: Square) -> bool {
        if self.pushable & bit(from) != 0 {
            return false;
        }
        let near = attacks::king(to).0 | bit(to);
        for k in Bitboard(self.region & !near) {
            if self.bishops != 0 {
                let rays = attacks::bishop(k, Bitboard(self.steady)).0;
                if rays & bit(from) != 0 && rays & self.bishops != 0 {
                    return false;
                }
            }
            if attacks::king(k).0 & !near & !self.closed != 0 {
                return false;
            }
        }
        true
    }

    /// [`flood`] by king steps, leaving out stalemating steps.
    fn flood(&self, start: u64, pass: u64, gates: &Gates, me: usize, color: Color) -> u64 {
        let mut reach = start;
        loop {
            let mut next = reach;
            for from in Bitboard(reach) {
                let closed = gates.closed_from(bit(from), me, Some(color));
                let targets = attacks::king(from).0 & pass & !closed;
                for to in Bitboard(targets & !next) {
                    if !self.stalemates(from, to) {
                        next |= bit(to);
                    }
                }
            }
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }
}

#[inline]
fn bit(sq: Square) -> u64 {
    1 << sq as u32
}

/// Which units [`Reach::permanent_attacks_of`] counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PermanentBy {
    All,
    /// Pawns and knights only: attacks no piece can cut off.
    Unblockable,
}

/// One man now on the board, followed through all its future moves.
#[derive(Clone, Copy, Debug)]
struct Unit {
    /// Where it stands now.
    sq: Square,
    color: Color,
    role: Role,
    /// Superset of the squares it can ever stand on (its own square included).
    reach: u64,
    /// Superset of the squares where it can ever capture.
    captures: u64,
    /// A pawn that may reach its last rank: it then counts as any piece, anywhere.
    promotes: bool,
}

impl Unit {
    /// Superset of the squares it can ever attack, with steady units as the only blockers.
    ///
    /// A slider's `reach` is connected by single steps through non-steady squares, and every
    /// square its ray passes before the first real blocker is such a square; the blocker itself
    /// is one step further. So `reach` plus one step contains every square it can attack.
    fn attack_zone(&self) -> u64 {
        if self.promotes {
            return !0;
        }
        match self.role {
            Role::Pawn => pawn_attacks(self.color, self.reach),
            Role::Knight => knight_step(self.reach),
            Role::Bishop => self.reach | diag_step(self.reach),
            Role::Rook => self.reach | orth_step(self.reach),
            Role::Queen | Role::King => self.reach | king_step(self.reach),
        }
    }
}

/// The saturated approximation of one position (see the module documentation).
#[derive(Clone, Debug)]
pub(super) struct Reach {
    units: [Unit; 32],
    len: usize,
    /// Index in `units` of each side's king, by [`Color::index`].
    kings: [usize; 2],
    /// Squares of the units that can never move nor be captured.
    steady: u64,
    /// `true` when the iteration stopped early because no non-king unit was steady any more:
    /// nothing is then proven, and every mate counts as conceivable.
    open: bool,
}

impl Reach {
    /// Saturates the approximation for `pos` (both sides at once).
    pub(super) fn of(pos: &Position) -> Reach {
        let board = pos.board();
        let placeholder = Unit {
            sq: Square::A1,
            color: Color::White,
            role: Role::King,
            reach: 0,
            captures: 0,
            promotes: false,
        };
        let mut r = Reach {
            units: [placeholder; 32],
            len: 0,
            kings: [0; 2],
            steady: board.occupied().0,
            open: false,
        };
        let ep_pawn = pos.ep_square().map(|ep| {
            // The pawn that just made a double step stands one rank beyond the passed square;
            // seeding its reach with that square lets the capture rule see en passant.
            let behind = match pos.turn() {
                Color::White => ep.offset(0, -1),
                Color::Black => ep.offset(0, 1),
            };
            (behind, ep)
        });
        for (sq, piece) in board.pieces() {
            if r.len == r.units.len() {
                break;
            }
            let mut reach = bit(sq);
            if let Some((Some(pawn_sq), ep)) = ep_pawn {
                if pawn_sq == sq {
                    reach |= bit(ep);
                }
            }
            if piece.role == Role::King {
                r.kings[piece.color.index()] = r.len;
            }
            r.units[r.len] = Unit {
                sq,
                color: piece.color,
                role: piece.role,
                reach,
                captures: 0,
                promotes: false,
            };
            r.len += 1;
        }
        r.saturate(pos);
        r
    }

    fn units(&self) -> &[Unit] {
        &self.units[..self.len]
    }

    /// `true` if the iteration gave up early (see [`Reach::open`]).
    pub(super) fn is_open(&self) -> bool {
        self.open
    }

    fn saturate(&mut self, pos: &Position) {
        let castling = pos.castling_rights();
        let mut own_steady = [0u64; 2];
        let mut men_reach = [0u64; 2];
        for u in self.units() {
            if u.role != Role::King {
                men_reach[u.color.index()] |= u.reach;
            }
        }
        let mut capture_reach = [0u64; 2];
        let mut permanent = self.permanent_attacks(&capture_reach);
        loop {
            let forbidden = self.file_bounds(&capture_reach);
            let gates = self.gates(&capture_reach);
            let stalls = [
                self.stall(Color::White, &capture_reach),
                self.stall(Color::Black, &capture_reach),
            ];
            for c in Color::ALL {
                own_steady[c.index()] = 0;
            }
            for u in self.units() {
                own_steady[u.color.index()] |= bit(u.sq) & self.steady;
            }
            let mut changed = false;
            for (i, &forbid) in forbidden.iter().enumerate().take(self.len) {
                let u = self.units[i];
                let c = u.color.index();
                let them = (!u.color).index();
                let pass = !own_steady[c] & !forbid;
                let (reach, captures, promotes) = match u.role {
                    Role::Pawn if !u.promotes => pawn_reach(
                        u.color,
                        u.reach,
                        self.steady | forbid,
                        men_reach[them],
                        &gates,
                        i,
                    ),
                    Role::Pawn => (pass | u.reach, pass, true),
                    Role::Knight => {
                        let r = flood(u.reach, pass, knight_step, &gates, i, u.color);
                        (r, r, false)
                    }
                    Role::Bishop => {
                        let r = flood(u.reach, pass, diag_step, &gates, i, u.color);
                        (r, r, false)
                    }
                    Role::Rook => {
                        let mut seed = u.reach;
                        for side in CastlingSide::ALL {
                            if pos.castles().rook(u.color, side) == Some(u.sq) {
                                seed |= bit(side.rook_to(u.color));
                            }
                        }
                        let r = flood(seed, pass, orth_step, &gates, i, u.color);
                        (r, r, false)
                    }
                    Role::Queen => {
                        let r = flood(u.reach, pass, king_step, &gates, i, u.color);
                        (r, r, false)
                    }
                    Role::King => {
                        let mut seed = u.reach;
                        for side in CastlingSide::ALL {
                            if castling.has(u.color, side) {
                                seed |= bit(side.king_to(u.color));
                            }
                        }
                        let pass = pass & !permanent[them];
                        let r = match &stalls[c] {
                            Some(stall) => stall.flood(seed, pass, &gates, i, u.color),
                            None => flood(seed, pass, king_step, &gates, i, u.color),
                        };
                        (r, r, false)
                    }
                };
                let reach = reach | u.reach;
                let captures = captures | u.captures;
                if reach != u.reach || captures != u.captures || promotes != u.promotes {
                    changed = true;
                    let unit = &mut self.units[i];
                    unit.reach = reach;
                    unit.captures = captures;
                    unit.promotes = promotes;
                }
            }

            men_reach = [0; 2];
            capture_reach = [0u64; 2];
            for u in self.units() {
                capture_reach[u.color.index()] |= u.captures;
                if u.role != Role::King {
                    men_reach[u.color.index()] |= u.reach;
                }
            }
            let mut steady = 0;
            for u in self.units() {
                let b = bit(u.sq);
                if u.reach == b && capture_reach[(!u.color).index()] & b == 0 {
                    steady |= b;
                }
            }
            if steady != self.steady {
                changed = true;
                self.steady = steady;
            }
            let kings = bit(self.units[self.kings[0]].sq) | bit(self.units[self.kings[1]].sq);
            if self.steady & !kings == 0 {
                self.open = true;
                return;
            }
            if !changed {
                return;
            }
            permanent = self.permanent_attacks(&capture_reach);
        }
    }

    /// The stalemate rule for `color`'s king this round, if it applies (see [`Stall`]).
    fn stall(&self, color: Color, capture_reach: &[u64; 2]) -> Option<Stall> {
        let mut bishops = 0;
        let mut their_steady = 0;
        let mut pushable = 0;
        for u in self.units() {
            if u.color != color && u.role == Role::Pawn {
                let one = forward(u.color, bit(u.sq));
                let start = match u.color {
                    Color::White => RANK_1 << 8,
                    Color::Black => RANK_8 >> 8,
                };
                pushable |= one | forward(u.color, one & (start << 8 | start >> 8));
            }
            if u.color == color {
                if u.promotes || matches!(u.role, Role::Rook | Role::Queen) {
                    return None;
                }
                if u.role == Role::Bishop {
                    bishops |= u.reach;
                }
            } else if u.role != Role::King {
                if u.reach != bit(u.sq) {
                    return None;
                }
                their_steady |= bit(u.sq) & self.steady;
            }
        }
        let region = self.units[self.kings[(!color).index()]].reach;
        // Our king is the unit that moves: its own attacks do not count, and standing on the
        // target it could cut a bishop's ray, so only pawns and knights count.
        let closed = self.permanent_attacks_of(color, capture_reach, PermanentBy::Unblockable)
            | their_steady;
        Some(Stall { region, pushable, closed, bishops, steady: self.steady })
    }

    /// The gates of this round (see [`Gates`]), from the previous round's capture reach.
    fn gates(&self, capture_reach: &[u64; 2]) -> Gates {
        let mut gates = Gates::new();
        for (i, u) in self.units().iter().enumerate() {
            if u.promotes || u.reach.count_ones() != 2 {
                continue;
            }
            if u.reach & capture_reach[(!u.color).index()] != 0 {
                continue;
            }
            let a = u.reach & u.reach.wrapping_neg();
            gates.pairs[gates.len] = (i, u.color, a, u.reach ^ a);
            gates.len += 1;
        }
        gates
    }

    /// File chains: men that never leave their file (a pawn that never captures nor promotes, a
    /// piece whose reach is one file) can never pass one another, since no move on a file
    /// jumps a man on it (a double step needs the passed square empty). So a man confined to
    /// a file stays below every confined man above it that is never captured (and above every
    /// one below it), and never reaches the farthest square that man can reach. The man in the
    /// way must not be one the moving man could itself capture: any man in front of a pawn
    /// (pawns capture only diagonally), a man of its own colour in front of a piece. Returns, per
    /// unit, the squares of its file this forbids. `capture_reach` is each side's capture
    /// reach; at the fixpoint every bound rests on final reaches, so the argument of the
    /// module documentation covers it.
    fn file_bounds(&self, capture_reach: &[u64; 2]) -> [u64; 32] {
        let mut forbidden = [0u64; 32];
        let units = self.units();
        let confined = |u: &Unit| {
            let file = FILE_A << (u.sq as u32 % 8);
            !u.promotes && u.reach & !file == 0
        };
        for (i, y) in units.iter().enumerate() {
            if !confined(y) {
                continue;
            }
            let rank = y.sq as u32 / 8;
            let (mut lo, mut hi) = match (y.role, y.color) {
                (Role::Pawn, Color::White) => (rank, 7),
                (Role::Pawn, Color::Black) => (0, rank),
                _ => (0, 7),
            };
            for x in units {
                let same_file = x.sq as u32 % 8 == y.sq as u32 % 8;
                if !same_file || x.sq == y.sq || !confined(x) {
                    continue;
                }
                // A piece could capture an enemy man in its way; a pawn never captures
                // straight ahead.
                if y.role != Role::Pawn && x.color != y.color {
                    continue;
                }
                if x.reach & capture_reach[(!x.color).index()] != 0 {
                    continue;
                }
                let x_rank = x.sq as u32 / 8;
                if x_rank > rank {
                    hi = hi.min((63 - x.reach.leading_zeros()) / 8 - 1);
                } else {
                    lo = lo.max(x.reach.trailing_zeros() / 8 + 1);
                }
            }
            let file = FILE_A << (y.sq as u32 % 8);
            let below = if lo == 0 { 0 } else { (1u64 << (8 * lo)) - 1 };
            let above = if hi >= 7 { 0 } else { !((1u64 << (8 * (hi + 1))) - 1) };
            forbidden[i] = file & (below | above);
        }
        forbidden
    }

    /// Squares each side attacks for the rest of the game. A unit that is never captured and
    /// never promotes (a king is never captured) stands somewhere in its reach at every
    /// moment, so it always attacks what it attacks from *every* square of its reach, as long
    /// as its rays are cut by every square another unit may ever occupy (its own other
    /// squares are empty while it stands elsewhere). For a steady unit this is simply its
    /// attack set. `capture_reach` is each side's capture reach.
    fn permanent_attacks(&self, capture_reach: &[u64; 2]) -> [u64; 2] {
        [
            self.permanent_attacks_of(Color::White, capture_reach, PermanentBy::All),
            self.permanent_attacks_of(Color::Black, capture_reach, PermanentBy::All),
        ]
    }

    /// [`Reach::permanent_attacks`] of one side's units of the given kinds.
    fn permanent_attacks_of(&self, color: Color, capture_reach: &[u64; 2], by: PermanentBy) -> u64 {
        let (mut once, mut twice) = (0u64, 0u64);
        for u in self.units() {
            twice |= once & u.reach;
            once |= u.reach;
        }
        let mut out = 0;
        for u in self.units() {
            let counted = match by {
                PermanentBy::All => true,
                PermanentBy::Unblockable => matches!(u.role, Role::Pawn | Role::Knight),
            };
            if u.color != color || !counted || u.promotes {
                continue;
            }
            if u.role != Role::King && u.reach & capture_reach[(!color).index()] != 0 {
                continue;
            }
            let others = Bitboard(twice | (once & !u.reach));
            let mut common = !0u64;
            for t in Bitboard(u.reach) {
                common &= match u.role {
                    Role::Pawn => attacks::pawn(color, t),
                    Role::Knight => attacks::knight(t),
                    Role::Bishop => attacks::bishop(t, others),
                    Role::Rook => attacks::rook(t, others),
                    Role::Queen => attacks::queen(t, others),
                    Role::King => attacks::king(t),
                }
                .0;
                if common == 0 {
                    break;
                }
            }
            out |= common;
        }
        out
    }

    /// `false` only if `winner` can never checkmate, whatever both sides play.
    ///
    /// A checkmate needs the loser's king on some square `k` of its reach, attacked by a
    /// non-king unit of the winner, with every neighbour the king could step to covered: by a
    /// man of the loser standing there, or by an attack of the winner. A neighbour outside the
    /// king's reach needs no cover: were it a legal step in the mate position, stepping there
    /// would be a legal continuation, so it would be in the reach. The winner's king covers
    /// from one square only, never next to `k`; each man of the loser blocks one square only
    /// (a counting test, Hall's condition relaxed to its total). This is the mating-net test
    /// of Ambrona's paper (§4.3) in our terms.
    pub(super) fn mate_conceivable(&self, winner: Color) -> bool {
        if self.open {
            return true;
        }
        let loser = !winner;
        let king_region = self.units[self.kings[loser.index()]].reach;
        let winner_king = self.units[self.kings[winner.index()]].reach;
        let mut cover = 0u64;
        let mut blockers = [0u64; 16];
        let mut n_blockers = 0;
        let mut block_all = 0u64;
        for u in self.units() {
            if u.role == Role::King {
                continue;
            }
            if u.color == winner {
                cover |= u.attack_zone();
            } else if n_blockers < blockers.len() {
                blockers[n_blockers] = u.reach;
                n_blockers += 1;
                block_all |= u.reach;
            }
        }
        let blockers = &blockers[..n_blockers];
        let covered_by_men = |rest: u64| -> bool {
            if rest == 0 {
                return true;
            }
            if rest & !block_all != 0 {
                return false;
            }
            let able = blockers.iter().filter(|&&r| r & rest != 0).count();
            able >= rest.count_ones() as usize
        };
        for k in Bitboard(king_region & cover) {
            let around = attacks::king(k).0;
            let need = around & king_region & !cover;
            if covered_by_men(need) {
                return true;
            }
            let helpful = king_step(need);
            for q in Bitboard(winner_king & helpful & !around & !bit(k)) {
                if covered_by_men(need & !attacks::king(q).0) {
                    return true;
                }
            }
        }
        false
    }
}

/// A pawn's reach: pushes onto non-steady squares, captures onto squares an enemy man may
/// occupy. A double step passes a square a single step also reaches, so single steps suffice
/// for the reach (it is a set over many moves). Returns (reach, captures, promotes).
fn pawn_reach(
    color: Color,
    start: u64,
    steady: u64,
    enemy_men: u64,
    gates: &Gates,
    me: usize,
) -> (u64, u64, bool) {
    let special = gates.squares(me, None);
    let mut reach = start;
    let mut captures = 0;
    loop {
        let mut pushes = forward(color, reach & !special);
        for sq in Bitboard(reach & special) {
            let from = bit(sq);
            pushes |= forward(color, from) & !gates.closed_from(from, me, None);
        }
        let pushes = pushes & !steady;
        let takes = pawn_attacks(color, reach) & enemy_men;
        captures |= takes;
        let next = reach | pushes | takes;
        if next == reach {
            break;
        }
        reach = next;
    }
    let last = match color {
        Color::White => RANK_8,
        Color::Black => RANK_1,
    };
    (reach, captures, reach & last != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_on_the_board() {
        assert_eq!(orth_step(bit(Square::A1)), bit(Square::A2) | bit(Square::B1));
        assert_eq!(diag_step(bit(Square::H8)), bit(Square::G7));
        assert_eq!(knight_step(bit(Square::A1)), attacks::knight(Square::A1).0);
        for sq in Square::ALL {
            assert_eq!(knight_step(bit(sq)), attacks::knight(sq).0, "{sq}");
            assert_eq!(king_step(bit(sq)), attacks::king(sq).0, "{sq}");
            for color in Color::ALL {
                assert_eq!(pawn_attacks(color, bit(sq)), attacks::pawn(color, sq).0, "{sq}");
            }
        }
    }
}
