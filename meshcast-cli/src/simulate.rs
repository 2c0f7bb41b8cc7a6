//! `meshcast simulate`: flit-level wormhole simulation under load, one point or a sweep of loads
//! per algorithm, as a table, CSV/JSON and a latency-against-load plot. A thin layer: the flags
//! become [`Setup`]s, the library runs them (in parallel, each point seeded from `--seed` and its
//! load index, so every algorithm sees the same traffic stream and any thread count gives the
//! same numbers), and the reports are formatted here.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use meshcast::algo::AlgoInfo;
use meshcast::eval::Ports;
use meshcast::sim::wormhole::traffic::{
    simulate_all, simulate_all_observed, validate, Destinations, Measure, Report, Saturation,
    Setup, Traffic, EARLY_SATURATION, MAX_BACKLOG,
};
use meshcast::sim::wormhole::{ChannelLoad, Router, VcRelease};
use meshcast::topology::{Dir, Shape};
use meshcast::workload::point_seed;
use meshcast::{InputError, WormholeError};
use serde::Serialize;

use crate::flags::{AlgosFlag, ParamArgs};
use crate::output::{self, Format};
use crate::plot::{write_plot, Curve, Panel};
use crate::progress::{progress_bar, Count};
use crate::text::{table, Align};

pub const SIMULATE_EXAMPLES: &str = "\
Load is messages generated per node per cycle (exponential inter-arrival times);
FIRST:LAST:STEP runs the loads from FIRST to LAST, STEP apart (the range grammar of sweep --k).
Latency runs from a message's generation to the cycle its last destination holds it; means come
with the 95% confidence half-width of the batch means. A point whose network saturated says so
instead of giving a mean. Every setting is checked before the first point runs. Model and
settings: docs/SIMULATOR.md.

Examples:
  # seed 003 Fig. 8: 8x8x8 mesh, 64 flits, 10% multicasts to 10 destinations, four algorithms
  meshcast simulate --topology mesh:8x8x8 --algos dual-path,multi-path,column-path,qg --load 0.00025:0.002:0.00025 --multicast 0.1 --dests 10 --port 4 --vcs 4 --buffer 8 --out fig8.csv --plot fig8.svg

  # unicast uniform traffic on a 8x8 mesh (no algorithm), 4 virtual channels of 8 flits
  meshcast simulate --topology mesh:8x8 --load 0.01:0.06:0.01 --length 8 --startup 0 --vcs 4 --buffer 8";

/// Flags of `meshcast simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The network: mesh:8x8, torus:8x8, mesh:8x8x8.
    #[arg(long, short = 't', value_name = "TOPOLOGY")]
    pub topology: String,
    /// Comma-separated multicast algorithms (see `meshcast algos`), one curve each, or `all`
    /// (`trees`): every algorithm (every tree algorithm) that supports the topology; needed when
    /// --multicast is above 0.
    #[arg(long, short = 'a', value_name = "NAMES")]
    pub algos: Option<String>,
    /// Messages per node per cycle: one value, or FIRST:LAST:STEP, e.g. 0.001:0.004:0.001.
    #[arg(long, value_name = "LOAD")]
    pub load: String,
    /// Fraction of messages that are multicasts (seed 003: 0.1); the rest are unicasts.
    #[arg(long, default_value_t = 0.0)]
    pub multicast: f64,
    /// Destinations of a multicast: K, or LOW:HIGH drawn uniformly per message.
    #[arg(long, default_value = "10", value_name = "K")]
    pub dests: String,
    /// Send this fraction of unicasts to one node: NODE@FRACTION, e.g. 3,3@0.2.
    #[arg(long, value_name = "NODE@FRACTION")]
    pub hot_spot: Option<String>,
    /// Message length in flits.
    #[arg(long, default_value_t = 64)]
    pub length: u32,
    /// Start-up latency of every send, in cycles.
    #[arg(long, default_value_t = 33)]
    pub startup: u32,
    /// Preparation time at a multicast's source, in cycles [default: seed 003's: DP 2, MP 2,
    /// CP 4, QG 16, others 0].
    #[arg(long, value_name = "CYCLES")]
    pub prep: Option<u32>,
    /// Virtual channels per physical channel.
    #[arg(long, default_value_t = 2)]
    pub vcs: u32,
    /// Flits per virtual-channel buffer.
    #[arg(long, default_value_t = 4)]
    pub buffer: u32,
    /// Router pipeline depth, cycles per hop (1 = the seeds' model).
    #[arg(long, default_value_t = 1)]
    pub pipeline: u32,
    /// When a worm gives up a virtual channel: tail-left (when its tail has left the buffer,
    /// ours) or tail-sent (when its tail has entered it, BookSim2's: the next worm queues behind).
    #[arg(long, value_name = "WHEN", default_value = "tail-left")]
    pub vc_release: VcRelease,
    /// Injection and ejection channels per node, as `route --port` spells them: `one`, a number
    /// `d` (seed 002's d-port architecture: 1 or 2; seed 003: 4) or `all` (one per link of the
    /// node, 2n in n dimensions). The multiport algorithm plans for the same d (all: the
    /// paper's 2) [default: one].
    #[arg(long, value_name = "PORTS", value_parser = crate::flags::parse_ports)]
    pub port: Option<Ports>,
    #[command(flatten)]
    pub params: ParamArgs,
    /// Cycles simulated before measuring.
    #[arg(long, default_value_t = 10_000)]
    pub warmup: u64,
    /// Cycles per batch of the batch-means confidence interval (at most 1,000,000 batches
    /// between the warm-up and the drain).
    #[arg(long, default_value_t = 5_000)]
    pub batch: u64,
    /// Stop when the 95% half-width is within this fraction of the mean.
    #[arg(long, default_value_t = 0.05)]
    pub precision: f64,
    /// Cycles at most in all, warm-up and drain included: measuring stops, converged or not, at
    /// the latest at the first batch end --drain cycles before.
    #[arg(long, default_value_t = 1_050_000)]
    pub max_cycles: u64,
    /// Cycles kept at the end for the measured messages to finish [default: 50,000, at most
    /// half the cycles after the warm-up].
    #[arg(long, value_name = "CYCLES")]
    pub drain: Option<u64>,
    /// Stop a point as saturated once its undelivered measured messages rose at this many
    /// consecutive batch ends and at least doubled, or once the messages in the system grew by
    /// more than 15% of those generated and by more than 4 standard deviations over each of this
    /// many windows of a batch, a batch/BATCHES apart, or (from the BATCHES-th batch end) by
    /// more than 2% of those generated since the warm-up and over each of the measurement's last
    /// two thirds (0: never early).
    #[arg(long, value_name = "BATCHES", default_value_t = EARLY_SATURATION)]
    pub early_saturation: u32,
    /// Messages at most in the network and the source queues, per node: a point beyond it stops
    /// at once as saturated, as it does beyond 2^25 hops in their plans (these bound memory).
    #[arg(long, value_name = "MESSAGES", default_value_t = MAX_BACKLOG)]
    pub max_backlog: u32,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write every point to FILE.csv or FILE.json.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also plot mean latency against load, to FILE.svg or FILE.png.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Also write the load of every network channel to FILE.csv: per point and link, the flits
    /// that crossed it over the whole run (warm-up and drain included) and per cycle.
    #[arg(long, value_name = "FILE")]
    pub channels: Option<PathBuf>,
    /// No progress bar (it is also hidden when standard error is not a terminal).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// One simulated point, flat (a CSV row, a JSON record).
#[derive(Debug, Serialize)]
struct Row {
    algorithm: String,
    load: f64,
    offered_flits: f64,
    multicast_latency: Option<f64>,
    multicast_ci: Option<f64>,
    unicast_latency: Option<f64>,
    unicast_ci: Option<f64>,
    cv: Option<f64>,
    accepted_flits: f64,
    delivery_ratio: f64,
    utilisation: f64,
    batches: u32,
    converged: bool,
    status: String,
    cycles: u64,
    flit_hops: u64,
}

impl Row {
    fn of(algorithm: &str, r: &Report) -> Row {
        // Means of a saturated network are no steady-state values: leave them out.
        let ok = r.saturated.is_none();
        let mean =
            |l: Option<meshcast::sim::wormhole::traffic::Latency>| l.filter(|_| ok).map(|l| l.mean);
        let ci = |l: Option<meshcast::sim::wormhole::traffic::Latency>| {
            l.filter(|_| ok).and_then(|l| l.half_width)
        };
        Row {
            algorithm: algorithm.to_string(),
            load: r.offered_messages,
            offered_flits: r.offered_flits,
            multicast_latency: mean(r.multicast),
            multicast_ci: ci(r.multicast),
            unicast_latency: mean(r.unicast),
            unicast_ci: ci(r.unicast),
            cv: r.cv.filter(|_| ok),
            accepted_flits: r.accepted_flits,
            delivery_ratio: r.delivery_ratio,
            utilisation: r.utilisation,
            batches: r.batches,
            converged: r.converged,
            status: match r.saturated {
                Some(Saturation::Undelivered(n)) => format!("saturated ({n} undelivered)"),
                Some(Saturation::Rising) => "saturated (latency rising)".into(),
                Some(Saturation::Growing(n)) => {
                    format!("saturated (backlog growing, {n} undelivered)")
                }
                Some(Saturation::Deficit(n)) => format!("saturated (deficit, {n} messages)"),
                Some(Saturation::Shortfall(n)) => format!("saturated (shortfall, {n} messages)"),
                Some(Saturation::Backlog(n)) => format!("saturated (backlog cap, {n} messages)"),
                None if r.converged => "ok".into(),
                None => "cycle limit".into(),
            },
            cycles: r.cycles,
            flit_hops: r.flit_hops,
        }
    }

    /// Mean multicast or unicast latency and its confidence half-width.
    fn latency(&self, multicast: bool) -> (Option<f64>, Option<f64>) {
        if multicast {
            (self.multicast_latency, self.multicast_ci)
        } else {
            (self.unicast_latency, self.unicast_ci)
        }
    }
}

/// JSON output: the schema name, then the points.
#[derive(Serialize)]
struct Doc<'a> {
    schema: &'static str,
    topology: String,
    points: &'a [Row],
}

/// `meshcast simulate`. Every setting, every algorithm's support of the topology and the output
/// files' extensions and directories are checked before the first point runs.
pub fn run(args: &SimulateArgs) -> Result<String> {
    let shape: Shape = args
        .topology
        .parse()
        .with_context(|| format!("--topology '{}'", args.topology))?;
    let loads = loads(&args.load)?;
    let algos: Vec<Option<&'static AlgoInfo>> = match &args.algos {
        Some(names) => AlgosFlag {
            topology: Some(&shape),
            check_named: true,
            distinct: false,
        }
        .parse(names)?
        .into_iter()
        .map(Some)
        .collect(),
        None if args.multicast > 0.0 => bail!(
            "--multicast {} needs --algos to build the multicasts",
            args.multicast
        ),
        None => vec![None],
    };
    let out = output::check_outputs(args.out.as_deref(), args.plot.as_deref())?;
    if let Some(path) = &args.channels {
        output::check_extension("--channels", path, &["csv"])?;
        output::check_directory(path)?;
    }
    let traffic = Traffic {
        load: 0.0,
        multicast: args.multicast,
        destinations: destinations(&args.dests)?,
        hot_spot: args
            .hot_spot
            .as_deref()
            .map(|h| hot_spot(&shape, h))
            .transpose()?,
    };
    let ports = args.port.unwrap_or(Ports::One);
    let params = args.params.params(ports).check().context("--td")?;
    let router = Router {
        vcs: args.vcs,
        buffer: args.buffer,
        pipeline: args.pipeline,
        ports: ports.count().unwrap_or(2 * shape.rank() as u32),
        startup: args.startup,
        length: args.length,
        release: args.vc_release,
    };
    let measure = Measure {
        warmup: args.warmup,
        batch: args.batch,
        precision: args.precision,
        max_cycles: args.max_cycles,
        drain: args.drain.unwrap_or_else(|| {
            let after_warmup = args.max_cycles.saturating_sub(args.warmup);
            Measure::default().drain.min(after_warmup / 2)
        }),
        early_saturation: args.early_saturation,
        max_backlog: args.max_backlog,
        ..Measure::default()
    };
    let setups: Vec<Setup> = algos
        .iter()
        .flat_map(|&algorithm| {
            loads
                .iter()
                .enumerate()
                .map(move |(i, &load)| (algorithm, i, load))
        })
        .map(|(algorithm, i, load)| Setup {
            shape: shape.clone(),
            router,
            traffic: Traffic { load, ..traffic },
            measure,
            algorithm,
            preparation: args.prep,
            params,
            seed: point_seed(args.seed, i as u64),
        })
        .collect();
    for setup in &setups {
        validate(setup).map_err(|e| naming_the_flag(e, setup))?;
    }
    let bar = progress_bar(setups.len() as u64, Count::Of("simulations"), args.quiet);
    bar.set_prefix(format!("simulate, {}: ", shape));
    let tick = || bar.inc(1);
    // Without `--channels` nothing is watched: the runs are compiled with the observer that costs
    // nothing, not with an empty `Option` tested at every flit move.
    let runs: Vec<(Report, Option<ChannelLoad>)> = if args.channels.is_some() {
        let watch = |s: &Setup| Some(ChannelLoad::new(&s.shape));
        simulate_all_observed(&setups, &watch, &tick)
            .into_iter()
            .collect::<Result<_, _>>()?
    } else {
        simulate_all(&setups, &tick)
            .into_iter()
            .map(|r| r.map(|report| (report, None)))
            .collect::<Result<_, _>>()?
    };
    bar.finish_and_clear();
    let rows: Vec<Row> = setups
        .iter()
        .zip(&runs)
        .map(|(s, (r, _))| Row::of(algorithm_name(s), r))
        .collect();
    if let Some(path) = &args.channels {
        write_channels(path, &setups, &runs)?;
    }
    if let (Some(path), Some(format)) = (&args.out, out) {
        write_rows(path, format, &shape, &rows)?;
    }
    if let Some(path) = &args.plot {
        plot(path, &shape, args, &rows)?;
    }
    if args.json {
        let doc = Doc {
            schema: "meshcast.simulate/1",
            topology: shape.to_string(),
            points: &rows,
        };
        return Ok(serde_json::to_string_pretty(&doc)? + "\n");
    }
    Ok(text(&rows))
}

/// A refused setting as the flag that sets it, e.g. "--vcs 0 is not allowed: at least 1"; too few
/// virtual channels as `--vcs`, and a route the simulator cannot run as its algorithm.
fn naming_the_flag(e: WormholeError, setup: &Setup) -> anyhow::Error {
    let context = match (&e, setup.algorithm) {
        (
            WormholeError::Input(InputError::Setting {
                name,
                value,
                allowed,
            }),
            _,
        ) => {
            if let Some(flag) = flag_of(name) {
                return anyhow!("{flag} {value} is not allowed: {allowed}");
            }
            None
        }
        (WormholeError::VirtualChannels { vcs, .. }, _) => Some(format!("--vcs {vcs}")),
        (_, Some(info)) => Some(format!("--algos: {}", info.name)),
        (_, None) => None,
    };
    match context {
        Some(context) => anyhow!(e).context(context),
        None => anyhow!(e),
    }
}

/// The flag of a setting the simulator checks.
fn flag_of(setting: &str) -> Option<&'static str> {
    Some(match setting {
        "topology" => "--topology",
        "vcs" => "--vcs",
        "buffer" => "--buffer",
        "pipeline" => "--pipeline",
        "ports" => "--port",
        "length" => "--length",
        "vcs/buffer/ports" => "--vcs/--buffer/--port",
        "load" => "--load",
        "multicast" => "--multicast",
        "destinations" => "--dests",
        "hot-spot fraction" => "--hot-spot",
        "batch" => "--batch",
        "precision" => "--precision",
        "max_cycles" => "--max-cycles",
        "max_backlog" => "--max-backlog",
        _ => return None,
    })
}

/// The most loads one `--load` range gives.
const MAX_LOADS: f64 = 1000.0;

/// `LOAD`, or `FIRST:LAST:STEP` as `sweep --k` writes ranges: FIRST, FIRST + STEP, …, LAST,
/// each load computed from the endpoints (`FIRST + (LAST − FIRST)·i/steps`) so that LAST is
/// exact. The older `a:b:n` (n loads) is refused with the range that means it.
fn loads(text: &str) -> Result<Vec<f64>> {
    let bad = || {
        anyhow!(
            "--load '{text}': give a load such as 0.01, or FIRST:LAST:STEP such as \
             0.001:0.004:0.001 (loads in (0, 1], FIRST < LAST, STEP dividing LAST − FIRST, \
             at most {MAX_LOADS} loads)"
        )
    };
    let load = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| *x > 0.0 && *x <= 1.0)
            .ok_or_else(bad)
    };
    let parts: Vec<&str> = text.split(':').collect();
    let [first, last, step] = parts[..] else {
        return match parts[..] {
            [one] => Ok(vec![load(one)?]),
            _ => Err(bad()),
        };
    };
    let (first, last) = (load(first)?, load(last)?);
    let step: f64 = step.trim().parse().map_err(|_| bad())?;
    if !(first < last && step > 0.0 && step.is_finite()) {
        return Err(bad());
    }
    let span = last - first;
    if step > span && step >= 2.0 && step.fract() == 0.0 {
        // `a:b:n`, the grammar before ranges were made one: say what it is now.
        let equal = (span / (step - 1.0) * 1e12).round() / 1e12;
        bail!(
            "--load '{text}': the third number is the step between loads (FIRST:LAST:STEP, as \
             sweep --k writes ranges): {step} loads from {first} to {last} are {first}:{last}:{equal}"
        );
    }
    let steps = (span / step).round();
    if !(1.0..MAX_LOADS).contains(&steps) || (span / step - steps).abs() > 1e-6 * steps {
        return Err(bad());
    }
    let n = steps as usize;
    Ok((0..=n).map(|i| first + span * i as f64 / steps).collect())
}

/// `K` or `LOW:HIGH`.
fn destinations(text: &str) -> Result<Destinations> {
    let bad = || format!("--dests '{text}': give a count K or a range LOW:HIGH");
    let num = |s: &str| s.trim().parse::<u32>().ok();
    Ok(match text.split(':').collect::<Vec<_>>()[..] {
        [k] => Destinations::Fixed(num(k).with_context(bad)?),
        [lo, hi] => Destinations::Uniform(num(lo).with_context(bad)?, num(hi).with_context(bad)?),
        _ => bail!(bad()),
    })
}

/// `NODE@FRACTION`.
fn hot_spot(shape: &Shape, text: &str) -> Result<(meshcast::topology::Node, f64)> {
    let bad = || format!("--hot-spot '{text}': give NODE@FRACTION, e.g. 3,3@0.2");
    let (node, f) = text.split_once('@').with_context(bad)?;
    let node = shape.parse_node(node).with_context(bad)?;
    let f: f64 = f.trim().parse().ok().with_context(bad)?;
    Ok((node, f))
}

fn fmt_opt(x: Option<f64>, digits: usize) -> String {
    x.map_or("-".into(), |x| format!("{x:.digits$}"))
}

fn mean_ci(mean: Option<f64>, ci: Option<f64>) -> String {
    match (mean, ci) {
        (Some(m), Some(c)) => format!("{m:.1} ± {c:.1}"),
        (Some(m), None) => format!("{m:.1}"),
        _ => "-".into(),
    }
}

fn text(rows: &[Row]) -> String {
    use Align::{Left, Right};
    let header = [
        ("algorithm", Left),
        ("load", Right),
        ("flits/node/cycle", Right),
        ("multicast latency", Right),
        ("unicast latency", Right),
        ("CV", Right),
        ("accepted", Right),
        ("delivered", Right),
        ("utilisation", Right),
        ("status", Left),
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.algorithm.clone(),
                format!("{:.5}", r.load),
                format!("{:.4}", r.offered_flits),
                mean_ci(r.multicast_latency, r.multicast_ci),
                mean_ci(r.unicast_latency, r.unicast_ci),
                fmt_opt(r.cv, 4),
                format!("{:.4}", r.accepted_flits),
                format!("{:.4}", r.delivery_ratio),
                format!("{:.4}", r.utilisation),
                r.status.clone(),
            ]
        })
        .collect();
    table(&header, &cells)
}

/// The name a point's rows carry: its algorithm, or "unicast" for unicast traffic alone.
fn algorithm_name(setup: &Setup) -> &'static str {
    setup.algorithm.map_or("unicast", |a| a.name)
}

/// One link of one point, a row of `--channels`.
#[derive(Serialize)]
struct ChannelRow<'a> {
    algorithm: &'a str,
    load: f64,
    /// The node the channel leaves, as coordinates "x,y".
    from: String,
    dim: u8,
    /// `+` towards larger coordinates, `-` towards smaller.
    dir: &'static str,
    flits: u64,
    flits_per_cycle: f64,
}

/// Write `--channels`: every link of every point with the flits that crossed it.
fn write_channels(
    path: &std::path::Path,
    setups: &[Setup],
    runs: &[(Report, Option<ChannelLoad>)],
) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for (setup, (report, load)) in setups.iter().zip(runs) {
        let load = load
            .as_ref()
            .context("a point ran without its channel counts")?;
        for (link, flits) in load.links(&setup.shape) {
            let from: Vec<String> = setup
                .shape
                .coords(link.from)
                .iter()
                .map(u32::to_string)
                .collect();
            w.serialize(ChannelRow {
                algorithm: algorithm_name(setup),
                load: setup.traffic.load,
                from: from.join(","),
                dim: link.dim,
                dir: if link.dir == Dir::Plus { "+" } else { "-" },
                flits,
                flits_per_cycle: flits as f64 / report.cycles.max(1) as f64,
            })?;
        }
    }
    output::write_atomically(path, &w.into_inner()?)
        .with_context(|| format!("cannot write '{}'", path.display()))
}

fn write_rows(path: &std::path::Path, format: Format, shape: &Shape, rows: &[Row]) -> Result<()> {
    let bytes = match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in rows {
                w.serialize(r)?;
            }
            w.into_inner()?
        }
        Format::Json => {
            let doc = Doc {
                schema: "meshcast.simulate/1",
                topology: shape.to_string(),
                points: rows,
            };
            (serde_json::to_string_pretty(&doc)? + "\n").into_bytes()
        }
    };
    output::write_atomically(path, &bytes)
        .with_context(|| format!("cannot write '{}'", path.display()))
}

fn plot(path: &std::path::Path, shape: &Shape, args: &SimulateArgs, rows: &[Row]) -> Result<()> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.algorithm.as_str()) {
            names.push(&r.algorithm);
        }
    }
    let curve = |name: &str, multicast: bool| Curve {
        label: name.to_string(),
        points: rows
            .iter()
            .filter(|r| r.algorithm == name)
            .map(|r| {
                let (m, c) = r.latency(multicast);
                let m = m.unwrap_or(f64::NAN);
                let c = c.unwrap_or(f64::NAN);
                (r.load, m, m - c, m + c)
            })
            .collect(),
    };
    let mut panels = Vec::new();
    if args.multicast > 0.0 {
        panels.push(Panel {
            title: "multicast".into(),
            y_label: "mean multicast latency (cycles)".into(),
            curves: names.iter().map(|n| curve(n, true)).collect(),
        });
    }
    if args.multicast < 1.0 {
        panels.push(Panel {
            title: "unicast".into(),
            y_label: "mean unicast latency (cycles)".into(),
            curves: names.iter().map(|n| curve(n, false)).collect(),
        });
    }
    let title = format!("{shape}, {} flits, start-up {}", args.length, args.startup);
    write_plot(path, &title, "load (messages per node per cycle)", &panels)
}
