//! A validated position: the rules of RULES.md §1–§4 applied to one moment of a game.

use core::fmt;

use crate::attacks;
use crate::movegen::{self, Counter, ForEach};
use crate::{
    zobrist, Bitboard, Board, Castles, CastlingMode, CastlingRights, CastlingSide, Color,
    GameResult, Move, MoveKind, MoveList, Piece, Rank, Role, Setup, Square,
};

/// A legal chess position: exactly one king per side, the side not on move not in check,
/// castling rights and en passant square consistent with the board, material that promotions
/// could have produced. Built only by [`Position::from_setup`] (or from FEN), changed only by
/// playing legal moves.
///
/// Copy-make: a `Position` is a small `Copy` value; playing a move changes it in place, and
/// search or perft keep a copy of the parent. The checkers and pinned pieces of the side to move
/// are computed once per move, which makes move generation cheap.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: Castles,
    mode: CastlingMode,
    /// Kept only when a pawn of the side to move stands beside the double-stepped pawn, as
    /// Polyglot does; whether the capture is also legal is decided on demand.
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    checkers: Bitboard,
    /// Pieces of the side to move pinned to their own king.
    pinned: Bitboard,
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on rank 1 or 8.
    PawnOnBackRank(Square),
    /// More pieces than a side can have: over 16 pieces, over 8 pawns, or more promoted pieces
    /// than missing pawns.
    TooMuchMaterial(Color),
    /// A castling right without the king and that rook on their starting squares (in
    /// Chess960: without the king on its back rank and that rook on the right's side of it).
    InvalidCastlingRight(CastlingRights),
    /// An en passant square that no double pawn step can have produced.
    InvalidEnPassant(Square),
    /// The side that is not to move is in check.
    OppositeCheck,
    /// The side to move is attacked in a way no legal move can have produced.
    ImpossibleCheck,
    /// The fullmove number is 0.
    ZeroFullmoves,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooManyKings(c) => write!(f, "{c} has more than one king"),
            PositionError::PawnOnBackRank(sq) => write!(f, "pawn on the back rank at {sq}"),
            PositionError::TooMuchMaterial(c) => {
                write!(f, "{c} has more pieces than promotions can explain")
            }
            PositionError::InvalidCastlingRight(r) => {
                write!(f, "castling right {r} without the king and rook on their starting squares")
            }
            PositionError::InvalidEnPassant(sq) => write!(
                f,
                "en passant square {sq} does not follow a double pawn step of the side not to move"
            ),
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionError::ImpossibleCheck => f.write_str("the check cannot have come from a move"),
            PositionError::ZeroFullmoves => f.write_str("fullmove number 0 (the first move is 1)"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A move that is not legal in the position; the position is handed back untouched.
#[derive(Clone, Debug)]
pub struct PlayError<P> {
    /// The rejected move.
    pub m: Move,
    /// The position, unchanged.
    pub position: P,
}

impl<P> fmt::Display for PlayError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.m)
    }
}

impl<P: fmt::Debug> std::error::Error for PlayError<P> {}

impl Position {
    /// The standard starting position (RULES.md §1).
    ///
    /// Built and checked once, then copied: readers of game collections start every game
    /// here.
    #[inline]
    pub fn new() -> Position {
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        *START.get_or_init(|| {
            Position::from_setup(Setup::standard(), CastlingMode::Standard)
                .expect("the starting position is legal")
        })
    }

    /// Checks `setup` and builds the position, with castling in `mode`: in standard chess every
    /// castling right needs the king on the e-file and the corner rook; in Chess960 the king on
    /// its back rank and the right's rook on that side of it (RULES.md §13).
    ///
    /// An en passant square is kept only when a pawn of the side to move could capture on it;
    /// otherwise it is dropped, as FEN writers differ in when they write one.
    ///
    /// # Errors
    /// The first [`PositionError`] found.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            match (board.by_role(Role::King) & board.by_color(color)).count() {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
        }
        if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        for color in Color::ALL {
            let ours = board.by_color(color);
            let count = |role| (board.by_role(role) & ours).count();
            let pawns = count(Role::Pawn);
            let promoted = count(Role::Queen).saturating_sub(1)
                + count(Role::Rook).saturating_sub(2)
                + count(Role::Bishop).saturating_sub(2)
                + count(Role::Knight).saturating_sub(2);
            if ours.count() > 16 || pawns > 8 || pawns + promoted > 8 {
                return Err(PositionError::TooMuchMaterial(color));
            }
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = setup.castling.rook(color, side) {
                    if !castling_right_fits(&board, color, side, rook, mode) {
                        return Err(PositionError::InvalidCastlingRight(CastlingRights::single(
                            color, side,
                        )));
                    }
                }
            }
        }
        if setup.fullmoves == 0 {
            return Err(PositionError::ZeroFullmoves);
        }
        let turn = setup.turn;
        let mut ep_square = None;
        if let Some(ep) = setup.ep_square {
            // The pawn that double-stepped stands in front of `ep` (from the mover's view);
            // the square it left and `ep` itself are empty.
            let (ep_rank, forward) = match turn {
                Color::White => (Rank::Sixth, 8),
                Color::Black => (Rank::Third, -8),
            };
            let pushed = ep.offset(0, -forward / 8);
            let origin = ep.offset(0, forward / 8);
            let valid = ep.rank() == ep_rank
                && pushed.is_some_and(|p| board.piece_at(p) == Some(Role::Pawn.of(!turn)))
                && !board.occupied().contains(ep)
                && origin.is_some_and(|o| !board.occupied().contains(o));
            if !valid {
                return Err(PositionError::InvalidEnPassant(ep));
            }
            if (attacks::pawn(!turn, ep) & board.by_piece(Role::Pawn.of(turn))).any() {
                ep_square = Some(ep);
            }
        }
        let mut pos = Position {
            board,
            turn,
            castling: setup.castling,
            mode,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        };
        pos.key = pos.compute_key();
        let their_king = board.king_of(!turn).expect("validated above");
        if pos.attackers_to(their_king, turn, board.occupied()).any() {
            return Err(PositionError::OppositeCheck);
        }
        pos.update_check_info();
        if pos.checkers.count() > 2
            || (pos.checkers.count() == 2
                && (pos.checkers & (board.diagonal_sliders() | board.orthogonal_sliders()))
                    .is_empty())
        {
            return Err(PositionError::ImpossibleCheck);
        }
        Ok(pos)
    }

    /// The position as a [`Setup`] (en passant square as kept: see [`Position::from_setup`]).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The placement of the pieces.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling.rights()
    }

    /// The castling rights with the rook of each.
    #[inline]
    pub fn castles(&self) -> Castles {
        self.castling
    }

    /// How this position writes castling (standard chess or Chess960).
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// `true` for a Chess960 position (castling written king-takes-rook).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.mode.is_chess960()
    }

    /// The same position with castling in `mode`.
    ///
    /// # Errors
    /// [`PositionError::InvalidCastlingRight`] when a right does not fit standard chess.
    pub fn with_castling_mode(self, mode: CastlingMode) -> Result<Position, PositionError> {
        if mode == self.mode {
            return Ok(self);
        }
        Position::from_setup(self.to_setup(), mode)
    }

    /// The castling move of the side to move on `side` as this position writes it: the king's
    /// move to its castling square in standard chess, the king taking its rook in Chess960.
    /// `None` without the right (the move may still be illegal).
    #[inline]
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let us = self.turn;
        let rook = self.castling.rook(us, side)?;
        let king = self.king_of(us);
        Some(Move::castle(king, if self.mode.is_chess960() { rook } else { side.king_to(us) }))
    }

    /// The en passant square when a pawn of the side to move stands ready to capture on it
    /// (the capture may still be illegal; see [`Position::legal_ep_square`]).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square when capturing en passant is legal (RULES.md §6.5).
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let capturers = attacks::pawn(!self.turn, ep) & self.our(Role::Pawn);
        capturers.into_iter().any(|from| self.is_legal_en_passant(from, ep)).then_some(ep)
    }

    /// Plies since the last capture or pawn move (RULES.md §6.6).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1, incremented after each Black move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Polyglot Zobrist key, maintained incrementally. As in Polyglot, the en passant file
    /// counts when a pawn stands ready to capture, even if the capture is illegal.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// The key that identifies the position for repetition (RULES.md §6.5): placement, side to
    /// move, castling rights and en passant only when an en passant capture is legal.
    pub fn repetition_key(&self) -> u64 {
        match self.ep_square {
            Some(ep) if self.legal_ep_square().is_none() => {
                self.key ^ zobrist::en_passant(ep.file())
            }
            _ => self.key,
        }
    }

    /// The Zobrist key computed from scratch (equal to [`Position::zobrist`]).
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::castling(self.castling.rights()) ^ zobrist::turn(self.turn);
        // Set by set, not square by square: asking each occupied square for its piece searched
        // the roles (a position set up from a `[FEN]` tag computes its key here; issue 41).
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = role.of(color);
                for sq in self.board.by_piece(piece) {
                    key ^= zobrist::piece(piece, sq);
                }
            }
        }
        if let Some(ep) = self.ep_square {
            key ^= zobrist::en_passant(ep.file());
        }
        key
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// `true` if the side to move is in check (RULES.md §4).
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// The pieces of the side to move that are pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The square of the king of `color`.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        // Validation guarantees exactly one king per side; the fallback is never taken.
        self.board.by_piece(Role::King.of(color)).first().unwrap_or(Square::A1)
    }

    #[inline]
    pub(crate) fn our(&self, role: Role) -> Bitboard {
        self.board.by_piece(role.of(self.turn))
    }

    #[inline]
    pub(crate) fn their(&self, role: Role) -> Bitboard {
        self.board.by_piece(role.of(!self.turn))
    }

    /// The pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        let theirs = b.by_color(attacker);
        ((attacks::knight(sq) & b.by_role(Role::Knight))
            | (attacks::king(sq) & b.by_role(Role::King))
            | (attacks::pawn(!attacker, sq) & b.by_role(Role::Pawn))
            | (attacks::bishop(sq, occupied) & b.diagonal_sliders())
            | (attacks::rook(sq, occupied) & b.orthogonal_sliders()))
            & theirs
    }

    /// `true` if a piece of `attacker` attacks `sq`, with `occupied` as the blockers.
    #[inline]
    pub(crate) fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let b = &self.board;
        let theirs = b.by_color(attacker);
        (attacks::knight(sq) & b.by_role(Role::Knight) & theirs).any()
            || (attacks::pawn(!attacker, sq) & b.by_role(Role::Pawn) & theirs).any()
            || (attacks::king(sq) & b.by_role(Role::King) & theirs).any()
            || (attacks::bishop(sq, occupied) & b.diagonal_sliders() & theirs).any()
            || (attacks::rook(sq, occupied) & b.orthogonal_sliders() & theirs).any()
    }

    /// Recomputes the checkers of and the pins against the side to move.
    #[inline]
    fn update_check_info(&mut self) {
        let us = self.turn;
        let king = self.king_of(us);
        let b = &self.board;
        let theirs = b.by_color(!us);
        let occupied = b.occupied();
        let mut checkers = ((attacks::knight(king) & b.by_role(Role::Knight))
            | (attacks::pawn(us, king) & b.by_role(Role::Pawn)))
            & theirs;
        let snipers = ((attacks::rook_rays(king) & b.orthogonal_sliders())
            | (attacks::bishop_rays(king) & b.diagonal_sliders()))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers.add(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & b.by_color(us);
    }

    /// `true` if capturing en passant from `from` to `ep` leaves the king safe: the
    /// horizontal pin (king and rook on the capture rank) included.
    pub(crate) fn is_legal_en_passant(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let king = self.king_of(us);
        let captured = Square::from_coords(ep.file(), from.rank());
        let occupied =
            (self.board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                | Bitboard::from_square(ep);
        let theirs = self.board.by_color(!us);
        (attacks::rook(king, occupied) & self.board.orthogonal_sliders() & theirs).is_empty()
            && (attacks::bishop(king, occupied) & self.board.diagonal_sliders() & theirs).is_empty()
            && (attacks::knight(king) & self.their(Role::Knight)).is_empty()
            && (attacks::pawn(us, king) & self.their(Role::Pawn)).without(captured).is_empty()
    }

    /// Writes every legal move into `moves` (cleared first). No heap allocation.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        movegen::generate::<_, { movegen::kind::ALL }>(self, &mut ForEach(|m| moves.push(m)));
    }

    /// The legal moves (RULES.md §2–§4).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Calls `f` with each legal move, without building a list.
    #[inline]
    pub fn for_each_legal_move(&self, f: impl FnMut(Move)) {
        movegen::generate::<_, { movegen::kind::ALL }>(self, &mut ForEach(f));
    }

    /// Calls `f` with each legal capture (en passant included) and each legal promotion, and
    /// no other move: what a quiescence search looks at, without generating the quiet moves.
    #[inline]
    pub fn for_each_legal_capture_or_promotion(&self, f: impl FnMut(Move)) {
        movegen::generate::<_, { movegen::kind::TACTICAL }>(self, &mut ForEach(f));
    }

    /// Calls `f` with each legal move that neither captures nor promotes (castling included):
    /// with [`Position::for_each_legal_capture_or_promotion`], every legal move, once.
    #[inline]
    pub fn for_each_legal_quiet(&self, f: impl FnMut(Move)) {
        movegen::generate::<_, { movegen::kind::QUIET }>(self, &mut ForEach(f));
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        movegen::generate::<_, { movegen::kind::ALL }>(self, &mut counter);
        counter.0
    }

    /// `true` if the side to move has a legal move.
    pub fn has_legal_moves(&self) -> bool {
        // Out of check, a piece that is not pinned may make any move of its pattern: an
        // unpinned pawn that can step forward, or an unpinned knight with a square not held by
        // its own side, is a legal move, found with a few shifts and no attack table. Nearly
        // every position is decided so; the rest are generated (issue 41: `rookery pgn`
        // classifies the final position of every game).
        if self.checkers.is_empty() {
            let us = self.turn;
            let free = !self.pinned;
            let pawns = self.our(Role::Pawn) & free;
            let steps = if us.is_white() { pawns.shift_up() } else { pawns.shift_down() };
            if (steps - self.board.occupied()).any() {
                return true;
            }
            let ours = self.board.by_color(us);
            if (self.our(Role::Knight) & free)
                .into_iter()
                .any(|from| (attacks::knight(from) - ours).any())
            {
                return true;
            }
        }
        self.count_legal_moves() > 0
    }

    /// `true` if `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        movegen::is_legal(self, m)
    }

    /// `true` if the side to move is checkmated (RULES.md §4).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// `true` if the side to move is stalemated (RULES.md §6.4).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// The result this position decides by itself, if it is over: checkmate wins for the
    /// side that gave it (RULES.md §4, §5), stalemate is a draw (§6.4).
    pub fn result(&self) -> Option<GameResult> {
        if self.has_legal_moves() {
            None
        } else if self.is_check() {
            Some(GameResult::Win(!self.turn))
        } else {
            Some(GameResult::Draw)
        }
    }

    /// The piece a move moves (the king for castling), if there is one on its from square.
    #[inline]
    pub fn moving_piece(&self, m: Move) -> Option<Piece> {
        self.board.piece_at(m.from())
    }

    /// The role a move captures, if any (a pawn for en passant).
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::Castle => None,
            _ => self.board.role_at(m.to()),
        }
    }

    /// `true` if `m` captures.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.captured_role(m).is_some()
    }

    /// Plays `m` after checking that it is legal.
    ///
    /// # Errors
    /// [`PlayError`] with the position unchanged if `m` is not legal.
    pub fn play(mut self, m: Move) -> Result<Position, PlayError<Position>> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(PlayError { m, position: self })
        }
    }

    /// Plays `m`, which must be legal in this position (from [`Position::legal_moves`]).
    /// An illegal move leaves a position that breaks the type's guarantees; it never causes
    /// undefined behaviour.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let Some(role) = self.board.role_at(from) else { return };
        let mover = role.of(us);
        let mut key = self.key ^ zobrist::turn(Color::White);
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.halfmoves += 1;
        match m.kind() {
            MoveKind::Normal => {
                if let Some(captured) = self.board.role_at(to) {
                    self.board.take(captured.of(them), to);
                    key ^= zobrist::piece(captured.of(them), to);
                    self.halfmoves = 0;
                }
                self.board.shift(mover, from, to);
                key ^= zobrist::piece(mover, from) ^ zobrist::piece(mover, to);
                if role == Role::Pawn {
                    self.halfmoves = 0;
                    if (to as u8).abs_diff(from as u8) == 16 {
                        let ep = Square::from_index_wrapping((from as u32 + to as u32) / 2);
                        if (attacks::pawn(us, ep) & self.board.by_piece(Role::Pawn.of(them))).any()
                        {
                            self.ep_square = Some(ep);
                            key ^= zobrist::en_passant(ep.file());
                        }
                    }
                }
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.take(Role::Pawn.of(them), captured);
                self.board.shift(mover, from, to);
                key ^= zobrist::piece(Role::Pawn.of(them), captured)
                    ^ zobrist::piece(mover, from)
                    ^ zobrist::piece(mover, to);
                self.halfmoves = 0;
            }
            MoveKind::Castle => {
                // The king and the rook land on the standard squares wherever they start
                // (RULES.md §13); in Chess960 either may stay where it is, or land where the
                // other stood, so both leave before either lands.
                let side = CastlingSide::of_rook(from, to);
                let rook = Role::Rook.of(us);
                let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
                let rook_from = if self.mode.is_chess960() {
                    let rook_from = self.castling.rook(us, side).unwrap_or(to);
                    self.board.take(mover, from);
                    self.board.take(rook, rook_from);
                    self.board.put(mover, king_to);
                    self.board.put(rook, rook_to);
                    rook_from
                } else {
                    let rook_from = side.standard_rook_from(us);
                    self.board.shift(mover, from, king_to);
                    self.board.shift(rook, rook_from, rook_to);
                    rook_from
                };
                key ^= zobrist::piece(mover, from)
                    ^ zobrist::piece(mover, king_to)
                    ^ zobrist::piece(rook, rook_from)
                    ^ zobrist::piece(rook, rook_to);
            }
            MoveKind::Promotion(promoted) => {
                if let Some(captured) = self.board.role_at(to) {
                    self.board.take(captured.of(them), to);
                    key ^= zobrist::piece(captured.of(them), to);
                }
                self.board.take(mover, from);
                self.board.put(promoted.of(us), to);
                key ^= zobrist::piece(mover, from) ^ zobrist::piece(promoted.of(us), to);
                self.halfmoves = 0;
            }
        }
        // Most moves keep the rights as they are, and their keys need no change.
        let rights = self.castling.rights();
        if self.mode.is_chess960() {
            let castling = self.castling.after_move(us, role == Role::King, from, to);
            if castling.rights() != rights {
                key ^= zobrist::castling(rights) ^ zobrist::castling(castling.rights());
                self.castling = castling;
            }
        } else {
            let kept = rights.after_touching_standard(from, to);
            if kept != rights {
                key ^= zobrist::castling(rights) ^ zobrist::castling(kept);
                self.castling.keep_standard(kept);
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
        self.key = key;
        self.update_check_info();
    }

    /// Passes the move to the opponent without moving (a "null move", for search). Not legal
    /// in chess; do not call it in check.
    pub fn play_null(&mut self) {
        let mut key = self.key ^ zobrist::turn(Color::White);
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.key = key;
        self.halfmoves += 1;
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !self.turn;
        self.update_check_info();
    }

    /// `true` if `color` has insufficient material to checkmate by any series of legal moves,
    /// in FIDE's dead-position-by-material sense (RULES.md §6.2): no pawns, rooks or queens,
    /// and either (a) a bare king, (b) king and one knight while the opponent has only king and
    /// queens, or (c) king and bishops only, every bishop on the board on one square colour and
    /// no pawn or knight on the board.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        if (ours & (b.by_role(Role::Pawn) | b.orthogonal_sliders())).any() {
            return false;
        }
        let knights = ours & b.by_role(Role::Knight);
        let bishops = ours & b.by_role(Role::Bishop);
        if (knights | bishops).is_empty() {
            return true;
        }
        if bishops.is_empty() && knights.count() == 1 {
            let theirs = b.by_color(!color);
            return (theirs - b.by_role(Role::King) - b.by_role(Role::Queen)).is_empty();
        }
        if knights.is_empty() {
            let all_bishops = b.by_role(Role::Bishop);
            let one_colour = (all_bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (all_bishops & Bitboard::DARK_SQUARES).is_empty();
            return one_colour && (b.by_role(Role::Pawn) | b.by_role(Role::Knight)).is_empty();
        }
        false
    }

    /// `true` if neither side has the material to checkmate (RULES.md §6.2).
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }
}

/// `true` if `color` may hold the right to castle on `side` with the rook on `rook`: the king on
/// the back rank (on the e-file in standard chess), the rook there on that side of it (in the
/// corner in standard chess).
fn castling_right_fits(
    board: &Board,
    color: Color,
    side: CastlingSide,
    rook: Square,
    mode: CastlingMode,
) -> bool {
    let Some(king) = board.king_of(color) else { return false };
    let back = Rank::First.relative_to(color);
    let placed = king.rank() == back
        && rook.rank() == back
        && board.piece_at(rook) == Some(Role::Rook.of(color))
        && CastlingSide::of_rook(king, rook) == side
        && king != rook;
    placed
        && (mode.is_chess960()
            || (king == CastlingSide::standard_king_from(color)
                && rook.file() == side.standard_rook_file()))
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", crate::fen::Fen::from_position(self))
    }
}
