//! `meshcast bench` as a user runs it: one row per algorithm and topology, digests that identify
//! the plans, growth exponents, bad input.

mod common;

use common::meshcast;
use meshcast::algo::REGISTRY;
use meshcast::plan::PlanKind;
use meshcast::topology::Shape;

fn stdout(args: &[&str]) -> String {
    let out = meshcast(args, "1");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// The digest column of `algo`'s rows, in order.
fn digests(text: &str, algo: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.split_whitespace().next() == Some(algo))
        .map(|l| l.split_whitespace().last().unwrap().to_string())
        .collect()
}

#[test]
fn rows_per_algorithm_and_topology_with_growth_exponents() {
    let text = stdout(&[
        "bench",
        "--topology",
        "mesh:16x16,mesh:32x32",
        "--k",
        "5%",
        "--runs",
        "3",
        "--algos",
        "vh,dds",
    ]);
    for algo in ["vh", "dds"] {
        assert_eq!(digests(&text, algo).len(), 2, "{text}");
        assert!(
            text.contains(&format!("{algo} mesh:16x16 → mesh:32x32: ")),
            "{text}"
        );
    }
    // K = 5% of 256 and of 1024 nodes, rounded.
    let ks: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("vh "))
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(ks, ["13", "51"], "{text}");
}

#[test]
fn digests_identify_the_plans() {
    let run = |seed: &str, placement: &str| {
        stdout(&[
            "bench",
            "-t",
            "torus:9x8",
            "-k",
            "7",
            "--runs",
            "4",
            "--seed",
            seed,
            "--placement",
            placement,
        ])
    };
    let a = run("3", "random");
    assert_eq!(digests(&a, "diag"), digests(&run("3", "random"), "diag"));
    assert_ne!(digests(&a, "diag"), digests(&run("4", "random"), "diag"));
    assert_ne!(digests(&a, "diag"), digests(&a, "vh"));
    // A row for every tree algorithm of the registry that runs on a 2D torus.
    let shape: Shape = "torus:9x8".parse().unwrap();
    let trees = REGISTRY
        .iter()
        .filter(|a| a.family == PlanKind::Tree && a.check_support(&shape).is_ok())
        .count();
    assert_eq!(a.lines().count(), 2 + trees, "{a}");
}

#[test]
fn reused_memory_gives_the_same_plans() {
    let run = |reuse: bool| {
        let mut args = vec!["bench", "-t", "mesh:20x12,torus:7x9x5", "-k", "9"];
        args.extend(["--runs", "5", "--placement", "random", "--algos", "all"]);
        if reuse {
            args.push("--reuse");
        }
        let text = stdout(&args);
        REGISTRY
            .iter()
            .flat_map(|a| digests(&text, a.name))
            .collect::<Vec<_>>()
    };
    let fresh = run(false);
    assert!(fresh.len() > 20, "{fresh:?}");
    assert_eq!(run(true), fresh);
}

#[test]
fn bad_input_names_the_flag() {
    for (args, mention) in [
        (vec!["-t", "mesh:8x8", "--k", "0.5x"], "--k '0.5x'"),
        (vec!["-t", "mesh:8x8", "--k", "101%"], "--k '101%'"),
        (vec!["-t", "mesh:8x8", "--k", "500"], "--k '500'"),
        (vec!["-t", "mesh:8x1", "--k", "3"], "--topology 'mesh:8x1'"),
        (
            vec!["-t", "mesh:8x8", "--k", "3", "--algos", "nope"],
            "nope",
        ),
        (
            vec!["-t", "mesh:4x4x4", "--k", "3", "--algos", "pair"],
            "--algos 'pair'",
        ),
    ] {
        let mut all = vec!["bench"];
        all.extend(&args);
        let out = meshcast(&all, "1");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {err}");
        assert!(
            err.contains(mention) && err.lines().count() == 1,
            "{all:?}: {err}"
        );
    }
}
