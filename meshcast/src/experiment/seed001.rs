//! The experiment of seed 001 (Wang), in one place: the chapter-4 means as published — §4.2, the
//! "mean" (Definition 4.1.1: the average over every sample of every K) of each algorithm, 1000
//! runs per point, 10 destinations between sample points, and §4.3, the means of XY-path and
//! Lin's algorithm under the wormhole model (published facts only, never ours) — and the sweeps
//! that set ours against them ([`means_sweeps`], [`paths_sweep`]), run by `meshcast reproduce`.
//!
//! ```
//! use meshcast::experiment::seed001::{means_sweeps, paths_sweep, RUNS};
//! let sweeps = means_sweeps(RUNS, 1).unwrap();
//! assert_eq!(sweeps[0].sweep.runs, 1000);
//! assert_eq!(paths_sweep(RUNS, 1).unwrap().algorithms.len(), 2);
//! ```

use super::first_seen;
use super::sweep::{Metric, Sweep};
use crate::error::InputError;
use crate::eval::{Ports, Wormhole};

/// One "mean" (seed 001 Definition 4.1.1) that Wang states in chapter 4.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WangMean {
    /// Where it is stated.
    pub figure: &'static str,
    /// Topology.
    pub topology: &'static str,
    /// Registry name of the algorithm.
    pub algorithm: &'static str,
    /// Metric.
    pub metric: Metric,
    /// The published mean.
    pub mean: f64,
    /// The destination counts averaged over, `(first, last)` in steps of 10. The thesis says only
    /// "10 destination nodes per sample point"; the range is inferred from traffic − AAT, which is
    /// the mean K (195 for 10…380, 190 for 10…370). For 3D no pair is given; 10…990 is assumed.
    pub k_range: (usize, usize),
}

/// Reading 1 of issue 17 for the means of seed 001 §4.2 averaged over K = 10…370: the 39 sample
/// points K = 0, 10, …, 380, with K = 0 an empty multicast (traffic, AAT and time 0). Their mean K
/// is 190 as well, so the published traffic − AAT cannot tell the two readings apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyFirstPoint {
    /// The destination counts that are multicast, `(first, last)` in steps of 10.
    pub k_range: (usize, usize),
    /// The points with no destination, counted with value 0.
    pub empty_points: usize,
}

impl EmptyFirstPoint {
    /// Sample points in all, empty ones included.
    pub fn points(&self) -> usize {
        points(self.k_range) + self.empty_points
    }

    /// The mean K over every point, empty ones included.
    pub fn mean_k(&self) -> f64 {
        let (first, last) = self.k_range;
        let sum: usize = (first..=last).step_by(10).sum();
        sum as f64 / self.points() as f64
    }
}

/// The sample points of `(first, last)` in steps of 10.
pub fn points((first, last): (usize, usize)) -> usize {
    (first..=last).step_by(10).count()
}

impl WangMean {
    /// Reading 1 of issue 17 for this mean, where it applies: the means the thesis gives for
    /// K = 10…370 (by their traffic − AAT of 190) read as K = 0…380 with K = 0 empty. The
    /// others (10…380, and 3D, where no pair implies a range) are left as they are: `None`.
    pub fn empty_first_point(&self) -> Option<EmptyFirstPoint> {
        (self.k_range == TO_370).then_some(EmptyFirstPoint {
            k_range: TO_380,
            empty_points: 1,
        })
    }
}

const fn wang(
    figure: &'static str,
    topology: &'static str,
    algorithm: &'static str,
    metric: Metric,
    mean: f64,
    k_range: (usize, usize),
) -> WangMean {
    WangMean {
        figure,
        topology,
        algorithm,
        metric,
        mean,
        k_range,
    }
}

const M2: &str = "mesh:20x20";
const T2: &str = "torus:20x20";
const M3: &str = "mesh:10x10x10";
const TO_380: (usize, usize) = (10, 380);
const TO_370: (usize, usize) = (10, 370);
const TO_990: (usize, usize) = (10, 990);
use Metric::{AdditionalTraffic as Aat, OnePortTime as Time, Traffic};

/// Every mean seed 001 §4.2 states, with the experiment (figure) it comes from. Each figure is
/// its own experiment with its own samples, so the same algorithm's mean differs between figures.
#[rustfmt::skip]
pub static WANG_MEANS: &[WangMean] = &[
    wang("4.2.1", M2, "diag", Time, 35.76, TO_380),
    wang("4.2.1", M2, "vh", Time, 35.91, TO_380),
    wang("4.2.2", M2, "diag", Traffic, 247.28, TO_380),
    wang("4.2.2", M2, "vh", Traffic, 333.69, TO_380),
    wang("4.2.2", M2, "diag", Aat, 52.28, TO_380),
    wang("4.2.2", M2, "vh", Aat, 138.69, TO_380),
    wang("4.2.3", M2, "dds", Time, 37.88, TO_370),
    wang("4.2.3", M2, "diag", Time, 34.89, TO_370),
    wang("4.2.3", M2, "min", Time, 39.86, TO_370),
    wang("4.2.4", M2, "dds", Traffic, 230.85, TO_370),
    wang("4.2.4", M2, "min", Traffic, 227.77, TO_370),
    wang("4.2.4", M2, "diag", Traffic, 241.41, TO_370),
    wang("4.2.4", M2, "dds", Aat, 40.85, TO_370),
    wang("4.2.4", M2, "min", Aat, 37.77, TO_370),
    wang("4.2.4", M2, "diag", Aat, 51.41, TO_370),
    wang("4.2.6", T2, "diag", Traffic, 255.63, TO_370),
    wang("4.2.6", T2, "vh", Traffic, 313.84, TO_370),
    wang("4.2.6", T2, "diag", Aat, 65.63, TO_370),
    wang("4.2.6", T2, "vh", Aat, 123.84, TO_370),
    wang("4.2.7", T2, "dds", Time, 23.7, TO_370),
    wang("4.2.7", T2, "diag", Time, 22.25, TO_370),
    wang("4.2.7", T2, "min", Time, 23.69, TO_370),
    wang("4.2.8", T2, "dds", Traffic, 237.30, TO_370),
    wang("4.2.8", T2, "diag", Traffic, 255.39, TO_370),
    wang("4.2.8", T2, "min", Traffic, 235.29, TO_370),
    wang("4.2.8", T2, "dds", Aat, 47.30, TO_370),
    wang("4.2.8", T2, "diag", Aat, 65.39, TO_370),
    wang("4.2.8", T2, "min", Aat, 45.29, TO_370),
    wang("4.2.9", T2, "diag", Time, 22.27, TO_370),
    wang("4.2.10", T2, "diag", Traffic, 255.99, TO_370),
    wang("4.2.10", M2, "diag", Traffic, 241.38, TO_370),
    wang("4.2.10", T2, "diag", Aat, 65.99, TO_370),
    wang("4.2.10", M2, "diag", Aat, 51.38, TO_370),
    wang("4.2.14", M3, "diag", Aat, 62.75, TO_990),
    wang("4.2.14", M3, "vh", Aat, 273.62, TO_990),
    wang("4.2.15", M3, "dds", Time, 28.24, TO_990),
    wang("4.2.15", M3, "diag", Time, 25.34, TO_990),
    wang("4.2.15", M3, "min", Time, 32.05, TO_990),
];

/// The message length of seed 001 §4.3.1, in flits; the same section assumes all-port nodes and
/// counts no start-up (its eq. 4.3.1: time = max(d_x, d_y) + L).
pub const WANG_PATH_LENGTH: u32 = 20;

/// Every mean seed 001 §4.3.2 states: XY-path against Lin's algorithm on the 20×20 mesh (Figures
/// 4.3.1–4.3.2), source at the origin, 1000 runs per point, wormhole latency as eq. 4.3.1 with
/// [`WANG_PATH_LENGTH`]. The K range is inferred, as for §4.2, from traffic − AAT = 190.
#[rustfmt::skip]
pub static WANG_PATH_MEANS: &[WangMean] = &[
    wang("4.3.1", M2, "xy-path", Metric::WormholeLatency, 185.83, TO_370),
    wang("4.3.1", M2, "lin", Metric::WormholeLatency, 356.39, TO_370),
    wang("4.3.2", M2, "xy-path", Traffic, 317.59, TO_370),
    wang("4.3.2", M2, "lin", Traffic, 336.39, TO_370),
    wang("4.3.2", M2, "xy-path", Aat, 127.59, TO_370),
    wang("4.3.2", M2, "lin", Aat, 146.39, TO_370),
];

/// Runs per point of §4.2 and §4.3: "1000 runs per point".
pub const RUNS: u32 = 1000;

/// One topology's sweep of §4.2: every algorithm of its figures, every K of their ranges and of
/// reading 1's.
#[derive(Clone, Debug)]
pub struct MeansSweep {
    /// The topology, as the means name it.
    pub topology: &'static str,
    /// Its algorithms, in the order the means first name them (the sweep's order).
    pub algorithms: Vec<&'static str>,
    /// The sweep, source at the origin, the paper's port order.
    pub sweep: Sweep,
}

/// The sweeps of §4.2, one per topology in the order the means first name them, `runs` per
/// point. A unit's sample depends only on the seed and its `(K, run)`, so a mean over part of a
/// sweep is the mean of the sweep of that part alone.
pub fn means_sweeps(runs: u32, seed: u64) -> Result<Vec<MeansSweep>, InputError> {
    topologies()
        .into_iter()
        .map(|topology| {
            let means = WANG_MEANS.iter().filter(|m| m.topology == topology);
            let algorithms = first_seen(means.map(|m| m.algorithm));
            let with_reading_1 = |m: &WangMean| {
                let reading = m.empty_first_point().map(|e| e.k_range);
                [Some(m.k_range), reading].into_iter().flatten()
            };
            let (first, last) = k_span(topology, with_reading_1);
            let ks = (first..=last).step_by(10).collect();
            let sweep = Sweep::at_origin(topology, &algorithms, ks, runs, seed)?;
            Ok(MeansSweep {
                topology,
                algorithms,
                sweep,
            })
        })
        .collect()
}

/// The topologies of §4.2's means, in the order they first appear.
pub fn topologies() -> Vec<&'static str> {
    first_seen(WANG_MEANS.iter().map(|m| m.topology))
}

/// The widest K range `(first, last)` over the ranges `ranges` gives for each §4.2 mean on
/// `topology` (`(0, 0)` for a topology without means).
pub fn k_span<I: IntoIterator<Item = (usize, usize)>>(
    topology: &str,
    ranges: impl Fn(&WangMean) -> I,
) -> (usize, usize) {
    let all: Vec<(usize, usize)> = WANG_MEANS
        .iter()
        .filter(|m| m.topology == topology)
        .flat_map(ranges)
        .collect();
    let first = all.iter().map(|r| r.0).min().unwrap_or(0);
    let last = all.iter().map(|r| r.1).max().unwrap_or(0);
    (first, last)
}

/// The means of §4.2 in table order: grouped by topology and K range, in the order each group
/// first appears.
pub fn means_rows() -> Vec<&'static WangMean> {
    first_seen(WANG_MEANS.iter().map(|m| (m.topology, m.k_range)))
        .into_iter()
        .flat_map(|group| {
            WANG_MEANS
                .iter()
                .filter(move |m| (m.topology, m.k_range) == group)
        })
        .collect()
}

/// §4.3.1's wormhole model: L = [`WANG_PATH_LENGTH`] flits, all-port, no start-up.
pub const PATH_MODEL: Wormhole = Wormhole {
    startup: 0,
    length: WANG_PATH_LENGTH,
    ports: Ports::All,
};

/// The algorithms of §4.3, in [`paths_sweep`]'s order.
pub const PATH_ALGORITHMS: [&str; 2] = ["xy-path", "lin"];

/// The sweep of §4.3: [`PATH_ALGORITHMS`] on the means' mesh over their K range in steps of 10,
/// `runs` per point, source at the origin, under §4.3.1's wormhole model ([`PATH_MODEL`]).
pub fn paths_sweep(runs: u32, seed: u64) -> Result<Sweep, InputError> {
    let m = &WANG_PATH_MEANS[0];
    let (first, last) = m.k_range;
    let ks = (first..=last).step_by(10).collect();
    Ok(Sweep {
        wormhole: Some(PATH_MODEL),
        ..Sweep::at_origin(m.topology, &PATH_ALGORITHMS, ks, runs, seed)?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wang's traffic and AAT means of one experiment differ by the mean K of its range.
    #[test]
    fn wang_ranges_match_traffic_minus_aat() {
        let all = || WANG_MEANS.iter().chain(WANG_PATH_MEANS);
        for t in all().filter(|m| m.metric == Metric::Traffic) {
            let aat = all().find(|m| {
                m.figure == t.figure
                    && m.topology == t.topology
                    && m.algorithm == t.algorithm
                    && m.metric == Metric::AdditionalTraffic
            });
            if let Some(aat) = aat {
                let mean_k = (t.k_range.0 + t.k_range.1) as f64 / 2.0;
                assert!((t.mean - aat.mean - mean_k).abs() < 0.011, "{t:?}");
            }
        }
    }

    /// Reading 1 of issue 17: every mean it applies to keeps its published traffic − AAT (the
    /// mean K, 190), and the two DIAG mesh experiments — Figs. 4.2.1/4.2.2 over 10…380 and
    /// Figs. 4.2.3/4.2.4 over what would be 0…380 — differ by the factor 38/39 that an empty
    /// point gives, to within the sampling noise of two experiments of 1000 runs per point
    /// (ours: a 95% CI of ±0.15% of the time and ±0.3% of the traffic).
    #[test]
    fn an_empty_first_point_explains_the_ranges_and_the_diag_ratios() {
        for m in WANG_MEANS.iter().filter(|m| m.k_range == TO_370) {
            let reading = m.empty_first_point().expect("applies to 10…370");
            let faithful = (m.k_range.0 + m.k_range.1) as f64 / 2.0;
            assert_eq!(reading.mean_k(), faithful, "{m:?}");
        }
        let find = |figure, metric| {
            let m = WANG_MEANS
                .iter()
                .find(|m| m.figure == figure && m.algorithm == "diag" && m.metric == metric);
            m.expect("published")
        };
        for (full, with_empty, tolerance) in [
            (
                find("4.2.1", Metric::OnePortTime),
                find("4.2.3", Metric::OnePortTime),
                0.002,
            ),
            (
                find("4.2.2", Metric::Traffic),
                find("4.2.4", Metric::Traffic),
                0.003,
            ),
        ] {
            assert!(full.empty_first_point().is_none());
            let reading = with_empty.empty_first_point().expect("applies");
            assert_eq!(reading.k_range, full.k_range);
            let factor = points(full.k_range) as f64 / reading.points() as f64;
            let published = with_empty.mean / full.mean;
            assert!(
                (published / factor - 1.0).abs() < tolerance,
                "{} / {} = {published}, 38/39 = {factor}",
                with_empty.mean,
                full.mean
            );
            // The faithful reading (the same samples minus the K = 380 point) predicts no such
            // fixed factor; the reading's is 38/39 exactly.
            assert_eq!((points(full.k_range), reading.points()), (38, 39));
        }
    }

    /// Lin's algorithm sends one worm from a source at label 0, so its time (eq. 4.3.1) is its
    /// traffic plus L; the published means keep that to the digit, and XY-path's two worms make
    /// its time far less than its traffic.
    #[test]
    fn lins_published_time_is_its_traffic_plus_the_length() {
        let mean = |algorithm, metric| {
            let m = WANG_PATH_MEANS
                .iter()
                .find(|m| m.algorithm == algorithm && m.metric == metric);
            m.unwrap().mean
        };
        let lin = mean("lin", Metric::WormholeLatency) - mean("lin", Metric::Traffic);
        assert!((lin - f64::from(WANG_PATH_LENGTH)).abs() < 1e-9);
        let xy = mean("xy-path", Metric::WormholeLatency) - f64::from(WANG_PATH_LENGTH);
        assert!(xy > mean("xy-path", Metric::Traffic) / 2.0);
    }
}
