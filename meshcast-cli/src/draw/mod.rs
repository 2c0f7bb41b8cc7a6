//! `--svg`: the multicast tree of a [`RouteReport`] drawn on its mesh or torus, with the node
//! symbols of seed 001 Figure 3.1.3, a hop number on every tree link, a title and a legend.
//! A path-based plan is drawn as its worms instead ([`sends`]): one colour per worm along its
//! route, a ring and the hop count at each destination it drops a copy at; a unicast-based plan
//! as arrows from sender to receiver, coloured and labelled by message-passing step.
//!
//! 1D shapes are one row; 2D shapes a grid with x to the right and y upward; 3D shapes a row of
//! z-layers (z = 0, 1, … left to right), a hop along z marked by a badge on both its nodes.
//! A torus wraparound link is a stub leaving one edge of the grid and one entering the opposite
//! edge. Shapes of 4 or more dimensions are refused.

mod layout;
mod legend;
mod page;
mod sends;
mod shapes;

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{bail, Result};
use meshcast::topology::Shape;
use svg::node::element::{Group, Rectangle};
use svg::Document;

use crate::report::RouteReport;
use crate::text;
use layout::{Layout, HEAD_GAP, P, STUB, STUB_LABEL, TAIL_GAP};
pub use page::vocabulary_module;
use shapes::{Role, GRID, MUTED};

/// Most dimensions a drawing shows.
const MAX_RANK: usize = 3;
/// Most nodes a drawing shows (a 64×64 mesh, a 16×16×16 one).
const MAX_NODES: usize = 4096;

/// Fail unless `shape` can be drawn: at most 3 dimensions and 4096 nodes.
pub fn check_drawable(shape: &Shape) -> Result<()> {
    if shape.rank() > MAX_RANK {
        bail!(
            "--svg: drawing supports meshes and tori of 1 to {MAX_RANK} dimensions, \
             and {shape} has {}",
            shape.rank()
        );
    }
    if shape.len() > MAX_NODES {
        bail!(
            "--svg: drawing supports at most {MAX_NODES} nodes, and {shape} has {}",
            shape.len()
        );
    }
    Ok(())
}

/// The drawing of `report`, routed on `shape` (which passed [`check_drawable`]).
pub fn render(shape: &Shape, report: &RouteReport) -> Document {
    let layout = Layout::new(shape);
    let (lines, labels) = match report.kind.as_str() {
        "path" => sends::worms(&layout, report),
        "unicast" => sends::unicasts(&layout, report),
        _ => tree(&layout, report),
    };
    let legend_at = P::new(layout.legend_left(), layout.legend_top());
    let (legend, legend_h) = legend::legend(legend_at, &layout, report);
    let title = title(report);
    let width = (legend_at.x + layout::LEGEND_W + 16.0).max(title.1);
    let height = (layout.x_labels_y() + 34.0).max(legend_at.y + legend_h + 16.0);
    let background = Rectangle::new()
        .set("width", "100%")
        .set("height", "100%")
        .set("fill", "white");
    Document::new()
        .set("width", layout::px(width))
        .set("height", layout::px(height))
        .set("viewBox", (0, 0, layout::px(width), layout::px(height)))
        .set("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")
        .add(shapes::arrow_marker(report.kind != "tree"))
        .add(background)
        .add(grid(&layout, shape.rank()))
        .add(lines)
        .add(nodes(&layout, shape.rank(), report))
        .add(labels)
        .add(axes(&layout, shape.rank()))
        .add(title.0)
        .add(legend)
}

/// The two title lines, and the width they need.
fn title(r: &RouteReport) -> (Group, f64) {
    let n = r.destinations.len();
    let first = format!(
        "{} on {}: source {}, {n} destination{}",
        r.algorithm,
        r.topology,
        text::node(&r.source),
        if n == 1 { "" } else { "s" }
    );
    let m = &r.metrics;
    let second = match (&r.wormhole, m.wormhole_latency) {
        (Some(model), Some(latency)) => format!(
            "traffic {} (additional {}) \u{b7} wormhole latency {latency} cycles ({model}) \u{b7} {} {}{}",
            m.traffic,
            m.additional_traffic,
            r.sends.len(),
            if r.kind == "path" { "worm" } else { "unicast" },
            if r.sends.len() == 1 { "" } else { "s" }
        ) + &m.steps.map_or_else(String::new, |n| format!(" in {n} steps")),
        _ => format!(
            "traffic {} (additional {}) \u{b7} one-port time {} \u{b7} all-port time {} \u{b7} {} schedule",
            m.traffic, m.additional_traffic, m.one_port_time, m.all_port_time, r.schedule
        ),
    };
    let width =
        40.0 + (first.chars().count() as f64 * 9.5).max(second.chars().count() as f64 * 7.2);
    let g = Group::new()
        .add(shapes::text(P::new(20.0, 22.0), &first, 16.0, "start").set("font-weight", "bold"))
        .add(shapes::text(P::new(20.0, 44.0), &second, 13.0, "start"));
    (g, width)
}

/// The network: thin grey links inside each layer, dashed stubs for wraparound links.
fn grid(layout: &Layout, rank: usize) -> Group {
    let mut g = Group::new();
    for c in layout.nodes(rank) {
        let at = layout.pos(&c);
        for dim in 0..rank.min(2) {
            let k = layout.k[dim];
            if c[dim] + 1 < k {
                let mut next = c.clone();
                next[dim] += 1;
                g = g.add(shapes::line(at, layout.pos(&next), GRID, 1.0));
            }
            if layout.wraps[dim] && (c[dim] == 0 || c[dim] == k - 1) {
                let sign = if c[dim] == 0 { -1 } else { 1 };
                let end = at + Layout::step(dim, sign) * STUB;
                g = g.add(shapes::line(at, end, GRID, 1.0).set("stroke-dasharray", "3 3"));
            }
        }
    }
    g
}

/// What every node on the plan is; nodes missing from the map are off it. Worms and unicasts do
/// not replicate: a node on a worm is the source, a destination or a passerby; a unicast-based
/// plan shows the source and the destinations only.
fn roles(r: &RouteReport) -> BTreeMap<&[u32], Role> {
    if r.kind == "tree" {
        return tree_roles(r);
    }
    let dests: BTreeSet<&[u32]> = r.destinations.iter().map(Vec::as_slice).collect();
    // A unicast's route is not drawn, so the nodes it passes are not marked.
    let drawn = r.sends.iter().filter(|_| r.kind == "path");
    let on_routes = drawn.flat_map(|s| &s.route).map(Vec::as_slice);
    let mut roles: BTreeMap<&[u32], Role> = on_routes.map(|c| (c, Role::Passerby)).collect();
    roles.extend(dests.iter().map(|&d| (d, Role::Destination)));
    roles.insert(&r.source, Role::Source);
    roles
}

/// What every node on the tree is: source, replicate, passerby or destination.
fn tree_roles(r: &RouteReport) -> BTreeMap<&[u32], Role> {
    let mut next: BTreeMap<&[u32], BTreeSet<&[u32]>> = BTreeMap::new();
    for l in &r.links {
        next.entry(&l.from).or_default().insert(&l.to);
        next.entry(&l.to).or_default();
    }
    let dests: BTreeSet<&[u32]> = r.destinations.iter().map(Vec::as_slice).collect();
    next.into_iter()
        .map(|(node, out)| {
            let dest = dests.contains(node);
            let role = if node == r.source.as_slice() {
                Role::Source
            } else if out.len() > 1 {
                Role::Replicate { dest }
            } else if dest {
                Role::Destination
            } else {
                Role::Passerby
            };
            (node, role)
        })
        .collect()
}

/// Every node's symbol.
fn nodes(layout: &Layout, rank: usize, r: &RouteReport) -> Group {
    let roles = roles(r);
    layout.nodes(rank).fold(Group::new(), |g, c| {
        let role = roles.get(c.as_slice()).copied().unwrap_or(Role::Off);
        g.add(shapes::node_symbol(layout.pos(&c), role))
    })
}

/// How a link is drawn: its dimension, its direction, and whether it wraps around.
fn classify(from: &[u32], to: &[u32]) -> (usize, i64, bool) {
    let dim = (0..from.len()).find(|&d| from[d] != to[d]).unwrap_or(0);
    let diff = i64::from(to[dim]) - i64::from(from[dim]);
    if diff.abs() == 1 {
        (dim, diff, false)
    } else {
        (dim, -diff.signum(), true)
    }
}

/// The tree: its lines (drawn under the nodes) and its hop labels and badges (drawn over them).
fn tree(layout: &Layout, r: &RouteReport) -> (Group, Group) {
    let mut lines = Group::new();
    let mut labels = Group::new();
    // Badges already placed on each side of each node, so the next one stacks above them.
    let mut badges: BTreeMap<(&[u32], i64), u32> = BTreeMap::new();
    for l in &r.links {
        let (p, q) = (layout.pos(&l.from), layout.pos(&l.to));
        match classify(&l.from, &l.to) {
            (2, sign, _) => {
                for (node, at, side) in [(&l.from, p, sign), (&l.to, q, -sign)] {
                    let count = badges.entry((node, side)).or_default();
                    let badge_at = Layout::z_badge_at(at, side, *count);
                    *count += 1;
                    labels = labels.add(shapes::z_badge(badge_at, sign, l.hop));
                }
            }
            (dim, sign, true) => {
                let u = Layout::step(dim, sign);
                lines = lines
                    .add(shapes::tree_line(p + u * TAIL_GAP, p + u * STUB))
                    .add(shapes::tree_line(q - u * STUB, q - u * HEAD_GAP));
                labels = labels
                    .add(shapes::hop_label(p + u * (STUB + STUB_LABEL), l.hop))
                    .add(shapes::hop_label(q - u * (STUB + STUB_LABEL), l.hop));
            }
            (_, _, false) => {
                let u = p.toward(q);
                lines = lines.add(shapes::tree_line(p + u * TAIL_GAP, q - u * HEAD_GAP));
                labels = labels.add(shapes::hop_label(p.mid(q), l.hop));
            }
        }
    }
    (lines, labels)
}

/// Coordinates along the axes, axis names, and the z-layer names.
fn axes(layout: &Layout, rank: usize) -> Group {
    let label = |at: P, s: &str, anchor: &str| shapes::text(at, s, 11.0, anchor).set("fill", MUTED);
    let mut g = Group::new();
    for z in 0..layout.k[2] {
        for x in 0..layout.k[0] {
            let at = P::new(layout.pos(&[x, 0, z]).x, layout.x_labels_y());
            g = g.add(label(at, &x.to_string(), "middle"));
        }
        let centre = layout.pos(&[(layout.k[0] - 1) / 2, 0, z]).x
            + if layout.k[0].is_multiple_of(2) {
                layout::CELL / 2.0
            } else {
                0.0
            };
        if rank >= 3 {
            let at = P::new(centre, layout.layer_names_y());
            let name =
                shapes::text(at, &format!("z = {z}"), 13.0, "middle").set("font-weight", "bold");
            g = g.add(name);
        }
        g = g.add(label(
            P::new(centre, layout.x_labels_y() + 16.0),
            "x \u{2192}",
            "middle",
        ));
    }
    if rank >= 2 {
        for y in 0..layout.k[1] {
            let at = P::new(layout.y_labels_x(), layout.pos(&[0, y]).y);
            g = g.add(label(at, &y.to_string(), "end"));
        }
        let at = P::new(layout.y_labels_x(), layout.top() - 26.0);
        g = g.add(label(at, "y \u{2191}", "end"));
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_classified_by_dimension_direction_and_wraparound() {
        assert_eq!(classify(&[3, 4], &[4, 4]), (0, 1, false));
        assert_eq!(classify(&[3, 4], &[3, 3]), (1, -1, false));
        assert_eq!(classify(&[7, 0], &[0, 0]), (0, 1, true));
        assert_eq!(classify(&[0, 0], &[0, 7]), (1, -1, true));
        assert_eq!(classify(&[1, 2, 3], &[1, 2, 2]), (2, -1, false));
        assert_eq!(classify(&[1, 2, 0], &[1, 2, 2]), (2, -1, true));
    }

    #[test]
    fn drawable_shapes_stop_at_three_dimensions_and_4096_nodes() {
        let ok = |t: &str| check_drawable(&t.parse().unwrap()).is_ok();
        assert!(ok("torus:7") && ok("mesh:64x64") && ok("mesh:16x16x16"));
        assert!(!ok("hypercube:4") && !ok("mesh:65x64"));
    }
}
