//! **Dual-path**: the destinations labelled above the source go in one worm up the high-channel
//! network, those labelled below it in one worm down the low-channel network.
//!
//! Paper: Lin, McKinley & Ni, "Deadlock-free multicast wormhole routing in 2-D mesh
//! multicomputers" (1994), as seed 003 §2 summarises it ("DP uses at most two copies of the
//! multicast message to cover the destination nodes, which are grouped into two disjoint
//! sub-groups"); the labelling, the high/low channel networks and `R(u, v)` are seed 002 §2.2
//! (Definitions 1–2). Each worm keeps to one channel network, whose channels all lead the same
//! way along the Hamiltonian path, so the worms cannot wait on each other in a cycle: deadlock
//! free. Not shortest-path.
//!
//! Complexity: O(K log K) to sort the destinations by label, then O(n) per hop of the worms.
//!
//! Choices: any dimension, mesh or torus, with the snake labelling of
//! [`crate::route::hamiltonian`] (the reflected mixed-radix order in n-D; in a torus `R` may
//! take wraparound channels, which seed 002 allows for its "mesh/torus" routing). The high worm
//! leaves first in the source's port order.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::Metrics};
//! // Source (3,2) of a 6×6 mesh (label 15): (1,1) and (4,0) lie below it, (0,4) and (5,3) above.
//! let req = Request::parse("mesh:6x6", "3,2", "1,1 4,0 0,4 5,3").unwrap();
//! let plan = algo::find("dual-path").unwrap().route(&req).unwrap();
//! assert_eq!(plan.send_count(), 2);
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.all_port_time), (16, 9));
//! ```

use super::{push_worm, split_by_label};
use crate::algo::{Algorithm, Request};
use crate::plan::{Plan, PlanKind};
use crate::route::hamiltonian::Snake;

/// The dual-path algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct DualPath;

impl Algorithm for DualPath {
    fn plan(&self, request: &Request) -> Plan {
        let snake = Snake::new(request.shape());
        let source = request.source();
        let (high, low) = split_by_label(&snake, source, request.destinations());
        let mut plan = Plan::new(PlanKind::Path, source, request.destinations().to_vec());
        for part in [high, low].iter().filter(|p| !p.is_empty()) {
            push_worm(&mut plan, &snake, source, &[], part);
        }
        plan
    }
}
