//! Every worked example of seeds 000 and 001 with its published traffic and time.
//!
//! Where a faithful implementation cannot give the published number, the test pins ours and
//! docs/REPRODUCTION.md gives the cause with evidence. Nothing here is tuned to hit a number.

use std::collections::BTreeSet;

use meshcast::algo::Request;
use meshcast::experiment::worked::WORKED_EXAMPLES;
use meshcast::plan::Plan;
use meshcast::topology::Shape;

use crate::run;

/// Our (traffic, one-port time with the paper's schedule, one-port time with the optimal
/// schedule) where they differ from the published figure. Each row is a row of the
/// "worked examples" table of docs/REPRODUCTION.md.
const DEVIATIONS: &[(&str, u32, u32, u32)] = &[
    // seed 000 states no port order; its times equal our optimal-schedule times.
    ("seed 000 Example 1 (Fig. 4)", 25, 13, 12),
    ("seed 000 Example 1 (Fig. 8)", 17, 13, 12),
    ("seed 000 Example 3 (Fig. 19)", 21, 7, 6),
    ("seed 000 Example 3 (Fig. 26)", 20, 7, 6),
    // DIST: 17 links as published, but no port order gives 17 hops for a 17-link tree of depth 12.
    ("seed 000 Example 1 (Fig. 6)", 17, 13, 12),
    // PAIR Example 2: XY routing gives 35 links (34 needs a Y-first hop, contradicting Fig. 20).
    ("seed 000 Example 2 (Fig. 14)", 35, 19, 17),
    // pair-min: the closest tree node to (9,3) is (2,3), 7 hops away; the figure uses (3,1), 8 away.
    ("seed 000 Fig. 21 (MIN on the same)", 20, 14, 13),
    ("seed 000 Example 2 (Fig. 25)", 29, 19, 17),
];

#[test]
fn every_worked_example_matches_the_paper_or_its_documented_deviation() {
    for w in WORKED_EXAMPLES {
        let outcome = w.run().unwrap();
        let (paper, optimal) = (outcome.paper_schedule, outcome.optimal_schedule);
        let ours = (paper.traffic, paper.one_port_time, optimal.one_port_time);
        match DEVIATIONS.iter().find(|d| d.0 == w.figure) {
            Some(&(_, traffic, time, best)) => {
                assert_eq!(ours, (traffic, time, best), "{}", w.figure);
                assert!(
                    !outcome.matches(),
                    "{} now matches: drop its deviation",
                    w.figure
                );
                assert!(!w.note.is_empty(), "{} needs a note saying why", w.figure);
            }
            None => {
                assert!(w.traffic.is_some() || w.time.is_some(), "{}", w.figure);
                assert!(outcome.matches(), "{}: ours {ours:?}", w.figure);
            }
        }
    }
}

#[test]
fn every_deviation_names_a_worked_example() {
    for d in DEVIATIONS {
        assert!(WORKED_EXAMPLES.iter().any(|w| w.figure == d.0), "{}", d.0);
    }
}

/// The links of a plan as coordinate pairs.
fn links(plan: &Plan, shape: &Shape) -> BTreeSet<(Vec<u32>, Vec<u32>)> {
    plan.sends()
        .flat_map(|s| {
            let mut at = s.from;
            s.hops.iter().map(move |h| {
                let link = (shape.coords(at), shape.coords(h.node()));
                at = h.node();
                link
            })
        })
        .collect()
}

/// The links of dimension-ordered routes `a ⇒ b` (X first), as the papers list a tree's steps.
fn xy_routes(shape: &Shape, steps: &[([u32; 2], [u32; 2])]) -> BTreeSet<(Vec<u32>, Vec<u32>)> {
    let mut out = BTreeSet::new();
    for &(from, to) in steps {
        let mut at = from;
        for d in 0..2 {
            while at[d] != to[d] {
                let mut next = at;
                let k = shape.dims()[d];
                let forward = (to[d] + k - at[d]) % k;
                let torus = shape.kind() == meshcast::topology::Kind::Torus;
                next[d] = if (torus && forward <= k / 2) || (!torus && to[d] > at[d]) {
                    (at[d] + 1) % k
                } else {
                    (at[d] + k - 1) % k
                };
                out.insert((at.to_vec(), next.to_vec()));
                at = next;
            }
        }
    }
    out
}

fn example_1(topology: &str) -> Request {
    Request::parse(topology, "0,0", "0,2 3,0 4,0 4,6 6,6 7,4").unwrap()
}

/// seed 001 §3.2.1.3: "s(0,0) ⇒ d(7,6) (along the diagonal path), s ⇒ d1(0,2), (1,0) ⇒ d2(3,0),
/// d2 ⇒ d3(4,0), (4,4) ⇒ d4(4,6), (5,4) ⇒ d5(7,4)", with the tail after (6,6) cut.
#[test]
fn diag_example_tree_is_the_papers_link_for_link() {
    let req = example_1("mesh:8x8");
    let (plan, _, _) = run("diag", &req);
    let stem = [
        [0, 0],
        [1, 0],
        [1, 1],
        [2, 1],
        [2, 2],
        [3, 2],
        [3, 3],
        [4, 3],
        [4, 4],
        [5, 4],
        [5, 5],
        [6, 5],
        [6, 6],
    ];
    let mut steps: Vec<([u32; 2], [u32; 2])> = stem.windows(2).map(|w| (w[0], w[1])).collect();
    steps.extend([
        ([0, 0], [0, 2]),
        ([1, 0], [3, 0]),
        ([3, 0], [4, 0]),
        ([4, 4], [4, 6]),
        ([5, 4], [7, 4]),
    ]);
    assert_eq!(links(&plan, req.shape()), xy_routes(req.shape(), &steps));
}

/// seed 001 §3.2.2.4 lists the DDS steps; the last, (6,4) ⇒ (6,6), ties with (4,6) ⇒ (6,6)
/// (both 2 hops). We join at the earliest-inserted node, (4,6): same traffic and time.
#[test]
fn dds_example_tree_is_the_papers_but_for_one_tie() {
    let req = example_1("mesh:8x8");
    let (plan, _, _) = run("dds", &req);
    let common = [
        ([0, 0], [0, 2]),
        ([0, 0], [3, 0]),
        ([3, 0], [4, 0]),
        ([4, 0], [4, 6]),
        ([4, 4], [7, 4]),
    ];
    let mut ours = common.to_vec();
    ours.push(([4, 6], [6, 6]));
    let mut papers = common.to_vec();
    papers.push(([6, 4], [6, 6]));
    let got = links(&plan, req.shape());
    assert_eq!(got, xy_routes(req.shape(), &ours));
    assert_eq!(got.len(), xy_routes(req.shape(), &papers).len());
}

/// seed 001 §3.2.1.4: zone 1 (0,0) ⇒ (0,2), (0,0) ⇒ (3,0); zone 2 (7,0) ⇒ (4,0); zone 4
/// (7,7) ⇒ (6,6), (7,7) ⇒ (7,4), (6,6) ⇒ (4,6); joined by (0,0) ⇒ (7,0) ⇒ (7,7).
#[test]
fn diag_torus_example_tree_is_the_papers_link_for_link() {
    let req = example_1("torus:8x8");
    let (plan, _, _) = run("diag", &req);
    let steps = [
        ([0, 0], [0, 2]),
        ([0, 0], [3, 0]),
        ([7, 0], [4, 0]),
        ([7, 7], [6, 6]),
        ([7, 7], [7, 4]),
        ([6, 6], [4, 6]),
        ([0, 0], [7, 0]),
        ([7, 0], [7, 7]),
    ];
    assert_eq!(links(&plan, req.shape()), xy_routes(req.shape(), &steps));
}

/// seed 000 §3.2.2, Example 2: the intermediate nodes (2,2), (4,3), (5,5), (7,7), (9,8).
#[test]
fn pair_example_2_passes_through_the_papers_intermediate_nodes() {
    let req = Request::parse("mesh:10x9", "0,0", "3,2 9,3 8,5 4,7 7,7 2,8 5,8 9,8").unwrap();
    let (plan, _, _) = run("pair", &req);
    let reached: BTreeSet<Vec<u32>> = plan
        .sends()
        .flat_map(|s| s.hops.iter().map(|h| req.shape().coords(h.node())))
        .collect();
    for c in [[2, 2], [4, 3], [5, 5], [7, 7], [9, 8]] {
        assert!(reached.contains(c.as_slice()), "{c:?}");
    }
}

/// seed 000 Proposition 2 claims MIN (pair-min) reaches every destination on a shortest path;
/// Steps 4–5 join at the closest tree node anywhere, and here that node lies beyond the
/// destination: (3,2) hangs off (2,3) and is reached after 7 hops, though 5 hops from the source.
#[test]
fn pair_min_breaks_its_shortest_path_claim() {
    let req = Request::parse("mesh:5x5", "0,0", "1,1 3,2 2,3 0,4").unwrap();
    let info = meshcast::algo::find("pair-min").unwrap();
    let plan = info.route(&req).unwrap();
    assert_eq!(plan.validate(req.shape(), false), Ok(()));
    let err = plan.validate(req.shape(), true).unwrap_err().to_string();
    assert!(
        err.contains("(3,2) is reached after 7 hops but is 5 hops"),
        "{err}"
    );
}

/// seed 001 §3.2.3 says MIN (Harutyunyan) is not a shortest-path algorithm; DIST neither.
#[test]
fn min_and_dist_are_not_shortest_path() {
    for (name, dests) in [("min", "3,0 4,3 3,4"), ("dist", "1,2 0,4")] {
        let req = Request::parse("mesh:5x5", "0,0", dests).unwrap();
        let plan = meshcast::algo::find(name).unwrap().route(&req).unwrap();
        assert!(plan.validate(req.shape(), true).is_err(), "{name}");
    }
}

/// seed 000 §2.2.1 and seed 001 Fig. 3.2.1.8 disagree on VH's time for Example 1 (12 vs 13):
/// X-first priority gives 13, the optimal order 12.
#[test]
fn vh_example_time_is_13_with_x_first_and_12_at_best() {
    let (_, paper, optimal) = run("vh", &example_1("mesh:8x8"));
    assert_eq!((paper.one_port_time, optimal.one_port_time), (13, 12));
}

/// seed 001 §3.2.1.4: VH on the 8×8 torus differs from DIAG's 17 links by one link.
#[test]
fn vh_torus_example_is_one_link_off_diag() {
    let (_, vh, _) = run("vh", &example_1("torus:8x8"));
    assert_eq!(vh.traffic.abs_diff(17), 1);
}

/// docs/ALGORITHMS.md lists every algorithm of the registry.
#[test]
fn the_algorithm_docs_list_every_registry_row() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/ALGORITHMS.md"
    ))
    .unwrap();
    for info in meshcast::algo::REGISTRY {
        assert!(
            doc.contains(&format!("| `{}` |", info.name)),
            "{}",
            info.name
        );
    }
}

/// seed 001 §3.1.1, Figure 3.1.1: a source inside the mesh, s(3,4), destinations in all four
/// submeshes. Every shortest-path algorithm reaches each destination at its distance.
#[test]
fn source_inside_the_mesh_splits_into_four_submeshes() {
    let req = Request::parse("mesh:8x8", "3,4", "1,2 1,5 4,1 6,2 6,5").unwrap();
    for info in meshcast::algo::REGISTRY.iter().filter(|a| a.shortest_path) {
        let (_, m, _) = run(info.name, &req);
        assert_eq!(m.all_port_time, 5, "{}", info.name);
    }
}
