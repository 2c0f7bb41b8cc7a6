//! Channel contention among the messages of a plan: seed 002 §2.3, Definitions 3–4.
//!
//! In wormhole routing a message holds every channel of its route from header to tail, so two
//! messages of one multicast that need the same channel at the same time delay each other. Seed
//! 002 (after McKinley et al., 1994) names two kinds, over the message-passing steps of
//! [`crate::eval::message_steps`]:
//!
//! * **stepwise contention** (Definition 3): "a channel is simultaneously required by messages
//!   which are transmitted within the same step";
//! * **depth contention** (Definition 4): "a channel is simultaneously required by messages
//!   which are transmitted in different steps".
//!
//! A channel is a directed link ([`crate::topology::Link`]): two messages crossing one link in
//! opposite directions do not contend (seed 002 §2.1: "two messages may be relayed
//! simultaneously in opposite directions between neighboring routers").
//!
//! **Which messages of different steps can be in the network together.** A message cannot
//! overlap in time with one that is only sent once it has arrived: so message `A` *precedes*
//! message `B` when `B`'s sender holds the message because of `A` (directly or down a chain of
//! messages), or when `B` leaves `A`'s sender in a later step than `A` (or leaves a node that
//! a later message of `A`'s sender fed) — a node's next step starts once its messages of the step
//! before are on their way, and a message that follows another out of the same node over the
//! same channels trails its tail. Formally, with `C` the message out of `A`'s sender on the
//! chain that brought `B`'s sender the message (`C = B` when both leave the same node), `A`
//! precedes `B` iff `A = C` or `A`'s step is earlier than `C`'s. Depth contention counts pairs of
//! messages of different steps that share a channel and neither of which precedes the other.
//! This is the reading under which seed 002's proof works: its Theorems 2–3 only compare
//! messages whose label ranges are disjoint, and every other pair its algorithm sends is
//! ordered this way.
//!
//! Both are counted as **pairs of messages** that share at least one channel (each pair once,
//! however many channels it shares). The functions work on any valid plan — unicast-based,
//! path-based (a worm is one message) or tree (every hop is one).
//!
//! Complexity: O(T log T) for the traffic `T` to find the pairs, then O(depth) per pair.
//!
//! ```
//! use meshcast::contention::Contention;
//! use meshcast::eval::Ports;
//! use meshcast::plan::{Hop, Plan, PlanKind};
//! use meshcast::topology::Shape;
//! let s: Shape = "mesh:8".parse().unwrap();
//! let n = |x: u32| s.node(&[x]).unwrap();
//! let unicast = |from: u32, to: u32| {
//!     let xs: Vec<u32> = if to > from { (from + 1..=to).collect() } else { (to..from).rev().collect() };
//!     xs.into_iter().map(move |x| Hop::new(n(x), x == to))
//! };
//! // (3) sends to (1) and to (4); (1) forwards to (6), crossing (3)→(4) again.
//! let mut plan = Plan::new(PlanKind::Unicast, n(3), vec![n(1), n(4), n(6)]);
//! plan.push_send(n(3), unicast(3, 1));
//! plan.push_send(n(3), unicast(3, 4));
//! plan.push_send(n(1), unicast(1, 6));
//! // One port: (3)→(4) and (1)→(6) both leave in step 2.
//! assert_eq!(Contention::of(&plan, &s, Ports::One), Contention { stepwise: 1, depth: 0 });
//! // Two ports: (3)→(4) leaves in step 1 beside (3)→(1), and may still hold (3)→(4) when
//! // (1)→(6) arrives there in step 2.
//! assert_eq!(Contention::of(&plan, &s, Ports::Multi(2)), Contention { stepwise: 0, depth: 1 });
//! ```

use crate::eval::{Ports, Steps};
use crate::plan::Plan;
use crate::topology::{Dir, Node, Shape, MAX_DIMS};

/// Stepwise and depth contention of a plan: pairs of messages that share a channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Contention {
    /// Pairs of messages transmitted in the same step that share a channel (Definition 3).
    pub stepwise: u32,
    /// Pairs of messages transmitted in different steps, neither preceding the other, that
    /// share a channel (Definition 4).
    pub depth: u32,
}

impl Contention {
    /// The contention of a valid plan whose nodes send under `ports`.
    pub fn of(plan: &Plan, shape: &Shape, ports: Ports) -> Contention {
        Contention::under(plan, shape, &Steps::new(plan, shape, ports))
    }

    /// The contention of a valid plan whose sends leave in the given steps.
    pub fn under(plan: &Plan, shape: &Shape, steps: &Steps) -> Contention {
        let order = Precedence::new(plan, shape);
        let mut count = Contention::default();
        for (a, b) in sharing_pairs(plan, shape) {
            let (early, late) = if steps.send(a) <= steps.send(b) {
                (a, b)
            } else {
                (b, a)
            };
            if steps.send(early) == steps.send(late) {
                count.stepwise += 1;
            } else if !order.precedes(early, late, steps) {
                count.depth += 1;
            }
        }
        count
    }

    /// Whether no two messages contend in either way.
    pub fn is_free(&self) -> bool {
        self.stepwise == 0 && self.depth == 0
    }
}

/// Every pair `(a, b)`, `a < b`, of sends of a valid plan that cross a common directed channel,
/// each pair once, in increasing order.
pub fn sharing_pairs(plan: &Plan, shape: &Shape) -> Vec<(usize, usize)> {
    // Every (channel, send) use, grouped by channel; then each send's channels as group ranges.
    let mut uses = Vec::with_capacity(plan.traffic() as usize);
    for (i, send) in plan.sends().enumerate() {
        let mut at = send.from;
        for hop in send.hops {
            uses.push((channel(shape, at, hop.node()), i));
            at = hop.node();
        }
    }
    uses.sort_unstable();
    uses.dedup();
    let mut groups_of = vec![Vec::new(); plan.send_count()];
    let mut start = 0;
    for group in uses.chunk_by(|x, y| x.0 == y.0) {
        for &(_, i) in group {
            groups_of[i].push(start..start + group.len());
        }
        start += group.len();
    }
    // For each send, the later sends in any of its groups, each once (stamped with the send).
    let mut stamp = vec![usize::MAX; plan.send_count()];
    let mut pairs = Vec::new();
    for (a, groups) in groups_of.iter().enumerate() {
        let first = pairs.len();
        for range in groups {
            for &(_, b) in &uses[range.clone()] {
                if b > a && std::mem::replace(&mut stamp[b], a) != a {
                    pairs.push((a, b));
                }
            }
        }
        pairs[first..].sort_unstable();
    }
    pairs
}

/// A number for the directed channel from `from` to its neighbour `to`.
fn channel(shape: &Shape, from: Node, to: Node) -> u64 {
    let link = shape
        .link(from, to)
        .expect("a valid plan hops between neighbours");
    let slot = 2 * u64::from(link.dim) + u64::from(link.dir == Dir::Minus);
    from.index() as u64 * 2 * MAX_DIMS as u64 + slot
}

/// The order in which a plan's messages are sure not to overlap in time (module docs).
struct Precedence {
    from: Vec<Node>,
    /// For each node, the send that first left a copy there.
    received_by: Vec<Option<usize>>,
}

impl Precedence {
    fn new(plan: &Plan, shape: &Shape) -> Precedence {
        let mut received_by = vec![None; shape.len()];
        for (i, send) in plan.sends().enumerate() {
            for hop in send.hops.iter().filter(|h| h.drop()) {
                received_by[hop.node().index()].get_or_insert(i);
            }
        }
        Precedence {
            from: plan.sends().map(|s| s.from).collect(),
            received_by,
        }
    }

    /// Whether send `a` precedes send `b`: walk up the chain of sends that brought `b`'s sender
    /// the message until it leaves `a`'s sender.
    fn precedes(&self, a: usize, b: usize, steps: &Steps) -> bool {
        let mut c = b;
        loop {
            if self.from[c] == self.from[a] {
                return a == c || steps.send(a) < steps.send(c);
            }
            match self.received_by[self.from[c].index()] {
                Some(up) => c = up,
                None => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Hop, PlanKind};

    fn line(shape: &Shape) -> impl Fn(u32, u32) -> Vec<Hop> + '_ {
        move |from, to| {
            let n = |x: u32| shape.node(&[x]).unwrap();
            let xs: Vec<u32> = if to > from {
                (from + 1..=to).collect()
            } else {
                (to..from).rev().collect()
            };
            xs.into_iter().map(|x| Hop::new(n(x), x == to)).collect()
        }
    }

    /// (0) sends to (4) in step 1; (4) sends back to (2) in step 2 over channels of the other
    /// direction, and (0) sends to (1) in step 2 behind its first message: nothing contends.
    #[test]
    fn messages_after_their_feeder_do_not_contend_with_it() {
        let s: Shape = "mesh:8".parse().unwrap();
        let n = |x: u32| s.node(&[x]).unwrap();
        let route = line(&s);
        let mut p = Plan::new(PlanKind::Unicast, n(0), vec![n(1), n(2), n(4)]);
        p.push_send(n(0), route(0, 4));
        p.push_send(n(0), route(0, 1));
        p.push_send(n(4), route(4, 2));
        p.validate(&s, false).unwrap();
        assert_eq!(sharing_pairs(&p, &s), [(0, 1)]);
        assert!(Contention::of(&p, &s, Ports::One).is_free());
        assert_eq!(
            Contention::of(&p, &s, Ports::All),
            Contention {
                stepwise: 1,
                depth: 0
            }
        );
    }

    /// The source (2) feeds (3) and (1); what their subtrees send may cross each other's
    /// channels and the source's.
    #[test]
    fn messages_of_different_subtrees_in_different_steps_are_depth_contention() {
        let s: Shape = "mesh:8".parse().unwrap();
        let n = |x: u32| s.node(&[x]).unwrap();
        let route = line(&s);
        let mut p = Plan::new(PlanKind::Unicast, n(2), vec![n(1), n(0), n(3), n(6)]);
        p.push_send(n(2), route(2, 3));
        p.push_send(n(2), route(2, 1));
        p.push_send(n(1), route(1, 0));
        p.push_send(n(3), route(3, 6));
        p.validate(&s, false).unwrap();
        // Two ports: (2)→(3) and (2)→(1) in step 1, then (1)→(0) and (3)→(6) in step 2.
        assert_eq!(
            Contention::of(&p, &s, Ports::Multi(2)),
            Contention::default()
        );
        // The same sends, but (1)'s message now crosses (3)'s: (1)→(5) in step 2.
        let mut q = Plan::new(PlanKind::Unicast, n(2), vec![n(1), n(3), n(5), n(6)]);
        q.push_send(n(2), route(2, 3));
        q.push_send(n(2), route(2, 1));
        q.push_send(n(3), route(3, 6));
        q.push_send(n(1), route(1, 5));
        q.validate(&s, false).unwrap();
        // Two ports: (3)→(6) and (1)→(5) share (3)→(4) in step 2 (stepwise), and (1)→(5)
        // crosses (2)→(3) while the step-1 message (2)→(3), sent beside (2)→(1), may still hold
        // it (depth).
        let c = Contention::of(&q, &s, Ports::Multi(2));
        assert_eq!((c.stepwise, c.depth), (1, 1));
        // One port: (2)→(1) leaves after (2)→(3), so (1)→(5) in step 3 follows it; but (3)→(6)
        // of step 2 belongs to another subtree: depth contention only.
        let c = Contention::of(&q, &s, Ports::One);
        assert_eq!((c.stepwise, c.depth), (0, 1));
    }
}
