//! Throughput of every tree algorithm of the registry: plans per second, on the sizes of issue 2 —
//! 20×20 with K = 200, 256×256 with K = 5,000, 32×32×32 with K = 5,000 — each on the mesh and the
//! torus, and issue 14's 1024×1024 mesh with K = N/100 = 10,486; source at the origin, one fixed
//! random destination set per case (seed 1). `meshcast bench` measures the same way on many
//! multicasts.
//!
//! Run: `cargo bench -p meshcast --bench trees`. Divan reports time per plan; docs/PERFORMANCE.md
//! records the figures with ns per tree link (time / traffic).

mod common;

use common::Case;
use meshcast::plan::PlanKind;

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
    ("mesh:1024x1024", 10486),
];

/// Every tree algorithm of the registry on every case it supports.
#[divan::bench(args = common::cases(PlanKind::Tree, CASES), sample_count = 10, sample_size = 1)]
fn route(bencher: divan::Bencher, case: Case) {
    case.bench(bencher, &case.request());
}
