//! **RSA**: the Rectilinear Steiner Arborescence heuristic, applied per zone — a rival the seeds
//! do not know.
//!
//! Paper: S. K. Rao, P. Sadayappan, F. K. Hwang and P. W. Shor, "The rectilinear Steiner
//! arborescence problem", Algorithmica 7 (1992). Within a zone (the source at the origin, every
//! destination in the positive orthant) the heuristic keeps a set `P` of points, at first the origin
//! and the destinations. While `P` holds more than one point it takes the two points `p`, `q`
//! whose *meet* `m = min(p, q)` (componentwise) lies farthest from the origin, replaces them by
//! `m`, and joins `p` and `q` to `m` by monotone paths. Every path is monotone away from the
//! origin, so the tree reaches each destination over a shortest path; in the plane its length is
//! at most twice that of the minimum arborescence (the paper's bound). The torus and any mesh
//! source come from the zone reduction of `algo::reduce`, as for DIAG and DDS (issue 7: per
//! orthant on the mesh, per zone on the torus).
//!
//! Complexity: in 1D and 2D zones, O(K log K) by a plane sweep over the staircase of maximal
//! points (`sweep`, the idea of the paper's O(K log K) algorithm) that makes exactly the merges
//! of the definition, ties included. In three or more dimensions, where the staircase argument
//! fails, the definition itself (`merge`): each point keeps its best partner and the priority of
//! that merge; a merge offers the meet to every point, and a point whose partner left is rescanned
//! only when its stale priority comes out on top — O(K²·n) in practice, O(K³·n) at worst. A
//! property test holds the sweep to that loop.
//!
//! Choices the paper leaves open, and ours: the monotone path from `m` to `p` is the
//! dimension-ordered one (where it meets the tree, the branch starts at the last tree node on it);
//! equal meets go to the pair of smallest local ids, so the tree does not depend on the order the
//! destinations are listed in; the paper's construction is for the plane, we use the same rule in
//! n dimensions (the factor-2 bound is proved only for the plane). Priority at a branching node:
//! lower dimension first, increasing direction first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
//! let plan = algo::find("rsa").unwrap().route(&req).unwrap();
//! plan.validate(req.shape(), true).unwrap();
//! // seed 001's example: DIAG needs 21 links and DDS 17; the arborescence needs 17.
//! assert_eq!(Metrics::of(&plan, req.shape()).traffic, 17);
//! ```

use std::collections::BinaryHeap;

use crate::algo::local::{bit, key_order, stably_by, Divisor, Grid, LocalTree, NONE};
use crate::algo::reduce::ZoneAlgorithm;

/// The RSA heuristic of Rao, Sadayappan, Hwang and Shor.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rsa;

impl ZoneAlgorithm for Rsa {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        let links = if tree.grid.rank() <= 2 {
            sweep(&tree.grid, dests)
        } else {
            merge(&tree.grid, dests)
        };
        // A point's meet lies nearer the origin, so joining nearest first finds every meet
        // already in the tree: the links by the child's distance, then its id (every point is a
        // child once at most). Each route starts at a random place of the tree's arrays, so
        // its end is asked for a few routes ahead.
        let order = link_order(&tree.grid, &links);
        for (i, &k) in order.iter().enumerate() {
            if let Some(&next) = order.get(i + ROUTES_AHEAD) {
                tree.prefetch_route_end(links[next as usize].0);
            }
            let (child, parent) = links[k as usize];
            tree.connect(parent, child);
        }
    }
}

/// How many routes ahead [`Rsa`]'s growth asks for a route's end (measured: 4 and 8 did as
/// well, docs/PERFORMANCE.md).
const ROUTES_AHEAD: usize = 4;

/// The order of `links` by their child's distance from the origin, then its id. In a plane of
/// width `w`, the point at distance `n` and height `y` has the id `n − y + y·w`, so its height
/// orders the ids at one distance: two stable counting passes, by height and then by distance,
/// give the order. In more dimensions, the radix sort of (distance, id).
fn link_order(grid: &Grid, links: &[(u32, u32)]) -> Vec<u32> {
    if grid.rank() > 2 {
        let keys: Vec<u32> = links
            .iter()
            .flat_map(|&(child, _)| [grid.norm(child), child])
            .collect();
        return key_order(&keys, 2);
    }
    let (height, plane) = if grid.rank() == 2 {
        (grid.extent(1), grid.stride(1))
    } else {
        (1, 0)
    };
    let (distance, y): (Vec<u32>, Vec<u32>) = links
        .iter()
        .map(|&(child, _)| {
            let y = if height > 1 { grid.coord(child, 1) } else { 0 };
            (child - y * plane + y, y)
        })
        .unzip();
    let all: Vec<u32> = (0..links.len() as u32).collect();
    let by_y = stably_by(&all, height, |k| y[k as usize]);
    stably_by(&by_y, grid.extent(0) + height - 1, |k| distance[k as usize])
}

/// Run the merging loop on the origin and `dests` in any dimension; returns every point merged
/// into another (its parent in the arborescence), as `(point, parent)`. A point leaves the set
/// at most once with a parent: it could come back only as a later meet, and meets only get
/// nearer the origin.
fn merge(grid: &Grid, dests: &[u32]) -> Vec<(u32, u32)> {
    let mut links = Vec::new();
    let mut points = Points::new(grid, dests);
    while points.len() > 1 {
        let i = points.first_merge();
        let (p, q) = (points.id[i], points.best[i]);
        let meet: Vec<u32> = (0..grid.rank())
            .map(|d| points.coord(i, d).min(grid.coord(q, d)))
            .collect();
        let m = grid.index(&meet);
        for x in [p, q] {
            points.remove(x);
            if x != m {
                links.push((x, m));
            }
        }
        points.insert(m, &meet);
        points.refresh(m);
    }
    links
}

/// The merging loop of [`merge`] in a 1D or 2D zone in O(K log K), the bound of Rao et al.'s
/// plane sweep, making the same choice at every step, ties included.
///
/// The merge chosen is the pair `{p, q}` whose meet is farthest from the origin, then of the
/// smallest ids. In the plane only two kinds of pairs can be that pair. Sort the maximal points
/// (those no other point dominates) by x: their y falls, and two of them that are not
/// neighbours meet strictly nearer the origin than some two neighbours between them. A point `r`
/// some other point dominates meets any point at most `|r|` away, exactly `|r|` with the points
/// that dominate it — and every one of those has a larger id than `r` (ids grow with y, then x),
/// so its best partner is its dominator of least id. A candidate is thus known by its meet's
/// distance and its smaller id alone: each neighbouring pair of maximal points, and each
/// dominated point. A heap holds them as one 64-bit key each, checked when they come out on top
/// (a pair that is no longer neighbours, a point no longer there or no longer dominated is
/// dropped). The key tells the kind: a dominated point's meet is the point itself, at its own
/// distance, while a pair's lies nearer than its smaller-id (right) point; and a pair's left
/// point is its right one's neighbour on the staircase. The pair is still there if that
/// neighbour meets it at the key's distance, which fixes the neighbour's x; and a neighbour at
/// that x other than the one pushed has the same meet, so it was pushed with the same key.
///
/// Meets get no farther as the loop goes on, and a new meet `m` enters dominated (by the pair
/// that made it, still there when it enters): removing a maximal point is the only change of
/// the staircase, and the points it uncovers are found row by row in a tree of each row's
/// largest x. With rank 1, every point is on row 0.
///
/// The data structures keep the work per step small and flat (issue 14): the points are a
/// 64-ary bitmap tree ([`Bits`], successor and predecessor in a few word operations), the
/// staircase a list linked by x (a point leaving it knows its neighbours), the row tree is
/// searched bottom-up from the row asked about, and the candidates wait in buckets of meet
/// distance ([`Candidates`]), since most of them are stale when they come out.
fn sweep(grid: &Grid, dests: &[u32]) -> Vec<(u32, u32)> {
    let mut plane = Plane::new(grid, dests);
    // Each point leaves the set once at most: the destinations, the origin, and the meets.
    let mut links = Vec::with_capacity(2 * dests.len() + 1);
    while plane.len > 1 {
        let key = plane.heap.pop().expect("two points have a candidate pair");
        let (norm, a) = ((key >> 32) as u32, !(key as u32));
        if !plane.contains(a) {
            continue;
        }
        let (p, q) = if norm == plane.norm(a) {
            if plane.is_maximal(a) {
                continue;
            }
            (a, plane.dominator(a))
        } else {
            match plane.left_neighbour(a) {
                Some(left) if plane.meet_norm(left, a) == norm => (left, a),
                _ => continue,
            }
        };
        let m = plane.meet(p, q);
        if !plane.contains(m) {
            plane.insert(m);
        }
        for x in [p, q] {
            if x != m {
                plane.remove(x);
                links.push((x, m));
            }
        }
        if !plane.is_maximal(m) {
            plane.push_dominated(m);
        }
    }
    links
}

/// The points of [`sweep`]: the set of points (ids in row order), a tree of each row's largest
/// x, the staircase of maximal points, and the heap of candidate merges.
struct Plane {
    width: u32,
    /// The width as a divisor: a point's row without a division instruction.
    by_width: Divisor,
    height: u32,
    points: Bits,
    largest: RowMax,
    /// At the x of every maximal point, the point's id (`NONE` elsewhere), and the x of its
    /// neighbours on the staircase to the left and to the right (`NONE`: none) — a list in x
    /// order, changed only where a maximal point leaves.
    stair_id: Vec<u32>,
    stair_left: Vec<u32>,
    stair_right: Vec<u32>,
    /// Candidates: the meet's distance from the origin above the complement of the smaller id.
    heap: Candidates,
    len: usize,
    /// [`Plane::uncover`]'s new stretch of the staircase, kept for the next one.
    chain: Vec<u32>,
}

impl Plane {
    /// The origin and `dests`, the staircase built, every candidate in the heap.
    fn new(grid: &Grid, dests: &[u32]) -> Plane {
        let height = if grid.rank() == 2 { grid.extent(1) } else { 1 };
        let width = grid.extent(0);
        let mut plane = Plane {
            width,
            by_width: Divisor::new(width),
            height,
            points: Bits::new(width as usize * height as usize),
            largest: RowMax::new(height as usize),
            stair_id: vec![NONE; width as usize],
            stair_left: vec![NONE; width as usize],
            stair_right: vec![NONE; width as usize],
            heap: Candidates::new(width + height - 2, dests.len() + 1),
            len: 0,
            chain: Vec::new(),
        };
        for &u in dests.iter().chain(&[0]) {
            if !plane.contains(u) {
                plane.insert(u);
            }
        }
        plane.build_staircase();
        plane
    }

    /// The staircase of the points inserted, and every candidate in the heap: a row's rightmost
    /// point is maximal when it lies right of every point of the rows above.
    fn build_staircase(&mut self) {
        let mut right = NONE;
        for y in (0..self.height).rev() {
            let Some(x) = self.last_in_row(y) else {
                continue;
            };
            if right == NONE || x > right {
                self.add_to_stair(x, self.id(x, y), right);
                if right != NONE {
                    self.push_neighbours(self.stair_id[right as usize], self.id(x, y));
                }
                right = x;
            }
        }
        let mut at = self.points.next(0);
        while let Some(u) = at {
            if !self.is_maximal(u) {
                self.push_dominated(u);
            }
            at = self.points.next(u as usize + 1);
        }
    }

    fn id(&self, x: u32, y: u32) -> u32 {
        x + y * self.width
    }

    fn xy(&self, u: u32) -> (u32, u32) {
        let y = self.by_width.div(u);
        (u - y * self.width, y)
    }

    fn meet(&self, p: u32, q: u32) -> u32 {
        let ((px, py), (qx, qy)) = (self.xy(p), self.xy(q));
        self.id(px.min(qx), py.min(qy))
    }

    fn contains(&self, u: u32) -> bool {
        self.points.contains(u as usize)
    }

    /// The largest x of a point in row `y`, which the row tree keeps.
    fn last_in_row(&self, y: u32) -> Option<u32> {
        self.largest.get(y as usize).checked_sub(1)
    }

    /// The point of least x beyond `x` in row `y`, as its x.
    fn next_in_row(&self, x: u32, y: u32) -> Option<u32> {
        let next = self.points.next(self.id(x, y) as usize + 1)?;
        (next < self.id(0, y + 1)).then(|| next - self.id(0, y))
    }

    fn is_maximal(&self, u: u32) -> bool {
        let x = self.xy(u).0;
        self.stair_id[x as usize] == u
    }

    /// Put maximal point `u`, at `x`, on the staircase right of the point at `left` (`NONE`:
    /// none); the caller links its right neighbour.
    fn add_to_stair(&mut self, x: u32, u: u32, left: u32) {
        self.stair_id[x as usize] = u;
        self.link(left, x);
    }

    /// Make the points at `left` and `right` neighbours on the staircase (either `NONE`: an end).
    fn link(&mut self, left: u32, right: u32) {
        if left != NONE {
            self.stair_right[left as usize] = right;
        }
        if right != NONE {
            self.stair_left[right as usize] = left;
        }
    }

    /// The distance of point `u` from the origin.
    fn norm(&self, u: u32) -> u32 {
        let (x, y) = self.xy(u);
        x + y
    }

    /// The maximal point left of the maximal point `right` on the staircase, if any; none if
    /// `right` is not maximal.
    fn left_neighbour(&self, right: u32) -> Option<u32> {
        let x = self.xy(right).0 as usize;
        if self.stair_id[x] != right || self.stair_left[x] == NONE {
            return None;
        }
        Some(self.stair_id[self.stair_left[x] as usize])
    }

    /// The distance of the meet of staircase neighbours `left` and `right` (`left` has the
    /// smaller x): `left`'s x and `right`'s y.
    fn meet_norm(&self, left: u32, right: u32) -> u32 {
        self.xy(left).0 + self.xy(right).1
    }

    /// A dominated point `r`: its best merge is with its dominator of least id.
    fn push_dominated(&mut self, r: u32) {
        self.heap
            .push(u64::from(self.norm(r)) << 32 | u64::from(!r));
    }

    /// Staircase neighbours (`left` has the smaller x): `right` has the smaller id.
    fn push_neighbours(&mut self, left: u32, right: u32) {
        let norm = self.meet_norm(left, right);
        self.heap.push(u64::from(norm) << 32 | u64::from(!right));
    }

    /// The point of least id among those that dominate `r` (a row above, or its own row to
    /// the right).
    fn dominator(&self, r: u32) -> u32 {
        let (x, y) = self.xy(r);
        if let Some(right) = self.next_in_row(x, y) {
            return self.id(right, y);
        }
        let row = self
            .largest
            .first_at_least(y as usize + 1, x + 1)
            .expect("a dominated point has a dominator") as u32;
        self.points
            .next(self.id(x, row) as usize)
            .expect("the row reaches x")
    }

    fn insert(&mut self, u: u32) {
        self.points.insert(u as usize);
        let (x, y) = self.xy(u);
        if x + 1 > self.largest.get(y as usize) {
            self.largest.set(y as usize, x + 1);
        }
        self.len += 1;
    }

    /// Remove `u`; if it was maximal, the points it alone dominated join the staircase.
    fn remove(&mut self, u: u32) {
        let (x, y) = self.xy(u);
        self.points.remove(u as usize);
        // Only the row's last point changes its largest x: to that of the point before it.
        if x + 1 == self.largest.get(y as usize) {
            let start = self.id(0, y);
            let before = match (x > 0).then(|| self.points.prev(u as usize - 1)) {
                Some(Some(p)) if p >= start => p - start + 1,
                _ => 0,
            };
            self.largest.set(y as usize, before);
        }
        self.len -= 1;
        if self.is_maximal(u) {
            self.stair_id[x as usize] = NONE;
            self.uncover(x, y);
        }
    }

    /// After the maximal point at `(x, y)` left: the points it alone dominated join the
    /// staircase, and every new pair of neighbours becomes a candidate.
    fn uncover(&mut self, x: u32, y: u32) {
        let (lx, rx) = (self.stair_left[x as usize], self.stair_right[x as usize]);
        let left = (lx != NONE).then(|| (lx, self.stair_id[lx as usize]));
        let right = (rx != NONE).then(|| self.stair_id[rx as usize]);
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        chain.extend(left.map(|(_, l)| l));
        let floor = right.map(|r| self.xy(r).1 as usize + 1).unwrap_or(0);
        let (mut top, mut beyond) = (y as usize + 1, left.map(|(lx, _)| lx));
        // Row by row downwards: the highest row below `top` with a point right of `beyond`;
        // its rightmost point is maximal.
        while let Some(row) = self.largest.last_below(top, beyond.map_or(1, |b| b + 2)) {
            if row < floor {
                break;
            }
            let px = self
                .last_in_row(row as u32)
                .expect("a row with a largest x");
            let p = self.id(px, row as u32);
            self.add_to_stair(px, p, beyond.unwrap_or(NONE));
            chain.push(p);
            (top, beyond) = (row, Some(px));
        }
        self.link(beyond.unwrap_or(NONE), rx);
        chain.extend(right);
        for w in chain.windows(2) {
            self.push_neighbours(w[0], w[1]);
        }
        self.chain = chain;
    }
}

/// The candidate merges of [`sweep`], greatest first, in buckets of meet distances (spans of
/// `2^shift` distances, as few as keep the buckets within about two per point) of which the
/// highest non-empty one is a heap. Meets get no farther as the sweep goes on, so each bucket is
/// made a heap once, from the top down, and most pushes go to a small heap or a plain list
/// instead of one heap of every candidate — three in four are stale by the time they come out.
/// A push above the heap's bucket would still come out first.
///
/// The buckets are lists threaded through one array of every candidate pushed, so that a push
/// grows no bucket of its own (thousands of small vectors growing one by one).
struct Candidates {
    shift: u32,
    /// Every candidate pushed to a bucket, and the one pushed to the same bucket before it.
    keys: Vec<u64>,
    below: Vec<u32>,
    /// Per bucket, its last candidate in `keys` (`NONE`: empty).
    last: Vec<u32>,
    heap: BinaryHeap<u64>,
    /// The bucket `heap` was made from.
    level: usize,
    /// The highest bucket that may hold candidates, at least `level`.
    top: usize,
}

impl Candidates {
    /// Room for meet distances up to `max_norm`, for `points` points.
    fn new(max_norm: u32, points: usize) -> Candidates {
        let mut shift = 0;
        while (max_norm >> shift) as usize > 2 * points + 64 {
            shift += 1;
        }
        Candidates {
            shift,
            // About four pushes per point (43,535 for 10,487 points at 1024², one zone).
            keys: Vec::with_capacity(5 * points),
            below: Vec::with_capacity(5 * points),
            last: vec![NONE; (max_norm >> shift) as usize + 1],
            heap: BinaryHeap::new(),
            level: 0,
            top: 0,
        }
    }

    /// A candidate: its key, the meet's distance in the high 32 bits.
    fn push(&mut self, key: u64) {
        let b = (key >> 32 >> self.shift) as usize;
        if b == self.level && !self.heap.is_empty() {
            self.heap.push(key);
        } else {
            self.add(b, key);
            self.top = self.top.max(b);
        }
    }

    /// Put `key` in bucket `b`'s list.
    fn add(&mut self, b: usize, key: u64) {
        self.below.push(self.last[b]);
        self.last[b] = self.keys.len() as u32;
        self.keys.push(key);
    }

    /// The greatest candidate.
    fn pop(&mut self) -> Option<u64> {
        if self.heap.is_empty() || self.top > self.level {
            let mut heap = std::mem::take(&mut self.heap).into_vec();
            for key in heap.drain(..) {
                self.add(self.level, key);
            }
            while self.last[self.top] == NONE {
                self.top = self.top.checked_sub(1)?;
            }
            self.level = self.top;
            let mut k = std::mem::replace(&mut self.last[self.level], NONE);
            while k != NONE {
                heap.push(self.keys[k as usize]);
                k = self.below[k as usize];
            }
            self.heap = BinaryHeap::from(heap);
        }
        self.heap.pop()
    }
}

/// A set of the integers below a bound with membership, successor and predecessor in
/// O(log₆₄ bound): a 64-ary tree of bitmaps, level 0 the set itself and each bit of a level
/// above saying whether a word of the level below is non-zero.
struct Bits {
    levels: Vec<Vec<u64>>,
}

impl Bits {
    fn new(bound: usize) -> Bits {
        let mut levels = vec![vec![0; bound.div_ceil(64).max(1)]];
        while levels[levels.len() - 1].len() > 1 {
            let below = levels[levels.len() - 1].len();
            levels.push(vec![0; below.div_ceil(64)]);
        }
        Bits { levels }
    }

    fn contains(&self, i: usize) -> bool {
        bit(&self.levels[0], i)
    }

    fn insert(&mut self, mut i: usize) {
        for level in &mut self.levels {
            let word = &mut level[i / 64];
            let was = *word;
            *word |= 1 << (i % 64);
            if was != 0 {
                return;
            }
            i /= 64;
        }
    }

    fn remove(&mut self, mut i: usize) {
        for level in &mut self.levels {
            let word = &mut level[i / 64];
            *word &= !(1 << (i % 64));
            if *word != 0 {
                return;
            }
            i /= 64;
        }
    }

    /// The least member at least `i`.
    fn next(&self, i: usize) -> Option<u32> {
        let (mut level, mut i) = (0, i);
        // Up while the rest of `i`'s word is empty: then the next non-empty word is wanted.
        loop {
            let words = &self.levels[level];
            let word = words.get(i / 64)? & u64::MAX << (i % 64);
            if word != 0 {
                i = i / 64 * 64 + word.trailing_zeros() as usize;
                break;
            }
            level += 1;
            if level == self.levels.len() {
                return None;
            }
            i = i / 64 + 1;
        }
        // Down along the least members.
        while level > 0 {
            level -= 1;
            i = i * 64 + self.levels[level][i].trailing_zeros() as usize;
        }
        Some(i as u32)
    }

    /// The greatest member at most `i`.
    fn prev(&self, i: usize) -> Option<u32> {
        let (mut level, mut i) = (0, i);
        loop {
            let word = self.levels[level][i / 64] & u64::MAX >> (63 - i % 64);
            if word != 0 {
                i = i / 64 * 64 + 63 - word.leading_zeros() as usize;
                break;
            }
            level += 1;
            if level == self.levels.len() || i < 64 {
                return None;
            }
            i = i / 64 - 1;
        }
        while level > 0 {
            level -= 1;
            i = i * 64 + 63 - self.levels[level][i].leading_zeros() as usize;
        }
        Some(i as u32)
    }
}

/// Per row, one more than its largest x (0: an empty row), in a max segment tree.
struct RowMax {
    size: usize,
    tree: Vec<u32>,
}

impl RowMax {
    fn new(rows: usize) -> RowMax {
        let size = rows.next_power_of_two();
        RowMax {
            size,
            tree: vec![0; 2 * size],
        }
    }

    /// The value of `row`.
    fn get(&self, row: usize) -> u32 {
        self.tree[row + self.size]
    }

    fn set(&mut self, row: usize, value: u32) {
        let mut i = row + self.size;
        self.tree[i] = value;
        // Up while the maximum changes.
        while i > 1 {
            i /= 2;
            let max = self.tree[2 * i].max(self.tree[2 * i + 1]);
            if self.tree[i] == max {
                break;
            }
            self.tree[i] = max;
        }
    }

    /// The lowest row at or above `from` whose value is at least `v` (≥ 1): from `from`'s leaf, up
    /// and rightwards to the first subtree that holds one, then down its leftmost such leaf.
    fn first_at_least(&self, from: usize, v: u32) -> Option<usize> {
        if from >= self.size {
            return None;
        }
        let mut i = from + self.size;
        while self.tree[i] < v {
            // Up past the right children, then to the right sibling.
            i >>= i.trailing_ones();
            if i == 0 {
                return None;
            }
            i += 1;
        }
        // Down, left if the left child holds one: a choice made without a branch, which the
        // predictor would miss about every other level.
        while i < self.size {
            i = 2 * i + usize::from(self.tree[2 * i] < v);
        }
        Some(i - self.size)
    }

    /// The highest row below `to` whose value is at least `v` (≥ 1): the mirror of
    /// [`RowMax::first_at_least`].
    fn last_below(&self, to: usize, v: u32) -> Option<usize> {
        let to = to.min(self.size);
        if to == 0 {
            return None;
        }
        let mut i = to - 1 + self.size;
        while self.tree[i] < v {
            i >>= i.trailing_zeros();
            if i == 1 {
                return None;
            }
            i -= 1;
        }
        while i < self.size {
            i = 2 * i + usize::from(self.tree[2 * i + 1] >= v);
        }
        Some(i - self.size)
    }
}

/// The points still to merge, with their coordinates and each one's best partner.
struct Points {
    rank: usize,
    /// Local ids.
    id: Vec<u32>,
    /// Coordinates, `rank` per point.
    at: Vec<u32>,
    /// The partner each point merges with first, and the priority of that merge.
    best: Vec<u32>,
    key: Vec<u128>,
    /// Index in `id` of every local id in the set, `NONE` for the others.
    pos: Vec<u32>,
}

impl Points {
    /// The origin and `dests`, every best partner found.
    fn new(grid: &Grid, dests: &[u32]) -> Points {
        let mut points = Points {
            rank: grid.rank(),
            id: Vec::new(),
            at: Vec::new(),
            best: Vec::new(),
            key: Vec::new(),
            pos: vec![NONE; grid.len()],
        };
        for &u in dests.iter().chain(&[0]) {
            points.insert(u, &grid.coords(u));
        }
        for i in 0..points.len() {
            (points.best[i], points.key[i]) = points.scan(i);
        }
        points
    }

    fn len(&self) -> usize {
        self.id.len()
    }

    fn coord(&self, i: usize, d: usize) -> u32 {
        self.at[i * self.rank + d]
    }

    /// Add local id `u` at `coords` (nothing if it is already in), its partner still unknown.
    fn insert(&mut self, u: u32, coords: &[u32]) {
        if self.pos[u as usize] != NONE {
            return;
        }
        self.pos[u as usize] = self.id.len() as u32;
        self.id.push(u);
        self.at.extend_from_slice(coords);
        self.best.push(NONE);
        self.key.push(0);
    }

    fn remove(&mut self, u: u32) {
        let i = std::mem::replace(&mut self.pos[u as usize], NONE) as usize;
        let last = self.id.len() - 1;
        self.id.swap_remove(i);
        self.best.swap_remove(i);
        self.key.swap_remove(i);
        for d in 0..self.rank {
            self.at[i * self.rank + d] = self.at[last * self.rank + d];
        }
        self.at.truncate(last * self.rank);
        if i < last {
            self.pos[self.id[i] as usize] = i as u32;
        }
    }

    /// The priority of merging points `i` and `j`: their meet's distance from the origin first,
    /// then the smaller ids (a fixed order, whatever order the destinations came in).
    fn pair_key(&self, i: usize, j: usize) -> u128 {
        let norm: u32 = (0..self.rank)
            .map(|d| self.coord(i, d).min(self.coord(j, d)))
            .sum();
        let (a, b) = (self.id[i].min(self.id[j]), self.id[i].max(self.id[j]));
        u128::from(norm) << 64 | u128::from(!a) << 32 | u128::from(!b)
    }

    /// The best partner of point `i` among all the others, and its priority.
    fn scan(&self, i: usize) -> (u32, u128) {
        (0..self.len())
            .filter(|&j| j != i)
            .map(|j| (self.id[j], self.pair_key(i, j)))
            .max_by_key(|&(_, key)| key)
            .unwrap_or((NONE, 0))
    }

    /// The point whose merge with its partner comes first. A point whose partner has left keeps
    /// the old priority, an upper bound of its true one (the set only lost points, and every
    /// newcomer was offered): it is rescanned only when that bound comes out on top.
    fn first_merge(&mut self) -> usize {
        loop {
            let i = (0..self.len())
                .max_by_key(|&i| self.key[i])
                .expect("at least two points");
            if self.pos[self.best[i] as usize] != NONE {
                return i;
            }
            (self.best[i], self.key[i]) = self.scan(i);
        }
    }

    /// After a merge: find the partner of the meet `m`, and offer `m` to every other point.
    fn refresh(&mut self, m: u32) {
        let mi = self.pos[m as usize] as usize;
        (self.best[mi], self.key[mi]) = self.scan(mi);
        for i in (0..self.len()).filter(|&i| i != mi) {
            let key = self.pair_key(i, mi);
            if key > self.key[i] {
                (self.best[i], self.key[i]) = (m, key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// The merges of [`sweep`] and of the n-dimensional loop, as sorted `(point, parent)` lists.
    fn both(grid: &Grid, dests: &[u32]) -> [Vec<(u32, u32)>; 2] {
        [sweep(grid, dests), merge(grid, dests)].map(|mut links| {
            links.sort_unstable();
            links
        })
    }

    /// [`both`] on a zone of extents `ext`, the destinations drawn from `picks` (modulo the
    /// zone's size, duplicates dropped).
    fn both_on_picks(ext: &[u32], picks: &[u32]) -> [Vec<(u32, u32)>; 2] {
        let grid = Grid::new(ext);
        let mut dests: Vec<u32> = picks.iter().map(|p| p % grid.len() as u32).collect();
        dests.sort_unstable();
        dests.dedup();
        both(&grid, &dests)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The plane sweep merges exactly as the loop of the definition, ties included: small
        /// zones and dense destination sets make equal meets common.
        #[test]
        fn the_sweep_merges_as_the_loop(
            ext in prop::collection::vec(1u32..12, 1..3),
            picks in prop::collection::vec(any::<u32>(), 0..40),
        ) {
            let [fast, oracle] = both_on_picks(&ext, &picks);
            prop_assert_eq!(fast, oracle);
        }

        /// The same in wide zones with few points, whose candidates share buckets of several
        /// distances (`Candidates::shift` > 0).
        #[test]
        fn the_sweep_merges_as_the_loop_in_sparse_zones(
            ext in prop::collection::vec(1u32..600, 1..3),
            picks in prop::collection::vec(any::<u32>(), 0..12),
        ) {
            let [fast, oracle] = both_on_picks(&ext, &picks);
            prop_assert_eq!(fast, oracle);
        }

        /// `Bits` answers membership, successor and predecessor as an ordered set does, over
        /// bounds of one to four levels.
        #[test]
        fn bits_are_an_ordered_set(
            bound in 1usize..300_000,
            ops in prop::collection::vec((any::<bool>(), any::<usize>()), 0..200),
            probes in prop::collection::vec(any::<usize>(), 1..50),
        ) {
            let (mut bits, mut set) = (Bits::new(bound), BTreeSet::new());
            for (add, x) in ops {
                let x = x % bound;
                if add {
                    bits.insert(x);
                    set.insert(x as u32);
                } else {
                    bits.remove(x);
                    set.remove(&(x as u32));
                }
            }
            for p in probes {
                let p = p % bound;
                prop_assert_eq!(bits.contains(p), set.contains(&(p as u32)));
                prop_assert_eq!(bits.next(p), set.range(p as u32..).next().copied());
                prop_assert_eq!(bits.prev(p), set.range(..=p as u32).next_back().copied());
            }
            prop_assert_eq!(bits.next(bound), None);
        }

        /// `RowMax` finds the rows a scan of the values finds.
        #[test]
        fn row_max_finds_the_rows_a_scan_finds(
            values in prop::collection::vec(0u32..8, 1..70),
            from in 0usize..80,
            v in 1u32..9,
        ) {
            let mut tree = RowMax::new(values.len());
            for (row, &x) in values.iter().enumerate() {
                tree.set(row, x);
            }
            let first = (from..values.len()).find(|&r| values[r] >= v);
            let last = (0..from.min(values.len())).rev().find(|&r| values[r] >= v);
            prop_assert_eq!(tree.first_at_least(from, v), first);
            prop_assert_eq!(tree.last_below(from, v), last);
        }
    }

    #[test]
    fn the_sweep_merges_as_the_loop_on_large_sets() {
        let grid = Grid::new(&[64, 48]);
        let mut state = 7u64;
        for k in [50, 300, 1000, 3000] {
            let dests: Vec<u32> = (0..k)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    (state >> 33) as u32 % grid.len() as u32
                })
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let [fast, oracle] = both(&grid, &dests);
            assert_eq!(fast, oracle, "K = {k}");
        }
    }

    #[test]
    fn merges_the_pair_with_the_farthest_meet_first() {
        let grid = Grid::new(&[6, 6]);
        let id = |x, y| grid.index(&[x, y]);
        // (5,2) and (3,4) meet at (3,2), norm 5; (1,5) meets either at norm ≤ 3.
        for links in both(&grid, &[id(5, 2), id(3, 4), id(1, 5)]) {
            let parent = |u: u32| links.iter().find(|l| l.0 == u).map(|l| l.1);
            assert_eq!(parent(id(5, 2)), Some(id(3, 2)));
            assert_eq!(parent(id(3, 4)), Some(id(3, 2)));
            assert_eq!(parent(id(3, 2)), Some(id(1, 2)));
            assert_eq!(parent(id(1, 5)), Some(id(1, 2)));
            assert_eq!(parent(id(1, 2)), Some(0));
        }
    }

    #[test]
    fn a_dominated_destination_is_the_meet() {
        let grid = Grid::new(&[4, 4]);
        let id = |x, y| grid.index(&[x, y]);
        for links in both(&grid, &[id(1, 1), id(3, 3)]) {
            assert_eq!(links, vec![(id(1, 1), 0), (id(3, 3), id(1, 1))]);
        }
    }
}
