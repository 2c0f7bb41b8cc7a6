//! Mesh sorting by packet movement: shearsort (Scherson–Sen; Leighton §1.6), the sorting of seed
//! 004 Proposition 1, run as real packet moves on the [`Sim`].
//!
//! The mesh is tessellated into square regions of side `s` (s divides the side; s = side is the
//! whole mesh) and every region is sorted independently, all in the same steps. Every node has
//! `k` *slots*: the sorted order fills a node's k slots before the next node's, along a snake
//! over the region ([`SnakeOrder`]), and a node holding fewer than k packets has empty slots,
//! which sort as +∞ (so the packets of a region end on its first nodes). Keys are the caller's
//! (u64), ties broken by [`PacketId`], so the result is deterministic.
//!
//! **Schedule.** ⌈log₂ s⌉ + 1 phases; each sorts the *lines* (rows for the row-major snake,
//! columns for the column-major one) in alternating directions, then — except in the last phase —
//! the cross lines, all in the same direction. A line of s nodes is sorted by odd–even
//! transposition, s rounds of merge-split (Baudet–Stevenson: a node keeps its k smallest or k
//! largest of the pair's 2k slots), so s rounds sort a line of k-slot nodes. By the 0–1
//! principle the whole is a comparator network; shearsort's argument (each phase at least halves
//! the rows that hold both 0s and 1s) carries over to k slots by reading node j's slots as k
//! consecutive virtual columns: a cross sort of k virtual columns at once leaves at least as many
//! clean lines as sorting each virtual column alone.
//!
//! **A compare–exchange** of neighbours u (the smaller ranks) and v, each with its slots sorted:
//! in one step they exchange their boundary keys as control words; then, while u's largest is
//! above v's smallest (an empty slot is +∞, so a packet may cross alone into one), the two cross
//! pairwise, one packet per link direction per step, each carrying the next boundary key as a
//! control word. A round costs 1 + (most swaps of any pair) steps, at most 1 + k; the rounds of
//! all lines of all regions run in the same steps. A node never holds more than k of the sorted
//! packets: a swap sends one packet and receives one in the same step, and a lone packet only
//! enters an empty slot. Hence
//!
//! **steps ≤ (2⌈log₂ s⌉ + 1) · s · (k + 1)** ([`step_bound`]), buffers ≤ k (plus whatever
//! packets outside the sort a node holds), link transmissions = the swaps made.
//!
//! ```
//! use meshcast::sim::saf::snake::SnakeOrder;
//! use meshcast::sim::saf::sort;
//! use meshcast::sim::saf::{Capacity, MessageSet, Sim};
//! // A 4×4 mesh, one packet per node, sorted by the reverse of its node id.
//! let lists: Vec<Vec<u32>> = (0..16).map(|i| vec![(i + 1) % 16]).collect();
//! let set = MessageSet::new(4, &lists).unwrap();
//! let mut sim = Sim::new(&set, Capacity::Packets(1));
//! let packets = sim.inject_all().unwrap();
//! let keyed: Vec<_> = packets.iter().map(|&p| (p, u64::from(99 - sim.at(p)))).collect();
//! let ranks = sort::shearsort(&mut sim, &keyed, 4, 1, SnakeOrder::RowMajor).unwrap();
//! // The packet from node 15 has the smallest key: rank 0, at the snake's first node.
//! assert_eq!(ranks[15], (packets[15], 0));
//! assert_eq!(sim.at(packets[15]), 0);
//! assert!(sim.totals().steps <= sort::step_bound(4, 1));
//! ```

use super::engine::{PacketId, Sim};
use super::prefix::{self, Order, Totals};
use super::snake::SnakeOrder;
use crate::error::SafError;

/// The most steps [`shearsort`] takes on regions of side `s` with `k` slots per node:
/// (2⌈log₂ s⌉ + 1) line sorts of s rounds of at most 1 + k steps.
pub fn step_bound(s: u32, k: u32) -> u64 {
    let sorts = 2 * u64::from(s.next_power_of_two().trailing_zeros()) + 1;
    sorts * u64::from(s) * (u64::from(k) + 1)
}

/// Sorts `packets` (each with its key) within every region of side `region`, at most `k` per
/// node, into `order`, moving them on `sim`. Returns each packet (in input order) with its rank
/// in its region: the packet sits at the node of snake position rank / k, slot rank mod k, and the
/// ranks of a region's packets are 0, 1, … in (key, packet id) order.
pub fn shearsort(
    sim: &mut Sim<'_>,
    packets: &[(PacketId, u64)],
    region: u32,
    k: u32,
    order: SnakeOrder,
) -> Result<Vec<(PacketId, u32)>, SafError> {
    let mut sorter = Sorter::new(sim, packets, region, k, order)?;
    let phases = region.next_power_of_two().trailing_zeros() + 1;
    let (lines, cross) = match order {
        SnakeOrder::RowMajor => (Axis::X, Axis::Y),
        SnakeOrder::ColumnMajor => (Axis::Y, Axis::X),
    };
    for phase in 0..phases {
        sorter.sort_lines(sim, lines, true)?;
        if phase + 1 < phases {
            sorter.sort_lines(sim, cross, false)?;
        }
    }
    Ok(sorter.ranks(packets))
}

/// Ranks `items` — (packet, key) pairs, at most `k` packets per node — among the items of the
/// same key in each region of side `region`, as seed 004 does it ("sort the packets by their
/// group index and rank them separately within each group", §4 Step 1 and §5 Step 2): the packets
/// are sorted by key with [`shearsort`] (row-major snake), every node learns its snake
/// predecessor's last key (one step, one word per link) and so which of its packets start a key's
/// run, and a prefix computation of the runs' start positions (maximum) along the snake gives
/// every packet the start of its run. Returns, in input order, each packet's rank in its key and
/// its sorted position in its region (node rank / k of the snake, slot rank mod k); the packets
/// stay at their sorted places.
pub fn rank(
    sim: &mut Sim<'_>,
    items: &[(PacketId, u32)],
    region: u32,
    k: u32,
) -> Result<Vec<(u32, u32)>, SafError> {
    let keyed: Vec<(PacketId, u64)> = items.iter().map(|&(p, key)| (p, u64::from(key))).collect();
    let sorted = shearsort(sim, &keyed, region, k, SnakeOrder::RowMajor)?;
    let side = sim.set().side();
    let per_row = side / region;
    let slots = (region * region * k) as usize;
    let region_of = |v: u32| ((v / side / region) * per_row + v % side / region) as usize;
    // The key at every sorted position of every region (u32::MAX: an empty slot).
    let mut key_at = vec![u32::MAX; per_row as usize * per_row as usize * slots];
    for (&(p, q), &(_, key)) in sorted.iter().zip(items) {
        key_at[region_of(sim.at(p)) * slots + q as usize] = key;
    }
    let regions = u64::from(per_row) * u64::from(per_row);
    sim.word_steps(1, regions * (u64::from(region) * u64::from(region) - 1))?;
    let starts_run =
        |r: usize, q: usize| q == 0 || key_at[r * slots + q - 1] != key_at[r * slots + q];
    let mut starts = vec![0u32; side as usize * side as usize];
    for &(p, q) in &sorted {
        let v = sim.at(p);
        if starts_run(region_of(v), q as usize) {
            starts[v as usize] = starts[v as usize].max(q);
        }
    }
    let runs = prefix::scan(
        sim,
        region,
        Order::Snake,
        1,
        &starts,
        0,
        u32::max,
        Totals::Local,
    )?;
    Ok(sorted
        .iter()
        .map(|&(p, q)| {
            let v = sim.at(p);
            let first_slot = q - q % k;
            let here = (first_slot..=q)
                .rev()
                .find(|&q2| starts_run(region_of(v), q2 as usize));
            (q - here.unwrap_or(0).max(runs.before(v, 0)), q)
        })
        .collect())
}

/// How the constant-buffer algorithms rank packets by a key (a group, a block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ranking {
    /// As seed 004 says: sort the packets by key, then rank each key's run ([`rank`]); the
    /// packets move to their sorted places.
    #[default]
    Sort,
    /// Pipelined prefix sums of the keys' counts ([`prefix::rank`]): the same kind of ranks in
    /// O(keys + s) steps, and no packet moves.
    Prefix,
}

impl Ranking {
    /// The packets the algorithms' rankings hold at one node at most.
    pub const K: u32 = 2;

    /// Ranks `items` (key < `keys`) among their key's items in every region of side `region`.
    pub fn rank(
        self,
        sim: &mut Sim<'_>,
        items: &[(PacketId, u32)],
        keys: u32,
        region: u32,
    ) -> Result<Vec<u32>, SafError> {
        match self {
            Ranking::Sort => Ok(rank(sim, items, region, Self::K)?
                .into_iter()
                .map(|(r, _)| r)
                .collect()),
            Ranking::Prefix => {
                let at: Vec<(u32, u32)> = items.iter().map(|&(p, key)| (sim.at(p), key)).collect();
                Ok(prefix::rank(sim, region, Order::RowMajor, keys, &at, Totals::Local)?.rank)
            }
        }
    }
}

named_setting!(Ranking, "ranking", "sort or prefix", {
    Sort => "sort",
    Prefix => "prefix",
});

/// The coordinate along which a line runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    X,
    Y,
}

/// An empty slot: above every (key, packet) entry.
const EMPTY: u128 = u128::MAX;

/// The slots of every node, ascending, empty slots last, and the per-round scratch.
struct Sorter {
    side: u32,
    s: u32,
    k: usize,
    order: SnakeOrder,
    /// Node v's slots are `slots[v·k .. v·k + k]`: (key << 32 | packet id), or [`EMPTY`].
    slots: Vec<u128>,
    /// The moves of swap step t of the current round.
    swaps: Vec<Vec<(PacketId, u32)>>,
    merged: Vec<u128>,
}

impl Sorter {
    fn new(
        sim: &Sim<'_>,
        packets: &[(PacketId, u64)],
        s: u32,
        k: u32,
        order: SnakeOrder,
    ) -> Result<Sorter, SafError> {
        let side = sim.set().side();
        prefix::check_region(side, s)?;
        if k == 0 {
            return Err(SafError::setting("slots per node", 0, "at least 1"));
        }
        let n = side as usize * side as usize;
        let mut slots = vec![EMPTY; n * k as usize];
        let mut held = vec![0u32; n];
        let mut listed = vec![false; packets.iter().map(|p| p.0.index() + 1).max().unwrap_or(0)];
        for &(p, key) in packets {
            if std::mem::replace(&mut listed[p.index()], true) {
                return Err(SafError::setting(
                    "packet to sort",
                    p.index() as u32,
                    "each packet listed once",
                ));
            }
            let v = sim.at(p) as usize;
            if held[v] == k {
                return Err(SafError::setting(
                    "packets to sort at one node",
                    k + 1,
                    "at most the slots per node",
                ));
            }
            slots[v * k as usize + held[v] as usize] = entry(p, key);
            held[v] += 1;
        }
        for node in slots.chunks_mut(k as usize) {
            node.sort_unstable();
        }
        Ok(Sorter {
            side,
            s,
            k: k as usize,
            order,
            slots,
            swaps: vec![Vec::new(); k as usize],
            merged: Vec::with_capacity(2 * k as usize),
        })
    }

    /// Odd–even transposition along `axis` in every line of every region: s rounds. With `snake`,
    /// lines with an odd local index sort in decreasing coordinate.
    fn sort_lines(&mut self, sim: &mut Sim<'_>, axis: Axis, snake: bool) -> Result<(), SafError> {
        for round in 0..self.s {
            let parity = round % 2;
            if parity + 1 >= self.s {
                continue;
            }
            let (mut words, mut longest) = (0u64, 0usize);
            for y in 0..self.side {
                for x in 0..self.side {
                    let (along, line) = match axis {
                        Axis::X => (x % self.s, y % self.s),
                        Axis::Y => (y % self.s, x % self.s),
                    };
                    if along % 2 != parity || along + 1 >= self.s {
                        continue;
                    }
                    let u = y * self.side + x;
                    let v = match axis {
                        Axis::X => u + 1,
                        Axis::Y => u + self.side,
                    };
                    let (low, high) = if snake && line % 2 == 1 {
                        (v, u)
                    } else {
                        (u, v)
                    };
                    let (swaps, busy) = self.compare_exchange(low, high);
                    words += busy;
                    longest = longest.max(swaps);
                }
            }
            // The boundary keys (one step), then the swaps, each with the next keys.
            sim.word_steps(1, words)?;
            for t in 0..longest {
                sim.step_moves(&self.swaps[t])?;
                self.swaps[t].clear();
            }
        }
        Ok(())
    }

    /// Merge-splits nodes `low` and `high` (low keeps the k smallest), queuing the swaps by step.
    /// Returns the swaps and the control words the pair sends.
    fn compare_exchange(&mut self, low: u32, high: u32) -> (usize, u64) {
        let k = self.k;
        let (lo, hi) = (low as usize * k, high as usize * k);
        if self.slots[lo] == EMPTY && self.slots[hi] == EMPTY {
            return (0, 0);
        }
        let swaps = (0..k)
            .take_while(|&t| self.slots[lo + k - 1 - t] > self.slots[hi + t])
            .count();
        for t in 0..swaps {
            let (up, down) = (self.slots[lo + k - 1 - t], self.slots[hi + t]);
            if up != EMPTY {
                self.swaps[t].push((packet(up), high));
            }
            if down != EMPTY {
                self.swaps[t].push((packet(down), low));
            }
        }
        if swaps > 0 {
            // low: its k − swaps smallest and high's swaps smallest; high: the rest.
            let cut = k - swaps;
            self.merged.clear();
            self.merged.extend_from_slice(&self.slots[lo..lo + cut]);
            self.merged.extend_from_slice(&self.slots[hi..hi + swaps]);
            self.merged.extend_from_slice(&self.slots[lo + cut..lo + k]);
            self.merged
                .extend_from_slice(&self.slots[hi + swaps..hi + k]);
            self.merged[..k].sort_unstable();
            self.merged[k..].sort_unstable();
            self.slots[lo..lo + k].copy_from_slice(&self.merged[..k]);
            self.slots[hi..hi + k].copy_from_slice(&self.merged[k..]);
        }
        (swaps, 2 * (1 + swaps as u64))
    }

    /// Every listed packet with its rank in its region.
    fn ranks(&self, packets: &[(PacketId, u64)]) -> Vec<(PacketId, u32)> {
        let mut rank = vec![0u32; packets.iter().map(|p| p.0.index() + 1).max().unwrap_or(0)];
        for (v, node) in self.slots.chunks(self.k).enumerate() {
            let (x, y) = (v as u32 % self.side, v as u32 / self.side);
            let q = self.order.index(self.s, x % self.s, y % self.s);
            for (i, &e) in node.iter().enumerate().filter(|&(_, &e)| e != EMPTY) {
                rank[packet(e).index()] = q * self.k as u32 + i as u32;
            }
        }
        packets.iter().map(|&(p, _)| (p, rank[p.index()])).collect()
    }
}

fn entry(p: PacketId, key: u64) -> u128 {
    (u128::from(key) << 32) | p.index() as u128
}

fn packet(e: u128) -> PacketId {
    PacketId::from_index(e as u32)
}
