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
//!   channels and low channels each form an acyclic network.
//!
//! A route of neither class is refused. Intermediate destinations of a path-based worm copy the
//! flits as they pass without holding an ejection channel, so only worms that end at a node hold
//! its ejection channels, and those always drain.

use crate::plan::Hop;
use crate::route::hamiltonian::Snake;
use crate::topology::{Dir, Kind, Node, Shape};

use super::SimError;

/// The classes of routes a run may carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    /// Dimension-ordered routes (and one-hop sends).
    pub dimension_ordered: bool,
    /// Routes monotone along the snake Hamiltonian path.
    pub hamiltonian: bool,
}

/// A route class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    DimensionOrdered,
    Hamiltonian,
}

/// Virtual channels `lo..lo + n` of every physical channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VcRange {
    pub lo: u16,
    pub n: u16,
}

/// One hop of a worm: the channel it crosses, the virtual channels it may take there, and
/// whether the node it reaches keeps a copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WormHop {
    pub channel: u32,
    pub vcs: VcRange,
    pub drop: bool,
}

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
    labels: Vec<u32>,
}

impl Channels {
    /// The channels of `shape`, with `vcs` virtual channels each split between `classes`;
    /// refused where the classes cannot all run deadlock-free on that many.
    pub fn new(shape: &Shape, vcs: u32, classes: Classes) -> Result<Channels, SimError> {
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
        let (dor, ham) =
            split(vcs, classes, dor_need, torus).ok_or_else(|| SimError::VirtualChannels {
                topology: shape.to_string(),
                vcs,
                need: u32::from(classes.dimension_ordered) * dor_need
                    + u32::from(classes.hamiltonian),
            })?;
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
            n: vcs as u16,
        });
        c
    }

    /// The worm hops of a route from `from` along `hops` (consecutive neighbours), written into
    /// `out`; `Err` names the route if its class has no virtual channels here.
    pub fn route(&self, from: Node, hops: &[Hop], out: &mut Vec<WormHop>) -> Result<(), SimError> {
        out.clear();
        let mut at = from;
        for hop in hops {
            out.push(WormHop {
                channel: self.channel(at, hop.node) as u32,
                vcs: VcRange { lo: 0, n: 0 },
                drop: hop.drop,
            });
            at = hop.node;
        }
        let class = self
            .class(from, hops, out)
            .ok_or_else(|| self.unroutable(from, hops))?;
        let range = match class {
            Class::DimensionOrdered => self.dor,
            Class::Hamiltonian => self.ham,
        }
        .ok_or_else(|| self.unroutable(from, hops))?;
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
        Ok(())
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
    /// this run has such channels), else Hamiltonian if it qualifies.
    fn class(&self, from: Node, hops: &[Hop], channels: &[WormHop]) -> Option<Class> {
        if self.dor.is_some() && self.dimension_ordered(channels) {
            return Some(Class::DimensionOrdered);
        }
        let label = |v: Node| self.labels.get(v.index()).copied();
        let first = label(from)?;
        let mut prev = first;
        let rising = label(hops.first()?.node)? > first;
        for hop in hops {
            let l = label(hop.node)?;
            if (l > prev) != rising || l == prev {
                return None;
            }
            prev = l;
        }
        Some(Class::Hamiltonian)
    }

    /// [`dimension_ordered`] on channel ids: dimensions in increasing order, each in one
    /// direction and in fewer hops than the ring.
    fn dimension_ordered(&self, channels: &[WormHop]) -> bool {
        // A lane is `2·dim + (dir = Minus)`: the channel's place among its node's.
        let mut last: Option<u32> = None;
        let mut run = 0;
        for hop in channels {
            let lane = hop.channel % self.per_node;
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

    fn unroutable(&self, from: Node, hops: &[Hop]) -> SimError {
        let shape = &self.shape;
        let route: Vec<String> = std::iter::once(from)
            .chain(hops.iter().map(|h| h.node))
            .map(|v| shape.fmt_node(v))
            .collect();
        SimError::Route {
            route: route.join(" "),
            allowed: match (self.dor.is_some(), self.ham.is_some()) {
                (true, true) => "dimension-ordered or monotone along the snake Hamiltonian path",
                (true, false) => "dimension-ordered",
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
        let Some(link) = shape.link(at, hop.node) else {
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
        at = hop.node;
    }
    true
}

pub(crate) fn channel_id(per_node: u32, from: Node, dim: usize, dir: Dir) -> usize {
    from.index() * per_node as usize + 2 * dim + usize::from(dir == Dir::Minus)
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
    let range = |lo: u32, n: u32| VcRange {
        lo: lo as u16,
        n: n as u16,
    };
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
