//! **MST**, the minimal Steiner tree (seed 001 Definition 2.1.7): the fewest links of any tree
//! joining the source and every destination, whatever the distances inside it.
//!
//! The Dreyfus–Wagner dynamic program over destination subsets, rooted at the source: `c(S, v)`,
//! the fewest links of a tree joining `v` to every destination of `S`, is the cheaper of a split
//! `c(A, v) + c(S∖A, v)` and `1 + c(S, w)` for a neighbour `w`. The steps are settled per subset by
//! a breadth-first search seeded with every node's split cost (unit link weights, so a queue merged
//! with the sorted seeds replaces Dijkstra's heap).
//!
//! Cost: O(3ᴷ·N) additions (vectorised over the N nodes) and O(2ᴷ·N·(log N + n)) for the searches;
//! 2ᴷ·N two-byte cells. Limits: [`super::MAX_DESTINATIONS`] and [`super::MAX_TABLE_CELLS`].

use std::collections::VecDeque;

use super::{check_size, optimal_tree, Adjacency, SubsetTable, INF};
use crate::algo::Request;
use crate::error::InputError;
use crate::plan::Plan;

/// A minimum Steiner tree for `req` as a tree plan from the source, its sends in the optimal
/// port order. Destinations need not be at their distance.
pub fn mst(req: &Request) -> Result<Plan, InputError> {
    let shape = req.shape();
    let n = shape.len();
    check_size(req, n)?;
    let links = Adjacency::new(shape, |_, _| true);
    let terminals = req.destinations();
    let mut table = SubsetTable::new(n, terminals);
    let mut search = Search::default();
    for set in 1..1usize << terminals.len() {
        table.split(set);
        search.relax(&mut table.cost[set * n..(set + 1) * n], &links);
    }
    Ok(optimal_tree(&table, req, &links))
}

/// Scratch space of the per-subset search, kept across subsets.
#[derive(Default)]
struct Search {
    seeds: Vec<(u16, u32)>,
    queue: VecDeque<(u16, u32)>,
}

impl Search {
    /// `row[v] = min over w of row[w] + d(w, v)`: a breadth-first search from every finite cell.
    /// Seeds are taken in cost order and merged with the queue, whose costs also never decrease,
    /// so every node is settled at its least cost.
    fn relax(&mut self, row: &mut [u16], links: &Adjacency) {
        self.seeds.clear();
        self.seeds.extend(
            row.iter()
                .enumerate()
                .filter(|(_, &c)| c < INF)
                .map(|(v, &c)| (c, v as u32)),
        );
        self.seeds.sort_unstable();
        self.queue.clear();
        let mut next_seed = 0;
        loop {
            let from_seeds = match (self.seeds.get(next_seed), self.queue.front()) {
                (Some(s), Some(q)) => s.0 <= q.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (cost, v) = if from_seeds {
                next_seed += 1;
                self.seeds[next_seed - 1]
            } else {
                self.queue.pop_front().expect("checked non-empty")
            };
            if cost > row[v as usize] {
                continue;
            }
            for &w in links.of(v as usize) {
                if cost + 1 < row[w as usize] {
                    row[w as usize] = cost + 1;
                    self.queue.push_back((cost + 1, w));
                }
            }
        }
    }
}
