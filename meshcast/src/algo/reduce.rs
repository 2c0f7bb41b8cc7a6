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

use std::collections::BTreeMap;

use super::local::{Grid, LocalTree};
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
        let mut zone = 0u32;
        let local = g
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let (s, k) = (self.source[i], self.shape.dims()[i]);
                let delta = match self.shape.kind() {
                    Kind::Mesh => x.wrapping_sub(s),
                    Kind::Torus => (x + k - s) % k,
                };
                if delta < self.pos[i] {
                    delta
                } else {
                    zone |= 1 << i;
                    match self.shape.kind() {
                        Kind::Mesh => s - 1 - x,
                        Kind::Torus => k - 1 - delta,
                    }
                }
            })
            .collect();
        (zone, local)
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
    let mut by_zone: BTreeMap<u32, Vec<Vec<u32>>> = BTreeMap::new();
    for &d in dests {
        let (zone, local) = zones.locate(&shape.coords(d));
        by_zone.entry(zone).or_default().push(local);
    }
    // Every zone on the way from the source to a zone with destinations.
    let mut needed = std::collections::BTreeSet::new();
    for &zone in by_zone.keys() {
        let mut b = zone;
        while b != 0 && needed.insert(b) {
            b = feeder(b);
        }
    }
    let mut plan = Plan::new(PlanKind::Tree, source, dests.to_vec());
    let mut rank = Vec::new();
    for &b in &needed {
        plan.push_edge(zones.origin(feeder(b)), zones.origin(b));
        rank.push(u64::from(b));
    }
    for (&zone, locals) in &by_zone {
        let grid = Grid::new(&zones.extents(zone));
        let local_ids: Vec<u32> = locals.iter().map(|c| grid.index(c)).collect();
        let mut tree = LocalTree::new(grid);
        algo.grow(&mut tree, &local_ids);
        let mut is_dest = vec![false; tree.grid.len()];
        for &u in &local_ids {
            is_dest[u as usize] = true;
        }
        tree.prune(|i| is_dest[i as usize]);
        let at = zones.id_map(zone, &tree.grid);
        for (parent, child, on_stem) in tree.edges() {
            let (dim, up) = tree.grid.step_between(parent, child);
            let stem_rank = u64::from(!(on_stem && algo.stem_first()));
            rank.push(1 << 62 | stem_rank << 40 | (dim as u64) << 1 | u64::from(!up));
            plan.push_edge(at(parent), at(child));
        }
    }
    plan.reordered(&rank)
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
