//! `meshcast optimality`: how far every tree and path algorithm is from the exact optimum, as the
//! tables of docs/OPTIMALITY.md, and RSA against DIAG and DDS on the seeds' own experiments.
//!
//! Sections (markers `<!-- meshcast reproduce: optimality-NAME -->`, as `meshcast reproduce`):
//! * `optimality-trees`: every tree algorithm against the OMT and the MST;
//! * `optimality-paths`: every path algorithm against the OMP and the MST;
//! * `optimality-k`: DIAG, DDS and RSA against the OMT per K;
//! * `optimality-worst`: the worst instances, drawn as SVG (with `--svg-dir`);
//! * `optimality-seeds`: RSA, DIAG, DDS, VH and MIN on the seeds' 20×20 and 10×10×10 experiments.
//!
//! The small shapes are 6×6, 8×8 and 4×4×4 meshes and tori, K = 2…16, the source at a random
//! node, every algorithm on the same multicasts (`meshcast::experiment::gap`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use meshcast::algo::{self, AlgoInfo, Family, Request, REGISTRY};
use meshcast::eval::{Port, Wormhole};
use meshcast::exact;
use meshcast::experiment::gap::{Baseline, GapPoint, GapSweep, Worst};
use meshcast::experiment::stats::Tally;
use meshcast::experiment::sweep::{Metric, Placement, Shard, Sweep};
use meshcast::plan::Plan;
use meshcast::schedule::Schedule;

use crate::args::OptimalityArgs;
use crate::report::{schedule_name, RouteReport};
use crate::reproduce::{deliver, replace_sections, with_ci};
use crate::sweep::gaps::{self, overall, percent, worst_text};
use crate::{draw, output};

/// The small shapes every algorithm is measured on against the optima.
const SHAPES: [&str; 6] = [
    "mesh:6x6",
    "torus:6x6",
    "mesh:8x8",
    "torus:8x8",
    "mesh:4x4x4",
    "torus:4x4x4",
];

/// The marker names of the sections.
const SECTIONS: [&str; 5] = [
    "optimality-trees",
    "optimality-paths",
    "optimality-k",
    "optimality-worst",
    "optimality-seeds",
];

/// The three shortest-path trees compared per K and on the seeds' experiments.
const RIVALS: [&str; 3] = ["diag", "dds", "rsa"];

/// `meshcast optimality`.
pub fn run(args: &OptimalityArgs) -> Result<String> {
    let runs = args.runs.unwrap_or(if args.quick { 2 } else { 20 });
    let last_k = if args.quick { 8 } else { 16 };
    if let Some(path) = &args.write {
        replace_sections(path, &SECTIONS.map(|name| (name, String::new())))?;
    }
    if let Some(dir) = &args.svg_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--svg-dir: cannot create '{}'", dir.display()))?;
    }
    let mut measured = Vec::new();
    for topology in SHAPES {
        eprintln!("optimality: {topology}, K = 2…{last_k}, {runs} runs each");
        let gaps = gap_sweep(topology, last_k, runs, args.seed)?;
        let points = gaps::measure(&gaps, args.quiet)?;
        measured.push((gaps, points));
    }
    let svg = args
        .svg_dir
        .as_deref()
        .zip(args.write.as_deref())
        .map(|(dir, doc)| SvgDir::new(dir, doc));
    // --quick: every 9th K of the seeds' ranges, 3 runs — enough to run every line.
    let (seed_runs, seed_step) = if args.quick { (3, 90) } else { (100, 10) };
    let sections = [
        (
            SECTIONS[0],
            family_table(&measured, Family::Tree, [Baseline::Omt, Baseline::Mst]),
        ),
        (
            SECTIONS[1],
            family_table(&measured, Family::Path, [Baseline::Omp, Baseline::Mst]),
        ),
        (SECTIONS[2], rivals_per_k(&measured)),
        (SECTIONS[3], worst_instances(&measured, svg.as_ref())?),
        (
            SECTIONS[4],
            seeds_experiments(seed_runs, seed_step, args.seed)?,
        ),
    ];
    deliver(args.write.as_deref(), &sections)
}

/// Every tree and path algorithm that supports `topology`, against OMT, MST and OMP.
fn gap_sweep(topology: &str, last_k: usize, runs: u32, seed: u64) -> Result<GapSweep> {
    let shape: meshcast::topology::Shape = topology.parse()?;
    let algorithms: Vec<&'static AlgoInfo> = REGISTRY
        .iter()
        .filter(|a| a.family != Family::Unicast && a.support.covers(&shape))
        .collect();
    Ok(GapSweep {
        sweep: Sweep {
            shape,
            placement: Placement::Random,
            algorithms,
            ks: (2..=last_k).collect(),
            runs,
            seed,
            schedule: Schedule::Optimal,
            wormhole: None,
        },
        baselines: vec![Baseline::Omt, Baseline::Mst, Baseline::Omp],
    })
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
    family: Family,
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
            gaps::describe(baseline),
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
fn rivals_per_k(measured: &[(GapSweep, Vec<GapPoint>)]) -> String {
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
    out
}

fn algo_index(sweep: &Sweep, name: &str) -> usize {
    sweep
        .algorithms
        .iter()
        .position(|a| a.name == name)
        .expect("the rivals run on every shape")
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
        let report = RouteReport::of_plan(label, plan, req.shape(), Schedule::Optimal, WORMHOLE);
        let svg = draw::render(req.shape(), &report).to_string();
        let path = self.dir.join(name);
        output::write_atomically(&path, svg.as_bytes())
            .with_context(|| format!("cannot write the SVG file '{}'", path.display()))?;
        Ok(format!("![{label}]({}/{name})", self.link))
    }
}

/// The wormhole model drawings are labelled with (seed 001 §4.3): only worms show it.
const WORMHOLE: Wormhole = Wormhole {
    startup: 0,
    length: 20,
    port: Port::All,
};

/// Per shape: the worst multicast of the worst tree algorithm against the OMT and of the worst
/// path algorithm against the OMP, the instance written out, both plans drawn.
fn worst_instances(measured: &[(GapSweep, Vec<GapPoint>)], svg: Option<&SvgDir>) -> Result<String> {
    let mut out = String::from(
        "The multicast with the highest excess relative to its optimum, per topology, among all \
         tree algorithms (against the OMT) and all path algorithms (against the OMP); ties go to \
         the larger excess, then the first multicast drawn. Rebuild one with \
         `meshcast route --topology T --algo A --source … --dests …`.\n\n\
         | topology | algorithm | against | worst | multicast |\n|---|---|---|---|---|\n",
    );
    let mut images = String::new();
    for (gaps, points) in measured {
        for (family, baseline) in [(Family::Tree, Baseline::Omt), (Family::Path, Baseline::Omp)] {
            let b = baseline_index(gaps, baseline);
            let (_, tallies) = overall(points, b);
            let worst = gaps
                .sweep
                .algorithms
                .iter()
                .zip(&tallies)
                .filter(|(a, _)| a.family == family)
                .filter_map(|(a, t)| t.worst.map(|w| (*a, w)))
                .reduce(|x, y| if y.1.worse_than(&x.1) { y } else { x });
            let Some((info, w)) = worst else { continue };
            let flags = gaps::instance_flags(&gaps.sweep, &w)?;
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} (K = {}) | `{flags}` |",
                gaps.sweep.shape,
                info.name,
                baseline.name().to_uppercase(),
                worst_text(&w),
                w.k
            );
            if let Some(svg) = svg {
                images += &draw_pair(svg, gaps, info, baseline, &w)?;
            }
        }
    }
    Ok(out + &images)
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
fn seeds_experiments(runs: u32, step: usize, seed: u64) -> Result<String> {
    const ALGOS: [&str; 5] = ["rsa", "diag", "dds", "vh", "min"];
    let experiments: [(&str, Vec<usize>); 3] = [
        ("mesh:20x20", (10..=380).step_by(step).collect()),
        ("torus:20x20", (10..=370).step_by(step).collect()),
        ("mesh:10x10x10", (10..=990).step_by(step).collect()),
    ];
    let mut out = format!(
        "Mean over every K (seed 001 Definition 4.1.1) with its 95% CI, {runs} runs per K, \
         K every {step}, source at the origin, seed {seed}. Times with each paper's port order and with the \
         optimal order. `rsa − x`: the paired difference on the same multicasts (below 0: RSA \
         is lower).\n\n\
         | topology | K | metric | {} | rsa − diag | rsa − dds |\n|---|---|---|{}---|---|\n",
        ALGOS.join(" | "),
        "---|".repeat(ALGOS.len())
    );
    for (topology, ks) in experiments {
        let algorithms = ALGOS
            .iter()
            .map(|a| algo::find(a))
            .collect::<Result<Vec<_>, _>>()?;
        let range = format!("{}…{}", ks[0], ks[ks.len() - 1]);
        for schedule in [Schedule::Paper, Schedule::Optimal] {
            let s = Sweep {
                shape: topology.parse()?,
                placement: Placement::Origin,
                algorithms: algorithms.clone(),
                ks: ks.clone(),
                runs,
                seed,
                schedule,
                wormhole: None,
            };
            eprintln!(
                "optimality: {topology}, {} order, {runs} runs per K",
                schedule_name(schedule)
            );
            let tally = s.run(Shard::WHOLE, &|_| {})?;
            let metrics: &[Metric] = match schedule {
                Schedule::Paper => &[Metric::Traffic, Metric::OnePortTime],
                Schedule::Optimal => &[Metric::OnePortTime],
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
                    (_, s) => format!("one-port time, {} order", schedule_name(s)),
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
