//! # meshcast
//!
//! Multicast routing in mesh and torus interconnection networks (multicomputers, networks-on-chip):
//! the published algorithms, one validator, the models the literature measures them with, two
//! simulators that execute the plans, and the experiments of the papers. The papers are cited by
//! number, "seed 000" to "seed 004": the table at the end gives each one in full.
//!
//! ## The data flow
//!
//! ```text
//! topology ──► algorithm ──► plan ──┬──► model ──► metrics ──► experiment
//! (Shape)      (REGISTRY)    (Plan) │    (eval,     (Metrics,   (sweeps, the seeds'
//!                  ▲                │    contention, latency,    tables, gaps to
//!                  │                │    schedule)   steps)      the exact optima)
//!   route ─────────┘                └──► simulator (sim): flit-level wormhole under load
//!   (unicast routing)                    (sim::saf: whole message sets, seed 004)
//! ```
//!
//! An algorithm decides routes and returns them as a [`plan::Plan`] — data, no metric; every
//! model, simulator and check takes any plan. Nothing in the library does I/O: the `meshcast`
//! command line (crate `meshcast-cli`) parses, prints, draws and serves.
//!
//! ## The modules
//!
//! * [`topology`]: n-dimensional meshes and tori, nodes, channels, distances. It knows nothing
//!   of multicast: the geometry every other module uses.
//! * [`route`]: unicast routing functions — the snake labelling and Hamiltonian-path routing
//!   `R(u, v)`, dimension-ordered routing — that the path- and unicast-based algorithms and the
//!   simulator route their messages with.
//! * [`algo`]: the [`algo::Algorithm`] trait and the [`algo::REGISTRY`] of every algorithm —
//!   tree-, path- and unicast-based, one file each — and a checked [`algo::Request`]. Tree
//!   algorithms are written for a mesh with the source at its origin
//!   ([`algo::reduce::ZoneAlgorithm`]) and lifted to tori and any source once
//!   ([`algo::reduce::lift`]): the extension point for tree algorithms of other crates.
//!   Algorithms decide routes only; they compute no metric.
//! * [`plan`]: the [`plan::Plan`] every algorithm returns — sends that drop copies, in port
//!   order — and its one validator.
//! * [`schedule`]: the port order at each node — the paper's, the optimal one, wraparound links
//!   last. It reorders a plan's sends and never changes its routes.
//! * [`eval`]: the static models, formulas of a plan: traffic, additional traffic, one-port and
//!   all-port store-and-forward time, wormhole, circuit-switching and cut-through latency,
//!   message-passing steps (seed 001 §2.1.2.4).
//! * [`evaluation`]: which models apply to which plan (`Evaluation::of`), and a plan's values
//!   under all of them — the one rule the command line's reports and the sweeps share.
//! * [`contention`]: stepwise and depth channel contention among a plan's messages (seed 002
//!   §2.3).
//! * [`exact`]: exact optima for small instances (OMT, MST, OMP, OMC, the least one-port time),
//!   the yardsticks the heuristics' gaps are measured against.
//! * [`workload`] and [`stats`]: seeded random destinations and exact, mergeable statistics —
//!   below both the simulators ([`sim`]) and the experiments ([`experiment`]) that use them.
//! * [`sim`]: simulators that execute routing step by step instead of by formula:
//!   [`sim::wormhole`], flit-level wormhole routers under load running any plan (seeds 002,
//!   003), watched from outside through a [`sim::wormhole::Observer`]; [`sim::saf`], seed 004's store-and-forward mesh with bounded buffers and its
//!   algorithms for whole multicast message sets.
//! * [`experiment`]: the seeds' published numbers and worked examples, and the machinery that
//!   sets ours against them, one module per seed — Monte-Carlo sweeps with exact tallies and
//!   shards, optimality gaps, the flit-level and message-set measurements.
//! * [`error`]: every failure as a value ([`Error`], [`InputError`], [`PlanError`]); no panic on
//!   user input.
//!
//! `meshcast/examples/` runs the flow end to end: `route`, `extension` (a tree algorithm from
//! another crate), `sweep` and `load`.
//!
//! ## One multicast
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
//!
#![doc = include_str!("../../docs/SEEDS.md")]
#![warn(missing_docs)]

/// The library example of README.md, compiled and run as a doctest so it stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub mod algo;
pub mod contention;
pub mod error;
pub mod eval;
pub mod evaluation;
pub mod exact;
pub mod experiment;
mod hint;
mod node_table;
pub mod plan;
pub mod route;
pub mod schedule;
pub mod sim;
pub mod stats;
pub mod topology;
pub mod workload;

pub use error::{Error, InputError, PlanError, SafError, WormholeError};
