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
    "0.002:0.006:0.004",
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
            "--dests 40 is not allowed: between 1 and the node count − 1",
        ),
        (
            &[
                "simulate",
                "--topology",
                "mesh:8192x8192",
                "--load",
                "0.001",
            ][..],
            "--topology mesh:8192x8192 with vcs/buffer/ports 2/4/1 (about 55.7 GB of simulator \
             state) is not allowed: at most 8 GiB",
        ),
        (
            &[&small[..], &["--batch", "1", "--max-cycles", "1000000000"]].concat(),
            "--batch 1 (999940000 cycles between the warm-up and the drain) is not allowed: at \
             most 1,000,000 batches",
        ),
    ] {
        let out = meshcast(args, "1");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

/// Everything `simulate` can refuse is refused before the first point runs: these runs would
/// take minutes (a million cycles per point) if they started.
#[test]
fn every_setting_is_checked_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let long = [
        "simulate",
        "--topology",
        "mesh:8x8",
        "--load",
        "0.001:0.004:0.001",
        "--multicast",
        "0.1",
        "--max-cycles",
        "1000000",
        "--precision",
        "0.0001",
    ];
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, i32, &str)> = vec![
        (
            vec![
                "--algos".into(),
                "dual-path,lin,pair".into(),
                "--topology".into(),
                "mesh:4x4x4".into(),
            ],
            2,
            "--algos 'dual-path,lin,pair': algorithm 'lin' does not support mesh:4x4x4",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--out".into(),
                file("r.txt"),
            ],
            2,
            "--out '",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--plot".into(),
                file("r.pdf"),
            ],
            2,
            "write FILE.svg or FILE.png",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--out".into(),
                file("no/such/r.csv"),
            ],
            1,
            "no directory",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--vcs".into(),
                "0".into(),
            ],
            2,
            "--vcs 0 is not allowed: at least 1",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--buffer".into(),
                "0".into(),
            ],
            2,
            "--buffer 0 is not allowed",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--batch".into(),
                "0".into(),
            ],
            2,
            "--batch 0 is not allowed",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--precision".into(),
                "-1".into(),
            ],
            2,
            "--precision -1 is not allowed: a fraction of the mean in (0, 1]",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--warmup".into(),
                "2000000".into(),
            ],
            2,
            "--max-cycles 1000000 (warm-up 2000000, drain 0) is not allowed",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--multicast".into(),
                "1.5".into(),
            ],
            2,
            "--multicast 1.5 is not allowed: a fraction in [0, 1]",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--vcs".into(),
                "-1".into(),
            ],
            2,
            "invalid value '-1' for '--vcs <VCS>'",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--load".into(),
                "0.002:0.006:3".into(),
            ],
            2,
            "3 loads from 0.002 to 0.006 are 0.002:0.006:0.002",
        ),
        (
            vec![
                "--algos".into(),
                "dual-path".into(),
                "--load".into(),
                "0.1:0.2:0.03".into(),
            ],
            2,
            "STEP dividing LAST − FIRST",
        ),
    ];
    for (changes, code, says) in cases {
        let mut args: Vec<String> = long.iter().map(|s| s.to_string()).collect();
        for pair in changes.chunks(2) {
            match args.iter().position(|a| *a == pair[0]) {
                Some(i) => args[i + 1] = pair[1].clone(),
                None => args.extend(pair.iter().cloned()),
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = meshcast(&args, "1");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: '{says}' not in {err}");
        assert!(!err.contains("Measure {"), "no Debug dump: {err}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `FIRST:LAST:STEP` gives the loads from FIRST to LAST exactly, as `a:b:n` gave them.
#[test]
fn a_load_range_counts_its_steps_from_the_endpoints() {
    let out = meshcast(
        &[
            "simulate",
            "--topology",
            "mesh:4x4",
            "--load",
            "0.001:0.003:0.001",
            "--length",
            "4",
            "--startup",
            "0",
            "--warmup",
            "100",
            "--batch",
            "100",
            "--max-cycles",
            "1200",
            "--json",
            "-q",
        ],
        "1",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let loads: Vec<f64> = doc["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["load"].as_f64().unwrap())
        .collect();
    assert_eq!(loads, [0.001, 0.001 + 0.002 * 0.5, 0.003]);
}

/// `--channels` writes every link of every point with the flits that crossed it: 80 directed
/// links of the 5×5 mesh per point, summing to the point's `flit_hops`, and the same file
/// whatever the thread count; the report itself is unchanged by watching.
#[test]
fn channels_gives_every_links_flits_summing_to_the_points_flit_hops() {
    let dir = tempfile::tempdir().unwrap();
    let channels = dir.path().join("c.csv");
    let mut args = SWEEP.to_vec();
    args.push("--json");
    let plain = meshcast(&args, "1");
    args.extend(["--channels", channels.to_str().unwrap()]);
    let one = meshcast(&args, "1");
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert_eq!(plain.stdout, one.stdout, "watching changed the report");
    let text = std::fs::read_to_string(&channels).unwrap();
    assert!(meshcast(&args, "2").status.success());
    assert_eq!(text, std::fs::read_to_string(&channels).unwrap());
    assert!(text.starts_with("algorithm,load,from,dim,dir,flits,flits_per_cycle\n"));
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(text.as_bytes())
        .records()
        .collect::<Result<_, _>>()
        .unwrap();
    let doc: Value = serde_json::from_slice(&one.stdout).unwrap();
    let points = doc["points"].as_array().unwrap();
    assert_eq!(rows.len(), points.len() * 80);
    for (p, point_rows) in points.iter().zip(rows.chunks(80)) {
        let flits: u64 = point_rows
            .iter()
            .map(|r| r[5].parse::<u64>().unwrap())
            .sum();
        assert_eq!(flits, p["flit_hops"].as_u64().unwrap(), "{p}");
        assert!(point_rows.iter().all(|r| r[0] == p["algorithm"]));
    }
    let bad = meshcast(
        &[
            "simulate",
            "-t",
            "mesh:4x4",
            "--load",
            "0.01",
            "--channels",
            "c.json",
        ],
        "1",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim(),
        "error: --channels 'c.json': write FILE.csv"
    );
}
