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
//! and [`unknown`] (§6, guessing c); the prefix-computation schedule in [`prefix`]; the snake
//! orders both lay packets out along in [`snake`]; the mesh primitives of Propositions 1–2 as
//! packet movements: shearsort in [`sort`] and permutation
//! ((k, k)-) routing with constant queues in [`permute`]. Measurements and exponent fits are
//! the seed-004 experiment's ([`crate::experiment::seed004`]), above this module. Nothing here
//! does I/O.
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
pub mod snake;
pub mod sort;
pub mod theorem2;
pub mod unknown;

pub use engine::{Arrival, Capacity, PacketId, Run, Sim};
pub use msets::MessageSet;
