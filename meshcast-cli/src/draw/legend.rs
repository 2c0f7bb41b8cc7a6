//! The legend box: every symbol the drawing can use, with one or two lines of explanation.
//! Wraparound and z-layer entries appear only when the shape has them.

use svg::node::element::{Group, Rectangle};

use super::layout::{px, Layout, LEGEND_W, P};
use super::shapes::{self, Role, GRID, MUTED};

const ROW_H: f64 = 26.0;
const LINE_H: f64 = 14.0;
const TEXT_X: f64 = 58.0;

/// One legend entry: a sample drawing centred on a point, and its explanation.
struct Entry {
    sample: Box<dyn Fn(P) -> Group>,
    lines: &'static [&'static str],
}

fn entry(sample: impl Fn(P) -> Group + 'static, lines: &'static [&'static str]) -> Entry {
    Entry {
        sample: Box::new(sample),
        lines,
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

fn entries(layout: &Layout) -> Vec<Entry> {
    let mut out = vec![
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
        entry(|at| link_sample(at, false), &["network link"]),
    ];
    if layout.wraps[0] || layout.wraps[1] {
        let stub = |at: P| {
            let a = at - P::new(20.0, 0.0);
            let b = at + P::new(4.0, 0.0);
            Group::new()
                .add(
                    shapes::line(a, at + P::new(20.0, 0.0), GRID, 1.0)
                        .set("stroke-dasharray", "3 3"),
                )
                .add(shapes::tree_line(a, b))
                .add(shapes::hop_label(at + P::new(15.0, 0.0), 2))
        };
        out.push(entry(
            stub,
            &[
                "wraparound link: a stub leaves one",
                "edge and re-enters the opposite one",
            ],
        ));
    }
    if layout.k[2] > 1 {
        let badge = |at: P| Group::new().add(shapes::z_badge(at, 1, 3));
        out.push(entry(
            badge,
            &[
                "hop to the next z-layer (\u{25b6}) or the",
                "previous one (\u{25c0}), on both its nodes",
            ],
        ));
    }
    out
}

/// The legend with its top-left corner at `at`, and its height.
pub fn legend(at: P, layout: &Layout) -> (Group, f64) {
    let mut g = Group::new();
    let mut y = at.y + 30.0;
    g = g.add(
        shapes::text(P::new(at.x + 12.0, at.y + 14.0), "Legend", 13.0, "start")
            .set("font-weight", "bold"),
    );
    for e in entries(layout) {
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
