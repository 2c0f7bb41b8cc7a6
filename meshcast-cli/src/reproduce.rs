//! `meshcast reproduce`: the seeds' published figures against ours, as Markdown.
//!
//! Nine sections, each computed live from validated plans or simulations:
//! * `worked`: every worked example of seeds 000 and 001 (`meshcast::experiment::worked`);
//! * `malani`: seed 000 Tables 1–6 — 20×20 mesh and torus, K = 20…380, 100 runs per point;
//! * `wang`: every §4.2 mean of seed 001 — 1000 runs per point, 10 destinations apart;
//! * `wang-paths`: seed 001 §4.3 — XY-path against Lin under the wormhole model (L = 20 flits,
//!   all-port, no start-up), 1000 runs per point;
//! * `seed002`: seed 002 Figure 5 node by node, and its step bound against our `multiport` with
//!   d = 1…4 ports on the 16×16 mesh, 1000 runs per point ([`seed002`]);
//! * `seed003`: seed 003 Figs. 6–7, average additional traffic of DP, MP, CP and QG on the 8×8×8
//!   and 10×10×10 meshes, 1000 runs per point ([`seed003`]);
//! * `flit-seed003-table1`, `flit-seed003-figures`, `flit-seed002-figures`: the flit-level
//!   simulations of seed 003 Table 1 and Figs. 8–9 and seed 002 Figs. 6–8 ([`flit`]; 2–3
//!   minutes of the full run on two cores, so `--only` can leave them out).
//!
//! The library holds the published numbers only. With `--write FILE` each section replaces the
//! text between `<!-- meshcast reproduce: NAME -->` and `<!-- end -->` in FILE, so
//! docs/REPRODUCTION.md keeps its hand-written analysis around live tables.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use meshcast::algo;
use meshcast::eval::{Ports, Wormhole};
use meshcast::experiment::published::{
    MalaniRow, MalaniTable, WangMean, MALANI_TABLES, WANG_MEANS, WANG_PATH_LENGTH, WANG_PATH_MEANS,
};
use meshcast::experiment::stats::Summary;
use meshcast::experiment::sweep::{Metric, Placement, Shard, Sweep, SweepTally};
use meshcast::experiment::worked::{Outcome, WORKED_EXAMPLES};
use meshcast::schedule::Schedule;

mod flit;
mod seed002;
mod seed003;

use crate::args::ReproduceArgs;
use crate::output;

/// Runs per point in `--quick` mode: enough to exercise every experiment, far too few to compare.
const QUICK_RUNS: u32 = 3;

/// `meshcast reproduce`.
pub fn run(args: &ReproduceArgs) -> Result<String> {
    let (malani_runs, runs) = if args.quick {
        (QUICK_RUNS, QUICK_RUNS)
    } else {
        (100, 1000)
    };
    let names = selected(args.only.as_deref())?;
    if let Some(path) = &args.write {
        // A file that cannot take the tables is refused before minutes of running, not after.
        let empty: Vec<(&str, String)> = names.iter().map(|&n| (n, String::new())).collect();
        replace_sections(path, &empty)?;
    }
    let (quick, seed) = (args.quick, args.seed);
    let sections = names
        .into_iter()
        .map(|name| {
            let text = match name {
                "worked" => worked_examples()?,
                "malani" => malani(malani_runs, seed)?,
                "wang" => wang(runs, seed)?,
                "wang-paths" => wang_paths(runs, seed)?,
                "seed002" => seed002::section(runs, seed)?,
                "seed003" => seed003::section(runs, seed)?,
                "flit-seed003-table1" => flit::seed003_table1_section(quick, seed)?,
                "flit-seed003-figures" => flit::seed003_figures_section(quick, seed)?,
                "flit-seed002-figures" => flit::seed002_figures_section(quick, seed)?,
                _ => unreachable!("selected() returns names of SECTIONS only"),
            };
            Ok((name, text))
        })
        .collect::<Result<Vec<_>>>()?;
    deliver(args.write.as_deref(), &sections)
}

/// The sections `--only` names (comma-separated), in [`SECTIONS`] order; all without it.
fn selected(only: Option<&str>) -> Result<Vec<&'static str>> {
    let Some(list) = only else {
        return Ok(SECTIONS.to_vec());
    };
    let asked: Vec<&str> = list.split(',').map(str::trim).collect();
    if let Some(bad) = asked.iter().find(|a| !SECTIONS.contains(a)) {
        bail!(
            "--only '{list}': no section '{bad}'; sections are {}",
            SECTIONS.join(", ")
        );
    }
    Ok(SECTIONS.into_iter().filter(|s| asked.contains(s)).collect())
}

/// With a file: `sections` written into its marked blocks, atomically, and a line saying so.
/// Without: the sections themselves, one after the other.
pub(crate) fn deliver(write: Option<&Path>, sections: &[(&str, String)]) -> Result<String> {
    match write {
        Some(path) => {
            let doc = replace_sections(path, sections)?;
            output::write_atomically(path, doc.as_bytes())
                .with_context(|| format!("cannot write '{}'", path.display()))?;
            Ok(format!(
                "updated {} sections of {}\n",
                sections.len(),
                path.display()
            ))
        }
        None => Ok(sections
            .iter()
            .map(|(_, text)| text.as_str())
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// The marker names of the sections, in the order they are computed.
pub(crate) const SECTIONS: [&str; 9] = [
    "worked",
    "malani",
    "wang",
    "wang-paths",
    "seed002",
    "seed003",
    "flit-seed003-table1",
    "flit-seed003-figures",
    "flit-seed002-figures",
];

/// The header of the worked-example table.
const HEADER: &str = "\
| example | topology | algorithm | published traffic / time | ours: traffic / time (paper order) | ours: time (optimal order) | agrees |
|---|---|---|---|---|---|---|
";

/// Every worked example as one Markdown table.
pub fn worked_examples() -> Result<String> {
    let mut out = String::from(HEADER);
    for w in WORKED_EXAMPLES {
        out.push_str(&row(&w.run()?));
        out.push('\n');
    }
    Ok(out)
}

fn row(o: &Outcome) -> String {
    let w = o.example;
    let or_dash = |x: Option<u32>| x.map_or("–".to_string(), |v| v.to_string());
    let agrees = match (o.matches(), w.note) {
        (true, "") => "yes".to_string(),
        (true, note) => format!("yes; {note}"),
        (false, note) => format!("no: {note}"),
    };
    format!(
        "| {} | {} | {} | {} / {} | {} / {} | {} | {} |",
        w.figure,
        w.topology,
        w.algorithm,
        or_dash(w.traffic),
        or_dash(w.time),
        o.paper_schedule.traffic,
        o.paper_schedule.one_port_time,
        o.optimal_schedule.one_port_time,
        agrees
    )
}

/// A sweep with the source at the origin, as in both theses, in the papers' port order.
fn sweep(topology: &str, algos: &[&str], ks: Vec<usize>, runs: u32, seed: u64) -> Result<Sweep> {
    let algorithms = algos
        .iter()
        .map(|a| algo::find(a))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Sweep {
        shape: topology.parse()?,
        placement: Placement::Origin,
        algorithms,
        ks,
        runs,
        seed,
        schedule: Schedule::Paper,
        wormhole: None,
        params: Default::default(),
    })
}

/// The tallies of `s` in the papers' port order and in the optimal one (same samples: only the
/// times differ).
fn run_both_orders(s: &Sweep, label: &str) -> Result<(SweepTally, SweepTally)> {
    let paper = run_sweep(s, label)?;
    let optimal = Sweep {
        schedule: Schedule::Optimal,
        ..s.clone()
    };
    Ok((paper, run_sweep(&optimal, label)?))
}

fn run_sweep(s: &Sweep, label: &str) -> Result<SweepTally> {
    eprintln!(
        "reproduce: {label}: {} on {}, {} destination counts × {} runs",
        s.algorithms
            .iter()
            .map(|a| a.name)
            .collect::<Vec<_>>()
            .join(", "),
        s.shape,
        s.ks.len(),
        s.runs
    );
    Ok(s.run(Shard::WHOLE, &|_| {})?)
}

/// Malani's column order: DIAG, PAIR, MIN (`pair-min`); VH runs beside them as evidence.
const MALANI_ALGOS: [&str; 4] = ["diag", "pair", "pair-min", "vh"];

/// Seed 000 Tables 1–6, ours beside each published value.
fn malani(runs: u32, seed: u64) -> Result<String> {
    let mut out = format!(
        "Ours: mean (95% CI) over {runs} runs per point, source at the origin, seed {seed}, \
         X-first port order (the thesis states none); `×` is published / ours; `*` marks a \
         published mean outside our CI. VH is not in the thesis's tables: it runs beside DIAG as \
         evidence (see the analysis).\n\n"
    );
    for topology in ["mesh:20x20", "torus:20x20"] {
        let tables: Vec<&MalaniTable> = MALANI_TABLES
            .iter()
            .filter(|t| t.topology == topology)
            .collect();
        let ks = tables[0].rows.iter().map(|r| r.k).collect();
        let s = sweep(topology, &MALANI_ALGOS, ks, runs, seed)?;
        let (paper, optimal) = run_both_orders(&s, "seed 000 Tables")?;
        for &t in &tables {
            malani_table(&mut out, t, &paper);
        }
        malani_orders(&mut out, tables[0], &paper, &optimal);
    }
    Ok(out)
}

/// A column of Malani's tables: its name and how to read it from a row.
type MalaniColumn = (&'static str, fn(&MalaniRow) -> f64);

/// The time means of a table under both port orders: which order the thesis's times come from.
fn malani_orders(out: &mut String, t: &MalaniTable, paper: &SweepTally, optimal: &SweepTally) {
    let _ = writeln!(
        out,
        "**Table {} means by port order ({})**\n\n\
         | algorithm | published | ours, X-first order | × | ours, optimal order | × |\n\
         |---|---|---|---|---|---|",
        t.number, t.topology
    );
    let columns: [MalaniColumn; 3] = [
        ("DIAG", |r| r.diag),
        ("PAIR", |r| r.pair.0),
        ("MIN (pair-min)", |r| r.min.0),
    ];
    let (paper, optimal) = (paper.overall(), optimal.overall());
    for (a, (name, column)) in columns.iter().enumerate() {
        let published = t.rows.iter().map(column).sum::<f64>() / t.rows.len() as f64;
        let p = paper[a][t.metric as usize].summary();
        let o = optimal[a][t.metric as usize].summary();
        let _ = writeln!(
            out,
            "| {name} | {published:.2} | {} | {} | {} | {} |",
            with_ci(&p),
            ratio(published, &p),
            with_ci(&o),
            ratio(published, &o)
        );
    }
    out.push('\n');
}

fn malani_table(out: &mut String, t: &MalaniTable, tally: &SweepTally) {
    let unit = t.metric.unit();
    let _ = writeln!(
        out,
        "**Table {}: {} ({unit}), {}**\n\n\
         | K | DIAG published | DIAG ours | × | PAIR published | PAIR ours | × | MIN published | MIN ours (pair-min) | × | VH ours |\n\
         |---|---|---|---|---|---|---|---|---|---|---|",
        t.number,
        t.metric.name().replace('_', " "),
        t.topology
    );
    for (row, point) in t.rows.iter().zip(&tally.points) {
        let ours = |a: usize| point.algorithms[a][t.metric as usize].summary();
        let _ = writeln!(
            out,
            "| {} | {:.2} | {} | {} | {:.2} ({:.2}–{:.2}) | {} | {} | {:.2} ({:.2}–{:.2}) | {} | {} | {} |",
            row.k,
            row.diag,
            with_ci(&ours(0)),
            ratio(row.diag, &ours(0)),
            row.pair.0,
            row.pair.1,
            row.pair.2,
            with_ci(&ours(1)),
            ratio(row.pair.0, &ours(1)),
            row.min.0,
            row.min.1,
            row.min.2,
            with_ci(&ours(2)),
            ratio(row.min.0, &ours(2)),
            with_ci(&ours(3)),
        );
    }
    let overall = tally.overall();
    let mean = |f: fn(&MalaniRow) -> f64| t.rows.iter().map(f).sum::<f64>() / t.rows.len() as f64;
    let ours = |a: usize| overall[a][t.metric as usize].summary();
    let _ = writeln!(
        out,
        "| mean | {:.2} | {} | {} | {:.2} | {} | {} | {:.2} | {} | {} | {} |\n",
        mean(|r| r.diag),
        with_ci(&ours(0)),
        ratio(mean(|r| r.diag), &ours(0)),
        mean(|r| r.pair.0),
        with_ci(&ours(1)),
        ratio(mean(|r| r.pair.0), &ours(1)),
        mean(|r| r.min.0),
        with_ci(&ours(2)),
        ratio(mean(|r| r.min.0), &ours(2)),
        with_ci(&ours(3)),
    );
}

/// Seed 001 §4.2's means: one sweep per topology and K range, every algorithm of its figures.
fn wang(runs: u32, seed: u64) -> Result<String> {
    let mut out = format!(
        "Ours: the mean of Definition 4.1.1 (every sample of every K) with its 95% CI, {runs} runs \
         per point, source at the origin, seed {seed}, the paper's port orders. `×` is published / \
         ours; `*` marks a published mean outside our CI.\n\n\
         For times, the last two columns give ours with the optimal port order (the least \
         one-port time of the same trees).\n\n\
         | figure | topology | K | algorithm | metric | published | ours (95% CI) | × | ours, optimal order | × |\n\
         |---|---|---|---|---|---|---|---|---|---|\n"
    );
    let mut groups: Vec<(&str, (usize, usize))> = Vec::new();
    for m in WANG_MEANS {
        if !groups.contains(&(m.topology, m.k_range)) {
            groups.push((m.topology, m.k_range));
        }
    }
    for (topology, (first, last)) in groups {
        let means: Vec<&WangMean> = WANG_MEANS
            .iter()
            .filter(|m| m.topology == topology && m.k_range == (first, last))
            .collect();
        let mut algos: Vec<&str> = Vec::new();
        for m in &means {
            if !algos.contains(&m.algorithm) {
                algos.push(m.algorithm);
            }
        }
        let ks = (first..=last).step_by(10).collect();
        let s = sweep(topology, &algos, ks, runs, seed)?;
        let (paper, optimal) = run_both_orders(&s, "seed 001 §4.2")?;
        let (paper, optimal) = (paper.overall(), optimal.overall());
        for m in means {
            let a = algos
                .iter()
                .position(|&x| x == m.algorithm)
                .expect("listed");
            let ours = paper[a][m.metric as usize].summary();
            let best = match m.metric {
                Metric::OnePortTime => {
                    let o = optimal[a][m.metric as usize].summary();
                    format!("{} | {}", with_ci(&o), ratio(m.mean, &o))
                }
                _ => "– | –".to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {first}…{last} | {} | {} | {:.2} | {} | {} | {best} |",
                m.figure,
                m.topology,
                m.algorithm,
                m.metric.name().replace('_', " "),
                m.mean,
                with_ci(&ours),
                ratio(m.mean, &ours),
            );
        }
    }
    Ok(out)
}

/// Seed 001 §4.3: XY-path against Lin on the 20×20 mesh, each mean and each comparison the prose
/// states.
fn wang_paths(runs: u32, seed: u64) -> Result<String> {
    let algos = ["xy-path", "lin"];
    let (first, last) = WANG_PATH_MEANS[0].k_range;
    let ks = (first..=last).step_by(10).collect();
    let s = Sweep {
        wormhole: Some(Wormhole {
            startup: 0,
            length: WANG_PATH_LENGTH,
            ports: Ports::All,
        }),
        ..sweep(WANG_PATH_MEANS[0].topology, &algos, ks, runs, seed)?
    };
    let tally = run_sweep(&s, "seed 001 §4.3")?;
    let overall = tally.overall();
    let mut out = format!(
        "Ours: the mean of Definition 4.1.1 with its 95% CI, {runs} runs per point, K = \
         {first}…{last} in steps of 10, source at the origin, seed {seed}; wormhole model of \
         §4.3.1: L = {WANG_PATH_LENGTH} flits, all-port, no start-up, so time is eq. 4.3.1, the \
         longest worm path + L (cycles). `×` is published / ours; `*` marks a published mean \
         outside our CI.\n\n\
         | figure | topology | K | algorithm | metric | published | ours (95% CI) | × |\n\
         |---|---|---|---|---|---|---|---|\n"
    );
    for m in WANG_PATH_MEANS {
        let a = algos
            .iter()
            .position(|&x| x == m.algorithm)
            .expect("listed");
        let ours = overall[a][m.metric as usize].summary();
        let _ = writeln!(
            out,
            "| {} | {} | {first}…{last} | {} | {} | {:.2} | {} | {} |",
            m.figure,
            m.topology,
            m.algorithm,
            metric_name(m.metric),
            m.mean,
            with_ci(&ours),
            ratio(m.mean, &ours),
        );
    }
    out += &path_claims(&tally);
    Ok(out)
}

/// §4.3.2's comparisons: how much less XY-path's time, traffic and AAT are than Lin's, published
/// and ours, with our paired difference over the same multicasts.
fn path_claims(tally: &SweepTally) -> String {
    let mut out = String::from(
        "\n| XY-path below Lin | published | ours | ours: xy-path − lin, paired (95% CI) |\n\
         |---|---|---|---|\n",
    );
    let overall = tally.overall();
    let mut pairs = tally.points[0].pairs[0];
    for p in &tally.points[1..] {
        pairs
            .iter_mut()
            .zip(&p.pairs[0])
            .for_each(|(x, y)| x.merge(y));
    }
    for metric in [
        Metric::WormholeLatency,
        Metric::Traffic,
        Metric::AdditionalTraffic,
    ] {
        let published = |algorithm| {
            let m = WANG_PATH_MEANS
                .iter()
                .find(|m| m.algorithm == algorithm && m.metric == metric);
            m.expect("every metric of both algorithms is published")
                .mean
        };
        let below = |xy: f64, lin: f64| format!("{:.1}%", 100.0 * (1.0 - xy / lin));
        let ours = |a: usize| overall[a][metric as usize].summary().mean;
        let _ = writeln!(
            out,
            "| {} | {} ({:.2} vs {:.2}) | {} | {} |",
            metric_name(metric),
            below(published("xy-path"), published("lin")),
            published("xy-path"),
            published("lin"),
            below(ours(0), ours(1)),
            signed_ci(&pairs[metric as usize].summary())
        );
    }
    out
}

/// How the tables of this page name a metric: `one port time`, `time (eq. 4.3.1)`, ….
fn metric_name(metric: Metric) -> String {
    match metric {
        Metric::WormholeLatency => "time (eq. 4.3.1)".to_string(),
        _ => metric.name().replace('_', " "),
    }
}

pub(crate) fn with_ci(s: &Summary) -> String {
    format!("{:.2} ({:.2}–{:.2})", s.mean, s.ci_low, s.ci_high)
}

/// A paired difference: `+3.20 [2.70, 3.70]`.
fn signed_ci(s: &Summary) -> String {
    format!("{:+.2} [{:.2}, {:.2}]", s.mean, s.ci_low, s.ci_high)
}

/// `published / ours`, starred when the published value lies outside our CI.
fn ratio(published: f64, ours: &Summary) -> String {
    let outside = published < ours.ci_low || published > ours.ci_high;
    format!(
        "{:.3}{}",
        published / ours.mean,
        if outside { "*" } else { "" }
    )
}

/// The text of `path` with each section's marked block replaced; an error names a missing or
/// unclosed marker.
pub(crate) fn replace_sections(path: &Path, sections: &[(&str, String)]) -> Result<String> {
    let mut doc = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    for (name, text) in sections {
        let begin = format!("<!-- meshcast reproduce: {name} -->\n");
        let Some(start) = doc.find(&begin).map(|i| i + begin.len()) else {
            bail!("'{}' has no marker '{}'", path.display(), begin.trim());
        };
        let Some(len) = doc[start..].find("<!-- end -->") else {
            bail!(
                "'{}': marker '{}' is never closed by <!-- end -->",
                path.display(),
                begin.trim()
            );
        };
        doc.replace_range(start..start + len, text);
    }
    Ok(doc)
}
