//! `meshcast optimality`: how far every tree and path algorithm is from the exact optimum, as the
//! tables of docs/OPTIMALITY.md, and RSA against DIAG and DDS on the seeds' own experiments.
//!
//! Sections (markers `<!-- meshcast reproduce: optimality-NAME -->`, as `meshcast reproduce`):
//! * `optimality-trees`: every tree algorithm against the OMT and the MST;
//! * `optimality-paths`: every path algorithm against the OMP and the MST;
//! * `optimality-k`: DIAG, DDS and RSA against the OMT per K, and RSA against each, multicast by
//!   multicast;
//! * `optimality-time`: every tree algorithm against the least one-port time of a shortest-path
//!   tree (6×6, K ≤ 8: that search is for small instances);
//! * `optimality-worst`: the worst instances, drawn as SVG (with `--svg-dir`);
//! * `optimality-seeds`: RSA, DIAG, DDS, VH and MIN on the seeds' 20×20 and 10×10×10 experiments.
//!
//! The small shapes are 6×6, 8×8 and 4×4×4 meshes and tori, K = 2…16, the source at a random
//! node, every algorithm on the same multicasts. The shapes, counts and sweeps are the library's
//! (`meshcast::experiment::optimality`, measured by `meshcast::experiment::gap`): this module
//! only renders.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use meshcast::algo::{self, AlgoInfo, Request};
use meshcast::eval::Metrics;
use meshcast::exact;
use meshcast::experiment::gap::{Baseline, GapPoint, GapSweep, Worst};
use meshcast::experiment::optimality::{
    gap_sweep, grid, seed_experiments, seed_grid, seed_sweep, time_sweep, RIVALS, SEED_ALGORITHMS,
    SHAPES, TIME_LAST_K, TIME_SHAPES,
};
use meshcast::experiment::seed001::PATH_MODEL;
use meshcast::experiment::sweep::{Metric, Shard, Sweep};
use meshcast::plan::{Plan, PlanKind};
use meshcast::schedule::Schedule;
use meshcast::stats::Tally;

use crate::args::OptimalityArgs;
use crate::report::RouteReport;
use crate::reproduce::{deliver, replace_sections, with_ci};
use crate::sweep::gaps::{self, overall, percent, worst_text};
use crate::{draw, output};

/// The marker names of the sections.
const SECTIONS: [&str; 6] = [
    "optimality-trees",
    "optimality-paths",
    "optimality-k",
    "optimality-time",
    "optimality-worst",
    "optimality-seeds",
];

/// A progress line on standard error, unless `--quiet`.
fn progress(quiet: bool, line: std::fmt::Arguments) {
    if !quiet {
        eprintln!("{line}");
    }
}

/// `meshcast optimality`.
pub fn run(args: &OptimalityArgs) -> Result<String> {
    let (default_runs, last_k) = grid(args.quick);
    let runs = args.runs.unwrap_or(default_runs);
    if let Some(path) = &args.write {
        replace_sections(path, &SECTIONS.map(|name| (name, String::new())))?;
    }
    if let Some(dir) = &args.svg_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--svg-dir: cannot create '{}'", dir.display()))?;
    }
    let mut measured = Vec::new();
    for topology in SHAPES {
        progress(
            args.quiet,
            format_args!("optimality: {topology}, K = 2…{last_k}, {runs} runs each"),
        );
        let gaps = gap_sweep(topology, last_k, runs, args.seed)?;
        let points = gaps::measure(&gaps, Shard::WHOLE, args.quiet)?;
        measured.push((gaps, points));
    }
    let svg = args
        .svg_dir
        .as_deref()
        .zip(args.write.as_deref())
        .map(|(dir, doc)| SvgDir::new(dir, doc));
    let (seed_runs, seed_step) = seed_grid(args.quick);
    let sections = [
        (
            SECTIONS[0],
            family_table(&measured, PlanKind::Tree, [Baseline::Omt, Baseline::Mst]),
        ),
        (
            SECTIONS[1],
            family_table(&measured, PlanKind::Path, [Baseline::Omp, Baseline::Mst]),
        ),
        (SECTIONS[2], rivals_per_k(&measured)?),
        (
            SECTIONS[3],
            one_port_gaps(runs, last_k.min(TIME_LAST_K), args)?,
        ),
        (SECTIONS[4], worst_instances(&measured, svg.as_ref())?),
        (
            SECTIONS[5],
            seeds_experiments(seed_runs, seed_step, args.seed, args.quiet)?,
        ),
    ];
    deliver(args.write.as_deref(), &sections)
}

/// Every tree algorithm against the least one-port time of a shortest-path tree, in its paper's
/// port order and in the optimal order: excess in % of the total optimum and mean excess in hops.
fn one_port_gaps(runs: u32, last_k: usize, args: &OptimalityArgs) -> Result<String> {
    let mut columns = Vec::new();
    for topology in TIME_SHAPES {
        let mut both = Vec::new();
        for schedule in [Schedule::Paper, Schedule::Optimal] {
            progress(
                args.quiet,
                format_args!(
                    "optimality: one-port optimum, {topology}, K = 2…{last_k}, {} order",
                    schedule.name()
                ),
            );
            let gaps = time_sweep(topology, last_k, runs, args.seed, schedule)?;
            let points = gaps::measure(&gaps, Shard::WHOLE, args.quiet)?;
            both.push((gaps, points));
        }
        columns.push(both);
    }
    let mut out = format!(
        "Excess over the least one-port time of a shortest-path tree (hops), K = 2…{last_k}, \
         {runs} runs per K, random source: `paper order / optimal order`, as % of the total \
         optimum and (mean excess in hops).\n\n| algorithm | {} |\n|---|{}\n",
        TIME_SHAPES.join(" | "),
        "---|".repeat(TIME_SHAPES.len())
    );
    let names: Vec<&str> = columns[0][0]
        .0
        .sweep
        .algorithms
        .iter()
        .map(|a| a.name)
        .collect();
    for name in names {
        let cells: Vec<String> = columns
            .iter()
            .map(|both| {
                both.iter()
                    .map(|(gaps, points)| {
                        let a = algo_index(&gaps.sweep, name);
                        let (optimum, tallies) = overall(points, 0);
                        let mean = tallies[a].excess.summary().mean;
                        format!("{} ({mean:+.2})", percent(&tallies[a], &optimum))
                    })
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
            .collect();
        let _ = writeln!(out, "| `{name}` | {} |", cells.join(" | "));
    }
    Ok(out)
}

fn baseline_index(gaps: &GapSweep, baseline: Baseline) -> usize {
    gaps.baselines
        .iter()
        .position(|&b| b == baseline)
        .expect("every baseline is measured")
}

/// Per algorithm of `family` and per shape: the total excess over each baseline, in % of the
/// total optimum, and the mean excess in links.
fn family_table(
    measured: &[(GapSweep, Vec<GapPoint>)],
    family: PlanKind,
    baselines: [Baseline; 2],
) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (gaps, _) in measured {
        for a in gaps.sweep.algorithms.iter().filter(|a| a.family == family) {
            if !names.contains(&a.name) {
                names.push(a.name);
            }
        }
    }
    let mut out = String::new();
    for baseline in baselines {
        let _ = write!(
            out,
            "\n**Against the {}** ({}): total excess in % of the total optimum, and the mean \
             excess in links per multicast. – : the algorithm does not run on that topology.\n\n\
             | algorithm | {} |\n|---|{}\n",
            baseline.name().to_uppercase(),
            baseline.describe(),
            SHAPES.join(" | "),
            "---|".repeat(SHAPES.len())
        );
        for name in &names {
            let cells: Vec<String> = measured
                .iter()
                .map(|(gaps, points)| {
                    let Some(a) = gaps.sweep.algorithms.iter().position(|x| x.name == *name) else {
                        return "–".to_string();
                    };
                    let (optimum, tallies) = overall(points, baseline_index(gaps, baseline));
                    let mean = tallies[a].excess.summary().mean;
                    format!("{} ({mean:+.2})", percent(&tallies[a], &optimum))
                })
                .collect();
            let _ = writeln!(out, "| `{name}` | {} |", cells.join(" | "));
        }
    }
    out
}

/// DIAG, DDS and RSA per K against the OMT: mean excess in links per multicast.
fn rivals_per_k(measured: &[(GapSweep, Vec<GapPoint>)]) -> Result<String> {
    let mut out = format!(
        "Mean excess over the OMT in links per multicast, `{}`.\n\n| K | {} |\n|---|{}\n",
        RIVALS.join(" / "),
        SHAPES.join(" | "),
        "---|".repeat(SHAPES.len())
    );
    let ks: Vec<usize> = measured[0].1.iter().map(|p| p.k).collect();
    for (i, k) in ks.iter().enumerate() {
        let cells: Vec<String> = measured
            .iter()
            .map(|(gaps, points)| {
                let b = baseline_index(gaps, Baseline::Omt);
                RIVALS
                    .iter()
                    .map(|name| {
                        let a = algo_index(&gaps.sweep, name);
                        format!("{:.2}", points[i].gaps[b][a].excess.summary().mean)
                    })
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
            .collect();
        let _ = writeln!(out, "| {k} | {} |", cells.join(" | "));
    }
    Ok(out + &head_to_head(measured)?)
}

/// RSA against DIAG and DDS multicast by multicast, on the same multicasts as the gaps: how often
/// it uses fewer, as many or more links, and is faster, as fast or slower one-port (each tree in
/// its paper's port order, and in the optimal order).
fn head_to_head(measured: &[(GapSweep, Vec<GapPoint>)]) -> Result<String> {
    let mut out =
        format!(
        "\nRSA against each rival on every multicast above: how many times it is lower / equal / \
         higher.\n\n| topology | multicasts | {} |\n|---|---|{}\n",
        ["traffic", "one-port time, paper order", "one-port time, optimal order"]
            .iter()
            .flat_map(|m| RIVALS[..2].iter().map(move |r| format!("{m}: rsa vs {r}")))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(6)
    );
    for (gaps, _) in measured {
        let sweep = &gaps.sweep;
        // counts[metric][rival][lower, equal, higher]
        let mut counts = [[[0u32; 3]; 2]; 3];
        let mut n = 0;
        for &k in &sweep.ks {
            for run in 0..sweep.runs {
                let req = sweep.request(k, run)?;
                let measure = |name: &str| -> Result<[u32; 3]> {
                    let plan = algo::find(name)?.route(&req)?;
                    let optimal = Schedule::Optimal.apply(plan.clone(), req.shape());
                    Ok([
                        plan.traffic(),
                        Metrics::of(&plan, req.shape()).one_port_time,
                        Metrics::of(&optimal, req.shape()).one_port_time,
                    ])
                };
                let (rsa, diag, dds) = (measure("rsa")?, measure("diag")?, measure("dds")?);
                n += 1;
                for (m, metric) in counts.iter_mut().enumerate() {
                    for (r, rival) in [diag, dds].iter().enumerate() {
                        let slot = match rsa[m].cmp(&rival[m]) {
                            std::cmp::Ordering::Less => 0,
                            std::cmp::Ordering::Equal => 1,
                            std::cmp::Ordering::Greater => 2,
                        };
                        metric[r][slot] += 1;
                    }
                }
            }
        }
        let cells: Vec<String> = counts
            .iter()
            .flat_map(|m| m.iter().map(|c| format!("{} / {} / {}", c[0], c[1], c[2])))
            .collect();
        let _ = writeln!(out, "| {} | {n} | {} |", sweep.shape, cells.join(" | "));
    }
    Ok(out)
}

fn algo_index(sweep: &Sweep, name: &str) -> usize {
    sweep
        .algorithms
        .iter()
        .position(|a| a.name == name)
        .expect("the algorithm runs on every shape of its table")
}

/// Where the SVG drawings go, and how the document links to them.
struct SvgDir {
    dir: PathBuf,
    link: String,
}

impl SvgDir {
    /// Drawings in `dir`, linked from the document `doc` by a path relative to its directory
    /// when `dir` lies below it.
    fn new(dir: &Path, doc: &Path) -> SvgDir {
        let base = doc.parent().unwrap_or(Path::new(""));
        let link = dir.strip_prefix(base).unwrap_or(dir);
        SvgDir {
            dir: dir.to_path_buf(),
            link: link.to_string_lossy().into_owned(),
        }
    }

    /// Draw `plan` to `name` and return the Markdown image.
    fn draw(&self, name: &str, label: &str, plan: &Plan, req: &Request) -> Result<String> {
        let report = RouteReport::of_plan(
            label,
            plan,
            req.shape(),
            Schedule::Optimal,
            PATH_MODEL.into(),
        );
        let svg = draw::render(req.shape(), &report).to_string();
        let path = self.dir.join(name);
        output::write_atomically(&path, svg.as_bytes())
            .with_context(|| format!("cannot write the SVG file '{}'", path.display()))?;
        Ok(format!("![{label}]({}/{name})", self.link))
    }
}

/// Per shape, the worst multicast (highest excess relative to the optimum): of any tree algorithm
/// and of DIAG, DDS and RSA against the OMT, of any path algorithm against the OMP. RSA's and the
/// worst path algorithm's are drawn beside their optimum.
fn worst_instances(measured: &[(GapSweep, Vec<GapPoint>)], svg: Option<&SvgDir>) -> Result<String> {
    let mut out = String::from(
        "The multicast with the highest excess relative to its optimum, per topology: of all tree \
         algorithms and of each of DIAG, DDS and RSA against the OMT, of all path algorithms \
         against the OMP; ties go to the larger excess, then the first multicast drawn. Rebuild \
         one with `meshcast route --topology T --algo A --source … --dests …`.\n\n\
         | topology | algorithm | against | worst | multicast |\n|---|---|---|---|---|\n",
    );
    let mut images = String::new();
    for (gaps, points) in measured {
        let rows = [
            (Baseline::Omt, Among::Family(PlanKind::Tree), false),
            (Baseline::Omt, Among::Name(RIVALS[0]), false),
            (Baseline::Omt, Among::Name(RIVALS[1]), false),
            (Baseline::Omt, Among::Name(RIVALS[2]), true),
            (Baseline::Omp, Among::Family(PlanKind::Path), true),
        ];
        for (baseline, among, drawn) in rows {
            let (_, tallies) = overall(points, baseline_index(gaps, baseline));
            let worst = gaps
                .sweep
                .algorithms
                .iter()
                .zip(&tallies)
                .filter(|(a, _)| among.holds(a))
                .filter_map(|(a, t)| t.worst.map(|w| (*a, w)))
                .reduce(|x, y| if y.1.worse_than(&x.1) { y } else { x });
            let Some((info, w)) = worst else { continue };
            let flags = gaps::instance_flags(&gaps.sweep, &w)?;
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} at K = {} | `{flags}` |",
                gaps.sweep.shape,
                info.name,
                baseline.name().to_uppercase(),
                worst_text(&w),
                w.k
            );
            if let (Some(svg), true) = (svg, drawn) {
                images += &draw_pair(svg, gaps, info, baseline, &w)?;
            }
        }
    }
    Ok(out + &images)
}

/// Which algorithms a worst case is looked for among.
enum Among {
    Family(PlanKind),
    Name(&'static str),
}

impl Among {
    fn holds(&self, a: &AlgoInfo) -> bool {
        match self {
            Among::Family(f) => a.family == *f,
            Among::Name(n) => a.name == *n,
        }
    }
}

/// The heuristic's plan and the optimum of the worst instance `w`, side by side.
fn draw_pair(
    svg: &SvgDir,
    gaps: &GapSweep,
    info: &AlgoInfo,
    baseline: Baseline,
    w: &Worst,
) -> Result<String> {
    let req = gaps.sweep.request(w.k, w.run)?;
    let stem = gaps.sweep.shape.to_string().replace(':', "-");
    let heuristic = Schedule::Optimal.apply(info.route(&req)?, req.shape());
    let optimum = match baseline {
        Baseline::Omp => exact::omp(&req)?,
        _ => exact::omt(&req)?,
    };
    let name = baseline.name();
    Ok(format!(
        "\n**{}**, K = {}: `{}` ({} links) and the {} ({} links).\n\n{} {}\n",
        gaps.sweep.shape,
        w.k,
        info.name,
        heuristic.traffic(),
        name.to_uppercase(),
        optimum.traffic(),
        svg.draw(
            &format!("{stem}-{}.svg", info.name),
            info.name,
            &heuristic,
            &req
        )?,
        svg.draw(&format!("{stem}-{name}.svg",), name, &optimum, &req)?,
    ))
}

/// The seeds' experiments (seed 001 §4.2 and seed 000 Tables 1–6): source at the origin, the
/// papers' K ranges, RSA beside DIAG, DDS, VH and MIN, both port orders.
fn seeds_experiments(runs: u32, step: usize, seed: u64, quiet: bool) -> Result<String> {
    let mut out = format!(
        "Mean over every K (seed 001 Definition 4.1.1) with its 95% CI, {runs} runs per K, \
         K every {step}, source at the origin, seed {seed}. Times with each paper's port order and with the \
         optimal order. `rsa − x`: the paired difference on the same multicasts (below 0: RSA \
         is lower).\n\n\
         | topology | K | metric | {} | rsa − diag | rsa − dds |\n|---|---|---|{}---|---|\n",
        SEED_ALGORITHMS.join(" | "),
        "---|".repeat(SEED_ALGORITHMS.len())
    );
    for (topology, ks) in seed_experiments(step) {
        let range = format!("{}…{}", ks[0], ks[ks.len() - 1]);
        for schedule in [Schedule::Paper, Schedule::Optimal] {
            let s = seed_sweep(topology, ks.clone(), runs, seed, schedule)?;
            progress(
                quiet,
                format_args!(
                    "optimality: {topology}, {} order, {runs} runs per K",
                    schedule.name()
                ),
            );
            let tally = s.run(Shard::WHOLE, &|_| {})?;
            let metrics: &[Metric] = match schedule {
                Schedule::Paper => &[Metric::Traffic, Metric::OnePortTime],
                Schedule::Optimal | Schedule::WrapLast => &[Metric::OnePortTime],
            };
            let algos = tally.overall();
            for &metric in metrics {
                let m = metric as usize;
                let means: Vec<String> = algos.iter().map(|t| with_ci(&t[m].summary())).collect();
                // Pairs (a, b), a < b in sweep order: RSA is first, so (rsa, diag) and (rsa, dds)
                // are pairs 0 and 1.
                let pair = |i: usize| {
                    let mut t = Tally::default();
                    for p in &tally.points {
                        t.merge(&p.pairs[i][m]);
                    }
                    with_ci(&t.summary())
                };
                let label = match (metric, schedule) {
                    (Metric::Traffic, _) => "traffic".to_string(),
                    (_, s) => format!("one-port time, {} order", s.name()),
                };
                let _ = writeln!(
                    out,
                    "| {topology} | {range} | {label} | {} | {} | {} |",
                    means.join(" | "),
                    pair(0),
                    pair(1)
                );
            }
        }
    }
    Ok(out)
}
