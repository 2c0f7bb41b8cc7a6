//! Experiments of the seeds, for the tests, the docs and the command line: one module per seed
//! that holds what the seed publishes (as data, published numbers only, never ours) together
//! with the grids and setups that produce ours from those published settings — [`seed000`]
//! (Malani's Tables 1–6), [`seed001`] (Wang's chapter-4 means), [`seed002`] (Figure 5, the step
//! bounds, Figs. 6–8), [`seed003`] (QG: Table 1, Figs. 6–9), [`seed004`] (message sets:
//! measurements and fits) — and the machinery they share: [`sweep`] (Monte-Carlo sweeps), [`steps`]
//! (step-bound checks), [`gap`] (against the exact optima; the experiment of docs/OPTIMALITY.md
//! in [`optimality`]), [`flit`] (the flit-level runs'
//! measurement), [`shard`] (which runs of a sweep a shard owns), [`worked`] (the worked examples
//! of seeds 000 and 001).
//!
//! The layer above the simulators ([`crate::sim`]) and the models; below it sit
//! [`crate::workload`] and [`crate::stats`], which the simulators use too. The command line only
//! renders what these modules compute. Tests compare ours with the published numbers, and
//! docs/REPRODUCTION.md explains every difference.

pub mod flit;
pub mod gap;
pub mod optimality;
pub mod seed000;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod seed004;
pub mod shard;
pub mod steps;
pub mod sweep;
pub mod worked;

/// The distinct items of `items`, in the order first seen: how the experiments read their grids
/// (topologies, destination counts, figures) off the published data.
fn first_seen<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}
