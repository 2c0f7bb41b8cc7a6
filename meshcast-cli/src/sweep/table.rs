//! The text a sweep prints: per metric, the theses' table (`K | ALG mean | ALG 95% CI | …` and a
//! final "mean" row), then the overall paired differences between algorithms. A metric's table
//! has a column per algorithm it measures (wormhole latency: path- and unicast-based ones).

use std::fmt::Write;

use meshcast::experiment::sweep::{Metric, Sweep, SweepTally, Tallies};
use meshcast::stats::Summary;

use super::results::{heading, metrics, model_text, overall_pairs};
use super::settings::placement_name;
use super::tally_file::{measured, pair_names};
use crate::text::{bracketed, table, Align};

/// The whole report of a finished sweep.
pub fn report(sweep: &Sweep, tally: &SweepTally) -> String {
    let mut out = header(sweep);
    let overall = tally.overall();
    for metric in metrics(sweep) {
        let _ = write!(out, "\n{}\n\n", heading(metric));
        out += &metric_table(sweep, tally, &overall, metric);
    }
    if sweep.algorithms.len() > 1 {
        out += "\npaired differences a - b over every K (mean and 95% CI; below 0: a is lower)\n\n";
        out += &pairs_table(sweep, &overall_pairs(tally));
    }
    out
}

/// `mesh:20x20, 38 destination counts from 10 to 380, 1000 runs each, …`.
fn header(sweep: &Sweep) -> String {
    let names: Vec<&str> = sweep.algorithms.iter().map(|a| a.name).collect();
    let ks = &sweep.ks;
    let counts = match ks.len() {
        1 => format!("K = {}", ks[0]),
        n => format!("{n} destination counts K from {} to {}", ks[0], ks[n - 1]),
    };
    let mut out = format!(
        "{}, {counts}, {} runs each, seed {}, source {}, schedule {}\nalgorithms: {}\n",
        sweep.shape,
        sweep.runs,
        sweep.seed,
        placement_name(sweep.placement),
        sweep.schedule.name(),
        names.join(", ")
    );
    if let Some(w) = sweep.wormhole {
        out += &format!("wormhole model: {}\n", model_text(w));
    }
    out
}

/// One row per K and the "mean" row (seed 001 Definition 4.1.1): mean and CI per algorithm.
fn metric_table(sweep: &Sweep, tally: &SweepTally, overall: &[Tallies], metric: Metric) -> String {
    let columns: Vec<usize> = (0..sweep.algorithms.len())
        .filter(|&a| sweep.measures(sweep.algorithms[a], metric))
        .collect();
    let titles: Vec<String> = columns
        .iter()
        .map(|&a| sweep.algorithms[a].name)
        .flat_map(|name| [format!("{name} mean"), format!("{name} 95% CI")])
        .collect();
    let mut header = vec![("K", Align::Left)];
    header.extend(titles.iter().map(|t| (t.as_str(), Align::Right)));
    let row = |label: String, tallies: &[Tallies]| {
        let mut cells = vec![label];
        for &a in &columns {
            let s = tallies[a][metric as usize].summary();
            cells.extend([format!("{:.2}", s.mean), interval(&s)]);
        }
        cells
    };
    let mut rows: Vec<Vec<String>> = tally
        .points
        .iter()
        .map(|p| row(p.k.to_string(), &p.algorithms))
        .collect();
    rows.push(row("mean".to_string(), overall));
    table(&header, &rows)
}

/// One row per pair, one column per metric: the mean paired difference and its CI, `–` where a
/// metric is not measured for both algorithms.
fn pairs_table(sweep: &Sweep, pairs: &[Tallies]) -> String {
    let names: Vec<String> = sweep
        .algorithms
        .iter()
        .map(|a| a.name.to_string())
        .collect();
    let metrics = metrics(sweep);
    let headings: Vec<String> = metrics.iter().map(|&m| heading(m)).collect();
    let mut header = vec![("a - b", Align::Left)];
    header.extend(headings.iter().map(|h| (h.as_str(), Align::Right)));
    let measured = &measured(sweep)[names.len()..];
    let rows: Vec<Vec<String>> = pair_names(&names)
        .iter()
        .zip(pairs)
        .zip(measured)
        .map(|(((a, b), t), has)| {
            let mut cells = vec![format!("{a} - {b}")];
            for &metric in &metrics {
                let s = t[metric as usize].summary();
                cells.push(if has[metric as usize] {
                    format!("{:+.2} {}", s.mean, bracketed(&s))
                } else {
                    "–".to_string()
                });
            }
            cells
        })
        .collect();
    table(&header, &rows)
}

/// `32.76–34.40`, as the theses write an interval; `n/a` below two samples.
fn interval(s: &Summary) -> String {
    if s.ci_low.is_finite() {
        format!("{:.2}–{:.2}", s.ci_low, s.ci_high)
    } else {
        "n/a".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use meshcast::algo;
    use meshcast::experiment::sweep::{Placement, Shard};
    use meshcast::schedule::Schedule;

    #[test]
    fn tables_have_a_row_per_k_and_a_mean_row() {
        let sweep = Sweep {
            shape: "mesh:6x6".parse().unwrap(),
            placement: Placement::Origin,
            algorithms: ["vh", "diag"].map(|n| algo::find(n).unwrap()).to_vec(),
            ks: vec![2, 9],
            runs: 10,
            seed: 1,
            schedule: Schedule::Paper,
            wormhole: None,
            params: Default::default(),
        };
        let text = report(&sweep, &sweep.run(Shard::WHOLE, &|_| {}).unwrap());
        assert!(text.starts_with("mesh:6x6, 2 destination counts K from 2 to 9, 10 runs each"));
        assert!(
            text.contains("\none-port time (hops)\n\nK     vh mean"),
            "{text}"
        );
        assert!(text.contains("\nadditional traffic (links)\n"), "{text}");
        assert_eq!(text.matches("\nmean ").count(), 4, "{text}");
        assert!(text.contains("\nvh - diag  "), "{text}");
    }
}
