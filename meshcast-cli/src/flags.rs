//! Flag groups and flag values several subcommands share: `--algos`, the wormhole model's flags,
//! the algorithm settings, `--port`, `--model`, `--placement` and `--schedule`. A leaf of the
//! command line: [`crate::args`] and the subcommands that define their own flags (simulate,
//! bench) use it, and it uses neither.

use std::collections::BTreeSet;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use meshcast::algo::{self, AlgoInfo, Params, REGISTRY};
use meshcast::eval::{Ports, Wormhole};
use meshcast::plan::PlanKind;
use meshcast::schedule::Schedule;
use meshcast::topology::Shape;

/// How a command reads `--algos`: a comma list of registry names (any letter case; the rows in
/// list order), or a keyword, `all` (every algorithm) or `trees` (every tree algorithm), in
/// registry order. The one reader of sweep's, simulate's and bench's `--algos`; each command
/// says what else it asks of the list.
#[derive(Clone, Copy, Debug)]
pub struct AlgosFlag<'a> {
    /// The topology the command runs on: a keyword selects the algorithms that support it
    /// (`None`: every topology, each command skipping what a topology does not support).
    pub topology: Option<&'a Shape>,
    /// Whether a named algorithm must support `topology`, checked as the list is read
    /// (simulate; a sweep checks support once all its settings are read).
    pub check_named: bool,
    /// Whether each algorithm may be named once only (a sweep's records and pairs are keyed by
    /// name).
    pub distinct: bool,
}

impl AlgosFlag<'_> {
    /// The algorithms `text` selects; a refusal names the flag and its value.
    pub fn parse(&self, text: &str) -> Result<Vec<&'static AlgoInfo>> {
        self.read(text).with_context(|| format!("--algos '{text}'"))
    }

    fn read(&self, text: &str) -> Result<Vec<&'static AlgoInfo>> {
        match text.trim().to_ascii_lowercase().as_str() {
            "all" => return self.every(None),
            "trees" => return self.every(Some(PlanKind::Tree)),
            _ => {}
        }
        let mut seen = BTreeSet::new();
        text.split(',')
            .map(|name| {
                let info = algo::find(name.trim())?;
                if self.distinct && !seen.insert(info.name) {
                    bail!("algorithm '{}' is listed twice: list each once", info.name);
                }
                if let Some(shape) = self.topology.filter(|_| self.check_named) {
                    info.check_support(shape)?;
                }
                Ok(info)
            })
            .collect()
    }

    /// Every algorithm of `family` (`None`: of any) that supports the topology.
    fn every(&self, family: Option<PlanKind>) -> Result<Vec<&'static AlgoInfo>> {
        let chosen: Vec<_> = REGISTRY
            .iter()
            .filter(|a| family.is_none_or(|f| a.family == f))
            .filter(|a| self.topology.is_none_or(|s| a.support.covers(s)))
            .collect();
        match self.topology {
            Some(shape) if chosen.is_empty() => bail!("no algorithm supports {shape}"),
            _ => Ok(chosen),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: Vec<&AlgoInfo>) -> Vec<&str> {
        v.iter().map(|a| a.name).collect()
    }

    /// How `meshcast sweep` reads `--algos`.
    fn sweep(shape: &Shape) -> AlgosFlag<'_> {
        AlgosFlag {
            topology: Some(shape),
            check_named: false,
            distinct: true,
        }
    }

    #[test]
    fn algorithm_lists() {
        let torus3: Shape = "torus:4x4x4".parse().unwrap();
        let algorithms = |text| sweep(&torus3).parse(text);
        assert_eq!(names(algorithms("dds, VH").unwrap()), ["dds", "vh"]);
        let all = names(algorithms("all").unwrap());
        assert!(all.contains(&"diag") && !all.contains(&"pair"), "{all:?}");
        assert!(algorithms("vh,vh").is_err());
        assert!(algorithms("vh,nope").is_err());
    }

    #[test]
    fn every_command_takes_both_keywords() {
        let mesh3: Shape = "mesh:4x4x4".parse().unwrap();
        let trees = names(sweep(&mesh3).parse(" Trees ").unwrap());
        assert!(trees.contains(&"vh") && !trees.contains(&"pair") && !trees.contains(&"lin"));
        let anywhere = AlgosFlag {
            topology: None,
            check_named: false,
            distinct: false,
        };
        let every_tree = names(anywhere.parse("trees").unwrap());
        assert!(every_tree.contains(&"pair") && !every_tree.contains(&"xy-path"));
        assert_eq!(anywhere.parse("ALL").unwrap().len(), REGISTRY.len());
    }

    #[test]
    fn refusals_name_the_flag_and_keep_their_order() {
        let mesh3: Shape = "mesh:4x4x4".parse().unwrap();
        let simulate = AlgosFlag {
            topology: Some(&mesh3),
            check_named: true,
            distinct: false,
        };
        let message = |flag: AlgosFlag, text| format!("{:#}", flag.parse(text).unwrap_err());
        assert_eq!(
            message(simulate, "lin,nope"),
            "--algos 'lin,nope': algorithm 'lin' does not support mesh:4x4x4: it runs on 2D mesh"
        );
        assert!(message(simulate, "nope,lin")
            .starts_with("--algos 'nope,lin': unknown algorithm 'nope'"));
        assert_eq!(names(simulate.parse("vh,vh").unwrap()), ["vh", "vh"]);
        assert_eq!(
            names(sweep(&mesh3).parse("lin").unwrap()),
            ["lin"],
            "a sweep checks support later"
        );
        assert_eq!(
            message(sweep(&mesh3), "vh,VH"),
            "--algos 'vh,VH': algorithm 'vh' is listed twice: list each once"
        );
    }
}
