//! The deterministic O(c)-buffer algorithm of seed 004 §3 (Theorem 2): optimal Θ(√(cn)) steps
//! for any `mcast(n, d, c)` set with d ≤ c, using buffers of Θ(c) packets.
//!
//! 1. Nested 4ⁱ-tile replication: for i = 0 … L − 1 every node copies each packet it holds three
//!    times and routes the copies to its three 4ⁱ-siblings (the nodes at the same relative place
//!    in the other quadrants of its 4ⁱ-tile), so that after the last iteration every 4ᴸ-tile holds
//!    the whole message set, 4ᴸ ≥ c packets per node.
//! 2. In parallel in every 4ᴸ-tile: (a) strip each packet's destinations outside the tile and drop
//!    packets with none; classes Cⱼ by destinations in the tile, 2ʲ ≤ count < 2ʲ⁺¹; (b) rank every
//!    class by ⌊log₂ d⌋ + 1 pipelined prefix computations and send the packet of rank r in Cⱼ to
//!    the (r mod n/4ᴸ)-th node of the tile (row-major); (c) route there; (d) make one clone per
//!    destination in the tile; (e) route every clone to its destination.
//!
//! The paper takes L = log₄ c exactly (c a power of 4); we take L = ⌈log₄ c⌉, so the tiles are the
//! paper's or a quarter of them at worst, which keeps every bound within a factor 4. The mesh side
//! must be divisible by 2ᴸ (the quadrants must be whole). Routing is the simulator's greedy
//! dimension-order routing, standing in for the (k, k)-routing of Proposition 2; the ranks are
//! [`super::prefix::rank`]'s pipelined prefix computations.

use std::ops::Range;

use rayon::prelude::*;

use super::engine::{Arrival, Capacity, PacketId, Run, Sim};
use super::msets::{quad_key, MessageSet};
use super::prefix::{self, Order, Totals};
use crate::error::InputError;
use crate::error::SafError;

/// Routes `set` (degree ≤ congestion) by Theorem 2's algorithm with buffers bounded by `capacity`.
pub fn route(set: &MessageSet, capacity: Capacity) -> Result<Run, SafError> {
    if set.degree() > set.congestion() {
        return Err(SafError::Input(InputError::Setting {
            name: "degree",
            value: set.degree().to_string(),
            allowed: "at most the congestion for theorem2 (use lemma1 when d > c)",
        }));
    }
    let mut sim = Sim::new(set, capacity);
    let packets = sim.inject_all()?;
    route_packets(&mut sim, packets, set.congestion())?;
    sim.finish()
}

/// Routes `packets` (at most one per node, each carrying at most `c` destination slots, no node
/// the destination of more than `c` of them) to all their destinations, as Theorem 2 does.
pub fn route_packets(sim: &mut Sim<'_>, packets: Vec<PacketId>, c: u32) -> Result<(), SafError> {
    let side = sim.set().side();
    let levels = levels_for(c);
    check(side, c)?;
    let held = replicate_into_tiles(sim, packets, levels)?;
    sim.mark("1 replicate into c-tiles");
    let held = strip(sim, held, levels);
    sim.mark("2a strip");
    let moves = intermediate_nodes(sim, &held, levels)?;
    sim.mark("2b rank");
    sim.route(&moves, &[], Arrival::Hold)?;
    sim.mark("2c to intermediate nodes");
    let clones = make_clones(sim, &held)?;
    sim.mark("2d clone");
    sim.route(&clones, &[], Arrival::Deliver)?;
    sim.mark("2e clones to destinations");
    Ok(())
}

/// The meshes theorem2 refuses for congestion `c`, before any work: the side must be a multiple
/// of 2^⌈log₄ c⌉.
pub fn check(side: u32, c: u32) -> Result<(), SafError> {
    if !side.is_multiple_of(1 << levels_for(c)) {
        return Err(SafError::Input(InputError::Setting {
            name: "side",
            value: side.to_string(),
            allowed: "a multiple of 2^⌈log₄ c⌉ for theorem2 (the 4ⁱ-tiles must be whole)",
        }));
    }
    Ok(())
}

/// L = ⌈log₄ c⌉.
pub fn levels_for(c: u32) -> u32 {
    let mut l = 0;
    while 4u64.pow(l) < u64::from(c) {
        l += 1;
    }
    l
}

/// Step 1: after it, every node holds a copy of every packet of its 4ᴸ-tile sibling class.
fn replicate_into_tiles(
    sim: &mut Sim<'_>,
    mut held: Vec<PacketId>,
    levels: u32,
) -> Result<Vec<PacketId>, SafError> {
    let side = sim.set().side();
    for i in 0..levels {
        let half = (side >> i) / 2;
        let jobs: Vec<(PacketId, u32)> = held.iter().map(|&p| (p, 3)).collect();
        let copies = sim.replicate(&jobs)?;
        let mut moves = Vec::with_capacity(copies.len());
        for (j, &p) in held.iter().enumerate() {
            let at = sim.at(p);
            let (x, y) = (at % side, at / side);
            let (sx, sy) = (other_half(x, half), other_half(y, half));
            let targets = [sx + y * side, x + sy * side, sx + sy * side];
            for (k, &t) in targets.iter().enumerate() {
                moves.push((copies[3 * j + k], t));
            }
        }
        sim.route(&moves, &[], Arrival::Hold)?;
        held.extend(copies);
    }
    Ok(held)
}

/// Coordinate `x` moved to the other half of its tile of side 2·`half`.
fn other_half(x: u32, half: u32) -> u32 {
    if x % (2 * half) < half {
        x + half
    } else {
        x - half
    }
}

/// Step 2a: keep each packet's destinations inside its own 4ᴸ-tile; drop packets left with none.
/// The kept slots are found on the rayon pool, the headers rewritten in order.
fn strip(sim: &mut Sim<'_>, held: Vec<PacketId>, levels: u32) -> Vec<PacketId> {
    let set = sim.set();
    let side = set.side();
    // Every node's tile, once: the partitions below look up about 2 log₂ d tiles per packet.
    let tiles: Vec<u64> = (0..side * side)
        .map(|v| tile_prefix(side, levels, v))
        .collect();
    let tile_of = |node: u32| tiles[node as usize];
    let inside: Vec<Range<u32>> = held
        .par_iter()
        .map(|&p| {
            let here = tile_of(sim.at(p));
            let Range { start: lo, end: hi } = sim.slots(p);
            let first = lo + partition(lo, hi, |s| tile_of(set.dest(s)) < here);
            first..lo + partition(lo, hi, |s| tile_of(set.dest(s)) <= here)
        })
        .collect();
    let mut kept = Vec::with_capacity(held.len());
    for (p, slots) in held.into_iter().zip(inside) {
        if slots.is_empty() {
            sim.discard(p);
        } else {
            sim.set_slots(p, slots);
            kept.push(p);
        }
    }
    kept
}

/// The number of slots in `lo..hi` satisfying `pred`, which holds on a prefix of the range.
pub(super) fn partition(lo: u32, hi: u32, pred: impl Fn(u32) -> bool) -> u32 {
    let (mut a, mut b) = (lo, hi);
    while a < b {
        let m = a + (b - a) / 2;
        if pred(m) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    a - lo
}

/// The 4ᴸ-tile of `node` as a quadtree prefix: tiles are contiguous in quadtree order.
fn tile_prefix(side: u32, levels: u32, node: u32) -> u64 {
    let all = side.trailing_zeros();
    let m = u64::from(side >> all);
    quad_key(side, node) / (m * m * 4u64.pow(all - levels))
}

/// Step 2b: ranks per tile and class in row-major node order (⌊log₂ d⌋ + 1 pipelined prefix
/// computations), and the intermediate node each rank maps to.
fn intermediate_nodes(
    sim: &mut Sim<'_>,
    held: &[PacketId],
    levels: u32,
) -> Result<Vec<(PacketId, u32)>, SafError> {
    let side = sim.set().side();
    let ts = side >> levels;
    let d = held
        .iter()
        .map(|&p| sim.slots(p).len() as u32)
        .max()
        .unwrap_or(1);
    let classes = d.ilog2() + 1;
    let order: Vec<PacketId> = prefix::stable_order(held.iter().map(|&p| sim.at(p)))
        .into_iter()
        .map(|i| held[i as usize])
        .collect();
    let items: Vec<(u32, u32)> = order
        .iter()
        .map(|&p| (sim.at(p), (sim.slots(p).len() as u32).ilog2()))
        .collect();
    let ranks = prefix::rank(sim, ts, Order::RowMajor, classes, &items, Totals::Local)?;
    let moves = order
        .iter()
        .zip(&items)
        .zip(&ranks.rank)
        .map(|((&p, &(at, _)), &r)| {
            let (x, y) = (at % side, at / side);
            let k = r % (ts * ts);
            (p, (x / ts * ts + k % ts) + (y / ts * ts + k / ts) * side)
        })
        .collect();
    Ok(moves)
}

/// Step 2d: one clone per destination; the packet itself becomes the clone of its last one.
fn make_clones(sim: &mut Sim<'_>, held: &[PacketId]) -> Result<Vec<(PacketId, u32)>, SafError> {
    let jobs: Vec<(PacketId, u32)> = held
        .iter()
        .map(|&p| (p, sim.slots(p).len() as u32 - 1))
        .collect();
    let copies = sim.replicate(&jobs)?;
    let mut out = Vec::with_capacity(copies.len() + held.len());
    let mut next = 0;
    for &(p, k) in &jobs {
        let r = sim.slots(p);
        for (j, &clone) in copies[next..next + k as usize].iter().enumerate() {
            let s = r.start + j as u32;
            sim.set_slots(clone, s..s + 1);
            out.push((clone, sim.set().dest(s)));
        }
        next += k as usize;
        sim.set_slots(p, r.end - 1..r.end);
        out.push((p, sim.set().dest(r.end - 1)));
    }
    Ok(out)
}
