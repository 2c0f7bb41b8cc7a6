//! **XY-path**: the mesh is split into two Hamiltonian paths joined at the source — X running
//! back and forth along rows, Y along columns — and one worm runs along each, from destination to
//! destination in path order, taking shortcuts by `R(u, v)`.
//!
//! Paper: Wang, seed 001 §3.3.3 — Algorithm 3.3.1 (partition into paths X and Y), Algorithm
//! 3.3.2 (routing, with `R(u, v)` of eq. 3.3.1 on each base path), Example 3.3.1 (18 links,
//! maximum distance 12, against 26 for Lin's algorithm). 2D meshes only: the partition is
//! defined by rows and columns, and the thesis states no n-D or torus version.
//!
//! The partition, for an `m × n` mesh with the source at (0,0): X walks along row 0, Y down
//! column 0; each walks straight on and makes a U-turn into its next row (column) where its line
//! ends or the other path blocks it, and stops when it cannot turn. A path hands the turn to the
//! other only at the far boundary — X at `x = m − 1` having run to the end of a row, Y at
//! `y = n − 1` at the end of a column — and only if it is then longer than the other ("whenever
//! a path arrives at a boundary node, compare their length and give the turn to the shorter
//! path"). The free nodes always form the rectangle below X's rows and right of Y's columns, so
//! the two paths cover the mesh (Proposition 3.3.1; a unit test checks every size up to 8×8).
//! Each path labels its nodes in order (the source 0), and each worm visits its path's
//! destinations in label order by `R` on that path's labels: never leaving the base path, never
//! against its order.
//!
//! Complexity: O(N) for the partition (Proposition 3.3.2), O(1) per hop of the worms.
//!
//! Choices. Algorithm 3.3.1 runs X first (step 2 before step 3); Example 3.3.1's narrative
//! starts with Y. We follow the algorithm. On the example's square mesh the two are mirror
//! images, the same destinations fall in X and in Y, and both give 18 links and 12 hops (test
//! `xy_path_example_in_the_narratives_order`). A source that is not the corner the thesis
//! assumes ("the source node, which is located at the left-top corner") is handled by the mesh
//! zones every tree algorithm uses (`algo::reduce`): the mesh splits at the source into up to
//! four submeshes, each with its corner at or next to the source, and each gets its own X and Y
//! worm, which first travels from the source to the submesh's corner. A destination at a
//! submesh's corner is delivered by that submesh's X worm. Port order: submesh by submesh, X
//! before Y.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::Metrics};
//! // seed 001 Example 3.3.1: "The total traffic is 18 links and the maximum distance of the
//! // path is 12."
//! let req = Request::parse("mesh:10x10", "0,0", "2,0 3,1 7,2 7,5 0,4 1,3").unwrap();
//! let plan = algo::find("xy-path").unwrap().route(&req).unwrap();
//! let m = Metrics::of(&plan, req.shape());
//! assert_eq!((m.traffic, m.all_port_time), (18, 12));
//! ```

use std::collections::BTreeMap;

use super::push_worm;
use crate::algo::reduce::{feeder, Zones};
use crate::algo::{Algorithm, Request};
use crate::plan::{Plan, PlanKind};
use crate::route::hamiltonian::Labelling;
use crate::topology::{Node, Shape};

/// The XY-path algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct XyPath;

impl Algorithm for XyPath {
    fn plan(&self, request: &Request) -> Plan {
        let shape = request.shape();
        let source = request.source();
        let zones = Zones::new(shape, source);
        let mut by_zone: BTreeMap<u32, Vec<Node>> = BTreeMap::new();
        for &d in request.destinations() {
            let (zone, _) = zones.locate(&shape.coords(d));
            by_zone.entry(zone).or_default().push(d);
        }
        let mut base = [BasePath::new(shape), BasePath::new(shape)];
        let mut plan = Plan::new(PlanKind::Path, source, request.destinations().to_vec());
        for (&zone, dests) in &by_zone {
            let ext = zones.extents(zone);
            for (path, nodes) in base.iter_mut().zip(partition([ext[0], ext[1]])) {
                path.extend(nodes.iter().map(|&c| zones.global(zone, &c)));
            }
            let (mut on_x, mut on_y): (Vec<Node>, Vec<Node>) =
                dests.iter().partition(|&&d| base[0].position(d).is_some());
            on_x.sort_by_key(|&d| base[0].position(d));
            on_y.sort_by_key(|&d| base[1].position(d));
            let via = corner_route(&zones, zone);
            for (path, part) in base.iter().zip([on_x, on_y]) {
                if !part.is_empty() {
                    push_worm(&mut plan, path, source, &via, &part);
                }
            }
        }
        plan
    }
}

/// The submesh corners the worms for `zone` pass from the source to `zone`'s corner (the source
/// itself left out): each zone's corner is one hop from its feeder's.
fn corner_route(zones: &Zones, zone: u32) -> Vec<Node> {
    let mut chain = Vec::new();
    let mut b = zone;
    while b != 0 {
        chain.push(zones.origin(b));
        b = feeder(b);
    }
    chain.reverse();
    chain
}

/// A base path (X or Y) of every submesh routed so far: each node's position, submeshes in
/// disjoint label ranges so `R` never steps from one submesh's path onto another's.
struct BasePath<'a> {
    shape: &'a Shape,
    label: Vec<u32>,
    next: u32,
}

const OFF_PATH: u32 = u32::MAX;

impl<'a> BasePath<'a> {
    fn new(shape: &'a Shape) -> BasePath<'a> {
        BasePath {
            shape,
            label: vec![OFF_PATH; shape.len()],
            next: 0,
        }
    }

    /// Append a path of one submesh, in order.
    fn extend(&mut self, nodes: impl Iterator<Item = Node>) {
        for node in nodes {
            self.label[node.index()] = self.next;
            self.next += 1;
        }
    }
}

impl Labelling for BasePath<'_> {
    fn shape(&self) -> &Shape {
        self.shape
    }

    fn position(&self, node: Node) -> Option<u32> {
        Some(self.label[node.index()]).filter(|&l| l != OFF_PATH)
    }
}

/// Algorithm 3.3.1 on an `m × n` mesh (`ext = [m, n]`) with the source at (0,0): the nodes of
/// path X and of path Y in path order, as local coordinates; both start at (0,0).
fn partition(ext: [u32; 2]) -> [Vec<[u32; 2]>; 2] {
    let mut taken = vec![false; (ext[0] * ext[1]) as usize];
    taken[0] = true;
    let mut walkers = [Walker::new(0), Walker::new(1)];
    let mut turn = 0;
    while !(walkers[0].done && walkers[1].done) {
        let (me, other) = (&walkers[turn], &walkers[1 - turn]);
        let hand_over =
            !other.done && me.at_far_boundary(ext) && me.nodes.len() > other.nodes.len();
        if me.done || hand_over {
            turn = 1 - turn;
        } else {
            walkers[turn].advance(ext, &mut taken);
        }
    }
    walkers.map(|w| w.nodes)
}

/// One of the two paths of the partition while it grows: X runs along `axis` 0 (rows), Y along
/// `axis` 1 (columns).
struct Walker {
    axis: usize,
    forward: bool,
    nodes: Vec<[u32; 2]>,
    done: bool,
}

impl Walker {
    fn new(axis: usize) -> Walker {
        Walker {
            axis,
            forward: true,
            nodes: vec![[0, 0]],
            done: false,
        }
    }

    fn at(&self) -> [u32; 2] {
        self.nodes[self.nodes.len() - 1]
    }

    /// At the far end of a line it ran along forwards ("x(v) = m−1 and v is the last node of
    /// its row", Algorithm 3.3.1 step 2(a); for Y, `y(v) = n−1`).
    fn at_far_boundary(&self, ext: [u32; 2]) -> bool {
        self.forward && self.at()[self.axis] == ext[self.axis] - 1
    }

    /// Step 2(a)–(b): the next node straight on, else a U-turn into the next line; done if
    /// neither is free.
    fn advance(&mut self, ext: [u32; 2], taken: &mut [bool]) {
        let index = |c: [u32; 2]| (c[1] * ext[0] + c[0]) as usize;
        let (a, b) = (self.axis, 1 - self.axis);
        let at = self.at();
        let moved = |d: usize, x: u32| {
            let mut c = at;
            c[d] = x;
            c
        };
        let ahead = if self.forward {
            Some(at[a] + 1).filter(|&x| x < ext[a])
        } else {
            at[a].checked_sub(1)
        };
        let straight = ahead.map(|x| moved(a, x)).filter(|&c| !taken[index(c)]);
        let turned = Some(at[b] + 1)
            .filter(|&y| y < ext[b])
            .map(|y| moved(b, y))
            .filter(|&c| !taken[index(c)]);
        let next = match (straight, turned) {
            (Some(c), _) => c,
            (None, Some(c)) => {
                self.forward = !self.forward;
                c
            }
            (None, None) => {
                self.done = true;
                return;
            }
        };
        taken[index(next)] = true;
        self.nodes.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Proposition 3.3.1: X and Y are paths, joined only at the source, covering the mesh.
    #[test]
    fn partition_covers_every_mesh_with_two_paths() {
        for m in 1..=8 {
            for n in 1..=8 {
                let [x, y] = partition([m, n]);
                let mut seen = vec![0; (m * n) as usize];
                for path in [&x, &y] {
                    assert_eq!(path[0], [0, 0]);
                    for p in path.windows(2) {
                        let d = p[0][0].abs_diff(p[1][0]) + p[0][1].abs_diff(p[1][1]);
                        assert_eq!(d, 1, "{m}x{n}: {:?} -> {:?}", p[0], p[1]);
                    }
                    for c in &path[1..] {
                        seen[(c[1] * m + c[0]) as usize] += 1;
                    }
                }
                assert!(seen[1..].iter().all(|&k| k == 1), "{m}x{n}: {seen:?}");
            }
        }
    }

    /// Example 3.3.1's partition: X along row 0 to (9,0), Y down column 0 and up column 1 to
    /// (1,1), X back along row 1 to (3,1), … — every X run ends where Y's columns begin.
    #[test]
    fn partition_of_the_example_alternates_at_the_boundaries() {
        let [x, y] = partition([10, 10]);
        assert_eq!(x[9], [9, 0]);
        assert_eq!(
            &x[10..=16],
            [[9, 1], [8, 1], [7, 1], [6, 1], [5, 1], [4, 1], [3, 1]]
        );
        assert_eq!(y[9], [0, 9]);
        assert_eq!(y[18], [1, 1]);
        assert_eq!(y[19], [2, 1]);
        for dest in [[2, 0], [3, 1], [7, 2], [7, 5]] {
            assert!(x.contains(&dest), "{dest:?} on X");
        }
        for dest in [[0, 4], [1, 3]] {
            assert!(y.contains(&dest), "{dest:?} on Y");
        }
    }
}
