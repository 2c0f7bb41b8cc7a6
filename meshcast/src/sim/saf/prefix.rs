//! Prefix computations on square (sub)meshes (seed 004 Proposition 1, after Leighton §1.2).
//!
//! The schedule is the standard three sweeps over an `s × s` tile: a prefix along every row
//! (s − 1 steps), a prefix of the row totals down the last column (s − 1 steps), and a broadcast
//! of each row's offset back along the row (s − 1 steps); `count` prefixes with independent
//! values pipeline one step apart. The values are counters held in node registers, not packets,
//! so they occupy no buffer slot; [`charge`] adds the schedule's steps and control-word
//! transmissions to the simulator, and the algorithms compute the same sums directly (a pass in
//! row-major order of the tile, the order the sweeps realise).

use super::engine::Sim;
use super::SimError;

/// Charges `count` pipelined prefix computations run in parallel on `tiles` tiles of side `s`.
pub fn charge(sim: &mut Sim<'_>, s: u32, tiles: u64, count: u64) -> Result<(), SimError> {
    if count == 0 || s < 2 {
        return Ok(());
    }
    let s = u64::from(s);
    let steps = 3 * (s - 1) + count - 1;
    let words_per_tile = 2 * s * (s - 1) + (s - 1);
    sim.charge_words(steps, count * tiles * words_per_tile)
}
