//! **U-mesh**: the source and the destinations in a dimension-ordered chain; each node that
//! holds the message halves its part of the chain and sends the half it is not in to one node of
//! that half — ⌈log₂(m+1)⌉ one-port steps for `m` destinations, without contention among the
//! unicasts.
//!
//! Paper: McKinley, Xu, Esfahanian & Ni, "Unicast-based multicast communication in
//! wormhole-routed networks" (IEEE TPDS 5(12), 1994), as seed 001 §2.2 reviews it ("delivers a
//! multicast message to m−1 destinations in ⌈log₂ m⌉ message passing steps" — `m` counting the
//! source; with `m` destinations, ⌈log₂(m+1)⌉) and seed 001 §2.1.2.4.3 (eq. 2.1.7, "optimal …
//! when the number of destinations that receive the message doubles at each step"); seed 002
//! §2.3 takes its stepwise/depth contention from the same paper. Designed for one-port nodes
//! and dimension-ordered unicast routing in n-D meshes.
//!
//! **Dimension-ordered chain.** Unicasts are routed dimension 0 first
//! ([`crate::route::dimension_ordered`]); nodes are ordered lexicographically with the *last*
//! routed dimension most significant, which is node-id order here. Two unicasts whose ends lie in
//! disjoint intervals of this chain cross no common channel if they go the same way along the
//! chain, or towards each other: in 2D, one from `u` up to `v` moves along `u`'s row and then up
//! `v`'s column, while one from `y` down to `x ≥ v` moves along `y`'s row (at or above `v`'s) and
//! then down a column — opposite directions wherever they meet. Going *away* from each other they
//! can meet: the lower one, running down the chain from `v` to `u`, first follows `v`'s row,
//! where the upper interval may start.
//!
//! Complexity: O(m log m) to sort the chain, then O(n) per hop of the `m` unicasts.
//!
//! Choices. The review gives the step count, not the procedure. A holder responsible for chain
//! positions `lo..=hi` splits them at the middle (the lower half has ⌈s/2⌉ of the `s` nodes) and
//! sends the half without itself to that half's node *farthest along the chain from the
//! source*, which becomes responsible for it. So every holder below the source in the chain heads
//! its segment and only ever sends up, every holder above it ends its segment and only sends
//! down, and the source sends both ways from between them: any two unicasts of one step go the
//! same way or towards each other, never away (sending to the node nearest the split does let
//! them go away from each other, and contend). A unicast of a later step lies in another
//! segment, or is sent by a node fed after the first unicast left, so there is no depth
//! contention either ([`crate::contention`]); the property tests check both on every plan, in
//! 1-D to 4-D meshes. Each holder sends its unicasts largest half first, which is its port
//! order. Meshes of any dimension (a hypercube is the mesh 2×…×2); tori have `u-torus`.
//!
//! ```
//! use meshcast::{algo, algo::Request, contention::Contention, eval::{message_steps, Ports}};
//! // seed 002's Figure 5 destinations: 5 destinations, ⌈log₂ 6⌉ = 3 one-port steps.
//! let req = Request::parse("mesh:6x6", "3,3", "0,1 3,1 2,2 5,2 2,5").unwrap();
//! let plan = algo::find("u-mesh").unwrap().route(&req).unwrap();
//! assert_eq!(message_steps(&plan, req.shape(), Ports::One), 3);
//! assert!(Contention::of(&plan, req.shape(), Ports::One).is_free());
//! ```

use super::halving;
use crate::algo::{Algorithm, Request};
use crate::plan::Plan;
use crate::route::dimension_ordered::route;

/// The U-mesh algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct UMesh;

impl Algorithm for UMesh {
    fn plan(&self, request: &Request) -> Plan {
        let shape = request.shape();
        halving(request, |v| v.index(), |u, v| route(shape, u, v))
    }
}
