//! **DDS** (dimensional distance sorted): destinations sorted by their dimensional distance to the
//! source, each joined to the closest tree node within its zone `{s ⇔ u}`; no stem.
//!
//! Paper: Wang, seed 001 §3.2.2 — the n-D comparator (Algorithm 3.2.2.1) and routing
//! (3.2.2.2), the 2D and 3D scans (Algorithms 3.2.2.3 and 3.2.2.5), tori (3.2.2.4, 3.2.2.6).
//! Shortest paths (Proposition 3.2.2.4).
//!
//! The comparator — smaller minimum coordinate first, then the dimension bearing it, then the same
//! with that dimension removed — orders two nodes exactly as their coordinates sorted as
//! `(value, dimension)` pairs compare lexicographically; that list is the sort key here. It
//! reproduces the 2D column/row scan (and the 3D surface scan) order: the test below checks it.
//!
//! Complexity: O(nK log K) to sort, then per destination a breadth-first search backwards inside
//! its zone that stops at the first layer touching the tree (the paper: O(KN)).
//!
//! Choices: equally close tree nodes go to the earliest inserted; priority at a branching node:
//! X before Y before Z … (Proposition 3.2.2.6), increasing direction first.
//!
//! ```
//! use meshcast::{algo, eval::Metrics, algo::Request};
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
//! let plan = algo::find("dds").unwrap().route(&req).unwrap();
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.one_port_time), (17, 13)); // seed 001 §3.2.2.4
//! ```

use super::sorted_by_coords;
use crate::algo::local::{packed_positions, Grid, LocalTree, Packed, Reach};
use crate::algo::reduce::ZoneAlgorithm;
use crate::topology::MAX_DIMS;

/// The DDS algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dds;

impl ZoneAlgorithm for Dds {
    fn grow(&self, tree: &mut LocalTree, dests: &[u32]) {
        for u in sorted(&tree.grid, dests) {
            tree.join(u, Reach::InZone);
        }
    }
}

/// Algorithm 3.2.2.1: the destinations in dimensional-distance order: by their coordinates
/// sorted, each as (value, dimension), compared in turn.
///
/// Each key is packed into one integer above the destination's position — its words, value
/// then dimension, in as many bits as the grid's largest coordinate and its dimensions take —
/// and the integers sorted ([`packed_positions`]); only a key too long for a `u128` (more than
/// 96 bits: a grid of a dozen dimensions or more) is sorted as a slice. Packed straight from
/// the coordinates, without the slices' words and their widths (docs/PERFORMANCE.md), in the
/// same order.
fn sorted(grid: &Grid, dests: &[u32]) -> Vec<u32> {
    let n = grid.rank();
    let tag = usize::BITS - n.saturating_sub(1).leading_zeros();
    let top = (0..n).map(|d| grid.extent(d) - 1).max().unwrap_or(0);
    let word = u32::BITS - top.leading_zeros() + tag;
    match word * n as u32 {
        0..=32 => packed::<u64>(grid, dests, tag, word),
        33..=96 => packed::<u128>(grid, dests, tag, word),
        _ => by_slices(grid, dests, tag),
    }
}

/// [`sorted`] with the keys as slices of words, `tag` bits of each for the dimension.
fn by_slices(grid: &Grid, dests: &[u32], tag: u32) -> Vec<u32> {
    sorted_by_coords(grid, dests, |c, key| {
        let start = key.len();
        key.extend(c.iter().enumerate().map(|(d, &x)| x << tag | d as u32));
        key[start..].sort_unstable();
    })
}

/// [`sorted`] with each key, `word` bits per (value, dimension) pair and `tag` of them for the
/// dimension, packed into a `P`.
fn packed<P: Packed>(grid: &Grid, dests: &[u32], tag: u32, word: u32) -> Vec<u32> {
    let n = grid.rank();
    let mut c = [0; MAX_DIMS];
    let c = &mut c[..n];
    let keys = dests.iter().enumerate().map(|(k, &u)| {
        grid.coords_into(u, c);
        for (d, x) in c.iter_mut().enumerate() {
            *x = *x << tag | d as u32;
        }
        c.sort_unstable();
        let key = c
            .iter()
            .fold(P::default(), |key, &w| key << word | P::from(w));
        key << 32 | P::from(k as u32)
    });
    packed_positions(keys.collect(), word * n as u32)
        .into_iter()
        .map(|k| dests[k as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The 2D scan of Algorithm 3.2.2.3: column x = d from (d, d) up, then row y = d from (d, d)
    /// right, for d = 0, 1, …
    fn scan_2d(grid: &Grid, dests: &[u32]) -> Vec<u32> {
        let (m, n) = (
            grid.coords(grid.len() as u32 - 1)[0] + 1,
            grid.coords(grid.len() as u32 - 1)[1] + 1,
        );
        let mut out = Vec::new();
        for d in 0..m.min(n) {
            let column = (d..n).map(|y| grid.index(&[d, y]));
            let row = (d..m).map(|x| grid.index(&[x, d]));
            for i in column.chain(row) {
                if dests.contains(&i) && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
        out
    }

    proptest! {
        /// Packed into a `u64` or a `u128`, or kept as slices, the keys give the order of a
        /// stable sort by the coordinates sorted as (value, dimension) pairs: grids of one to
        /// six dimensions, any destinations.
        #[test]
        fn every_way_of_keying_gives_the_dimensional_distance_order(
            ext in proptest::collection::vec(1u32..9, 1..=6),
            picks in proptest::collection::vec(any::<u32>(), 0..80),
        ) {
            let grid = Grid::new(&ext);
            let mut dests: Vec<u32> = picks.iter().map(|&p| p % grid.len() as u32).collect();
            dests.sort_unstable();
            dests.dedup();
            let key = |u: u32| {
                let mut pairs: Vec<(u32, usize)> =
                    grid.coords(u).into_iter().enumerate().map(|(d, x)| (x, d)).collect();
                pairs.sort_unstable();
                pairs
            };
            let mut want = dests.clone();
            want.sort_by_key(|&u| key(u));
            let n = ext.len() as u32;
            let tag = u32::BITS - (n - 1).leading_zeros();
            let word = u32::BITS - 8u32.leading_zeros() + tag;
            prop_assert_eq!(&packed::<u128>(&grid, &dests, tag, word), &want);
            prop_assert_eq!(&by_slices(&grid, &dests, tag), &want);
            prop_assert_eq!(&sorted(&grid, &dests), &want);
            if word * n <= 32 {
                prop_assert_eq!(&packed::<u64>(&grid, &dests, tag, word), &want);
            }
        }
    }

    #[test]
    fn comparator_matches_the_2d_scan() {
        let grid = Grid::new(&[7, 5]);
        let all: Vec<u32> = (1..grid.len() as u32).collect();
        assert_eq!(sorted(&grid, &all), scan_2d(&grid, &all));
    }

    #[test]
    fn example_order_is_the_papers() {
        let grid = Grid::new(&[8, 8]);
        let ids = |cs: &[[u32; 2]]| cs.iter().map(|c| grid.index(c)).collect::<Vec<_>>();
        let dests = ids(&[[4, 6], [6, 6], [0, 2], [4, 0], [3, 0], [7, 4]]);
        let want = ids(&[[0, 2], [3, 0], [4, 0], [4, 6], [7, 4], [6, 6]]);
        assert_eq!(sorted(&grid, &dests), want);
    }
}
