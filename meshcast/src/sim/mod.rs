//! Simulators that execute routing on a network step by step, as opposed to the static models of
//! [`crate::eval`], which compute a plan's cost from formulas.
//!
//! - [`saf`]: the synchronous store-and-forward mesh of seed 004 §2.1 with bounded buffers, and
//!   the seed-004 algorithms that route whole multicast message sets on it.

pub mod saf;
