//! A cycle-accurate, flit-level simulator of wormhole-routed n-D meshes and tori, which executes
//! the plans of any algorithm under load (seed 003 §4, seed 002 §4).
//!
//! **Network** ([`Router`]): input-buffered wormhole routers with a crossbar, `V` virtual channels
//! of `B` flits per physical channel and credit-based flow control, a router pipeline of
//! `pipeline` cycles per hop (1 is the seeds' model), `d` injection and `d` ejection channels per
//! node, one flit per cycle per channel. Deadlock freedom by virtual-channel classes:
//! dimension-ordered routes (with datelines on tori) and Hamiltonian routes (high/low channel
//! subnetworks, seed 002 §2.2) each get their own; a configuration that cannot keep them apart is
//! refused ([`WormholeError::VirtualChannels`], [`WormholeError::Route`]).
//!
//! **Plans** ([`crate::plan::Plan`]): a node sends once it holds the whole message; each send
//! holds an injection channel through its start-up and until its tail has left the router, so
//! path-based worms deliver a copy at every destination they pass (absorb-and-forward),
//! unicast-based plans send their next messages when a node has received the whole message, and
//! trees run as one-hop store-and-forward packets. The source of a multicast first spends the
//! algorithm's preparation time ([`preparation_time`]).
//!
//! **Traffic and measurement** ([`traffic`]): exponential inter-arrival times per node, a
//! unicast/multicast mix, warm-up and batch means until the 95% confidence interval is within the
//! precision asked, saturation detected and reported.
//!
//! **Watching** ([`Observer`]): [`traffic::simulate_observed`] tells an observer of every message
//! generated and delivered and every flit crossing a channel, to trace or export a run; unused
//! ([`NoObserver`]) it compiles to nothing.
//!
//! **Zero load** ([`run_plan`]): one plan in an empty network. With a one-cycle pipeline and a
//! buffer of at least two flits, a worm's copy arrives `startup + hops + L` cycles after it
//! starts and a node's sends take its `d` injection channels as they free up, so a plan takes
//! exactly [`crate::eval::wormhole_latency`] under `d` ports when its worms never share a channel.
//!
//! ```
//! use meshcast::algo::{self, Request};
//! use meshcast::eval::{wormhole_latency, Ports, Wormhole};
//! use meshcast::sim::wormhole::{run_plan, Router};
//! let req = Request::parse("mesh:8x8", "3,3", "0,0 7,7 5,1")?;
//! let plan = algo::find("dual-path")?.route(&req)?;
//! let router = Router { ports: 4, startup: 33, length: 64, ..Router::default() };
//! let run = run_plan(req.shape(), &plan, router, 0)?;
//! let model = Wormhole { startup: 33, length: 64, ports: Ports::Multi(4) };
//! assert_eq!(run.completion, u64::from(wormhole_latency(&plan, req.shape(), model)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod buffers;
mod channels;
mod config;
mod network;
mod nodes;
mod observer;
mod switch;
pub mod traffic;

pub use channels::Classes;
pub use config::{preparation_time, Router, VcRelease};
pub use observer::{ChannelId, ChannelLoad, Delivery, NoObserver, Observer};

use crate::error::WormholeError;
use crate::plan::Plan;
use crate::topology::{Node, Shape};

use crate::route::hamiltonian::Snake;
use channels::{dimension_ordered, monotone, planar, sweeping_route, Channels};
use network::Network;
use nodes::{Completed, Nodes};

/// Cycles without a flit moving while worms are in the network, beyond the start-up, before a run
/// is declared deadlocked.
pub const WATCHDOG: u64 = 20_000;

/// A network with its nodes, the watchdog and the conservation check: the loop both a single
/// plan and a traffic run drive.
struct Sim {
    net: Network,
    nodes: Nodes,
    idle: u64,
    /// Idle cycles tolerated: the watchdog's plus a start-up, during which a worm cannot move.
    patience: u64,
    done: Vec<Completed>,
}

/// The router's settings checked and the virtual channels of `classes` laid out: all a run
/// checks before it allocates its network.
fn channels(
    shape: &Shape,
    router: Router,
    classes: Classes,
) -> Result<(Router, Channels), WormholeError> {
    let router = router.check()?;
    let bytes = state_bytes(shape, router);
    if bytes > MAX_STATE_BYTES {
        return Err(WormholeError::Input(crate::error::InputError::Setting {
            name: "topology",
            value: format!(
                "{shape} with vcs/buffer/ports {}/{}/{} (about {:.1} GB of simulator state)",
                router.vcs,
                router.buffer,
                router.ports,
                bytes as f64 / 1e9
            ),
            allowed: "at most 8 GiB of simulator state: fewer nodes, virtual channels, buffer \
                      flits or ports",
        }));
    }
    Ok((router, Channels::new(shape, router.vcs, classes)?))
}

/// The most memory the simulator's arrays may take ([`state_bytes`]): a topology whose state
/// would take more is refused before anything is allocated, instead of running out of memory
/// (an 8192² mesh with the default router would need about 56 GB). The default router fits
/// about 10 million nodes.
pub const MAX_STATE_BYTES: u64 = 8 << 30;

/// About how many bytes the arrays of a run on `shape` with `router` take before any message
/// exists: per virtual channel its record, its ring of arrival cycles (with a pipeline longer
/// than one cycle), its queue of worms (kept with tail-sent release only, counted for either,
/// so that one bound holds both) and its slot for a switch request; per channel its head,
/// dateline flag, wake-up list and switch state; per node its injection and ejection ports, its
/// message queue (with its flags and places in the list of nodes to visit) and generator.
/// Messages come on top, bounded by the backlog caps ([`traffic::Measure::max_backlog`],
/// [`traffic::MAX_LIVE_HOPS`]).
pub fn state_bytes(shape: &Shape, router: Router) -> u64 {
    use std::mem::size_of;
    let nodes = shape.len() as u64;
    let channels = nodes * 2 * shape.rank() as u64;
    let (vcs, buffer, ports) = (
        u64::from(router.vcs),
        u64::from(router.buffer),
        u64::from(router.ports),
    );
    let ring = if router.pipeline > 1 {
        8 * buffer.next_power_of_two()
    } else {
        0
    };
    let per_vc = (size_of::<buffers::Vc>() + 4 + size_of::<switch::Request>()) as u64
        + ring
        + 4 * (buffer + 1);
    // Head (4), dateline flag (1), wake-up list, switch state (four words).
    let per_channel = (4 + 1 + size_of::<Vec<u32>>() + 16) as u64;
    // Owner (4 each way), switch state, request slot.
    let per_port = (4 + 4 + 16 + size_of::<switch::Request>()) as u64;
    // Wake-up list; message queue, its flags (2 bytes) and places (8); generator (24).
    let per_node =
        (size_of::<Vec<u32>>() + size_of::<std::collections::VecDeque<u32>>() + 10 + 24) as u64;
    channels * vcs * per_vc + channels * per_channel + nodes * (ports * per_port + per_node)
}

impl Sim {
    fn new(shape: &Shape, router: Router, classes: Classes) -> Result<Sim, WormholeError> {
        let (router, channels) = channels(shape, router, classes)?;
        let net = Network::new(channels, router);
        Ok(Sim {
            net,
            nodes: Nodes::new(shape.len(), router.startup),
            idle: 0,
            patience: WATCHDOG + u64::from(router.startup),
            done: Vec::new(),
        })
    }

    /// One cycle, its flits told to `obs`; completed messages are left in `self.done`.
    fn cycle(&mut self, now: u64, obs: &mut impl Observer) -> Result<(), WormholeError> {
        let moved = self.nodes.cycle(&mut self.net, now, &mut self.done, obs)?;
        if moved > 0 || self.net.active_worms() == 0 {
            self.idle = 0;
        } else {
            self.idle += 1;
            if self.idle >= self.patience {
                return Err(WormholeError::Deadlock {
                    cycle: now,
                    idle: self.idle,
                    waiting: self.net.waiting(8),
                });
            }
        }
        if cfg!(debug_assertions) && now.is_multiple_of(64) {
            self.net
                .check_conservation()
                .map_err(|what| WormholeError::Conservation { cycle: now, what })?;
        }
        Ok(())
    }
}

/// The route classes a plan's sends use (see [`Classes`]).
pub fn classes_of(plan: &Plan, shape: &Shape) -> Classes {
    let mut needs = RouteNeeds::default();
    needs.add(plan, shape);
    needs.classes()
}

/// What the routes of some plans need, gathered send by send, so that routes which are both
/// sweeping and monotone along the snake take the sweeping classes when those are needed anyway.
#[derive(Default)]
pub(crate) struct RouteNeeds {
    dor: bool,
    snake: bool,
    snake_only: bool,
    sweep_only: bool,
}

impl RouteNeeds {
    pub(crate) fn add(&mut self, plan: &Plan, shape: &Shape) {
        let snake = Snake::new(shape);
        for send in plan.sends() {
            if dimension_ordered(shape, send.from, send.hops) {
                self.dor = true;
                continue;
            }
            let on_snake = monotone(|v| Some(snake.label(v)), send.from, send.hops);
            let sweeps = planar(shape) && sweeping_route(shape, send.from, send.hops);
            self.snake |= on_snake;
            // A route of neither class counts as Hamiltonian: it is refused when it is sent.
            self.snake_only |= !sweeps;
            self.sweep_only |= sweeps && !on_snake;
        }
    }

    pub(crate) fn classes(&self) -> Classes {
        Classes {
            dimension_ordered: self.dor,
            hamiltonian: if self.sweep_only {
                self.snake_only
            } else {
                self.snake || self.snake_only
            },
            sweeping: self.sweep_only,
        }
    }
}

/// One plan run alone in an empty network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRun {
    /// Each destination and the cycle it held the whole message, in the plan's destination order.
    pub arrivals: Vec<(Node, u64)>,
    /// The cycle the last destination held it: the multicast latency.
    pub completion: u64,
    /// Flit crossings of network channels.
    pub flit_hops: u64,
}

/// Run `plan` alone on `shape` (generated at cycle 0, its source sending from cycle `prep`) and
/// report when each destination holds the message. Routes must be dimension-ordered, monotone
/// along the snake Hamiltonian path, or sweeping on a 2D mesh (see [`Classes`]).
pub fn run_plan(
    shape: &Shape,
    plan: &Plan,
    router: Router,
    prep: u32,
) -> Result<PlanRun, WormholeError> {
    let mut sim = Sim::new(shape, router, classes_of(plan, shape))?;
    sim.nodes.trace = Some(Vec::new());
    sim.nodes.multicast(0, prep, plan.clone(), false);
    let mut now = 0;
    while sim.done.is_empty() {
        sim.cycle(now, &mut NoObserver)?;
        now += 1;
    }
    let arrivals = sim.nodes.trace.take().unwrap_or_default();
    let completion = sim.done[0].latency;
    let arrivals = plan
        .destinations()
        .iter()
        .map(|&d| {
            let t = arrivals
                .iter()
                .find(|a| a.0 == d)
                .map(|a| a.1)
                .expect("every destination is reached");
            (d, t)
        })
        .collect();
    Ok(PlanRun {
        arrivals,
        completion,
        flit_hops: sim.net.flits.hops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Hop, PlanKind};

    /// Five worms chasing each other round a 5-node ring on one virtual channel without
    /// datelines deadlock; the watchdog stops the run and names what each waits for.
    #[test]
    fn the_watchdog_reports_a_deadlock() {
        let shape = Shape::torus(&[5]).unwrap();
        let router = Router {
            vcs: 1,
            buffer: 1,
            length: 8,
            startup: 0,
            ..Router::default()
        };
        let mut sim = Sim::new(&Shape::mesh(&[5]).unwrap(), router, Classes::default()).unwrap();
        sim.net = Network::new(Channels::without_datelines(&shape, 1), router);
        for i in 0..5u32 {
            let at = |x: u32| Node(x % 5);
            let mut plan = Plan::new(PlanKind::Unicast, at(i), vec![at(i + 2)]);
            plan.push_send(
                at(i),
                [Hop::new(at(i + 1), false), Hop::new(at(i + 2), true)],
            );
            sim.nodes.multicast(0, 0, plan, false);
        }
        let err = (0..)
            .try_for_each(|now| sim.cycle(now, &mut NoObserver))
            .unwrap_err();
        let WormholeError::Deadlock { cycle, waiting, .. } = &err else {
            panic!("{err}");
        };
        assert!(*cycle >= WATCHDOG && *cycle < WATCHDOG + 50, "{err}");
        assert_eq!(waiting.len(), 5);
        assert!(waiting[0].contains("waits for channel"), "{err}");
    }

    /// The hops of the messages in the system, which the traffic runs cap: each multicast
    /// counts its plan's hops from its admission until its last send is over.
    #[test]
    fn live_hops_count_the_plans_in_the_system() {
        let shape = Shape::mesh(&[6, 6]).unwrap();
        let mut sim = Sim::new(&shape, Router::default(), Classes::default()).unwrap();
        let at = |x, y| shape.node(&[x, y]).unwrap();
        let mut total = 0;
        for (from, dests) in [
            (at(0, 0), vec![at(5, 5), at(2, 3)]),
            (at(3, 1), vec![at(0, 4)]),
        ] {
            let request = crate::algo::Request::new(shape.clone(), from, dests).unwrap();
            let plan = crate::algo::find("vh").unwrap().route(&request).unwrap();
            total += u64::from(plan.traffic());
            sim.nodes.multicast(0, 0, plan, false);
        }
        sim.nodes.unicast(0, at(1, 1), at(4, 4), false);
        assert_eq!(sim.nodes.live_hops(), total + 1);
        for now in 0..2_000 {
            sim.cycle(now, &mut NoObserver).unwrap();
        }
        assert_eq!((sim.nodes.live(), sim.nodes.live_hops()), (0, 0));
    }

    /// A topology whose simulator state would not fit the budget is refused before anything
    /// is allocated; a 2048² mesh with the default router fits.
    #[test]
    fn the_state_of_a_huge_network_is_refused() {
        let huge = Shape::mesh(&[8192, 8192]).unwrap();
        let bytes = state_bytes(&huge, Router::default());
        assert!(bytes > 50_000_000_000, "{bytes}");
        let err = channels(&huge, Router::default(), Classes::default())
            .err()
            .unwrap();
        assert!(err.to_string().contains("GB of simulator state"), "{err}");
        let large = Shape::mesh(&[2048, 2048]).unwrap();
        assert!(state_bytes(&large, Router::default()) < MAX_STATE_BYTES);
    }
}
