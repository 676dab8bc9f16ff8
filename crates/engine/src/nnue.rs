//! An efficiently updatable neural network evaluation (NNUE; Nasu 2018, CPW "NNUE"), trained
//! by `rookery-nnue` (crates/tune) on positions of the engine's own games.
//!
//! The network: 768 inputs, one for each piece on each square, seen from each side in turn
//! (the side's own pieces first, the board flipped for Black), into a hidden layer of
//! [`HIDDEN`] neurons whose weights both sides share; the two halves, the side to move's
//! first, go through the squared clipped ReLU (`clamp(x, 0, 1)²`) into one output, whose
//! weights are chosen by how many pieces are on the board ([`OUTPUT_BUCKETS`] sets, see
//! [`output_bucket`]): the hidden layer is shared, and an ending is read by other weights than
//! an opening. Integer arithmetic, as trained: hidden weights scaled by [`QA`], output weights
//! by [`QB`], the output scaled to centipawns by [`SCALE`].
//!
//! The file format ([`Weights::to_bytes`]): the magic `RKNN`, a version, the hidden size and
//! the number of output buckets (little-endian `u32`s), then the hidden weights (input-major),
//! the hidden biases, each bucket's output weights (side to move's half first) as
//! little-endian `i16`, and each bucket's output bias as an `i32`.

use std::fmt;
use std::sync::OnceLock;

use rookery_core::{Board, Color, Piece, Position, Role, Square};

/// Inputs: six roles of two colours on 64 squares.
pub const INPUTS: usize = 768;
/// Neurons in the hidden layer, for each side.
pub const HIDDEN: usize = 128;
/// Sets of output weights, chosen by the number of pieces on the board.
pub const OUTPUT_BUCKETS: usize = 8;
/// The scale of the hidden layer's weights and biases: 1.0 is `QA`, and the activation clips
/// at `QA`.
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// The largest output weight: `QA · MAX_OUTPUT` fits in an `i16`.
pub const MAX_OUTPUT: i16 = i16::MAX / QA as i16;
const MAGIC: &[u8; 4] = b"RKNN";
const VERSION: u32 = 2;

/// The network the engine plays with.
static DEFAULT: &[u8] = include_bytes!("../nets/default.nnue");

/// The input of `piece` on `sq` seen from `perspective`: the perspective's own pieces first,
/// and the board flipped top to bottom for Black, so that both sides see the same network.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let (theirs, sq) = if perspective == Color::White {
        (piece.color != Color::White, sq.index())
    } else {
        (piece.color != Color::Black, sq.flip_vertical().index())
    };
    usize::from(theirs) * 384 + piece.role.index() * 64 + sq
}

/// The output bucket of a position with `pieces` pieces (kings included, 2 to 32): four
/// piece counts to a bucket, from the bare kings' to the full board's.
#[inline]
pub fn output_bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(OUTPUT_BUCKETS - 1)
}

/// The input of `piece` on `sq` from both sides: White's view, then Black's.
#[inline]
fn both_views(piece: Piece, sq: Square) -> [usize; 2] {
    [feature(Color::White, piece, sq), feature(Color::Black, piece, sq)]
}

/// The active inputs of `board` from both sides: White's view, then Black's.
pub fn features(board: &Board) -> impl Iterator<Item = [usize; 2]> + '_ {
    [Color::White, Color::Black].into_iter().flat_map(move |color| {
        Role::ALL.into_iter().flat_map(move |role| {
            let piece = Piece { color, role };
            board.by_piece(piece).into_iter().map(move |sq| both_views(piece, sq))
        })
    })
}

/// A quantised network's weights, as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    /// Hidden weights, `INPUTS` rows of `HIDDEN`.
    pub hidden: Vec<[i16; HIDDEN]>,
    /// Hidden biases.
    pub hidden_bias: [i16; HIDDEN],
    /// Each bucket's output weights: the side to move's half, then the other side's. At most
    /// [`MAX_OUTPUT`] in size, so that each product with an activation fits in an `i16`.
    pub output: [[[i16; HIDDEN]; 2]; OUTPUT_BUCKETS],
    /// Each bucket's output bias, scaled by `QA * QB`.
    pub output_bias: [i32; OUTPUT_BUCKETS],
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights {{ {INPUTS} × {HIDDEN} × 2 → 1 in {OUTPUT_BUCKETS} buckets }}")
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a network file: it does not start with `RKNN`.
    Magic,
    /// A version this engine does not read.
    Version(u32),
    /// A hidden layer of another size than [`HIDDEN`].
    Hidden(u32),
    /// Another number of output buckets than [`OUTPUT_BUCKETS`].
    Buckets(u32),
    /// The file's length is not what its header says (expected, found).
    Length(usize, usize),
    /// An output weight larger than [`MAX_OUTPUT`].
    OutputWeight(i16),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Magic => write!(f, "not a Rookery network (no RKNN magic)"),
            NetError::Version(v) => write!(f, "network version {v}, expected {VERSION}"),
            NetError::Hidden(h) => write!(f, "hidden layer of {h} neurons, expected {HIDDEN}"),
            NetError::Buckets(b) => {
                write!(f, "{b} output buckets, expected {OUTPUT_BUCKETS}")
            }
            NetError::Length(expected, found) => {
                write!(f, "network of {found} bytes, expected {expected}")
            }
            NetError::OutputWeight(w) => {
                write!(f, "output weight {w} outside -{MAX_OUTPUT}..={MAX_OUTPUT}")
            }
        }
    }
}

impl std::error::Error for NetError {}

const HEADER: usize = 16;
/// Where the output biases start.
const BIASES: usize = HEADER + 2 * (INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN);
const LENGTH: usize = BIASES + 4 * OUTPUT_BUCKETS;

impl Weights {
    /// Reads a network file.
    ///
    /// # Errors
    /// [`NetError`] if the bytes are not a network of this engine's shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, NetError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if word(4) != VERSION {
            return Err(NetError::Version(word(4)));
        }
        if word(8) != HIDDEN as u32 {
            return Err(NetError::Hidden(word(8)));
        }
        if word(12) != OUTPUT_BUCKETS as u32 {
            return Err(NetError::Buckets(word(12)));
        }
        if bytes.len() != LENGTH {
            return Err(NetError::Length(LENGTH, bytes.len()));
        }
        let mut values =
            bytes[HEADER..BIASES].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut row = || {
            let mut row = [0i16; HIDDEN];
            row.iter_mut().zip(&mut values).for_each(|(r, v)| *r = v);
            row
        };
        let hidden = (0..INPUTS).map(|_| row()).collect();
        let hidden_bias = row();
        let output: [[[i16; HIDDEN]; 2]; OUTPUT_BUCKETS] = std::array::from_fn(|_| [row(), row()]);
        let too_large = |w: &&i16| w.unsigned_abs() > MAX_OUTPUT as u16;
        if let Some(&w) = output.iter().flatten().flatten().find(too_large) {
            return Err(NetError::OutputWeight(w));
        }
        let output_bias = std::array::from_fn(|b| word(BIASES + 4 * b) as i32);
        Ok(Weights { hidden, hidden_bias, output, output_bias })
    }

    /// The network file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(LENGTH);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&(OUTPUT_BUCKETS as u32).to_le_bytes());
        let rows =
            self.hidden.iter().chain([&self.hidden_bias]).chain(self.output.iter().flatten());
        for v in rows.flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for bias in self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        out
    }

    /// The evaluation of `pos` in centipawns, for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos.board()), pos.board(), pos.turn())
    }

    /// The hidden layer of `board`, from scratch.
    fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator([self.hidden_bias; 2]);
        for inputs in features(board) {
            acc.add(self, inputs);
        }
        acc
    }

    /// The hidden layer of `after` from `acc`, that of `before`: only the pieces that moved.
    fn update(&self, acc: &Accumulator, before: &Board, after: &Board) -> Accumulator {
        let mut next = *acc;
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (was, is) = (before.by_piece(piece), after.by_piece(piece));
                for sq in was - is {
                    next.remove(self, both_views(piece, sq));
                }
                for sq in is - was {
                    next.add(self, both_views(piece, sq));
                }
            }
        }
        next
    }

    /// The output for `board`'s hidden layer `acc` with `turn` to move, in centipawns.
    fn output(&self, acc: &Accumulator, board: &Board, turn: Color) -> i32 {
        let [white, black] = &acc.0;
        let (us, them) = if turn == Color::White { (white, black) } else { (black, white) };
        let bucket = output_bucket(board.occupied().count());
        let [ours, theirs] = &self.output[bucket];
        let sum = i64::from(activate(us, ours)) + i64::from(activate(them, theirs));
        let out = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// The hidden layer before its activation, from White's view and from Black's.
#[derive(Clone, Copy, Debug)]
struct Accumulator([[i16; HIDDEN]; 2]);

impl Accumulator {
    /// Adds the rows of an input, `[White's view, Black's]`.
    #[inline]
    fn add(&mut self, net: &Weights, inputs: [usize; 2]) {
        for (half, input) in self.0.iter_mut().zip(inputs) {
            let row = &net.hidden[input];
            half.iter_mut().zip(row).for_each(|(a, r)| *a = a.wrapping_add(*r));
        }
    }

    /// Subtracts the rows of an input, `[White's view, Black's]`.
    #[inline]
    fn remove(&mut self, net: &Weights, inputs: [usize; 2]) {
        for (half, input) in self.0.iter_mut().zip(inputs) {
            let row = &net.hidden[input];
            half.iter_mut().zip(row).for_each(|(a, r)| *a = a.wrapping_sub(*r));
        }
    }
}

/// The hidden layers along the search path, one a ply, each computed when first evaluated
/// from the nearest one before it that is: a move changes a few pieces, so updating costs a
/// fraction of starting afresh (the "efficiently updatable" of NNUE).
pub(crate) struct Accumulators {
    plies: Vec<Layer>,
}

/// One ply of [`Accumulators`].
#[derive(Clone, Copy)]
struct Layer {
    board: Board,
    acc: Accumulator,
    /// `acc` is `board`'s.
    ready: bool,
}

impl Accumulators {
    /// Room for `plies` plies.
    pub(crate) fn new(plies: usize) -> Accumulators {
        let empty =
            Layer { board: Board::empty(), acc: Accumulator([[0; HIDDEN]; 2]), ready: false };
        Accumulators { plies: vec![empty; plies] }
    }

    /// The position at `ply` has `board` (its layer is computed when first evaluated). Every
    /// ply is set before it is evaluated: the root, each move's child, a null move's child.
    #[inline]
    pub(crate) fn set(&mut self, ply: usize, board: &Board) {
        self.plies[ply].board = *board;
        self.plies[ply].ready = false;
    }

    /// The evaluation of the position at `ply`, with `turn` to move, by `net`.
    pub(crate) fn evaluate(&mut self, net: &Weights, ply: usize, turn: Color) -> i32 {
        let mut from = ply;
        while from > 0 && !self.plies[from].ready {
            from -= 1;
        }
        let first = &mut self.plies[from];
        if !first.ready {
            first.acc = net.refresh(&first.board);
            first.ready = true;
        }
        for p in from + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(p);
            let (before, layer) = (&done[p - 1], &mut rest[0]);
            layer.acc = net.update(&before.acc, &before.board, &layer.board);
            layer.ready = true;
        }
        let layer = &self.plies[ply];
        net.output(&layer.acc, &layer.board, turn)
    }
}

/// `Σ clamp(x, 0, QA)² · w` over one half of the hidden layer. `x · w` fits in an `i16`
/// (|w| ≤ [`MAX_OUTPUT`]), so the sum is of products of `i16` pairs, which the compiler
/// turns into multiply-adds of eight pairs at a time.
#[inline]
fn activate(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&x, &w)| {
            let x = x.clamp(0, QA as i16);
            i32::from(x * w) * i32::from(x)
        })
        .sum()
}

/// The network the engine plays with.
pub(crate) fn network() -> &'static Weights {
    static NET: OnceLock<Weights> = OnceLock::new();
    NET.get_or_init(|| match Weights::from_bytes(DEFAULT) {
        Ok(weights) => weights,
        Err(e) => panic!("the built-in network: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_reads_and_writes_back() {
        let net = Weights::from_bytes(DEFAULT).unwrap();
        assert_eq!(net.to_bytes(), DEFAULT);
        assert_eq!(Weights::from_bytes(b"RKN"), Err(NetError::Magic));
        assert_eq!(Weights::from_bytes(&DEFAULT[..100]), Err(NetError::Length(LENGTH, 100)));
        let mut other = DEFAULT.to_vec();
        other[8] = 7;
        assert_eq!(Weights::from_bytes(&other), Err(NetError::Hidden(7)));
        let mut other = DEFAULT.to_vec();
        other[12] = 3;
        assert_eq!(Weights::from_bytes(&other), Err(NetError::Buckets(3)));
        // An output weight whose products with the activation would not fit an i16.
        let mut other = DEFAULT.to_vec();
        let first_output = HEADER + 2 * (INPUTS * HIDDEN + HIDDEN);
        other[first_output..first_output + 2].copy_from_slice(&(-129i16).to_le_bytes());
        assert_eq!(Weights::from_bytes(&other), Err(NetError::OutputWeight(-129)));
        other[first_output..first_output + 2].copy_from_slice(&(-128i16).to_le_bytes());
        assert!(Weights::from_bytes(&other).is_ok());
    }

    #[test]
    fn buckets_follow_the_piece_count() {
        let buckets: Vec<usize> = (2..=32).map(output_bucket).collect();
        assert_eq!(buckets[0], 0, "bare kings");
        assert_eq!(buckets[30], OUTPUT_BUCKETS - 1, "the full board");
        assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!(output_bucket(0), 0);
    }

    #[test]
    fn both_sides_see_the_same_network() {
        let net = network();
        for (white, black) in crate::eval::tests::MIRRORED {
            let eval = |fen: &str| net.evaluate(&fen.parse().unwrap());
            assert_eq!(eval(white), eval(black), "{white} / {black}");
        }
    }

    /// The hidden layer after a move, updated from the pieces that changed, is the layer
    /// computed afresh, for every kind of Chess960 castling (RULES.md §13): king and rook
    /// trading squares (f1 and g1), the king standing still (g1), the rook standing still (f1),
    /// the king on b1 castling long; and for every other move of those positions.
    #[test]
    fn updates_after_chess960_castling_match_a_fresh_computation() {
        let net = network();
        let mut castlings = 0;
        for fen in [
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w G - 0 1",
            "4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1",
            "8/8/8/8/8/B1N5/PP1PPP2/k3KR2 w F - 0 1",
            "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ] {
            let pos = Position::from_fen_in(fen, rookery_core::CastlingMode::Chess960).unwrap();
            let before = net.refresh(pos.board());
            for &m in pos.legal_moves().iter() {
                let mut after = pos;
                after.play_unchecked(m);
                let updated = net.update(&before, pos.board(), after.board());
                assert_eq!(updated.0, net.refresh(after.board()).0, "{fen} {m}");
                castlings += usize::from(m.is_castle());
            }
        }
        assert_eq!(castlings, 6, "every castling above");
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        let pos = Position::new();
        let mut seen = std::collections::HashSet::new();
        for [w, b] in features(pos.board()) {
            assert!(w < INPUTS && b < INPUTS);
            assert!(seen.insert(w));
        }
        assert_eq!(seen.len(), 32);
        // White's king on e1 from White's side is Black's king on e8 from Black's.
        let king = |color| Piece { color, role: Role::King };
        let e1 = Square::new(4).unwrap();
        let e8 = Square::new(60).unwrap();
        assert_eq!(
            feature(Color::White, king(Color::White), e1),
            feature(Color::Black, king(Color::Black), e8)
        );
        assert_eq!(
            feature(Color::White, king(Color::Black), e8),
            feature(Color::Black, king(Color::White), e1)
        );
    }
}
