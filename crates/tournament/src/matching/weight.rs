//! Edge weights: any exact integer type with the few operations the matching needs. Pairing
//! criteria are packed into one weight field by field, highest priority in the highest bits
//! (as published Dutch engines do), so the Dutch engine needs integers of hundreds of bits:
//! [`Wide`], fixed-width two's complement, picked at run time by the bits a round needs.

use std::cmp::Ordering;
use std::fmt;

/// An exact signed integer usable as an edge weight and a dual variable.
pub trait Weight: Copy + Ord + fmt::Debug {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// `self + other`.
    fn add(self, other: Self) -> Self;
    /// `self - other`.
    fn sub(self, other: Self) -> Self;
    /// `self / 2`, exact for even values (rounds toward minus infinity otherwise).
    fn half(self) -> Self;
    /// Whether the value is even.
    fn is_even(self) -> bool;
    /// The number of value bits (the sign bit excluded).
    const BITS: u32;
    /// A small non-negative value.
    fn from_u64(value: u64) -> Self;
    /// `self << bits`; bits shifted out are lost.
    fn shl(self, bits: u32) -> Self;
    /// `self * 2`.
    fn double(self) -> Self {
        self.add(self)
    }
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    const ONE: i64 = 1;
    fn add(self, other: i64) -> i64 {
        self + other
    }
    fn sub(self, other: i64) -> i64 {
        self - other
    }
    fn half(self) -> i64 {
        self >> 1
    }
    fn is_even(self) -> bool {
        self & 1 == 0
    }
    const BITS: u32 = 63;
    fn from_u64(value: u64) -> i64 {
        value as i64
    }
    fn shl(self, bits: u32) -> i64 {
        self << bits
    }
}

impl Weight for i128 {
    const ZERO: i128 = 0;
    const ONE: i128 = 1;
    fn add(self, other: i128) -> i128 {
        self + other
    }
    fn sub(self, other: i128) -> i128 {
        self - other
    }
    fn half(self) -> i128 {
        self >> 1
    }
    fn is_even(self) -> bool {
        self & 1 == 0
    }
    const BITS: u32 = 127;
    fn from_u64(value: u64) -> i128 {
        value as i128
    }
    fn shl(self, bits: u32) -> i128 {
        self << bits
    }
}

/// A signed integer of `64 * N` bits, two's complement, little-endian limbs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    /// `1 << bit`.
    ///
    /// # Panics
    ///
    /// If `bit` is not below [`Wide::BITS`].
    pub fn bit(bit: u32) -> Wide<N> {
        assert!(
            bit < <Self as Weight>::BITS,
            "bit {bit} does not fit in {} bits",
            <Self as Weight>::BITS
        );
        let mut limbs = [0; N];
        limbs[(bit / 64) as usize] = 1 << (bit % 64);
        Wide(limbs)
    }

    fn shift_left(self, shift: u32) -> Wide<N> {
        let (limb_shift, bit_shift) = ((shift / 64) as usize, shift % 64);
        let mut out = [0; N];
        for i in (limb_shift..N).rev() {
            let mut limb = self.0[i - limb_shift] << bit_shift;
            if bit_shift > 0 && i > limb_shift {
                limb |= self.0[i - limb_shift - 1] >> (64 - bit_shift);
            }
            out[i] = limb;
        }
        Wide(out)
    }

    fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline(always)]
    fn cmp(&self, other: &Wide<N>) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        // Same sign: two's complement orders like unsigned.
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Wide<N>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wide(")?;
        for limb in self.0.iter().rev() {
            write!(f, "{limb:016x}")?;
        }
        write!(f, ")")
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Wide<N> = Wide([0; N]);
    const ONE: Wide<N> = {
        let mut limbs = [0; N];
        limbs[0] = 1;
        Wide(limbs)
    };

    #[inline(always)]
    fn add(self, other: Wide<N>) -> Wide<N> {
        let mut out = [0; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    #[inline(always)]
    fn sub(self, other: Wide<N>) -> Wide<N> {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(borrow as u64);
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    fn half(self) -> Wide<N> {
        let mut out = [0; N];
        for (i, limb) in out.iter_mut().enumerate() {
            let high = if i + 1 < N {
                self.0[i + 1] << 63
            } else {
                // Arithmetic shift: the sign bit stays.
                self.0[i] & (1 << 63)
            };
            *limb = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    fn is_even(self) -> bool {
        self.0[0] & 1 == 0
    }

    const BITS: u32 = 64 * N as u32 - 1;

    fn from_u64(value: u64) -> Wide<N> {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    fn shl(self, bits: u32) -> Wide<N> {
        self.shift_left(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(v: i128) -> Wide<3> {
        let low = v as u128;
        let sign = if v < 0 { u64::MAX } else { 0 };
        Wide([low as u64, (low >> 64) as u64, sign])
    }

    #[test]
    fn wide_arithmetic_agrees_with_i128() {
        let values = [
            0i128,
            1,
            -1,
            2,
            -2,
            7,
            i64::MAX as i128,
            i64::MIN as i128,
            1 << 100,
            -(1 << 100),
            12345678901234567890123,
        ];
        for &a in &values {
            for &b in &values {
                assert_eq!(wide(a).add(wide(b)), wide(a + b), "{a} + {b}");
                assert_eq!(wide(a).sub(wide(b)), wide(a - b), "{a} - {b}");
                assert_eq!(wide(a).cmp(&wide(b)), a.cmp(&b), "{a} <=> {b}");
            }
            assert_eq!(wide(a).half(), wide(a >> 1), "{a} / 2");
            assert_eq!(wide(a).is_even(), a % 2 == 0);
        }
    }

    #[test]
    fn wide_bits_and_shifts() {
        assert_eq!(Wide::<3>::bit(70), wide(1 << 70));
        assert_eq!(Wide::<3>::from_u64(5).shl(66), wide(5 << 66));
        assert_eq!(Wide::<3>::from_u64(u64::MAX).shl(1), wide((u64::MAX as i128) << 1));
        assert_eq!(Wide::<2>::from_u64(3).shl(64), Wide([0, 3]));
    }
}
