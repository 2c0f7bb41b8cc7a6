//! Path-based multicast: the worked example of seed 001 §3.3.3 with its published numbers, and
//! properties of worms that the general property tests do not see (channel networks, ports).

use meshcast::algo::Request;
use meshcast::plan::{Plan, Send};
use meshcast::route::hamiltonian::Snake;
use meshcast::topology::{Kind, Node, Shape};
use proptest::prelude::*;

use crate::properties::request;
use crate::run;

/// The nodes of a worm from its sender on: the sender, then every hop.
fn stops(send: &Send) -> Vec<Node> {
    std::iter::once(send.from)
        .chain(send.hops.iter().map(|h| h.node))
        .collect()
}

/// Whether `labels` strictly rise all the way, or strictly fall all the way.
fn monotone(labels: &[u32]) -> bool {
    labels.windows(2).all(|p| p[1] > p[0]) || labels.windows(2).all(|p| p[1] < p[0])
}

/// The length of a worm if every leg between the places it leaves copies is a shortest path:
/// the sum of the distances between them (seed 001 Proposition 3.3.7's formula).
fn legs(shape: &Shape, send: &Send) -> u32 {
    let mut at = send.from;
    let mut total = 0;
    for hop in send.hops.iter().filter(|h| h.drop) {
        total += shape.distance(at, hop.node);
        at = hop.node;
    }
    total
}

/// Every worm leaves the source and leaves copies only at destinations.
fn worms_from_the_source_drop_at_destinations(plan: &Plan) -> bool {
    plan.sends().all(|s| {
        s.from == plan.source()
            && s.hops
                .iter()
                .all(|h| !h.drop || plan.destinations().contains(&h.node))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// seed 002 §2.2 / seed 003 §2: every worm of lin, dual-path and multi-path keeps to the high
    /// channels (labels rising) or to the low channels (labels falling) — deadlock freedom —
    /// leaves the source, and drops copies only at destinations. Dual-path sends at most one
    /// worm each way; multi-path at most one per channel of the source, never two on one channel.
    #[test]
    fn snake_worms_keep_to_one_channel_network(req in request()) {
        let shape = req.shape();
        let snake = Snake::new(shape);
        for name in ["lin", "dual-path", "multi-path"] {
            if name == "lin" && (shape.rank() != 2 || shape.kind() != Kind::Mesh) {
                continue;
            }
            let (plan, _, _) = run(name, &req);
            prop_assert!(worms_from_the_source_drop_at_destinations(&plan), "{}", name);
            let mut first_hops = Vec::new();
            let mut rising = 0;
            for send in plan.sends() {
                let labels: Vec<u32> = stops(&send).iter().map(|&n| snake.label(n)).collect();
                prop_assert!(monotone(&labels), "{}: {:?}", name, labels);
                rising += usize::from(labels[1] > labels[0]);
                first_hops.push(send.hops[0].node);
            }
            let worms = plan.send_count();
            first_hops.sort_unstable();
            first_hops.dedup();
            prop_assert_eq!(first_hops.len(), worms, "{}: two worms share a channel", name);
            if name == "multi-path" {
                prop_assert!(worms <= 2 * shape.rank());
            } else {
                prop_assert!(rising <= 1 && worms - rising <= 1, "{}", name);
            }
        }
    }

    /// In a 2D mesh `R` routes along shortest paths (seed 002 §2.2), and multi-path's first step
    /// heads towards its first destination, so every worm is as long as the distances between
    /// the places it leaves copies.
    #[test]
    fn snake_worms_in_a_2d_mesh_take_shortest_legs(req in request()) {
        prop_assume!(req.shape().rank() == 2 && req.shape().kind() == Kind::Mesh);
        for name in ["lin", "dual-path", "multi-path"] {
            let (plan, _, _) = run(name, &req);
            for send in plan.sends() {
                prop_assert_eq!(send.hops.len() as u32, legs(req.shape(), &send), "{}", name);
            }
        }
    }
}

/// Lin's algorithm from the first node of the snake is a single worm through every destination.
#[test]
fn lin_from_label_zero_is_one_worm_in_label_order() {
    let req = Request::parse("mesh:7x5", "0,0", "6,4 1,1 5,2 0,3 3,0").unwrap();
    let (plan, _, _) = run("lin", &req);
    assert_eq!(plan.send_count(), 1);
    let snake = Snake::new(req.shape());
    let drops: Vec<u32> = plan
        .send(0)
        .hops
        .iter()
        .filter(|h| h.drop)
        .map(|h| snake.label(h.node))
        .collect();
    let mut sorted = drops.clone();
    sorted.sort_unstable();
    assert_eq!(drops, sorted);
    assert_eq!(drops.len(), 5);
}
