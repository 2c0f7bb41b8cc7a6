//! A tree algorithm defined outside the crate, through its public paths only: written for a
//! mesh with the source at its origin, it runs on tori, on any source and in any dimension
//! through [`lift`], gets an `Algorithm` for free, and sits in a registry row of its own.
//!
//! The algorithm, *farthest first*: destinations in order of decreasing distance from the
//! origin, each joined to the closest tree node in its zone `{origin ⇔ u}` — so every
//! destination is reached along a shortest path, which the validator checks.
//!
//! Run: `cargo run -p meshcast --example extension`. It validates every plan (shortest paths
//! included) and pins the numbers of one torus multicast.

use meshcast::algo::local::{LocalTree, Reach};
use meshcast::algo::reduce::{lift, ZoneAlgorithm};
use meshcast::algo::{AlgoInfo, Request, Support};
use meshcast::eval::Metrics;
use meshcast::plan::PlanKind;
use meshcast::topology::Shape;

/// Farthest destination first, each joined within its zone.
struct FarthestFirst;

impl ZoneAlgorithm for FarthestFirst {
    fn grow(&self, tree: &mut LocalTree<'_>, dests: &[u32]) {
        let grid = tree.grid();
        let distance = |u: u32| (0..grid.rank()).map(|d| grid.coord(u, d)).sum::<u32>();
        let mut order = dests.to_vec();
        order.sort_by_key(|&u| (std::cmp::Reverse(distance(u)), u));
        for u in order {
            tree.join(u, Reach::InZone);
        }
    }
}

/// Its registry row: the support check and the debug-build validation of `AlgoInfo::route`.
static FARTHEST_FIRST: AlgoInfo = AlgoInfo {
    name: "farthest-first",
    family: PlanKind::Tree,
    paper: "an example of an extension (meshcast/examples/extension.rs)",
    support: Support {
        mesh: true,
        torus: true,
        only_dims: None,
    },
    model: "store-and-forward, one-port",
    shortest_path: true,
    summary:
        "destinations by decreasing distance, each joined to the closest tree node in its zone",
    algorithm: &FarthestFirst,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // One torus multicast, source away from the origin: the zones do the wraparound.
    let req = Request::parse("torus:8x8", "3,5", "0,0 7,7 3,1 6,5 1,6 4,4 2,2")?;
    let plan = lift(&FarthestFirst, &req);
    plan.validate(req.shape(), true)?;
    let m = Metrics::of(&plan, req.shape());
    println!(
        "torus:8x8 from (3,5): {} links, {} hops one-port, {} hops all-port",
        m.traffic, m.one_port_time, m.all_port_time
    );
    assert_eq!((m.traffic, m.one_port_time, m.all_port_time), (21, 8, 6));
    // The same through the registry row.
    assert_eq!(FARTHEST_FIRST.route(&req)?, plan);

    // Meshes and tori of 1 to 3 dimensions, sources inside, destinations every 5th node.
    for (topology, source) in [
        ("mesh:9", "4"),
        ("mesh:7x6", "3,4"),
        ("torus:5x5x5", "2,0,4"),
        ("mesh:4x5x6", "3,2,1"),
        ("torus:10x3", "9,2"),
    ] {
        let shape: Shape = topology.parse()?;
        let source = shape.parse_node(source)?;
        let dests = shape
            .nodes()
            .filter(|&n| n != source && n.index() % 5 == 2)
            .collect();
        let req = Request::new(shape, source, dests)?;
        let plan = FARTHEST_FIRST.route(&req)?;
        plan.validate(req.shape(), true)?;
        let m = Metrics::of(&plan, req.shape());
        println!(
            "{topology} from {}: {} destinations, {} links, {} hops",
            req.shape().fmt_node(req.source()),
            req.destinations().len(),
            m.traffic,
            m.one_port_time
        );
    }
    Ok(())
}
