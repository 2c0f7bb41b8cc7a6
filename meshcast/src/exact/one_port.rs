//! The least store-and-forward **one-port time** over all shortest-path trees — small instances only.
//!
//! A shortest-path tree is fixed by choosing, for every node that leads to a destination along
//! shortest-path links, one parent among its neighbours one hop nearer the source (every such
//! choice is a tree; pruned, it reaches each destination at its distance, and every shortest-path
//! tree arises so). For one tree the best port order is known: each node serves its children
//! longest remaining time first ([`crate::schedule::optimal`]), so a node's time is
//! `max(i + 1 + cᵢ)` over its children's times `c₀ ≥ c₁ ≥ …`. This solver enumerates every choice
//! and keeps the fastest tree, ties to the fewest links, then the first enumerated.
//!
//! The count of trees is the product of the parent counts and grows exponentially with the area
//! the destinations span: requests with more than [`MAX_TREES`] trees are refused.

use super::{tree_plan, Adjacency};
use crate::algo::Request;
use crate::error::InputError;
use crate::plan::Plan;
use crate::topology::Node;

/// The most shortest-path trees [`one_port`] enumerates.
pub const MAX_TREES: u64 = 1 << 20;

/// A shortest-path tree for `req` with the least one-port time, its sends in the optimal order.
pub fn one_port(req: &Request) -> Result<Plan, InputError> {
    let shape = req.shape();
    let source = req.source();
    let dist: Vec<u32> = shape.nodes().map(|v| shape.distance(source, v)).collect();
    let parents = Adjacency::new(shape, |v, w| dist[w.index()] + 1 == dist[v.index()]);
    let mut is_dest = vec![false; shape.len()];
    for d in req.destinations() {
        is_dest[d.index()] = true;
    }
    // The nodes that lead to a destination along shortest-path links, farthest first.
    let mut order: Vec<u32> = (0..shape.len() as u32).collect();
    order.sort_unstable_by_key(|&v| std::cmp::Reverse(dist[v as usize]));
    let mut leads = is_dest.clone();
    for &v in &order {
        if leads[v as usize] {
            for &p in parents.of(v as usize) {
                leads[p as usize] = true;
            }
        }
    }
    let nodes: Vec<u32> = order
        .into_iter()
        .filter(|&v| leads[v as usize] && Node(v) != source)
        .collect();
    let trees = nodes.iter().try_fold(1u64, |acc, &v| {
        acc.checked_mul(parents.of(v as usize).len() as u64)
            .filter(|&t| t <= MAX_TREES)
    });
    if trees.is_none() {
        return Err(InputError::Setting {
            name: "destinations",
            value: format!("{} spanning more than 2^20 shortest-path trees", req.destinations().len()),
            allowed: "at most 2^20 shortest-path trees for the exact one-port time (small instances only)",
        });
    }
    let mut choice = vec![0usize; nodes.len()];
    let mut timer = Timer::new(shape.len());
    let mut best: Option<((u32, u32), Vec<usize>)> = None;
    loop {
        let score = timer.score(&nodes, &choice, &parents, &is_dest, source);
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, choice.clone()));
        }
        // Next choice, odometer style.
        let Some(i) =
            (0..nodes.len()).find(|&i| choice[i] + 1 < parents.of(nodes[i] as usize).len())
        else {
            break;
        };
        choice[i] += 1;
        choice[..i].fill(0);
    }
    let (_, choice) = best.expect("at least one tree");
    let edges: Vec<(Node, Node)> = nodes
        .iter()
        .zip(&choice)
        .map(|(&v, &c)| (Node(parents.of(v as usize)[c]), Node(v)))
        .collect();
    Ok(tree_plan(shape, req, &edges))
}

/// Scratch space to time one tree.
struct Timer {
    /// Times of the served children of each node, collected before the node is timed.
    below: Vec<Vec<u32>>,
    /// Links of the pruned subtree below each node, or `None` if it serves no destination.
    links: Vec<Option<u32>>,
}

impl Timer {
    fn new(n: usize) -> Timer {
        Timer {
            below: vec![Vec::new(); n],
            links: vec![None; n],
        }
    }

    /// `(one-port time, links)` of the pruned tree where `nodes[i]` hangs below its
    /// `choice[i]`-th parent; `nodes` farthest first, so children are timed before parents.
    fn score(
        &mut self,
        nodes: &[u32],
        choice: &[usize],
        parents: &Adjacency,
        is_dest: &[bool],
        source: Node,
    ) -> (u32, u32) {
        for &v in nodes.iter().chain([&source.0]) {
            self.below[v as usize].clear();
            self.links[v as usize] = None;
        }
        for (&v, &c) in nodes.iter().zip(choice) {
            let (time, links) = self.settle(v, is_dest[v as usize]);
            if let Some(links) = links {
                let p = parents.of(v as usize)[c] as usize;
                self.below[p].push(time);
                self.links[p] = Some(self.links[p].unwrap_or(0) + links + 1);
            }
        }
        let (time, links) = self.settle(source.0, false);
        (time, links.unwrap_or(0))
    }

    /// The time node `v` needs after it holds the message, and its subtree's links.
    fn settle(&mut self, v: u32, is_dest: bool) -> (u32, Option<u32>) {
        let below = &mut self.below[v as usize];
        below.sort_unstable_by(|a, b| b.cmp(a));
        let time = below
            .iter()
            .enumerate()
            .map(|(i, &c)| i as u32 + 1 + c)
            .max()
            .unwrap_or(0);
        let links = match self.links[v as usize] {
            Some(l) => Some(l),
            None if is_dest => Some(0),
            None => None,
        };
        (time, links)
    }
}
