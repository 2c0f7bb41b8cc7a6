//! Simulators that execute routing on a network step by step, under load, as opposed to the
//! static models of [`crate::eval`], which compute a plan's cost from formulas.
//!
//! * [`wormhole`]: a cycle-accurate, flit-level simulator of wormhole-routed meshes and tori that
//!   executes the plans of every algorithm (seeds 002 and 003).
//! * [`saf`]: the synchronous store-and-forward mesh of seed 004 §2.1 with bounded buffers, and
//!   the seed-004 algorithms that route whole multicast message sets on it.

pub mod saf;
pub mod wormhole;
