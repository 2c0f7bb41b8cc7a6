//! **DDS** (dimensional distance sorted): destinations sorted by their dimensional distance to the
//! source, each joined to the closest tree node within its zone `{s ⇔ u}`; no stem.
//!
//! Paper: Wang, seed 001 §3.2.2 — the n-D comparator (Algorithm 3.2.2.1) and routing
//! (3.2.2.2), the 2D and 3D scans (Algorithms 3.2.2.3 and 3.2.2.5), tori (3.2.2.4, 3.2.2.6).
//! Shortest paths (Proposition 3.2.2.4).
//!
//! The comparator — smaller minimum coordinate first, then the dimension bearing it, then the same
//! with that dimension removed — orders two nodes exactly as their coordinates sorted as
//! `(value, dimension)` pairs compare lexicographically; that list is the sort key here. It
//! reproduces the 2D column/row scan (and the 3D surface scan) order: the test below checks it.
//!
//! Complexity: O(nK log K) to sort, then per destination a breadth-first search backwards inside
//! its zone that stops at the first layer touching the tree (the paper: O(KN)).
//!
//! Choices: equally close tree nodes go to the earliest inserted; priority at a branching node:
//! X before Y before Z … (Proposition 3.2.2.6), increasing direction first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
//! let plan = algo::find("dds").unwrap().route(&req).unwrap();
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.one_port_time), (17, 13)); // seed 001 §3.2.2.4
//! ```

use super::sorted_by_coords;
use crate::algo::local::{Grid, LocalTree, Reach};
use crate::algo::reduce::ZoneAlgorithm;

/// The DDS algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dds;

impl ZoneAlgorithm for Dds {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        for u in sorted(&tree.grid, dests) {
            tree.join(u, Reach::InZone);
        }
    }
}

/// Algorithm 3.2.2.1: the destinations in dimensional-distance order.
fn sorted(grid: &Grid, dests: &[u32]) -> Vec<u32> {
    // Each (value, dimension) pair packed as value·32 + dimension: coordinates stay below 2²⁶
    // and dimensions below 32, so the packed words compare as the pairs do.
    sorted_by_coords(grid, dests, |c, key| {
        let start = key.len();
        key.extend(c.iter().enumerate().map(|(d, &x)| x << 5 | d as u32));
        key[start..].sort_unstable();
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 2D scan of Algorithm 3.2.2.3: column x = d from (d, d) up, then row y = d from (d, d)
    /// right, for d = 0, 1, …
    fn scan_2d(grid: &Grid, dests: &[u32]) -> Vec<u32> {
        let (m, n) = (
            grid.coords(grid.len() as u32 - 1)[0] + 1,
            grid.coords(grid.len() as u32 - 1)[1] + 1,
        );
        let mut out = Vec::new();
        for d in 0..m.min(n) {
            let column = (d..n).map(|y| grid.index(&[d, y]));
            let row = (d..m).map(|x| grid.index(&[x, d]));
            for i in column.chain(row) {
                if dests.contains(&i) && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
        out
    }

    #[test]
    fn comparator_matches_the_2d_scan() {
        let grid = Grid::new(&[7, 5]);
        let all: Vec<u32> = (1..grid.len() as u32).collect();
        assert_eq!(sorted(&grid, &all), scan_2d(&grid, &all));
    }

    #[test]
    fn example_order_is_the_papers() {
        let grid = Grid::new(&[8, 8]);
        let ids = |cs: &[[u32; 2]]| cs.iter().map(|c| grid.index(c)).collect::<Vec<_>>();
        let dests = ids(&[[4, 6], [6, 6], [0, 2], [4, 0], [3, 0], [7, 4]]);
        let want = ids(&[[0, 2], [3, 0], [4, 0], [4, 6], [7, 4], [6, 6]]);
        assert_eq!(sorted(&grid, &dests), want);
    }
}
