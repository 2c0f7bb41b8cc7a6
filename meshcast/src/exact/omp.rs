//! **OMP**, the optimal multicast path (seed 001 Definition 2.1.5): the shortest path from the
//! source through every destination, as one worm.
//!
//! Between two consecutive destinations a shortest worm route is as long as their graph distance,
//! so the shortest such walk is a shortest Hamiltonian path of the complete graph on source and
//! destinations weighted by graph distance, starting at the source: the Held–Karp dynamic program
//! over destination subsets (`h(S, j)`, the shortest walk from the source through `S` ending at
//! `j ∈ S`). The worm follows the dimension-ordered route between consecutive destinations and
//! drops a copy the first time it reaches each destination.
//!
//! One difference from the definition, stated plainly: Definition 2.1.5 asks for a *path*
//! (distinct nodes); the walk found may pass a node twice (a source in the middle of a row with
//! destinations at both ends must turn back). Its length is then a lower bound on the definition's
//! OMP — the right yardstick for a worm, which may cross a router twice on different channels.
//!
//! Cost: O(2ᴷ·K²) time, 2ᴷ·K four-byte cells; limit [`super::MAX_DESTINATIONS`].

use super::MAX_DESTINATIONS;
use crate::algo::Request;
use crate::error::InputError;
use crate::plan::{Hop, Plan, PlanKind};
use crate::route::dimension_ordered::route;
use crate::topology::Node;

/// A shortest walk from the source through every destination of `req`, as a one-worm path plan.
pub fn omp(req: &Request) -> Result<Plan, InputError> {
    let tours = HeldKarp::new(req)?;
    let end = tours.best_end(|_| 0);
    Ok(walk_plan(req, &tours.stops(end)))
}

/// The worm that visits `stops` (source first) along dimension-ordered routes, dropping a copy
/// the first time it reaches each destination.
fn walk_plan(req: &Request, stops: &[Node]) -> Plan {
    let shape = req.shape();
    let mut is_dest = vec![false; shape.len()];
    for d in req.destinations() {
        is_dest[d.index()] = true;
    }
    let mut hops = Vec::new();
    for pair in stops.windows(2) {
        for node in route(shape, pair[0], pair[1]) {
            let drop = std::mem::replace(&mut is_dest[node.index()], false);
            hops.push(Hop::new(node, drop));
        }
    }
    let mut plan = Plan::new(PlanKind::Path, req.source(), req.destinations().to_vec());
    plan.push_send(req.source(), hops);
    plan
}

/// The Held–Karp table of a request: shortest walks from the source through subsets of the
/// destinations, by the destination they end at.
pub(super) struct HeldKarp {
    source: Node,
    terminals: Vec<Node>,
    /// `from_source[j]`: distance from the source to destination `j`.
    pub(super) from_source: Vec<u32>,
    between: Vec<u32>,
    /// `walk[S·K + j]`: shortest walk from the source through `S`, ending at `j ∈ S`.
    walk: Vec<u32>,
}

impl HeldKarp {
    pub(super) fn new(req: &Request) -> Result<HeldKarp, InputError> {
        let k = req.destinations().len();
        if k > MAX_DESTINATIONS {
            return Err(InputError::Setting {
                name: "destinations",
                value: k.to_string(),
                allowed: "at most 16 destinations for an exact path or cycle",
            });
        }
        let shape = req.shape();
        let terminals = req.destinations().to_vec();
        let from_source = terminals
            .iter()
            .map(|&t| shape.distance(req.source(), t))
            .collect();
        let between = terminals
            .iter()
            .flat_map(|&a| terminals.iter().map(move |&b| shape.distance(a, b)))
            .collect();
        let mut tours = HeldKarp {
            source: req.source(),
            terminals,
            from_source,
            between,
            walk: vec![u32::MAX; k << k],
        };
        tours.fill();
        Ok(tours)
    }

    fn k(&self) -> usize {
        self.terminals.len()
    }

    fn fill(&mut self) {
        let k = self.k();
        for j in 0..k {
            self.walk[(1 << j) * k + j] = self.from_source[j];
        }
        for set in 1..1usize << k {
            for j in (0..k).filter(|&j| set >> j & 1 == 1) {
                let here = self.walk[set * k + j];
                for l in (0..k).filter(|&l| set >> l & 1 == 0) {
                    let cell = &mut self.walk[(set | 1 << l) * k + l];
                    *cell = (*cell).min(here + self.between[j * k + l]);
                }
            }
        }
    }

    /// The destination a complete walk best ends at, counting `tail(j)` extra hops after
    /// destination `j` (the way back to the source, for a cycle); ties to the first listed.
    pub(super) fn best_end(&self, tail: impl Fn(usize) -> u32) -> usize {
        let full = (1usize << self.k()) - 1;
        (0..self.k())
            .min_by_key(|&j| self.walk[full * self.k() + j] + tail(j))
            .expect("at least one destination")
    }

    /// Length of the shortest complete walk ending at `end`.
    pub(super) fn length(&self, end: usize) -> u32 {
        self.walk[((1usize << self.k()) - 1) * self.k() + end]
    }

    /// The source and then the destinations in the order of the shortest complete walk ending at
    /// `end`.
    pub(super) fn stops(&self, end: usize) -> Vec<Node> {
        let k = self.k();
        let mut set = (1usize << k) - 1;
        let mut at = end;
        let mut order = vec![self.terminals[at]];
        while set != 1 << at {
            let rest = set ^ 1 << at;
            let here = self.walk[set * k + at];
            let prev = (0..k)
                .filter(|&j| rest >> j & 1 == 1)
                .find(|&j| self.walk[rest * k + j] + self.between[j * k + at] == here)
                .expect("every finite cell has a predecessor");
            set = rest;
            at = prev;
            order.push(self.terminals[at]);
        }
        order.push(self.source);
        order.reverse();
        order
    }
}
