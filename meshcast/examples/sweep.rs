//! A Monte-Carlo sweep through the library: every tree algorithm of the registry on the same
//! random multicasts of a 10×10 torus (random sources, K = 5, 20, 50, 100 runs each), the mean
//! traffic and one-port time with their 95% confidence intervals — the experiment of seed 000's
//! tables and seed 001's chapter 4, small.
//!
//! Run: `cargo run -p meshcast --example sweep`. It checks what a sweep promises: every unit
//! counted once, two shards merging to the whole sweep's exact sums, shortest-path trees never
//! slower than the destinations and the torus's diameter allow, and one sum pinned from a real run.

use meshcast::algo::{self, REGISTRY};
use meshcast::experiment::sweep::{Metric, Placement, Shard, Sweep};
use meshcast::plan::PlanKind;
use meshcast::schedule::Schedule;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sweep = Sweep {
        shape: "torus:10x10".parse()?,
        placement: Placement::Random,
        algorithms: REGISTRY
            .iter()
            .filter(|a| a.family == PlanKind::Tree)
            .collect(),
        ks: vec![5, 20, 50],
        runs: 100,
        seed: 7,
        schedule: Schedule::Paper,
        wormhole: None,
        params: algo::Params::default(),
    };
    let tally = sweep.run(Shard::WHOLE, &|_| {})?;

    // Shards are exact: two halves merge to the same integer sums as the whole.
    let mut halves = sweep.run(Shard::parse("0/2")?, &|_| {})?;
    halves.merge(&sweep.run(Shard::parse("1/2")?, &|_| {})?);
    assert_eq!(halves, tally);

    println!("torus:10x10, random sources, 100 multicasts per K; mean ± 95% half-width");
    println!(
        "{:<10} {:>4} {:>16} {:>16}",
        "algorithm", "K", "links", "hops (one-port)"
    );
    for point in &tally.points {
        for (info, tallies) in sweep.algorithms.iter().zip(&point.algorithms) {
            let traffic = tallies[Metric::Traffic as usize].summary();
            let time = tallies[Metric::OnePortTime as usize].summary();
            assert_eq!(traffic.n, 100);
            assert!(
                traffic.mean >= point.k as f64,
                "a link per destination at least"
            );
            if info.shortest_path {
                // A shortest-path tree delivers within K − 1 + 10 hops: on the way to a
                // destination every send served earlier leads to other destinations (at most
                // K − 1 of them), and the path is at most the torus's diameter, 10.
                assert!(time.mean <= (point.k + 9) as f64, "{}", info.name);
            }
            println!(
                "{:<10} {:>4} {:>8.1} ± {:<5.1} {:>8.1} ± {:<5.1}",
                info.name,
                point.k,
                traffic.mean,
                (traffic.ci_high - traffic.ci_low) / 2.0,
                time.mean,
                (time.ci_high - time.ci_low) / 2.0
            );
        }
    }
    // Pinned from a real run: VH's total traffic over the 100 multicasts of K = 20.
    let vh = sweep
        .algorithms
        .iter()
        .position(|a| a.name == "vh")
        .unwrap();
    let vh = &tally.points[1].algorithms[vh][Metric::Traffic as usize];
    assert_eq!(vh.sum, 5069);
    Ok(())
}
