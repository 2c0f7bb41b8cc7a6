//! **Column-path**: the destinations are split by the column they lie in, and by the side of the
//! source's row they lie on, so at most two worms go to each column; every worm follows the
//! dimension-ordered (XY) route from the source to the farthest destination of its subset and
//! leaves a copy at each destination of the subset on the way.
//!
//! Paper: Boppana, Chalasani & Raghavendra, "Resource deadlocks and performance of wormhole
//! multicast routing algorithms" (IEEE TPDS 9(6), 1998; ICPADS 1994), as seed 003 §2 summarises
//! it: CP "partitions the set of destinations into at most 2k subsets (e.g. k is the number of
//! columns in the mesh), such that there are at most two messages directed to each column". The
//! original builds CP on the dimension-order (e-cube) routing of existing multicomputers: a worm
//! runs along the source's row to its column, then along the column through its destinations.
//! Every worm's path is a prefix of an e-cube unicast route, so the worms add no channel
//! dependency e-cube routing does not already have: deadlock free in a mesh (given enough
//! consumption channels, the paper's other subject, which a plan does not model). Each
//! destination is reached along its e-cube route, hence on a shortest path (the registry claims
//! it and the validator checks it on every plan in the tests). Seed 003 §4.2: CP has shorter
//! paths than DP and MP but more start-ups, up to two per column.
//!
//! Complexity: O(K log K) to group and sort the destinations, then O(n) per hop of the worms.
//!
//! Choices.
//! * **n dimensions.** A *column* is a line along the highest dimension, `n − 1` (in 2D, `y`, as
//!   in the paper's XY meshes); the source reaches it by correcting dimensions `0, …, n − 2` in
//!   order (in 2D, along its row), then turns into the column. So `k` is the number of columns,
//!   `Π_{i<n−1} kᵢ`, and there are still at most `2k` subsets and two worms per column. In 1D
//!   the whole line is one column: one worm each way.
//! * **A destination in the source's row** (same coordinate in dimension `n − 1`) lies at the
//!   corner where every worm to its column turns. It rides with the worm going up the column if
//!   there is one, else with the worm going down, so it never costs a worm of its own unless it
//!   is its column's only destination.
//! * **Meshes only**: "above" and "below" the source's row have no single meaning in a ring, and
//!   dimension-order routing is deadlock free on a torus only with virtual channels, which the
//!   paper does not use. A torus request gets an error naming the supported topologies.
//! * **Port order**: columns in node-id order of their turning corner, the worm going up before
//!   the worm going down. The paper leaves it open.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::Metrics};
//! // Source (2,2) of a 6×6 mesh. Column 4 has destinations on both sides of row 2 (two worms),
//! // column 0 one above (one worm), and (5,2) in the source's row gets a worm of its own.
//! let req = Request::parse("mesh:6x6", "2,2", "4,0 4,5 4,4 0,3 5,2").unwrap();
//! let plan = algo::find("column-path").unwrap().route(&req).unwrap();
//! assert_eq!(plan.send_count(), 4);
//! let m = Metrics::of(&plan, req.shape());
//! // Every destination on its shortest route: the longest is (4,5), 5 hops away.
//! assert_eq!((m.traffic, m.all_port_time), (5 + 4 + 3 + 3, 5));
//! ```

use std::collections::BTreeMap;

use crate::algo::{Algorithm, Request};
use crate::plan::{Hop, Plan, PlanKind};
use crate::topology::{Dir, Node, Shape};

/// The column-path algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct ColumnPath;

impl Algorithm for ColumnPath {
    fn plan(&self, request: &Request) -> Plan {
        let shape = request.shape();
        let source = request.source();
        let mut plan = Plan::new(PlanKind::Path, source, request.destinations().to_vec());
        for column in columns(shape, source, request.destinations()).values() {
            for subset in column.subsets() {
                push_dimension_ordered_worm(&mut plan, shape, source, &subset);
            }
        }
        plan
    }
}

/// The destinations of one column, by side of the source's row (dimension `n − 1`).
#[derive(Default)]
struct Column {
    /// Beyond the source's row, nearest first.
    above: Vec<(u32, Node)>,
    /// Before it, nearest first.
    below: Vec<(u32, Node)>,
    /// The destination at the turning corner, in the source's row, if any.
    corner: Option<Node>,
}

impl Column {
    /// The (at most two) subsets, each in the order its worm reaches them: up first, then down;
    /// the corner rides with the first worm.
    fn subsets(&self) -> Vec<Vec<Node>> {
        let mut above: Vec<Node> = self.corner.into_iter().collect();
        above.extend(self.above.iter().map(|&(_, v)| v));
        let mut below: Vec<Node> = self.below.iter().map(|&(_, v)| v).collect();
        if self.above.is_empty() {
            below.splice(0..0, above.drain(..));
        }
        [above, below]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect()
    }
}

/// The destinations grouped by column, keyed by the id of the column's node in the source's row
/// minus the row's offset (`id mod stride` of dimension `n − 1`), each side sorted nearest first.
fn columns(shape: &Shape, source: Node, dests: &[Node]) -> BTreeMap<usize, Column> {
    let last = shape.rank() - 1;
    let stride = shape.len() / shape.dims()[last] as usize;
    let row = shape.coord(source, last);
    let mut columns: BTreeMap<usize, Column> = BTreeMap::new();
    for &v in dests {
        let column = columns.entry(v.index() % stride).or_default();
        let y = shape.coord(v, last);
        match y.cmp(&row) {
            std::cmp::Ordering::Greater => column.above.push((y - row, v)),
            std::cmp::Ordering::Less => column.below.push((row - y, v)),
            std::cmp::Ordering::Equal => column.corner = Some(v),
        }
    }
    for column in columns.values_mut() {
        column.above.sort_unstable();
        column.below.sort_unstable();
    }
    columns
}

/// Append one worm from `from` along the dimension-ordered route to the last of `dests`, which
/// all lie on that route in order; it leaves a copy at each of them.
fn push_dimension_ordered_worm(plan: &mut Plan, shape: &Shape, from: Node, dests: &[Node]) {
    let target = *dests.last().expect("a subset is never empty");
    let mut hops = Vec::with_capacity(shape.distance(from, target) as usize);
    let mut at = from;
    let mut next = 0;
    for dim in 0..shape.rank() {
        let goal = shape.coord(target, dim);
        while shape.coord(at, dim) != goal {
            let dir = if shape.coord(at, dim) < goal {
                Dir::Plus
            } else {
                Dir::Minus
            };
            at = shape
                .neighbor(at, dim, dir)
                .expect("a mesh has every link between a node and its goal coordinate");
            let drop = dests.get(next) == Some(&at);
            next += usize::from(drop);
            hops.push(Hop::new(at, drop));
        }
    }
    assert_eq!(next, dests.len(), "every destination lies on the route");
    plan.push_send(from, hops);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In 2D the columns are the lines of constant x, and the worms turn in the source's row.
    #[test]
    fn two_dimensional_columns_are_lines_of_constant_x() {
        let shape: Shape = "mesh:5x4".parse().unwrap();
        let n = |x, y| shape.node(&[x, y]).unwrap();
        let dests = [n(3, 0), n(3, 3), n(3, 1), n(1, 2), n(1, 1)];
        let cols = columns(&shape, n(0, 1), &dests);
        let subsets: Vec<Vec<Vec<Node>>> = cols.values().map(Column::subsets).collect();
        assert_eq!(
            subsets,
            [
                vec![vec![n(1, 1), n(1, 2)]],
                vec![vec![n(3, 1), n(3, 3)], vec![n(3, 0)]],
            ]
        );
    }

    /// A corner destination with nothing above it rides down with the column's other worm.
    #[test]
    fn the_corner_rides_down_when_nothing_is_above() {
        let shape: Shape = "mesh:4x4".parse().unwrap();
        let n = |x, y| shape.node(&[x, y]).unwrap();
        let cols = columns(&shape, n(0, 2), &[n(2, 0), n(2, 2)]);
        assert_eq!(cols[&2].subsets(), [vec![n(2, 2), n(2, 0)]]);
    }
}
