//! Where things go on the page: node positions (x to the right, y upward, one 2D grid per
//! z-layer, layers left to right), screen directions of the dimensions, and the margins that
//! leave room for wraparound stubs, axis labels, the title and the legend.

use std::ops::{Add, Mul, Sub};

use meshcast::topology::Shape;

/// Distance between neighbouring nodes.
pub const CELL: f64 = 64.0;
/// Radius of a node symbol.
pub const NODE_R: f64 = 9.0;
/// Length of a wraparound stub, from the node centre.
pub const STUB: f64 = 34.0;
/// From a node's centre to the tail of a link line leaving it.
pub const TAIL_GAP: f64 = NODE_R + 3.0;
/// From a node's centre to the arrowhead of a link line entering it.
pub const HEAD_GAP: f64 = NODE_R + 4.0;
/// From the end of a wraparound stub to its hop label.
pub const STUB_LABEL: f64 = 12.0;
/// How far a worm's line runs beside the centre line of a link, so that two worms crossing one
/// link in opposite directions (or a worm and a grid line) stay apart.
pub const BESIDE: f64 = 3.0;
/// A z-hop badge's distance beside its node, and above it.
pub const Z_BADGE_SHIFT: f64 = 19.0;
/// How much higher each further z-hop badge on the same side of a node sits.
pub const Z_BADGE_STACK: f64 = 15.0;
/// The hop count of a worm's drop sits this far right of and below the node.
pub const DROP_LABEL: f64 = 17.0;
/// Height of the title block.
const TITLE_H: f64 = 70.0;
/// Room left of the grid for the y coordinates.
const AXIS_ROOM: f64 = 44.0;
/// Room between two z-layers, besides the wraparound stubs.
const LAYER_GAP: f64 = 48.0;
/// Width of the legend box.
pub const LEGEND_W: f64 = 290.0;

/// A point (or vector) in page coordinates, y growing downward as SVG has it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

impl P {
    pub fn new(x: f64, y: f64) -> P {
        P { x, y }
    }

    /// The unit vector from `self` towards `to`.
    pub fn toward(self, to: P) -> P {
        let d = to - self;
        let len = d.x.hypot(d.y);
        P::new(d.x / len, d.y / len)
    }

    /// The midpoint of `self` and `other`.
    pub fn mid(self, other: P) -> P {
        (self + other) * 0.5
    }
}

impl Add for P {
    type Output = P;
    fn add(self, o: P) -> P {
        P::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for P {
    type Output = P;
    fn sub(self, o: P) -> P {
        P::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for P {
    type Output = P;
    fn mul(self, k: f64) -> P {
        P::new(self.x * k, self.y * k)
    }
}

/// Round to a tenth of a pixel so the SVG text stays short and stable.
pub fn px(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// The page geometry of one shape (1 to 3 dimensions).
#[derive(Clone, Debug)]
pub struct Layout {
    /// Sizes along x, y, z (1 for a dimension the shape does not have).
    pub k: [u32; 3],
    /// Whether x, y, z have wraparound links.
    pub wraps: [bool; 3],
    /// Room around a layer for wraparound stubs and their hop labels.
    pub pad: f64,
    /// Page position of node (0, k_y − 1) of layer 0: the top-left node.
    origin: P,
}

impl Layout {
    /// The layout of `shape`, which has at most 3 dimensions.
    pub fn new(shape: &Shape) -> Layout {
        let dim = |d: usize| shape.dims().get(d).copied().unwrap_or(1);
        let wrap = |d: usize| d < shape.rank() && shape.wraps(d);
        let wraps = [wrap(0), wrap(1), wrap(2)];
        let pad = if wraps[0] || wraps[1] {
            STUB + 22.0
        } else {
            12.0
        };
        let layer_label = if shape.rank() >= 3 { 34.0 } else { 0.0 };
        Layout {
            k: [dim(0), dim(1), dim(2)],
            wraps,
            pad,
            origin: P::new(AXIS_ROOM + pad, TITLE_H + layer_label + pad + 14.0),
        }
    }

    /// Width of one layer, node centre to node centre.
    fn layer_w(&self) -> f64 {
        f64::from(self.k[0] - 1) * CELL
    }

    /// Height of one layer, node centre to node centre.
    pub fn layer_h(&self) -> f64 {
        f64::from(self.k[1] - 1) * CELL
    }

    /// The left edge (x of the nodes with x = 0) of layer `z`.
    pub fn layer_left(&self, z: u32) -> f64 {
        self.origin.x + f64::from(z) * (self.layer_w() + 2.0 * self.pad + LAYER_GAP)
    }

    /// The y of the top row of nodes.
    pub fn top(&self) -> f64 {
        self.origin.y
    }

    /// The y of the bottom row of nodes.
    pub fn bottom(&self) -> f64 {
        self.origin.y + self.layer_h()
    }

    /// The page position of the node at `coords` (1 to 3 coordinates).
    pub fn pos(&self, coords: &[u32]) -> P {
        let c = |d: usize| coords.get(d).copied().unwrap_or(0);
        let x = self.layer_left(c(2)) + f64::from(c(0)) * CELL;
        let y = self.origin.y + f64::from(self.k[1] - 1 - c(1)) * CELL;
        P::new(x, y)
    }

    /// Where the z-hop badge number `count` (from 0) on side `side` (1 right, −1 left) of the
    /// node at `at` goes: the first beside the node and above it, each further one higher.
    pub fn z_badge_at(at: P, side: i64, count: u32) -> P {
        let up = Z_BADGE_SHIFT + Z_BADGE_STACK * f64::from(count);
        at + P::new(side as f64 * Z_BADGE_SHIFT, -up)
    }

    /// The screen direction of one step along dimension `dim` (0 or 1) in direction `sign`.
    pub fn step(dim: usize, sign: i64) -> P {
        let s = sign as f64;
        if dim == 0 {
            P::new(s, 0.0)
        } else {
            P::new(0.0, -s)
        }
    }

    /// Every node's coordinates, layer by layer (x fastest), cut to `rank` coordinates.
    pub fn nodes(&self, rank: usize) -> impl Iterator<Item = Vec<u32>> + '_ {
        let [kx, ky, kz] = self.k;
        (0..kz).flat_map(move |z| {
            (0..ky).flat_map(move |y| (0..kx).map(move |x| [x, y, z][..rank].to_vec()))
        })
    }

    /// The x where the legend starts.
    pub fn legend_left(&self) -> f64 {
        self.layer_left(self.k[2] - 1) + self.layer_w() + self.pad + 36.0
    }

    /// The y where the legend starts.
    pub fn legend_top(&self) -> f64 {
        TITLE_H
    }

    /// The y of the z-layer names above the layers.
    pub fn layer_names_y(&self) -> f64 {
        self.top() - self.pad - 34.0
    }

    /// The y of the x-coordinate labels under each layer.
    pub fn x_labels_y(&self) -> f64 {
        self.bottom() + self.pad + 18.0
    }

    /// The x of the y-coordinate labels (right-aligned) left of layer 0.
    pub fn y_labels_x(&self) -> f64 {
        self.origin.x - self.pad - 10.0
    }
}
