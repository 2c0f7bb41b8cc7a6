//! The reports the command line prints, as plain serde data: one registry row ([`AlgoRow`]) and
//! one routed multicast ([`RouteReport`], JSON schema `meshcast.route/1`, documented in
//! docs/CLI.md). They are built from the library's types once; the text tables, the JSON output
//! and the SVG drawing all read them, and so can any other front end (a web server).
//!
//! [`OptimaReport`] (schema `meshcast.optima/1`) holds the exact optima of a request, the
//! yardsticks of `meshcast sweep --baseline`, for `meshcast route --optima` and the explorer.
//!
//! A report says what its plan's sends are ([`RouteReport::kind`]): tree edges, worms that drop
//! copies at the destinations they pass, or unicasts. Which models it is measured under is the
//! library's rule ([`Evaluation`]); this module only renders the evaluation as data.

use std::fmt;
use std::str::Lines;

use anyhow::Result;
use meshcast::algo::{AlgoInfo, Request};
use meshcast::evaluation::{Evaluation, Models};
use meshcast::experiment::gap::Baseline;
use meshcast::plan::Plan;
use meshcast::schedule::Schedule;
use meshcast::topology::{Node, Shape};
use meshcast::Error;
use serde::{Deserialize, Serialize};

/// The `schema` value of every [`RouteReport`]; bumped when a field changes meaning or goes away.
pub const ROUTE_SCHEMA: &str = "meshcast.route/1";

/// The `schema` value of every [`OptimaReport`].
pub const OPTIMA_SCHEMA: &str = "meshcast.optima/1";

/// A node as its coordinates, dimension 0 first.
pub type Coords = Vec<u32>;

/// One row of the algorithm registry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlgoRow {
    /// The name `--algo` takes.
    pub name: String,
    /// `tree`, `path` or `unicast`.
    pub family: String,
    /// The topologies it runs on, e.g. `n-D mesh, torus` or `2D mesh, torus`.
    pub topologies: String,
    /// The switching and port model it was designed for.
    pub model: String,
    /// Whether every destination is reached along a shortest path.
    pub shortest_path: bool,
    /// Paper and section the implementation follows.
    pub paper: String,
    /// One line on what it does.
    pub summary: String,
}

impl AlgoRow {
    /// The row of `info`.
    pub fn of(info: &AlgoInfo) -> AlgoRow {
        AlgoRow {
            name: info.name.to_string(),
            family: info.family.to_string(),
            topologies: info.support.to_string(),
            model: info.model.to_string(),
            shortest_path: info.shortest_path,
            paper: info.paper.to_string(),
            summary: info.summary.to_string(),
        }
    }
}

/// One algorithm run on one request: the tree, its metrics and when each destination is reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteReport {
    /// Always [`ROUTE_SCHEMA`].
    pub schema: String,
    /// The topology, e.g. `mesh:8x8`.
    pub topology: String,
    /// The source node.
    pub source: Coords,
    /// The destinations, in the order given.
    pub destinations: Vec<Coords>,
    /// The registry name of the algorithm.
    pub algorithm: String,
    /// What a send of the plan is: `tree` (one-hop edges), `path` (worms) or `unicast`.
    pub kind: String,
    /// The port order: `paper` or `optimal`.
    pub schedule: String,
    /// The wormhole model path- and unicast-based plans are measured with; `None` for trees.
    pub wormhole: Option<WormholeReport>,
    /// Traffic and times.
    pub metrics: MetricsReport,
    /// Every link the message crosses, in plan order.
    pub links: Vec<LinkReport>,
    /// Every send, in plan order: a tree edge, a worm or a unicast.
    pub sends: Vec<SendReport>,
    /// Every destination with its arrival times, in the order given.
    pub arrivals: Vec<ArrivalReport>,
}

/// The wormhole model (seed 001 eqs. 2.1.10–2.1.11): times in cycles, a flit crossing a channel
/// in one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WormholeReport {
    /// Start-up latency of every send, in cycles.
    pub startup: u32,
    /// Message length in flits.
    pub length: u32,
    /// `one` (a node's worms one after the other), a number of ports `d` (`d` at a time) or
    /// `all` (at once).
    pub port: String,
    /// Circuit switching's control packet length in flits, when it is measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<u32>,
    /// Virtual cut-through's header length in flits, when it is measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<u32>,
}

impl WormholeReport {
    /// The report of `models`.
    pub fn of(models: Models) -> WormholeReport {
        let w = models.wormhole;
        WormholeReport {
            startup: w.startup,
            length: w.length,
            port: w.ports.to_string(),
            control: models.control,
            header: models.header,
        }
    }
}

/// `L = 20 flits, start-up 0 cycles, all-port`.
impl fmt::Display for WormholeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "L = {} flits, start-up {} cycles, {}-port",
            self.length, self.startup, self.port
        )?;
        if let Some(control) = self.control {
            write!(f, ", circuit-switching control packet {control} flits")?;
        }
        if let Some(header) = self.header {
            write!(f, ", cut-through header {header} flits")?;
        }
        Ok(())
    }
}

/// The static metrics of a plan (times in hops, store-and-forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricsReport {
    /// Links used.
    pub traffic: u32,
    /// Links used minus the number of destinations.
    pub additional_traffic: u32,
    /// Multicast time when a node sends on one port at a time, in the chosen port order.
    pub one_port_time: u32,
    /// Multicast time when a node sends on all its ports at once.
    pub all_port_time: u32,
    /// Multicast time when a node sends on `d` ports at once (store-and-forward, in the chosen
    /// port order), when `--port D` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d_port: Option<DPortReport>,
    /// One-port time of the same tree with the optimal port order.
    pub optimal_one_port_time: u32,
    /// Wormhole latency in cycles (path- and unicast-based plans; `None` for trees).
    pub wormhole_latency: Option<u32>,
    /// Message-passing steps under the wormhole model's port count (unicast-based plans only).
    pub steps: Option<u32>,
    /// Channel contention of the steps (seed 002 Definitions 3–4; unicast-based plans only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionReport>,
    /// Circuit-switching latency in cycles (seed 001 eq. 2.1.4), when `--control` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circuit_switching_latency: Option<u32>,
    /// Virtual cut-through latency in cycles (seed 001 eq. 2.1.5), when `--header` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_through_latency: Option<u32>,
}

/// The store-and-forward time under seed 002's d-port architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DPortReport {
    /// Ports a node sends on at once, `d`.
    pub ports: u32,
    /// Multicast time, in hops.
    pub time: u32,
}

/// Pairs of messages that share a channel (seed 002 Definitions 3–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentionReport {
    /// Pairs sent in the same step.
    pub stepwise: u32,
    /// Pairs sent in different steps, neither preceding the other.
    pub depth: u32,
}

/// One link of the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkReport {
    /// Tail of the link.
    pub from: Coords,
    /// Head of the link.
    pub to: Coords,
    /// When the message arrives over it under the one-port model (the first hop is 1).
    pub hop: u32,
    /// When the message arrives over it under the all-port model, where a node sends on all
    /// its ports at once (seed 001 eq. 2.1.8): for a tree, the depth of the link's head.
    pub all_port_hop: u32,
    /// Index (0-based, plan order) of the send this link belongs to.
    pub send: usize,
}

/// One send of the plan: a tree edge, a worm or a unicast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendReport {
    /// The node that sends; it holds the message before the send starts.
    pub from: Coords,
    /// The nodes the send passes through, in order; it ends at the last.
    pub route: Vec<Coords>,
    /// The nodes it leaves a copy at, in route order (a tree edge or a unicast: its end).
    pub drops: Vec<Coords>,
    /// Under the wormhole model, when it leaves its sender (cycles); `None` for trees.
    pub start: Option<u32>,
    /// The message-passing step (from 1) it is sent in; unicast-based plans only.
    pub step: Option<u32>,
}

/// When one destination first holds the message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrivalReport {
    /// The destination.
    pub node: Coords,
    /// Arrival time under the one-port model, in the chosen port order.
    pub one_port: u32,
    /// Arrival time under the all-port model.
    pub all_port: u32,
    /// Arrival time under the wormhole model, in cycles; `None` for trees.
    pub wormhole: Option<u32>,
    /// The step it receives the message in; unicast-based plans only.
    pub step: Option<u32>,
}

/// The exact optima of one request, each computed by `meshcast::exact` or refused with the
/// solver's reason when the request is beyond its limits (docs/OPTIMALITY.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptimaReport {
    /// Always [`OPTIMA_SCHEMA`].
    pub schema: String,
    /// The topology, e.g. `mesh:8x8`.
    pub topology: String,
    /// The source node.
    pub source: Coords,
    /// The destinations, in the order given.
    pub destinations: Vec<Coords>,
    /// One per baseline of `meshcast sweep --baseline`, in its order: omt, mst, omp, opt-time.
    pub optima: Vec<OptimumReport>,
}

/// One exact optimum of a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptimumReport {
    /// Its name, as `--baseline` takes it: `omt`, `mst`, `omp` or `opt-time`.
    pub baseline: String,
    /// What it is the optimum of, e.g. `least traffic of a shortest-path tree`.
    pub meaning: String,
    /// The field of a route report's `metrics` it bounds: `traffic` or `one_port_time`.
    pub metric: String,
    /// The metric's unit: `links` or `hops`.
    pub unit: String,
    /// The optimum; `None` when the solver refused the request.
    pub value: Option<u32>,
    /// Why the solver refused: the limit the request exceeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

impl OptimaReport {
    /// Every baseline's optimum for `request`. Each solver refuses what is beyond its limits
    /// (at most 16 destinations, 2²⁵ table cells, 2²⁴ partial trees of the one-port search), so
    /// this takes at most a few seconds in a release build.
    pub fn of(request: &Request) -> OptimaReport {
        let shape = request.shape();
        let optima = Baseline::ALL
            .iter()
            .map(|&b| {
                let (value, refused) = match b.optimum(request) {
                    Ok(v) => (Some(v), None),
                    Err(e) => (None, Some(e.to_string())),
                };
                OptimumReport {
                    baseline: b.name().to_string(),
                    meaning: b.describe().to_string(),
                    metric: b.metric().name().to_string(),
                    unit: b.metric().unit().to_string(),
                    value,
                    refused,
                }
            })
            .collect();
        OptimaReport {
            schema: OPTIMA_SCHEMA.to_string(),
            topology: shape.to_string(),
            source: shape.coords(request.source()),
            destinations: request
                .destinations()
                .iter()
                .map(|&d| shape.coords(d))
                .collect(),
            optima,
        }
    }
}

/// What `meshcast route --optima --json` prints: the route reports (one per algorithm run) and
/// the optima of their request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoutesWithOptima {
    /// What `--json` prints without `--optima`, as an array (one report for `--algo`).
    pub reports: Vec<RouteReport>,
    /// The exact optima.
    pub optima: OptimaReport,
}

impl RouteReport {
    /// Run `info` on `request` with `schedule` and report the result, measuring a path- or
    /// unicast-based plan also under `models`. Fails when the algorithm does not support the
    /// topology, or (a library bug) when its plan does not validate
    /// ([`AlgoInfo::route_validated`], the one validation of the plan).
    pub fn build(
        info: &AlgoInfo,
        request: &Request,
        schedule: Schedule,
        models: Models,
    ) -> Result<RouteReport> {
        let shape = request.shape();
        let plan = match info.route_validated(request) {
            Err(Error::Plan(e)) => {
                let context = format!("internal error: {} built an invalid plan", info.name);
                return Err(anyhow::Error::new(e).context(context));
            }
            routed => schedule.apply(routed?, shape),
        };
        Ok(RouteReport::of_plan(
            info.name, &plan, shape, schedule, models,
        ))
    }

    /// The report of a valid `plan` that `algorithm` built, its port order `schedule`.
    pub fn of_plan(
        algorithm: &str,
        plan: &Plan,
        shape: &Shape,
        schedule: Schedule,
        models: Models,
    ) -> RouteReport {
        let e = Evaluation::of(plan, shape, &models);
        let coords = |n: Node| shape.coords(n);
        RouteReport {
            schema: ROUTE_SCHEMA.to_string(),
            topology: shape.to_string(),
            source: coords(plan.source()),
            destinations: plan.destinations().iter().map(|&d| coords(d)).collect(),
            algorithm: algorithm.to_string(),
            kind: plan.kind().to_string(),
            schedule: schedule.name().to_string(),
            wormhole: e.wormhole.as_ref().map(|_| WormholeReport::of(models)),
            metrics: MetricsReport::of(plan, &e),
            links: links(plan, shape, &e),
            sends: sends(plan, shape, &e),
            arrivals: arrivals(plan, shape, &e),
        }
    }
}

impl MetricsReport {
    /// The metrics of `plan`, evaluated as `e`.
    fn of(plan: &Plan, e: &Evaluation) -> MetricsReport {
        MetricsReport {
            traffic: e.metrics.traffic,
            additional_traffic: e.metrics.additional_traffic,
            one_port_time: e.metrics.one_port_time,
            all_port_time: e.metrics.all_port_time,
            d_port: e.d_port.map(|d| DPortReport {
                ports: d.ports,
                time: d.time,
            }),
            optimal_one_port_time: e.optimal_one_port_time,
            wormhole_latency: e.wormhole.as_ref().map(|t| t.completion(plan)),
            steps: e.steps.as_ref().map(|s| s.completion(plan)),
            contention: e.contention.map(|c| ContentionReport {
                stepwise: c.stepwise,
                depth: c.depth,
            }),
            circuit_switching_latency: e.circuit_switching_latency,
            cut_through_latency: e.cut_through_latency,
        }
    }
}

fn links(plan: &Plan, shape: &Shape, e: &Evaluation) -> Vec<LinkReport> {
    let mut out = Vec::with_capacity(plan.traffic() as usize);
    for (i, send) in plan.sends().enumerate() {
        let mut at = send.from;
        for (j, hop) in send.hops.iter().enumerate() {
            out.push(LinkReport {
                from: shape.coords(at),
                to: shape.coords(hop.node()),
                hop: e.one_port.hop_time(i, j),
                all_port_hop: e.all_port.hop_time(i, j),
                send: i,
            });
            at = hop.node();
        }
    }
    out
}

/// Every send with its route, drops, wormhole start and step.
fn sends(plan: &Plan, shape: &Shape, e: &Evaluation) -> Vec<SendReport> {
    plan.sends()
        .enumerate()
        .map(|(i, send)| {
            let nodes = |drops_only: bool| {
                let hops = send.hops.iter().filter(|h| h.drop() || !drops_only);
                hops.map(|h| shape.coords(h.node())).collect()
            };
            SendReport {
                from: shape.coords(send.from),
                route: nodes(false),
                drops: nodes(true),
                start: e.wormhole.as_ref().map(|t| t.send_start(i)),
                step: e.steps.as_ref().map(|s| s.send(i)),
            }
        })
        .collect()
}

fn arrivals(plan: &Plan, shape: &Shape, e: &Evaluation) -> Vec<ArrivalReport> {
    let reached = "a validated plan reaches every destination";
    plan.destinations()
        .iter()
        .map(|&d| ArrivalReport {
            node: shape.coords(d),
            one_port: e.one_port.arrival(d).expect(reached),
            all_port: e.all_port.arrival(d).expect(reached),
            wormhole: e.wormhole.as_ref().and_then(|t| t.arrival(d)),
            step: e.steps.as_ref().and_then(|s| s.arrival(d)),
        })
        .collect()
}

/// `value` as indented JSON with a final newline, arrays of numbers (coordinates) kept on one
/// line: `"from": [3, 4]`.
pub fn to_json<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let pretty = serde_json::to_string_pretty(value)?;
    let mut out = String::with_capacity(pretty.len());
    let mut lines = pretty.lines();
    while let Some(line) = lines.next() {
        out += line;
        if line.ends_with('[') {
            if let Some((inline, rest)) = number_array(lines.clone()) {
                out += &inline;
                lines = rest;
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// If `lines` start with the elements of an array of numbers and its closing bracket: those on
/// one line (`3, 4],`), and the lines after them.
fn number_array(mut lines: Lines<'_>) -> Option<(String, Lines<'_>)> {
    let mut numbers = Vec::new();
    while let Some(line) = lines.next() {
        let item = line.trim();
        if item.starts_with(']') && !numbers.is_empty() {
            return Some((numbers.join(", ") + item, lines));
        }
        let number = item.trim_end_matches(',');
        number.parse::<f64>().ok()?;
        numbers.push(number);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn json_keeps_number_arrays_on_one_line_and_stays_valid() {
        let v = json!({
            "a": [1, 2],
            "b": [[3, 4], [5]],
            "c": [],
            "d": ["x", "[", 7],
            "e": [{"f": [6]}],
        });
        let text = to_json(&v).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        assert!(text.contains("\"a\": [1, 2],\n"), "{text}");
        assert!(text.contains("[3, 4],\n"), "{text}");
        assert!(text.contains("\"f\": [6]\n"), "{text}");
        assert!(
            text.contains("\"x\",\n"),
            "arrays with strings stay indented: {text}"
        );
        assert!(text.ends_with("}\n"));
    }
}
