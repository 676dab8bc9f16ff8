//! The generator's own pseudo-random numbers: xoshiro256** (Blackman and Vigna, "Scrambled
//! linear pseudorandom number generators", 2021) seeded through SplitMix64, as its authors
//! advise. Ours rather than a dependency so that a seed gives the same tournament on every
//! platform and in every version: the tests pin the first outputs.

/// A xoshiro256** generator.
pub(super) struct Random {
    state: [u64; 4],
}

impl Random {
    /// The generator for `seed`: four SplitMix64 outputs as its state (never all zero).
    pub fn new(seed: u64) -> Random {
        let mut x = seed;
        let mut split_mix = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Random { state: [split_mix(), split_mix(), split_mix(), split_mix()] }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` (`n > 0`), without bias: Lemire's multiply-and-reject
    /// ("Fast random integer generation in an interval", 2019).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// A uniform number in `low..=high` (`low <= high`).
    pub fn between(&mut self, low: u32, high: u32) -> u32 {
        low + self.below(u64::from(high - low) + 1) as u32
    }

    /// A uniform number in `[0, 1)`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p`; draws nothing when `p` is 0, so that a rate switched off
    /// leaves the rest of the tournament as it was.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// `count` distinct indices of `0..n`, uniformly (a partial Fisher–Yates shuffle).
    pub fn choose(&mut self, n: usize, count: usize) -> Vec<usize> {
        let mut indices: Vec<usize> = (0..n).collect();
        let count = count.min(n);
        for i in 0..count {
            let j = i + self.below((n - i) as u64) as usize;
            indices.swap(i, j);
        }
        indices.truncate(count);
        indices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_of_a_seed_never_changes() {
        // SplitMix64 from 0 starts 0xe220a8397b1dcdaf (Vigna's reference splitmix64.c); the
        // xoshiro256** outputs were computed by a separate implementation of the reference
        // algorithm (xoshiro256starstar.c).
        let mut random = Random::new(0);
        assert_eq!(random.state[0], 0xe220_a839_7b1d_cdaf);
        assert_eq!(random.next_u64(), 0x99ec_5f36_cb75_f2b4);
        assert_eq!(random.next_u64(), 0xbf6e_1f78_4956_452a);
        assert_eq!(random.next_u64(), 0x1a5f_849d_4933_e6e0);
    }

    #[test]
    fn ranges_hold_their_bounds() {
        let mut random = Random::new(7);
        for _ in 0..1000 {
            assert!((3..=5).contains(&random.between(3, 5)));
            assert!((0.0..1.0).contains(&random.unit()));
        }
        assert_eq!(random.between(4, 4), 4);
        let chosen = random.choose(10, 4);
        assert_eq!(chosen.len(), 4);
        assert!(chosen.iter().all(|&i| i < 10));
        assert!((1..4).all(|i| !chosen[..i].contains(&chosen[i])));
    }
}
