//! **diag-stem**: DIAG's diagonal stem, then every destination, nearest first, joined to the
//! closest node *of the stem* within its zone `{s ⇔ u}` — not to the closest node of the whole
//! tree, as [`super::diag`] does.
//!
//! A reading of seed 000's DIAG (§2.2.1: "the major routing path … advances along both
//! dimensions alternatively in small steps until both dimensions reach their maximum
//! coordinates"), which describes the stem and says nothing of how destinations join it; seed
//! 000's Tables 2 and 5 carry DIAG traffic well above seed 001's DIAG (docs/REPRODUCTION.md,
//! reading 3 of issue 17). Faithful DIAG stays `diag`; this variant sits beside it.
//!
//! The stem is monotone from the origin, so its nodes in the zone of `u` (every coordinate at most
//! `u`'s) are a prefix of it, and the last of them is the closest to `u`. From there `u` is
//! reached by the dimension-ordered route; where that route meets an earlier branch, the links
//! are shared (the result stays a tree, and every path a shortest one). Priority at a branching
//! node: the stem first, as DIAG.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
//! let stem = algo::find("diag-stem").unwrap().route(&req).unwrap();
//! let diag = algo::find("diag").unwrap().route(&req).unwrap();
//! assert!(stem.traffic() >= diag.traffic());
//! ```

use super::by_distance;
use super::diag::{grow_stem, stem};
use crate::algo::local::{Grid, LocalTree};
use crate::algo::reduce::ZoneAlgorithm;

/// DIAG with every destination joined to the stem.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiagStem;

impl ZoneAlgorithm for DiagStem {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        // In 2-D the tree `connect` grows from the stem and these routes is their union, one
        // run of links per row and per column, so it is kept as those runs. Unlike VH's and
        // PAIR's, this is checked rather than shown: a route starts at the last stem node in
        // its destination's zone, so its run along a row starts on the stem and no later
        // route's run up a column can start below it while passing it; the proptest
        // `unions_are_the_grown_trees` and the bench digests compare the two on every shape.
        if tree.grid.rank() == 2 {
            let stem = stem(&tree.grid, dests);
            let (routes, used) = routes(&tree.grid, &stem, dests);
            // The stem past the last node a route starts at serves no destination: pruning
            // would cut it ("cut the tail part of DP").
            tree.route_union_2d_with_stem(routes, &stem[..=used]);
        } else {
            grow(tree, dests);
        }
    }

    fn stem_first(&self) -> bool {
        true
    }
}

/// DIAG-stem as its description reads: the stem grown, then every route connected in turn.
fn grow(tree: &mut LocalTree, dests: &[u32]) {
    let stem = grow_stem(tree, dests);
    for (from, to) in routes(&tree.grid, &stem, dests).0 {
        tree.connect(from, to);
    }
}

/// The routes DIAG-stem connects after its `stem`, in order: to every destination, nearest
/// first, from the last stem node in its zone; and the index on the stem of the last node a
/// route starts at.
fn routes(grid: &Grid, stem: &[u32], dests: &[u32]) -> (Vec<(u32, u32)>, usize) {
    let n = grid.rank();
    let mut coords = vec![0; stem.len() * n];
    for (c, &v) in coords.chunks_exact_mut(n).zip(stem) {
        grid.coords_into(v, c);
    }
    let mut at = vec![0; n];
    let mut used = 0;
    let routes = by_distance(grid, dests)
        .into_iter()
        .map(|u| {
            grid.coords_into(u, &mut at);
            let from = last_in_zone(&coords, &at);
            used = used.max(from);
            (stem[from], u)
        })
        .collect();
    (routes, used)
}

/// The index of the last stem node in the zone of the node at `at` (every coordinate at most
/// `at`'s), the stem's coordinates flat in `coords`: the stem is monotone, so the nodes in the
/// zone are a prefix of it, found by bisection. The origin, first, is in every zone.
fn last_in_zone(coords: &[u32], at: &[u32]) -> usize {
    let n = at.len();
    let in_zone = |i: usize| {
        coords[i * n..(i + 1) * n]
            .iter()
            .zip(at)
            .all(|(c, a)| c <= a)
    };
    let (mut lo, mut hi) = (1, coords.len() / n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if in_zone(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo - 1
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// DIAG-stem grown route by route in every rank (the reference of
    /// `unions_are_the_grown_trees`).
    pub(in crate::algo::tree) struct Grown;

    impl ZoneAlgorithm for Grown {
        fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
            grow(tree, dests);
        }

        fn stem_first(&self) -> bool {
            true
        }
    }
}
