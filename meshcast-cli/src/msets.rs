//! `meshcast msets`: route mcast(n, d, c) message sets on the store-and-forward mesh simulator
//! of seed 004 and report steps, steps/√(cn), steps/√n, buffer peaks and link traffic per
//! algorithm, over a sweep of sides, congestions and degrees, with fitted growth exponents.
//! Thin: parse and check every setting and output path → `meshcast::experiment::seed004` → table,
//! CSV or JSON, with a progress bar on standard error.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use meshcast::experiment::seed004::{
    self, fit_exponent, measure, Algorithm, Instance, Options, Row,
};
use meshcast::sim::saf::deterministic::Deterministic;
use meshcast::sim::saf::permute::Permutation;
use meshcast::sim::saf::randomized::Randomized;
use meshcast::sim::saf::sort::Ranking;
use meshcast::sim::saf::Capacity;
use serde::Serialize;

use crate::output::{self, Format};
use crate::plot::{write_plot, Curve, Panel};
use crate::progress::{progress_bar, Count};
use crate::text::{table, Align};

/// Arguments of `meshcast msets`.
#[derive(Args, Debug)]
pub struct MsetsArgs {
    /// Mesh sides √n, comma-separated (e.g. 16,32,64).
    #[arg(long, default_value = "16,32", allow_hyphen_values = true)]
    pub sides: String,
    /// Congestions c, comma-separated.
    #[arg(long, default_value = "4", allow_hyphen_values = true)]
    pub c: String,
    /// Degrees d, comma-separated (default: d = c for each c). Random sets only.
    #[arg(long, allow_hyphen_values = true)]
    pub d: Option<String>,
    /// Algorithms, comma-separated: naive, theorem2, randomized, deterministic, guess-c
    /// (deterministic, seed 004 §5, is far slower to simulate and not in the default list).
    #[arg(long, default_value = "naive,theorem2,randomized,guess-c")]
    pub algos: String,
    /// Message sets: random mcast(n, d, c), Theorem 1's adversarial set, or the bisection set
    /// (d = c, --d ignored).
    #[arg(long, value_enum, default_value_t = InstanceArg::Random)]
    pub instance: InstanceArg,
    /// Seed of the random sets and of the randomized algorithm's groups (ChaCha8Rng).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// r of the randomized algorithm: t-migration instances per tile visit (the paper's proof
    /// takes r ≥ 150; more copies per block visit, so buffers of about r packets).
    #[arg(long, allow_negative_numbers = true, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub r: u32,
    /// r of the deterministic algorithm: replicas per packet (default: the paper's Θ(log n) as
    /// log₂ n, capped at c).
    #[arg(long, allow_negative_numbers = true, value_name = "R", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub replicas: Option<u32>,
    /// α of the deterministic algorithm: t-migration instances per substep (the paper: a
    /// constant above 1/λ).
    #[arg(long, allow_negative_numbers = true, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub alpha: u32,
    /// Permutation routing of the constant-buffer algorithms (randomized, deterministic):
    /// `sorted` sorts the packets by destination column (shearsort, real packet moves) before
    /// routing greedily, which bounds every queue by a constant as seed 004 needs; `greedy`
    /// routes greedily at once, faster but with queues that grow with the mesh on some inputs.
    #[arg(long, value_name = "sorted|greedy", default_value_t = Permutation::Sorted)]
    pub permutation: Permutation,
    /// Ranking by group or block in the constant-buffer algorithms: `sort` sorts the packets by
    /// key (shearsort) and ranks each key's run, as seed 004 says; `prefix` counts the keys by
    /// pipelined prefix sums instead (the same kind of ranks, fewer steps, no packet moves).
    #[arg(long, value_name = "sort|prefix", default_value_t = Ranking::Sort)]
    pub ranking: Ranking,
    /// K, the randomized algorithm's last phase (default: the paper's ⌊log₁₆⌈c log²n / n⌉⌋,
    /// which is 0 on every mesh up to 256×256; phase i uses c/16ⁱ tiles).
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=8))]
    pub phases: Option<u32>,
    /// Buffer bound in packets per node (default: unbounded, the peak is measured).
    #[arg(long, allow_negative_numbers = true, value_name = "PACKETS", value_parser = clap::value_parser!(u32).range(1..))]
    pub buffer: Option<u32>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write the results to FILE.csv (the rows) or FILE.json (what --json prints).
    #[arg(long, value_name = "FILE.csv|FILE.json")]
    pub out: Option<PathBuf>,
    /// Deprecated alias of --out FILE.csv: writes the rows as CSV whatever the extension.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub csv: Option<PathBuf>,
    /// Also plot steps and steps/√(cn) against √(cn), one curve per algorithm (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// No progress bar (it is also hidden when standard error is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

/// The message sets `--instance` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InstanceArg {
    /// Random sets with exact degree d and congestion c.
    Random,
    /// Theorem 1's lower-bound set: c|A| messages from B into the corner submesh A.
    Theorem1,
    /// The left half multicasts to clustered destinations in the right half (d = c; naive's
    /// worst case).
    Bisection,
}

#[derive(Serialize)]
struct RowOut {
    algorithm: &'static str,
    side: u32,
    n: u64,
    d: u32,
    c: u32,
    deliveries: u64,
    duplicates: u64,
    steps: u64,
    steps_per_sqrt_cn: f64,
    steps_per_sqrt_n: f64,
    max_buffer: u32,
    packet_hops: u64,
    word_hops: u64,
    copies: u64,
    lower_bound: Option<u64>,
}

/// A row of the JSON output: the CSV columns and the steps per phase (summed over repeats).
#[derive(Serialize)]
struct JsonRow {
    #[serde(flatten)]
    row: RowOut,
    phases: Vec<Phase>,
}

#[derive(Serialize)]
struct Phase {
    name: &'static str,
    steps: u64,
}

#[derive(Serialize)]
struct Fit {
    algorithm: &'static str,
    /// Exponent e of steps ∝ (√(cn))ᵉ over the sweep.
    vs_sqrt_cn: Option<f64>,
    /// Exponent e of steps ∝ nᵉ over the sweep.
    vs_n: Option<f64>,
}

#[derive(Serialize)]
struct Output {
    schema: &'static str,
    rows: Vec<JsonRow>,
    fits: Vec<Fit>,
}

/// Runs the sweep and formats it. Every setting and output path is checked before the first
/// set is routed.
pub fn run(args: &MsetsArgs) -> Result<String> {
    let sides = numbers("--sides", &args.sides)?;
    let cs = numbers("--c", &args.c)?;
    let ds = args.d.as_deref().map(|d| numbers("--d", d)).transpose()?;
    let algos = args
        .algos
        .split(',')
        .map(|a| Algorithm::parse(a.trim()).with_context(|| format!("--algos '{}'", args.algos)))
        .collect::<Result<Vec<_>>>()?;
    let options = options(args);
    let mut points = Vec::new();
    for &side in &sides {
        for &c in &cs {
            for instance in instances(args.instance, c, ds.as_deref()) {
                for &algo in &algos {
                    seed004::check(algo, instance, side, &options).with_context(|| {
                        format!(
                            "--algos {} with --sides {side}, {}",
                            algo.name(),
                            flags(instance)
                        )
                    })?;
                    points.push((side, instance, algo));
                }
            }
        }
    }
    let out = output_file(args)?;
    output::check_outputs(None, args.plot.as_deref())?;
    let total = points.iter().map(|&(side, i, _)| work(side, i)).sum();
    let bar = progress_bar(total, Count::Percent, args.quiet);
    if !args.quiet {
        // Points of a large mesh run for minutes between increments.
        bar.enable_steady_tick(Duration::from_millis(500));
    }
    let mut rows = Vec::new();
    for &(side, instance, algo) in &points {
        bar.set_message(format!(
            "{} {side}×{side} {}",
            algo.name(),
            describe(instance)
        ));
        let row = measure(algo, instance, side, args.seed, &options)
            .with_context(|| format!("{} on {side}×{side}, {}", algo.name(), describe(instance)))?;
        rows.push(row);
        bar.inc(work(side, instance));
    }
    bar.finish_and_clear();
    let fits = algos.iter().map(|&a| fit(a, &rows)).collect();
    let out_doc = Output {
        schema: "meshcast.msets/1",
        rows: rows.iter().map(json_row).collect(),
        fits,
    };
    let json = || -> Result<String> { Ok(serde_json::to_string_pretty(&out_doc)? + "\n") };
    if let Some((path, format)) = &out {
        let bytes = match format {
            Format::Csv => {
                let flat: Vec<&RowOut> = out_doc.rows.iter().map(|r| &r.row).collect();
                csv(&flat)?
            }
            Format::Json => json()?.into_bytes(),
        };
        output::write_atomically(path, &bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    if let Some(path) = &args.plot {
        plot(path, &algos, &rows)?;
    }
    if args.json {
        return json();
    }
    Ok(text(&out_doc))
}

/// The file `--out` (or the deprecated `--csv`) asks for and its format, its directory checked.
fn output_file(args: &MsetsArgs) -> Result<Option<(PathBuf, Format)>> {
    let out = match (&args.out, &args.csv) {
        (Some(path), _) => Some((path.clone(), Format::of(path)?)),
        (None, Some(path)) => Some((path.clone(), Format::Csv)),
        (None, None) => None,
    };
    if let Some((path, _)) = &out {
        output::check_directory(path)?;
    }
    Ok(out)
}

/// A point's weight on the progress bar: the packet hops of an optimal routing, c·n packets
/// over √(n/c)… distances, as n·√(cn) (only the ratios between points matter).
fn work(side: u32, instance: Instance) -> u64 {
    let c = match instance {
        Instance::Random { c, .. } | Instance::Theorem1 { c } => c,
        Instance::Bisection { d } => d,
    };
    let n = u64::from(side) * u64::from(side);
    n * ((u64::from(c) * n) as f64).sqrt().ceil() as u64
}

/// The flags that chose `instance`, for an error message.
fn flags(instance: Instance) -> String {
    match instance {
        Instance::Random { d, c } => format!("--c {c}, d = {d}"),
        Instance::Theorem1 { c } => format!("--c {c}, --instance theorem1"),
        Instance::Bisection { d } => format!("--c {d}, --instance bisection"),
    }
}

fn options(args: &MsetsArgs) -> Options {
    Options {
        capacity: args.buffer.map_or(Capacity::Unbounded, Capacity::Packets),
        randomized: Randomized {
            r: args.r,
            seed: args.seed,
            permutation: args.permutation,
            ranking: args.ranking,
            phases: args.phases,
        },
        deterministic: Deterministic {
            r: args.replicas,
            alpha: args.alpha,
            seed: args.seed,
            permutation: args.permutation,
            ranking: args.ranking,
        },
        ..Options::default()
    }
}

fn instances(kind: InstanceArg, c: u32, ds: Option<&[u32]>) -> Vec<Instance> {
    match (kind, ds) {
        (InstanceArg::Theorem1, _) => vec![Instance::Theorem1 { c }],
        (InstanceArg::Bisection, _) => vec![Instance::Bisection { d: c }],
        (InstanceArg::Random, None) => vec![Instance::Random { d: c, c }],
        (InstanceArg::Random, Some(ds)) => ds.iter().map(|&d| Instance::Random { d, c }).collect(),
    }
}

fn describe(instance: Instance) -> String {
    match instance {
        Instance::Random { d, c } => format!("random set with d = {d}, c = {c}"),
        Instance::Theorem1 { c } => format!("Theorem 1's set with c = {c}"),
        Instance::Bisection { d } => format!("bisection set with d = c = {d}"),
    }
}

fn numbers(flag: &str, text: &str) -> Result<Vec<u32>> {
    let list = text
        .split(',')
        .map(|t| t.trim().parse::<u32>())
        .collect::<Result<Vec<_>, _>>();
    match list {
        Ok(v) if !v.is_empty() && v.iter().all(|&x| x > 0) => Ok(v),
        _ => bail!("{flag} '{text}' is not a list of positive whole numbers such as 16,32,64"),
    }
}

fn fit(algo: Algorithm, rows: &[Row]) -> Fit {
    let mine: Vec<&Row> = rows.iter().filter(|r| r.algorithm == algo.name()).collect();
    let cn: Vec<(f64, f64)> = mine.iter().map(|r| (sqrt_cn(r), r.steps as f64)).collect();
    let n: Vec<(f64, f64)> = mine.iter().map(|r| (r.n as f64, r.steps as f64)).collect();
    Fit {
        algorithm: algo.name(),
        vs_sqrt_cn: fit_exponent(&cn),
        vs_n: fit_exponent(&n),
    }
}

/// Steps and steps/√(cn) against √(cn), one curve per algorithm and (d, c) over the sides: an
/// optimal algorithm is a straight line through the origin in the first panel and flat in the
/// second.
fn plot(path: &Path, algos: &[Algorithm], rows: &[Row]) -> Result<()> {
    let mut keys: Vec<(usize, u32, u32)> = Vec::new();
    for r in rows {
        let a = algos
            .iter()
            .position(|a| a.name() == r.algorithm)
            .unwrap_or(0);
        if !keys.contains(&(a, r.d, r.c)) {
            keys.push((a, r.d, r.c));
        }
    }
    keys.sort_unstable();
    let curve = |&(a, d, c): &(usize, u32, u32), y: &dyn Fn(&Row) -> f64| {
        let name = algos[a].name();
        let mut points: Vec<(f64, f64, f64, f64)> = rows
            .iter()
            .filter(|r| r.algorithm == name && r.d == d && r.c == c)
            .map(|r| (sqrt_cn(r), y(r), f64::NAN, f64::NAN))
            .collect();
        points.sort_by(|p, q| p.0.total_cmp(&q.0));
        let label = if d == c {
            format!("{name} c = {c}")
        } else {
            format!("{name} d = {d}, c = {c}")
        };
        Curve { label, points }
    };
    let panel = |title: &str, y: &dyn Fn(&Row) -> f64| Panel {
        title: title.to_string(),
        y_label: title.to_string(),
        curves: keys.iter().map(|k| curve(k, y)).collect(),
    };
    let panels = [
        panel("steps", &|r| r.steps as f64),
        panel("steps / √(cn)", &|r| r.per_sqrt_cn),
    ];
    write_plot(
        path,
        "mcast(n, d, c) message sets (seed 004)",
        "√(cn)",
        &panels,
    )
}

fn sqrt_cn(r: &Row) -> f64 {
    ((u64::from(r.c) * r.n) as f64).sqrt()
}

fn row_out(r: &Row) -> RowOut {
    RowOut {
        algorithm: r.algorithm,
        side: r.side,
        n: r.n,
        d: r.d,
        c: r.c,
        deliveries: r.deliveries,
        duplicates: r.duplicates,
        steps: r.steps,
        steps_per_sqrt_cn: r.per_sqrt_cn,
        steps_per_sqrt_n: r.per_sqrt_n,
        max_buffer: r.max_buffer,
        packet_hops: r.packet_hops,
        word_hops: r.word_hops,
        copies: r.copies,
        lower_bound: r.lower_bound,
    }
}

fn json_row(r: &Row) -> JsonRow {
    let mut phases: Vec<Phase> = Vec::new();
    for &(name, steps) in &r.phases {
        match phases.iter_mut().find(|p| p.name == name) {
            Some(p) => p.steps += steps,
            None => phases.push(Phase { name, steps }),
        }
    }
    JsonRow {
        row: row_out(r),
        phases,
    }
}

fn csv(rows: &[&RowOut]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    Ok(w.into_inner()?)
}

fn text(out: &Output) -> String {
    use Align::{Left, Right};
    let header = [
        ("algorithm", Left),
        ("side", Right),
        ("d", Right),
        ("c", Right),
        ("steps", Right),
        ("steps/√(cn)", Right),
        ("steps/√n", Right),
        ("max buffer", Right),
        ("packet hops", Right),
        ("copies", Right),
        ("duplicates", Right),
        ("lower bound", Right),
    ];
    let rows: Vec<Vec<String>> = out
        .rows
        .iter()
        .map(|JsonRow { row: r, .. }| {
            vec![
                r.algorithm.to_string(),
                r.side.to_string(),
                r.d.to_string(),
                r.c.to_string(),
                r.steps.to_string(),
                format!("{:.3}", r.steps_per_sqrt_cn),
                format!("{:.3}", r.steps_per_sqrt_n),
                r.max_buffer.to_string(),
                r.packet_hops.to_string(),
                r.copies.to_string(),
                r.duplicates.to_string(),
                r.lower_bound.map_or("-".to_string(), |b| b.to_string()),
            ]
        })
        .collect();
    let mut s = table(&header, &rows);
    s.push_str("\nfitted growth exponents (least squares on log-log):\n");
    let show = |e: Option<f64>| e.map_or("-".to_string(), |e| format!("{e:.3}"));
    let width = out
        .fits
        .iter()
        .map(|f| f.algorithm.len())
        .max()
        .unwrap_or(0);
    for f in &out.fits {
        s.push_str(&format!(
            "  {:<width$}  steps ∝ (√(cn))^{}   steps ∝ n^{}\n",
            f.algorithm,
            show(f.vs_sqrt_cn),
            show(f.vs_n)
        ));
    }
    s
}
