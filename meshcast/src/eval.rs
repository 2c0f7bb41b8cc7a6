//! Static models: functions of a [`Plan`] that say what it costs.
//!
//! * traffic `|E|` and additional traffic `|E| − K` (seed 001 eqs. 2.1.1–2.1.2);
//! * store-and-forward **all-port** time: the longest path to a destination (eq. 2.1.8);
//! * store-and-forward **one-port** time: path length plus the hops waited at branching nodes
//!   (eq. 2.1.9). A node that holds the message at time `t` starts its `i`-th send (0-based, in
//!   plan order) at `t + i`; the send's `j`-th hop arrives at `t + i + j`. For a tree (one-hop
//!   sends) this is exactly "each branching node sends to one neighbour per hop".
//!
//! The models never look at which algorithm made the plan.

use crate::plan::Plan;
use crate::topology::{Node, Shape};

/// How many ports a node may send on at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Port {
    /// One send at a time (seed 001 eq. 2.1.9).
    One,
    /// All sends at once (seed 001 eq. 2.1.8).
    All,
}

/// When every send starts and every node first holds the message, under one port model.
#[derive(Clone, Debug)]
pub struct Timeline {
    send_start: Vec<u32>,
    held: Vec<u32>,
}

const NEVER: u32 = u32::MAX;

impl Timeline {
    /// Play `plan` (which must be valid for `shape`) under `port`.
    pub fn new(plan: &Plan, shape: &Shape, port: Port) -> Timeline {
        let mut held = vec![NEVER; shape.len()];
        let mut busy = vec![0u32; shape.len()];
        held[plan.source().index()] = 0;
        let send_start = plan
            .sends()
            .map(|send| {
                let v = send.from.index();
                let start = match port {
                    Port::One => {
                        busy[v] += 1;
                        held[v] + busy[v] - 1
                    }
                    Port::All => held[v],
                };
                for (j, hop) in send.hops.iter().enumerate() {
                    if hop.drop {
                        held[hop.node.index()] = start + j as u32 + 1;
                    }
                }
                start
            })
            .collect();
        Timeline { send_start, held }
    }

    /// The time send `i` leaves its sender.
    pub fn send_start(&self, i: usize) -> u32 {
        self.send_start[i]
    }

    /// The time hop `j` (0-based) of send `i` arrives: the hop number drawn on that link.
    pub fn hop_time(&self, i: usize, j: usize) -> u32 {
        self.send_start[i] + j as u32 + 1
    }

    /// The time `node` first holds the message, if it ever does.
    pub fn arrival(&self, node: Node) -> Option<u32> {
        Some(self.held[node.index()]).filter(|&t| t != NEVER)
    }

    /// The time the last of `plan`'s destinations holds the message.
    pub fn completion(&self, plan: &Plan) -> u32 {
        plan.destinations()
            .iter()
            .filter_map(|&d| self.arrival(d))
            .max()
            .unwrap_or(0)
    }
}

/// The static metrics of a plan under both store-and-forward port models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Links used, `|E|`.
    pub traffic: u32,
    /// `|E| − K`.
    pub additional_traffic: u32,
    /// Multicast time, one-port store-and-forward (hops).
    pub one_port_time: u32,
    /// Multicast time, all-port store-and-forward (hops).
    pub all_port_time: u32,
}

impl Metrics {
    /// The metrics of a valid plan.
    pub fn of(plan: &Plan, shape: &Shape) -> Metrics {
        let traffic = plan.traffic();
        Metrics {
            traffic,
            additional_traffic: traffic.saturating_sub(plan.destinations().len() as u32),
            one_port_time: Timeline::new(plan, shape, Port::One).completion(plan),
            all_port_time: Timeline::new(plan, shape, Port::All).completion(plan),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::PlanKind;

    /// The tree of seed 001 Figure 2.1.9 in miniature: a branching node delays its second child.
    #[test]
    fn one_port_counts_hops_waited_at_branching_nodes() {
        let s: Shape = "mesh:4x4".parse().unwrap();
        let n = |c: &[u32]| s.node(c).unwrap();
        let dests = vec![n(&[2, 0]), n(&[1, 2])];
        let mut p = Plan::new(PlanKind::Tree, n(&[0, 0]), dests);
        p.push_edge(n(&[0, 0]), n(&[1, 0]));
        p.push_edge(n(&[1, 0]), n(&[2, 0]));
        p.push_edge(n(&[1, 0]), n(&[1, 1]));
        p.push_edge(n(&[1, 1]), n(&[1, 2]));
        let m = Metrics::of(&p, &s);
        assert_eq!(m.traffic, 4);
        assert_eq!(m.additional_traffic, 2);
        assert_eq!(m.all_port_time, 3);
        assert_eq!(m.one_port_time, 4);
        let t = Timeline::new(&p, &s, Port::One);
        assert_eq!(t.arrival(n(&[2, 0])), Some(2));
        assert_eq!(t.hop_time(2, 0), 3);
        assert_eq!(t.arrival(n(&[3, 3])), None);
    }
}
