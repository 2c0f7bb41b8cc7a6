//! The command line as clap sees it: subcommands, flags, their one-line help and the worked
//! examples shown by `--help`. Nothing here checks values against a topology: the library does
//! that when the request is built.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::flags::{ModelArg, ParamArgs, PlacementArg, ScheduleArg, WormholeArgs, MAX_CYCLES};

const TOP_EXAMPLES: &str = "\
Examples:
  meshcast algos
  meshcast route --topology mesh:8x8 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo diag
  meshcast route --topology mesh:8x8 --source 0,0 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo diag --svg tree.svg
  meshcast route --topology torus:10x10x10 --dests \"1,2,3 9,9,9\" --all
  meshcast sweep --topology mesh:20x20 --algos vh,diag,dds,min --k 10:380:10 --runs 1000 --out r.csv
  meshcast merge shard-*.json --out r.csv --plot r.svg
  meshcast sweep --topology mesh:6x6 --algos diag,dds,rsa --k 4,8 --runs 20 --baseline omt,opt-time
  meshcast simulate --topology mesh:8x8 --algos dual-path,qg --load 0.001:0.004:0.001 --multicast 0.1 --dests 10
  meshcast msets --sides 16,32,64 --c 16 --algos naive,theorem2
  meshcast reproduce --quick
  meshcast serve

Exit status: 0 on success, 2 for bad input (arguments, topology, nodes, algorithm, sweep
settings, shard files), 1 when an output (--svg, --out, --plot, standard output) cannot be written
or a simulation fails (deadlock, lost flit). Limits and every refusal: docs/RELIABILITY.md.";

const REPRODUCE_EXAMPLES: &str = "\
Each row: the example, the published traffic / one-port time (– where the paper gives none), ours
with the paper's port order, ours with the optimal port order, and whether they agree (with the
cause where they do not). Every plan is validated before it is measured. Then the Monte-Carlo
means: seed 000 Tables 1-6 (100 runs per point), seed 001 §4.2 (trees, store-and-forward) and
§4.3 (XY-path against Lin, wormhole: L = 20 flits, all-port), 1000 runs per point. Last the
flit-level simulations: seed 003 Table 1 and Figs. 8-9, seed 002 Figs. 6-8.

Examples:
  # everything, about a minute on two cores (release build): 20-24 s for the Monte-Carlo
  # tables, 28-34 s for the flit-level simulations
  meshcast reproduce

  # only the Monte-Carlo tables, or only the simulations, into the page
  meshcast reproduce --only worked,malani,wang,wang-paths,seed002,seed003 --write docs/REPRODUCTION.md
  meshcast reproduce --only flit-seed003-table1,flit-seed003-figures,flit-seed002-figures --write docs/REPRODUCTION.md

  # 3 runs per point: checks that every experiment runs, in seconds
  meshcast reproduce --quick

  # refresh the tables of docs/REPRODUCTION.md between its markers
  meshcast reproduce --write docs/REPRODUCTION.md";

const ALGOS_EXAMPLES: &str = "\
Examples:
  meshcast algos
  meshcast algos --json";

const ROUTE_EXAMPLES: &str = "\
Nodes are written as comma-separated coordinates, dimension 0 first: \"3,4\" is x=3, y=4.
Destinations are separated by spaces or semicolons. Times are in hops (store-and-forward);
a link's hop number is the time the message arrives over it under the one-port model.
Path- and unicast-based plans are also measured under the wormhole model (--length, --startup,
--port; defaults of seed 001 §4.3: L = 20 flits, no start-up, all-port), in cycles: a worm
reaches the node j hops down its route startup + j + L after it leaves.

Examples:
  # seed 001 Example 3.2.1.1: DIAG on an 8x8 mesh, text report and a drawing
  meshcast route --topology mesh:8x8 --source 0,0 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo diag --svg tree.svg

  # every algorithm that supports the topology, side by side
  meshcast route --topology mesh:8x8 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --all

  # VH with the best port order at every node, as JSON (schema meshcast.route/1, docs/CLI.md)
  meshcast route --topology mesh:8x8 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo vh --schedule optimal --json

  # seed 001 Example 3.3.1: XY-path's two worms, their routes and drops, and a drawing of them
  meshcast route --topology mesh:10x10 --dests \"2,0 3,1 7,2 7,5 0,4 1,3\" --algo xy-path --svg worms.svg

  # the same worms with seed 003's 64-flit messages, 33-cycle start-up, one worm at a time
  meshcast route --topology mesh:10x10 --dests \"2,0 3,1 7,2 7,5 0,4 1,3\" --algo xy-path --length 64 --startup 33 --port one

  # seed 002 Figure 5: the two-port unicast-based algorithm, its steps and channel contention
  meshcast route --topology mesh:6x6 --source 3,3 --dests \"0,1 3,1 2,2 5,2 2,5\" --algo multiport --port 2

  # a 3D mesh: the drawing shows one grid per z-layer
  meshcast route --topology mesh:5x5x5 --dests \"0,3,0 1,3,0 1,4,2 2,3,0 3,1,0 4,3,3\" --algo dds --svg dds.svg";

/// Multicast routing in mesh and torus networks: list the algorithms, route a multicast and draw
/// its plan, measure and compare the algorithms, sweep them, set them against exact optima,
/// simulate them flit by flit, route whole message sets, and reproduce the papers' tables.
#[derive(Debug, Parser)]
// `term_width = 0`: keep the source formatting, so the example commands in the help stay on one
// line and can be copied, whatever clap features the build enables (`wrap_help` wraps them).
#[command(name = "meshcast", version, after_help = TOP_EXAMPLES, term_width = 0)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every algorithm: family, topologies, model, shortest-path property, paper.
    #[command(after_help = ALGOS_EXAMPLES)]
    Algos(AlgosArgs),
    /// Route a multicast (one algorithm, or all side by side) and report its traffic, times,
    /// sends (tree links, worms or unicasts) and arrival times; optionally draw it.
    #[command(after_help = ROUTE_EXAMPLES)]
    Route(RouteArgs),
    /// Run every worked example and Monte-Carlo table of the seeds and the flit-level
    /// simulations of seeds 002 and 003, and print the published numbers against ours, as the
    /// tables of docs/REPRODUCTION.md (which explains every difference).
    #[command(after_help = REPRODUCE_EXAMPLES)]
    Reproduce(ReproduceArgs),
    /// Monte-Carlo sweep: per destination count K, random multicasts routed by every algorithm
    /// on the same destinations; means, 95% CIs and paired differences as tables, CSV/JSON and
    /// plots; shardable and resumable.
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep(SweepArgs),
    /// Merge the shard files of one sweep (`meshcast sweep --shard i/N --out FILE.json`) into
    /// the results the unsharded sweep gives, exactly.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// Flit-level wormhole simulation under load: latency, CV of arrival times, throughput and
    /// saturation of multicast algorithms amid unicast traffic, at one load or a sweep of loads.
    #[command(after_help = crate::simulate::SIMULATE_EXAMPLES)]
    Simulate(crate::simulate::SimulateArgs),
    /// Serve the web explorer (and its JSON API) on this machine: pick a topology, click
    /// destinations, watch every algorithm's plan and compare them (docs/WEB.md).
    #[command(after_help = SERVE_EXAMPLES)]
    Serve(ServeArgs),
    /// Route mcast(n, d, c) message sets on the store-and-forward mesh simulator (seed 004):
    /// steps, steps/√(cn), steps/√n, buffer peaks and link traffic per algorithm over sweeps of
    /// sides, c and d, with fitted growth exponents; table, CSV or JSON.
    #[command(after_help = MSETS_EXAMPLES)]
    Msets(crate::msets::MsetsArgs),
    /// Measure every tree and path algorithm against the exact optima (OMT, MST, OMP of seed
    /// 001 §2.1) on 6×6, 8×8 and 4×4×4 meshes and tori, K = 2…16, as the tables of
    /// docs/OPTIMALITY.md, with the worst instances drawn as SVG.
    #[command(after_help = OPTIMALITY_EXAMPLES)]
    Optimality(OptimalityArgs),
    /// Time the library's plan construction: ns per link and µs per plan per algorithm on
    /// random multicasts of a given topology and K, the growth exponent across topologies, and
    /// a digest of the plans (docs/PERFORMANCE.md).
    #[command(after_help = crate::bench::BENCH_EXAMPLES)]
    Bench(crate::bench::BenchArgs),
}

const SERVE_EXAMPLES: &str = "\
The first line on standard output is the address served, e.g. http://127.0.0.1:8080/; the
server runs until interrupted (Ctrl-C). API: GET /api/algos, GET /api/examples,
POST /api/route (the fields of `meshcast route`, the JSON of `meshcast route --json`),
POST /api/optima (what `meshcast route --optima --json` prints under `optima`), POST /api/svg,
POST /api/random. A POST needs `Content-Type: application/json`; the Host header must name
this machine by a loopback name or the bound address (docs/WEB.md).

Examples:
  meshcast serve
  meshcast serve --port 0            # any free port; read the address from standard output
  meshcast serve --bind 0.0.0.0 --allow-remote --port 8080 --allow-host mybox.local";

/// Flags of `meshcast serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The TCP port; 0 picks a free one (printed on standard output).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address also needs --allow-remote.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: std::net::IpAddr,
    /// Allow --bind to name an address other machines can reach (the server has no
    /// authentication; a warning is printed on standard error).
    #[arg(long)]
    pub allow_remote: bool,
    /// A host name the Host header may carry besides localhost, loopback addresses and the
    /// --bind address (repeatable): any other is refused (421), so a DNS-rebinding page cannot
    /// reach the server.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Most connections open at once; further clients wait in the kernel's queue until one
    /// closes.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_connections: u32,
    /// Seconds a connection may take to send a request's header, and may stay idle between
    /// requests, before it is closed.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub header_timeout: u32,
    /// Seconds a request may take to send its body (408 after), may wait for a worker (503
    /// after), and a client may read nothing of an answer (the connection is closed after).
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub request_timeout: u32,
    /// Routing requests computed at once (default: the number of cores); exact optima are
    /// computed one at a time besides.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub workers: Option<u32>,
    /// Requests that may wait for a worker (for routing, and for optima each); more are
    /// answered 503 at once.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub queue: u32,
}

const MSETS_EXAMPLES: &str = "\
Examples:
  meshcast msets --sides 16,32,64 --c 4,16
  meshcast msets --sides 16,32,64,128 --c 16 --instance theorem1 --out t1.csv
  meshcast msets --sides 32 --c 4 --d 2,4,8,16 --algos theorem2 --json
  meshcast msets --sides 64 --c 16 --algos naive --buffer 5";

const OPTIMALITY_EXAMPLES: &str = "\
Examples:
  meshcast optimality --quick
  meshcast optimality --write docs/OPTIMALITY.md --svg-dir docs/img/optimality";

/// Flags of `meshcast optimality`.
#[derive(Debug, Args)]
pub struct OptimalityArgs {
    /// Few runs per point (2) and K up to 6: checks that everything runs, in seconds.
    #[arg(long)]
    pub quick: bool,
    /// Random multicasts per topology and K (default 20; 2 with --quick).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: Option<u32>,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rewrite the generated tables of this Markdown file in place (between its
    /// `<!-- meshcast reproduce: optimality-NAME -->` and `<!-- end -->` markers), atomically.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Draw each worst instance (the heuristic's plan and the optimum) as SVG files here.
    #[arg(long, value_name = "DIR", requires = "write")]
    pub svg_dir: Option<PathBuf>,
    /// No progress: neither the progress bars nor the line naming each experiment.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

const SWEEP_EXAMPLES: &str = "\
K lists: comma-separated counts and inclusive ranges FIRST:LAST[:STEP] (step 1 by default):
10:390:10 is 10, 20, ..., 390; 5,10,20:100:20 is 5, 10, 20, 40, 60, 80, 100.
Unit (K, run) draws its source and destinations from its own random stream of --seed, so every
algorithm sees the same multicasts and the results do not depend on the thread count or shards.
Statistics: mean, sample sd, n and Student-t 95% confidence interval per K; the \"mean\" row is
seed 001 Definition 4.1.1 (every sample of every K); paired differences a - b between algorithms
have their own paired CI. --model wormhole adds the wormhole latency (start-up + longest worm
path + L, in cycles) of path- and unicast-based algorithms. Formats of --out, shard and state
files: docs/SWEEPS.md.

Examples:
  # seed 001's 2D mesh experiment: the table on stdout, every number in a CSV, three plots
  meshcast sweep --topology mesh:20x20 --algos vh,diag,dds,min --k 10:380:10 --runs 1000 --seed 1 --out r.csv --plot r.svg

  # seed 001 §4.3: XY-path against Lin under wormhole switching (L = 20 flits, all-port)
  meshcast sweep --topology mesh:20x20 --algos xy-path,lin --k 10:370:10 --model wormhole --length 20 --startup 0

  # every algorithm that supports the torus, sources anywhere, best port order
  meshcast sweep --topology torus:8x8 --algos all --k 5,10,20:60:20 --runs 200 --placement random --schedule optimal

  # long sweeps: progress is saved to r.partial.json as points complete; after a crash
  meshcast sweep --topology mesh:32x32 --algos all --k 16:1008:16 --runs 1000 --out r.csv --resume

  # one shard of eight (e.g. a Slurm array task), merged later
  meshcast sweep --topology mesh:20x20 --algos all --k 10:380:10 --shard 3/8 --out shard-3.json
  meshcast merge shard-*.json --out r.csv --plot r.svg";

const MERGE_EXAMPLES: &str = "\
Every shard file must come from the same sweep settings (and meshcast version), and together
they must hold each shard index 0..N exactly once. The merge is exact: its table, CSV and JSON
are byte for byte those of the unsharded sweep.

Examples:
  meshcast merge shard-*.json --out r.csv --plot r.svg
  meshcast merge shard-0.json shard-1.json --out r.json";

/// Flags of `meshcast sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// The network: mesh:20x20, torus:10x10x10, hypercube:6.
    #[arg(long, short = 't', value_name = "TOPOLOGY")]
    pub topology: String,
    /// Comma-separated algorithm names (see `meshcast algos`), in report order, or `all` (`trees`):
    /// every algorithm (every tree algorithm) that supports the topology.
    #[arg(long, short = 'a', value_name = "NAMES")]
    pub algos: String,
    // Its help is an attribute, not a doc comment, because rustdoc would read `[:STEP]` as a
    // link.
    #[arg(
        long,
        short = 'k',
        value_name = "LIST",
        help = "Destination counts: a comma list of counts and ranges FIRST:LAST[:STEP], e.g. 10:390:10"
    )]
    pub k: String,
    /// Random multicasts per destination count.
    #[arg(long, default_value_t = 1000, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where each multicast's source is: the origin (as in the theses) or a random node.
    #[arg(long, value_enum, default_value_t = PlacementArg::Origin)]
    pub placement: PlacementArg,
    /// The port order the one-port times are measured with.
    #[arg(long, value_enum, default_value_t = ScheduleArg::Paper)]
    pub schedule: ScheduleArg,
    /// Measure every plan store-and-forward (one-port and all-port time, traffic); `wormhole`
    /// also measures the wormhole latency of path- and unicast-based plans.
    #[arg(long, value_enum, default_value_t = ModelArg::StoreAndForward)]
    pub model: ModelArg,
    #[command(flatten)]
    pub wormhole: WormholeArgs,
    #[command(flatten)]
    pub params: ParamArgs,
    /// Also write every statistic to FILE.csv or FILE.json (one record per algorithm, K and
    /// metric). With --shard: the shard file, FILE.json, for `meshcast merge`.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also plot time, traffic and additional traffic against K, to FILE.svg or FILE.png.
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    pub plot: Option<PathBuf>,
    /// Run only shard i of N (0 ≤ i < N): the multicasts whose index is i modulo N. Needs
    /// --out FILE.json; merge the N files with `meshcast merge`.
    #[arg(long, value_name = "i/N", requires = "out")]
    pub shard: Option<String>,
    /// Continue an interrupted sweep from the state file beside --out (FILE.partial.json):
    /// only the destination counts it has not finished are run. Without a state file, start.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// No progress bar (it is also hidden when standard error is not a terminal).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also measure every algorithm against exact optima, on the same multicasts: a comma list
    /// of omt (least traffic of a shortest-path tree; also opt-traffic), mst (minimal Steiner
    /// tree), omp (shortest one-worm walk), opt-time (least one-port time of a shortest-path
    /// tree). Small instances only: K ≤ 16 (docs/OPTIMALITY.md gives sizes and times). With
    /// --shard the shard file keeps the gap tallies for `meshcast merge`; not with --resume.
    #[arg(long, value_name = "LIST", conflicts_with = "resume")]
    pub baseline: Option<String>,
}

/// Flags of `meshcast merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard files written by `meshcast sweep --shard i/N --out FILE.json`.
    #[arg(required = true, value_name = "SHARD_FILES")]
    pub shards: Vec<PathBuf>,
    /// Also write every statistic to FILE.csv or FILE.json, as `meshcast sweep --out` does.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also plot time, traffic and additional traffic against K, to FILE.svg or FILE.png.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// Flags of `meshcast reproduce`.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Few runs per point (3): checks that every experiment runs, in seconds, not that the
    /// numbers match. What CI runs.
    #[arg(long)]
    pub quick: bool,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run only these comma-separated sections: worked, malani, wang, wang-paths, seed002,
    /// seed003 (the Monte-Carlo tables, 20-24 seconds) and flit-seed003-table1,
    /// flit-seed003-figures, flit-seed002-figures (the flit-level simulations, 28-34 seconds).
    #[arg(long, value_name = "NAMES")]
    pub only: Option<String>,
    /// Rewrite the generated tables of this Markdown file in place (between its
    /// `<!-- meshcast reproduce: NAME -->` and `<!-- end -->` markers), atomically.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// No progress lines (there are none either when standard error is not a terminal).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Flags of `meshcast algos`.
#[derive(Debug, Args)]
pub struct AlgosArgs {
    /// Print a JSON array (one object per algorithm) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `meshcast route`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["algo", "all"]))]
pub struct RouteArgs {
    /// The network: mesh:8x8, torus:10x10x10, hypercube:6 (sizes at least 2).
    #[arg(long, short = 't', value_name = "TOPOLOGY")]
    pub topology: String,
    /// The source node, e.g. 0,0 [default: the origin, every coordinate 0].
    #[arg(long, short = 's', value_name = "NODE", allow_hyphen_values = true)]
    pub source: Option<String>,
    /// The destination nodes, separated by spaces or semicolons: "4,6 6,6 0,2".
    #[arg(long, short = 'd', value_name = "NODES", allow_hyphen_values = true)]
    pub dests: String,
    /// The algorithm to run (see `meshcast algos`), e.g. vh, diag, dds, xy-path, lin.
    #[arg(long, short = 'a', value_name = "NAME")]
    pub algo: Option<String>,
    /// Run every algorithm that supports the topology and print one comparison table.
    #[arg(long)]
    pub all: bool,
    /// The port order at each node: the one the algorithm's paper states, or the order that
    /// gives the least one-port time for the same tree.
    #[arg(long, value_enum, default_value_t = ScheduleArg::Paper)]
    pub schedule: ScheduleArg,
    #[command(flatten)]
    pub wormhole: WormholeArgs,
    /// Also the circuit-switching latency (seed 001 eq. 2.1.4): a control packet of FLITS sets
    /// up each send's circuit hop by hop, then the message crosses it (path- and unicast-based
    /// plans; same --startup, --length and --port).
    #[arg(long, value_name = "FLITS", value_parser = clap::value_parser!(u32).range(0..=MAX_CYCLES))]
    pub control: Option<u32>,
    /// Also the virtual cut-through latency (seed 001 eq. 2.1.5): every node reads a header of
    /// FLITS, at least 1, before the packet cuts through (path- and unicast-based plans; 1 =
    /// wormhole).
    #[arg(long, value_name = "FLITS", value_parser = clap::value_parser!(u32).range(1..=MAX_CYCLES))]
    pub header: Option<u32>,
    #[command(flatten)]
    pub params: ParamArgs,
    /// Also the exact optima of the request (docs/OPTIMALITY.md): the least traffic of a
    /// shortest-path tree (OMT) and of any tree (MST), the shortest one-worm walk (OMP), the least
    /// one-port time of a shortest-path tree; each "–" with the reason when the request is beyond
    /// its solver's limits (K ≤ 16, small networks). With --json: {"reports": […], "optima": …}.
    #[arg(long)]
    pub optima: bool,
    /// Print JSON (schema meshcast.route/1, see docs/CLI.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw the tree (or the worms) as an SVG file (1 to 3 dimensions, up to 4096 nodes; not
    /// with --all).
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    pub svg: Option<PathBuf>,
}
