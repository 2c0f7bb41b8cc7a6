//! The command line as clap sees it: subcommands, flags, their one-line help and the worked
//! examples shown by `--help`. Nothing here checks values against a topology: the library does
//! that when the request is built.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const TOP_EXAMPLES: &str = "\
Examples:
  meshcast algos
  meshcast route --topology mesh:8x8 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo diag
  meshcast route --topology mesh:8x8 --source 0,0 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo diag --svg tree.svg
  meshcast route --topology torus:10x10x10 --dests \"1,2,3 9,9,9\" --all

Exit status: 0 on success, 2 for bad input (arguments, topology, nodes, algorithm),
1 when an output (the --svg file, standard output) cannot be written.";

const REPRODUCE_EXAMPLES: &str = "\
Each row: the example, the published traffic / one-port time (– where the paper gives none), ours
with the paper's port order, ours with the optimal port order, and whether they agree (with the
cause where they do not). Every plan is validated before it is measured.

Examples:
  meshcast reproduce";

const ALGOS_EXAMPLES: &str = "\
Examples:
  meshcast algos
  meshcast algos --json";

const ROUTE_EXAMPLES: &str = "\
Nodes are written as comma-separated coordinates, dimension 0 first: \"3,4\" is x=3, y=4.
Destinations are separated by spaces or semicolons. Times are in hops (store-and-forward);
a link's hop number is the time the message arrives over it under the one-port model.

Examples:
  # seed 001 Example 3.2.1.1: DIAG on an 8x8 mesh, text report and a drawing
  meshcast route --topology mesh:8x8 --source 0,0 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo diag --svg tree.svg

  # every algorithm that supports the topology, side by side
  meshcast route --topology mesh:8x8 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --all

  # VH with the best port order at every node, as JSON (schema meshcast.route/1, docs/CLI.md)
  meshcast route --topology mesh:8x8 --dests \"4,6 6,6 0,2 4,0 3,0 7,4\" --algo vh --schedule optimal --json

  # a 3D mesh: the drawing shows one grid per z-layer
  meshcast route --topology mesh:5x5x5 --dests \"0,3,0 1,3,0 1,4,2 2,3,0 3,1,0 4,3,3\" --algo dds --svg dds.svg";

/// Multicast routing in mesh and torus networks: list the algorithms, build a multicast tree,
/// measure it, compare algorithms and draw the tree.
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
    /// Build a multicast tree (one algorithm, or all side by side) and report its traffic,
    /// times, links and arrival times; optionally draw it.
    #[command(after_help = ROUTE_EXAMPLES)]
    Route(RouteArgs),
    /// Run every worked example of seeds 000 and 001 and print the published numbers against
    /// ours, as the table of docs/REPRODUCTION.md (which explains every difference).
    #[command(after_help = REPRODUCE_EXAMPLES)]
    Reproduce(ReproduceArgs),
}

/// Flags of `meshcast reproduce`.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Few runs per point (10): checks that every experiment runs, in seconds, not that the
    /// numbers match. What CI runs.
    #[arg(long)]
    pub quick: bool,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rewrite the generated tables of this Markdown file in place (between its
    /// `<!-- meshcast reproduce: NAME -->` and `<!-- end -->` markers), atomically.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
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
    #[arg(long, short = 's', value_name = "NODE")]
    pub source: Option<String>,
    /// The destination nodes, separated by spaces or semicolons: "4,6 6,6 0,2".
    #[arg(long, short = 'd', value_name = "NODES")]
    pub dests: String,
    /// The algorithm to run (see `meshcast algos`): vh, dist, min, diag, dds, pair, pair-min.
    #[arg(long, short = 'a', value_name = "NAME")]
    pub algo: Option<String>,
    /// Run every algorithm that supports the topology and print one comparison table.
    #[arg(long)]
    pub all: bool,
    /// The port order at each node: the one the algorithm's paper states, or the order that
    /// gives the least one-port time for the same tree.
    #[arg(long, value_enum, default_value_t = ScheduleArg::Paper)]
    pub schedule: ScheduleArg,
    /// Print JSON (schema meshcast.route/1, see docs/CLI.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw the tree as an SVG file (1 to 3 dimensions, up to 4096 nodes; not with --all).
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    pub svg: Option<PathBuf>,
}

/// `--schedule` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScheduleArg {
    /// The transmission priority the algorithm's paper states.
    Paper,
    /// Per node, the send with the longest remaining work first (least one-port time).
    Optimal,
}
