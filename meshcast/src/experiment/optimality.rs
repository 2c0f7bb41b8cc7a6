//! The optimality experiment of docs/OPTIMALITY.md (run by `meshcast optimality`), in one place:
//! its shapes, destination counts and run counts, and the sweeps it measures with the gap
//! machinery of [`super::gap`] — every tree and path algorithm against the exact optima on small
//! meshes and tori, the tree algorithms against the least one-port time, and RSA against DIAG,
//! DDS, VH and MIN on the seeds' own experiments ([`seed_experiments`], read off
//! [`super::seed001`]'s published K ranges).
//!
//! ```
//! use meshcast::experiment::optimality::{gap_sweep, grid, SHAPES};
//! let (runs, last_k) = grid(true);
//! let gaps = gap_sweep(SHAPES[0], last_k, runs, 1).unwrap();
//! assert_eq!(gaps.sweep.ks, [2, 3, 4, 5, 6]);
//! ```

use super::gap::{Baseline, GapSweep};
use super::seed001;
use super::sweep::{Placement, Sweep};
use crate::algo::{AlgoInfo, Params, REGISTRY};
use crate::error::InputError;
use crate::plan::PlanKind;
use crate::schedule::Schedule;

/// The small shapes every algorithm is measured on against the optima.
pub const SHAPES: [&str; 6] = [
    "mesh:6x6",
    "torus:6x6",
    "mesh:8x8",
    "torus:8x8",
    "mesh:4x4x4",
    "torus:4x4x4",
];

/// The shapes of the one-port time optimum, whose search is for small instances.
pub const TIME_SHAPES: [&str; 2] = ["mesh:6x6", "torus:6x6"];

/// The largest K of the one-port time optimum (on 8×8 a multicast with K = 8 took more than its
/// 2²⁴ partial trees).
pub const TIME_LAST_K: usize = 8;

/// The three shortest-path trees compared per K and on the seeds' experiments.
pub const RIVALS: [&str; 3] = ["diag", "dds", "rsa"];

/// Runs per K and the largest K on the small shapes: 20 runs, K ≤ 16; 2 runs, K ≤ 6 when
/// `quick` (enough to run every line).
pub fn grid(quick: bool) -> (u32, usize) {
    if quick {
        (2, 6)
    } else {
        (20, 16)
    }
}

/// Every tree and path algorithm that supports `topology`, against OMT, MST and OMP, on
/// K = 2…`last_k`, the source at a random node, in the optimal port order.
pub fn gap_sweep(
    topology: &str,
    last_k: usize,
    runs: u32,
    seed: u64,
) -> Result<GapSweep, InputError> {
    small_sweep(
        topology,
        |a| a.family != PlanKind::Unicast,
        (last_k, runs, seed, Schedule::Optimal),
        vec![Baseline::Omt, Baseline::Mst, Baseline::Omp],
    )
}

/// Every tree algorithm that supports `topology` against the least one-port time of a
/// shortest-path tree, on K = 2…`last_k`, the source at a random node, in port order `schedule`.
pub fn time_sweep(
    topology: &str,
    last_k: usize,
    runs: u32,
    seed: u64,
    schedule: Schedule,
) -> Result<GapSweep, InputError> {
    small_sweep(
        topology,
        |a| a.family == PlanKind::Tree,
        (last_k, runs, seed, schedule),
        vec![Baseline::OptTime],
    )
}

/// The algorithms `keep` accepts that support `topology` on K = 2…last, the source at a random
/// node.
fn small_sweep(
    topology: &str,
    keep: impl Fn(&AlgoInfo) -> bool,
    (last_k, runs, seed, schedule): (usize, u32, u64, Schedule),
    baselines: Vec<Baseline>,
) -> Result<GapSweep, InputError> {
    let shape: crate::topology::Shape = topology.parse()?;
    let algorithms: Vec<&'static AlgoInfo> = REGISTRY
        .iter()
        .filter(|a| keep(a) && a.support.covers(&shape))
        .collect();
    Ok(GapSweep {
        sweep: Sweep {
            shape,
            placement: Placement::Random,
            algorithms,
            ks: (2..=last_k).collect(),
            runs,
            seed,
            schedule,
            wormhole: None,
            params: Params::default(),
        },
        baselines,
    })
}

/// The algorithms of the seeds' experiments, RSA first (so its pairs with DIAG and DDS are the
/// sweep's pairs 0 and 1).
pub const SEED_ALGORITHMS: [&str; 5] = ["rsa", "diag", "dds", "vh", "min"];

/// Runs per K and the step between K on the seeds' experiments: 100 runs every 10th K, or 2 runs
/// every 180th K when `quick`.
pub fn seed_grid(quick: bool) -> (u32, usize) {
    if quick {
        (2, 180)
    } else {
        (100, 10)
    }
}

/// The seeds' experiments (seed 001 §4.2, whose 20×20 experiments are seed 000's Tables 1–6
/// too): per topology of the published means, in the order they first appear, the K of the
/// widest range they are averaged over, every `step`.
pub fn seed_experiments(step: usize) -> Vec<(&'static str, Vec<usize>)> {
    seed001::topologies()
        .into_iter()
        .map(|topology| {
            let (first, last) = seed001::k_span(topology, |m| [m.k_range]);
            (topology, (first..=last).step_by(step).collect())
        })
        .collect()
}

/// The sweep of one seed experiment: [`SEED_ALGORITHMS`] at `ks`, source at the origin, port
/// order `schedule`.
pub fn seed_sweep(
    topology: &str,
    ks: Vec<usize>,
    runs: u32,
    seed: u64,
    schedule: Schedule,
) -> Result<Sweep, InputError> {
    Ok(Sweep {
        schedule,
        ..Sweep::at_origin(topology, &SEED_ALGORITHMS, ks, runs, seed)?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_experiments_are_the_published_ranges() {
        let ranges: Vec<(&str, usize, usize)> = seed_experiments(10)
            .into_iter()
            .map(|(t, ks)| (t, ks[0], ks[ks.len() - 1]))
            .collect();
        assert_eq!(
            ranges,
            [
                ("mesh:20x20", 10, 380),
                ("torus:20x20", 10, 370),
                ("mesh:10x10x10", 10, 990)
            ]
        );
    }
}
