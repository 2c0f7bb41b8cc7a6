//! Hints to the processor that change no result: the one place of the crate with `unsafe`.
//!
//! [`prefetch`] asks for a cache line ahead of its use. The hot loops that walk arrays far larger
//! than the caches in an order the hardware prefetcher cannot guess — the store-and-forward
//! engine's queues and their spill blocks ([`crate::sim::saf`]), the tree listing's node records
//! ([`crate::algo`]), the worms a switched cycle of the wormhole simulator visits
//! ([`crate::sim::wormhole`]) — ask for what they will read a little later, so that its misses
//! overlap with the work in between (docs/PERFORMANCE.md).

/// Asks the processor to bring `item`'s cache line into the caches, without waiting for it.
/// Elsewhere than on x86-64, nothing.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints: it loads nothing into the program, cannot fault, and
    // `item` is a live reference besides.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
