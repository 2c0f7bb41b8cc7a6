//! Shard and state files (schema `meshcast.sweep-tally/1`): a sweep's settings, its shard, and
//! the exact tallies of the destination counts it has finished.
//!
//! A shard file (`--shard i/N --out FILE.json`) holds every K; a state file (`FILE.partial.json`
//! beside `--out`, while a sweep runs) holds those done so far. Each tally is written as
//! `[n, sum, sum_sq]`, whole numbers in decimal, so merging files is as exact as merging threads.
//! Loading checks everything a merge relies on: the schema, the algorithm and pair names, that
//! each K is one of the sweep's, and that each tally holds exactly the samples its shard owes.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use meshcast::experiment::stats::Tally;
use meshcast::experiment::sweep::{Metric, PointTally, Shard, Sweep, SweepTally, Tallies};
use serde::{Deserialize, Serialize};

use super::settings::Settings;
use crate::output;
use crate::report::to_json;

/// The `schema` value of every shard and state file.
pub const TALLY_SCHEMA: &str = "meshcast.sweep-tally/1";

/// A tally as `[n, sum, sum_sq]`.
type TallyRecord = (u64, i64, u128);

/// The four tallies of one algorithm, or of one pair, at one K.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct MetricTallies {
    one_port_time: TallyRecord,
    all_port_time: TallyRecord,
    traffic: TallyRecord,
    additional_traffic: TallyRecord,
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct FileRecord {
    schema: String,
    settings: Settings,
    shard: ShardRecord,
    points: Vec<PointRecord>,
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
}

impl TallyFile {
    /// Whether every K is finished.
    pub fn complete(&self) -> bool {
        self.done.iter().all(|&d| d)
    }

    /// Write the finished K of `tally` atomically to `path`.
    pub fn save(
        path: &Path,
        sweep: &Sweep,
        shard: Shard,
        tally: &SweepTally,
        done: &[bool],
    ) -> Result<()> {
        let names: Vec<String> = sweep
            .algorithms
            .iter()
            .map(|a| a.name.to_string())
            .collect();
        let points = tally
            .points
            .iter()
            .zip(done)
            .filter(|(_, &d)| d)
            .map(|(p, _)| point_record(p, &names))
            .collect();
        let file = FileRecord {
            schema: TALLY_SCHEMA.to_string(),
            settings: Settings::of(sweep),
            shard: ShardRecord {
                index: shard.index,
                count: shard.count,
            },
            points,
        };
        output::write_atomically(path, to_json(&file)?.as_bytes())
            .with_context(|| format!("cannot write '{}'", path.display()))
    }

    /// Read and check the file at `path`.
    pub fn load(path: &Path) -> Result<TallyFile> {
        // A file that cannot be read is bad input (exit 2), so the I/O error becomes text.
        let text = fs::read_to_string(path)
            .map_err(|e| anyhow!("cannot read '{}': {e}", path.display()))?;
        let record: FileRecord = serde_json::from_str(&text)
            .map_err(|e| anyhow!("'{}' is not a {TALLY_SCHEMA} file: {e}", path.display()))?;
        TallyFile::check(record).with_context(|| format!("'{}'", path.display()))
    }

    fn check(record: FileRecord) -> Result<TallyFile> {
        if record.schema != TALLY_SCHEMA {
            bail!("schema '{}' is not {TALLY_SCHEMA}", record.schema);
        }
        let sweep = record.settings.sweep()?;
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
            tally.points[i] = point_tally(p, &record.settings.algorithms)?;
            let owed = samples(&sweep, shard, i);
            check_counts(&tally.points[i], owed).with_context(|| format!("K = {}", p.k))?;
        }
        Ok(TallyFile {
            settings: record.settings,
            sweep,
            shard,
            tally,
            done,
        })
    }
}

/// `FILE.partial.json` beside `out`: where a sweep keeps its progress.
pub fn state_path(out: &Path) -> PathBuf {
    out.with_extension("partial.json")
}

/// How many multicasts of K number `point` shard `shard` runs: the unit indices in
/// `point·runs .. (point+1)·runs` that are `index` modulo `count`.
pub fn samples(sweep: &Sweep, shard: Shard, point: usize) -> u64 {
    let (i, n) = (u64::from(shard.index), u64::from(shard.count));
    let below = |x: u64| (x + n - 1 - i) / n;
    let runs = u64::from(sweep.runs);
    let start = point as u64 * runs;
    below(start + runs) - below(start)
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

fn check_counts(point: &PointTally, owed: u64) -> Result<()> {
    let counts = point.algorithms.iter().chain(&point.pairs).flatten();
    match counts.map(|t| t.n).find(|&n| n != owed) {
        Some(n) => bail!("a tally holds {n} samples where its shard has {owed}"),
        None => Ok(()),
    }
}

fn point_record(p: &PointTally, names: &[String]) -> PointRecord {
    let algorithms = names
        .iter()
        .zip(&p.algorithms)
        .map(|(name, t)| AlgorithmRecord {
            algorithm: name.clone(),
            tallies: metric_tallies(t),
        })
        .collect();
    let pairs = pair_names(names)
        .into_iter()
        .zip(&p.pairs)
        .map(|((a, b), t)| PairRecord {
            a: a.to_string(),
            b: b.to_string(),
            tallies: metric_tallies(t),
        })
        .collect();
    PointRecord {
        k: p.k,
        algorithms,
        pairs,
    }
}

fn point_tally(p: &PointRecord, names: &[String]) -> Result<PointTally> {
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
    Ok(PointTally {
        k: p.k,
        algorithms: p.algorithms.iter().map(|a| tallies(&a.tallies)).collect(),
        pairs: p.pairs.iter().map(|r| tallies(&r.tallies)).collect(),
    })
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

fn metric_tallies(t: &Tallies) -> MetricTallies {
    let r = |m: Metric| {
        let x = t[m as usize];
        (x.n, x.sum, x.sum_sq)
    };
    MetricTallies {
        one_port_time: r(Metric::OnePortTime),
        all_port_time: r(Metric::AllPortTime),
        traffic: r(Metric::Traffic),
        additional_traffic: r(Metric::AdditionalTraffic),
    }
}

fn tallies(m: &MetricTallies) -> Tallies {
    let mut out = Tallies::default();
    let pairs = [
        (Metric::OnePortTime, m.one_port_time),
        (Metric::AllPortTime, m.all_port_time),
        (Metric::Traffic, m.traffic),
        (Metric::AdditionalTraffic, m.additional_traffic),
    ];
    for (metric, (n, sum, sum_sq)) in pairs {
        out[metric as usize] = Tally { n, sum, sum_sq };
    }
    out
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
        }
    }

    #[test]
    fn a_shards_samples_add_up_to_the_runs() {
        let s = sweep();
        for point in 0..2 {
            let total: u64 = (0..3)
                .map(|i| samples(&s, Shard { index: i, count: 3 }, point))
                .sum();
            assert_eq!(total, 5);
        }
        assert_eq!(samples(&s, Shard { index: 0, count: 3 }, 0), 2); // units 0 and 3
        assert_eq!(samples(&s, Shard { index: 0, count: 3 }, 1), 2); // units 6 and 9
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
        TallyFile::save(&path, &s, shard, &tally, &[false, true]).unwrap();
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
        TallyFile::save(&path, &s, shard, &tally, &[true, true]).unwrap();
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
