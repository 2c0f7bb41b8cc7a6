//! The network's channels as flat arrays, and which virtual channels a worm may use on each hop.
//!
//! Channel `c = node · 2n + 2·dim + (dir = Minus)` leaves `node`; on a mesh boundary it does not
//! exist. Deadlock freedom comes from giving each *route class* its own virtual channels:
//!
//! * **dimension-ordered** routes (XY / e-cube, and every one-hop send): acyclic on a mesh; on a
//!   torus a worm uses the lower half of its class's channels in a dimension until it crosses
//!   that dimension's wraparound link (the dateline), the upper half from there on (Dally and
//!   Seitz), so a torus needs at least 2 virtual channels;
//! * **Hamiltonian** routes, whose snake labels only rise or only fall (seed 002 §2.2): high
//!   channels and low channels each form an acyclic network;
//! * **sweeping** routes on a 2D mesh (XY-path's worms, seed 001 §3.3.3): each runs along its
//!   base path, rows back and forth (or columns), so it never moves against one direction of one
//!   dimension (the *outer*) and never reverses in the other. There are four such classes, one per
//!   forbidden direction; each is acyclic (order a channel by its outer coordinate, then along
//!   its inner direction: every turn a class allows leads up that order), but any two together
//!   are not, so each gets its own virtual channels. A dimension-ordered route on a 2D mesh
//!   belongs to one of them, so when sweeping routes run, unicasts share their channels.
//!
//! A route of no class is refused. Intermediate destinations of a path-based worm copy the
//! flits as they pass without holding an ejection channel, so only worms that end at a node hold
//! its ejection channels, and those always drain.

use crate::plan::Hop;
use crate::route::hamiltonian::Snake;
use crate::topology::{Dir, Kind, Node, Shape};

use super::network::NONE;
use crate::error::WormholeError;

/// The classes of routes a run may carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    /// Dimension-ordered routes (and one-hop sends).
    pub dimension_ordered: bool,
    /// Routes monotone along the snake Hamiltonian path.
    pub hamiltonian: bool,
    /// Sweeping routes of a 2D mesh: never against one direction of one dimension, never
    /// reversing in the other (XY-path's worms).
    pub sweeping: bool,
}

/// A route class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    DimensionOrdered,
    Hamiltonian,
    /// Sweeping, never taking lane `k ^ 1` (lane = `2·dim + (dir = Minus)`), `k` in 0..4.
    Sweeping(u8),
}

/// Virtual channels `lo..lo + n` of every physical channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VcRange {
    pub lo: u8,
    pub n: u8,
}

/// One hop of a worm: the channel it crosses, the virtual channels it may take there, whether
/// the node it reaches keeps a copy, and the virtual channel the worm holds there — everything
/// the cycle loop reads about a position of a worm, in one place: 32 bytes, half a cache line
/// (lanes below 2 · 26, at most 64 virtual channels, at most 1,024 flits a buffer).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WormHop {
    pub channel: u32,
    /// The channel's place among its node's: `2·dim + (dir = Minus)` (`channel mod 2n`).
    pub lane: u8,
    pub vcs: VcRange,
    pub drop: bool,
    /// The virtual channel held (global id), or `NONE`.
    pub vc: u32,
    /// Its index among the channel's virtual channels (`vc mod V`), once held.
    pub vc_local: u8,
    /// The worm's flits in that virtual channel's buffer.
    pub flits: u16,
    /// With [`super::config::VcRelease::TailLeft`], where the buffer holds this worm's flits
    /// only, the rest of its state ([`super::buffers::Fifo`]): the ring slot of the front flit
    /// and the cycle it may leave.
    pub front: u16,
    pub ready: u64,
}

const _: () = assert!(std::mem::size_of::<WormHop>() == 32);

impl WormHop {
    /// A hop of a route being built, over `channel` (`lane` among its node's), dropping a copy
    /// there if `drop`: no virtual channel held and no flit in it yet, and its class's virtual
    /// channels still to be assigned (`Channels::assign`).
    fn unheld(channel: u32, lane: u8, drop: bool) -> WormHop {
        WormHop {
            channel,
            lane,
            vcs: VcRange { lo: 0, n: 0 },
            drop,
            vc: NONE,
            vc_local: 0,
            flits: 0,
            front: 0,
            ready: 0,
        }
    }
}
const _: () = assert!(2 * crate::topology::MAX_DIMS <= u8::MAX as usize);

/// The channels of a shape and the split of virtual channels between the route classes.
pub(crate) struct Channels {
    pub shape: Shape,
    /// `2n`: channels per node.
    pub per_node: u32,
    /// The node each channel leads to (`u32::MAX` where there is no channel).
    pub head: Vec<u32>,
    /// Whether the channel is a torus wraparound link (a dateline).
    wrap: Vec<bool>,
    /// Whether dimension-ordered routes switch virtual channels at the datelines.
    datelines: bool,
    dor: Option<VcRange>,
    ham: Option<VcRange>,
    sweep: Option<[VcRange; 4]>,
    labels: Vec<u32>,
}

impl Channels {
    /// The channels of `shape`, with `vcs` virtual channels each split between `classes`;
    /// refused where the classes cannot all run deadlock-free on that many.
    pub fn new(shape: &Shape, vcs: u32, classes: Classes) -> Result<Channels, WormholeError> {
        let n = shape.rank();
        let per_node = 2 * n as u32;
        let mut head = vec![u32::MAX; shape.len() * 2 * n];
        let mut wrap = vec![false; head.len()];
        for v in shape.nodes() {
            for (link, to) in shape.links_from(v) {
                let c = channel_id(per_node, v, link.dim as usize, link.dir);
                head[c] = to.0;
                let x = shape.coord(v, link.dim as usize);
                wrap[c] = shape.wraps(link.dim as usize)
                    && match link.dir {
                        Dir::Plus => x + 1 == shape.dims()[link.dim as usize],
                        Dir::Minus => x == 0,
                    };
            }
        }
        let torus = shape.kind() == Kind::Torus && (0..n).any(|d| shape.wraps(d));
        let dor_need = if torus { 2 } else { 1 };
        // Sweeping classes exist on 2D meshes only; elsewhere a sweeping route is refused when
        // it is sent.
        let sweeping = classes.sweeping && planar(shape);
        let refused = || WormholeError::VirtualChannels {
            topology: shape.to_string(),
            vcs,
            need: if sweeping {
                SWEEPING + u32::from(classes.hamiltonian)
            } else {
                u32::from(classes.dimension_ordered) * dor_need + u32::from(classes.hamiltonian)
            },
        };
        let (dor, ham, sweep) = if sweeping {
            let ham_n = if classes.hamiltonian {
                (vcs / 5).max(1)
            } else {
                0
            };
            let sweep_n = vcs.checked_sub(ham_n).filter(|&s| s >= SWEEPING);
            let sweep_n = sweep_n.ok_or_else(refused)?;
            let ham = classes.hamiltonian.then(|| range(0, ham_n));
            let (per, rem) = (sweep_n / SWEEPING, sweep_n % SWEEPING);
            let mut lo = ham_n;
            let sweep = Some([0u32, 1, 2, 3].map(|k| {
                let r = range(lo, per + u32::from(k < rem));
                lo += r.n as u32;
                r
            }));
            (None, ham, sweep)
        } else {
            let (dor, ham) = split(vcs, classes, dor_need, torus).ok_or_else(refused)?;
            (dor, ham, None)
        };
        let snake = Snake::new(shape);
        let labels = if ham.is_some() {
            shape.nodes().map(|v| snake.label(v)).collect()
        } else {
            Vec::new()
        };
        Ok(Channels {
            shape: shape.clone(),
            per_node,
            head,
            wrap,
            datelines: torus,
            dor,
            ham,
            sweep,
            labels,
        })
    }

    /// The channels of `shape` with all `vcs` virtual channels given to dimension-ordered routes
    /// and no datelines: deadlock-prone on a torus, for the watchdog's test only.
    #[cfg(test)]
    pub fn without_datelines(shape: &Shape, vcs: u32) -> Channels {
        let mut c =
            Channels::new(shape, vcs.max(2), Classes::default()).expect("enough for datelines");
        c.datelines = false;
        c.dor = Some(VcRange {
            lo: 0,
            n: vcs as u8,
        });
        c
    }

    /// The worm hops of a route from `from` along `hops` (consecutive neighbours), written into
    /// `out`; `Err` names the route if its class has no virtual channels here.
    pub fn route(
        &self,
        from: Node,
        hops: &[Hop],
        out: &mut Vec<WormHop>,
    ) -> Result<(), WormholeError> {
        out.clear();
        let mut at = from;
        for hop in hops {
            let channel = self.channel(at, hop.node()) as u32;
            out.push(WormHop::unheld(
                channel,
                (channel % self.per_node) as u8,
                hop.drop(),
            ));
            at = hop.node();
        }
        let class = self
            .class(from, hops, out)
            .ok_or_else(|| self.unroutable(from, hops))?;
        self.assign(class, out)
            .ok_or_else(|| self.unroutable(from, hops))
    }

    /// Whether dimension-ordered routes have virtual channels of their own here, so that
    /// [`Channels::unicast`] may be used.
    pub fn dimension_ordered_vcs(&self) -> bool {
        self.dor.is_some()
    }

    /// [`Channels::route`] of the dimension-ordered route from `from` to `to`
    /// ([`crate::route::dimension_ordered`]), when [`Channels::dimension_ordered_vcs`]: the
    /// same hops, built from the two nodes' coordinates, taken once, instead of from the
    /// route's nodes (each of which took coordinates again, by divisions, and a search for its
    /// channel). Such a route is dimension-ordered, so that is its class.
    pub fn unicast(&self, from: Node, to: Node, out: &mut Vec<WormHop>) {
        out.clear();
        let shape = &self.shape;
        let (mut rest_from, mut rest_to, mut stride) = (from.0, to.0, 1);
        let mut at = from.0;
        for (dim, &k) in shape.dims().iter().enumerate() {
            let (a, b) = (rest_from % k, rest_to % k);
            (rest_from, rest_to) = (rest_from / k, rest_to / k);
            if a != b {
                self.straight(&mut at, (dim, k, stride), a, b, out);
            }
            stride *= k;
        }
        if let Some(last) = out.last_mut() {
            last.drop = true;
        }
        self.assign(Class::DimensionOrdered, out)
            .expect("dimension-ordered routes have virtual channels here");
    }

    /// The hops of a dimension-ordered route along dimension `dim` (of size `k` and node
    /// stride `stride`) from node `at`, whose coordinate there is `a`, to coordinate `b ≠ a`:
    /// the way [`crate::route::dimension_ordered::direction`] says. `at` is left at the last
    /// node.
    fn straight(
        &self,
        at: &mut u32,
        (dim, k, stride): (usize, u32, u32),
        a: u32,
        b: u32,
        out: &mut Vec<WormHop>,
    ) {
        let plus = crate::route::dimension_ordered::direction(&self.shape, dim, a, b) == Dir::Plus;
        let steps = if plus {
            (b + k - a) % k
        } else {
            (a + k - b) % k
        };
        let lane = 2 * dim as u32 + u32::from(!plus);
        let mut c = a;
        for _ in 0..steps {
            let channel = *at * self.per_node + lane;
            out.push(WormHop::unheld(channel, lane as u8, false));
            // One hop, through the wraparound link from the last coordinate or the first.
            (*at, c) = match (plus, c) {
                (true, c) if c + 1 < k => (*at + stride, c + 1),
                (true, c) => (*at - c * stride, 0),
                (false, 0) => (*at + (k - 1) * stride, k - 1),
                (false, c) => (*at - stride, c - 1),
            };
        }
    }

    /// The virtual channels a route of `class` whose channels are in `out` may take on each
    /// hop; `None` if the class has none here.
    fn assign(&self, class: Class, out: &mut [WormHop]) -> Option<()> {
        let range = match class {
            Class::DimensionOrdered => self.dor,
            Class::Hamiltonian => self.ham,
            Class::Sweeping(k) => self.sweep.map(|s| s[k as usize]),
        }?;
        let (low, high) = if class == Class::DimensionOrdered && self.datelines {
            let half = range.n / 2;
            let high = VcRange {
                lo: range.lo + half,
                n: range.n - half,
            };
            (
                VcRange {
                    lo: range.lo,
                    n: half,
                },
                high,
            )
        } else {
            (range, range)
        };
        let mut dim = u32::MAX;
        let mut crossed = false;
        for hop in out.iter_mut() {
            let c = hop.channel as usize;
            if self.dim(c) != dim {
                dim = self.dim(c);
                crossed = false;
            }
            crossed |= self.wrap[c];
            hop.vcs = if crossed { high } else { low };
        }
        Some(())
    }

    /// The channel from `from` to its neighbour `to`: one of `from`'s 2n channels.
    fn channel(&self, from: Node, to: Node) -> usize {
        let base = from.index() * self.per_node as usize;
        (base..base + self.per_node as usize)
            .find(|&c| self.head[c] == to.0)
            .expect("routes are made of links")
    }

    /// The dimension channel `c` runs along.
    fn dim(&self, c: usize) -> u32 {
        (c as u32 % self.per_node) / 2
    }

    /// The class of a route whose channels are in `hops`: dimension-ordered if it qualifies (and
    /// this run has such channels), else sweeping if it qualifies (and this run has such
    /// channels), else Hamiltonian if it qualifies.
    fn class(&self, from: Node, hops: &[Hop], channels: &[WormHop]) -> Option<Class> {
        if self.dor.is_some() && self.dimension_ordered(channels) {
            return Some(Class::DimensionOrdered);
        }
        if self.sweep.is_some() {
            let lanes = channels.iter().map(|h| u32::from(h.lane));
            if let Some(k) = sweeping(lanes) {
                return Some(Class::Sweeping(k));
            }
        }
        let label = |v: Node| self.labels.get(v.index()).copied();
        monotone(label, from, hops).then_some(Class::Hamiltonian)
    }

    /// [`dimension_ordered`] on channel ids: dimensions in increasing order, each in one
    /// direction and in fewer hops than the ring.
    fn dimension_ordered(&self, channels: &[WormHop]) -> bool {
        // A lane is `2·dim + (dir = Minus)`: the channel's place among its node's.
        let mut last: Option<u32> = None;
        let mut run = 0;
        for hop in channels {
            let lane = u32::from(hop.lane);
            match last {
                Some(prev) if prev == lane => run += 1,
                Some(prev) if prev / 2 >= lane / 2 => return false,
                _ => run = 1,
            }
            if run >= self.shape.dims()[(lane / 2) as usize] {
                return false;
            }
            last = Some(lane);
        }
        true
    }

    fn unroutable(&self, from: Node, hops: &[Hop]) -> WormholeError {
        let shape = &self.shape;
        let route: Vec<String> = std::iter::once(from)
            .chain(hops.iter().map(|h| h.node()))
            .map(|v| shape.fmt_node(v))
            .collect();
        WormholeError::Route {
            route: route.join(" "),
            allowed: match (self.dor.is_some(), self.ham.is_some(), self.sweep.is_some()) {
                (_, _, true) => "sweeping on a 2D mesh (XY-path's worms, dimension-ordered routes) or monotone along the snake Hamiltonian path",
                (true, true, _) => "dimension-ordered or monotone along the snake Hamiltonian path",
                (true, false, _) => "dimension-ordered",
                _ => "monotone along the snake Hamiltonian path",
            },
        }
    }
}

/// Whether `hops` from `from` correct dimensions in increasing order, each in one direction and
/// in fewer hops than the ring (so a torus route crosses each dateline at most once).
pub(crate) fn dimension_ordered(shape: &Shape, from: Node, hops: &[Hop]) -> bool {
    let mut at = from;
    let mut last: Option<(u8, Dir, u32)> = None;
    for hop in hops {
        let Some(link) = shape.link(at, hop.node()) else {
            return false;
        };
        last = match last {
            Some((d, dir, n)) if d == link.dim => {
                if dir != link.dir || n + 1 >= shape.dims()[d as usize] {
                    return false;
                }
                Some((d, dir, n + 1))
            }
            Some((d, _, _)) if d > link.dim => return false,
            _ => Some((link.dim, link.dir, 1)),
        };
        at = hop.node();
    }
    true
}

/// Virtual-channel classes of sweeping routes: one per direction a route may never take.
const SWEEPING: u32 = 4;

/// Whether the route from `from` along `hops` has only rising or only falling `label`s.
pub(crate) fn monotone(label: impl Fn(Node) -> Option<u32>, from: Node, hops: &[Hop]) -> bool {
    let (Some(first), Some(next)) = (label(from), hops.first().and_then(|h| label(h.node())))
    else {
        return false;
    };
    let rising = next > first;
    let mut prev = first;
    for hop in hops {
        match label(hop.node()) {
            Some(l) if l != prev && (l > prev) == rising => prev = l,
            _ => return false,
        }
    }
    true
}

/// The sweeping class of a route given as its lanes (`2·dim + (dir = Minus)`, 2D): `Some(k)`
/// when it never takes lane `k ^ 1` and never reverses (a lane straight after its opposite).
pub(crate) fn sweeping(lanes: impl Iterator<Item = u32>) -> Option<u8> {
    let mut used = 0u32;
    let mut last: Option<u32> = None;
    for lane in lanes {
        if lane >= SWEEPING || last == Some(lane ^ 1) {
            return None;
        }
        used |= 1 << lane;
        last = Some(lane);
    }
    (0..SWEEPING as u8).find(|&k| used & (1 << (k ^ 1)) == 0)
}

/// Whether the route from `from` along `hops` is sweeping (see [`sweeping`]).
pub(crate) fn sweeping_route(shape: &Shape, from: Node, hops: &[Hop]) -> bool {
    let mut at = from;
    let mut links = hops.iter().map(|hop| {
        let link = shape.link(at, hop.node());
        at = hop.node();
        link
    });
    let mut lanes = Vec::with_capacity(hops.len());
    for link in &mut links {
        let Some(link) = link else { return false };
        lanes.push(2 * u32::from(link.dim) + u32::from(link.dir == Dir::Minus));
    }
    sweeping(lanes.into_iter()).is_some()
}

/// Whether `shape` is a 2D mesh, the only shape with sweeping classes.
pub(crate) fn planar(shape: &Shape) -> bool {
    shape.rank() == 2 && !(0..2).any(|d| shape.wraps(d))
}

pub(crate) fn channel_id(per_node: u32, from: Node, dim: usize, dir: Dir) -> usize {
    from.index() * per_node as usize + 2 * dim + usize::from(dir == Dir::Minus)
}

fn range(lo: u32, n: u32) -> VcRange {
    VcRange {
        lo: lo as u8,
        n: n as u8,
    }
}

/// Split `vcs` virtual channels between the classes: Hamiltonian routes get a third (torus) or
/// half (mesh) when both are present, at least one; dimension-ordered routes the rest, at least
/// `dor_need`.
fn split(
    vcs: u32,
    classes: Classes,
    dor_need: u32,
    torus: bool,
) -> Option<(Option<VcRange>, Option<VcRange>)> {
    match (classes.dimension_ordered, classes.hamiltonian) {
        (true, true) => {
            let ham = (vcs / if torus { 3 } else { 2 }).max(1);
            let dor = vcs.checked_sub(ham).filter(|&d| d >= dor_need)?;
            Some((Some(range(0, dor)), Some(range(dor, ham))))
        }
        (false, true) => Some((None, Some(range(0, vcs)))),
        _ => (vcs >= dor_need).then(|| (Some(range(0, vcs)), None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the channel dependencies of routes whose every two consecutive lanes `allowed`
    /// accepts are acyclic on a 5×5 mesh (Kahn's algorithm over all channels).
    fn acyclic(allowed: &dyn Fn(u32, u32) -> bool) -> bool {
        let shape = Shape::mesh(&[5, 5]).unwrap();
        let channels = Channels::new(&shape, 1, Classes::default()).unwrap();
        let per_node = channels.per_node as usize;
        let exists: Vec<usize> = (0..channels.head.len())
            .filter(|&c| channels.head[c] != u32::MAX)
            .collect();
        let next = |c: usize| -> Vec<usize> {
            let head = channels.head[c] as usize * per_node;
            (0..per_node)
                .filter(|&l| allowed((c % per_node) as u32, l as u32))
                .map(|l| head + l)
                .filter(|&d| channels.head[d] != u32::MAX)
                .collect()
        };
        let mut indegree = vec![0u32; channels.head.len()];
        for &c in &exists {
            next(c).into_iter().for_each(|d| indegree[d] += 1);
        }
        let mut ready: Vec<usize> = exists
            .iter()
            .copied()
            .filter(|&c| indegree[c] == 0)
            .collect();
        let mut seen = 0;
        while let Some(c) = ready.pop() {
            seen += 1;
            for d in next(c) {
                indegree[d] -= 1;
                if indegree[d] == 0 {
                    ready.push(d);
                }
            }
        }
        seen == exists.len()
    }

    /// A unicast's hops built from coordinates are those of its dimension-ordered route's nodes,
    /// virtual channels included: every pair of nodes of meshes and tori (even and odd sizes,
    /// a size-2 torus dimension, datelines).
    #[test]
    fn unicast_hops_are_those_of_the_dimension_ordered_route() {
        for (shape, vcs) in [
            ("mesh:3x4", 1),
            ("torus:4x5", 2),
            ("torus:4x2x3", 4),
            ("torus:6", 3),
        ] {
            let shape: Shape = shape.parse().unwrap();
            let channels = Channels::new(&shape, vcs, Classes::default()).unwrap();
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            for from in shape.nodes() {
                for to in shape.nodes().filter(|&to| to != from) {
                    let hops: Vec<Hop> = crate::route::dimension_ordered::route(&shape, from, to)
                        .map(|v| Hop::new(v, v == to))
                        .collect();
                    channels.route(from, &hops, &mut slow).unwrap();
                    channels.unicast(from, to, &mut fast);
                    assert_eq!(
                        format!("{fast:?}"),
                        format!("{slow:?}"),
                        "{from:?} -> {to:?}"
                    );
                }
            }
        }
    }

    /// Each sweeping class alone is deadlock-free; any two sharing virtual channels are not,
    /// which is why each gets its own.
    #[test]
    fn each_sweeping_class_is_acyclic_and_no_two_together_are() {
        // Class k: never lane k ^ 1, never a lane straight after its opposite.
        let member = |k: u32, a: u32, b: u32| a != k ^ 1 && b != k ^ 1 && b != a ^ 1;
        for k in 0..4 {
            assert!(acyclic(&|a, b| member(k, a, b)), "class {k}");
            for j in k + 1..4 {
                let both = |a, b| member(k, a, b) || member(j, a, b);
                assert!(!acyclic(&both), "{k} with {j}");
            }
        }
        // A dimension-ordered route belongs to one; a route taking all four directions to none.
        assert_eq!(sweeping([0, 0, 2, 2].into_iter()), Some(0));
        assert_eq!(sweeping([1, 3].into_iter()), Some(1));
        assert_eq!(sweeping([0, 2, 1, 3].into_iter()), None);
        assert_eq!(sweeping([0, 1].into_iter()), None);
    }
}
