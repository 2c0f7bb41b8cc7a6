//! Tree-based multicast for store-and-forward networks: one file per algorithm.
//!
//! Each algorithm is written for a mesh with the source at its origin (the papers' setting) as a
//! [`ZoneAlgorithm`]; [`crate::algo::reduce::lift`] lifts it to tori and to any source. Every tree is
//! pruned of branches that serve no destination before it becomes a [`crate::plan::Plan`].

pub mod dds;
pub mod diag;
pub mod diag_stem;
pub mod dist;
pub mod min;
pub mod pair;
pub mod pair_min;
pub mod rsa;
pub mod vh;

use super::local::{key_order, stably_by};
use super::reduce::{lift, lift_reusing, ZoneAlgorithm};
use super::{Algorithm, Request};
use crate::plan::Plan;

impl<T: ZoneAlgorithm> Algorithm for T {
    fn plan(&self, request: &Request) -> Plan {
        lift(self, request)
    }

    fn plan_reusing(&self, request: &Request, spent: Plan) -> Plan {
        lift_reusing(self, request, spent)
    }
}

/// Destinations in order of distance from the origin, ties by coordinates in dimension order
/// (the order of "sort the destination nodes according to their distance"; the papers leave ties open).
///
/// One stable counting pass per key, the least significant first ([`stably_by`]): the
/// coordinates from the last but one down to the first, then the distance. The last coordinate
/// is the distance less the others, so it breaks no tie. On the small meshes of the Monte-Carlo
/// sections that is a few passes over the destinations with a few counters each, where packing
/// every key and radix-sorting it by bytes cost several times more (docs/PERFORMANCE.md).
fn by_distance(grid: &super::local::Grid, dests: &[u32]) -> Vec<u32> {
    let n = grid.rank();
    let mut coords = vec![0; dests.len() * n];
    for (c, &u) in coords.chunks_exact_mut(n).zip(dests) {
        grid.coords_into(u, c);
    }
    let norm: Vec<u32> = coords
        .chunks_exact(n.max(1))
        .map(|c| c.iter().sum())
        .collect();
    let mut order: Vec<u32> = (0..dests.len() as u32).collect();
    for d in (0..n.saturating_sub(1)).rev() {
        order = stably_by(&order, grid.extent(d), |k| coords[k as usize * n + d]);
    }
    let far = (0..n).map(|d| grid.extent(d) - 1).sum::<u32>() + 1;
    stably_by(&order, far, |k| norm[k as usize])
        .into_iter()
        .map(|k| dests[k as usize])
        .collect()
}

/// `dests` sorted by a key made of their coordinates: `key(coords, out)` appends one key of the
/// same length per destination. Keys are built once, flat, and ordered by
/// [`key_order`]; equal keys keep the given order.
fn sorted_by_coords(
    grid: &super::local::Grid,
    dests: &[u32],
    key: impl Fn(&[u32], &mut Vec<u32>),
) -> Vec<u32> {
    let mut c = vec![0; grid.rank()];
    let mut keys = Vec::new();
    for &u in dests {
        grid.coords_into(u, &mut c);
        key(&c, &mut keys);
    }
    let w = keys.len() / dests.len().max(1);
    key_order(&keys, w)
        .into_iter()
        .map(|k| dests[k as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::reduce::lift;
    use crate::topology::{Kind, Shape};
    use crate::workload::{random_destinations, seeded};
    use proptest::prelude::*;

    proptest! {
        /// The order by distance, ties by the coordinates in dimension order, is that of a
        /// stable sort by (distance, coordinates): grids of one to five dimensions, any
        /// destinations, more or fewer of them than a dimension's extent.
        #[test]
        fn destinations_by_distance_are_sorted_by_distance_then_coordinates(
            ext in proptest::collection::vec(1u32..12, 1..=5),
            picks in proptest::collection::vec(any::<u32>(), 0..60),
        ) {
            let grid = super::super::local::Grid::new(&ext);
            let mut dests: Vec<u32> = picks.iter().map(|&p| p % grid.len() as u32).collect();
            dests.sort_unstable();
            dests.dedup();
            dests.reverse();
            let key = |u: u32| {
                let c = grid.coords(u);
                (c.iter().sum::<u32>(), c)
            };
            let mut want = dests.clone();
            want.sort_by_key(|&u| key(u));
            prop_assert_eq!(by_distance(&grid, &dests), want);
        }

        /// VH's, PAIR's and DIAG-stem's trees, kept as runs of links per row and column
        /// (`LocalTree::route_union_2d`), are those their routes grow connected one by one,
        /// send for send: meshes and tori, every zone around any source. Changing one condition
        /// of the runs or of the listing's reading of them fails it.
        #[test]
        fn unions_are_the_grown_trees(
            dims in (2u32..=17, 2u32..=17),
            torus: bool,
            seed: u64,
            k in 1usize..60,
        ) {
            let kind = if torus { Kind::Torus } else { Kind::Mesh };
            let shape = Shape::new(kind, &[dims.0, dims.1]).unwrap();
            let mut rng = seeded(seed);
            let source = shape.node_at(seed as usize % shape.len()).unwrap();
            let k = k.min(shape.len() - 1);
            let dests = random_destinations(&shape, source, k, &mut rng).unwrap();
            let req = Request::new(shape, source, dests).unwrap();
            let (vh, grown) = (lift(&vh::Vh, &req), lift(&vh::tests::InRequestOrder, &req));
            prop_assert_eq!(vh, grown, "vh on {}", req.shape());
            let (pair, grown) = (lift(&pair::Pair, &req), lift(&pair::tests::Grown, &req));
            prop_assert_eq!(pair, grown, "pair on {}", req.shape());
            let stem = lift(&diag_stem::DiagStem, &req);
            let grown = lift(&diag_stem::tests::Grown, &req);
            prop_assert_eq!(stem, grown, "diag-stem on {}", req.shape());
        }
    }
}
