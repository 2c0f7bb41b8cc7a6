//! Simulated packet-steps per second of the seed-004 store-and-forward simulator: naive,
//! Theorem 2, the randomized (§4) and the deterministic (§5) algorithm on random mcast(n, c, c)
//! sets (seed 1). Divan reports
//! the time per routed set; docs/PERFORMANCE.md divides the set's packet hops by it. The mesh
//! primitives (shearsort, sorted (k, k)-routing) on 64×64 with k = 2 report packet hops per second
//! directly (divan's item counter). `naive_threads` and `theorem2_threads` route 128×128 with
//! c = 16 on rayon pools of 1 and 2 threads (the unbounded routing steps run one band of rows
//! per thread; the results are identical).
//!
//! Run: `cargo bench -p meshcast --bench msets`.

use meshcast::experiment::seed004::{Algorithm, Options};
use meshcast::sim::saf::snake::SnakeOrder;
use meshcast::sim::saf::sort;
use meshcast::sim::saf::{msets, permute, Capacity, MessageSet, PacketId, Sim};
use meshcast::workload::seeded;
use rand::RngExt;

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

#[divan::bench(args = [1, 2], sample_count = 3)]
fn naive_threads(bencher: divan::Bencher, threads: usize) {
    bench_threads(bencher, Algorithm::Naive, threads);
}

#[divan::bench(args = [1, 2], sample_count = 3)]
fn theorem2_threads(bencher: divan::Bencher, threads: usize) {
    bench_threads(bencher, Algorithm::Theorem2, threads);
}

fn bench_threads(bencher: divan::Bencher, algo: Algorithm, threads: usize) {
    let set = msets::random(128, 16, 16, 1).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    bencher.bench(|| pool.install(|| algo.run(&set, &Options::default()).unwrap()));
}

fn bench(bencher: divan::Bencher, algo: Algorithm, case: usize) {
    let (side, c) = CASES[case];
    let set = msets::random(side, c, c, 1).unwrap();
    bencher.bench(|| algo.run(&set, &Options::default()).unwrap());
}

/// Side and slots per node of the primitives' benches.
const PRIMITIVE: (u32, u32) = (64, 2);

/// Shearsort of k packets per node with random keys over the whole mesh.
#[divan::bench(sample_count = 5)]
fn shearsort(bencher: divan::Bencher) {
    primitive(bencher, |sim, packets| {
        let mut rng = seeded(1);
        let keyed: Vec<(PacketId, u64)> = packets.iter().map(|&p| (p, rng.random())).collect();
        sort::shearsort(sim, &keyed, PRIMITIVE.0, PRIMITIVE.1, SnakeOrder::RowMajor).unwrap();
    });
}

/// The transpose as a (k, k)-routing: shearsort by destination column, then greedy routing.
#[divan::bench(sample_count = 5)]
fn permute_transpose(bencher: divan::Bencher) {
    primitive(bencher, |sim, packets| {
        let side = PRIMITIVE.0;
        let moves: Vec<(PacketId, u32)> = packets
            .iter()
            .map(|&p| (p, sim.at(p) % side * side + sim.at(p) / side))
            .collect();
        permute::route(sim, &moves, side, PRIMITIVE.1).unwrap();
    });
}

/// Times `run` on a fresh machine with k packets per node, counting its packet hops as items.
fn primitive(bencher: divan::Bencher, run: impl Fn(&mut Sim<'_>, &[PacketId])) {
    let (side, k) = PRIMITIVE;
    let n = side * side;
    let lists: Vec<Vec<u32>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
    let set = MessageSet::new(side, &lists).unwrap();
    let load = || {
        let mut sim = Sim::new(&set, Capacity::Unbounded);
        let masters = sim.inject_all().unwrap();
        let jobs: Vec<(PacketId, u32)> = masters.iter().map(|&p| (p, k - 1)).collect();
        let mut packets = sim.replicate(&jobs).unwrap();
        packets.extend(masters);
        (sim, packets)
    };
    let (mut sim, packets) = load();
    let before = sim.totals().packet_hops;
    run(&mut sim, &packets);
    let hops = sim.totals().packet_hops - before;
    bencher
        .counter(divan::counter::ItemsCount::new(hops))
        .with_inputs(load)
        .bench_local_values(|(mut sim, packets)| run(&mut sim, &packets));
}
