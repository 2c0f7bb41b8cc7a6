//! Path-based multicast: the worked example of seed 001 §3.3.3 with its published numbers, and
//! properties of worms that the general property tests do not see (channel networks, ports).

use meshcast::algo::Request;
use meshcast::eval::{wormhole_latency, Ports, Wormhole};
use meshcast::plan::{Plan, Send};
use meshcast::route::hamiltonian::Snake;
use meshcast::topology::{Kind, Node, Shape};
use proptest::prelude::*;

use crate::properties::request;
use crate::run;

/// The nodes of a worm from its sender on: the sender, then every hop.
fn stops(send: &Send) -> Vec<Node> {
    std::iter::once(send.from)
        .chain(send.hops.iter().map(|h| h.node()))
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
    for hop in send.hops.iter().filter(|h| h.drop()) {
        total += shape.distance(at, hop.node());
        at = hop.node();
    }
    total
}

/// Every worm leaves the source and leaves copies only at destinations.
fn worms_from_the_source_drop_at_destinations(plan: &Plan) -> bool {
    plan.sends().all(|s| {
        s.from == plan.source()
            && s.hops
                .iter()
                .all(|h| !h.drop() || plan.destinations().contains(&h.node()))
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
                first_hops.push(send.hops[0].node());
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
    fn snake_worms_in_a_2d_mesh_take_shortest_legs(req in mesh_2d_request(false)) {
        for name in ["lin", "dual-path", "multi-path"] {
            let (plan, _, _) = run(name, &req);
            for send in plan.sends() {
                prop_assert_eq!(send.hops.len() as u32, legs(req.shape(), &send), "{}", name);
            }
        }
    }
}

/// seed 001 Example 3.3.1: a 10×10 mesh, source (0,0).
const EXAMPLE_3_3_1: &str = "2,0 3,1 7,2 7,5 0,4 1,3";

/// The destinations each worm of `plan` leaves copies at, in order, as coordinates.
fn drops(plan: &Plan, shape: &Shape) -> Vec<Vec<Vec<u32>>> {
    plan.sends()
        .map(|s| {
            s.hops
                .iter()
                .filter(|h| h.drop())
                .map(|h| shape.coords(h.node()))
                .collect()
        })
        .collect()
}

/// Wormhole latency under seed 001 §4.3's assumptions: all-port, no start-up, 20 flits.
fn latency_4_3(plan: &Plan, shape: &Shape) -> u32 {
    let model = Wormhole {
        startup: 0,
        length: 20,
        ports: Ports::All,
    };
    wormhole_latency(plan, shape, model)
}

/// "The total traffic is 18 links and the maximum distance of the path is 12": X carries (2,0),
/// (3,1), (7,2), (7,5) and Y (0,4), (1,3), and from (2,0) `R` "routes to the one closest to node
/// (3,1) which is (3,0)".
#[test]
fn xy_path_example_3_3_1_is_18_links_and_12_hops() {
    let req = Request::parse("mesh:10x10", "0,0", EXAMPLE_3_3_1).unwrap();
    let (plan, m, _) = run("xy-path", &req);
    assert_eq!((m.traffic, m.all_port_time), (18, 12));
    assert_eq!(
        drops(&plan, req.shape()),
        [
            vec![vec![2, 0], vec![3, 1], vec![7, 2], vec![7, 5]],
            vec![vec![0, 4], vec![1, 3]],
        ]
    );
    let x: Vec<Vec<u32>> = plan.send(0).hops[..4]
        .iter()
        .map(|h| req.shape().coords(h.node()))
        .collect();
    assert_eq!(x, [[1, 0], [2, 0], [3, 0], [3, 1]]);
    assert_eq!(
        plan.sends().map(|s| s.hops.len()).collect::<Vec<_>>(),
        [12, 6]
    );
    // eq. 4.3.1: max(d_x, d_y) + L.
    assert_eq!(latency_4_3(&plan, req.shape()), 12 + 20);
}

/// Example 3.3.1's narrative starts the partition with Y, Algorithm 3.3.1 with X (ours). On the
/// square mesh, Y first is X first on the mirrored request: the same 18 links and 12 hops.
#[test]
fn xy_path_example_in_the_narratives_order() {
    let mirrored = EXAMPLE_3_3_1
        .split(' ')
        .map(|d| d.split(',').rev().collect::<Vec<_>>().join(","))
        .collect::<Vec<_>>()
        .join(" ");
    let req = Request::parse("mesh:10x10", "0,0", &mirrored).unwrap();
    let (plan, m, _) = run("xy-path", &req);
    assert_eq!((m.traffic, m.all_port_time), (18, 12));
    // Our Y worm carries the mirror images of the narrative's X destinations, in its order.
    assert_eq!(
        drops(&plan, req.shape())[1],
        [[0, 2], [1, 3], [2, 7], [5, 7]]
    );
}

/// "The same multicast using LIN's algorithm will generate total traffic of 26 links which is
/// also the maximum distance". From label 0, dual-path is the same single worm.
#[test]
fn lin_example_3_3_1_is_26_links_in_one_worm() {
    let req = Request::parse("mesh:10x10", "0,0", EXAMPLE_3_3_1).unwrap();
    let (plan, m, _) = run("lin", &req);
    assert_eq!((m.traffic, m.all_port_time), (26, 26));
    assert_eq!(
        drops(&plan, req.shape()),
        [vec![
            vec![2, 0],
            vec![3, 1],
            vec![7, 2],
            vec![1, 3],
            vec![0, 4],
            vec![7, 5]
        ]]
    );
    assert_eq!(latency_4_3(&plan, req.shape()), 26 + 20);
    assert_eq!(run("dual-path", &req).0, plan);
}

/// No published figure: multi-path on Example 3.3.1 (ours, pinned). From the corner only the two
/// high channels exist; (0,4) alone lies in the source's column.
#[test]
fn multi_path_example_3_3_1() {
    let req = Request::parse("mesh:10x10", "0,0", EXAMPLE_3_3_1).unwrap();
    let (plan, m, _) = run("multi-path", &req);
    assert_eq!(drops(&plan, req.shape())[1], [[0, 4]]);
    assert_eq!((m.traffic, m.all_port_time), (28, 24));
    assert_eq!(latency_4_3(&plan, req.shape()), 24 + 20);
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
        .filter(|h| h.drop())
        .map(|h| snake.label(h.node()))
        .collect();
    let mut sorted = drops.clone();
    sorted.sort_unstable();
    assert_eq!(drops, sorted);
    assert_eq!(drops.len(), 5);
}

/// A request on a 2D mesh, sizes 2–12, up to 40 destinations; the source at the corner (0,0),
/// as XY-path's thesis assumes, or anywhere.
fn mesh_2d_request(corner: bool) -> impl Strategy<Value = Request> {
    (2u32..=12, 2u32..=12)
        .prop_flat_map(move |(m, n)| {
            let len = (m * n) as usize;
            let source = if corner { 0..1 } else { 0..len };
            let picks = prop::collection::vec(0..len, 1..=40);
            (Just(Shape::mesh(&[m, n]).unwrap()), source, picks)
        })
        .prop_map(|(shape, source, mut picks)| {
            picks.retain(|&i| i != source);
            picks.sort_unstable();
            picks.dedup();
            if picks.is_empty() {
                picks.push((source + 1) % shape.len());
            }
            let node = |i| shape.node_at(i).unwrap();
            let dests = picks.into_iter().map(node).collect();
            Request::new(shape.clone(), node(source), dests).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// From the corner: at most two worms, one on X and one on Y, which share no node but the
    /// source; and Proposition 3.3.5 — `R` on a base path takes a shortest path between
    /// consecutive destinations — so the traffic is Proposition 3.3.7's sum of distances.
    #[test]
    fn xy_path_from_the_corner_is_two_disjoint_worms_with_shortest_legs(req in mesh_2d_request(true)) {
        let (plan, m, _) = run("xy-path", &req);
        prop_assert!(plan.send_count() <= 2);
        prop_assert!(worms_from_the_source_drop_at_destinations(&plan));
        let worms: Vec<Vec<Node>> = plan.sends().map(|s| stops(&s)[1..].to_vec()).collect();
        if let [x, y] = &worms[..] {
            prop_assert!(x.iter().all(|n| !y.contains(n)));
        }
        let sum: u32 = plan.sends().map(|s| legs(req.shape(), &s)).sum();
        prop_assert_eq!(m.traffic, sum);
    }

    /// Any source: the mesh zones give at most two worms per submesh, all from the source.
    #[test]
    fn xy_path_from_any_source_sends_at_most_eight_worms(req in mesh_2d_request(false)) {
        let (plan, _, _) = run("xy-path", &req);
        prop_assert!(plan.send_count() <= 8);
        prop_assert!(worms_from_the_source_drop_at_destinations(&plan));
    }
}
