//! Static evaluation: a tapered blend of middlegame and endgame terms (CPW "Tapered Eval"),
//! in centipawns from the side to move's point of view.
//!
//! Terms: material and piece-square tables ([`crate::psqt`]), mobility (squares attacked
//! that are neither our own nor guarded by enemy pawns; CPW "Mobility"), pawn structure
//! ([`crate::pawns`]), king safety (attackers on the king zone, weighted by piece, scaled by
//! their number, as in CPW "King Safety" after Ed Schröder's attack tables; plus the pawn
//! shield), the bishop pair, rooks on open files, a tempo bonus, and endgame knowledge: a
//! side without pawns needs more than a minor piece to win, opposite bishops draw, and a
//! lone king is driven to the edge ("mop-up").

use rookery_core::{attacks, Bitboard, Board, Color, Position, Role, Square};

use crate::pawns::{self, distance};
use crate::psqt::{psqt, S};

/// The game phase of the starting material: knights and bishops 1, rooks 2, queens 4.
const PHASE_MAX: i32 = 24;
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Mobility per attacked square, around a typical count, by role.
const MOBILITY: [(S, i32); 6] =
    [(S(0, 0), 0), (S(4, 4), 4), (S(5, 5), 6), (S(2, 4), 6), (S(1, 2), 12), (S(0, 0), 0)];

/// Weight of an attacker of the king zone, by role.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 20, 20, 40, 80, 0];
/// Share of the attack weight that counts, in percent, by number of attackers.
const KING_ATTACK_SCALE: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];

const BISHOP_PAIR: S = S(30, 50);
const ROOK_OPEN_FILE: S = S(25, 10);
const ROOK_SEMI_OPEN_FILE: S = S(12, 6);
const TEMPO: i32 = 10;

/// Non-pawn material a side needs beyond the other's to win without pawns (a rook: king
/// and minor piece, or rook against minor piece, are draws).
const WINNING_EDGE: i32 = 400;

/// The evaluation of `pos` for the side to move.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let kings = [pos.king_of(Color::White), pos.king_of(Color::Black)];
    let mut score = S(0, 0);
    let mut phase = 0;
    for color in [Color::White, Color::Black] {
        let mut side = S(0, 0);
        for role in Role::ALL {
            let pieces = board.by_piece(role.of(color));
            phase += PHASE_WEIGHT[role.index()] * pieces.count() as i32;
            for sq in pieces {
                side += psqt(color, role, sq);
            }
        }
        score += if color == Color::White { side } else { -side };
    }
    score += pawns::evaluate(board, kings);
    score += pieces(board, Color::White, kings) - pieces(board, Color::Black, kings);
    let phase = phase.min(PHASE_MAX);
    let eg = scale_endgame(board, score.1);
    let mut value = (score.0 * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    value += mop_up(board, kings, value);
    let value = if pos.turn() == Color::White { value } else { -value };
    value + TEMPO
}

/// Mobility, king attacks, the bishop pair and rook files of `color`'s pieces, plus the
/// shield of its own king.
fn pieces(board: &Board, color: Color, kings: [Square; 2]) -> S {
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
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.by_piece(role.of(color)) {
            let reach = match role {
                Role::Knight => attacks::knight(sq),
                Role::Bishop => attacks::bishop(sq, occupied),
                Role::Rook => attacks::rook(sq, occupied),
                _ => attacks::queen(sq, occupied),
            };
            let (per_square, typical) = MOBILITY[role.index()];
            score += per_square * ((reach & area).count() as i32 - typical);
            if (reach & zone).any() {
                attackers += 1;
                attack_weight += KING_ATTACK_WEIGHT[role.index()];
            }
            if role == Role::Rook {
                let file = Bitboard::from_file(sq.file());
                if (file & our_pawns).is_empty() {
                    score += if (file & their_pawns).is_empty() {
                        ROOK_OPEN_FILE
                    } else {
                        ROOK_SEMI_OPEN_FILE
                    };
                }
            }
        }
    }
    if board.by_piece(Role::Bishop.of(color)).more_than_one() {
        score += BISHOP_PAIR;
    }
    let mut danger = attack_weight * KING_ATTACK_SCALE[attackers.min(7)] / 100;
    if board.by_piece(Role::Queen.of(color)).is_empty() {
        danger /= 2;
    }
    score.0 += danger;
    score.0 += pawns::shield(board, color, kings[color.index()]);
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
fn non_pawn_material(board: &Board, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&role| {
            board.by_piece(role.of(color)).count() as i32 * crate::psqt::MATERIAL[role.index()].1
        })
        .sum()
}

/// Endgame value scaled for draws that material alone does not see.
fn scale_endgame(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if board.by_piece(Role::Pawn.of(strong)).is_empty()
        && non_pawn_material(board, strong) - non_pawn_material(board, weak) < WINNING_EDGE
    {
        return eg / 8;
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
        return eg / 2;
    }
    eg
}

/// Drives a bare king to the edge and brings the other king closer, so that shallow
/// searches find the mate with queen or rook (CPW "Mop-up Evaluation").
fn mop_up(board: &Board, kings: [Square; 2], value: i32) -> i32 {
    let strong = if value > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if board.by_color(weak).more_than_one() || non_pawn_material(board, strong) < WINNING_EDGE {
        return 0;
    }
    let weak_king = kings[weak.index()];
    let file = weak_king.file() as i32;
    let rank = weak_king.rank() as i32;
    let from_centre = (2 * file - 7).abs() / 2 + (2 * rank - 7).abs() / 2;
    let closeness = 7 - distance(kings[0], kings[1]);
    let bonus = 10 * from_centre + 4 * closeness;
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
        assert_eq!(start, TEMPO);
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
