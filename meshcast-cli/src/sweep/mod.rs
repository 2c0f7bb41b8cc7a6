//! `meshcast sweep` and `meshcast merge`: Monte-Carlo sweeps over destination counts, run by
//! the library's engine (`meshcast::experiment::sweep`), reported as the theses' tables, flat
//! CSV/JSON records and plots.
//!
//! * [`settings`]: flags to a checked `Sweep`, and the settings files record;
//! * [`execute`]: running on all cores with a progress bar, saving progress for `--resume`;
//! * [`tally_file`]: shard and state files, exact tallies;
//! * [`results`]: records for `--out`, panels for `--plot`;
//! * [`table`]: the text on standard output;
//! * [`gaps`]: `--baseline`, every algorithm against exact optima.
//!
//! A sharded sweep writes its raw tallies; `merge` adds them up and reports exactly what the
//! unsharded sweep would. docs/SWEEPS.md describes the flags and every file format.

mod execute;
pub mod gaps;
pub(crate) mod results;
mod settings;
mod table;
mod tally_file;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use meshcast::experiment::gap::Baseline;
use meshcast::experiment::sweep::{Shard, Sweep, SweepTally};
use meshcast::stats::Tally;

use crate::args::{MergeArgs, SweepArgs};
use crate::output::{self, check_directory, Format};
use execute::StateFile;
use gaps::Gaps;
use tally_file::{state_path, TallyFile};

/// `meshcast sweep`.
pub fn run(args: &SweepArgs) -> Result<String> {
    let sweep = settings::sweep_of(args)?;
    let baselines = gaps::baselines(args.baseline.as_deref())?;
    gaps::check(&sweep, &baselines)?;
    match &args.shard {
        Some(text) => {
            let shard = Shard::parse(text).context("--shard")?;
            let out = args
                .out
                .as_deref()
                .context("--shard needs --out FILE.json")?;
            run_shard(args, &sweep, &baselines, shard, out)
        }
        None => run_whole(args, &sweep, &baselines),
    }
}

/// The whole sweep, and its gaps to `baselines`: the report on standard output, `--out` and
/// `--plot` files. Without baselines, its progress is kept beside `--out` for `--resume`.
fn run_whole(args: &SweepArgs, sweep: &Sweep, baselines: &[Baseline]) -> Result<String> {
    let outputs = Outputs::check(args.out.as_deref(), args.plot.as_deref())?;
    // A gap sweep is not resumed, so it keeps no state file to resume from.
    let state = (args.out.as_deref())
        .filter(|_| baselines.is_empty())
        .map(state_path);
    let state_file = state.as_deref().map(|path| StateFile {
        path,
        resume: args.resume,
    });
    let tally = execute::execute(sweep, Shard::WHOLE, state_file.as_ref(), args.quiet)?;
    let gaps = gaps::run(sweep, baselines, Shard::WHOLE, args.quiet)?;
    let text = outputs.write(sweep, &tally, gaps.as_ref())?;
    remove_state(state.as_deref())?;
    Ok(text)
}

/// One shard: its tallies (and gap tallies) to the shard file, a line on standard output.
fn run_shard(
    args: &SweepArgs,
    sweep: &Sweep,
    baselines: &[Baseline],
    shard: Shard,
    out: &Path,
) -> Result<String> {
    if output::extension(out) != "json" {
        bail!("--out '{}': a shard is written to FILE.json", out.display());
    }
    check_directory(out)?;
    let state = baselines.is_empty().then(|| state_path(out));
    let state_file = state.as_deref().map(|path| StateFile {
        path,
        resume: args.resume,
    });
    let tally = execute::execute(sweep, shard, state_file.as_ref(), args.quiet)?;
    let gaps = gaps::run(sweep, baselines, shard, args.quiet)?;
    let done = vec![true; sweep.ks.len()];
    TallyFile::save(out, sweep, shard, &tally, &done, gaps.as_ref())?;
    remove_state(state.as_deref())?;
    let owed: u64 = (0..sweep.ks.len())
        .map(|i| shard.runs_of_point(i, sweep.runs))
        .sum();
    Ok(format!(
        "shard {}/{}: {owed} of {} multicasts, tallies in '{}'; merge all {} with `meshcast merge`\n",
        shard.index,
        shard.count,
        sweep.units(),
        out.display(),
        shard.count
    ))
}

/// `meshcast merge`.
pub fn merge(args: &MergeArgs) -> Result<String> {
    let outputs = Outputs::check(args.out.as_deref(), args.plot.as_deref())?;
    for (flag, out) in [("--out", &args.out), ("--plot", &args.plot)] {
        if let Some(out) = out {
            check_not_an_input(flag, out, &args.shards)?;
        }
    }
    let files = args
        .shards
        .iter()
        .map(|p| Ok((p.as_path(), TallyFile::load(p)?)))
        .collect::<Result<Vec<_>>>()?;
    check_shards(&files)?;
    check_sums(&files)?;
    let sweep = &files[0].1.sweep;
    let mut tally = sweep.empty_tally();
    for (_, f) in &files {
        tally.merge(&f.tally);
    }
    // Every file has the same baselines (checked): the first's gaps plus the others'.
    let mut gaps = files[0].1.gaps.clone();
    for (_, f) in &files[1..] {
        if let (Some(total), Some(more)) = (&mut gaps, &f.gaps) {
            for (p, q) in total.points.iter_mut().zip(&more.points) {
                p.merge(q);
            }
        }
    }
    outputs.write(sweep, &tally, gaps.as_ref())
}

/// Refuse an output that is one of the shard files it would be made from (the same file under
/// any name: compared as canonical paths).
fn check_not_an_input(flag: &str, out: &Path, shards: &[PathBuf]) -> Result<()> {
    let Ok(target) = fs::canonicalize(out) else {
        return Ok(()); // Not there yet: no shard can be it.
    };
    match shards
        .iter()
        .find(|s| fs::canonicalize(s).is_ok_and(|s| s == target))
    {
        Some(shard) => bail!(
            "{flag} '{}' is the shard file '{}': it would be overwritten; write the results to another file",
            out.display(),
            shard.display()
        ),
        None => Ok(()),
    }
}

/// Every tally of a file, with its K, in one fixed order: the sweep's, then the gaps'.
fn every_tally(f: &TallyFile) -> impl Iterator<Item = (usize, &Tally)> {
    let sweep = f.tally.points.iter().flat_map(|p| {
        let rows = p.algorithms.iter().chain(&p.pairs);
        rows.flatten().map(move |t| (p.k, t))
    });
    let gaps = f.gaps.iter().flat_map(|g| &g.points).flat_map(|p| {
        let excess = p.gaps.iter().flatten().map(|g| &g.excess);
        p.optimum.iter().chain(excess).map(move |t| (p.k, t))
    });
    sweep.chain(gaps)
}

/// Refuse files whose sums together overflow: each is consistent (checked when read), but
/// altered ones can still add up to more than the tallies hold.
fn check_sums(files: &[(&Path, TallyFile)]) -> Result<()> {
    let mut totals: Vec<Tally> = every_tally(&files[0].1).map(|(_, t)| *t).collect();
    for (path, f) in &files[1..] {
        for (total, (k, t)) in totals.iter_mut().zip(every_tally(f)) {
            *total = total.checked_merge(t).with_context(|| {
                format!(
                    "'{}': K = {k}: the tallies of the shards add up to more than a tally holds: the file was altered",
                    path.display()
                )
            })?;
        }
    }
    Ok(())
}

/// Every file of the same sweep, complete, and each shard index `0..N` exactly once.
fn check_shards(files: &[(&Path, TallyFile)]) -> Result<()> {
    let (first_path, first) = &files[0];
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for (path, f) in files {
        let baselines = |f: &TallyFile| f.gaps.as_ref().map(|g| g.sweep.baselines.clone());
        let field = f
            .settings
            .difference(&first.settings)
            .or_else(|| (baselines(f) != baselines(first)).then_some("baselines"));
        if let Some(field) = field {
            bail!(
                "'{}' and '{}' are shards of different sweeps: {field} differs",
                first_path.display(),
                path.display()
            );
        }
        if !f.complete() {
            let n = f.done.iter().filter(|&&d| d).count();
            bail!(
                "'{}' holds {n} of {} destination counts: finish it with `meshcast sweep ... --resume`",
                path.display(),
                f.done.len()
            );
        }
        let (i, count) = (f.shard.index, f.shard.count);
        if count != first.shard.count {
            bail!(
                "'{}' is shard {i}/{count} but '{}' is one of {} shards",
                path.display(),
                first_path.display(),
                first.shard.count
            );
        }
        if let Some(other) = seen.insert(i, path) {
            bail!(
                "'{}' and '{}' are both shard {i}/{count}",
                other.display(),
                path.display()
            );
        }
    }
    let missing: Vec<String> = (0..first.shard.count)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{}", first.shard.count))
        .collect();
    if !missing.is_empty() {
        bail!("shards missing: {}", missing.join(", "));
    }
    Ok(())
}

/// The files a finished sweep writes besides its report, checked before it runs.
struct Outputs {
    out: Option<(PathBuf, Format)>,
    plot: Option<PathBuf>,
}

impl Outputs {
    fn check(out: Option<&Path>, plot: Option<&Path>) -> Result<Outputs> {
        let format = output::check_outputs(out, plot)?;
        Ok(Outputs {
            out: out.zip(format).map(|(path, f)| (path.to_path_buf(), f)),
            plot: plot.map(Path::to_path_buf),
        })
    }

    /// Write the files and return the report; the gaps, if measured, follow the sweep's own
    /// records and tables.
    fn write(&self, sweep: &Sweep, tally: &SweepTally, gaps: Option<&Gaps>) -> Result<String> {
        if let Some((path, format)) = &self.out {
            let mut records = results::records(sweep, tally);
            records.extend(gaps.map(results::gap_records).unwrap_or_default());
            results::write_records(path, *format, &records)?;
        }
        if let Some(path) = &self.plot {
            results::write_plot(path, sweep, tally)?;
        }
        let gap_report = gaps.map(gaps::report).transpose()?.unwrap_or_default();
        Ok(table::report(sweep, tally) + &gap_report)
    }
}

/// Remove the state file of a sweep that has finished (and written its results).
fn remove_state(state: Option<&Path>) -> Result<()> {
    match state {
        Some(path) if path.exists() => fs::remove_file(path)
            .with_context(|| format!("cannot remove the state file '{}'", path.display())),
        _ => Ok(()),
    }
}
