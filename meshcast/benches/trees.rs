//! Throughput of every tree algorithm: plans per second, on the sizes of issue 2 — 20×20 with
//! K = 200, 256×256 with K = 5,000, 32×32×32 with K = 5,000 — each on the mesh and the torus,
//! source at the origin, one fixed random destination set per case (seed 1).
//!
//! Run: `cargo bench -p meshcast --bench trees`. Divan reports time per plan; docs/PERFORMANCE.md
//! records the figures with ns per tree link (time / traffic).

use meshcast::algo::{self, Request};
use meshcast::experiment::workload::{random_destinations, seeded};
use meshcast::topology::Shape;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[
    ("mesh:20x20", 200),
    ("torus:20x20", 200),
    ("mesh:256x256", 5000),
    ("torus:256x256", 5000),
    ("mesh:32x32x32", 5000),
    ("torus:32x32x32", 5000),
];

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
        #[divan::bench(args = 0..CASES.len(), sample_count = 10, sample_size = 1)]
        fn $name(bencher: divan::Bencher, case: usize) {
            bench_algo(bencher, $algo, case);
        }
    )*};
}

benches! {
    vh => "vh",
    dist => "dist",
    min => "min",
    diag => "diag",
    dds => "dds",
    pair => "pair",
    pair_min => "pair-min",
}
