//! # meshcast
//!
//! Multicast routing in mesh and torus interconnection networks (multicomputers, networks-on-chip):
//! the published algorithms, one validator, and the models the literature measures them with.
//!
//! The data flows one way:
//!
//! ```text
//! topology ──► algorithm ──► plan ──► model ──► metrics
//! (Shape)      (REGISTRY)    (Plan)   (eval)    (Metrics)
//! ```
//!
//! * [`topology`]: n-dimensional meshes and tori, nodes, channels, distances.
//! * [`algo`]: the [`algo::Algorithm`] trait and the [`algo::REGISTRY`] of every algorithm —
//!   tree-, path- and unicast-based — with the reductions that lift an origin-source mesh algorithm
//!   to tori and to any source.
//! * [`plan`]: the [`plan::Plan`] every algorithm returns, and its validator.
//! * [`route`]: unicast routing functions — the snake labelling and Hamiltonian-path routing,
//!   dimension-ordered routing.
//! * [`eval`]: traffic, additional traffic, one-port and all-port store-and-forward time,
//!   wormhole latency, message-passing steps.
//! * [`contention`]: stepwise and depth channel contention among a plan's messages.
//! * [`schedule`]: the port order at each node — the paper's, or the optimal one.
//! * [`workload`] and [`stats`]: seeded random destinations and exact, mergeable statistics —
//!   below both the simulators ([`sim`]) and the experiments ([`experiment`]) that use them.
//!
//! ```
//! use meshcast::algo::{self, Request};
//! use meshcast::eval::Metrics;
//! use meshcast::schedule::Schedule;
//!
//! // seed 001 Example 3.2.1.1: an 8×8 mesh, source (0,0), six destinations.
//! let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4")?;
//! for name in ["vh", "diag", "dds"] {
//!     let info = algo::find(name)?;
//!     let plan = info.route(&req)?;
//!     plan.validate(req.shape(), info.shortest_path)?;
//!     let paper = Metrics::of(&plan, req.shape());
//!     let best = Metrics::of(&Schedule::Optimal.apply(plan, req.shape()), req.shape());
//!     assert!(best.one_port_time <= paper.one_port_time);
//!     println!("{name}: {} links, {} hops", paper.traffic, paper.one_port_time);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

/// The library example of README.md, compiled and run as a doctest so it stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub mod algo;
pub mod contention;
pub mod error;
pub mod eval;
pub mod exact;
pub mod experiment;
pub mod plan;
pub mod route;
pub mod schedule;
pub mod sim;
pub mod stats;
pub mod topology;
pub mod workload;

pub use error::{Error, InputError, PlanError, SafError, WormholeError};
