//! The two reductions every tree algorithm relies on, written once (seed 001 §3.1.1, §3.1.3).
//!
//! * **Torus**: the torus, seen from the source, splits at the middle of every dimension into
//!   2ⁿ zones (Algorithms 3.2.1.3 and 3.2.1.6). Zone `b` (bit i set: the zone lies on the
//!   negative side in dimension i) is a submesh whose origin is the source moved one hop back
//!   over the wraparound link in each dimension of `b`. Positive sides have ⌈k/2⌉ nodes,
//!   negative ones ⌊k/2⌋, as in the papers' zone tables.
//! * **Arbitrary source in a mesh**: the same construction with the source's own coordinates as
//!   the split: the positive side of dimension i is `[sᵢ, kᵢ − 1]`, the negative side
//!   `[0, sᵢ − 1]`, whose origin is one hop below the source.
//!
//! Path-based XY-path (seed 001 §3.3.3, stated for a corner source) uses the same mesh zones.
//!
//! Zones are disjoint, so their subtrees join into one tree. A zone's origin is reached from the
//! origin of zone `b` without its highest set bit (in 2D: (0,0) → (m−1,0) → (m−1,n−1), as in the
//! 8×8 torus example), so every destination keeps its shortest distance. At a branching node the
//! hops to zone origins go first, lower zone first ("wraparound links have a higher transmission
//! priority", seed 001 §3.2.1.4 and §3.2.1.6); then the zone's own tree in its algorithm's order.
//!
//! Public: [`ZoneAlgorithm`], what a tree algorithm implements, and [`lift`], which runs it; the
//! zone arithmetic and the listing of the plan stay inside.
//!
//! Our choices where the papers are silent (docs/ALGORITHMS.md): the negative mesh zones start one
//! hop below the source instead of sharing its row and column (the paper's overlapping submeshes
//! would let two subtrees use the same links); the 3D torus example joins zone (x,y,z) through
//! zone (x,z) where our rule uses (x,y) — the same number of hops, and the example's numbers agree.

use std::collections::BTreeSet;

use super::local::{Forest, Grid, LocalTree, Union, LARGE, NONE, NO_LINK};
use super::Request;
use crate::plan::{Hop, Plan};
use crate::topology::{Kind, Node, Shape};

/// A tree algorithm stated for a mesh with the source at its origin (seed 001 §3.1.1): the
/// extension point for tree algorithms, inside this crate or outside it.
///
/// An implementation only grows one zone's tree; [`lift`] runs it in every zone of a torus or
/// around an arbitrary mesh source, prunes the branches that serve no destination, joins the
/// zones and lists the sends in port order. Every `ZoneAlgorithm` is therefore an
/// [`Algorithm`](crate::algo::Algorithm) on every n-D mesh and torus, and can fill an
/// [`AlgoInfo`](crate::algo::AlgoInfo) row of the caller's own.
///
/// The contract of [`ZoneAlgorithm::grow`]:
/// * grow the tree only through [`LocalTree`]'s methods — [`LocalTree::attach`] (one link to a
///   neighbour), [`LocalTree::connect`] (a dimension-ordered route) and [`LocalTree::join`] (from
///   the closest tree node) — so that it stays a tree rooted at the local origin;
/// * when it returns, every destination is in the tree (the plan's validator reports any that is
///   not);
/// * if every destination is reached along a monotone path (each coordinate only grows, as
///   [`Reach::InZone`](super::local::Reach::InZone) guarantees), the lifted plan reaches every
///   destination along a shortest path of the torus or mesh.
///
/// ```
/// use meshcast::algo::local::{LocalTree, Reach};
/// use meshcast::algo::reduce::{lift, ZoneAlgorithm};
/// use meshcast::algo::Request;
///
/// /// Destinations in the order given, each joined to the closest tree node in its zone.
/// struct InOrder;
///
/// impl ZoneAlgorithm for InOrder {
///     fn grow(&self, tree: &mut LocalTree<'_>, dests: &[u32]) {
///         for &u in dests {
///             tree.join(u, Reach::InZone);
///         }
///     }
/// }
///
/// let req = Request::parse("torus:6x6", "2,3", "0,0 5,5 2,0 4,4")?;
/// let plan = lift(&InOrder, &req);
/// plan.validate(req.shape(), true)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ZoneAlgorithm: Sync {
    /// Grow `tree` (which holds the origin only) until it reaches every destination in `dests`:
    /// local ids of `tree`'s grid ([`Grid::index`] of local coordinates), distinct, possibly
    /// including the origin (id 0) itself — the origin of a zone other than the source's.
    fn grow(&self, tree: &mut LocalTree<'_>, dests: &[u32]);

    /// Whether a branching node serves its stem child (marked by [`LocalTree::mark_stem`]) first,
    /// as DIAG does; otherwise, and after it, children go in dimension order, increasing
    /// direction first.
    fn stem_first(&self) -> bool {
        false
    }
}

/// The zones of `shape` around `source`.
pub(crate) struct Zones<'a> {
    shape: &'a Shape,
    /// The shape's ids as a grid (dimension 0 fastest, as the shape's): a node's global
    /// coordinates without a division.
    whole: Grid,
    torus: bool,
    /// Per dimension: the source's coordinate, the extent and the nodes on either side.
    sides: Vec<Side>,
}

/// One dimension of [`Zones`]: the source's coordinate, the shape's extent, and the nodes on
/// the positive side of the source (the source's own included) and on the negative side.
#[derive(Clone, Copy)]
struct Side {
    source: u32,
    extent: u32,
    pos: u32,
    neg: u32,
}

impl<'a> Zones<'a> {
    pub(crate) fn new(shape: &'a Shape, source: Node) -> Zones<'a> {
        let torus = shape.kind() == Kind::Torus;
        let sides = shape
            .dims()
            .iter()
            .zip(shape.coords(source))
            .map(|(&k, s)| {
                let (pos, neg) = if torus {
                    (k.div_ceil(2), k / 2)
                } else {
                    (k - s, s)
                };
                Side {
                    source: s,
                    extent: k,
                    pos,
                    neg,
                }
            })
            .collect();
        Zones {
            shape,
            whole: Grid::new(shape.dims()),
            torus,
            sides,
        }
    }

    /// The shape the zones divide.
    pub(crate) fn shape(&self) -> &'a Shape {
        self.shape
    }

    /// The zone of `node`; its local coordinates in it go to `local` (one per dimension).
    pub(crate) fn locate(&self, node: Node, local: &mut [u32]) -> u32 {
        self.whole.coords_into(node.0, local);
        let torus = self.torus;
        let mut zone = 0u32;
        for (i, (l, side)) in local.iter_mut().zip(&self.sides).enumerate() {
            let (x, s, k, pos) = (*l, side.source, side.extent, side.pos);
            // On a torus, (x − s) mod k: x + k − s lies in [1, 2k − 1]. In a mesh, a coordinate
            // below the source's wraps to a delta past the positive side.
            let delta = if torus && x < s {
                x + k - s
            } else {
                x.wrapping_sub(s)
            };
            *l = if delta < pos {
                delta
            } else {
                zone |= 1 << i;
                if torus {
                    k - 1 - delta
                } else {
                    s - 1 - x
                }
            };
        }
        zone
    }

    /// The sizes of `zone`, dimension by dimension.
    pub(crate) fn extents(&self, zone: u32) -> Vec<u32> {
        self.sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                if zone >> i & 1 == 1 {
                    side.neg
                } else {
                    side.pos
                }
            })
            .collect()
    }

    /// Global coordinate of local coordinate `l` along dimension `i` of `zone`.
    fn global_coord(&self, zone: u32, i: usize, l: u32) -> u32 {
        let (s, k) = (self.sides[i].source, self.sides[i].extent);
        match (zone >> i & 1 == 1, self.torus) {
            (false, false) => s + l,
            (true, false) => s - 1 - l,
            (false, true) => (s + l) % k,
            (true, true) => (s + k - 1 - l) % k,
        }
    }

    /// The node at local coordinates `local` of `zone`.
    pub(crate) fn global(&self, zone: u32, local: &[u32]) -> Node {
        let g: Vec<u32> = local
            .iter()
            .enumerate()
            .map(|(i, &l)| self.global_coord(zone, i, l))
            .collect();
        self.shape
            .node(&g)
            .expect("zone coordinates stay inside the shape")
    }

    /// The steps of `zone`'s grid by port (`2i` up dimension `i`, `2i + 1` down), as changes of
    /// the global id.
    fn steps(&self, zone: u32) -> Vec<Step> {
        let torus = self.torus;
        (0..self.sides.len())
            .flat_map(|i| {
                let (g, k) = (self.whole.stride(i), self.sides[i].extent);
                let last = k - 1;
                // Up the zone's dimension `i` is up the global one on the positive side.
                let up = Step {
                    dim: i,
                    delta: g,
                    wraps_from: if torus { last } else { NONE },
                    wrapped: (last * g).wrapping_neg(),
                };
                let down = Step {
                    dim: i,
                    delta: g.wrapping_neg(),
                    wraps_from: if torus { 0 } else { NONE },
                    wrapped: last * g,
                };
                if zone >> i & 1 == 0 {
                    [up, down]
                } else {
                    [down, up]
                }
            })
            .collect()
    }

    /// The node at the local origin of `zone`: the source for zone 0.
    pub(crate) fn origin(&self, zone: u32) -> Node {
        self.global(zone, &vec![0; self.sides.len()])
    }
}

/// The zone whose origin passes the message on to zone `b`'s origin.
pub(crate) fn feeder(b: u32) -> u32 {
    b & !(1 << (31 - b.leading_zeros()))
}

/// Run `algo` in every zone of the request's shape around its source and join the subtrees into
/// one tree plan (seed 001 §3.1.1 and §3.1.3; the port order is the module's). The plan is not
/// validated here: [`AlgoInfo::route`](crate::algo::AlgoInfo::route) does it in debug builds,
/// and [`Plan::validate`] does it on demand.
pub fn lift(algo: &dyn ZoneAlgorithm, request: &Request) -> Plan {
    lift_into(algo, request, None)
}

/// [`lift`], the plan written into the memory of `spent`, a plan the caller is done with, on a
/// topology of fewer than 2²⁵ nodes; on a larger one `spent` is given back first, so that a
/// large plan is never held twice. The plan is the one [`lift`] returns.
pub fn lift_reusing(algo: &dyn ZoneAlgorithm, request: &Request, spent: Plan) -> Plan {
    lift_into(algo, request, Some(spent))
}

/// [`lift`] or [`lift_reusing`].
fn lift_into(algo: &dyn ZoneAlgorithm, request: &Request, spent: Option<Plan>) -> Plan {
    // The phases — growing and pruning (`grow_zones`, `LocalTree::prune`), listing (`list`) and,
    // on a large forest, the senders (`senders`) — are compiled each on its own
    // (`#[inline(never)]`): inlined into one function, their loops' values no longer fit the
    // registers and are kept on the stack (VH at 1024²: 1.5–3% more instructions;
    // docs/PERFORMANCE.md, "Sixth round").
    let (source, dests) = (request.source(), request.destinations());
    let zones = Zones::new(request.shape(), source);
    // A forest of the topology's size or less: below `LARGE` places it is never large, and
    // from there on `spent` is given back before the trees grow, not held beside them.
    let spent = match spent {
        Some(plan) if request.shape().len() < LARGE => plan.into_memory(),
        spent => {
            drop(spent);
            Default::default()
        }
    };
    let (forest, plan_zones, links) = grow_zones(algo, &zones, dests);
    // The listing compiled once for each way of writing the senders: with the receivers, or —
    // on a forest large enough to be given back first — counted, and written once the forest
    // is gone, so that the plan's 8 bytes per link and the forest's 8 are not all held at once
    // (and for each way of reading the trees, `lister`).
    let (from, to) = if forest.is_large() {
        let list = lister::<Counted>(algo.stem_first(), &plan_zones);
        let counted = list(
            &forest,
            &plan_zones,
            &zones.whole,
            links,
            Default::default(),
        );
        drop(forest);
        senders(source, counted)
    } else {
        let list = lister::<Paired>(algo.stem_first(), &plan_zones);
        let sends = list(&forest, &plan_zones, &zones.whole, links, spent);
        (sends.from, sends.to)
    };
    Plan::tree(source, dests.to_vec(), from, to)
}

/// The listing of the trees of `zones`: compiled apart for each port order and for unions of
/// routes (VH's, PAIR's and DIAG-stem's), so that the usual one tests neither a stem flag nor
/// a zone's kind per node.
fn lister<S: Sends>(
    stem_first: bool,
    zones: &[PlanZone],
) -> fn(&Forest, &[PlanZone], &Grid, usize, Memory) -> S {
    match (stem_first, zones.iter().any(|z| z.union.is_some())) {
        (true, false) => list::<true, false, S>,
        (false, false) => list::<false, false, S>,
        (true, true) => list::<true, true, S>,
        (false, true) => list::<false, true, S>,
    }
}

/// Every zone the plan needs — those with destinations and those on the way to them — with the
/// trees `algo` grows in the zones with destinations, pruned, side by side in one forest, and
/// the number of links of the plan. The destinations' per-zone lists are gone when it returns,
/// before the plan is listed.
// Not inlined: see `lift`.
#[inline(never)]
fn grow_zones(
    algo: &dyn ZoneAlgorithm,
    zones: &Zones,
    dests: &[Node],
) -> (Forest, Vec<PlanZone>, usize) {
    let groups = destinations_by_zone(zones, dests);
    // Every zone on the way from the source to a zone with destinations, and the source's.
    let mut needed = BTreeSet::from([0]);
    for &(zone, _) in &groups {
        let mut b = zone;
        while needed.insert(b) {
            b = feeder(b);
        }
    }
    let needed: Vec<u32> = needed.into_iter().collect();
    let index = |b: u32| needed.binary_search(&b).expect("a needed zone");
    let mut plan_zones: Vec<PlanZone> = needed.iter().map(|&b| PlanZone::new(zones, b)).collect();
    for (i, &b) in needed.iter().enumerate().skip(1) {
        plan_zones[index(feeder(b))].hops.push(i as u32);
    }
    let total = groups
        .iter()
        .map(|&(zone, _)| zones.extents(zone).iter().product::<u32>() as usize)
        .sum();
    let mut forest = Forest::new(total);
    let mut offset = 0;
    let mut links = needed.len() - 1;
    for (zone, ids) in &groups {
        let z = &mut plan_zones[index(*zone)];
        let mut tree = forest.tree(z.grid.clone(), offset);
        algo.grow(&mut tree, ids);
        links += tree.prune(ids);
        z.root = Some(tree.root());
        z.union = tree.take_union();
        offset += z.grid.len();
    }
    forest.pruned();
    (forest, plan_zones, links)
}

/// The zones with destinations, in increasing order, each with its destinations' local ids
/// ([`Grid::index`] of their local coordinates) in request order. When the source is the
/// corner of a mesh (every coordinate 0), the shape is one zone whose local coordinates are
/// the global ones, and so are the ids: no destination is located — the case of every
/// Monte-Carlo sweep of a mesh, where locating and grouping was a sixth of a plan's
/// instructions on small meshes (docs/PERFORMANCE.md).
fn destinations_by_zone(zones: &Zones, dests: &[Node]) -> Vec<(u32, Vec<u32>)> {
    if zones.sides.iter().all(|side| side.neg == 0) {
        let ids: Vec<u32> = dests.iter().map(|d| d.0).collect();
        return if ids.is_empty() {
            vec![]
        } else {
            vec![(0, ids)]
        };
    }
    let n = zones.shape.rank();
    let mut local = vec![0; dests.len() * n];
    let mut by_zone: Vec<(u32, usize)> = dests
        .iter()
        .enumerate()
        .map(|(k, &d)| (zones.locate(d, &mut local[k * n..(k + 1) * n]), k))
        .collect();
    by_zone.sort_by_key(|&(zone, _)| zone);
    by_zone
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| {
            let zone = group[0].0;
            let grid = Grid::new(&zones.extents(zone));
            let ids = group
                .iter()
                .map(|&(_, k)| grid.index(&local[k * n..(k + 1) * n]))
                .collect();
            (zone, ids)
        })
        .collect()
}

/// One zone of a plan: its grid, its tree's origin in the forest (if it has a tree), the zones
/// its origin passes the message on to, and its steps as changes of the global id.
struct PlanZone {
    grid: Grid,
    root: Option<u32>,
    /// The zone's tree as a union of routes (VH's, PAIR's, DIAG-stem's), read instead of the
    /// forest's records; the waiting nodes of such a zone carry their own local id, not their
    /// first child's record.
    union: Option<Union>,
    hops: Vec<u32>,
    origin: Node,
    steps: Vec<Step>,
}

impl PlanZone {
    fn new(zones: &Zones, zone: u32) -> PlanZone {
        PlanZone {
            grid: Grid::new(&zones.extents(zone)),
            root: None,
            union: None,
            hops: Vec::new(),
            origin: zones.origin(zone),
            steps: zones.steps(zone),
        }
    }

    /// The global id of the neighbour of node `node` (a global id) through `port` of the zone.
    fn step(&self, whole: &Grid, node: u32, port: usize) -> u32 {
        let s = self.steps[port];
        if s.wraps_from != NONE && whole.coord(node, s.dim) == s.wraps_from {
            node.wrapping_add(s.wrapped)
        } else {
            node.wrapping_add(s.delta)
        }
    }
}

/// A step of a zone's grid in global ids: one along dimension `dim`, which changes the id by
/// `delta` — or, on a torus, by `wrapped` from the global coordinate `wraps_from`, over the
/// wraparound link (a mesh: `NONE`).
#[derive(Clone, Copy)]
struct Step {
    dim: usize,
    delta: u32,
    wraps_from: u32,
    wrapped: u32,
}

/// The sends of the tree plan of the zones' trees, listed breadth first from the source, each
/// node's in port order — the hops to zone origins first, lower zone first, then its children
/// in its zone's tree — so that a node's sends follow those of the nodes listed before it.
///
/// A node handed out becomes the receiver of the next send at once, with its global id — its
/// sender's id and the port's step give it, without coordinates — so the receivers are also
/// the list of nodes waiting to be listed, in order; beside them wait only the nodes' first
/// children and zones ([`Waiting`]). A node's children come from its forest record, or in a
/// zone whose tree is a [`Union`] of routes, from its coordinates. `S` writes the senders
/// ([`Paired`]) or counts them ([`Counted`]).
// Not inlined: see `lift`.
#[inline(never)]
fn list<const STEM_FIRST: bool, const UNION: bool, S: Sends>(
    forest: &Forest,
    zones: &[PlanZone],
    whole: &Grid,
    links: usize,
    memory: Memory,
) -> S {
    let mut sends = S::new(links, memory);
    let mut waiting = Waiting::default();
    // The source first (`listing` is `None`), then each send's receiver (`Some(i)`).
    let (mut id, mut wait) = (zones[0].origin.0, Wait::origin(forest, zones, 0));
    let mut listing = None;
    loop {
        let before = sends.len();
        let zi = wait.zone & !ORIGIN;
        let z = &zones[zi as usize];
        if wait.zone & ORIGIN != 0 {
            for &h in &z.hops {
                sends.send(id, zones[h as usize].origin.0);
                waiting.push(Wait::origin(forest, zones, h));
            }
        }
        if UNION {
            if let Some(union) = &z.union {
                union.children::<STEM_FIRST>(wait.first, |local, port| {
                    sends.send(id, z.step(whole, id, port));
                    waiting.push(Wait {
                        first: local,
                        zone: zi,
                    });
                });
            }
        } else if wait.first != NO_LINK {
            forest.children::<STEM_FIRST>(wait.first, |first, port| {
                forest.prefetch(first);
                sends.send(id, z.step(whole, id, port));
                waiting.push(Wait { first, zone: zi });
            });
        }
        let i = match listing {
            None => {
                sends.source_listed();
                0
            }
            Some(i) => {
                sends.listed(i, sends.len() - before);
                i + 1
            }
        };
        if i == sends.len() {
            return sends;
        }
        (id, wait, listing) = (sends.receiver(i), waiting.pop(), Some(i));
    }
}

/// How [`list`] writes a plan's sends: each send's receiver in order, and each send's sender —
/// as it goes ([`Paired`]) or as counts written over the receivers ([`Counted`]).
trait Sends {
    /// Room for the `links` sends of a plan, in `memory` if it has the room.
    fn new(links: usize, memory: Memory) -> Self;
    /// A send from the node of id `from` to the node of id `to`.
    fn send(&mut self, from: u32, to: u32);
    /// The number of sends so far.
    fn len(&self) -> usize;
    /// The source's sends are all made.
    fn source_listed(&mut self) {}
    /// The global id of the receiver of send `i`.
    fn receiver(&self, i: usize) -> u32;
    /// The receiver of send `i` made `sends` sends.
    fn listed(&mut self, _i: usize, _sends: usize) {}
}

/// The senders' and hops' lists of a spent plan ([`Plan::into_memory`]), empty: the room a
/// plan can be written into.
type Memory = (Vec<Node>, Vec<Hop>);

/// Senders and receivers side by side, written as the sends are listed: the plan's own lists.
struct Paired {
    from: Vec<Node>,
    to: Vec<Hop>,
}

impl Sends for Paired {
    fn new(links: usize, (from, to): Memory) -> Paired {
        Paired {
            from: room(from, links),
            to: room(to, links),
        }
    }

    #[inline(always)]
    fn send(&mut self, from: u32, to: u32) {
        self.from.push(Node(from));
        self.to.push(Hop::new(Node(to), true));
    }

    fn len(&self) -> usize {
        self.to.len()
    }

    fn receiver(&self, i: usize) -> u32 {
        self.to[i].node().0
    }
}

/// The receivers only, each with the number of sends it makes above its id ([`COUNT_SHIFT`]),
/// and the number of sends the source makes: on a forest of [`Forest::is_large`] size, whose
/// records are given back before the senders (4 more bytes per link) are written by
/// [`senders`].
struct Counted {
    to: Vec<u32>,
    source_sends: usize,
}

impl Sends for Counted {
    fn new(links: usize, _: Memory) -> Counted {
        Counted {
            to: Vec::with_capacity(links),
            source_sends: 0,
        }
    }

    #[inline(always)]
    fn send(&mut self, _from: u32, to: u32) {
        self.to.push(to);
    }

    fn len(&self) -> usize {
        self.to.len()
    }

    fn source_listed(&mut self) {
        self.source_sends = self.to.len();
    }

    fn receiver(&self, i: usize) -> u32 {
        self.to[i]
    }

    fn listed(&mut self, i: usize, sends: usize) {
        debug_assert!(
            sends < 1 << (32 - COUNT_SHIFT),
            "at most 2 sends per dimension"
        );
        self.to[i] |= (sends as u32) << COUNT_SHIFT;
    }
}

/// An empty list with room for `len` items: `memory` (empty) if it has the room and not more
/// than twice that (a plan keeps the memory it was written into), else a new one — with a
/// quarter more room than asked if `memory` was given but too small, so that the next plans of
/// a series of similar ones, a little larger or smaller, fit in it.
fn room<T>(memory: Vec<T>, len: usize) -> Vec<T> {
    debug_assert!(memory.is_empty());
    match memory.capacity() {
        0 => Vec::with_capacity(len),
        room if room < len => Vec::with_capacity(len + len / 4),
        room if room > 2 * len => Vec::with_capacity(len),
        _ => memory,
    }
}

/// Where a [`Counted`] receiver's number of sends starts: above its node id (ids stay below
/// 2²⁶, `MAX_NODES`). A node makes at most 2 sends per dimension (a zone origin's hops to other
/// zones' origins and its children, all on the increasing side; any other node's children, its
/// parent being one of its neighbours), so below 64 for the 26 dimensions of `MAX_DIMS`.
const COUNT_SHIFT: u32 = 26;

/// The node id bits of a [`Counted`] receiver.
const ID: u32 = (1 << COUNT_SHIFT) - 1;

/// The senders and hops of a [`Counted`] listing: the source sends as many times as it counted,
/// then each receiver as many times as its count says; its hop is its plain id.
// Not inlined: see `lift`.
#[inline(never)]
fn senders(source: Node, sends: Counted) -> (Vec<Node>, Vec<Hop>) {
    let mut from = Vec::with_capacity(sends.to.len());
    from.extend(std::iter::repeat_n(source, sends.source_sends));
    // Collected in place: a plan of 66 million links never holds two copies of its receivers.
    let hops = sends.to.into_iter().map(|id| {
        let node = Node(id & ID);
        // A push per send: most nodes make one or two, too few for a fill (a `memset` call).
        for _ in 0..id >> COUNT_SHIFT {
            from.push(node);
        }
        Hop::new(node, true)
    });
    let hops = hops.collect();
    (from, hops)
}

/// The nodes handed out to the listing and not yet listed, in the order handed out (that of
/// their sends): a plain list read from the front, whose listed head is dropped once it is the
/// larger half (cheaper per node than a ring buffer).
#[derive(Default)]
struct Waiting {
    nodes: Vec<Wait>,
    head: usize,
}

/// A node waiting to be listed: its first child ([`Forest::first_child`]; [`NO_LINK`]: none, as
/// for the origin of a zone without a tree) — in a zone whose tree is a [`Union`], its own local
/// id — and its zone's index, with [`ORIGIN`] for a zone origin. Its id is its send's receiver.
#[derive(Clone, Copy)]
struct Wait {
    first: u32,
    zone: u32,
}

/// The flag of a zone origin's zone index in [`Wait`]: its hops to other zones are listed.
const ORIGIN: u32 = 1 << 31;

impl Wait {
    /// Zone `zi`'s origin.
    fn origin(forest: &Forest, zones: &[PlanZone], zi: u32) -> Wait {
        let z = &zones[zi as usize];
        Wait {
            // A union zone's origin: local id 0.
            first: match (&z.union, z.root) {
                (Some(_), _) => 0,
                (None, Some(root)) => forest.first_child(root),
                (None, None) => NO_LINK,
            },
            zone: zi | ORIGIN,
        }
    }
}

impl Waiting {
    fn push(&mut self, wait: Wait) {
        self.nodes.push(wait);
    }

    /// The next node to list: there is one for every send not yet listed.
    fn pop(&mut self) -> Wait {
        let wait = self.nodes[self.head];
        self.head += 1;
        // Looked at every 4096 nodes only: one test per node.
        if self.head.is_multiple_of(4096) && 2 * self.head >= self.nodes.len() {
            self.nodes.drain(..self.head);
            self.head = 0;
        }
        wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The zone of the node at global coordinates `g` and its local coordinates.
    fn locate(z: &Zones, g: &[u32]) -> (u32, Vec<u32>) {
        let mut local = vec![0; g.len()];
        let node = z.shape.node(g).unwrap();
        (z.locate(node, &mut local), local)
    }

    #[test]
    fn torus_zones_follow_the_papers_tables() {
        let s: Shape = "torus:5x5x5".parse().unwrap();
        let z = Zones::new(&s, s.node(&[0, 0, 0]).unwrap());
        assert_eq!(z.extents(0), vec![3, 3, 3]);
        assert_eq!(z.extents(0b001), vec![2, 3, 3]);
        assert_eq!(s.coords(z.origin(0b001)), vec![4, 0, 0]);
        assert_eq!(s.coords(z.origin(0b111)), vec![4, 4, 4]);
        assert_eq!(locate(&z, &[3, 1, 0]), (0b001, vec![1, 1, 0]));
        let s: Shape = "torus:5x4".parse().unwrap();
        let z = Zones::new(&s, s.node(&[3, 1]).unwrap());
        for n in s.nodes() {
            let (zone, local) = locate(&z, &s.coords(n));
            assert!(local.iter().zip(z.extents(zone)).all(|(&l, e)| l < e));
            assert_eq!(z.global(zone, &local), n);
        }
    }

    #[test]
    fn mesh_zones_split_at_the_source() {
        let s: Shape = "mesh:7x6".parse().unwrap();
        let z = Zones::new(&s, s.node(&[3, 4]).unwrap());
        assert_eq!(locate(&z, &[1, 2]), (0b11, vec![1, 1]));
        assert_eq!(locate(&z, &[3, 5]), (0b00, vec![0, 1]));
        assert_eq!(s.coords(z.origin(0b01)), vec![2, 4]);
        assert_eq!(z.extents(0b11), vec![3, 4]);
        for n in s.nodes() {
            let (zone, local) = locate(&z, &s.coords(n));
            assert_eq!(z.global(zone, &local), n);
        }
    }

    /// Both ways of writing the senders give the same sends, for either port order and either
    /// way of reading the trees (forest records, unions of routes), on meshes and tori with the
    /// source inside (several zones).
    #[test]
    fn counted_senders_are_the_paired_ones() {
        use crate::algo::tree::{diag::Diag, diag_stem::DiagStem, dist::Dist, pair::Pair, vh::Vh};
        use crate::workload::{random_destinations, seeded};
        let mut rng = seeded(3);
        let algos: [&dyn ZoneAlgorithm; 4] = [&Vh, &DiagStem, &Dist, &Diag];
        for (shape, k) in [("mesh:40x30", 60), ("torus:17x12", 40), ("torus:6x5x7", 30)] {
            let shape: Shape = shape.parse().unwrap();
            let source = Node(shape.len() as u32 / 3);
            let dests = random_destinations(&shape, source, k, &mut rng).unwrap();
            let zones = Zones::new(&shape, source);
            // PAIR is 2-D only.
            let pair = (shape.rank() == 2).then_some(&Pair as &dyn ZoneAlgorithm);
            for algo in algos.into_iter().chain(pair) {
                let (forest, plan_zones, links) = grow_zones(algo, &zones, &dests);
                let (paired, counted) = (
                    lister::<Paired>(algo.stem_first(), &plan_zones)(
                        &forest,
                        &plan_zones,
                        &zones.whole,
                        links,
                        Default::default(),
                    ),
                    lister::<Counted>(algo.stem_first(), &plan_zones)(
                        &forest,
                        &plan_zones,
                        &zones.whole,
                        links,
                        Default::default(),
                    ),
                );
                assert_eq!(
                    senders(source, counted),
                    (paired.from, paired.to),
                    "{shape}"
                );
            }
        }
    }

    #[test]
    fn feeders_drop_the_highest_dimension() {
        assert_eq!(feeder(0b011), 0b001);
        assert_eq!(feeder(0b100), 0);
        assert_eq!(feeder(0b110), 0b010);
    }
}
