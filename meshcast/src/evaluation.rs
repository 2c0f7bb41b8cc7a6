//! Which models apply to which plan, and a plan's values under all of them at once.
//!
//! The one rule (seed 001 §2.1.2.2–§2.1.2.4): every plan is measured under the store-and-forward
//! models (traffic, one-port, all-port and d-port time); path- and unicast-based plans are sent
//! by switching, so they are also measured under the wormhole model and, when their packet
//! lengths are given, circuit switching and virtual cut-through ([`Evaluation::switched`]);
//! unicast-based plans are also counted in message-passing steps and the channel contention of
//! those steps ([`Evaluation::stepped`]). Tree plans are store-and-forward plans and are not
//! measured under the switched models.
//!
//! [`Evaluation::of`] applies the rule to one plan (what `meshcast route` reports); a sweep asks
//! the same two questions of an algorithm's [`PlanKind`] to know which metrics it collects
//! ([`crate::experiment::sweep::Sweep::measures`]). The models themselves live in
//! [`crate::eval`] and [`crate::contention`]; this module only decides and collects.

use crate::contention::Contention;
use crate::eval::{
    circuit_switching_latency, cut_through_latency, CircuitSwitching, CutThrough, Metrics, Ports,
    Steps, Timeline, Wormhole,
};
use crate::plan::{Plan, PlanKind};
use crate::schedule::{Buffers, Schedule};
use crate::topology::Shape;

/// The models a plan is measured under besides store-and-forward: the wormhole model, and
/// circuit switching and virtual cut-through when their packet lengths are given (seed 001
/// §2.1.2.4). They share the start-up, the message length and the ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Models {
    /// The wormhole model.
    pub wormhole: Wormhole,
    /// Circuit switching's control packet length `L_c` in flits, if it is measured.
    pub control: Option<u32>,
    /// Virtual cut-through's header length `L_h` in flits, if it is measured.
    pub header: Option<u32>,
}

impl From<Wormhole> for Models {
    /// The wormhole model alone.
    fn from(wormhole: Wormhole) -> Models {
        Models {
            wormhole,
            control: None,
            header: None,
        }
    }
}

impl Models {
    /// Circuit switching with the wormhole model's start-up, length and ports, when `control`
    /// is given.
    pub fn circuit_switching(&self) -> Option<CircuitSwitching> {
        let w = self.wormhole;
        self.control.map(|control| CircuitSwitching {
            startup: w.startup,
            control,
            length: w.length,
            ports: w.ports,
        })
    }

    /// Virtual cut-through with the wormhole model's start-up, length and ports, when `header`
    /// is given.
    pub fn cut_through(&self) -> Option<CutThrough> {
        let w = self.wormhole;
        self.header.map(|header| CutThrough {
            startup: w.startup,
            header,
            length: w.length,
            ports: w.ports,
        })
    }
}

/// The store-and-forward time under seed 002's d-port architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DPort {
    /// Ports a node sends on at once, `d`.
    pub ports: u32,
    /// Multicast time, in hops.
    pub time: u32,
}

/// A valid plan's values under every model that applies to it; `None` where one does not.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// Traffic and the one-port and all-port times, in the plan's port order.
    pub metrics: Metrics,
    /// One-port time of the same plan with the optimal port order.
    pub optimal_one_port_time: u32,
    /// Store-and-forward times under the one-port model.
    pub one_port: Timeline,
    /// Store-and-forward times under the all-port model.
    pub all_port: Timeline,
    /// Store-and-forward time under the wormhole model's `d` ports, when it has `d` ports.
    pub d_port: Option<DPort>,
    /// The wormhole timeline (switched plans).
    pub wormhole: Option<Timeline>,
    /// The message-passing steps under the wormhole model's ports (unicast-based plans).
    pub steps: Option<Steps>,
    /// The channel contention of those steps (seed 002 Definitions 3–4).
    pub contention: Option<Contention>,
    /// Circuit-switching latency (seed 001 eq. 2.1.4; switched plans, `control` given).
    pub circuit_switching_latency: Option<u32>,
    /// Virtual cut-through latency (seed 001 eq. 2.1.5; switched plans, `header` given).
    pub cut_through_latency: Option<u32>,
}

impl Evaluation {
    /// Whether a plan of `kind` is measured under the switched models (wormhole, circuit
    /// switching, cut-through): path- and unicast-based plans are, trees are not.
    pub fn switched(kind: PlanKind) -> bool {
        kind != PlanKind::Tree
    }

    /// Whether a plan of `kind` is counted in message-passing steps (seed 001 eq. 2.1.7) and
    /// their contention: unicast-based plans only.
    pub fn stepped(kind: PlanKind) -> bool {
        kind == PlanKind::Unicast
    }

    /// Evaluate a valid `plan` on `shape` under every model of `models` that applies to it.
    pub fn of(plan: &Plan, shape: &Shape, models: &Models) -> Evaluation {
        let switched = Evaluation::switched(plan.kind());
        let steps = Evaluation::stepped(plan.kind())
            .then(|| Steps::new(plan, shape, models.wormhole.ports));
        let optimal = Schedule::metrics(plan, shape, &[Schedule::Optimal], &mut Buffers::default());
        let one_port = Timeline::new(plan, shape, Ports::One);
        let all_port = Timeline::new(plan, shape, Ports::All);
        Evaluation {
            metrics: Metrics::from_timelines(plan, &one_port, &all_port),
            optimal_one_port_time: optimal[0].one_port_time,
            one_port,
            all_port,
            d_port: match models.wormhole.ports {
                ports @ Ports::Multi(d) => Some(DPort {
                    ports: d,
                    time: Timeline::new(plan, shape, ports).completion(plan),
                }),
                Ports::One | Ports::All => None,
            },
            wormhole: switched.then(|| Timeline::wormhole(plan, shape, models.wormhole)),
            contention: steps.as_ref().map(|s| Contention::under(plan, shape, s)),
            steps,
            circuit_switching_latency: models
                .circuit_switching()
                .filter(|_| switched)
                .map(|model| circuit_switching_latency(plan, shape, model)),
            cut_through_latency: models
                .cut_through()
                .filter(|_| switched)
                .map(|model| cut_through_latency(plan, shape, model)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{Request, REGISTRY};
    use crate::eval::{message_steps, wormhole_latency};

    /// Every registered algorithm builds plans of its registry family, so the rule keyed on an
    /// algorithm's family (sweeps) and the rule keyed on a plan's kind (reports) agree.
    #[test]
    fn every_algorithm_builds_plans_of_its_family() {
        let requests = [
            ("mesh:8x8", "1,1", "0,2 3,0 4,6 6,6 7,4"),
            ("torus:6x6", "2,3", "0,2 3,0 4,5 5,5"),
            ("mesh:4x4x4", "1,1,0", "1,1,1 3,2,0 0,3,3"),
        ];
        let mut routed = vec![false; REGISTRY.len()];
        for (topology, source, dests) in requests {
            let req = Request::parse(topology, source, dests).unwrap();
            for (i, info) in REGISTRY.iter().enumerate() {
                if info.support.covers(req.shape()) {
                    let kind = info.route(&req).unwrap().kind();
                    assert_eq!(kind, info.family, "{}", info.name);
                    routed[i] = true;
                }
            }
        }
        assert!(
            routed.iter().all(|&r| r),
            "every algorithm is routed at least once"
        );
    }

    #[test]
    fn only_switched_plans_get_switched_models_and_only_unicast_plans_steps() {
        let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
        let wormhole = Wormhole {
            startup: 3,
            length: 20,
            ports: Ports::Multi(2),
        };
        let models = Models {
            wormhole,
            control: Some(4),
            header: Some(2),
        };
        for name in ["diag", "dual-path", "u-mesh"] {
            let info = crate::algo::find(name).unwrap();
            let plan = info.route(&req).unwrap();
            let e = Evaluation::of(&plan, req.shape(), &models);
            let switched = info.family != PlanKind::Tree;
            assert_eq!(e.wormhole.is_some(), switched, "{name}");
            assert_eq!(e.circuit_switching_latency.is_some(), switched, "{name}");
            assert_eq!(e.cut_through_latency.is_some(), switched, "{name}");
            let unicast = info.family == PlanKind::Unicast;
            assert_eq!(e.steps.is_some(), unicast, "{name}");
            assert_eq!(e.contention.is_some(), unicast, "{name}");
            assert_eq!(e.d_port.map(|d| d.ports), Some(2));
            let latency = e.wormhole.as_ref().map(|t| t.completion(&plan));
            let expected = switched.then(|| wormhole_latency(&plan, req.shape(), wormhole));
            assert_eq!(latency, expected, "{name}");
            let steps = e.steps.as_ref().map(|s| s.completion(&plan));
            let expected = unicast.then(|| message_steps(&plan, req.shape(), wormhole.ports));
            assert_eq!(steps, expected, "{name}");
            assert!(e.optimal_one_port_time <= e.metrics.one_port_time);
        }
    }
}
