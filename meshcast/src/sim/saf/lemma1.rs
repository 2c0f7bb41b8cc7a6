//! The reduction of seed 004 Lemma 1: an `mcast(n, d, c)` set with d > c becomes at most two
//! sets with degree ≤ c (and congestion ≤ c), each then routed by Theorem 2's algorithm.
//!
//! Packet i (sources taken in snake order) has dᵢ destinations and ℓᵢ = ⌈dᵢ/c⌉ copies, the k-th
//! carrying destinations k·c … (k+1)·c − 1 of its quadtree-ordered list, placed at snake position
//! (Σⱼ<ᵢ ℓⱼ + k) mod n. As Σ ℓᵢ ≤ 2n, each node receives at most two copies: those at positions
//! below n form the first set, the others the second. The offsets Σⱼ<ᵢ ℓⱼ are one prefix
//! computation along the snake of the whole mesh ([`super::prefix::scan`]).
//!
//! Our choice: the paper routes each packet to the head of its segment and fills the segment by
//! a segmented broadcast; we make the ℓᵢ − 1 copies at the source (ℓᵢ − 1 steps) and route every
//! copy straight to its position in one routing phase — the same placement, with the copies'
//! steps and buffers measured.

use super::engine::{Arrival, Capacity, PacketId, Run, Sim};
use super::msets::MessageSet;
use super::prefix::{self, Order, Totals};
pub use super::prefix::{snake_node, snake_position};
use super::{theorem2, SimError};

/// Routes `set` (any d) by Lemma 1's reduction, when d > c, followed by Theorem 2.
pub fn route(set: &MessageSet, capacity: Capacity) -> Result<Run, SimError> {
    let mut sim = Sim::new(set, capacity);
    let packets = sim.inject_all()?;
    route_packets(&mut sim, packets, set.congestion().max(1))?;
    sim.finish()
}

/// Theorem 2 on `packets` (at most one per node, no node the destination of more than `c`),
/// after Lemma 1's reduction into two sets when some packet carries more than `c` destinations.
pub fn route_packets(sim: &mut Sim<'_>, packets: Vec<PacketId>, c: u32) -> Result<(), SimError> {
    let [first, second] = split(sim, packets, c)?;
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
) -> Result<[Vec<PacketId>; 2], SimError> {
    if packets.iter().all(|&p| sim.slots(p).len() <= c as usize) {
        return Ok([packets, Vec::new()]);
    }
    let sets = reduce(sim, packets, c)?;
    sim.mark("lemma 1 reduction");
    Ok(sets)
}

/// Splits `packets` into chunks of at most `c` destinations placed as Lemma 1 says; returns the
/// two reduced sets, each with at most one packet per node.
pub fn reduce(
    sim: &mut Sim<'_>,
    mut packets: Vec<PacketId>,
    c: u32,
) -> Result<[Vec<PacketId>; 2], SimError> {
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
    let jobs: Vec<(PacketId, u32)> = packets
        .iter()
        .zip(&pieces)
        .map(|(&p, &l)| (p, l - 1))
        .collect();
    let copies = sim.replicate(&jobs)?;
    let mut sets = [Vec::new(), Vec::new()];
    let mut moves = Vec::with_capacity(copies.len() + packets.len());
    let mut next = 0usize;
    for (&p, &l) in packets.iter().zip(&pieces) {
        let all = sim.slots(p);
        let offset = offsets.before(sim.at(p), 0);
        let chunk_of = |k: u32| all.start + k * c..(all.start + (k + 1) * c).min(all.end);
        let mut place = |sim: &mut Sim<'_>, q: PacketId, k: u32| {
            sim.set_slots(q, chunk_of(k));
            let pos = offset + k;
            sets[(pos >= n) as usize].push(q);
            moves.push((q, snake_node(side, pos % n)));
        };
        place(sim, p, 0);
        for k in 1..l {
            place(sim, copies[next], k);
            next += 1;
        }
    }
    sim.route(&moves, &[], Arrival::Hold)?;
    Ok(sets)
}
