//! The least store-and-forward **one-port time** over all shortest-path trees — small instances only.
//!
//! A pruned shortest-path tree is fixed by choosing, for every node it holds other than the
//! source, one parent among the neighbours one hop nearer the source; a node is in the tree when
//! it is a destination or some child chose it. For one tree the best port order is known: each
//! node serves its children longest remaining time first ([`crate::schedule::optimal`]), so a
//! node's time is `max(i + 1 + cᵢ)` over its children's times `c₀ ≥ c₁ ≥ …`.
//!
//! The search decides the nodes farthest from the source first, so when a node is reached its
//! subtree is complete and its time `t` known; a node at distance `d` cannot finish before
//! `d + t`, and branches that cannot beat the best tree found are cut. The result is the fastest
//! tree, ties to the fewest links, then the first found. The number of trees grows exponentially
//! with the area the destinations span; a search that would visit more than [`MAX_STEPS`] partial
//! trees is refused (a count, so the answer never depends on the machine).

use super::{tree_plan, Adjacency};
use crate::algo::Request;
use crate::error::InputError;
use crate::plan::Plan;
use crate::topology::Node;

/// The most partial trees [`one_port()`] visits before it gives up.
pub const MAX_STEPS: u64 = 1 << 24;

/// A shortest-path tree for `req` with the least one-port time, its sends in the optimal order;
/// [`one_port_within`] with [`MAX_STEPS`].
pub fn one_port(req: &Request) -> Result<Plan, InputError> {
    one_port_within(req, MAX_STEPS)
}

/// [`one_port()`], refused if the search would visit more than `max_steps` partial trees.
pub fn one_port_within(req: &Request, max_steps: u64) -> Result<Plan, InputError> {
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
    order.sort_unstable_by_key(|&v| (std::cmp::Reverse(dist[v as usize]), v));
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
    let mut search = Search {
        nodes: &nodes,
        parents: &parents,
        dist: &dist,
        is_dest: &is_dest,
        source,
        below: vec![Vec::new(); shape.len()],
        links: vec![0; shape.len()],
        choice: vec![u32::MAX; shape.len()],
        best: (u32::MAX, u32::MAX),
        best_choice: Vec::new(),
        steps: 0,
        max_steps,
    };
    search.descend(0);
    if search.steps > max_steps {
        return Err(InputError::Setting {
            name: "destinations",
            value: format!(
                "{} spanning more than {max_steps} partial shortest-path trees",
                req.destinations().len()
            ),
            allowed: "small instances only for the exact one-port time (see docs/OPTIMALITY.md)",
        });
    }
    let edges: Vec<(Node, Node)> = search
        .best_choice
        .iter()
        .map(|&(v, p)| (Node(p), Node(v)))
        .collect();
    Ok(tree_plan(shape, req, &edges))
}

/// The branch-and-bound search over parent choices.
struct Search<'a> {
    nodes: &'a [u32],
    parents: &'a Adjacency,
    dist: &'a [u32],
    is_dest: &'a [bool],
    source: Node,
    /// Times of the children each node serves, filled before the node is decided.
    below: Vec<Vec<u32>>,
    /// Links of the subtree below each node.
    links: Vec<u32>,
    /// The parent each tree node chose.
    choice: Vec<u32>,
    best: (u32, u32),
    best_choice: Vec<(u32, u32)>,
    steps: u64,
    max_steps: u64,
}

impl Search<'_> {
    /// Decide `nodes[i..]`, the subtrees of `nodes[..i]` being settled.
    fn descend(&mut self, i: usize) {
        self.steps += 1;
        if self.steps > self.max_steps {
            return;
        }
        let Some(&v) = self.nodes.get(i) else {
            let score = (self.time(self.source.0), self.links[self.source.index()]);
            if score < self.best {
                self.best = score;
                self.best_choice = self
                    .nodes
                    .iter()
                    .filter(|&&v| self.choice[v as usize] != u32::MAX)
                    .map(|&v| (v, self.choice[v as usize]))
                    .collect();
            }
            return;
        };
        let vi = v as usize;
        if self.below[vi].is_empty() && !self.is_dest[vi] {
            return self.descend(i + 1);
        }
        let time = self.time(v);
        if self.dist[vi] + time > self.best.0 {
            return;
        }
        let links = self.links[vi] + 1;
        for k in 0..self.parents.of(vi).len() {
            let p = self.parents.of(vi)[k];
            self.below[p as usize].push(time);
            self.links[p as usize] += links;
            self.choice[vi] = p;
            self.descend(i + 1);
            self.below[p as usize].pop();
            self.links[p as usize] -= links;
        }
        self.choice[vi] = u32::MAX;
    }

    /// The time node `v` needs, once it holds the message, to serve its children in the best order.
    fn time(&mut self, v: u32) -> u32 {
        let below = &mut self.below[v as usize];
        let mut sorted = below.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        sorted
            .iter()
            .enumerate()
            .map(|(i, &c)| i as u32 + 1 + c)
            .max()
            .unwrap_or(0)
    }
}
