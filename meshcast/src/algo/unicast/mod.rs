//! Unicast-based multicast for wormhole networks: one file per algorithm.
//!
//! Where the routers only carry unicast messages, a multicast is a set of unicasts sent by
//! software (seed 001 §2.1.2.2, "unicast-based multicast"; seed 002 §1): the source sends the
//! message to some destinations, each of which forwards it to others, so the message passes
//! along a logical tree of destinations. Each unicast is one send of a
//! [`PlanKind::Unicast`] plan that leaves its copy at its end
//! only, routed hop by hop by the network's unicast routing function. Wormhole routing makes a
//! unicast's latency nearly independent of its length, so these algorithms count
//! message-passing steps ([`crate::eval::message_steps`], seed 001 eq. 2.1.7) and avoid channel
//! contention among their unicasts ([`crate::contention`]) rather than shorten routes.
//!
//! * `separate`: separate addressing, the source unicasts to every destination;
//! * `u-mesh` and `u-torus` (McKinley et al.; Robinson et al.): recursive halving of a
//!   dimension-ordered chain, dimension-ordered routes, ⌈log₂(m+1)⌉ one-port steps;
//! * `multiport` (seed 002): division of a labelling-ordered chain by d-port nodes, routes by
//!   the Hamiltonian-path routing function `R(u, v)`.
//!
//! The shared piece is `deliver`: every algorithm here orders the source and the destinations
//! into a chain, and each node that holds the message is responsible for a segment of it, which
//! it splits step by step, sending every part it gives away to one node of that part.

pub mod multiport;
pub mod separate;
pub mod u_mesh;
pub mod u_torus;

use crate::algo::Request;
use crate::plan::{Hop, Plan, PlanKind};
use crate::topology::Node;

/// A node's share of the chain: positions `lo..=hi`, the node itself at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    lo: usize,
    hi: usize,
    at: usize,
}

impl Segment {
    /// The number of chain nodes in the segment, its holder included.
    fn len(self) -> usize {
        self.hi - self.lo + 1
    }
}

/// The plan of `request` in which the source, at `chain[source_at]`, starts responsible for the
/// whole chain (the source and the destinations in some order) and every holder splits its
/// segment by `split` — the part it keeps, and the parts it gives away in one step, in port
/// order — until it is alone in it; each part given away is one unicast along `route` to the
/// node at the part's `at`, which then does the same. A holder's sends are listed step by step,
/// so the plan's port order is the algorithm's.
fn deliver<R, I>(
    request: &Request,
    chain: &[Node],
    source_at: usize,
    split: impl Fn(Segment) -> (Segment, Vec<Segment>),
    route: R,
) -> Plan
where
    R: Fn(Node, Node) -> I,
    I: Iterator<Item = Node>,
{
    let dests = request.destinations().to_vec();
    let mut plan = Plan::new(PlanKind::Unicast, request.source(), dests);
    let mut holders = std::collections::VecDeque::from([Segment {
        lo: 0,
        hi: chain.len() - 1,
        at: source_at,
    }]);
    while let Some(mut segment) = holders.pop_front() {
        let from = chain[segment.at];
        while segment.len() > 1 {
            let (kept, given) = split(segment);
            for part in given {
                push_unicast(&mut plan, from, route(from, chain[part.at]));
                holders.push_back(part);
            }
            segment = kept;
        }
    }
    plan
}

/// Recursive halving ([`halve`]) over the chain of `request` ordered by `key`, unicasts along
/// `route`: U-mesh, U-torus and one-port multiport differ only in the order and the routes.
fn halving<K: Ord, R, I>(request: &Request, key: impl Fn(Node) -> K, route: R) -> Plan
where
    R: Fn(Node, Node) -> I,
    I: Iterator<Item = Node>,
{
    let (chain, source_at) = chain_by(request, key);
    deliver(request, &chain, source_at, |s| halve(s, source_at), route)
}

/// The source and the destinations of `request` sorted by `key` (distinct nodes, distinct keys),
/// and the source's position in that chain.
fn chain_by<K: Ord>(request: &Request, key: impl Fn(Node) -> K) -> (Vec<Node>, usize) {
    let mut chain = request.destinations().to_vec();
    chain.push(request.source());
    chain.sort_by_cached_key(|&v| key(v));
    let at = chain
        .iter()
        .position(|&v| v == request.source())
        .expect("the source is in its chain");
    (chain, at)
}

/// Append one unicast from `from` along the nodes of `route`, leaving its copy at the last.
fn push_unicast(plan: &mut Plan, from: Node, route: impl Iterator<Item = Node>) {
    let mut hops: Vec<Hop> = route.map(|node| Hop::new(node, false)).collect();
    let last = hops.last_mut().expect("a unicast goes to another node");
    *last = Hop::new(last.node(), true);
    plan.push_send(from, hops);
}

/// Recursive halving (U-mesh, U-torus, and one-port multiport): the holder splits its segment
/// at the middle (the lower half has ⌈s/2⌉ of its `s` nodes) and gives the half it is not in
/// to that half's node farthest along the chain from the source, `chain[source_at]`; it keeps
/// its own half. Halves have at most ⌈s/2⌉ nodes, so a chain of `s` nodes is covered in
/// ⌈log₂ s⌉ one-port steps.
///
/// So every holder below the source heads its segment and sends up the chain, every holder above
/// it ends its segment and sends down: two unicasts of one step either go the same way or
/// towards each other, never away from each other (U-mesh's module docs say why that matters).
fn halve(segment: Segment, source_at: usize) -> (Segment, Vec<Segment>) {
    let Segment { lo, hi, at } = segment;
    let upper = lo + segment.len().div_ceil(2);
    let (kept, mut given) = if at < upper {
        (
            Segment {
                lo,
                hi: upper - 1,
                at,
            },
            Segment { lo: upper, hi, at },
        )
    } else {
        (
            Segment { lo: upper, hi, at },
            Segment {
                lo,
                hi: upper - 1,
                at,
            },
        )
    };
    given.at = if given.lo > source_at {
        given.hi
    } else {
        given.lo
    };
    (kept, vec![given])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Halving covers a chain of `s` nodes in ⌈log₂ s⌉ steps wherever the holder starts.
    #[test]
    fn halving_takes_log2_steps_from_any_position() {
        fn steps(segment: Segment) -> u32 {
            if segment.len() == 1 {
                return 0;
            }
            let (kept, given) = halve(segment, 0);
            1 + given.into_iter().chain([kept]).map(steps).max().unwrap()
        }
        for s in 1..=70usize {
            for at in 0..s {
                let got = steps(Segment {
                    lo: 0,
                    hi: s - 1,
                    at,
                });
                assert_eq!(got, s.next_power_of_two().trailing_zeros(), "s {s} at {at}");
            }
        }
    }
}
