//! The deterministic constant-buffer algorithm of seed 004 §5 (Theorem 4): O(√(cn)·log²n) steps
//! for any `mcast(n, d, c)` set with d ≤ c, with buffers of O(1) packets.
//!
//! The packets are split into log n *classes* of n/log n packets (consecutive along the snake),
//! routed one class after another. The i-th packet of a class is node uᵢ of an
//! (n/log n, c, r, λ)-[`Expander`] whose r edges lead to *groups*; the expander is a permutation
//! π of 0 … rm − 1 (m = class size), entry π\[k\] stored at the node of snake index k mod n.
//! A class is routed in phases, each Steps 1–6 of §5:
//! 1. (a) a prefix computation and a routing put packet i at snake position i·r; (b) a segmented
//!    broadcast fills the r positions i·r … i·r + r − 1 with its *replicas* (the packet itself is
//!    the first); (c) replica j now sits at the node holding π\[i·r + j\], which names its group
//!    ℓ = ⌊c·π\[i·r + j\] / (rm)⌋;
//! 2. ranks within the groups (pipelined prefix computations) give each replica an intermediate
//!    node in tile T_ℓ, at most ⌈rm/n⌉ per node;
//! 3. the replicas are routed there;
//! 4. c times, in every tile in parallel: (a) r times (once in the phases after the first):
//!    i. α t-migration instances (each block selects up to one block's size of replicas with
//!    destinations in it not yet marked in that replica's header, one clone each, spread by a
//!    segmented broadcast and routed to distinct nodes of the block); ii. the clones circulate
//!    along the block's Hamiltonian cycle, delivering as they pass; iii. the clones are
//!    discarded and the visited destinations marked in their replicas; (b) the replicas shift to
//!    the same place in the next tile of the cycle;
//! 5. the replicas are routed back to their places of Step 1(b);
//! 6. the r replicas of each packet are coalesced into one (a segmented prefix computation
//!    along the snake ORs their marks into the last replica; the others are discarded): its
//!    unvisited destinations are those no replica marked.
//!
//! Phases repeat while the class has unvisited destinations (Lemma 4 bounds their number by
//! log_b(bc/r)). The tile-visiting machinery (t-migration, circulation, shifts) is §4's
//! ([`super::randomized`]), with one header of marks per replica instead of one per packet.
//!
//! **Duplicate deliveries.** §5 marks a destination visited only in the replica whose clone
//! visited it, and merges the marks of the r replicas only in Step 6; two replicas of one
//! packet, in different groups, may therefore both reach the same destination in one phase.
//! The paper lets this happen (its Lemma 4 counts clones, not first deliveries); the destination
//! already holds the message and drops the copy. The simulator runs with
//! [`Sim::discarding_duplicates`]: every destination must still receive its message, and every
//! dropped copy is counted in [`Run::duplicates`].
//!
//! Our choices: tiles and blocks are §4's ([`super::randomized`]: 4^⌈log₄ c⌉ quadtree tiles,
//! power-of-two square blocks; the side must be a power of two), so there are as many groups as
//! tiles; classes have m = ⌈n/log₂ n⌉ packets; **r** defaults to the paper's Θ(log n) as
//! log₂ n, capped at c (Definition 1 needs r ≤ c); **α** (the paper: any constant > 1/λ, λ < 1 the
//! expansion) defaults to 2, the least integer above 1/λ for any λ > ½. The ranks and the OR of
//! Step 6 are prefix computations ([`super::prefix`]). Substep 4.(a).iii needs no computation of
//! its own: a replica is selected for a block by its rank among the block's candidates, and the
//! circulation is sure to reach every destination of the block it carries, so the replica marks
//! them when it is selected (as §4's masters do). Every packet,
//! replica and clone movement is simulated. §5 assumes c ≥ log⁴n (below it the paper would use
//! (d, c)-routing); on every mesh up to 256×256 log⁴n ≥ n > c, so we run §5's steps as written
//! for any c — the algorithm is well defined, and its phases end whatever the expansion.
//!
//! ```
//! use meshcast::sim::saf::deterministic::{self, Deterministic};
//! use meshcast::sim::saf::{msets, Capacity};
//! let set = msets::random(8, 3, 4, 1).unwrap(); // 8×8 mesh, d = 3, c = 4
//! let run = deterministic::route(&set, Deterministic::default(), Capacity::Packets(10)).unwrap();
//! assert_eq!(run.deliveries, set.deliveries() as u64); // every destination once…
//! assert!(run.duplicates > 0); // …and the replicas' further copies dropped and counted
//! assert!(run.max_buffer <= 10);
//! ```

use rand::RngExt;

use super::broadcast::segmented_broadcast;
use super::engine::{Capacity, PacketId, Run, Sim};
use super::lemma1;
use super::msets::MessageSet;
use super::permute::Permutation;
use super::prefix::{self, Order, Totals};
use super::randomized::{Router, Tiling, Visit};
use super::snake::{snake_node, snake_position};
use super::sort::Ranking;
use crate::error::SafError;
use crate::workload::seeded;

/// The parameters of the deterministic algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deterministic {
    /// r, the replicas per packet (the expander's left degree); `None`: the paper's Θ(log n) as
    /// log₂ n, capped at c.
    pub r: Option<u32>,
    /// α, the t-migration instances per substep (the paper: a constant > 1/λ).
    pub alpha: u32,
    /// Seed of the expander's random permutation (ChaCha8Rng).
    pub seed: u64,
    /// How the permutation routings of Steps 1, 3, 5 and of the t-migrations run.
    pub permutation: Permutation,
    /// How Step 2 and the t-migrations rank replicas by group or block.
    pub ranking: Ranking,
}

impl Default for Deterministic {
    fn default() -> Deterministic {
        Deterministic {
            r: None,
            alpha: 2,
            seed: 1,
            permutation: Permutation::Sorted,
            ranking: Ranking::Sort,
        }
    }
}

/// The bipartite multigraph of §5's Definition 1 represented by a permutation π of 0 … rm − 1:
/// left node uᵢ (i < m) is adjacent to the groups ⌊c·π[i·r + j] / (rm)⌋, j < r, of c groups.
/// Every left node has degree r and every group degree rm/c (±1 when c does not divide rm).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expander {
    m: u32,
    groups: u32,
    r: u32,
    pi: Vec<u32>,
}

impl Expander {
    /// The expander of a uniformly random permutation (Fisher–Yates, ChaCha8Rng from `seed`):
    /// the same seed gives the same graph.
    pub fn random(m: u32, groups: u32, r: u32, seed: u64) -> Expander {
        let len = m * r;
        let mut pi: Vec<u32> = (0..len).collect();
        let mut rng = seeded(seed);
        for k in (1..pi.len()).rev() {
            let j = rng.random_range(0..=k);
            pi.swap(k, j);
        }
        Expander { m, groups, r, pi }
    }

    /// r, the left degree: the replicas per packet.
    pub fn r(&self) -> u32 {
        self.r
    }

    /// The permutation π.
    pub fn permutation(&self) -> &[u32] {
        &self.pi
    }

    /// The group of replica `j` of left node `i`.
    pub fn group(&self, i: u32, j: u32) -> u32 {
        let entry = u64::from(self.pi[(i * self.r + j) as usize]);
        (u64::from(self.groups) * entry / u64::from(self.m * self.r)) as u32
    }

    /// |Γ(S)|: the groups adjacent to the left nodes `subset`.
    pub fn neighbourhood(&self, subset: &[u32]) -> usize {
        let mut hit = vec![false; self.groups as usize];
        for &i in subset {
            for j in 0..self.r {
                hit[self.group(i, j) as usize] = true;
            }
        }
        hit.into_iter().filter(|&h| h).count()
    }
}

/// Routes `set` (after Lemma 1 when d > c) by the deterministic algorithm of §5.
pub fn route(set: &MessageSet, params: Deterministic, capacity: Capacity) -> Result<Run, SafError> {
    let side = set.side();
    let c = set.congestion().max(1);
    check(side, params)?;
    let mut sim = Sim::new(set, capacity).discarding_duplicates();
    let packets = sim.inject_all()?;
    let sets = lemma1::split(&mut sim, packets, c, params.permutation)?;
    let mut visited = vec![false; set.deliveries()];
    for packets in sets {
        if !packets.is_empty() {
            route_set(&mut sim, &mut visited, packets, c, params)?;
        }
    }
    sim.finish()
}

/// The settings deterministic refuses on a `side × side` mesh, before any work.
pub fn check(side: u32, params: Deterministic) -> Result<(), SafError> {
    if !side.is_power_of_two() {
        return Err(SafError::setting(
            "side",
            side,
            "a power of two for deterministic",
        ));
    }
    if params.r == Some(0) {
        return Err(SafError::setting("r", 0, "at least 1"));
    }
    if params.alpha == 0 {
        return Err(SafError::setting("alpha", 0, "at least 1"));
    }
    Ok(())
}

/// The classes of one set (at most one packet per node, degree ≤ c), one after another.
fn route_set(
    sim: &mut Sim<'_>,
    visited: &mut [bool],
    mut packets: Vec<PacketId>,
    c: u32,
    params: Deterministic,
) -> Result<(), SafError> {
    let side = sim.set().side();
    let log_n = (side * side).ilog2();
    let r = params.r.unwrap_or(log_n.min(c));
    let tiling = Tiling::new(side, c);
    // Every packet's index along the snake and their number (a prefix computation that shares
    // its total): class k holds indices k·m … (k + 1)·m − 1.
    packets.sort_by_key(|&p| snake_position(side, sim.at(p)));
    let items: Vec<(u32, u32)> = packets.iter().map(|&p| (sim.at(p), 0)).collect();
    let ranks = prefix::rank(sim, side, Order::Snake, 1, &items, Totals::Shared)?;
    let m = ranks.total(0, 0).div_ceil(log_n);
    let expander = Expander::random(m, tiling.tiles(), r, params.seed);
    for class in packets.chunks(m as usize) {
        let mut routing = Class {
            sim: &mut *sim,
            visited: &mut *visited,
            expander: &expander,
            tiling,
            alpha: params.alpha,
            permutation: params.permutation,
            ranking: params.ranking,
        };
        routing.route(class)?;
    }
    Ok(())
}

/// The routing of one class.
struct Class<'s, 'a> {
    sim: &'s mut Sim<'a>,
    visited: &'s mut [bool],
    expander: &'s Expander,
    tiling: Tiling,
    alpha: u32,
    permutation: Permutation,
    ranking: Ranking,
}

impl Class<'_, '_> {
    /// Phases of Steps 1–6 until no packet of the class has an unvisited destination.
    fn route(&mut self, class: &[PacketId]) -> Result<(), SafError> {
        let mut alive: Vec<(u32, PacketId)> = (0..).zip(class.iter().copied()).collect();
        let mut phase = 0u32;
        loop {
            alive.retain(|&(_, p)| {
                let open = self.sim.slots(p).any(|s| !self.visited[s as usize]);
                if !open {
                    self.sim.discard(p);
                }
                open
            });
            if alive.is_empty() {
                return Ok(());
            }
            phase += 1;
            let before = self.visited.iter().filter(|&&v| v).count();
            alive = self.phase(&alive, phase == 1)?;
            let after = self.visited.iter().filter(|&&v| v).count();
            if after == before {
                return Err(SafError::NoProgress {
                    algorithm: "deterministic",
                    phase,
                    open: alive.len(),
                });
            }
        }
    }

    /// Steps 1–6 for the packets `alive` (class index, packet); returns them, each now the
    /// replica that kept the coalesced marks.
    fn phase(
        &mut self,
        alive: &[(u32, PacketId)],
        first: bool,
    ) -> Result<Vec<(u32, PacketId)>, SafError> {
        let side = self.sim.set().side();
        let n = side * side;
        let r = self.expander.r();
        let place = |i: u32, j: u32| snake_node(side, (i * r + j) % n);
        // 1(a): segment heads at snake positions i·r (i, the packet's index in its class, is in
        // its header since the prefix computation of `route_set`).
        let moves: Vec<(PacketId, u32)> = alive.iter().map(|&(i, p)| (p, place(i, 0))).collect();
        self.permutation.route(self.sim, &moves, side)?;
        self.sim.mark("1a spread");
        // 1(b): the replicas, one per node of the segment.
        let heads: Vec<PacketId> = alive.iter().map(|&(_, p)| p).collect();
        let lengths = vec![r; alive.len()];
        let segments =
            segmented_broadcast(self.sim, &heads, &lengths, |k, j| place(alive[k].0, j))?;
        self.sim.mark("1b replicas");
        // 1(c), 2, 3: groups from π (read where the replica stands), ranks, intermediate nodes.
        let replicas = self.assign_groups(alive, &segments)?;
        self.sim.mark("2-3 groups to tiles");
        // Step 4, with a header of marks per replica, initialised from the packet's.
        let (mut marks, table) = self.headers(&replicas);
        let mark = |p: PacketId, s: u32| {
            let (base, lo) = table[p.index()];
            (base + s - lo) as usize
        };
        let visit = Visit {
            substeps: if first { r } else { 1 },
            instances: self.alpha,
            labels: ["4a.i migrate", "4a.ii-iii circulate, mark", "4b shift"],
        };
        let flat: Vec<PacketId> = replicas.iter().map(|&(p, _, _)| p).collect();
        Router::new(
            self.sim,
            &mut marks,
            &mark,
            (self.permutation, self.ranking),
        )
        .pass(&flat, self.tiling, visit)?;
        // 5: back to the places of Step 1(b).
        let moves: Vec<(PacketId, u32)> = replicas
            .iter()
            .map(|&(p, k, j)| (p, place(alive[k].0, j)))
            .collect();
        self.permutation.route(self.sim, &moves, side)?;
        self.sim.mark("5 back");
        // 6: coalesce: OR the marks along each segment, keep the last replica.
        let kept = self.coalesce(alive, &replicas, &marks, &mark)?;
        self.sim.mark("6 coalesce");
        Ok(kept)
    }

    /// Step 6: a segmented prefix computation along the snake ORs the marks of each packet's r
    /// replicas (one lane per destination slot) into the last replica, which is kept; the others
    /// are discarded. As rm < 2n, replica positions i·r + j wrap round the snake at most once:
    /// the positions below n and the wrapped ones are two scans, and the one segment that wraps
    /// starts its second part from the first scan's total (shared with every node).
    fn coalesce(
        &mut self,
        alive: &[(u32, PacketId)],
        replicas: &[(PacketId, usize, u32)],
        marks: &[bool],
        mark: &impl Fn(PacketId, u32) -> usize,
    ) -> Result<Vec<(u32, PacketId)>, SafError> {
        let side = self.sim.set().side();
        let n = side * side;
        let r = self.expander.r();
        let lanes = alive
            .iter()
            .map(|&(_, p)| self.sim.slots(p).len())
            .max()
            .unwrap_or(0);
        // (segment starts here, OR of the marks since the segment's start)
        let or = |(f1, b1): (bool, bool), (f2, b2): (bool, bool)| (f1 || f2, b2 || (!f2 && b1));
        let mut layers = [
            vec![(false, false); n as usize * lanes],
            vec![(false, false); n as usize * lanes],
        ];
        let position = |k: usize, j: u32| alive[k].0 * r + j;
        for &(p, k, j) in replicas {
            let pos = position(k, j);
            let node = snake_node(side, pos % n) as usize;
            for (q, slot) in self.sim.slots(p).enumerate() {
                layers[(pos / n) as usize][node * lanes + q] = (j == 0, marks[mark(p, slot)]);
            }
        }
        let below = prefix::scan(
            self.sim,
            side,
            Order::Snake,
            lanes,
            &layers[0],
            (false, false),
            or,
            Totals::Shared,
        )?;
        let wrapped = prefix::scan(
            self.sim,
            side,
            Order::Snake,
            lanes,
            &layers[1],
            (false, false),
            or,
            Totals::Local,
        )?;
        let mut kept = Vec::with_capacity(alive.len());
        for &(p, k, j) in replicas {
            if j + 1 < r {
                self.sim.discard(p);
                continue;
            }
            let pos = position(k, j);
            let node = snake_node(side, pos % n);
            let start = position(k, 0);
            for (q, slot) in self.sim.slots(p).enumerate() {
                let layer = (pos / n) as usize;
                let scan = if layer == 0 { &below } else { &wrapped };
                let mut all = or(
                    scan.before(node, q),
                    layers[layer][node as usize * lanes + q],
                );
                if start < n && pos >= n {
                    all = or(below.total(0, q), all);
                }
                if all.1 {
                    self.visited[slot as usize] = true;
                }
            }
            kept.push((alive[k].0, p));
        }
        Ok(kept)
    }

    /// Steps 1(c), 2 and 3: every replica's group from π, ranks within the groups (in node
    /// order, what the pipelined prefix computations yield) and the routing to the tiles.
    /// Returns (replica, segment index, replica index j).
    fn assign_groups(
        &mut self,
        alive: &[(u32, PacketId)],
        segments: &[Vec<PacketId>],
    ) -> Result<Vec<(PacketId, usize, u32)>, SafError> {
        let tiling = self.tiling;
        let groups = tiling.tiles();
        let tile_nodes = tiling.tile * tiling.tile;
        let mut replicas: Vec<(PacketId, usize, u32)> = Vec::new();
        for (k, segment) in segments.iter().enumerate() {
            replicas.extend((0..).zip(segment).map(|(j, &p)| (p, k, j)));
        }
        replicas.sort_by_key(|&(p, _, _)| self.sim.at(p));
        let items: Vec<(PacketId, u32)> = replicas
            .iter()
            .map(|&(p, k, j)| (p, self.expander.group(alive[k].0, j)))
            .collect();
        let ranks = self.ranking.rank(self.sim, &items, groups, tiling.side)?;
        let moves: Vec<(PacketId, u32)> = items
            .iter()
            .zip(&ranks)
            .map(|(&(p, g), &rank)| {
                let q = rank % tile_nodes;
                (p, tiling.node(g, q % tiling.tile, q / tiling.tile))
            })
            .collect();
        self.permutation.route(self.sim, &moves, tiling.side)?;
        Ok(replicas)
    }

    /// One header of marks per replica, a copy of its packet's visited marks: the flags and, per
    /// packet-table index, (offset of the replica's flags, its first slot).
    fn headers(&self, replicas: &[(PacketId, usize, u32)]) -> (Vec<bool>, Vec<(u32, u32)>) {
        let top = replicas
            .iter()
            .map(|&(p, _, _)| p.index())
            .max()
            .unwrap_or(0);
        let mut table = vec![(0u32, 0u32); top + 1];
        let mut marks = Vec::new();
        for &(p, _, _) in replicas {
            let slots = self.sim.slots(p);
            table[p.index()] = (marks.len() as u32, slots.start);
            marks.extend(slots.map(|s| self.visited[s as usize]));
        }
        (marks, table)
    }
}
