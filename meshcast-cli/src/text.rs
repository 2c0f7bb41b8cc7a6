//! Plain-text output: the algorithm table, the report of one routed multicast, and the
//! comparison table of `route --all`; and the table layout and cell formats the other commands'
//! text shares ([`table`], [`bracketed`]). Every function returns the whole text; printing is the
//! caller's business. A report lists its sends as what they are: tree links grouped by sender,
//! worms with their routes and drops, or unicasts.

use std::collections::HashMap;
use std::fmt::Write;

use meshcast::stats::Summary;

use crate::report::{AlgoRow, Coords, LinkReport, OptimaReport, RouteReport, SendReport};

/// Nodes per line of a worm's route.
const ROUTE_LINE: usize = 10;

/// A node as `(3,4)`.
pub fn node(coords: &[u32]) -> String {
    let parts: Vec<String> = coords.iter().map(u32::to_string).collect();
    format!("({})", parts.join(","))
}

/// Column alignment of a [`table`].
#[derive(Clone, Copy)]
pub enum Align {
    Left,
    Right,
}

/// Columns separated by two spaces, each as wide as its widest cell, a rule under the header.
pub fn table(header: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].0.chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(header)
            .zip(&widths)
            .map(|((cell, (_, align)), &w)| match align {
                Align::Left => format!("{cell:<w$}"),
                Align::Right => format!("{cell:>w$}"),
            })
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let rules: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    let mut out = line(header.iter().map(|h| h.0).collect());
    out += &line(rules.iter().map(String::as_str).collect());
    for row in rows {
        out += &line(row.iter().map(String::as_str).collect());
    }
    out
}

/// `[-0.56, -0.50]`: an interval that may be negative.
pub fn bracketed(s: &Summary) -> String {
    if s.ci_low.is_finite() {
        format!("[{:.2}, {:.2}]", s.ci_low, s.ci_high)
    } else {
        "[n/a]".to_string()
    }
}

/// The table of `meshcast algos`.
pub fn algos(rows: &[AlgoRow]) -> String {
    use Align::Left;
    let header = [
        ("name", Left),
        ("family", Left),
        ("topologies", Left),
        ("designed for", Left),
        ("shortest path", Left),
        ("paper", Left),
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let shortest = if r.shortest_path { "yes" } else { "no" };
            vec![
                r.name.clone(),
                r.family.clone(),
                r.topologies.clone(),
                r.model.clone(),
                shortest.to_string(),
                r.paper.clone(),
            ]
        })
        .collect();
    table(&header, &cells)
}

/// `mesh:8x8, source (0,0), 6 destinations`.
fn request_line(r: &RouteReport) -> String {
    let n = r.destinations.len();
    let plural = if n == 1 { "" } else { "s" };
    format!(
        "{}, source {}, {n} destination{plural}",
        r.topology,
        node(&r.source)
    )
}

/// The report of one routed multicast: header, metrics, the sends (tree links, worms or
/// unicasts), arrival times.
pub fn route(r: &RouteReport) -> String {
    let mut out = format!(
        "{}, algorithm {}, schedule {}\n\n",
        request_line(r),
        r.algorithm,
        r.schedule
    );
    let m = &r.metrics;
    let d_port = m
        .d_port
        .map_or(String::new(), |d| format!("{}-port time", d.ports));
    let metrics = [
        ("traffic", Some(m.traffic)),
        ("additional traffic", Some(m.additional_traffic)),
        ("one-port time", Some(m.one_port_time)),
        ("all-port time", Some(m.all_port_time)),
        (d_port.as_str(), m.d_port.map(|d| d.time)),
        ("wormhole latency", m.wormhole_latency),
        ("circuit switching", m.circuit_switching_latency),
        ("cut-through", m.cut_through_latency),
        ("steps", m.steps),
        ("stepwise contention", m.contention.map(|c| c.stepwise)),
        ("depth contention", m.contention.map(|c| c.depth)),
    ];
    for (name, value) in metrics {
        if let Some(value) = value {
            let _ = writeln!(out, "{name:<20}{value}");
        }
    }
    if let Some(model) = &r.wormhole {
        let _ = writeln!(out, "\nwormhole model: {model}; wormhole times in cycles");
    }
    out += &match r.kind.as_str() {
        "path" => format!("\n{WORMS}\n{}", worms(r)),
        "unicast" => format!("\n{UNICASTS}\n{}", unicasts(r)),
        _ => format!("\n{TREE_LINKS}\n{}", tree_links(r)),
    };
    out += if r.wormhole.is_some() {
        "\narrival times (one-port, all-port: hops; wormhole: cycles):\n"
    } else {
        "\narrival times (hops):\n"
    };
    out += &arrivals(r);
    out
}

const TREE_LINKS: &str =
    "tree links, grouped by sender (hop = one-port arrival time over the link):";
const WORMS: &str = "worms, in send order (a worm drops a copy at each node marked *; \
                     it leaves its sender at the wormhole time given):";
const UNICASTS: &str = "unicasts, in send order (each leaves a copy at its end only; \
                        step = the message-passing step it is sent in; it leaves its sender at the wormhole time \
                        given):";

/// Every worm: its sender, length, drops and start, then its route, [`ROUTE_LINE`] nodes a line.
fn worms(r: &RouteReport) -> String {
    let mut out = String::new();
    for (i, s) in r.sends.iter().enumerate() {
        let _ = writeln!(
            out,
            "  worm {} from {}: {} hops, {} drops{}",
            i + 1,
            node(&s.from),
            s.route.len(),
            s.drops.len(),
            start(s)
        );
        let marked: Vec<String> = s
            .route
            .iter()
            .map(|c| {
                let star = if s.drops.contains(c) { "*" } else { "" };
                node(c) + star
            })
            .collect();
        for line in marked.chunks(ROUTE_LINE) {
            let _ = writeln!(out, "    {}", line.join(" "));
        }
    }
    out
}

/// Every unicast: its step, `from -> to`, its length and wormhole start.
fn unicasts(r: &RouteReport) -> String {
    let rows: Vec<[String; 4]> = r
        .sends
        .iter()
        .map(|s| {
            let to = s.route.last().map_or_else(String::new, |c| node(c));
            let step = s.step.map_or_else(String::new, |t| format!("step {t}"));
            let hops = format!("{} hops{}", s.route.len(), start(s));
            [step, node(&s.from), to, hops]
        })
        .collect();
    let width = |i: usize| rows.iter().map(|row| row[i].len()).max().unwrap_or(0);
    let (w0, w1, w2) = (width(0), width(1), width(2));
    rows.iter()
        .map(|[step, from, to, rest]| format!("  {step:<w0$}  {from:>w1$} -> {to:<w2$}  {rest}\n"))
        .collect()
}

/// `, leaves at 12` when the send has a wormhole start time.
fn start(s: &SendReport) -> String {
    s.start
        .map_or_else(String::new, |t| format!(", leaves at {t}"))
}

/// `from -> to  hop N` for every link, the links of one sender together, senders in the order
/// they first send.
fn tree_links(r: &RouteReport) -> String {
    let mut groups: Vec<Vec<&LinkReport>> = Vec::new();
    let mut group_of: HashMap<&Coords, usize> = HashMap::new();
    // Links are listed send by send; a send's sender is the tail of its first link.
    let mut sender: &Coords = &r.source;
    let mut send = usize::MAX;
    for l in &r.links {
        if l.send != send {
            (send, sender) = (l.send, &l.from);
        }
        let g = *group_of.entry(sender).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(l);
    }
    let rows: Vec<[String; 3]> = groups
        .iter()
        .flatten()
        .map(|l| [node(&l.from), node(&l.to), format!("hop {}", l.hop)])
        .collect();
    let width = |i: usize| rows.iter().map(|row| row[i].len()).max().unwrap_or(0);
    let (w0, w1) = (width(0), width(1));
    rows.iter()
        .map(|[from, to, hop]| format!("  {from:>w0$} -> {to:<w1$}  {hop}\n"))
        .collect()
}

fn arrivals(r: &RouteReport) -> String {
    use Align::{Left, Right};
    let mut header = vec![
        ("destination", Left),
        ("one-port", Right),
        ("all-port", Right),
    ];
    if r.wormhole.is_some() {
        header.push(("wormhole", Right));
    }
    if r.metrics.steps.is_some() {
        header.push(("step", Right));
    }
    let rows: Vec<Vec<String>> = r
        .arrivals
        .iter()
        .map(|a| {
            let mut row = vec![
                node(&a.node),
                a.one_port.to_string(),
                a.all_port.to_string(),
            ];
            row.extend(a.wormhole.map(|t| t.to_string()));
            row.extend(a.step.map(|t| t.to_string()));
            row
        })
        .collect();
    indent(&table(&header, &rows))
}

/// The path- and unicast-based algorithms of a comparison under the wormhole model; nothing when
/// every algorithm is a tree.
fn wormhole_comparison(reports: &[RouteReport]) -> String {
    use Align::{Left, Right};
    let measured: Vec<&RouteReport> = reports.iter().filter(|r| r.wormhole.is_some()).collect();
    let Some(model) = measured.first().and_then(|r| r.wormhole.as_ref()) else {
        return String::new();
    };
    let header = [
        ("algorithm", Left),
        ("kind", Left),
        ("sends", Right),
        ("wormhole latency", Right),
        ("steps", Right),
    ];
    let rows: Vec<Vec<String>> = measured
        .iter()
        .map(|r| {
            let cell = |x: Option<u32>| x.map_or("–".into(), |t| t.to_string());
            vec![
                r.algorithm.clone(),
                r.kind.clone(),
                r.sends.len().to_string(),
                cell(r.metrics.wormhole_latency),
                cell(r.metrics.steps),
            ]
        })
        .collect();
    format!(
        "\nwormhole model: {model}; latency in cycles\n\n{}",
        table(&header, &rows)
    )
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// The exact optima of `meshcast route --optima`: one row per baseline, "–" and the reason
/// where the solver refused.
pub fn optima(o: &OptimaReport) -> String {
    use Align::{Left, Right};
    let header = [("optimum", Left), ("value", Right), ("of", Left)];
    let rows: Vec<Vec<String>> = o
        .optima
        .iter()
        .map(|x| {
            let value = x
                .value
                .map_or("–".to_string(), |v| format!("{v} {}", x.unit));
            let of = match &x.refused {
                Some(why) => format!("{} (refused: {why})", x.meaning),
                None => x.meaning.clone(),
            };
            vec![x.baseline.clone(), value, of]
        })
        .collect();
    format!(
        "\nexact optima of this request (meshcast::exact, docs/OPTIMALITY.md)\n\n{}",
        table(&header, &rows)
    )
}

/// The comparison table of `route --all`; `skipped` names the algorithms that do not support
/// the topology, with what they do support.
pub fn comparison(reports: &[RouteReport], skipped: &[(String, String)]) -> String {
    use Align::{Left, Right};
    let Some(first) = reports.first() else {
        return "no algorithm supports this topology\n".to_string();
    };
    let mut out = format!("{}, schedule {}\n\n", request_line(first), first.schedule);
    let header = [
        ("algorithm", Left),
        ("traffic", Right),
        ("additional traffic", Right),
        ("one-port time", Right),
        ("all-port time", Right),
        ("one-port time, optimal schedule", Right),
    ];
    let rows: Vec<Vec<String>> = reports
        .iter()
        .map(|r| {
            let m = &r.metrics;
            let numbers = [
                m.traffic,
                m.additional_traffic,
                m.one_port_time,
                m.all_port_time,
                m.optimal_one_port_time,
            ];
            let mut row = vec![r.algorithm.clone()];
            row.extend(numbers.iter().map(u32::to_string));
            row
        })
        .collect();
    out += &table(&header, &rows);
    out += &wormhole_comparison(reports);
    if !skipped.is_empty() {
        let names: Vec<String> = skipped.iter().map(|(n, s)| format!("{n} ({s})")).collect();
        let _ = writeln!(
            out,
            "\nnot run, topology not supported: {}",
            names.join(", ")
        );
    }
    out
}
