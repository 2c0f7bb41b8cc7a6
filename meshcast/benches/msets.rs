//! Simulated packet-steps per second of the seed-004 store-and-forward simulator: naive,
//! Theorem 2, the randomized (§4) and the deterministic (§5) algorithm on random mcast(n, c, c)
//! sets (seed 1). Divan reports
//! the time per routed set; docs/PERFORMANCE.md divides the set's packet hops by it.
//!
//! Run: `cargo bench -p meshcast --bench msets`.

use meshcast::sim::saf::msets;
use meshcast::sim::saf::report::{Algorithm, Options};

fn main() {
    divan::main();
}

const CASES: &[(u32, u32)] = &[(32, 16), (64, 16)];

#[divan::bench(args = [0, 1], sample_count = 5)]
fn naive(bencher: divan::Bencher, case: usize) {
    bench(bencher, Algorithm::Naive, case);
}

#[divan::bench(args = [0, 1], sample_count = 5)]
fn theorem2(bencher: divan::Bencher, case: usize) {
    bench(bencher, Algorithm::Theorem2, case);
}

#[divan::bench(args = [0, 1], sample_count = 5)]
fn randomized(bencher: divan::Bencher, case: usize) {
    bench(bencher, Algorithm::Randomized, case);
}

/// §5 only on 32×32: its Θ(√(cn)·log²n) steps make 64×64 take seconds per set.
#[divan::bench(args = [0], sample_count = 5)]
fn deterministic(bencher: divan::Bencher, case: usize) {
    bench(bencher, Algorithm::Deterministic, case);
}

fn bench(bencher: divan::Bencher, algo: Algorithm, case: usize) {
    let (side, c) = CASES[case];
    let set = msets::random(side, c, c, 1).unwrap();
    bencher.bench(|| algo.run(&set, &Options::default()).unwrap());
}
