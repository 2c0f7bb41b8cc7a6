//! **VH** (vertical–horizontal): every destination is reached along its dimension-ordered route
//! (dimension 0 to its coordinate, then dimension 1, …), and the routes are merged into one tree.
//!
//! Paper: Harutyunyan & Liu (2003), as reviewed in seed 001 §3.2.1.1 (Figure 3.2.1.1) and
//! seed 000 §2.2.1. Shortest paths by construction.
//!
//! Complexity: O(|T| + K · n) for a tree of |T| nodes — each route is `LocalTree::connect`'s
//! from the origin, walked backwards from its destination only until it meets the tree (the
//! paper's O(KD) walks every route in full).
//!
//! Choices: n-D by dimension order. Transmission priority at a branching node: lower dimension
//! first — seed 001 reports 13 hops for Example 1, which is what this order gives (seed 000
//! reports 12, which is what the optimal order gives; see docs/REPRODUCTION.md).
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "4,6 6,6 0,2 4,0 3,0 7,4").unwrap();
//! let plan = algo::find("vh").unwrap().route(&req).unwrap();
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.one_port_time), (25, 13));
//! ```

use crate::algo::local::LocalTree;
use crate::algo::reduce::ZoneAlgorithm;

/// The VH algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vh;

impl ZoneAlgorithm for Vh {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        // Each destination's route from the origin is the dimension-ordered one, and `connect`
        // walks it back only to the first tree node met.
        for &u in dests {
            tree.connect(0, u);
        }
    }
}
