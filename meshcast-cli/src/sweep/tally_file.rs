//! Shard and state files (schema `meshcast.sweep-tally/2`): a sweep's settings, its shard, and
//! the exact tallies of the destination counts it has finished.
//!
//! A shard file (`--shard i/N --out FILE.json`) holds every K; a state file (`FILE.partial.json`
//! beside `--out`, while a sweep runs) holds those done so far. Each tally is written as
//! `[n, sum, sum_sq]`, whole numbers in decimal, so merging files is as exact as merging threads.
//! Each algorithm (and pair) lists the tallies of the metrics the sweep measures for it, and only
//! those. Loading checks everything a merge relies on: the schema, the algorithm and pair names,
//! that each K is one of the sweep's, that the metrics are those measured, and that each tally
//! holds exactly the samples its shard owes. Version 1 files (before wormhole latency) are
//! refused with a message saying so.
//!
//! A shard of a sweep with `--baseline` also holds its exact gap tallies (`gaps`): per K and
//! baseline, the optima, and every algorithm's excess with its worst instance; a file without
//! baselines has no `gaps` member and is as before.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use meshcast::experiment::gap::{Baseline, GapPoint, GapSweep, Worst};
use meshcast::experiment::sweep::{Metric, PointTally, Shard, Sweep, SweepTally, Tallies};
use meshcast::stats::Tally;
use serde::{Deserialize, Serialize};

use super::gaps::Gaps;
use super::settings::Settings;
use crate::output;
use crate::report::to_json;

/// The `schema` value of every shard and state file.
pub const TALLY_SCHEMA: &str = "meshcast.sweep-tally/2";

/// A tally as `[n, sum, sum_sq]`.
type TallyRecord = (u64, i64, u128);

/// The tallies of one algorithm, or of one pair, at one K: those of the metrics the sweep
/// measures for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MetricTallies {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    one_port_time: Option<TallyRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    all_port_time: Option<TallyRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    traffic: Option<TallyRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    additional_traffic: Option<TallyRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wormhole_latency: Option<TallyRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    steps: Option<TallyRecord>,
}

impl MetricTallies {
    /// The field of `metric`.
    fn slot(&mut self, metric: Metric) -> &mut Option<TallyRecord> {
        match metric {
            Metric::OnePortTime => &mut self.one_port_time,
            Metric::AllPortTime => &mut self.all_port_time,
            Metric::Traffic => &mut self.traffic,
            Metric::AdditionalTraffic => &mut self.additional_traffic,
            Metric::WormholeLatency => &mut self.wormhole_latency,
            Metric::Steps => &mut self.steps,
        }
    }
}

/// Only the schema, read first so that a file of another version is named as such.
#[derive(Deserialize)]
struct SchemaRecord {
    schema: String,
}

/// One algorithm's tallies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct AlgorithmRecord {
    algorithm: String,
    tallies: MetricTallies,
}

/// One pair's tallies of paired differences `a − b`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct PairRecord {
    a: String,
    b: String,
    tallies: MetricTallies,
}

/// One finished destination count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct PointRecord {
    k: usize,
    algorithms: Vec<AlgorithmRecord>,
    pairs: Vec<PairRecord>,
}

/// `{"index": i, "count": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct ShardRecord {
    index: u32,
    count: u32,
}

/// The file as serde sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct FileRecord {
    schema: String,
    settings: Settings,
    shard: ShardRecord,
    points: Vec<PointRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gaps: Option<GapsRecord>,
}

/// The gap tallies of a shard: the baselines (`--baseline` order) and every K.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GapsRecord {
    baselines: Vec<String>,
    points: Vec<GapPointRecord>,
}

/// One K: per baseline, the optima's tally and every algorithm's excess.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GapPointRecord {
    k: usize,
    optimum: Vec<TallyRecord>,
    excess: Vec<Vec<ExcessRecord>>,
}

/// One algorithm's excess over one baseline at one K, and its worst instance as
/// `[excess, optimum, k, run]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExcessRecord {
    algorithm: String,
    excess: TallyRecord,
    worst: Option<(i64, i64, usize, u32)>,
}

/// The contents of a shard or state file, checked.
#[derive(Clone, Debug)]
pub struct TallyFile {
    /// The sweep's settings.
    pub settings: Settings,
    /// The sweep they describe.
    pub sweep: Sweep,
    /// Which shard of it.
    pub shard: Shard,
    /// The tallies; the K not done are empty.
    pub tally: SweepTally,
    /// Per K (in sweep order): finished.
    pub done: Vec<bool>,
    /// The gap tallies, for a sweep with `--baseline`.
    pub gaps: Option<Gaps>,
}

impl TallyFile {
    /// Whether every K is finished.
    pub fn complete(&self) -> bool {
        self.done.iter().all(|&d| d)
    }

    /// Write the finished K of `tally`, and the gap tallies if any, atomically to `path`.
    pub fn save(
        path: &Path,
        sweep: &Sweep,
        shard: Shard,
        tally: &SweepTally,
        done: &[bool],
        gaps: Option<&Gaps>,
    ) -> Result<()> {
        let names: Vec<String> = sweep
            .algorithms
            .iter()
            .map(|a| a.name.to_string())
            .collect();
        let measured = measured(sweep);
        let points = tally
            .points
            .iter()
            .zip(done)
            .filter(|(_, &d)| d)
            .map(|(p, _)| point_record(p, &names, &measured))
            .collect();
        let file = FileRecord {
            schema: TALLY_SCHEMA.to_string(),
            settings: Settings::of(sweep),
            shard: ShardRecord {
                index: shard.index,
                count: shard.count,
            },
            points,
            gaps: gaps.map(gaps_record),
        };
        output::write_atomically(path, to_json(&file)?.as_bytes())
            .with_context(|| format!("cannot write '{}'", path.display()))
    }

    /// Read and check the file at `path`.
    pub fn load(path: &Path) -> Result<TallyFile> {
        // A file that cannot be read is bad input (exit 2), so the I/O error becomes text.
        let text = read_limited(path)?;
        let not_ours = |e| anyhow!("'{}' is not a {TALLY_SCHEMA} file: {e}", path.display());
        let schema: SchemaRecord = serde_json::from_str(&text).map_err(not_ours)?;
        check_schema(&schema.schema).with_context(|| format!("'{}'", path.display()))?;
        let record: FileRecord = serde_json::from_str(&text).map_err(not_ours)?;
        TallyFile::check(record).with_context(|| format!("'{}'", path.display()))
    }

    fn check(record: FileRecord) -> Result<TallyFile> {
        let sweep = record.settings.sweep()?;
        let measured = measured(&sweep);
        let shard = shard_of(record.shard)?;
        let mut tally = sweep.empty_tally();
        let mut done = vec![false; sweep.ks.len()];
        for p in &record.points {
            let i = sweep
                .ks
                .iter()
                .position(|&k| k == p.k)
                .ok_or_else(|| anyhow!("K = {} is not one of the sweep's", p.k))?;
            if std::mem::replace(&mut done[i], true) {
                bail!("K = {} is listed twice", p.k);
            }
            tally.points[i] = point_tally(p, &record.settings.algorithms, &measured)?;
            let owed = shard.runs_of_point(i, sweep.runs);
            check_counts(&tally.points[i], owed, &measured)
                .with_context(|| format!("K = {}", p.k))?;
        }
        let gaps = match &record.gaps {
            Some(g) => Some(gaps_of(g, &sweep, shard).context("gaps")?),
            None => None,
        };
        Ok(TallyFile {
            settings: record.settings,
            sweep,
            shard,
            tally,
            done,
            gaps,
        })
    }
}

/// The largest shard or state file read, 256 MiB: far above any sweep's (one K of 18
/// algorithms takes some 60 kB), far below what would exhaust memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The text of `path`, refused beyond [`MAX_FILE_BYTES`] or when it is not UTF-8. A file that
/// cannot be read is bad input (exit 2), so the I/O error becomes text.
fn read_limited(path: &Path) -> Result<String> {
    let cannot = |e: std::io::Error| anyhow!("cannot read '{}': {e}", path.display());
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!(
            "'{}' is larger than {} MiB, the most a shard or state file may be: it is not one meshcast wrote",
            path.display(),
            MAX_FILE_BYTES >> 20
        );
    }
    String::from_utf8(bytes).map_err(|_| {
        anyhow!(
            "'{}' is not a {TALLY_SCHEMA} file: it is not UTF-8 text",
            path.display()
        )
    })
}

/// Refuse any schema but [`TALLY_SCHEMA`]; version 1 files are named as an older meshcast's.
fn check_schema(schema: &str) -> Result<()> {
    match schema {
        TALLY_SCHEMA => Ok(()),
        "meshcast.sweep-tally/1" => bail!(
            "it is a meshcast.sweep-tally/1 file, written by an older meshcast (before wormhole \
             latency); this meshcast reads {TALLY_SCHEMA} only: run that sweep or shard again"
        ),
        other => bail!("schema '{other}' is not {TALLY_SCHEMA}"),
    }
}

/// Which metrics each row of a point holds tallies of: the algorithms in sweep order, then the
/// pairs in [`pair_names`] order (a pair has a metric when both its algorithms do).
pub fn measured(sweep: &Sweep) -> Vec<[bool; Metric::COUNT]> {
    let of = |a: usize| Metric::ALL.map(|m| sweep.measures(sweep.algorithms[a], m));
    let n = sweep.algorithms.len();
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
    let pair_rows = pairs.map(|(a, b)| {
        let (x, y) = (of(a), of(b));
        std::array::from_fn(|m| x[m] && y[m])
    });
    (0..n).map(of).chain(pair_rows).collect()
}

/// `FILE.partial.json` beside `out`: where a sweep keeps its progress.
pub fn state_path(out: &Path) -> PathBuf {
    out.with_extension("partial.json")
}

fn shard_of(r: ShardRecord) -> Result<Shard> {
    if r.count == 0 || r.index >= r.count {
        bail!("shard {}/{} is not i/N with 0 ≤ i < N", r.index, r.count);
    }
    Ok(Shard {
        index: r.index,
        count: r.count,
    })
}

/// Every tally `measured` marks holds the samples its shard owes.
fn check_counts(point: &PointTally, owed: u64, measured: &[[bool; Metric::COUNT]]) -> Result<()> {
    let rows = point.algorithms.iter().chain(&point.pairs).zip(measured);
    let counts = rows.flat_map(|(t, m)| t.iter().zip(m).filter(|(_, &m)| m).map(|(t, _)| t.n));
    match counts.into_iter().find(|&n| n != owed) {
        Some(n) => bail!("a tally holds {n} samples where its shard has {owed}"),
        None => Ok(()),
    }
}

fn point_record(
    p: &PointTally,
    names: &[String],
    measured: &[[bool; Metric::COUNT]],
) -> PointRecord {
    let (algo_measured, pair_measured) = measured.split_at(names.len());
    let algorithms = names
        .iter()
        .zip(&p.algorithms)
        .zip(algo_measured)
        .map(|((name, t), m)| AlgorithmRecord {
            algorithm: name.clone(),
            tallies: metric_tallies(t, m),
        })
        .collect();
    let pairs = pair_names(names)
        .into_iter()
        .zip(&p.pairs)
        .zip(pair_measured)
        .map(|(((a, b), t), m)| PairRecord {
            a: a.to_string(),
            b: b.to_string(),
            tallies: metric_tallies(t, m),
        })
        .collect();
    PointRecord {
        k: p.k,
        algorithms,
        pairs,
    }
}

fn point_tally(
    p: &PointRecord,
    names: &[String],
    measured: &[[bool; Metric::COUNT]],
) -> Result<PointTally> {
    let listed: Vec<&str> = p.algorithms.iter().map(|a| a.algorithm.as_str()).collect();
    if listed != names {
        bail!(
            "K = {}: algorithms {listed:?} are not the sweep's {names:?}",
            p.k
        );
    }
    let pairs: Vec<(&str, &str)> = p
        .pairs
        .iter()
        .map(|r| (r.a.as_str(), r.b.as_str()))
        .collect();
    if pairs != pair_names(names) {
        bail!(
            "K = {}: pairs {pairs:?} are not every (a, b), a before b",
            p.k
        );
    }
    let (algo_measured, pair_measured) = measured.split_at(names.len());
    let algorithms = p.algorithms.iter().zip(algo_measured);
    let pairs = p.pairs.iter().zip(pair_measured);
    Ok(PointTally {
        k: p.k,
        algorithms: algorithms
            .map(|(a, m)| tallies(&a.tallies, m).with_context(|| a.algorithm.clone()))
            .collect::<Result<_>>()
            .with_context(|| format!("K = {}", p.k))?,
        pairs: pairs
            .map(|(r, m)| tallies(&r.tallies, m).with_context(|| format!("{} - {}", r.a, r.b)))
            .collect::<Result<_>>()
            .with_context(|| format!("K = {}", p.k))?,
    })
}

fn gaps_record(gaps: &Gaps) -> GapsRecord {
    let tally = |t: &Tally| (t.n, t.sum, t.sum_sq);
    let names = gaps
        .sweep
        .sweep
        .algorithms
        .iter()
        .map(|a| a.name.to_string());
    let names: Vec<String> = names.collect();
    let points = gaps.points.iter().map(|p| GapPointRecord {
        k: p.k,
        optimum: p.optimum.iter().map(tally).collect(),
        excess: p
            .gaps
            .iter()
            .map(|per_algorithm| {
                let rows = names.iter().zip(per_algorithm);
                rows.map(|(name, g)| ExcessRecord {
                    algorithm: name.clone(),
                    excess: tally(&g.excess),
                    worst: g.worst.map(|w| (w.excess, w.optimum, w.k, w.run)),
                })
                .collect()
            })
            .collect(),
    });
    GapsRecord {
        baselines: gaps
            .sweep
            .baselines
            .iter()
            .map(|b| b.name().to_string())
            .collect(),
        points: points.collect(),
    }
}

/// The gap tallies of a record, checked: known baselines, every K of the sweep once, the
/// sweep's algorithms, and the samples `shard` owes in every tally.
fn gaps_of(record: &GapsRecord, sweep: &Sweep, shard: Shard) -> Result<Gaps> {
    let baselines = record
        .baselines
        .iter()
        .map(|b| Baseline::parse(b).map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()?;
    let names: Vec<&str> = sweep.algorithms.iter().map(|a| a.name).collect();
    let ks: Vec<usize> = record.points.iter().map(|p| p.k).collect();
    if ks != sweep.ks {
        bail!("K {ks:?} are not the sweep's {:?}", sweep.ks);
    }
    let mut points = Vec::new();
    for (i, p) in record.points.iter().enumerate() {
        let owed = shard.runs_of_point(i, sweep.runs);
        let mut point = GapPoint::new(p.k, baselines.len(), names.len());
        if p.optimum.len() != baselines.len() || p.excess.len() != baselines.len() {
            bail!("K = {}: not one tally per baseline", p.k);
        }
        for (b, (optimum, excess)) in p.optimum.iter().zip(&p.excess).enumerate() {
            let context = || format!("K = {}: {} optimum", p.k, record.baselines[b]);
            point.optimum[b] = tally_of(*optimum).with_context(context)?;
            let listed: Vec<&str> = excess.iter().map(|e| e.algorithm.as_str()).collect();
            if listed != names {
                bail!(
                    "K = {}: algorithms {listed:?} are not the sweep's {names:?}",
                    p.k
                );
            }
            for (g, e) in point.gaps[b].iter_mut().zip(excess) {
                let context = || {
                    format!(
                        "K = {}: {} excess of {}",
                        p.k, record.baselines[b], e.algorithm
                    )
                };
                g.excess = tally_of(e.excess).with_context(context)?;
                g.worst = e.worst.map(|(excess, optimum, k, run)| Worst {
                    excess,
                    optimum,
                    k,
                    run,
                });
            }
        }
        let counts = point
            .optimum
            .iter()
            .chain(point.gaps.iter().flatten().map(|g| &g.excess));
        if let Some(t) = counts.into_iter().find(|t| t.n != owed) {
            bail!(
                "K = {}: a tally holds {} samples where its shard has {owed}",
                p.k,
                t.n
            );
        }
        points.push(point);
    }
    Ok(Gaps {
        sweep: GapSweep {
            sweep: sweep.clone(),
            baselines,
        },
        points,
    })
}

/// A tally of a file, refused when no samples could have its sums (the file was edited).
fn tally_of((n, sum, sum_sq): TallyRecord) -> Result<Tally> {
    let tally = Tally { n, sum, sum_sq };
    if !tally.is_consistent() {
        bail!(
            "tally [{n}, {sum}, {sum_sq}] is not [n, sum, sum of squares] of any samples \
             (it needs n · sum of squares ≥ sum², sum of squares ≥ |sum|, and all zero when n = 0): the file was altered"
        );
    }
    Ok(tally)
}

/// Every pair `(a, b)` with `a` before `b`, in the order of [`PointTally::pairs`].
pub fn pair_names(names: &[String]) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            out.push((a.as_str(), b.as_str()));
        }
    }
    out
}

/// The records of the tallies `measured` marks.
fn metric_tallies(t: &Tallies, measured: &[bool; Metric::COUNT]) -> MetricTallies {
    let mut out = MetricTallies::default();
    for m in Metric::ALL.into_iter().filter(|&m| measured[m as usize]) {
        let x = t[m as usize];
        *out.slot(m) = Some((x.n, x.sum, x.sum_sq));
    }
    out
}

/// The tallies of a record, which must hold exactly the metrics `measured` marks.
fn tallies(record: &MetricTallies, measured: &[bool; Metric::COUNT]) -> Result<Tallies> {
    let mut record = record.clone();
    let mut out = Tallies::default();
    for m in Metric::ALL {
        match (record.slot(m).take(), measured[m as usize]) {
            (Some(record), true) => {
                out[m as usize] = tally_of(record).with_context(|| m.name().to_string())?;
            }
            (None, false) => {}
            (None, true) => bail!("no {} tally", m.name()),
            (Some(_), false) => bail!("a {} tally, which this sweep does not measure", m.name()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use meshcast::algo;
    use meshcast::experiment::sweep::Placement;
    use meshcast::schedule::Schedule;

    fn sweep() -> Sweep {
        Sweep {
            shape: "mesh:5x4".parse().unwrap(),
            placement: Placement::Random,
            algorithms: ["vh", "diag", "dds"]
                .map(|n| algo::find(n).unwrap())
                .to_vec(),
            ks: vec![2, 7],
            runs: 5,
            seed: 3,
            schedule: Schedule::Paper,
            wormhole: None,
            params: Default::default(),
        }
    }

    #[test]
    fn files_round_trip_exactly_even_past_f64() {
        let s = sweep();
        let shard = Shard { index: 1, count: 2 };
        let mut tally = s.run(shard, &|_| {}).unwrap();
        let big = u128::from(u64::MAX) * 7;
        tally.points[1].algorithms[0][0].sum_sq = big;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        TallyFile::save(&path, &s, shard, &tally, &[false, true], None).unwrap();
        let back = TallyFile::load(&path).unwrap();
        assert_eq!(back.shard, shard);
        assert_eq!(back.done, [false, true]);
        assert_eq!(back.tally.points[1], tally.points[1]);
        assert_eq!(back.tally.points[0], s.empty_tally().points[0]);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(&big.to_string()), "{text}");
    }

    #[test]
    fn wrong_counts_are_refused() {
        let s = sweep();
        let shard = Shard { index: 0, count: 2 };
        let tally = s.run(Shard::WHOLE, &|_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        TallyFile::save(&path, &s, shard, &tally, &[true, true], None).unwrap();
        let e = format!("{:#}", TallyFile::load(&path).unwrap_err());
        assert!(e.contains("holds 5 samples where its shard has 3"), "{e}");
    }

    #[test]
    fn the_state_file_sits_beside_the_output() {
        assert_eq!(
            state_path(Path::new("out/r.csv")),
            Path::new("out/r.partial.json")
        );
    }
}
