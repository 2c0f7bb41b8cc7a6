//! The randomized constant-buffer algorithm of seed 004 §4 (Theorem 3): O(√(cn)) steps with high
//! probability for any `mcast(n, d, c)` set with d ≤ c, with buffers of O(1) packets (O(r)).
//!
//! Phases i = 0 … K, K = ⌊log₁₆⌈c log²n / n⌉⌋ (the paper omits the floor); in phase i the mesh is
//! tessellated into cᵢ-tiles (cᵢ = c/16ⁱ), numbered along a Hamiltonian cycle of the tiles, and
//! every tile into blocks. Phase i:
//! 1. every packet still carrying unvisited destinations joins a random tentative group; ranks
//!    (pipelined prefix computations over the group indices) cut each tentative group into
//!    segments of one tile's size, segments j and j + cᵢ form group Gⱼ, and Gⱼ is routed to tile
//!    Tⱼ, at most two packets per node;
//! 2. cᵢ times, in every tile in parallel: (a) r instances of the t-migration primitive with one
//!    tile per block: every block selects up to one block's size of the tile's packets that still
//!    have destinations in it (never one selected for it before); each selected packet's copies
//!    are spread over a segment of the tile's snake (one copy routed to the segment head, then a
//!    segmented broadcast along the snake) and routed to distinct nodes of their blocks; (b) the
//!    copies circulate along a Hamiltonian cycle of their block, delivering at every destination
//!    they pass; (c) the copies are discarded and the masters shift to the same place in the
//!    next tile of the cycle;
//! 3. in the last phase, step 2 repeats while deliveries remain.
//!
//! When c > n/16 every packet simply tours a Hamiltonian cycle of the mesh, as §4 says.
//!
//! A packet selected for a block marks that block's destinations visited in its header (the
//! circulation is sure to reach them), which is how it later knows its unvisited destinations.
//!
//! Our choices: tiles are the 4^⌈log₄ cᵢ⌉ quadtree cells (≥ cᵢ tiles, as in [`super::theorem2`]);
//! blocks are the largest power-of-two squares of side β with β² ≤ tile side (the paper's
//! b = √(n/c) blocks of b nodes is a square only when n/c is a fourth power; ours has between b and
//! 2b blocks of b/2 to b nodes); the side must be a power of two; r is a parameter (the paper's
//! proof fixes r ≥ 150, which only tightens its probability bound; buffers grow with r); ranks are
//! [`super::prefix::rank`]'s pipelined prefix computations; every packet and copy movement is
//! simulated.
//!
//! The tile-visiting machinery (`Router::pass`: t-migration, block circulation, tile shifts) and
//! the segmented broadcast are shared with §5 ([`super::deterministic`]).

use rand::rngs::ChaCha8Rng;
use rand::RngExt;

use super::broadcast::segmented_broadcast;
use super::engine::{Arrival, Capacity, PacketId, Run, Sim};
use super::lemma1;
use super::msets::{quad_key, MessageSet};
use super::permute::Permutation;
use super::prefix::{self, Order, Totals};
use super::snake::SnakeOrder;
use super::sort::{self, Ranking};
use super::theorem2::partition;
use crate::error::SafError;
use crate::workload::seeded;

/// The parameters of the randomized algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Randomized {
    /// r: migration instances per tile visit (the paper's proof: r ≥ 150).
    pub r: u32,
    /// Seed of the random groups (ChaCha8Rng).
    pub seed: u64,
    /// How the permutation routings of Step 1 and of the t-migrations run.
    pub permutation: Permutation,
    /// How Step 1 and the t-migrations rank packets by group or block.
    pub ranking: Ranking,
    /// K, the last phase (`None`: the paper's ⌊log₁₆⌈c log²n / n⌉⌋, 0 on every mesh we can
    /// simulate; a larger K runs phases 0 … K − 1 first, phase i with cᵢ = c/16ⁱ tiles).
    pub phases: Option<u32>,
}

impl Default for Randomized {
    fn default() -> Randomized {
        Randomized {
            r: 2,
            seed: 1,
            permutation: Permutation::Sorted,
            ranking: Ranking::Sort,
            phases: None,
        }
    }
}

/// Routes `set` (after Lemma 1 when d > c) by the randomized algorithm of §4.
pub fn route(set: &MessageSet, params: Randomized, capacity: Capacity) -> Result<Run, SafError> {
    let side = set.side();
    let c = set.congestion().max(1);
    check(side, params)?;
    let mut sim = Sim::new(set, capacity);
    let packets = sim.inject_all()?;
    let sets = lemma1::split(&mut sim, packets, c, params.permutation)?;
    let mut rng = seeded(params.seed);
    let mut visited = vec![false; set.deliveries()];
    let everywhere = u64::from(c) * 16 > u64::from(side) * u64::from(side);
    for masters in sets {
        let mut router = Router::new(
            &mut sim,
            &mut visited,
            &|_, s| s as usize,
            (params.permutation, params.ranking),
        );
        if everywhere {
            router.tour(&masters)?;
        } else if !masters.is_empty() {
            router.run(masters, c, params, &mut rng)?;
        }
    }
    sim.finish()
}

/// The paper's K = ⌊log₁₆⌈c log²n / n⌉⌋ (it omits the floor).
pub fn last_phase(side: u32, c: u32) -> u32 {
    let n = u64::from(side) * u64::from(side);
    let log_n = u64::from(n.ilog2());
    let ratio = (u64::from(c) * log_n * log_n).div_ceil(n);
    let mut k = 0;
    while 16u64.pow(k + 1) <= ratio {
        k += 1;
    }
    k
}

/// The settings randomized refuses on a `side × side` mesh, before any work.
pub fn check(side: u32, params: Randomized) -> Result<(), SafError> {
    if !side.is_power_of_two() {
        return Err(SafError::setting(
            "side",
            side,
            "a power of two for randomized",
        ));
    }
    if params.r == 0 {
        return Err(SafError::setting("r", 0, "at least 1"));
    }
    Ok(())
}

/// The tessellation of one phase: a g × g grid of tiles of side `tile`, blocks of side `beta`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tiling {
    pub(super) side: u32,
    g: u32,
    pub(super) tile: u32,
    beta: u32,
}

impl Tiling {
    /// The tessellation into at least `ci` tiles (the 4^⌈log₄ cᵢ⌉ quadtree cells).
    pub(super) fn new(side: u32, ci: u32) -> Tiling {
        let mut g = 1;
        while g * g < ci {
            g *= 2;
        }
        let tile = side / g;
        let mut beta = 1;
        while (2 * beta) * (2 * beta) <= tile {
            beta *= 2;
        }
        Tiling {
            side,
            g,
            tile,
            beta,
        }
    }

    pub(super) fn tiles(self) -> u32 {
        self.g * self.g
    }

    /// The tile (row-major over the tile grid) of `node`.
    fn tile_of(self, node: u32) -> u32 {
        let (x, y) = (node % self.side, node / self.side);
        (y / self.tile) * self.g + x / self.tile
    }

    /// The node at local position (lx, ly) of tile `t`.
    pub(super) fn node(self, t: u32, lx: u32, ly: u32) -> u32 {
        let (tx, ty) = (t % self.g * self.tile, t / self.g * self.tile);
        (ty + ly) * self.side + tx + lx
    }

    /// The quadtree prefix of `node` at block level: blocks are contiguous in quadtree order.
    fn block_key(self, node: u32) -> u64 {
        self.prefix(node, self.side / self.beta)
    }

    /// The quadtree prefix of `node` at tile level: tiles are contiguous in quadtree order.
    fn tile_key(self, node: u32) -> u64 {
        self.prefix(node, self.g)
    }

    /// The quadtree prefix of `node` in a tessellation `cells` cells wide (a power of two).
    fn prefix(self, node: u32, cells: u32) -> u64 {
        let finer = u64::from(cells.trailing_zeros());
        let all = u64::from(self.side.trailing_zeros());
        quad_key(self.side, node) >> (2 * (all - finer))
    }
}

/// A Hamiltonian cycle of an s × s grid (s = 1 or even), as local coordinates: row 0 left to
/// right, a snake over columns 1 … s − 1 of the other rows, back up column 0.
fn grid_cycle(s: u32) -> Vec<(u32, u32)> {
    let mut cycle: Vec<(u32, u32)> = (0..s).map(|x| (x, 0)).collect();
    for y in 1..s {
        if (y - 1) % 2 == 0 {
            cycle.extend((1..s).rev().map(|x| (x, y)));
        } else {
            cycle.extend((1..s).map(|x| (x, y)));
        }
    }
    cycle.extend((1..s).rev().map(|y| (0, y)));
    cycle
}

/// What a tile visit does: `substeps` times, `instances` t-migration instances, then the
/// circulation of their copies; `labels` name the three parts of the visit in the phase list
/// (migrate, circulate, shift).
#[derive(Clone, Copy, Debug)]
pub(super) struct Visit {
    pub(super) substeps: u32,
    pub(super) instances: u32,
    pub(super) labels: [&'static str; 3],
}

/// The mark of destination slot `s` in the header of packet `p`: an index into the router's
/// `visited` flags. The masters of §4 share one flag per slot; the replicas of §5 carry their
/// own.
pub(super) type MarkIndex<'s> = &'s dyn Fn(PacketId, u32) -> usize;

/// The tile-visiting machinery of §4, also used by §5: t-migration, block circulation, shifts.
pub(super) struct Router<'s, 'a> {
    sim: &'s mut Sim<'a>,
    visited: &'s mut [bool],
    mark: MarkIndex<'s>,
    permutation: Permutation,
    ranking: Ranking,
    /// Per mark, the selection that marked it (a stamp): its copy delivers there, no other.
    owner: Vec<u32>,
    stamps: u32,
}

/// A packet-copy of a t-migration: the master it copies and the stamp of its selection.
#[derive(Clone, Copy)]
struct PacketCopy {
    packet: PacketId,
    master: PacketId,
    stamp: u32,
}

/// One selection of a t-migration instance: the block its copy goes to (its index in the tile and
/// its top-left node) and the master's destination slots in the block.
#[derive(Clone, Copy)]
struct Selection {
    block: u32,
    origin: u32,
    lo: u32,
    hi: u32,
    stamp: u32,
}

impl<'s, 'a> Router<'s, 'a> {
    pub(super) fn new(
        sim: &'s mut Sim<'a>,
        visited: &'s mut [bool],
        mark: MarkIndex<'s>,
        (permutation, ranking): (Permutation, Ranking),
    ) -> Router<'s, 'a> {
        let owner = vec![u32::MAX; visited.len()];
        Router {
            sim,
            visited,
            mark,
            permutation,
            ranking,
            owner,
            stamps: 0,
        }
    }

    fn run(
        &mut self,
        mut masters: Vec<PacketId>,
        c: u32,
        params: Randomized,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), SafError> {
        let visit = Visit {
            substeps: 1,
            instances: params.r,
            labels: ["2a migrate", "2b circulate", "2c shift"],
        };
        let side = self.sim.set().side();
        let k = params.phases.unwrap_or_else(|| last_phase(side, c));
        for phase in 0..=k {
            let tiling = Tiling::new(side, (c / 16u32.saturating_pow(phase)).max(1));
            masters = self.drop_finished(masters);
            masters = self.form_groups(masters, tiling, rng)?;
            self.sim.mark("1 groups to tiles");
            loop {
                self.pass(&masters, tiling, visit)?;
                masters = self.drop_finished(masters);
                if phase < k || masters.is_empty() {
                    break;
                }
            }
        }
        for p in masters {
            self.sim.discard(p);
        }
        Ok(())
    }

    /// For c > n/16 (§4's first paragraph): every packet tours a Hamiltonian cycle of the whole
    /// mesh, delivering as it passes — n − 1 shifts, O(√(cn)) since c > n/16.
    fn tour(&mut self, masters: &[PacketId]) -> Result<(), SafError> {
        let side = self.sim.set().side();
        let cycle = grid_cycle(side);
        let mut next = vec![0u32; cycle.len()];
        for (i, &(x, y)) in cycle.iter().enumerate() {
            let (nx, ny) = cycle[(i + 1) % cycle.len()];
            next[(y * side + x) as usize] = ny * side + nx;
        }
        for hop in 0..cycle.len() {
            for &p in masters {
                self.sim.deliver_here(p)?;
            }
            if hop + 1 < cycle.len() {
                let moves: Vec<(PacketId, u32)> = masters
                    .iter()
                    .map(|&p| (p, next[self.sim.at(p) as usize]))
                    .collect();
                self.sim.route(&moves, &[], Arrival::Hold)?;
            }
        }
        self.sim.mark("tour of the mesh");
        for &p in masters {
            self.sim.discard(p);
        }
        Ok(())
    }

    /// Discards the masters whose destinations have all been visited.
    fn drop_finished(&mut self, masters: Vec<PacketId>) -> Vec<PacketId> {
        let mut alive = Vec::with_capacity(masters.len());
        for p in masters {
            if self.sim.slots(p).any(|s| !self.visited[(self.mark)(p, s)]) {
                alive.push(p);
            } else {
                self.sim.discard(p);
            }
        }
        alive
    }

    /// Step 1: random tentative groups, segments of one tile's size, groups of two segments, each
    /// group routed to its tile at most two packets per node.
    fn form_groups(
        &mut self,
        mut masters: Vec<PacketId>,
        tiling: Tiling,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<PacketId>, SafError> {
        let groups = tiling.tiles();
        let tile_nodes = tiling.tile * tiling.tile;
        masters.sort_by_key(|&p| self.sim.at(p));
        let tentative: Vec<u32> = masters
            .iter()
            .map(|_| rng.random_range(0..groups))
            .collect();
        let side = tiling.side;
        let items: Vec<(PacketId, u32)> = masters.iter().copied().zip(tentative).collect();
        let segments = match self.ranking {
            Ranking::Sort => self.sorted_segments(&items, tile_nodes)?,
            Ranking::Prefix => self.counted_segments(&items, groups, tile_nodes)?,
        };
        // 1(d), 1(e): segments j and j + cᵢ form group j; rank within the groups.
        let items: Vec<(PacketId, u32)> = masters
            .iter()
            .zip(&segments)
            .map(|(&p, &segment)| (p, segment % groups))
            .collect();
        let ranks = self.ranking.rank(self.sim, &items, groups, side)?;
        let moves: Vec<(PacketId, u32)> = items
            .iter()
            .zip(&ranks)
            .map(|(&(p, g), &r)| {
                let k = r % tile_nodes;
                (p, tiling.node(g, k % tiling.tile, k / tiling.tile))
            })
            .collect();
        self.permutation.route(self.sim, &moves, side)?;
        Ok(masters)
    }

    /// Steps 1(b)–(c) as the paper has them: the packets sorted by tentative group and ranked in
    /// it; every packet whose rank is a multiple of a tile's size starts a segment, and a prefix
    /// count of the starts along the snake numbers the segments globally. Returns every packet's
    /// segment.
    fn sorted_segments(
        &mut self,
        items: &[(PacketId, u32)],
        tile_nodes: u32,
    ) -> Result<Vec<u32>, SafError> {
        let side = self.sim.set().side();
        let sorted = sort::rank(self.sim, items, side, Ranking::K)?;
        let starts_segment = |rank: u32| u32::from(rank.is_multiple_of(tile_nodes));
        let mut starts = vec![0u32; side as usize * side as usize];
        for (&(p, _), &(rank, _)) in items.iter().zip(&sorted) {
            starts[self.sim.at(p) as usize] += starts_segment(rank);
        }
        let before = prefix::scan(
            self.sim,
            side,
            Order::Snake,
            1,
            &starts,
            0,
            |a, b| a + b,
            Totals::Local,
        )?;
        // The starts before a packet: those of earlier nodes, and of its node's earlier slots.
        let mut at_node: Vec<(u32, u32, u32, usize)> = items
            .iter()
            .zip(&sorted)
            .enumerate()
            .map(|(i, (&(p, _), &(rank, q)))| (self.sim.at(p), q, rank, i))
            .collect();
        at_node.sort_unstable();
        let mut segments = vec![0u32; items.len()];
        let mut count = 0;
        for (j, &(v, _, rank, i)) in at_node.iter().enumerate() {
            if j == 0 || at_node[j - 1].0 != v {
                count = before.before(v, 0);
            }
            count += starts_segment(rank);
            segments[i] = count - 1;
        }
        Ok(segments)
    }

    /// Steps 1(b)–(c) by pipelined prefix sums: ranks within the tentative groups and the
    /// groups' sizes, shared with every node; each node keeps the running count of segments up
    /// to its packets' groups as the sizes stream past. Returns every packet's segment.
    fn counted_segments(
        &mut self,
        items: &[(PacketId, u32)],
        groups: u32,
        tile_nodes: u32,
    ) -> Result<Vec<u32>, SafError> {
        let side = self.sim.set().side();
        let at: Vec<(u32, u32)> = items.iter().map(|&(p, t)| (self.sim.at(p), t)).collect();
        let ranked = prefix::rank(self.sim, side, Order::RowMajor, groups, &at, Totals::Shared)?;
        let mut first_segment = vec![0u32; groups as usize];
        let mut acc = 0;
        for t in 0..groups {
            first_segment[t as usize] = acc;
            acc += ranked.total(0, t).div_ceil(tile_nodes);
        }
        Ok(at
            .iter()
            .zip(&ranked.rank)
            .map(|(&(_, t), &r)| first_segment[t as usize] + r / tile_nodes)
            .collect())
    }

    /// Step 2 (§4) or Step 4 (§5): every group visits every tile once; per visit, `visit`'s
    /// substeps of migrations and circulation, then the shift to the next tile of the cycle.
    pub(super) fn pass(
        &mut self,
        masters: &[PacketId],
        tiling: Tiling,
        visit: Visit,
    ) -> Result<(), SafError> {
        let [migrate, circulate, shift] = visit.labels;
        let tile_cycle = grid_cycle(tiling.g);
        let mut next_tile = vec![0u32; tiling.tiles() as usize];
        for (i, &(x, y)) in tile_cycle.iter().enumerate() {
            let (nx, ny) = tile_cycle[(i + 1) % tile_cycle.len()];
            next_tile[(y * tiling.g + x) as usize] = ny * tiling.g + nx;
        }
        for _ in 0..tiling.tiles() {
            for _ in 0..visit.substeps {
                let mut copies = Vec::new();
                for _ in 0..visit.instances {
                    copies.extend(self.migrate(masters, tiling)?);
                }
                self.sim.mark(migrate);
                self.circulate(&copies, tiling)?;
                for c in &copies {
                    self.sim.discard(c.packet);
                }
                self.sim.mark(circulate);
            }
            if tiling.tiles() > 1 {
                let moves: Vec<(PacketId, u32)> = masters
                    .iter()
                    .map(|&p| {
                        let at = self.sim.at(p);
                        let t = tiling.tile_of(at);
                        let (lx, ly) = (
                            at % tiling.side % tiling.tile,
                            at / tiling.side % tiling.tile,
                        );
                        (p, tiling.node(next_tile[t as usize], lx, ly))
                    })
                    .collect();
                self.sim.route(&moves, &[], Arrival::Hold)?;
            }
            self.sim.mark(shift);
        }
        Ok(())
    }

    /// One t-migration instance in every tile: selections, copies spread over snake segments by a
    /// segmented broadcast, and routed to distinct nodes of their blocks. Returns the copies.
    fn migrate(
        &mut self,
        masters: &[PacketId],
        tiling: Tiling,
    ) -> Result<Vec<PacketCopy>, SafError> {
        let selections = self.select(masters, tiling)?;
        // Segment offsets along each tile's snake: one prefix computation over the tiles, an
        // item per selection; a master's segment starts at the rank of its first.
        let items: Vec<(u32, u32)> = selections
            .iter()
            .flat_map(|(p, sel)| std::iter::repeat_n((self.sim.at(*p), 0), sel.len()))
            .collect();
        let offsets = prefix::rank(
            self.sim,
            tiling.tile,
            Order::RowMajor,
            1,
            &items,
            Totals::Local,
        )?;
        let mut heads = Vec::new();
        let mut starts = Vec::new();
        let mut item = 0;
        for (j, (p, sel)) in selections.iter().enumerate() {
            if sel.is_empty() {
                continue;
            }
            let t = tiling.tile_of(self.sim.at(*p));
            starts.push((j, t, offsets.rank[item]));
            item += sel.len();
            heads.push((*p, 1));
        }
        let firsts = self.sim.replicate(&heads)?;
        let snake_node = |t: u32, q: u32| {
            let (lx, ly) = SnakeOrder::RowMajor.local(tiling.tile, q);
            tiling.node(t, lx, ly)
        };
        let moves: Vec<(PacketId, u32)> = firsts
            .iter()
            .zip(&starts)
            .map(|(&c, &(_, t, o))| (c, snake_node(t, o)))
            .collect();
        self.permutation.route(self.sim, &moves, tiling.tile)?;
        let lengths: Vec<u32> = starts
            .iter()
            .map(|&(j, _, _)| selections[j].1.len() as u32)
            .collect();
        let segments = segmented_broadcast(self.sim, &firsts, &lengths, |i, k| {
            snake_node(starts[i].1, starts[i].2 + k)
        })?;
        // Proposition 3's Step 3: the copies ranked by block, the copy of rank k to the k-th node
        // of its block's Hamiltonian cycle.
        let mut copies = Vec::new();
        let mut origins = Vec::new();
        let mut out = Vec::new();
        for (i, segment) in segments.iter().enumerate() {
            let (master, chosen) = &selections[starts[i].0];
            for (&c, sel) in segment.iter().zip(chosen) {
                self.sim.set_slots(c, sel.lo..sel.hi);
                copies.push((c, sel.block));
                origins.push(sel.origin);
                out.push(PacketCopy {
                    packet: c,
                    master: *master,
                    stamp: sel.stamp,
                });
            }
        }
        let blocks = (tiling.tile / tiling.beta).pow(2);
        let ranks = self.ranking.rank(self.sim, &copies, blocks, tiling.tile)?;
        let cycle = grid_cycle(tiling.beta);
        let moves: Vec<(PacketId, u32)> = copies
            .iter()
            .zip(origins.iter().zip(&ranks))
            .map(|(&(c, _), (&origin, &rank))| {
                let (cx, cy) = cycle[rank as usize];
                (c, origin + cy * tiling.side + cx)
            })
            .collect();
        self.permutation.route(self.sim, &moves, tiling.tile)?;
        Ok(out)
    }

    /// Proposition 3's Step 1: every block of every tile selects, in node order, up to one
    /// block's size of masters that still have destinations in it (a master's rank among the
    /// block's candidates comes from pipelined prefix computations over the tile, one per block);
    /// the selected destinations are marked visited.
    fn select(
        &mut self,
        masters: &[PacketId],
        tiling: Tiling,
    ) -> Result<Vec<(PacketId, Vec<Selection>)>, SafError> {
        let set = self.sim.set();
        let per_block = tiling.beta * tiling.beta;
        let blocks_per_row = tiling.tile / tiling.beta;
        let mut order: Vec<PacketId> = masters.to_vec();
        order.sort_by_key(|&p| self.sim.at(p));
        // The candidates: per master, every run of its slots in one block of its own tile with
        // an unvisited destination.
        let mut candidates: Vec<(usize, Selection)> = Vec::new();
        let mut items: Vec<(u32, u32)> = Vec::new();
        for (i, &p) in order.iter().enumerate() {
            // The destinations in the master's tile: one run of its quadtree-ordered slots.
            let at = self.sim.at(p);
            let here = tiling.tile_key(at);
            let range = self.sim.slots(p);
            let key_of = |s: u32| tiling.tile_key(set.dest(s));
            let start = range.start + partition(range.start, range.end, |s| key_of(s) < here);
            let end = range.start + partition(range.start, range.end, |s| key_of(s) <= here);
            let mut s = start;
            while s < end {
                let key = tiling.block_key(set.dest(s));
                let mut e = s + 1;
                while e < end && tiling.block_key(set.dest(e)) == key {
                    e += 1;
                }
                if (s..e).any(|slot| !self.visited[(self.mark)(p, slot)]) {
                    let dest = set.dest(s);
                    let (bx, by) = (
                        dest % tiling.side / tiling.beta,
                        dest / tiling.side / tiling.beta,
                    );
                    let block = by % blocks_per_row * blocks_per_row + bx % blocks_per_row;
                    candidates.push((
                        i,
                        Selection {
                            block,
                            origin: (by * tiling.beta) * tiling.side + bx * tiling.beta,
                            lo: s,
                            hi: e,
                            stamp: 0,
                        },
                    ));
                    items.push((at, block));
                }
                s = e;
            }
        }
        let keys = blocks_per_row * blocks_per_row;
        let ranks = prefix::rank(
            self.sim,
            tiling.tile,
            Order::RowMajor,
            keys,
            &items,
            Totals::Local,
        )?;
        let mut out: Vec<(PacketId, Vec<Selection>)> =
            order.iter().map(|&p| (p, Vec::new())).collect();
        for ((i, mut sel), &r) in candidates.into_iter().zip(&ranks.rank) {
            if r < per_block {
                let p = order[i];
                sel.stamp = self.stamps;
                self.stamps += 1;
                for slot in sel.lo..sel.hi {
                    let m = (self.mark)(p, slot);
                    if !self.visited[m] {
                        self.visited[m] = true;
                        self.owner[m] = sel.stamp;
                    }
                }
                out[i].1.push(sel);
            }
        }
        Ok(out)
    }

    /// Step 2b: every copy walks once round its block's Hamiltonian cycle, delivering at the
    /// destinations its selection marked (a destination visited in an earlier phase, when the
    /// blocks were smaller, is passed by).
    fn circulate(&mut self, copies: &[PacketCopy], tiling: Tiling) -> Result<(), SafError> {
        let cycle = grid_cycle(tiling.beta);
        let side = tiling.side;
        let local = |node: u32| (node % side % tiling.beta, node / side % tiling.beta);
        let mut index = vec![0usize; (tiling.beta * tiling.beta) as usize];
        for (i, &(x, y)) in cycle.iter().enumerate() {
            index[(y * tiling.beta + x) as usize] = i;
        }
        for hop in 0..cycle.len() {
            for c in copies {
                let (owner, mark) = (&self.owner, self.mark);
                self.sim
                    .deliver_here_if(c.packet, |slot| owner[mark(c.master, slot)] == c.stamp)?;
            }
            if hop + 1 == cycle.len() {
                break;
            }
            let moves: Vec<(PacketId, u32)> = copies
                .iter()
                .map(|&PacketCopy { packet: p, .. }| {
                    let at = self.sim.at(p);
                    let (lx, ly) = local(at);
                    let (nx, ny) =
                        cycle[(index[(ly * tiling.beta + lx) as usize] + 1) % cycle.len()];
                    (p, at - ly * side - lx + ny * side + nx)
                })
                .collect();
            self.sim.route(&moves, &[], Arrival::Hold)?;
        }
        Ok(())
    }
}
