//! Unicast routing functions that multicast algorithms route their messages with.
//!
//! * [`hamiltonian`]: the snake labelling of a mesh or torus (a Hamiltonian path) and the
//!   Hamiltonian-path routing function `R(u, v)` of seed 002 Definition 2 and seed 001
//!   eq. 3.3.1, which path-based multicast (`crate::algo::path`) sends its worms along, and
//!   seed 002's multiport unicast-based algorithm its unicasts.
//! * [`dimension_ordered`]: XY / e-cube routing on meshes and tori, which the unicast-based
//!   algorithms of McKinley et al. and Robinson et al. (`crate::algo::unicast`) route with.

pub mod dimension_ordered;
pub mod hamiltonian;
