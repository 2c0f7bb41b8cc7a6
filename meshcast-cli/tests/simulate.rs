//! `meshcast simulate`, run as a user runs it: a load sweep as JSON, CSV and plot files, the
//! same numbers for the same seed whatever the thread count, and one-line errors.

mod common;

use common::meshcast;
use serde_json::Value;

const SWEEP: &[&str] = &[
    "simulate",
    "--topology",
    "mesh:5x5",
    "--algos",
    "dual-path,u-mesh",
    "--multicast",
    "0.2",
    "--dests",
    "2:6",
    "--load",
    "0.002:0.006:2",
    "--length",
    "8",
    "--startup",
    "5",
    "--port",
    "2",
    "--warmup",
    "500",
    "--batch",
    "500",
    "--max-cycles",
    "6000",
    "--seed",
    "4",
    "-q",
];

#[test]
fn a_sweep_writes_json_csv_and_a_plot_and_does_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let svg = dir.path().join("r.svg");
    let mut args = SWEEP.to_vec();
    args.extend([
        "--json",
        "--out",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let one = meshcast(&args, "1");
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let two = meshcast(&args, "2");
    assert_eq!(one.stdout, two.stdout, "results depend on the thread count");
    let doc: Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(doc["schema"], "meshcast.simulate/1");
    let points = doc["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    for p in points {
        assert!(
            !p["status"].as_str().unwrap().starts_with("saturated"),
            "{p}"
        );
        assert_eq!(p["delivery_ratio"], 1.0);
        assert!(p["multicast_latency"].as_f64().unwrap() > 5.0 + 8.0);
    }
    // Common random numbers: both algorithms see the same loads in the same order.
    assert_eq!(points[0]["load"], points[2]["load"]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 5);
    assert!(text.starts_with("algorithm,load,offered_flits,multicast_latency"));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

/// Issue 15: an overloaded network stops at the backlog cap instead of exhausting memory, and
/// `--max-cycles` bounds the whole run, drain included, even with the early stops off.
#[test]
fn overload_is_bounded_by_the_backlog_cap_and_max_cycles() {
    let run = |extra: &[&str]| -> Value {
        let args = [
            &["simulate", "--topology", "mesh:8x8", "--json", "-q"][..],
            extra,
        ]
        .concat();
        let out = meshcast(&args, "1");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["points"][0].clone()
    };
    let p = run(&["--load", "1"]);
    assert!(
        p["status"]
            .as_str()
            .unwrap()
            .starts_with("saturated (backlog cap"),
        "{p}"
    );
    assert!(p["cycles"].as_u64().unwrap() < 200, "{p}");
    let p = run(&[
        "--load",
        "0.05",
        "--warmup",
        "500",
        "--batch",
        "500",
        "--max-cycles",
        "3000",
        "--early-saturation",
        "0",
        "--max-backlog",
        "100000",
    ]);
    assert!(
        p["status"].as_str().unwrap().starts_with("saturated"),
        "{p}"
    );
    assert!(p["cycles"].as_u64().unwrap() <= 3000, "{p}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let small = ["simulate", "--topology", "mesh:4x4", "--load", "0.01"];
    for (args, says) in [
        (
            &["simulate", "--topology", "mesh:4x4", "--load", "0:1"][..],
            "--load '0:1'",
        ),
        (
            &[&small[..], &["--algos", "qg", "--td", "2"]].concat(),
            "--td: td = 2 is not allowed",
        ),
        (
            &[
                "simulate",
                "--topology",
                "mesh:4x4",
                "--load",
                "0.01",
                "--multicast",
                "0.5",
            ],
            "needs --algos",
        ),
        (
            &[
                "simulate",
                "--topology",
                "torus:4x4",
                "--load",
                "0.01",
                "--vcs",
                "1",
            ],
            "deadlock-free",
        ),
        (
            &[
                "simulate",
                "--topology",
                "mesh:4x4",
                "--load",
                "0.01",
                "--algos",
                "dual-path",
                "--multicast",
                "0.5",
                "--dests",
                "40",
            ],
            "destinations",
        ),
    ] {
        let out = meshcast(args, "1");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
