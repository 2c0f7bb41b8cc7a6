//! Port order at the nodes of a plan: the order the paper states, the optimal one, or the
//! paper's with wraparound links last.
//!
//! An algorithm returns its plan with each node's sends in the transmission priority its paper
//! states (DIAG: the stem first; DDS: X before Y; tori: wraparound links first). The one-port
//! time of [`crate::eval`] depends on that order as much as on the tree. [`Schedule::Optimal`]
//! keeps the tree and reorders every node's sends so the one-port time is the least any order
//! can give: the send whose remaining work is longest goes first (an exchange argument shows
//! that sorting by remaining completion time, longest first, minimises `max(i + Cᵢ)`).
//! [`Schedule::WrapLast`] keeps the paper's order except that a node sends over its wraparound
//! links after its other links: a reading of seed 001's torus times (issue 17).

use std::borrow::Cow;

use crate::plan::Plan;
use crate::topology::{Node, Shape};

/// Which port order a plan is evaluated with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// The transmission priority the algorithm's paper states.
    #[default]
    Paper,
    /// Per node, longest remaining subtree first: the least one-port time for the same sends.
    Optimal,
    /// Per node, the paper's order with the sends over a wraparound link moved after the others
    /// (stable): the reverse of seed 001 §3.2.1.4's wraparound-first rule. On a mesh, the paper's.
    WrapLast,
}

impl Schedule {
    /// `plan` with this schedule applied.
    pub fn apply(self, plan: Plan, shape: &Shape) -> Plan {
        match self {
            Schedule::Paper => plan,
            _ => self.order(&plan, shape).into_owned(),
        }
    }

    /// `plan` with this schedule applied, borrowed where the schedule keeps the plan's order:
    /// what a caller that measures one plan under several schedules takes.
    pub fn order<'a>(self, plan: &'a Plan, shape: &Shape) -> Cow<'a, Plan> {
        match self {
            Schedule::Paper => Cow::Borrowed(plan),
            Schedule::Optimal => Cow::Owned(optimal(plan, shape)),
            Schedule::WrapLast => Cow::Owned(wrap_last(plan, shape)),
        }
    }

    /// Every schedule, in the order reports list them.
    pub const ALL: [Schedule; 3] = [Schedule::Paper, Schedule::Optimal, Schedule::WrapLast];

    /// The name `--schedule` takes and reports print: `paper`, `optimal`, `wrap-last`.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Paper => "paper",
            Schedule::Optimal => "optimal",
            Schedule::WrapLast => "wrap-last",
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
            .filter(|(_, h)| h.drop())
            .map(|(j, h)| {
                let v = h.node().index();
                scratch.clear();
                scratch.extend(by.of(h.node()).iter().map(|&k| completion[k as usize]));
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

/// Move each node's sends over a wraparound link after its other sends, keeping the plan's order
/// otherwise.
pub fn wrap_last(plan: &Plan, shape: &Shape) -> Plan {
    let rank: Vec<u64> = plan
        .sends()
        .map(|send| {
            let first = send.hops.first().map_or(send.from, |h| h.node());
            u64::from(is_wraparound(shape, send.from, first))
        })
        .collect();
    plan.reordered(&rank)
}

/// Whether the link between neighbours `a` and `b` wraps around: their coordinates differ by
/// more than one in some dimension (a ring of two nodes has no link to tell apart).
fn is_wraparound(shape: &Shape, a: Node, b: Node) -> bool {
    (0..shape.rank()).any(|d| shape.coord(a, d).abs_diff(shape.coord(b, d)) > 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Request;
    use crate::eval::Metrics;

    /// On a torus, a wraparound-first node sends its wraparound child last under `WrapLast`;
    /// the links, and so the traffic and the all-port time, stay the same.
    #[test]
    fn wrap_last_moves_only_the_wraparound_sends() {
        let req = Request::parse("torus:8x8", "0,0", "7,0 1,0 2,0 0,7 0,1 6,6").unwrap();
        let plan = crate::algo::find("vh").unwrap().route(&req).unwrap();
        let shape = req.shape();
        let later = wrap_last(&plan, shape);
        later.validate(shape, true).unwrap();
        let first_send = |p: &Plan| p.send(0).hops[0].node();
        assert!(is_wraparound(shape, plan.source(), first_send(&plan)));
        assert!(!is_wraparound(shape, later.source(), first_send(&later)));
        let (a, b) = (Metrics::of(&plan, shape), Metrics::of(&later, shape));
        assert_eq!((a.traffic, a.all_port_time), (b.traffic, b.all_port_time));
        let mesh = Request::parse("mesh:8x8", "0,0", "7,0 1,0 0,7 6,6").unwrap();
        let plan = crate::algo::find("diag").unwrap().route(&mesh).unwrap();
        let same = Schedule::WrapLast.order(&plan, mesh.shape());
        assert_eq!(
            same.sends().map(|s| s.hops[0].node()).collect::<Vec<_>>(),
            plan.sends().map(|s| s.hops[0].node()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn names_are_distinct() {
        let names = Schedule::ALL.map(Schedule::name);
        assert_eq!(names, ["paper", "optimal", "wrap-last"]);
    }
}
