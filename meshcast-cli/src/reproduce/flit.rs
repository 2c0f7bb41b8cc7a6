//! The flit-level sections: seed 003 Table 1 and Figs. 8–9, seed 002 Figs. 6–8, run by the
//! wormhole simulator on the setups of `meshcast::experiment::{seed003, seed002}`, with the
//! measurement and quick grids of `meshcast::experiment::flit`: this module only renders.

use std::fmt::Write as _;

use anyhow::Result;
use meshcast::experiment::flit::{measure, points};
use meshcast::experiment::seed002::{self, Axis};
use meshcast::experiment::seed003::{self, ABBREVIATIONS, ALGORITHMS, TABLE_1, TABLE_1_TOPOLOGY};
use meshcast::sim::wormhole::traffic::{
    simulate_all, Report, Setup, DEFICIT, DEFICIT_SIGMAS, SHORTFALL,
};

use crate::progress::{progress_bar, Count};

/// Every setup run in parallel, in order, under one progress bar (hidden with `quiet`); the
/// first error stops the section.
fn run_all(setups: &[Setup], label: &str, quiet: bool) -> Result<Vec<Report>> {
    let bar = progress_bar(setups.len() as u64, Count::Of("simulations"), quiet);
    if let Some(s) = setups.first() {
        bar.set_prefix(format!("{label}, {}: ", s.shape));
    }
    let reports = simulate_all(setups, &|| bar.inc(1));
    bar.finish();
    Ok(reports.into_iter().collect::<Result<_, _>>()?)
}

/// The setups of every figure of a section run as one parallel batch ([`run_all`]), so that no
/// figure waits for the last simulation of the one before on an otherwise idle core; the
/// reports split back per figure, in order.
fn run_figures(figures: &[Vec<Setup>], label: &str, quiet: bool) -> Result<Vec<Vec<Report>>> {
    let mut reports = run_all(&figures.concat(), label, quiet)?.into_iter();
    Ok(figures
        .iter()
        .map(|setups| reports.by_ref().take(setups.len()).collect())
        .collect())
}

/// Seed 003 Table 1: published CV against ours per algorithm and destination count, then our
/// mean latencies.
pub fn seed003_table1_section(quick: bool, seed: u64, quiet: bool) -> Result<String> {
    let (counts, runs) = seed003::table1_grid(quick);
    if !quiet {
        eprintln!("reproduce: seed 003 Table 1: {runs} multicasts per cell on {TABLE_1_TOPOLOGY}");
    }
    let cells = seed003::table1(&counts, runs, seed)?;
    let heads: Vec<String> = counts
        .iter()
        .map(|k| format!("K = {k} published / ours"))
        .collect();
    let mut out = format!(
        "Ours: mean CV over {runs} random multicasts per cell, each alone in the network, seed \
         {seed}.\n\n| algorithm | {} |\n|---|{}\n",
        heads.join(" | "),
        "---|".repeat(counts.len())
    );
    let mut latencies = Vec::new();
    for (name, short) in ALGORITHMS.iter().zip(ABBREVIATIONS) {
        let ours = cells.iter().filter(|c| c.algorithm == *name);
        let row: Vec<String> = ours
            .clone()
            .map(|c| {
                let published = TABLE_1
                    .iter()
                    .find(|p| p.algorithm == *name && p.k == c.destinations as usize)
                    .map_or("–".to_string(), |p| format!("{:.4}", p.cv));
                format!("{published} / {:.4}", c.cv)
            })
            .collect();
        let _ = writeln!(out, "| {short} (`{name}`) | {} |", row.join(" | "));
        let l: Vec<String> = ours.map(|c| format!("{:.0}", c.latency)).collect();
        latencies.push(format!("{short} {}", l.join(" / ")));
    }
    let ks: Vec<String> = counts.iter().map(u32::to_string).collect();
    let _ = writeln!(
        out,
        "\nMean multicast latency alone (cycles): {} at K = {}.",
        latencies.join(", "),
        ks.join(" / ")
    );
    Ok(out)
}

/// A latency cell: mean ± 95% half-width, `sat.` when the network saturated, `†` when the cycle
/// limit stopped the run before the interval reached the precision asked.
fn latency_cell(r: &Report) -> Option<String> {
    let l = r.multicast.filter(|_| r.saturated.is_none())?;
    let ci = l.half_width.map_or(String::new(), |h| format!(" ± {h:.1}"));
    let limit = if r.converged { "" } else { " †" };
    Some(format!("{:.1}{ci}{limit}", l.mean))
}

/// Seed 003 Figs. 8–9: mean multicast latency per load and algorithm, the lowest in bold.
pub fn seed003_figures_section(quick: bool, seed: u64, quiet: bool) -> Result<String> {
    let loads = points(&seed003::FIGURE_LOADS, quick);
    let m = measure(quick);
    let mut out = format!(
        "Ours: warm-up {} cycles, batches of {}, at most {} cycles, drain {}, seed {seed}. Mean \
         multicast latency ± 95% half-width in cycles; \"sat.\" where the network saturated \
         (messages in the system growing by over {:.0}% of those generated and over {} standard \
         deviations in each of {n} windows of a batch, {} cycles apart, undelivered measured \
         messages rising at {n} batch ends in a row and doubling, or, from batch {n} on, messages \
         in the system growing by over {:.0}% of those generated since the warm-up and over each \
         of the measurement's last two thirds — any of these stops the run —, measured messages \
         undelivered after the drain, or latency rising); † where the cycle limit came first.\n",
        m.warmup,
        m.batch,
        m.max_cycles - m.drain,
        m.drain,
        DEFICIT * 100.0,
        DEFICIT_SIGMAS,
        m.deficit_step(),
        SHORTFALL * 100.0,
        n = m.early_saturation
    );
    let figures = seed003::figures();
    let setups = figures
        .iter()
        .map(|&(_, k)| seed003::figure(k, loads, m, seed))
        .collect::<Result<Vec<_>, _>>()?;
    let all_reports = run_figures(&setups, "seed 003 Figs. 8–9", quiet)?;
    for ((figure, k), reports) in figures.into_iter().zip(all_reports) {
        let title = figure.trim_start_matches("seed 003 ");
        let _ = write!(
            out,
            "\n{title} ({k} destinations):\n\n| load | {} |\n|---|{}\n",
            ABBREVIATIONS.join(" | "),
            "---|".repeat(ABBREVIATIONS.len())
        );
        // Setups run algorithm by algorithm, each over every load.
        for (i, load) in loads.iter().enumerate() {
            let point: Vec<&Report> = (0..ABBREVIATIONS.len())
                .map(|a| &reports[a * loads.len() + i])
                .collect();
            let best = point
                .iter()
                .enumerate()
                .filter(|(_, r)| latency_cell(r).is_some())
                .filter_map(|(a, r)| r.multicast.map(|l| (a, l.mean)))
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .map(|(a, _)| a);
            let cells: Vec<String> = point
                .iter()
                .enumerate()
                .map(|(a, r)| match latency_cell(r) {
                    Some(c) if Some(a) == best => format!("**{c}**"),
                    Some(c) => c,
                    None => "sat.".into(),
                })
                .collect();
            let _ = writeln!(out, "| {load:.4} | {} |", cells.join(" | "));
        }
    }
    Ok(out)
}

/// Seed 002 Figs. 6–8: one-port against two-port mean multicast latency along each figure's axis.
pub fn seed002_figures_section(quick: bool, seed: u64, quiet: bool) -> Result<String> {
    let m = measure(quick);
    let (k, load, length) = seed002::BASE;
    let mut out = format!(
        "Ours: unless varied, {k} destinations, {load} messages per node per cycle, {length} flits; \
         warm-up {} cycles, batches of {}, at most {} cycles, drain {}, seed {seed}. Mean multicast \
         latency in cycles; \"sat.\" where the network saturated.\n",
        m.warmup,
        m.batch,
        m.max_cycles - m.drain,
        m.drain
    );
    let figures = [
        "Fig. 6: destinations",
        "Fig. 7: messages/node/cycle",
        "Fig. 8: flits",
    ];
    let axes = seed002::axes();
    let axes: Vec<&[Axis]> = axes.iter().map(|all| points(all, quick)).collect();
    let setups = axes
        .iter()
        .map(|axis| seed002::figure(axis, seed002::BASE, m, seed))
        .collect::<Result<Vec<_>, _>>()?;
    let all_reports = run_figures(&setups, "seed 002 Figs. 6–8", quiet)?;
    for ((title, axis), reports) in figures.into_iter().zip(axes).zip(all_reports) {
        let n = axis.len();
        let mean = |r: &Report| {
            r.multicast
                .filter(|_| r.saturated.is_none())
                .map(|l| l.mean)
        };
        let row = |port: usize| -> Vec<String> {
            reports[port * n..(port + 1) * n]
                .iter()
                .map(|r| mean(r).map_or("sat.".into(), |x| format!("{x:.0}")))
                .collect()
        };
        let ratio: Vec<String> = (0..n)
            .map(|i| match (mean(&reports[i]), mean(&reports[n + i])) {
                (Some(one), Some(two)) => format!("{:.2}", one / two),
                _ => "–".into(),
            })
            .collect();
        let heads: Vec<String> = axis.iter().map(axis_label).collect();
        let _ = write!(
            out,
            "\n| {title} | {} |\n|---|{}\n| one-port | {} |\n| two-port | {} |\n| one / two | {} |\n",
            heads.join(" | "),
            "---|".repeat(n),
            row(0).join(" | "),
            row(1).join(" | "),
            ratio.join(" | ")
        );
    }
    Ok(out)
}

fn axis_label(point: &Axis) -> String {
    match *point {
        Axis::Destinations(k) => k.to_string(),
        Axis::Load(x) => format!("{x}"),
        Axis::Length(l) => l.to_string(),
    }
}
