//! Dimension-ordered routing: the deterministic unicast routing of the wormhole meshes and tori
//! that unicast-based multicast is designed for (XY routing in 2D, e-cube in n-D).
//!
//! A message from `u` to `v` first corrects coordinate 0, then coordinate 1, and so on up to
//! coordinate n − 1, one hop at a time (seed 001 §2.2 on XY routing; McKinley et al. (1994) and
//! Robinson et al. (1995), the U-mesh and U-torus papers that seed 001 §2.2 reviews, assume it).
//! In a torus each coordinate goes the shorter way round; when both ways are equally long (an
//! even size and an offset of exactly half of it) it goes towards decreasing coordinates, the
//! side the torus zones of the tree algorithms give that node (`algo::reduce`: ⌈k/2⌉ nodes on
//! the positive side, the source included). So every route is a shortest path.
//!
//! Everything is coordinate arithmetic: O(n) per hop, nothing stored.
//!
//! ```
//! use meshcast::route::dimension_ordered::route;
//! use meshcast::topology::{Node, Shape};
//! // XY routing: along the row first, then up the column.
//! let shape: Shape = "mesh:4x4".parse().unwrap();
//! let (u, v) = (shape.node(&[0, 1]).unwrap(), shape.node(&[2, 3]).unwrap());
//! let hops: Vec<Vec<u32>> = route(&shape, u, v).map(|w| shape.coords(w)).collect();
//! assert_eq!(hops, [[1, 1], [2, 1], [2, 2], [2, 3]]);
//! // In a torus the shorter way round: (0,0) → (3,0) is one wraparound hop.
//! let torus: Shape = "torus:4x4".parse().unwrap();
//! let (a, b) = (torus.node(&[0, 0]).unwrap(), torus.node(&[3, 0]).unwrap());
//! assert_eq!(route(&torus, a, b).collect::<Vec<Node>>(), [b]);
//! ```

use crate::topology::{Dir, Node, Shape};

/// The dimension-ordered route from `from` to `to`: the nodes after `from`, ending with `to`
/// (empty when they are equal). Its length is the distance between them.
pub fn route(shape: &Shape, from: Node, to: Node) -> Route<'_> {
    Route {
        shape,
        at: from,
        to,
    }
}

/// The nodes of a dimension-ordered route, in order; see [`route`].
#[derive(Clone, Debug)]
pub struct Route<'a> {
    shape: &'a Shape,
    at: Node,
    to: Node,
}

/// The direction a dimension-ordered route takes along `dim` of `shape`, from coordinate `a`
/// towards coordinate `b ≠ a`: the shorter way round on a torus, towards decreasing coordinates
/// on a tie (module docs).
pub fn direction(shape: &Shape, dim: usize, a: u32, b: u32) -> Dir {
    if shape.wraps(dim) {
        let k = shape.dims()[dim];
        let ahead = (b + k - a) % k;
        if ahead < k.div_ceil(2) {
            Dir::Plus
        } else {
            Dir::Minus
        }
    } else if b > a {
        Dir::Plus
    } else {
        Dir::Minus
    }
}

impl Iterator for Route<'_> {
    type Item = Node;

    fn next(&mut self) -> Option<Node> {
        let shape = self.shape;
        let (dim, a, b) = (0..shape.rank())
            .map(|d| (d, shape.coord(self.at, d), shape.coord(self.to, d)))
            .find(|&(_, a, b)| a != b)?;
        self.at = shape
            .neighbor(self.at, dim, direction(shape, dim, a, b))
            .expect("the step towards a different coordinate exists");
        Some(self.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route is a shortest path, ends at its target, and corrects the dimensions in order.
    #[test]
    fn routes_are_shortest_and_dimension_ordered() {
        for text in [
            "mesh:4x3x2",
            "torus:4x5",
            "torus:2x3x4",
            "hypercube:3",
            "torus:6",
        ] {
            let s: Shape = text.parse().unwrap();
            for u in s.nodes() {
                for v in s.nodes() {
                    let hops: Vec<Node> = route(&s, u, v).collect();
                    assert_eq!(hops.len() as u32, s.distance(u, v), "{text}");
                    assert_eq!(hops.last().copied().unwrap_or(u), v);
                    let mut at = u;
                    let mut last_dim = 0;
                    for &w in &hops {
                        let link = s.link(at, w).expect("consecutive nodes are neighbours");
                        assert!(
                            link.dim as usize >= last_dim,
                            "{text}: dimensions out of order"
                        );
                        last_dim = link.dim as usize;
                        at = w;
                    }
                }
            }
        }
    }

    /// An offset of exactly half an even torus ring goes towards decreasing coordinates.
    #[test]
    fn ties_in_an_even_ring_go_minus() {
        let s: Shape = "torus:6".parse().unwrap();
        let hops: Vec<u32> = route(&s, s.node(&[1]).unwrap(), s.node(&[4]).unwrap())
            .map(|w| s.coord(w, 0))
            .collect();
        assert_eq!(hops, [0, 5, 4]);
    }
}
