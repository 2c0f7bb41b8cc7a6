//! **PAIR**: repeatedly pair the remaining destination with the least x (A) and the one with the
//! least y (B); their intermediate node `(x_A, y_B)` is joined to the tree, then A and B to it.
//!
//! Paper: Malani, seed 000 §3.2 — Algorithm 1 (2D mesh) and Algorithm 2 (2D torus, four
//! sub-meshes). 2D only: the thesis defines the pairing for x and y alone. Shortest paths
//! (Proposition 2).
//!
//! Complexity: O(K log K) to order the destinations by x and by y, then O(1) per pair: the
//! routes' union is kept as one run of links per row and per column (O(width + height)), from
//! which the plan's listing reads each node's children (`LocalTree::route_union_2d`).
//!
//! Choices, settled by the worked examples (docs/REPRODUCTION.md): each intermediate node is
//! reached from the previous one ("with new source node located at last intermediate node",
//! §3.2.1; the first from the source), and all connections follow dimension-ordered XY routing
//! (Proposition 3), sharing links where a route meets the tree. A node minimal in both x and y
//! is paired with itself. Ties: least x, then least y (for A); least y, then least x (for B).
//! Priority at a branching node: X before Y, increasing direction first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! // seed 000 §3.3.1, the "bad scenario of PAIR": 24 links.
//! let req = Request::parse("mesh:10x9", "0,0", "9,3 3,1 2,8 4,8").unwrap();
//! let plan = algo::find("pair").unwrap().route(&req).unwrap();
//! assert_eq!(Metrics::of(&plan, req.shape()).traffic, 24);
//! ```

use crate::algo::local::{LocalTree, Picker};
use crate::algo::reduce::ZoneAlgorithm;

/// The PAIR algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pair;

impl ZoneAlgorithm for Pair {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        // The tree `connect` would grow from these routes one by one is their union: the
        // intermediate nodes never go back in x or y (A's x and B's y are minima of what
        // remains), so every run along a row starts at an intermediate node on that row and
        // every run up a column at one on that column or where the route to it turns, and no
        // route crosses the middle of another's run (`unions_are_the_grown_trees`).
        let routes = routes(tree, dests);
        tree.route_union_2d(routes);
    }
}

/// The XY routes PAIR connects, in order (Algorithm 1): from the last intermediate node (the
/// origin, first) to the next, and from it to A and to B.
fn routes(tree: &LocalTree, dests: &[u32]) -> Vec<(u32, u32)> {
    let mut picker = Picker::new(&tree.grid, dests);
    let mut routes = Vec::with_capacity(dests.len() * 3 / 2 + 1);
    let mut last = 0;
    while let Some((a, b, meet)) = next_pair(tree, &mut picker) {
        routes.extend([(last, meet), (meet, a), (meet, b)]);
        last = meet;
    }
    routes
}

/// Step 1: A (least x), B (least y) and their intermediate node `(x_A, y_B)`, taking both.
pub(super) fn next_pair(tree: &LocalTree, picker: &mut Picker) -> Option<(u32, u32, u32)> {
    let a = picker.min_in(0)?;
    picker.take(a);
    let b = picker
        .min_in(1)
        .filter(|&b| tree.grid.coord(b, 1) < tree.grid.coord(a, 1));
    let b = b.unwrap_or(a);
    picker.take(b);
    let meet = tree
        .grid
        .index(&[tree.grid.coord(a, 0), tree.grid.coord(b, 1)]);
    Some((a, b, meet))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// PAIR's routes connected one by one, as Algorithm 1 states it (the reference of
    /// `unions_are_the_grown_trees`).
    pub(in crate::algo::tree) struct Grown;

    impl ZoneAlgorithm for Grown {
        fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
            for (from, to) in routes(tree, dests) {
                tree.connect(from, to);
            }
        }
    }
}
