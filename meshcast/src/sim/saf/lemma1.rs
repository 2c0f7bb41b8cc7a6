//! The reduction of seed 004 Lemma 1: an `mcast(n, d, c)` set with d > c becomes at most two
//! sets with degree ≤ c (and congestion ≤ c), each then routed by Theorem 2's algorithm.
//!
//! Packet i (sources taken in snake order) has dᵢ destinations and ℓᵢ = ⌈dᵢ/c⌉ copies, the k-th
//! carrying destinations k·c … (k+1)·c − 1 of its quadtree-ordered list, placed at snake position
//! (Σⱼ<ᵢ ℓⱼ + k) mod n. As Σ ℓᵢ ≤ 2n, each node receives at most two copies: those at positions
//! below n form the first set, the others the second. The offsets Σⱼ<ᵢ ℓⱼ are one prefix
//! computation along the snake of the whole mesh ([`super::prefix::scan`]).
//!
//! As the paper says, each packet is routed to the head of its segment (snake position Σⱼ<ᵢ ℓⱼ)
//! and the segment is filled by a [`super::broadcast::segmented_broadcast`]; the k-th copy then
//! keeps only its chunk of destinations.

use super::broadcast::segmented_broadcast;
use super::engine::{Capacity, PacketId, Run, Sim};
use super::msets::MessageSet;
use super::permute::Permutation;
use super::prefix::{self, Order, Totals};
use super::snake::{snake_node, snake_position};
use super::theorem2;
use crate::error::SafError;

/// Routes `set` (any d) by Lemma 1's reduction, when d > c, followed by Theorem 2.
pub fn route(set: &MessageSet, capacity: Capacity) -> Result<Run, SafError> {
    let mut sim = Sim::new(set, capacity);
    let packets = sim.inject_all()?;
    route_packets(&mut sim, packets, set.congestion().max(1))?;
    sim.finish()
}

/// Theorem 2 on `packets` (at most one per node, no node the destination of more than `c`),
/// after Lemma 1's reduction into two sets when some packet carries more than `c` destinations.
pub fn route_packets(sim: &mut Sim<'_>, packets: Vec<PacketId>, c: u32) -> Result<(), SafError> {
    let [first, second] = split(sim, packets, c, Permutation::Greedy)?;
    theorem2::route_packets(sim, first, c)?;
    if second.is_empty() {
        return Ok(());
    }
    theorem2::route_packets(sim, second, c)
}

/// The sets to route with degree ≤ `c`: `packets` itself (and an empty second set) when no
/// packet carries more than `c` destinations, otherwise [`reduce`]'s two sets.
pub fn split(
    sim: &mut Sim<'_>,
    packets: Vec<PacketId>,
    c: u32,
    permutation: Permutation,
) -> Result<[Vec<PacketId>; 2], SafError> {
    if packets.iter().all(|&p| sim.slots(p).len() <= c as usize) {
        return Ok([packets, Vec::new()]);
    }
    let sets = reduce(sim, packets, c, permutation)?;
    sim.mark("lemma 1 reduction");
    Ok(sets)
}

/// Splits `packets` into chunks of at most `c` destinations placed as Lemma 1 says; returns the
/// two reduced sets, each with at most one packet per node. The packets reach their segments'
/// heads by `permutation` routing.
pub fn reduce(
    sim: &mut Sim<'_>,
    mut packets: Vec<PacketId>,
    c: u32,
    permutation: Permutation,
) -> Result<[Vec<PacketId>; 2], SafError> {
    let side = sim.set().side();
    let n = side * side;
    // The order of the list is only the order of the moves (it sets FIFO ties).
    packets.sort_by_key(|&p| snake_position(side, sim.at(p)));
    let pieces: Vec<u32> = packets
        .iter()
        .map(|&p| sim.slots(p).len().div_ceil(c as usize) as u32)
        .collect();
    let mut counts = vec![0u32; n as usize];
    for (&p, &l) in packets.iter().zip(&pieces) {
        counts[sim.at(p) as usize] += l;
    }
    let offsets = prefix::scan(
        sim,
        side,
        Order::Snake,
        1,
        &counts,
        0,
        |a, b| a + b,
        Totals::Local,
    )?;
    // Every packet to the head of its segment, then the segments filled along the snake.
    let offsets: Vec<u32> = packets
        .iter()
        .map(|&p| offsets.before(sim.at(p), 0))
        .collect();
    let place = |i: usize, k: u32| snake_node(side, (offsets[i] + k) % n);
    let heads: Vec<(PacketId, u32)> = (0..packets.len())
        .map(|i| (packets[i], place(i, 0)))
        .collect();
    permutation.route(sim, &heads, side)?;
    let segments = segmented_broadcast(sim, &packets, &pieces, place)?;
    let mut sets = [Vec::new(), Vec::new()];
    for (i, segment) in segments.iter().enumerate() {
        let all = sim.slots(segment[0]);
        for (k, &q) in (0..).zip(segment) {
            sim.set_slots(q, all.start + k * c..(all.start + (k + 1) * c).min(all.end));
            sets[(offsets[i] + k >= n) as usize].push(q);
        }
    }
    Ok(sets)
}
