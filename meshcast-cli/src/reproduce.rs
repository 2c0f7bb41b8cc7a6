//! `meshcast reproduce`: the seeds' published figures against ours, as Markdown.
//!
//! The worked examples come from `meshcast::experiment::worked`, which holds the published
//! numbers only; ours are computed here, live, from validated plans. docs/REPRODUCTION.md carries
//! this table verbatim (a test checks it) and explains each difference below it.

use anyhow::Result;
use meshcast::experiment::worked::{Outcome, WORKED_EXAMPLES};

use crate::args::ReproduceArgs;

/// `meshcast reproduce`.
pub fn run(_args: &ReproduceArgs) -> Result<String> {
    worked_examples()
}

/// The header of the worked-example table.
const HEADER: &str = "\
| example | topology | algorithm | published traffic / time | ours: traffic / time (paper order) | ours: time (optimal order) | agrees |
|---|---|---|---|---|---|---|
";

/// Every worked example as one Markdown table.
pub fn worked_examples() -> Result<String> {
    let mut out = String::from(HEADER);
    for w in WORKED_EXAMPLES {
        out.push_str(&row(&w.run()?));
        out.push('\n');
    }
    Ok(out)
}

fn row(o: &Outcome) -> String {
    let w = o.example;
    let or_dash = |x: Option<u32>| x.map_or("–".to_string(), |v| v.to_string());
    let agrees = match (o.matches(), w.note) {
        (true, "") => "yes".to_string(),
        (true, note) => format!("yes; {note}"),
        (false, note) => format!("no: {note}"),
    };
    format!(
        "| {} | {} | {} | {} / {} | {} / {} | {} | {} |",
        w.figure,
        w.topology,
        w.algorithm,
        or_dash(w.traffic),
        or_dash(w.time),
        o.paper_schedule.traffic,
        o.paper_schedule.one_port_time,
        o.optimal_schedule.one_port_time,
        agrees
    )
}
