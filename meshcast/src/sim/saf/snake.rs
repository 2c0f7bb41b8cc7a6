//! The snake orders of a square region of the mesh (row 0 left to right, row 1 right to left,
//! …, or its transpose), the order in which seed 004's primitives lay out sorted packets and
//! prefix sums. Its own module because both [`super::prefix`] (prefix sums along the snake) and
//! [`super::sort`] (shearsort, whose ranks are counted by prefix sums) use it: neither depends on
//! the other for it.
//!
//! ```
//! use meshcast::sim::saf::snake::{snake_node, snake_position, SnakeOrder};
//! assert_eq!(SnakeOrder::RowMajor.local(4, 5), (2, 1));
//! assert_eq!(snake_node(4, snake_position(4, 6)), 6);
//! ```

/// The snake along which a region's sorted order runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnakeOrder {
    /// Row 0 left to right, row 1 right to left, …
    RowMajor,
    /// Column 0 top to bottom (increasing y), column 1 bottom to top, … (the transpose).
    ColumnMajor,
}

impl SnakeOrder {
    /// The local (x, y) of position `q` of the snake through a region of side `s`.
    pub fn local(self, s: u32, q: u32) -> (u32, u32) {
        let (line, i) = (q / s, q % s);
        let along = if line % 2 == 0 { i } else { s - 1 - i };
        match self {
            SnakeOrder::RowMajor => (along, line),
            SnakeOrder::ColumnMajor => (line, along),
        }
    }

    /// The snake position of local (x, y) in a region of side `s` (inverse of [`Self::local`]).
    pub fn index(self, s: u32, x: u32, y: u32) -> u32 {
        let (along, line) = match self {
            SnakeOrder::RowMajor => (x, y),
            SnakeOrder::ColumnMajor => (y, x),
        };
        line * s + if line % 2 == 0 { along } else { s - 1 - along }
    }
}

/// The position of `node` along the snake of the whole mesh (row 0 left to right, row 1 right
/// to left, …).
pub fn snake_position(side: u32, node: u32) -> u32 {
    SnakeOrder::RowMajor.index(side, node % side, node / side)
}

/// The node at position `pos` of the snake of the whole mesh.
pub fn snake_node(side: u32, pos: u32) -> u32 {
    let (x, y) = SnakeOrder::RowMajor.local(side, pos);
    y * side + x
}
