//! Throughput of every unicast-based algorithm of the registry, and of the models that measure
//! them, on the sizes of issue 4 — 20×20 with K = 200 and 16×16×16 with K = 1,000 — on the mesh
//! and the torus, source at the origin, one fixed random destination set per case (seed 1). An
//! algorithm runs on the shapes it supports (`u-mesh`: meshes, `u-torus`: tori, `multiport`: 2D).
//!
//! Run: `cargo bench -p meshcast --bench unicast`. Divan reports time per plan (or per
//! evaluation); docs/PERFORMANCE.md records the figures with ns per link (time / traffic).

mod common;

use common::Case;
use meshcast::algo::{self, Params, Request};
use meshcast::contention::Contention;
use meshcast::eval::{message_steps, Ports};
use meshcast::plan::Plan;
use meshcast::plan::PlanKind;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[
    ("mesh:20x20", 200),
    ("torus:20x20", 200),
    ("mesh:16x16x16", 1000),
    ("torus:16x16x16", 1000),
];

/// Every unicast-based algorithm of the registry on every case it supports, with the papers'
/// settings (the multiport algorithm's d = 2).
#[divan::bench(args = common::cases(PlanKind::Unicast, CASES), sample_count = 20, sample_size = 10)]
fn route(bencher: divan::Bencher, case: Case) {
    case.bench(bencher, &case.request());
}

/// The multiport algorithm with d = 4 ports.
#[divan::bench(
    args = common::cases(PlanKind::Unicast, CASES).into_iter().filter(|c| c.algo.name == "multiport"),
    sample_count = 20,
    sample_size = 10
)]
fn multiport_4_ports(bencher: divan::Bencher, case: Case) {
    let params = Params {
        ports: 4,
        ..Params::default()
    };
    case.bench(bencher, &case.request().with_params(params).unwrap());
}

/// Separate addressing's plan, whose unicasts share the most channels: every destination's
/// route leaves the source. The model benchmarks measure it.
fn separate_plan(case: usize) -> (Request, Plan) {
    let req = common::request(CASES[case].0, CASES[case].1);
    let plan = algo::find("separate").unwrap().route(&req).unwrap();
    (req, plan)
}

#[divan::bench(args = 0..CASES.len(), sample_count = 20, sample_size = 10)]
fn steps_of_separate(bencher: divan::Bencher, case: usize) {
    let (req, plan) = separate_plan(case);
    bencher.bench(|| message_steps(divan::black_box(&plan), req.shape(), Ports::One));
}

#[divan::bench(args = 0..CASES.len(), sample_count = 10, sample_size = 1)]
fn contention_of_separate(bencher: divan::Bencher, case: usize) {
    let (req, plan) = separate_plan(case);
    bencher.bench(|| Contention::of(divan::black_box(&plan), req.shape(), Ports::All));
}
