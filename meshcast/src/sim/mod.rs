//! Simulators that execute plans under load, as opposed to the static models of [`crate::eval`].
//!
//! * [`wormhole`]: a cycle-accurate, flit-level simulator of wormhole-routed meshes and tori.

pub mod wormhole;
