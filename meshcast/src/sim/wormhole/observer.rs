//! Watching a traffic run from outside: an [`Observer`] is told of every message generated, every
//! message delivered and every flit that crosses a network channel, to trace or export them.
//! It only watches: nothing it does changes the run.
//!
//! The engine takes the observer as a generic parameter, so [`NoObserver`] (every method empty)
//! compiles to nothing: [`simulate`](super::traffic::simulate) is
//! [`simulate_observed`](super::traffic::simulate_observed) with it, at the same speed.

use crate::topology::{Dir, Link, Node, Shape};

/// A network channel, numbered as the simulator numbers them: `node · 2n + 2·dim + (dir =
/// Minus)` for the channel leaving `node` along `dim` (n dimensions). [`ChannelId::link`] turns
/// it into a [`Link`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChannelId(pub u32);

impl ChannelId {
    /// The channel of `link` on `shape`: the inverse of [`ChannelId::link`].
    pub fn of(link: Link, shape: &Shape) -> ChannelId {
        let per_node = 2 * shape.rank() as u32;
        let lane = 2 * u32::from(link.dim) + u32::from(link.dir == Dir::Minus);
        ChannelId(link.from.0 * per_node + lane)
    }

    /// The link this channel is on `shape` (the shape of the run that reported it).
    pub fn link(self, shape: &Shape) -> Link {
        let per_node = 2 * shape.rank() as u32;
        let lane = self.0 % per_node;
        Link {
            from: Node(self.0 / per_node),
            dim: (lane / 2) as u8,
            dir: if lane.is_multiple_of(2) {
                Dir::Plus
            } else {
                Dir::Minus
            },
        }
    }
}

/// A message whose last destination holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The cycle it was generated.
    pub generated: u64,
    /// The cycle its last destination held the whole message.
    pub delivered: u64,
    /// A multicast (else a unicast).
    pub multicast: bool,
    /// Its destinations.
    pub destinations: u32,
    /// Generated during the measurement, so counted in the report's means.
    pub measured: bool,
}

/// What a traffic run ([`simulate_observed`](super::traffic::simulate_observed)) tells its
/// observer; every method does nothing unless implemented. Counting the flits on each channel
/// and the latency of each message:
///
/// ```
/// use meshcast::sim::wormhole::traffic::{simulate_observed, Measure, Setup, Traffic};
/// use meshcast::sim::wormhole::{ChannelId, Delivery, Observer, Router};
///
/// // Flits per channel and the delivered messages' latencies.
/// #[derive(Default)]
/// struct Counts {
///     flits: std::collections::BTreeMap<u32, u64>,
///     latencies: Vec<u64>,
/// }
///
/// impl Observer for Counts {
///     fn on_flit(&mut self, _now: u64, channel: ChannelId) {
///         *self.flits.entry(channel.0).or_default() += 1;
///     }
///     fn on_deliver(&mut self, d: &Delivery) {
///         self.latencies.push(d.delivered - d.generated);
///     }
/// }
///
/// let setup = Setup {
///     shape: "mesh:4x4".parse()?,
///     router: Router { length: 8, startup: 0, ..Router::default() },
///     traffic: Traffic { load: 0.01, ..Traffic::default() },
///     measure: Measure { warmup: 500, batch: 500, max_cycles: 10_000, drain: 2_000, ..Measure::default() },
///     algorithm: None,
///     preparation: None,
///     params: Default::default(),
///     seed: 1,
/// };
/// let mut counts = Counts::default();
/// let report = simulate_observed(&setup, &mut counts)?;
/// assert_eq!(counts.flits.values().sum::<u64>(), report.flit_hops);
/// // The busiest channel, as a link of the mesh.
/// let (&busiest, _) = counts.flits.iter().max_by_key(|(_, &n)| n).unwrap();
/// let link = ChannelId(busiest).link(&setup.shape);
/// assert!(link.dim < 2 && link.from.index() < 16);
/// assert!(counts.latencies.iter().all(|&l| l >= 8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Observer {
    /// `source` generated a message at cycle `now` (a multicast or a unicast).
    fn on_generate(&mut self, now: u64, source: Node, multicast: bool) {
        let _ = (now, source, multicast);
    }

    /// A message was delivered to its last destination.
    fn on_deliver(&mut self, delivery: &Delivery) {
        let _ = delivery;
    }

    /// A flit crossed network channel `channel` at cycle `now` (injection and ejection channels
    /// are not network channels). Summed over a run, the report's `flit_hops`.
    fn on_flit(&mut self, now: u64, channel: ChannelId) {
        let _ = (now, channel);
    }
}

/// The observer that watches nothing, and costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// An observer that may be absent: `None` watches nothing, so a caller can decide at run time
/// whether to observe without a second code path.
impl<O: Observer> Observer for Option<O> {
    fn on_generate(&mut self, now: u64, source: Node, multicast: bool) {
        if let Some(o) = self {
            o.on_generate(now, source, multicast);
        }
    }

    fn on_deliver(&mut self, delivery: &Delivery) {
        if let Some(o) = self {
            o.on_deliver(delivery);
        }
    }

    fn on_flit(&mut self, now: u64, channel: ChannelId) {
        if let Some(o) = self {
            o.on_flit(now, channel);
        }
    }
}

/// The observer of per-channel load: how many flits crossed each network channel over the whole
/// run, warm-up and drain included (their sum is the report's `flit_hops`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelLoad {
    flits: Vec<u64>,
}

impl ChannelLoad {
    /// No flit yet on any channel of `shape`.
    pub fn new(shape: &Shape) -> ChannelLoad {
        ChannelLoad {
            flits: vec![0; shape.len() * 2 * shape.rank()],
        }
    }

    /// Flits that crossed `link`.
    pub fn flits(&self, link: Link, shape: &Shape) -> u64 {
        self.flits[ChannelId::of(link, shape).0 as usize]
    }

    /// Every link of `shape` (node by node, in [`Shape::links_from`]'s order) with the flits that
    /// crossed it, idle links included.
    pub fn links<'a>(&'a self, shape: &'a Shape) -> impl Iterator<Item = (Link, u64)> + 'a {
        shape
            .nodes()
            .flat_map(|node| shape.links_from(node))
            .map(|(link, _)| (link, self.flits(link, shape)))
    }
}

impl Observer for ChannelLoad {
    fn on_flit(&mut self, _now: u64, channel: ChannelId) {
        self.flits[channel.0 as usize] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_id_and_its_link_are_inverses() {
        for topology in ["mesh:3x4x2", "torus:4x3", "mesh:5"] {
            let shape: Shape = topology.parse().unwrap();
            let load = ChannelLoad::new(&shape);
            let mut ids: Vec<u32> = load
                .links(&shape)
                .map(|(link, flits)| {
                    assert_eq!(flits, 0);
                    let id = ChannelId::of(link, &shape);
                    assert_eq!(id.link(&shape), link, "{topology}");
                    id.0
                })
                .collect();
            let links = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), links, "{topology}: two links share a channel id");
            assert!(ids.iter().all(|&i| (i as usize) < load.flits.len()));
        }
    }
}
