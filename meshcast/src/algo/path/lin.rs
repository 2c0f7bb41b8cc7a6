//! **Lin's algorithm** (sorted MP): a single worm from the source through every destination in
//! the order of their labels on a Hamiltonian path, each leg routed by `R(u, v)`.
//!
//! Paper: Lin (and Ni), reviewed in seed 001 §3.3.2 — the algorithm "labels each node with their
//! order along the path and sorts the set of destination nodes according to their label. It then
//! passes the message from one destination to another by routing from current node to one of its
//! neighbor that is closest to next destination down the Hamiltonian path" — on the snake path of
//! a 2D mesh (seed 001 Figure 3.3.1, seed 002 Definition 1), the baseline XY-path is measured
//! against (Example 3.3.1: 26 links, which is also the longest distance). Not shortest-path.
//!
//! Complexity: O(K log K) to sort, then O(1) per hop in 2D.
//!
//! Choices: the review's path starts at the source ("starting from the source node, labels each
//! node with their order along the path"), as in its example, whose source (0,0) has label 0.
//! It does not say what happens to destinations labelled below a source elsewhere; a single worm
//! cannot reach them without turning back against the label order (and losing deadlock
//! freedom), so they go in a second worm down the low-channel network — the dual-path split
//! (Lin, McKinley & Ni), which makes this the `dual-path` router restricted to what the review
//! covers: 2D meshes. With the source at label 0 it is exactly one worm.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::Metrics};
//! // seed 001 Example 3.3.1: "LIN's algorithm will generate total traffic of 26 links which is
//! // also the maximum distance".
//! let req = Request::parse("mesh:10x10", "0,0", "2,0 3,1 7,2 7,5 0,4 1,3").unwrap();
//! let plan = algo::find("lin").unwrap().route(&req).unwrap();
//! assert_eq!(plan.send_count(), 1);
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.all_port_time), (26, 26));
//! ```

use super::dual_path::DualPath;
use crate::algo::{Algorithm, Request};
use crate::plan::Plan;

/// Lin's single Hamiltonian-path algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lin;

impl Algorithm for Lin {
    fn plan(&self, request: &Request) -> Plan {
        DualPath.plan(request)
    }
}
