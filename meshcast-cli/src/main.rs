//! `meshcast`: the command line of the meshcast library.
//!
//! A thin layer: [`args`] parses the command line, each subcommand's module ([`route`],
//! [`sweep`], [`simulate`], …) has the library check the request and do the work, [`report`]
//! turns the result into plain data, and [`text`], JSON or [`draw`] format
//! it; [`output`] writes it; [`sweep`] runs and merges Monte-Carlo sweeps. Every error is printed
//! as one line, `error: <message>` (clap's usage errors too), and the process exits with 2 for
//! bad input and 1 when an output cannot be written or a run fails ([`status`],
//! docs/RELIABILITY.md).

mod args;
mod bench;
mod draw;
mod flags;
mod msets;
mod optimality;
mod output;
mod plot;
mod progress;
mod report;
mod reproduce;
mod route;
mod serve;
mod simulate;
mod status;
mod sweep;
mod text;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};

use args::{Cli, Command};
use status::exit_status;

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match &cli.command {
        Command::Algos(a) => route::algos(a),
        Command::Route(r) => route::route(r),
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

/// Clap's message without its usage and help pointer, on one line: `error: the following
/// required arguments were not provided:\n  --load <LOAD>` becomes `the following required
/// arguments were not provided: --load <LOAD>`; a tip follows after `; `.
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

#[cfg(test)]
mod tests {
    use super::*;

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
