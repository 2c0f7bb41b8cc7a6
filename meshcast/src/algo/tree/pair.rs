//! **PAIR**: repeatedly pair the remaining destination with the least x (A) and the one with the
//! least y (B); their intermediate node `(x_A, y_B)` is joined to the tree, then A and B to it.
//!
//! Paper: Malani, seed 000 §3.2 — Algorithm 1 (2D mesh) and Algorithm 2 (2D torus, four
//! sub-meshes). 2D only: the thesis defines the pairing for x and y alone. Shortest paths
//! (Proposition 2).
//!
//! Complexity: O(K log K) to order the destinations by x and by y, then O(D) per pair.
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
        let mut picker = Picker::new(&tree.grid, dests);
        let mut last = 0;
        while let Some((a, b, meet)) = next_pair(tree, &mut picker) {
            tree.connect(last, meet);
            tree.connect(meet, a);
            tree.connect(meet, b);
            last = meet;
        }
    }
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
