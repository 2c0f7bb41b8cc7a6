//! The flit-level wormhole simulator (issue 5): zero-load latency against the analytic formula
//! and the static wormhole model, refusals, conservation and determinism under traffic.

use meshcast::algo::{self, Request};
use meshcast::eval::{wormhole_latency, Port, Wormhole};
use meshcast::experiment::workload::{random_destinations, seeded};
use meshcast::plan::{Hop, Plan, PlanKind};
use meshcast::route::dimension_ordered;
use meshcast::sim::wormhole::{run_plan, Router, SimError};
use meshcast::topology::Shape;

fn unicast_plan(shape: &Shape, from: &[u32], to: &[u32]) -> Plan {
    let (u, v) = (shape.node(from).unwrap(), shape.node(to).unwrap());
    let mut plan = Plan::new(PlanKind::Unicast, u, vec![v]);
    plan.push_send(
        u,
        dimension_ordered::route(shape, u, v).map(|w| Hop {
            node: w,
            drop: w == v,
        }),
    );
    plan
}

/// One worm alone: start-up + (hops + 1) · pipeline + L − 1, which is start-up + hops + L for the
/// seeds' one-cycle router, on meshes and tori of 1 to 3 dimensions.
#[test]
fn zero_load_latency_of_one_worm_is_analytic() {
    for (topology, from, to) in [
        ("mesh:8x8", &[0, 0][..], &[7, 5][..]),
        ("mesh:4x4x4", &[3, 0, 1], &[0, 2, 3]),
        ("torus:8x8", &[0, 0], &[6, 3]),
        ("torus:16", &[2], &[12]),
        ("mesh:2x2", &[0, 0], &[1, 0]),
    ] {
        let shape: Shape = topology.parse().unwrap();
        let plan = unicast_plan(&shape, from, to);
        let hops = plan.traffic();
        for pipeline in [1, 2, 3] {
            for (startup, length) in [(33, 64), (0, 1), (5, 20)] {
                let router = Router {
                    vcs: 2,
                    buffer: pipeline + 1,
                    pipeline,
                    ports: 1,
                    startup,
                    length,
                };
                let run = run_plan(&shape, &plan, router, 0).unwrap();
                assert_eq!(
                    run.completion,
                    router.zero_load_latency(hops),
                    "{topology} {router:?}"
                );
                if pipeline == 1 {
                    assert_eq!(run.completion, u64::from(startup + hops + length));
                }
                assert_eq!(run.flit_hops, u64::from(hops * length));
            }
        }
    }
}

/// The most sends any node of `plan` makes.
fn most_sends(plan: &Plan, nodes: usize) -> u32 {
    let mut count = vec![0u32; nodes];
    for s in plan.sends() {
        count[s.from.index()] += 1;
    }
    count.into_iter().max().unwrap_or(0)
}

/// Whether two sends of `plan` cross the same directed channel.
fn shares_a_channel(plan: &Plan) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    plan.sends().any(|s| {
        let mut at = s.from;
        s.hops.iter().any(|h| {
            let fresh = seen.insert((at, h.node));
            at = h.node;
            !fresh
        })
    })
}

/// A single multicast in an empty network takes exactly the static wormhole model's latency
/// (seed 001 eq. 2.1.10, `eval::wormhole_latency`), one-port with one injection channel and
/// all-port with as many as the busiest sender needs, whenever no two of its sends share a
/// channel; and never less when some do (they can only delay each other).
#[test]
fn a_lone_multicast_takes_the_static_wormhole_latency() {
    let mut rng = seeded(5);
    let mut compared = 0;
    for (topology, algos) in [
        (
            "mesh:8x8",
            &[
                "dual-path",
                "multi-path",
                "column-path",
                "qg",
                "lin",
                "vh",
                "dds",
                "u-mesh",
                "multiport",
                "separate",
            ][..],
        ),
        (
            "mesh:4x4x4",
            &["dual-path", "multi-path", "qg", "dds", "u-mesh"][..],
        ),
        ("torus:6x6", &["dds", "vh", "u-torus"][..]),
    ] {
        let shape: Shape = topology.parse().unwrap();
        for trial in 0..6 {
            let source = shape.node_at(trial * 7 % shape.len()).unwrap();
            let dests = random_destinations(&shape, source, 3 + trial * 3, &mut rng).unwrap();
            let req = Request::new(shape.clone(), source, dests).unwrap();
            for &name in algos {
                let plan = algo::find(name).unwrap().route(&req).unwrap();
                let exclusive = !shares_a_channel(&plan);
                for (port, ports) in [(Port::One, 1), (Port::All, most_sends(&plan, shape.len()))] {
                    let router = Router {
                        vcs: 4,
                        buffer: 2,
                        pipeline: 1,
                        ports,
                        startup: 33,
                        length: 16,
                    };
                    let run = run_plan(&shape, &plan, router, 0).unwrap();
                    let model = u64::from(wormhole_latency(
                        &plan,
                        &shape,
                        Wormhole {
                            startup: 33,
                            length: 16,
                            port,
                        },
                    ));
                    if exclusive {
                        assert_eq!(run.completion, model, "{name} {topology} {port:?}");
                        compared += 1;
                    } else {
                        assert!(run.completion >= model, "{name} {topology} {port:?}");
                    }
                }
            }
        }
    }
    assert!(compared > 100, "only {compared} exact comparisons");
}
