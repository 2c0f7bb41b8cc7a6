//! The [`Plan`]: what an algorithm decided, as data — and its single validator.
//!
//! A plan is a list of *sends*. A send leaves a node that holds the message and travels hop by
//! hop along a route; at every hop marked `drop` the node there keeps a copy (and from then on
//! holds the message). One shape covers the three families of the field:
//!
//! * **tree** (store-and-forward replication): every send is one hop and drops its copy — the
//!   sends are the tree's edges;
//! * **path** (wormhole, path-based): a send is a worm that drops a copy at each destination it passes;
//! * **unicast** (unicast-based): a send drops a copy only at its last hop.
//!
//! The sends of one node appear in the order the node uses its port(s): that order *is* the
//! schedule, and the models of [`crate::eval`] read it. Sends are listed causally: a send
//! appears after the send that brought its sender the message.
//!
//! Algorithms only build plans; they never compute metrics. [`Plan::validate`] is the one check
//! every plan of every algorithm passes in the tests and in debug builds.

use std::fmt;

use crate::error::PlanError;
use crate::node_table::{NodeTable, PerNode, DENSE};
use crate::topology::{Node, Shape};

/// The family of a plan, which fixes the rules its sends obey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlanKind {
    /// Store-and-forward tree: one-hop sends, each node receives once, every leaf a destination.
    Tree,
    /// Path-based: worms that drop copies at the destinations they pass.
    Path,
    /// Unicast-based: each send drops its copy at its end only.
    Unicast,
}

/// `tree`, `path` or `unicast`: how the registry, the reports and `meshcast algos` spell it.
impl fmt::Display for PlanKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlanKind::Tree => "tree",
            PlanKind::Path => "path",
            PlanKind::Unicast => "unicast",
        })
    }
}

/// One hop of a send: the node reached, and whether it keeps a copy — in one 4-byte word (the
/// node's id, below [`MAX_NODES`](crate::topology::MAX_NODES), and the drop flag in the top bit),
/// so that a plan of a tree covering most of an 8192² mesh fits in memory.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Hop(u32);

/// The drop flag's bit in a [`Hop`].
const DROP: u32 = 1 << 31;

impl Hop {
    /// The hop to `node`, which keeps a copy of the message if `drop`.
    pub fn new(node: Node, drop: bool) -> Hop {
        Hop(node.0 | if drop { DROP } else { 0 })
    }

    /// The node this hop arrives at.
    pub fn node(self) -> Node {
        Node(self.0 & !DROP)
    }

    /// Whether the node keeps a copy of the message.
    pub fn drop(self) -> bool {
        self.0 & DROP != 0
    }
}

/// `Hop { node: Node(…), drop: … }`, as the two fields read.
impl fmt::Debug for Hop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hop")
            .field("node", &self.node())
            .field("drop", &self.drop())
            .finish()
    }
}

/// A borrowed view of one send of a plan.
#[derive(Clone, Copy, Debug)]
pub struct Send<'a> {
    /// The node that sends; it holds the message before this send starts.
    pub from: Node,
    /// The hops in order; the first is a neighbour of `from`.
    pub hops: &'a [Hop],
}

/// The sends of a plan grouped by sender: the sends of the node with slot `s` are
/// `order[bounds[s]..bounds[s + 1]]`, in plan order (`bounds[0]` is unused). Two ways to give
/// nodes their slots, whichever costs less for the plan ([`Plan::group_by_sender`]):
///
/// * **by node** (`dense`), while the node ids up to the largest sender are at most
///   [`DENSE`] times the sends: node `v` has slot `v + 1`, and a node that sends nothing an
///   empty group;
/// * **by sender** otherwise, so that grouping costs the plan's sends, not the topology's nodes:
///   `slot[v]` counts from 1 in the order the senders first send (0: no sends). Only the
///   senders' entries are written, and cleared again when the storage groups the next plan; a
///   larger table comes zeroed from the allocator, which for a large one maps pages the kernel
///   backs only where a sender's entry is written. From [`crate::node_table::LARGE`] nodes on,
///   the table is a hash map ([`NodeTable::reusable`]): plan after plan would back its pages,
///   up to the whole table.
#[derive(Clone, Debug, Default)]
pub(crate) struct BySender {
    dense: bool,
    slot: NodeTable,
    senders: Vec<Node>,
    bounds: Vec<u32>,
    order: Vec<u32>,
}

impl BySender {
    /// The indices of the sends of `v`.
    pub(crate) fn of(&self, v: Node) -> &[u32] {
        let s = if self.dense {
            v.index() + 1
        } else {
            self.slot.value(v.index()) as usize
        };
        match (self.bounds.get(s), self.bounds.get(s + 1)) {
            (Some(&a), Some(&b)) if s > 0 => &self.order[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The sends of every sender, a group per slot in slot order (by node, some are empty).
    pub(crate) fn groups(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.bounds
            .get(1..)
            .unwrap_or_default()
            .windows(2)
            .map(|w| &self.order[w[0] as usize..w[1] as usize])
    }
}

/// Place every send of `from` at the end of its slot's range (`slot(sender's id)`), the sends
/// taken from the last: each slot's end in `bounds` moves down to its start, and each group
/// keeps plan order.
fn place_from_last(
    from: &[Node],
    bounds: &mut [u32],
    order: &mut [u32],
    slot: impl Fn(usize) -> usize,
) {
    for (i, f) in from.iter().enumerate().rev() {
        let s = slot(f.index());
        bounds[s] -= 1;
        order[bounds[s] as usize] = i as u32;
    }
}

/// The iterator of [`Plan::sends`]: each send's hops start where the previous send's end, so
/// the sends are walked without looking an index up per send.
struct Sends<'a> {
    from: std::slice::Iter<'a, Node>,
    /// Where each send's hops end; none while every send has one hop.
    ends: Option<std::slice::Iter<'a, u32>>,
    hops: &'a [Hop],
    start: usize,
}

impl<'a> Iterator for Sends<'a> {
    type Item = Send<'a>;

    #[inline]
    fn next(&mut self) -> Option<Send<'a>> {
        let from = *self.from.next()?;
        let end = match &mut self.ends {
            None => self.start + 1,
            Some(ends) => *ends.next()? as usize,
        };
        let hops = &self.hops[self.start..end];
        self.start = end;
        Some(Send { from, hops })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.from.size_hint()
    }
}

impl ExactSizeIterator for Sends<'_> {}

/// A multicast plan: source, destinations and the sends that deliver the message.
///
/// Storage: per send its sender, and the hops of all sends one after the other, a [`Hop`] in
/// 4 bytes. Where every send so far has one hop (every tree plan), send `i` is hop `i` and no
/// bounds are kept: 8 bytes per link. The first send of another length writes every send's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    kind: PlanKind,
    source: Node,
    destinations: Vec<Node>,
    /// The sender of every send.
    from: Vec<Node>,
    /// Where the hops of every send end in `hops`; none while every send has one hop.
    ends: Option<Vec<u32>>,
    hops: Vec<Hop>,
}

impl Plan {
    /// An empty plan; add sends with [`Plan::push_send`] or [`Plan::push_edge`].
    pub fn new(kind: PlanKind, source: Node, destinations: Vec<Node>) -> Plan {
        Plan {
            kind,
            source,
            destinations,
            from: Vec::new(),
            ends: None,
            hops: Vec::new(),
        }
    }

    /// The family.
    pub fn kind(&self) -> PlanKind {
        self.kind
    }

    /// The source node.
    pub fn source(&self) -> Node {
        self.source
    }

    /// The destinations, in the order the request gave them.
    pub fn destinations(&self) -> &[Node] {
        &self.destinations
    }

    /// Append a send from `from` along `hops`.
    pub fn push_send(&mut self, from: Node, hops: impl IntoIterator<Item = Hop>) {
        self.hops.extend(hops);
        let end = self.hops.len() as u32;
        if self.ends.is_none() && end as usize != self.from.len() + 1 {
            self.ends = Some((1..=self.from.len() as u32).collect());
        }
        if let Some(ends) = &mut self.ends {
            ends.push(end);
        }
        self.from.push(from);
    }

    /// Append a tree edge: a one-hop send from `from` that leaves a copy at `to`.
    pub fn push_edge(&mut self, from: Node, to: Node) {
        self.push_send(from, [Hop::new(to, true)]);
    }

    /// The tree plan whose send `i` goes from `from[i]` to `hops[i]`, each hop leaving a copy:
    /// [`Plan::push_edge`] for every edge, the lists taken as they are.
    pub(crate) fn tree(
        source: Node,
        destinations: Vec<Node>,
        from: Vec<Node>,
        hops: Vec<Hop>,
    ) -> Plan {
        assert_eq!(from.len(), hops.len(), "one receiver per sender");
        debug_assert!(hops.iter().all(|h| h.drop()), "a tree's every hop drops");
        Plan {
            kind: PlanKind::Tree,
            source,
            destinations,
            from,
            ends: None,
            hops,
        }
    }

    /// The memory of the plan's senders and hops, emptied, for the next plan to be written into
    /// ([`crate::algo::Algorithm::plan_reusing`]).
    pub(crate) fn into_memory(self) -> (Vec<Node>, Vec<Hop>) {
        let (mut from, mut hops) = (self.from, self.hops);
        from.clear();
        hops.clear();
        (from, hops)
    }

    /// The number of sends.
    pub fn send_count(&self) -> usize {
        self.from.len()
    }

    /// Send number `i`.
    #[inline(always)]
    pub fn send(&self, i: usize) -> Send<'_> {
        let hops = match &self.ends {
            None => &self.hops[i..=i],
            Some(ends) => {
                let start = if i == 0 { 0 } else { ends[i - 1] };
                &self.hops[start as usize..ends[i] as usize]
            }
        };
        Send {
            from: self.from[i],
            hops,
        }
    }

    /// The sends in plan order.
    pub fn sends(&self) -> impl ExactSizeIterator<Item = Send<'_>> + '_ {
        Sends {
            from: self.from.iter(),
            ends: self.ends.as_deref().map(|ends| ends.iter()),
            hops: &self.hops,
            start: 0,
        }
    }

    /// Traffic `|E|`: the number of channel traversals over all sends (seed 001 eq. 2.1.1).
    pub fn traffic(&self) -> u32 {
        self.hops.len() as u32
    }

    /// The same sends with each node's sends put in a new port order: within one sender,
    /// sends are sorted by `rank[send index]` (stable), and the sends are re-listed causally
    /// (breadth first from the source).
    pub fn reordered(&self, rank: &[u64]) -> Plan {
        assert_eq!(rank.len(), self.from.len(), "one rank per send");
        let mut by = self.by_sender();
        for group in by
            .order
            .chunk_by_mut(|&a, &b| self.from[a as usize] == self.from[b as usize])
        {
            group.sort_by_key(|&i| rank[i as usize]);
        }
        let mut out = Plan::new(self.kind, self.source, self.destinations.clone());
        out.from.reserve(self.from.len());
        out.hops.reserve(self.hops.len());
        let mut frontier = Vec::with_capacity(self.from.len() + 1);
        frontier.push(self.source);
        let mut next = 0;
        while let Some(&node) = frontier.get(next) {
            next += 1;
            for &i in by.of(node) {
                let hops = self.send(i as usize).hops;
                out.push_send(node, hops.iter().copied());
                frontier.extend(hops.iter().filter(|h| h.drop()).map(|h| h.node()));
            }
        }
        out
    }

    /// The sends grouped by sender, each group in plan order.
    pub(crate) fn by_sender(&self) -> BySender {
        let mut by = BySender::default();
        self.group_by_sender(&mut by);
        by
    }

    /// [`Plan::by_sender`] into `by`'s storage, so that a caller grouping many plans reuses it:
    /// the previous plan's slots cleared, a count per slot ([`BySender`]: by node or by sender),
    /// a running sum, and the sends placed from the last, so that each slot's end moves down to
    /// its start.
    pub(crate) fn group_by_sender(&self, by: &mut BySender) {
        let BySender {
            dense,
            slot,
            senders,
            bounds,
            order,
        } = by;
        slot.reset(senders.drain(..).map(|v| v.index()));
        let nodes = self.from.iter().map(|f| f.index() + 1).max().unwrap_or(0);
        *dense = nodes <= DENSE * self.from.len();
        bounds.clear();
        bounds.push(0);
        if *dense {
            bounds.resize(nodes + 1, 0);
            for f in &self.from {
                bounds[f.index() + 1] += 1;
            }
        } else {
            if !slot.fits(nodes) {
                // All zeros, like the table it replaces; room for the next power of two, so
                // that storage reused for plans with ever larger sender ids is allocated (and
                // its pages backed) again a few times, not at every new largest id.
                *slot = NodeTable::reusable(nodes.next_power_of_two());
            }
            for f in &self.from {
                let v = f.index();
                let mut s = slot.value(v);
                if s == 0 {
                    senders.push(*f);
                    bounds.push(0);
                    s = senders.len() as u32;
                    slot.set(v, s);
                }
                bounds[s as usize] += 1;
            }
        }
        let mut end = 0;
        for x in bounds.iter_mut() {
            end += *x;
            *x = end;
        }
        order.clear();
        order.resize(self.from.len(), 0);
        if *dense {
            place_from_last(&self.from, bounds, order, |v| v + 1);
        } else {
            place_from_last(&self.from, bounds, order, |v| slot.value(v) as usize);
        }
        bounds.push(self.from.len() as u32);
    }

    /// Check every rule a plan must keep, for `shape`:
    ///
    /// * the destinations are distinct nodes of the shape other than the source;
    /// * every hop is a link of the topology;
    /// * every send leaves a node that already holds the message (the source, or a node an
    ///   earlier send dropped a copy at), ends with a drop, and no node receives twice;
    /// * every destination receives the message;
    /// * tree plans: one-hop sends only, and every leaf is a destination;
    /// * with `shortest`: every destination is reached over a path as long as its distance.
    pub fn validate(&self, shape: &Shape, shortest: bool) -> Result<(), PlanError> {
        let name = |n: Node| shape.fmt_node(n);
        self.check_destinations(shape)?;
        // reached: 1 + the hops from the source along the plan to where a node received the
        // message, 0 while it has not. Per-node tables that cost the plan, and nothing below
        // visits a node the plan does not reach: a plan on a large mesh is checked in the
        // time it takes to read it.
        let table = || NodeTable::for_plan(shape.len(), self.hops.len() + 1);
        let (mut reached, mut sends_from, mut is_dest) = (table(), table(), table());
        reached.set(self.source.index(), 1);
        for (i, send) in self.sends().enumerate() {
            let from = send.from;
            if from.index() >= shape.len() || reached.value(from.index()) == 0 {
                return Err(PlanError::SenderLacksMessage {
                    send: i,
                    node: format!("node {}", from.index()),
                });
            }
            if self.kind == PlanKind::Tree && send.hops.len() != 1 {
                return Err(PlanError::TreeHopLength(i));
            }
            if send.hops.last().is_none_or(|h| !h.drop()) {
                return Err(PlanError::DeliversNothing(i));
            }
            sends_from.set(from.index(), sends_from.value(from.index()) + 1);
            let mut at = from;
            for (j, hop) in send.hops.iter().enumerate() {
                if hop.node().index() >= shape.len() || shape.link(at, hop.node()).is_none() {
                    return Err(PlanError::NotALink {
                        send: i,
                        from: name(at),
                        to: format!("node {}", hop.node().index()),
                    });
                }
                if hop.drop() {
                    if reached.value(hop.node().index()) != 0 {
                        return Err(PlanError::DeliveredTwice(name(hop.node())));
                    }
                    let depth = reached.value(from.index()) + j as u32 + 1;
                    reached.set(hop.node().index(), depth);
                }
                at = hop.node();
            }
        }
        for &d in &self.destinations {
            is_dest.set(d.index(), 1);
            let Some(depth) = reached.value(d.index()).checked_sub(1) else {
                return Err(PlanError::Unreached(name(d)));
            };
            let distance = shape.distance(self.source, d);
            if shortest && depth != distance {
                return Err(PlanError::NotShortest {
                    node: name(d),
                    hops: depth,
                    distance,
                });
            }
        }
        if self.kind == PlanKind::Tree {
            // The first useless leaf in node order, among the nodes the plan reached: its drops
            // (a drop at the source was refused above).
            let useless = self
                .hops
                .iter()
                .filter(|h| h.drop())
                .map(|h| h.node())
                .filter(|n| sends_from.value(n.index()) == 0 && is_dest.value(n.index()) == 0)
                .min();
            if let Some(n) = useless {
                return Err(PlanError::UselessLeaf(name(n)));
            }
        }
        Ok(())
    }

    fn check_destinations(&self, shape: &Shape) -> Result<(), PlanError> {
        let Some(fault) = multicast_fault(shape, self.source, &self.destinations) else {
            return Ok(());
        };
        let what = match fault {
            MulticastFault::SourceOutOfRange => {
                format!("source id {} is out of range", self.source.index())
            }
            MulticastFault::OutOfRange(d) => {
                format!("destination id {} is out of range", d.index())
            }
            MulticastFault::Source(d) => {
                format!("the source {} is a destination", shape.fmt_node(d))
            }
            MulticastFault::Twice(d) => format!("{} is listed twice", shape.fmt_node(d)),
            MulticastFault::Empty => "it is empty".to_string(),
        };
        Err(PlanError::Destinations(what))
    }
}

/// The first thing wrong with a multicast's source and destination list, as a scan in list order
/// meets it (the source first, then each destination in turn, then an empty list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MulticastFault {
    /// The source is not a node of the shape.
    SourceOutOfRange,
    /// A destination that is not a node of the shape.
    OutOfRange(Node),
    /// A destination that is the source.
    Source(Node),
    /// A destination listed a second time.
    Twice(Node),
    /// No destination.
    Empty,
}

/// The one check of a destination list, shared by [`crate::algo::Request::new`] (the input) and
/// [`Plan::validate`] (a plan's claim): `None` when the destinations are distinct nodes of `shape`
/// other than `source` and there is at least one. Duplicates are found by marking the nodes in a
/// bitmap when there is at least one destination per 64 nodes — the bitmap is then no longer than
/// the list, and no sort is needed (issue 14) — and by sorting the list otherwise, so the work is
/// O(K log K) in the K destinations, not proportional to a mesh much larger than the list.
pub(crate) fn multicast_fault(
    shape: &Shape,
    source: Node,
    destinations: &[Node],
) -> Option<MulticastFault> {
    if source.index() >= shape.len() {
        return Some(MulticastFault::SourceOutOfRange);
    }
    if destinations.is_empty() {
        return Some(MulticastFault::Empty);
    }
    if destinations.len().saturating_mul(64) >= shape.len() {
        destination_fault_marked(shape.len(), source, destinations)
    } else {
        destination_fault_sorted(shape.len(), source, destinations)
    }
}

/// The first destination out of `0..len`, equal to `source` or listed before, found in one scan
/// in list order that marks each destination in a bitmap of `len` bits.
fn destination_fault_marked(
    len: usize,
    source: Node,
    destinations: &[Node],
) -> Option<MulticastFault> {
    let mut seen = vec![0u64; len.div_ceil(64)];
    destinations.iter().find_map(|&d| {
        if d.index() >= len {
            return Some(MulticastFault::OutOfRange(d));
        }
        if d == source {
            return Some(MulticastFault::Source(d));
        }
        let (word, bit) = (d.index() / 64, 1u64 << (d.index() % 64));
        let twice = seen[word] & bit != 0;
        seen[word] |= bit;
        twice.then_some(MulticastFault::Twice(d))
    })
}

/// [`destination_fault_marked`] by sorting the destinations with their positions: the first
/// repeat is the least position that follows an equal destination in the sorted list.
fn destination_fault_sorted(
    len: usize,
    source: Node,
    destinations: &[Node],
) -> Option<MulticastFault> {
    let misplaced = destinations
        .iter()
        .position(|&d| d.index() >= len || d == source);
    let mut sorted: Vec<(Node, usize)> = destinations.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    let repeated = sorted
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[1].1)
        .min();
    let first = match (misplaced, repeated) {
        (Some(m), Some(r)) => m.min(r),
        (m, r) => m.or(r)?,
    };
    let d = destinations[first];
    Some(if misplaced != Some(first) {
        MulticastFault::Twice(d)
    } else if d.index() >= len {
        MulticastFault::OutOfRange(d)
    } else {
        MulticastFault::Source(d)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &Shape, c: &[u32]) -> Node {
        s.node(c).unwrap()
    }

    /// On a 3×3 mesh the validator's per-node tables are dense, on a 400×400 one (the same
    /// plans in its corner) sparse: the verdicts are the same.
    #[test]
    fn validator_accepts_a_small_tree_and_rejects_broken_ones() {
        for topology in ["mesh:3x3", "mesh:400x400"] {
            let s: Shape = topology.parse().unwrap();
            let src = n(&s, &[0, 0]);
            let dests = vec![n(&s, &[1, 1]), n(&s, &[2, 0])];
            let mut p = Plan::new(PlanKind::Tree, src, dests.clone());
            p.push_edge(src, n(&s, &[1, 0]));
            p.push_edge(n(&s, &[1, 0]), n(&s, &[2, 0]));
            p.push_edge(n(&s, &[1, 0]), n(&s, &[1, 1]));
            assert_eq!(p.validate(&s, true), Ok(()));

            let mut jump = Plan::new(PlanKind::Tree, src, dests.clone());
            jump.push_edge(src, n(&s, &[2, 0]));
            assert!(matches!(
                jump.validate(&s, false),
                Err(PlanError::NotALink { .. })
            ));

            let mut early = Plan::new(PlanKind::Tree, src, dests.clone());
            early.push_edge(n(&s, &[1, 0]), n(&s, &[1, 1]));
            assert!(matches!(
                early.validate(&s, false),
                Err(PlanError::SenderLacksMessage { .. })
            ));

            // Two useless leaves: the first in node order is named, not the first added.
            let mut leaf = p.clone();
            leaf.push_edge(n(&s, &[1, 1]), n(&s, &[1, 2]));
            leaf.push_edge(n(&s, &[2, 0]), n(&s, &[2, 1]));
            let first = s.fmt_node(n(&s, &[2, 1]));
            assert_eq!(leaf.validate(&s, false), Err(PlanError::UselessLeaf(first)));

            let mut twice = p.clone();
            twice.push_edge(n(&s, &[2, 0]), n(&s, &[2, 1]));
            twice.push_edge(n(&s, &[2, 1]), n(&s, &[1, 1]));
            assert!(matches!(
                twice.validate(&s, false),
                Err(PlanError::DeliveredTwice(_))
            ));

            let mut missing = Plan::new(PlanKind::Tree, src, dests);
            missing.push_edge(src, n(&s, &[1, 0]));
            missing.push_edge(n(&s, &[1, 0]), n(&s, &[1, 1]));
            assert!(matches!(
                missing.validate(&s, false),
                Err(PlanError::Unreached(_))
            ));
        }
    }

    #[test]
    fn validator_checks_shortest_paths_and_paths() {
        for topology in ["mesh:3x3", "mesh:400x400"] {
            let s: Shape = topology.parse().unwrap();
            let src = n(&s, &[0, 0]);
            let far = n(&s, &[1, 0]);
            let mut p = Plan::new(PlanKind::Path, src, vec![far]);
            p.push_send(
                src,
                [[0, 1], [1, 1], [1, 0]].map(|c| Hop::new(n(&s, &c), c == [1, 0])),
            );
            assert_eq!(p.validate(&s, false), Ok(()));
            assert_eq!(
                p.validate(&s, true),
                Err(PlanError::NotShortest {
                    node: s.fmt_node(far),
                    hops: 3,
                    distance: 1
                })
            );
        }
    }

    #[test]
    fn sends_of_one_hop_then_of_others_keep_their_hops() {
        let s: Shape = "mesh:3x3".parse().unwrap();
        let src = n(&s, &[0, 0]);
        let hop = |c: [u32; 2], drop| Hop::new(n(&s, &c), drop);
        let dests = vec![n(&s, &[1, 0]), n(&s, &[1, 2]), n(&s, &[0, 1])];
        let mut p = Plan::new(PlanKind::Unicast, src, dests);
        p.push_send(src, [hop([1, 0], true)]);
        p.push_send(n(&s, &[1, 0]), [hop([1, 1], false), hop([1, 2], true)]);
        p.push_send(src, [hop([0, 1], true)]);
        let sends: Vec<(Node, Vec<Hop>)> = p.sends().map(|x| (x.from, x.hops.to_vec())).collect();
        assert_eq!(
            sends,
            [
                (src, vec![hop([1, 0], true)]),
                (n(&s, &[1, 0]), vec![hop([1, 1], false), hop([1, 2], true)]),
                (src, vec![hop([0, 1], true)]),
            ]
        );
        assert_eq!(p.validate(&s, true), Ok(()));
        p.push_send(src, []);
        assert!(p.send(3).hops.is_empty());
        assert_eq!(p.traffic(), 4);
    }

    #[test]
    fn a_hop_keeps_its_node_and_flag_in_one_word() {
        let s: Shape = "mesh:8192x8192".parse().unwrap();
        let last = n(&s, &[8191, 8191]);
        for (node, drop) in [
            (last, true),
            (last, false),
            (Node(0), true),
            (Node(0), false),
        ] {
            let hop = Hop::new(node, drop);
            assert_eq!((hop.node(), hop.drop()), (node, drop));
        }
        assert_eq!(std::mem::size_of::<Hop>(), 4);
        assert_eq!(
            format!("{:?}", Hop::new(Node(3), true)),
            "Hop { node: Node(3), drop: true }"
        );
    }

    #[test]
    fn sends_grouped_by_sender_keep_plan_order() {
        let s: Shape = "mesh:3x3".parse().unwrap();
        let [src, a, b] = [[0, 0], [1, 0], [2, 2]].map(|c| n(&s, &c));
        let mut p = Plan::new(PlanKind::Tree, src, vec![a]);
        for from in [src, a, src, a, src] {
            p.push_edge(from, b);
        }
        let by = p.by_sender();
        assert_eq!(by.of(src), [0, 2, 4]);
        assert_eq!(by.of(a), [1, 3]);
        assert!(by.of(b).is_empty());
        assert!(by.of(n(&s, &[2, 1])).is_empty());
    }

    /// By node or by sender, and reusing the storage across both: every node's sends in plan
    /// order, and one group per sender.
    #[test]
    fn sends_grouped_by_node_or_by_sender_alike() {
        let s: Shape = "mesh:100x100".parse().unwrap();
        let plan = |senders: &[u32]| {
            let mut p = Plan::new(PlanKind::Tree, Node(0), vec![]);
            for &v in senders {
                p.push_edge(Node(v), Node(1));
            }
            p
        };
        // Few sends from high ids: by sender; many from low ids: by node.
        let sparse = plan(&[9000, 50, 9000, 7000, 50]);
        let dense = plan(&[3, 1, 3, 0, 1, 1, 2]);
        let mut by = BySender::default();
        for (p, dense_mode) in [(&sparse, false), (&dense, true), (&sparse, false)] {
            p.group_by_sender(&mut by);
            assert_eq!(by.dense, dense_mode);
            for v in s.nodes() {
                let want: Vec<u32> = (0..p.send_count() as u32)
                    .filter(|&i| p.send(i as usize).from == v)
                    .collect();
                assert_eq!(by.of(v), want, "{v:?}");
            }
            let mut groups: Vec<&[u32]> = by.groups().filter(|g| !g.is_empty()).collect();
            groups.sort();
            let mut want: Vec<Vec<u32>> = Vec::new();
            for i in 0..p.send_count() as u32 {
                let from = p.send(i as usize).from;
                match want.iter_mut().find(|g| p.send(g[0] as usize).from == from) {
                    Some(g) => g.push(i),
                    None => want.push(vec![i]),
                }
            }
            want.sort();
            assert_eq!(groups, want);
        }
    }

    #[test]
    fn reorder_keeps_sends_and_changes_port_order() {
        let s: Shape = "mesh:3x3".parse().unwrap();
        let src = n(&s, &[0, 0]);
        let mut p = Plan::new(PlanKind::Tree, src, vec![n(&s, &[1, 0]), n(&s, &[0, 1])]);
        p.push_edge(src, n(&s, &[1, 0]));
        p.push_edge(src, n(&s, &[0, 1]));
        let q = p.reordered(&[1, 0]);
        assert_eq!(q.send(0).hops[0].node(), n(&s, &[0, 1]));
        assert_eq!(q.validate(&s, true), Ok(()));
        assert_eq!(q.traffic(), 2);
    }

    /// The scan in list order that `multicast_fault` must agree with: the source, then each
    /// destination (out of range, the source, seen before), then an empty list.
    fn first_fault_in_order(len: usize, source: u32, dests: &[u32]) -> Option<MulticastFault> {
        if source as usize >= len {
            return Some(MulticastFault::SourceOutOfRange);
        }
        let mut seen = std::collections::HashSet::new();
        for &d in dests {
            let node = Node(d);
            if d as usize >= len {
                return Some(MulticastFault::OutOfRange(node));
            }
            if d == source {
                return Some(MulticastFault::Source(node));
            }
            if !seen.insert(d) {
                return Some(MulticastFault::Twice(node));
            }
        }
        dests.is_empty().then_some(MulticastFault::Empty)
    }

    proptest::proptest! {
        #[test]
        fn the_destination_check_reports_what_a_scan_in_list_order_meets_first(
            source in 0u32..11,
            dests in proptest::collection::vec(0u32..11, 0..8),
        ) {
            let shape: Shape = "mesh:3x3".parse().unwrap();
            let nodes: Vec<Node> = dests.iter().map(|&d| Node(d)).collect();
            proptest::prop_assert_eq!(
                multicast_fault(&shape, Node(source), &nodes),
                first_fault_in_order(shape.len(), source, &dests)
            );
        }

        /// The bitmap and the sort find the same fault, whichever the list's density, which
        /// decides which of them [`multicast_fault`] runs.
        #[test]
        fn marking_and_sorting_find_the_same_destination_fault(
            len in 1usize..140,
            source in 0u32..140,
            dests in proptest::collection::vec(0u32..150, 1..40),
        ) {
            let source = Node(source % len as u32);
            let nodes: Vec<Node> = dests.iter().map(|&d| Node(d % (len as u32 + 3))).collect();
            let marked = destination_fault_marked(len, source, &nodes);
            proptest::prop_assert_eq!(marked, destination_fault_sorted(len, source, &nodes));
            let wanted = first_fault_in_order(len, source.0, &nodes.iter().map(|d| d.0).collect::<Vec<_>>());
            proptest::prop_assert_eq!(marked, wanted);
        }
    }
}
