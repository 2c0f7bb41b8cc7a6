//! `meshcast sweep --baseline LIST`: every algorithm of the sweep against exact optima
//! (`meshcast::experiment::gap`), on the same multicasts, reported after the sweep's own tables.
//!
//! Per baseline, one table of the mean excess (algorithm − optimum) and its 95% CI per K and over
//! every K, then the worst multicast of each algorithm, written out so `meshcast route` can rebuild
//! it. The same statistics are records of `--out` ([`super::results::gap_records`]). A shard
//! measures its own multicasts and keeps the exact gap tallies in its file for `merge`; a gap
//! sweep is not resumed (docs/SWEEPS.md says why).

use std::fmt::Write;

use anyhow::{Context, Result};
use meshcast::experiment::gap::{Baseline, GapPoint, GapSweep, GapTally, Worst};
use meshcast::experiment::sweep::{Shard, Sweep};
use meshcast::stats::Summary;

use crate::progress::{progress_bar, Count};
use crate::text::{bracketed, table, Align};

/// The baselines of `--baseline LIST` (none without the flag).
pub fn baselines(list: Option<&str>) -> Result<Vec<Baseline>> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    list.split(',')
        .map(|name| Baseline::parse(name).map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()
        .with_context(|| format!("--baseline '{list}'"))
}

/// Check the sweep against the exact solvers' limits before anything runs.
pub fn check(sweep: &Sweep, baselines: &[Baseline]) -> Result<()> {
    if baselines.is_empty() {
        return Ok(());
    }
    gap_sweep(sweep, baselines)
        .check()
        .context("--baseline against the sweep's --k")
}

fn gap_sweep(sweep: &Sweep, baselines: &[Baseline]) -> GapSweep {
    GapSweep {
        sweep: sweep.clone(),
        baselines: baselines.to_vec(),
    }
}

/// Run the gaps of `shard` of `sweep` on all cores with a progress bar.
pub fn measure(gaps: &GapSweep, shard: Shard, quiet: bool) -> Result<Vec<GapPoint>> {
    let owed = (0..gaps.sweep.ks.len()).map(|i| shard.runs_of_point(i, gaps.sweep.runs));
    let bar = progress_bar(owed.sum(), Count::Of("multicasts"), quiet);
    let points = gaps.run_shard(shard, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    Ok(points)
}

/// The gaps of a sweep (or of a shard of it), measured: its baselines and one point per K.
#[derive(Clone, Debug)]
pub struct Gaps {
    /// The sweep and its baselines.
    pub sweep: GapSweep,
    /// Per K, in sweep order.
    pub points: Vec<GapPoint>,
}

/// Measure `shard` of `sweep` against `baselines`; nothing without a baseline.
pub fn run(
    sweep: &Sweep,
    baselines: &[Baseline],
    shard: Shard,
    quiet: bool,
) -> Result<Option<Gaps>> {
    if baselines.is_empty() {
        return Ok(None);
    }
    let gaps = gap_sweep(sweep, baselines);
    let points = measure(&gaps, shard, quiet)?;
    Ok(Some(Gaps {
        sweep: gaps,
        points,
    }))
}

/// The gap report of a measured sweep.
pub fn report(gaps: &Gaps) -> Result<String> {
    let (sweep, baselines, points) = (&gaps.sweep.sweep, &gaps.sweep.baselines, &gaps.points);
    let mut out = String::from(
        "\ngaps to exact optima: algorithm - optimum on every multicast (mean and 95% CI); \
         % is the total excess over the total optimum; worst: the multicast with the highest \
         excess relative to its optimum\n",
    );
    for (b, baseline) in baselines.iter().enumerate() {
        let _ = write!(
            out,
            "\n{} ({}, {})\n\n",
            baseline.name(),
            baseline.describe(),
            baseline.metric().unit()
        );
        out += &excess_table(sweep, points, b);
        out.push('\n');
        out += &worst_table(sweep, points, b)?;
    }
    Ok(out)
}

/// Every K and the whole sweep together, per algorithm: the tallies of baseline `b`.
pub fn overall(points: &[GapPoint], b: usize) -> (Summary, Vec<GapTally>) {
    let mut optimum = points[0].optimum[b];
    let mut gaps = points[0].gaps[b].clone();
    for p in &points[1..] {
        optimum.merge(&p.optimum[b]);
        for (g, h) in gaps.iter_mut().zip(&p.gaps[b]) {
            g.merge(h);
        }
    }
    (optimum.summary(), gaps)
}

/// `12.3%`: the total excess of `gap` over the total optimum `optimum` (n·mean).
pub fn percent(gap: &GapTally, optimum: &Summary) -> String {
    let total = optimum.mean * optimum.n as f64;
    format!("{:.1}%", 100.0 * gap.excess.sum as f64 / total)
}

/// `+5 over 12 (41.7%)`.
pub fn worst_text(w: &Worst) -> String {
    format!(
        "{:+} over {} ({:.1}%)",
        w.excess,
        w.optimum,
        100.0 * w.excess as f64 / w.optimum as f64
    )
}

/// `--source 0,0 --dests "1,2 3,4"`: the flags `meshcast route` rebuilds multicast `w` with.
pub fn instance_flags(sweep: &Sweep, w: &Worst) -> Result<String> {
    let req = sweep.request(w.k, w.run)?;
    let shape = req.shape();
    let plain = |n| {
        shape
            .coords(n)
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let dests: Vec<String> = req.destinations().iter().map(|&d| plain(d)).collect();
    Ok(format!(
        "--source {} --dests \"{}\"",
        plain(req.source()),
        dests.join(" ")
    ))
}

fn excess_table(sweep: &Sweep, points: &[GapPoint], b: usize) -> String {
    let names: Vec<String> = sweep
        .algorithms
        .iter()
        .flat_map(|a| [format!("{} excess", a.name), format!("{} 95% CI", a.name)])
        .collect();
    let mut header = vec![("K", Align::Left), ("optimum", Align::Right)];
    header.extend(names.iter().map(|t| (t.as_str(), Align::Right)));
    let row = |label: String, optimum: Summary, gaps: &[GapTally]| {
        let mut cells = vec![label, format!("{:.2}", optimum.mean)];
        for g in gaps {
            let s = g.excess.summary();
            cells.extend([format!("{:.2}", s.mean), bracketed(&s)]);
        }
        cells
    };
    let mut rows: Vec<Vec<String>> = points
        .iter()
        .map(|p| row(p.k.to_string(), p.optimum[b].summary(), &p.gaps[b]))
        .collect();
    let (optimum, gaps) = overall(points, b);
    rows.push(row("all".to_string(), optimum, &gaps));
    table(&header, &rows)
}

fn worst_table(sweep: &Sweep, points: &[GapPoint], b: usize) -> Result<String> {
    let (optimum, gaps) = overall(points, b);
    let header = [
        ("algorithm", Align::Left),
        ("excess %", Align::Right),
        ("worst", Align::Right),
        ("K", Align::Right),
        ("run", Align::Right),
        ("multicast", Align::Left),
    ];
    let rows = sweep
        .algorithms
        .iter()
        .zip(&gaps)
        .map(|(a, g)| {
            let w = g.worst.expect("every algorithm has at least one sample");
            Ok(vec![
                a.name.to_string(),
                percent(g, &optimum),
                worst_text(&w),
                w.k.to_string(),
                w.run.to_string(),
                instance_flags(sweep, &w)?,
            ])
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(table(&header, &rows))
}
