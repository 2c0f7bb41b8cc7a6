//! **OMT**, the optimal multicast tree (seed 001 Definition 2.1.8): among the trees that reach
//! every destination at its graph distance from the source, one with the fewest links.
//!
//! Such a tree uses only *shortest-path links* — links `v → w` with `d(s, w) = d(s, v) + 1` —
//! and every tree of those links that reaches the destinations from the source is one. The OMT
//! is therefore a minimum Steiner arborescence of that DAG, found by the Dreyfus–Wagner dynamic
//! program over destination subsets: `c(S, v)`, the fewest links joining `v` to every destination
//! of `S` along shortest-path links, is the cheaper of a split `c(A, v) + c(S∖A, v)` and a step
//! `1 + c(S, w)` to a child `w`. Children lie one hop farther from the source, so one pass over
//! the nodes, farthest first, settles the steps of a subset. Meshes and tori alike: the distance
//! is the shape's.
//!
//! Cost: O(3ᴷ·N) additions (vectorised over the N nodes) and O(2ᴷ·N·n) steps; 2ᴷ·N two-byte cells.
//! Limits: [`super::MAX_DESTINATIONS`] and [`super::MAX_TABLE_CELLS`].

use super::{check_size, optimal_tree, Adjacency, SubsetTable};
use crate::algo::Request;
use crate::error::InputError;
use crate::plan::Plan;

/// A minimum-traffic shortest-path tree for `req`, its sends in the optimal port order.
pub fn omt(req: &Request) -> Result<Plan, InputError> {
    let shape = req.shape();
    let n = shape.len();
    check_size(req, n)?;
    let dist: Vec<u32> = shape
        .nodes()
        .map(|v| shape.distance(req.source(), v))
        .collect();
    let children = Adjacency::new(shape, |v, w| dist[w.index()] == dist[v.index()] + 1);
    let mut farthest_first: Vec<u32> = (0..n as u32).collect();
    farthest_first.sort_unstable_by_key(|&v| std::cmp::Reverse(dist[v as usize]));
    let terminals = req.destinations();
    let mut table = SubsetTable::new(n, terminals);
    for set in 1..1usize << terminals.len() {
        table.split(set);
        let row = &mut table.cost[set * n..(set + 1) * n];
        for &v in &farthest_first {
            let best = children
                .of(v as usize)
                .iter()
                .map(|&w| row[w as usize] + 1)
                .fold(row[v as usize], u16::min);
            row[v as usize] = best;
        }
    }
    Ok(optimal_tree(&table, req, &children))
}
