//! Speed of the flit-level wormhole simulator: one traffic run of a fixed number of cycles
//! (2,000 warm-up + 8,000 measured, no early stop) of uniform unicast traffic, 16-flit messages,
//! 2 virtual channels of 4 flits, on 8×8, 16×16 and 8×8×8 meshes at a low, a mid and a
//! near-saturation load (offered flits per node per cycle as a fraction of the 4/k channel-load
//! bound: 10%, 30%, 50%; measured saturation is about 60% of the bound with these buffers).
//!
//! `booksim_matched`: the router matched to BookSim2 (one virtual channel of 8 flits, 5-cycle
//! pipeline, 20-flit packets, no start-up; docs/SIMULATOR.md) on 8×8 and 16×16 meshes at
//! mid-load and past saturation (0.1 and 0.4 flits per node per cycle on 8×8, 0.05 and 0.2 on
//! 16×16), 20,000 cycles each with no early stop. `booksim_matched_counting`: the same runs with
//! an observer that counts the flits crossing each channel (the cost of observing; unobserved runs
//! compile the observer away).
//!
//! Run: `cargo bench -p meshcast --bench wormhole`. Divan reports time per run;
//! docs/PERFORMANCE.md records cycles per second and flit-hops per second.

use meshcast::algo::Params;
use meshcast::sim::wormhole::traffic::{simulate, simulate_observed, Measure, Setup, Traffic};
use meshcast::sim::wormhole::{ChannelId, Observer, Router, VcRelease};

fn main() {
    divan::main();
}

const SHAPES: &[(&str, u32)] = &[("mesh:8x8", 8), ("mesh:16x16", 16), ("mesh:8x8x8", 8)];
const LOADS: &[f64] = &[0.1, 0.3, 0.5];
const LENGTH: u32 = 16;

/// Uniform unicast traffic of `load` messages per node per cycle on `topology` through `router`,
/// 2,000 warm-up cycles then measured to `cycles` with no early stop and no drain.
fn unicast(topology: &str, router: Router, load: f64, cycles: u64) -> Setup {
    Setup {
        shape: topology.parse().unwrap(),
        router,
        traffic: Traffic {
            load,
            ..Traffic::default()
        },
        measure: Measure {
            warmup: 2_000,
            batch: 1_000,
            min_batches: 2,
            precision: 1e-12,
            max_cycles: cycles,
            drain: 0,
            early_saturation: 0,
            max_backlog: u32::MAX,
        },
        algorithm: None,
        preparation: None,
        params: Params::default(),
        seed: 1,
    }
}

/// The setup for shape `s` at load fraction `l` of the channel-load bound.
pub fn setup(s: usize, l: usize) -> Setup {
    let (topology, k) = SHAPES[s];
    let flits = LOADS[l] * 4.0 / f64::from(k);
    let router = Router {
        vcs: 2,
        buffer: 4,
        pipeline: 1,
        ports: 1,
        startup: 0,
        length: LENGTH,
        release: VcRelease::TailLeft,
    };
    unicast(topology, router, flits / f64::from(LENGTH), 10_000)
}

#[divan::bench(args = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)], sample_count = 5, sample_size = 1)]
fn unicast_10k_cycles(bencher: divan::Bencher, (s, l): (usize, usize)) {
    let setup = setup(s, l);
    bencher.bench(|| simulate(divan::black_box(&setup)).unwrap());
}

const BOOKSIM_LOADS: [(&str, f64); 4] = [
    ("mesh:8x8", 0.005),
    ("mesh:8x8", 0.02),
    ("mesh:16x16", 0.0025),
    ("mesh:16x16", 0.01),
];

#[divan::bench(args = BOOKSIM_LOADS, sample_count = 5, sample_size = 1)]
fn booksim_matched(bencher: divan::Bencher, (topology, load): (&str, f64)) {
    let setup = unicast(topology, Router::BOOKSIM_MATCHED, load, 20_000);
    bencher.bench(|| simulate(divan::black_box(&setup)).unwrap());
}

/// Flits per channel, indexed by channel id.
struct ChannelFlits(Vec<u64>);

impl Observer for ChannelFlits {
    fn on_flit(&mut self, _now: u64, channel: ChannelId) {
        self.0[channel.0 as usize] += 1;
    }
}

#[divan::bench(args = BOOKSIM_LOADS, sample_count = 5, sample_size = 1)]
fn booksim_matched_counting(bencher: divan::Bencher, (topology, load): (&str, f64)) {
    let setup = unicast(topology, Router::BOOKSIM_MATCHED, load, 20_000);
    let channels = setup.shape.len() * 2 * setup.shape.rank();
    bencher.bench(|| {
        let mut flits = ChannelFlits(vec![0; channels]);
        simulate_observed(divan::black_box(&setup), &mut flits).unwrap()
    });
}
