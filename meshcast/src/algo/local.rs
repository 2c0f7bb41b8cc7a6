//! The world a tree algorithm sees: one zone as a mesh in local coordinates, the source at its
//! origin and every coordinate growing away from it, and the multicast tree growing inside it.
//!
//! Every tree algorithm of the seeds is stated for this case (seed 001 §3.1.1: "we assume the
//! source node is fixed at the origin"); [`crate::algo::reduce`] maps tori and arbitrary sources
//! onto it. What the algorithms share lives here, written once: dimension-ordered paths, the
//! search for the tree node closest to a destination, and pruning.
//!
//! Everything is flat arrays, with no per-step allocation: the closest node is found by searching
//! the rows through the layers of a breadth-first search outward from the destination (shells at
//! distance 0, 1, … in all dimensions but the first, each row a few words of the membership
//! bitmap), which stops at the first layer that cannot hold a nearer tree node — usually a few
//! rows away — instead of scanning the whole tree (the papers' O(N) per destination).
//!
//! A plan's work is proportional to its trees, not to the topology (issue 14): the arrays live in
//! a per-thread scratch reused from plan to plan (`Forest`); the trees keep their nodes in
//! insertion order, with parent links between insertion numbers; pruning is one backward pass
//! over them, which turns each kept node into a link of its parent's child list in port order;
//! the plan is listed from those lists by ports, without coordinates; and coordinates, where the
//! growth needs them, come from multiplications by precomputed inverses, not divisions. Memory:
//! 4 bytes (the insertion number) and one bit (the membership) per node of the largest topology
//! a thread has routed on, plus 8 bytes per tree node of its largest plan; kept until the thread
//! ends, except that forests of 2²⁵ places or more give the 4 bytes back before the plan is
//! listed and the 8 after.
//!
//! Public: what a tree algorithm needs to grow its tree, in this crate or another —
//! [`Grid`] (local ids and coordinates), [`LocalTree`] (membership and the ways to grow) and
//! [`Reach`]; an implementation is a [`crate::algo::reduce::ZoneAlgorithm`]. The scratch, the
//! insertion numbers and pruning stay inside: [`crate::algo::reduce::lift`] runs them.

use std::hint::select_unpredictable;

use crate::hint::prefetch;
use crate::topology::MAX_DIMS;

/// "No node".
pub(crate) const NONE: u32 = u32::MAX;

/// Division by a fixed divisor without a division instruction: Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation" (2019) — for 32-bit operands, `M = ⌊(2⁶⁴ − 1)/d⌋ + 1` gives
/// the exact quotient and remainder of every `n < 2³²` with one or two multiplications.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    d: u32,
    m: u64,
    /// All ones when `d` is 1, whose `M` wraps to 0 (and gives the remainder 0 as it should):
    /// the quotient is then `n` itself, without a branch.
    ones: u32,
}

impl Divisor {
    pub(crate) fn new(d: u32) -> Divisor {
        Divisor {
            d,
            m: (u64::MAX / u64::from(d)).wrapping_add(1),
            ones: if d == 1 { u32::MAX } else { 0 },
        }
    }

    pub(crate) fn div(self, n: u32) -> u32 {
        ((u128::from(self.m) * u128::from(n)) >> 64) as u32 | n & self.ones
    }

    fn rem(self, n: u32) -> u32 {
        let low = self.m.wrapping_mul(u64::from(n));
        ((u128::from(low) * u128::from(self.d)) >> 64) as u32
    }
}

/// A box-shaped mesh `e₀ × … × eₙ₋₁` with local ids (dimension 0 fastest): the node at local
/// coordinates `c` has id `Σ cᵢ · strideᵢ`, the origin id 0.
#[derive(Clone, Debug)]
pub struct Grid {
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

    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.ext.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// The number of nodes along dimension `d`.
    pub fn extent(&self, d: usize) -> u32 {
        self.ext[d]
    }

    /// The coordinate of node `i` in dimension `d`.
    pub fn coord(&self, i: u32, d: usize) -> u32 {
        self.by_ext[d].rem(self.by_stride[d].div(i))
    }

    pub(crate) fn coords(&self, i: u32) -> Vec<u32> {
        (0..self.rank()).map(|d| self.coord(i, d)).collect()
    }

    /// The coordinates of `i` into `out` (one per dimension), without allocating.
    pub fn coords_into(&self, i: u32, out: &mut [u32]) {
        // Dimension by dimension, each quotient the next dimension's id: one division (by
        // multiplication, `Divisor`) per dimension but the last, instead of two per dimension.
        let Some(last) = self.rank().checked_sub(1) else {
            return;
        };
        let mut q = i;
        for ((c, by_ext), &e) in out[..last].iter_mut().zip(&self.by_ext).zip(&self.ext) {
            let next = by_ext.div(q);
            *c = q - next * e;
            q = next;
        }
        out[last] = q;
    }

    /// The id of the node at local coordinates `c`.
    pub fn index(&self, c: &[u32]) -> u32 {
        c.iter().zip(&self.stride).map(|(&x, &s)| x * s).sum()
    }

    /// The id difference between neighbours along dimension `d`.
    pub fn stride(&self, d: usize) -> u32 {
        self.stride[d]
    }

    /// Whether the step from node `i` through `port` (`2d` up dimension `d`, `2d + 1` down)
    /// stays inside the grid.
    fn steps_inside(&self, i: u32, port: usize) -> bool {
        let (d, c) = (port / 2, self.coord(i, port / 2));
        if port.is_multiple_of(2) {
            c + 1 < self.ext[d]
        } else {
            c > 0
        }
    }

    /// Distance from the origin (the local source): the sum of the coordinates.
    pub(crate) fn norm(&self, i: u32) -> u32 {
        (0..self.rank()).map(|d| self.coord(i, d)).sum()
    }
}

/// Where [`LocalTree::join`] looks for the tree node closest to a destination `u`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Among tree nodes in the zone `{origin ⇔ u}` (every coordinate at most `u`'s): DIAG and
    /// DDS, "find a node c in MT and in zone {s ⇔ u} that is closest to node u". The origin is
    /// always a candidate, so the route from it is a shortest path.
    InZone,
    /// Anywhere in the grid: DIST and the MINs, "connect it to the existing tree with a shortest
    /// path".
    Anywhere,
}

// A tree node's `up` word: its parent's insertion number and two flags.
//
//   bit 31      STEM    on DIAG's stem: its parent serves it first (`LocalTree::mark_stem`)
//   bit 30      DEST    a destination (set by `LocalTree::prune`)
//   bit 29      FED     pruning kept a child of it (its record's place is now its first child)
//   bits 0–25   PARENT  the parent's insertion number (below 2²⁶, `topology::MAX_NODES`)
//
// The origin's parent is 0 and never read. Membership is not in the word but in the bitmap.
const STEM: u32 = 1 << 31;
const DEST: u32 = 1 << 30;
const FED: u32 = 1 << 29;
const PARENT: u32 = (1 << 26) - 1;

/// The port of the step from a node to the grid neighbour `diff` ids away on `grid`: `2d` up
/// dimension `d`, `2d + 1` down it, for the dimension whose stride `diff` is (among those with
/// room to move, whose strides differ); none if it is no such step. Ports in increasing order
/// are the listing's order: lower dimension first, increasing direction first.
fn port(grid: &Grid, diff: u32) -> Option<usize> {
    (0..grid.rank()).filter(|&d| grid.ext[d] > 1).find_map(|d| {
        let t = grid.stride(d);
        [t, t.wrapping_neg()]
            .into_iter()
            .position(|s| s == diff)
            .map(|k| 2 * d + k)
    })
}

/// The nodes of a plan's trees in insertion order, which is also their insertion number — the
/// compact array that growth, pruning and the listing work on instead of the mesh-sized ones.
/// Ties between equally close tree nodes go to the earliest inserted — the node a scan of the
/// tree in insertion order meets first, which is how the papers' "find a node c in MT closest to
/// u" reads.
#[derive(Default)]
struct Nodes(Vec<TreeNode>);

impl Nodes {
    /// Append the node at `place` below `up`, `port` ([`port`]) away from its parent; its
    /// insertion number.
    fn push(&mut self, place: usize, up: u32, port: Option<usize>) -> u32 {
        let port = port.map_or(NO_PORT, |p| p as u32);
        self.0.push(TreeNode(place as u32 | port << PORT_SHIFT, up));
        self.0.len() as u32 - 1
    }

    /// Put kept node `s`, `key` ([`TreeNode::port`]) away from its parent `p`, into `p`'s child
    /// list, in port order among those kept so far; its next sibling.
    fn link(&mut self, p: u32, s: u32, key: usize) -> u32 {
        let (mut before, mut c) = (None, self.0[p as usize].first());
        while c != NO_LINK && self.0[c as usize].port() < key {
            (before, c) = (Some(c), self.0[c as usize].next());
        }
        match before {
            None => {
                let parent = &mut self.0[p as usize];
                *parent = TreeNode(parent.0 & !PLACE | s, parent.1 | FED);
            }
            Some(b) => {
                let sibling = &mut self.0[b as usize];
                sibling.1 = sibling.1 & !NO_LINK | s;
            }
        }
        c
    }

    /// Turn the record of `s`, whose children are all linked, into a kept node followed by
    /// `next`.
    fn keep(&mut self, s: u32, next: u32) {
        let node = &mut self.0[s as usize];
        node.1 = next | node.1 & (STEM | FED);
    }
}

/// One node of [`Nodes`] in 8 bytes, read two ways. While its tree grows: its place in the
/// forest with the port of the step from its parent, and its `up` word. Once pruning kept it
/// (and for a tree's origin once it is pruned): what the listing reads — its first child (in
/// the place's bits once it is `FED`), the port, its next sibling in port order and the stem
/// flag (a child's place is its parent's plus the step).
#[derive(Clone, Copy)]
struct TreeNode(u32, u32);

// The two words of a node:
//
//   word 0   bits 0–25   PLACE, or the first child once FED      bits 26–31  the port (NO_PORT: none)
//   word 1   growing: the `up` word    kept: bits 0–26 the next sibling (NO_LINK: none), STEM, FED
//
// Insertion numbers and places stay below 2²⁶ (`topology::MAX_NODES`) and ports below 52
// (`topology::MAX_DIMS`).
const PLACE: u32 = (1 << 26) - 1;
const PORT_SHIFT: u32 = 26;
const NO_PORT: u32 = 63;
pub(crate) const NO_LINK: u32 = (1 << 27) - 1;

impl TreeNode {
    fn place(self) -> u32 {
        self.0 & PLACE
    }

    fn up(self) -> u32 {
        self.1
    }

    fn first(self) -> u32 {
        if self.1 & FED != 0 {
            self.0 & PLACE
        } else {
            NO_LINK
        }
    }

    fn next(self) -> u32 {
        self.1 & NO_LINK
    }

    /// The port of the step from the parent (`NO_PORT`, above every port: no grid step), which
    /// orders siblings.
    fn port(self) -> usize {
        (self.0 >> PORT_SHIFT) as usize
    }

    fn on_stem(self) -> bool {
        self.1 & STEM != 0
    }
}

/// The arrays of a plan's trees, kept per thread from one plan to the next so that a plan
/// touches only the nodes of its trees: nothing the size of the topology is allocated or
/// cleared per plan, up to [`LARGE`]. Per forest place: the insertion number while the trees
/// grow (read only for members, so never cleared) and the membership bit (one bit per node, so
/// the searches' "is it in the tree?" stays in cache); pruning clears the bits of its tree.
#[derive(Default)]
struct Scratch {
    seq: Vec<u32>,
    member: Vec<u64>,
    nodes: Nodes,
    /// How many membership bits pruning has cleared.
    cleared: usize,
}

/// Forests of this many places or more give their insertion numbers back once every tree is
/// pruned (at 8192², 268 MB), so that the listing's receivers take their room, and their node
/// list once the plan is listed; smaller ones keep both for the next plan.
pub(crate) const LARGE: usize = 1 << 25;

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

/// Bit `i` of a bitmap of 64-bit words.
pub(crate) fn bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 != 0
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn clear_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

/// The trees of one plan, one per zone, side by side in one scratch array: the zone trees are
/// grown and pruned one after the other and read together when the plan is listed.
pub(crate) struct Forest {
    scratch: Box<Scratch>,
    len: usize,
}

impl Forest {
    /// Room for trees of `len` nodes in all.
    pub(crate) fn new(len: usize) -> Forest {
        let mut scratch = SCRATCH.take().unwrap_or_default();
        if scratch.seq.len() < len {
            scratch.seq = vec![0; len];
            scratch.member.resize(len.div_ceil(64), 0);
        }
        scratch.nodes.0.clear();
        scratch.cleared = 0;
        Forest { scratch, len }
    }

    /// An empty tree (the origin only) on `grid`, its nodes at `offset…offset + grid.len()`,
    /// after those of the trees made before.
    pub(crate) fn tree(&mut self, grid: Grid, offset: usize) -> LocalTree<'_> {
        let s = &mut *self.scratch;
        s.seq[offset] = s.nodes.push(offset, 0, None);
        set_bit(&mut s.member, offset);
        LocalTree {
            seq: &mut s.seq[offset..offset + grid.len()],
            first: s.nodes.0.len() as u32,
            grid,
            member: &mut s.member,
            offset,
            nodes: &mut s.nodes,
            cleared: &mut s.cleared,
            legs: Vec::new(),
            union: None,
        }
    }

    /// Whether the forest is [`LARGE`]: it gives its arrays back as soon as they are no longer
    /// read, and the plan is written with as little beside it as can be.
    pub(crate) fn is_large(&self) -> bool {
        self.len >= LARGE
    }

    /// Every tree is grown and pruned: the insertion numbers are no longer read, and a
    /// [`LARGE`] forest gives them back.
    pub(crate) fn pruned(&mut self) {
        if self.is_large() {
            self.scratch.seq = Vec::new();
        }
    }

    /// Where the children of the pruned trees' node `s` (an insertion number; a tree's origin
    /// is [`LocalTree::root`]) start for [`Forest::children`]: its first child, or [`NO_LINK`].
    pub(crate) fn first_child(&self, s: u32) -> u32 {
        self.scratch.nodes.0[s as usize].first()
    }

    /// Asks for the record of node `s` ([`NO_LINK`]: none), which the listing reads once the
    /// nodes handed out before it are listed ([`prefetch`]): the listing goes breadth first,
    /// the records lie in insertion order, and at 1024² they are 7.5 MB.
    #[inline(always)]
    pub(crate) fn prefetch(&self, s: u32) {
        if let Some(node) = self.scratch.nodes.0.get(s as usize) {
            prefetch(node);
        }
    }

    /// The children of a node of the pruned trees, from its [`Forest::first_child`] on, in port
    /// order — the stem children first if `STEM_FIRST`, then by dimension, increasing direction
    /// first — each as its own first child and the port of the step to it ([`port`]). Read from
    /// the child lists pruning left: no grid neighbour and no coordinate is looked at, and the
    /// listing, which keeps each child's first child until it reaches it, reads every node's
    /// record once.
    // Inlined into the listing: on its own it costs DIST 12% more instructions.
    #[inline(always)]
    pub(crate) fn children<const STEM_FIRST: bool>(
        &self,
        first: u32,
        mut child: impl FnMut(u32, usize),
    ) {
        let nodes = &self.scratch.nodes.0;
        for pass in [true, false] {
            if pass && !STEM_FIRST {
                continue;
            }
            let mut k = first;
            while k != NO_LINK {
                let node = nodes[k as usize];
                let port = node.port();
                // A child that is no grid step (`LocalTree::attach`) is no link; such children
                // come last.
                if port == NO_PORT as usize {
                    break;
                }
                if !STEM_FIRST || node.on_stem() == pass {
                    child(node.first(), port);
                }
                k = node.next();
            }
        }
    }
}

impl Drop for Forest {
    /// Leave the membership bitmap clear for the next plan: the bits left — of trees that were
    /// not pruned — are cleared over the forest's range. A [`LARGE`] forest gives its node
    /// list back, so that the plan's senders take its room.
    fn drop(&mut self) {
        let Scratch {
            member,
            nodes,
            cleared,
            ..
        } = &mut *self.scratch;
        if *cleared != nodes.0.len() {
            member[..self.len.div_ceil(64)].fill(0);
        }
        if self.len >= LARGE {
            *nodes = Nodes::default();
        }
        SCRATCH.set(Some(std::mem::take(&mut self.scratch)));
    }
}

/// A multicast tree inside a [`Grid`], rooted at the local origin: what
/// [`crate::algo::reduce::ZoneAlgorithm::grow`] grows. Only [`crate::algo::reduce::lift`] makes
/// one. Node ids are those of [`LocalTree::grid`]: another id is the caller's bug — it panics,
/// or builds a plan the validator rejects — and debug builds check that every new node hangs
/// from a tree node.
pub struct LocalTree<'a> {
    pub(crate) grid: Grid,
    /// Node `i`'s insertion number, for members.
    seq: &'a mut [u32],
    /// Bit `offset + i`: node `i` is in the tree.
    member: &'a mut [u64],
    offset: usize,
    /// The forest's nodes; this tree's from `first` on (after its origin).
    nodes: &'a mut Nodes,
    first: u32,
    /// The forest's count of membership bits pruning cleared.
    cleared: &'a mut usize,
    /// [`LocalTree::connect`]'s legs: where each ends, the id change of a step and its port.
    legs: Vec<(u32, u32, usize)>,
    /// The tree as a union of runs ([`LocalTree::route_union_2d`]), which
    /// [`LocalTree::prune`] leaves as it is.
    union: Option<Union>,
}

impl LocalTree<'_> {
    /// The grid the tree lies in.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Whether node `i` is in the tree.
    pub fn contains(&self, i: u32) -> bool {
        bit(self.member, self.offset + i as usize)
    }

    /// Add `child` (not yet in the tree) below `parent` (in the tree, a grid neighbour of
    /// `child`). A child that is no neighbour of its parent is not a link: the plan leaves it
    /// out, and the validator then reports the destinations it cut off.
    pub fn attach(&mut self, child: u32, parent: u32) {
        // The id difference of a step may still cross the grid's edge.
        let port = port(&self.grid, child.wrapping_sub(parent))
            .filter(|&p| self.grid.steps_inside(parent, p));
        self.add(child, parent, port);
    }

    /// The insertion number of the tree's origin, where [`Forest::children`] starts.
    pub(crate) fn root(&self) -> u32 {
        self.first - 1
    }

    /// [`LocalTree::attach`] with the port of the step already known.
    #[inline]
    fn add(&mut self, child: u32, parent: u32, port: Option<usize>) {
        debug_assert!(self.contains(parent));
        self.add_below(child, self.seq[parent as usize], port);
    }

    /// [`LocalTree::add`] below the parent of insertion number `up`; the child's insertion
    /// number.
    #[inline]
    fn add_below(&mut self, child: u32, up: u32, port: Option<usize>) -> u32 {
        debug_assert!(!self.contains(child));
        let place = self.offset + child as usize;
        let s = self.nodes.push(place, up, port);
        self.seq[child as usize] = s;
        set_bit(self.member, place);
        s
    }

    /// Make the tree the union of the dimension-ordered `routes` (from, to) in a 2-D grid,
    /// each from a node to one with no smaller coordinate — the tree [`LocalTree::connect`]
    /// grows from them one by one, provided that no route crosses the middle of another's
    /// run along a row or a column and that a row's (a column's) links form one run, as
    /// they do for VH's routes from the origin, PAIR's through its intermediate nodes and
    /// DIAG-stem's from its stem. The runs are kept per row and per column ([`Union`]), and
    /// the listing reads each node's children from them: no node record, insertion number
    /// or membership bit is written, and the work is O(routes + width + height) before the
    /// listing. The tree is then as pruning leaves it ([`LocalTree::take_union`]): no other
    /// method may be called on it.
    pub(crate) fn route_union_2d(&mut self, routes: impl IntoIterator<Item = (u32, u32)>) {
        self.route_union_2d_with_stem(routes, &[]);
    }

    /// [`LocalTree::route_union_2d`] with DIAG's `stem` among the routes (its nodes from the
    /// origin on, each one link up from the one before): a stem node serves its stem child
    /// first ([`crate::algo::reduce::ZoneAlgorithm::stem_first`]).
    pub(crate) fn route_union_2d_with_stem(
        &mut self,
        routes: impl IntoIterator<Item = (u32, u32)>,
        stem: &[u32],
    ) {
        debug_assert_eq!(self.grid.rank(), 2);
        let (width, height) = (self.grid.ext[0], self.grid.ext[1]);
        let mut union = Union {
            rows: vec![EMPTY_RUN; height as usize],
            top_row: 0,
            columns: vec![EMPTY_RUN; width as usize],
            stem_up: vec![EMPTY_RUN; if stem.is_empty() { 0 } else { width as usize }],
            width: Divisor::new(width),
        };
        let steps = stem.windows(2).map(|step| (step[0], step[1]));
        for (from, to) in steps.clone().chain(routes) {
            let (x0, y0) = (self.grid.coord(from, 0), self.grid.coord(from, 1));
            let (x1, y1) = (self.grid.coord(to, 0), self.grid.coord(to, 1));
            debug_assert!(x0 <= x1 && y0 <= y1, "a route that goes back");
            // Along the row of `from`, then up the column of `to`.
            extend(&mut union.rows[y0 as usize], x0, x1);
            if x0 < x1 {
                union.top_row = union.top_row.max(y0);
            }
            extend(&mut union.columns[x1 as usize], y0, y1);
        }
        for (from, to) in steps {
            let (x, y) = (self.grid.coord(from, 0), self.grid.coord(from, 1));
            if self.grid.coord(to, 1) > y {
                extend(&mut union.stem_up[x as usize], y, y + 1);
            }
        }
        // The origin's record and membership bit, which `Forest::tree` made, are left as
        // pruning leaves them: no child, the bit clear.
        let root = self.root() as usize;
        self.nodes.0[root].1 = NO_LINK;
        clear_bit(self.member, self.offset);
        *self.cleared += 1;
        self.union = Some(union);
    }

    /// The union [`LocalTree::route_union_2d`] made the tree, if it did.
    pub(crate) fn take_union(&mut self) -> Option<Union> {
        self.union.take()
    }

    /// Mark `i` as part of the stem (DIAG's diagonal path), which its parent serves first when
    /// [`crate::algo::reduce::ZoneAlgorithm::stem_first`] says so.
    pub fn mark_stem(&mut self, i: u32) {
        if self.contains(i) {
            self.nodes.0[self.seq[i as usize] as usize].1 |= STEM;
        }
    }

    /// Connect `to` through the dimension-ordered route from tree node `from` (dimension 0 first,
    /// each dimension walked towards `to`'s coordinate). Where that route meets the tree again,
    /// the new branch starts at the last tree node on it, so links shared with the tree are used
    /// once and the result stays a tree.
    pub fn connect(&mut self, from: u32, to: u32) {
        self.connect_to(from, to, |grid, d| grid.coord(to, d));
    }

    /// [`LocalTree::connect`], `to`'s coordinate in dimension `d` given by `to_coord(grid, d)`
    /// (computed, or known).
    #[inline(always)]
    fn connect_to(&mut self, from: u32, to: u32, to_coord: impl Fn(&Grid, usize) -> u32) {
        debug_assert!(self.contains(from));
        // The route walked backwards from `to` up to the first tree node met — the last one on
        // it, `from` at the latest — so that only the new branch is walked; each leg of it kept
        // as where it ends, the id change of a step and its port (see [`port`]: up dimension
        // `d` is `2d`, down `2d + 1`).
        let mut legs = std::mem::take(&mut self.legs);
        legs.clear();
        let mut at = to;
        'walk: for d in (0..self.grid.rank()).rev() {
            let (a, b) = (self.grid.coord(from, d), to_coord(&self.grid, d));
            let s = self.grid.stride(d);
            let (forward, port) = if a < b {
                (s, 2 * d)
            } else {
                (s.wrapping_neg(), 2 * d + 1)
            };
            let start = at;
            for _ in 0..a.abs_diff(b) {
                if self.contains(at) {
                    legs.push((start, forward, port));
                    break 'walk;
                }
                // The forward pass writes this node's insertion number; a vertical step is a
                // row of `seq` away, on a large mesh a miss, which overlaps the walk if asked
                // for now (DIST 4–6% faster).
                prefetch(&self.seq[at as usize]);
                at = at.wrapping_sub(forward);
            }
            legs.push((start, forward, port));
        }
        // Then forward again, leg by leg, each up to where its walk back started. Each new
        // node's parent is the node added before it, whose insertion number is kept here
        // rather than read back from `seq`: that read waited on the write just made, which on
        // a large mesh misses the cache (a vertical step is a row of `seq` away).
        let mut up = if legs.is_empty() {
            NONE
        } else {
            self.seq[at as usize]
        };
        for &(end, forward, port) in legs.iter().rev() {
            while at != end {
                let child = at.wrapping_add(forward);
                up = self.add_below(child, up, Some(port));
                at = child;
            }
        }
        self.legs = legs;
    }

    /// Asks for the membership words and insertion numbers of `to` and of the nodes below it
    /// along the last dimension: where [`LocalTree::connect`]'s walk back from `to` starts,
    /// and what its forward pass writes. For a caller that knows its routes a few ahead (RSA).
    pub(crate) fn prefetch_route_end(&self, to: u32) {
        let step = self.grid.stride(self.grid.rank() - 1);
        let mut at = to;
        for _ in 0..ROUTE_END {
            prefetch(&self.member[(self.offset + at as usize) / 64]);
            prefetch(&self.seq[at as usize]);
            if at < step {
                break;
            }
            at -= step;
        }
    }

    /// Join `u` to the tree: find the tree node closest to it (earliest inserted among equals)
    /// and connect `u` from there by the dimension-ordered route — one link when it is next to
    /// `u`. The coordinates of `u` the search computed serve the route too.
    pub fn join(&mut self, u: u32, reach: Reach) {
        // On the stack: a vector moved out of `self` and back per join drew a quarter of the
        // join's samples (perf), its load waiting on the stores before it.
        let mut at = [0; MAX_DIMS];
        let at = &mut at[..self.grid.rank()];
        match self.closest(u, at, reach == Reach::Anywhere) {
            Nearest::Member => {}
            Nearest::Next(c, port) => self.add(u, c, Some(port)),
            Nearest::Far(c) => self.connect_to(c, u, |_, d| at[d]),
        }
    }

    /// The tree node nearest `u` (earliest inserted among equals); when `u` is not in the tree,
    /// its coordinates are left in `at`, where [`LocalTree::join`] reads them. The nodes next to
    /// `u` are looked at first ([`LocalTree::adjacent`]), which settles most searches in a
    /// dense tree; then the shells ([`LocalTree::shells`]).
    fn closest(&self, u: u32, at: &mut [u32], both_ways: bool) -> Nearest {
        if self.contains(u) {
            return Nearest::Member;
        }
        self.grid.coords_into(u, at);
        match self.adjacent(u, at, both_ways) {
            Some((v, port)) => Nearest::Next(v, port),
            None if both_ways => Nearest::Far(self.shells::<true>(u, at)),
            None => Nearest::Far(self.shells::<false>(u, at)),
        }
    }

    /// The tree node nearest `u` (coordinates `c`, outside the tree), earliest inserted among
    /// equals: the rows through `u`'s shells — lines along dimension 0, at distance 0, 1, …
    /// from `u` in the other dimensions, only those with every coordinate at most `u`'s unless
    /// `BOTH_WAYS` ([`Reach::Anywhere`]) — are searched in the membership bitmap a word at a
    /// time for the tree node nearest along the row on either side, until the rows lie farther
    /// than the best found. Every tree node at the least distance is the nearest on its side of
    /// its row, so the ties are all seen.
    ///
    /// Both ways, the search first looks no farther than [`NEAR`] hops, so that each row's
    /// stretch either side of `u` is one word of the bitmap, and searches again without that
    /// bound only if no tree node is that near (at 1024², K = 1%: 9 of 10,071 DIST joins). One
    /// way (DIAG, DDS), a row is searched on one side only, where the word-by-word search is
    /// as cheap, and the nearest node in the zone lies farther: no bound.
    #[inline(always)]
    fn shells<const BOTH_WAYS: bool>(&self, u: u32, c: &[u32]) -> u32 {
        let first = if BOTH_WAYS { NEAR } else { u32::MAX };
        for bound in [first, u32::MAX] {
            let mut search = Search::new(0, c[0], self.room::<BOTH_WAYS>(c, 0), bound);
            while search.shell <= search.dist() {
                self.shell::<BOTH_WAYS>(u, c, 1, search.shell, &mut search);
                search.shell += 1;
            }
            if search.node != NONE {
                return search.node;
            }
        }
        unreachable!("the origin is in the tree")
    }

    /// The earliest inserted tree node next to `u` (coordinates `c`) on the side
    /// [`LocalTree::closest`] searches, if any, with the port of the step from it to `u`: with
    /// `u` outside the tree, those are all the tree nodes at the least distance, ranked as the
    /// shells rank theirs ([`Search::offer`]). Most joins into a dense tree end here, without
    /// the shells.
    fn adjacent(&self, u: u32, c: &[u32], both_ways: bool) -> Option<(u32, usize)> {
        let mut search = Search::new(1, 0, 0, u32::MAX);
        let mut port = 0;
        let mut offer = |v: u32, p: usize| {
            if self.contains(v) {
                let better = search.offer(1, v, self.seq);
                port = select_unpredictable(better, p, port);
            }
        };
        for (d, &x) in c.iter().enumerate() {
            let s = self.grid.stride(d);
            if x > 0 {
                offer(u - s, 2 * d);
            }
            if both_ways && x + 1 < self.grid.ext[d] {
                offer(u + s, 2 * d + 1);
            }
        }
        (search.node != NONE).then_some((search.node, port))
    }

    /// How far the search may step up dimension `d` from coordinates `c`.
    fn room<const BOTH_WAYS: bool>(&self, c: &[u32], d: usize) -> u32 {
        if BOTH_WAYS {
            self.grid.ext[d] - 1 - c[d]
        } else {
            0
        }
    }

    /// Search the rows through every node `v` with `|vₑ − cₑ|` summing to `r` over dimensions
    /// `d…` (and equal to `c`'s before `d`), stepping up only as far as [`LocalTree::room`]
    /// lets; `i` is the id of the node with coordinates `c`. Only the dimensions before the last
    /// recurse ([`LocalTree::planes`]); [`LocalTree::ends`] takes the last, inline: no call in
    /// 2D, one per plane in 3D.
    #[inline(always)]
    fn shell<const BOTH_WAYS: bool>(
        &self,
        i: u32,
        c: &[u32],
        d: usize,
        r: u32,
        search: &mut Search,
    ) {
        if d + 1 >= self.grid.rank() {
            self.ends::<BOTH_WAYS>(i, c, d, r, search);
        } else {
            self.planes::<BOTH_WAYS>(i, c, d, r, search);
        }
    }

    /// [`LocalTree::shell`] in a dimension `d` before the last: each share `k` of `r` that `d`
    /// can take, below and above `i`, leaves `r − k` to the dimensions after it.
    fn planes<const BOTH_WAYS: bool>(
        &self,
        i: u32,
        c: &[u32],
        d: usize,
        r: u32,
        search: &mut Search,
    ) {
        let (s, lo, hi) = (self.grid.stride(d), c[d], self.room::<BOTH_WAYS>(c, d));
        for k in 0..=r.min(lo.max(hi)) {
            if k <= lo {
                self.shell::<BOTH_WAYS>(i - k * s, c, d + 1, r - k, search);
            }
            if k <= hi && k > 0 {
                self.shell::<BOTH_WAYS>(i + k * s, c, d + 1, r - k, search);
            }
        }
    }

    /// [`LocalTree::shell`] in the last dimension `d`, which takes all of `r`: the rows `r`
    /// below and above `i` along it (in 1D, `d` is past the last: `i`'s row, at distance 0).
    #[inline(always)]
    fn ends<const BOTH_WAYS: bool>(
        &self,
        i: u32,
        c: &[u32],
        d: usize,
        r: u32,
        search: &mut Search,
    ) {
        if d == self.grid.rank() {
            if r == 0 {
                self.search_row::<BOTH_WAYS>(i, search);
            }
            return;
        }
        let (s, lo, hi) = (self.grid.stride(d), c[d], self.room::<BOTH_WAYS>(c, d));
        if r <= lo {
            self.search_row::<BOTH_WAYS>(i - r * s, search);
        }
        if r <= hi && r > 0 {
            self.search_row::<BOTH_WAYS>(i + r * s, search);
        }
    }

    /// Offer `search` the tree nodes nearest `row` along it on either side, if near enough to
    /// matter.
    #[inline(always)]
    fn search_row<const BOTH_WAYS: bool>(&self, row: u32, search: &mut Search) {
        let (p, far) = (self.offset + row as usize, search.dist() - search.shell);
        if far == 0 {
            // Only `row` itself can tie with the best.
            if bit(self.member, p) {
                search.offer(search.shell, row, self.seq);
            }
            return;
        }
        let (below, above) = (search.below.min(far), search.above.min(far));
        if BOTH_WAYS && below + above < 64 {
            // The whole stretch in one word, `p` at bit `below`: the nearest tree node on
            // either side is its highest bit up to `p` and its lowest beyond.
            let stretch =
                word_at(self.member, p - below as usize) & u64::MAX >> (63 - below - above);
            let down = stretch & u64::MAX >> (63 - below);
            if down != 0 {
                let t = below - (63 - down.leading_zeros());
                search.offer(search.shell + t, row - t, self.seq);
            }
            let up = stretch >> below >> 1;
            if up != 0 {
                let t = up.trailing_zeros() + 1;
                search.offer(search.shell + t, row + t, self.seq);
            }
            return;
        }
        if let Some(t) = nearest_below(self.member, p, below) {
            search.offer(search.shell + t, row - t, self.seq);
        }
        // Above `p` itself, which the search below has seen.
        if above > 0 {
            if let Some(t) = nearest_above(self.member, p + 1, above - 1) {
                search.offer(search.shell + t + 1, row + t + 1, self.seq);
            }
        }
    }

    /// Remove every node whose subtree holds no destination in `dests` (DIAG step 5 "cut the tail
    /// part of DP", and the unused wraparound links of the torus examples), and turn the kept
    /// nodes' records into their child lists for the listing: the last use of the tree. Children
    /// come after their parents in insertion order, so one backward pass over the node list
    /// decides every node, links it into its parent's list in port order and clears its
    /// membership bit. Returns the number of edges left.
    // Not inlined: see `reduce::lift`.
    #[inline(never)]
    pub(crate) fn prune(&mut self, dests: &[u32]) -> usize {
        if let Some(union) = &self.union {
            return union.links();
        }
        // Each destination's record is found through its insertion number, both far apart for
        // destinations in the order given: each is asked for ahead, the number first (a
        // destination outside the tree reads a stale number, harmless for a hint).
        for (i, &u) in dests.iter().enumerate() {
            if let Some(&v) = dests.get(i + 2 * MARK_AHEAD) {
                prefetch(&self.seq[v as usize]);
            }
            if let Some(&v) = dests.get(i + MARK_AHEAD) {
                if let Some(node) = self.nodes.0.get(self.seq[v as usize] as usize) {
                    prefetch(node);
                }
            }
            if self.contains(u) {
                self.nodes.0[self.seq[u as usize] as usize].1 |= DEST;
            }
        }
        self.leave_membership();
        let root = self.root();
        let nodes = &mut *self.nodes;
        let mut kept = 0;
        for s in (self.first..nodes.0.len() as u32).rev() {
            // A branch's first node hangs from a node anywhere before it: the parent of the
            // node a few on is asked for, if that node is of this tree (the records before it
            // are pruned trees' and hold child lists now).
            if let Some(ahead) = s.checked_sub(PARENT_AHEAD).filter(|&a| a >= self.first) {
                prefetch(&nodes.0[(nodes.0[ahead as usize].up() & PARENT) as usize]);
            }
            let node = nodes.0[s as usize];
            if node.up() & (DEST | FED) != 0 {
                let next = nodes.link(node.up() & PARENT, s, node.port());
                nodes.keep(s, next);
                kept += 1;
            }
        }
        nodes.keep(root, NO_LINK);
        kept
    }

    /// Clear the tree's membership bits, while the nodes still hold their places: the words of
    /// the tree's grid at once when the tree fills enough of them (no other tree has bits there
    /// now: those grown before are pruned, those after not grown), else node by node.
    fn leave_membership(&mut self) {
        let tree = &self.nodes.0[self.root() as usize..];
        let (start, end) = (
            self.offset / 64,
            (self.offset + self.grid.len()).div_ceil(64),
        );
        if end - start <= 4 * tree.len() {
            self.member[start..end].fill(0);
        } else {
            for node in tree {
                clear_bit(self.member, node.place() as usize);
            }
        }
        *self.cleared += tree.len();
    }
}

/// A tree made of runs of links along rows and columns ([`LocalTree::route_union_2d`]): per
/// row `y`, the columns `lo..hi` whose link to the next column is in the tree, and per column
/// the rows whose link up is. Every node's children follow from its coordinates, so the listing
/// reads them from here instead of from node records.
pub(crate) struct Union {
    rows: Vec<(u32, u32)>,
    /// The highest row with a run.
    top_row: u32,
    columns: Vec<(u32, u32)>,
    /// Per column, the rows whose stem node's stem child is the one above (DIAG's stem; empty
    /// without one).
    stem_up: Vec<(u32, u32)>,
    width: Divisor,
}

/// A run without links.
const EMPTY_RUN: (u32, u32) = (u32::MAX, 0);

/// Widen `run` to hold the links `lo..hi` (none if `lo == hi`): the routes of a [`Union`]
/// make one run per line.
fn extend(run: &mut (u32, u32), lo: u32, hi: u32) {
    if lo < hi {
        *run = (run.0.min(lo), run.1.max(hi));
    }
}

impl Union {
    /// The number of links.
    fn links(&self) -> usize {
        self.rows
            .iter()
            .chain(&self.columns)
            .map(|&(lo, hi)| hi.saturating_sub(lo) as usize)
            .sum()
    }

    /// The children of the node of local id `i`, in port order, each as its local id and the
    /// port of the step to it ([`port`]): along its row (port 0), then up its column (port 2),
    /// where the run of that line holds the link — up first if `STEM_FIRST` and the child up
    /// is the node's stem child.
    #[inline(always)]
    pub(crate) fn children<const STEM_FIRST: bool>(
        &self,
        i: u32,
        mut child: impl FnMut(u32, usize),
    ) {
        let y = self.width.div(i);
        let x = i - y * self.width.d;
        // Most nodes lie above every row with a run (all but the origin's in VH's tree).
        let right = || y <= self.top_row && within(self.rows[y as usize], x);
        let stem_up = || {
            self.stem_up
                .get(x as usize)
                .is_some_and(|&run| within(run, y))
        };
        if STEM_FIRST && stem_up() && right() {
            // A stem node whose stem child is up has that child: the stem is a route.
            child(i + self.width.d, 2);
            child(i + 1, 0);
            return;
        }
        if right() {
            child(i + 1, 0);
        }
        if within(self.columns[x as usize], y) {
            child(i + self.width.d, 2);
        }
    }
}

/// Whether `run` holds the link from `at`.
#[inline(always)]
fn within((lo, hi): (u32, u32), at: u32) -> bool {
    lo <= at && at < hi
}

/// How far [`LocalTree::shells`] first searches: rows stretching this far either side of the
/// destination's column fit one word of the bitmap.
const NEAR: u32 = 31;

/// How many destinations ahead [`LocalTree::prune`] asks for a destination's record (and twice
/// as many for its insertion number).
const MARK_AHEAD: usize = 32;

/// How many nodes ahead [`LocalTree::prune`] asks for a node's parent's record.
const PARENT_AHEAD: u32 = 16;

/// How many nodes of a route's end [`LocalTree::prefetch_route_end`] asks for.
const ROUTE_END: usize = 4;

/// What [`LocalTree::closest`] found for a node `u`.
enum Nearest {
    /// `u` is in the tree.
    Member,
    /// The tree node next to `u`, with the port of the step from it to `u` ([`port`]).
    Next(u32, usize),
    /// The tree node farther from `u`.
    Far(u32),
}

/// One search of [`LocalTree::shells`]: the shell being searched, how far its rows reach
/// along dimension 0 from the destination's coordinate, and the best tree node seen so far —
/// the least distance, and among equals the least insertion number. Before the first node is
/// seen, the distance is how far the search looks.
struct Search {
    shell: u32,
    below: u32,
    above: u32,
    /// The best node's distance above its insertion number (before the first node: the bound
    /// above all ones), so that the better of two is the lesser word.
    best: u64,
    node: u32,
}

impl Search {
    /// A search from `shell`, looking at most `bound` hops far.
    fn new(shell: u32, below: u32, above: u32, bound: u32) -> Search {
        Search {
            shell,
            below,
            above,
            best: (u64::from(bound) << 32) | u64::from(u32::MAX),
            node: NONE,
        }
    }

    /// The best node's distance, or the bound before the first.
    fn dist(&self) -> u32 {
        (self.best >> 32) as u32
    }

    /// Tree node `v` at distance `dist` (within the bound); `seq` holds the insertion numbers.
    /// Returns whether `v` is now the best. Without a branch: which of the nodes offered wins
    /// is as good as random, and the insertion number is read at every offer.
    fn offer(&mut self, dist: u32, v: u32, seq: &[u32]) -> bool {
        let key = (u64::from(dist) << 32) | u64::from(seq[v as usize]);
        let better = key < self.best;
        self.node = select_unpredictable(better, v, self.node);
        self.best = self.best.min(key);
        better
    }
}

/// The 64 bits of `bits` from bit `start` on (zeros past the end).
#[inline(always)]
fn word_at(bits: &[u64], start: usize) -> u64 {
    let (w, s) = (start / 64, start % 64);
    bits[w] >> s | bits.get(w + 1).map_or(0, |next| next << 1 << (63 - s))
}

/// How far below bit `p` the nearest set bit lies, if at most `max` below (`p` itself: 0).
fn nearest_below(bits: &[u64], p: usize, max: u32) -> Option<u32> {
    let end = p - max as usize;
    let mut w = p / 64;
    let mut word = bits[w] & u64::MAX >> (63 - p % 64);
    loop {
        if word != 0 {
            let q = w * 64 + 63 - word.leading_zeros() as usize;
            return (q >= end).then_some((p - q) as u32);
        }
        if w * 64 <= end {
            return None;
        }
        w -= 1;
        word = bits[w];
    }
}

/// How far above bit `p` the nearest set bit lies, if at most `max` above (`p` itself: 0).
fn nearest_above(bits: &[u64], p: usize, max: u32) -> Option<u32> {
    let end = p + max as usize;
    let mut w = p / 64;
    let mut word = bits[w] & u64::MAX << (p % 64);
    loop {
        if word != 0 {
            let q = w * 64 + word.trailing_zeros() as usize;
            return (q <= end).then_some((q - p) as u32);
        }
        if (w + 1) * 64 > end {
            return None;
        }
        w += 1;
        word = bits[w];
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
    /// The index in `ids` of the destination [`Picker::min_in`] returned last, which is
    /// usually the one taken next.
    last: usize,
}

impl Picker {
    pub(crate) fn new(grid: &Grid, dests: &[u32]) -> Picker {
        let n = grid.rank();
        let mut ids = dests.to_vec();
        ids.sort_unstable();
        let mut coords = vec![0; ids.len() * n];
        for (c, &u) in coords.chunks_exact_mut(n).zip(&ids) {
            grid.coords_into(u, c);
        }
        // Each dimension's order is by its coordinate, then by all of them: the order by all
        // the coordinates (dimension 0's), sorted once, then stably by the coordinate in `d`.
        // From id order, stable counting passes by the coordinates from the last but one
        // dimension down to the first give the order by all of them.
        let mut by_coords: Vec<u32> = (0..ids.len() as u32).collect();
        for d in (0..n.saturating_sub(1)).rev() {
            by_coords = stably_by(&by_coords, grid.extent(d), |k| coords[k as usize * n + d]);
        }
        let by_dim = (0..n)
            .map(|d| match d {
                0 => by_coords.clone(),
                _ => stably_by(&by_coords, grid.extent(d), |k| coords[k as usize * n + d]),
            })
            .collect();
        Picker {
            taken: vec![false; ids.len()],
            ids,
            by_dim,
            cursor: vec![0; n],
            last: 0,
        }
    }

    /// The remaining destination with the least coordinate in `dim`; it stays until [`Picker::take`].
    pub(crate) fn min_in(&mut self, dim: usize) -> Option<u32> {
        let list = &self.by_dim[dim];
        let c = &mut self.cursor[dim];
        while *c < list.len() && self.taken[list[*c] as usize] {
            *c += 1;
        }
        self.last = *list.get(*c)? as usize;
        Some(self.ids[self.last])
    }

    pub(crate) fn take(&mut self, u: u32) {
        let k = if self.ids.get(self.last) == Some(&u) {
            self.last
        } else {
            self.ids.binary_search(&u).expect("a destination")
        };
        self.taken[k] = true;
    }
}

/// `order` sorted stably by `coord`, whose values are below `extent`: by counting when there
/// are no more values than entries, otherwise by a stable comparison sort.
pub(crate) fn stably_by(order: &[u32], extent: u32, coord: impl Fn(u32) -> u32) -> Vec<u32> {
    if extent as usize > order.len() {
        let mut sorted = order.to_vec();
        sorted.sort_by_key(|&k| coord(k));
        return sorted;
    }
    let mut sorted = vec![0; order.len()];
    let mut start = vec![0; extent as usize];
    counting_pass(order, &mut sorted, &mut start, |k| coord(k) as usize);
    sorted
}

/// The positions `0..keys.len() / width` ordered by their keys — `width` words each, compared
/// as slices — with equal keys in position order: the order of a stable comparison sort.
///
/// When the words' bit lengths (from the largest value at each word) add up to at most 96 —
/// every mesh the reproduced experiments use — each key is packed into one integer above its
/// 32-bit position, which keeps the lexicographic order of the words, and the integers are put
/// in order by a least-significant-digit radix sort over the key bits, one counting pass per
/// byte: each pass is stable, so equal keys stay in position order, and the work is linear in
/// the number of keys, without comparing slices (issue 14); up to [`FEW_KEYS`] keys, the
/// integers — distinct, their positions differ — are sorted by comparison instead, which gives
/// the same order. Keys of at most 32 bits — the small meshes of the Monte-Carlo sections — are
/// packed into a `u64`, which halves the memory the sort moves and compares, longer ones into a
/// `u128`. Longer keys take the comparison sort of the slices.
pub(crate) fn key_order(keys: &[u32], width: usize) -> Vec<u32> {
    let count = keys.len() / width.max(1);
    let mut bits = vec![0u32; width];
    for key in keys.chunks_exact(width.max(1)) {
        for (b, &w) in bits.iter_mut().zip(key) {
            *b = (*b).max(u32::BITS - w.leading_zeros());
        }
    }
    match bits.iter().sum() {
        0..=32 => packed_order::<u64>(keys, &bits, count),
        33..=96 => packed_order::<u128>(keys, &bits, count),
        _ => {
            let mut order: Vec<u32> = (0..count as u32).collect();
            order.sort_by(|&a, &b| {
                let (a, b) = (a as usize * width, b as usize * width);
                keys[a..a + width].cmp(&keys[b..b + width])
            });
            order
        }
    }
}

/// [`key_order`] for the first `count` keys of `bits.len()` words each, whose words fit in
/// `bits` bits and whose bits, with a 32-bit position below them, fit in a `P`.
fn packed_order<P: Packed>(keys: &[u32], bits: &[u32], count: usize) -> Vec<u32> {
    let packed: Vec<P> = keys
        .chunks_exact(bits.len().max(1))
        .take(count)
        .enumerate()
        .map(|(k, key)| {
            let word = bits
                .iter()
                .zip(key)
                .fold(P::default(), |acc, (&b, &w)| acc << b | P::from(w));
            word << 32 | P::from(k as u32)
        })
        .collect();
    packed_positions(packed, bits.iter().sum())
}

/// The positions in the low 32 bits of `packed`, each above them a key of `key_bits` bits, in
/// the order of their keys: a caller that packs its keys itself ([`key_order`] does it from
/// slices), sorted by comparison up to [`FEW_KEYS`] of them, by the radix sort beyond.
pub(crate) fn packed_positions<P: Packed>(mut packed: Vec<P>, key_bits: u32) -> Vec<u32> {
    if packed.len() <= FEW_KEYS {
        // Distinct integers (the positions differ): any sort gives the radix sort's order.
        packed.sort_unstable();
    } else {
        radix_sort(&mut packed, key_bits);
    }
    packed.into_iter().map(P::low).collect()
}

/// The unsigned integers [`key_order`] packs a key and its position into.
pub(crate) trait Packed:
    Copy
    + Ord
    + Default
    + From<u32>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::BitOr<Output = Self>
{
    /// The low 32 bits: the position.
    fn low(self) -> u32;
    /// The byte `shift` bits up.
    fn byte(self, shift: u32) -> usize;
}

macro_rules! packed {
    ($($t:ty),*) => {$(
        impl Packed for $t {
            fn low(self) -> u32 {
                self as u32
            }
            fn byte(self, shift: u32) -> usize {
                (self >> shift) as usize & 0xff
            }
        }
    )*};
}
packed!(u64, u128);

/// Up to this many keys, [`key_order`] sorts its packed integers by comparison: the radix sort's
/// 256 counters per pass cost more than comparing so few.
const FEW_KEYS: usize = 128;

/// Sort `packed` by the `key_bits` bits above bit 32, stably: one counting pass per byte, least
/// significant first.
fn radix_sort<P: Packed>(packed: &mut Vec<P>, key_bits: u32) {
    let mut spare = vec![P::default(); packed.len()];
    let mut start = [0; 256];
    for shift in (32..32 + key_bits).step_by(8) {
        counting_pass(packed, &mut spare, &mut start, |p| p.byte(shift));
        std::mem::swap(packed, &mut spare);
    }
}

/// One stable counting pass: `from` into `to` in the order of `key`, whose values are below
/// `start.len()` (the counters, overwritten).
fn counting_pass<T: Copy>(from: &[T], to: &mut [T], start: &mut [usize], key: impl Fn(T) -> usize) {
    start.fill(0);
    for &x in from {
        start[key(x)] += 1;
    }
    let mut sum = 0;
    for s in start.iter_mut() {
        (*s, sum) = (sum, sum + *s);
    }
    for &x in from {
        let s = &mut start[key(x)];
        to[*s] = x;
        *s += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn divisors_are_exact() {
        let ns = [
            0,
            1,
            2,
            3,
            1023,
            1024,
            1025,
            (1 << 26) - 1,
            1 << 26,
            u32::MAX - 1,
            u32::MAX,
        ];
        for d in (1..=300).chain([1023, 1024, 4096, 8191, 65537, 1 << 25, (1 << 26) - 1]) {
            let div = Divisor::new(d);
            for n in ns
                .iter()
                .copied()
                .chain((0..2000u32).map(|k| k.wrapping_mul(2_654_435_761)))
            {
                assert_eq!((div.div(n), div.rem(n)), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    /// The links of the forest's pruned tree at offset 0 listed breadth first from its origin
    /// as `(node, child)`, the forest's slots given back first if it is [`LARGE`].
    fn listed(mut forest: Forest, grid: &Grid) -> Vec<(u32, u32)> {
        forest.pruned();
        let first = forest.first_child(0);
        let (mut queue, mut out) = (std::collections::VecDeque::from([(first, 0)]), vec![]);
        while let Some((first, v)) = queue.pop_front() {
            forest.children::<false>(first, |k, port| {
                let t = grid.stride(port / 2);
                let w = if port % 2 == 0 { v + t } else { v - t };
                out.push((v, w));
                queue.push_back((k, w));
            });
        }
        out
    }

    #[test]
    fn pruning_lists_the_children_in_port_order_and_clears_the_bitmap() {
        for grid in [Grid::new(&[16, 8]), Grid::new(&[8192, 4096])] {
            let len = grid.len();
            let mut forest = Forest::new(len);
            let mut tree = forest.tree(grid.clone(), 0);
            let at = |x, y| grid.index(&[x, y]);
            let (a, b, c) = (at(2, 1), at(1, 2), at(5, 0));
            tree.connect(0, a);
            tree.connect(at(1, 0), b);
            tree.connect(0, c);
            let want = [
                (0, at(1, 0)),
                (at(1, 0), at(2, 0)),
                (at(1, 0), at(1, 1)),
                (at(2, 0), at(2, 1)),
                (at(1, 1), b),
            ];
            assert_eq!(tree.prune(&[a, b]), want.len());
            assert_eq!(listed(forest, &grid), want);
            let mut forest = Forest::new(len);
            let tree = forest.tree(grid.clone(), 0);
            let grown = [at(1, 0), at(2, 0), at(3, 0), at(4, 0), c, a, at(1, 1), b];
            assert!(grown.iter().all(|&i| !tree.contains(i)), "{len}");
        }
    }

    #[test]
    fn an_attach_past_the_grid_edge_is_no_link() {
        let grid = Grid::new(&[4, 3]);
        let mut forest = Forest::new(grid.len());
        let mut tree = forest.tree(grid.clone(), 0);
        let at = |x, y| grid.index(&[x, y]);
        tree.connect(0, at(3, 0));
        // One id above (3, 0), as a step up dimension 0 would be, but past the row's end.
        tree.attach(at(0, 1), at(3, 0));
        tree.attach(at(3, 1), at(3, 0));
        assert_eq!(tree.prune(&[at(0, 1), at(3, 1)]), 5);
        let want = [(0, 1), (1, 2), (2, 3), (3, at(3, 1))];
        assert_eq!(listed(forest, &grid), want);
    }

    /// The tree node nearest `u` by the definition: least distance (within `{origin ⇔ u}`
    /// unless `both_ways`), then least insertion number.
    fn nearest_by_scan(tree: &LocalTree, u: u32, both_ways: bool) -> u32 {
        let g = &tree.grid;
        (0..g.len() as u32)
            .filter(|&v| tree.contains(v))
            .filter(|&v| both_ways || (0..g.rank()).all(|d| g.coord(v, d) <= g.coord(u, d)))
            .min_by_key(|&v| {
                let dist: u32 = (0..g.rank())
                    .map(|d| g.coord(v, d).abs_diff(g.coord(u, d)))
                    .sum();
                (dist, tree.seq[v as usize])
            })
            .expect("the origin is in the tree")
    }

    /// Grow a tree on `ext` by routes to `targets` in turn, then ask for the node nearest each
    /// of `probes`, both ways.
    fn nearest_matches_the_definition(
        ext: &[u32],
        targets: &[u32],
        probes: &[u32],
    ) -> Result<(), TestCaseError> {
        let grid = Grid::new(ext);
        let len = grid.len() as u32;
        let mut forest = Forest::new(grid.len() + 3);
        let mut tree = forest.tree(grid, 3);
        let mut from = 0;
        for t in targets {
            tree.connect(from, t % len);
            from = t % len;
        }
        for p in probes {
            let u = p % len;
            if tree.contains(u) {
                continue;
            }
            let c = tree.grid.coords(u);
            for both_ways in [false, true] {
                let want = nearest_by_scan(&tree, u, both_ways);
                // The shells alone find it, next to `u` or not.
                let found = if both_ways {
                    tree.shells::<true>(u, &c)
                } else {
                    tree.shells::<false>(u, &c)
                };
                prop_assert_eq!(found, want);
                if let Some((v, port)) = tree.adjacent(u, &c, both_ways) {
                    prop_assert_eq!(v, want);
                    let s = tree.grid.stride(port / 2);
                    let step = if port % 2 == 0 { v + s } else { v - s };
                    prop_assert_eq!(step, u);
                }
            }
        }
        Ok(())
    }

    /// The search's first pass looks [`NEAR`] hops far: a tree node exactly that far is found
    /// by it, one a hop farther by the second pass.
    #[test]
    fn nearest_at_the_first_pass_bound_and_beyond() {
        // Row 0 is in the tree from the origin to x = 60; probes on rows 0 and 1 to its right,
        // 31 to 33 hops away.
        let probes = [
            60 + NEAR,
            61 + NEAR,
            200 + 59 + NEAR,
            200 + 60 + NEAR,
            200 + 61 + NEAR,
        ];
        nearest_matches_the_definition(&[200, 2], &[60], &probes).unwrap();
        // Row 0 to x = 10, then column 10 to the top; probes on row 20, 31 and 32 hops from
        // the column, farther from row 0.
        let (w, x) = (200, 10 + NEAR);
        nearest_matches_the_definition(&[w, 40], &[10, 10 + w * 39], &[x + w * 20, x + 1 + w * 20])
            .unwrap();
    }

    proptest! {
        /// Each dimension's order is by the coordinate in it, then by all of them (as
        /// [`key_order`] sorts those keys), whether counted or compared.
        #[test]
        fn picker_orders_by_a_coordinate_then_by_all(
            ext in prop::collection::vec(1u32..9, 1..5),
            picks in prop::collection::vec(any::<u32>(), 1..80),
        ) {
            let grid = Grid::new(&ext);
            let mut dests: Vec<u32> = picks.iter().map(|&p| p % grid.len() as u32).collect();
            dests.sort_unstable();
            dests.dedup();
            let picker = Picker::new(&grid, &dests);
            let n = grid.rank();
            let mut c = vec![0; n];
            for d in 0..n {
                let mut keys = Vec::new();
                for &u in &picker.ids {
                    grid.coords_into(u, &mut c);
                    keys.push(c[d]);
                    keys.extend_from_slice(&c);
                }
                prop_assert_eq!(&picker.by_dim[d], &key_order(&keys, n + 1));
            }
        }

        /// Packed or compared, the order is that of a stable sort by the key slices; small
        /// words and few of them take the packed path, long or wide keys the comparison.
        #[test]
        fn key_order_is_a_stable_sort(
            width in 1usize..6,
            shift in 0u32..32,
            words in prop::collection::vec(0u32..40, 0..600),
        ) {
            let keys: Vec<u32> = words
                .iter()
                .take(words.len() / width * width)
                .map(|&w| w << shift >> shift.min(5))
                .collect();
            let mut want: Vec<u32> = (0..(keys.len() / width) as u32).collect();
            want.sort_by_key(|&k| &keys[k as usize * width..(k as usize + 1) * width]);
            prop_assert_eq!(key_order(&keys, width), want);
        }

        #[test]
        fn shells_find_the_nearest_tree_node(
            ext in prop::collection::vec(1u32..6, 1..5),
            targets in prop::collection::vec(any::<u32>(), 1..6),
            probes in prop::collection::vec(any::<u32>(), 1..10),
        ) {
            nearest_matches_the_definition(&ext, &targets, &probes)?;
        }

        /// Rows of several bitmap words: the row search crosses words both ways.
        #[test]
        fn long_rows_find_the_nearest_tree_node(
            ext in (70u32..300, 1u32..4).prop_map(|(x, y)| vec![x, y]),
            targets in prop::collection::vec(any::<u32>(), 1..4),
            probes in prop::collection::vec(any::<u32>(), 1..10),
        ) {
            nearest_matches_the_definition(&ext, &targets, &probes)?;
        }
    }
}
