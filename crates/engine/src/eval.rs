//! Static evaluation: a tapered blend of middlegame and endgame terms (CPW "Tapered Eval"),
//! in centipawns from the side to move's point of view.
//!
//! Terms: material and piece-square tables, mobility (squares attacked that are neither our
//! own nor guarded by enemy pawns; CPW "Mobility"), pawn structure ([`crate::pawns`]), king
//! safety (attackers on the king zone, weighted by piece, with the safe checks and weak zone
//! squares, scaled by the number of attackers, as in CPW "King Safety" after Ed Schröder's
//! attack tables; plus the pawn shield), threats ([`crate::threats`]), knight and bishop
//! outposts, the bishop pair, rooks on open files, a tempo bonus, and endgame knowledge: a side without pawns needs
//! more than a minor piece to win, opposite bishops draw, and a lone king is driven to the
//! edge ("mop-up"). Every weight comes from [`Params`] (see [`crate::params`]);
//! [`evaluate_with`] also reports each term to a [`Tracer`], for the tuner
//! ([`crate::trace`]), at no cost to the search's [`NoTrace`].

use rookery_core::{attacks, Bitboard, Board, Color, Position, Role, Square};

use crate::params::{psqt_index, Params, Term, ACTIVE, PHASE_MAX, S};
use crate::pawns::{self, distance};
use crate::threats::{threats, Attacks};
use crate::tracer::{NoTrace, Tracer};

/// The hand-written evaluation of `pos` for the side to move, with the engine's parameters.
pub(crate) fn classical(pos: &Position) -> i32 {
    evaluate_with(pos, &ACTIVE, &mut NoTrace)
}

/// The evaluation of `pos` for the side to move with `p`, reporting its terms to `t`.
#[inline(always)]
pub(crate) fn evaluate_with<T: Tracer>(pos: &Position, p: &Params, t: &mut T) -> i32 {
    let board = pos.board();
    let kings = [pos.king_of(Color::White), pos.king_of(Color::Black)];
    let mut score = S(0, 0);
    let mut phase = 0;
    for color in [Color::White, Color::Black] {
        let mut side = S(0, 0);
        for role in Role::ALL {
            let pieces = board.by_piece(role.of(color));
            let n = pieces.count() as i32;
            phase += p.phase[role.index()] * n;
            let material = p.material[role.index()];
            let table = &p.psqt[role.index()];
            for sq in pieces {
                let i = psqt_index(color == Color::White, sq);
                side += material + table[i];
                t.add(color, Term::Psqt(role, i), 1);
            }
            if T::ENABLED && n > 0 {
                t.add(color, Term::Material(role), n);
            }
        }
        score += if color == Color::White { side } else { -side };
    }
    let mut white = Attacks::new(board, Color::White, kings[0]);
    let mut black = Attacks::new(board, Color::Black, kings[1]);
    let pawn_reach = [white.by_role[Role::Pawn.index()], black.by_role[Role::Pawn.index()]];
    let (white_pieces, white_attack) =
        pieces(board, Color::White, kings, pawn_reach, &mut white, p, t);
    let (black_pieces, black_attack) =
        pieces(board, Color::Black, kings, pawn_reach, &mut black, p, t);
    score += white_pieces - black_pieces;
    score += pawns::evaluate(board, kings, [white.all, black.all], p, t);
    score += threats(board, Color::White, &white, &black, p, t)
        - threats(board, Color::Black, &black, &white, p, t);
    let white_danger = king_danger(board, Color::White, kings, &white, &black, &white_attack, p, t);
    let black_danger = king_danger(board, Color::Black, kings, &black, &white, &black_attack, p, t);
    score.0 += white_danger - black_danger;
    let phase = phase.min(PHASE_MAX);
    let scale = endgame_scale(board, score.1, p);
    let eg = if scale == 8 { score.1 } else { score.1 * scale / 8 };
    let mut value = (score.0 * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let mop_up = mop_up(board, kings, value, p);
    value += mop_up;
    if T::ENABLED {
        let tempo = if pos.turn() == Color::White { p.tempo } else { -p.tempo };
        t.taper(phase, scale, mop_up + tempo);
    }
    let value = if pos.turn() == Color::White { value } else { -value };
    value + p.tempo
}

/// The pieces of one side that reach the enemy king's zone, gathered with mobility and
/// weighed by [`king_danger`] once the other side's attacks are known too.
#[derive(Clone, Copy, Debug, Default)]
struct KingAttack {
    /// The enemy king's zone: its square and the squares next to it.
    zone: Bitboard,
    /// Pieces that attack a square of the zone.
    attackers: usize,
    /// Their [`Params::king_attack`] weights, summed.
    weight: i32,
    /// Their number by role, for the trace only.
    by_role: [i32; 6],
}

/// Mobility, outposts, the bishop pair and rook files of `color`'s pieces, plus the shield of
/// its own king; adds the pieces' attacks to `ours` and returns, with the score, the
/// attackers of the enemy king. `pawn_reach` holds the squares each side's pawns attack.
#[inline(always)]
fn pieces<T: Tracer>(
    board: &Board,
    color: Color,
    kings: [Square; 2],
    pawn_reach: [Bitboard; 2],
    ours: &mut Attacks,
    p: &Params,
    t: &mut T,
) -> (S, KingAttack) {
    let us = board.by_color(color);
    let them = !color;
    let occupied = board.occupied();
    let their_pawns = board.by_piece(Role::Pawn.of(them));
    let our_pawns = board.by_piece(Role::Pawn.of(color));
    let area = !us & !pawn_reach[them.index()];
    let their_king = kings[them.index()];
    let zone = attacks::king(their_king).with(their_king);
    // Squares on the fourth to sixth rank that our pawns defend: outposts, if no enemy pawn
    // can come to attack them.
    let outpost_ranks = match color {
        Color::White => Bitboard(0x0000_ffff_ff00_0000),
        Color::Black => Bitboard(0x0000_00ff_ffff_0000),
    };
    let supported = outpost_ranks & pawn_reach[color.index()];
    let mut score = S(0, 0);
    let mut attack = KingAttack { zone, ..KingAttack::default() };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.by_piece(role.of(color)) {
            let reach = match role {
                Role::Knight => attacks::knight(sq),
                Role::Bishop => attacks::bishop(sq, occupied),
                Role::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            };
            ours.add(role, reach);
            let mobility = (reach & area).count() as usize;
            score += p.mobility[role.index()][mobility];
            t.add(color, Term::Mobility(role, mobility), 1);
            if (reach & zone).any() {
                attack.attackers += 1;
                attack.weight += p.king_attack[role.index()];
                if T::ENABLED {
                    attack.by_role[role.index()] += 1;
                }
            }
            if matches!(role, Role::Knight | Role::Bishop) {
                minor(board, color, sq, role, kings[color.index()], our_pawns, p, t, &mut score);
            }
            match role {
                Role::Knight | Role::Bishop
                    if supported.contains(sq)
                        && (pawns::attack_span(color, sq) & their_pawns).is_empty() =>
                {
                    if role == Role::Knight {
                        score += p.knight_outpost;
                        t.add(color, Term::KnightOutpost, 1);
                    } else {
                        score += p.bishop_outpost;
                        t.add(color, Term::BishopOutpost, 1);
                    }
                }
                Role::Rook => {
                    let file = Bitboard::from_file(sq.file());
                    if (file & our_pawns).is_empty() {
                        if (file & their_pawns).is_empty() {
                            score += p.rook_open_file;
                            t.add(color, Term::RookOpenFile, 1);
                        } else {
                            score += p.rook_semi_open_file;
                            t.add(color, Term::RookSemiOpenFile, 1);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if board.by_piece(Role::Bishop.of(color)).more_than_one() {
        score += p.bishop_pair;
        t.add(color, Term::BishopPair, 1);
    }
    score += pawns::shield(board, color, kings[color.index()], p, t);
    (score, attack)
}

/// The terms of a knight or bishop on `sq` beside mobility and outposts: a pawn right in
/// front of it, its distance from its own `king`, and for a bishop its own pawns on its colour.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn minor<T: Tracer>(
    board: &Board,
    color: Color,
    sq: Square,
    role: Role,
    king: Square,
    our_pawns: Bitboard,
    p: &Params,
    t: &mut T,
    score: &mut S,
) {
    let forward = if color == Color::White { 1 } else { -1 };
    if sq.offset(0, forward).is_some_and(|front| board.by_role(Role::Pawn).contains(front)) {
        *score += p.minor_behind_pawn;
        t.add(color, Term::MinorBehindPawn, 1);
    }
    let steps = distance(sq, king);
    *score += p.king_protector * steps;
    t.add(color, Term::KingProtector, steps);
    if role == Role::Bishop {
        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
            Bitboard::LIGHT_SQUARES
        } else {
            !Bitboard::LIGHT_SQUARES
        };
        let n = (our_pawns & colour).count() as i32;
        *score += p.bishop_pawns * n;
        t.add(color, Term::BishopPawns, n);
    }
}

/// The middlegame danger that `color`, whose attacks are `ours`, poses to the enemy king,
/// whose side's attacks are `theirs`: the weights of the `attack`ers, of the safe checks
/// and of the weak squares of the king's zone, scaled by the number of attackers and halved
/// without a queen (CPW "King Safety"; the safe checks and weak squares after Stockfish
/// 11's classical `kingDanger`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn king_danger<T: Tracer>(
    board: &Board,
    color: Color,
    kings: [Square; 2],
    ours: &Attacks,
    theirs: &Attacks,
    attack: &KingAttack,
    p: &Params,
    t: &mut T,
) -> i32 {
    let percent = p.king_attack_scale[attack.attackers.min(7)];
    if percent == 0 {
        return 0;
    }
    let king = kings[(!color).index()];
    let zone = attack.zone;
    let occupied = board.occupied();
    // Squares we attack that the defender guards at most once, with king or queen only.
    let weak = ours.all
        & !theirs.twice
        & (!theirs.all | theirs.by_role[Role::King.index()] | theirs.by_role[Role::Queen.index()]);
    let safe = !board.by_color(color) & (!theirs.all | (weak & ours.twice));
    let straight = attacks::rook(king, occupied);
    let diagonal = attacks::bishop(king, occupied);
    let rook_checks = straight & ours.by_role[Role::Rook.index()] & safe;
    let queen_checks =
        (straight | diagonal) & ours.by_role[Role::Queen.index()] & safe & !rook_checks;
    let bishop_checks = diagonal & ours.by_role[Role::Bishop.index()] & safe & !queen_checks;
    let knight_checks = attacks::knight(king) & ours.by_role[Role::Knight.index()] & safe;
    let checks = [
        (Role::Knight, knight_checks),
        (Role::Bishop, bishop_checks),
        (Role::Rook, rook_checks),
        (Role::Queen, queen_checks),
    ];
    let weak_zone = (zone & weak).count() as i32;
    let mut weight = attack.weight + p.king_zone_weak * weak_zone;
    for (role, squares) in checks {
        if squares.any() {
            weight += p.safe_check[role.index()];
        }
    }
    let mut danger = weight * percent / 100;
    let no_queen = board.by_piece(Role::Queen.of(color)).is_empty();
    if no_queen {
        danger /= 2;
    }
    if T::ENABLED {
        let share = f64::from(percent) / if no_queen { 200.0 } else { 100.0 };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let n = attack.by_role[role.index()];
            if n > 0 {
                t.add_mg(color, Term::KingAttack(role), f64::from(n) * share);
            }
        }
        for (role, squares) in checks {
            if squares.any() {
                t.add_mg(color, Term::SafeCheck(role), share);
            }
        }
        if weak_zone > 0 {
            t.add_mg(color, Term::KingZoneWeak, f64::from(weak_zone) * share);
        }
    }
    danger
}

/// Non-pawn material of `color`, in endgame values.
fn non_pawn_material(board: &Board, color: Color, p: &Params) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&role| board.by_piece(role.of(color)).count() as i32 * p.material[role.index()].1)
        .sum()
}

/// The scale of the endgame value `eg`, in eighths, for draws that material alone does not
/// see.
fn endgame_scale(board: &Board, eg: i32, p: &Params) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if board.by_piece(Role::Pawn.of(strong)).is_empty()
        && non_pawn_material(board, strong, p) - non_pawn_material(board, weak, p) < p.winning_edge
    {
        return p.scale_pawnless;
    }
    let bishops = board.by_role(Role::Bishop);
    let only_bishops =
        (board.by_role(Role::Knight) | board.by_role(Role::Rook) | board.by_role(Role::Queen))
            .is_empty();
    let white_bishop = board.by_piece(Role::Bishop.of(Color::White));
    let black_bishop = board.by_piece(Role::Bishop.of(Color::Black));
    if only_bishops
        && white_bishop.count() == 1
        && black_bishop.count() == 1
        && ((bishops & Bitboard::LIGHT_SQUARES).count() == 1)
    {
        return p.scale_opposite_bishops;
    }
    8
}

/// Drives a bare king to the edge and brings the other king closer, so that shallow
/// searches find the mate with queen or rook (CPW "Mop-up Evaluation").
fn mop_up(board: &Board, kings: [Square; 2], value: i32, p: &Params) -> i32 {
    let strong = if value > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if board.by_color(weak).more_than_one() || non_pawn_material(board, strong, p) < p.winning_edge
    {
        return 0;
    }
    let weak_king = kings[weak.index()];
    let file = weak_king.file() as i32;
    let rank = weak_king.rank() as i32;
    let from_centre = (2 * file - 7).abs() / 2 + (2 * rank - 7).abs() / 2;
    let closeness = 7 - distance(kings[0], kings[1]);
    let bonus = p.mop_up_edge * from_centre + p.mop_up_closeness * closeness;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        classical(&fen.parse::<Position>().unwrap())
    }

    #[test]
    fn start_is_balanced() {
        let start = classical(&Position::new());
        assert_eq!(start, ACTIVE.tempo);
    }

    /// Positions and their mirror images: colours swapped, the board turned over. Every
    /// evaluation must score each pair alike.
    pub(crate) const MIRRORED: [(&str, &str); 4] = [
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        ),
        ("8/5k2/8/3P4/8/8/2K5/8 w - - 0 1", "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1"),
        // Threats, safe checks, outposts and passed pawns' roads on both sides.
        (
            "r4rk1/pp3ppp/2n1b3/3qN2Q/3P4/2PB4/P4PPP/R4RK1 w - - 0 1",
            "r4rk1/p4ppp/2pb4/3p4/3Qn2q/2N1B3/PP3PPP/R4RK1 b - - 0 1",
        ),
        (
            "6k1/1P3ppp/8/3n4/2B5/8/5PPP/2R3K1 b - - 0 1",
            "2r3k1/5ppp/8/2b5/3N4/8/1p3PPP/6K1 w - - 0 1",
        ),
    ];

    #[test]
    fn mirrored_positions_evaluate_alike() {
        for (white, black) in MIRRORED {
            assert_eq!(eval(white), eval(black), "{white} / {black}");
        }
    }

    /// White's coefficient of `term` minus Black's in the evaluation of `fen`.
    fn coefficient(fen: &str, term: Term) -> f64 {
        let pos: Position = fen.parse().unwrap();
        crate::trace::trace(&pos, &ACTIVE).0.mg[term.index()]
    }

    #[test]
    fn a_piece_attacked_by_a_pawn_is_worse_off() {
        // The knight on e5, attacked by d4 and then not (d3): the pawn's square is worth less
        // than the threat.
        let attacked = eval("4k3/pp6/8/4n3/3P4/8/PP6/4K3 b - - 0 1");
        let quiet = eval("4k3/pp6/8/4n3/8/3P4/PP6/4K3 b - - 0 1");
        assert!(quiet - attacked > 30, "{attacked} {quiet}");
    }

    #[test]
    fn pawn_storms_are_counted_by_the_nearest_enemy_pawn() {
        // White's king on g1: nothing on f and g, h4 three ranks up the h-file. Black's king
        // on g8 sees f2 and g2 on its sixth rank from its side, nothing on h.
        let fen = "6k1/8/8/8/7p/8/5PP1/6K1 w - - 0 1";
        assert_eq!(coefficient(fen, Term::Storm(0)), 2.0 - 1.0);
        assert_eq!(coefficient(fen, Term::Storm(3)), 1.0);
        assert_eq!(coefficient(fen, Term::Storm(6)), -2.0);
        // h3 blocks h4; Black's king on a8 has no pawn before it.
        let blocked = "k7/8/8/8/7p/7P/5PP1/6K1 w - - 0 1";
        assert_eq!(coefficient(blocked, Term::StormBlocked), 1.0);
        assert_eq!(coefficient(blocked, Term::Storm(3)), 0.0);
    }

    #[test]
    fn minor_pieces_see_pawns_and_their_king() {
        // The knight on d3, behind d4 and two steps from its king.
        let knight = "4k3/8/8/8/3P4/3N4/8/4K3 w - - 0 1";
        assert_eq!(coefficient(knight, Term::MinorBehindPawn), 1.0);
        assert_eq!(coefficient(knight, Term::KingProtector), 2.0);
        // The dark-squared bishop on c1 with b2, d2 and e3 on its colour, a2 not.
        let bishop = "4k3/8/8/8/8/4P3/PP1P4/2B1K3 w - - 0 1";
        assert_eq!(coefficient(bishop, Term::BishopPawns), 3.0);
        assert_eq!(coefficient(bishop, Term::MinorBehindPawn), 0.0);
    }

    #[test]
    fn safe_checks_join_the_king_attack() {
        // Queen and bishop aim at h7: Qxh7+ is a check the king alone cannot answer.
        let fen = "6k1/5ppp/8/7Q/8/3B4/8/6K1 b - - 0 1";
        assert!(coefficient(fen, Term::SafeCheck(Role::Queen)) > 0.0);
        assert!(coefficient(fen, Term::KingZoneWeak) > 0.0);
        // A knight covering h7 makes the check unsafe.
        let covered = "6k1/5ppp/5n2/7Q/8/3B4/8/6K1 b - - 0 1";
        assert_eq!(coefficient(covered, Term::SafeCheck(Role::Queen)), 0.0);
        // Ne4-f6+, unguarded without the g7 pawn.
        assert!(
            coefficient("6k1/5p1p/8/6NQ/4N3/8/8/6K1 b - - 0 1", Term::SafeCheck(Role::Knight))
                > 0.0
        );
        assert_eq!(
            coefficient("6k1/5ppp/8/6NQ/4N3/8/8/6K1 b - - 0 1", Term::SafeCheck(Role::Knight)),
            0.0
        );
    }

    #[test]
    fn outposts() {
        // The knight on e5, defended by d4, where no black pawn can come to attack it; with a
        // black pawn on f7 it is no outpost.
        assert_eq!(coefficient("4k3/p7/8/4N3/3P4/8/8/4K3 w - - 0 1", Term::KnightOutpost), 1.0);
        assert_eq!(coefficient("4k3/p4p2/8/4N3/3P4/8/8/4K3 w - - 0 1", Term::KnightOutpost), 0.0);
        assert_eq!(coefficient("4k3/8/8/5p2/4b3/8/8/4K3 w - - 0 1", Term::BishopOutpost), -1.0);
    }

    #[test]
    fn material_counts() {
        // Up a knight.
        assert!(eval("4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 w - - 0 1") > 250);
        // Down a queen, from the side to move's point of view.
        assert!(eval("3qk3/8/8/8/8/8/8/4K3 w - - 0 1") < -800);
        // A lone knight cannot win.
        assert!(eval("8/8/4k3/8/8/8/8/1N2K3 w - - 0 1").abs() < 60);
        // King and rook against king: a win, and better with the king on the edge.
        let centre = eval("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        let edge = eval("3k4/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(centre > 400 && edge > centre, "{centre} {edge}");
    }
}
