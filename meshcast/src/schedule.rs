//! Port order at the nodes of a plan: the order the paper states, the optimal one, or the
//! paper's with wraparound links last.
//!
//! An algorithm returns its plan with each node's sends in the transmission priority its paper
//! states (DIAG: the stem first; DDS: X before Y; tori: wraparound links first). The one-port
//! time of [`crate::eval`] depends on that order as much as on the tree. [`Schedule::Optimal`]
//! keeps the tree and reorders every node's sends so the one-port time is the least any order
//! can give: the send whose remaining work is longest goes first (an exchange argument shows
//! that sorting by remaining completion time, longest first, minimises `max(i + Cᵢ)`).
//! [`Schedule::WrapLast`] keeps the paper's order except that a node sends over its wraparound
//! links after its other links: a reading of seed 001's torus times (issue 17).
//!
//! Every order is computed as each send's place among its sender's sends. [`Schedule::order`]
//! re-lists the plan in those places; [`Schedule::metrics`] (what sweeps use) plays the one-port
//! time from the places directly, so a plan measured in several orders is never copied — and for
//! a tree plan in the optimal order takes it from the completion times the ranking computed.

use std::borrow::Cow;

use crate::eval::{one_port_time_in_order, Held, Metrics};
use crate::node_table::LARGE;
use crate::plan::{BySender, Plan, PlanKind};
use crate::topology::{Node, Shape};

/// Which port order a plan is evaluated with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// The transmission priority the algorithm's paper states.
    #[default]
    Paper,
    /// Per node, longest remaining subtree first: the least one-port time for the same sends.
    Optimal,
    /// Per node, the paper's order with the sends over a wraparound link moved after the others
    /// (stable): the reverse of seed 001 §3.2.1.4's wraparound-first rule. On a mesh, the paper's.
    WrapLast,
}

impl Schedule {
    /// `plan` with this schedule applied.
    pub fn apply(self, plan: Plan, shape: &Shape) -> Plan {
        match self {
            Schedule::Paper => plan,
            _ => self.order(&plan, shape).into_owned(),
        }
    }

    /// `plan` with this schedule applied, borrowed where the schedule keeps the plan's order:
    /// what a caller that measures one plan under several schedules takes.
    pub fn order<'a>(self, plan: &'a Plan, shape: &Shape) -> Cow<'a, Plan> {
        match self {
            Schedule::Paper => Cow::Borrowed(plan),
            Schedule::Optimal => Cow::Owned(optimal(plan, shape)),
            Schedule::WrapLast => Cow::Owned(wrap_last(plan, shape)),
        }
    }

    /// Every schedule, in the order reports list them.
    pub const ALL: [Schedule; 3] = [Schedule::Paper, Schedule::Optimal, Schedule::WrapLast];

    /// The name `--schedule` takes and reports print: `paper`, `optimal`, `wrap-last`.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Paper => "paper",
            Schedule::Optimal => "optimal",
            Schedule::WrapLast => "wrap-last",
        }
    }
}

/// Reorder each node's sends, longest remaining completion first (ties keep the paper's order).
pub fn optimal(plan: &Plan, shape: &Shape) -> Plan {
    Schedule::Optimal.reorder(plan, shape)
}

/// Move each node's sends over a wraparound link after its other sends, keeping the plan's order
/// otherwise.
pub fn wrap_last(plan: &Plan, shape: &Shape) -> Plan {
    Schedule::WrapLast.reorder(plan, shape)
}

/// Reusable buffers for timing plans in several port orders ([`Schedule::metrics`]): a caller
/// that measures many plans keeps one per thread, so timing a plan allocates almost nothing.
#[derive(Clone, Debug, Default)]
pub struct Buffers {
    /// The sends grouped by sender, each group in plan order.
    by: BySender,
    /// Per send, its place among its sender's sends in the order being timed.
    position: Vec<u32>,
    /// Per send, what its sender's sends are ranked by: the optimal order's remaining
    /// completion time, the wrap-last order's wraparound flag.
    key: Vec<u32>,
    /// One large sender's sends as ranking keys, sorted ([`rank_sends`]).
    sorted: Vec<u64>,
    /// Per node, when it holds the message (the playback's table).
    held: Held,
    /// The tables of a tree plan timed in two passes ([`tree_times`]).
    tree: TreeTables,
}

impl Schedule {
    /// The metrics of `plan` (valid for `shape`) in each of `orders`, in that order: each is
    /// `Metrics::of(&order.order(plan, shape), shape)`, but no reordered plan is built. Only
    /// the one-port time depends on the order: it is played from each send's place among its
    /// sender's sends (`eval::one_port_time_in_order`), the rest is counted once.
    pub fn metrics(
        plan: &Plan,
        shape: &Shape,
        orders: &[Schedule],
        buffers: &mut Buffers,
    ) -> Vec<Metrics> {
        let traffic = plan.traffic();
        let metrics = |one_port_time, all_port_time| Metrics {
            traffic,
            additional_traffic: traffic.saturating_sub(plan.destinations().len() as u32),
            one_port_time,
            all_port_time,
        };
        let paper_or_optimal = orders
            .iter()
            .all(|o| matches!(o, Schedule::Paper | Schedule::Optimal));
        if plan.kind() == PlanKind::Tree && paper_or_optimal && shape.len() < LARGE {
            if let Some(t) = tree_times(plan, shape, &mut buffers.tree) {
                return orders
                    .iter()
                    .map(|&order| match order {
                        Schedule::Optimal => metrics(t.optimal, t.all_port),
                        _ => metrics(t.paper, t.all_port),
                    })
                    .collect();
            }
        }
        let all_port_time = one_port_time_in_order(plan, shape, |_| 0, &mut buffers.held);
        plan.group_by_sender(&mut buffers.by);
        orders
            .iter()
            .map(|&order| {
                let last = order.place(plan, shape, buffers);
                let position = &buffers.position;
                // Every leaf of a tree plan is a destination: the last node to hold the message
                // is one.
                let one_port_time = match last {
                    Some(t) if plan.kind() == PlanKind::Tree => t,
                    _ => one_port_time_in_order(plan, shape, |i| position[i], &mut buffers.held),
                };
                metrics(one_port_time, all_port_time)
            })
            .collect()
    }

    /// `plan` with each node's sends put in this order.
    fn reorder(self, plan: &Plan, shape: &Shape) -> Plan {
        let mut buffers = Buffers::default();
        plan.group_by_sender(&mut buffers.by);
        self.place(plan, shape, &mut buffers);
        let rank: Vec<u64> = buffers.position.iter().map(|&p| u64::from(p)).collect();
        plan.reordered(&rank)
    }

    /// Fill `buffers.position` with each send's place among its sender's sends in this order
    /// (the sends grouped in `buffers.by`). The optimal order also gives the time the last node
    /// to receive holds the message, since it ranks by it ([`longest_first`]).
    fn place(self, plan: &Plan, shape: &Shape, buffers: &mut Buffers) -> Option<u32> {
        buffers.position.clear();
        buffers.position.resize(plan.send_count(), 0);
        match self {
            Schedule::Paper => {
                let Buffers { by, position, .. } = buffers;
                for sends in by.groups() {
                    for (place, &s) in sends.iter().enumerate() {
                        position[s as usize] = place as u32;
                    }
                }
                None
            }
            Schedule::Optimal => Some(longest_first(plan, buffers)),
            Schedule::WrapLast => {
                let Buffers {
                    by,
                    position,
                    key,
                    sorted,
                    ..
                } = buffers;
                key.clear();
                key.extend(plan.sends().map(|send| {
                    let first = send.hops.first().map_or(send.from, |h| h.node());
                    u32::from(is_wraparound(shape, send.from, first))
                }));
                for sends in by.groups() {
                    rank_sends(sends, |s| key[s as usize], sorted, position);
                }
                None
            }
        }
    }
}

/// The optimal order: per node, longest remaining completion first, ties in plan order. The
/// completion of send `i` is the time from its start until every node it drops a copy at, and
/// everything below, holds the message. Sends are listed causally, so in reverse order a node's
/// own sends are done before the send that reaches it, and each node's sends are ranked once.
/// Returns the source's completion: when, in this order, the last node to receive holds the
/// message.
fn longest_first(plan: &Plan, buffers: &mut Buffers) -> u32 {
    let Buffers {
        by,
        position,
        key: completion,
        sorted,
        ..
    } = buffers;
    completion.clear();
    completion.resize(plan.send_count(), 0);
    let mut place = |node: Node, completion: &[u32]| {
        let sends = by.of(node);
        rank_sends(
            sends,
            |s| u32::MAX - completion[s as usize],
            sorted,
            position,
        );
        let below = sends
            .iter()
            .map(|&s| position[s as usize] + completion[s as usize]);
        below.max().unwrap_or(0)
    };
    for i in (0..plan.send_count()).rev() {
        let send = plan.send(i);
        let done = send.hops.iter().enumerate().filter(|(_, h)| h.drop());
        let longest = done
            .map(|(j, h)| j as u32 + 1 + place(h.node(), completion))
            .max();
        completion[i] = longest.unwrap_or(0);
    }
    place(plan.source(), completion)
}

/// The tables [`tree_times`] times a tree plan on, kept from plan to plan.
#[derive(Clone, Debug, Default)]
struct TreeTables {
    /// Per node: 1 + the send that brought it the message (0: none, the source), and
    /// [`SENDING`] once its run of sends began. 0 between plans.
    node: Vec<u32>,
    /// Per send: when its receiver holds the message with every port at once, and in the
    /// paper's order; then, backwards, how long the receiver's subtree takes in the optimal
    /// order.
    held: Vec<(u32, u32)>,
    below: Vec<u32>,
    /// Each run of one sender's sends: the sender and its first send.
    runs: Vec<(u32, u32)>,
    /// One run's completions, sorted.
    sorted: Vec<u32>,
}

/// [`TreeTables::node`]'s mark of a node whose run of sends began.
const SENDING: u32 = 1 << 31;

/// What [`tree_times`] finds of a tree plan.
struct TreeTimes {
    paper: u32,
    optimal: u32,
    all_port: u32,
}

/// The one-port times of a tree plan in the paper's order and in the optimal order, and its
/// all-port time, in two passes over its sends without grouping them (issue 14: on the sweeps'
/// small meshes the grouping, the places and the two playbacks were a quarter of the time).
/// Forwards: when each receiver holds the message, every port at once and in the paper's
/// order — a send's place among its sender's is its place in the sender's run. Backwards,
/// run after run: how long each node's subtree takes with its sends longest first, the time
/// [`longest_first`] finds (the largest `place + completion` does not depend on how ties are
/// ranked). `None` unless every send is one hop and every sender sends in one run of
/// consecutive sends, as a listed tree's do; the times are then those of the general way.
fn tree_times(plan: &Plan, shape: &Shape, t: &mut TreeTables) -> Option<TreeTimes> {
    if t.node.len() < shape.len() {
        t.node = vec![0; shape.len()];
    }
    let times = forward(plan, t);
    let times = times.and_then(|(paper, all_port)| Some((paper, all_port, backward(plan, t)?)));
    for send in plan.sends() {
        t.node[send.from.index()] = 0;
        if let Some(h) = send.hops.first() {
            t.node[h.node().index()] = 0;
        }
    }
    t.node[plan.source().index()] = 0;
    let (paper, all_port, optimal) = times?;
    Some(TreeTimes {
        paper,
        optimal,
        all_port,
    })
}

/// [`tree_times`]' forward pass: the runs, each receiver's times, and the last destination's
/// (paper, all-port) times.
fn forward(plan: &Plan, t: &mut TreeTables) -> Option<(u32, u32)> {
    t.held.clear();
    t.runs.clear();
    let mut place = 0;
    for (i, send) in plan.sends().enumerate() {
        let (from, [hop]) = (send.from.index(), send.hops) else {
            return None;
        };
        if t.runs.last().is_some_and(|&(u, _)| u as usize == from) {
            place += 1;
        } else {
            if t.node[from] & SENDING != 0 {
                return None;
            }
            t.node[from] |= SENDING;
            t.runs.push((from as u32, i as u32));
            place = 0;
        }
        let (all, paper) = match t.node[from] & !SENDING {
            0 if from == plan.source().index() => (0, 0),
            0 => return None,
            r => t.held[r as usize - 1],
        };
        t.held.push((all + 1, paper + place + 1));
        let to = &mut t.node[hop.node().index()];
        if !hop.drop() || *to != 0 {
            return None;
        }
        *to = i as u32 + 1;
    }
    let reached = |d: Node| match t.node[d.index()] & !SENDING {
        0 => (0, 0),
        r => t.held[r as usize - 1],
    };
    let last = plan.destinations().iter().map(|&d| reached(d));
    Some(last.fold((0, 0), |(p, a), (all, paper)| (p.max(paper), a.max(all))))
}

/// [`tree_times`]' backward pass over the runs the forward pass found: the source's subtree's
/// time in the optimal order.
fn backward(plan: &Plan, t: &mut TreeTables) -> Option<u32> {
    let n = plan.send_count();
    t.below.clear();
    t.below.resize(n, 0);
    let mut end = n;
    let mut source = 0;
    for &(sender, start) in t.runs.iter().rev() {
        let run = start as usize..end;
        end = start as usize;
        let longest = if run.len() == 1 {
            1 + t.below[run.start]
        } else {
            t.sorted.clear();
            t.sorted.extend(run.map(|k| 1 + t.below[k]));
            t.sorted.sort_unstable_by(|a, b| b.cmp(a));
            let ranked = t.sorted.iter().enumerate();
            ranked.map(|(k, &c)| k as u32 + c).max()?
        };
        match t.node[sender as usize] & !SENDING {
            0 => source = longest,
            r => t.below[r as usize - 1] = longest,
        }
    }
    Some(source)
}

/// Senders with at most this many sends are ranked by counting, larger ones by sorting.
const FEW: usize = 8;

/// Rank the sends of one node, `sends` (in plan order), by `key`, stably: each send's place in
/// that order goes to `position`. Ties are broken by the place in `sends`, so every send has a
/// distinct ranking key `key << 32 | place`, and its rank is the number of smaller ones: counted
/// for a node with [`FEW`] sends or fewer (every tree node), sorted in `sorted` otherwise. A lone
/// send — most senders of a tree — is first without a key.
#[inline]
fn rank_sends(
    sends: &[u32],
    key: impl Fn(u32) -> u32,
    sorted: &mut Vec<u64>,
    position: &mut [u32],
) {
    if let &[s] = sends {
        position[s as usize] = 0;
        return;
    }
    let ranked = sends
        .iter()
        .enumerate()
        .map(|(place, &s)| u64::from(key(s)) << 32 | place as u64);
    if sends.len() <= FEW {
        let mut keys = [0u64; FEW];
        for (k, r) in keys.iter_mut().zip(ranked) {
            *k = r;
        }
        let keys = &keys[..sends.len()];
        for (&s, &k) in sends.iter().zip(keys) {
            position[s as usize] = keys.iter().filter(|&&other| other < k).count() as u32;
        }
    } else {
        sorted.clear();
        sorted.extend(ranked);
        sorted.sort_unstable();
        for (place, &k) in sorted.iter().enumerate() {
            position[sends[k as u32 as usize] as usize] = place as u32;
        }
    }
}

/// Whether the link between neighbours `a` and `b` wraps around: their coordinates differ by
/// more than one in some dimension (a ring of two nodes has no link to tell apart). Neighbours
/// differ in one dimension `d`, by one or by `k_d − 1`, so their ids differ by `d`'s stride or,
/// over a wraparound link of a ring longer than two, by `(k_d − 1)` strides — which lies
/// strictly between two strides: the link wraps around when the difference is no stride.
fn is_wraparound(shape: &Shape, a: Node, b: Node) -> bool {
    let diff = a.0.abs_diff(b.0);
    let mut stride = 1;
    !shape.dims().iter().any(|&k| {
        let step = diff == stride;
        stride = stride.saturating_mul(k);
        step
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Request;
    use crate::eval::Metrics;

    /// On a torus, a wraparound-first node sends its wraparound child last under `WrapLast`;
    /// the links, and so the traffic and the all-port time, stay the same.
    #[test]
    fn wrap_last_moves_only_the_wraparound_sends() {
        let req = Request::parse("torus:8x8", "0,0", "7,0 1,0 2,0 0,7 0,1 6,6").unwrap();
        let plan = crate::algo::find("vh").unwrap().route(&req).unwrap();
        let shape = req.shape();
        let later = wrap_last(&plan, shape);
        later.validate(shape, true).unwrap();
        let first_send = |p: &Plan| p.send(0).hops[0].node();
        assert!(is_wraparound(shape, plan.source(), first_send(&plan)));
        assert!(!is_wraparound(shape, later.source(), first_send(&later)));
        let (a, b) = (Metrics::of(&plan, shape), Metrics::of(&later, shape));
        assert_eq!((a.traffic, a.all_port_time), (b.traffic, b.all_port_time));
        let mesh = Request::parse("mesh:8x8", "0,0", "7,0 1,0 0,7 6,6").unwrap();
        let plan = crate::algo::find("diag").unwrap().route(&mesh).unwrap();
        let same = Schedule::WrapLast.order(&plan, mesh.shape());
        assert_eq!(
            same.sends().map(|s| s.hops[0].node()).collect::<Vec<_>>(),
            plan.sends().map(|s| s.hops[0].node()).collect::<Vec<_>>()
        );
    }

    /// The metrics of every order, timed from the sends' places, are those of the reordered
    /// plans: trees, paths and unicasts on meshes and tori, random sources and destinations.
    #[test]
    fn metrics_in_every_order_are_those_of_the_reordered_plans() {
        use crate::experiment::sweep::{Placement, Sweep};
        use Schedule::{Optimal, Paper};
        let shapes = ["mesh:7x6", "torus:6x6", "mesh:4x4x4", "torus:4x3x5"];
        let mut buffers = Buffers::default();
        let mut timed = 0;
        for (seed, topology) in shapes.into_iter().enumerate() {
            let shape: Shape = topology.parse().unwrap();
            let sweep = Sweep {
                shape: shape.clone(),
                placement: Placement::Random,
                algorithms: Vec::new(),
                ks: Vec::new(),
                runs: 1,
                seed: seed as u64,
                schedule: Schedule::Paper,
                wormhole: None,
                params: Default::default(),
            };
            for (k, run) in (1..shape.len())
                .step_by(3)
                .flat_map(|k| (0..4).map(move |r| (k, r)))
            {
                let req = sweep.request(k, run).unwrap();
                let algorithms = crate::algo::REGISTRY.iter();
                for a in algorithms.filter(|a| a.support.covers(&shape)) {
                    let Ok(plan) = a.route(&req) else { continue };
                    // With the wrap-last order, the general way; without, trees in two passes.
                    for orders in [&Schedule::ALL[..], &[Optimal, Paper], &[Paper]] {
                        let metrics = Schedule::metrics(&plan, &shape, orders, &mut buffers);
                        for (m, &order) in metrics.iter().zip(orders) {
                            let reordered = order.order(&plan, &shape);
                            let want = Metrics::of(&reordered, &shape);
                            assert_eq!(*m, want, "{} {order:?}", a.name);
                        }
                    }
                    timed += 1;
                }
            }
        }
        assert!(timed > 1000, "{timed} plans");
    }

    /// Over every link of meshes and tori (rings of two, three and more), the link wraps
    /// around exactly when its ends' coordinates differ by more than one in some dimension.
    #[test]
    fn wraparound_links_are_told_by_their_id_difference() {
        for topology in [
            "torus:2x5x3",
            "torus:7x2",
            "torus:4x4x4",
            "mesh:3x4x2",
            "torus:9",
        ] {
            let shape: Shape = topology.parse().unwrap();
            for (a, (_, b)) in shape
                .nodes()
                .flat_map(|a| shape.links_from(a).map(move |l| (a, l)))
            {
                let by_coords =
                    (0..shape.rank()).any(|d| shape.coord(a, d).abs_diff(shape.coord(b, d)) > 1);
                assert_eq!(
                    is_wraparound(&shape, a, b),
                    by_coords,
                    "{topology} {a:?} {b:?}"
                );
            }
        }
    }

    proptest::proptest! {
        /// Counted or sorted, a node's ranks are the places of its sends in a stable sort by
        /// key.
        #[test]
        fn ranks_are_the_places_of_a_stable_sort(
            keys in proptest::collection::vec(0u32..4, 0..3 * FEW),
        ) {
            let sends: Vec<u32> = (0..keys.len() as u32).rev().collect();
            let mut stable = sends.clone();
            stable.sort_by_key(|&s| keys[s as usize]);
            let mut position = vec![u32::MAX; keys.len()];
            rank_sends(&sends, |s| keys[s as usize], &mut Vec::new(), &mut position);
            for (place, &s) in stable.iter().enumerate() {
                proptest::prop_assert_eq!(position[s as usize], place as u32);
            }
        }
    }

    #[test]
    fn names_are_distinct() {
        let names = Schedule::ALL.map(Schedule::name);
        assert_eq!(names, ["paper", "optimal", "wrap-last"]);
    }
}
