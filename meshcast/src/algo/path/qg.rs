//! **Qualified Groups (QG)**: the destinations are divided into groups of comparable weight;
//! the source sends the message to one representative per group, and every representative then
//! delivers it to the rest of its group — two message-passing steps, whatever the number of
//! destinations.
//!
//! Paper: Al-Dubai, Ould-Khaoua & Romdhani, "Design and analysis of multicast communication in
//! multidimensional mesh networks" (ISPA 2007), seed 003 §3 — four phases for n-dimensional
//! meshes, generalising the 2D QG of their earlier paper (IPDPS 2003, reference 2 of seed 003):
//!
//! 1. **Multicast area** (Definition 3, Fig. 2): the smallest box holding the source and every
//!    destination, lower corner `lᵢ = min(min_D d[i], p[i])`, upper `uᵢ = max(…)`, and its
//!    **divisor dimension** (Definition 4).
//! 2. **Primary groups** (Definition 5, eq. 1): the area is divided along the divisor dimension
//!    into disjoint groups.
//! 3. **Qualification.** Each group `Gᵢ` gets its own area (by Definition 4, its own divisor
//!    dimension), an internal distance `Int(Gᵢ) = Dist(p_f, p_n) + N_Gᵢ` (eq. 2: the Manhattan
//!    distance between the group's farthest and nearest destination from the source, plus its
//!    size), an external distance `Ext(Gᵢ) = Dist(p_n, p)` (eq. 3) and a minimum weight
//!    `W_m = Ext + Int` (eq. 4). With `W_av` their mean (Definition 6, eq. 5), the
//!    qualification point is `QP = (W_m − W_av) / W_av` (Definition 7, eq. 6), and a group is
//!    qualified iff `W_m ≤ W_av` or `QP ≤ TD` (Definition 8). An unqualified group is divided
//!    into two along its divisor dimension; the new groups are compared with those already
//!    qualified, and any still unqualified is divided once more, into `2 ≤ sb ≤ 2ⁿ` groups, where
//!    partitioning stops "even if the new obtained groups are still larger".
//! 4. **Message passing.** The nearest destination of each group is its representative. Step 1:
//!    the source reaches every representative with one start-up, over "two disjoint paths".
//!    Step 2: every representative, acting as a source, delivers the message to the rest of its
//!    group, concurrently with the others, with one more start-up.
//!
//! Complexity: O(K (n + log K)) for phases 1–3 (each destination is weighed at most three
//! times); then O(n) per hop of the worms.
//!
//! Choices. The extracted text of seed 003 has lost Definition 4's condition, eq. 1 and
//! Figs. 2–5, and leaves open how worms are routed; ours, with the reason for each:
//!
//! * **Divisor dimension** (Definition 4): the dimension in which the area is longest
//!   (`uᵢ − lᵢ` largest), ties to the highest such dimension. The text calls it "a major axis
//!   for the grouping scheme"; ties to the highest make a cube's divisor Z, the divisor of the
//!   3D example (Fig. 3).
//! * **Primary groups** (eq. 1): one per layer of the area across the divisor dimension that
//!   holds destinations, so `g_pr ≤ u_div − l_div + 1` — "dividing the destination nodes over
//!   the division dimension". The example's 8 groups fit a divisor dimension 8 layers deep.
//! * **A group's area** is the box of its destinations only (the source lies outside every
//!   group, so a box that included it could not be halved into two non-empty groups).
//! * **Dividing in two**: the group's area is cut at the middle of its own divisor dimension,
//!   `[l, ⌊(l+u)/2⌋]` and the rest; both halves hold destinations, since the area's ends do.
//!   **Dividing once more**: every dimension of the group's area longer than one node is cut at
//!   its middle, giving up to 2ⁿ boxes (fewer where the area is flat), the empty ones dropped.
//!   A group of one destination cannot be divided and stays as it is.
//! * **Second comparison**: `W_av` is recomputed over all groups after the first division
//!   ("the new sub-groups are then compared to the qualified groups already obtained"); only
//!   the new sub-groups are tested again.
//! * **Ties** for the nearest and farthest destination: the smaller coordinates in dimension
//!   order.
//! * **Routing.** The text illustrates QG with dimension-order routing but says the grouping
//!   works over any routing. Both steps route as dual-path does ([`super::dual_path`]): the
//!   nodes to reach are split by their snake label into those above and those below the sender,
//!   and one worm climbs the high channels, one descends the low ones, each leg by `R(u, v)`.
//!   That makes step 1's two paths channel-disjoint, as Phase 4 asks, and every worm deadlock
//!   free. Step 1's worms also leave a copy at every destination they pass on the way (the
//!   path-based rule of seed 003 §1); a representative's worms then carry only what its group
//!   still lacks. Step 2's worms leave copies only in their own group.
//! * **Topologies**: meshes of any dimension, as the paper; tori are refused (the multicast
//!   area is a box of a mesh).
//! * **Port order**: the source's high worm, then its low worm; then each group's worms in
//!   group order (along the divisor dimension), high before low.
//!
//! ```
//! use meshcast::{algo, algo::Request};
//! use meshcast::algo::path::qg::Grouping;
//! // A 6×6×6 mesh: destinations in three layers of z. The area is longest in z (ties to the
//! // highest dimension), so each layer is a primary group; all qualify at TD = 0.5.
//! let req = Request::parse("mesh:6x6x6", "0,0,0", "1,0,2 2,0,2 1,1,3 0,3,3 4,4,5 5,4,5").unwrap();
//! let grouping = Grouping::new(&req);
//! assert_eq!((grouping.divisor_dimension, grouping.primary_groups), (2, 3));
//! let plan = algo::find("qg").unwrap().route(&req).unwrap();
//! // The source's worm reaches the three representatives; each sends on to its group.
//! assert!(plan.sends().all(|s| s.from == req.source()
//!     || grouping.groups.iter().any(|g| g.representative == s.from)));
//! ```

use std::collections::BTreeMap;

use super::{push_worm, split_by_label};
use crate::algo::{Algorithm, Request};
use crate::plan::{Hop, Plan, PlanKind};
use crate::route::hamiltonian::{route, Snake};
use crate::topology::{Node, Shape};

/// The Qualified Groups algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Qg;

impl Algorithm for Qg {
    fn plan(&self, request: &Request) -> Plan {
        message_passing(request, &Grouping::new(request))
    }
}

/// One qualified group (the outcome of Phases 2–4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its destinations.
    pub destinations: Vec<Node>,
    /// The destination nearest the source (Phase 4), which receives in step 1.
    pub representative: Node,
    /// The primary group (Phase 2) it comes from, numbered along the divisor dimension from 0.
    pub primary: usize,
    /// How many times its primary group was divided on the way to it: 0, 1 (in two) or 2 (once
    /// more, into up to 2ⁿ).
    pub divisions: u8,
}

/// Phases 1–3 of QG for one request: the qualified groups and how they came about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grouping {
    /// The divisor dimension of the multicast area (Definition 4).
    pub divisor_dimension: usize,
    /// The number of primary groups, `g_pr`.
    pub primary_groups: usize,
    /// The qualified groups, primary group by primary group, halves lower first.
    pub groups: Vec<Group>,
}

impl Grouping {
    /// Divide the destinations of `request` into qualified groups with the threshold
    /// `request.params().td`.
    pub fn new(request: &Request) -> Grouping {
        let shape = request.shape();
        let source = request.source();
        let td = request.params().td;
        let area = Area::of(
            shape,
            request.destinations().iter().copied().chain([source]),
        );
        let divisor_dimension = area.divisor_dimension();
        let mut groups = primary_groups(shape, request.destinations(), divisor_dimension);
        let primary_groups = groups.len();
        let first = unqualified(shape, source, &groups, td);
        groups = divide(groups, &first, |g| halves(shape, g));
        let second: Vec<bool> = unqualified(shape, source, &groups, td)
            .into_iter()
            .zip(&groups)
            .map(|(u, g)| u && g.divisions == 1)
            .collect();
        groups = divide(groups, &second, |g| orthants(shape, g));
        Grouping {
            divisor_dimension,
            primary_groups,
            groups: groups
                .into_iter()
                .map(|g| Group {
                    representative: nearest(shape, source, &g.destinations),
                    destinations: g.destinations,
                    primary: g.primary,
                    divisions: g.divisions,
                })
                .collect(),
        }
    }
}

/// The minimum weight `W_m(G) = Ext(G) + Int(G)` of a group of destinations (seed 003 eqs. 2–4):
/// the distance from the source to the group's nearest destination, plus the distance between
/// its farthest and its nearest destination, plus its size. `group` must not be empty.
pub fn weight(shape: &Shape, source: Node, group: &[Node]) -> u32 {
    let near = nearest(shape, source, group);
    let far = farthest(shape, source, group);
    shape.distance(source, near) + shape.distance(far, near) + group.len() as u32
}

/// A group while Phase 3 runs.
struct Part {
    destinations: Vec<Node>,
    primary: usize,
    divisions: u8,
}

/// Phase 2: one group per layer across `divisor` that holds destinations, in layer order.
fn primary_groups(shape: &Shape, dests: &[Node], divisor: usize) -> Vec<Part> {
    let mut layers: BTreeMap<u32, Vec<Node>> = BTreeMap::new();
    for &d in dests {
        layers.entry(shape.coord(d, divisor)).or_default().push(d);
    }
    layers
        .into_values()
        .enumerate()
        .map(|(primary, destinations)| Part {
            destinations,
            primary,
            divisions: 0,
        })
        .collect()
}

/// Definition 8 for every group: not (`W_m ≤ W_av` or `QP ≤ TD`). With integer weights,
/// `W_m ≤ W_av` is `g·W_m ≤ ΣW` and `QP ≤ TD` is `g·W_m − ΣW ≤ TD·ΣW`.
fn unqualified(shape: &Shape, source: Node, groups: &[Part], td: f64) -> Vec<bool> {
    let weights: Vec<f64> = groups
        .iter()
        .map(|g| f64::from(weight(shape, source, &g.destinations)))
        .collect();
    let (sum, count) = (weights.iter().sum::<f64>(), weights.len() as f64);
    weights
        .iter()
        .map(|&w| !(count * w <= sum || count * w - sum <= td * sum))
        .collect()
}

/// Replace every group marked in `split` (and of more than one destination) by the parts
/// `cut` gives, counted as one more division; the others stay, in order.
fn divide(groups: Vec<Part>, split: &[bool], cut: impl Fn(&[Node]) -> Vec<Vec<Node>>) -> Vec<Part> {
    let mut out = Vec::with_capacity(groups.len());
    for (g, &s) in groups.into_iter().zip(split) {
        if s && g.destinations.len() > 1 {
            out.extend(cut(&g.destinations).into_iter().map(|destinations| Part {
                destinations,
                primary: g.primary,
                divisions: g.divisions + 1,
            }));
        } else {
            out.push(g);
        }
    }
    out
}

/// A group divided in two across the middle of its own divisor dimension, lower half first.
fn halves(shape: &Shape, group: &[Node]) -> Vec<Vec<Node>> {
    let area = Area::of(shape, group.iter().copied());
    let d = area.divisor_dimension();
    let mid = area.middle(d);
    let (low, high) = group.iter().partition(|&&v| shape.coord(v, d) <= mid);
    vec![low, high]
}

/// A group divided across the middle of every dimension its area spans: up to 2ⁿ non-empty
/// parts, in order of the part's bit pattern (bit i: upper half of dimension i).
fn orthants(shape: &Shape, group: &[Node]) -> Vec<Vec<Node>> {
    let area = Area::of(shape, group.iter().copied());
    let mut parts: BTreeMap<u64, Vec<Node>> = BTreeMap::new();
    for &v in group {
        let bits = (0..shape.rank())
            .filter(|&d| shape.coord(v, d) > area.middle(d))
            .fold(0u64, |b, d| b | 1 << d);
        parts.entry(bits).or_default().push(v);
    }
    parts.into_values().collect()
}

/// A box of the mesh: the smallest holding some nodes (Definition 3).
struct Area {
    lower: Vec<u32>,
    upper: Vec<u32>,
}

impl Area {
    fn of(shape: &Shape, nodes: impl Iterator<Item = Node>) -> Area {
        let n = shape.rank();
        let mut area = Area {
            lower: vec![u32::MAX; n],
            upper: vec![0; n],
        };
        for v in nodes {
            for d in 0..n {
                let x = shape.coord(v, d);
                area.lower[d] = area.lower[d].min(x);
                area.upper[d] = area.upper[d].max(x);
            }
        }
        area
    }

    /// Definition 4 (our reading): the longest dimension, ties to the highest.
    fn divisor_dimension(&self) -> usize {
        (0..self.lower.len())
            .max_by_key(|&d| (self.upper[d] - self.lower[d], d))
            .expect("a shape has a dimension")
    }

    /// The last coordinate of the lower half of dimension `d`.
    fn middle(&self, d: usize) -> u32 {
        self.lower[d] + (self.upper[d] - self.lower[d]) / 2
    }
}

/// The destination of `group` nearest the source (`p_n`); ties to smaller coordinates.
fn nearest(shape: &Shape, source: Node, group: &[Node]) -> Node {
    extreme(shape, group, |v| shape.distance(source, v))
}

/// The destination of `group` farthest from the source (`p_f`); ties to smaller coordinates.
fn farthest(shape: &Shape, source: Node, group: &[Node]) -> Node {
    extreme(shape, group, |v| u32::MAX - shape.distance(source, v))
}

/// The node of `group` with the least `key`, ties to the smaller coordinates in dimension order.
fn extreme(shape: &Shape, group: &[Node], key: impl Fn(Node) -> u32) -> Node {
    let coords = |v: Node| (0..shape.rank()).map(move |d| shape.coord(v, d));
    *group
        .iter()
        .min_by(|&&a, &&b| key(a).cmp(&key(b)).then_with(|| coords(a).cmp(coords(b))))
        .expect("a group is never empty")
}

/// Phase 4: step 1 from the source to the representatives, then step 2 from each
/// representative to the rest of its group.
fn message_passing(request: &Request, grouping: &Grouping) -> Plan {
    let shape = request.shape();
    let source = request.source();
    let snake = Snake::new(shape);
    let mut plan = Plan::new(PlanKind::Path, source, request.destinations().to_vec());
    let mut waiting = vec![false; shape.len()];
    for d in request.destinations() {
        waiting[d.index()] = true;
    }
    let reps: Vec<Node> = grouping.groups.iter().map(|g| g.representative).collect();
    let (high, low) = split_by_label(&snake, source, &reps);
    for part in [high, low].iter().filter(|p| !p.is_empty()) {
        push_passing_worm(&mut plan, &snake, source, part, &mut waiting);
    }
    for g in &grouping.groups {
        let rest: Vec<Node> = g
            .destinations
            .iter()
            .copied()
            .filter(|d| waiting[d.index()])
            .collect();
        let (high, low) = split_by_label(&snake, g.representative, &rest);
        for part in [high, low].iter().filter(|p| !p.is_empty()) {
            push_worm(&mut plan, &snake, g.representative, &[], part);
        }
    }
    plan
}

/// Append one worm from `from` through `stops` in turn along `R(u, v)`, leaving a copy at every
/// node it passes that is still `waiting` for the message (the stops always are).
fn push_passing_worm(
    plan: &mut Plan,
    snake: &Snake,
    from: Node,
    stops: &[Node],
    waiting: &mut [bool],
) {
    let mut hops = Vec::new();
    let mut at = from;
    for &v in stops {
        for node in route(snake, at, v) {
            let drop = std::mem::replace(&mut waiting[node.index()], false);
            hops.push(Hop::new(node, drop));
        }
        at = v;
    }
    plan.push_send(from, hops);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(shape: &Shape, text: &str) -> Vec<Node> {
        shape.parse_nodes(text).unwrap()
    }

    #[test]
    fn divisor_dimension_is_the_longest_ties_to_the_highest() {
        let shape: Shape = "mesh:6x6x6".parse().unwrap();
        let area = |t| Area::of(&shape, nodes(&shape, t).into_iter());
        assert_eq!(area("0,0,0 5,2,1").divisor_dimension(), 0);
        assert_eq!(area("0,0,0 5,5,1").divisor_dimension(), 1);
        assert_eq!(area("0,0,0 3,3,3").divisor_dimension(), 2);
    }

    #[test]
    fn weight_is_external_plus_internal_distance() {
        let shape: Shape = "mesh:8x8".parse().unwrap();
        let source = shape.node(&[0, 0]).unwrap();
        // Nearest (2,1) at 3 hops, farthest (5,4) 6 hops beyond it, three destinations.
        let group = nodes(&shape, "5,4 2,1 3,3");
        assert_eq!(weight(&shape, source, &group), 3 + 6 + 3);
    }

    #[test]
    fn halves_cut_the_group_divisor_at_its_middle() {
        let shape: Shape = "mesh:8x8".parse().unwrap();
        let group = nodes(&shape, "1,2 6,2 3,3 4,2");
        assert_eq!(
            halves(&shape, &group),
            [nodes(&shape, "1,2 3,3"), nodes(&shape, "6,2 4,2")]
        );
        let flat = nodes(&shape, "1,1 6,1 1,6 6,6 2,2");
        assert_eq!(orthants(&shape, &flat).len(), 4);
    }
}
