//! Experiments of the seeds, for the tests, the docs and the command line: the data they publish
//! (`published`, `seed002`, `seed003`, `worked` — published numbers only, never ours) and the
//! machinery that sets ours against them (`sweep`, `steps`, on [`crate::workload`] and [`crate::stats`]). Tests compare
//! the two, and docs/REPRODUCTION.md explains every difference.

pub mod flit;
pub mod gap;
pub mod published;
pub mod seed002;
pub mod seed003;
pub mod seed004;
pub mod steps;
pub mod sweep;
pub mod worked;
