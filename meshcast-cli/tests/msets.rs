//! `meshcast msets` as a user runs it: JSON rows, CSV file, the lower bound, bad input.

use std::process::{Command, Output};

use serde_json::Value;

fn meshcast(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshcast"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn json_rows_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m.csv");
    let out = meshcast(&[
        "msets",
        "--sides",
        "8,16",
        "--c",
        "4",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema"], "meshcast.msets/1");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    for r in rows {
        assert_eq!(r["c"], 4);
        assert!(r["steps"].as_u64().unwrap() > 0);
        let phases = r["phases"].as_array().unwrap();
        let sum: u64 = phases.iter().map(|p| p["steps"].as_u64().unwrap()).sum();
        assert!(sum <= r["steps"].as_u64().unwrap());
        assert!(!phases.is_empty());
    }
    assert_eq!(v["fits"].as_array().unwrap().len(), 4);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 9);
    assert!(text.starts_with("algorithm,side,n,d,c,"));
}

#[test]
fn plot_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("m.svg");
    let args = [
        "msets",
        "--sides",
        "8,16",
        "--c",
        "2,4",
        "--algos",
        "naive,theorem2",
    ];
    let out = meshcast(&[&args[..], &["--plot", svg.to_str().unwrap()]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("theorem2 c = 4"));
    let bad = meshcast(&[&args[..], &["--plot", "m.txt"]].concat());
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn theorem1_rows_carry_the_lower_bound_and_respect_it() {
    let out = meshcast(&[
        "msets",
        "--sides",
        "16",
        "--c",
        "2",
        "--instance",
        "theorem1",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for r in v["rows"].as_array().unwrap() {
        assert!(r["steps"].as_u64().unwrap() >= r["lower_bound"].as_u64().unwrap());
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        &["msets", "--algos", "fastest"][..],
        &["msets", "--sides", "16,x"],
        &["msets", "--sides", "10", "--c", "16", "--algos", "theorem2"],
        &["msets", "--algos", "naive", "--buffer", "3"],
        &["msets", "--algos", "deterministic", "--sides", "12"],
    ] {
        let out = meshcast(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "));
    }
}

#[test]
fn the_deterministic_algorithm_runs_and_reports_its_duplicates() {
    let out = meshcast(&[
        "msets",
        "--algos",
        "deterministic",
        "--sides",
        "8,16",
        "--c",
        "4",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        assert_eq!(r["algorithm"], "deterministic");
        assert!(r["duplicates"].as_u64().unwrap() > 0);
        assert!(r["max_buffer"].as_u64().unwrap() <= 10);
        let phases: Vec<&str> = r["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(phases.contains(&"4a.i migrate") && phases.contains(&"6 coalesce"));
    }
    let zero = meshcast(&["msets", "--algos", "deterministic", "--alpha", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}
