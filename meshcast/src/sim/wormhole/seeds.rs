//! The dynamic experiments of seeds 003 and 002, as setups and runs the command line (and
//! `meshcast reproduce`) can execute: each function fixes what the paper fixes and takes what a
//! caller may want to shorten (loads, run counts, measurement).
//!
//! * seed 003 Table 1 ([`seed003_table1`]): coefficient of variation of the destinations'
//!   arrival times, DP, MP, CP and QG on the 10×10×10 mesh, 20/60/80 destinations, 64 flits,
//!   start-up 33, four injection and ejection channels, seed 003's preparation times. Each
//!   multicast runs alone in the network (see docs/REPRODUCTION.md for why the published
//!   inter-arrival time of 250 cycles cannot be run literally);
//! * seed 003 Figures 8–9 ([`seed003_figure`]): mean multicast latency against load on the
//!   8×8×8 mesh, 10% multicasts to 10 (Fig. 8) or 20 (Fig. 9) destinations among unicasts;
//! * seed 002 Figures 6–8 ([`seed002_figure`]): the multiport algorithm on the 16×16 mesh with one
//!   port against two, latency against destinations, generation rate and message length.

use crate::algo::{self, Params, Request};
use crate::topology::Shape;
use crate::workload::{point_seed, random_destinations, seeded};

use super::traffic::{Destinations, Measure, Setup, Traffic, EARLY_SATURATION, MAX_BACKLOG};
use super::{preparation_time, run_plan, Router, VcRelease};
use crate::error::WormholeError;

/// Seed 003's four algorithms, in the paper's order.
pub const SEED003_ALGORITHMS: [&str; 4] = ["dual-path", "multi-path", "column-path", "qg"];

/// Seed 003 §4's router: 64 flits, start-up 33 cycles, one cycle per flit per channel, four
/// injection and four ejection channels. The paper gives no buffer or virtual-channel figures;
/// ours: four virtual channels of 8 flits, two for the unicasts' dimension-ordered routes and two
/// for the worms' Hamiltonian routes (with one of 4 flits each, the long path-based worms
/// saturate the 8×8×8 mesh below 12% channel utilisation; docs/REPRODUCTION.md).
pub const SEED003_ROUTER: Router = Router {
    vcs: 4,
    buffer: 8,
    pipeline: 1,
    ports: 4,
    startup: 33,
    length: 64,
    release: VcRelease::TailLeft,
};

/// Table 1's destination counts.
pub const SEED003_TABLE1_COUNTS: [u32; 3] = [20, 60, 80];

/// Multicasts averaged per Table 1 cell: the paper averages "at least 40 experiments".
pub const SEED003_TABLE1_RUNS: u32 = 40;

/// The loads of Figs. 8–9, messages per node per cycle (the paper's axis is lost with the
/// figures): from light load to past every algorithm's saturation.
pub const SEED003_FIGURE_LOADS: [f64; 6] = [0.0005, 0.001, 0.0015, 0.002, 0.0025, 0.003];

/// The measurement of the figures' runs (seed 003 Figs. 8–9, seed 002 Figs. 6–8): warm-up 5,000
/// cycles, batches of 5,000, measuring until cycle 100,000 at most, then at most 50,000 to drain;
/// the default early-saturation rule and backlog cap.
pub const FIGURE_MEASURE: Measure = Measure {
    warmup: 5_000,
    batch: 5_000,
    min_batches: 10,
    precision: 0.05,
    max_cycles: 150_000,
    drain: 50_000,
    early_saturation: EARLY_SATURATION,
    max_backlog: MAX_BACKLOG,
};

/// One cell of Table 1: an algorithm, a destination count, and the mean coefficient of variation
/// of the arrival times over `runs` multicasts.
#[derive(Clone, Debug, PartialEq)]
pub struct CvCell {
    /// The algorithm.
    pub algorithm: &'static str,
    /// Destinations per multicast.
    pub destinations: u32,
    /// Mean CV (standard deviation over mean of the destinations' arrival times).
    pub cv: f64,
    /// Mean multicast latency, in cycles.
    pub latency: f64,
    /// Multicasts averaged.
    pub runs: u32,
}

/// Seed 003 Table 1 on the 10×10×10 mesh: for each destination count of `counts` and each
/// algorithm, `runs` random multicasts (run `r` draws its source and destinations from stream
/// `point_seed(seed, r)`, the same for every algorithm), each alone in the network.
pub fn seed003_table1(counts: &[u32], runs: u32, seed: u64) -> Result<Vec<CvCell>, WormholeError> {
    let shape = Shape::mesh(&[10, 10, 10])?;
    let mut cells = Vec::new();
    for &k in counts {
        for name in SEED003_ALGORITHMS {
            let info = algo::find(name)?;
            let (mut cv, mut latency) = (0.0, 0.0);
            for r in 0..runs {
                let mut rng = seeded(point_seed(seed, u64::from(r)));
                let source = shape.node_at(rng_index(&mut rng, shape.len()))?;
                let dests = random_destinations(&shape, source, k as usize, &mut rng)?;
                let plan = info.route(&Request::new(shape.clone(), source, dests)?)?;
                let run = run_plan(&shape, &plan, SEED003_ROUTER, preparation_time(name))?;
                let t: Vec<f64> = run.arrivals.iter().map(|a| a.1 as f64).collect();
                let mean = t.iter().sum::<f64>() / t.len() as f64;
                let var = t.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / t.len() as f64;
                cv += var.sqrt() / mean;
                latency += run.completion as f64;
            }
            cells.push(CvCell {
                algorithm: info.name,
                destinations: k,
                cv: cv / f64::from(runs),
                latency: latency / f64::from(runs),
                runs,
            });
        }
    }
    Ok(cells)
}

fn rng_index(rng: &mut rand::rngs::ChaCha8Rng, len: usize) -> usize {
    use rand::RngExt;
    rng.random_range(0..len)
}

/// Seed 003 Figure 8 (`destinations` = 10) or 9 (20): one setup per algorithm and load, 8×8×8
/// mesh, 10% multicasts, the rest unicasts. Load `i` is seeded `point_seed(seed, i)` for every
/// algorithm, so the algorithms see the same traffic.
pub fn seed003_figure(
    destinations: u32,
    loads: &[f64],
    measure: Measure,
    seed: u64,
) -> Result<Vec<Setup>, WormholeError> {
    let shape = Shape::mesh(&[8, 8, 8])?;
    let mut setups = Vec::new();
    for name in SEED003_ALGORITHMS {
        let info = algo::find(name)?;
        for (i, &load) in loads.iter().enumerate() {
            setups.push(Setup {
                shape: shape.clone(),
                router: SEED003_ROUTER,
                traffic: Traffic {
                    load,
                    multicast: 0.1,
                    destinations: Destinations::Fixed(destinations),
                    hot_spot: None,
                },
                measure,
                algorithm: Some(info),
                preparation: None,
                params: Params::default(),
                seed: point_seed(seed, i as u64),
            });
        }
    }
    Ok(setups)
}

/// What seed 002's Figures 6–8 vary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seed002Axis {
    /// Figure 6: destinations per multicast.
    Destinations(u32),
    /// Figure 7: messages generated per node per cycle.
    Load(f64),
    /// Figure 8: message length in flits.
    Length(u32),
}

/// Seed 002's settings where a figure does not vary them: 20 destinations, 0.00003 messages per
/// node per cycle, 32 flits (the paper's were lost or never given).
pub const SEED002_BASE: (u32, f64, u32) = (20, 0.00003, 32);

/// The points of seed 002's Figures 6, 7 and 8, in that order.
pub fn seed002_axes() -> [Vec<Seed002Axis>; 3] {
    [
        [5, 10, 20, 30, 40, 50, 60, 70]
            .map(Seed002Axis::Destinations)
            .to_vec(),
        [
            0.00001, 0.00002, 0.00003, 0.00004, 0.00005, 0.00006, 0.0001, 0.0002,
        ]
        .map(Seed002Axis::Load)
        .to_vec(),
        [16, 32, 64, 128, 256].map(Seed002Axis::Length).to_vec(),
    ]
}

/// Seed 002 Figures 6–8: the multiport algorithm on the 16×16 mesh, every message a multicast,
/// one port (d = 1: the algorithm plans for one port and each node has one injection and one
/// ejection channel) against two (d = 2); one setup per port count and point of `axis`, the rest
/// at `base` (destinations, load, length). Point `i` is seeded `point_seed(seed, i)` for both.
pub fn seed002_figure(
    axis: &[Seed002Axis],
    base: (u32, f64, u32),
    measure: Measure,
    seed: u64,
) -> Result<Vec<Setup>, WormholeError> {
    let shape = Shape::mesh(&[16, 16])?;
    let info = algo::find("multiport")?;
    let mut setups = Vec::new();
    for d in [1, 2] {
        for (i, point) in axis.iter().enumerate() {
            let (mut k, mut load, mut length) = base;
            match *point {
                Seed002Axis::Destinations(x) => k = x,
                Seed002Axis::Load(x) => load = x,
                Seed002Axis::Length(x) => length = x,
            }
            setups.push(Setup {
                shape: shape.clone(),
                router: Router {
                    vcs: 2,
                    buffer: 4,
                    pipeline: 1,
                    ports: d,
                    startup: 33,
                    length,
                    ..Router::default()
                },
                traffic: Traffic {
                    load,
                    multicast: 1.0,
                    destinations: Destinations::Fixed(k),
                    hot_spot: None,
                },
                measure,
                algorithm: Some(info),
                preparation: None,
                params: Params {
                    ports: d,
                    ..Params::default()
                },
                seed: point_seed(seed, i as u64),
            });
        }
    }
    Ok(setups)
}
