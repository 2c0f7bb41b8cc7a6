//! The least store-and-forward **one-port time** over all shortest-path trees — small instances only.
//!
//! A pruned shortest-path tree is fixed by choosing, for every node it holds other than the
//! source, one parent among the neighbours one hop nearer the source; a node is in the tree when
//! it is a destination or some child chose it. For one tree the best port order is known: each
//! node serves its children longest remaining time first ([`crate::schedule::optimal`]), so a
//! node's time is `max(i + 1 + cᵢ)` over its children's times `c₀ ≥ c₁ ≥ …`.
//!
//! The incumbent is the fastest registered shortest-path tree (DIAG, DDS, RSA, …) in the optimal
//! port order. If it already takes no longer than the farthest destination's distance — the
//! all-port time, which no one-port tree beats — it is optimal. Otherwise a branch and bound looks
//! for a strictly faster tree: it decides the nodes farthest from the source first, so when a node
//! is reached its subtree is complete and its time `t` known; neither it (at distance `d`) nor its
//! parent can finish before `d + t`, nor the parent before its distance plus the time of the
//! children it has so far. Branches that cannot beat the incumbent are cut. Among equally fast
//! trees the result is the first found (the heuristic's, if none is faster): the fewest links is
//! not sought. The number of trees grows exponentially with the area the destinations span; a
//! search that would visit more than [`MAX_STEPS`] partial trees is refused (a count, so the answer
//! never depends on the machine).

use super::{tree_plan, Adjacency};
use crate::algo::{Request, REGISTRY};
use crate::error::InputError;
use crate::eval::Metrics;
use crate::plan::{Plan, PlanKind};
use crate::schedule;
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
    let (incumbent, time) = fastest_heuristic(req);
    let farthest = req
        .destinations()
        .iter()
        .map(|&d| shape.distance(source, d))
        .max()
        .unwrap_or(0);
    if time <= farthest {
        return Ok(incumbent);
    }
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
        choice: vec![u32::MAX; shape.len()],
        best: time,
        floor: farthest,
        best_choice: None,
        scratch: Vec::new(),
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
    Ok(match search.best_choice {
        Some(choice) => {
            let edges: Vec<(Node, Node)> =
                choice.iter().map(|&(v, p)| (Node(p), Node(v))).collect();
            tree_plan(shape, req, &edges)
        }
        None => incumbent,
    })
}

/// The fastest registered shortest-path tree for `req` in the optimal port order, and its
/// one-port time (ties to the earlier registry row).
fn fastest_heuristic(req: &Request) -> (Plan, u32) {
    REGISTRY
        .iter()
        .filter(|a| a.family == PlanKind::Tree && a.shortest_path && a.support.covers(req.shape()))
        .filter_map(|a| a.route(req).ok())
        .map(|plan| {
            let plan = schedule::optimal(&plan, req.shape());
            let time = Metrics::of(&plan, req.shape()).one_port_time;
            (plan, time)
        })
        .reduce(|a, b| if b.1 < a.1 { b } else { a })
        .expect("VH, DIAG and DDS run on every mesh and torus")
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
    /// The parent each tree node chose.
    choice: Vec<u32>,
    /// The incumbent's time: only strictly faster trees are looked for.
    best: u32,
    /// No tree is faster than this (the farthest destination's distance).
    floor: u32,
    best_choice: Option<Vec<(u32, u32)>>,
    scratch: Vec<u32>,
    steps: u64,
    max_steps: u64,
}

impl Search<'_> {
    /// Decide `nodes[i..]`, the subtrees of `nodes[..i]` being settled.
    fn descend(&mut self, i: usize) {
        self.steps += 1;
        if self.steps > self.max_steps || self.best <= self.floor {
            return;
        }
        let Some(&v) = self.nodes.get(i) else {
            let time = self.time(self.source.0);
            if time < self.best {
                self.best = time;
                let tree = self
                    .nodes
                    .iter()
                    .filter(|&&v| self.choice[v as usize] != u32::MAX);
                self.best_choice = Some(tree.map(|&v| (v, self.choice[v as usize])).collect());
            }
            return;
        };
        let vi = v as usize;
        if self.below[vi].is_empty() && !self.is_dest[vi] {
            return self.descend(i + 1);
        }
        let time = self.time(v);
        if self.dist[vi] + time >= self.best {
            return;
        }
        for k in 0..self.parents.of(vi).len() {
            let p = self.parents.of(vi)[k];
            self.below[p as usize].push(time);
            // A parent only gains children: its time so far already bounds the end.
            if self.dist[p as usize] + self.time(p) < self.best {
                self.choice[vi] = p;
                self.descend(i + 1);
            }
            self.below[p as usize].pop();
        }
        self.choice[vi] = u32::MAX;
    }

    /// The time node `v` needs, once it holds the message, to serve its children in the best order.
    fn time(&mut self, v: u32) -> u32 {
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.below[v as usize]);
        self.scratch.sort_unstable_by(|a, b| b.cmp(a));
        self.scratch
            .iter()
            .enumerate()
            .map(|(i, &c)| i as u32 + 1 + c)
            .max()
            .unwrap_or(0)
    }
}
