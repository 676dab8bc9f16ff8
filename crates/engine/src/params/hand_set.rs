//! Rookery's hand-written evaluation weights: the values the engine played with before any
//! tuning, and where the tuning program (`crates/tune`) starts from.
//!
//! The piece-square tables are in the classical spirit of Michniewski's "Simplified
//! Evaluation Function" (CPW): knights and bishops toward the centre, rooks on the seventh,
//! the king sheltered in the middlegame and central in the endgame, pawns encouraged forward
//! in the centre and kept back before a castled king. They are laid out as a board is drawn,
//! rank 8 first, from White's point of view. Mobility follows CPW "Mobility", king safety CPW
//! "King Safety" after Ed Schröder's attack tables, pawn structure CPW "Pawn Structure",
//! "Passed Pawn" and "Pawn Shield".

use super::{linear_mobility, Params, S};

/// The hand-written weights.
pub const HAND_SET: Params = Params {
    material: [S(85, 110), S(325, 300), S(340, 320), S(460, 520), S(980, 950), S(0, 0)],
    psqt: [
        zip(&PAWN_MG, &PAWN_EG),
        zip(&KNIGHT_MG, &KNIGHT_EG),
        zip(&BISHOP_MG, &BISHOP_EG),
        zip(&ROOK_MG, &ROOK_EG),
        zip(&QUEEN_MG, &QUEEN_EG),
        zip(&KING_MG, &KING_EG),
    ],
    mobility: linear_mobility(
        [S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)],
        [0, 4, 6, 6, 12, 0],
    ),
    king_attack: [0, 20, 20, 40, 80, 0],
    king_attack_scale: [0, 0, 50, 75, 88, 94, 97, 99],
    bishop_pair: S(30, 50),
    rook_open_file: S(25, 10),
    rook_semi_open_file: S(12, 6),
    doubled: S(-10, -20),
    isolated: S(-10, -12),
    passed: [S(0, 0), S(5, 10), S(8, 15), S(12, 25), S(25, 45), S(45, 75), S(70, 120), S(0, 0)],
    // Connected pawns grow with their rank, as in Stockfish 11's `Connected` (about a third
    // of its values here); backward pawns after its `Backward`.
    connected: [S(0, 0), S(2, 1), S(4, 2), S(5, 3), S(10, 8), S(18, 15), S(30, 30), S(0, 0)],
    backward: S(-6, -12),
    passed_blocked: S(-5, -15),
    // Pawn storms, bad bishops, minors behind pawns and minors far from their king (after
    // Stockfish 11's classical terms) came after the engine played with these weights: they
    // start at zero, and only the tuning gives them values.
    storm: [S(0, 0); 8],
    storm_blocked: S(0, 0),
    bishop_pawns: S(0, 0),
    minor_behind_pawn: S(0, 0),
    king_protector: S(0, 0),
    // The defending king should be far from a passed pawn's path, the own king near.
    passed_king_theirs: S(0, 5),
    passed_king_ours: S(0, -2),
    shield_near: S(12, 0),
    shield_far: S(6, 0),
    shield_missing: S(-8, 0),
    // No pawn at all on a file beside the king: a highway for rooks.
    shield_open: S(-20, 0),
    king_exposed: S(-20, 0),
    // Safe checks and weak zone squares join the attackers' weights, so that they count as
    // much as the attack does (nothing with fewer than two attackers), as in Stockfish 11's
    // `kingDanger`, where a safe check weighs about as much as ten attackers; here a little
    // more than a rook attacker.
    safe_check: [0, 45, 30, 50, 40, 0],
    king_zone_weak: 6,
    // Threats after Stockfish 11's classical `ThreatBySafePawn`, `ThreatByMinor`,
    // `ThreatByRook`, `Hanging`, `ThreatByKing`, `ThreatByPawnPush`, rescaled to these pawn
    // values (about two thirds in the middlegame, half in the endgame) and kept lower where
    // the count here is broader.
    threat_by_pawn: [S(0, 0), S(50, 32), S(50, 32), S(62, 30), S(55, 20), S(0, 0)],
    threat_by_minor: [S(0, 0), S(20, 20), S(20, 20), S(45, 30), S(45, 40), S(0, 0)],
    threat_by_rook: [S(0, 0), S(12, 22), S(12, 22), S(0, 0), S(40, 25), S(0, 0)],
    hanging: S(40, 20),
    threat_by_king: S(10, 35),
    threat_by_push: S(25, 18),
    // A passed pawn's worth grows with a free road (Stockfish 11's `passed`, Ethereal's
    // `PassedSafePromotionPath`): on the seventh rank S(12, 60) more when nothing stops it.
    passed_free_path: S(3, 15),
    passed_safe_push: S(2, 6),
    // Outposts after Stockfish 11's `Outpost`: the knight twice the bishop.
    knight_outpost: S(25, 12),
    bishop_outpost: S(12, 6),
    tempo: 10,
    phase: [0, 1, 1, 2, 4, 0],
    // A rook: king and minor piece, or rook against minor piece, are draws.
    winning_edge: 400,
    scale_pawnless: 1,
    scale_opposite_bishops: 4,
    mop_up_edge: 10,
    mop_up_closeness: 4,
};

/// One table of [`S`] from a middlegame and an endgame table.
const fn zip(mg: &[i32; 64], eg: &[i32; 64]) -> [S; 64] {
    let mut out = [S(0, 0); 64];
    let mut i = 0;
    while i < 64 {
        out[i] = S(mg[i], eg[i]);
        i += 1;
    }
    out
}

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     40,  50,  50,  55,  55,  50,  50,  40,
     10,  15,  20,  30,  30,  20,  15,  10,
      0,   5,  10,  25,  25,  10,   5,   0,
     -5,   0,   8,  20,  20,   5,   0,  -5,
     -5,   0,   0,   5,   5, -10,   0,  -5,
     -5,   5,   5, -15, -15,  10,  10,  -5,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     35,  35,  30,  30,  30,  30,  35,  35,
     20,  20,  15,  15,  15,  15,  20,  20,
     10,  10,   5,   5,   5,   5,  10,  10,
      5,   5,   0,   0,   0,   0,   5,   5,
      0,   0,   0,  -2,  -2,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -60, -30, -25, -20, -20, -25, -30, -60,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -20,   5,  12,  18,  18,  12,   5, -20,
    -15,   5,  15,  22,  22,  15,   5, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,   0,  10,  10,  10,  10,   0, -20,
    -30, -15,  -5,   2,   2,  -5, -15, -30,
    -55, -25, -20, -15, -15, -20, -25, -55,
];

#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -45, -30, -20, -15, -15, -20, -30, -45,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -45, -30, -20, -15, -15, -20, -30, -45,
];

#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   8,   8,   5,   0, -10,
    -10,   5,   5,  10,  10,   5,   5, -10,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -10,  10,   8,  10,  10,   8,  10, -10,
    -10,  12,   0,   5,   5,   0,  12, -10,
    -20, -10, -12, -10, -10, -12, -10, -20,
];

#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
     -8,   0,   5,   5,   5,   5,   0,  -8,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -8,   0,   5,   5,   5,   5,   0,  -8,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];

#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      5,   5,  10,  12,  12,  10,   5,   5,
     15,  20,  20,  20,  20,  20,  20,  15,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -8,  -2,   0,   0,   0,   0,  -2,  -8,
     -5,   0,   5,  10,  10,   8,   0,  -5,
];

#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
      5,   5,   5,   5,   5,   5,   5,   5,
     10,  12,  12,  12,  12,  12,  12,  10,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
     -3,   0,   0,   0,   0,   0,   0,  -3,
     -5,   0,   0,   0,   0,   0,   0,  -5,
];

#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,   2,   5,   5,   5,   5,   0, -10,
    -10,   0,   2,   0,   0,   0,   0, -10,
    -20, -10, -10,  -2,  -5, -10, -10, -20,
];

#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -25, -15, -10,  -5,  -5, -10, -15, -25,
    -15,  -5,   0,   5,   5,   0,  -5, -15,
    -10,   0,  10,  12,  12,  10,   0, -10,
     -5,   5,  12,  15,  15,  12,   5,  -5,
     -5,   5,  12,  15,  15,  12,   5,  -5,
    -10,   0,  10,  12,  12,  10,   0, -10,
    -15,  -5,   0,   5,   5,   0,  -5, -15,
    -25, -15, -10,  -5,  -5, -10, -15, -25,
];

#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
     10,  10, -10, -20, -20, -10,  15,  15,
     20,  30,  10, -10,   0, -10,  35,  25,
];

#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -25,  -5,  15,  25,  25,  15,  -5, -25,
    -25,  -5,  25,  35,  35,  25,  -5, -25,
    -25,  -5,  25,  35,  35,  25,  -5, -25,
    -25,  -5,  15,  25,  25,  15,  -5, -25,
    -30, -20,  -5,   0,   0,  -5, -20, -30,
    -50, -35, -30, -25, -25, -30, -35, -50,
];
