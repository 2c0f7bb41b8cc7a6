//! Flag groups and flag values several subcommands share: the wormhole model's flags, the
//! algorithm settings, `--port`, `--model`, `--placement` and `--schedule`. A leaf of the
//! command line: [`crate::args`] and the subcommands that define their own flags (simulate,
//! bench) use it, and it uses neither.

use clap::{Args, ValueEnum};
use meshcast::algo::Params;
use meshcast::eval::{Ports, Wormhole};
use meshcast::schedule::Schedule;

/// `--model` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// Store-and-forward metrics only.
    StoreAndForward,
    /// Also the wormhole latency of path- and unicast-based plans (--length, --startup, --port).
    Wormhole,
}

/// The wormhole model's flags (seed 001 §2.1.2.4, eqs. 2.1.10–2.1.11): a send reaches the node
/// `j` hops down its route `startup + j + L` cycles after it starts.
#[derive(Debug, Args)]
pub struct WormholeArgs {
    /// Wormhole model: message length L in flits [default: 20, as seed 001 §4.3].
    #[arg(long, value_name = "FLITS", value_parser = clap::value_parser!(u32).range(1..=MAX_CYCLES))]
    pub length: Option<u32>,
    /// Wormhole model: start-up latency of every send, in cycles [default: 0, as seed 001 §4.3;
    /// seed 003 simulates 33].
    #[arg(long, value_name = "CYCLES", value_parser = clap::value_parser!(u32).range(0..=MAX_CYCLES))]
    pub startup: Option<u32>,
    /// How many sends a node starts at once — `one` (a worm `startup + L` after the previous),
    /// a number of ports `d` (seed 002's d-port architecture: message-passing steps, contention
    /// and a d-port store-and-forward time are counted with it too), or `all` [default: all, as
    /// seed 001 §4.3].
    #[arg(long, value_name = "PORTS", value_parser = parse_ports)]
    pub port: Option<Ports>,
}

/// The largest `--length` and `--startup`: large enough for any study, small enough that no
/// latency comes near `u32::MAX`.
pub const MAX_CYCLES: i64 = 1_000_000;

impl WormholeArgs {
    /// The model the flags give, the defaults of seed 001 §4.3 for the flags left out.
    pub fn model(&self) -> Wormhole {
        Wormhole {
            startup: self.startup.unwrap_or(0),
            length: self.length.unwrap_or(20),
            ports: self.port.unwrap_or(Ports::All),
        }
    }

    /// The first wormhole flag given on the command line, with its value.
    pub fn first_given(&self) -> Option<String> {
        let length = self.length.map(|l| format!("--length {l}"));
        let startup = self.startup.map(|s| format!("--startup {s}"));
        let port = self.port.map(|p| format!("--port {p}"));
        length.or(startup).or(port)
    }
}

/// The settings of the algorithms that take any (seed 003's QG, seed 002's multiport).
#[derive(Debug, Args)]
pub struct ParamArgs {
    /// Qualified Groups' threshold TD, in (0, 1] [default: 0.5, as seed 003]. The multiport
    /// algorithm builds its plan for the ports of --port (one, or a number d); with all-port it
    /// uses the paper's two ports.
    #[arg(long, value_name = "TD")]
    pub td: Option<f64>,
}

impl ParamArgs {
    /// The algorithm settings: `--td` and the port count of `ports`, the papers' defaults for
    /// what is left out. The library checks them when a request takes them.
    pub fn params(&self, ports: Ports) -> Params {
        algo_params(self.td.unwrap_or(Params::default().td), ports)
    }
}

/// The algorithm settings for threshold `td` on an architecture with `ports`: the multiport
/// algorithm builds for its port count, for all-port the paper's two ports.
pub fn algo_params(td: f64, ports: Ports) -> Params {
    Params {
        td,
        ports: ports.count().unwrap_or(Params::default().ports),
    }
}

/// `--port`: `one`, `all` or `d ≥ 1`, as the library parses it.
pub fn parse_ports(s: &str) -> Result<Ports, String> {
    s.parse().map_err(|e: meshcast::InputError| e.to_string())
}

/// `--placement` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlacementArg {
    /// Every source at the origin (every coordinate 0).
    Origin,
    /// Each multicast's source drawn uniformly among all nodes.
    Random,
}

/// `--schedule` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScheduleArg {
    /// The transmission priority the algorithm's paper states.
    Paper,
    /// Per node, the send with the longest remaining work first (least one-port time).
    Optimal,
    /// The paper's order with each node's wraparound links last (tori; a mesh keeps the paper's).
    WrapLast,
}

impl From<ScheduleArg> for Schedule {
    fn from(s: ScheduleArg) -> Schedule {
        match s {
            ScheduleArg::Paper => Schedule::Paper,
            ScheduleArg::Optimal => Schedule::Optimal,
            ScheduleArg::WrapLast => Schedule::WrapLast,
        }
    }
}
