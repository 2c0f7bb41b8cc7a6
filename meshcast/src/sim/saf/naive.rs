//! naive: replicate every message into unicasts at its source and route them greedily in
//! dimension order (seed 004 §1, the baseline the paper improves on).
//!
//! Each source keeps its message as a master packet; in every step it makes one unicast copy
//! for its next destination (if its buffer has room) and lets the copy go, and the master itself
//! travels to the last destination. Copies travel x then y, first in first out on every link.
//! Its time grows like d·√n in the worst case rather than the optimal √(cn): all d copies of a
//! message cross the mesh separately.

use super::engine::{Arrival, Capacity, Run, Sim};
use super::msets::MessageSet;
use crate::error::SafError;

/// The least buffer bound naive accepts: the master plus one reserved slot per output link
/// (see [`Sim::route`]), which makes its routing free of deadlock.
pub const LEAST_BUFFER: u32 = 5;

/// The buffer bounds naive refuses, before any work.
pub fn check(capacity: Capacity) -> Result<(), SafError> {
    match capacity {
        Capacity::Packets(b) if b < LEAST_BUFFER => Err(SafError::CapacityTooSmall {
            algorithm: "naive",
            capacity: b,
            least: LEAST_BUFFER,
        }),
        _ => Ok(()),
    }
}

/// Routes `set` by replication at the sources with buffers bounded by `capacity`.
pub fn route(set: &MessageSet, capacity: Capacity) -> Result<Run, SafError> {
    check(capacity)?;
    let mut sim = Sim::new(set, capacity);
    let masters = sim.inject_all()?;
    sim.route(&[], &masters, Arrival::Deliver)?;
    sim.mark("replicate and route");
    sim.finish()
}
