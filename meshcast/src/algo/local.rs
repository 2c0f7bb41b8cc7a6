//! The world a tree algorithm sees: one zone as a mesh in local coordinates, the source at its
//! origin and every coordinate growing away from it, and the multicast tree growing inside it.
//!
//! Every tree algorithm of the seeds is stated for this case (seed 001 §3.1.1: "we assume the
//! source node is fixed at the origin"); [`crate::algo::reduce`] maps tori and arbitrary sources
//! onto it. What the algorithms share lives here, written once: dimension-ordered paths, the
//! search for the tree node closest to a destination, and pruning.
//!
//! Everything is flat arrays indexed by local node id, with no per-step allocation: the closest
//! node is found by a breadth-first search outward from the destination, which stops at the first
//! layer that touches the tree — usually a few nodes away — instead of scanning the whole tree
//! (the papers' O(N) per destination).

/// "No node".
pub(crate) const NONE: u32 = u32::MAX;

/// A box-shaped mesh `e₀ × … × eₙ₋₁` with local ids (dimension 0 fastest).
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    ext: Vec<u32>,
    stride: Vec<u32>,
    len: u32,
}

impl Grid {
    pub(crate) fn new(ext: &[u32]) -> Grid {
        let mut stride = Vec::with_capacity(ext.len());
        let mut len = 1u32;
        for &e in ext {
            stride.push(len);
            len *= e;
        }
        Grid {
            ext: ext.to_vec(),
            stride,
            len,
        }
    }

    pub(crate) fn rank(&self) -> usize {
        self.ext.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    pub(crate) fn extent(&self, d: usize) -> u32 {
        self.ext[d]
    }

    pub(crate) fn coord(&self, i: u32, d: usize) -> u32 {
        (i / self.stride[d]) % self.ext[d]
    }

    pub(crate) fn coords(&self, i: u32) -> Vec<u32> {
        (0..self.rank()).map(|d| self.coord(i, d)).collect()
    }

    pub(crate) fn index(&self, c: &[u32]) -> u32 {
        c.iter().zip(&self.stride).map(|(&x, &s)| x * s).sum()
    }

    pub(crate) fn stride(&self, d: usize) -> u32 {
        self.stride[d]
    }

    /// Distance from the origin (the local source): the sum of the coordinates.
    pub(crate) fn norm(&self, i: u32) -> u32 {
        (0..self.rank()).map(|d| self.coord(i, d)).sum()
    }

    /// Which dimension and direction (`true` = increasing) leads from `a` to its neighbour `b`.
    pub(crate) fn step_between(&self, a: u32, b: u32) -> (usize, bool) {
        let d = (0..self.rank())
            .find(|&d| self.coord(a, d) != self.coord(b, d))
            .expect("distinct neighbours");
        (d, self.coord(b, d) > self.coord(a, d))
    }
}

/// Where [`LocalTree::join`] looks for the tree node closest to a destination `u`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Among tree nodes in the zone `{origin ⇔ u}` (every coordinate at most `u`'s): DIAG and
    /// DDS, "find a node c in MT and in zone {s ⇔ u} that is closest to node u". The origin is
    /// always a candidate, so the route from it is a shortest path.
    InZone,
    /// Anywhere in the grid: DIST and the MINs, "connect it to the existing tree with a shortest
    /// path".
    Anywhere,
}

/// A multicast tree inside a [`Grid`], rooted at the local origin.
pub(crate) struct LocalTree {
    pub(crate) grid: Grid,
    /// Insertion number + 1 of each tree node (0: not in the tree). Ties between equally close
    /// tree nodes go to the earliest inserted — the node a scan of the tree in insertion order
    /// meets first, which is how the papers' "find a node c in MT closest to u" reads.
    seq: Vec<u32>,
    parent: Vec<u32>,
    stem: Vec<bool>,
    next_seq: u32,
    stamp: Vec<u32>,
    epoch: u32,
    layer: Vec<u32>,
    next_layer: Vec<u32>,
    route: Vec<u32>,
}

impl LocalTree {
    pub(crate) fn new(grid: Grid) -> LocalTree {
        let n = grid.len();
        let mut t = LocalTree {
            grid,
            seq: vec![0; n],
            parent: vec![NONE; n],
            stem: vec![false; n],
            next_seq: 1,
            stamp: vec![0; n],
            epoch: 0,
            layer: Vec::new(),
            next_layer: Vec::new(),
            route: Vec::new(),
        };
        t.seq[0] = t.take_seq();
        t
    }

    fn take_seq(&mut self) -> u32 {
        self.next_seq += 1;
        self.next_seq - 1
    }

    pub(crate) fn contains(&self, i: u32) -> bool {
        self.seq[i as usize] != 0
    }

    /// Add `child` (not yet in the tree) below `parent` (in the tree, a neighbour).
    pub(crate) fn attach(&mut self, child: u32, parent: u32) {
        debug_assert!(!self.contains(child) && self.contains(parent));
        self.parent[child as usize] = parent;
        self.seq[child as usize] = self.take_seq();
    }

    /// Mark `i` as part of the stem (DIAG's diagonal path), which its parent serves first.
    pub(crate) fn mark_stem(&mut self, i: u32) {
        self.stem[i as usize] = true;
    }

    /// Connect `to` through the dimension-ordered route from tree node `from` (dimension 0 first,
    /// each dimension walked towards `to`'s coordinate). Where that route meets the tree again,
    /// the new branch starts at the last tree node on it, so links shared with the tree are used
    /// once and the result stays a tree.
    pub(crate) fn connect(&mut self, from: u32, to: u32) {
        debug_assert!(self.contains(from));
        let mut route = std::mem::take(&mut self.route);
        route.clear();
        route.push(from);
        let mut at = from;
        for d in 0..self.grid.rank() {
            let target = self.grid.coord(to, d);
            let s = self.grid.stride(d);
            while self.grid.coord(at, d) != target {
                at = if self.grid.coord(at, d) < target {
                    at + s
                } else {
                    at - s
                };
                route.push(at);
            }
        }
        let last_in_tree = route.iter().rposition(|&i| self.contains(i)).unwrap_or(0);
        for k in last_in_tree + 1..route.len() {
            self.attach(route[k], route[k - 1]);
        }
        self.route = route;
    }

    /// Join `u` to the tree: find the tree node closest to it (earliest inserted among equals)
    /// and connect `u` from there by the dimension-ordered route.
    pub(crate) fn join(&mut self, u: u32, reach: Reach) {
        let c = self.closest(u, reach == Reach::Anywhere);
        self.connect(c, u);
    }

    fn closest(&mut self, u: u32, both_ways: bool) -> u32 {
        if self.contains(u) {
            return u;
        }
        self.epoch += 1;
        let epoch = self.epoch;
        self.stamp[u as usize] = epoch;
        self.layer.clear();
        self.layer.push(u);
        loop {
            self.next_layer.clear();
            for li in 0..self.layer.len() {
                let i = self.layer[li];
                for d in 0..self.grid.rank() {
                    let c = self.grid.coord(i, d);
                    let s = self.grid.stride(d);
                    if c > 0 {
                        self.visit(i - s, epoch);
                    }
                    if both_ways && c + 1 < self.grid.ext[d] {
                        self.visit(i + s, epoch);
                    }
                }
            }
            let best = self
                .next_layer
                .iter()
                .copied()
                .filter(|&i| self.contains(i))
                .min_by_key(|&i| self.seq[i as usize]);
            if let Some(best) = best {
                return best;
            }
            std::mem::swap(&mut self.layer, &mut self.next_layer);
            debug_assert!(!self.layer.is_empty(), "the origin is always reachable");
        }
    }

    fn visit(&mut self, i: u32, epoch: u32) {
        if self.stamp[i as usize] != epoch {
            self.stamp[i as usize] = epoch;
            self.next_layer.push(i);
        }
    }

    /// Remove, repeatedly, every leaf that is not a destination (DIAG step 5 "cut the tail part
    /// of DP", and the unused wraparound links of the torus examples).
    pub(crate) fn prune(&mut self, is_dest: impl Fn(u32) -> bool) {
        let n = self.grid.len();
        let mut children = vec![0u32; n];
        for i in 1..n {
            if self.contains(i as u32) {
                children[self.parent[i] as usize] += 1;
            }
        }
        let mut doomed: Vec<u32> = (1..n as u32)
            .filter(|&i| self.contains(i) && children[i as usize] == 0 && !is_dest(i))
            .collect();
        while let Some(i) = doomed.pop() {
            self.seq[i as usize] = 0;
            let p = std::mem::replace(&mut self.parent[i as usize], NONE);
            children[p as usize] -= 1;
            if p != 0 && children[p as usize] == 0 && !is_dest(p) {
                doomed.push(p);
            }
        }
    }

    /// The tree's edges `(parent, child, child is on the stem)`, in insertion order.
    pub(crate) fn edges(&self) -> Vec<(u32, u32, bool)> {
        let mut nodes: Vec<u32> = (1..self.grid.len() as u32)
            .filter(|&i| self.contains(i))
            .collect();
        nodes.sort_unstable_by_key(|&i| self.seq[i as usize]);
        nodes
            .into_iter()
            .map(|i| (self.parent[i as usize], i, self.stem[i as usize]))
            .collect()
    }
}

/// Destinations picked by smallest coordinate in a chosen dimension, each at most once: the
/// "node with the minimum x (y, …) value in the remaining destination set" of PAIR and the two
/// MINs. Ties go to the smaller coordinates in dimension order.
pub(crate) struct Picker {
    by_dim: Vec<Vec<u32>>,
    cursor: Vec<usize>,
    taken: Vec<bool>,
}

impl Picker {
    pub(crate) fn new(grid: &Grid, dests: &[u32]) -> Picker {
        let coords: Vec<Vec<u32>> = dests.iter().map(|&u| grid.coords(u)).collect();
        let by_dim = (0..grid.rank())
            .map(|d| {
                let mut order: Vec<u32> = (0..dests.len() as u32).collect();
                order.sort_by(|&a, &b| {
                    let (ca, cb) = (&coords[a as usize], &coords[b as usize]);
                    ca[d].cmp(&cb[d]).then_with(|| ca.cmp(cb))
                });
                order.into_iter().map(|k| dests[k as usize]).collect()
            })
            .collect();
        Picker {
            by_dim,
            cursor: vec![0; grid.rank()],
            taken: vec![false; grid.len()],
        }
    }

    /// The remaining destination with the least coordinate in `dim`; it stays until [`Picker::take`].
    pub(crate) fn min_in(&mut self, dim: usize) -> Option<u32> {
        let list = &self.by_dim[dim];
        let c = &mut self.cursor[dim];
        while *c < list.len() && self.taken[list[*c] as usize] {
            *c += 1;
        }
        list.get(*c).copied()
    }

    pub(crate) fn take(&mut self, u: u32) {
        self.taken[u as usize] = true;
    }
}
