//! Tree-based multicast for store-and-forward networks: one file per algorithm.
//!
//! Each algorithm is written for a mesh with the source at its origin (the papers' setting) as a
//! `ZoneAlgorithm`; the crate-private `algo::reduce` lifts it to tori and to any source. Every tree is
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

use super::reduce::{lift, ZoneAlgorithm};
use super::{Algorithm, Request};
use crate::plan::Plan;

impl<T: ZoneAlgorithm> Algorithm for T {
    fn plan(&self, request: &Request) -> Plan {
        lift(
            self,
            request.shape(),
            request.source(),
            request.destinations(),
        )
    }
}

/// Destinations in order of distance from the origin, ties by coordinates in dimension order
/// (the order of "sort the destination nodes according to their distance"; the papers leave ties open).
fn by_distance(grid: &super::local::Grid, dests: &[u32]) -> Vec<u32> {
    let mut order = dests.to_vec();
    order.sort_by_cached_key(|&u| (grid.norm(u), grid.coords(u)));
    order
}
