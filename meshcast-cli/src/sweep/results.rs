//! A finished sweep as flat records (`--out FILE.csv` or `FILE.json`) and as plot panels
//! (`--plot`).
//!
//! One [`Record`] per algorithm (or pair of algorithms), K (or the overall "mean") and metric it
//! is measured by (wormhole latency: path- and unicast-based algorithms, steps: unicast-based
//! ones, under `--model wormhole`); with `--baseline`, also one per baseline (the optimum) and
//! per algorithm against it (the excess `algorithm − optimum`, with its worst multicast).
//! Everything is computed from the exact tallies, so the same sweep gives the same bytes however
//! it was run: on any number of threads, in shards, or resumed.

use std::path::Path;

use anyhow::{Context, Result};
use meshcast::eval::Wormhole;
use meshcast::experiment::sweep::{Metric, Sweep, SweepTally, Tallies};
use meshcast::plan::PlanKind;
use meshcast::stats::Summary;
use serde::Serialize;

use super::gaps::{overall as overall_gaps, Gaps};
use super::settings::placement_name;
use super::tally_file::{measured, pair_names};
use crate::output::{self, Format};
use crate::plot::{self, Curve, Panel};
use crate::report::WormholeReport;

/// The metrics in report order: the theses' three, all-port time, then wormhole latency and
/// steps.
const ORDER: [Metric; Metric::COUNT] = [
    Metric::OnePortTime,
    Metric::Traffic,
    Metric::AdditionalTraffic,
    Metric::AllPortTime,
    Metric::WormholeLatency,
    Metric::Steps,
];

/// The metrics `sweep` measures, in report order.
pub fn metrics(sweep: &Sweep) -> Vec<Metric> {
    let measured = sweep.metrics();
    ORDER.into_iter().filter(|m| measured.contains(m)).collect()
}

/// How a metric is headed in tables and plots.
pub fn heading(metric: Metric) -> String {
    let name = match metric {
        Metric::OnePortTime => "one-port time",
        Metric::AllPortTime => "all-port time",
        Metric::Traffic => "traffic",
        Metric::AdditionalTraffic => "additional traffic",
        Metric::WormholeLatency => "wormhole latency",
        Metric::Steps => return "message-passing steps".to_string(),
    };
    format!("{name} ({})", metric.unit())
}

/// `L = 20 flits, start-up 0 cycles, all-port`.
pub fn model_text(w: Wormhole) -> String {
    WormholeReport::of(w.into()).to_string()
}

/// One statistic: a row of the CSV file, an element of the JSON array.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// The topology.
    pub topology: String,
    /// `origin` or `random`.
    pub placement: &'static str,
    /// `paper` or `optimal`.
    pub schedule: &'static str,
    /// The sweep's seed.
    pub seed: u64,
    /// The algorithm, or `a` of the paired difference `a − b`.
    pub algorithm: String,
    /// `b` of the paired difference `a − b`: another algorithm, or a baseline (`omt`, `mst`,
    /// `omp`, `opt-time`) for the excess over the optimum; empty (null) for an algorithm's (or a
    /// baseline's) own statistics.
    pub versus: Option<String>,
    /// Destination count; empty (null) for the overall "mean" over every K.
    pub k: Option<usize>,
    /// `one_port_time`, `traffic`, `additional_traffic` or `all_port_time`.
    pub metric: &'static str,
    /// `hops` or `links`.
    pub unit: &'static str,
    /// Samples.
    pub n: u64,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation; empty (null) below two samples.
    pub sd: Option<f64>,
    /// Student-t 95% confidence interval of the mean; empty (null) below two samples.
    pub ci_low: Option<f64>,
    /// Upper end.
    pub ci_high: Option<f64>,
    /// Wormhole latency records: the message length in flits; empty (null) for other metrics.
    pub length: Option<u32>,
    /// Wormhole latency records: the start-up latency in cycles; empty (null) otherwise.
    pub startup: Option<u32>,
    /// Wormhole latency and steps records: `one`, `all` or a number of ports; empty (null)
    /// otherwise.
    pub port: Option<String>,
    /// Gap records (`versus` a baseline): the highest excess relative to the optimum, the
    /// worst multicast's `algorithm − optimum`; empty (null) otherwise.
    pub worst: Option<i64>,
    /// Its optimum.
    pub worst_optimum: Option<i64>,
    /// Its destination count.
    pub worst_k: Option<usize>,
    /// Its run: with the seed, `meshcast sweep` draws the same multicast again.
    pub worst_run: Option<u32>,
}

impl Record {
    /// The record of `s`, the statistics of `metric` for `algorithm` (or `algorithm − versus`) at
    /// `k` (or over every K), without a wormhole model or a worst case.
    fn new(
        sweep: &Sweep,
        algorithm: &str,
        versus: Option<&str>,
        k: Option<usize>,
        metric: Metric,
        s: Summary,
    ) -> Record {
        Record {
            topology: sweep.shape.to_string(),
            placement: placement_name(sweep.placement),
            schedule: sweep.schedule.name(),
            seed: sweep.seed,
            algorithm: algorithm.to_string(),
            versus: versus.map(str::to_string),
            k,
            metric: metric.name(),
            unit: metric.unit(),
            n: s.n,
            mean: s.mean,
            sd: finite(s.sd),
            ci_low: finite(s.ci_low),
            ci_high: finite(s.ci_high),
            length: None,
            startup: None,
            port: None,
            worst: None,
            worst_optimum: None,
            worst_k: None,
            worst_run: None,
        }
    }
}

/// Every record of the sweep: per K (ascending), then the overall mean; within each, the
/// algorithms in sweep order, then the pairs; within each, the metrics it is measured by in
/// [`metrics`] order.
pub fn records(sweep: &Sweep, tally: &SweepTally) -> Vec<Record> {
    let names: Vec<String> = sweep
        .algorithms
        .iter()
        .map(|a| a.name.to_string())
        .collect();
    let rows: Vec<(String, Option<String>)> = names
        .iter()
        .map(|a| (a.clone(), None))
        .chain(
            pair_names(&names)
                .into_iter()
                .map(|(a, b)| (a.into(), Some(b.into()))),
        )
        .collect();
    let points = tally.points.iter().map(|p| {
        let all: Vec<Tallies> = p.algorithms.iter().chain(&p.pairs).copied().collect();
        (Some(p.k), all)
    });
    let overall = [(None, [tally.overall(), overall_pairs(tally)].concat())];
    let measured = measured(sweep);
    let metrics = metrics(sweep);
    let mut out = Vec::new();
    for (k, tallies) in points.chain(overall) {
        for (((algorithm, versus), t), has) in rows.iter().zip(&tallies).zip(&measured) {
            for &metric in metrics.iter().filter(|&&m| has[m as usize]) {
                let s = t[metric as usize].summary();
                let model = sweep.wormhole.filter(|_| metric == Metric::WormholeLatency);
                let ports = sweep.wormhole.filter(|_| metric == Metric::Steps).or(model);
                out.push(Record {
                    length: model.map(|w| w.length),
                    startup: model.map(|w| w.startup),
                    port: ports.map(|w| w.ports.to_string()),
                    ..Record::new(sweep, algorithm, versus.as_deref(), k, metric, s)
                });
            }
        }
    }
    out
}

/// The gap records of a measured sweep: per K (ascending), then over every K; within each, per
/// baseline, the optimum (`algorithm` = the baseline's name), then every algorithm's excess
/// over it (`versus` = the baseline's name), with its worst multicast.
pub fn gap_records(gaps: &Gaps) -> Vec<Record> {
    let sweep = &gaps.sweep.sweep;
    let baselines = &gaps.sweep.baselines;
    let per_k = gaps.points.iter().map(|p| {
        let tallies = (0..baselines.len()).map(|b| (p.optimum[b].summary(), p.gaps[b].clone()));
        (Some(p.k), tallies.collect::<Vec<_>>())
    });
    let overall = (0..baselines.len()).map(|b| overall_gaps(&gaps.points, b));
    let mut out = Vec::new();
    for (k, tallies) in per_k.chain([(None, overall.collect())]) {
        for (baseline, (optimum, excess)) in baselines.iter().zip(&tallies) {
            let metric = baseline.metric();
            out.push(Record::new(
                sweep,
                baseline.name(),
                None,
                k,
                metric,
                *optimum,
            ));
            for (a, g) in sweep.algorithms.iter().zip(excess) {
                let s = g.excess.summary();
                let w = g.worst;
                out.push(Record {
                    worst: w.map(|w| w.excess),
                    worst_optimum: w.map(|w| w.optimum),
                    worst_k: w.map(|w| w.k),
                    worst_run: w.map(|w| w.run),
                    ..Record::new(sweep, a.name, Some(baseline.name()), k, metric, s)
                });
            }
        }
    }
    out
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Per pair, the paired differences of every sample of every K.
pub fn overall_pairs(tally: &SweepTally) -> Vec<Tallies> {
    let mut total = tally.points[0].pairs.clone();
    for p in &tally.points[1..] {
        for (t, q) in total.iter_mut().zip(&p.pairs) {
            t.iter_mut().zip(q).for_each(|(x, y)| x.merge(y));
        }
    }
    total
}

/// Write `records` to `path` atomically, in `format`.
pub fn write_records(path: &Path, format: Format, records: &[Record]) -> Result<()> {
    let bytes = match format {
        Format::Csv => csv_bytes(records)?,
        Format::Json => json_bytes(records)?,
    };
    output::write_atomically(path, &bytes)
        .with_context(|| format!("cannot write '{}'", path.display()))
}

fn csv_bytes(records: &[Record]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in records {
        w.serialize(r)?;
    }
    w.into_inner().context("CSV")
}

/// `[`, one record per line, `]`: a JSON array that greps and diffs line by line.
fn json_bytes(records: &[Record]) -> Result<Vec<u8>> {
    let lines = records
        .iter()
        .map(serde_json::to_string)
        .collect::<serde_json::Result<Vec<_>>>()?;
    Ok(format!("[\n{}\n]\n", lines.join(",\n")).into_bytes())
}

/// Plot the times, traffic and additional traffic against K: one curve per algorithm measured
/// by the metric, with its 95% confidence interval.
pub fn write_plot(path: &Path, sweep: &Sweep, tally: &SweepTally) -> Result<()> {
    let panel = |metric: Metric| Panel {
        title: match metric {
            Metric::AdditionalTraffic => "average additional traffic (links)".to_string(),
            _ => heading(metric),
        },
        y_label: metric.unit().to_string(),
        curves: curves(sweep, tally, metric),
    };
    let panels: Vec<Panel> = plotted(sweep).into_iter().map(panel).collect();
    let mut title = format!(
        "{}, {} runs per K, source {}, schedule {}, seed {}",
        sweep.shape,
        sweep.runs,
        placement_name(sweep.placement),
        sweep.schedule.name(),
        sweep.seed
    );
    if let Some(w) = sweep.wormhole {
        title += &format!(", wormhole {}", model_text(w));
    }
    plot::write_plot(path, &title, "destinations K", &panels)
        .with_context(|| format!("cannot write the plot '{}'", path.display()))
}

/// The panels of the plot: the times of the model (one-port time; wormhole latency and steps
/// under a wormhole model, where one-port time is left out when no algorithm is a tree), traffic
/// and additional traffic.
fn plotted(sweep: &Sweep) -> Vec<Metric> {
    let trees = sweep.algorithms.iter().any(|a| a.family == PlanKind::Tree);
    let measured = sweep.metrics();
    let one_port = (sweep.wormhole.is_none() || trees).then_some(Metric::OnePortTime);
    let wormhole = [Metric::WormholeLatency, Metric::Steps]
        .into_iter()
        .filter(|m| measured.contains(m));
    let traffic = [Metric::Traffic, Metric::AdditionalTraffic];
    one_port
        .into_iter()
        .chain(wormhole)
        .chain(traffic)
        .collect()
}

fn curves(sweep: &Sweep, tally: &SweepTally, metric: Metric) -> Vec<Curve> {
    let point = |k: usize, s: Summary| {
        let ci = |x: f64| if x.is_finite() { x } else { s.mean };
        (k as f64, s.mean, ci(s.ci_low), ci(s.ci_high))
    };
    (0..sweep.algorithms.len())
        .filter(|&a| sweep.measures(sweep.algorithms[a], metric))
        .map(|a| Curve {
            label: sweep.algorithms[a].name.to_string(),
            points: tally
                .points
                .iter()
                .map(|p| point(p.k, p.algorithms[a][metric as usize].summary()))
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use meshcast::algo;
    use meshcast::experiment::sweep::{Placement, Shard};
    use meshcast::schedule::Schedule;

    fn sweep(runs: u32) -> Sweep {
        Sweep {
            shape: "torus:4x4".parse().unwrap(),
            placement: Placement::Origin,
            algorithms: ["vh", "dds"].map(|n| algo::find(n).unwrap()).to_vec(),
            ks: vec![3, 6],
            runs,
            seed: 5,
            schedule: Schedule::Optimal,
            wormhole: None,
            params: Default::default(),
        }
    }

    #[test]
    fn one_record_per_row_k_and_metric() {
        let s = sweep(4);
        let r = records(&s, &s.run(Shard::WHOLE, &|_| {}).unwrap());
        // (2 algorithms + 1 pair) × (2 K + overall) × 4 metrics
        assert_eq!(r.len(), 3 * 3 * 4);
        assert_eq!(
            (r[0].algorithm.as_str(), r[0].k, r[0].metric),
            ("vh", Some(3), "one_port_time")
        );
        let pair = &r[8];
        assert_eq!(
            (pair.algorithm.as_str(), pair.versus.as_deref()),
            ("vh", Some("dds"))
        );
        assert_eq!((r[24].k, r[24].n), (None, 8));
        assert_eq!((r[0].schedule, r[0].placement), ("optimal", "origin"));
    }

    #[test]
    fn one_sample_has_no_spread() {
        let s = sweep(1);
        let r = records(&s, &s.run(Shard::WHOLE, &|_| {}).unwrap());
        assert_eq!((r[0].sd, r[0].ci_low), (None, None));
        let csv = String::from_utf8(csv_bytes(&r[..1]).unwrap()).unwrap();
        assert!(csv.starts_with("topology,placement,schedule,seed,algorithm,versus,k,metric,unit,n,mean,sd,ci_low,ci_high,length,startup,port,worst,worst_optimum,worst_k,worst_run\n"), "{csv}");
        assert!(csv.contains(",,,,,,,,,,\n"), "empty sd and CI: {csv}");
        let json: serde_json::Value = serde_json::from_slice(&json_bytes(&r).unwrap()).unwrap();
        assert_eq!(json.as_array().unwrap().len(), r.len());
        assert!(json[0]["sd"].is_null());
    }
}
