//! The legend box: every symbol the drawing can use, with one or two lines of explanation.
//! Wraparound and z-layer entries appear only when the shape has them; a path-based plan lists
//! its worms, each with its colour.

use svg::node::element::{Group, Rectangle};

use super::layout::{px, Layout, LEGEND_W, P};
use super::sends::worm_summary;
use super::shapes::{self, Role, GRID, MUTED};
use crate::report::RouteReport;

/// Most worms the legend names one by one.
const MAX_WORMS: usize = 12;

const ROW_H: f64 = 26.0;
const LINE_H: f64 = 14.0;
const TEXT_X: f64 = 58.0;

/// One legend entry: a sample drawing centred on a point, and its explanation.
struct Entry {
    sample: Box<dyn Fn(P) -> Group>,
    lines: Vec<String>,
}

fn entry(sample: impl Fn(P) -> Group + 'static, lines: &[&str]) -> Entry {
    Entry {
        sample: Box::new(sample),
        lines: lines.iter().map(|l| l.to_string()).collect(),
    }
}

fn node(role: Role, lines: &'static [&'static str]) -> Entry {
    entry(move |at| shapes::node_symbol(at, role), lines)
}

/// A short horizontal link sample across the symbol column.
fn link_sample(at: P, tree: bool) -> Group {
    let a = at - P::new(20.0, 0.0);
    let b = at + P::new(20.0, 0.0);
    if tree {
        Group::new()
            .add(shapes::tree_line(a, b))
            .add(shapes::hop_label(a.mid(at), 4))
    } else {
        Group::new().add(shapes::line(a, b, GRID, 1.0))
    }
}

/// The entries of a drawing of `r` on `layout`.
fn entries(layout: &Layout, r: &RouteReport) -> Vec<Entry> {
    let mut out = match r.kind.as_str() {
        "path" => worm_entries(r),
        "unicast" => unicast_entries(r),
        _ => tree_entries(),
    };
    out.push(entry(|at| link_sample(at, false), &["network link"]));
    // Unicasts are drawn sender to receiver, so they cross no wraparound link or z-hop.
    let routes = r.kind != "unicast";
    if routes && (layout.wraps[0] || layout.wraps[1]) {
        out.push(wraparound(r.kind == "tree"));
    }
    if routes && layout.k[2] > 1 {
        out.push(z_hop(r.kind == "tree"));
    }
    out
}

/// A hop along z: a badge on both nodes, with the tree's hop number or the worm's hop count so
/// far.
fn z_hop(tree: bool) -> Entry {
    let badge = move |at: P| {
        let badge = if tree {
            shapes::z_badge(at, 1, 3)
        } else {
            shapes::z_badge_in(at, 1, 3, shapes::colour(0))
        };
        Group::new().add(badge)
    };
    Entry {
        sample: Box::new(badge),
        lines: vec![
            "hop to the next z-layer (\u{25b6}) or the".to_string(),
            "previous one (\u{25c0}), on both its nodes".to_string(),
        ],
    }
}

/// The nodes and links of a multicast tree.
fn tree_entries() -> Vec<Entry> {
    vec![
        node(Role::Source, &["source"]),
        node(
            Role::Replicate { dest: false },
            &["replicate node, not a destination"],
        ),
        node(
            Role::Replicate { dest: true },
            &["replicate node and destination"],
        ),
        node(Role::Passerby, &["passerby node (forwards to one)"]),
        node(Role::Destination, &["destination, not a replicate node"]),
        node(Role::Off, &["node not on the tree"]),
        entry(
            |at| link_sample(at, true),
            &[
                "tree link; the number is the hop",
                "(one-port time) it is crossed at",
            ],
        ),
    ]
}

/// The nodes of a path-based plan, then every worm in its colour (the first [`MAX_WORMS`]).
fn worm_entries(r: &RouteReport) -> Vec<Entry> {
    let mut out = vec![
        node(Role::Source, &["source"]),
        node(Role::Destination, &["destination"]),
        node(Role::Passerby, &["on a worm, keeps no copy"]),
        node(Role::Off, &["node no worm passes"]),
        entry(
            |at| {
                let ring = shapes::drop_ring(at, 0);
                let count = shapes::label_in(at + P::new(13.0, 11.0), "5", shapes::colour(0));
                Group::new().add(ring).add(count)
            },
            &[
                "a worm drops a copy here; the",
                "number is its hops from the sender",
            ],
        ),
    ];
    for (i, send) in r.sends.iter().enumerate().take(MAX_WORMS) {
        let sample = move |at: P| {
            let (a, b) = (at - P::new(20.0, 0.0), at + P::new(20.0, 0.0));
            Group::new().add(shapes::worm_line(a, b, i))
        };
        out.push(Entry {
            sample: Box::new(sample),
            lines: vec![worm_summary(i, send)],
        });
    }
    if r.sends.len() > MAX_WORMS {
        let more = format!("and {} more worms", r.sends.len() - MAX_WORMS);
        out.push(Entry {
            sample: Box::new(|_| Group::new()),
            lines: vec![more, "(colours repeat every 10)".to_string()],
        });
    }
    out
}

/// The nodes of a unicast-based plan, then the colour of every step (the first [`MAX_WORMS`]).
fn unicast_entries(r: &RouteReport) -> Vec<Entry> {
    let mut out = vec![
        node(Role::Source, &["source"]),
        node(Role::Destination, &["destination"]),
        node(Role::Off, &["neither (routes: see --json)"]),
    ];
    let steps = r.metrics.steps.unwrap_or(0) as usize;
    for i in 0..steps.min(MAX_WORMS) {
        let sample = move |at: P| {
            let (a, b) = (at - P::new(22.0, -4.0), at + P::new(22.0, 4.0));
            let (curve, mid) = shapes::unicast_curve(a, b, i);
            let label = shapes::label_in(mid, &(i + 1).to_string(), shapes::colour(i));
            Group::new().add(curve).add(label)
        };
        let n = r
            .sends
            .iter()
            .filter(|s| s.step == Some(i as u32 + 1))
            .count();
        out.push(Entry {
            sample: Box::new(sample),
            lines: vec![format!(
                "step {}: {n} unicast{} (sender \u{2192} receiver)",
                i + 1,
                if n == 1 { "" } else { "s" }
            )],
        });
    }
    if steps > MAX_WORMS {
        out.push(Entry {
            sample: Box::new(|_| Group::new()),
            lines: vec![format!("and {} more steps", steps - MAX_WORMS)],
        });
    }
    out
}

/// A wraparound link, taken by a tree link (with its hop number) or by a worm.
fn wraparound(tree: bool) -> Entry {
    let stub = move |at: P| {
        let a = at - P::new(20.0, 0.0);
        let b = at + P::new(4.0, 0.0);
        let dashed = shapes::line(a, at + P::new(20.0, 0.0), GRID, 1.0);
        let g = Group::new().add(dashed.set("stroke-dasharray", "3 3"));
        if tree {
            g.add(shapes::tree_line(a, b))
                .add(shapes::hop_label(at + P::new(15.0, 0.0), 2))
        } else {
            g.add(shapes::worm_line(a, b, 0))
        }
    };
    entry(
        stub,
        &[
            "wraparound link: a stub leaves one",
            "edge and re-enters the opposite one",
        ],
    )
}

/// The legend with its top-left corner at `at`, and its height.
pub fn legend(at: P, layout: &Layout, r: &RouteReport) -> (Group, f64) {
    let mut g = Group::new();
    let mut y = at.y + 30.0;
    g = g.add(
        shapes::text(P::new(at.x + 12.0, at.y + 14.0), "Legend", 13.0, "start")
            .set("font-weight", "bold"),
    );
    for e in entries(layout, r) {
        let h = ROW_H + LINE_H * (e.lines.len() as f64 - 1.0);
        let mid = y + h / 2.0;
        g = g.add((e.sample)(P::new(at.x + 30.0, mid)));
        for (i, line) in e.lines.iter().enumerate() {
            let ty = mid + LINE_H * (i as f64 - (e.lines.len() as f64 - 1.0) / 2.0);
            g = g.add(shapes::text(P::new(at.x + TEXT_X, ty), line, 11.5, "start"));
        }
        y += h;
    }
    let note = if layout.k[1] > 1 {
        "x grows to the right, y upward"
    } else {
        "x grows to the right"
    };
    g = g.add(shapes::text(P::new(at.x + 12.0, y + 12.0), note, 11.0, "start").set("fill", MUTED));
    let height = y + 26.0 - at.y;
    let frame = Rectangle::new()
        .set("x", px(at.x))
        .set("y", px(at.y))
        .set("width", LEGEND_W)
        .set("height", px(height))
        .set("rx", 4)
        .set("fill", "#fafafa")
        .set("stroke", "#999999");
    (Group::new().add(frame).add(g), height)
}
