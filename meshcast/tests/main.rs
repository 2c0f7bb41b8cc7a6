//! One integration-test binary (one link step on 2 cores): worked examples of the seeds,
//! property tests over random shapes, path-based multicast, seed 003 (column-path, QG),
//! unicast-based multicast (seed 002, U-mesh, U-torus), and bad input.

mod exact;
mod examples;
mod inputs;
mod msets;
mod msets_prefix;
mod msets_sort;
mod paths;
mod properties;
mod readings;
mod seed003;
mod sim_wormhole;
mod unicast;

use meshcast::algo::{self, Request};
use meshcast::eval::Metrics;
use meshcast::plan::Plan;
use meshcast::schedule::Schedule;

/// Route `req` with `name`, validate the plan, and return it with its metrics under the paper's
/// and the optimal schedule.
pub fn run(name: &str, req: &Request) -> (Plan, Metrics, Metrics) {
    let info = algo::find(name).unwrap();
    let plan = info.route(req).unwrap();
    plan.validate(req.shape(), info.shortest_path)
        .unwrap_or_else(|e| panic!("{name} on {req:?}: {e}"));
    let paper = Metrics::of(&plan, req.shape());
    let optimal_plan = Schedule::Optimal.apply(plan.clone(), req.shape());
    optimal_plan
        .validate(req.shape(), info.shortest_path)
        .unwrap();
    let optimal = Metrics::of(&optimal_plan, req.shape());
    (plan, paper, optimal)
}
