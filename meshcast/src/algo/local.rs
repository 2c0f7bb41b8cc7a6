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

/// Division by a fixed divisor without a division instruction: Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation" (2019) — for 32-bit operands, `M = ⌊(2⁶⁴ − 1)/d⌋ + 1` gives
/// the exact quotient and remainder of every `n < 2³²` with one or two multiplications.
#[derive(Clone, Copy, Debug)]
struct Divisor {
    d: u32,
    m: u64,
}

impl Divisor {
    fn new(d: u32) -> Divisor {
        Divisor {
            d,
            m: (u64::MAX / u64::from(d)).wrapping_add(1),
        }
    }

    fn div(self, n: u32) -> u32 {
        if self.d == 1 {
            n
        } else {
            ((u128::from(self.m) * u128::from(n)) >> 64) as u32
        }
    }

    fn rem(self, n: u32) -> u32 {
        let low = self.m.wrapping_mul(u64::from(n));
        ((u128::from(low) * u128::from(self.d)) >> 64) as u32
    }
}

/// A box-shaped mesh `e₀ × … × eₙ₋₁` with local ids (dimension 0 fastest).
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    ext: Vec<u32>,
    stride: Vec<u32>,
    by_stride: Vec<Divisor>,
    by_ext: Vec<Divisor>,
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
            by_stride: stride.iter().map(|&s| Divisor::new(s)).collect(),
            by_ext: ext.iter().map(|&e| Divisor::new(e)).collect(),
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
        self.by_ext[d].rem(self.by_stride[d].div(i))
    }

    pub(crate) fn coords(&self, i: u32) -> Vec<u32> {
        (0..self.rank()).map(|d| self.coord(i, d)).collect()
    }

    /// The coordinates of `i` into `out` (one per dimension), without allocating.
    pub(crate) fn coords_into(&self, i: u32, out: &mut [u32]) {
        for (d, c) in out.iter_mut().enumerate().take(self.rank()) {
            *c = self.coord(i, d);
        }
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

    /// Which dimension and direction (`true` = increasing) leads from `a` to its neighbour `b`:
    /// the dimension whose stride is their difference (of equal strides, the last: the others
    /// have extent 1, so no link runs along them).
    pub(crate) fn step_between(&self, a: u32, b: u32) -> (usize, bool) {
        let d = (0..self.rank())
            .rev()
            .find(|&d| self.stride[d] == a.abs_diff(b))
            .expect("distinct neighbours");
        (d, b > a)
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

/// Flags kept in the high bits of a node's `parent` word (ids stay below 2²⁶, `MAX_NODES`).
const STEM: u32 = 1 << 31;
const DEST: u32 = 1 << 30;
const KEEP: u32 = 1 << 29;
const ID: u32 = KEEP - 1;

/// The per-node arrays of a [`LocalTree`], kept per thread from one plan to the next so that a
/// plan touches only the nodes of its tree: nothing the size of the zone is allocated or cleared.
/// A node belongs to the current tree iff its insertion number is at least the tree's first one;
/// numbers keep growing across plans, and the array is cleared only when they would overflow.
#[derive(Default)]
struct Scratch {
    seq: Vec<u32>,
    parent: Vec<u32>,
    next_seq: u32,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

/// A multicast tree inside a [`Grid`], rooted at the local origin.
pub(crate) struct LocalTree {
    pub(crate) grid: Grid,
    scratch: Box<Scratch>,
    /// Insertion number of the origin: `seq[i] ≥ first` iff `i` is in the tree. Ties between
    /// equally close tree nodes go to the earliest inserted — the node a scan of the tree in
    /// insertion order meets first, which is how the papers' "find a node c in MT closest to u"
    /// reads.
    first: u32,
    /// The tree's nodes other than the origin, in insertion order (pruned ones included).
    nodes: Vec<u32>,
    route: Vec<u32>,
    at: Vec<u32>,
}

impl LocalTree {
    pub(crate) fn new(grid: Grid) -> LocalTree {
        let n = grid.len();
        let mut scratch = SCRATCH.take().unwrap_or_default();
        if scratch.seq.len() < n {
            scratch.seq.resize(n, 0);
            scratch.parent.resize(n, NONE);
        }
        if u64::from(scratch.next_seq) + n as u64 + 2 > u64::from(u32::MAX) || scratch.next_seq == 0
        {
            scratch.seq.fill(0);
            scratch.next_seq = 1;
        }
        let first = scratch.next_seq;
        scratch.next_seq += 1;
        scratch.seq[0] = first;
        scratch.parent[0] = 0;
        LocalTree {
            grid,
            scratch,
            first,
            nodes: Vec::new(),
            route: Vec::new(),
            at: Vec::new(),
        }
    }

    pub(crate) fn contains(&self, i: u32) -> bool {
        self.scratch.seq[i as usize] >= self.first
    }

    /// Add `child` (not yet in the tree) below `parent` (in the tree, a neighbour).
    pub(crate) fn attach(&mut self, child: u32, parent: u32) {
        debug_assert!(!self.contains(child) && self.contains(parent));
        let s = &mut *self.scratch;
        s.parent[child as usize] = parent;
        s.seq[child as usize] = s.next_seq;
        s.next_seq += 1;
        self.nodes.push(child);
    }

    /// Mark `i` as part of the stem (DIAG's diagonal path), which its parent serves first.
    pub(crate) fn mark_stem(&mut self, i: u32) {
        self.scratch.parent[i as usize] |= STEM;
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
        let mut last_in_tree = 0;
        for d in 0..self.grid.rank() {
            let (a, b) = (self.grid.coord(from, d), self.grid.coord(to, d));
            let s = self.grid.stride(d);
            for _ in 0..a.abs_diff(b) {
                at = if a < b { at + s } else { at - s };
                if self.contains(at) {
                    last_in_tree = route.len();
                }
                route.push(at);
            }
        }
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

    /// The tree node nearest `u` (earliest inserted among equals): the grid nodes at distance
    /// 1, 2, … from `u` — only those with every coordinate at most `u`'s unless `both_ways` —
    /// are enumerated shell by shell, exactly the layers of a breadth-first search from `u`,
    /// without the search's visited marks.
    fn closest(&mut self, u: u32, both_ways: bool) -> u32 {
        if self.contains(u) {
            return u;
        }
        let mut at = std::mem::take(&mut self.at);
        at.resize(self.grid.rank(), 0);
        self.grid.coords_into(u, &mut at);
        let mut best = (u32::MAX, NONE);
        for r in 1.. {
            self.shell(u, &at, 0, r, both_ways, &mut best);
            if best.1 != NONE {
                break;
            }
        }
        self.at = at;
        best.1
    }

    /// Offer every node `v` with `|vₑ − uₑ|` summing to `r` over dimensions `d…` (and equal to
    /// `u`'s before `d`); `i` is the id of the node so far, `c` the coordinates of `u`.
    fn shell(&self, i: u32, c: &[u32], d: usize, r: u32, both_ways: bool, best: &mut (u32, u32)) {
        let (s, lo, hi) = (
            self.grid.stride(d),
            c[d],
            if both_ways {
                self.grid.ext[d] - 1 - c[d]
            } else {
                0
            },
        );
        if d + 1 == self.grid.rank() {
            if r <= lo {
                self.offer(i - r * s, best);
            }
            if r <= hi && r > 0 {
                self.offer(i + r * s, best);
            }
            return;
        }
        for k in 0..=r.min(lo.max(hi)) {
            if k <= lo {
                self.shell(i - k * s, c, d + 1, r - k, both_ways, best);
            }
            if k <= hi && k > 0 {
                self.shell(i + k * s, c, d + 1, r - k, both_ways, best);
            }
        }
    }

    fn offer(&self, i: u32, best: &mut (u32, u32)) {
        let seq = self.scratch.seq[i as usize];
        if seq >= self.first && seq < best.0 {
            *best = (seq, i);
        }
    }

    /// Remove every node whose subtree holds no destination in `dests` (DIAG step 5 "cut the tail
    /// part of DP", and the unused wraparound links of the torus examples). Children come after
    /// their parents in insertion order, so one backward pass decides every node.
    pub(crate) fn prune(&mut self, dests: &[u32]) {
        let s = &mut *self.scratch;
        for &u in dests {
            s.parent[u as usize] |= DEST;
        }
        for &i in self.nodes.iter().rev() {
            let p = s.parent[i as usize];
            if p & (DEST | KEEP) != 0 {
                s.parent[(p & ID) as usize] |= KEEP;
            } else {
                s.seq[i as usize] = 0;
            }
        }
    }

    /// Hand the pruned tree's edges, in insertion order, to `edge(parent, parent_pos, child,
    /// on_stem)`: `parent_pos` is the parent's position in that sequence (`NONE` for the origin),
    /// so the caller can number the nodes compactly. Consumes the tree's parent links.
    pub(crate) fn drain_edges(&mut self, mut edge: impl FnMut(u32, u32, u32, bool)) {
        let s = &mut *self.scratch;
        let mut pos = 0;
        for &i in &self.nodes {
            if s.seq[i as usize] < self.first {
                continue;
            }
            let p = s.parent[i as usize];
            let parent = p & ID;
            let parent_pos = if parent == 0 {
                NONE
            } else {
                s.parent[parent as usize] & ID
            };
            edge(parent, parent_pos, i, p & STEM != 0);
            s.parent[i as usize] = pos;
            pos += 1;
        }
    }
}

impl Drop for LocalTree {
    fn drop(&mut self) {
        SCRATCH.set(Some(std::mem::take(&mut self.scratch)));
    }
}

/// Destinations picked by smallest coordinate in a chosen dimension, each at most once: the
/// "node with the minimum x (y, …) value in the remaining destination set" of PAIR and the two
/// MINs. Ties go to the smaller coordinates in dimension order.
pub(crate) struct Picker {
    /// The destinations in id order; `taken` and the lists of `by_dim` index into it.
    ids: Vec<u32>,
    taken: Vec<bool>,
    by_dim: Vec<Vec<u32>>,
    cursor: Vec<usize>,
}

impl Picker {
    pub(crate) fn new(grid: &Grid, dests: &[u32]) -> Picker {
        let n = grid.rank();
        let mut ids = dests.to_vec();
        ids.sort_unstable();
        let mut coords = vec![0; ids.len() * n];
        for (k, &u) in ids.iter().enumerate() {
            grid.coords_into(u, &mut coords[k * n..(k + 1) * n]);
        }
        let at = |k: u32| &coords[k as usize * n..(k as usize + 1) * n];
        let by_dim = (0..n)
            .map(|d| {
                let mut order: Vec<u32> = (0..ids.len() as u32).collect();
                order.sort_by(|&a, &b| {
                    let (ca, cb) = (at(a), at(b));
                    ca[d].cmp(&cb[d]).then_with(|| ca.cmp(cb))
                });
                order
            })
            .collect();
        Picker {
            taken: vec![false; ids.len()],
            ids,
            by_dim,
            cursor: vec![0; n],
        }
    }

    /// The remaining destination with the least coordinate in `dim`; it stays until [`Picker::take`].
    pub(crate) fn min_in(&mut self, dim: usize) -> Option<u32> {
        let list = &self.by_dim[dim];
        let c = &mut self.cursor[dim];
        while *c < list.len() && self.taken[list[*c] as usize] {
            *c += 1;
        }
        list.get(*c).map(|&k| self.ids[k as usize])
    }

    pub(crate) fn take(&mut self, u: u32) {
        let k = self.ids.binary_search(&u).expect("a destination");
        self.taken[k] = true;
    }
}
