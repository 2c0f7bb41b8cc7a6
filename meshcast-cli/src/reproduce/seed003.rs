//! The seed 003 section: average additional traffic of DP, MP, CP and QG on the 8×8×8 and
//! 10×10×10 meshes (Figs. 6–7), and whether QG needs the fewest channels, as published.

use std::fmt::Write as _;

use anyhow::Result;
use meshcast::experiment::seed003::{ADDITIONAL_TRAFFIC, TRAFFIC_RUNS};
use meshcast::experiment::sweep::{runs, Metric};

use super::{run_sweep, signed_ci, with_ci};

/// The section: one table per figure.
pub fn section(quick: bool, seed: u64, quiet: bool) -> Result<String> {
    let runs = runs(TRAFFIC_RUNS, quick);
    let mut out = format!(
        "Average additional traffic (channels used − K) with its 95% CI, {runs} multicasts per K, \
         sources and destinations uniform, the same multicasts for every algorithm, seed {seed}. \
         Published (Figs. 6–7): QG the lowest of the four at every K.\n"
    );
    for claim in &ADDITIONAL_TRAFFIC {
        let sweep = claim.sweep(runs, seed)?;
        let tally = run_sweep(&sweep, claim.figure, quiet)?;
        let names = claim.algorithms();
        let lowest = names.len() - 1;
        let others = &names[..lowest];
        let differences: Vec<String> = others.iter().map(|a| format!("{a} − qg")).collect();
        let _ = write!(
            out,
            "\n{} ({}), mean (95% CI), then paired differences to {}:\n\n| K | {} | {} | lowest \
             (ours) |\n|---|{}---|\n",
            claim.figure,
            claim.topology,
            claim.lowest,
            names.join(" | "),
            differences.join(" | "),
            "---|".repeat(names.len() + others.len())
        );
        let aat = Metric::AdditionalTraffic as usize;
        for point in &tally.points {
            let mean = |a: usize| point.algorithms[a][aat].summary();
            let means = (0..names.len()).map(|a| with_ci(&mean(a)));
            let paired = (0..lowest).map(|a| signed_ci(&point.pair(a, lowest)[aat].summary()));
            let ours = (0..names.len())
                .min_by(|&a, &b| mean(a).mean.total_cmp(&mean(b).mean))
                .map_or("–", |a| names[a]);
            let cells: Vec<String> = means.chain(paired).collect();
            let _ = writeln!(out, "| {} | {} | {ours} |", point.k, cells.join(" | "));
        }
    }
    Ok(out)
}
