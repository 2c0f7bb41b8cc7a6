//! Prefix computations on square regions of the mesh (seed 004 Proposition 1, after Leighton
//! §1.2): what the algorithms' ranks, offsets and sums come from.
//!
//! The mesh is tessellated into regions of side `s` (s = side: the whole mesh), all computing in
//! parallel. In each region the schedule is the standard three sweeps: (1) a prefix along every
//! row, in the region's [`Order`], ending with the row's total at its last column (s − 1 steps);
//! (2) a prefix of the row totals down the last column (s − 1 steps), which leaves the region's
//! total at its bottom-right node; (3) each row's offset broadcast back along the row (s − 1
//! steps). With [`Totals::Shared`] the region's total first climbs the last column and then
//! travels along the rows with the offsets (s − 1 more steps), so every node learns it. `lanes`
//! independent prefixes pipeline one step apart: lane ℓ uses each link one step after lane ℓ − 1.
//! Sweeps (1) and (3) run in opposite directions on a row, so one directed link never carries
//! two words in one step.
//!
//! [`scan`] runs this schedule word by word over any associative operator: every value a node
//! ends with is built from words that crossed its links at the step the schedule says, and the
//! steps and word transmissions are those of the transfers it made. The counters live in node
//! registers, not in the packet buffer, so prefix computations occupy no packet slot.
//!
//! [`rank`] is the algorithms' use of it — the rank of every item among the items with the same
//! key in its region, in the region's order, by `keys` pipelined sums of 0/1 counts — computed in
//! one sorted pass instead of `keys` dense scans over every node (a §5 run issues tens of
//! thousands of them). It yields exactly the values and the step and word counts of the
//! corresponding [`scan`]: the test `rank_equals_the_simulated_scan` checks both on random
//! instances.
//!
//! ```
//! use meshcast::sim::saf::prefix::{self, Order, Totals};
//! use meshcast::sim::saf::{msets, Capacity, Sim};
//! let set = msets::random(4, 1, 1, 1).unwrap();
//! let mut sim = Sim::new(&set, Capacity::Unbounded);
//! // Ones everywhere on the 4×4 mesh, summed along the snake: node 4 (x = 0, y = 1) is the
//! // 8th node of the snake, so 7 nodes come before it.
//! let sums = prefix::scan(&mut sim, 4, Order::Snake, 1, &[1u32; 16], 0, |a, b| a + b, Totals::Local)
//!     .unwrap();
//! assert_eq!(sums.before(4, 0), 7);
//! assert_eq!(sums.total(0, 0), 16);
//! assert_eq!(sim.totals().steps, 9); // three sweeps of 3 steps
//! ```

use rayon::prelude::*;

use super::engine::Sim;
use super::snake::SnakeOrder;
use crate::error::SafError;

/// The order in which a region's nodes are summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Row after row, every row left to right.
    RowMajor,
    /// Row after row, even rows left to right and odd rows right to left (the snake).
    Snake,
}

/// Whether the regions' totals are also delivered to all of their nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Totals {
    /// The total stays at the region's bottom-right node.
    Local,
    /// Every node of the region learns the total (one more sweep: s − 1 steps).
    Shared,
}

/// A tessellation of the mesh into square regions of side `s`.
#[derive(Clone, Copy, Debug)]
struct Regions {
    side: u32,
    s: u32,
    order: Order,
}

impl Regions {
    fn new(side: u32, s: u32, order: Order) -> Result<Regions, SafError> {
        check_region(side, s)?;
        Ok(Regions { side, s, order })
    }

    fn per_row(self) -> u32 {
        self.side / self.s
    }

    /// The region of `node` (row-major over the regions).
    fn of(self, node: u32) -> u32 {
        let (x, y) = (node % self.side, node / self.side);
        (y / self.s) * self.per_row() + x / self.s
    }

    /// The position of `node` in its region's order.
    fn position(self, node: u32) -> u32 {
        let (lx, ly) = (node % self.side % self.s, node / self.side % self.s);
        match self.order {
            Order::RowMajor => ly * self.s + lx,
            Order::Snake => SnakeOrder::RowMajor.index(self.s, lx, ly),
        }
    }

    fn reversed(self, ly: u32) -> bool {
        self.order == Order::Snake && ly % 2 == 1
    }

    /// The node at local coordinates (lx, ly) of region `r`.
    fn node(self, r: u32, lx: u32, ly: u32) -> u32 {
        let (rx, ry) = (r % self.per_row() * self.s, r / self.per_row() * self.s);
        (ry + ly) * self.side + rx + lx
    }

    /// Steps and word transmissions per region of `lanes` pipelined prefix computations.
    fn schedule(self, lanes: u32, totals: Totals) -> (u64, u64) {
        let s = u64::from(self.s);
        if lanes == 0 || s < 2 {
            return (0, 0);
        }
        let shared = u64::from(totals == Totals::Shared);
        let steps = u64::from(lanes) - 1 + (3 + shared) * (s - 1);
        // Row sweeps (a second one, rightwards, in reversed rows to bring their total to the
        // last column), the column sweep, the total climbing back, the broadcast of offsets
        // (and totals) along the rows.
        let reversed_rows = if self.order == Order::Snake { s / 2 } else { 0 };
        let words =
            (s + reversed_rows) * (s - 1) + (s - 1) + shared * (s - 1) + (1 + shared) * s * (s - 1);
        (steps, u64::from(lanes) * words)
    }

    /// Charges `lanes` prefix computations on every region.
    fn charge(self, sim: &mut Sim<'_>, lanes: u32, totals: Totals) -> Result<(), SafError> {
        let (steps, words) = self.schedule(lanes, totals);
        let regions = u64::from(self.per_row()) * u64::from(self.per_row());
        sim.word_steps(steps, words * regions)
    }
}

/// The result of a [`scan`]: per node and lane the combination of the values before it in its
/// region's order, and per region and lane the total.
#[derive(Clone, Debug)]
pub struct Scan<T> {
    regions: Regions,
    lanes: usize,
    before: Vec<T>,
    totals: Vec<T>,
}

impl<T: Copy> Scan<T> {
    /// The combination of lane `lane`'s values at the nodes before `node` in its region.
    pub fn before(&self, node: u32, lane: usize) -> T {
        self.before[node as usize * self.lanes + lane]
    }

    /// The combination of all of lane `lane`'s values in region `region` (row-major over the
    /// regions).
    pub fn total(&self, region: u32, lane: usize) -> T {
        self.totals[region as usize * self.lanes + lane]
    }

    /// The region of `node`.
    pub fn region_of(&self, node: u32) -> u32 {
        self.regions.of(node)
    }
}

/// Runs `lanes` pipelined prefix computations with the associative operator `op` (identity
/// `identity`) on every region of side `s`, word by word. `values[node · lanes + lane]` is a
/// node's value in a lane. Adds the schedule's steps and word transmissions to `sim`.
#[allow(clippy::too_many_arguments)]
pub fn scan<T: Copy>(
    sim: &mut Sim<'_>,
    s: u32,
    order: Order,
    lanes: usize,
    values: &[T],
    identity: T,
    op: impl Fn(T, T) -> T,
    totals: Totals,
) -> Result<Scan<T>, SafError> {
    let side = sim.set().side();
    let regions = Regions::new(side, s, order)?;
    let n = (side * side) as usize;
    if values.len() != n * lanes {
        return Err(SafError::setting(
            "prefix values",
            values.len() as u32,
            "one per node and lane",
        ));
    }
    let count = regions.per_row() * regions.per_row();
    let mut out = Scan {
        regions,
        lanes,
        before: vec![identity; n * lanes],
        totals: vec![identity; count as usize * lanes],
    };
    let mut clock = Clock::default();
    for r in 0..count {
        for lane in 0..lanes {
            let total = sweep_region(
                regions, r, lane, values, &op, identity, &mut out, &mut clock,
            );
            out.totals[r as usize * lanes + lane] = total;
            if totals == Totals::Shared {
                // Up the last column, then along every row beside the offsets.
                clock.transfers(lane, 3 * (s - 1), s - 1);
                clock.transfers(lane, 4 * (s - 1), s * (s - 1));
            }
        }
    }
    sim.word_steps(clock.last, clock.words)?;
    Ok(out)
}

/// The last step at which a word moved and the words moved.
#[derive(Default)]
struct Clock {
    last: u64,
    words: u64,
}

impl Clock {
    /// `words` transfers of lane `lane`, the last of them at relative step `at` (≥ 1 when any).
    fn transfers(&mut self, lane: usize, at: u32, words: u32) {
        if words > 0 {
            self.words += u64::from(words);
            self.last = self.last.max(lane as u64 + u64::from(at));
        }
    }
}

/// The three sweeps of one lane on region `r`; returns the region's total.
#[allow(clippy::too_many_arguments)]
fn sweep_region<T: Copy>(
    regions: Regions,
    r: u32,
    lane: usize,
    values: &[T],
    op: &impl Fn(T, T) -> T,
    identity: T,
    out: &mut Scan<T>,
    clock: &mut Clock,
) -> T {
    let s = regions.s;
    let lanes = out.lanes;
    let value = |lx: u32, ly: u32| values[regions.node(r, lx, ly) as usize * lanes + lane];
    // (1) Row sweeps: the word of row ly reaches position q at step q, carrying the combination
    // of the values before it; a reversed row also sends its values rightwards, prepending, so
    // that its total (in its own order) arrives at the last column like every other row's.
    let mut row_totals = Vec::with_capacity(s as usize);
    for ly in 0..s {
        let mut acc = identity;
        for q in 0..s {
            let lx = if regions.reversed(ly) { s - 1 - q } else { q };
            out.before[regions.node(r, lx, ly) as usize * lanes + lane] = acc;
            acc = op(acc, value(lx, ly));
        }
        clock.transfers(lane, s - 1, s - 1);
        if regions.reversed(ly) {
            let mut rightwards = identity;
            for lx in 0..s {
                rightwards = op(value(lx, ly), rightwards);
            }
            clock.transfers(lane, s - 1, s - 1);
            acc = rightwards;
        }
        row_totals.push(acc);
    }
    // (2) Down the last column: row ly's offset arrives at step (s − 1) + ly.
    let mut offsets = Vec::with_capacity(s as usize);
    let mut acc = identity;
    for &t in &row_totals {
        offsets.push(acc);
        acc = op(acc, t);
    }
    clock.transfers(lane, 2 * (s - 1), s - 1);
    // (3) Each offset back along its row.
    for (ly, &offset) in (0..s).zip(&offsets) {
        for lx in 0..s {
            let slot = regions.node(r, lx, ly) as usize * lanes + lane;
            out.before[slot] = op(offset, out.before[slot]);
        }
        clock.transfers(lane, 3 * (s - 1), s - 1);
    }
    acc
}

/// The ranks of [`rank`]: per item, its rank among the items of its key in its region.
#[derive(Clone, Debug)]
pub struct Ranks {
    /// Per item (in the order given), the number of items with the same key before it in its
    /// region's order (items at one node: in the order given).
    pub rank: Vec<u32>,
    keys: u32,
    totals: Vec<u32>,
}

impl Ranks {
    /// The number of items with key `key` in region `region` (row-major over the regions).
    pub fn total(&self, region: u32, key: u32) -> u32 {
        self.totals[(region * self.keys + key) as usize]
    }
}

/// Ranks `items` — (node, key < `keys`) pairs — among the items of the same key in each region
/// of side `s`, in `order`: `keys` pipelined prefix sums of the nodes' item counts, plus a local
/// count among one node's items. Charges the schedule of the equivalent [`scan`].
pub fn rank(
    sim: &mut Sim<'_>,
    s: u32,
    order: Order,
    keys: u32,
    items: &[(u32, u32)],
    totals: Totals,
) -> Result<Ranks, SafError> {
    let regions = Regions::new(sim.set().side(), s, order)?;
    if let Some(&(_, key)) = items.iter().find(|&&(_, key)| key >= keys) {
        return Err(SafError::setting(
            "prefix key",
            key,
            "below the number of keys",
        ));
    }
    let sorted = stable_order(
        items
            .iter()
            .map(|&(node, _)| regions.of(node) * regions.s * regions.s + regions.position(node)),
    );
    let per_row = regions.per_row();
    let mut counts = vec![0u32; (per_row * per_row * keys) as usize];
    let mut rank = vec![0u32; items.len()];
    for i in sorted {
        let (node, key) = items[i as usize];
        let c = &mut counts[(regions.of(node) * keys + key) as usize];
        rank[i as usize] = *c;
        *c += 1;
    }
    regions.charge(sim, keys, totals)?;
    Ok(Ranks {
        rank,
        keys,
        totals: counts,
    })
}

/// The indices of `keys` in the order of their keys, equal keys in index order (a stable sort):
/// each key is computed once and sorted with its index as one `u64`, on the rayon pool.
pub(super) fn stable_order(keys: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut pairs: Vec<u64> = keys
        .zip(0u32..)
        .map(|(key, i)| u64::from(key) << 32 | u64::from(i))
        .collect();
    pairs.par_sort_unstable();
    pairs.into_iter().map(|pair| pair as u32).collect()
}

/// Regions of side `s` must tessellate a mesh of side `side`.
pub(super) fn check_region(side: u32, s: u32) -> Result<(), SafError> {
    if s == 0 || !side.is_multiple_of(s) {
        return Err(SafError::setting(
            "region side",
            s,
            "a divisor of the mesh side, at least 1",
        ));
    }
    Ok(())
}
