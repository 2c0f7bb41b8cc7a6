//! Running a sweep: on all cores (the library's rayon), with a progress bar on standard error,
//! saving its progress to a state file so an interrupted sweep loses at most one batch.
//!
//! The destination counts still to do are run in batches of whole points, at least
//! [`BATCH_UNITS`] multicasts each; after every batch the finished points' exact tallies are
//! written atomically to the state file. `--resume` loads them and runs the rest. The result does
//! not depend on the batches: a unit's sample depends on nothing but the seed and its (K, run).

use std::path::Path;

use anyhow::{bail, Result};
use meshcast::experiment::sweep::{Shard, Sweep, SweepTally};

use super::tally_file::TallyFile;
use crate::progress::{progress_bar, Count};

/// The fewest multicasts a batch runs between two saves (so the wait for a batch's slowest
/// thread stays small); with the theses' 1000 runs per K, every K is saved when it is done.
const BATCH_UNITS: u64 = 1000;

/// Where and whether a run keeps its progress.
pub struct StateFile<'a> {
    /// The state file.
    pub path: &'a Path,
    /// Continue from it if it exists (`--resume`).
    pub resume: bool,
}

/// Run `shard` of `sweep`, continuing from the state file when told to, saving to it as points
/// finish. `quiet` hides the progress bar.
pub fn execute(
    sweep: &Sweep,
    shard: Shard,
    state: Option<&StateFile>,
    quiet: bool,
) -> Result<SweepTally> {
    let (mut tally, mut done) = match state {
        Some(s) => start(sweep, shard, s)?,
        None => (sweep.empty_tally(), vec![false; sweep.ks.len()]),
    };
    let owed = |i: usize| shard.runs_of_point(i, sweep.runs);
    let todo: u64 = (0..done.len()).filter(|&i| !done[i]).map(owed).sum();
    let bar = progress_bar(todo, Count::Of("multicasts"), quiet);
    for batch in batches(&done, owed) {
        let part = sweep.run_points(shard, &batch, &|n| bar.inc(n))?;
        tally.merge(&part);
        done.iter_mut().zip(&batch).for_each(|(d, &b)| *d |= b);
        if let Some(s) = state {
            TallyFile::save(s.path, sweep, shard, &tally, &done, None)?;
        }
    }
    bar.finish_and_clear();
    Ok(tally)
}

/// The tallies and finished points to start from: those of the state file with `--resume`, none
/// without. A state file left by an interrupted run is never overwritten without `--resume`.
fn start(sweep: &Sweep, shard: Shard, state: &StateFile) -> Result<(SweepTally, Vec<bool>)> {
    let fresh = || (sweep.empty_tally(), vec![false; sweep.ks.len()]);
    let shown = state.path.display();
    if !state.path.exists() {
        return Ok(fresh());
    }
    if !state.resume {
        bail!(
            "'{shown}' holds the progress of an interrupted sweep: add --resume to continue it, \
             or delete it to start over"
        );
    }
    let saved = TallyFile::load(state.path)?;
    let mine = super::settings::Settings::of(sweep);
    if let Some(field) = saved.settings.difference(&mine) {
        bail!("--resume: '{shown}' is a sweep with other settings ({field} differs): delete it to start over");
    }
    if saved.shard != shard {
        bail!(
            "--resume: '{shown}' is shard {}/{}, not this one",
            saved.shard.index,
            saved.shard.count
        );
    }
    Ok((saved.tally, saved.done))
}

/// Masks of consecutive points not yet done, each with at least [`BATCH_UNITS`] multicasts
/// (`owed(i)` of point `i`) unless it is the last.
fn batches(done: &[bool], owed: impl Fn(usize) -> u64) -> Vec<Vec<bool>> {
    let mut out = Vec::new();
    let mut batch = vec![false; done.len()];
    let mut units = 0;
    for i in (0..done.len()).filter(|&i| !done[i]) {
        batch[i] = true;
        units += owed(i);
        if units >= BATCH_UNITS {
            out.push(std::mem::replace(&mut batch, vec![false; done.len()]));
            units = 0;
        }
    }
    if batch.contains(&true) {
        out.push(batch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_gather_points_to_the_minimum() {
        let done = [false, true, false, false, false];
        let b = batches(&done, |_| 400);
        let f = false;
        assert_eq!(
            b,
            [vec![true, f, true, true, f], vec![f, f, f, f, true]],
            "400 + 400 + 400 ≥ 1000, then the rest"
        );
        assert_eq!(batches(&done, |_| 1000).len(), 4);
        assert!(batches(&[true, true], |_| 1).is_empty());
    }
}
