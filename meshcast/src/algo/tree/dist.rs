//! **DIST**: destinations are taken in order of their distance from the source, and each is
//! joined to the tree by a shortest path from the tree node closest to it.
//!
//! Paper: Harutyunyan & Liu (2003), as described in seed 000 §2.2.2 (Example 1: 17 links).
//! Not a shortest-path algorithm: the closest tree node may lie beyond the destination.
//!
//! Complexity: per destination, a breadth-first search outward from it until the first tree
//! node — O(r^n) for a tree r hops away, instead of the paper's O(N) scan; overall well below the
//! paper's O(KDN).
//!
//! Choices: ties in distance go to the smaller coordinates in dimension order; ties between equally
//! close tree nodes to the earliest inserted; the new branch follows dimension-ordered routing.
//! Priority at branching nodes: lower dimension first, increasing direction first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "4,6 6,6 0,2 4,0 3,0 7,4").unwrap();
//! let plan = algo::find("dist").unwrap().route(&req).unwrap();
//! assert_eq!(Metrics::of(&plan, req.shape()).traffic, 17);
//! ```

use super::by_distance;
use crate::algo::local::{LocalTree, Reach};
use crate::algo::reduce::ZoneAlgorithm;

/// The DIST algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dist;

impl ZoneAlgorithm for Dist {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        for u in by_distance(&tree.grid, dests) {
            tree.join(u, Reach::Anywhere);
        }
    }
}
