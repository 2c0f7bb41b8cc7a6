//! **Separate addressing**: the source sends one unicast to every destination.
//!
//! Paper: the baseline of unicast-based multicast — seed 001 §2.1.2.2 ("the naive way is just
//! to send a separate copy of the message from the source node to every destination node, hence
//! called separate addressing … completely sequential") and seed 002 §1 ("the source delivers
//! separate copies of a message to every destinations … may take an excessive time as the
//! number of destinations increases, because a local processor is able to send only one or few
//! messages at a time"). Every destination gets its copy over a shortest path, and under one
//! port the multicast takes `K` message-passing steps; with `d` ports, ⌈K/d⌉.
//!
//! Complexity: O(K log K) to order the destinations, then O(n) per hop.
//!
//! Choices. The papers fix neither the routes nor the order. Routes are dimension-ordered
//! ([`crate::route::dimension_ordered`]), the unicast routing of the wormhole machines the papers
//! describe; the source sends in node-id order (the dimension-ordered chain of U-mesh, highest
//! dimension most significant), so the plan does not depend on how the request lists the
//! destinations. Any dimension, mesh or torus.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::{message_steps, Metrics, Ports}};
//! let req = Request::parse("mesh:6x6", "3,3", "0,1 3,1 2,2 5,2 2,5").unwrap();
//! let plan = algo::find("separate").unwrap().route(&req).unwrap();
//! assert_eq!(plan.send_count(), 5);
//! assert_eq!(message_steps(&plan, req.shape(), Ports::One), 5);
//! assert_eq!(message_steps(&plan, req.shape(), Ports::Multi(2)), 3);
//! // Every copy travels a shortest path: 5 + 2 + 2 + 3 + 3 links.
//! assert_eq!(Metrics::of(&plan, req.shape()).traffic, 15);
//! ```

use super::push_unicast;
use crate::algo::{Algorithm, Request};
use crate::plan::{Plan, PlanKind};
use crate::route::dimension_ordered::route;

/// Separate addressing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Separate;

impl Algorithm for Separate {
    fn plan(&self, request: &Request) -> Plan {
        let (shape, source) = (request.shape(), request.source());
        let mut dests = request.destinations().to_vec();
        dests.sort_unstable();
        let mut plan = Plan::new(PlanKind::Unicast, source, request.destinations().to_vec());
        for v in dests {
            push_unicast(&mut plan, source, route(shape, source, v));
        }
        plan
    }
}
