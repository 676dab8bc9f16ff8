//! Static evaluation: a tapered blend of middlegame and endgame terms (CPW "Tapered Eval"),
//! in centipawns from the side to move's point of view.
//!
//! Terms: material and piece-square tables, mobility (squares attacked that are neither our
//! own nor guarded by enemy pawns; CPW "Mobility"), pawn structure ([`crate::pawns`]), king
//! safety (attackers on the king zone, weighted by piece, scaled by their number, as in CPW
//! "King Safety" after Ed Schröder's attack tables; plus the pawn shield), the bishop pair,
//! rooks on open files, a tempo bonus, and endgame knowledge: a side without pawns needs
//! more than a minor piece to win, opposite bishops draw, and a lone king is driven to the
//! edge ("mop-up"). Every weight comes from [`Params`] (see [`crate::params`]);
//! [`evaluate_with`] also reports each term to a [`Tracer`], for the tuner
//! ([`crate::trace`]), at no cost to the search's [`NoTrace`].

use rookery_core::{attacks, Bitboard, Board, Color, Position, Role, Square};

use crate::params::{psqt_index, Params, Term, ACTIVE, PHASE_MAX, S};
use crate::pawns::{self, distance};
use crate::trace::{NoTrace, Tracer};

/// The evaluation of `pos` for the side to move, with the engine's parameters.
pub(crate) fn evaluate(pos: &Position) -> i32 {
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
    score += pawns::evaluate(board, kings, p, t);
    score += pieces(board, Color::White, kings, p, t) - pieces(board, Color::Black, kings, p, t);
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

/// Mobility, king attacks, the bishop pair and rook files of `color`'s pieces, plus the
/// shield of its own king.
#[inline(always)]
fn pieces<T: Tracer>(board: &Board, color: Color, kings: [Square; 2], p: &Params, t: &mut T) -> S {
    let us = board.by_color(color);
    let them = !color;
    let occupied = board.occupied();
    let their_pawns = board.by_piece(Role::Pawn.of(them));
    let our_pawns = board.by_piece(Role::Pawn.of(color));
    let area = !us & !pawn_attacks(their_pawns, them);
    let their_king = kings[them.index()];
    let zone = attacks::king(their_king).with(their_king);
    let mut score = S(0, 0);
    let mut attackers = 0;
    let mut attack_weight = 0;
    let mut attackers_by_role = [0; 6];
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.by_piece(role.of(color)) {
            let reach = match role {
                Role::Knight => attacks::knight(sq),
                Role::Bishop => attacks::bishop(sq, occupied),
                Role::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            };
            let mobility = (reach & area).count() as i32 - p.mobility_typical[role.index()];
            score += p.mobility[role.index()] * mobility;
            t.add(color, Term::Mobility(role), mobility);
            if (reach & zone).any() {
                attackers += 1;
                attack_weight += p.king_attack[role.index()];
                if T::ENABLED {
                    attackers_by_role[role.index()] += 1;
                }
            }
            if role == Role::Rook {
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
        }
    }
    if board.by_piece(Role::Bishop.of(color)).more_than_one() {
        score += p.bishop_pair;
        t.add(color, Term::BishopPair, 1);
    }
    let percent = p.king_attack_scale[attackers.min(7)];
    let mut danger = attack_weight * percent / 100;
    let no_queen = board.by_piece(Role::Queen.of(color)).is_empty();
    if no_queen {
        danger /= 2;
    }
    if T::ENABLED {
        let share = f64::from(percent) / if no_queen { 200.0 } else { 100.0 };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let n = attackers_by_role[role.index()];
            if n > 0 {
                t.add_mg(color, Term::KingAttack(role), f64::from(n) * share);
            }
        }
    }
    score.0 += danger;
    score += pawns::shield(board, color, kings[color.index()], p, t);
    score
}

/// The squares the pawns `pawns` of `color` attack.
fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p << 7) & NOT_H) | ((p << 9) & NOT_A),
        Color::Black => ((p >> 9) & NOT_H) | ((p >> 7) & NOT_A),
    })
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
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&fen.parse::<Position>().unwrap())
    }

    #[test]
    fn pawn_attacks_agree_with_the_tables() {
        let pos: Position = "4k3/pp4pp/2p5/8/4P3/P6P/1P4P1/4K3 w - - 0 1".parse().unwrap();
        for color in [Color::White, Color::Black] {
            let pawns = pos.board().by_piece(Role::Pawn.of(color));
            let mut expected = Bitboard::EMPTY;
            for sq in pawns {
                expected |= attacks::pawn(color, sq);
            }
            assert_eq!(pawn_attacks(pawns, color), expected, "{color}");
        }
    }

    #[test]
    fn start_is_balanced() {
        let start = evaluate(&Position::new());
        assert_eq!(start, ACTIVE.tempo);
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            ("8/5k2/8/3P4/8/8/2K5/8 w - - 0 1", "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1"),
        ];
        for (white, black) in pairs {
            assert_eq!(eval(white), eval(black), "{white} / {black}");
        }
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
