//! Exact optima for small instances: the yardsticks every heuristic of the seeds is measured against.
//!
//! Seed 001 §2.1 defines four optimal structures for a multicast set `K` and proves each NP-complete
//! on meshes (Theorems 2.1.1–2.1.2); the papers' algorithms are heuristics for them. This module
//! computes them exactly for instances small enough:
//!
//! | solver | definition | method | returns |
//! |---|---|---|---|
//! | [`omt()`] | OMT, Definition 2.1.8: least links among trees reaching every destination at its distance | Dreyfus–Wagner over destination subsets on the DAG of shortest-path links from the source | a tree [`Plan`], shortest paths |
//! | [`mst()`] | MST, Definition 2.1.7: least links among all trees spanning source and destinations | Dreyfus–Wagner over destination subsets, unit-weight relaxation on the whole graph | a tree [`Plan`] |
//! | [`omp()`] | OMP, Definition 2.1.5: shortest path from the source through every destination | Held–Karp over destination subsets with graph distances | a one-worm path [`Plan`] |
//! | [`omc()`] | OMC, Definition 2.1.6: shortest cycle through source and destinations | Held–Karp, closed | a [`omc::Cycle`] |
//! | [`one_port()`] | least store-and-forward one-port time over all shortest-path trees | branch and bound over the shortest-path trees, each with the optimal port order | a tree [`Plan`] |
//!
//! Every solver is an ordinary function of a checked [`crate::algo::Request`], so every model,
//! drawing and check of the crate applies to its result; the tree solvers order each node's sends
//! by [`crate::schedule::optimal`]. Sizes beyond a solver's limit are refused with an
//! [`InputError`] naming the limit, never run for hours. Sizes and times measured in release builds
//! are in docs/OPTIMALITY.md.
//!
//! The boundary: this module computes optima; the gap of a heuristic to them is measured in
//! [`crate::experiment::gap`].
//!
//! ```
//! use meshcast::{algo::{self, Request}, exact};
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
//! let best = exact::omt(&req).unwrap();
//! best.validate(req.shape(), true).unwrap();
//! let dds = algo::find("dds").unwrap().route(&req).unwrap();
//! assert!(best.traffic() <= dds.traffic());
//! assert!(exact::mst(&req).unwrap().traffic() <= best.traffic());
//! ```

pub mod mst;
pub mod omc;
pub mod omp;
pub mod omt;
pub mod one_port;

pub use mst::mst;
pub use omc::omc;
pub use omp::omp;
pub use omt::omt;
pub use one_port::one_port;

use crate::algo::Request;
use crate::error::InputError;
use crate::plan::{Plan, PlanKind};
use crate::schedule;
use crate::topology::{Node, Shape};

/// The most destinations the subset programs take: 2¹⁶ subsets.
pub const MAX_DESTINATIONS: usize = 16;

/// The most cells (subsets × nodes) a Dreyfus–Wagner table may have: 2²⁵ two-byte cells, 64 MiB.
pub const MAX_TABLE_CELLS: usize = 1 << 25;

/// "Not reachable" in the two-byte tables; twice it still fits in a `u16`.
const INF: u16 = u16::MAX / 2;

/// Refuse requests with more than [`MAX_DESTINATIONS`] destinations or a table over
/// [`MAX_TABLE_CELLS`] cells.
fn check_size(req: &Request, nodes: usize) -> Result<(), InputError> {
    let k = req.destinations().len();
    if k > MAX_DESTINATIONS || (nodes << k) > MAX_TABLE_CELLS {
        return Err(InputError::Setting {
            name: "destinations",
            value: format!("{k} on {} nodes", nodes),
            allowed: "at most 16 destinations and 2^25 cells (2^K × nodes) for an exact solver",
        });
    }
    Ok(())
}

/// A Dreyfus–Wagner table: `cost[S·n + v]` is the least number of links of a tree that joins `v`
/// to every destination in the subset `S`, under the solver's notion of "tree".
struct SubsetTable {
    nodes: usize,
    cost: Vec<u16>,
}

impl SubsetTable {
    /// A table for `terminals` (one per subset bit) on `nodes` nodes: singletons cost 0 at their
    /// terminal, everything else unknown.
    fn new(nodes: usize, terminals: &[Node]) -> SubsetTable {
        let mut cost = vec![INF; nodes << terminals.len()];
        for (i, t) in terminals.iter().enumerate() {
            cost[(1 << i) * nodes + t.index()] = 0;
        }
        SubsetTable { nodes, cost }
    }

    fn at(&self, set: usize, v: usize) -> u16 {
        self.cost[set * self.nodes + v]
    }

    /// Row `set` made the cheapest union of two trees at the same node: every split of `set` into
    /// a part holding its lowest member and the rest (each split once).
    fn split(&mut self, set: usize) {
        let n = self.nodes;
        let (lower, upper) = self.cost.split_at_mut(set * n);
        let row = &mut upper[..n];
        let low = set & set.wrapping_neg();
        let rest = set ^ low;
        // Submasks `a` of `rest`; the part is `a | low`, its complement `rest ^ a`, both non-empty.
        let mut a = rest;
        while a != 0 {
            a = (a - 1) & rest;
            let (p, q) = (a | low, rest ^ a);
            let (p, q) = (&lower[p * n..p * n + n], &lower[q * n..q * n + n]);
            for ((c, &x), &y) in row.iter_mut().zip(p).zip(q) {
                *c = (*c).min((x + y).min(INF));
            }
        }
    }

    /// Find how row `set` at `v` was reached: a split `(part, rest)` whose costs add up to it.
    fn split_of(&self, set: usize, v: usize) -> Option<(usize, usize)> {
        let low = set & set.wrapping_neg();
        let rest = set ^ low;
        let want = self.at(set, v);
        let mut a = rest;
        while a != 0 {
            a = (a - 1) & rest;
            let (p, q) = (a | low, rest ^ a);
            if self.at(p, v) + self.at(q, v) == want {
                return Some((p, q));
            }
        }
        None
    }
}

/// A tree plan from an edge set that joins the source to every destination: oriented away from
/// the source, pruned of leaves that serve no destination, ports in the optimal order.
fn tree_plan(shape: &Shape, req: &Request, edges: &[(Node, Node)]) -> Plan {
    let n = shape.len();
    let mut adj: Vec<Vec<Node>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a.index()].push(b);
        adj[b.index()].push(a);
    }
    let mut is_dest = vec![false; n];
    for d in req.destinations() {
        is_dest[d.index()] = true;
    }
    // Breadth first from the source: each node's parent, then prune childless non-destinations.
    let mut parent = vec![None; n];
    let mut seen = vec![false; n];
    let mut order = vec![req.source()];
    seen[req.source().index()] = true;
    let mut next = 0;
    while next < order.len() {
        let v = order[next];
        next += 1;
        for &w in &adj[v.index()] {
            if !std::mem::replace(&mut seen[w.index()], true) {
                parent[w.index()] = Some(v);
                order.push(w);
            }
        }
    }
    let mut needed = is_dest.clone();
    for &v in order.iter().rev() {
        if let (true, Some(p)) = (needed[v.index()], parent[v.index()]) {
            needed[p.index()] = true;
        }
    }
    let mut plan = Plan::new(PlanKind::Tree, req.source(), req.destinations().to_vec());
    for &v in &order[1..] {
        if let (true, Some(p)) = (needed[v.index()], parent[v.index()]) {
            plan.push_edge(p, v);
        }
    }
    schedule::optimal(&plan, shape)
}

/// Which neighbours of each node a solver may step to, as flat arrays.
struct Adjacency {
    first: Vec<u32>,
    to: Vec<u32>,
}

impl Adjacency {
    /// The links `v → w` of `shape` that `keep(v, w)` accepts.
    fn new(shape: &Shape, keep: impl Fn(Node, Node) -> bool) -> Adjacency {
        let mut first = Vec::with_capacity(shape.len() + 1);
        let mut to = Vec::new();
        for v in shape.nodes() {
            first.push(to.len() as u32);
            to.extend(
                shape
                    .links_from(v)
                    .map(|(_, w)| w)
                    .filter(|&w| keep(v, w))
                    .map(|w| w.index() as u32),
            );
        }
        first.push(to.len() as u32);
        Adjacency { first, to }
    }

    fn of(&self, v: usize) -> &[u32] {
        &self.to[self.first[v] as usize..self.first[v + 1] as usize]
    }
}

/// The optimal tree of a filled table as a tree plan from the source. Its links are read back
/// from the table: a cost is explained either by a split at the same node or by one step to a
/// neighbour (in `steps`) whose cost is one less. Both make the problem smaller, so the walk ends.
fn optimal_tree(table: &SubsetTable, req: &Request, steps: &Adjacency) -> Plan {
    let full = (1usize << req.destinations().len()) - 1;
    let source = req.source().index();
    let mut edges = Vec::new();
    let mut todo = vec![(full, source)];
    while let Some((set, v)) = todo.pop() {
        let cost = table.at(set, v);
        if cost == 0 {
            continue;
        }
        if let Some((p, q)) = table.split_of(set, v) {
            todo.extend([(p, v), (q, v)]);
            continue;
        }
        let w = steps
            .of(v)
            .iter()
            .map(|&w| w as usize)
            .find(|&w| table.at(set, w) + 1 == cost)
            .expect("a finite cost is a split or a step");
        edges.push((Node(v as u32), Node(w as u32)));
        todo.push((set, w));
    }
    let plan = tree_plan(req.shape(), req, &edges);
    debug_assert_eq!(plan.traffic(), u32::from(table.at(full, source)));
    plan
}
