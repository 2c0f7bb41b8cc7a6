//! Permutation and (k, k)-routing with constant queues (seed 004 Propositions 1–2; the scheme is
//! ours, of the family of Leighton §1.7: sort first, then route greedily).
//!
//! Input: `(packet, target)` moves in which every node sends at most `k` packets and receives at
//! most `k`, each target in its packet's own region of side `s` (s divides the side); every
//! region is routed independently, all in the same steps. Plain greedy dimension-order routing
//! ([`Sim::route`]) queues Θ(s) packets at a node on some inputs (a transpose sends a whole row to
//! one column, and every packet turns at the one node where the row meets it). Sorting first
//! spreads the packets for any one column over every row:
//!
//! 1. **Sort** ([`super::sort::shearsort`]) the packets of each region by destination column into
//!    column-major snake order with k slots per node. The packets for column c (at most k·s: c
//!    has s nodes receiving ≤ k each) then fill a run of at most k·s consecutive slots, which
//!    spans at most s + 1 consecutive snake nodes, so at most two consecutive snake columns, each
//!    crossing every row once: **every row holds at most 2k packets for any one column**, and
//!    every node at most k packets.
//! 2. **Route** greedily x then y with [`Sim::route`] (first in first out on every output link).
//!
//! **Queues** (unbounded buffers; every queue's head leaves in every step). An x queue receives at
//! most one packet per step (its one input link) and sends one whenever it is not empty, so it
//! never grows beyond its node's own packets or one. A y queue receives at most one packet per
//! step along its column, plus the packets of its row turning into the column: the same argument
//! bounds it by one plus its turning packets, and the two y queues of a node together by 2k + 2.
//! With at most k of its own packets, one x-transit per direction, and k packets arrived, a node
//! holds at most **4k + 4 packets** ([`buffer_bound`]).
//!
//! **Steps**: the sort's [`super::sort::step_bound`] plus the routing's: first in first out, a
//! packet entering a queue of length L leaves it after L steps, so with the bounds above its x
//! leg takes at most (s − 1) + s·k steps and its y leg (s − 1) + s·(2k + 1): the routing takes at
//! most **3ks + 3s − 2 steps** ([`step_bound`] adds both).
//!
//! **Bounded buffers**: the sort never holds more than k packets at a node, and [`Sim::route`]
//! reserves a slot for every packet on its way to stay at a node, so with b ≥ 2k + 4 (k packets
//! at the start, k arriving to stay, four directions' reserves) the routing cannot deadlock
//! (test `held_packets_find_their_reserved_slots`: the transpose, a row converging on a column
//! and random (k, k)-routings, 8×8 to 32×32, greedy and sorted).
//!
//! ```
//! use meshcast::sim::saf::{permute, Capacity, MessageSet, Sim};
//! // A 4×4 mesh, one packet per node, the transpose permutation.
//! let lists: Vec<Vec<u32>> = (0..16).map(|i| vec![(i + 1) % 16]).collect();
//! let set = MessageSet::new(4, &lists).unwrap();
//! let mut sim = Sim::new(&set, Capacity::Packets(permute::buffer_bound(1)));
//! let packets = sim.inject_all().unwrap();
//! let moves: Vec<_> = packets.iter().map(|&p| (p, sim.at(p) % 4 * 4 + sim.at(p) / 4)).collect();
//! permute::route(&mut sim, &moves, 4, 1).unwrap();
//! assert_eq!(sim.at(packets[1]), 4);
//! assert!(sim.totals().buffer_peaks.iter().all(|&b| b <= permute::buffer_bound(1)));
//! assert!(sim.totals().steps <= permute::step_bound(4, 1));
//! ```

use super::engine::{Arrival, PacketId, Sim};
use super::prefix;
use super::snake::SnakeOrder;
use super::sort;
use crate::error::SafError;

/// How the constant-buffer algorithms (§4, §5 and their Lemma 1) route their permutations: every
/// one of them is a (2, 2)-routing (at most two packets leave or reach a node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Permutation {
    /// Sorted by destination column first, then greedy ([`route`]): O(k) queues, the
    /// constant-queue routing the paper relies on (Proposition 1), at a sort's cost.
    #[default]
    Sorted,
    /// Greedy dimension-order routing alone ([`Sim::route`]): faster, but its queues grow with
    /// the side on some inputs.
    Greedy,
}

impl Permutation {
    /// The packets the algorithms' permutation routings send from or to one node at most.
    pub const K: u32 = 2;

    /// Routes `moves` (targets in their packets' regions of side `region`), where they stay.
    pub fn route(
        self,
        sim: &mut Sim<'_>,
        moves: &[(PacketId, u32)],
        region: u32,
    ) -> Result<(), SafError> {
        match self {
            Permutation::Sorted => route(sim, moves, region, Self::K),
            Permutation::Greedy => sim.route(moves, &[], Arrival::Hold),
        }
    }
}

named_setting!(Permutation, "permutation", "sorted or greedy", {
    Sorted => "sorted",
    Greedy => "greedy",
});

/// The most packets [`route`] puts in a node's buffer (unbounded buffers, the node holding no
/// packet outside the routing): 4k + 4.
pub fn buffer_bound(k: u32) -> u32 {
    4 * k + 4
}

/// The most steps [`route`] takes with unbounded buffers on regions of side `s`: the sort's
/// bound plus 3ks + 3s − 2 for the greedy routing.
pub fn step_bound(s: u32, k: u32) -> u64 {
    let (s64, k64) = (u64::from(s), u64::from(k));
    sort::step_bound(s, k) + (3 * k64 * s64 + 3 * s64).saturating_sub(2)
}

/// Routes every `(packet, target)` to its target (where it stays), within every region of side
/// `region`, every node sending and receiving at most `k`: sorted by destination column, then
/// greedy x-then-y routing.
pub fn route(
    sim: &mut Sim<'_>,
    moves: &[(PacketId, u32)],
    region: u32,
    k: u32,
) -> Result<(), SafError> {
    let side = sim.set().side();
    prefix::check_region(side, region)?;
    let mut received = vec![0u32; side as usize * side as usize];
    let mut keyed = Vec::with_capacity(moves.len());
    for &(p, target) in moves {
        let Some(count) = received.get_mut(target as usize) else {
            return Err(SafError::setting("target", target, "a node of the mesh"));
        };
        let at = sim.at(p);
        let region_of = |v: u32| (v % side / region, v / side / region);
        if region_of(at) != region_of(target) {
            return Err(SafError::setting(
                "target",
                target,
                "a node in its packet's own region",
            ));
        }
        *count += 1;
        if *count > k {
            return Err(SafError::setting(
                "packets received by one node",
                *count,
                "at most k",
            ));
        }
        keyed.push((p, u64::from(target % side % region)));
    }
    sort::shearsort(sim, &keyed, region, k, SnakeOrder::ColumnMajor)?;
    sim.route(moves, &[], Arrival::Hold)
}
