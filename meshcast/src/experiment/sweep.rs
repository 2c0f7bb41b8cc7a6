//! Monte-Carlo sweeps: many random multicasts per destination count, every algorithm on the same
//! destination sets (the theses' common random numbers), summed exactly.
//!
//! A sweep is a list of *units* `(K, run)`. Unit `(K, run)` draws its source (if random) and its
//! destinations from its own ChaCha8 stream — seed `seed`, stream `K << 32 | run` — so a unit's
//! sample depends on nothing but the seed and its own coordinates: not on the thread count, not on
//! which other K are in the sweep, not on the shard that runs it. Results are [`Tally`]s of exact
//! integer sums, so threads, shards (`unit index mod N`) and resumed runs merge to the same bits.
//!
//! Every plan is measured under store-and-forward (one-port and all-port time, traffic, additional
//! traffic). With a [`Wormhole`] model the path- and unicast-based plans also get their wormhole
//! latency, and the unicast-based ones their message-passing steps under the model's port count
//! ([`Sweep::measures`] says which algorithm has which [`Metric`]; a metric an algorithm does not
//! have keeps an empty tally).
//!
//! ```
//! use meshcast::algo;
//! use meshcast::experiment::sweep::{Metric, Placement, Shard, Sweep};
//! use meshcast::schedule::Schedule;
//! let sweep = Sweep {
//!     shape: "mesh:10x10".parse().unwrap(),
//!     placement: Placement::Origin,
//!     algorithms: vec![algo::find("vh").unwrap(), algo::find("diag").unwrap()],
//!     ks: vec![5, 10],
//!     runs: 20,
//!     seed: 7,
//!     schedule: Schedule::Paper,
//!     wormhole: None,
//!     params: algo::Params::default(),
//! };
//! let tally = sweep.run(Shard::WHOLE, &|_| {}).unwrap();
//! let diag_traffic = tally.points[1].algorithms[1][Metric::Traffic as usize].summary();
//! assert_eq!(diag_traffic.n, 20);
//! assert!(diag_traffic.mean >= 10.0);
//! ```

use std::ops::RangeInclusive;

use rand::rngs::ChaCha8Rng;
use rand::RngExt;
use rayon::prelude::*;

pub use super::shard::Shard;
use crate::algo::{AlgoInfo, Params, Request};
use crate::error::{Error, InputError};
use crate::eval::{message_steps, wormhole_latency, Metrics, Wormhole};
use crate::evaluation::Evaluation;
use crate::plan::Plan;
use crate::schedule::{Buffers, Schedule};
use crate::stats::Tally;
use crate::topology::Shape;
use crate::workload::{random_destinations, seeded};

thread_local! {
    /// The storage [`Schedule::metrics`] times a sweep's plans in, and the last plan measured,
    /// whose memory the next one is written into ([`AlgoInfo::route_reusing`]): one per thread
    /// and kept from unit to unit — a rayon job of its own per few units would allocate its
    /// tables again, as large as the mesh below `node_table::LARGE` nodes, for every job.
    static BUFFERS: std::cell::RefCell<(Buffers, Option<Plan>)> = std::cell::RefCell::default();
}

/// Where the source of each multicast is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// At the origin, as in the theses' experiments.
    Origin,
    /// Uniformly random, drawn per multicast.
    Random,
}

/// The metrics a sweep records, indexing the arrays of [`PointTally`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Store-and-forward one-port time (hops).
    OnePortTime = 0,
    /// Store-and-forward all-port time (hops).
    AllPortTime = 1,
    /// Traffic (links).
    Traffic = 2,
    /// Additional traffic, traffic − K (links): its mean is the average additional traffic (AAT).
    AdditionalTraffic = 3,
    /// Wormhole latency ([`wormhole_latency`], cycles) of path- and unicast-based plans, when
    /// the sweep has a [`Wormhole`] model.
    WormholeLatency = 4,
    /// Message-passing steps ([`message_steps`], seed 001 eq. 2.1.7) of unicast-based plans, when
    /// the sweep has a [`Wormhole`] model: counted under its port count.
    Steps = 5,
}

impl Metric {
    /// The number of metrics.
    pub const COUNT: usize = 6;

    /// Every metric, in index order.
    pub const ALL: [Metric; Metric::COUNT] = [
        Metric::OnePortTime,
        Metric::AllPortTime,
        Metric::Traffic,
        Metric::AdditionalTraffic,
        Metric::WormholeLatency,
        Metric::Steps,
    ];

    /// The metric's name in files: `one_port_time`, `all_port_time`, `traffic`,
    /// `additional_traffic`, `wormhole_latency`, `steps`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::OnePortTime => "one_port_time",
            Metric::AllPortTime => "all_port_time",
            Metric::Traffic => "traffic",
            Metric::AdditionalTraffic => "additional_traffic",
            Metric::WormholeLatency => "wormhole_latency",
            Metric::Steps => "steps",
        }
    }

    /// Its unit: `hops`, `links`, `cycles` (a flit crossing a channel takes one) or `steps`.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::OnePortTime | Metric::AllPortTime => "hops",
            Metric::Traffic | Metric::AdditionalTraffic => "links",
            Metric::WormholeLatency => "cycles",
            Metric::Steps => "steps",
        }
    }
}

/// One tally per metric, indexed by `metric as usize`.
pub type Tallies = [Tally; Metric::COUNT];

/// One algorithm's values on one multicast, indexed by `metric as usize`; `None` for a metric
/// the sweep does not measure for that algorithm.
pub type Sample = [Option<i64>; Metric::COUNT];

/// The sums of one destination count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointTally {
    /// Destination count K.
    pub k: usize,
    /// Per algorithm (in sweep order), per metric.
    pub algorithms: Vec<Tallies>,
    /// Per pair `(a, b)`, `a < b` in sweep order, per metric: the paired differences `a − b`.
    pub pairs: Vec<Tallies>,
}

impl PointTally {
    fn new(k: usize, algorithms: usize) -> PointTally {
        PointTally {
            k,
            algorithms: vec![Tallies::default(); algorithms],
            pairs: vec![Tallies::default(); algorithms * algorithms.saturating_sub(1) / 2],
        }
    }

    /// The paired differences `a − b` of algorithms `a < b` (sweep order).
    pub fn pair(&self, a: usize, b: usize) -> &Tallies {
        let n = self.algorithms.len();
        assert!(a < b && b < n, "pair ({a}, {b}) of {n} algorithms");
        &self.pairs[a * (2 * n - a - 1) / 2 + (b - a - 1)]
    }

    fn add(&mut self, samples: &[Sample]) {
        let mut pair = 0;
        for (a, sa) in samples.iter().enumerate() {
            for (tally, &x) in self.algorithms[a].iter_mut().zip(sa) {
                if let Some(x) = x {
                    tally.add(x);
                }
            }
            for sb in &samples[a + 1..] {
                for (tally, (&x, &y)) in self.pairs[pair].iter_mut().zip(sa.iter().zip(sb)) {
                    if let (Some(x), Some(y)) = (x, y) {
                        tally.add(x - y);
                    }
                }
                pair += 1;
            }
        }
    }

    /// Add every sample of `other` (same K, same algorithms).
    pub fn merge(&mut self, other: &PointTally) {
        assert_eq!(self.k, other.k, "merging different destination counts");
        let zipped = self.algorithms.iter_mut().zip(&other.algorithms);
        let pairs = self.pairs.iter_mut().zip(&other.pairs);
        for (mine, theirs) in zipped.chain(pairs) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.merge(t);
            }
        }
    }
}

/// The sums of a whole sweep (or of a shard of it): one [`PointTally`] per K, in sweep order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepTally {
    /// Per destination count.
    pub points: Vec<PointTally>,
}

impl SweepTally {
    /// Add every sample of `other`, a tally of the same sweep.
    pub fn merge(&mut self, other: &SweepTally) {
        assert_eq!(self.points.len(), other.points.len(), "different sweeps");
        for (mine, theirs) in self.points.iter_mut().zip(&other.points) {
            mine.merge(theirs);
        }
    }

    /// The "mean" of seed 001 Definition 4.1.1: all samples of all K together, per algorithm.
    pub fn overall(&self) -> Vec<Tallies> {
        self.overall_within(0..=usize::MAX)
    }

    /// As [`SweepTally::overall`], over the points whose K lies in `ks` only.
    pub fn overall_within(&self, ks: RangeInclusive<usize>) -> Vec<Tallies> {
        let algorithms = self.points.first().map_or(0, |p| p.algorithms.len());
        let mut total = vec![Tallies::default(); algorithms];
        for p in self.points.iter().filter(|p| ks.contains(&p.k)) {
            for (t, a) in total.iter_mut().zip(&p.algorithms) {
                for (x, y) in t.iter_mut().zip(a) {
                    x.merge(y);
                }
            }
        }
        total
    }
}

/// A Monte-Carlo sweep: for each K, `runs` random multicasts, each routed by every algorithm.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The topology.
    pub shape: Shape,
    /// Where sources are.
    pub placement: Placement,
    /// The algorithms, in report order.
    pub algorithms: Vec<&'static AlgoInfo>,
    /// Destination counts.
    pub ks: Vec<usize>,
    /// Multicasts per K.
    pub runs: u32,
    /// Seed of every random draw.
    pub seed: u64,
    /// Port order the times are measured with.
    pub schedule: Schedule,
    /// The wormhole model path- and unicast-based plans are also measured under, if any.
    pub wormhole: Option<Wormhole>,
    /// The settings of the algorithms that take any (QG's TD, the multiport algorithm's d).
    pub params: Params,
}

impl Sweep {
    /// Whether this sweep measures `metric` for `algorithm`: the store-and-forward metrics for
    /// every plan; under a wormhole model, wormhole latency for the plans
    /// [`Evaluation::switched`] admits (path- and unicast-based) and steps for those
    /// [`Evaluation::stepped`] admits (unicast-based), the rule a route report follows.
    pub fn measures(&self, algorithm: &AlgoInfo, metric: Metric) -> bool {
        let wormhole = self.wormhole.is_some();
        match metric {
            Metric::WormholeLatency => wormhole && Evaluation::switched(algorithm.family),
            Metric::Steps => wormhole && Evaluation::stepped(algorithm.family),
            _ => true,
        }
    }

    /// The metrics measured for at least one algorithm, in index order.
    pub fn metrics(&self) -> Vec<Metric> {
        let measured = |&m: &Metric| self.algorithms.iter().any(|a| self.measures(a, m));
        Metric::ALL.into_iter().filter(measured).collect()
    }

    /// Check the settings: at least one algorithm, K, run; every K possible on the shape; every
    /// algorithm supported on it.
    pub fn check(&self) -> Result<(), InputError> {
        let setting = |name, value: String, allowed| InputError::Setting {
            name,
            value,
            allowed,
        };
        if self.runs == 0 {
            return Err(setting("runs", "0".into(), "at least 1"));
        }
        if self.algorithms.is_empty() {
            return Err(setting("algorithms", "none".into(), "at least one"));
        }
        if self.ks.is_empty() {
            return Err(setting(
                "k",
                "none".into(),
                "at least one destination count",
            ));
        }
        for &k in &self.ks {
            if k == 0 || k >= self.shape.len() {
                return Err(InputError::DestinationCount {
                    k,
                    most: self.shape.len() - 1,
                    topology: self.shape.to_string(),
                });
            }
        }
        for a in &self.algorithms {
            a.check_support(&self.shape)?;
        }
        Ok(())
    }

    /// Number of units, `|ks| · runs`.
    pub fn units(&self) -> u64 {
        self.ks.len() as u64 * u64::from(self.runs)
    }

    /// The random stream of unit `(K, run)`.
    pub fn stream(&self, k: usize, run: u32) -> ChaCha8Rng {
        let mut rng = seeded(self.seed);
        rng.set_stream((k as u64) << 32 | u64::from(run));
        rng
    }

    /// The request of unit `(K, run)`.
    pub fn request(&self, k: usize, run: u32) -> Result<Request, InputError> {
        let mut rng = self.stream(k, run);
        let source = match self.placement {
            Placement::Origin => self.shape.node(&vec![0; self.shape.rank()])?,
            Placement::Random => self.shape.node_at(rng.random_range(0..self.shape.len()))?,
        };
        let dests = random_destinations(&self.shape, source, k, &mut rng)?;
        Request::new(self.shape.clone(), source, dests)?.with_params(self.params)
    }

    /// Every algorithm's values on unit `(K, run)`, under the sweep's schedule.
    pub fn sample(&self, k: usize, run: u32) -> Result<Vec<Sample>, Error> {
        let mut samples = self.samples(k, run, &[self.schedule])?;
        Ok(samples.swap_remove(0))
    }

    /// Every algorithm's values on unit `(K, run)` under each of `schedules` (one list per
    /// schedule, in that order): every plan is routed once and only timed per schedule.
    pub fn samples(
        &self,
        k: usize,
        run: u32,
        schedules: &[Schedule],
    ) -> Result<Vec<Vec<Sample>>, Error> {
        BUFFERS.with_borrow_mut(|(buffers, spent)| {
            self.samples_with(k, run, schedules, buffers, spent)
        })
    }

    /// As [`Sweep::samples`], timing the plans in `buffers` and writing each into the memory
    /// of the one before, `spent`, where the last is left.
    fn samples_with(
        &self,
        k: usize,
        run: u32,
        schedules: &[Schedule],
        buffers: &mut Buffers,
        spent: &mut Option<Plan>,
    ) -> Result<Vec<Vec<Sample>>, Error> {
        let req = self.request(k, run)?;
        let shape = req.shape();
        let mut out = vec![Vec::with_capacity(self.algorithms.len()); schedules.len()];
        for a in &self.algorithms {
            let plan = match spent.take() {
                Some(old) => a.route_reusing(&req, old)?,
                None => a.route(&req)?,
            };
            let metrics = Schedule::metrics(&plan, shape, schedules, buffers);
            for ((samples, &schedule), m) in out.iter_mut().zip(schedules).zip(&metrics) {
                samples.push(self.measure(a, &plan, schedule, m, shape));
            }
            *spent = Some(plan);
        }
        Ok(out)
    }

    /// The values of the metrics this sweep measures for `algorithm`, on its `plan` in the port
    /// order `schedule`, whose store-and-forward metrics are `m`. Only the switched models play
    /// the reordered plan itself.
    fn measure(
        &self,
        algorithm: &AlgoInfo,
        plan: &Plan,
        schedule: Schedule,
        m: &Metrics,
        shape: &Shape,
    ) -> Sample {
        let ordered = self
            .measures(algorithm, Metric::WormholeLatency)
            .then(|| schedule.order(plan, shape));
        Metric::ALL.map(|metric| {
            let value = match (metric, self.wormhole) {
                _ if !self.measures(algorithm, metric) => None,
                (Metric::OnePortTime, _) => Some(m.one_port_time),
                (Metric::AllPortTime, _) => Some(m.all_port_time),
                (Metric::Traffic, _) => Some(m.traffic),
                (Metric::AdditionalTraffic, _) => Some(m.additional_traffic),
                (Metric::WormholeLatency, Some(model)) => ordered
                    .as_deref()
                    .map(|p| wormhole_latency(p, shape, model)),
                (Metric::Steps, Some(model)) => ordered
                    .as_deref()
                    .map(|p| message_steps(p, shape, model.ports)),
                (Metric::WormholeLatency | Metric::Steps, None) => None,
            };
            value.map(i64::from)
        })
    }

    /// Run the units of `shard` on all cores. `done(n)` is called as units finish (for a
    /// progress bar); the result does not depend on the thread count.
    pub fn run(&self, shard: Shard, done: &(dyn Fn(u64) + Sync)) -> Result<SweepTally, Error> {
        self.run_points(shard, &vec![true; self.ks.len()], done)
    }

    /// As [`Sweep::run`], for the K whose entry in `todo` is true only (the others stay empty):
    /// what a resumed sweep has left.
    pub fn run_points(
        &self,
        shard: Shard,
        todo: &[bool],
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<SweepTally, Error> {
        let mut tallies = self.run_units(shard, todo, &[self.schedule], done)?;
        Ok(tallies.swap_remove(0))
    }

    /// As [`Sweep::run`], with every plan measured under each of `schedules`: one tally per
    /// schedule, in that order, each the tally [`Sweep::run`] gives with that schedule — but
    /// every multicast is drawn and routed once, not once per schedule.
    pub fn run_schedules(
        &self,
        shard: Shard,
        schedules: &[Schedule],
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<SweepTally>, Error> {
        self.run_units(shard, &vec![true; self.ks.len()], schedules, done)
    }

    fn run_units(
        &self,
        shard: Shard,
        todo: &[bool],
        schedules: &[Schedule],
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<SweepTally>, Error> {
        self.check()?;
        let empty = || vec![self.empty_tally(); schedules.len()];
        let runs = u64::from(self.runs);
        (0..self.units())
            .into_par_iter()
            .filter(|&u| shard.has(u) && todo[(u / runs) as usize])
            .try_fold(empty, |mut tallies, u| {
                let (point, run) = ((u / runs) as usize, (u % runs) as u32);
                let samples = self.samples(self.ks[point], run, schedules)?;
                for (tally, sample) in tallies.iter_mut().zip(&samples) {
                    tally.points[point].add(sample);
                }
                done(1);
                Ok(tallies)
            })
            .try_reduce(empty, |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x.merge(y);
                }
                Ok(a)
            })
    }

    /// A tally with no samples, shaped for this sweep.
    pub fn empty_tally(&self) -> SweepTally {
        SweepTally {
            points: self
                .ks
                .iter()
                .map(|&k| PointTally::new(k, self.algorithms.len()))
                .collect(),
        }
    }
}

/// Runs per point of a quick reproduction: enough to exercise every experiment, far too few to
/// compare.
pub const QUICK_RUNS: u32 = 3;

/// `full` runs per point, or [`QUICK_RUNS`] when `quick`.
pub fn runs(full: u32, quick: bool) -> u32 {
    if quick {
        QUICK_RUNS
    } else {
        full
    }
}

impl Sweep {
    /// `algorithms` (registry names) at `ks`, `runs` per K, with the source at the origin as in
    /// both theses (seeds 000 and 001) and the papers' port order.
    pub fn at_origin(
        topology: &str,
        algorithms: &[&str],
        ks: Vec<usize>,
        runs: u32,
        seed: u64,
    ) -> Result<Sweep, InputError> {
        let algorithms = algorithms.iter().map(|a| crate::algo::find(a));
        Ok(Sweep {
            shape: topology.parse()?,
            placement: Placement::Origin,
            algorithms: algorithms.collect::<Result<_, _>>()?,
            ks,
            runs,
            seed,
            schedule: Schedule::Paper,
            wormhole: None,
            params: Params::default(),
        })
    }
}

/// The port orders the times on `topology` are shown in: the papers', the optimal one, and on
/// tori wraparound links last (reading 2 of issue 17).
pub fn orders(topology: &str) -> &'static [Schedule] {
    if topology.starts_with("torus") {
        &Schedule::ALL
    } else {
        &[Schedule::Paper, Schedule::Optimal]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo;

    fn sweep() -> Sweep {
        Sweep {
            shape: "torus:6x5".parse().unwrap(),
            placement: Placement::Random,
            algorithms: ["vh", "diag", "dds"]
                .map(|n| algo::find(n).unwrap())
                .to_vec(),
            ks: vec![1, 4, 12],
            runs: 9,
            seed: 11,
            schedule: Schedule::Paper,
            wormhole: None,
            params: Default::default(),
        }
    }

    #[test]
    fn shards_merge_to_the_whole_sweep() {
        let s = sweep();
        let whole = s.run(Shard::WHOLE, &|_| {}).unwrap();
        let mut merged = s.empty_tally();
        for i in 0..4 {
            let part = s.run(Shard { index: i, count: 4 }, &|_| {}).unwrap();
            merged.merge(&part);
        }
        assert_eq!(merged, whole);
        assert_eq!(whole.points[2].algorithms[0][0].n, 9);
    }

    #[test]
    fn thread_count_does_not_change_the_result() {
        let s = sweep();
        let run_with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| s.run(Shard::WHOLE, &|_| {}).unwrap())
        };
        assert_eq!(run_with(1), run_with(3));
    }

    #[test]
    fn a_unit_does_not_depend_on_the_other_points() {
        let s = sweep();
        let mut fewer = s.clone();
        fewer.ks = vec![12];
        assert_eq!(s.request(12, 3).unwrap(), fewer.request(12, 3).unwrap());
    }

    /// Routing once for several port orders gives, per order, the tally of a sweep run in that
    /// order alone; and a mean over part of a sweep is the mean of the sweep of that part.
    #[test]
    fn one_routing_for_every_schedule_matches_a_sweep_per_schedule() {
        let s = sweep();
        let all = s
            .run_schedules(Shard::WHOLE, &Schedule::ALL, &|_| {})
            .unwrap();
        for (tally, schedule) in all.iter().zip(Schedule::ALL) {
            let alone = Sweep {
                schedule,
                ..s.clone()
            };
            assert_eq!(
                tally,
                &alone.run(Shard::WHOLE, &|_| {}).unwrap(),
                "{schedule:?}"
            );
        }
        let part = Sweep {
            ks: vec![4, 12],
            ..s.clone()
        };
        assert_eq!(
            all[0].overall_within(4..=12),
            part.run(Shard::WHOLE, &|_| {}).unwrap().overall()
        );
    }

    #[test]
    fn paired_differences_are_differences() {
        let s = sweep();
        let t = s.run(Shard::WHOLE, &|_| {}).unwrap();
        let p = &t.points[1];
        let traffic = Metric::Traffic as usize;
        let n = p.algorithms.len();
        for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
            assert_eq!(
                p.pair(a, b)[traffic].sum,
                p.algorithms[a][traffic].sum - p.algorithms[b][traffic].sum
            );
        }
    }

    /// Under a wormhole model the path-based algorithms get a latency tally, the trees none,
    /// and a pair has one only when both of its algorithms do.
    #[test]
    fn a_wormhole_sweep_measures_latency_of_path_plans_only() {
        let s = Sweep {
            shape: "mesh:6x6".parse().unwrap(),
            placement: Placement::Origin,
            algorithms: ["xy-path", "dds", "lin"]
                .map(|n| algo::find(n).unwrap())
                .to_vec(),
            ks: vec![3, 9],
            runs: 5,
            seed: 2,
            schedule: Schedule::Paper,
            wormhole: Some(Wormhole {
                startup: 4,
                length: 20,
                ports: crate::eval::Ports::All,
            }),
            params: Default::default(),
        };
        let latency = Metric::WormholeLatency as usize;
        let t = s.run(Shard::WHOLE, &|_| {}).unwrap();
        let counts = |tallies: &[Tallies]| tallies.iter().map(|t| t[latency].n).collect::<Vec<_>>();
        assert_eq!(counts(&t.points[1].algorithms), [5, 0, 5]);
        assert_eq!(
            counts(&t.points[1].pairs),
            [0, 5, 0],
            "(xy, dds), (xy, lin), (dds, lin)"
        );
        // All-port, every worm from the source: start-up + longest worm + L.
        let all_port = Metric::AllPortTime as usize;
        let p = &t.points[0].algorithms[0];
        assert_eq!(p[latency].sum, p[all_port].sum + 5 * 24);
        assert_eq!(
            s.metrics(),
            &Metric::ALL[..5],
            "no unicast-based algorithm, no steps"
        );
        assert_eq!(sweep().metrics(), &Metric::ALL[..4]);
    }

    /// Unicast-based plans get steps too, counted under the model's port count.
    #[test]
    fn a_wormhole_sweep_counts_the_steps_of_unicast_plans() {
        let one_port = Wormhole {
            startup: 0,
            length: 20,
            ports: crate::eval::Ports::One,
        };
        let s = Sweep {
            algorithms: ["separate", "xy-path"]
                .map(|n| algo::find(n).unwrap())
                .to_vec(),
            shape: "mesh:6x6".parse().unwrap(),
            wormhole: Some(one_port),
            ..sweep()
        };
        let t = s.run(Shard::WHOLE, &|_| {}).unwrap();
        let steps = Metric::Steps as usize;
        // Separate addressing, one port: one unicast per step, K steps.
        let p = &t.points[1];
        assert_eq!(
            (p.algorithms[0][steps].n, p.algorithms[0][steps].sum),
            (9, 9 * 4)
        );
        assert_eq!(
            p.algorithms[1][steps].n, 0,
            "a path-based plan has no steps"
        );
        assert_eq!(s.metrics(), Metric::ALL);
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut s = sweep();
        s.ks = vec![30];
        assert!(s
            .check()
            .unwrap_err()
            .to_string()
            .contains("between 1 and 29"));
        assert!(Shard::parse("4/4").is_err());
        assert_eq!(Shard::parse("3/8").unwrap(), Shard { index: 3, count: 8 });
    }
}
