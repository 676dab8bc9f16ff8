//! Bounded helpmate search: both sides cooperate so that `winner` gives checkmate.
//!
//! Iterative deepening over an *effort* budget instead of plain depth, after M. Ambrona, "A
//! Practical Algorithm for Chess Unwinnability", FUN 2022, §5: in [`Mode::Find`] moves that
//! usually bring a mate closer cost no effort (the winner's checks, captures and pawn steps,
//! its king and knights gathering near the mating corner; the loser's king heading for that
//! corner, its pieces coming along, and any answer to a rewarded move), while the loser's
//! captures and pawn steps cost extra; so long, purposeful lines are tried before broad,
//! aimless ones. At the winner's turn every checking move is first tried for an immediate
//! mate. [`Mode::Prove`] charges every move one unit and stops an iteration at its first
//! cut-off, which makes it a cheap, exhaustive proof attempt; [`closure`] is the exhaustive
//! search without any depth.
//!
//! # Soundness of "no mate"
//! An iteration proves that no mate exists when it ends without any cut-off (effort, ply or
//! node limit). Every position the iteration entered was then terminal, a dead end (the
//! winner lacks mating material, or [`Reach`] proves no mate), already expanded in this
//! iteration (transposition table) or expanded here with all its children entered. So the set
//! of entered positions is closed under legal moves except at dead ends, no mate lies in it,
//! and none lies beyond a dead end: no mate is reachable. Move costs and ordering only decide
//! *when* a position is entered, never whether a closed set is complete, so they cannot break
//! this argument. The table compares a 128-bit fingerprint (Zobrist key and an independent
//! hash of the full board), so a skipped position is, for all practical purposes, the same.

use rookery_core::{
    attacks, Bitboard, Color, Move, MoveKind, MoveList, Position, Role, Square, MAX_LEGAL_MOVES,
};

use super::reach::Reach;

/// How moves are charged against the effort of an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Heuristic costs, aimed at finding a helpmate quickly.
    Find,
    /// Every move costs one; an iteration stops at its first cut-off.
    Prove,
}

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// Positions entered, over all iterations.
    pub(super) nodes: u64,
    /// Positions entered per unit of effort within one iteration (Ambrona's per-depth limit):
    /// an iteration that exceeds it is cut and the next, deeper one starts.
    pub(super) per_effort: u64,
    /// The last effort tried.
    pub(super) max_effort: i32,
    /// Run [`Reach`] after captures and pawn moves, to prune positions it proves dead.
    pub(super) static_prune: bool,
}

/// What a search established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// A helpmate, as the moves from the root.
    Mate(Vec<Move>),
    /// Proven: no sequence of legal moves ends in the winner's checkmate.
    NoMate,
    /// Limits reached first.
    Unknown,
}

const MAX_PLY: usize = 160;
/// Nodes charged for one static analysis inside a search: it costs about as much as ten
/// positions entered.
const STATIC_COST: u64 = 10;

/// Runs iterative deepening from `pos`; returns the result and the positions entered.
pub(super) fn run(pos: &Position, winner: Color, mode: Mode, limits: Limits) -> (Found, u64) {
    let mut s = Search {
        winner,
        mode,
        limits,
        nodes: 0,
        iteration_nodes: 0,
        iteration_limit: u64::MAX,
        cut: false,
        aborted: false,
        table: Table::default(),
        generation: 0,
        line: Vec::with_capacity(64),
        corner: mating_corner(pos, winner),
    };
    for effort in 1..=limits.max_effort {
        s.generation = s.generation.wrapping_add(1);
        s.cut = false;
        s.iteration_nodes = 0;
        s.iteration_limit = limits.per_effort.saturating_mul(effort as u64);
        s.line.clear();
        if s.enter(pos, effort, false, 0) {
            return (Found::Mate(s.line), s.nodes);
        }
        if s.aborted {
            return (Found::Unknown, s.nodes);
        }
        if !s.cut {
            return (Found::NoMate, s.nodes);
        }
    }
    (Found::Unknown, s.nodes)
}

struct Search {
    winner: Color,
    mode: Mode,
    limits: Limits,
    nodes: u64,
    iteration_nodes: u64,
    iteration_limit: u64,
    /// Some position of this iteration was left unexpanded.
    cut: bool,
    /// The node limit was reached: stop everything.
    aborted: bool,
    table: Table,
    generation: u16,
    line: Vec<Move>,
    /// Where the loser's king is driven (see [`mating_corner`]).
    corner: Square,
}

impl Search {
    /// `true` once a mate has been found (its moves are then in `line`).
    fn enter(&mut self, pos: &Position, effort: i32, rewarded: bool, ply: usize) -> bool {
        self.nodes += 1;
        self.iteration_nodes += 1;
        if self.nodes > self.limits.nodes {
            self.aborted = true;
            return false;
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return pos.is_check() && pos.turn() != self.winner;
        }
        if pos.has_insufficient_material(self.winner) {
            return false;
        }
        let key = Key::of(pos);
        if self.table.skips(key, self.generation, effort) {
            return false;
        }
        if effort <= 0 || ply >= MAX_PLY || self.iteration_nodes > self.iteration_limit {
            self.cut = true;
            return false;
        }
        self.table.store(key, self.generation, effort, false);

        let checks = Checks::new(pos);
        if pos.turn() == self.winner && self.mate_in_one(pos, &moves, &checks) {
            return true;
        }
        self.order(pos, &mut moves, &checks);
        for &m in moves.iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            let irreversible =
                pos.is_capture(m) || pos.board().role_at(m.from()) == Some(Role::Pawn);
            if irreversible && self.limits.static_prune && self.dead_end(&child) {
                continue;
            }
            let (cost, reward) = self.cost(pos, m, &child, rewarded);
            self.line.push(m);
            if self.enter(&child, effort - cost, reward, ply + 1) {
                return true;
            }
            self.line.pop();
            if self.aborted || (self.cut && self.mode == Mode::Prove) {
                return false;
            }
        }
        false
    }

    /// Tries the winner's checking moves for an immediate mate; only the candidates of
    /// [`Checks`] are played.
    fn mate_in_one(&mut self, pos: &Position, moves: &MoveList, checks: &Checks) -> bool {
        for &m in moves.iter() {
            if !checks.may_check(pos, m) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            if child.is_check() {
                self.nodes += 1;
                if !child.has_legal_moves() {
                    self.line.push(m);
                    return true;
                }
            }
        }
        false
    }

    /// `true` if static analysis proves the winner can never mate from `pos`.
    fn dead_end(&mut self, pos: &Position) -> bool {
        let key = Key::of(pos);
        if self.table.is_dead(key) {
            return true;
        }
        self.nodes += STATIC_COST;
        let dead = !Reach::of(pos).mate_conceivable(self.winner);
        if dead {
            self.table.store(key, self.generation, 0, true);
        }
        dead
    }

    /// Sorts `moves` best first: for the winner checks, captures, promotions, pawn steps and
    /// king and knight moves toward the mating corner; for the loser king steps toward that
    /// corner, then other moves, pawn steps and captures last.
    fn order(&self, pos: &Position, moves: &mut MoveList, checks: &Checks) {
        let us = pos.turn();
        let mut scores = [0i32; MAX_LEGAL_MOVES];
        let moves = moves.as_mut_slice();
        for (i, &m) in moves.iter().enumerate() {
            let captured = pos.captured_role(m).map_or(0, value);
            let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
            let closer = distance(self.corner, m.from()) - distance(self.corner, m.to());
            scores[i] = if us == self.winner {
                let promotion = match m.kind() {
                    MoveKind::Promotion(Role::Queen) => 50,
                    MoveKind::Promotion(_) => -5,
                    _ => 0,
                };
                let pawn = if role == Role::Pawn { 4 } else { 0 };
                let approach =
                    if matches!(role, Role::King | Role::Knight) { 3 * closer } else { 0 };
                let check = if checks.may_check(pos, m) { 20 } else { 0 };
                10 * captured + promotion + approach + pawn + check
            } else {
                let toward = if role == Role::King { 3 * closer } else { closer };
                let pawn = if role == Role::Pawn { -4 } else { 0 };
                toward + pawn - 10 * captured
            };
        }
        // Insertion sort: lists are short, and equal scores keep generation order.
        for i in 1..moves.len() {
            let (score, m) = (scores[i], moves[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                scores[j] = scores[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            scores[j] = score;
            moves[j] = m;
        }
    }

    /// Effort charged for `m` (played from `pos` into `child`), and whether it was rewarded.
    fn cost(&self, pos: &Position, m: Move, child: &Position, rewarded: bool) -> (i32, bool) {
        let us = pos.turn();
        if self.mode == Mode::Prove {
            return (1, false);
        }
        let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
        let (from, to) = (distance(self.corner, m.from()), distance(self.corner, m.to()));
        if us == self.winner {
            // The winner's king and knights gather near the corner, not in it.
            let gathers = matches!(role, Role::King | Role::Knight) && to < from && to >= 2;
            let reward = child.is_check()
                || pos.is_capture(m)
                || matches!(m.kind(), MoveKind::Promotion(Role::Queen))
                || (role == Role::Pawn && m.promotion_role().is_none())
                || gathers;
            (if reward { 0 } else { 1 }, reward)
        } else if pos.is_capture(m) {
            (3, false)
        } else if role == Role::Pawn {
            // The loser's pawns are worth more as blockers than as runners.
            (2, false)
        } else if to < from || (role == Role::King && to <= 1) || rewarded {
            // The loser's king heads for the corner (and waits there), its pieces come along
            // to block its flight squares.
            (0, false)
        } else {
            (1, false)
        }
    }
}

/// The corner of the loser's back rank where mates are sought: the nearer one when no bishop
/// is on the board; else of the colour of the winner's bishops (a lone bishop mates only on
/// its colour), else of the colour the loser's bishops do not cover.
fn mating_corner(pos: &Position, winner: Color) -> Square {
    let b = pos.board();
    let bishops = b.by_role(Role::Bishop);
    let ours = bishops & b.by_color(winner);
    let theirs = bishops & b.by_color(!winner);
    let king = pos.king_of(!winner);
    let corners = match winner {
        Color::White => [Square::A8, Square::H8],
        Color::Black => [Square::A1, Square::H1],
    };
    if ours.is_empty() && theirs.is_empty() {
        // No colour to prefer: the nearer corner.
        let [a, h] = corners;
        return if distance(king, a) <= distance(king, h) { a } else { h };
    }
    let dark = if ours.any() {
        (ours & Bitboard::DARK_SQUARES).any()
    } else {
        !(theirs & Bitboard::DARK_SQUARES).any()
    };
    // a8 and h1 are light, a1 and h8 dark.
    match (winner, dark) {
        (Color::White, true) => Square::H8,
        (Color::White, false) => Square::A8,
        (Color::Black, true) => Square::A1,
        (Color::Black, false) => Square::H1,
    }
}

/// A cheap superset of the moves that give check: the moved piece lands on a square from
/// which it attacks the enemy king (rays through the current occupancy), or leaves a square
/// on a line from that king (a discovered check, or its own ray opening), or the move is
/// castling or en passant.
struct Checks {
    from_lines: Bitboard,
    by_role: [Bitboard; 6],
}

impl Checks {
    fn new(pos: &Position) -> Checks {
        let them = !pos.turn();
        let king = pos.king_of(them);
        let occ = pos.board().occupied();
        let diagonal = attacks::bishop(king, occ);
        let straight = attacks::rook(king, occ);
        Checks {
            from_lines: diagonal | straight,
            by_role: [
                attacks::pawn(them, king),
                attacks::knight(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
        }
    }

    fn may_check(&self, pos: &Position, m: Move) -> bool {
        let role = match m.kind() {
            MoveKind::Normal => pos.board().role_at(m.from()).unwrap_or(Role::King),
            MoveKind::Promotion(role) => role,
            MoveKind::Castle | MoveKind::EnPassant => return true,
        };
        self.by_role[role.index()].contains(m.to()) || self.from_lines.contains(m.from())
    }
}

/// Chebyshev (king-step) distance.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// A 128-bit fingerprint of a position: its Zobrist key and an independent hash of the board,
/// side to move, castling rights and en passant square.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key(u64, u64);

impl Key {
    fn of(pos: &Position) -> Key {
        let b = pos.board();
        let mut h: u64 = 0x243f_6a88_85a3_08d3;
        let words = [
            b.by_color(Color::White).0,
            b.by_role(Role::Pawn).0,
            b.by_role(Role::Knight).0,
            b.by_role(Role::Bishop).0,
            b.by_role(Role::Rook).0,
            b.by_role(Role::Queen).0,
            b.by_role(Role::King).0,
            u64::from(pos.castling_rights().bits())
                | (pos.ep_square().map_or(64, |s| s as u64) << 8)
                | ((pos.turn().index() as u64) << 16),
        ];
        for w in words {
            h = (h ^ w).wrapping_mul(0x9fb2_1c65_1e98_df25);
            h ^= h >> 31;
        }
        Key(pos.zobrist(), h | 1)
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    check: u64,
    generation: u16,
    effort: i16,
    dead: bool,
}

/// Open-addressing transposition table, grown by doubling; `check == 0` marks an empty slot.
#[derive(Default)]
struct Table {
    slots: Vec<Slot>,
    used: usize,
}

impl Table {
    fn find(&self, key: Key) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = (key.0 as usize) & mask;
        loop {
            let s = &self.slots[i];
            if s.check == 0 {
                return None;
            }
            if s.key == key.0 && s.check == key.1 {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// `true` if `key` was proven dead, or expanded in this generation with at least `effort`.
    fn skips(&self, key: Key, generation: u16, effort: i32) -> bool {
        self.find(key).is_some_and(|i| {
            let s = &self.slots[i];
            s.dead || (s.generation == generation && i32::from(s.effort) >= effort)
        })
    }

    fn is_dead(&self, key: Key) -> bool {
        self.find(key).is_some_and(|i| self.slots[i].dead)
    }

    fn store(&mut self, key: Key, generation: u16, effort: i32, dead: bool) {
        if (self.used + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (key.0 as usize) & mask;
        loop {
            let s = &mut self.slots[i];
            if s.check == 0 {
                self.used += 1;
                break;
            }
            if s.key == key.0 && s.check == key.1 {
                break;
            }
            i = (i + 1) & mask;
        }
        let effort = effort.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let s = &mut self.slots[i];
        let dead = dead || (s.check != 0 && s.dead);
        *s = Slot { key: key.0, check: key.1, generation, effort, dead };
    }

    fn grow(&mut self) {
        let capacity = (self.slots.len() * 2).max(256);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); capacity]);
        self.used = 0;
        for s in old.into_iter().filter(|s| s.check != 0) {
            let mask = capacity - 1;
            let mut i = (s.key as usize) & mask;
            while self.slots[i].check != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
            self.used += 1;
        }
    }
}

/// Breadth-first closure: every position reachable from `pos`, each entered once, until a
/// mate by `winner` turns up ([`Found::Mate`], a shortest one), the set closes
/// ([`Found::NoMate`]) or more than `limit` positions are stored ([`Found::Unknown`]).
///
/// Unlike the depth-first searches, this has no depth limit at all, so it proves positions
/// whose lines never end but whose positions are few: kings shuffling behind locked pawns,
/// pieces entombed in a cluster. Positions where the winner lacks mating material are not
/// expanded, nor (with `static_prune`) positions after a capture or pawn move that
/// [`Reach`] proves dead; the soundness argument is that of the module documentation, with
/// "expanded" for "entered". Returns the result and the positions stored.
pub(super) fn closure(
    pos: &Position,
    winner: Color,
    limit: usize,
    static_prune: bool,
) -> (Found, u64) {
    let mut seen = Table::default();
    // (position, index of the parent, move from the parent)
    let mut queue: Vec<(Position, u32, Move)> =
        vec![(*pos, u32::MAX, Move::normal(Square::A1, Square::A1))];
    seen.store(Key::of(pos), 0, 0, false);
    let mut moves = MoveList::new();
    let mut next = 0;
    // Static analyses, charged against `limit` like stored positions.
    let mut spent = 0u64;
    while next < queue.len() {
        let (p, _, _) = queue[next];
        p.legal_moves_into(&mut moves);
        if moves.is_empty() {
            if p.is_check() && p.turn() != winner {
                let mut line = Vec::new();
                let mut i = next;
                while queue[i].1 != u32::MAX {
                    line.push(queue[i].2);
                    i = queue[i].1 as usize;
                }
                line.reverse();
                return (Found::Mate(line), queue.len() as u64 + spent);
            }
        } else if !p.has_insufficient_material(winner) {
            for &m in moves.iter() {
                let mut child = p;
                child.play_unchecked(m);
                let key = Key::of(&child);
                if seen.find(key).is_some() {
                    continue;
                }
                seen.store(key, 0, 0, false);
                let irreversible =
                    p.is_capture(m) || p.board().role_at(m.from()) == Some(Role::Pawn);
                if static_prune && irreversible {
                    spent += STATIC_COST;
                    if !Reach::of(&child).mate_conceivable(winner) {
                        continue;
                    }
                }
                if queue.len() as u64 + spent >= limit as u64 {
                    return (Found::Unknown, queue.len() as u64 + spent);
                }
                queue.push((child, next as u32, m));
            }
        }
        next += 1;
    }
    (Found::NoMate, queue.len() as u64 + spent)
}
