//! `meshcast`: the command line of the meshcast library.
//!
//! A thin layer: [`args`] parses the command line, the library checks the request and builds
//! the tree, [`report`] turns the result into plain data, and [`text`], JSON or [`draw`] format
//! it; [`output`] writes it; [`sweep`] runs and merges Monte-Carlo sweeps. Every error is printed
//! as one line, `error: <message>` (clap's usage errors too), and the process exits with 2 for
//! bad input and 1 when an output cannot be written or a run fails (docs/RELIABILITY.md).

mod args;
mod bench;
mod draw;
mod msets;
mod optimality;
mod output;
mod plot;
mod report;
mod reproduce;
mod serve;
mod simulate;
mod sweep;
mod text;

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};
use meshcast::algo::{self, Request, REGISTRY};
use meshcast::schedule::Schedule;
use meshcast::topology::Shape;
use meshcast::{PlanError, WormholeError};

use args::{AlgosArgs, Cli, Command, RouteArgs};
use report::{AlgoRow, Models, OptimaReport, RouteReport, RoutesWithOptima};

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match &cli.command {
        Command::Algos(a) => algos(a),
        Command::Route(r) => route(r),
        Command::Reproduce(r) => reproduce::run(r),
        Command::Sweep(s) => sweep::run(s),
        Command::Merge(m) => sweep::merge(m),
        Command::Simulate(s) => simulate::run(s),
        Command::Serve(s) => serve::run(s),
        Command::Msets(m) => msets::run(m),
        Command::Optimality(o) => optimality::run(o),
        Command::Bench(b) => bench::run(b),
    };
    match result.and_then(|text| output::print(&text).context("cannot write to standard output")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // `{:#}` is the one-line chain "context: cause"; `{:?}` would add a backtrace.
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            ExitCode::from(exit_status(&e))
        }
    }
}

/// The command line, or clap's refusal as one line. Negative numbers are read as values, so
/// `--vcs -1` is refused for its value, not as an unknown flag `-1`. `--help` and `--version`
/// print and exit here, as does a command line with no subcommand (it gets the help).
fn parse() -> Result<Cli, String> {
    let command = Cli::command().mut_subcommands(|sub| sub.allow_negative_numbers(true));
    let error = match command.try_get_matches() {
        Ok(matches) => match Cli::from_arg_matches(&matches) {
            Ok(cli) => return Ok(cli),
            Err(e) => e,
        },
        Err(e) => e,
    };
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
        _ => Err(one_line(&error.render().to_string())),
    }
}

/// Clap's message without its usage and help pointer, on one line: "error: the following
/// required arguments were not provided:\n  --load <LOAD>" becomes "the following required
/// arguments were not provided: --load <LOAD>"; a tip follows after "; ".
fn one_line(rendered: &str) -> String {
    let mut line = String::new();
    let lines = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"));
    for l in lines {
        let l = l.strip_prefix("error: ").unwrap_or(l);
        if !line.is_empty() {
            line += if line.ends_with(':') { " " } else { "; " };
        }
        line += l;
    }
    // A negative count is refused by Rust's integer parser in its own words.
    line.replace("invalid digit found in string", "not a whole number ≥ 0")
}

/// 1 when the program failed (an output could not be written, an internal check failed, a
/// simulation deadlocked or lost a flit), 2 when the input was bad.
fn exit_status(e: &anyhow::Error) -> u8 {
    let run_failed = |c: &(dyn std::error::Error + 'static)| {
        matches!(
            c.downcast_ref::<WormholeError>(),
            Some(WormholeError::Deadlock { .. } | WormholeError::Conservation { .. })
        )
    };
    let failed = e
        .chain()
        .any(|c| c.is::<std::io::Error>() || c.is::<PlanError>() || run_failed(c));
    if failed {
        1
    } else {
        2
    }
}

/// `meshcast algos`.
fn algos(args: &AlgosArgs) -> Result<String> {
    let rows: Vec<AlgoRow> = REGISTRY.iter().map(AlgoRow::of).collect();
    if args.json {
        json(&rows)
    } else {
        Ok(text::algos(&rows))
    }
}

/// `meshcast route`.
fn route(args: &RouteArgs) -> Result<String> {
    let request = request(args)?;
    let schedule = args.schedule.into();
    let (reports, skipped) = match &args.algo {
        Some(name) => (vec![route_one(args, &request, name, schedule)?], Vec::new()),
        None => route_all(args, &request, schedule)?,
    };
    let optima = args.optima.then(|| OptimaReport::of(&request));
    if args.json {
        return match optima {
            Some(optima) => json(&RoutesWithOptima { reports, optima }),
            None if args.algo.is_some() => json(&reports[0]),
            None => json(&reports),
        };
    }
    let mut out = match &args.algo {
        Some(_) => text::route(&reports[0]),
        None => text::comparison(&reports, &skipped),
    };
    if let Some(optima) = &optima {
        out += &text::optima(optima);
    }
    Ok(out)
}

/// The request the flags describe; the source defaults to the origin.
fn request(args: &RouteArgs) -> Result<Request> {
    let shape: Shape = args
        .topology
        .parse()
        .with_context(|| format!("--topology '{}'", args.topology))?;
    let source = match &args.source {
        Some(text) => shape.parse_node(text),
        None => shape.node(&vec![0; shape.rank()]),
    }
    .with_context(|| format!("--source '{}'", args.source.as_deref().unwrap_or("origin")))?;
    let dests = shape
        .parse_nodes(&args.dests)
        .with_context(|| format!("--dests '{}'", args.dests))?;
    let params = args.params.params(args.wormhole.model().ports);
    Request::new(shape, source, dests)
        .with_context(|| format!("--dests '{}'", args.dests))?
        .with_params(params)
        .context("--td")
}

/// The report of algorithm `name`, its drawing written if `--svg` asks for it.
fn route_one(
    args: &RouteArgs,
    request: &Request,
    name: &str,
    schedule: Schedule,
) -> Result<RouteReport> {
    let info = algo::find(name)
        .and_then(|info| info.check_support(request.shape()).map(|()| info))
        .with_context(|| format!("--algo '{name}'"))?;
    if let Some(path) = &args.svg {
        output::check_extension("--svg", path, &["svg"])?;
        draw::check_drawable(request.shape())?;
    }
    let report = RouteReport::build(info, request, schedule, models(args))?;
    if let Some(path) = &args.svg {
        let svg = draw::render(request.shape(), &report).to_string();
        output::write_atomically(path, svg.as_bytes())
            .with_context(|| format!("cannot write the SVG file '{}'", path.display()))?;
    }
    Ok(report)
}

/// The algorithms that do not support a topology, each with the topologies it does support.
type Skipped = Vec<(String, String)>;

/// Every algorithm that supports the topology, on the same request; and those that do not.
fn route_all(
    args: &RouteArgs,
    request: &Request,
    schedule: Schedule,
) -> Result<(Vec<RouteReport>, Skipped)> {
    let (runs, skipped): (Vec<_>, Vec<_>) = REGISTRY
        .iter()
        .partition(|info| info.support.covers(request.shape()));
    let reports = runs
        .into_iter()
        .map(|info| RouteReport::build(info, request, schedule, models(args)))
        .collect::<Result<Vec<_>>>()?;
    let skipped = skipped
        .iter()
        .map(|info| (info.name.to_string(), info.support.to_string()))
        .collect();
    Ok((reports, skipped))
}

/// The models of the route flags.
fn models(args: &RouteArgs) -> Models {
    Models {
        wormhole: args.wormhole.model(),
        control: args.control,
        header: args.header,
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String> {
    Ok(report::to_json(value)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_run_exits_1_and_bad_input_2() {
        let status = |e: WormholeError| exit_status(&anyhow::Error::from(e).context("--algos: qg"));
        let deadlock = WormholeError::Deadlock {
            cycle: 30_000,
            idle: 20_000,
            waiting: vec!["worm 3 waits".into()],
        };
        assert_eq!(status(deadlock), 1);
        let lost = WormholeError::Conservation {
            cycle: 7,
            what: "a flit too many".into(),
        };
        assert_eq!(status(lost), 1);
        let too_few = WormholeError::VirtualChannels {
            topology: "torus:4x4".into(),
            vcs: 1,
            need: 2,
        };
        assert_eq!(status(too_few), 2);
        let unwritable = std::io::Error::other("disk full");
        assert_eq!(exit_status(&anyhow::Error::from(unwritable)), 1);
    }

    #[test]
    fn clap_messages_become_one_line() {
        let rendered = "error: the following required arguments were not provided:\n  --load <LOAD>\n\nUsage: meshcast simulate --load <LOAD>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered),
            "the following required arguments were not provided: --load <LOAD>"
        );
        let tip = "error: unexpected argument '--vsc' found\n\n  tip: a similar argument exists: '--vcs'\n\nUsage: x\n";
        assert_eq!(
            one_line(tip),
            "unexpected argument '--vsc' found; tip: a similar argument exists: '--vcs'"
        );
    }
}
