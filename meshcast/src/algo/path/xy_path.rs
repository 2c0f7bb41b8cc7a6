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
//! Complexity: O(m + n) for the partition, against the paper's O(N) (Proposition 3.3.2): each
//! path is kept as one stretch per line it covers (a row of X, a column of Y), and a node's
//! position is found from its coordinates and its line's stretch, with nothing stored per node
//! — a plan's work is its worms' hops, not the mesh (issue 14). The tests check the stretches
//! node for node against the paper's walk, one node at a time, on every mesh up to 40×40.
//! O(1) per hop of the worms.
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
use crate::algo::local::Divisor;
use crate::algo::reduce::{feeder, Zones};
use crate::algo::{Algorithm, Request};
use crate::plan::{Plan, PlanKind};
use crate::route::hamiltonian::Labelling;
use crate::topology::{Dir, Node, Shape};

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
            let zone = zones.locate(d, &mut [0; 2]);
            by_zone.entry(zone).or_default().push(d);
        }
        let mut base = BasePaths::new(&zones);
        let mut plan = Plan::new(PlanKind::Path, source, request.destinations().to_vec());
        for (&zone, dests) in &by_zone {
            base.add(zone);
            let paths = [base.path(0), base.path(1)];
            // Each destination by its position on its path (X for the corner, which is on
            // both), each path's in path order: the positions on one path are distinct.
            let mut on: [Vec<(u32, Node)>; 2] = Default::default();
            for &d in dests {
                let (axis, position) = paths
                    .iter()
                    .enumerate()
                    .find_map(|(axis, path)| Some((axis, path.position(d)?)))
                    .expect("the two paths cover the submesh");
                on[axis].push((position, d));
            }
            let via = corner_route(&zones, zone);
            for (path, mut part) in paths.iter().zip(on) {
                if !part.is_empty() {
                    part.sort_unstable();
                    let part: Vec<Node> = part.into_iter().map(|(_, d)| d).collect();
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

/// The base paths X and Y of every submesh routed so far: each submesh's partition, its
/// positions on each path numbered after those of the submeshes routed before it — disjoint
/// label ranges, so `R` never steps from one submesh's path onto another's, and a node of a
/// submesh not routed yet is on neither path.
struct BasePaths<'a> {
    zones: &'a Zones<'a>,
    /// The mesh's width: a node's row without a division.
    width: Divisor,
    routed: Vec<Routed>,
    /// The first position of the next submesh on X and on Y.
    next: [u32; 2],
}

/// A submesh of [`BasePaths`]: where it lies — its corner (the local origin) in global
/// coordinates, whether each local axis runs up the global one, its extents — its partition,
/// and the position of its corner on X and on Y.
struct Routed {
    corner: [u32; 2],
    up: [bool; 2],
    ext: [u32; 2],
    partition: Partition,
    first: [u32; 2],
}

impl Routed {
    /// The local coordinates of global coordinates `g`, if the submesh holds them.
    fn local(&self, g: [u32; 2]) -> Option<[u32; 2]> {
        let l = [0, 1].map(|i| {
            if self.up[i] {
                g[i].wrapping_sub(self.corner[i])
            } else {
                self.corner[i].wrapping_sub(g[i])
            }
        });
        (l[0] < self.ext[0] && l[1] < self.ext[1]).then_some(l)
    }
}

impl<'a> BasePaths<'a> {
    fn new(zones: &'a Zones<'a>) -> BasePaths<'a> {
        BasePaths {
            zones,
            width: Divisor::new(zones.shape().dims()[0]),
            routed: Vec::new(),
            next: [0; 2],
        }
    }

    /// Append the paths of `zone`'s submesh.
    fn add(&mut self, zone: u32) {
        let shape = self.zones.shape();
        let (ext, corner) = (self.zones.extents(zone), self.zones.origin(zone));
        let ext = [ext[0], ext[1]];
        let partition = partition(ext);
        let first = self.next;
        for (next, len) in self.next.iter_mut().zip(partition.len) {
            *next += len;
        }
        self.routed.push(Routed {
            corner: [shape.coord(corner, 0), shape.coord(corner, 1)],
            up: [0, 1].map(|i| zone >> i & 1 == 0),
            ext,
            partition,
            first,
        });
    }

    /// Path X (`axis` 0) or Y (1).
    fn path(&self, axis: usize) -> BasePath<'_> {
        BasePath { paths: self, axis }
    }
}

/// Base path X or Y of [`BasePaths`], as the labelling `R` routes on.
#[derive(Clone, Copy)]
struct BasePath<'a> {
    paths: &'a BasePaths<'a>,
    axis: usize,
}

impl BasePath<'_> {
    /// The coordinates of `node`, with one division.
    fn coords(&self, node: Node) -> [u32; 2] {
        let y = self.paths.width.div(node.0);
        [node.0 - y * self.shape().dims()[0], y]
    }

    /// The position of the node at global coordinates `g`, if it is on the path: its submesh's
    /// lines.
    fn position_at(&self, g: [u32; 2]) -> Option<u32> {
        let (routed, local) = self
            .paths
            .routed
            .iter()
            .find_map(|r| r.local(g).map(|l| (r, l)))?;
        let position = routed.partition.position(self.axis, local)?;
        Some(routed.first[self.axis] + position)
    }
}

impl Labelling for BasePath<'_> {
    fn shape(&self) -> &Shape {
        self.paths.zones.shape()
    }

    /// Found from the node's coordinates and the submeshes' lines: O(1), with nothing stored
    /// per node.
    fn position(&self, node: Node) -> Option<u32> {
        self.position_at(self.coords(node))
    }

    /// The neighbours' coordinates from the node's, without a division each.
    fn neighbours_on_path(&self, node: Node, out: &mut Vec<(u32, Node)>) {
        out.clear();
        let g = self.coords(node);
        for d in 0..2 {
            for dir in [Dir::Plus, Dir::Minus] {
                if let Some((w, x)) = self.shape().neighbor_at(node, d, g[d], dir) {
                    let mut at = g;
                    at[d] = x;
                    if let Some(position) = self.position_at(at) {
                        out.push((position, w));
                    }
                }
            }
        }
    }
}

/// Algorithm 3.3.1 on an `m × n` mesh with the source at (0,0), line by line: path X lies along
/// rows and has one stretch in each of the rows 0, 1, … it reaches, path Y one in each of the
/// columns 0, 1, …; both start at (0,0). The two paths have `len` nodes each, (0,0) counted in
/// both.
struct Partition {
    lines: [Vec<Line>; 2],
    len: [u32; 2],
}

/// A path's stretch of one line: the position on the path of its node at coordinate `from`
/// along the line, and the coordinate `to` of its last node (below `from` when the stretch runs
/// backwards).
#[derive(Clone, Copy, Debug)]
struct Line {
    first: u32,
    from: u32,
    to: u32,
}

impl Line {
    /// The position of the node at coordinate `t` along the line, if the stretch holds it.
    fn position(self, t: u32) -> Option<u32> {
        let (lo, hi) = (self.from.min(self.to), self.from.max(self.to));
        (lo..=hi)
            .contains(&t)
            .then(|| self.first + t.abs_diff(self.from))
    }
}

impl Partition {
    /// The position of the node at local coordinates `c` on path X (`axis` 0) or Y (1), if it
    /// lies on it.
    fn position(&self, axis: usize, c: [u32; 2]) -> Option<u32> {
        self.lines[axis]
            .get(c[1 - axis] as usize)?
            .position(c[axis])
    }
}

/// Algorithm 3.3.1 on an `m × n` mesh (`ext = [m, n]`) with the source at (0,0), in O(m + n)
/// instead of the paper's O(N) (Proposition 3.3.2): the steps are the algorithm's, but a path
/// runs straight to the end of its line in one step, since the free nodes form a rectangle —
/// the nodes at or beyond `free` in both dimensions, less the source — and no hand-over can
/// happen mid-line (only at the far boundary). Each path bumps the other's bound: X's rows
/// raise `free[1]`, Y's columns `free[0]`. The tests check it node for node against the walk
/// one node at a time, as the paper states it.
fn partition(ext: [u32; 2]) -> Partition {
    let mut walkers = [Walker::new(0), Walker::new(1)];
    let mut free = [0; 2];
    let mut turn = 0;
    while !(walkers[0].done && walkers[1].done) {
        let (me, other) = (&walkers[turn], &walkers[1 - turn]);
        let hand_over = !other.done && me.at_far_boundary(ext) && me.len > other.len;
        if me.done || hand_over {
            turn = 1 - turn;
        } else {
            walkers[turn].advance(ext, &mut free);
        }
    }
    Partition {
        len: walkers.each_ref().map(|w| w.len),
        lines: walkers.map(|w| w.lines),
    }
}

/// One of the two paths of the partition while it grows: X runs along `axis` 0 (rows), Y along
/// `axis` 1 (columns).
struct Walker {
    axis: usize,
    forward: bool,
    at: [u32; 2],
    lines: Vec<Line>,
    len: u32,
    done: bool,
}

impl Walker {
    fn new(axis: usize) -> Walker {
        Walker {
            axis,
            forward: true,
            at: [0, 0],
            lines: vec![Line {
                first: 0,
                from: 0,
                to: 0,
            }],
            len: 1,
            done: false,
        }
    }

    /// At the far end of a line it ran along forwards ("x(v) = m−1 and v is the last node of
    /// its row", Algorithm 3.3.1 step 2(a); for Y, `y(v) = n−1`).
    fn at_far_boundary(&self, ext: [u32; 2]) -> bool {
        self.forward && self.at[self.axis] == ext[self.axis] - 1
    }

    /// Step 2(a)–(b): straight on to the end of the free part of the line, else a U-turn into
    /// the next line; done if neither is free. Along its own line only the other path's bound
    /// (`free[axis]`) and the source can block it; the U-turn's node must lie in the rectangle.
    fn advance(&mut self, ext: [u32; 2], free: &mut [u32; 2]) {
        let (a, b) = (self.axis, 1 - self.axis);
        let (t, line) = (self.at[a], self.at[b]);
        let end = if self.forward {
            Some(ext[a] - 1).filter(|&end| t < end && t + 1 >= free[a])
        } else {
            // The source closes line 0 at coordinate 0.
            let low = free[a].max(u32::from(line == 0));
            Some(low).filter(|&low| t > low)
        };
        if let Some(end) = end {
            self.lines[line as usize].to = end;
            self.len += end.abs_diff(t);
            self.at[a] = end;
        } else if line + 1 < ext[b] && t >= free[a] && line + 1 >= free[b] {
            self.lines.push(Line {
                first: self.len,
                from: t,
                to: t,
            });
            self.len += 1;
            self.at[b] = line + 1;
            self.forward = !self.forward;
        } else {
            self.done = true;
            return;
        }
        free[b] = free[b].max(self.at[b] + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::hamiltonian::ByPosition;

    /// Algorithm 3.3.1 as the paper states it, one node at a time: the nodes of path X and of
    /// path Y in path order, as local coordinates; both start at (0,0).
    fn walk(ext: [u32; 2]) -> [Vec<[u32; 2]>; 2] {
        let mut taken = vec![false; (ext[0] * ext[1]) as usize];
        taken[0] = true;
        let mut paths = [vec![[0, 0]], vec![[0, 0]]];
        let mut forward = [true; 2];
        let mut done = [false; 2];
        let mut turn = 0;
        while !(done[0] && done[1]) {
            let (a, b) = (turn, 1 - turn);
            let at = *paths[a].last().expect("a path starts at the source");
            let far = forward[a] && at[a] == ext[a] - 1;
            if done[a] || (!done[b] && far && paths[a].len() > paths[b].len()) {
                turn = b;
                continue;
            }
            let index = |c: [u32; 2]| (c[1] * ext[0] + c[0]) as usize;
            let moved = |d: usize, x: u32| {
                let mut c = at;
                c[d] = x;
                c
            };
            let ahead = if forward[a] {
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
                    forward[a] = !forward[a];
                    c
                }
                (None, None) => {
                    done[a] = true;
                    continue;
                }
            };
            taken[index(next)] = true;
            paths[a].push(next);
        }
        paths
    }

    /// The nodes of the partition's paths in path order, line by line.
    fn nodes(partition: &Partition) -> [Vec<[u32; 2]>; 2] {
        [0, 1].map(|axis| {
            let mut out = Vec::new();
            for (line, l) in partition.lines[axis].iter().enumerate() {
                let along: Vec<u32> = if l.from <= l.to {
                    (l.from..=l.to).collect()
                } else {
                    (l.to..=l.from).rev().collect()
                };
                for t in along {
                    let mut c = [0; 2];
                    c[axis] = t;
                    c[1 - axis] = line as u32;
                    out.push(c);
                }
            }
            out
        })
    }

    /// Line by line is the paper's walk node for node, and every node's position is its place
    /// on its path.
    #[test]
    fn partition_by_lines_is_the_walk_node_by_node() {
        for m in 1..=40 {
            for n in 1..=40 {
                let partition = partition([m, n]);
                let paths = nodes(&partition);
                assert_eq!(paths, walk([m, n]), "{m}x{n}");
                for (axis, path) in paths.iter().enumerate() {
                    assert_eq!(partition.len[axis] as usize, path.len(), "{m}x{n}");
                    for (k, &c) in path.iter().enumerate() {
                        assert_eq!(partition.position(axis, c), Some(k as u32), "{m}x{n}");
                    }
                }
            }
        }
        for ext in [[1000, 3], [3, 1000], [257, 256], [256, 257], [100, 170]] {
            assert_eq!(nodes(&partition(ext)), walk(ext), "{ext:?}");
        }
    }

    /// The base paths' neighbours from the node's coordinates are those the default finds by
    /// position, neighbour by neighbour, with submeshes routed and not yet routed around a
    /// source off the corner.
    #[test]
    fn neighbours_on_the_base_paths_are_those_found_by_position() {
        let shape: Shape = "mesh:9x7".parse().unwrap();
        let zones = Zones::new(&shape, shape.node(&[3, 4]).unwrap());
        let mut base = BasePaths::new(&zones);
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        for zone in [0, 2, 3] {
            base.add(zone);
            for axis in 0..2 {
                for n in shape.nodes() {
                    base.path(axis).neighbours_on_path(n, &mut fast);
                    ByPosition(&base.path(axis)).neighbours_on_path(n, &mut slow);
                    assert_eq!(fast, slow, "zone {zone}, axis {axis}, {n:?}");
                }
            }
        }
    }

    /// Proposition 3.3.1: X and Y are paths, joined only at the source, covering the mesh.
    #[test]
    fn partition_covers_every_mesh_with_two_paths() {
        for m in 1..=8 {
            for n in 1..=8 {
                let [x, y] = nodes(&partition([m, n]));
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
        let [x, y] = nodes(&partition([10, 10]));
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
