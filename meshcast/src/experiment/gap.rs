//! Optimality gaps: how far each algorithm of a [`Sweep`] is from the exact optimum, instance by
//! instance.
//!
//! A [`GapSweep`] runs the units of a sweep (the same requests, drawn from the same streams, as
//! [`Sweep::request`]) and, besides every algorithm's plan, computes one optimum per [`Baseline`]
//! with [`crate::exact`]. Per algorithm and baseline it keeps the *excess* — the algorithm's value
//! minus the optimum, an integer — in an exact [`Tally`], and the worst instance: the highest
//! excess relative to the optimum, compared exactly as fractions, ties to the larger excess, then
//! to the smaller `(K, run)`. Tallies and worst cases merge in any order to the same result, so the
//! gaps do not depend on the thread count, and the shards of a sweep ([`GapSweep::run_shard`])
//! merge to the gaps of the whole.
//!
//! The sign carries meaning: an excess below zero is possible only where an algorithm plays a
//! different game from the optimum — a tree that leaves shortest paths (DIST, MIN) under the OMT,
//! two worms under the one-worm OMP. Nothing is ever below the MST.
//!
//! ```
//! use meshcast::algo;
//! use meshcast::experiment::gap::{Baseline, GapSweep};
//! use meshcast::experiment::sweep::{Placement, Sweep};
//! use meshcast::schedule::Schedule;
//! let sweep = Sweep {
//!     shape: "mesh:6x6".parse().unwrap(),
//!     placement: Placement::Random,
//!     algorithms: vec![algo::find("dds").unwrap(), algo::find("rsa").unwrap()],
//!     ks: vec![4, 8],
//!     runs: 5,
//!     seed: 7,
//!     schedule: Schedule::Optimal,
//!     wormhole: None,
//!     params: algo::Params::default(),
//! };
//! let gaps = GapSweep { sweep, baselines: vec![Baseline::Omt, Baseline::Mst] };
//! let points = gaps.run(&|_| {}).unwrap();
//! let dds_to_omt = &points[1].gaps[0][0];
//! assert_eq!(dds_to_omt.excess.n, 5);
//! assert!(dds_to_omt.excess.sum >= 0); // a shortest-path tree never beats the OMT
//! ```

use std::cmp::Ordering;

use rayon::prelude::*;

use super::sweep::{Metric, Shard, Sweep};
use crate::algo::Request;
use crate::error::{Error, InputError};
use crate::eval::Metrics;
use crate::exact;
use crate::stats::Tally;

/// An exact optimum a sweep's algorithms are measured against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// `omt`: the least traffic of a shortest-path tree (seed 001 Definition 2.1.8).
    Omt,
    /// `mst`: the least traffic of any tree, the minimal Steiner tree (Definition 2.1.7).
    Mst,
    /// `omp`: the length of the shortest walk from the source through every destination, one worm
    /// (Definition 2.1.5).
    Omp,
    /// `opt-time`: the least store-and-forward one-port time of a shortest-path tree with the best
    /// port order (small instances only).
    OptTime,
}

impl Baseline {
    /// Every baseline, in report order.
    pub const ALL: [Baseline; 4] = [
        Baseline::Omt,
        Baseline::Mst,
        Baseline::Omp,
        Baseline::OptTime,
    ];

    /// The name the command line takes: `omt`, `mst`, `omp`, `opt-time`.
    pub fn name(self) -> &'static str {
        match self {
            Baseline::Omt => "omt",
            Baseline::Mst => "mst",
            Baseline::Omp => "omp",
            Baseline::OptTime => "opt-time",
        }
    }

    /// The baseline named `text` (also `opt-traffic` for `omt`, the name issue 7 uses).
    pub fn parse(text: &str) -> Result<Baseline, InputError> {
        let text = text.trim().to_ascii_lowercase();
        if text == "opt-traffic" {
            return Ok(Baseline::Omt);
        }
        Baseline::ALL
            .into_iter()
            .find(|b| b.name() == text)
            .ok_or(InputError::Setting {
                name: "baseline",
                value: text,
                allowed: "omt (also opt-traffic), mst, omp or opt-time",
            })
    }

    /// What the baseline is, in a few words: `least traffic of a shortest-path tree`.
    pub fn describe(self) -> &'static str {
        match self {
            Baseline::Omt => "least traffic of a shortest-path tree",
            Baseline::Mst => "least traffic of any tree, the minimal Steiner tree",
            Baseline::Omp => "shortest one-worm walk through every destination",
            Baseline::OptTime => "least one-port time of a shortest-path tree",
        }
    }

    /// The metric the baseline is an optimum of.
    pub fn metric(self) -> Metric {
        match self {
            Baseline::OptTime => Metric::OnePortTime,
            Baseline::Omt | Baseline::Mst | Baseline::Omp => Metric::Traffic,
        }
    }

    /// The optimum for `req`.
    pub fn optimum(self, req: &Request) -> Result<u32, InputError> {
        Ok(match self {
            Baseline::Omt => exact::omt(req)?.traffic(),
            Baseline::Mst => exact::mst(req)?.traffic(),
            Baseline::Omp => exact::omp(req)?.traffic(),
            Baseline::OptTime => Metrics::of(&exact::one_port(req)?, req.shape()).one_port_time,
        })
    }
}

/// The instance where an algorithm is farthest from an optimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worst {
    /// The algorithm's value minus the optimum.
    pub excess: i64,
    /// The optimum.
    pub optimum: i64,
    /// Destination count of the instance.
    pub k: usize,
    /// Its run number: with the sweep's seed, [`Sweep::request`] rebuilds it.
    pub run: u32,
}

impl Worst {
    /// Which of two is worse: higher `excess / optimum` (exact), then higher excess, then the
    /// smaller `(k, run)`.
    pub fn worse_than(&self, other: &Worst) -> bool {
        let ratio = (i128::from(self.excess) * i128::from(other.optimum))
            .cmp(&(i128::from(other.excess) * i128::from(self.optimum)));
        ratio
            .then(self.excess.cmp(&other.excess))
            .then((other.k, other.run).cmp(&(self.k, self.run)))
            == Ordering::Greater
    }
}

/// One algorithm against one baseline: the excesses, the optima, and the worst instance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GapTally {
    /// Excess over the optimum, per instance.
    pub excess: Tally,
    /// The worst instance so far.
    pub worst: Option<Worst>,
}

impl GapTally {
    fn add(&mut self, candidate: Worst) {
        self.excess.add(candidate.excess);
        self.keep_worse(candidate);
    }

    fn keep_worse(&mut self, candidate: Worst) {
        if self.worst.is_none_or(|w| candidate.worse_than(&w)) {
            self.worst = Some(candidate);
        }
    }

    /// Add every instance of `other`.
    pub fn merge(&mut self, other: &GapTally) {
        self.excess.merge(&other.excess);
        if let Some(w) = other.worst {
            self.keep_worse(w);
        }
    }
}

/// The gaps of one destination count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GapPoint {
    /// Destination count K.
    pub k: usize,
    /// Per baseline: the optima.
    pub optimum: Vec<Tally>,
    /// Per baseline, per algorithm (sweep order).
    pub gaps: Vec<Vec<GapTally>>,
}

impl GapPoint {
    /// A point of destination count `k` with no instance, for `baselines` × `algorithms`.
    pub fn new(k: usize, baselines: usize, algorithms: usize) -> GapPoint {
        GapPoint {
            k,
            optimum: vec![Tally::default(); baselines],
            gaps: vec![vec![GapTally::default(); algorithms]; baselines],
        }
    }

    /// Add every instance of `other` (same K, baselines and algorithms).
    pub fn merge(&mut self, other: &GapPoint) {
        assert_eq!(self.k, other.k, "merging different destination counts");
        for (mine, theirs) in self.optimum.iter_mut().zip(&other.optimum) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self.gaps.iter_mut().zip(&other.gaps) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.merge(t);
            }
        }
    }
}

/// A sweep whose algorithms are also measured against exact optima.
#[derive(Clone, Debug)]
pub struct GapSweep {
    /// The sweep: topology, algorithms, K, runs, seed, schedule.
    pub sweep: Sweep,
    /// The optima, in report order.
    pub baselines: Vec<Baseline>,
}

impl GapSweep {
    /// Check the sweep, that there is a baseline, and that every K is within the exact solvers'
    /// limits ([`exact::MAX_DESTINATIONS`], [`exact::MAX_TABLE_CELLS`]). The one-port search's
    /// effort is known only when an instance is drawn: a refusal then stops the run.
    pub fn check(&self) -> Result<(), InputError> {
        self.sweep.check()?;
        if self.baselines.is_empty() {
            return Err(InputError::Setting {
                name: "baseline",
                value: "none".into(),
                allowed: "at least one of omt, mst, omp, opt-time",
            });
        }
        let nodes = self.sweep.shape.len();
        if let Some(&k) = self
            .sweep
            .ks
            .iter()
            .find(|&&k| k > exact::MAX_DESTINATIONS || (nodes << k) > exact::MAX_TABLE_CELLS)
        {
            return Err(InputError::Setting {
                name: "k",
                value: format!("{k} on {nodes} nodes"),
                allowed:
                    "at most 16 destinations and 2^25 cells (2^K × nodes) against an exact optimum",
            });
        }
        Ok(())
    }

    /// Run every unit on all cores; `done(n)` is called as units finish. One [`GapPoint`] per K,
    /// in sweep order, the same for any thread count.
    pub fn run(&self, done: &(dyn Fn(u64) + Sync)) -> Result<Vec<GapPoint>, Error> {
        self.run_shard(Shard::WHOLE, done)
    }

    /// As [`GapSweep::run`], for the units of `shard` only (those [`Sweep::run`] runs for it):
    /// the points of the shards of a sweep [`GapPoint::merge`] to the points of the whole.
    pub fn run_shard(
        &self,
        shard: Shard,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<GapPoint>, Error> {
        self.check()?;
        let sweep = &self.sweep;
        let runs = u64::from(sweep.runs);
        let empty = || {
            sweep
                .ks
                .iter()
                .map(|&k| GapPoint::new(k, self.baselines.len(), sweep.algorithms.len()))
                .collect::<Vec<_>>()
        };
        (0..sweep.units())
            .into_par_iter()
            .filter(|&u| shard.has(u))
            .try_fold(empty, |mut points, u| {
                let (point, run) = ((u / runs) as usize, (u % runs) as u32);
                self.unit(&mut points[point], run)?;
                done(1);
                Ok(points)
            })
            .try_reduce(empty, |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x.merge(y);
                }
                Ok(a)
            })
    }

    /// Measure unit `(point.k, run)` into `point`.
    fn unit(&self, point: &mut GapPoint, run: u32) -> Result<(), Error> {
        let k = point.k;
        let req = self.sweep.request(k, run)?;
        let samples = self.sweep.sample(k, run)?;
        for (b, baseline) in self.baselines.iter().enumerate() {
            let optimum = i64::from(baseline.optimum(&req)?);
            point.optimum[b].add(optimum);
            for (tally, sample) in point.gaps[b].iter_mut().zip(&samples) {
                let value = sample[baseline.metric() as usize]
                    .expect("store-and-forward metrics are measured for every plan");
                tally.add(Worst {
                    excess: value - optimum,
                    optimum,
                    k,
                    run,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_is_the_highest_relative_excess_then_the_first_instance() {
        let w = |excess, optimum, k, run| Worst {
            excess,
            optimum,
            k,
            run,
        };
        assert!(w(2, 10, 5, 0).worse_than(&w(3, 20, 4, 0)));
        assert!(w(2, 10, 5, 0).worse_than(&w(1, 5, 5, 0)));
        assert!(w(1, 5, 4, 9).worse_than(&w(1, 5, 5, 0)));
        let mut a = GapTally::default();
        let mut b = GapTally::default();
        for x in [w(1, 5, 4, 9), w(0, 5, 4, 1), w(1, 5, 4, 2)] {
            a.add(x);
        }
        for x in [w(1, 5, 4, 2), w(1, 5, 4, 9), w(0, 5, 4, 1)] {
            b.add(x);
        }
        assert_eq!(a, b);
        assert_eq!(a.worst, Some(w(1, 5, 4, 2)));
    }

    #[test]
    fn shards_merge_to_the_whole_sweep() {
        let sweep = Sweep {
            shape: "torus:5x4".parse().unwrap(),
            placement: super::super::sweep::Placement::Random,
            algorithms: ["vh", "dds"]
                .map(|n| crate::algo::find(n).unwrap())
                .to_vec(),
            ks: vec![2, 5],
            runs: 7,
            seed: 3,
            schedule: crate::schedule::Schedule::Paper,
            wormhole: None,
            params: crate::algo::Params::default(),
        };
        let gaps = GapSweep {
            sweep,
            baselines: vec![Baseline::Omt, Baseline::OptTime],
        };
        let whole = gaps.run(&|_| {}).unwrap();
        let mut merged = gaps
            .run_shard(Shard { index: 2, count: 3 }, &|_| {})
            .unwrap();
        for index in [1, 0] {
            let part = gaps.run_shard(Shard { index, count: 3 }, &|_| {}).unwrap();
            for (m, p) in merged.iter_mut().zip(&part) {
                m.merge(p);
            }
        }
        assert_eq!(merged, whole);
        assert_eq!(whole[1].optimum[0].n, 7);
    }

    #[test]
    fn baselines_parse_by_name() {
        for b in Baseline::ALL {
            assert_eq!(Baseline::parse(b.name()), Ok(b));
        }
        assert_eq!(Baseline::parse("opt-traffic"), Ok(Baseline::Omt));
        assert!(Baseline::parse("best").is_err());
    }
}
