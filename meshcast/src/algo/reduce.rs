//! The two reductions every tree algorithm relies on, written once (seed 001 §3.1.1, §3.1.3).
//!
//! * **Torus**: the torus, seen from the source, splits at the middle of every dimension into
//!   2ⁿ zones (Algorithms 3.2.1.3 and 3.2.1.6). Zone `b` (bit i set: the zone lies on the
//!   negative side in dimension i) is a submesh whose origin is the source moved one hop back
//!   over the wraparound link in each dimension of `b`. Positive sides have ⌈k/2⌉ nodes,
//!   negative ones ⌊k/2⌋, as in the papers' zone tables.
//! * **Arbitrary source in a mesh**: the same construction with the source's own coordinates as
//!   the split: the positive side of dimension i is `[sᵢ, kᵢ − 1]`, the negative side
//!   `[0, sᵢ − 1]`, whose origin is one hop below the source.
//!
//! Path-based XY-path (seed 001 §3.3.3, stated for a corner source) uses the same mesh zones.
//!
//! Zones are disjoint, so their subtrees join into one tree. A zone's origin is reached from the
//! origin of zone `b` without its highest set bit (in 2D: (0,0) → (m−1,0) → (m−1,n−1), as in the
//! 8×8 torus example), so every destination keeps its shortest distance. At a branching node the
//! hops to zone origins go first, lower zone first ("wraparound links have a higher transmission
//! priority", seed 001 §3.2.1.4 and §3.2.1.6); then the zone's own tree in its algorithm's order.
//!
//! Our choices where the papers are silent (docs/ALGORITHMS.md): the negative mesh zones start one
//! hop below the source instead of sharing its row and column (the paper's overlapping submeshes
//! would let two subtrees use the same links); the 3D torus example joins zone (x,y,z) through
//! zone (x,z) where our rule uses (x,y) — the same number of hops, and the example's numbers agree.

use std::collections::{BTreeMap, BTreeSet};

use super::local::{Grid, LocalTree, NONE};
use crate::plan::{Plan, PlanKind};
use crate::topology::{Kind, Node, Shape};

/// A tree algorithm stated for a mesh with the source at its origin.
pub(crate) trait ZoneAlgorithm: Sync {
    /// Grow `tree` (which holds the origin only) until it reaches every destination in `dests`
    /// (local ids, distinct, possibly including the origin itself).
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]);

    /// Whether a branching node serves its stem child first (DIAG); otherwise children go in
    /// dimension order, increasing direction first.
    fn stem_first(&self) -> bool {
        false
    }
}

/// The zones of `shape` around `source`.
pub(crate) struct Zones<'a> {
    shape: &'a Shape,
    source: Vec<u32>,
    /// Nodes on the positive and negative side of the source, per dimension.
    pos: Vec<u32>,
    neg: Vec<u32>,
}

impl<'a> Zones<'a> {
    pub(crate) fn new(shape: &'a Shape, source: Node) -> Zones<'a> {
        let source = shape.coords(source);
        let (pos, neg) = shape
            .dims()
            .iter()
            .zip(&source)
            .map(|(&k, &s)| match shape.kind() {
                Kind::Mesh => (k - s, s),
                Kind::Torus => (k.div_ceil(2), k / 2),
            })
            .unzip();
        Zones {
            shape,
            source,
            pos,
            neg,
        }
    }

    /// The zone of global coordinates `g` and the local coordinates inside it.
    pub(crate) fn locate(&self, g: &[u32]) -> (u32, Vec<u32>) {
        let mut local = vec![0; g.len()];
        (self.locate_into(g, &mut local), local)
    }

    /// The zone of global coordinates `g`; its local coordinates go to `local`.
    fn locate_into(&self, g: &[u32], local: &mut [u32]) -> u32 {
        let mut zone = 0u32;
        for (i, (&x, l)) in g.iter().zip(local).enumerate() {
            let (s, k) = (self.source[i], self.shape.dims()[i]);
            let delta = match self.shape.kind() {
                Kind::Mesh => x.wrapping_sub(s),
                Kind::Torus => (x + k - s) % k,
            };
            *l = if delta < self.pos[i] {
                delta
            } else {
                zone |= 1 << i;
                match self.shape.kind() {
                    Kind::Mesh => s - 1 - x,
                    Kind::Torus => k - 1 - delta,
                }
            };
        }
        zone
    }

    /// The sizes of `zone`, dimension by dimension.
    pub(crate) fn extents(&self, zone: u32) -> Vec<u32> {
        (0..self.source.len())
            .map(|i| {
                if zone >> i & 1 == 1 {
                    self.neg[i]
                } else {
                    self.pos[i]
                }
            })
            .collect()
    }

    /// Global coordinate of local coordinate `l` along dimension `i` of `zone`.
    fn global_coord(&self, zone: u32, i: usize, l: u32) -> u32 {
        let (s, k) = (self.source[i], self.shape.dims()[i]);
        match (zone >> i & 1 == 1, self.shape.kind()) {
            (false, Kind::Mesh) => s + l,
            (true, Kind::Mesh) => s - 1 - l,
            (false, Kind::Torus) => (s + l) % k,
            (true, Kind::Torus) => (s + k - 1 - l) % k,
        }
    }

    /// The node at local coordinates `local` of `zone`.
    pub(crate) fn global(&self, zone: u32, local: &[u32]) -> Node {
        let g: Vec<u32> = local
            .iter()
            .enumerate()
            .map(|(i, &l)| self.global_coord(zone, i, l))
            .collect();
        self.shape
            .node(&g)
            .expect("zone coordinates stay inside the shape")
    }

    /// A map from the local ids of `zone`'s grid to global nodes: per dimension, the global id
    /// offset of every local coordinate, so mapping a node costs n table look-ups.
    fn id_map(&self, zone: u32, grid: &Grid) -> impl Fn(u32) -> Node + '_ {
        let unit: Vec<u32> = (0..self.source.len())
            .map(|i| {
                let mut c = vec![0; self.source.len()];
                c[i] = 1;
                self.shape
                    .node(&c)
                    .expect("every dimension has size ≥ 2")
                    .index() as u32
            })
            .collect();
        let tables: Vec<Vec<u32>> = (0..grid.rank())
            .map(|i| {
                (0..grid.extent(i))
                    .map(|l| self.global_coord(zone, i, l) * unit[i])
                    .collect()
            })
            .collect();
        let grid = grid.clone();
        move |local| {
            Node(
                (0..grid.rank())
                    .map(|i| tables[i][grid.coord(local, i) as usize])
                    .sum(),
            )
        }
    }

    /// The node at the local origin of `zone`: the source for zone 0.
    pub(crate) fn origin(&self, zone: u32) -> Node {
        self.global(zone, &vec![0; self.source.len()])
    }
}

/// The zone whose origin passes the message on to zone `b`'s origin.
pub(crate) fn feeder(b: u32) -> u32 {
    b & !(1 << (31 - b.leading_zeros()))
}

/// Run `algo` in every zone of `shape` around `source` and join the subtrees into one tree plan.
pub(crate) fn lift(algo: &dyn ZoneAlgorithm, shape: &Shape, source: Node, dests: &[Node]) -> Plan {
    let zones = Zones::new(shape, source);
    let n = shape.rank();
    // Every destination's zone and local coordinates; grouped by zone, request order within one.
    let mut local = vec![0; dests.len() * n];
    let mut g = vec![0; n];
    let mut by_zone: Vec<(u32, usize)> = dests
        .iter()
        .enumerate()
        .map(|(k, &d)| {
            for (i, c) in g.iter_mut().enumerate() {
                *c = shape.coord(d, i);
            }
            (zones.locate_into(&g, &mut local[k * n..(k + 1) * n]), k)
        })
        .collect();
    by_zone.sort_by_key(|&(zone, _)| zone);
    // Every zone on the way from the source to a zone with destinations.
    let mut needed = BTreeSet::new();
    for &(zone, _) in &by_zone {
        let mut b = zone;
        while b != 0 && needed.insert(b) {
            b = feeder(b);
        }
    }
    let mut forest = Forest::default();
    let mut origin_of = BTreeMap::from([(0, forest.push(source, NONE, 0))]);
    for &b in &needed {
        let hop = forest.push(zones.origin(b), origin_of[&feeder(b)], b);
        origin_of.insert(b, hop);
    }
    let mut ids = Vec::new();
    for group in by_zone.chunk_by(|a, b| a.0 == b.0) {
        let zone = group[0].0;
        let grid = Grid::new(&zones.extents(zone));
        ids.clear();
        ids.extend(
            group
                .iter()
                .map(|&(_, k)| grid.index(&local[k * n..(k + 1) * n])),
        );
        let at = zones.id_map(zone, &grid);
        let mut tree = LocalTree::new(grid.clone());
        algo.grow(&mut tree, &ids);
        tree.prune(&ids);
        let (origin, base) = (origin_of[&zone], forest.len() as u32);
        tree.drain_edges(|parent, parent_pos, child, on_stem| {
            let (dim, up) = grid.step_between(parent, child);
            let stem_rank = u32::from(!(on_stem && algo.stem_first()));
            let rank = 1 << 31 | stem_rank << 30 | (dim as u32) << 1 | u32::from(!up);
            let from = if parent_pos == NONE {
                origin
            } else {
                base + parent_pos
            };
            forest.push(at(child), from, rank);
        });
    }
    forest.into_plan(dests)
}

/// The tree of a plan before it is listed: nodes numbered compactly (the source is 0), each
/// with its parent and its rank among its parent's children — a zone-origin hop `b` ranks `b`,
/// ahead of every edge of a zone's own tree, which ranks `2³¹ | stem_rank·2³⁰ | dim·2 | down`.
#[derive(Default)]
struct Forest {
    node: Vec<Node>,
    parent: Vec<u32>,
    rank: Vec<u32>,
}

impl Forest {
    fn len(&self) -> usize {
        self.node.len()
    }

    /// Add `node` below compact node `parent` (`NONE` for the source); its compact number.
    fn push(&mut self, node: Node, parent: u32, rank: u32) -> u32 {
        self.node.push(node);
        self.parent.push(parent);
        self.rank.push(rank);
        self.node.len() as u32 - 1
    }

    /// The plan: every node's children in rank order (its port order), the sends listed breadth
    /// first from the source.
    fn into_plan(self, dests: &[Node]) -> Plan {
        let m = self.len();
        let mut first = vec![0u32; m + 1];
        for &p in &self.parent[1..] {
            first[p as usize + 1] += 1;
        }
        for v in 0..m {
            first[v + 1] += first[v];
        }
        let mut fill = first.clone();
        let mut children = vec![0u32; m - 1];
        for (c, &p) in self.parent.iter().enumerate().skip(1) {
            children[fill[p as usize] as usize] = c as u32;
            fill[p as usize] += 1;
        }
        drop(fill);
        let mut plan = Plan::new(PlanKind::Tree, self.node[0], dests.to_vec());
        plan.reserve_edges(m - 1);
        let mut queue = Vec::with_capacity(m);
        queue.push(0u32);
        let mut next = 0;
        while next < queue.len() {
            let v = queue[next] as usize;
            next += 1;
            let kids = &mut children[first[v] as usize..first[v + 1] as usize];
            kids.sort_unstable_by_key(|&c| self.rank[c as usize]);
            for &c in kids.iter() {
                plan.push_edge(self.node[v], self.node[c as usize]);
                queue.push(c);
            }
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torus_zones_follow_the_papers_tables() {
        let s: Shape = "torus:5x5x5".parse().unwrap();
        let z = Zones::new(&s, s.node(&[0, 0, 0]).unwrap());
        assert_eq!(z.extents(0), vec![3, 3, 3]);
        assert_eq!(z.extents(0b001), vec![2, 3, 3]);
        assert_eq!(s.coords(z.origin(0b001)), vec![4, 0, 0]);
        assert_eq!(s.coords(z.origin(0b111)), vec![4, 4, 4]);
        assert_eq!(z.locate(&[3, 1, 0]), (0b001, vec![1, 1, 0]));
    }

    #[test]
    fn mesh_zones_split_at_the_source() {
        let s: Shape = "mesh:7x6".parse().unwrap();
        let z = Zones::new(&s, s.node(&[3, 4]).unwrap());
        assert_eq!(z.locate(&[1, 2]), (0b11, vec![1, 1]));
        assert_eq!(z.locate(&[3, 5]), (0b00, vec![0, 1]));
        assert_eq!(s.coords(z.origin(0b01)), vec![2, 4]);
        assert_eq!(z.extents(0b11), vec![3, 4]);
        for n in s.nodes() {
            let (zone, local) = z.locate(&s.coords(n));
            assert_eq!(z.global(zone, &local), n);
        }
    }

    #[test]
    fn feeders_drop_the_highest_dimension() {
        assert_eq!(feeder(0b011), 0b001);
        assert_eq!(feeder(0b100), 0);
        assert_eq!(feeder(0b110), 0b010);
    }
}
