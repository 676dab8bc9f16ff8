//! The transposition table: search results by Zobrist key, shared by all search threads.
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line. Each entry is two atomic
//! words, the data and the key XOR the data ("lockless hashing", Hyatt and Mann, CPW
//! "Shared Hash Table"): a reader accepts an entry only if the two words agree with the full
//! 64-bit key, so a torn write by another thread reads as a miss, never as another position's
//! data. Every move read back is still checked for legality before use.
//!
//! Data word: move (16 bits) | value (16) | static eval (16) | depth (8) | generation (6) |
//! bound (2). Mate values are stored relative to the node (see [`crate::score`]).

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rookery_core::Move;

use crate::score::Bound;

/// Entries per bucket.
const BUCKET_SIZE: usize = 4;

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; BUCKET_SIZE],
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtHit {
    /// The best move found, if any (not checked for legality).
    pub(crate) mv: Option<Move>,
    /// The search value, relative to the node.
    pub(crate) value: i32,
    /// The static evaluation.
    pub(crate) eval: i32,
    /// The depth searched.
    pub(crate) depth: i32,
    /// What the value is.
    pub(crate) bound: Bound,
}

/// The transposition table.
pub(crate) struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

/// Bytes per megabyte, as UCI's `Hash` counts them.
const MB: usize = 1 << 20;

const fn pack(
    mv: Option<Move>,
    value: i32,
    eval: i32,
    depth: i32,
    generation: u8,
    bound: Bound,
) -> u64 {
    let mv = match mv {
        Some(m) => m.to_bits() as u64,
        None => 0,
    };
    let bound = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let depth = if depth < 0 {
        0
    } else if depth > 255 {
        255
    } else {
        depth as u64
    };
    mv | ((value as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (depth << 48)
        | (((generation & 0x3f) as u64) << 56)
        | ((bound as u64) << 62)
}

const fn unpack(data: u64) -> TtHit {
    let bits = data as u16;
    TtHit {
        mv: if bits == 0 { None } else { Some(Move::from_bits(bits)) },
        value: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32,
        bound: match data >> 62 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

const fn generation_of(data: u64) -> u8 {
    ((data >> 56) & 0x3f) as u8
}

const fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one bucket).
    ///
    /// # Errors
    /// If the memory cannot be had; the caller keeps its old table.
    pub(crate) fn new(mb: usize) -> Result<TranspositionTable, TryReserveError> {
        let count = (mb.saturating_mul(MB) / core::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count)?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable { buckets, generation: AtomicU8::new(0) })
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub(crate) fn new_search(&self) {
        let next = self.generation.load(Ordering::Relaxed).wrapping_add(1) & 0x3f;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Lemire's multiply-shift maps the key onto the buckets without a division.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts fetching `key`'s bucket from memory, to be probed soon.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        rookery_core::hint::prefetch(self.bucket(key));
    }

    /// Looks `key` up.
    pub(crate) fn probe(&self, key: u64) -> Option<TtHit> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if data != 0 && entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result. Replaces the entry of the same key (keeping its move when the new
    /// result has none, and a deeper result of the same search unless the new one is exact),
    /// or else the entry that is least worth keeping: shallow and old (Stockfish's
    /// `depth - 8 * age` rule).
    pub(crate) fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        value: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut target = &bucket.entries[0];
        let mut target_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            if data == 0 {
                if target_worth > i32::MIN {
                    target = entry;
                    target_worth = i32::MIN;
                }
                continue;
            }
            if entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                let old = unpack(data);
                if bound != Bound::Exact
                    && generation_of(data) == generation
                    && old.depth > depth + 3
                {
                    return;
                }
                let mv = mv.or(old.mv);
                write(entry, key, pack(mv, value, eval, depth, generation, bound));
                return;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & 0x3f);
            let worth = depth_of(data) - 8 * age;
            if worth < target_worth {
                target = entry;
                target_worth = worth;
            }
        }
        write(target, key, pack(mv, value, eval, depth, generation, bound));
    }

    /// How full the table is, in permill: the share of the first thousand entries written
    /// by the current search (as Stockfish estimates it).
    pub(crate) fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.iter().take(1000 / BUCKET_SIZE);
        let mut total = 0;
        let mut used = 0;
        for bucket in sample {
            for entry in &bucket.entries {
                total += 1;
                let data = entry.data.load(Ordering::Relaxed);
                used += u32::from(data != 0 && generation_of(data) == generation);
            }
        }
        (used * 1000).checked_div(total).unwrap_or(0)
    }
}

fn write(entry: &Entry, key: u64, data: u64) {
    entry.data.store(data, Ordering::Relaxed);
    entry.key_xor_data.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_core::Square;

    #[test]
    fn packs_every_field() {
        let m = Move::normal(Square::E2, Square::E4);
        for (value, eval) in [(0, 0), (-31_000, 31_000), (123, -45)] {
            let hit = unpack(pack(Some(m), value, eval, 17, 5, Bound::Lower));
            assert_eq!(hit, TtHit { mv: Some(m), value, eval, depth: 17, bound: Bound::Lower });
        }
        assert_eq!(unpack(pack(None, 1, 2, -3, 0, Bound::Upper)).depth, 0);
    }

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::normal(Square::G1, Square::F3);
        assert_eq!(tt.probe(42), None);
        tt.store(42, Some(m), 30, 20, 5, Bound::Exact);
        assert_eq!(tt.probe(42).map(|h| (h.mv, h.value, h.depth)), Some((Some(m), 30, 5)));
        // A result without a move keeps the old move.
        tt.store(42, None, 10, 20, 6, Bound::Upper);
        assert_eq!(tt.probe(42).map(|h| (h.mv, h.value)), Some((Some(m), 10)));
        assert_eq!(tt.probe(43), None);
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn replaces_within_a_full_bucket() {
        let tt = TranspositionTable::new(1).unwrap();
        // Keys sharing the top bits share a bucket.
        let keys: Vec<u64> = (0..6).map(|i| 0x1234_5678_0000_0000 | i).collect();
        for (i, &key) in keys.iter().enumerate() {
            tt.store(key, None, 0, 0, i as i32 + 1, Bound::Exact);
        }
        // The deepest survive.
        assert!(tt.probe(keys[5]).is_some());
        assert!(tt.probe(keys[0]).is_none());
    }
}
