//! **OMC**, the optimal multicast cycle (seed 001 Definition 2.1.6): the shortest cycle through the
//! source and every destination — for completeness; no algorithm of the seeds builds cycles.
//!
//! Held–Karp as for [`super::omp()`], closed by the way back from the last destination to the
//! source. A cycle returns the message to a node that already holds it, which no [`crate::plan::Plan`]
//! allows (every send ends by delivering), so the result is a [`Cycle`]: its length and the order
//! of its stops; between consecutive stops any shortest route will do. As for the OMP, the cycle
//! may pass a node twice, and its length is then a lower bound on the definition's.

use super::omp::HeldKarp;
use crate::algo::Request;
use crate::error::InputError;
use crate::topology::Node;

/// A shortest closed walk through the source and every destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Links it crosses.
    pub length: u32,
    /// The source, then every destination in the order visited; the cycle closes back to the source.
    pub stops: Vec<Node>,
}

/// The optimal multicast cycle of `req`.
pub fn omc(req: &Request) -> Result<Cycle, InputError> {
    let tours = HeldKarp::new(req)?;
    let end = tours.best_end(|j| tours.from_source[j]);
    Ok(Cycle {
        length: tours.length(end) + tours.from_source[end],
        stops: tours.stops(end),
    })
}
