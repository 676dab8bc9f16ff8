//! Dead positions and unwinnability: can a side still give checkmate by any series of legal
//! moves, both sides cooperating?
//!
//! Two rules need the answer. RULES.md §6.2: a position where *neither* side can checkmate is
//! dead and the game is drawn at once ([`is_dead`], after every move). RULES.md §5: a player
//! whose flag falls loses, unless the opponent could not checkmate by any series of legal
//! moves ([`can_ever_mate`], once, at the flag). Insufficient material is only the easy part
//! of both; fully blocked pawn chains, bishops locked on the wrong colour and forced lines
//! into bare kings are dead too.
//!
//! The method follows M. Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022
//! (LIPIcs 226, 2:1–2:20, doi:10.4230/LIPIcs.FUN.2022.2), in our own formulation:
//! 1. the game is already over, or the winner lacks mating material
//!    ([`Position::has_insufficient_material`], the FIDE material rule);
//! 2. static reachability (`reach.rs`): what each man could ever reach, which men are steady
//!    for good, and whether the loser's king could ever stand in a mating net;
//! 3. a short helpmate search ([`winnability`] only; before step 2 unless a pawn lock makes a
//!    dead position plausible): most positions are winnable, and a mate turns up within a few
//!    dozen nodes;
//! 4. exhaustive searches that prove "no mate" when every line ends (forced captures into
//!    bare kings) or when the reachable positions are few (kings shuffling behind locked
//!    pawns, pieces entombed), pruned by step 2 — after every move only when the position is
//!    narrow or cramped, so that a move is never slowed noticeably;
//! 5. the full helpmate search, bounded by a node [`Budget`].
//!
//! Soundness comes first: [`Winnability::Winnable`] is only ever returned with a helpmate
//! that was actually played out, and [`Winnability::Unwinnable`] only with a proof (steps 1,
//! 2 and 4, each justified where it is implemented). Anything else is
//! [`Winnability::Undetermined`], which every caller treats as winnable: a dead position may
//! then go unnoticed, but a live one is never called dead. `tests/dead.rs` checks this against
//! Ambrona's own implementation, the `chasolver` crate.

mod reach;
mod search;

use rookery_core::{Color, GameResult, Move, Position, Role};

use reach::Reach;
use search::{Found, Limits, Mode};

/// Whether one side can still checkmate the other by some series of legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winnability {
    /// A mating sequence exists; it was found and played out.
    Winnable,
    /// Proven: no series of legal moves ends with this side giving checkmate.
    Unwinnable,
    /// The budget ran out first. Callers must treat it as winnable.
    Undetermined,
}

impl Winnability {
    /// `true` only for a proven [`Winnability::Unwinnable`].
    pub const fn is_unwinnable(self) -> bool {
        matches!(self, Winnability::Unwinnable)
    }

    /// The lowercase name, as in the test data (`winnable`, `unwinnable`, `undetermined`).
    pub const fn name(self) -> &'static str {
        match self {
            Winnability::Winnable => "winnable",
            Winnability::Unwinnable => "unwinnable",
            Winnability::Undetermined => "undetermined",
        }
    }
}

/// How an [`Analysis`] reached its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The position is already checkmate or stalemate.
    GameOver,
    /// The winner lacks mating material (FIDE material rule).
    Material,
    /// Static reachability: the loser's king can never stand in a mating net.
    Blockade,
    /// Search: a helpmate was found, or every line was exhausted without one.
    Search,
    /// The budget ran out ([`Winnability::Undetermined`]).
    Budget,
}

/// Work allowed for one analysis, in search nodes (positions entered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    nodes: u64,
    /// Always run the exhaustive proof search, not only in narrow positions.
    thorough: bool,
}

impl Budget {
    /// For [`is_dead`] after every move: static tests, plus small proof searches only when
    /// the position is narrow (few legal moves) or cramped (a pawn lock and a side that can
    /// hardly move), so that a move is never slowed noticeably.
    pub const PER_MOVE: Budget = Budget { nodes: 1_200, thorough: false };

    /// For a flag fall ([`can_ever_mate`]), once per game: every method, up to a million
    /// nodes (a proof attempt stays well under a second; a full [`analyse`] that hunts a
    /// helpmate in vain takes about that long).
    pub const TIMEOUT: Budget = Budget { nodes: 1_000_000, thorough: true };

    /// A budget of `nodes` search nodes, running every method.
    pub const fn nodes(nodes: u64) -> Budget {
        Budget { nodes, thorough: true }
    }

    /// The node limit.
    pub const fn node_limit(self) -> u64 {
        self.nodes
    }
}

impl Default for Budget {
    /// [`Budget::TIMEOUT`].
    fn default() -> Budget {
        Budget::TIMEOUT
    }
}

/// The full result of [`analyse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The verdict.
    pub winnability: Winnability,
    /// How it was reached.
    pub method: Method,
    /// For [`Winnability::Winnable`]: a helpmate from the position, ending in checkmate by the
    /// winner (empty if the position is already checkmate).
    pub helpmate: Vec<Move>,
    /// Search nodes spent (positions entered, including static analyses inside the search).
    pub nodes: u64,
}

impl Analysis {
    fn proven(winnability: Winnability, method: Method, nodes: u64) -> Analysis {
        Analysis { winnability, method, helpmate: Vec::new(), nodes }
    }
}

/// Positions entered by the short helpmate search that [`winnability`] tries first.
const QUICK_NODES: u64 = 400;
/// Legal moves under which forced lines are searched with [`Budget::PER_MOVE`].
const NARROW: u64 = 4;
/// Positions the closure may store for a thorough budget when the position is not cramped.
const OPEN_CLOSURE: u64 = 3_000;
/// With a pawn lock, the smaller mobility of the two sides under which the closure is run
/// with [`Budget::PER_MOVE`].
const CRAMPED: u64 = 4;

/// Can `winner` ever checkmate from `pos` by some series of legal moves, both sides
/// cooperating? Never [`Winnability::Unwinnable`] for a winnable position.
pub fn winnability(pos: &Position, winner: Color, budget: &Budget) -> Winnability {
    analyse(pos, winner, budget).winnability
}

/// [`winnability`] with the helpmate found, the method and the nodes spent.
pub fn analyse(pos: &Position, winner: Color, budget: &Budget) -> Analysis {
    if let Some(done) = settled(pos, winner) {
        return done;
    }
    // With a pawn lock the position may well be dead: static analysis first. Otherwise a
    // helpmate is usually a few dozen nodes away: search first.
    let mut reach = None;
    if pawn_lock(pos) {
        let r = reach.insert(Reach::of(pos));
        if !r.mate_conceivable(winner) {
            return Analysis::proven(Winnability::Unwinnable, Method::Blockade, 0);
        }
    }
    let quick = Limits {
        nodes: QUICK_NODES.min(budget.nodes),
        per_effort: QUICK_NODES / 2,
        max_effort: 2,
        static_prune: false,
    };
    let (found, mut nodes) = search::run(pos, winner, Mode::Find, quick);
    match found {
        Found::Mate(line) => return winnable(line, nodes),
        Found::NoMate => return Analysis::proven(Winnability::Unwinnable, Method::Search, nodes),
        Found::Unknown => {}
    }
    let reach = match reach {
        Some(r) => r,
        None => {
            let r = Reach::of(pos);
            if !r.mate_conceivable(winner) {
                return Analysis::proven(Winnability::Unwinnable, Method::Blockade, nodes);
            }
            r
        }
    };
    let left = Budget { nodes: budget.nodes.saturating_sub(nodes), thorough: budget.thorough };
    let (proof, spent) = prove(pos, winner, &reach, &left);
    nodes += spent;
    if proof {
        return Analysis::proven(Winnability::Unwinnable, Method::Search, nodes);
    }
    let full = Limits {
        nodes: budget.nodes.saturating_sub(nodes),
        per_effort: 7_000,
        max_effort: 120,
        static_prune: !reach.is_open(),
    };
    let (found, spent) = search::run(pos, winner, Mode::Find, full);
    nodes += spent;
    match found {
        Found::Mate(line) => winnable(line, nodes),
        Found::NoMate => Analysis::proven(Winnability::Unwinnable, Method::Search, nodes),
        Found::Unknown => Analysis::proven(Winnability::Undetermined, Method::Budget, nodes),
    }
}

/// `true` if `color` could checkmate from `pos` by some series of legal moves (RULES.md §5:
/// when the opponent's flag falls and this is `false`, the game is drawn; likewise FIDE 5.1.2
/// for a resignation under rule set `fide`). Sound: `false` only with a proof; an
/// undetermined case counts as `true`. Uses [`Budget::TIMEOUT`].
pub fn can_ever_mate(pos: &Position, color: Color) -> bool {
    !proven_unwinnable(pos, color, None, &Budget::TIMEOUT)
}

/// `true` if neither side can checkmate by any series of legal moves: a dead position, drawn
/// at once (RULES.md §6.2). Sound: `true` only with a proof for both sides. Uses
/// [`Budget::PER_MOVE`]; a checkmate on the board is not dead, a stalemate is.
pub fn is_dead(pos: &Position) -> bool {
    is_dead_with(pos, &Budget::PER_MOVE)
}

/// [`is_dead`] with an explicit budget.
pub fn is_dead_with(pos: &Position, budget: &Budget) -> bool {
    if pos.is_insufficient_material() {
        return true;
    }
    let mut reach = None;
    Color::ALL.into_iter().all(|color| proven_unwinnable(pos, color, Some(&mut reach), budget))
}

/// Proof-only pipeline (no helpmate hunting): game over, material, static reachability, then
/// the exhaustive searches when the budget allows them. `cache` shares one [`Reach`] between
/// both colours of [`is_dead_with`].
fn proven_unwinnable(
    pos: &Position,
    winner: Color,
    cache: Option<&mut Option<Reach>>,
    budget: &Budget,
) -> bool {
    if let Some(done) = settled(pos, winner) {
        return done.winnability.is_unwinnable();
    }
    let mut local = None;
    let slot = cache.unwrap_or(&mut local);
    let reach = slot.get_or_insert_with(|| Reach::of(pos));
    if !reach.mate_conceivable(winner) {
        return true;
    }
    prove(pos, winner, reach, budget).0
}

/// How much exhaustive search a position deserves: forced lines are worth a look when the
/// side to move has few moves; the closure when, behind a pawn lock, one side can hardly
/// move (kings shuffling, pieces entombed). Wide positions get neither with
/// [`Budget::PER_MOVE`], so a move is never slowed by a search that cannot succeed.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    narrow: bool,
    cramped: bool,
}

impl Shape {
    fn of(pos: &Position) -> Shape {
        let moves = pos.count_legal_moves();
        let narrow = moves <= NARROW;
        let cramped = pawn_lock(pos)
            && (moves <= CRAMPED || {
                let mut other = *pos;
                if !pos.is_check() {
                    other.play_null();
                }
                other.count_legal_moves() <= CRAMPED
            });
        Shape { narrow, cramped }
    }
}

/// `true` if some white pawn stands right behind a black one.
fn pawn_lock(pos: &Position) -> bool {
    let b = pos.board();
    let white_pawns = (b.by_role(Role::Pawn) & b.by_color(Color::White)).0;
    let black_pawns = (b.by_role(Role::Pawn) & b.by_color(Color::Black)).0;
    (white_pawns << 8) & black_pawns != 0
}

/// The exhaustive searches: a cheap, fail-fast deepening (forced lines), then the
/// breadth-first closure (few positions), each pruned by static analysis unless the position
/// is wide open. A thorough budget always runs both (the closure storing a twentieth of the
/// budget in a cramped position, a few thousand positions otherwise); [`Budget::PER_MOVE`]
/// only as [`Shape`] allows. Returns (proven, nodes).
fn prove(pos: &Position, winner: Color, reach: &Reach, budget: &Budget) -> (bool, u64) {
    let shape = Shape::of(pos);
    if !budget.thorough && !shape.narrow && !shape.cramped {
        return (false, 0);
    }
    let fast = Limits {
        nodes: budget.nodes.min(if budget.thorough { 1_000 } else { 300 }),
        per_effort: u64::MAX,
        max_effort: if budget.thorough { 16 } else { 8 },
        static_prune: !reach.is_open(),
    };
    let (found, mut spent) = search::run(pos, winner, Mode::Prove, fast);
    if found == Found::NoMate {
        return (true, spent);
    }
    let limit = match (budget.thorough, shape.cramped) {
        (true, true) => budget.nodes / 20,
        (true, false) => budget.nodes.min(OPEN_CLOSURE),
        (false, true) => budget.nodes.saturating_sub(spent),
        (false, false) => return (false, spent),
    };
    let (found, more) = search::closure(pos, winner, limit as usize, true);
    spent += more;
    (found == Found::NoMate, spent)
}

/// Verdicts that need no search: the game is over, or the winner lacks mating material.
fn settled(pos: &Position, winner: Color) -> Option<Analysis> {
    match pos.result() {
        Some(GameResult::Win(w)) => {
            let verdict = if w == winner { Winnability::Winnable } else { Winnability::Unwinnable };
            return Some(Analysis::proven(verdict, Method::GameOver, 0));
        }
        // Stalemate: a draw (§6.4).
        Some(_) => {
            return Some(Analysis::proven(Winnability::Unwinnable, Method::GameOver, 0));
        }
        None => {}
    }
    if pos.has_insufficient_material(winner) {
        return Some(Analysis::proven(Winnability::Unwinnable, Method::Material, 0));
    }
    None
}

fn winnable(line: Vec<Move>, nodes: u64) -> Analysis {
    Analysis { winnability: Winnability::Winnable, method: Method::Search, helpmate: line, nodes }
}
