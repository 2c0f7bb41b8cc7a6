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
//! Complexity: each point keeps its best partner and the priority of that merge; a merge offers
//! the meet to every point, and a point whose partner left is rescanned only when its stale
//! priority comes out on top — O(K²·n) in practice, O(K³·n) at worst. (The paper's plane sweep
//! reaches O(K log K) in the plane; we keep one n-D method.)
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

use crate::algo::local::{Grid, LocalTree, NONE};
use crate::algo::reduce::ZoneAlgorithm;

/// The RSA heuristic of Rao, Sadayappan, Hwang and Shor.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rsa;

impl ZoneAlgorithm for Rsa {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        let parent = merge(&tree.grid, dests);
        let mut children: Vec<u32> = (0..parent.len() as u32)
            .filter(|&i| parent[i as usize] != NONE)
            .collect();
        // A point's meet lies nearer the origin, so joining nearest first finds every meet
        // already in the tree.
        children.sort_unstable_by_key(|&i| (tree.grid.norm(i), i));
        for child in children {
            tree.connect(parent[child as usize], child);
        }
    }
}

/// Run the merging loop on the origin and `dests`; returns, per local id, the point it was merged
/// into (its parent in the arborescence), or `NONE`.
fn merge(grid: &Grid, dests: &[u32]) -> Vec<u32> {
    let mut parent = vec![NONE; grid.len()];
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
                parent[x as usize] = m;
            }
        }
        points.insert(m, &meet);
        points.refresh(m);
    }
    parent
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

    #[test]
    fn merges_the_pair_with_the_farthest_meet_first() {
        let grid = Grid::new(&[6, 6]);
        let id = |x, y| grid.index(&[x, y]);
        // (5,2) and (3,4) meet at (3,2), norm 5; (1,5) meets either at norm ≤ 3.
        let parent = merge(&grid, &[id(5, 2), id(3, 4), id(1, 5)]);
        assert_eq!(parent[id(5, 2) as usize], id(3, 2));
        assert_eq!(parent[id(3, 4) as usize], id(3, 2));
        assert_eq!(parent[id(3, 2) as usize], id(1, 2));
        assert_eq!(parent[id(1, 5) as usize], id(1, 2));
        assert_eq!(parent[id(1, 2) as usize], 0);
    }

    #[test]
    fn a_dominated_destination_is_the_meet() {
        let grid = Grid::new(&[4, 4]);
        let id = |x, y| grid.index(&[x, y]);
        let parent = merge(&grid, &[id(1, 1), id(3, 3)]);
        assert_eq!(parent[id(3, 3) as usize], id(1, 1));
        assert_eq!(parent[id(1, 1) as usize], 0);
    }
}
