//! The processors: messages, each node's queue of sends, and what a node does when a copy
//! arrives.
//!
//! A node sends only what it holds: the source once the message is generated and prepared, any
//! other node once a worm has left it the whole message (its tail has passed). The sends a plan
//! gives a node wait in the node's queue in plan order and leave through the node's `d`
//! injection channels as they free up, so one port plays seed 001's one-port model and `d` ports
//! seed 002's d-port architecture. Unicast messages of the background traffic are one
//! dimension-ordered send each.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::plan::{BySender, Hop, Plan};
use crate::route::dimension_ordered;
use crate::topology::Node;

use super::network::{Arrival, Network, NONE};
use super::observer::Observer;
use crate::error::WormholeError;

/// What a message is.
enum Body {
    Unicast(Node),
    Multicast {
        plan: Plan,
        /// Boxed: every message, unicasts too, would otherwise carry its four tables' room.
        senders: Box<BySender>,
        /// Destination ids, sorted, and whether each has its copy.
        dests: Vec<u32>,
        got: Vec<bool>,
    },
}

impl Body {
    /// The hops of the message's plan (1 for a unicast): what its memory grows with — the plan,
    /// its senders, its destinations and its queued sends are each at most that many entries.
    fn hops(&self) -> u64 {
        match self {
            Body::Unicast(_) => 1,
            Body::Multicast { plan, .. } => u64::from(plan.traffic()),
        }
    }
}

/// One message in the system.
struct Message {
    body: Body,
    generated: u64,
    /// Destinations still without their copy.
    left: u32,
    /// Sends not yet over (queued, in start-up or in the network): the message's slot is reused
    /// only when none is left, so no worm ever carries the tag of another message.
    sends_left: u32,
    sum: u64,
    sum_sq: u128,
    measured: bool,
}

/// A send waiting at a node: message, send index in its plan (`NONE` for a unicast), and the
/// cycle from which it may start.
#[derive(Clone, Copy, Debug)]
struct Pending {
    msg: u32,
    send: u32,
    ready: u64,
}

/// A message whose last destination has its copy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Completed {
    pub multicast: bool,
    pub measured: bool,
    /// Generation to last arrival, in cycles.
    pub latency: u64,
    /// Coefficient of variation of the destinations' arrival times (multicasts with ≥ 2
    /// destinations).
    pub cv: Option<f64>,
    pub destinations: u32,
}

/// Messages and node queues around a [`Network`].
pub(crate) struct Nodes {
    messages: Vec<Option<Message>>,
    free: Vec<u32>,
    queues: Queues,
    hops: Vec<Hop>,
    arrivals: Vec<Arrival>,
    /// [`Nodes::live_hops`].
    live_hops: u64,
    startup: u32,
    /// When set, every destination's arrival cycle is recorded here.
    pub trace: Option<Vec<(Node, u64)>>,
}

impl Nodes {
    pub fn new(nodes: usize, startup: u32) -> Nodes {
        Nodes {
            messages: Vec::new(),
            free: Vec::new(),
            queues: Queues {
                queues: (0..nodes).map(|_| VecDeque::new()).collect(),
                at: vec![NONE; nodes],
                waiting: Vec::new(),
                marked: vec![false; nodes],
                stirred: Vec::new(),
                due: BinaryHeap::new(),
            },
            hops: Vec::new(),
            arrivals: Vec::new(),
            live_hops: 0,
            startup,
            trace: None,
        }
    }

    /// Messages in the system: waiting at a node, or with a worm in the network.
    pub fn live(&self) -> u64 {
        (self.messages.len() - self.free.len()) as u64
    }

    /// The hops of the plans of the messages in the system (1 per unicast).
    pub fn live_hops(&self) -> u64 {
        self.live_hops
    }

    /// A unicast from `from` to `to` generated at `now`.
    pub fn unicast(&mut self, now: u64, from: Node, to: Node, measured: bool) {
        let body = Body::Unicast(to);
        let msg = self.admit(body, now, 1, 1, measured);
        self.queues.push(from, msg, NONE, now);
    }

    /// A multicast by `plan` generated at `now`, whose source may send from `now + prep`.
    pub fn multicast(&mut self, now: u64, prep: u32, plan: Plan, measured: bool) {
        let mut dests: Vec<u32> = plan.destinations().iter().map(|d| d.0).collect();
        dests.sort_unstable();
        let n = dests.len();
        let senders = Box::new(plan.by_sender());
        let source = plan.source();
        let sends = plan.send_count() as u32;
        let body = Body::Multicast {
            plan,
            senders,
            dests,
            got: vec![false; n],
        };
        let msg = self.admit(body, now, n as u32, sends, measured);
        self.enqueue_sends(msg, source, now + u64::from(prep));
    }

    fn admit(&mut self, body: Body, now: u64, left: u32, sends: u32, measured: bool) -> u32 {
        self.live_hops += body.hops();
        let m = Message {
            body,
            generated: now,
            left,
            sends_left: sends,
            sum: 0,
            sum_sq: 0,
            measured,
        };
        match self.free.pop() {
            Some(i) => {
                self.messages[i as usize] = Some(m);
                i
            }
            None => {
                self.messages.push(Some(m));
                self.messages.len() as u32 - 1
            }
        }
    }

    fn enqueue_sends(&mut self, msg: u32, node: Node, ready: u64) {
        if let Some(Message {
            body: Body::Multicast { senders, .. },
            ..
        }) = &self.messages[msg as usize]
        {
            for &send in senders.of(node) {
                self.queues.push(node, msg, send, ready);
            }
        }
    }

    /// One cycle: the network moves (telling `obs` of every flit that crosses a channel), copies
    /// that arrived are handed to their nodes (which queue their own sends), and waiting sends
    /// take free injection channels. Completed messages are appended to `done`; returns the
    /// flits moved.
    pub fn cycle(
        &mut self,
        net: &mut Network,
        now: u64,
        done: &mut Vec<Completed>,
        obs: &mut impl Observer,
    ) -> Result<u32, WormholeError> {
        let mut arrivals = std::mem::take(&mut self.arrivals);
        arrivals.clear();
        let moved = net.step(now, &mut arrivals, obs);
        for &a in &arrivals {
            self.arrive(a, now, done);
        }
        self.arrivals = arrivals;
        self.inject(net, now)?;
        Ok(moved)
    }

    /// A worm's tail passed `a.node`: record the copy, queue the node's own sends, report the
    /// message when its last destination has it, free its slot when its last worm is over.
    fn arrive(&mut self, a: Arrival, now: u64, done: &mut Vec<Completed>) {
        let msg = a.tag;
        let m = self.messages[msg as usize]
            .as_mut()
            .expect("a message lives until its last worm is over");
        if a.last {
            m.sends_left -= 1;
        }
        let receipt = if a.copy {
            m.receive(a.node)
        } else {
            Receipt::Ignored
        };
        if receipt == Receipt::Destination {
            if let Some(trace) = &mut self.trace {
                trace.push((a.node, now));
            }
            let t = now - m.generated;
            m.sum += t;
            m.sum_sq += u128::from(t) * u128::from(t);
            m.left -= 1;
            if m.left == 0 {
                done.push(finish(m, now));
            }
        }
        let over = m.left == 0 && m.sends_left == 0;
        if receipt != Receipt::Ignored {
            self.enqueue_sends(msg, a.node, now);
        }
        if over {
            if let Some(m) = self.messages[msg as usize].take() {
                self.live_hops -= m.body.hops();
            }
            self.free.push(msg);
        }
    }

    /// Waiting sends take free injection channels: the waiting nodes are visited in their
    /// order, each starting sends from the front of its queue while the front one is ready and
    /// a port is free, and leaving the order (the last node taking its place) once its queue is
    /// empty. Only the stirred nodes ([`Queues`]) are visited: at any other, the front send
    /// still waits for the cycle it is ready or for a port, and a visit would change nothing.
    fn inject(&mut self, net: &mut Network, now: u64) -> Result<(), WormholeError> {
        let q = &mut self.queues;
        for node in net.ports_freed.drain(..) {
            q.stir(node);
        }
        while let Some(&Reverse((at, node))) = q.due.peek() {
            if at > now {
                break;
            }
            q.due.pop();
            q.stir(node);
        }
        let mut visits = std::mem::take(&mut q.stirred);
        visits.sort_unstable_by_key(|&v| q.at[v as usize]);
        let (mut next, mut end) = (0, visits.len());
        while next < end {
            let node = visits[next];
            self.queues.marked[node as usize] = false;
            self.visit(net, Node(node), now)?;
            let q = &mut self.queues;
            if !q.queues[node as usize].is_empty() {
                next += 1;
                continue;
            }
            // As in a pass over every waiting node: the last one takes this one's place and is
            // visited next; if it is stirred, it is the last of the visits.
            let i = q.at[node as usize] as usize;
            q.at[node as usize] = NONE;
            q.waiting.swap_remove(i);
            if let Some(&moved) = q.waiting.get(i) {
                q.at[moved as usize] = i as u32;
                if q.marked[moved as usize] {
                    end -= 1;
                    debug_assert_eq!(visits[end], moved);
                    visits[next] = moved;
                    continue;
                }
            }
            next += 1;
        }
        visits.clear();
        self.queues.stirred = visits;
        Ok(())
    }

    /// Waiting node `node` starts the sends at the front of its queue that are ready while it
    /// has a free port; if the front one is not ready, the node is to be visited when it is.
    fn visit(&mut self, net: &mut Network, node: Node, now: u64) -> Result<(), WormholeError> {
        let q = &mut self.queues;
        while let Some(&p) = q.queues[node.index()].front() {
            if p.ready > now {
                q.due.push(Reverse((p.ready, node.0)));
                break;
            }
            let Some(port) = net.free_port(node) else {
                break;
            };
            q.queues[node.index()].pop_front();
            let hops = &mut self.hops;
            let msg = self.messages[p.msg as usize]
                .as_ref()
                .expect("queued sends belong to live messages");
            let send_hops: &[Hop] = match &msg.body {
                // A unicast's hops straight from its two nodes' coordinates, where its class
                // has virtual channels of its own (else through its route's nodes, below).
                Body::Unicast(to) if net.channels.dimension_ordered_vcs() => {
                    let to = *to;
                    net.start(now, port, self.startup, p.msg, |ch, out| {
                        ch.unicast(node, to, out);
                        Ok::<(), WormholeError>(())
                    })?;
                    continue;
                }
                Body::Unicast(to) => {
                    hops.clear();
                    hops.extend(
                        dimension_ordered::route(&net.channels.shape, node, *to)
                            .map(|v| Hop::new(v, v == *to)),
                    );
                    hops
                }
                Body::Multicast { plan, .. } => plan.send(p.send as usize).hops,
            };
            net.start(now, port, self.startup, p.msg, |ch, out| {
                ch.route(node, send_hops, out)
            })?;
        }
        Ok(())
    }
}

/// What a copy arriving at a node is to its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Receipt {
    /// A destination's first copy.
    Destination,
    /// A relay of a tree: it forwards but is not counted.
    Relay,
    /// A copy the node already has.
    Ignored,
}

impl Message {
    fn receive(&mut self, node: Node) -> Receipt {
        match &mut self.body {
            Body::Unicast(to) if *to == node => Receipt::Destination,
            Body::Unicast(_) => Receipt::Ignored,
            Body::Multicast { dests, got, .. } => match dests.binary_search(&node.0) {
                Ok(i) if got[i] => Receipt::Ignored,
                Ok(i) => {
                    got[i] = true;
                    Receipt::Destination
                }
                Err(_) => Receipt::Relay,
            },
        }
    }
}

/// Each node's waiting sends, and the nodes that have any (in the order they began waiting,
/// but that a node whose queue empties gives its place to the last one).
///
/// A waiting node is *stirred* when a send joins its queue, one of its injection ports frees,
/// or its front send becomes ready (`due`); only stirred nodes are visited by
/// [`Nodes::inject`].
struct Queues {
    queues: Vec<VecDeque<Pending>>,
    /// Per node, its place in `waiting`, `NONE` while its queue is empty.
    at: Vec<u32>,
    waiting: Vec<u32>,
    /// Per node, whether it is in `stirred`.
    marked: Vec<bool>,
    stirred: Vec<u32>,
    /// `(cycle, node)`: a node whose front send becomes ready at that cycle.
    due: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Queues {
    fn push(&mut self, node: Node, msg: u32, send: u32, ready: u64) {
        self.queues[node.index()].push_back(Pending { msg, send, ready });
        if self.at[node.index()] == NONE {
            self.at[node.index()] = self.waiting.len() as u32;
            self.waiting.push(node.0);
        }
        self.stir(node.0);
    }

    /// Node `node`, if waiting, is to be visited at the next injection.
    fn stir(&mut self, node: u32) {
        let i = node as usize;
        if self.at[i] != NONE && !self.marked[i] {
            self.marked[i] = true;
            self.stirred.push(node);
        }
    }
}

fn finish(m: &Message, now: u64) -> Completed {
    let n = match &m.body {
        Body::Unicast(_) => 1,
        Body::Multicast { dests, .. } => dests.len() as u32,
    };
    let cv = (n >= 2).then(|| {
        let k = f64::from(n);
        let mean = m.sum as f64 / k;
        let var = (m.sum_sq as f64 / k - mean * mean).max(0.0);
        var.sqrt() / mean
    });
    Completed {
        multicast: matches!(m.body, Body::Multicast { .. }),
        measured: m.measured,
        latency: now - m.generated,
        cv,
        destinations: n,
    }
}
