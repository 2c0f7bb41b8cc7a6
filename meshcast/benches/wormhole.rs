//! Speed of the flit-level wormhole simulator: one traffic run of a fixed number of cycles
//! (2,000 warm-up + 8,000 measured, no early stop) of uniform unicast traffic, 16-flit messages,
//! 2 virtual channels of 4 flits, on 8×8, 16×16 and 8×8×8 meshes at a low, a mid and a
//! near-saturation load (offered flits per node per cycle as a fraction of the 4/k channel-load
//! bound: 10%, 30%, 50%; measured saturation is about 60% of the bound with these buffers).
//!
//! Run: `cargo bench -p meshcast --bench wormhole`. Divan reports time per run of 10,000 cycles;
//! docs/PERFORMANCE.md records cycles per second and flit-hops per second.

use meshcast::algo::Params;
use meshcast::sim::wormhole::traffic::{simulate, Measure, Setup, Traffic};
use meshcast::sim::wormhole::Router;

fn main() {
    divan::main();
}

const SHAPES: &[(&str, u32)] = &[("mesh:8x8", 8), ("mesh:16x16", 16), ("mesh:8x8x8", 8)];
const LOADS: &[f64] = &[0.1, 0.3, 0.5];
const LENGTH: u32 = 16;

/// The setup for shape `s` at load fraction `l` of the channel-load bound.
pub fn setup(s: usize, l: usize) -> Setup {
    let (topology, k) = SHAPES[s];
    let flits = LOADS[l] * 4.0 / f64::from(k);
    Setup {
        shape: topology.parse().unwrap(),
        router: Router {
            vcs: 2,
            buffer: 4,
            pipeline: 1,
            ports: 1,
            startup: 0,
            length: LENGTH,
        },
        traffic: Traffic {
            load: flits / f64::from(LENGTH),
            ..Traffic::default()
        },
        measure: Measure {
            warmup: 2_000,
            batch: 1_000,
            min_batches: 2,
            precision: 1e-12,
            max_cycles: 10_000,
            drain: 0,
        },
        algorithm: None,
        preparation: None,
        params: Params::default(),
        seed: 1,
    }
}

#[divan::bench(args = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)], sample_count = 5, sample_size = 1)]
fn unicast_10k_cycles(bencher: divan::Bencher, (s, l): (usize, usize)) {
    let setup = setup(s, l);
    bencher.bench(|| simulate(divan::black_box(&setup)).unwrap());
}
