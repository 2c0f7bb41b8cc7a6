//! Port order at the nodes of a plan: the order the paper states, or the optimal one.
//!
//! An algorithm returns its plan with each node's sends in the transmission priority its paper
//! states (DIAG: the stem first; DDS: X before Y; tori: wraparound links first). The one-port
//! time of [`crate::eval`] depends on that order as much as on the tree. [`Schedule::Optimal`]
//! keeps the tree and reorders every node's sends so the one-port time is the least any order
//! can give: the send whose remaining work is longest goes first (an exchange argument shows
//! that sorting by remaining completion time, longest first, minimises `max(i + Cᵢ)`).

use crate::plan::Plan;
use crate::topology::Shape;

/// Which port order a plan is evaluated with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// The transmission priority the algorithm's paper states.
    #[default]
    Paper,
    /// Per node, longest remaining subtree first: the least one-port time for the same sends.
    Optimal,
}

impl Schedule {
    /// `plan` with this schedule applied.
    pub fn apply(self, plan: Plan, shape: &Shape) -> Plan {
        match self {
            Schedule::Paper => plan,
            Schedule::Optimal => optimal(&plan, shape),
        }
    }
}

/// Reorder each node's sends, longest remaining completion first (ties keep the paper's order).
pub fn optimal(plan: &Plan, shape: &Shape) -> Plan {
    let sends = plan.send_count();
    let by = plan.by_sender();
    let mut is_dest = vec![false; shape.len()];
    for d in plan.destinations() {
        is_dest[d.index()] = true;
    }
    // completion[i]: time from the start of send i until every destination it serves holds the
    // message. Sends are listed causally, so in reverse order a node's own sends are done
    // before the send that reaches it.
    let mut completion = vec![0u32; sends];
    let mut scratch = Vec::new();
    for i in (0..sends).rev() {
        let send = plan.send(i);
        completion[i] = send
            .hops
            .iter()
            .enumerate()
            .filter(|(_, h)| h.drop)
            .map(|(j, h)| {
                let v = h.node.index();
                scratch.clear();
                scratch.extend(by.of(h.node).iter().map(|&k| completion[k as usize]));
                scratch.sort_unstable_by(|a, b| b.cmp(a));
                let below = scratch.iter().enumerate().map(|(r, &c)| r as u32 + c).max();
                let here = if is_dest[v] { 0 } else { below.unwrap_or(0) };
                j as u32 + 1 + below.unwrap_or(0).max(here)
            })
            .max()
            .unwrap_or(0);
    }
    let rank: Vec<u64> = completion
        .iter()
        .map(|&c| u64::from(u32::MAX - c))
        .collect();
    plan.reordered(&rank)
}
