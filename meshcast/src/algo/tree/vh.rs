//! **VH** (vertical–horizontal): every destination is reached along its dimension-ordered route
//! (dimension 0 to its coordinate, then dimension 1, …), and the routes are merged into one tree.
//!
//! Paper: Harutyunyan & Liu (2003), as reviewed in seed 001 §3.2.1.1 (Figure 3.2.1.1) and
//! seed 000 §2.2.1. Shortest paths by construction.
//!
//! Complexity: in 2-D, O(K + k₀) in a zone k₀ nodes wide, and the plan's listing O(|T|) for a
//! tree of |T| nodes: the union is the origin's row out to the farthest destination column and
//! each column up to its highest destination, kept as those two numbers per column, from which
//! the listing reads every node's children (`LocalTree::route_union_2d`; the paper walks each
//! route in full, O(KD)). In n-D, O(|T| + K · n + K log K): each route is
//! `LocalTree::connect`'s from the origin, walked backwards from its destination only until it
//! meets the tree, the destinations sorted so that these walks follow one another through the
//! mesh.
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

/// The grid size from which [`Vh`] adds the routes line by line: 2¹⁸ nodes, whose insertion
/// numbers alone (1 MB) fill the L2 cache of the machine measured (docs/PERFORMANCE.md).
const LINE_ORDER_FROM: usize = 1 << 18;

/// The VH algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vh;

impl ZoneAlgorithm for Vh {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        // The tree is the union of the destinations' dimension-ordered routes from the
        // origin, so the order they are added in changes no link. In 2-D that union is
        // made at once (the same sends: `unions_are_the_grown_trees`). Otherwise
        // `connect` walks each route back only to the first tree node met; on a grid
        // whose arrays outgrow the caches the routes go line by line along the last
        // dimension, where each route ends, and up each line: a route's walk then ends
        // where the one before it began, and consecutive walks write neighbouring
        // places of the forest's arrays (measured in 2-D, before the union was made at
        // once: 8–10% less time than in the request's order at 1024², 40% at 8192²; at
        // 256² the sort cost more than it saved).
        let grid = tree.grid();
        if grid.rank() == 2 {
            tree.route_union_2d(dests.iter().map(|&u| (0, u)));
            return;
        }
        if grid.len() < LINE_ORDER_FROM {
            for &u in dests {
                tree.connect(0, u);
            }
            return;
        }
        let last = grid.rank() - 1;
        let (stride, extent) = (grid.stride(last), grid.extent(last));
        let mut order: Vec<u32> = dests
            .iter()
            .map(|&u| u % stride * extent + u / stride)
            .collect();
        order.sort_unstable();
        for line_major in order {
            tree.connect(0, line_major % extent * stride + line_major / extent);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::algo::reduce::lift;
    use crate::algo::Request;
    use crate::topology::Shape;
    use crate::workload::{random_destinations, seeded};

    /// The routes added in the request's order, as the papers add them (the reference of
    /// `unions_are_the_grown_trees`).
    pub(in crate::algo::tree) struct InRequestOrder;

    impl ZoneAlgorithm for InRequestOrder {
        fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
            for &u in dests {
                tree.connect(0, u);
            }
        }
    }

    /// Large zones, as the routes added one by one would give them: in 2-D, the union made
    /// at once — one zone of a mesh with the source in its corner, four with the source near
    /// it, all four of a 1024² torus; elsewhere the line order from 2¹⁸ nodes on — a 3-D
    /// mesh's one zone, the largest of another's but not the others, a 1-D mesh's two.
    #[test]
    fn the_line_order_changes_no_send() {
        let mut rng = seeded(14);
        for (shape, source) in [
            ("mesh:1024x600", [0, 0, 0]),
            ("mesh:1024x600", [100, 50, 0]),
            ("torus:1024x1024", [700, 300, 0]),
            ("mesh:64x64x128", [0, 0, 0]),
            ("mesh:64x64x100", [10, 5, 3]),
            ("mesh:600000", [300000, 0, 0]),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let source = shape.node(&source[..shape.rank()]).unwrap();
            let dests = random_destinations(&shape, source, 300, &mut rng).unwrap();
            let req = Request::new(shape.clone(), source, dests).unwrap();
            let (vh, plain) = (lift(&Vh, &req), lift(&InRequestOrder, &req));
            assert_eq!(vh, plain, "{shape} from {source:?}");
        }
    }
}
