//! Store-and-forward routing of multicast message sets on the square mesh (seed 004, Herley,
//! Pietracaprina and Pucci, "Store-and-Forward Multicast Routing on the Mesh").
//!
//! An `mcast(n, d, c)` [`MessageSet`] gives every node of a √n × √n mesh one message with at most
//! `d` destinations, no node being the destination of more than `c` messages. The [`Sim`] is the
//! machine of seed 004 §2.1: synchronous steps, per node an input queue, an output queue and a
//! buffer of a bounded number of packets, one packet per link per step, one copy per packet per
//! step. The algorithms (one per file) drive it packet by packet, so the steps, link transmissions,
//! copies and buffer occupancies they report are measured, not assumed.
//!
//! Files: the machine in [`engine`]; message sets and their generators in [`msets`]; the
//! algorithms [`naive`] (§1), [`theorem2`] (§3, O(c) buffers), [`lemma1`] (§3, d > c),
//! [`randomized`] (§4, constant buffers), [`deterministic`] (§5, constant buffers, an expander)
//! and [`unknown`] (§6, guessing c); the prefix-computation schedule in [`prefix`]; the mesh
//! primitives of Propositions 1–2 as packet movements: shearsort in [`sort`] and permutation
//! ((k, k)-) routing with constant queues in [`permute`]; measurements
//! and exponent fits in [`report`]. Nothing here does I/O: `meshcast msets` formats what
//! [`report`] measures.
//!
//! ```
//! use meshcast::sim::saf::{msets, naive, Capacity};
//! let set = msets::random(8, 2, 3, 7).unwrap(); // 8×8 mesh, d = 2, c = 3, seed 7
//! let run = naive::route(&set, Capacity::Unbounded).unwrap();
//! assert_eq!(run.deliveries, set.deliveries() as u64);
//! assert!(run.steps >= 1);
//! ```

/// `Display` and `FromStr` for a setting's enum, from one table of variants and names; a name
/// not in the table is an [`crate::error::InputError::Setting`] naming what is allowed.
macro_rules! named_setting {
    ($ty:ident, $setting:literal, $allowed:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self {
                    $($ty::$variant => $name),+
                })
            }
        }

        impl std::str::FromStr for $ty {
            type Err = crate::error::InputError;

            fn from_str(s: &str) -> Result<$ty, crate::error::InputError> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(crate::error::InputError::Setting {
                        name: $setting,
                        value: s.to_string(),
                        allowed: $allowed,
                    }),
                }
            }
        }
    };
}

mod bands;
pub mod broadcast;
pub mod deterministic;
pub mod engine;
pub mod lemma1;
pub mod msets;
pub mod naive;
pub mod permute;
pub mod prefix;
pub mod randomized;
pub mod report;
pub mod sort;
pub mod theorem2;
pub mod unknown;

pub use engine::{Arrival, Capacity, PacketId, Run, Sim};
pub use msets::MessageSet;

use thiserror::Error;

/// Why a simulation stopped: every variant names the node, step or packet concerned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SimError {
    /// A move or copy that would put more packets in a node's buffer than its bound allows.
    #[error(
        "step {step}: node {node} would hold {would_hold} packets, but its buffer holds at most \
         {capacity}"
    )]
    BufferOverflow {
        /// The step at which it happened (1-based).
        step: u64,
        /// The node (id = x + side·y).
        node: u32,
        /// Occupancy the move would have produced.
        would_hold: u32,
        /// The buffer bound.
        capacity: u32,
    },
    /// No packet could move in a step although some were still travelling: full buffers block
    /// each other.
    #[error(
        "step {step}: routing stalled with {waiting} packets waiting (buffers full; raise --buffer)"
    )]
    Stalled {
        /// The step at which no packet could move.
        step: u64,
        /// Packets still queued.
        waiting: usize,
    },
    /// A packet delivered at a node that is none of its destinations (an algorithm bug).
    #[error("message {msg} was delivered at node {node}, which is not one of its destinations")]
    NotADestination {
        /// The message.
        msg: u32,
        /// The node.
        node: u32,
    },
    /// A second copy of a message reached the same destination.
    #[error("message {msg} was delivered twice at node {node}")]
    DeliveredTwice {
        /// The message.
        msg: u32,
        /// The destination.
        node: u32,
    },
    /// A destination that never received its copy.
    #[error("message {msg} never reached destination {node}")]
    Undelivered {
        /// The message.
        msg: u32,
        /// The destination.
        node: u32,
    },
    /// A buffer bound below what the algorithm needs to be free of deadlock.
    #[error(
        "a buffer of {capacity} packets is too small for {algorithm}: it needs at least {least}"
    )]
    CapacityTooSmall {
        /// The algorithm.
        algorithm: &'static str,
        /// The bound given.
        capacity: u32,
        /// The least bound it accepts.
        least: u32,
    },
    /// The run went beyond its step limit (an aborted guess of seed 004 §6).
    #[error("aborted after {0} steps, the limit of this attempt")]
    StepLimit(u64),
    /// Bad input to an algorithm (a shape or set it does not handle).
    #[error(transparent)]
    Input(#[from] crate::error::InputError),
    /// A move of [`Sim::step_moves`] that breaks the machine's rules (an algorithm bug).
    #[error("step {step}: a packet cannot move from node {from} to node {to}: {why}")]
    IllegalMove {
        /// The step (1-based).
        step: u64,
        /// The packet's node.
        from: u32,
        /// The node it was sent to.
        to: u32,
        /// The rule broken.
        why: &'static str,
    },
    /// Packets left in buffers when the algorithm declared itself finished.
    #[error("{0} packets were left in buffers at the end")]
    Leftover(u64),
    /// A phase of a phased algorithm (seed 004 §5) delivered nothing new, so repeating it would
    /// never finish: its expansion assumption failed on this instance.
    #[error(
        "{algorithm}: phase {phase} reached no new destination ({open} packets still have \
         unvisited destinations); the paper's expansion assumption fails on this instance"
    )]
    NoProgress {
        /// The algorithm.
        algorithm: &'static str,
        /// The phase (1-based) that made no progress.
        phase: u32,
        /// Packets still open.
        open: usize,
    },
}

impl SimError {
    /// Bad input: setting `name` has `value`, and `allowed` says what it may be.
    pub(crate) fn setting(name: &'static str, value: u32, allowed: &'static str) -> SimError {
        SimError::Input(crate::error::InputError::Setting {
            name,
            value: value.to_string(),
            allowed,
        })
    }
}
