//! Route one multicast with every algorithm of the registry, validate each plan, measure it, and
//! draw DIAG's tree as text: seed 001's Example 3.2.1.1 (an 8×8 mesh, source (0,0), six
//! destinations) through the library alone. The SVG drawings of `meshcast route --svg` live in
//! the command line; this draws with characters.
//!
//! Run: `cargo run -p meshcast --example route`. It checks every plan with the validator (and the
//! shortest-path property where the registry claims it), and the numbers seed 001 publishes for
//! DIAG (21 links, 12 hops).

use meshcast::algo::{Request, REGISTRY};
use meshcast::eval::Metrics;
use meshcast::plan::Plan;
use meshcast::schedule::Schedule;
use meshcast::topology::Shape;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let req = Request::parse("mesh:8x8", "0,0", "4,6 6,6 0,2 4,0 3,0 7,4")?;
    let shape = req.shape();
    println!(
        "store-and-forward one-port time in hops, with the paper's port order and the optimal one:"
    );
    println!(
        "{:<12} {:<8} {:>6} {:>6} {:>8}",
        "algorithm", "family", "links", "paper", "optimal"
    );
    for info in REGISTRY.iter().filter(|a| a.support.covers(shape)) {
        let plan = info.route(&req)?;
        plan.validate(shape, info.shortest_path)?;
        let paper = Metrics::of(&plan, shape);
        let best = Metrics::of(&Schedule::Optimal.apply(plan, shape), shape);
        assert!(best.one_port_time <= paper.one_port_time, "{}", info.name);
        assert!(
            paper.traffic >= 6,
            "{}: every destination needs a link",
            info.name
        );
        println!(
            "{:<12} {:<8} {:>6} {:>6} {:>8}",
            info.name,
            info.family.to_string(),
            paper.traffic,
            paper.one_port_time,
            best.one_port_time
        );
    }
    let diag = meshcast::algo::find("diag")?.route(&req)?;
    let m = Metrics::of(&diag, shape);
    assert_eq!(
        (m.traffic, m.one_port_time),
        (21, 12),
        "seed 001 Example 3.2.1.1"
    );
    println!("\nDIAG's tree (S source, D destination, + relay; y grows upwards):\n");
    print!("{}", draw(&diag, shape));
    Ok(())
}

/// A 2D plan as characters: one cell per node, `-` and `|` for the links it uses.
fn draw(plan: &Plan, shape: &Shape) -> String {
    let (w, h) = (shape.dims()[0] as usize, shape.dims()[1] as usize);
    let mut grid = vec![vec![' '; 2 * w - 1]; 2 * h - 1];
    for y in 0..h {
        for x in 0..w {
            grid[2 * y][2 * x] = '.';
        }
    }
    let at = |node| {
        let c = shape.coords(node);
        (2 * c[0] as usize, 2 * c[1] as usize)
    };
    for send in plan.sends() {
        let mut from = at(send.from);
        for hop in send.hops {
            let to = at(hop.node());
            let link = if from.1 == to.1 { '-' } else { '|' };
            grid[(from.1 + to.1) / 2][(from.0 + to.0) / 2] = link;
            grid[to.1][to.0] = '+';
            from = to;
        }
    }
    for &d in plan.destinations() {
        let (x, y) = at(d);
        grid[y][x] = 'D';
    }
    let (x, y) = at(plan.source());
    grid[y][x] = 'S';
    grid.iter()
        .rev()
        .map(|row| row.iter().collect::<String>().trim_end().to_string() + "\n")
        .collect()
}
