//! Path-based multicast for wormhole networks: one file per algorithm.
//!
//! In path-based multicast (seed 001 §3.3.1) the message travels as worms: each worm leaves the
//! source, goes hop by hop without being replicated, and leaves a copy at each destination it
//! delivers to; the nodes it only passes keep nothing. A worm is one send of a
//! [`PlanKind::Path`](crate::plan::PlanKind::Path) plan, with `drop` set exactly at its own
//! destinations.
//!
//! The algorithms here follow the strategy of seed 001 §3.3.1: take a Hamiltonian path, sort the
//! destinations by their label on it, and route from one destination to the next with the
//! Hamiltonian-path routing function `R(u, v)` of [`crate::route::hamiltonian`], so labels only
//! ever grow (or only ever fall) along a worm. `lin`, `dual-path` and `multi-path` use the snake
//! labelling of the whole shape; `xy-path` builds two base paths of its own. `column-path`
//! (seed 003 §2) instead sends up to two worms per column along dimension-ordered routes, and
//! `qg` (seed 003 §3) sends in two message-passing steps: dual-path worms from the source to one
//! representative per group, then from each representative through its group.

pub mod column_path;
pub mod dual_path;
pub mod lin;
pub mod multi_path;
pub mod qg;
pub mod xy_path;

use crate::plan::{Hop, Plan};
use crate::route::hamiltonian::{route, Labelling, Snake};
use crate::topology::Node;

/// Append one worm from `from`: first through the neighbouring nodes `via` one by one, then on
/// to each of `dests` in turn along `R(u, v)` on `path`. It leaves a copy at each of `dests`
/// (the last of `via` may be the first of them) and nowhere else.
fn push_worm<P: Labelling + ?Sized>(
    plan: &mut Plan,
    path: &P,
    from: Node,
    via: &[Node],
    dests: &[Node],
) {
    let mut hops: Vec<Hop> = via
        .iter()
        .map(|&node| Hop::new(node, dests.first() == Some(&node)))
        .collect();
    let mut at = hops.last().map_or(from, |h| h.node());
    let rest = &dests[usize::from(dests.first() == Some(&at))..];
    for &v in rest {
        hops.extend(route(path, at, v).map(|node| Hop::new(node, node == v)));
        at = hops.last().map_or(from, |h| h.node());
        assert_eq!(
            at, v,
            "R advances along a Hamiltonian path until it reaches v"
        );
    }
    plan.push_send(from, hops);
}

/// The dual-path split (seed 003 §2; seed 001 §3.3.1): the destinations labelled above the
/// source in ascending label order (`D_H`), and those below it in descending order (`D_L`).
/// Each destination is labelled once, not in every comparison of the sort; distinct nodes have
/// distinct labels, so the order is the sort's, whichever sort.
fn split_by_label(snake: &Snake, source: Node, dests: &[Node]) -> (Vec<Node>, Vec<Node>) {
    let ls = snake.label(source);
    let mut labelled: Vec<(u32, Node)> = dests.iter().map(|&v| (snake.label(v), v)).collect();
    labelled.sort_unstable();
    let (low, high) = labelled.split_at(labelled.partition_point(|&(l, _)| l <= ls));
    let nodes = |part: &[(u32, Node)]| part.iter().map(|&(_, v)| v).collect::<Vec<_>>();
    let mut low = nodes(low);
    low.reverse();
    (nodes(high), low)
}
