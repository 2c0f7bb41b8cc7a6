//! Unicast-based multicast: seed 002's Figure 5 with its published numbers, its Theorems 1–3 on
//! the routing function and on its algorithm's plans, the step bounds of seed 002, U-mesh and
//! U-torus, and the counter-examples docs/REPRODUCTION.md cites.

use meshcast::algo::{self, Params, Request, REGISTRY};
use meshcast::contention::{sharing_pairs, Contention};
use meshcast::eval::{message_steps, Ports, Steps};
use meshcast::experiment::seed002::{end_source_bound, step_bound, FIGURE_5};
use meshcast::plan::Plan;
use meshcast::route::hamiltonian::{route, Snake};
use meshcast::topology::{Kind, Node, Shape};
use proptest::prelude::*;

use crate::properties::request;
use crate::run;

/// ⌈log₂(m + 1)⌉: U-mesh's and U-torus's one-port steps for `m` destinations.
fn log2_steps(m: usize) -> u32 {
    (m + 1).next_power_of_two().trailing_zeros()
}

fn with_ports(req: &Request, ports: u32) -> Request {
    req.clone()
        .with_params(Params {
            ports,
            ..Params::default()
        })
        .unwrap()
}

/// One unicast per destination, each ending at a distinct destination and leaving its copy
/// there only.
fn one_unicast_per_destination(plan: &Plan) -> bool {
    let mut ends: Vec<Node> = plan
        .sends()
        .map(|s| {
            let last = s.hops.last().unwrap();
            let drops = s.hops.iter().filter(|h| h.drop()).count();
            if drops == 1 && last.drop() {
                last.node()
            } else {
                plan.source()
            }
        })
        .collect();
    ends.sort_unstable();
    let mut dests = plan.destinations().to_vec();
    dests.sort_unstable();
    ends == dests
}

/// The schedule of seed 002 Figure 4 for a two-port plan: a node uses one port for the low
/// channels and one for the high ("parbegin … send a message through a low channel … through a
/// high channel … parend"), so it sends, in port order, at most one unicast each way per step —
/// where the d-port model of `message_steps` would fill the idle port with a second unicast the
/// same way.
fn figure_4_steps(plan: &Plan, shape: &Shape) -> Steps {
    let snake = Snake::new(shape);
    let mut held = vec![u32::MAX; shape.len()];
    held[plan.source().index()] = 0;
    // Per sender: the step it is filling and the directions (low, high) already used in it.
    let mut filling = vec![(0u32, [false; 2]); shape.len()];
    let mut steps = Vec::new();
    for send in plan.sends() {
        let v = send.from.index();
        let end = send.hops.last().unwrap().node();
        let up = usize::from(snake.label(end) > snake.label(send.from));
        let (step, used) = &mut filling[v];
        if *step <= held[v] {
            *step = held[v] + 1;
            *used = [false; 2];
        }
        if used[up] {
            *step += 1;
            *used = [false; 2];
        }
        used[up] = true;
        steps.push(*step);
        held[end.index()] = *step;
    }
    Steps::given(plan, shape, steps).unwrap()
}

#[test]
fn figure_5_two_steps_as_published() {
    let shape: Shape = FIGURE_5.topology.parse().unwrap();
    let node = |c: &str| shape.parse_node(c).unwrap();
    let req = Request::new(
        shape.clone(),
        node(FIGURE_5.source),
        shape.parse_nodes(FIGURE_5.destinations).unwrap(),
    )
    .unwrap();
    let (plan, _, _) = run("multiport", &req);
    assert!(one_unicast_per_destination(&plan));
    let steps = message_steps(&plan, &shape, Ports::Multi(2));
    assert_eq!(steps, FIGURE_5.steps);
    let paper = figure_4_steps(&plan, &shape);
    assert_eq!(paper.completion(&plan), FIGURE_5.steps);
    assert!(Contention::under(&plan, &shape, &paper).is_free());
    assert!(Contention::of(&plan, &shape, Ports::Multi(2)).is_free());

    // The source's unicasts: D_lower and D_upper in step 1, then (5,2) alone in step 2.
    let from_source: Vec<(Node, u32)> = plan
        .sends()
        .enumerate()
        .filter(|(_, s)| s.from == req.source())
        .map(|(i, s)| (s.hops.last().unwrap().node(), paper.send(i)))
        .collect();
    let [lower, upper] = FIGURE_5.first_step.map(node);
    assert_eq!(from_source[1], (upper, 1), "D_upper as published");
    assert_eq!(from_source[2], (node(FIGURE_5.second_step), 2));
    assert_eq!(from_source.len(), 3);
    // D_lower is the centre of φ_l = the three lowest labels, which Definition 1 orders
    // (3,1) = 8, (0,1) = 11, (2,2) = 14; the printed chain has (0,1) before (3,1), and the
    // centre of that order is the published (3,1). Ours is the centre by label, (0,1).
    let snake = Snake::new(&shape);
    let printed = shape.parse_nodes(FIGURE_5.chain).unwrap();
    assert!(snake.label(printed[0]) > snake.label(printed[1]));
    assert_eq!((printed[1], from_source[0]), (lower, (node("0,1"), 1)));
}

/// seed 002's ⌈log₃ 2(m + 1)⌉ for a source at an end of the chain, on the Figure 5 mesh.
#[test]
fn source_at_an_end_of_the_chain_needs_at_most_log3_of_2_m_plus_1_steps() {
    let shape: Shape = "mesh:6x6".parse().unwrap();
    let snake = Snake::new(&shape);
    for m in 1..=35u32 {
        for source in [snake.node(0).unwrap(), snake.node(m).unwrap()] {
            let dests = (0..=m)
                .map(|l| snake.node(l).unwrap())
                .filter(|&v| v != source)
                .collect();
            let req = Request::new(shape.clone(), source, dests).unwrap();
            let (plan, _, _) = run("multiport", &req);
            let steps = figure_4_steps(&plan, &shape).completion(&plan);
            assert!(steps <= end_source_bound(m), "m {m}: {steps} steps");
        }
    }
}

fn shape_2d() -> impl Strategy<Value = Shape> {
    (2u32..=14, 2u32..=14, any::<bool>()).prop_map(|(a, b, torus)| {
        let kind = if torus { Kind::Torus } else { Kind::Mesh };
        Shape::new(kind, &[a, b]).unwrap()
    })
}

fn request_2d() -> impl Strategy<Value = Request> {
    shape_2d().prop_flat_map(|shape| {
        let n = shape.len();
        let picks = prop::collection::vec(0..n, 1..=n.min(90));
        (Just(shape), 0..n, picks).prop_map(|(shape, source, picks)| {
            let mut dests: Vec<usize> = picks.into_iter().filter(|&d| d != source).collect();
            dests.sort_unstable();
            dests.dedup();
            if dests.is_empty() {
                dests.push((source + 1) % shape.len());
            }
            let node = |i| shape.node_at(i).unwrap();
            let dests = dests.into_iter().map(node).collect();
            Request::new(shape.clone(), node(source), dests).unwrap()
        })
    })
}

/// Whether two routes (each its sender, then its nodes) cross a common directed channel.
fn share_a_channel(a: &[Node], b: &[Node]) -> bool {
    let channels =
        |r: &[Node]| -> Vec<(Node, Node)> { r.windows(2).map(|w| (w[0], w[1])).collect() };
    let cb = channels(b);
    channels(a).iter().any(|c| cb.contains(c))
}

fn r_route(snake: &Snake, u: Node, v: Node) -> Vec<Node> {
    std::iter::once(u).chain(route(snake, u, v)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// seed 002 Theorem 1: for labels x < y < z, the messages y→x and y→z share no channel;
    /// Theorems 2–3: for u < v < x < y, neither u→v and x→y nor v→u and y→x do. The paper
    /// states them for 2D meshes; they hold in 2D tori too, since `R` only ever climbs (or
    /// descends) labels there as well.
    #[test]
    fn theorems_1_to_3_hold_for_the_routing_function(
        shape in shape_2d(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 4),
    ) {
        let snake = Snake::new(&shape);
        let mut labels: Vec<u32> = picks.iter().map(|i| i.index(shape.len()) as u32).collect();
        labels.sort_unstable();
        labels.dedup();
        let n: Vec<Node> = labels.iter().map(|&l| snake.node(l).unwrap()).collect();
        if n.len() >= 3 {
            let (x, y, z) = (n[0], n[1], n[2]);
            prop_assert!(!share_a_channel(&r_route(&snake, y, x), &r_route(&snake, y, z)));
        }
        if n.len() == 4 {
            let (u, v, x, y) = (n[0], n[1], n[2], n[3]);
            prop_assert!(!share_a_channel(&r_route(&snake, u, v), &r_route(&snake, x, y)));
            prop_assert!(!share_a_channel(&r_route(&snake, v, u), &r_route(&snake, y, x)));
        }
    }

    /// Every multiport plan, d = 1…4: one unicast per destination, and at most
    /// ⌈log_{d+1}(m + 1)⌉ + 1 message-passing steps under the d-port model (d = 1: U-mesh's
    /// ⌈log₂(m + 1)⌉). With two ports and Figure 4's schedule the plan is within the bound and
    /// free of stepwise and depth contention, as Theorems 1–3 promise; with one port too.
    #[test]
    fn multiport_plans_keep_the_step_bound_and_the_theorems(req in request_2d()) {
        let m = req.destinations().len();
        for d in 1..=4u32 {
            let req = with_ports(&req, d);
            let (plan, _, _) = run("multiport", &req);
            let shape = req.shape();
            prop_assert!(one_unicast_per_destination(&plan));
            let steps = message_steps(&plan, shape, Ports::Multi(d));
            prop_assert!(steps <= step_bound(m as u32, d), "d {}: {} steps for m {}", d, steps, m);
            if d == 1 {
                prop_assert!(steps <= log2_steps(m));
                prop_assert!(Contention::of(&plan, shape, Ports::One).is_free());
            }
            if d == 2 {
                let paper = figure_4_steps(&plan, shape);
                prop_assert!(paper.completion(&plan) <= step_bound(m as u32, 2));
                let c = Contention::under(&plan, shape, &paper);
                prop_assert!(c.is_free(), "{:?}", c);
            }
        }
    }

    /// `sharing_pairs` against brute force: every pair of sends, of every algorithm's plan,
    /// whose routes have a directed channel in common.
    #[test]
    fn sharing_pairs_are_the_pairs_with_a_common_channel(req in request()) {
        for info in REGISTRY.iter().filter(|a| a.support.covers(req.shape())) {
            let plan = info.route(&req).unwrap();
            let routes: Vec<Vec<Node>> = plan
                .sends()
                .map(|s| std::iter::once(s.from).chain(s.hops.iter().map(|h| h.node())).collect())
                .collect();
            let mut brute = Vec::new();
            for a in 0..routes.len() {
                for b in a + 1..routes.len() {
                    if share_a_channel(&routes[a], &routes[b]) {
                        brute.push((a, b));
                    }
                }
            }
            prop_assert_eq!(sharing_pairs(&plan, req.shape()), brute, "{}", info.name);
        }
    }

    /// U-mesh (meshes of 1–4 dimensions): one unicast per destination, exactly ⌈log₂(m + 1)⌉
    /// one-port steps, no stepwise or depth contention. U-torus: the same step count.
    /// Separate addressing: K one-port steps, ⌈K/d⌉ with d ports, free of contention one-port.
    #[test]
    fn u_mesh_u_torus_and_separate_addressing(req in request()) {
        let shape = req.shape();
        let m = req.destinations().len();
        let name = match shape.kind() {
            Kind::Mesh => "u-mesh",
            Kind::Torus => "u-torus",
        };
        let (plan, _, _) = run(name, &req);
        prop_assert!(one_unicast_per_destination(&plan));
        prop_assert_eq!(message_steps(&plan, shape, Ports::One), log2_steps(m));
        if shape.kind() == Kind::Mesh {
            let c = Contention::of(&plan, shape, Ports::One);
            prop_assert!(c.is_free(), "{:?}", c);
        }
        let (plan, _, _) = run("separate", &req);
        prop_assert!(one_unicast_per_destination(&plan));
        prop_assert_eq!(message_steps(&plan, shape, Ports::One), m as u32);
        prop_assert_eq!(message_steps(&plan, shape, Ports::Multi(3)), m.div_ceil(3) as u32);
        prop_assert_eq!(message_steps(&plan, shape, Ports::All), 1);
        prop_assert!(Contention::of(&plan, shape, Ports::One).is_free());
    }
}

/// The d-port model sends a node's unicasts `d` per step in port order. Where Figure 4 leaves a
/// port idle — the source (0,1) is last in the chain, so it has only a low side — the model
/// sends its second unicast beside the first, over the same first channel: one step sooner
/// than the paper counts, with stepwise contention the paper's schedule does not have.
#[test]
fn the_d_port_model_fills_the_port_figure_4_leaves_idle() {
    let req = Request::parse("mesh:4x4", "0,1", "2,1 3,1 1,1").unwrap();
    let shape = req.shape();
    let (plan, _, _) = run("multiport", &req);
    let paper = figure_4_steps(&plan, shape);
    assert_eq!(paper.completion(&plan), 2);
    assert!(Contention::under(&plan, shape, &paper).is_free());
    let model = Steps::new(&plan, shape, Ports::Multi(2));
    assert_eq!((model.send(0), model.send(1)), (1, 1));
    assert_eq!(
        Contention::under(&plan, shape, &model),
        Contention {
            stepwise: 1,
            depth: 0
        }
    );
    assert_eq!(sharing_pairs(&plan, shape), [(0, 1)]);
}

/// U-torus with the torus's shortest-way dimension-ordered routes: a unicast between two
/// destinations can wrap round (or take the tie-breaking way) and cross the channels of
/// another segment of the chain, which never happens in U-mesh. Here (2,0)→(0,0), a tie in a
/// ring of 4, goes through (1,0) while (1,0) sends on through (0,0) in the same step.
#[test]
fn u_torus_unicasts_can_share_physical_channels() {
    let req = Request::parse("torus:4x4", "0,2", "0,1 2,0 2,2 1,0 0,0 3,3").unwrap();
    let shape = req.shape();
    let (plan, _, _) = run("u-torus", &req);
    assert_eq!(message_steps(&plan, shape, Ports::One), 3);
    let c = Contention::of(&plan, shape, Ports::One);
    assert_eq!((c.stepwise, c.depth), (1, 0));
}

/// seed 002 covers 2D meshes and tori; other dimensions are refused by name, as U-mesh is on a
/// torus and U-torus on a mesh.
#[test]
fn unicast_algorithms_refuse_shapes_their_papers_do_not_cover() {
    for (name, topology, source, dests) in [
        ("multiport", "mesh:4x4x4", "0,0,0", "1,1,1"),
        ("multiport", "torus:9", "0", "4"),
        ("u-mesh", "torus:4x4", "0,0", "1,1"),
        ("u-torus", "mesh:4x4", "0,0", "1,1"),
    ] {
        let req = Request::parse(topology, source, dests).unwrap();
        let e = algo::find(name)
            .unwrap()
            .route(&req)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("'{name}' does not support {topology}")),
            "{e}"
        );
    }
}
