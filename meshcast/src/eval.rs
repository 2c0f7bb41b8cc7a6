//! Static models: functions of a [`Plan`] that say what it costs.
//!
//! * traffic `|E|` and additional traffic `|E| − K` (seed 001 eqs. 2.1.1–2.1.2);
//! * store-and-forward **all-port** time: the longest path to a destination (eq. 2.1.8);
//! * store-and-forward **one-port** time: path length plus the hops waited at branching nodes
//!   (eq. 2.1.9). A node that holds the message at time `t` starts its `i`-th send (0-based, in
//!   plan order) at `t + i`; the send's `j`-th hop arrives at `t + i + j`. For a tree (one-hop
//!   sends) this is exactly "each branching node sends to one neighbour per hop".
//! * **wormhole** latency ([`wormhole_latency`]): start-up + the longest worm path to a
//!   destination + the message length in flits (eqs. 2.1.10–2.1.11), under one-port or all-port
//!   injection;
//! * **circuit-switching** and **virtual cut-through** latency ([`circuit_switching_latency`],
//!   [`cut_through_latency`]): eqs. 2.1.4–2.1.5, the control packet or the header paid per hop;
//! * **message-passing steps** ([`message_steps`]): the unicast steps of unicast-based multicast
//!   (eq. 2.1.7), under one-port, d-port (seed 002) or all-port sending.
//!
//! The models never look at which algorithm made the plan.

use std::fmt;
use std::str::FromStr;

use crate::error::InputError;
use crate::node_table::{NodeTable, PerNode, DENSE, LARGE};
use crate::plan::Plan;
use crate::topology::{Node, Shape};

/// How many sends a node starts at once: seed 001's one-port and all-port architectures
/// (eqs. 2.1.8–2.1.9) and seed 002's *d-port* architecture (§2.1: "the local processor can
/// send/receive multiple messages simultaneously"). Every model of this module takes it: a
/// node's sends leave in its port order, each on the port that frees first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ports {
    /// One send at a time (seed 001 eq. 2.1.9; the one-port architecture).
    One,
    /// Up to `d` sends at a time (seed 002's d-port architecture); `Multi(0)` counts as one port
    /// (a request refuses 0 ports before any algorithm runs, `algo::Params::check`).
    Multi(u32),
    /// Every send at once (seed 001 eq. 2.1.8).
    All,
}

impl Ports {
    /// The number of ports, `None` for all-port.
    pub fn count(self) -> Option<u32> {
        match self {
            Ports::One => Some(1),
            Ports::Multi(d) => Some(d.max(1)),
            Ports::All => None,
        }
    }
}

/// `one`, `all` or the number of ports `d`: how `--port` and the reports spell it.
impl fmt::Display for Ports {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ports::One => f.write_str("one"),
            Ports::Multi(d) => write!(f, "{d}"),
            Ports::All => f.write_str("all"),
        }
    }
}

/// Parses what [`Ports`]' `Display` writes: `one`, `all`, or a number of ports `d ≥ 1` (`1` is
/// `one`).
impl FromStr for Ports {
    type Err = InputError;

    fn from_str(s: &str) -> Result<Ports, InputError> {
        match s.trim() {
            "one" | "1" => Ok(Ports::One),
            "all" => Ok(Ports::All),
            d => match d.parse::<u32>() {
                Ok(d) if d >= 1 => Ok(Ports::Multi(d)),
                _ => Err(InputError::Setting {
                    name: "port",
                    value: s.to_string(),
                    allowed: "one, all, or a number of ports d ≥ 1",
                }),
            },
        }
    }
}

/// The wormhole model of seed 001 §2.1.2.4 (eqs. 2.1.10–2.1.11), in cycles: a flit crosses a
/// channel in one cycle, so a worm delivers to the node `j` hops down its path `startup + j + L`
/// after it is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wormhole {
    /// Start-up latency of every send: the time before its header enters the network (seed 003
    /// simulates 33 cycles; seed 001 §4.3 counts none).
    pub startup: u32,
    /// Message length `L` in flits (seed 001 §4.3: 20; seed 003: 64).
    pub length: u32,
    /// One worm at a time per node, `d` at a time, or all at once (seed 001 §4.3 assumes
    /// all-port).
    pub ports: Ports,
}

/// Wormhole latency of a valid plan: the time the last destination holds the whole message.
///
/// A worm's path is counted along the plan: a destination `j` hops down a worm sent by the
/// source is reached at `startup + j + L` — eq. 2.1.11's `max(lᵢ) + L` plus the start-up. A node
/// that forwards the message (a chain of worms) sends once it holds it all, so each worm of a
/// chain adds its own start-up, hops and `L`. Under [`Ports::One`] a node's worms leave one after
/// the other, each `startup + L` after the previous (its tail must leave first); under
/// [`Ports::Multi`]`(d)` `d` at a time; under [`Ports::All`] together.
///
/// ```
/// use meshcast::eval::{wormhole_latency, Ports, Wormhole};
/// use meshcast::plan::{Hop, Plan, PlanKind};
/// use meshcast::topology::Shape;
/// let s: Shape = "mesh:4x4".parse().unwrap();
/// let n = |c: &[u32]| s.node(c).unwrap();
/// let drop = |c: &[u32]| Hop::new(n(c), true);
/// // Two worms from (0,0): one through (1,0) to (2,0), one to (0,1).
/// let mut plan = Plan::new(PlanKind::Path, n(&[0, 0]), vec![n(&[1, 0]), n(&[2, 0]), n(&[0, 1])]);
/// plan.push_send(n(&[0, 0]), [drop(&[1, 0]), drop(&[2, 0])]);
/// plan.push_send(n(&[0, 0]), [drop(&[0, 1])]);
/// let all = Wormhole { startup: 5, length: 20, ports: Ports::All };
/// assert_eq!(wormhole_latency(&plan, &s, all), 5 + 2 + 20);
/// let one = Wormhole { ports: Ports::One, ..all };
/// assert_eq!(wormhole_latency(&plan, &s, one), (5 + 20) + 5 + 1 + 20);
/// ```
pub fn wormhole_latency(plan: &Plan, shape: &Shape, model: Wormhole) -> u32 {
    // Timeline::wormhole's completion, without its per-node tables.
    let busy = model.startup.saturating_add(model.length);
    switched_completion(
        plan,
        shape,
        model.ports,
        |_| busy,
        |_, j| busy.saturating_add(j),
    )
}

/// Message-passing steps of a valid plan (seed 001 eq. 2.1.7: `max{n₁, …, n_k}`, `nᵢ` the
/// unicast steps until destination `i` holds the message; seed 002 §3–4 counts the same).
///
/// Wormhole routing is distance-insensitive, so every send takes one step however long its
/// route: a node that holds the message at step `t` sends its `i`-th message (0-based, in its
/// port order) in step `t + 1 + ⌊i/d⌋` — one per step (`d = 1`), `d` per step, or all at once —
/// and every node that send leaves a copy at holds the message from that step on. The source
/// holds it at step 0. Sends that share a channel are counted as if they did not delay each
/// other; [`crate::contention`] counts where they would. [`Steps`] gives the step of every send.
///
/// ```
/// use meshcast::eval::{message_steps, Ports};
/// use meshcast::plan::{Hop, Plan, PlanKind};
/// use meshcast::topology::Shape;
/// let s: Shape = "mesh:8".parse().unwrap();
/// let n = |x: u32| s.node(&[x]).unwrap();
/// // A unicast along the line, leaving its copy at its end only.
/// let unicast = |from: u32, to: u32| (from + 1..=to).map(move |x| Hop::new(n(x), x == to));
/// // (0) sends to (1), (2) and (3); (1) forwards to (4).
/// let mut plan = Plan::new(PlanKind::Unicast, n(0), vec![n(1), n(2), n(3), n(4)]);
/// for to in 1..=3 {
///     plan.push_send(n(0), unicast(0, to));
/// }
/// plan.push_send(n(1), unicast(1, 4));
/// plan.validate(&s, false).unwrap();
/// assert_eq!(message_steps(&plan, &s, Ports::One), 3);
/// assert_eq!(message_steps(&plan, &s, Ports::Multi(2)), 2);
/// assert_eq!(message_steps(&plan, &s, Ports::All), 2);
/// ```
pub fn message_steps(plan: &Plan, shape: &Shape, ports: Ports) -> u32 {
    // Steps::new's completion, without its per-node tables.
    switched_completion(plan, shape, ports, |_| 1, |_, _| 1)
}

/// When every send starts and every node first holds the message, under one port model. Its
/// per-node tables cost the plan, not the topology: a plan on a mesh far larger than itself
/// keeps only the nodes it reaches.
#[derive(Clone, Debug)]
pub struct Timeline {
    send_start: Vec<u32>,
    held: Held<NodeTable>,
    delay: u32,
}

const NEVER: u32 = u32::MAX;

/// Per node, when it first holds the message ([`NEVER`]: not yet): a per-node table `T` of the
/// times complemented, so that a new table, all 0, holds [`NEVER`] everywhere — and a large
/// dense one is zeroed memory, whose pages no node of the plan lies on are never backed. A
/// plain table (the default) is reused from plan to plan; a [`NodeTable`] serves one plan.
#[derive(Clone, Debug, Default)]
pub(crate) struct Held<T = Vec<u32>>(T);

impl Held<NodeTable> {
    /// A table of `nodes` nodes for playing `plan` alone: its cost is the plan's.
    fn for_plan(nodes: usize, plan: &Plan) -> Held<NodeTable> {
        Held(NodeTable::for_plan(nodes, plan.traffic() as usize + 1))
    }
}

impl Held {
    /// A table of `nodes` nodes, none of which holds the message.
    fn new(nodes: usize) -> Held {
        Held(vec![0; nodes])
    }

    /// Room for `nodes` nodes: a new table where this one is too small — it is clean between
    /// plans, so nothing is lost — whose pages only the plans back.
    fn fit(&mut self, nodes: usize) {
        if self.len() < nodes {
            *self = Held::new(nodes);
        }
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    /// Set the table back to [`NEVER`] at the source and at every node `plan` drops a copy at:
    /// wherever a playback of it wrote (a worm passes most of its nodes by). A table not much
    /// larger than the plan is cleared whole instead, which costs less than visiting its nodes
    /// one by one.
    fn unhold(&mut self, plan: &Plan) {
        if self.len() <= DENSE * plan.traffic() as usize {
            self.0.fill(0);
            return;
        }
        self.0[plan.source().index()] = 0;
        for send in plan.sends() {
            for hop in send.hops.iter().filter(|h| h.drop()) {
                self.0[hop.node().index()] = 0;
            }
        }
    }
}

impl<T: PerNode> Held<T> {
    /// When node `i` first holds the message.
    #[inline]
    fn get(&self, i: usize) -> u32 {
        !self.0.value(i)
    }

    #[inline]
    fn set(&mut self, i: usize, time: u32) {
        self.0.set(i, !time);
    }

    /// When `node` first holds the message, if it does.
    fn first(&self, node: Node) -> Option<u32> {
        Some(self.get(node.index())).filter(|&t| t != NEVER)
    }

    /// The time (or step) the last of `plan`'s destinations holds the message: the completion
    /// of every model here.
    fn last_destination(&self, plan: &Plan) -> u32 {
        plan.destinations()
            .iter()
            .filter_map(|&d| self.first(d))
            .max()
            .unwrap_or(0)
    }
}

impl Timeline {
    /// Play `plan` (which must be valid for `shape`) store-and-forward under `ports`: a send
    /// holds its sender's port for one hop, and the message arrives one hop at a time.
    pub fn new(plan: &Plan, shape: &Shape, ports: Ports) -> Timeline {
        Timeline::play(plan, shape, ports, 1, 0)
    }

    /// Play `plan` (which must be valid for `shape`) under the wormhole `model`: a send holds
    /// its sender's port for the start-up and the `L` flits, and a node `j` hops down a worm
    /// holds the whole message `startup + j + L` after the send starts (seed 001 eq. 2.1.10).
    pub fn wormhole(plan: &Plan, shape: &Shape, model: Wormhole) -> Timeline {
        let busy = model.startup.saturating_add(model.length);
        Timeline::play(plan, shape, model.ports, busy, busy)
    }

    /// A send holds its sender's port for `gap`; hop `j` (0-based) of a send arrives
    /// `delay + j + 1` after it starts.
    fn play(plan: &Plan, shape: &Shape, ports: Ports, gap: u32, delay: u32) -> Timeline {
        let arrive = |_, j: u32| delay.saturating_add(j);
        let played = Playback::of(plan, shape, ports, |_| gap, arrive);
        Timeline {
            send_start: played.send_start,
            held: played.held,
            delay,
        }
    }

    /// The time send `i` leaves its sender.
    pub fn send_start(&self, i: usize) -> u32 {
        self.send_start[i]
    }

    /// The time hop `j` (0-based) of send `i` arrives: store-and-forward, the hop number drawn on
    /// that link; wormhole, the time the message's tail reaches the hop's node.
    pub fn hop_time(&self, i: usize, j: usize) -> u32 {
        self.send_start[i].saturating_add(self.delay + j as u32 + 1)
    }

    /// The time `node` first holds the message, if it ever does.
    pub fn arrival(&self, node: Node) -> Option<u32> {
        self.held.first(node)
    }

    /// The time the last of `plan`'s destinations holds the message.
    pub fn completion(&self, plan: &Plan) -> u32 {
        self.held.last_destination(plan)
    }
}

/// The message-passing step of every send of a plan and the step every node first holds the
/// message (see [`message_steps`]); like [`Timeline`], in tables that cost the plan.
#[derive(Clone, Debug)]
pub struct Steps {
    send_step: Vec<u32>,
    held: Held<NodeTable>,
}

impl Steps {
    /// Play `plan` (which must be valid for `shape`) step by step under `ports`: a send keeps
    /// its port for one step and its copies are held from the step it is sent in.
    pub fn new(plan: &Plan, shape: &Shape, ports: Ports) -> Steps {
        let played = Playback::of(plan, shape, ports, |_| 1, |_, _| 1);
        Steps {
            send_step: played.send_start.iter().map(|&t| t + 1).collect(),
            held: played.held,
        }
    }

    /// Given steps: `steps[i]` is the step (1-based) of send `i` of `plan` (valid for `shape`),
    /// for a schedule no port model above describes — an algorithm that leaves a port idle.
    /// Refused unless every send leaves after its sender holds the message.
    pub fn given(plan: &Plan, shape: &Shape, steps: Vec<u32>) -> Result<Steps, InputError> {
        let bad = |value: String| InputError::Setting {
            name: "steps",
            value,
            allowed: "one step per send, each after its sender holds the message",
        };
        if steps.len() != plan.send_count() {
            return Err(bad(format!(
                "{} steps for {} sends",
                steps.len(),
                plan.send_count()
            )));
        }
        let mut held = Held::for_plan(shape.len(), plan);
        held.set(plan.source().index(), 0);
        for (i, (send, &step)) in plan.sends().zip(&steps).enumerate() {
            if held.get(send.from.index()) >= step {
                return Err(bad(format!("send {i} in step {step}")));
            }
            for hop in send.hops.iter().filter(|h| h.drop()) {
                held.set(hop.node().index(), step);
            }
        }
        Ok(Steps {
            send_step: steps,
            held,
        })
    }

    /// The step (1-based) in which send `i` is transmitted.
    pub fn send(&self, i: usize) -> u32 {
        self.send_step[i]
    }

    /// The step after which `node` holds the message (0 for the source), if it ever does.
    pub fn arrival(&self, node: Node) -> Option<u32> {
        self.held.first(node)
    }

    /// The step in which the last of `plan`'s destinations receives the message: eq. 2.1.7.
    pub fn completion(&self, plan: &Plan) -> u32 {
        self.held.last_destination(plan)
    }
}

/// The static metrics of a plan under both store-and-forward port models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Links used, `|E|`.
    pub traffic: u32,
    /// `|E| − K`.
    pub additional_traffic: u32,
    /// Multicast time, one-port store-and-forward (hops).
    pub one_port_time: u32,
    /// Multicast time, all-port store-and-forward (hops).
    pub all_port_time: u32,
}

impl Metrics {
    /// The metrics of a valid plan.
    pub fn of(plan: &Plan, shape: &Shape) -> Metrics {
        let one = Timeline::new(plan, shape, Ports::One);
        Metrics::from_timelines(plan, &one, &Timeline::new(plan, shape, Ports::All))
    }

    /// The metrics of a valid plan whose one-port (`one`) and all-port (`all`) timelines a
    /// caller already holds, so that they are not played again.
    pub(crate) fn from_timelines(plan: &Plan, one: &Timeline, all: &Timeline) -> Metrics {
        let traffic = plan.traffic();
        Metrics {
            traffic,
            additional_traffic: traffic.saturating_sub(plan.destinations().len() as u32),
            one_port_time: one.completion(plan),
            all_port_time: all.completion(plan),
        }
    }
}

/// Circuit switching (seed 001 eq. 2.1.4, `(L_c/B)·D + L/B`), in cycles with a flit crossing a
/// channel in one cycle: a control packet of `control` flits sets up a circuit over a send's
/// whole route, then the `L` flits of the message cross it. Every node the send drops a copy at
/// holds the message `startup + control·D + L` after the send starts, `D` the send's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CircuitSwitching {
    /// Start-up latency of every send.
    pub startup: u32,
    /// Length `L_c` of the control packet, in flits.
    pub control: u32,
    /// Message length `L` in flits.
    pub length: u32,
    /// Under [`Ports::One`] a node's next send waits until its circuit is released.
    pub ports: Ports,
}

/// Virtual cut-through (seed 001 eq. 2.1.5, `(L_h/B)·D + L/B`), in cycles: each node reads the
/// `header` flits before the packet cuts through, so the node `j` hops down a send holds the
/// message `startup + header·j + L` after the send starts. With a one-flit header this is the
/// wormhole model ([`Wormhole`]): without contention the two differ only in buffer space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CutThrough {
    /// Start-up latency of every send.
    pub startup: u32,
    /// Length `L_h` of the header, in flits.
    pub header: u32,
    /// Message length `L` in flits.
    pub length: u32,
    /// Under [`Ports::One`] a node's next send leaves `startup + L` after the previous one.
    pub ports: Ports,
}

/// Circuit-switching latency of a valid plan: the time the last destination holds the message.
///
/// Each send is one circuit from its sender to its last hop; a node that forwards the message
/// (a chain of sends) sets up its circuits once it holds the whole message.
///
/// ```
/// use meshcast::eval::{circuit_switching_latency, CircuitSwitching, Ports};
/// use meshcast::plan::{Hop, Plan, PlanKind};
/// use meshcast::topology::Shape;
/// let s: Shape = "mesh:4x4".parse().unwrap();
/// let n = |c: &[u32]| s.node(c).unwrap();
/// let mut plan = Plan::new(PlanKind::Unicast, n(&[0, 0]), vec![n(&[2, 0])]);
/// plan.push_send(n(&[0, 0]), [Hop::new(n(&[1, 0]), false), Hop::new(n(&[2, 0]), true)]);
/// let cs = CircuitSwitching { startup: 5, control: 4, length: 20, ports: Ports::All };
/// assert_eq!(circuit_switching_latency(&plan, &s, cs), 5 + 4 * 2 + 20);
/// ```
pub fn circuit_switching_latency(plan: &Plan, shape: &Shape, model: CircuitSwitching) -> u32 {
    let circuit = |hops: u32| {
        model
            .startup
            .saturating_add(model.control.saturating_mul(hops))
            .saturating_add(model.length)
    };
    switched_completion(plan, shape, model.ports, circuit, |hops, _| circuit(hops))
}

/// Virtual cut-through latency of a valid plan: the time the last destination holds the message.
///
/// ```
/// use meshcast::eval::{cut_through_latency, CutThrough, Ports};
/// use meshcast::plan::{Hop, Plan, PlanKind};
/// use meshcast::topology::Shape;
/// let s: Shape = "mesh:4x4".parse().unwrap();
/// let n = |c: &[u32]| s.node(c).unwrap();
/// let mut plan = Plan::new(PlanKind::Path, n(&[0, 0]), vec![n(&[1, 0]), n(&[3, 0])]);
/// let drop = |c: &[u32], drop| Hop::new(n(c), drop);
/// plan.push_send(n(&[0, 0]), [drop(&[1, 0], true), drop(&[2, 0], false), drop(&[3, 0], true)]);
/// let vct = CutThrough { startup: 5, header: 2, length: 20, ports: Ports::All };
/// assert_eq!(cut_through_latency(&plan, &s, vct), 5 + 2 * 3 + 20);
/// ```
pub fn cut_through_latency(plan: &Plan, shape: &Shape, model: CutThrough) -> u32 {
    let busy = model.startup.saturating_add(model.length);
    let arrive = |_, j: u32| busy.saturating_add(model.header.saturating_mul(j));
    switched_completion(plan, shape, model.ports, |_| busy, arrive)
}

/// The completion time of `plan` when a send of `n` hops keeps its sender's port busy for
/// `busy(n)` and the node `j` hops down it holds the message `arrive(n, j)` after it starts:
/// [`Playback::of`]'s, played on the thread's [`Tables`] — the work is the plan's, not the
/// topology's — or, from [`LARGE`] entries on, on tables of the plan's own.
fn switched_completion(
    plan: &Plan,
    shape: &Shape,
    ports: Ports,
    busy: impl Fn(u32) -> u32,
    arrive: impl Fn(u32, u32) -> u32,
) -> u32 {
    let width = port_width(plan, ports);
    if shape.len() * (1 + width) >= LARGE {
        let played = Playback::of(plan, shape, ports, busy, arrive);
        return played.held.last_destination(plan);
    }
    TABLES.with_borrow_mut(|t| {
        t.fit(shape.len(), width);
        play(plan, width, &mut t.held, &mut t.free, busy, arrive, |_| ());
        let last = t.held.last_destination(plan);
        t.clean(plan, width);
        last
    })
}

/// How many ports [`play`] keeps per node: `d` under [`Ports::Multi`]`(d)` and 1 under
/// [`Ports::One`] — more ports than sends change nothing, so a huge d costs no memory — and
/// none under [`Ports::All`], where every send starts as soon as its sender holds the message.
fn port_width(plan: &Plan, ports: Ports) -> usize {
    ports
        .count()
        .map_or(0, |d| d.min(plan.send_count().max(1) as u32) as usize)
}

/// Per node, when it holds the message and when its [`port_width`] ports free: the tables
/// [`switched_completion`] plays on, kept per thread from one plan to the next — [`NEVER`] and
/// 0 everywhere between plans, since a plan sets back the entries it wrote — so that a plan
/// writes only its own nodes' entries. They stay below [`LARGE`] entries.
#[derive(Default)]
struct Tables {
    held: Held,
    free: Vec<u32>,
}

thread_local! {
    static TABLES: std::cell::RefCell<Tables> = std::cell::RefCell::default();
}

impl Tables {
    /// Room for `nodes` nodes of `width` ports: new zeroed tables where the old ones are too
    /// small (they are clean, so nothing is lost), whose pages only the plans back.
    fn fit(&mut self, nodes: usize, width: usize) {
        self.held.fit(nodes);
        if self.free.len() < nodes * width {
            self.free = vec![0; nodes * width];
        }
    }

    /// Set back the entries `plan` wrote, played with `width` ports per node.
    fn clean(&mut self, plan: &Plan, width: usize) {
        self.held.unhold(plan);
        // All-port plays keep no ports: nothing to set back.
        if width > 0 {
            for send in plan.sends() {
                let v = send.from.index();
                self.free[v * width..(v + 1) * width].fill(0);
            }
        }
    }
}

/// A plan played out under a port model: when every send starts and every node first holds the
/// message, in tables of its own that cost the plan ([`NodeTable::for_plan`]).
struct Playback {
    send_start: Vec<u32>,
    held: Held<NodeTable>,
}

impl Playback {
    /// [`play`] `plan` on new tables.
    fn of(
        plan: &Plan,
        shape: &Shape,
        ports: Ports,
        busy: impl Fn(u32) -> u32,
        arrive: impl Fn(u32, u32) -> u32,
    ) -> Playback {
        let width = port_width(plan, ports);
        let mut free = NodeTable::for_plan(shape.len() * width, plan.send_count() * width);
        let mut held = Held::for_plan(shape.len(), plan);
        let mut send_start = Vec::with_capacity(plan.send_count());
        play(plan, width, &mut held, &mut free, busy, arrive, |start| {
            send_start.push(start)
        });
        Playback { send_start, held }
    }
}

/// Play a valid `plan`, the one piece of timing every model of this module shares: the source
/// holds the message at 0; a node's sends start in plan order, each once the node holds the
/// message and on the port that frees first (with `width` 0, all-port: at once); a send of `n`
/// hops keeps its port for `busy(n)`, and the node `j` (1-based) hops down it holds the message
/// `arrive(n, j)` after the send starts. `held` (per node, [`NEVER`] for every node of the plan
/// but the source) receives when each node first holds the message, `free` (per node `width`
/// ports, 0 for the plan's senders) when its ports free, and `started` every send's start.
fn play<T: PerNode>(
    plan: &Plan,
    width: usize,
    held: &mut Held<T>,
    free: &mut T,
    busy: impl Fn(u32) -> u32,
    arrive: impl Fn(u32, u32) -> u32,
    mut started: impl FnMut(u32),
) {
    held.set(plan.source().index(), 0);
    for send in plan.sends() {
        let v = send.from.index();
        let hops = send.hops.len() as u32;
        // The port that frees first (the first of equals).
        let start = match (v * width..(v + 1) * width).min_by_key(|&p| free.value(p)) {
            Some(port) => {
                let start = held.get(v).max(free.value(port));
                free.set(port, start.saturating_add(busy(hops)));
                start
            }
            None => held.get(v),
        };
        for (j, hop) in send.hops.iter().enumerate() {
            if hop.drop() {
                let at = start.saturating_add(arrive(hops, j as u32 + 1));
                held.set(hop.node().index(), at);
            }
        }
        started(start);
    }
}

/// The one-port store-and-forward time of a valid `plan` whose send `i` is `position(i)`-th
/// (0-based) among its sender's sends in some port order: what [`Timeline::new`] gives under
/// [`Ports::One`] for the plan with every node's sends put in that order (a node's `k`-th send
/// starts `k` after it holds the message), without building that plan. With every position 0 it
/// is the all-port time.
///
/// `held` is a per-node buffer, reused between calls and [`NEVER`] everywhere between them: a
/// call writes the entries of the plan's nodes only and sets them back before it returns, so
/// its work is the plan's, not the topology's. A topology of [`LARGE`] nodes or more is played
/// on a table of the plan's own instead.
pub(crate) fn one_port_time_in_order(
    plan: &Plan,
    shape: &Shape,
    position: impl Fn(usize) -> u32,
    held: &mut Held,
) -> u32 {
    if shape.len() >= LARGE {
        return play_in_order(plan, position, &mut Held::for_plan(shape.len(), plan));
    }
    held.fit(shape.len());
    let last = play_in_order(plan, position, held);
    held.unhold(plan);
    last
}

/// [`one_port_time_in_order`] on the table `held`, [`NEVER`] everywhere.
fn play_in_order<T: PerNode>(
    plan: &Plan,
    position: impl Fn(usize) -> u32,
    held: &mut Held<T>,
) -> u32 {
    held.set(plan.source().index(), 0);
    for (i, send) in plan.sends().enumerate() {
        let start = held.get(send.from.index()).saturating_add(position(i));
        for (j, hop) in send.hops.iter().enumerate() {
            if hop.drop() {
                held.set(hop.node().index(), start.saturating_add(j as u32 + 1));
            }
        }
    }
    held.last_destination(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{self, Request};
    use crate::plan::{Hop, PlanKind};

    /// Multicasts on `shape` from random sources to about `k` random destinations for each `k`
    /// of `ks`, drawn by a small generator seeded with `seed`.
    fn random_requests(
        shape: &Shape,
        mut seed: u64,
        ks: impl IntoIterator<Item = usize>,
    ) -> Vec<Request> {
        let mut next = move |n: u32| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as u32 % n
        };
        let n = shape.len() as u32;
        ks.into_iter()
            .map(|k| {
                let source = Node(next(n));
                let mut dests: Vec<Node> = (0..k).map(|_| Node(next(n))).collect();
                dests.sort_unstable();
                dests.dedup();
                dests.retain(|&d| d != source);
                Request::new(shape.clone(), source, dests).unwrap()
            })
            .collect()
    }

    /// The per-thread tables stay clean from plan to plan, whether a plan sets back its own
    /// entries (few destinations on a large mesh) or fills the tables whole (many, or a small
    /// mesh): every completion equals the one played on new tables.
    #[test]
    fn completions_on_the_threads_tables_match_new_tables() {
        for (topology, ks) in [("mesh:60x60", [1, 3, 2000]), ("mesh:6x6", [1, 5, 30])] {
            let shape: Shape = topology.parse().unwrap();
            for req in random_requests(&shape, 7, ks.into_iter().cycle().take(12)) {
                for name in ["separate", "dual-path"] {
                    let plan = algo::find(name).unwrap().route(&req).unwrap();
                    for ports in [Ports::One, Ports::Multi(2), Ports::All] {
                        let model = Wormhole {
                            startup: 3,
                            length: 20,
                            ports,
                        };
                        let fresh = Timeline::wormhole(&plan, &shape, model).completion(&plan);
                        assert_eq!(wormhole_latency(&plan, &shape, model), fresh);
                        let fresh = Steps::new(&plan, &shape, ports).completion(&plan);
                        assert_eq!(message_steps(&plan, &shape, ports), fresh);
                    }
                }
            }
        }
    }

    /// A playback on a sparse table (a mesh far larger than the plan, as for [`Timeline`] and
    /// [`Steps`]) gives every send's start and every node's arrival that the same playback gives
    /// on the plain tables the sweeps reuse.
    #[test]
    fn sparse_and_dense_playbacks_agree() {
        let shape: Shape = "mesh:300x300".parse().unwrap();
        for req in random_requests(&shape, 11, [1, 3, 8, 1, 3, 8]) {
            let k = req.destinations().len();
            for name in ["vh", "separate", "dual-path"] {
                let plan = algo::find(name).unwrap().route(&req).unwrap();
                for ports in [Ports::One, Ports::Multi(2), Ports::All] {
                    let busy = |n: u32| 3 + n;
                    let arrive = |n: u32, j: u32| 2 * j + n;
                    let sparse = Playback::of(&plan, &shape, ports, busy, arrive);
                    assert!(
                        matches!(sparse.held.0, NodeTable::Sparse(_)),
                        "{name}, K = {k}"
                    );
                    let width = port_width(&plan, ports);
                    let (mut held, mut free) =
                        (Held::new(shape.len()), vec![0; shape.len() * width]);
                    let mut starts = Vec::new();
                    play(&plan, width, &mut held, &mut free, busy, arrive, |t| {
                        starts.push(t)
                    });
                    assert_eq!(sparse.send_start, starts, "{name}, K = {k}, {ports:?}");
                    for v in shape.nodes() {
                        assert_eq!(sparse.held.first(v), held.first(v), "{name}, {v:?}");
                    }
                }
            }
        }
    }

    /// The same plans, moved from a 40×40 mesh into a corner of one of [`LARGE`] nodes or more
    /// (where the playbacks, the port orders' grouping and the validator keep tables of the
    /// plan's own instead of the reused ones), measure the same under every model.
    #[test]
    fn a_plan_measures_the_same_on_a_mesh_past_large() {
        use crate::schedule::{Buffers, Schedule};
        let small: Shape = "mesh:40x40".parse().unwrap();
        let large: Shape = "mesh:8192x8192".parse().unwrap();
        assert!(large.len() >= LARGE);
        // Into the last rows, so that the node ids pass LARGE too.
        let moved = |v: Node| {
            let c = small.coords(v);
            large.node(&[c[0], c[1] + 8192 - 40]).unwrap()
        };
        let orders = [Schedule::Paper, Schedule::Optimal];
        let mut buffers = (Buffers::default(), Buffers::default());
        for req in random_requests(&small, 5, [1, 4, 12, 30]) {
            for name in ["vh", "dds", "lin", "separate", "u-mesh"] {
                let plan = algo::find(name).unwrap().route(&req).unwrap();
                let dests = plan.destinations().iter().map(|&d| moved(d)).collect();
                let mut far = Plan::new(plan.kind(), moved(plan.source()), dests);
                for send in plan.sends() {
                    let hops = send
                        .hops
                        .iter()
                        .map(|h| Hop::new(moved(h.node()), h.drop()));
                    far.push_send(moved(send.from), hops);
                }
                assert_eq!(far.validate(&large, false), Ok(()));
                assert_eq!(
                    Schedule::metrics(&plan, &small, &orders, &mut buffers.0),
                    Schedule::metrics(&far, &large, &orders, &mut buffers.1),
                    "{name}"
                );
                for ports in [Ports::One, Ports::Multi(2), Ports::All] {
                    let model = Wormhole {
                        startup: 3,
                        length: 20,
                        ports,
                    };
                    assert_eq!(
                        wormhole_latency(&plan, &small, model),
                        wormhole_latency(&far, &large, model)
                    );
                    assert_eq!(
                        message_steps(&plan, &small, ports),
                        message_steps(&far, &large, ports)
                    );
                }
            }
        }
    }

    /// The tree of seed 001 Figure 2.1.9 in miniature: a branching node delays its second child.
    #[test]
    fn one_port_counts_hops_waited_at_branching_nodes() {
        let s: Shape = "mesh:4x4".parse().unwrap();
        let n = |c: &[u32]| s.node(c).unwrap();
        let dests = vec![n(&[2, 0]), n(&[1, 2])];
        let mut p = Plan::new(PlanKind::Tree, n(&[0, 0]), dests);
        p.push_edge(n(&[0, 0]), n(&[1, 0]));
        p.push_edge(n(&[1, 0]), n(&[2, 0]));
        p.push_edge(n(&[1, 0]), n(&[1, 1]));
        p.push_edge(n(&[1, 1]), n(&[1, 2]));
        let m = Metrics::of(&p, &s);
        assert_eq!(m.traffic, 4);
        assert_eq!(m.additional_traffic, 2);
        assert_eq!(m.all_port_time, 3);
        assert_eq!(m.one_port_time, 4);
        let t = Timeline::new(&p, &s, Ports::One);
        assert_eq!(t.arrival(n(&[2, 0])), Some(2));
        assert_eq!(t.hop_time(2, 0), 3);
        assert_eq!(t.arrival(n(&[3, 3])), None);
    }

    /// A worm to (2,0) dropping at (1,0) on the way, and a second worm chained from (2,0).
    #[test]
    fn wormhole_latency_is_startup_plus_path_plus_length_per_worm_of_a_chain() {
        let s: Shape = "mesh:4x4".parse().unwrap();
        let n = |c: &[u32]| s.node(c).unwrap();
        let hop = |c: &[u32], drop| Hop::new(n(c), drop);
        let dests = vec![n(&[1, 0]), n(&[2, 0]), n(&[2, 2])];
        let mut p = Plan::new(PlanKind::Path, n(&[0, 0]), dests);
        p.push_send(n(&[0, 0]), [hop(&[1, 0], true), hop(&[2, 0], true)]);
        p.push_send(n(&[2, 0]), [hop(&[2, 1], false), hop(&[2, 2], true)]);
        let model = Wormhole {
            startup: 3,
            length: 10,
            ports: Ports::All,
        };
        let t = Timeline::wormhole(&p, &s, model);
        assert_eq!(t.arrival(n(&[1, 0])), Some(3 + 1 + 10));
        assert_eq!(t.arrival(n(&[2, 0])), Some(3 + 2 + 10));
        assert_eq!(t.hop_time(1, 0), 15 + 3 + 1 + 10);
        assert_eq!(wormhole_latency(&p, &s, model), 15 + 3 + 2 + 10);
        let zero = Wormhole {
            startup: 0,
            length: 0,
            ports: Ports::One,
        };
        let saf = Metrics::of(&p, &s);
        assert_eq!(wormhole_latency(&p, &s, zero), saf.all_port_time);
    }

    /// Two worms from the source, the first chained on by a unicast from its end.
    fn chain() -> (Shape, Plan) {
        let s: Shape = "mesh:5x5".parse().unwrap();
        let n = |c: &[u32]| s.node(c).unwrap();
        let hop = |c: &[u32], drop| Hop::new(n(c), drop);
        let dests = vec![n(&[1, 0]), n(&[3, 0]), n(&[0, 1]), n(&[3, 2])];
        let mut p = Plan::new(PlanKind::Path, n(&[0, 0]), dests);
        let first = [hop(&[1, 0], true), hop(&[2, 0], false), hop(&[3, 0], true)];
        p.push_send(n(&[0, 0]), first);
        p.push_send(n(&[0, 0]), [hop(&[0, 1], true)]);
        p.push_send(n(&[3, 0]), [hop(&[3, 1], false), hop(&[3, 2], true)]);
        (s, p)
    }

    #[test]
    fn circuit_switching_sets_up_each_circuit_to_its_end() {
        let (s, p) = chain();
        let all = CircuitSwitching {
            startup: 2,
            control: 5,
            length: 10,
            ports: Ports::All,
        };
        // (3,0) at 2 + 5·3 + 10 = 27; (3,2) a second circuit later: 27 + 2 + 5·2 + 10.
        assert_eq!(circuit_switching_latency(&p, &s, all), 27 + 22);
        // One-port: the source's second circuit waits for the first (27) and ends at 44; the
        // chain from (3,0) still ends at 49.
        let one = CircuitSwitching {
            ports: Ports::One,
            ..all
        };
        assert_eq!(circuit_switching_latency(&p, &s, one), 49);
        let short = CircuitSwitching {
            control: 0,
            length: 10,
            ..one
        };
        // Circuits of 12 cycles: (3,0) at 12, then (0,1) and (3,2) both at 24.
        assert_eq!(circuit_switching_latency(&p, &s, short), 24);
    }

    /// Two ports: the source's two circuits of the chain leave together; a third would wait for
    /// the port that frees first, not for the second.
    #[test]
    fn d_ports_start_each_send_on_the_port_that_frees_first() {
        let (s, p) = chain();
        let n = |c: &[u32]| s.node(c).unwrap();
        let two = CircuitSwitching {
            startup: 2,
            control: 5,
            length: 10,
            ports: Ports::Multi(2),
        };
        let all = CircuitSwitching {
            ports: Ports::All,
            ..two
        };
        assert_eq!(
            circuit_switching_latency(&p, &s, two),
            circuit_switching_latency(&p, &s, all)
        );
        // A third circuit from the source, through (0,1) to (0,2).
        let mut q = Plan::new(
            PlanKind::Path,
            p.source(),
            [p.destinations(), &[n(&[0, 2])]].concat(),
        );
        for send in p.sends() {
            q.push_send(send.from, send.hops.iter().copied());
        }
        let hop = |c: &[u32], drop| Hop::new(n(c), drop);
        q.push_send(n(&[0, 0]), [hop(&[0, 1], false), hop(&[0, 2], true)]);
        // Two ports: the (0,1) circuit frees its port at 2 + 5 + 10 = 17, before the (3,0) one
        // (27), so the third starts at 17 and ends at 17 + 2 + 5·2 + 10 = 39, inside the chain's 49.
        assert_eq!(circuit_switching_latency(&q, &s, two), 49);
        // One port: it waits for both others, 27 + 17 = 44, and ends at 44 + 22 = 66.
        let one = CircuitSwitching {
            ports: Ports::One,
            ..two
        };
        assert_eq!(circuit_switching_latency(&q, &s, one), 66);
        let steps = Steps::new(&q, &s, Ports::Multi(2));
        assert_eq!((0..3).map(|i| steps.send(i)).collect::<Vec<_>>(), [1, 1, 2]);
    }

    #[test]
    fn ports_are_spelled_and_parsed_alike() {
        for ports in [Ports::One, Ports::Multi(3), Ports::All] {
            assert_eq!(ports.to_string().parse::<Ports>().unwrap(), ports);
        }
        assert_eq!("1".parse::<Ports>().unwrap(), Ports::One);
        for bad in ["0", "two", "-1", ""] {
            let e = bad.parse::<Ports>().unwrap_err().to_string();
            assert!(e.contains("one, all, or a number of ports"), "{bad}: {e}");
        }
    }

    #[test]
    fn cut_through_pays_the_header_per_hop() {
        let (s, p) = chain();
        let vct = CutThrough {
            startup: 2,
            header: 4,
            length: 10,
            ports: Ports::All,
        };
        // (3,0) at 2 + 4·3 + 10 = 24, then 24 + 2 + 4·2 + 10 = 44.
        assert_eq!(cut_through_latency(&p, &s, vct), 44);
    }

    /// With a one-flit header, virtual cut-through is the wormhole model, whatever the plan.
    #[test]
    fn cut_through_with_a_one_flit_header_is_wormhole() {
        let req =
            crate::algo::Request::parse("mesh:6x5", "2,1", "0,0 5,4 3,3 1,4 4,0 0,3").unwrap();
        for info in crate::algo::REGISTRY
            .iter()
            .filter(|a| a.support.covers(req.shape()))
        {
            let plan = info.route(&req).unwrap();
            for ports in [Ports::One, Ports::Multi(2), Ports::All] {
                let vct = CutThrough {
                    startup: 3,
                    header: 1,
                    length: 7,
                    ports,
                };
                let wh = Wormhole {
                    startup: 3,
                    length: 7,
                    ports,
                };
                let (a, b) = (
                    cut_through_latency(&plan, req.shape(), vct),
                    wormhole_latency(&plan, req.shape(), wh),
                );
                assert_eq!(a, b, "{} {ports:?}", info.name);
            }
        }
    }
}
