//! Throughput of every path-based algorithm of the registry: plans per second on the mesh sizes
//! of issue 4 — 20×20 with K = 200 and 16×16×16 with K = 1,000 — source at the origin, one fixed
//! random destination set per case (seed 1). An algorithm runs on the shapes it supports (`lin` and
//! `xy-path` are 2D only).
//!
//! Run: `cargo bench -p meshcast --bench paths`. Divan reports time per plan; docs/PERFORMANCE.md
//! records the figures with ns per link (time / traffic).

mod common;

use common::Case;
use meshcast::plan::PlanKind;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[("mesh:20x20", 200), ("mesh:16x16x16", 1000)];

/// Every path-based algorithm of the registry on every case it supports.
#[divan::bench(args = common::cases(PlanKind::Path, CASES), sample_count = 20, sample_size = 10)]
fn route(bencher: divan::Bencher, case: Case) {
    case.bench(bencher, &case.request());
}
