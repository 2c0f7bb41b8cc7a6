//! What the flit-level experiments of seeds 002 and 003 share: how long their runs measure, in
//! full and in `--quick` mode, and how much of a grid a quick run keeps. The setups themselves
//! are their seeds' ([`super::seed002`], [`super::seed003`]); the simulator is
//! [`crate::sim::wormhole`].

use crate::sim::wormhole::traffic::{Measure, EARLY_SATURATION, MAX_BACKLOG};

/// The measurement of the figures' runs (seed 003 Figs. 8–9, seed 002 Figs. 6–8): warm-up 5,000
/// cycles, batches of 5,000, measuring until cycle 100,000 at most, then at most 50,000 to drain;
/// the default early-saturation rule and backlog cap.
pub const FIGURE_MEASURE: Measure = Measure {
    warmup: 5_000,
    batch: 5_000,
    min_batches: 10,
    precision: 0.05,
    max_cycles: 150_000,
    drain: 50_000,
    early_saturation: EARLY_SATURATION,
    max_backlog: MAX_BACKLOG,
};

/// The measurement of a quick run: a few thousand cycles, enough for some messages to finish. It
/// exercises the code path; its numbers mean nothing.
pub const QUICK_MEASURE: Measure = Measure {
    warmup: 500,
    batch: 500,
    min_batches: 2,
    precision: 0.05,
    max_cycles: 5_000,
    drain: 3_000,
    ..FIGURE_MEASURE
};

/// [`QUICK_MEASURE`] when `quick`, else [`FIGURE_MEASURE`].
pub fn measure(quick: bool) -> Measure {
    if quick {
        QUICK_MEASURE
    } else {
        FIGURE_MEASURE
    }
}

/// The points of `grid` a run visits: all, or only the first when `quick`.
pub fn points<T>(grid: &[T], quick: bool) -> &[T] {
    if quick {
        &grid[..grid.len().min(1)]
    } else {
        grid
    }
}
