//! The experiments of seed 002 (multiport unicast-based multicast with Hamiltonian-path routing),
//! in one place: what it publishes, as data — the worked example of Figure 5, the step bounds
//! its abstract, §1 and §3 state and the mesh of its simulations (published facts only, never
//! ours) — and the flit-level setups of its Figures 6–8 ([`figure`]) for
//! [`crate::sim::wormhole`]. The tests and docs/REPRODUCTION.md set ours against them.
//!
//! Its Figures 6–8 (average multicast latency against destinations, load and message length on a
//! 16×16 mesh, two-port against one-port) survive in the extracted text only as axes; their
//! prose gives shapes ("logarithmically increases", "enhanced by log₂3"), no numbers, and the
//! settings (start-up, lengths, the unit of the "generation ratio") were lost or never given.
//!
//! ```
//! use meshcast::experiment::seed002::{step_bound, FIGURE_5};
//! assert_eq!(FIGURE_5.steps, 2);
//! // Two ports, 5 destinations: ⌈log₃ 6⌉ + 1 = 3 steps at most.
//! assert_eq!(step_bound(5, 2), 3);
//! ```

use super::steps::StepCheck;
use crate::algo::{self, Params};
use crate::error::{InputError, WormholeError};
use crate::sim::wormhole::traffic::{Destinations, Measure, Setup, Traffic};
use crate::sim::wormhole::Router;
use crate::topology::Shape;
use crate::workload::point_seed;

/// A worked example of the two-port algorithm, as the paper prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkedExample {
    /// Where the paper gives it.
    pub figure: &'static str,
    /// Topology, as `mesh:6x6`.
    pub topology: &'static str,
    /// The source, as `3,3`.
    pub source: &'static str,
    /// The destinations, in the paper's order.
    pub destinations: &'static str,
    /// The labelling-ordered chain `φ` of the source and the destinations, as printed.
    pub chain: &'static str,
    /// What the source sends in the first step: `D_lower`, then `D_upper`.
    pub first_step: [&'static str; 2],
    /// What the source sends in the second step ("sends to only node (5,2) which is D_lower").
    pub second_step: &'static str,
    /// Message-passing steps of the whole multicast.
    pub steps: u32,
    /// Ports per node the example's algorithm uses.
    pub ports: u32,
}

/// Seed 002 Figure 5: "In a 6×6 2D mesh, the source (3,3) has the message destined for the 5
/// nodes {(0,1),(3,1),(2,2),(5,2),(2,5)} and begins with a labeling-ordered chain φ =
/// {(0,1),(3,1),(2,2),(5,2),(3,3),(2,5)}. … the source (3,3) first sends to nodes (3,1) and
/// (2,5) …; the first is D_lower and the last is D_upper. … Finally, the source (3,3) sends to
/// only node (5,2) which is D_lower … this algorithm requires 2 message-passing steps."
pub const FIGURE_5: WorkedExample = WorkedExample {
    figure: "seed 002 Figure 5",
    topology: "mesh:6x6",
    source: "3,3",
    destinations: "0,1 3,1 2,2 5,2 2,5",
    chain: "0,1 3,1 2,2 5,2 3,3 2,5",
    first_step: ["3,1", "2,5"],
    second_step: "5,2",
    steps: 2,
    ports: 2,
};

/// The least `t` with `baseᵗ ≥ x` (`base ≥ 2`): ⌈log_base x⌉ in integers.
fn log_ceil(x: u64, base: u64) -> u32 {
    let (mut t, mut power) = (0, 1u64);
    while power < x {
        power = power.saturating_mul(base);
        t += 1;
    }
    t
}

/// The step bound for `m` destinations and `d ≥ 1` ports: "the proposed d-port multicast
/// algorithms can deliver a multicast message in at most (⌈log_{d+1}(m + 1)⌉ + 1)
/// message-passing steps" (§1; the abstract and §5 for two ports: ⌈log₃(m + 1)⌉ + 1).
pub fn step_bound(m: u32, d: u32) -> u32 {
    log_ceil(u64::from(m) + 1, u64::from(d.max(1)) + 1) + 1
}

/// The two-port bound §3 proves when the source is first or last in the chain: "the algorithm
/// requires at most ⌈log₃ 2(m + 1)⌉ message-passing steps" (never more than [`step_bound`]).
pub fn end_source_bound(m: u32) -> u32 {
    log_ceil(2 * (u64::from(m) + 1), 3)
}

/// §4: "It is assumed that multicomputer networks are 16 x 16 2D meshes."
pub const SIMULATION_TOPOLOGY: &str = "mesh:16x16";

/// Multicasts per row of our step-bound check (as seed 001's runs per point; seed 002 gives none).
pub const STEP_RUNS: u32 = 1000;

/// Destination counts of the step-bound check: from a few to every other node of
/// [`SIMULATION_TOPOLOGY`].
pub const STEP_KS: [usize; 4] = [4, 16, 64, 255];

/// Port counts d of the step-bound check.
pub const STEP_PORTS: [u32; 4] = [1, 2, 3, 4];

/// The step-bound check of `multiport` with `ports` ports and `k` destinations on
/// [`SIMULATION_TOPOLOGY`], `runs` random multicasts: against [`step_bound`] and for contention.
pub fn step_check(ports: u32, k: usize, runs: u32, seed: u64) -> Result<StepCheck, InputError> {
    Ok(StepCheck {
        algorithm: algo::find("multiport")?,
        shape: SIMULATION_TOPOLOGY.parse()?,
        ports,
        k,
        runs,
        seed,
    })
}

/// What seed 002's Figures 6–8 vary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis {
    /// Figure 6: destinations per multicast.
    Destinations(u32),
    /// Figure 7: messages generated per node per cycle.
    Load(f64),
    /// Figure 8: message length in flits.
    Length(u32),
}

/// Our settings where a figure does not vary them: 20 destinations, 0.00003 messages per node
/// per cycle, 32 flits (the paper's were lost or never given).
pub const BASE: (u32, f64, u32) = (20, 0.00003, 32);

/// The points of Figures 6, 7 and 8, in that order (ours: the figures' axes are lost).
pub fn axes() -> [Vec<Axis>; 3] {
    [
        [5, 10, 20, 30, 40, 50, 60, 70]
            .map(Axis::Destinations)
            .to_vec(),
        [
            0.00001, 0.00002, 0.00003, 0.00004, 0.00005, 0.00006, 0.0001, 0.0002,
        ]
        .map(Axis::Load)
        .to_vec(),
        [16, 32, 64, 128, 256].map(Axis::Length).to_vec(),
    ]
}

/// Our router for the figures with `ports` injection and ejection channels and `length`-flit
/// messages: 2 virtual channels of 4 flits, seed 003's start-up and cycles per flit per channel
/// (seed 002 gives neither).
pub fn router(ports: u32, length: u32) -> Router {
    let published = super::seed003::ROUTER;
    Router {
        vcs: 2,
        buffer: 4,
        pipeline: published.pipeline,
        ports,
        startup: published.startup,
        length,
        ..Router::default()
    }
}

/// Figures 6–8: the multiport algorithm on [`SIMULATION_TOPOLOGY`], every message a multicast,
/// one port (d = 1: the algorithm plans for one port and each node has one injection and one
/// ejection channel) against two (d = 2); one setup per port count and point of `axis`, the rest
/// at `base` (destinations, load, length). Point `i` is seeded `point_seed(seed, i)` for both.
pub fn figure(
    axis: &[Axis],
    base: (u32, f64, u32),
    measure: Measure,
    seed: u64,
) -> Result<Vec<Setup>, WormholeError> {
    let shape: Shape = SIMULATION_TOPOLOGY.parse()?;
    let info = algo::find("multiport")?;
    let mut setups = Vec::new();
    for d in [1, 2] {
        for (i, point) in axis.iter().enumerate() {
            let (mut k, mut load, mut length) = base;
            match *point {
                Axis::Destinations(x) => k = x,
                Axis::Load(x) => load = x,
                Axis::Length(x) => length = x,
            }
            setups.push(Setup {
                shape: shape.clone(),
                router: router(d, length),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_the_papers_formulas() {
        assert_eq!(
            (step_bound(1, 2), step_bound(2, 2), step_bound(3, 2)),
            (2, 2, 3)
        );
        assert_eq!((step_bound(8, 2), step_bound(9, 2)), (3, 4));
        assert_eq!(
            (step_bound(1, 1), step_bound(3, 1), step_bound(4, 1)),
            (2, 3, 4)
        );
        assert_eq!(
            (step_bound(4, 4), step_bound(24, 4), step_bound(25, 4)),
            (2, 3, 4)
        );
        assert_eq!(
            (
                end_source_bound(1),
                end_source_bound(4),
                end_source_bound(13)
            ),
            (2, 3, 4)
        );
        for m in 1..2000 {
            assert!(end_source_bound(m) <= step_bound(m, 2));
        }
    }
}
