//! Throughput of every unicast-based algorithm, and of the models that measure them, on the
//! sizes of issue 4 — 20×20 with K = 200 and 16×16×16 with K = 1,000 — on the mesh and the
//! torus, source at the origin, one fixed random destination set per case (seed 1). An algorithm
//! skips the shapes it does not support (`u-mesh`: meshes, `u-torus`: tori, `multiport`: 2D).
//!
//! Run: `cargo bench -p meshcast --bench unicast`. Divan reports time per plan (or per
//! evaluation); docs/PERFORMANCE.md records the figures with ns per link (time / traffic).

mod common;

use meshcast::algo::{self, Params, Request};
use meshcast::contention::Contention;
use meshcast::eval::{message_steps, Ports};
use meshcast::plan::Plan;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[
    ("mesh:20x20", 200),
    ("torus:20x20", 200),
    ("mesh:16x16x16", 1000),
    ("torus:16x16x16", 1000),
];

fn request(case: usize, ports: u32) -> Request {
    let (topology, k) = CASES[case];
    let params = Params {
        ports,
        ..Params::default()
    };
    common::request(topology, k).with_params(params).unwrap()
}

fn bench_algo(bencher: divan::Bencher, name: &str, case: usize, ports: u32) {
    common::bench_route(bencher, name, &request(case, ports));
}

macro_rules! benches {
    ($($name:ident => ($algo:literal, $ports:literal)),* $(,)?) => {$(
        #[divan::bench(args = 0..CASES.len(), sample_count = 20, sample_size = 10)]
        fn $name(bencher: divan::Bencher, case: usize) {
            bench_algo(bencher, $algo, case, $ports);
        }
    )*};
}

benches! {
    separate => ("separate", 2),
    u_mesh => ("u-mesh", 2),
    u_torus => ("u-torus", 2),
    multiport => ("multiport", 2),
    multiport_4_ports => ("multiport", 4),
}

/// Separate addressing's plan, whose unicasts share the most channels: every destination's
/// route leaves the source. The model benchmarks measure it.
fn separate_plan(case: usize) -> (Request, Plan) {
    let req = request(case, 2);
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
