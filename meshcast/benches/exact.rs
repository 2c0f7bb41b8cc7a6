//! Time of every exact solver (`meshcast::exact`) on the sizes of docs/OPTIMALITY.md: 6×6 and
//! 8×8 meshes and tori and the 4×4×4 mesh and torus, K = 8 and K = 16 destinations, source at the
//! origin, one fixed random destination set per case (seed 1). The one-port solver searches the
//! shortest-path trees and runs on the cases up to K = 8 it is meant for.
//!
//! Run: `cargo bench -p meshcast --bench exact`. docs/OPTIMALITY.md records the figures.

mod common;

use common::Case;
use meshcast::exact;
use meshcast::plan::PlanKind;

fn main() {
    divan::main();
}

const CASES: &[(&str, usize)] = &[
    ("mesh:6x6", 8),
    ("mesh:6x6", 16),
    ("torus:6x6", 16),
    ("mesh:8x8", 16),
    ("torus:8x8", 16),
    ("mesh:4x4x4", 16),
    ("torus:4x4x4", 16),
];

#[divan::bench(args = 0..CASES.len(), sample_count = 5, sample_size = 1)]
fn omt(bencher: divan::Bencher, case: usize) {
    let req = common::request(CASES[case].0, CASES[case].1);
    bencher.bench(|| exact::omt(divan::black_box(&req)).unwrap());
}

#[divan::bench(args = 0..CASES.len(), sample_count = 5, sample_size = 1)]
fn mst(bencher: divan::Bencher, case: usize) {
    let req = common::request(CASES[case].0, CASES[case].1);
    bencher.bench(|| exact::mst(divan::black_box(&req)).unwrap());
}

#[divan::bench(args = 0..CASES.len(), sample_count = 5, sample_size = 1)]
fn omp(bencher: divan::Bencher, case: usize) {
    let req = common::request(CASES[case].0, CASES[case].1);
    bencher.bench(|| exact::omp(divan::black_box(&req)).unwrap());
}

/// The cases of the one-port search, which is meant for small K.
const ONE_PORT_CASES: &[(&str, usize)] = &[
    ("mesh:6x6", 4),
    ("mesh:6x6", 8),
    ("mesh:8x8", 8),
    ("torus:8x8", 8),
];

#[divan::bench(args = 0..ONE_PORT_CASES.len(), sample_count = 5, sample_size = 1)]
fn one_port(bencher: divan::Bencher, case: usize) {
    let (topology, k) = ONE_PORT_CASES[case];
    let req = common::request(topology, k);
    bencher.bench(|| exact::one_port(divan::black_box(&req)).unwrap());
}

/// The heuristics the optima are compared with, on one of the same cases, for scale.
#[divan::bench(
    args = common::cases(PlanKind::Tree, &[("mesh:8x8", 16)])
        .into_iter()
        .filter(|c| ["diag", "dds", "rsa"].contains(&c.algo.name)),
    sample_count = 5,
    sample_size = 10
)]
fn heuristic(bencher: divan::Bencher, case: Case) {
    case.bench(bencher, &case.request());
}
