//! The seed 002 section: Figure 5 node by node, and the step bound and contention of our
//! `multiport` over random multicasts on the 16×16 mesh of Figs. 6–8.

use std::fmt::Write as _;

use anyhow::Result;
use meshcast::algo::{self, Params, Request};
use meshcast::contention::Contention;
use meshcast::eval::{Ports, Steps};
use meshcast::experiment::seed002::{
    step_check, FIGURE_5, SIMULATION_TOPOLOGY as TOPOLOGY, STEP_KS, STEP_PORTS, STEP_RUNS,
};
use meshcast::experiment::sweep::runs;
use meshcast::route::hamiltonian::Snake;
use meshcast::topology::{Node, Shape};

use crate::progress::{progress_bar, Count};

/// The section: Figure 5, then the step-bound table.
pub fn section(quick: bool, seed: u64, quiet: bool) -> Result<String> {
    let mut out = figure_5()?;
    out += &step_bounds(runs(STEP_RUNS, quick), seed, quiet)?;
    Ok(out)
}

/// Figure 5, published against ours, row by row.
fn figure_5() -> Result<String> {
    let shape: Shape = FIGURE_5.topology.parse()?;
    let req = Request::parse(FIGURE_5.topology, FIGURE_5.source, FIGURE_5.destinations)?
        .with_params(Params {
            ports: FIGURE_5.ports,
            ..Params::default()
        })?;
    let plan = algo::find("multiport")?.route(&req)?;
    let steps = Steps::new(&plan, &shape, Ports::Multi(FIGURE_5.ports));
    let snake = Snake::new(&shape);
    let mut chain: Vec<Node> = req.destinations().to_vec();
    chain.push(req.source());
    chain.sort_by_key(|&v| snake.label(v));
    let nodes = |v: &[Node]| {
        let text: Vec<String> = v.iter().map(|&n| shape.fmt_node(n)).collect();
        text.join(" ")
    };
    let printed = |list: &str| -> Result<String> { Ok(nodes(&shape.parse_nodes(list)?)) };
    let from_source_in = |step: u32| {
        let sends = plan.sends().enumerate();
        let ends: Vec<Node> = sends
            .filter(|(i, s)| s.from == req.source() && steps.send(*i) == step)
            .filter_map(|(_, s)| s.hops.last().map(|h| h.node()))
            .collect();
        nodes(&ends)
    };
    let c = Contention::under(&plan, &shape, &steps);
    let rows = [
        (
            "labelling-ordered chain φ",
            printed(FIGURE_5.chain)?,
            nodes(&chain),
        ),
        (
            "step 1: source → D_lower, D_upper",
            printed(&FIGURE_5.first_step.join(" "))?,
            from_source_in(1),
        ),
        (
            "step 2: source →",
            printed(FIGURE_5.second_step)?,
            from_source_in(2),
        ),
        (
            "message-passing steps (two ports)",
            FIGURE_5.steps.to_string(),
            steps.completion(&plan).to_string(),
        ),
        (
            "stepwise / depth contention (Theorems 1–3: none)",
            "0 / 0".to_string(),
            format!("{} / {}", c.stepwise, c.depth),
        ),
    ];
    let mut out = format!(
        "Figure 5: {}, source ({}), destinations {}; ours is `multiport` with two ports, \
         steps under the two-port model.\n\n| | published | ours | agrees |\n|---|---|---|---|\n",
        FIGURE_5.topology,
        FIGURE_5.source,
        printed(FIGURE_5.destinations)?
    );
    for (what, published, ours) in rows {
        let agrees = if published == ours { "yes" } else { "no" };
        let _ = writeln!(out, "| {what} | {published} | {ours} | {agrees} |");
    }
    Ok(out)
}

/// Seed 002's bound ⌈log_{d+1}(m + 1)⌉ + 1 against our steps, d = 1…4, with the plans that have
/// contention under the d-port model.
fn step_bounds(runs: u32, seed: u64, quiet: bool) -> Result<String> {
    let mut out = format!(
        "\nStep bound: `multiport` built for and timed with d ports on {TOPOLOGY}, the mesh of \
         Figs. 6–8, {runs} random multicasts per row (source and destinations uniform, seed \
         {seed}). Published: at most ⌈log_(d+1)(m + 1)⌉ + 1 steps, free of channel contention.\n\n\
         | d | K | bound | mean steps | most steps | over the bound | with stepwise contention | \
         with depth contention |\n|---|---|---|---|---|---|---|---|\n"
    );
    let bar = progress_bar(
        STEP_PORTS.len() as u64 * STEP_KS.len() as u64 * u64::from(runs),
        Count::Of("multicasts"),
        quiet,
    );
    bar.set_prefix(format!("seed 002 step bound, {TOPOLOGY}, d = 1…4: "));
    for d in STEP_PORTS {
        for k in STEP_KS {
            let o = step_check(d, k, runs, seed)?.run()?;
            bar.inc(u64::from(runs));
            let _ = writeln!(
                out,
                "| {d} | {k} | {} | {:.2} | {} | {} | {} | {} |",
                o.bound,
                o.mean(),
                o.max,
                o.over_bound,
                o.stepwise,
                o.depth
            );
        }
    }
    bar.finish();
    Ok(out)
}
