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
//! Complexity: each point keeps its best partner; a merge rescans the points whose partner
//! vanished — O(K²·n) in practice, O(K³·n) at worst (the paper's plane sweep reaches
//! O(K log K) in 2D; we keep one n-D method).
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

/// The priority of merging local points `a` and `b`: their meet's distance from the origin first,
/// then the smaller ids (a fixed order, whatever order the destinations came in).
fn key(grid: &Grid, a: u32, b: u32) -> (u32, std::cmp::Reverse<(u32, u32)>) {
    let m = meet(grid, a, b);
    (grid.norm(m), std::cmp::Reverse((a.min(b), a.max(b))))
}

/// The componentwise minimum of two local points.
fn meet(grid: &Grid, a: u32, b: u32) -> u32 {
    (0..grid.rank())
        .map(|d| grid.coord(a, d).min(grid.coord(b, d)) * grid.stride(d))
        .sum()
}

/// Run the merging loop on the origin and `dests`; returns, per local id, the point it was merged
/// into (its parent in the arborescence), or `NONE`.
fn merge(grid: &Grid, dests: &[u32]) -> Vec<u32> {
    let mut parent = vec![NONE; grid.len()];
    let mut points: Vec<u32> = dests.iter().copied().chain([0]).collect();
    points.sort_unstable();
    points.dedup();
    let mut active = vec![false; grid.len()];
    for &p in &points {
        active[p as usize] = true;
    }
    // best[i]: the partner of points[i] with the highest key, over the current points.
    let mut best: Vec<u32> = vec![NONE; points.len()];
    for i in 0..points.len() {
        best[i] = best_partner(grid, &points, points[i]);
    }
    while points.len() > 1 {
        let i = (0..points.len())
            .max_by_key(|&i| key(grid, points[i], best[i]))
            .expect("at least two points");
        let (p, q) = (points[i], best[i]);
        let m = meet(grid, p, q);
        for x in [p, q] {
            active[x as usize] = false;
            if x != m {
                parent[x as usize] = m;
            }
        }
        let mut keep = Vec::with_capacity(points.len());
        let mut keep_best = Vec::with_capacity(points.len());
        for (j, &x) in points.iter().enumerate() {
            if x != p && x != q {
                keep.push(x);
                keep_best.push(best[j]);
            }
        }
        points = keep;
        best = keep_best;
        if !active[m as usize] {
            active[m as usize] = true;
            points.push(m);
            best.push(NONE);
        }
        refresh(grid, &points, &mut best, m, [p, q]);
    }
    parent
}

/// After `gone` left and `m` (now in `points`) arrived: rescan the points whose partner left,
/// offer `m` to every other point, and find `m`'s own partner.
fn refresh(grid: &Grid, points: &[u32], best: &mut [u32], m: u32, gone: [u32; 2]) {
    for j in 0..points.len() {
        let x = points[j];
        if x == m || best[j] == NONE || gone.contains(&best[j]) {
            best[j] = best_partner(grid, points, x);
        } else if key(grid, x, m) > key(grid, x, best[j]) {
            best[j] = m;
        }
    }
}

/// The point of `points` other than `x` that `x` merges with first (`NONE` if `x` is alone).
fn best_partner(grid: &Grid, points: &[u32], x: u32) -> u32 {
    points
        .iter()
        .copied()
        .filter(|&y| y != x)
        .max_by_key(|&y| key(grid, x, y))
        .unwrap_or(NONE)
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
