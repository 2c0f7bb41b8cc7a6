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
use meshcast::experiment::seed000::{self, MalaniRow, MalaniTable};
use meshcast::experiment::seed001::{
    self, points, MeansSweep, WANG_MEANS, WANG_PATH_LENGTH, WANG_PATH_MEANS,
};
use meshcast::experiment::sweep::{orders, runs, Metric, Shard, Sweep, SweepTally, Tallies};
use meshcast::experiment::worked::{Outcome, WORKED_EXAMPLES};
use meshcast::schedule::Schedule;
use meshcast::stats::{Summary, Tally};

mod flit;
mod seed002;
mod seed003;

use crate::args::ReproduceArgs;
use crate::output;
use crate::progress::{progress_bar, Count};

/// `meshcast reproduce`.
pub fn run(args: &ReproduceArgs) -> Result<String> {
    let names = selected(args.only.as_deref())?;
    if let Some(path) = &args.write {
        // A file that cannot take the tables is refused before minutes of running, not after.
        let empty: Vec<(&str, String)> = names.iter().map(|&n| (n, String::new())).collect();
        replace_sections(path, &empty)?;
    }
    let (quick, seed, quiet) = (args.quick, args.seed, args.quiet);
    let sections = names
        .into_iter()
        .map(|name| {
            let text = match name {
                "worked" => worked_examples()?,
                "malani" => malani(runs(seed000::RUNS, quick), seed, quiet)?,
                "wang" => wang(runs(seed001::RUNS, quick), seed, quiet)?,
                "wang-paths" => wang_paths(runs(seed001::RUNS, quick), seed, quiet)?,
                "seed002" => seed002::section(quick, seed, quiet)?,
                "seed003" => seed003::section(quick, seed, quiet)?,
                "flit-seed003-table1" => flit::seed003_table1_section(quick, seed, quiet)?,
                "flit-seed003-figures" => flit::seed003_figures_section(quick, seed, quiet)?,
                "flit-seed002-figures" => flit::seed002_figures_section(quick, seed, quiet)?,
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

/// The tally of `s` in its own port order.
fn run_sweep(s: &Sweep, label: &str, quiet: bool) -> Result<SweepTally> {
    let mut tallies = run_schedules(s, &[s.schedule], label, quiet)?;
    Ok(tallies.swap_remove(0))
}

/// The tallies of `s` under each of `schedules`, in that order: the same samples, every
/// multicast routed once, only the times differ. One progress line per sweep, naming it, its
/// topology and its port orders (on a terminal and without `--quiet` only).
fn run_schedules(
    s: &Sweep,
    schedules: &[Schedule],
    label: &str,
    quiet: bool,
) -> Result<Vec<SweepTally>> {
    let orders: Vec<&str> = schedules.iter().map(|&o| o.name()).collect();
    let bar = progress_bar(s.units(), Count::Of("multicasts"), quiet);
    bar.set_prefix(format!(
        "{label}, {}, {} order: ",
        s.shape,
        orders.join("+")
    ));
    let tallies = s.run_schedules(Shard::WHOLE, schedules, &|n| bar.inc(n))?;
    bar.finish();
    Ok(tallies)
}

/// Seed 000 Tables 1–6, ours beside each published value.
fn malani(runs: u32, seed: u64, quiet: bool) -> Result<String> {
    let mut out = format!(
        "Ours: mean (95% CI) over {runs} runs per point, source at the origin, seed {seed}, \
         X-first port order (the thesis states none); `×` is published / ours; `*` marks a \
         published mean outside our CI. VH is not in the thesis's tables: it runs beside DIAG as \
         evidence (see the analysis). The last columns are `diag-stem` (reading 3 of issue 17: \
         each destination joins the closest stem node), `×` against the published DIAG.\n\n"
    );
    for topology in seed000::topologies() {
        let tables = seed000::tables(topology);
        let s = seed000::sweep(topology, runs, seed)?;
        let schedules = orders(topology);
        let tallies = run_schedules(&s, schedules, "seed 000 Tables", quiet)?;
        for &t in &tables {
            malani_table(&mut out, t, &tallies[0]);
        }
        malani_orders(&mut out, tables[0], schedules, &tallies);
    }
    Ok(out)
}

/// A row of the port-order table: its name, how to read the published mean from a table row,
/// and the algorithm's place in [`seed000::ALGORITHMS`].
type MalaniColumn = (&'static str, fn(&MalaniRow) -> f64, usize);

/// The time means of a table under each port order: which order the thesis's times come from.
fn malani_orders(
    out: &mut String,
    t: &MalaniTable,
    schedules: &[Schedule],
    tallies: &[SweepTally],
) {
    let heads: String = schedules
        .iter()
        .map(|&o| match o {
            Schedule::Paper => " ours, X-first order | × |".to_string(),
            _ => format!(" ours, {} order | × |", o.name()),
        })
        .collect();
    let _ = writeln!(
        out,
        "**Table {} means by port order ({})**\n\n\
         | algorithm | published |{heads}\n\
         |---|---|{}",
        t.number,
        t.topology,
        "---|---|".repeat(schedules.len())
    );
    let columns: [MalaniColumn; 4] = [
        ("DIAG", |r| r.diag, 0),
        ("PAIR", |r| r.pair.0, 1),
        ("MIN (pair-min)", |r| r.min.0, 2),
        ("DIAG as diag-stem", |r| r.diag, 4),
    ];
    let overall: Vec<Vec<Tallies>> = tallies.iter().map(SweepTally::overall).collect();
    for (name, column, a) in columns {
        let published = t.rows.iter().map(column).sum::<f64>() / t.rows.len() as f64;
        let cells: String = overall
            .iter()
            .map(|o| {
                let ours = o[a][t.metric as usize].summary();
                format!(" {} | {} |", with_ci(&ours), ratio(published, &ours))
            })
            .collect();
        let _ = writeln!(out, "| {name} | {published:.2} |{cells}");
    }
    out.push('\n');
}

fn malani_table(out: &mut String, t: &MalaniTable, tally: &SweepTally) {
    let unit = t.metric.unit();
    let _ = writeln!(
        out,
        "**Table {}: {} ({unit}), {}**\n\n\
         | K | DIAG published | DIAG ours | × | PAIR published | PAIR ours | × | MIN published | MIN ours (pair-min) | × | VH ours | DIAG ours, diag-stem | × |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|",
        t.number,
        t.metric.name().replace('_', " "),
        t.topology
    );
    for (row, point) in t.rows.iter().zip(&tally.points) {
        let ours = |a: usize| point.algorithms[a][t.metric as usize].summary();
        let _ = writeln!(
            out,
            "| {} | {:.2} | {} | {} | {:.2} ({:.2}–{:.2}) | {} | {} | {:.2} ({:.2}–{:.2}) | {} | {} | {} | {} | {} |",
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
            with_ci(&ours(4)),
            ratio(row.diag, &ours(4)),
        );
    }
    let overall = tally.overall();
    let mean = |f: fn(&MalaniRow) -> f64| t.rows.iter().map(f).sum::<f64>() / t.rows.len() as f64;
    let ours = |a: usize| overall[a][t.metric as usize].summary();
    let _ = writeln!(
        out,
        "| mean | {:.2} | {} | {} | {:.2} | {} | {} | {:.2} | {} | {} | {} | {} | {} |\n",
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
        with_ci(&ours(4)),
        ratio(mean(|r| r.diag), &ours(4)),
    );
}

/// Seed 001 §4.2's means: one sweep per topology ([`seed001::means_sweeps`]), each mean taken
/// over the points of its own K range.
fn wang(runs: u32, seed: u64, quiet: bool) -> Result<String> {
    let mut out = format!(
        "Ours: the mean of Definition 4.1.1 (every sample of every K) with its 95% CI, {runs} runs \
         per point, source at the origin, seed {seed}, the paper's port orders. `×` is published / \
         ours; `*` marks a published mean outside our CI.\n\n\
         For times, the last two columns give ours with the optimal port order (the least \
         one-port time of the same trees).\n\n\
         Readings of issue 17 beside ours: **reading 1** averages the means published for \
         10…370 over K = 0…380 (39 points, K = 0 an empty multicast of traffic and time 0; \
         the others keep their range); **reading 2** times the torus trees with wraparound \
         links sent last instead of first.\n\n\
         | figure | topology | K | algorithm | metric | published | ours (95% CI) | × | ours, optimal order | × | reading 1: K = 0…380 | × | reading 2: wrap-last order | × |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let mut swept: Vec<Swept> = Vec::new();
    for MeansSweep {
        topology,
        algorithms: algos,
        sweep: s,
    } in seed001::means_sweeps(runs, seed)?
    {
        let schedules = orders(topology);
        let tallies = run_schedules(&s, schedules, "seed 001 §4.2", quiet)?;
        swept.push(Swept {
            topology,
            algos,
            schedules,
            tallies,
        });
    }
    for m in seed001::means_rows() {
        let Swept {
            algos,
            schedules,
            tallies,
            ..
        } = swept
            .iter()
            .find(|s| s.topology == m.topology)
            .expect("every topology is swept");
        let a = algos
            .iter()
            .position(|&x| x == m.algorithm)
            .expect("listed");
        let metric = m.metric as usize;
        let (first, last) = m.k_range;
        let mean_in = |schedule: Schedule, (first, last): (usize, usize)| {
            let at = schedules.iter().position(|&o| o == schedule)?;
            Some(tallies[at].overall_within(first..=last)[a][metric])
        };
        let cells = |tally: Option<Tally>| {
            tally.map_or("– | –".to_string(), |t| {
                let t = t.summary();
                format!("{} | {}", with_ci(&t), ratio(m.mean, &t))
            })
        };
        let time = |schedule| {
            let tally = mean_in(schedule, m.k_range).filter(|_| m.metric == Metric::OnePortTime);
            cells(tally)
        };
        let reading_1 = match m.empty_first_point() {
            Some(e) => cells(
                mean_in(Schedule::Paper, e.k_range)
                    .map(|t| t.with_zeros(u64::from(runs) * e.empty_points as u64)),
            ),
            None => "as ours | –".to_string(),
        };
        let ours = mean_in(Schedule::Paper, m.k_range)
            .expect("the paper's order")
            .summary();
        let _ = writeln!(
            out,
            "| {} | {} | {first}…{last} | {} | {} | {:.2} | {} | {} | {} | {reading_1} | {} |",
            m.figure,
            m.topology,
            m.algorithm,
            m.metric.name().replace('_', " "),
            m.mean,
            with_ci(&ours),
            ratio(m.mean, &ours),
            time(Schedule::Optimal),
            time(Schedule::WrapLast),
        );
    }
    out += &empty_point_ratios();
    Ok(out)
}

/// One topology's sweep of seed 001 §4.2: its algorithms, the port orders measured and one tally
/// per order.
struct Swept {
    topology: &'static str,
    algos: Vec<&'static str>,
    schedules: &'static [Schedule],
    tallies: Vec<SweepTally>,
}

/// Reading 1's check on the published numbers alone: the two DIAG mesh experiments, one over
/// 10…380 and one over what the reading makes 0…380, should differ by 38/39.
fn empty_point_ratios() -> String {
    let mut out = String::from(
        "\nReading 1 on the published numbers: the same algorithm and metric over 10…380 and \
         over 0…380 (K = 0 empty) differ by the factor 38/39.\n\n\
         | mean | published: 10…370 figure / 10…380 figure | 38/39 | published / (38/39) |\n\
         |---|---|---|---|\n",
    );
    let pairs = WANG_MEANS.iter().filter_map(|with_empty| {
        let e = with_empty.empty_first_point()?;
        let full = WANG_MEANS.iter().find(|m| {
            (m.topology, m.algorithm, m.metric, m.k_range)
                == (
                    with_empty.topology,
                    with_empty.algorithm,
                    with_empty.metric,
                    e.k_range,
                )
        })?;
        Some((with_empty, full, e))
    });
    for (with_empty, full, e) in pairs {
        let published = with_empty.mean / full.mean;
        let factor = points(e.k_range) as f64 / e.points() as f64;
        let _ = writeln!(
            out,
            "| {} {} on {} (Fig. {} / Fig. {}) | {:.2} / {:.2} = {published:.4} | {factor:.4} | {:.4} |",
            with_empty.algorithm,
            metric_name(with_empty.metric),
            with_empty.topology,
            with_empty.figure,
            full.figure,
            with_empty.mean,
            full.mean,
            published / factor
        );
    }
    out
}

/// Seed 001 §4.3: XY-path against Lin on the 20×20 mesh, each mean and each comparison the prose
/// states.
fn wang_paths(runs: u32, seed: u64, quiet: bool) -> Result<String> {
    let algos = seed001::PATH_ALGORITHMS;
    let (first, last) = WANG_PATH_MEANS[0].k_range;
    let s = seed001::paths_sweep(runs, seed)?;
    let tally = run_sweep(&s, "seed 001 §4.3", quiet)?;
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
