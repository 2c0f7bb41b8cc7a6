//! Traffic runs: messages generated at every node with exponential inter-arrival times, a
//! unicast/multicast mix, and the measurement of seed 003 §4 — warm-up, then batch means until
//! the 95% confidence interval of the mean latency is within the precision asked, or a cycle
//! limit.
//!
//! **Latency** is counted from a message's generation (queueing at the source included) to the
//! cycle its last destination holds the whole message. **Batches** are fixed spans of cycles; a
//! message counts in the batch in which it completes. The measured messages are those generated
//! after the warm-up and before the stop; after the stop the run goes on (traffic included, so
//! the network stays loaded) for at most `drain` cycles while they finish.
//!
//! **Bounds.** A run never simulates more than `max_cycles` cycles, drain included: measuring
//! stops at the latest at the first batch end `drain` cycles before. Messages in the system
//! (waiting at their sources or in the network) are capped at `max_backlog` per node, and the
//! hops of their plans at [`MAX_LIVE_HOPS`] in all: beyond, the run stops at once as saturated.
//! The batches between the warm-up and the drain are at most [`MAX_BATCHES`]. Worms in the
//! network are bounded by the network itself (each holds an injection channel or a virtual
//! channel), and the network's arrays by [`super::MAX_STATE_BYTES`], so memory and time are
//! bounded by the settings whatever the load.
//!
//! **Saturation** is reported instead of a mean when
//! * the messages in the system grew faster than a stable network's fluctuation allows over each
//!   of `early_saturation` windows of a batch's length, ending a `1/early_saturation` batch apart
//!   ([`Saturation::Deficit`], see [`Measure::early_saturation`]), or the undelivered measured
//!   messages rose at each of `early_saturation` consecutive batch ends and at least doubled over
//!   them ([`Saturation::Growing`]), or, from the `early_saturation`th batch end on, the
//!   messages in the system grew by more than [`SHORTFALL`] of those generated since the warm-up,
//!   and over each of the measurement's last two thirds too ([`Saturation::Shortfall`]): the
//!   network accepts less than is offered, and the run stops there instead of running to the
//!   cycle limit;
//! * the backlog cap was reached ([`Saturation::Backlog`]);
//! * a measured message has not finished by the end of the drain ([`Saturation::Undelivered`]);
//! * or the confidence interval never closed and the later half of the batch means averages more
//!   than 1.5 times the earlier half ([`Saturation::Rising`]).
//!
//! ```
//! use meshcast::sim::wormhole::traffic::{simulate, Measure, Setup, Traffic};
//! use meshcast::sim::wormhole::Router;
//! let setup = Setup {
//!     shape: "mesh:4x4".parse()?,
//!     router: Router { length: 8, startup: 0, ..Router::default() },
//!     traffic: Traffic { load: 0.01, ..Traffic::default() },
//!     measure: Measure { warmup: 500, batch: 500, max_cycles: 25_000, drain: 5_000, ..Measure::default() },
//!     algorithm: None,
//!     preparation: None,
//!     params: Default::default(),
//!     seed: 1,
//! };
//! let report = simulate(&setup)?;
//! assert!(report.saturated.is_none());
//! let unicast = report.unicast.unwrap();
//! assert!(unicast.mean >= 8.0 + 1.0 && unicast.mean < 40.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::rngs::ChaCha8Rng;
use rand::RngExt;

use crate::algo::{AlgoInfo, Params, Request};
use crate::error::InputError;
use crate::stats::t_975;
use crate::topology::{Node, Shape};
use crate::workload::{random_destinations, seeded};

use super::channels::Classes;
use super::nodes::Completed;
use super::observer::{Delivery, NoObserver, Observer};
use super::{preparation_time, RouteNeeds, Router, Sim};
use crate::error::WormholeError;

/// How many destinations a multicast has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Destinations {
    /// Always `k`.
    Fixed(u32),
    /// Uniform in `lo..=hi`, drawn per message.
    Uniform(u32, u32),
}

/// What the nodes generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Traffic {
    /// Messages generated per node per cycle (the rate of the exponential inter-arrival times).
    pub load: f64,
    /// The fraction of messages that are multicasts (seed 003 §4.2: 0.1); the rest are unicasts.
    pub multicast: f64,
    /// Destinations of a multicast.
    pub destinations: Destinations,
    /// With probability `fraction`, a unicast goes to `node` (hot spot) instead of a uniform
    /// destination.
    pub hot_spot: Option<(Node, f64)>,
}

impl Default for Traffic {
    fn default() -> Traffic {
        Traffic {
            load: 0.001,
            multicast: 0.0,
            destinations: Destinations::Fixed(10),
            hot_spot: None,
        }
    }
}

/// How long to run and when to stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    /// Cycles before anything is measured.
    pub warmup: u64,
    /// Cycles per batch.
    pub batch: u64,
    /// Batches at least, before the confidence interval may stop the run.
    pub min_batches: u32,
    /// Stop measuring when the 95% confidence half-width is at most this fraction of the mean.
    pub precision: f64,
    /// Cycles at most in all: warm-up, measurement and drain. Measuring stops, converged or
    /// not, at the latest at the first batch end `drain` cycles before.
    pub max_cycles: u64,
    /// Cycles at most after the stop for the measured messages to finish.
    pub drain: u64,
    /// Early saturation, `n` (0: never stop early). Stop when the undelivered measured messages
    /// rose at each of `n` consecutive batch ends and at least doubled over them; or when, over
    /// each of the last `n` windows of `n` steps of `batch / n` cycles (a step apart, all after
    /// the warm-up), the messages in the system grew by more than [`DEFICIT`] of the messages
    /// generated in the window and by more than [`DEFICIT_SIGMAS`] times the square root of the
    /// two counts' sum; or when, at a batch end from the `n`th on, they grew by more than
    /// [`SHORTFALL`] of the messages generated (and [`DEFICIT_SIGMAS`] standard deviations) since
    /// the warm-up and over each of the last two thirds of the batches.
    pub early_saturation: u32,
    /// Messages at most in the system (waiting at their sources or in the network), per node:
    /// a run that exceeds it stops at once as saturated. It bounds the run's memory.
    pub max_backlog: u32,
}

/// [`Measure::early_saturation`]'s default: six batch ends in a row (five rises), which a stable network's
/// fluctuating backlog practically never shows together with a doubling.
pub const EARLY_SATURATION: u32 = 5;

/// The share of the offered messages that a window's growth of the messages in the system must
/// exceed for [`Saturation::Deficit`]: the network accepted less than 85% of what was offered.
pub const DEFICIT: f64 = 0.15;

/// The share of the offered messages that the messages in the system must have grown by, since the
/// warm-up and over each of the measurement's last two thirds, for [`Saturation::Shortfall`]: the
/// network accepted less than 98% of what was offered. A stable network's count is stationary, so
/// its growth over a long measurement is a fluctuation, a vanishing share of what was generated:
/// at the stable points of seed 003 Figs. 8–9, from their fifth batch on, at most 0.5% over the
/// whole measurement, 1.7% over one third, and 0.25% over all three windows at once
/// (docs/SIMULATOR.md).
pub const SHORTFALL: f64 = 0.02;

/// How many standard deviations of a stable network's fluctuation a window's growth must exceed
/// for [`Saturation::Deficit`] and [`Saturation::Shortfall`]. A stable network's count of
/// messages in the system is stationary, with a variance about its mean (as for the M/G/∞ queue,
/// Poisson arrivals); the difference of two counts a window apart then has a variance about their
/// sum.
pub const DEFICIT_SIGMAS: f64 = 4.0;

/// The most hops the plans of the messages in the system may hold in all (a unicast counts 1):
/// beyond, the run stops at once as saturated, as at [`Measure::max_backlog`]. A message's
/// memory grows with its plan, so a backlog of multicasts to thousands of destinations is capped
/// by what it holds, not by its count: at most about 1.5 GB (some 40 bytes per hop for the
/// plans, their senders, destinations and queued sends).
pub const MAX_LIVE_HOPS: u64 = 1 << 25;

/// The most batches a run may hold between its warm-up and its drain: the run keeps a few numbers
/// per batch (its mean, the undelivered messages, the messages in the system), 32 bytes, so at
/// most 32 MB. The default settings hold 198.
pub const MAX_BATCHES: u64 = 1_000_000;

/// [`Measure::max_backlog`]'s default: far above the few messages per node a stable network holds
/// (Little's law: load × latency), small enough for the largest networks' memory.
pub const MAX_BACKLOG: u32 = 64;

impl Default for Measure {
    fn default() -> Measure {
        Measure {
            warmup: 10_000,
            batch: 5_000,
            min_batches: 10,
            precision: 0.05,
            max_cycles: 1_050_000,
            drain: 50_000,
            early_saturation: EARLY_SATURATION,
            max_backlog: MAX_BACKLOG,
        }
    }
}

impl Measure {
    /// Cycles between the samples of the messages in the system that [`Saturation::Deficit`]
    /// compares: a batch over [`Measure::early_saturation`], at least 1.
    pub fn deficit_step(&self) -> u64 {
        (self.batch / u64::from(self.early_saturation.max(1))).max(1)
    }
}

/// One simulation: network, router, traffic, the multicast algorithm and the seed.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The topology.
    pub shape: Shape,
    /// The router model.
    pub router: Router,
    /// The traffic.
    pub traffic: Traffic,
    /// When to stop.
    pub measure: Measure,
    /// The algorithm that builds every multicast's plan (required when `traffic.multicast > 0`).
    pub algorithm: Option<&'static AlgoInfo>,
    /// Preparation time at a multicast's source; `None`: the algorithm's in seed 003
    /// ([`preparation_time`]).
    pub preparation: Option<u32>,
    /// The algorithm's settings (e.g. the multiport algorithm's port count, QG's threshold).
    pub params: Params,
    /// The seed of the run's ChaCha8 stream.
    pub seed: u64,
}

/// Mean latency with its batch-means confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Latency {
    /// Mean over the measured messages, in cycles.
    pub mean: f64,
    /// Half-width of the 95% confidence interval of the batch means: for the run's primary
    /// kind (multicasts if any are generated, else unicasts), with at least 2 batches.
    pub half_width: Option<f64>,
    /// Measured messages.
    pub messages: u64,
}

/// Why a run's latency is not a steady-state mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saturation {
    /// Measured messages still undelivered at the end of the drain.
    Undelivered(u64),
    /// Latency still rising when the cycle limit stopped the run.
    Rising,
    /// The undelivered measured messages (this many at the stop) rose at each of
    /// [`Measure::early_saturation`] consecutive batch ends and at least doubled: the run stopped early.
    Growing(u64),
    /// The messages in the system (this many at the stop) outgrew the offered load's share
    /// [`DEFICIT`] and a stable network's fluctuation over [`Measure::early_saturation`] windows in a
    /// row: the run stopped early.
    Deficit(u64),
    /// The messages in the system (this many at the stop) grew by more than [`SHORTFALL`] of
    /// those generated, and a stable network's fluctuation, since the warm-up and over each of the
    /// measurement's last two thirds, at a batch end from the [`Measure::early_saturation`]th on:
    /// the network accepts slightly less than is offered, and the run stopped there.
    Shortfall(u64),
    /// More messages (this many) in the system than [`Measure::max_backlog`] allows, or more hops
    /// in their plans than [`MAX_LIVE_HOPS`]: the run stopped at once.
    Backlog(u64),
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Offered load in messages per node per cycle.
    pub offered_messages: f64,
    /// Offered load in message flits per node per cycle (`load · L`).
    pub offered_flits: f64,
    /// Multicast latency (if any multicasts were measured).
    pub multicast: Option<Latency>,
    /// Unicast latency (if any unicasts were measured).
    pub unicast: Option<Latency>,
    /// Mean coefficient of variation of the arrival times across a multicast's destinations
    /// (seed 003 Table 1).
    pub cv: Option<f64>,
    /// Flits delivered to destinations per node per cycle during the measurement (a message
    /// counts `L` per destination when it completes).
    pub accepted_flits: f64,
    /// Measured messages delivered to every destination, over those generated.
    pub delivery_ratio: f64,
    /// Flit crossings per network channel per cycle during the measurement.
    pub utilisation: f64,
    /// Whether the confidence interval reached the precision asked.
    pub converged: bool,
    /// Batches measured.
    pub batches: u32,
    /// `Some` when the network was saturated: then the means are not steady-state values.
    pub saturated: Option<Saturation>,
    /// Cycles simulated, warm-up and drain included.
    pub cycles: u64,
    /// Flit crossings of network channels over the whole run.
    pub flit_hops: u64,
}

/// Check the settings that the types do not.
fn check(setup: &Setup) -> Result<(), WormholeError> {
    let t = &setup.traffic;
    let bad = |name: &'static str, value: String, allowed: &'static str| {
        Err(WormholeError::Input(InputError::Setting {
            name,
            value,
            allowed,
        }))
    };
    if !(t.load > 0.0 && t.load <= 1.0) {
        return bad(
            "load",
            t.load.to_string(),
            "messages per node per cycle in (0, 1]",
        );
    }
    if !(0.0..=1.0).contains(&t.multicast) {
        return bad("multicast", t.multicast.to_string(), "a fraction in [0, 1]");
    }
    if t.multicast > 0.0 && setup.algorithm.is_none() {
        return bad(
            "algorithm",
            "none".into(),
            "a multicast algorithm when multicasts are generated",
        );
    }
    let most = setup.shape.len() as u32 - 1;
    let (lo, hi) = match t.destinations {
        Destinations::Fixed(k) => (k, k),
        Destinations::Uniform(lo, hi) => (lo, hi),
    };
    if t.multicast > 0.0 && (lo == 0 || lo > hi || hi > most) {
        return bad(
            "destinations",
            match t.destinations {
                Destinations::Fixed(k) => k.to_string(),
                Destinations::Uniform(lo, hi) => format!("{lo}:{hi}"),
            },
            "between 1 and the node count − 1, low ≤ high",
        );
    }
    if let Some((_, f)) = t.hot_spot {
        if !(0.0..=1.0).contains(&f) {
            return bad("hot-spot fraction", f.to_string(), "a fraction in [0, 1]");
        }
    }
    let m = &setup.measure;
    if m.batch == 0 {
        return bad("batch", "0".into(), "at least 1 cycle per batch");
    }
    if m.min_batches < 2 {
        return bad(
            "min_batches",
            m.min_batches.to_string(),
            "at least 2 batches",
        );
    }
    if !(m.precision > 0.0 && m.precision <= 1.0) {
        return bad(
            "precision",
            m.precision.to_string(),
            "a fraction of the mean in (0, 1], e.g. 0.05",
        );
    }
    if m.max_cycles <= m.warmup.saturating_add(m.drain) {
        return bad(
            "max_cycles",
            format!("{} (warm-up {}, drain {})", m.max_cycles, m.warmup, m.drain),
            "more cycles than the warm-up plus the drain",
        );
    }
    if m.max_backlog == 0 {
        return bad("max_backlog", "0".into(), "at least 1 message per node");
    }
    let measured = m.max_cycles - m.warmup - m.drain;
    // The refusal writes the bound out, as the CLI's `--batch` help does.
    const _: () = assert!(
        MAX_BATCHES == 1_000_000,
        "the --batch messages name the bound"
    );
    if measured / m.batch > MAX_BATCHES {
        return bad(
            "batch",
            format!(
                "{} ({} cycles between the warm-up and the drain)",
                m.batch, measured
            ),
            "at most 1,000,000 batches: a batch of at least a millionth of those cycles",
        );
    }
    Ok(())
}

/// Check `setup` without running it: the traffic and measurement settings, the router's, and
/// that the simulator has deadlock-free virtual channels for every route the traffic needs (the
/// algorithm supports the topology and builds plans for it). What [`simulate`] would refuse
/// before its first cycle is refused here — and an algorithm that does not support the topology
/// even when no multicast would use it. A caller with many points checks them all before the
/// first one runs.
pub fn validate(setup: &Setup) -> Result<(), WormholeError> {
    check(setup)?;
    if let Some(info) = setup.algorithm {
        info.check_support(&setup.shape)?;
    }
    super::channels(&setup.shape, setup.router, classes(setup)?).map(drop)
}

/// The route classes a run carries: dimension-ordered unicasts, and whatever the algorithm's
/// plans use, read from plans for a few requests drawn from a stream of their own.
fn classes(setup: &Setup) -> Result<Classes, WormholeError> {
    let t = &setup.traffic;
    let mut needs = RouteNeeds::default();
    if let (Some(info), true) = (setup.algorithm, t.multicast > 0.0) {
        let mut rng = seeded(setup.seed ^ 0x5eed_c1a5);
        for i in 0..8 {
            let source = setup.shape.node_at(i * 7919 % setup.shape.len())?;
            let plan = info.route(&request(setup, source, &mut rng)?)?;
            needs.add(&plan, &setup.shape);
        }
    }
    let mut c = needs.classes();
    c.dimension_ordered |= t.multicast < 1.0;
    Ok(c)
}

fn request(setup: &Setup, source: Node, rng: &mut ChaCha8Rng) -> Result<Request, InputError> {
    let k = match setup.traffic.destinations {
        Destinations::Fixed(k) => k,
        Destinations::Uniform(lo, hi) => rng.random_range(lo..=hi),
    };
    let dests = random_destinations(&setup.shape, source, k as usize, rng)?;
    Request::new(setup.shape.clone(), source, dests)?.with_params(setup.params)
}

/// Running sums of the measured messages.
#[derive(Default)]
struct Tallies {
    multicast_primary: bool,
    multicast: (u64, f64),
    unicast: (u64, f64),
    cv: (u64, f64),
    /// Measured messages generated, and completed.
    generated: u64,
    complete: u64,
    /// Flits delivered to destinations during the measurement window.
    window_flits: u64,
    batch: (u64, f64),
    batch_means: Vec<f64>,
    /// Undelivered measured messages at each batch end.
    undelivered: Vec<u64>,
}

impl Tallies {
    /// Count a completed message; `window`: completed during the measurement window.
    fn add(&mut self, c: &Completed, window: bool, length: u32) {
        if window {
            self.window_flits += u64::from(c.destinations) * u64::from(length);
        }
        if !c.measured {
            return;
        }
        self.complete += 1;
        let l = c.latency as f64;
        let slot = if c.multicast {
            &mut self.multicast
        } else {
            &mut self.unicast
        };
        slot.0 += 1;
        slot.1 += l;
        if let Some(cv) = c.cv {
            self.cv.0 += 1;
            self.cv.1 += cv;
        }
        if c.multicast == self.multicast_primary {
            self.batch.0 += 1;
            self.batch.1 += l;
        }
    }

    fn close_batch(&mut self) {
        if self.batch.0 > 0 {
            self.batch_means.push(self.batch.1 / self.batch.0 as f64);
        }
        self.batch = (0, 0.0);
        self.undelivered.push(self.generated - self.complete);
    }

    /// [`Saturation::Growing`] when the undelivered measured messages rose at each of the last
    /// `batches` batch ends and at least doubled over them.
    fn growing(&self, batches: u32) -> Option<Saturation> {
        let n = self.undelivered.len();
        let w = batches as usize;
        if w == 0 || n <= w {
            return None;
        }
        let last = &self.undelivered[n - w - 1..];
        let rose = last.windows(2).all(|p| p[1] > p[0]);
        (rose && last[w] >= 2 * last[0].max(1)).then_some(Saturation::Growing(last[w]))
    }

    /// Mean and 95% half-width of the batch means.
    fn interval(&self) -> (f64, f64) {
        let n = self.batch_means.len();
        if n < 2 {
            return (f64::NAN, f64::NAN);
        }
        let mean = self.batch_means.iter().sum::<f64>() / n as f64;
        let var = self
            .batch_means
            .iter()
            .map(|x| (x - mean).powi(2))
            .sum::<f64>()
            / (n - 1) as f64;
        (mean, t_975(n as u64 - 1) * (var / n as f64).sqrt())
    }

    fn converged(&self, m: &Measure) -> bool {
        let (mean, half) = self.interval();
        self.batch_means.len() >= m.min_batches as usize && half <= m.precision * mean
    }

    /// Whether the later half of the batch means averages more than 1.5 times the earlier half.
    fn rising(&self) -> bool {
        let n = self.batch_means.len();
        if n < 4 {
            return false;
        }
        let avg = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
        avg(&self.batch_means[n / 2..]) > 1.5 * avg(&self.batch_means[..n / 2])
    }

    fn saturation(&self, m: &Measure) -> Option<Saturation> {
        let undelivered = self.generated - self.complete;
        if undelivered > 0 {
            Some(Saturation::Undelivered(undelivered))
        } else if !self.converged(m) && self.rising() {
            Some(Saturation::Rising)
        } else {
            None
        }
    }

    fn latency(&self, (n, sum): (u64, f64), primary: bool) -> Option<Latency> {
        let half = self.interval().1;
        (n > 0).then(|| Latency {
            mean: sum / n as f64,
            half_width: (primary && half.is_finite()).then_some(half),
            messages: n,
        })
    }
}

/// The messages in the system and those generated so far, sampled every `batch / n` cycles from
/// the warm-up on, for [`Saturation::Deficit`] (`n`: [`Measure::early_saturation`]).
struct Inflow {
    /// Windows in a row, and steps per window.
    windows: usize,
    /// The first sample's cycle: the warm-up's end.
    from: u64,
    /// Cycles per step.
    step: u64,
    /// The last `2n` samples: (messages in the system, messages generated so far).
    samples: std::collections::VecDeque<(u64, u64)>,
}

impl Inflow {
    fn new(m: &Measure) -> Inflow {
        let windows = m.early_saturation as usize;
        Inflow {
            windows,
            from: m.warmup,
            step: m.deficit_step(),
            samples: std::collections::VecDeque::new(),
        }
    }

    /// At cycle `now` of the measurement, with `live` messages in the system and `generated` so
    /// far: record a sample if one is due, and [`Saturation::Deficit`] when every window of the
    /// last `n` grew too much.
    fn at(&mut self, now: u64, live: u64, generated: u64) -> Option<Saturation> {
        let n = self.windows;
        if n == 0 || now < self.from || !(now - self.from).is_multiple_of(self.step) {
            return None;
        }
        if self.samples.len() == 2 * n {
            self.samples.pop_front();
        }
        self.samples.push_back((live, generated));
        if self.samples.len() < 2 * n {
            return None;
        }
        let grew = |j: usize| outgrew(DEFICIT, self.samples[j - n], self.samples[j]);
        (n..2 * n).all(grew).then_some(Saturation::Deficit(live))
    }
}

/// Whether the messages in the system grew from sample `(l0, g0)` to `(l1, g1)` (messages in the
/// system, messages generated so far) by more than `share` of the messages generated in between
/// and by more than [`DEFICIT_SIGMAS`] times the square root of the two counts' sum.
fn outgrew(share: f64, (l0, g0): (u64, u64), (l1, g1): (u64, u64)) -> bool {
    let growth = l1 as f64 - l0 as f64;
    growth > share * (g1 - g0) as f64 && growth > DEFICIT_SIGMAS * ((l0 + l1 + 1) as f64).sqrt()
}

/// The messages in the system and those generated so far at the warm-up's end and at every batch
/// end after it, for [`Saturation::Shortfall`].
#[derive(Default)]
struct Ledger {
    samples: Vec<(u64, u64)>,
}

impl Ledger {
    /// Record a sample: at the warm-up's end, then at each batch end.
    fn record(&mut self, live: u64, generated: u64) {
        self.samples.push((live, generated));
    }

    /// [`Saturation::Shortfall`] when at least `batches` batches are recorded and the messages in
    /// the system outgrew [`SHORTFALL`] over all of them and over each of their last two thirds:
    /// a sustained growth, not a network still filling after a short warm-up (its growth is in
    /// the first third) nor one late surge.
    fn shortfall(&self, batches: u32) -> Option<Saturation> {
        let k = self.samples.len().checked_sub(1)?;
        if k < batches as usize {
            return None;
        }
        let grew =
            |from: usize, to: usize| outgrew(SHORTFALL, self.samples[from], self.samples[to]);
        (grew(0, k) && grew(k / 3, 2 * k / 3) && grew(2 * k / 3, k))
            .then_some(Saturation::Shortfall(self.samples[k].0))
    }
}

/// Every node's message generator: exponential inter-arrival times from one ChaCha8 stream, and
/// the cycle each node generates next.
struct Generators<'a> {
    setup: &'a Setup,
    prep: u32,
    rng: ChaCha8Rng,
    next: Vec<f64>,
    due: BinaryHeap<Reverse<(u64, u32)>>,
}

impl<'a> Generators<'a> {
    fn new(setup: &'a Setup) -> Generators<'a> {
        let prep = setup
            .preparation
            .or_else(|| setup.algorithm.map(|a| preparation_time(a.name)))
            .unwrap_or(0);
        let mut g = Generators {
            setup,
            prep,
            rng: seeded(setup.seed),
            next: Vec::new(),
            due: BinaryHeap::new(),
        };
        for v in 0..setup.shape.len() as u32 {
            let at = g.gap();
            g.next.push(at);
            g.due.push(Reverse((at.ceil() as u64, v)));
        }
        g
    }

    fn gap(&mut self) -> f64 {
        let u: f64 = self.rng.random();
        -(1.0 - u).ln() / self.setup.traffic.load
    }

    /// Generate the messages due at `now` (in node order) into `sim`, telling `obs`; returns how
    /// many.
    fn generate(
        &mut self,
        now: u64,
        sim: &mut Sim,
        measured: bool,
        obs: &mut impl Observer,
    ) -> Result<u64, WormholeError> {
        let mut count = 0;
        let t = &self.setup.traffic;
        while let Some(&Reverse((at, v))) = self.due.peek() {
            if at > now {
                break;
            }
            self.due.pop();
            let source = Node(v);
            let multicast = self.rng.random::<f64>() < t.multicast;
            obs.on_generate(now, source, multicast);
            if multicast {
                let info = self.setup.algorithm.expect("checked");
                let plan = info.route(&request(self.setup, source, &mut self.rng)?)?;
                sim.nodes.multicast(now, self.prep, plan, measured);
            } else {
                let to = unicast_destination(&self.setup.shape, source, t.hot_spot, &mut self.rng);
                sim.nodes.unicast(now, source, to, measured);
            }
            count += 1;
            self.next[v as usize] += self.gap();
            self.due
                .push(Reverse((self.next[v as usize].ceil() as u64, v)));
        }
        Ok(count)
    }
}

/// Run `setup` and measure it.
pub fn simulate(setup: &Setup) -> Result<Report, WormholeError> {
    simulate_observed(setup, &mut NoObserver)
}

/// Run `setup` and measure it, telling `obs` of every message generated and delivered and of
/// every flit crossing a channel, up to the run's last cycle (warm-up and drain included).
pub fn simulate_observed(setup: &Setup, obs: &mut impl Observer) -> Result<Report, WormholeError> {
    check(setup)?;
    let mut sim = Sim::new(&setup.shape, setup.router, classes(setup)?)?;
    let mut sources = Generators::new(setup);
    let m = setup.measure;
    let mut tallies = Tallies {
        multicast_primary: setup.traffic.multicast > 0.0,
        ..Tallies::default()
    };
    let cap = u64::from(m.max_backlog) * setup.shape.len() as u64;
    let last_stop = m.max_cycles - m.drain;
    let mut next_batch = m.warmup + m.batch;
    let mut stop: Option<u64> = None;
    let mut early: Option<Saturation> = None;
    let mut inflow = Inflow::new(&m);
    let mut ledger = Ledger::default();
    if m.warmup == 0 {
        ledger.record(0, 0);
    }
    let mut offered = 0;
    let mut flit_hops = [0; 2];
    let mut now = 0u64;
    loop {
        sim.cycle(now, obs)?;
        let window = now >= m.warmup && stop.is_none();
        for c in sim.done.drain(..) {
            obs.on_deliver(&delivery(&c, now));
            tallies.add(&c, window, setup.router.length);
        }
        let generated = sources.generate(now, &mut sim, window, obs)?;
        if window {
            tallies.generated += generated;
        }
        offered += generated;
        if now == m.warmup {
            flit_hops[0] = sim.net.flits.hops;
        }
        now += 1;
        let live = sim.nodes.live();
        if live > cap || sim.nodes.live_hops() > MAX_LIVE_HOPS {
            early = Some(Saturation::Backlog(live));
        }
        if stop.is_none() {
            early = early.or(inflow.at(now, live, offered));
        }
        if now == m.warmup {
            ledger.record(live, offered);
        }
        match stop {
            None if now == next_batch => {
                next_batch += m.batch;
                tallies.close_batch();
                ledger.record(live, offered);
                if m.early_saturation > 0 {
                    early = early
                        .or(tallies.growing(m.early_saturation))
                        .or(ledger.shortfall(m.early_saturation));
                }
                if tallies.converged(&m) || now >= last_stop {
                    stop = Some(now);
                    flit_hops[1] = sim.net.flits.hops;
                }
            }
            Some(s) if tallies.complete == tallies.generated || now >= s + m.drain => break,
            _ => {}
        }
        if early.is_some() || now >= m.max_cycles {
            if stop.is_none() {
                stop = Some(now);
                if now <= m.warmup {
                    flit_hops[0] = sim.net.flits.hops;
                }
                flit_hops[1] = sim.net.flits.hops;
            }
            break;
        }
    }
    // A run stopped during the warm-up measured nothing.
    let stop = stop.expect("the loop ends after the stop");
    let measured = stop.saturating_sub(m.warmup).max(1) as f64;
    let links = sim
        .net
        .channels
        .head
        .iter()
        .filter(|&&h| h != u32::MAX)
        .count() as f64;
    let primary = tallies.multicast_primary;
    Ok(Report {
        offered_messages: setup.traffic.load,
        offered_flits: setup.traffic.load * f64::from(setup.router.length),
        multicast: tallies.latency(tallies.multicast, primary),
        unicast: tallies.latency(tallies.unicast, !primary),
        cv: (tallies.cv.0 > 0).then(|| tallies.cv.1 / tallies.cv.0 as f64),
        accepted_flits: tallies.window_flits as f64 / (setup.shape.len() as f64 * measured),
        delivery_ratio: if tallies.generated == 0 {
            1.0
        } else {
            tallies.complete as f64 / tallies.generated as f64
        },
        utilisation: (flit_hops[1] - flit_hops[0]) as f64 / (links * measured),
        converged: tallies.converged(&m),
        batches: tallies.batch_means.len() as u32,
        saturated: early.or_else(|| tallies.saturation(&m)),
        cycles: now,
        flit_hops: sim.net.flits.hops,
    })
}

/// What an observer is told of completed message `c`, delivered at `now`.
fn delivery(c: &Completed, now: u64) -> Delivery {
    Delivery {
        generated: now - c.latency,
        delivered: now,
        multicast: c.multicast,
        destinations: c.destinations,
        measured: c.measured,
    }
}

/// A unicast's destination: the hot spot with its probability, else uniform over the other nodes.
fn unicast_destination(
    shape: &Shape,
    source: Node,
    hot: Option<(Node, f64)>,
    rng: &mut ChaCha8Rng,
) -> Node {
    if let Some((h, f)) = hot {
        if h != source && rng.random::<f64>() < f {
            return h;
        }
    }
    let i = rng.random_range(0..shape.len() - 1);
    Node((i + usize::from(i >= source.index())) as u32)
}

/// Run every setup, in parallel on the rayon pool, results in the order given (each run depends
/// on its own setup only, so the results do not depend on the thread count). `done` is called
/// once per finished run, from any thread.
pub fn simulate_all(
    setups: &[Setup],
    done: &(dyn Fn() + Sync),
) -> Vec<Result<Report, WormholeError>> {
    simulate_all_observed(setups, &|_| NoObserver, done)
        .into_iter()
        .map(|r| r.map(|(report, NoObserver)| report))
        .collect()
}

/// [`simulate_all`] with an observer per run, made by `observer` from the run's setup and
/// returned beside its report.
pub fn simulate_all_observed<O: Observer + Send>(
    setups: &[Setup],
    observer: &(dyn Fn(&Setup) -> O + Sync),
    done: &(dyn Fn() + Sync),
) -> Vec<Result<(Report, O), WormholeError>> {
    use rayon::prelude::*;
    setups
        .par_iter()
        .map(|s| {
            let mut obs = observer(s);
            let r = simulate_observed(s, &mut obs);
            done();
            r.map(|report| (report, obs))
        })
        .collect()
}
