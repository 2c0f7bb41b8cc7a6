//! **VH** (vertical–horizontal): every destination is reached along its dimension-ordered route
//! (dimension 0 to its coordinate, then dimension 1, …), and the routes are merged into one tree.
//!
//! Paper: Harutyunyan & Liu (2003), as reviewed in seed 001 §3.2.1.1 (Figure 3.2.1.1) and
//! seed 000 §2.2.1. Shortest paths by construction.
//!
//! Complexity: O(|T| · n) for a tree of |T| nodes — each route is walked backwards from its
//! destination only until it meets the tree (the paper's O(KD) walks every route in full).
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
        let rank = tree.grid.rank();
        let (mut c, mut to) = (vec![0; rank], vec![0; rank]);
        for &u in dests {
            tree.grid.coords_into(u, &mut to);
            c.copy_from_slice(&to);
            // Walk back along the dimension-ordered route to the first tree node met: the
            // predecessor of a node lowers its highest non-zero coordinate.
            let mut d = rank - 1;
            let mut w = u;
            while !tree.contains(w) {
                while c[d] == 0 {
                    d -= 1;
                }
                c[d] -= 1;
                w -= tree.grid.stride(d);
            }
            // Then forward from there, without a list of the nodes walked: the route raises
            // dimension `d` to `u`'s coordinate, then each dimension after it.
            for d in d..rank {
                let s = tree.grid.stride(d);
                for _ in c[d]..to[d] {
                    tree.attach_up(w + s, w, d);
                    w += s;
                }
            }
        }
    }
}
