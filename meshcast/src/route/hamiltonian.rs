//! Hamiltonian-path routing: the snake labelling of a mesh and the routing function `R(u, v)`.
//!
//! **Labelling** (seed 002 Definition 1, for 2D): the nodes of an `m × n` mesh are numbered along
//! a snake (boustrophedon) path — row 0 left to right, row 1 right to left, … — so
//! `l(x, y) = y·m + x` for even `y` and `y·m + m − 1 − x` for odd `y`. Consecutive labels are
//! neighbours: the labelling is a Hamiltonian path. [`Snake`] generalises it to n dimensions as
//! the reflected mixed-radix order: reading dimensions from the highest down, coordinate `xᵢ`
//! counts forwards when the coordinates above it sum to an even number and backwards otherwise.
//! In 2D this is Definition 1; in every dimension consecutive labels still differ in one
//! coordinate by one. A torus gets the same labels (seed 002 labels "mesh/torus" alike).
//!
//! **Channels**: a channel from `u` to a neighbour `w` is *high* when `l(w) > l(u)` and *low*
//! otherwise; the high channels and the low channels each form an acyclic network (seed 002 §2.2),
//! which is what makes worms that keep to one of them deadlock-free.
//!
//! **Routing function** `R(u, v)` (seed 002 Definition 2; seed 001 eq. 3.3.1): from `u` towards
//! `v`, the neighbour `w` of `u` with the largest label `l(u) < l(w) ≤ l(v)` when `l(v) > l(u)`
//! (high channels), the smallest label `l(v) ≤ l(w) < l(u)` otherwise (low channels). Because the
//! neighbour one label further along the path always qualifies, a route never stops short, never
//! overshoots `v`, and is at most `|l(v) − l(u)|` hops long. In a 2D mesh every route is a
//! shortest path (seed 002 §2.2, and a test here); in three or more dimensions and in tori some
//! are not (in the 3×3×3 mesh, 54 of the 729 ordered pairs). In a torus the wraparound
//! neighbours are neighbours too. [`next_hop`] and [`route`] work on any [`Labelling`], so the
//! XY-path algorithm (seed 001 §3.3.3) routes with the same function on its own base paths.
//!
//! Everything is coordinate arithmetic: a label costs O(n), and so does a hop — its neighbours'
//! labels come from its own digits ([`Labelling::neighbours_on_path`]) — with nothing stored.
//!
//! ```
//! use meshcast::route::hamiltonian::{route, Snake};
//! use meshcast::topology::Shape;
//! // seed 002 §2.2: in the 6×6 mesh, (1,2) → (3,4) goes (1,3), (1,4), (2,4), (3,4).
//! let shape: Shape = "mesh:6x6".parse().unwrap();
//! let snake = Snake::new(&shape);
//! let (u, v) = (shape.node(&[1, 2]).unwrap(), shape.node(&[3, 4]).unwrap());
//! assert_eq!((snake.label(u), snake.label(v)), (13, 27));
//! let hops: Vec<Vec<u32>> = route(&snake, u, v).map(|w| shape.coords(w)).collect();
//! assert_eq!(hops, [[1, 3], [1, 4], [2, 4], [3, 4]]);
//! ```

use crate::error::InputError;
use crate::topology::{Dir, Node, Shape, MAX_DIMS};

/// A Hamiltonian path through some of the nodes of a shape: each node's position on it.
pub trait Labelling {
    /// The shape the path runs in.
    fn shape(&self) -> &Shape;

    /// The position of `node` on the path (its first node is 0), or `None` if the path does
    /// not visit it. Nodes at consecutive positions must be neighbours.
    fn position(&self, node: Node) -> Option<u32>;

    /// The neighbours of `node` in the shape that lie on the path, each with its position, into
    /// `out` (cleared first), in any order: what `R` chooses among. By default each neighbour's
    /// [`Labelling::position`].
    fn neighbours_on_path(&self, node: Node, out: &mut Vec<(u32, Node)>) {
        out.clear();
        out.extend(
            self.shape()
                .links_from(node)
                .filter_map(|(_, w)| self.position(w).map(|lw| (lw, w))),
        );
    }
}

/// The snake labelling of a mesh or torus of any dimension (seed 002 Definition 1, generalised
/// to n-D as the reflected mixed-radix order).
#[derive(Clone, Copy, Debug)]
pub struct Snake<'a> {
    shape: &'a Shape,
}

impl<'a> Snake<'a> {
    /// The snake through every node of `shape`, starting at the origin.
    pub fn new(shape: &'a Shape) -> Snake<'a> {
        Snake { shape }
    }

    /// The label `l(node)`: its position on the snake.
    pub fn label(&self, node: Node) -> u32 {
        let mut label = 0;
        let mut odd = false;
        for d in (0..self.shape.rank()).rev() {
            let k = self.shape.dims()[d];
            let x = self.shape.coord(node, d);
            label = label * k + if odd { k - 1 - x } else { x };
            odd ^= x % 2 == 1;
        }
        label
    }

    /// The node with label `label`.
    pub fn node(&self, label: u32) -> Result<Node, InputError> {
        let len = self.shape.len() as u32;
        if label >= len {
            return Err(InputError::NodeIndex {
                index: label as usize,
                len: len as usize,
            });
        }
        let mut coords = vec![0; self.shape.rank()];
        let (mut rest, mut block, mut odd) = (label, len, false);
        for d in (0..self.shape.rank()).rev() {
            let k = self.shape.dims()[d];
            block /= k;
            let digit = rest / block;
            rest %= block;
            coords[d] = if odd { k - 1 - digit } else { digit };
            odd ^= coords[d] % 2 == 1;
        }
        self.shape.node(&coords)
    }
}

impl Labelling for Snake<'_> {
    fn shape(&self) -> &Shape {
        self.shape
    }

    fn position(&self, node: Node) -> Option<u32> {
        Some(self.label(node))
    }

    /// Every neighbour's label in O(1) from `node`'s digits, O(n) in all, where a label costs
    /// O(n) each. A step along dimension `d` keeps the digits above `d` and changes the digit at
    /// `d` (reflected as `node`'s is). Each digit below `d` is reflected by the parity of the
    /// coordinates above it, so a step that changes the coordinate's parity reflects them all,
    /// which turns their part of the label, `below`, into `stride(d) − 1 − below`.
    fn neighbours_on_path(&self, node: Node, out: &mut Vec<(u32, Node)>) {
        out.clear();
        let shape = self.shape;
        let n = shape.rank();
        // Per dimension: the coordinate, whether the coordinates above it sum to an odd number,
        // and the label's part from the dimensions above it.
        let (mut c, mut odd_above, mut above) = ([0; MAX_DIMS], [false; MAX_DIMS], [0; MAX_DIMS]);
        let (mut label, mut odd) = (0, false);
        for d in (0..n).rev() {
            let (k, x) = (shape.dims()[d], shape.coord(node, d));
            (c[d], odd_above[d], above[d]) = (x, odd, label);
            label += if odd { k - 1 - x } else { x } * shape.stride(d);
            odd ^= x % 2 == 1;
        }
        for d in 0..n {
            let (k, s) = (shape.dims()[d], shape.stride(d));
            let digit = |x: u32| if odd_above[d] { k - 1 - x } else { x };
            let below = label - above[d] - digit(c[d]) * s;
            for dir in [Dir::Plus, Dir::Minus] {
                if let Some((w, x)) = shape.neighbor_at(node, d, c[d], dir) {
                    let flipped = (x ^ c[d]) % 2 == 1;
                    let below = if flipped { s - 1 - below } else { below };
                    out.push((above[d] + digit(x) * s + below, w));
                }
            }
        }
    }
}

/// The routing function `R(u, v)` on `path` (seed 002 Definition 2, seed 001 eq. 3.3.1): the
/// neighbour of `u` on the path whose label is closest to `v`'s without passing it. `None` when
/// `u == v` or either is not on the path.
pub fn next_hop<P: Labelling + ?Sized>(path: &P, u: Node, v: Node) -> Option<Node> {
    let (lu, lv) = (path.position(u)?, path.position(v)?);
    step(path, u, lu, lv, &mut Vec::new()).map(|(w, _)| w)
}

/// [`next_hop`] from `u` at label `lu` towards label `lv`, with the label of the hop; `on_path`
/// is room for `u`'s neighbours ([`Labelling::neighbours_on_path`]).
fn step<P: Labelling + ?Sized>(
    path: &P,
    u: Node,
    lu: u32,
    lv: u32,
    on_path: &mut Vec<(u32, Node)>,
) -> Option<(Node, u32)> {
    path.neighbours_on_path(u, on_path);
    let candidates = on_path.iter().copied();
    let best = if lv > lu {
        candidates
            .filter(|&(lw, _)| lu < lw && lw <= lv)
            .max_by_key(|&(lw, _)| lw)
    } else {
        candidates
            .filter(|&(lw, _)| lv <= lw && lw < lu)
            .min_by_key(|&(lw, _)| lw)
    };
    best.map(|(lw, w)| (w, lw))
}

/// The whole route from `u` to `v` by [`next_hop`]: the nodes after `u`, ending with `v`.
pub fn route<P: Labelling + ?Sized>(path: &P, u: Node, v: Node) -> Route<'_, P> {
    Route {
        path,
        at: u,
        to: v,
        labels: path.position(u).zip(path.position(v)),
        on_path: Vec::new(),
    }
}

/// The nodes of a route, in order; see [`route`].
#[derive(Clone, Debug)]
pub struct Route<'a, P: ?Sized> {
    path: &'a P,
    at: Node,
    to: Node,
    /// The labels of `at` and `to`, carried from hop to hop (none: either is off the path).
    labels: Option<(u32, u32)>,
    /// Room for the neighbours of a hop on the path.
    on_path: Vec<(u32, Node)>,
}

impl<P: Labelling + ?Sized> Iterator for Route<'_, P> {
    type Item = Node;

    fn next(&mut self) -> Option<Node> {
        if self.at == self.to {
            return None;
        }
        let (lu, lv) = self.labels?;
        let (w, lw) = step(self.path, self.at, lu, lv, &mut self.on_path)?;
        self.at = w;
        self.labels = Some((lw, lv));
        Some(w)
    }
}

/// `P`'s positions with the default [`Labelling::neighbours_on_path`]: what an override must
/// give (tests).
#[cfg(test)]
pub(crate) struct ByPosition<'a, P: ?Sized>(pub(crate) &'a P);

#[cfg(test)]
impl<P: Labelling + ?Sized> Labelling for ByPosition<'_, P> {
    fn shape(&self) -> &Shape {
        self.0.shape()
    }

    fn position(&self, node: Node) -> Option<u32> {
        self.0.position(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPES: [&str; 7] = [
        "mesh:5",
        "mesh:4x3",
        "mesh:3x4x5",
        "mesh:2x3x2x3",
        "torus:5x4",
        "torus:3x2x3",
        "hypercube:4",
    ];

    #[test]
    fn labels_are_a_hamiltonian_path() {
        for text in SHAPES {
            let s: Shape = text.parse().unwrap();
            let snake = Snake::new(&s);
            for n in s.nodes() {
                assert_eq!(snake.node(snake.label(n)), Ok(n), "{text}");
            }
            for l in 1..s.len() as u32 {
                let (a, b) = (snake.node(l - 1).unwrap(), snake.node(l).unwrap());
                assert!(s.link(a, b).is_some(), "{text}: labels {} and {l}", l - 1);
            }
            assert!(snake.node(s.len() as u32).is_err());
        }
    }

    /// The snake's neighbours from its digits are those the default finds label by label.
    #[test]
    fn neighbours_from_digits_are_the_neighbours_labelled_one_by_one() {
        let more = ["mesh:5x4x3", "torus:4x3x5", "torus:2x3x4x2", "mesh:7"];
        for text in SHAPES.iter().chain(&more) {
            let s: Shape = text.parse().unwrap();
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            for n in s.nodes() {
                Snake::new(&s).neighbours_on_path(n, &mut fast);
                ByPosition(&Snake::new(&s)).neighbours_on_path(n, &mut slow);
                assert_eq!(fast, slow, "{text}: {n:?}");
            }
        }
    }

    #[test]
    fn two_dimensional_labels_are_seed_002_definition_1() {
        let s: Shape = "mesh:6x5".parse().unwrap();
        let snake = Snake::new(&s);
        for n in s.nodes() {
            let (x, y) = (s.coord(n, 0), s.coord(n, 1));
            let expected = if y % 2 == 0 { y * 6 + x } else { y * 6 + 5 - x };
            assert_eq!(snake.label(n), expected);
        }
    }

    /// R never overshoots: every route climbs (or descends) strictly in label to `v`, so it
    /// keeps to the high (or low) channels and is at most `|l(v) − l(u)|` hops long.
    #[test]
    fn routes_are_monotone_and_never_longer_than_the_label_gap() {
        for text in SHAPES {
            let s: Shape = text.parse().unwrap();
            let snake = Snake::new(&s);
            for u in s.nodes() {
                for v in s.nodes() {
                    let (lu, lv) = (snake.label(u), snake.label(v));
                    let labels: Vec<u32> = std::iter::once(lu)
                        .chain(route(&snake, u, v).map(|w| snake.label(w)))
                        .collect();
                    assert_eq!(labels.last(), Some(&lv), "{text}");
                    let up = lv > lu;
                    assert!(labels
                        .windows(2)
                        .all(|p| (p[1] > p[0]) == up && p[0] != p[1]));
                    assert!(labels.len() as u32 - 1 <= lu.abs_diff(lv));
                }
            }
        }
    }

    /// seed 002 §2.2: in a 2D mesh "a message is always routed along the shortest path".
    #[test]
    fn routes_in_a_mesh_are_shortest() {
        for text in ["mesh:6x6", "mesh:5x3", "mesh:2x7"] {
            let s: Shape = text.parse().unwrap();
            let snake = Snake::new(&s);
            for u in s.nodes() {
                for v in s.nodes() {
                    assert_eq!(
                        route(&snake, u, v).count() as u32,
                        s.distance(u, v),
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_hop_without_a_destination_on_the_path() {
        let s: Shape = "mesh:3x3".parse().unwrap();
        let snake = Snake::new(&s);
        let u = s.node(&[1, 1]).unwrap();
        assert_eq!(next_hop(&snake, u, u), None);
        assert_eq!(route(&snake, u, u).count(), 0);
    }
}
