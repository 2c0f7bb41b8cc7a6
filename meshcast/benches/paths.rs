//! Throughput of every path-based algorithm: plans per second on the mesh sizes of issue 4 —
//! 20×20 with K = 200 and 16×16×16 with K = 1,000 — source at the origin, one fixed random
//! destination set per case (seed 1). An algorithm skips the shapes it does not support (`lin`
//! and `xy-path` are 2D only).
//!
//! Run: `cargo bench -p meshcast --bench paths`. Divan reports time per plan; docs/PERFORMANCE.md
//! records the figures with ns per link (time / traffic).

use meshcast::algo::{self, Request};
use meshcast::experiment::workload::{random_destinations, seeded};
use meshcast::topology::Shape;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[("mesh:20x20", 200), ("mesh:16x16x16", 1000)];

fn request(case: usize) -> Request {
    let (topology, k) = CASES[case];
    let shape: Shape = topology.parse().unwrap();
    let origin = shape.node(&vec![0; shape.rank()]).unwrap();
    let dests = random_destinations(&shape, origin, k, &mut seeded(1)).unwrap();
    Request::new(shape, origin, dests).unwrap()
}

fn bench_algo(bencher: divan::Bencher, name: &str, case: usize) {
    let req = request(case);
    let info = algo::find(name).unwrap();
    if !info.support.covers(req.shape()) {
        return;
    }
    bencher.bench(|| info.route(divan::black_box(&req)).unwrap());
}

macro_rules! benches {
    ($($name:ident => $algo:literal),* $(,)?) => {$(
        #[divan::bench(args = 0..CASES.len(), sample_count = 20, sample_size = 10)]
        fn $name(bencher: divan::Bencher, case: usize) {
            bench_algo(bencher, $algo, case);
        }
    )*};
}

benches! {
    lin => "lin",
    dual_path => "dual-path",
    multi_path => "multi-path",
    xy_path => "xy-path",
    column_path => "column-path",
    qg => "qg",
}
