//! The experiments of seed 003 (Al-Dubai, Ould-Khaoua & Romdhani, Qualified Groups), in one
//! place: what the paper publishes, as data — the simulation settings of §4, Table 1, and the
//! orderings Figs. 6–9 report (published facts only, never ours) — and the runs that set ours
//! against them, built from those published settings: the sweeps of Figs. 6–7
//! ([`TrafficOrdering::sweep`]), and the flit-level setups of Table 1 ([`table1`]) and Figs. 8–9
//! ([`figure`]) for [`crate::sim::wormhole`]. The tests and docs/REPRODUCTION.md compare the two.
//!
//! The extracted text has lost the plots of Figs. 3–9; what survives of them is what the prose
//! says. Algorithms are named by their registry names (`dual-path` is the paper's DP,
//! `multi-path` MP, `column-path` CP, `qg` QG).
//!
//! ```
//! use meshcast::experiment::seed003::{ADDITIONAL_TRAFFIC, TABLE_1};
//! assert_eq!(ADDITIONAL_TRAFFIC[1].topology, "mesh:10x10x10");
//! let qg_at_20 = TABLE_1.iter().find(|r| r.algorithm == "qg" && r.k == 20).unwrap();
//! assert_eq!(qg_at_20.cv, 0.2967);
//! ```

use rand::rngs::ChaCha8Rng;
use rand::RngExt;
use rayon::prelude::*;

use super::sweep::{Placement, Sweep};
use super::{first_seen, flit};
use crate::algo::{self, AlgoInfo, Params, Request};
use crate::error::{InputError, WormholeError};
use crate::schedule::Schedule;
use crate::sim::wormhole::traffic::{Destinations, Measure, Setup, Traffic};
use crate::sim::wormhole::{run_plan, Router, VcRelease};
use crate::topology::Shape;
use crate::workload::{point_seed, random_destinations, seeded};

/// Seed 003's four algorithms by registry name, in the paper's order: DP, MP, CP, QG.
pub const ALGORITHMS: [&str; 4] = ["dual-path", "multi-path", "column-path", "qg"];

/// The paper's abbreviations of [`ALGORITHMS`], in the same order.
pub const ABBREVIATIONS: [&str; 4] = ["DP", "MP", "CP", "QG"];

/// The simulation settings of seed 003 §4.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simulation {
    /// Start-up latency of a message, in cycles.
    pub startup: u32,
    /// Cycles for a flit to cross a channel.
    pub channel_cycles: u32,
    /// QG's threshold TD.
    pub td: f64,
    /// Message length in flits (§4.1, §4.2).
    pub length: u32,
    /// Cycles between two messages generated at a source node (§4.1).
    pub inter_arrival: u32,
    /// Injection (and ejection) channels per node.
    pub injection_channels: u32,
    /// Preparation time per algorithm, in cycles: dividing the destinations and copying the
    /// message.
    pub preparation: [(&'static str, u32); 4],
    /// Confidence level of the intervals (batch means), and the relative half-width the runs
    /// were continued to.
    pub confidence: (f64, f64),
}

/// Seed 003 §4: "the start-up latency has been set at 33 cycles, the channel transmission time
/// at 1 cycle and the threshold TD at 0.5"; preparation times "of the DP, MP, CP and QG
/// algorithms are set at 2, 2, 4 and 16 cycles"; four injection and four ejection channels;
/// 64-flit messages, 250 cycles between messages of a source (§4.1); 95% confidence intervals
/// "when confidence interval was smaller than 5% of the mean".
pub const SIMULATION: Simulation = Simulation {
    startup: 33,
    channel_cycles: 1,
    td: 0.5,
    length: 64,
    inter_arrival: 250,
    injection_channels: 4,
    preparation: [
        (ALGORITHMS[0], 2),
        (ALGORITHMS[1], 2),
        (ALGORITHMS[2], 4),
        (ALGORITHMS[3], 16),
    ],
    confidence: (0.95, 0.05),
};

/// One cell of Table 1: the coefficient of variation of the multicast latency (the standard
/// deviation of the arrival times at the destinations over their mean) on the 10×10×10 mesh,
/// averaged over at least 40 experiments, and QG's improvement over the algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CvCell {
    /// Registry name.
    pub algorithm: &'static str,
    /// Number of destinations.
    pub k: usize,
    /// Coefficient of variation `SD / M_nl`.
    pub cv: f64,
    /// `QG_IMPR %`: QG's improvement over this algorithm, in percent (`None` for QG itself).
    pub qg_improvement: Option<f64>,
}

const fn cell(algorithm: &'static str, k: usize, cv: f64, imp: Option<f64>) -> CvCell {
    CvCell {
        algorithm,
        k,
        cv,
        qg_improvement: imp,
    }
}

/// The mesh of Table 1.
pub const TABLE_1_TOPOLOGY: &str = "mesh:10x10x10";

/// Multicasts averaged per Table 1 cell: the paper averages "at least 40 experiments".
pub const TABLE_1_RUNS: u32 = 40;

/// Seed 003 Table 1, as published (K = 20, 60, 80 destinations).
pub static TABLE_1: [CvCell; 12] = [
    cell("dual-path", 20, 0.4156, Some(40.01)),
    cell("dual-path", 60, 0.5056, Some(62.70)),
    cell("dual-path", 80, 0.5678, Some(78.62)),
    cell("multi-path", 20, 0.3605, Some(21.96)),
    cell("multi-path", 60, 0.4710, Some(51.77)),
    cell("multi-path", 80, 0.4873, Some(53.14)),
    cell("column-path", 20, 0.4967, Some(67.34)),
    cell("column-path", 60, 0.5590, Some(79.74)),
    cell("column-path", 80, 0.5925, Some(86.48)),
    cell("qg", 20, 0.2967, None),
    cell("qg", 60, 0.3107, None),
    cell("qg", 80, 0.3176, None),
];

/// An ordering of average additional traffic that a figure reports: `lowest` below each of
/// `above` at every destination count of the figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrafficOrdering {
    /// The figure.
    pub figure: &'static str,
    /// The mesh.
    pub topology: &'static str,
    /// Destination counts. The figures' axes are lost; §4.1 states its experiments vary the
    /// number of destinations "from 20, 30, 40… to 60 nodes".
    pub ks: &'static [usize],
    /// The algorithm with the least average additional traffic.
    pub lowest: &'static str,
    /// The algorithms it is below.
    pub above: &'static [&'static str],
}

impl TrafficOrdering {
    /// The algorithms of the claim, `lowest` last: DP, MP, CP, QG.
    pub fn algorithms(&self) -> Vec<&'static str> {
        self.above.iter().chain([&self.lowest]).copied().collect()
    }

    /// The sweep that tests the claim: its algorithms on its mesh at its destination counts,
    /// `runs` multicasts each, sources uniform (every node of the simulation sends), the same
    /// multicasts for every algorithm.
    pub fn sweep(&self, runs: u32, seed: u64) -> Result<Sweep, InputError> {
        let algorithms = self.algorithms().into_iter().map(algo::find);
        Ok(Sweep {
            shape: self.topology.parse()?,
            placement: Placement::Random,
            algorithms: algorithms.collect::<Result<_, _>>()?,
            ks: self.ks.to_vec(),
            runs,
            seed,
            schedule: Schedule::Paper,
            wormhole: None,
            params: Default::default(),
        })
    }
}

const KS_4_1: &[usize] = &[20, 30, 40, 50, 60];
const COMPETITORS: &[&str] = &["dual-path", "multi-path", "column-path"];

/// Seed 003 §4.1, Figs. 6–7: "To complete a multicast operation, QG requires fewer channels
/// than DP, MP and CP", on the 8×8×8 and 10×10×10 meshes. Additional traffic is the number of
/// channels used minus the number of destinations ("computed as in [8, 10]").
pub static ADDITIONAL_TRAFFIC: [TrafficOrdering; 2] = [
    TrafficOrdering {
        figure: "seed 003 Fig. 6",
        topology: "mesh:8x8x8",
        ks: KS_4_1,
        lowest: "qg",
        above: COMPETITORS,
    },
    TrafficOrdering {
        figure: "seed 003 Fig. 7",
        topology: "mesh:10x10x10",
        ks: KS_4_1,
        lowest: "qg",
        above: COMPETITORS,
    },
];

/// Multicasts per K of our Figs. 6–7 sweeps (as seed 001's runs per point; seed 003 gives none).
pub const TRAFFIC_RUNS: u32 = 1000;

/// Traffic load of a latency comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// Light traffic.
    Light,
    /// Heavy traffic.
    Heavy,
}

/// A latency ordering that Figs. 8–9 report under mixed traffic (10% multicast, 90% unicast,
/// 64-flit messages, 8×8×8 mesh): `order` from lowest mean multicast latency up, as far as the
/// prose ranks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatencyOrdering {
    /// The figure.
    pub figure: &'static str,
    /// Destinations per multicast.
    pub k: usize,
    /// Light or heavy load.
    pub load: Load,
    /// Algorithms from the lowest latency up, as ranked in the text.
    pub order: &'static [&'static str],
}

/// The mesh of Figs. 8–9.
pub const LATENCY_TOPOLOGY: &str = "mesh:8x8x8";

/// The share of multicast messages in the traffic of Figs. 8–9 (the rest are unicast).
pub const MULTICAST_SHARE: f64 = 0.10;

/// Seed 003 §4.2: "Under light traffic, QG, DP and MP have comparable performance behaviour,
/// with MP having a slightly lower latency. On the other hand, CP has a higher time. … under
/// heavy traffic … QG performs the best in terms of both latency and throughput, followed by
/// CP", for 10 (Fig. 8) and 20 (Fig. 9) destinations.
pub static LATENCY: [LatencyOrdering; 4] = [
    LatencyOrdering {
        figure: "seed 003 Fig. 8",
        k: 10,
        load: Load::Light,
        order: &["multi-path", "column-path"],
    },
    LatencyOrdering {
        figure: "seed 003 Fig. 8",
        k: 10,
        load: Load::Heavy,
        order: &["qg", "column-path"],
    },
    LatencyOrdering {
        figure: "seed 003 Fig. 9",
        k: 20,
        load: Load::Light,
        order: &["multi-path", "column-path"],
    },
    LatencyOrdering {
        figure: "seed 003 Fig. 9",
        k: 20,
        load: Load::Heavy,
        order: &["qg", "column-path"],
    },
];

/// Seed 003 §4's router, from [`SIMULATION`]: start-up, message length, cycles per flit per
/// channel (the router pipeline) and injection and ejection channels as published. The paper
/// gives no buffer or virtual-channel figures; ours: four virtual channels of 8 flits, two for
/// the unicasts' dimension-ordered routes and two for the worms' Hamiltonian routes (with one of
/// 4 flits each, the long path-based worms saturate the 8×8×8 mesh below 12% channel
/// utilisation; docs/REPRODUCTION.md).
pub const ROUTER: Router = Router {
    vcs: 4,
    buffer: 8,
    pipeline: SIMULATION.channel_cycles,
    ports: SIMULATION.injection_channels,
    startup: SIMULATION.startup,
    length: SIMULATION.length,
    release: VcRelease::TailLeft,
};

/// The preparation time [`SIMULATION`] gives `algorithm`, in cycles; 0 for an algorithm the
/// paper does not simulate.
pub fn preparation(algorithm: &str) -> u32 {
    SIMULATION
        .preparation
        .iter()
        .find(|p| p.0 == algorithm)
        .map_or(0, |p| p.1)
}

/// Table 1's destination counts, in the order of [`TABLE_1`].
pub fn table1_counts() -> Vec<u32> {
    first_seen(TABLE_1.iter().map(|c| c.k as u32))
}

/// The destination counts and multicasts per cell of a Table 1 run: all of
/// [`table1_counts`] with [`TABLE_1_RUNS`] each, or the first count with one multicast when
/// `quick`.
pub fn table1_grid(quick: bool) -> (Vec<u32>, u32) {
    let counts = table1_counts();
    let runs = if quick { 1 } else { TABLE_1_RUNS };
    (flit::points(&counts, quick).to_vec(), runs)
}

/// One cell of our Table 1: an algorithm, a destination count, and the mean coefficient of
/// variation of the arrival times over `runs` multicasts.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredCv {
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

/// Seed 003 Table 1 on [`TABLE_1_TOPOLOGY`]: for each destination count of `counts` and each
/// algorithm, `runs` random multicasts (run `r` draws its source and destinations from stream
/// `point_seed(seed, r)`, the same for every algorithm), each alone in the network with
/// [`ROUTER`] and the algorithm's [`preparation`] time. The published inter-arrival time of 250
/// cycles cannot be run literally (docs/REPRODUCTION.md says why).
pub fn table1(counts: &[u32], runs: u32, seed: u64) -> Result<Vec<MeasuredCv>, WormholeError> {
    let shape: Shape = TABLE_1_TOPOLOGY.parse()?;
    let mut cells = Vec::new();
    for &k in counts {
        for name in ALGORITHMS {
            let info = algo::find(name)?;
            // The runs on all cores, summed in run order: the same sums as one after the other.
            let samples = (0..runs)
                .into_par_iter()
                .map(|r| table1_run(&shape, info, k, seeded(point_seed(seed, u64::from(r)))))
                .collect::<Result<Vec<_>, _>>()?;
            let (mut cv, mut latency) = (0.0, 0.0);
            for (run_cv, run_latency) in samples {
                cv += run_cv;
                latency += run_latency;
            }
            cells.push(MeasuredCv {
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

/// One multicast of a Table 1 cell, drawn from `rng`: the CV of its destinations' arrival times
/// and its latency.
fn table1_run(
    shape: &Shape,
    info: &AlgoInfo,
    k: u32,
    mut rng: ChaCha8Rng,
) -> Result<(f64, f64), WormholeError> {
    let source = shape.node_at(rng_index(&mut rng, shape.len()))?;
    let dests = random_destinations(shape, source, k as usize, &mut rng)?;
    let plan = info.route(&Request::new(shape.clone(), source, dests)?)?;
    let run = run_plan(shape, &plan, ROUTER, preparation(info.name))?;
    let t: Vec<f64> = run.arrivals.iter().map(|a| a.1 as f64).collect();
    let mean = t.iter().sum::<f64>() / t.len() as f64;
    let var = t.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / t.len() as f64;
    Ok((var.sqrt() / mean, run.completion as f64))
}

fn rng_index(rng: &mut ChaCha8Rng, len: usize) -> usize {
    rng.random_range(0..len)
}

/// The loads of Figs. 8–9, messages per node per cycle (the paper's axis is lost with the
/// figures): from light load to past every algorithm's saturation.
pub const FIGURE_LOADS: [f64; 6] = [0.0005, 0.001, 0.0015, 0.002, 0.0025, 0.003];

/// The latency figures, each with its destinations per multicast, in [`LATENCY`]'s order:
/// ("seed 003 Fig. 8", 10) and ("seed 003 Fig. 9", 20).
pub fn figures() -> Vec<(&'static str, u32)> {
    first_seen(LATENCY.iter().map(|l| (l.figure, l.k as u32)))
}

/// Seed 003 Figure 8 (`destinations` = 10) or 9 (20): one setup per algorithm and load, on
/// [`LATENCY_TOPOLOGY`] with [`ROUTER`], a [`MULTICAST_SHARE`] of multicasts, the rest unicasts,
/// each algorithm with its [`preparation`] time. Load `i` is seeded `point_seed(seed, i)` for
/// every algorithm, so the algorithms see the same traffic.
pub fn figure(
    destinations: u32,
    loads: &[f64],
    measure: Measure,
    seed: u64,
) -> Result<Vec<Setup>, WormholeError> {
    let shape: Shape = LATENCY_TOPOLOGY.parse()?;
    let mut setups = Vec::new();
    for name in ALGORITHMS {
        let info = algo::find(name)?;
        for (i, &load) in loads.iter().enumerate() {
            setups.push(Setup {
                shape: shape.clone(),
                router: ROUTER,
                traffic: Traffic {
                    load,
                    multicast: MULTICAST_SHARE,
                    destinations: Destinations::Fixed(destinations),
                    hot_spot: None,
                },
                measure,
                algorithm: Some(info),
                preparation: Some(preparation(name)),
                params: Params::default(),
                seed: point_seed(seed, i as u64),
            });
        }
    }
    Ok(setups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::wormhole::preparation_time;

    /// The simulator's default preparation times are the ones seed 003 publishes.
    #[test]
    fn the_simulators_preparation_times_are_the_published_ones() {
        for name in ALGORITHMS {
            assert_eq!(preparation_time(name), preparation(name), "{name}");
        }
        assert_eq!(preparation("multiport"), preparation_time("multiport"));
    }

    #[test]
    fn the_grids_come_from_the_published_data() {
        assert_eq!(table1_counts(), [20, 60, 80]);
        assert_eq!(
            figures(),
            [("seed 003 Fig. 8", 10), ("seed 003 Fig. 9", 20)]
        );
        assert_eq!(table1_grid(true), (vec![20], 1));
    }
}
