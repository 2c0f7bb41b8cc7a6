//! The segmented broadcast of seed 004 (Proposition 3's Substep 2.(c), Lemma 1, §5's Step 1(b)):
//! every segment's head fills the segment's nodes with copies of itself, one node per step.
//!
//! The paper implements it as a prefix computation with a suitable operator ([9, §1.2.1]); here it
//! moves real packets: step after step, the last packet of every unfinished segment copies itself
//! (one step) and the copy is routed to the segment's next node, usually the next node of a
//! snake, one hop away. It takes about twice the longest segment, and no node holds more than the
//! segments crossing it.

use super::engine::{Arrival, PacketId, Sim};
use crate::error::SafError;

/// A segmented broadcast (seed 004 Proposition 3's Substep 2.(c)): segment `i` starts with
/// `heads[i]` at `node(i, 0)` and is `lengths[i]` long; step after step, the last packet of every
/// unfinished segment copies itself (one step) and the copy moves to the segment's next node
/// `node(i, k)` (routed). Returns every segment's packets, head first.
pub fn segmented_broadcast(
    sim: &mut Sim<'_>,
    heads: &[PacketId],
    lengths: &[u32],
    node: impl Fn(usize, u32) -> u32,
) -> Result<Vec<Vec<PacketId>>, SafError> {
    let mut segments: Vec<Vec<PacketId>> = heads.iter().map(|&c| vec![c]).collect();
    let longest = lengths.iter().copied().max().unwrap_or(0);
    for k in 1..longest {
        let open: Vec<usize> = (0..segments.len()).filter(|&i| lengths[i] > k).collect();
        let jobs: Vec<(PacketId, u32)> = open
            .iter()
            .map(|&i| (*segments[i].last().expect("a segment has its head"), 1))
            .collect();
        let made = sim.replicate(&jobs)?;
        let moves: Vec<(PacketId, u32)> = open
            .iter()
            .zip(&made)
            .map(|(&i, &c)| (c, node(i, k)))
            .collect();
        sim.route(&moves, &[], Arrival::Hold)?;
        for (&i, &c) in open.iter().zip(&made) {
            segments[i].push(c);
        }
    }
    Ok(segments)
}
