//! The exact solvers (`meshcast::exact`) against brute force on tiny instances, and every
//! heuristic against them: no plan may use fewer links than the optimum it competes with.

use std::collections::VecDeque;

use meshcast::algo::{Request, REGISTRY};
use meshcast::eval::Metrics;
use meshcast::exact;
use meshcast::plan::{Plan, PlanKind};
use meshcast::schedule::Schedule;
use meshcast::topology::{Kind, Node, Shape};
use meshcast::workload::{random_destinations, seeded};
use proptest::prelude::*;

/// What brute force over every tree that holds the source finds for one request: the fewest
/// links of a tree holding every destination (MST), of one where moreover every destination is at
/// its distance (OMT), and the least one-port time of a shortest-path tree whose leaves are all
/// destinations. (A least connected subgraph is a tree, so trees are all that need looking at.)
struct Brute {
    mst: u32,
    omt: u32,
    one_port: u32,
}

fn brute(req: &Request) -> Brute {
    let mut best = Brute {
        mst: u32::MAX,
        omt: u32::MAX,
        one_port: u32::MAX,
    };
    let shape = req.shape();
    let mut depth = vec![u32::MAX; shape.len()];
    depth[req.source().index()] = 0;
    let frontier: Vec<(Node, Node)> = shape
        .links_from(req.source())
        .map(|(_, w)| (req.source(), w))
        .collect();
    subtrees(
        req,
        &mut depth,
        &mut Vec::new(),
        frontier,
        &mut |edges, depth| {
            let dests = req.destinations();
            if dests.iter().any(|d| depth[d.index()] == u32::MAX) {
                return;
            }
            let size = edges.len() as u32;
            best.mst = best.mst.min(size);
            if dests
                .iter()
                .any(|&d| depth[d.index()] != shape.distance(req.source(), d))
            {
                return;
            }
            best.omt = best.omt.min(size);
            let mut plan = Plan::new(PlanKind::Tree, req.source(), dests.to_vec());
            for &(a, b) in edges {
                plan.push_edge(a, b);
            }
            if plan.validate(shape, true).is_ok() {
                let plan = Schedule::Optimal.apply(plan, shape);
                best.one_port = best.one_port.min(Metrics::of(&plan, shape).one_port_time);
            }
        },
    );
    best
}

/// Call `visit` once with every tree that holds the source: the tree so far is `edges` (parent
/// first, in the order added) with `depth` set on its nodes; `frontier` holds the links from it to
/// nodes outside that may still be added. Each link is either taken or dropped for good, so no
/// tree is met twice.
fn subtrees(
    req: &Request,
    depth: &mut Vec<u32>,
    edges: &mut Vec<(Node, Node)>,
    mut frontier: Vec<(Node, Node)>,
    visit: &mut impl FnMut(&[(Node, Node)], &[u32]),
) {
    frontier.retain(|&(_, w)| depth[w.index()] == u32::MAX);
    let Some((v, w)) = frontier.pop() else {
        visit(edges, depth);
        return;
    };
    subtrees(req, depth, edges, frontier.clone(), visit);
    depth[w.index()] = depth[v.index()] + 1;
    edges.push((v, w));
    let mut grown = frontier;
    grown.extend(req.shape().links_from(w).map(|(_, x)| (w, x)));
    subtrees(req, depth, edges, grown, visit);
    edges.pop();
    depth[w.index()] = u32::MAX;
}

/// Shortest walk from the source through every destination, and the shortest closed one: breadth
/// first over (node, destinations visited).
fn brute_walks(req: &Request) -> (u32, u32) {
    let shape = req.shape();
    let k = req.destinations().len();
    let bit = |v: Node| {
        req.destinations()
            .iter()
            .position(|&d| d == v)
            .map_or(0, |i| 1usize << i)
    };
    let full = (1usize << k) - 1;
    let mut dist = vec![u32::MAX; shape.len() << k];
    let start = req.source().index() << k;
    dist[start] = 0;
    let mut queue = VecDeque::from([(req.source(), 0usize)]);
    let (mut path, mut cycle) = (u32::MAX, u32::MAX);
    while let Some((v, seen)) = queue.pop_front() {
        let here = dist[(v.index() << k) | seen];
        if seen == full {
            path = path.min(here);
            if v == req.source() {
                cycle = cycle.min(here);
            }
        }
        for (_, w) in shape.links_from(v) {
            let next = seen | bit(w);
            let cell = &mut dist[(w.index() << k) | next];
            if *cell == u32::MAX {
                *cell = here + 1;
                queue.push_back((w, next));
            }
        }
    }
    (path, cycle)
}

/// `count` random requests on `shape` with 1..=`max_k` destinations, from a fixed seed.
fn requests(shape: &Shape, count: usize, max_k: usize, seed: u64) -> Vec<Request> {
    use rand::RngExt;
    let mut rng = seeded(seed);
    (0..count)
        .map(|_| {
            let source = shape.node_at(rng.random_range(0..shape.len())).unwrap();
            let k = rng.random_range(1..=max_k.min(shape.len() - 1));
            let dests = random_destinations(shape, source, k, &mut rng).unwrap();
            Request::new(shape.clone(), source, dests).unwrap()
        })
        .collect()
}

fn check_against_brute(topology: &str, count: usize) {
    let shape: Shape = topology.parse().unwrap();
    for req in requests(&shape, count, 6, 7) {
        let want = brute(&req);
        let omt = exact::omt(&req).unwrap();
        omt.validate(req.shape(), true).unwrap();
        assert_eq!(omt.traffic(), want.omt, "OMT {req:?}");
        let mst = exact::mst(&req).unwrap();
        mst.validate(req.shape(), false).unwrap();
        assert_eq!(mst.traffic(), want.mst, "MST {req:?}");
        let fastest = exact::one_port(&req).unwrap();
        fastest.validate(req.shape(), true).unwrap();
        let time = Metrics::of(&fastest, req.shape()).one_port_time;
        assert_eq!(time, want.one_port, "one-port {req:?}");
        let (path, cycle) = brute_walks(&req);
        let omp = exact::omp(&req).unwrap();
        omp.validate(req.shape(), false).unwrap();
        assert_eq!((omp.send_count(), omp.traffic()), (1, path), "OMP {req:?}");
        assert_eq!(exact::omc(&req).unwrap().length, cycle, "OMC {req:?}");
    }
}

#[test]
fn exact_solvers_agree_with_brute_force_on_a_3x3_mesh() {
    check_against_brute("mesh:3x3", 40);
}

#[test]
fn exact_solvers_agree_with_brute_force_on_a_3x3_torus() {
    check_against_brute("torus:3x3", 20);
}

#[test]
fn exact_solvers_agree_with_brute_force_on_a_2x2x2_mesh() {
    check_against_brute("mesh:2x2x2", 20);
}

#[test]
fn seed_001_example_optima() {
    let req = Request::parse("mesh:8x8", "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap();
    let omt = exact::omt(&req).unwrap();
    let mst = exact::mst(&req).unwrap();
    // DIAG needs 21 links and DDS 17 on this example (seed 001 Example 3.2.1.1, §3.2.2.4).
    assert_eq!((omt.traffic(), mst.traffic()), (17, 17));
    assert_eq!(exact::omp(&req).unwrap().traffic(), brute_walks(&req).0);
}

#[test]
fn too_large_requests_are_refused_with_the_limit() {
    let shape: Shape = "mesh:8x8".parse().unwrap();
    let source = shape.node_at(0).unwrap();
    let dests = random_destinations(&shape, source, 17, &mut seeded(1)).unwrap();
    let req = Request::new(shape, source, dests).unwrap();
    for err in [
        exact::omt(&req).unwrap_err(),
        exact::mst(&req).unwrap_err(),
        exact::omp(&req).unwrap_err(),
        exact::omc(&req).unwrap_err(),
    ] {
        assert!(err.to_string().contains("at most 16"), "{err}");
    }
    // No tree reaches (2,0), (0,2) and (1,1) from (0,0) by time 2, so the search must prove it.
    let tight = Request::parse("mesh:12x12", "0,0", "2,0 0,2 1,1").unwrap();
    let err = exact::one_port::one_port_within(&tight, 2).unwrap_err();
    assert!(err.to_string().contains("more than 2 partial"), "{err}");
    let fastest = exact::one_port(&tight).unwrap();
    assert_eq!(Metrics::of(&fastest, tight.shape()).one_port_time, 3);
}

fn small_request() -> impl Strategy<Value = Request> {
    (1usize..=3, any::<bool>(), any::<u64>())
        .prop_flat_map(|(rank, torus, seed)| {
            (
                prop::collection::vec(2u32..=6, rank),
                Just(torus),
                Just(seed),
                1usize..=8,
            )
        })
        .prop_filter("node count", |(dims, ..)| {
            dims.iter().product::<u32>() <= 64
        })
        .prop_map(|(dims, torus, seed, k)| {
            let kind = if torus { Kind::Torus } else { Kind::Mesh };
            let shape = Shape::new(kind, &dims).unwrap();
            let k = k.min(shape.len() - 1);
            requests(&shape, 1, k, seed).pop().unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// No plan uses fewer links than the MST; no shortest-path plan fewer than the OMT; no
    /// one-worm plan fewer than the OMP; no shortest-path tree is faster (one-port, best port
    /// order) than the exact one-port optimum.
    #[test]
    fn every_heuristic_is_at_least_the_optimum(req in small_request()) {
        let shape = req.shape();
        let omt = exact::omt(&req).unwrap();
        let mst = exact::mst(&req).unwrap();
        let omp = exact::omp(&req).unwrap();
        prop_assert!(mst.traffic() <= omt.traffic());
        prop_assert!(omp.traffic() >= mst.traffic());
        prop_assert!(exact::omc(&req).unwrap().length >= omp.traffic());
        let fastest = exact::one_port(&req).ok().map(|p| Metrics::of(&p, shape).one_port_time);
        for info in REGISTRY.iter().filter(|a| a.support.covers(shape)) {
            let plan = info.route(&req).unwrap();
            prop_assert!(plan.traffic() >= mst.traffic(), "{} below the MST", info.name);
            if info.shortest_path {
                prop_assert!(plan.traffic() >= omt.traffic(), "{} below the OMT", info.name);
            }
            if plan.send_count() == 1 && plan.kind() == PlanKind::Path {
                prop_assert!(plan.traffic() >= omp.traffic(), "{} below the OMP", info.name);
            }
            if let (Some(best), true) = (fastest, info.shortest_path && plan.kind() == PlanKind::Tree) {
                let time = Metrics::of(&Schedule::Optimal.apply(plan, shape), shape).one_port_time;
                prop_assert!(time >= best, "{} faster than the optimum", info.name);
            }
        }
    }

    /// RSA plans validate with shortest paths, on any shape and source.
    #[test]
    fn rsa_plans_are_valid_shortest_path_trees(req in crate::properties::request()) {
        let plan = meshcast::algo::find("rsa").unwrap().route(&req).unwrap();
        prop_assert_eq!(plan.kind(), PlanKind::Tree);
        prop_assert!(plan.validate(req.shape(), true).is_ok());
    }
}
