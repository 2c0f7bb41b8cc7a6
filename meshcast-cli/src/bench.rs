//! `meshcast bench`: how fast the library builds plans — ns per tree link (per hop of a plan),
//! µs per plan, per algorithm, on random multicasts of a given size and K; with two or more
//! topologies, the growth exponent of the time per plan against the number of nodes.
//!
//! Thin: the requests come from the library's seeded workload, the plans from the registry's
//! `AlgoInfo::route` (the whole request: zones, growth, pruning, port order, the `Plan`; with
//! `--reuse`, `AlgoInfo::route_reusing`, each plan written into the one before's memory), timed
//! one by one on the thread's CPU clock — the machine is shared, and wall-clock time would count
//! the other processes' turns. The digest of every plan's sends identifies the plans
//! exactly, so two builds can be compared for identical output on the same seed.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use meshcast::algo::{AlgoInfo, Params, Request};
use meshcast::experiment::sweep::{Placement, Sweep};
use meshcast::plan::Plan;
use meshcast::schedule::Schedule;
use meshcast::topology::Shape;

use crate::flags::{AlgosFlag, PlacementArg};
use crate::text::{table, Align};

pub const BENCH_EXAMPLES: &str = "\
Each row: the algorithm, the topology, K, the plans timed, the mean links (hops) per plan, the
mean CPU time per plan, ns per link (total time / total links), the best plan's ns per link, and a
digest of every plan's sends (equal digests: the same plans, link for link, in the same order).
One untimed plan per algorithm first (--warmup). With several topologies, the growth exponent of
the time per plan against the node count N from each topology to the next one of another size.

Examples:
  # issue 14: every tree algorithm at 1024x1024 with K = N/100 = 10,486
  meshcast bench --topology mesh:1024x1024 --k 1% --runs 20

  # the growth exponent from 256x256 to 1024x1024, K proportional to N
  meshcast bench --topology mesh:256x256,mesh:1024x1024 --k 1% --runs 20 --algos vh,dist,rsa

  # random sources on a torus, any algorithm of the registry
  meshcast bench --topology torus:32x32x32 --k 500 --placement random --algos dds,dual-path

  # each plan written into the memory of the one before: no page faults for its arrays
  meshcast bench --topology mesh:1024x1024 --k 1% --runs 20 --algos vh,pair --reuse";

/// Flags of `meshcast bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The networks, comma-separated: mesh:1024x1024, torus:32x32x32, hypercube:10.
    #[arg(long, short = 't', value_name = "TOPOLOGIES")]
    pub topology: String,
    /// Destinations per multicast: a count, or a percentage of the nodes (`1%`: K = N/100,
    /// rounded), which keeps K proportional to N across topologies.
    #[arg(long, short = 'k', value_name = "K")]
    pub k: String,
    /// Comma-separated algorithm names (see `meshcast algos`), or `trees` (`all`): every tree
    /// algorithm (every algorithm).
    #[arg(long, short = 'a', default_value = "trees", value_name = "NAMES")]
    pub algos: String,
    /// Random multicasts timed per algorithm and topology (the same ones for every algorithm).
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Untimed plans per algorithm and topology before the timed ones.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub warmup: u32,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where each multicast's source is: the origin or a random node.
    #[arg(long, value_enum, default_value_t = PlacementArg::Origin)]
    pub placement: PlacementArg,
    /// Write each plan into the memory of the one before (`AlgoInfo::route_reusing`) instead of
    /// fresh memory: the same plans, without the allocation and page faults of a large plan's
    /// new arrays (tree algorithms below 2^25 nodes).
    #[arg(long)]
    pub reuse: bool,
}

/// The measurements of one algorithm on one topology.
struct Row {
    algo: &'static str,
    topology: String,
    nodes: usize,
    k: usize,
    plans: u32,
    links: u64,
    time: Duration,
    best_ns_per_link: f64,
    digest: u64,
}

/// `meshcast bench`.
pub fn run(args: &BenchArgs) -> Result<String> {
    let shapes = args
        .topology
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<Shape>()
                .with_context(|| format!("--topology '{}'", t.trim()))
        })
        .collect::<Result<Vec<_>>>()?;
    let algos = AlgosFlag {
        topology: None,
        check_named: false,
        distinct: false,
    }
    .parse(&args.algos)?;
    let mut rows = Vec::new();
    for shape in &shapes {
        let k = destination_count(&args.k, shape)?;
        let requests = requests(shape, k, args)?;
        for info in algos.iter().filter(|a| a.support.covers(shape)) {
            rows.push(measure(info, shape, &requests, args)?);
        }
    }
    if rows.is_empty() {
        bail!(
            "--algos '{}': none of them supports --topology '{}'",
            args.algos,
            args.topology
        );
    }
    Ok(render(&rows))
}

/// `--k` for `shape`: a count, or a percentage of its nodes.
fn destination_count(text: &str, shape: &Shape) -> Result<usize> {
    let bad = || {
        anyhow::anyhow!(
            "--k '{text}': expected a destination count (e.g. 10486) or a percentage of the nodes (e.g. 1%)"
        )
    };
    match text.trim().strip_suffix('%') {
        Some(p) => {
            let p: f64 = p.trim().parse().map_err(|_| bad())?;
            if !(p > 0.0 && p <= 100.0) {
                return Err(bad());
            }
            Ok(((shape.len() as f64 * p / 100.0).round() as usize).max(1))
        }
        None => text.trim().parse().map_err(|_| bad()),
    }
}

/// `warmup + runs` random requests on `shape`: the multicasts `meshcast sweep` routes for the
/// same topology, K, placement and seed (runs 0, 1, …).
fn requests(shape: &Shape, k: usize, args: &BenchArgs) -> Result<Vec<Request>> {
    let sweep = Sweep {
        shape: shape.clone(),
        placement: match args.placement {
            PlacementArg::Origin => Placement::Origin,
            PlacementArg::Random => Placement::Random,
        },
        algorithms: Vec::new(),
        ks: vec![k],
        runs: args.warmup + args.runs,
        seed: args.seed,
        schedule: Schedule::Paper,
        wormhole: None,
        params: Params::default(),
    };
    (0..sweep.runs)
        .map(|run| {
            sweep
                .request(k, run)
                .with_context(|| format!("--k '{}'", args.k))
        })
        .collect()
}

/// Route every request with `info`, timing all but the first `--warmup`.
fn measure(
    info: &'static AlgoInfo,
    shape: &Shape,
    requests: &[Request],
    args: &BenchArgs,
) -> Result<Row> {
    let mut row = Row {
        algo: info.name,
        topology: shape.to_string(),
        nodes: shape.len(),
        k: requests[0].destinations().len(),
        plans: 0,
        links: 0,
        time: Duration::ZERO,
        best_ns_per_link: f64::INFINITY,
        digest: FNV_OFFSET,
    };
    let mut spent = None;
    for (i, request) in requests.iter().enumerate() {
        let start = thread_cpu_time();
        let plan = match spent.take() {
            Some(spent) => info.route_reusing(request, spent)?,
            None => info.route(request)?,
        };
        let time = thread_cpu_time().saturating_sub(start);
        if i >= args.warmup as usize {
            let links = u64::from(plan.traffic());
            row.plans += 1;
            row.links += links;
            row.time += time;
            row.best_ns_per_link = row
                .best_ns_per_link
                .min(time.as_nanos() as f64 / links as f64);
            row.digest = digest(row.digest, &plan);
        }
        if args.reuse {
            spent = Some(plan);
        }
    }
    Ok(row)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over every send of `plan`, in plan order: sender, then each hop's node and drop.
fn digest(mut h: u64, plan: &Plan) -> u64 {
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for send in plan.sends() {
        eat(send.from.index() as u64);
        for hop in send.hops {
            eat(hop.node().index() as u64 * 2 + u64::from(hop.drop()));
        }
    }
    h
}

/// The table, then the growth exponents.
fn render(rows: &[Row]) -> String {
    let r = Align::Right;
    let header = [
        ("algorithm", Align::Left),
        ("topology", Align::Left),
        ("K", r),
        ("plans", r),
        ("links/plan", r),
        ("µs/plan", r),
        ("ns/link", r),
        ("best ns/link", r),
        ("digest", Align::Left),
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            vec![
                row.algo.to_string(),
                row.topology.clone(),
                row.k.to_string(),
                row.plans.to_string(),
                format!("{:.0}", row.links as f64 / f64::from(row.plans)),
                format!("{:.1}", per_plan_us(row)),
                format!("{:.1}", row.time.as_nanos() as f64 / row.links as f64),
                format!("{:.1}", row.best_ns_per_link),
                format!("{:016x}", row.digest),
            ]
        })
        .collect();
    let mut out = table(&header, &cells);
    let mut growth = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        // The next topology of another size this algorithm ran on.
        let next = rows[i + 1..]
            .iter()
            .find(|b| b.algo == a.algo && b.nodes != a.nodes);
        if let Some(b) = next {
            let exponent =
                (per_plan_us(b) / per_plan_us(a)).ln() / (b.nodes as f64 / a.nodes as f64).ln();
            growth.push(format!(
                "growth exponent of µs/plan against N, {} {} → {}: {exponent:.2}\n",
                a.algo, a.topology, b.topology
            ));
        }
    }
    if !growth.is_empty() {
        out.push('\n');
        out.extend(growth);
    }
    out
}

fn per_plan_us(row: &Row) -> f64 {
    row.time.as_secs_f64() * 1e6 / f64::from(row.plans)
}

/// The CPU time this thread has used so far.
fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID always exists on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
