//! **Multi-path**: dual-path's two destination sets are split again by the channel of the source
//! they are reached through, so up to four worms (2n in n dimensions) leave the source, each on
//! a channel of its own.
//!
//! Paper: Lin, McKinley & Ni (1994), as seed 003 §2 summarises it: "up to four copies (or 2n for
//! the n-dimensional mesh) of the multicast message … all the destinations in a subset are in
//! one of the four quadrants when source is viewed as the origin. Copies of the message are
//! routed using dual-path routing". Deadlock free for the reason dual-path is: every worm keeps
//! to the high or to the low channel network. Not shortest-path.
//!
//! Complexity: O(K (n + log K)) to group and sort, then O(n) per hop of the worms.
//!
//! Choices. The source has one high and one low channel per dimension (the neighbour one step
//! further along, and one step back in, that dimension's snake order). A destination `v` of the
//! high set goes to the high channel of the lowest dimension `i` in which `v` lies beyond the
//! source in the source's own snake direction (`xᵢ` counted forwards or backwards as the snake
//! runs through the source) — such a dimension exists because `v`'s label is larger; the low
//! set likewise with "before". Each group's worm takes that channel first, then routes by `R`
//! through the group in label order; a short argument on the reflected order (checked by the
//! property tests) shows the first hop's label never passes the group's first destination, so
//! the worm stays on its channel network. In a 2D mesh this is the split by the source's column:
//! for a source on an even row, high destinations right of its column leave along the row, the
//! rest (its column and to the left, in rows above) leave up the column; low ones mirrored. It
//! is stated per channel rather than per quadrant because routing a quadrant by `R` alone can
//! send two worms out through the same channel (`R` heads up the column towards any destination
//! two rows up, right of the source or not). Port order: high channels before low ones, lower
//! dimension first. Any dimension, mesh or torus (seed 002's labelling and routing cover tori).
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::Metrics};
//! // The dual-path example: (1,1) and (4,0) below the source (3,2), (0,4) and (5,3) above —
//! // four worms, one per channel of the source.
//! let req = Request::parse("mesh:6x6", "3,2", "1,1 4,0 0,4 5,3").unwrap();
//! let plan = algo::find("multi-path").unwrap().route(&req).unwrap();
//! assert_eq!(plan.send_count(), 4);
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.all_port_time), (14, 5));
//! ```

use super::{push_worm, split_by_label};
use crate::algo::{Algorithm, Request};
use crate::plan::{Plan, PlanKind};
use crate::route::hamiltonian::Snake;
use crate::topology::{Dir, Node, Shape};

/// The multi-path algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct MultiPath;

impl Algorithm for MultiPath {
    fn plan(&self, request: &Request) -> Plan {
        let shape = request.shape();
        let snake = Snake::new(shape);
        let source = request.source();
        let frame = SourceFrame::new(shape, source);
        let (high, low) = split_by_label(&snake, source, request.destinations());
        let mut plan = Plan::new(PlanKind::Path, source, request.destinations().to_vec());
        for (set, up) in [(high, true), (low, false)] {
            for (dim, group) in frame.groups(&set, up).iter().enumerate() {
                if !group.is_empty() {
                    let channel = [frame.channel(dim, up)];
                    push_worm(&mut plan, &snake, source, &channel, group);
                }
            }
        }
        plan
    }
}

/// The snake seen from the source: per dimension, whether the snake runs through the source
/// backwards in that dimension (the coordinates above it sum to an odd number), and the source's
/// coordinate counted in that direction.
struct SourceFrame<'a> {
    shape: &'a Shape,
    source: Node,
    backwards: Vec<bool>,
    ahead: Vec<u32>,
}

impl<'a> SourceFrame<'a> {
    fn new(shape: &'a Shape, source: Node) -> SourceFrame<'a> {
        let n = shape.rank();
        let mut backwards = vec![false; n];
        for d in (0..n.saturating_sub(1)).rev() {
            backwards[d] = backwards[d + 1] ^ (shape.coord(source, d + 1) % 2 == 1);
        }
        let ahead = (0..n)
            .map(|d| counted(shape, backwards[d], source, d))
            .collect();
        SourceFrame {
            shape,
            source,
            backwards,
            ahead,
        }
    }

    /// Coordinate `d` of `v`, counted in the direction the snake runs through the source.
    fn along(&self, v: Node, d: usize) -> u32 {
        counted(self.shape, self.backwards[d], v, d)
    }

    /// `set` (in label order) grouped by channel: for the high set (`up`), the lowest dimension
    /// in which a destination lies ahead of the source; for the low set, behind it.
    fn groups(&self, set: &[Node], up: bool) -> Vec<Vec<Node>> {
        let mut groups = vec![Vec::new(); self.shape.rank()];
        for &v in set {
            let dim = (0..self.shape.rank())
                .find(|&d| {
                    let (x, s) = (self.along(v, d), self.ahead[d]);
                    if up {
                        x > s
                    } else {
                        x < s
                    }
                })
                .expect(
                    "a node labelled above (below) the source lies ahead of (behind) it somewhere",
                );
            groups[dim].push(v);
        }
        groups
    }

    /// The source's neighbour one step ahead (`up`) or back along the snake order of `dim`.
    fn channel(&self, dim: usize, up: bool) -> Node {
        let dir = if up != self.backwards[dim] {
            Dir::Plus
        } else {
            Dir::Minus
        };
        self.shape
            .neighbor(self.source, dim, dir)
            .expect("a destination lies beyond the source in this dimension, so the step exists")
    }
}

/// Coordinate `d` of `v`, counted from the far end if `backwards`.
fn counted(shape: &Shape, backwards: bool, v: Node, d: usize) -> u32 {
    let x = shape.coord(v, d);
    if backwards {
        shape.dims()[d] - 1 - x
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In 2D the channel split is the split at the source's column: on an even row (the snake
    /// runs +x), high destinations right of the column leave along the row and low ones left of
    /// it; on an odd row, mirrored. Everything else leaves along the column.
    #[test]
    fn two_dimensional_groups_split_at_the_source_column() {
        let shape: Shape = "mesh:7x6".parse().unwrap();
        let snake = Snake::new(&shape);
        for source in shape.nodes() {
            let frame = SourceFrame::new(&shape, source);
            let dests: Vec<Node> = shape.nodes().filter(|&v| v != source).collect();
            let (high, low) = split_by_label(&snake, source, &dests);
            let (x0, even) = (
                shape.coord(source, 0),
                shape.coord(source, 1).is_multiple_of(2),
            );
            for (set, up) in [(high, true), (low, false)] {
                let along_row = &frame.groups(&set, up)[0];
                for v in set {
                    let x = shape.coord(v, 0);
                    let leaves_along_row = if up == even { x > x0 } else { x < x0 };
                    assert_eq!(along_row.contains(&v), leaves_along_row, "{source:?} {v:?}");
                }
            }
        }
    }
}
