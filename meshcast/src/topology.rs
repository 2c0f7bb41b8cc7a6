//! Topologies: n-dimensional meshes and tori, their nodes, channels and distances.
//!
//! A [`Shape`] is `k₀ × … × kₙ₋₁` nodes (n ≥ 1, every kᵢ ≥ 2), either a mesh or a torus
//! (seed 001 Definitions 2.1.1–2.1.4); a hypercube of dimension n is the mesh `2 × … × 2`.
//! Nodes are numbered with dimension 0 varying fastest, so a node's coordinates and
//! neighbours are pure arithmetic on its id (strides), with no graph stored anywhere.
//!
//! This module knows nothing of multicast: it is the geometry every other module uses.

use std::fmt;
use std::str::FromStr;

use crate::error::InputError;

/// A node of a [`Shape`]. Only a shape makes nodes, so a `Node` is always in range for the
/// shape that made it; it is not a `usize` that could be mixed up with a link or a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(pub(crate) u32);

impl Node {
    /// The node's id: `Σ xᵢ · strideᵢ` with dimension 0 varying fastest.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Mesh or torus (a torus has the wraparound links of seed 001 Definition 2.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// No wraparound links.
    Mesh,
    /// Wraparound links in every dimension.
    Torus,
}

/// The direction of a hop along one dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards larger coordinates (and from `k − 1` to `0` over a wraparound link).
    Plus,
    /// Towards smaller coordinates (and from `0` to `k − 1` over a wraparound link).
    Minus,
}

/// A directed channel: the link leaving `from` along dimension `dim` in direction `dir`.
///
/// In a torus dimension of size 2 both directions lead to the same neighbour over the same
/// physical link; such a dimension is treated as a mesh dimension (one link per node pair),
/// and the channel is named by the direction of increasing coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Link {
    /// The node that sends over the channel.
    pub from: Node,
    /// The dimension the channel runs along.
    pub dim: u8,
    /// The direction of the channel.
    pub dir: Dir,
}

/// Most dimensions a shape may have.
pub const MAX_DIMS: usize = 26;

/// Most nodes a shape may have: 2²⁶ (e.g. mesh:8192x8192). Routing keeps a few words per node,
/// so a larger shape would need gigabytes for one multicast.
pub const MAX_NODES: u32 = 1 << 26;

/// An n-dimensional mesh or torus.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    kind: Kind,
    dims: Box<[u32]>,
    strides: Box<[u32]>,
    len: u32,
}

impl Shape {
    /// A mesh `dims[0] × dims[1] × …`.
    pub fn mesh(dims: &[u32]) -> Result<Shape, InputError> {
        Shape::new(Kind::Mesh, dims)
    }

    /// A torus `dims[0] × dims[1] × …`.
    pub fn torus(dims: &[u32]) -> Result<Shape, InputError> {
        Shape::new(Kind::Torus, dims)
    }

    /// The hypercube of dimension `n`: the mesh `2 × … × 2` (seed 001 Definition 2.1.4).
    pub fn hypercube(n: u32) -> Result<Shape, InputError> {
        Shape::new(Kind::Mesh, &vec![2; n as usize])
    }

    /// A shape of either kind; every size at least 2, at least one and at most
    /// [`MAX_DIMS`] dimensions, and at most [`MAX_NODES`] nodes in all.
    pub fn new(kind: Kind, dims: &[u32]) -> Result<Shape, InputError> {
        if dims.is_empty() || dims.len() > MAX_DIMS {
            return Err(InputError::DimensionCount(dims.len()));
        }
        let mut strides = Vec::with_capacity(dims.len());
        let mut len: u32 = 1;
        for (i, &k) in dims.iter().enumerate() {
            if k < 2 {
                return Err(InputError::SizeTooSmall { dim: i, size: k });
            }
            strides.push(len);
            len = len
                .checked_mul(k)
                .filter(|&n| n <= MAX_NODES)
                .ok_or_else(|| InputError::TooManyNodes(dims.to_vec()))?;
        }
        Ok(Shape {
            kind,
            dims: dims.into(),
            strides: strides.into(),
            len,
        })
    }

    /// Mesh or torus.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The sizes `k₀, …, kₙ₋₁`.
    pub fn dims(&self) -> &[u32] {
        &self.dims
    }

    /// The number of dimensions n.
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The number of nodes `Π kᵢ`.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: a shape has at least two nodes.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether dimension `dim` has wraparound links of its own (a torus dimension of size ≥ 3).
    pub fn wraps(&self, dim: usize) -> bool {
        self.kind == Kind::Torus && self.dims[dim] >= 3
    }

    /// The node with id `index`.
    pub fn node_at(&self, index: usize) -> Result<Node, InputError> {
        if index < self.len() {
            Ok(Node(index as u32))
        } else {
            Err(InputError::NodeIndex {
                index,
                len: self.len(),
            })
        }
    }

    /// Every node, in id order.
    pub fn nodes(&self) -> impl Iterator<Item = Node> {
        (0..self.len).map(Node)
    }

    /// The node at `coords`.
    pub fn node(&self, coords: &[u32]) -> Result<Node, InputError> {
        if coords.len() != self.rank() {
            return Err(InputError::CoordinateCount {
                given: coords.len(),
                rank: self.rank(),
            });
        }
        let mut id = 0;
        for (i, (&c, &k)) in coords.iter().zip(self.dims.iter()).enumerate() {
            if c >= k {
                return Err(InputError::CoordinateRange {
                    coords: coords.to_vec(),
                    dim: i,
                    size: k,
                });
            }
            id += c * self.strides[i];
        }
        Ok(Node(id))
    }

    /// Coordinate `dim` of `node`.
    pub fn coord(&self, node: Node, dim: usize) -> u32 {
        (node.0 / self.strides[dim]) % self.dims[dim]
    }

    /// All coordinates of `node`.
    pub fn coords(&self, node: Node) -> Vec<u32> {
        (0..self.rank()).map(|d| self.coord(node, d)).collect()
    }

    /// The neighbour of `node` one hop along `dim` in direction `dir`, if the shape has that link.
    pub fn neighbor(&self, node: Node, dim: usize, dir: Dir) -> Option<Node> {
        self.neighbor_at(node, dim, self.coord(node, dim), dir)
            .map(|(w, _)| w)
    }

    /// The id difference between neighbours along `dim`: the number of nodes per unit of
    /// coordinate `dim`.
    pub(crate) fn stride(&self, dim: usize) -> u32 {
        self.strides[dim]
    }

    /// [`Shape::neighbor`] of `node`, whose coordinate in `dim` the caller knows (`c`), with the
    /// neighbour's coordinate there.
    pub(crate) fn neighbor_at(
        &self,
        node: Node,
        dim: usize,
        c: u32,
        dir: Dir,
    ) -> Option<(Node, u32)> {
        let k = self.dims[dim];
        let s = self.strides[dim];
        match dir {
            Dir::Plus if c + 1 < k => Some((Node(node.0 + s), c + 1)),
            Dir::Minus if c > 0 => Some((Node(node.0 - s), c - 1)),
            Dir::Plus if self.wraps(dim) => Some((Node(node.0 - c * s), 0)),
            Dir::Minus if self.wraps(dim) => Some((Node(node.0 + (k - 1) * s), k - 1)),
            _ => None,
        }
    }

    /// Every channel leaving `node` with the neighbour it leads to, dimension by dimension,
    /// `Plus` before `Minus`.
    pub fn links_from(&self, node: Node) -> impl Iterator<Item = (Link, Node)> + '_ {
        (0..self.rank()).flat_map(move |dim| {
            [Dir::Plus, Dir::Minus].into_iter().filter_map(move |dir| {
                self.neighbor(node, dim, dir).map(|to| {
                    let link = Link {
                        from: node,
                        dim: dim as u8,
                        dir,
                    };
                    (link, to)
                })
            })
        })
    }

    /// The channel from `from` to its neighbour `to`, or `None` if they are not neighbours.
    pub fn link(&self, from: Node, to: Node) -> Option<Link> {
        let mut differing = (0..self.rank()).filter(|&d| self.coord(from, d) != self.coord(to, d));
        let dim = differing.next()?;
        if differing.next().is_some() {
            return None;
        }
        [Dir::Plus, Dir::Minus]
            .into_iter()
            .find(|&dir| self.neighbor(from, dim, dir) == Some(to))
            .map(|dir| Link {
                from,
                dim: dim as u8,
                dir,
            })
    }

    /// The head of a channel.
    pub fn link_head(&self, link: Link) -> Node {
        self.neighbor(link.from, link.dim as usize, link.dir)
            .expect("a Link is only made for an existing channel")
    }

    /// The distance along `dim` between coordinates `a` and `b` (torus: the shorter way round).
    pub fn dim_distance(&self, dim: usize, a: u32, b: u32) -> u32 {
        let d = a.abs_diff(b);
        match self.kind {
            Kind::Mesh => d,
            Kind::Torus => d.min(self.dims[dim] - d),
        }
    }

    /// Hop distance between two nodes: `Σ |aᵢ − bᵢ|` in a mesh, `Σ min(|aᵢ − bᵢ|, kᵢ − |aᵢ − bᵢ|)`
    /// in a torus (seed 001 §3.1.2).
    pub fn distance(&self, a: Node, b: Node) -> u32 {
        (0..self.rank())
            .map(|d| self.dim_distance(d, self.coord(a, d), self.coord(b, d)))
            .sum()
    }

    /// The largest distance between two nodes.
    pub fn diameter(&self) -> u32 {
        self.dims
            .iter()
            .map(|&k| match self.kind {
                Kind::Mesh => k - 1,
                Kind::Torus => k / 2,
            })
            .sum()
    }

    /// Parse a node given as comma-separated coordinates, `"3,4"`.
    pub fn parse_node(&self, text: &str) -> Result<Node, InputError> {
        let coords = text
            .split(',')
            .map(|c| {
                let c = c.trim();
                c.parse::<u32>()
                    .map_err(|_| InputError::Number(c.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.node(&coords)
    }

    /// Parse a destination list: nodes separated by spaces or semicolons, `"4,6 6,6 0,2"`.
    /// Duplicates are refused.
    pub fn parse_nodes(&self, text: &str) -> Result<Vec<Node>, InputError> {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for part in text.split([' ', ';', '\t', '\n']).filter(|p| !p.is_empty()) {
            let node = self.parse_node(part)?;
            if !seen.insert(node) {
                return Err(InputError::DuplicateNode(part.to_string()));
            }
            out.push(node);
        }
        Ok(out)
    }

    /// Format a node as its coordinates, `"(3,4)"`.
    pub fn fmt_node(&self, node: Node) -> String {
        let c: Vec<String> = self.coords(node).iter().map(u32::to_string).collect();
        format!("({})", c.join(","))
    }
}

impl fmt::Display for Shape {
    /// `mesh:8x8`, `torus:10x10x10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Mesh => "mesh",
            Kind::Torus => "torus",
        };
        let dims: Vec<String> = self.dims.iter().map(u32::to_string).collect();
        write!(f, "{kind}:{}", dims.join("x"))
    }
}

impl FromStr for Shape {
    type Err = InputError;

    /// Parses `mesh:8x8`, `torus:10x10x10` and `hypercube:6`.
    fn from_str(text: &str) -> Result<Shape, InputError> {
        let bad = || InputError::Topology(text.to_string());
        let (kind, sizes) = text.trim().split_once(':').ok_or_else(bad)?;
        let number = |s: &str| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| InputError::Number(s.trim().to_string()))
        };
        match kind.trim().to_ascii_lowercase().as_str() {
            "hypercube" => Shape::hypercube(number(sizes)?),
            "mesh" | "torus" => {
                let dims = sizes
                    .split(['x', 'X', '×'])
                    .map(number)
                    .collect::<Result<Vec<_>, _>>()?;
                let kind = if kind.trim().eq_ignore_ascii_case("mesh") {
                    Kind::Mesh
                } else {
                    Kind::Torus
                };
                Shape::new(kind, &dims)
            }
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        let s: Shape = "mesh:4x3x2".parse().unwrap();
        for n in s.nodes() {
            assert_eq!(s.node(&s.coords(n)).unwrap(), n);
        }
        assert_eq!(s.coords(s.node(&[3, 1, 1]).unwrap()), vec![3, 1, 1]);
    }

    #[test]
    fn torus_neighbours_wrap() {
        let s: Shape = "torus:5x4".parse().unwrap();
        let a = s.node(&[4, 0]).unwrap();
        assert_eq!(s.neighbor(a, 0, Dir::Plus), Some(s.node(&[0, 0]).unwrap()));
        assert_eq!(s.neighbor(a, 1, Dir::Minus), Some(s.node(&[4, 3]).unwrap()));
        assert_eq!(s.distance(a, s.node(&[0, 3]).unwrap()), 2);
        assert_eq!(s.diameter(), 4);
    }

    #[test]
    fn link_lookup_agrees_with_neighbours() {
        for text in [
            "mesh:3x4",
            "torus:3x5x2",
            "torus:2x2",
            "hypercube:3",
            "torus:7",
        ] {
            let s: Shape = text.parse().unwrap();
            for a in s.nodes() {
                for (link, b) in s.links_from(a) {
                    assert_eq!(s.link(a, b), Some(link), "{text} {a:?}->{b:?}");
                    assert_eq!(s.link_head(link), b);
                    assert_eq!(s.distance(a, b), 1);
                }
                for b in s.nodes() {
                    if s.distance(a, b) != 1 {
                        assert_eq!(s.link(a, b), None);
                    }
                }
            }
        }
    }

    #[test]
    fn size_two_torus_dimension_has_one_link_per_pair() {
        let s: Shape = "torus:2x3".parse().unwrap();
        let a = s.node(&[0, 0]).unwrap();
        assert_eq!(s.links_from(a).count(), 3);
    }

    #[test]
    fn parse_errors_name_the_value() {
        let e = "mesh:8x1".parse::<Shape>().unwrap_err().to_string();
        assert!(e.contains("size 1"), "{e}");
        let e = "ring:8".parse::<Shape>().unwrap_err().to_string();
        assert!(e.contains("ring:8"), "{e}");
        let e = "mesh:65536x65536".parse::<Shape>().unwrap_err().to_string();
        assert!(e.contains("65536"), "{e}");
        let s: Shape = "mesh:8x8".parse().unwrap();
        assert!(s.parse_node("8,0").is_err());
        assert!(s.parse_node("1").is_err());
        assert!(s.parse_node("1,x").is_err());
        assert!(s.parse_nodes("1,1 1,1").is_err());
    }
}
