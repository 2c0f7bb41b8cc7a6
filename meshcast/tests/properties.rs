//! Property tests: every algorithm over random shapes (1D–4D, mesh and torus, sizes 2–12),
//! random sources and random destination sets.

use meshcast::algo::{Request, REGISTRY};
use meshcast::topology::{Kind, Shape};
use proptest::prelude::*;

use crate::run;

/// Largest node count a random shape may have: keeps each case fast while allowing 12×12×12.
const MAX_NODES: u32 = 2000;

fn shape() -> impl Strategy<Value = Shape> {
    (1usize..=4, any::<bool>())
        .prop_flat_map(|(rank, torus)| (prop::collection::vec(2u32..=12, rank), Just(torus)))
        .prop_filter("node count", |(dims, _)| {
            dims.iter().product::<u32>() <= MAX_NODES
        })
        .prop_map(|(dims, torus)| {
            let kind = if torus { Kind::Torus } else { Kind::Mesh };
            Shape::new(kind, &dims).unwrap()
        })
}

pub(crate) fn request() -> impl Strategy<Value = Request> {
    shape().prop_flat_map(|shape| {
        let n = shape.len();
        let picks = prop::collection::vec(0..n, 1..=n.min(40));
        (Just(shape), 0..n, picks).prop_map(move |(shape, source, picks)| {
            let mut dests: Vec<usize> = picks.into_iter().filter(|&d| d != source).collect();
            dests.sort_unstable();
            dests.dedup();
            if dests.is_empty() {
                dests.push((source + 1) % n);
            }
            let node = |i| shape.node_at(i).unwrap();
            let dests = dests.into_iter().map(node).collect();
            Request::new(shape.clone(), node(source), dests).unwrap()
        })
    })
}

fn origin_request() -> impl Strategy<Value = Request> {
    request().prop_map(|r| {
        let origin = r.shape().node(&vec![0; r.shape().rank()]).unwrap();
        let dests = r.destinations().iter().copied().filter(|&d| d != origin);
        let mut dests: Vec<_> = dests.collect();
        if dests.is_empty() {
            dests.push(r.shape().node_at(1).unwrap());
        }
        Request::new(r.shape().clone(), origin, dests).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every plan validates (shortest paths checked where the algorithm keeps them); traffic is at
    /// least K; the optimal schedule keeps the tree and never loses to the paper's order; the
    /// one-port time exceeds the longest path by at most K − 1 (one wait per extra leaf).
    #[test]
    fn every_algorithm_gives_a_valid_plan(req in request()) {
        let k = req.destinations().len() as u32;
        let farthest = req.destinations().iter()
            .map(|&d| req.shape().distance(req.source(), d)).max().unwrap();
        for info in REGISTRY.iter().filter(|a| a.support.covers(req.shape())) {
            let (plan, paper, optimal) = run(info.name, &req);
            prop_assert!(paper.traffic >= k, "{}", info.name);
            prop_assert_eq!(paper.additional_traffic, paper.traffic - k);
            prop_assert!(paper.all_port_time <= paper.one_port_time);
            prop_assert!(paper.one_port_time < paper.all_port_time + k, "{}", info.name);
            prop_assert!(optimal.one_port_time <= paper.one_port_time, "{}", info.name);
            prop_assert_eq!(optimal.traffic, paper.traffic);
            prop_assert_eq!(optimal.all_port_time, paper.all_port_time);
            if info.shortest_path {
                prop_assert_eq!(paper.all_port_time, farthest, "{}", info.name);
            }
            let again = info.route(&req).unwrap();
            prop_assert_eq!(&again, &plan, "{} is not deterministic", info.name);
        }
    }

    /// A destination set is a set: listing it in another order gives the same sends.
    #[test]
    fn plans_do_not_depend_on_destination_order(req in request()) {
        let mut reversed = req.destinations().to_vec();
        reversed.reverse();
        let rev = Request::new(req.shape().clone(), req.source(), reversed).unwrap();
        for info in REGISTRY.iter().filter(|a| a.support.covers(req.shape())) {
            let a = info.route(&req).unwrap();
            let b = info.route(&rev).unwrap();
            let sends = |p: &meshcast::plan::Plan| {
                p.sends().map(|s| (s.from, s.hops.to_vec())).collect::<Vec<_>>()
            };
            prop_assert_eq!(sends(&a), sends(&b), "{}", info.name);
        }
    }

    /// seed 001 §3.2.1.1: VH's multicast time in a 2D mesh is at most D_max + 1.
    #[test]
    fn vh_time_in_a_2d_mesh_is_at_most_one_over_the_farthest(req in origin_request()) {
        prop_assume!(req.shape().rank() == 2 && req.shape().kind() == Kind::Mesh);
        let (_, paper, _) = run("vh", &req);
        prop_assert!(paper.one_port_time <= paper.all_port_time + 1);
    }
}
