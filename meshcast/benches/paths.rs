//! Throughput of every path-based algorithm: plans per second on the mesh sizes of issue 4 —
//! 20×20 with K = 200 and 16×16×16 with K = 1,000 — source at the origin, one fixed random
//! destination set per case (seed 1). An algorithm skips the shapes it does not support (`lin`
//! and `xy-path` are 2D only).
//!
//! Run: `cargo bench -p meshcast --bench paths`. Divan reports time per plan; docs/PERFORMANCE.md
//! records the figures with ns per link (time / traffic).

mod common;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[("mesh:20x20", 200), ("mesh:16x16x16", 1000)];

fn bench_algo(bencher: divan::Bencher, name: &str, case: usize) {
    let (topology, k) = CASES[case];
    common::bench_route(bencher, name, &common::request(topology, k));
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
