//! What seed 003 (Al-Dubai, Ould-Khaoua & Romdhani, Qualified Groups) publishes about its
//! experiments, as data: the simulation settings of §4, Table 1, and the orderings Figs. 6–9
//! report. Published facts only — never ours; the tests and docs/REPRODUCTION.md set ours
//! against them.
//!
//! The extracted text has lost the plots of Figs. 3–9; what survives of them is what the prose
//! says. Algorithms are named by their registry names (`dual-path` is the paper's DP,
//! `multi-path` MP, `column-path` CP, `qg` QG). Beside each static claim, the sweep that tests it
//! ([`TrafficOrdering::sweep`]).
//!
//! ```
//! use meshcast::experiment::seed003::{ADDITIONAL_TRAFFIC, TABLE_1};
//! assert_eq!(ADDITIONAL_TRAFFIC[1].topology, "mesh:10x10x10");
//! let qg_at_20 = TABLE_1.iter().find(|r| r.algorithm == "qg" && r.k == 20).unwrap();
//! assert_eq!(qg_at_20.cv, 0.2967);
//! ```

use super::sweep::{Placement, Sweep};
use crate::algo;
use crate::error::InputError;
use crate::schedule::Schedule;

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
        ("dual-path", 2),
        ("multi-path", 2),
        ("column-path", 4),
        ("qg", 16),
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
