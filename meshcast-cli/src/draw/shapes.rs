//! The drawing vocabulary: node symbols of seed 001 Figure 3.1.3, tree links with arrowheads,
//! hop-number labels, z-layer hop badges, grid lines and text; for path- and unicast-based plans,
//! the same in one colour per worm (or step) from [`PALETTE`], drop rings and curved unicast
//! arrows. Each function returns one SVG element placed at page coordinates.

use svg::node::element::{
    Circle, Definitions, Group, Line, Marker, Path, Polygon, Rectangle, Text,
};

use super::layout::{px, HEAD_GAP, NODE_R, P, TAIL_GAP};

/// Colour of the tree: links, arrowheads, hop numbers.
pub const TREE: &str = "#1f4e9c";
/// Colour of the node symbols.
pub const INK: &str = "#222222";
/// Colour of the network links and of nodes off the tree.
pub const GRID: &str = "#c4c4c4";
/// Colour of coordinates and secondary text.
pub const MUTED: &str = "#555555";
/// Colours of worms (path-based plans) and of message-passing steps (unicast-based plans), told
/// apart on white and by most colour-blind readers; used in turn, then again from the first.
pub const PALETTE: [&str; 10] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7b3294", "#8c510a",
    "#b2182b", "#4d4d4d",
];

/// Width of a tree link's or a worm's line.
pub const LINK_W: f64 = 2.5;
/// Width of a unicast's curve.
pub const UNICAST_W: f64 = 2.2;
/// A unicast's curve bows out by this share of its length, within [`BOW_MIN`]..=[`BOW_MAX`].
pub const BOW: f64 = 0.18;
/// The least bow of a unicast's curve.
pub const BOW_MIN: f64 = 10.0;
/// The greatest bow of a unicast's curve.
pub const BOW_MAX: f64 = 60.0;
/// Radius of the ring a worm draws round a node it drops a copy at.
pub const DROP_RING_R: f64 = NODE_R + 4.5;
/// A label's box is this wide with no text, and [`LABEL_CHAR_W`] wider per character.
pub const LABEL_PAD: f64 = 6.0;
/// The width a character adds to a label's box.
pub const LABEL_CHAR_W: f64 = 7.0;
/// Height of a label's box.
pub const LABEL_H: f64 = 14.0;
/// Font size of a label.
pub const LABEL_FONT: f64 = 11.0;
/// Side of the source's square.
pub const SOURCE_SIDE: f64 = 2.0 * NODE_R + 4.0;
/// Radius of the white ring inside the source's square.
pub const SOURCE_RING_R: f64 = NODE_R - 1.0;
/// Radius of the inner circle of the source's and a replicate node's double circle.
pub const INNER_R: f64 = NODE_R * 0.55;
/// Radius of a passerby's or a destination's circle.
pub const SMALL_R: f64 = NODE_R * 0.8;
/// Radius of the dot of a node off the plan.
pub const OFF_R: f64 = 2.5;
/// Stroke width of the node symbols' circles.
pub const SYMBOL_STROKE: f64 = 1.6;
/// Fill of a tree's z-hop badge (a worm's is white).
pub const Z_TINT: &str = "#e3ecfa";
/// A z-hop badge is this wide with no digits, and [`Z_DIGIT_W`] wider per digit.
pub const Z_BADGE_W: f64 = 14.0;
/// The width a digit adds to a z-hop badge.
pub const Z_DIGIT_W: f64 = 6.5;
/// Height of a z-hop badge.
pub const Z_BADGE_H: f64 = 13.0;
/// Font size of a z-hop badge's number.
pub const Z_FONT: f64 = 10.0;
/// From a z-hop badge's left edge to the flat side of its triangle pointing right (the tip of
/// one pointing left).
pub const Z_ARROW_FLAT: f64 = 4.0;
/// From a z-hop badge's left edge to the tip of its triangle pointing right (the flat side of one
/// pointing left).
pub const Z_ARROW_TIP: f64 = 10.0;
/// From a z-hop badge's left edge to its number.
pub const Z_NUMBER_X: f64 = 12.0;
/// Half the height of a z-hop badge's triangle.
pub const Z_ARROW_HALF: f64 = 3.5;

/// The palette colour of worm (or step) number `i`, 0-based.
pub fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// What a node is in the tree (seed 001 §3.1.2, Figure 3.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The source: a double circle in a filled square.
    Source,
    /// Forwards to more than one neighbour; `dest` when it is also a destination
    /// (filled double circle), else an empty double circle.
    Replicate { dest: bool },
    /// On the tree, forwards to exactly one neighbour, not a destination: an empty circle.
    Passerby,
    /// A destination that is not a replicate node: a filled circle.
    Destination,
    /// Not on the tree: a small grey dot.
    Off,
}

/// The arrowheads: `url(#arrow)` for tree links, and with `coloured` also `url(#arrow-i)` in
/// palette colour `i` for worms and unicasts.
pub fn arrow_marker(coloured: bool) -> Definitions {
    let palette = PALETTE.iter().enumerate().filter(|_| coloured);
    let markers = palette.map(|(i, c)| marker(&format!("arrow-{i}"), c));
    markers.fold(
        Definitions::new().add(marker("arrow", TREE)),
        Definitions::add,
    )
}

fn marker(id: &str, colour: &str) -> Marker {
    let head = Path::new()
        .set("d", "M0,0 L10,5 L0,10 z")
        .set("fill", colour);
    Marker::new()
        .set("id", id)
        .set("viewBox", "0 0 10 10")
        .set("refX", 9)
        .set("refY", 5)
        .set("markerWidth", 4)
        .set("markerHeight", 4)
        .set("orient", "auto")
        .add(head)
}

/// A straight line.
pub fn line(a: P, b: P, colour: &str, width: f64) -> Line {
    Line::new()
        .set("x1", px(a.x))
        .set("y1", px(a.y))
        .set("x2", px(b.x))
        .set("y2", px(b.y))
        .set("stroke", colour)
        .set("stroke-width", width)
}

/// A thick tree line from `a` to `b` ending in an arrowhead.
pub fn tree_line(a: P, b: P) -> Line {
    line(a, b, TREE, LINK_W)
        .set("stroke-linecap", "round")
        .set("marker-end", "url(#arrow)")
}

/// A line of worm (or step) `i` from `a` to `b`, in its palette colour, ending in its arrowhead.
pub fn worm_line(a: P, b: P, i: usize) -> Line {
    line(a, b, colour(i), LINK_W)
        .set("stroke-linecap", "round")
        .set("marker-end", format!("url(#arrow-{})", i % PALETTE.len()))
}

/// A unicast of step `i` (0-based) from `a` to `b`: a curve bowing to the left of the direction
/// of travel, so that a pair of unicasts between the same two nodes, or along one row, stay
/// apart; its ends stop short of the node symbols. Returns the curve and its midpoint.
pub fn unicast_curve(a: P, b: P, i: usize) -> (Path, P) {
    let u = a.toward(b);
    let normal = P::new(u.y, -u.x);
    let bow = ((b - a).x.hypot((b - a).y) * BOW).clamp(BOW_MIN, BOW_MAX);
    let control = a.mid(b) + normal * bow;
    let start = a + a.toward(control) * TAIL_GAP;
    let end = b + b.toward(control) * HEAD_GAP;
    let d = format!(
        "M{},{} Q{},{} {},{}",
        px(start.x),
        px(start.y),
        px(control.x),
        px(control.y),
        px(end.x),
        px(end.y)
    );
    let path = Path::new()
        .set("d", d)
        .set("fill", "none")
        .set("stroke", colour(i))
        .set("stroke-width", UNICAST_W)
        .set("marker-end", format!("url(#arrow-{})", i % PALETTE.len()));
    (path, (start + end) * 0.25 + control * 0.5)
}

/// The ring a worm of colour `i` draws around a node it drops a copy at.
pub fn drop_ring(at: P, i: usize) -> Circle {
    circle(at, DROP_RING_R, "none", colour(i)).set("stroke-width", LINK_W)
}

/// Text with its anchor (`start`, `middle`, `end`) at `at`, the baseline `size/3` below it, so
/// `at` is the visual middle of the line.
pub fn text(at: P, content: &str, size: f64, anchor: &str) -> Text {
    Text::new(content)
        .set("x", px(at.x))
        .set("y", px(at.y + size / 3.0))
        .set("font-size", size)
        .set("text-anchor", anchor)
}

/// The rounded box behind a hop number, `w` × `h`, centred on `at`, its border in `stroke`.
fn badge_box(at: P, w: f64, h: f64, fill: &str, stroke: &str) -> Rectangle {
    Rectangle::new()
        .set("x", px(at.x - w / 2.0))
        .set("y", px(at.y - h / 2.0))
        .set("width", px(w))
        .set("height", h)
        .set("rx", 3)
        .set("fill", fill)
        .set("stroke", stroke)
        .set("stroke-width", 0.8)
}

/// The hop number `n` in a small white box centred on `at`.
pub fn hop_label(at: P, n: u32) -> Group {
    label_in(at, &n.to_string(), TREE)
}

/// `label` in a small white box centred on `at`, in `colour`.
pub fn label_in(at: P, label: &str, colour: &str) -> Group {
    let w = LABEL_PAD + LABEL_CHAR_W * label.chars().count() as f64;
    let rect = badge_box(at, w, LABEL_H, "white", colour);
    let number = text(at, label, LABEL_FONT, "middle")
        .set("fill", colour)
        .set("font-weight", "bold");
    Group::new().add(rect).add(number)
}

/// A z-layer hop badge centred on `at`: a triangle pointing to the next layer (`sign` > 0,
/// right) or the previous one (left), and the hop number.
pub fn z_badge(at: P, sign: i64, n: u32) -> Group {
    z_badge_filled(at, sign, n, TREE, Z_TINT)
}

/// A z-layer hop badge in `colour`, on white.
pub fn z_badge_in(at: P, sign: i64, n: u32, colour: &str) -> Group {
    z_badge_filled(at, sign, n, colour, "white")
}

fn z_badge_filled(at: P, sign: i64, n: u32, colour: &str, fill: &str) -> Group {
    let label = n.to_string();
    let w = Z_BADGE_W + Z_DIGIT_W * label.len() as f64;
    let left = at.x - w / 2.0;
    let rect = badge_box(at, w, Z_BADGE_H, fill, colour);
    let (tip, base) = if sign > 0 {
        (left + Z_ARROW_TIP, left + Z_ARROW_FLAT)
    } else {
        (left + Z_ARROW_FLAT, left + Z_ARROW_TIP)
    };
    let points = format!(
        "{},{} {},{} {},{}",
        px(base),
        px(at.y - Z_ARROW_HALF),
        px(base),
        px(at.y + Z_ARROW_HALF),
        px(tip),
        px(at.y)
    );
    let triangle = Polygon::new().set("points", points).set("fill", colour);
    let number = text(P::new(left + Z_NUMBER_X, at.y), &label, Z_FONT, "start")
        .set("fill", colour)
        .set("font-weight", "bold");
    Group::new().add(rect).add(triangle).add(number)
}

fn circle(at: P, r: f64, fill: &str, stroke: &str) -> Circle {
    Circle::new()
        .set("cx", px(at.x))
        .set("cy", px(at.y))
        .set("r", r)
        .set("fill", fill)
        .set("stroke", stroke)
        .set("stroke-width", SYMBOL_STROKE)
}

/// The symbol of a node with `role`, centred on `at`.
pub fn node_symbol(at: P, role: Role) -> Group {
    let g = Group::new();
    let inner = INNER_R;
    match role {
        Role::Source => {
            let side = SOURCE_SIDE;
            let square = Rectangle::new()
                .set("x", px(at.x - side / 2.0))
                .set("y", px(at.y - side / 2.0))
                .set("width", side)
                .set("height", side)
                .set("fill", INK);
            g.add(square)
                .add(circle(at, SOURCE_RING_R, "none", "white"))
                .add(circle(at, inner, "none", "white"))
        }
        Role::Replicate { dest: false } => g
            .add(circle(at, NODE_R, "white", INK))
            .add(circle(at, inner, "white", INK)),
        Role::Replicate { dest: true } => g
            .add(circle(at, NODE_R, INK, INK))
            .add(circle(at, inner, "none", "white")),
        Role::Passerby => g.add(circle(at, SMALL_R, "white", INK)),
        Role::Destination => g.add(circle(at, SMALL_R, INK, INK)),
        Role::Off => g.add(circle(at, OFF_R, GRID, "none").set("stroke-width", 0)),
    }
}
