//! Hints to the processor: they change no result, only how soon it comes.

/// Starts fetching the cache line that holds `value` into the processor's caches, so that a
/// read of it soon after does not wait for memory. The engine asks for a child position's
/// transposition-table bucket as soon as it knows the child's key, and overlaps the fetch
/// with the work before the child looks the key up (measured in BENCHMARKS.md, "Evaluation
/// network, second round"). Does nothing on processors other than x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `_mm_prefetch` is unsafe only because it is an SSE instruction, and SSE is part
    // of every x86-64 processor. A prefetch reads nothing into the program, cannot fault and
    // changes no memory; the address comes from a live reference besides.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
