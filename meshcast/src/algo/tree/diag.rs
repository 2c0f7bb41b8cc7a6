//! **DIAG**: a stem that approximates the diagonal of the multicast zone, then every destination,
//! nearest first, joined to the closest tree node within its own zone `{s ⇔ u}`.
//!
//! Paper: Wang, seed 001 §3.2.1 — preparation Algorithms 3.2.1.1 (2D) and 3.2.1.4 (3D), routing
//! Algorithms 3.2.1.2 and 3.2.1.5, tori by Algorithms 3.2.1.3 and 3.2.1.6, n-D by §3.2.1.7.
//! Shortest paths (Proposition 3.2.1.3).
//!
//! Complexity: O(D·n) for the stem, then per destination a breadth-first search backwards inside
//! its zone that stops at the first layer touching the tree (the paper scans the whole tree: O(KN)).
//!
//! Choices: the stem steps, from the current node, to the neighbour towards the diagonal node `d`
//! (componentwise maximum of the destinations) that is closest to the line `sd`, ties to the lower
//! dimension — exactly the 2D and 3D pseudo-code, and our n-D reading of §3.2.1.7; the stem never
//! steps past `d`. Destinations of equal distance go in coordinate order; equally close tree nodes
//! to the earliest inserted. Priority at a branching node: the stem first (Proposition 3.2.1.6),
//! then lower dimension first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
//! let plan = algo::find("diag").unwrap().route(&req).unwrap();
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.one_port_time), (21, 12)); // seed 001 Example 3.2.1.1
//! ```

use super::by_distance;
use crate::algo::local::{Grid, LocalTree, Reach};
use crate::algo::reduce::ZoneAlgorithm;

/// The DIAG algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Diag;

impl ZoneAlgorithm for Diag {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        grow_stem(tree, dests);
        for u in by_distance(&tree.grid, dests) {
            tree.join(u, Reach::InZone);
        }
    }

    fn stem_first(&self) -> bool {
        true
    }
}

/// Preparation algorithm: the diagonal path from the origin to the diagonal node (also the
/// stem of [`super::diag_stem`]), grown into `tree`. Returns the stem's nodes from the origin
/// on.
pub(super) fn grow_stem(tree: &mut LocalTree, dests: &[u32]) -> Vec<u32> {
    let stem = stem(tree.grid(), dests);
    for step in stem.windows(2) {
        tree.attach(step[1], step[0]);
        tree.mark_stem(step[1]);
    }
    stem
}

/// The diagonal path from the origin to the diagonal node (the componentwise maximum of
/// `dests`): from the origin on, each step to the neighbour closest to the line between them,
/// ties to the lower dimension.
pub(super) fn stem(grid: &Grid, dests: &[u32]) -> Vec<u32> {
    let n = grid.rank();
    let diagonal: Vec<u32> = (0..n)
        .map(|d| dests.iter().map(|&u| grid.coord(u, d)).max().unwrap_or(0))
        .collect();
    let mut at = vec![0u32; n];
    let mut step = vec![0u32; n];
    let mut node = 0;
    let mut stem = vec![node];
    while at != diagonal {
        let dim = (0..n)
            .filter(|&d| at[d] < diagonal[d])
            .min_by_key(|&d| {
                step.copy_from_slice(&at);
                step[d] += 1;
                off_line(&step, &diagonal)
            })
            .expect("not at the diagonal node yet");
        at[dim] += 1;
        node += grid.stride(dim);
        stem.push(node);
    }
    stem
}

/// `|d|²·|p|² − (p·d)²`: the squared distance from `p` to the line through the origin and `d`,
/// times `|d|²` — the same order as the distance itself, in exact integers.
fn off_line(p: &[u32], d: &[u32]) -> u128 {
    let dot = |a: &[u32], b: &[u32]| -> u128 {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| u128::from(x) * u128::from(y))
            .sum()
    };
    dot(d, d) * dot(p, p) - dot(p, d) * dot(p, d)
}
