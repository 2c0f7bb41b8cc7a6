//! **MIN** (Harutyunyan): "constructs the multicast tree by alternatively choosing the node with
//! the smallest coordinate in each dimension from the remaining destination nodes and connecting
//! it to the tree through a shortest path possible" (seed 001 §3.2.2.1; compared in §3.2.3).
//!
//! Paper: Harutyunyan's MIN as reviewed in seed 001 (the original is not among the seeds).
//! Registered as `min`; Malani's different MIN of seed 000 is `pair-min`. Not a shortest-path
//! algorithm (seed 001 §3.2.3: its worst-case time is its traffic).
//!
//! Complexity: O(nK log K) to order the destinations per dimension, then per destination a
//! breadth-first search to the closest tree node (the paper states O(KDN)).
//!
//! Choices: n-D by cycling through dimensions 0, 1, …, n−1; ties in a coordinate go to the smaller
//! coordinates in dimension order; ties between equally close tree nodes to the earliest inserted;
//! new branches follow dimension-ordered routing; priority: lower dimension first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:10x10", "0,0", "9,0 0,9 5,5").unwrap();
//! let plan = algo::find("min").unwrap().route(&req).unwrap();
//! assert_eq!(Metrics::of(&plan, req.shape()).traffic, 9 + 9 + 5);
//! ```

use crate::algo::local::{LocalTree, Picker, Reach};
use crate::algo::reduce::ZoneAlgorithm;

/// Harutyunyan's MIN algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Min;

impl ZoneAlgorithm for Min {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        let mut picker = Picker::new(&tree.grid, dests);
        for dim in (0..tree.grid.rank()).cycle() {
            let Some(u) = picker.min_in(dim) else { break };
            picker.take(u);
            tree.join(u, Reach::Anywhere);
        }
    }
}
