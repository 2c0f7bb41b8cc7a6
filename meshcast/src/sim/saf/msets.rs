//! `mcast(n, d, c)` message sets (seed 004 §1): their representation and generators.
//!
//! A [`MessageSet`] on a `side × side` mesh gives node `i` (id = x + side·y) message `i` with a
//! set of destinations. The destinations of all messages form one flat array of *slots*; message
//! `i` owns a contiguous range of slots, stored in quadtree order ([`quad_key`]) so that every
//! tile of a nested 4ⁱ tessellation owns a contiguous run of a message's slots — a packet's header
//! is then a range of slots, and stripping the addresses outside a tile is O(1).
//!
//! Generators:
//! - [`random`]: random sets with degree exactly `d` and congestion exactly `c` (procedure below);
//! - [`theorem1`]: the adversarial set of Theorem 1, `c|A|` messages from B into a square
//!   submesh A, with its lower bound ([`LowerBound`]).
//!
//! ```
//! use meshcast::sim::saf::msets;
//! let set = msets::random(16, 4, 6, 1).unwrap();
//! assert_eq!((set.degree(), set.congestion()), (4, 6));
//! let (adv, bound) = msets::theorem1(16, 4).unwrap();
//! assert_eq!(adv.congestion(), 4);
//! assert!(bound.steps >= 1);
//! ```

use std::ops::Range;

use rand::rngs::ChaCha8Rng;
use rand::RngExt;
use rayon::prelude::*;

use crate::error::InputError;
use crate::topology::Shape;
use crate::workload::{random_destinations, seeded};

/// The messages of an `mcast(n, d, c)` instance: one per node, each with a set of destinations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageSet {
    side: u32,
    offsets: Vec<u32>,
    dests: Vec<u32>,
}

impl MessageSet {
    /// The set whose message `i` has destinations `lists[i]` on a `side × side` mesh. Each list
    /// must hold distinct node ids other than `i`.
    pub fn new(side: u32, lists: &[Vec<u32>]) -> Result<MessageSet, InputError> {
        let n = checked_nodes(side)?;
        if lists.len() != n {
            return Err(setting(
                "message count",
                lists.len(),
                "one message per node",
            ));
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut dests = Vec::new();
        let mut seen = vec![u32::MAX; n];
        offsets.push(0);
        for (i, list) in lists.iter().enumerate() {
            for &t in list {
                if t as usize >= n {
                    return Err(InputError::NodeIndex {
                        index: t as usize,
                        len: n,
                    });
                }
                if t as usize == i {
                    return Err(InputError::SourceIsDestination(t.to_string()));
                }
                if seen[t as usize] == i as u32 {
                    return Err(InputError::DuplicateNode(t.to_string()));
                }
                seen[t as usize] = i as u32;
            }
            dests.extend_from_slice(list);
            offsets.push(dests.len() as u32);
        }
        sort_in_quadtree_order(side, &mut dests, &offsets);
        Ok(MessageSet {
            side,
            offsets,
            dests,
        })
    }

    /// The mesh side √n.
    pub fn side(&self) -> u32 {
        self.side
    }

    /// The number of nodes (and of messages) n.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there are no messages (never: a mesh has at least 4 nodes).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slots of message `msg`'s destinations.
    pub fn slots(&self, msg: u32) -> Range<u32> {
        self.offsets[msg as usize]..self.offsets[msg as usize + 1]
    }

    /// The destination node of slot `s`.
    pub fn dest(&self, s: u32) -> u32 {
        self.dests[s as usize]
    }

    /// The destinations of message `msg`, in quadtree order.
    pub fn dests(&self, msg: u32) -> &[u32] {
        let r = self.slots(msg);
        &self.dests[r.start as usize..r.end as usize]
    }

    /// The number of messages with at least one destination.
    pub fn len_with_dests(&self) -> usize {
        self.offsets.windows(2).filter(|w| w[1] > w[0]).count()
    }

    /// The slot among `slots` (a range of one message's) whose destination is `node`, by binary
    /// search in quadtree order.
    pub fn find(&self, slots: Range<u32>, node: u32) -> Option<u32> {
        if slots.len() == 1 {
            // A unicast (a clone, a copy of naive): no key to compute.
            return (self.dests[slots.start as usize] == node).then_some(slots.start);
        }
        let key = quad_key(self.side, node);
        let range = &self.dests[slots.start as usize..slots.end as usize];
        let i = range.partition_point(|&t| quad_key(self.side, t) < key);
        (range.get(i) == Some(&node)).then_some(slots.start + i as u32)
    }

    /// The total number of deliveries Σ dᵢ.
    pub fn deliveries(&self) -> usize {
        self.dests.len()
    }

    /// The degree d: the most destinations of any message.
    pub fn degree(&self) -> u32 {
        self.offsets
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }

    /// The congestion c: the most messages any node is a destination of.
    pub fn congestion(&self) -> u32 {
        let mut load = vec![0u32; self.len()];
        for &t in &self.dests {
            load[t as usize] += 1;
        }
        load.into_iter().max().unwrap_or(0)
    }
}

/// The position of node `t` in quadtree order on a `side × side` mesh: quadrant digits (x bit,
/// then y bit) for as many halvings as `side` allows, then row-major within the smallest tile.
/// Every tile of the nested tessellation into 4ⁱ tiles (i ≤ trailing zeros of `side`) is a
/// contiguous range of keys.
pub fn quad_key(side: u32, t: u32) -> u64 {
    let levels = side.trailing_zeros();
    if side.is_power_of_two() {
        // The same digits without divisions: bit k of x and y at quadtree level levels − 1 − k,
        // that is x's bits interleaved with y's (a Morton code).
        let (x, y) = (t & (side - 1), t >> levels);
        return spread_bits(x) | spread_bits(y) << 1;
    }
    let (x, y) = (t % side, t / side);
    let mut key = 0u64;
    let mut s = side;
    for _ in 0..levels {
        s /= 2;
        key = key * 4 + u64::from((x / s) & 1) + 2 * u64::from((y / s) & 1);
    }
    let m = side >> levels;
    key * u64::from(m) * u64::from(m) + u64::from((y % m) * m + x % m)
}

/// Sorts each message's slots (`offsets` bound them) by [`quad_key`], the messages in parallel:
/// a message's keys are distinct, so an unstable sort of key and node together gives the one
/// order.
fn sort_in_quadtree_order(side: u32, dests: &mut [u32], offsets: &[u32]) {
    let mut messages = Vec::with_capacity(offsets.len());
    let mut rest = dests;
    for w in offsets.windows(2) {
        let (message, tail) = std::mem::take(&mut rest).split_at_mut((w[1] - w[0]) as usize);
        messages.push(message);
        rest = tail;
    }
    messages
        .par_iter_mut()
        .for_each_init(Vec::new, |keyed, message| {
            keyed.clear();
            keyed.extend(message.iter().map(|&t| (quad_key(side, t), t)));
            keyed.sort_unstable();
            for (slot, &(_, t)) in message.iter_mut().zip(keyed.iter()) {
                *slot = t;
            }
        });
}

/// The bits of `v` at the even positions of a 64-bit word (bit k at bit 2k).
fn spread_bits(v: u32) -> u64 {
    let mut x = u64::from(v);
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// A random `mcast(n, d, c)` set on a `side × side` mesh with degree exactly `d` and congestion
/// exactly `c`, reproducible from `seed` (ChaCha8Rng).
///
/// Procedure: (1) a hot node h is drawn uniformly and `c` distinct sources other than h are drawn
/// (Floyd's sampling); each gets h as a destination, so h's congestion is exactly `c`. (2) The
/// sources are visited in a uniformly random order (Fisher–Yates); each draws its remaining
/// destinations uniformly without replacement (a partial Fisher–Yates shuffle) among the nodes
/// other than itself that are destinations of fewer than `c` messages so far, until it has `d` or
/// no such node is left. Every message therefore has at most `d` destinations and every node at
/// most `c` incoming messages; a message ends with fewer than `d` only when fewer than `d` nodes
/// with spare congestion remain, which happens when `d·n` approaches `c·n` (late in the fill for
/// d = c, and for d > c, where Σ dᵢ ≤ cn forces it).
pub fn random(side: u32, d: u32, c: u32, seed: u64) -> Result<MessageSet, InputError> {
    let n = check_random(side, d, c)?;
    let mut rng = seeded(seed);
    let shape = Shape::mesh(&[side, side])?;
    let hot = rng.random_range(0..n as u32);
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
    let hot_node = shape.node_at(hot as usize)?;
    for s in random_destinations(&shape, hot_node, c as usize, &mut rng)? {
        lists[s.index()].push(hot);
    }
    let mut load = vec![0u32; n];
    load[hot as usize] = c;
    let mut eligible: Vec<u32> = (0..n as u32).filter(|&t| t != hot).collect();
    let mut order: Vec<u32> = (0..n as u32).collect();
    shuffle(&mut order, &mut rng);
    for &s in &order {
        fill(
            &mut lists[s as usize],
            s,
            d,
            c,
            &mut load,
            &mut eligible,
            &mut rng,
        );
    }
    MessageSet::new(side, &lists)
}

fn shuffle(v: &mut [u32], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// Tops `list` (source `s`) up to `d` destinations drawn from `eligible` (nodes with load < c).
fn fill(
    list: &mut Vec<u32>,
    s: u32,
    d: u32,
    c: u32,
    load: &mut [u32],
    eligible: &mut Vec<u32>,
    rng: &mut ChaCha8Rng,
) {
    let mut j = 0;
    while list.len() < d as usize && j < eligible.len() {
        let pick = rng.random_range(j..eligible.len());
        eligible.swap(j, pick);
        let t = eligible[j];
        j += 1;
        if t != s {
            list.push(t);
            load[t as usize] += 1;
        }
    }
    // Only the j nodes just drawn, now at the front, can have become saturated.
    for i in (0..j).rev() {
        if load[eligible[i] as usize] >= c {
            eligible.swap_remove(i);
        }
    }
}

/// The lower bound of Theorem 1 for one adversarial instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LowerBound {
    /// The side of the square submesh A (at the corner x, y < side_a).
    pub side_a: u32,
    /// Messages that must enter A: c·|A|.
    pub messages: u64,
    /// Links that lead into A: 2·side_a at the corner.
    pub entry_links: u64,
    /// ⌈messages / entry_links⌉: each message crosses into A at least once, at most one per link
    /// per step.
    pub bandwidth: u64,
    /// The largest source–destination distance (no copy arrives sooner).
    pub distance: u64,
    /// max(bandwidth, distance): no algorithm finishes in fewer steps.
    pub steps: u64,
}

/// The adversarial `mcast(n, 1, c)` set of Theorem 1 (seed 004 §3) and its lower bound.
///
/// A is the square submesh of side `max(1, ⌊√(n/(2c))⌋)` placed at the corner (x, y < side_a),
/// where only 2·side_a links enter it (the paper leaves the place open; the corner is the
/// tightest). B is the rest. The `c|A|` nodes of B farthest from A (ties by id) each send one
/// message with exactly one destination in A, the j-th of them to the (j mod |A|)-th node of A in
/// row-major order, so every node of A is the destination of exactly c messages; the other nodes
/// send messages without destinations. Degree 1 ≤ d, so it is an `mcast(n, d, c)` set for every d.
pub fn theorem1(side: u32, c: u32) -> Result<(MessageSet, LowerBound), InputError> {
    let n = check_theorem1(side, c)?;
    let mut a = 1u32;
    while 2 * u64::from(c) * u64::from(a + 1).pow(2) <= n as u64 {
        a += 1;
    }
    let gap = |t: u32| -> u32 {
        let (x, y) = (t % side, t / side);
        (x + 1).saturating_sub(a) + (y + 1).saturating_sub(a)
    };
    let mut b: Vec<u32> = (0..n as u32).filter(|&t| gap(t) > 0).collect();
    b.sort_by_key(|&t| (std::cmp::Reverse(gap(t)), t));
    let area = (a * a) as usize;
    let count = c as usize * area;
    let mut lists = vec![Vec::new(); n];
    let mut distance = 0u64;
    for (j, &s) in b.iter().take(count).enumerate() {
        let t = ((j % area) as u32 / a) * side + (j % area) as u32 % a;
        distance = distance.max(u64::from(manhattan(side, s, t)));
        lists[s as usize].push(t);
    }
    let messages = count as u64;
    let entry_links = 2 * u64::from(a);
    let bandwidth = messages.div_ceil(entry_links);
    let bound = LowerBound {
        side_a: a,
        messages,
        entry_links,
        bandwidth,
        distance,
        steps: bandwidth.max(distance),
    };
    Ok((MessageSet::new(side, &lists)?, bound))
}

/// An `mcast(n, d, d)` set that separates naive replication from the optimal algorithms (the
/// argument of seed 004 §1): every node of the left half (x < side/2) sends one message to `d`
/// destinations next to each other in the right half, the j-th left node (row-major) to the right
/// nodes j, j + 1, …, j + d − 1 (row-major, modulo n/2), so every right node receives exactly `d`
/// messages. Naive replication pushes all n·d/2 copies over the `side` links that cross the
/// bisection, at least side·d/2 steps ([`bisection_bound`]); an algorithm that replicates near
/// the destinations needs O(√(dn)). The side must be even and d ≤ n/2.
pub fn bisection(side: u32, d: u32) -> Result<MessageSet, InputError> {
    let n = check_bisection(side, d)?;
    let half = side / 2;
    let right = (n / 2) as u32;
    let node = |j: u32, offset: u32| (j / half) * side + offset + j % half;
    let mut lists = vec![Vec::new(); n];
    for j in 0..right {
        lists[node(j, 0) as usize] = (0..d).map(|k| node((j + k) % right, half)).collect();
    }
    MessageSet::new(side, &lists)
}

/// The steps naive replication needs at least on [`bisection`]`(side, d)`: n·d/2 unicast copies
/// cross the `side` left-to-right links of the bisection, one per link per step.
pub fn bisection_bound(side: u32, d: u32) -> u64 {
    (u64::from(side) * u64::from(side) / 2 * u64::from(d)).div_ceil(u64::from(side))
}

/// Hops between nodes `s` and `t` of the mesh.
pub fn manhattan(side: u32, s: u32, t: u32) -> u32 {
    (s % side).abs_diff(t % side) + (s / side).abs_diff(t / side)
}

/// The settings [`random`] refuses; its node count otherwise.
pub fn check_random(side: u32, d: u32, c: u32) -> Result<usize, InputError> {
    let n = checked_nodes(side)?;
    if d == 0 || d as usize >= n {
        return Err(setting("d", d as usize, "1 ≤ d < n (the node count)"));
    }
    check_congestion(n, c)?;
    Ok(n)
}

/// The settings [`theorem1`] refuses; its node count otherwise.
pub fn check_theorem1(side: u32, c: u32) -> Result<usize, InputError> {
    let n = checked_nodes(side)?;
    check_congestion(n, c)?;
    Ok(n)
}

/// The settings [`bisection`] refuses; its node count otherwise.
pub fn check_bisection(side: u32, d: u32) -> Result<usize, InputError> {
    let n = checked_nodes(side)?;
    if !side.is_multiple_of(2) {
        return Err(setting(
            "side",
            side as usize,
            "an even mesh side for the bisection set",
        ));
    }
    if d == 0 || d as usize > n / 2 {
        return Err(setting(
            "d",
            d as usize,
            "1 ≤ d ≤ n/2 for the bisection set",
        ));
    }
    Ok(n)
}

fn check_congestion(n: usize, c: u32) -> Result<(), InputError> {
    if c == 0 || c as usize >= n {
        return Err(setting("c", c as usize, "1 ≤ c < n (the node count)"));
    }
    Ok(())
}

fn checked_nodes(side: u32) -> Result<usize, InputError> {
    if !(2..=4096).contains(&side) {
        return Err(setting("side", side as usize, "a mesh side from 2 to 4096"));
    }
    Ok((side * side) as usize)
}

fn setting(name: &'static str, value: usize, allowed: &'static str) -> InputError {
    InputError::Setting {
        name,
        value: value.to_string(),
        allowed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_key_interleaves_the_digits_of_the_halvings() {
        for side in [1, 2, 4, 8, 32, 256, 1 << 12] {
            for t in (0..side * side).step_by((side as usize * side as usize / 4096).max(1)) {
                // The quadtree digits, most significant first, by halving the side.
                let (x, y, mut s, mut key) = (t % side, t / side, side, 0u64);
                while s > 1 {
                    s /= 2;
                    key = key * 4 + u64::from((x / s) & 1) + 2 * u64::from((y / s) & 1);
                }
                assert_eq!(quad_key(side, t), key, "side {side}, node {t}");
            }
        }
    }

    #[test]
    fn quad_key_keeps_tiles_contiguous() {
        let side = 8;
        let mut nodes: Vec<u32> = (0..64).collect();
        nodes.sort_by_key(|&t| quad_key(side, t));
        // The first 16 keys are the 4×4 tile at the origin, the first 4 its 2×2 corner.
        let first4: Vec<u32> = nodes[..4].to_vec();
        assert_eq!(first4, [0, 1, 8, 9]);
        assert!(nodes[..16].iter().all(|&t| t % 8 < 4 && t / 8 < 4));
    }

    #[test]
    fn each_message_keeps_its_destinations_in_quadtree_order() {
        // A side that is not a power of two takes quad_key's general branch.
        for side in [8, 12] {
            let set = random(side, 9, 9, 3).unwrap();
            for m in 0..set.len() as u32 {
                let keys: Vec<u64> = set.dests(m).iter().map(|&t| quad_key(side, t)).collect();
                assert!(
                    keys.windows(2).all(|k| k[0] < k[1]),
                    "side {side}, message {m}"
                );
            }
        }
        let lists = vec![vec![], vec![15, 2, 3, 0], vec![], vec![]]
            .into_iter()
            .chain(std::iter::repeat_n(vec![], 12))
            .collect::<Vec<_>>();
        let set = MessageSet::new(4, &lists).unwrap();
        assert_eq!(set.dests(1), [0, 2, 3, 15]);
    }

    #[test]
    fn the_random_stream_is_pinned() {
        let set = random(4, 2, 2, 2026).unwrap();
        let firsts: Vec<&[u32]> = (0..4).map(|m| set.dests(m)).collect();
        assert_eq!(firsts, PINNED);
    }

    const PINNED: [&[u32]; 4] = [&[3, 8], &[5, 8], &[1, 12], &[9, 13]];
}
