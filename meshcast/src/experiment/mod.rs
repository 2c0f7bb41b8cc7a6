//! Experiments of the seeds: the data they publish, for the tests, the docs and the command line.
//!
//! This module holds the published numbers only — never ours. Tests compare what the algorithms
//! give against them, and docs/REPRODUCTION.md explains every difference.

pub mod gap;
pub mod published;
pub mod seed002;
pub mod seed003;
pub mod stats;
pub mod sweep;
pub mod worked;
pub mod workload;
