//! `meshcast algos` and `meshcast route`: the request the flags describe, routed by one or every
//! algorithm, reported as text or JSON (and drawn with `--svg`). The web server answers its
//! `/api/algos`, `/api/route`, `/api/svg` and `/api/optima` with these same functions.

use anyhow::{Context, Result};
use meshcast::algo::{self, Request, REGISTRY};
use meshcast::evaluation::Models;
use meshcast::schedule::Schedule;
use meshcast::topology::Shape;

use crate::args::{AlgosArgs, RouteArgs};
use crate::report::{self, AlgoRow, OptimaReport, RouteReport, RoutesWithOptima};
use crate::{draw, output, text};

/// `meshcast algos`.
pub fn algos(args: &AlgosArgs) -> Result<String> {
    let rows: Vec<AlgoRow> = REGISTRY.iter().map(AlgoRow::of).collect();
    if args.json {
        json(&rows)
    } else {
        Ok(text::algos(&rows))
    }
}

/// `meshcast route`.
pub fn route(args: &RouteArgs) -> Result<String> {
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
pub fn request(args: &RouteArgs) -> Result<Request> {
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
pub fn models(args: &RouteArgs) -> Models {
    Models {
        wormhole: args.wormhole.model(),
        control: args.control,
        header: args.header,
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String> {
    Ok(report::to_json(value)?)
}
