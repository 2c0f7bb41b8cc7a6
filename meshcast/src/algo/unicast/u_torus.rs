//! **U-torus**: U-mesh's recursive halving on a torus, over a chain ordered by the coordinates
//! relative to the source — each dimension seen from the source as a line from `−⌊k/2⌋` to
//! `⌈k/2⌉ − 1` — in ⌈log₂(m+1)⌉ one-port steps for `m` destinations.
//!
//! Paper: Robinson, McKinley & Cheng, "Optimal multicast communication in wormhole-routed torus
//! networks" (IEEE TPDS 6(10), 1995), as seed 001 §2.2 reviews it ("the version of the
//! algorithms for wormhole-routed torus networks called U-torus, which also achieved the
//! ⌈log₂ m⌉ optimal result"). Designed for one-port nodes and dimension-ordered unicast routing
//! in n-D tori, where the paper relies on virtual channels for deadlock freedom.
//!
//! Complexity: O(m log m) to sort the chain, then O(n) per hop of the `m` unicasts.
//!
//! Choices. The review gives only the step count. A torus has no corner to order a chain from;
//! we see it from the source, as the torus zones of the tree algorithms do (`algo::reduce`):
//! in each dimension the ⌈k/2⌉ nodes from the source on (the source's own included) lie ahead of
//! it and the ⌊k/2⌋ others behind it, so a coordinate counts as its signed offset from the
//! source, from `−⌊k/2⌋` to `⌈k/2⌉ − 1`. Nodes are ordered by these offsets with the last
//! dimension most significant (U-mesh's order), which puts the source inside the chain, and
//! halved exactly as U-mesh halves its chain. Unicasts take the torus's dimension-ordered routes,
//! the shorter way round ([`crate::route::dimension_ordered`]). On a ring this keeps every
//! unicast inside its half ring, so plans are free of contention; in two or more dimensions a
//! unicast between two destinations can wrap round (or break a tie the other way) past another
//! segment of the chain and share a physical channel with it. Robinson et al. use virtual
//! channels, which [`crate::contention`] does not model (it counts physical channels);
//! docs/REPRODUCTION.md gives what we measure. Tori of any dimension; meshes have `u-mesh`.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::{message_steps, Ports}};
//! let req = Request::parse("torus:6x6", "3,3", "0,1 3,1 2,2 5,2 2,5").unwrap();
//! let plan = algo::find("u-torus").unwrap().route(&req).unwrap();
//! assert_eq!(message_steps(&plan, req.shape(), Ports::One), 3);
//! // Seen from (3,3) the chain is (0,1) (3,1) (2,2) | (5,2) (3,3) (2,5): the source's first
//! // unicast goes to the far end of the lower half, (0,1), which then serves (3,1) and (2,2).
//! assert_eq!(req.shape().coords(plan.send(0).hops.last().unwrap().node()), [0, 1]);
//! ```

use super::halving;
use crate::algo::{Algorithm, Request};
use crate::plan::Plan;
use crate::route::dimension_ordered::route;
use crate::topology::Node;

/// The U-torus algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct UTorus;

impl Algorithm for UTorus {
    fn plan(&self, request: &Request) -> Plan {
        let shape = request.shape();
        let source = shape.coords(request.source());
        // The node's signed offsets from the source, shifted to start at 0, as one mixed-radix
        // number: the last dimension most significant.
        let relative = |v: Node| -> u64 {
            (0..shape.rank()).rev().fold(0, |key, d| {
                let k = shape.dims()[d];
                let ahead = (shape.coord(v, d) + k - source[d]) % k;
                key * u64::from(k) + u64::from((ahead + k / 2) % k)
            })
        };
        halving(request, relative, |u, v| route(shape, u, v))
    }
}
