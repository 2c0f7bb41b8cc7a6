//! `meshcast sweep` and `meshcast merge`, run as a user runs them: the same bytes whatever the
//! thread count, sharding or resumption; shard and state files checked; bad input refused with
//! one line and exit status 2.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::meshcast;
use serde_json::Value;

/// A small sweep: 3 algorithms, 3 destination counts, 12 runs each, random sources on a torus.
const SWEEP: [(&str, &str); 7] = [
    ("--topology", "torus:5x4"),
    ("--algos", "vh,diag,dds"),
    ("--k", "1,4:10:6"),
    ("--runs", "12"),
    ("--seed", "9"),
    ("--placement", "random"),
    ("--out", ""),
];

/// `sweep --quiet` with the small sweep's flags, `changes` replacing their values (an empty
/// value leaves a flag out) or adding flags.
fn args<'a>(changes: &[(&'a str, &'a str)]) -> Vec<&'a str> {
    let mut flags = SWEEP.to_vec();
    for &(flag, value) in changes {
        match flags.iter_mut().find(|(f, _)| *f == flag) {
            Some(entry) => entry.1 = value,
            None => flags.push((flag, value)),
        }
    }
    let mut out = vec!["sweep", "--quiet"];
    for (flag, value) in flags.into_iter().filter(|(_, v)| !v.is_empty()) {
        out.push(flag);
        if value != "-" {
            out.push(value);
        }
    }
    out
}

/// The small sweep with `changes` (see [`args`]); it must succeed. Returns standard output.
fn sweep(changes: &[(&str, &str)]) -> String {
    ok(meshcast(&args(changes), "2"))
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The one-line error of a run that must fail with exit status 2.
fn refused(args: &[&str]) -> String {
    let out = meshcast(args, "2");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line, no backtrace: {stderr}"
    );
    stderr
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

fn read(path: &str) -> String {
    fs::read_to_string(path).unwrap()
}

#[test]
fn the_csv_does_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let csv = |threads: &str| {
        let out = path(dir.path(), &format!("t{threads}.csv"));
        ok(meshcast(&args(&[("--out", &out)]), threads));
        fs::read(out).unwrap()
    };
    let one = csv("1");
    assert_eq!(one, csv("2"));
    let text = String::from_utf8(one).unwrap();
    let header =
        "topology,placement,schedule,seed,algorithm,versus,k,metric,unit,n,mean,sd,ci_low,ci_high,length,startup,port,worst,worst_optimum,worst_k,worst_run";
    assert_eq!(text.lines().next(), Some(header));
    // (3 algorithms + 3 pairs) × (3 K + overall) × 4 metrics, and the header.
    assert_eq!(text.lines().count(), 6 * 4 * 4 + 1);
    assert!(
        text.contains("\ntorus:5x4,random,paper,9,vh,,4,one_port_time,hops,12,"),
        "{text}"
    );
    assert!(
        text.contains("\ntorus:5x4,random,paper,9,vh,diag,,traffic,links,36,"),
        "{text}"
    );
}

#[test]
fn shards_merge_to_the_unsharded_sweep_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let whole = path(dir.path(), "whole.csv");
    let text = sweep(&[("--out", &whole)]);
    let shards: Vec<String> = (0..3)
        .map(|i| path(dir.path(), &format!("s{i}.json")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        let line = sweep(&[("--shard", &format!("{i}/3")), ("--out", shard)]);
        assert!(
            line.starts_with(&format!("shard {i}/3: 12 of 36 multicasts")),
            "{line}"
        );
    }
    let merged = path(dir.path(), "merged.csv");
    let merge = |files: &[&String]| {
        let mut args = vec!["merge"];
        args.extend(files.iter().map(|s| s.as_str()));
        args.extend(["--out", &merged]);
        ok(meshcast(&args, "2"))
    };
    assert_eq!(merge(&[&shards[2], &shards[0], &shards[1]]), text);
    assert_eq!(read(&merged), read(&whole));

    let e = refused(&["merge", &shards[0], &shards[2]]);
    assert!(e.contains("shards missing: 1/3"), "{e}");
    let e = refused(&["merge", &shards[0], &shards[1], &shards[1], &shards[2]]);
    assert!(e.contains("are both shard 1/3"), "{e}");
    let other = path(dir.path(), "other.json");
    sweep(&[("--seed", "10"), ("--shard", "1/3"), ("--out", &other)]);
    let e = refused(&["merge", &shards[0], &other, &shards[2]]);
    assert!(
        e.contains("shards of different sweeps: seed differs"),
        "{e}"
    );
    let e = refused(&["merge", &whole]);
    assert!(e.contains("is not a meshcast.sweep-tally/2 file"), "{e}");
}

#[test]
fn a_resumed_sweep_gives_the_same_output() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = path(dir.path(), "fresh.json");
    let text = sweep(&[("--out", &fresh)]);

    // An interrupted run: its state file holds K = 4 only (a one-shard sweep has every K).
    let all = path(dir.path(), "all.json");
    sweep(&[("--shard", "0/1"), ("--out", &all)]);
    let mut state: Value = serde_json::from_str(&read(&all)).unwrap();
    let points = state["points"].as_array_mut().unwrap();
    points.retain(|p| p["k"] == 4);
    let out = path(dir.path(), "resumed.json");
    let partial = path(dir.path(), "resumed.partial.json");
    fs::write(&partial, state.to_string()).unwrap();

    let e = refused(&args(&[("--out", &out)]));
    assert!(e.contains("add --resume to continue it"), "{e}");
    let e = refused(&args(&[
        ("--out", &out),
        ("--resume", "-"),
        ("--runs", "13"),
    ]));
    assert!(e.contains("other settings (runs differs)"), "{e}");

    assert_eq!(sweep(&[("--out", &out), ("--resume", "-")]), text);
    assert_eq!(read(&out), read(&fresh));
    assert!(!Path::new(&partial).exists(), "the state file is removed");
}

#[test]
fn json_output_is_an_array_of_the_csv_records() {
    let dir = tempfile::tempdir().unwrap();
    let out = path(dir.path(), "r.json");
    sweep(&[("--out", &out)]);
    let records: Value = serde_json::from_str(&read(&out)).unwrap();
    let records = records.as_array().unwrap();
    assert_eq!(records.len(), 6 * 4 * 4);
    let overall = records.iter().find(|r| r["k"].is_null()).unwrap();
    assert_eq!(overall["n"], 36);
    assert!(overall["ci_low"].as_f64().unwrap() <= overall["mean"].as_f64().unwrap());
}

#[test]
fn the_report_has_the_theses_tables_and_paired_differences() {
    let text = sweep(&[]);
    for heading in [
        "one-port time (hops)",
        "traffic (links)",
        "additional traffic (links)",
        "all-port time (hops)",
    ] {
        assert!(
            text.contains(&format!("\n{heading}\n\nK     vh mean")),
            "{heading}: {text}"
        );
    }
    assert_eq!(text.matches("\nmean ").count(), 4, "{text}");
    assert!(text.contains("\npaired differences a - b"), "{text}");
    assert!(text.contains("\ndiag - dds  "), "{text}");
}

#[test]
fn a_plot_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let plot = path(dir.path(), "r.svg");
    sweep(&[("--plot", &plot)]);
    assert!(read(&plot).contains("<svg"));
}

#[test]
fn bad_settings_are_refused_before_anything_runs() {
    let cases: [(&[(&str, &str)], &str); 9] = [
        (
            &[("--k", "10:5")],
            "--k '10:5': '10:5' is not a count or a range",
        ),
        (
            &[("--k", "20")],
            "--k '20': 20 destinations asked for on torus:5x4: between 1 and 19",
        ),
        (&[("--k", "5,5")], "K = 5 is listed twice"),
        (&[("--algos", "vh,nope")], "unknown algorithm 'nope'"),
        (
            &[("--topology", "mesh:3x3x3"), ("--algos", "pair")],
            "does not support mesh:3x3x3",
        ),
        (
            &[("--shard", "3/3"), ("--out", "s.json")],
            "shard = 3/3 is not allowed",
        ),
        (
            &[("--shard", "0/3"), ("--out", "s.csv")],
            "a shard is written to FILE.json",
        ),
        (&[("--out", "r.txt")], "write FILE.csv or FILE.json"),
        (&[("--plot", "r.pdf")], "write FILE.svg or FILE.png"),
    ];
    for (changes, expected) in cases {
        let e = refused(&args(changes));
        assert!(e.contains(expected), "{changes:?}: {e}");
    }
    let e = refused(&["merge", "no-such-shard.json"]);
    assert!(e.contains("cannot read 'no-such-shard.json'"), "{e}");
    // clap's own usage errors add a usage hint, and exit 2 too.
    let out = meshcast(&args(&[("--runs", "0")]), "2");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: invalid value '0' for '--runs <N>'"),
        "{stderr}"
    );
}

/// The small sweep under the wormhole model, a tree algorithm beside two path-based ones.
const WORMHOLE: [(&str, &str); 5] = [
    ("--algos", "vh,dual-path,multi-path"),
    ("--model", "wormhole"),
    ("--length", "8"),
    ("--startup", "3"),
    ("--port", "one"),
];

fn wormhole<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    [&WORMHOLE[..], extra].concat()
}

#[test]
fn wormhole_latency_is_recorded_for_path_based_algorithms_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = path(dir.path(), "w.csv");
    let text = sweep(&wormhole(&[("--out", &out)]));
    assert!(
        text.contains("\nwormhole model: L = 8 flits, start-up 3 cycles, one-port\n"),
        "{text}"
    );
    assert!(
        text.contains("\nwormhole latency (cycles)\n\nK     dual-path mean"),
        "only the path-based algorithms have a column: {text}"
    );
    assert_eq!(text.matches("\nmean ").count(), 5, "{text}");
    let vh_dp = text
        .lines()
        .find(|l| l.starts_with("vh - dual-path "))
        .unwrap();
    assert!(vh_dp.ends_with('–'), "no latency for a tree: {vh_dp}");
    let csv = read(&out);
    // Rows: vh 4 metrics, dual-path and multi-path 5, pairs with vh 4, dual-path - multi-path 5;
    // each per K (3) and overall.
    assert_eq!(csv.lines().count(), (4 + 5 + 5 + 4 + 4 + 5) * 4 + 1);
    let latency: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains(",wormhole_latency,"))
        .collect();
    assert_eq!(latency.len(), 3 * 4);
    assert!(
        latency.iter().all(|l| l.ends_with(",8,3,one,,,,")),
        "{latency:?}"
    );
    assert!(!latency.iter().any(|l| l.contains(",vh,")), "{latency:?}");
    assert!(
        csv.lines().nth(1).unwrap().ends_with(",,,,,,,"),
        "other metrics: no model"
    );
}

#[test]
fn wormhole_sweeps_merge_and_resume_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let whole = path(dir.path(), "whole.json");
    let text = sweep(&wormhole(&[("--out", &whole)]));
    let single = path(dir.path(), "single.json");
    ok(meshcast(&args(&wormhole(&[("--out", &single)])), "1"));
    assert_eq!(read(&single), read(&whole), "one thread or two");

    let shards: Vec<String> = (0..2)
        .map(|i| path(dir.path(), &format!("s{i}.json")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        sweep(&wormhole(&[
            ("--shard", &format!("{i}/2")),
            ("--out", shard),
        ]));
    }
    let tally = read(&shards[0]);
    for field in [
        "\"schema\": \"meshcast.sweep-tally/2\"",
        "\"port\": \"one\"",
        "\"wormhole_latency\": [",
    ] {
        assert!(tally.contains(field), "{field}: {tally}");
    }
    let merged = path(dir.path(), "merged.json");
    let merge = ["merge", &shards[0], &shards[1], "--out", &merged];
    assert_eq!(ok(meshcast(&merge, "2")), text);
    assert_eq!(read(&merged), read(&whole));

    // An interrupted run whose state file holds K = 4 only, resumed.
    let all = path(dir.path(), "all.json");
    sweep(&wormhole(&[("--shard", "0/1"), ("--out", &all)]));
    let mut state: Value = serde_json::from_str(&read(&all)).unwrap();
    state["points"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["k"] == 4);
    fs::write(path(dir.path(), "resumed.partial.json"), state.to_string()).unwrap();
    let out = path(dir.path(), "resumed.json");
    assert_eq!(
        sweep(&wormhole(&[("--out", &out), ("--resume", "-")])),
        text
    );
    assert_eq!(read(&out), read(&whole));

    // Another model is another sweep.
    let other = path(dir.path(), "other.json");
    sweep(&wormhole(&[
        ("--length", "9"),
        ("--shard", "1/2"),
        ("--out", &other),
    ]));
    let e = refused(&["merge", &shards[0], &other]);
    assert!(e.contains("wormhole model differs"), "{e}");
}

#[test]
fn old_tally_files_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let shard = path(dir.path(), "s.json");
    sweep(&[("--shard", "0/2"), ("--out", &shard)]);
    let v1 = read(&shard).replace("meshcast.sweep-tally/2", "meshcast.sweep-tally/1");
    fs::write(&shard, v1).unwrap();
    let e = refused(&["merge", &shard]);
    assert!(
        e.contains("is a meshcast.sweep-tally/1 file, written by an older meshcast"),
        "{e}"
    );
    assert!(e.contains("run that sweep or shard again"), "{e}");
}

#[test]
fn tallies_must_be_those_of_the_measured_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let shard = path(dir.path(), "s.json");
    sweep(&wormhole(&[("--shard", "0/1"), ("--out", &shard)]));
    let mut file: Value = serde_json::from_str(&read(&shard)).unwrap();
    let vh = &mut file["points"][0]["algorithms"][0]["tallies"];
    vh["wormhole_latency"] = serde_json::json!([4, 100, 2600]);
    fs::write(&shard, file.to_string()).unwrap();
    let e = refused(&["merge", &shard]);
    assert!(
        e.contains("K = 1: vh: a wormhole_latency tally, which this sweep does not measure"),
        "{e}"
    );
}

#[test]
fn wormhole_flags_need_the_wormhole_model() {
    let e = refused(&args(&[("--length", "64")]));
    assert!(
        e.contains("--length 64: --length, --startup and --port set the wormhole model: add --model wormhole"),
        "{e}"
    );
    let e = refused(&args(&[("--port", "one")]));
    assert!(e.contains("--port one:"), "{e}");
    let out = meshcast(&args(&wormhole(&[("--length", "0")])), "2");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: invalid value '0' for '--length <FLITS>'"),
        "{stderr}"
    );
}

/// Unicast-based algorithms get message-passing steps under the wormhole model's port count;
/// the steps tallies merge like the others.
#[test]
fn unicast_steps_are_swept_and_merged() {
    let dir = tempfile::tempdir().unwrap();
    let unicast = [
        ("--algos", "separate,u-torus,dual-path"),
        ("--model", "wormhole"),
        ("--port", "one"),
    ];
    let whole = path(dir.path(), "whole.csv");
    let text = sweep(&[&unicast[..], &[("--out", whole.as_str())]].concat());
    assert!(
        text.contains(
            "\nmessage-passing steps\n\nK     separate mean  separate 95% CI  u-torus mean"
        ),
        "{text}"
    );
    let csv = read(&whole);
    let steps: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains(",steps,steps,"))
        .collect();
    // separate, u-torus and their pair; 3 K and overall.
    assert_eq!(steps.len(), 3 * 4, "{steps:?}");
    assert!(steps.iter().all(|l| l.ends_with(",,,one,,,,")), "{steps:?}");
    // Separate addressing, one port: K unicasts one after the other, K steps.
    assert!(
        csv.contains(
            "\ntorus:5x4,random,paper,9,separate,,4,steps,steps,12,4.0,0.0,4.0,4.0,,,one,,,,\n"
        ),
        "{csv}"
    );
    let shards: Vec<String> = (0..2)
        .map(|i| path(dir.path(), &format!("u{i}.json")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        let index = format!("{i}/2");
        sweep(
            &[
                &unicast[..],
                &[("--shard", index.as_str()), ("--out", shard.as_str())],
            ]
            .concat(),
        );
    }
    assert!(read(&shards[1]).contains("\"steps\": ["));
    let merged = path(dir.path(), "merged.csv");
    let merge = ["merge", &shards[0], &shards[1], "--out", &merged];
    assert_eq!(ok(meshcast(&merge, "2")), text);
    assert_eq!(read(&merged), csv);

    // Two ports (seed 002's d-port architecture): K = 4 unicasts in 2 steps.
    let two = path(dir.path(), "two.csv");
    let d_port = [
        ("--algos", "separate"),
        ("--model", "wormhole"),
        ("--port", "2"),
    ];
    sweep(&[&d_port[..], &[("--out", two.as_str())]].concat());
    assert!(
        read(&two).contains(
            "\ntorus:5x4,random,paper,9,separate,,4,steps,steps,12,2.0,0.0,2.0,2.0,,,2,,,,\n"
        ),
        "{}",
        read(&two)
    );
}

#[test]
fn baselines_add_the_gap_to_each_optimum_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let gaps = |threads: &str, file: &str| {
        let out = path(dir.path(), file);
        let baselines = ("--baseline", "omt,mst,omp,opt-time");
        let text = ok(meshcast(&args(&[("--out", &out), baselines]), threads));
        (text, read(&out))
    };
    let (text, csv) = gaps("1", "one.csv");
    assert_eq!((text.clone(), csv.clone()), gaps("2", "two.csv"));
    for heading in [
        "omt (least traffic of a shortest-path tree, links)",
        "mst (least traffic of any tree, the minimal Steiner tree, links)",
        "omp (shortest one-worm walk through every destination, links)",
        "opt-time (least one-port time of a shortest-path tree, hops)",
    ] {
        assert!(text.contains(heading), "{heading} missing:\n{text}");
    }
    // VH, DIAG and DDS are shortest-path trees: never below the OMT or the one-port optimum.
    let omt = &text[text.find("\nomt (").unwrap()..text.find("\nmst (").unwrap()];
    let all = omt.lines().find(|l| l.starts_with("all ")).unwrap();
    let excess: Vec<f64> = all
        .split_whitespace()
        .skip(2)
        .step_by(3)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(excess.len(), 3, "{all}");
    assert!(excess.iter().all(|&x| x >= 0.0), "{all}");
    assert!(
        omt.contains("--source "),
        "the worst multicast is written out:\n{omt}"
    );
    // The records: the optimum over every K (algorithm = the baseline), then each algorithm's
    // excess over it (versus = the baseline) with the worst multicast the report names.
    assert!(
        csv.contains("\ntorus:5x4,random,paper,9,omt,,,traffic,links,36,"),
        "{csv}"
    );
    let worst = omt.lines().find(|l| l.starts_with("diag ")).unwrap();
    let cells: Vec<&str> = worst.split_whitespace().collect();
    let (excess, optimum, k, run) = (cells[2], cells[4], cells[6], cells[7]);
    let record = csv
        .lines()
        .find(|l| l.starts_with("torus:5x4,random,paper,9,diag,omt,,traffic,links,36,"))
        .unwrap();
    let tail = format!(",{},{optimum},{k},{run}", excess.trim_start_matches('+'));
    assert!(
        record.ends_with(&tail),
        "{record} against the report's {worst}"
    );
    let (_, json) = gaps("2", "two.json");
    let records: Vec<Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(records.len(), csv.lines().count() - 1);
    let opt_time = records
        .iter()
        .find(|r| r["versus"] == "opt-time" && r["algorithm"] == "dds" && r["k"].is_null())
        .unwrap();
    assert_eq!(opt_time["metric"], "one_port_time");
    assert!(opt_time["worst_run"].is_u64() && opt_time["mean"].as_f64().unwrap() >= 0.0);
}

#[test]
fn bad_baselines_are_refused_before_anything_runs() {
    let err = refused(&args(&[("--out", ""), ("--baseline", "omt,best")]));
    assert!(
        err.contains("--baseline 'omt,best'") && err.contains("opt-time"),
        "{err}"
    );
    let err = refused(&args(&[
        ("--out", ""),
        ("--k", "17"),
        ("--baseline", "mst"),
    ]));
    assert!(err.contains("at most 16 destinations"), "{err}");
    let out = meshcast(
        &args(&[
            ("--out", "x.json"),
            ("--resume", "-"),
            ("--baseline", "omt"),
        ]),
        "2",
    );
    assert_eq!(out.status.code(), Some(2), "a gap sweep is not resumed");
}

#[test]
fn sharded_baselines_merge_to_the_unsharded_gaps_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let baselines = ("--baseline", "omt,opt-time");
    let whole = path(dir.path(), "whole.csv");
    let text = sweep(&[("--out", &whole), baselines]);
    let shards: Vec<String> = (0..2)
        .map(|i| path(dir.path(), &format!("s{i}.json")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        sweep(&[("--shard", &format!("{i}/2")), ("--out", shard), baselines]);
    }
    let merged = path(dir.path(), "merged.csv");
    let out = ok(meshcast(
        &["merge", &shards[1], &shards[0], "--out", &merged],
        "2",
    ));
    assert_eq!(out, text);
    assert_eq!(read(&merged), read(&whole));
    assert!(text.contains("\nopt-time ("), "{text}");

    // A shard without the baselines, or with others, is another sweep.
    let plain = path(dir.path(), "plain.json");
    sweep(&[("--shard", "1/2"), ("--out", &plain)]);
    let e = refused(&["merge", &shards[0], &plain]);
    assert!(e.contains("different sweeps: baselines differ"), "{e}");
    // Gap tallies are checked like the others.
    let mut file: Value = serde_json::from_str(&read(&shards[0])).unwrap();
    file["gaps"]["points"][0]["optimum"][0][0] = 99.into();
    let bad = path(dir.path(), "bad.json");
    fs::write(&bad, file.to_string()).unwrap();
    let e = refused(&["merge", &bad, &shards[1]]);
    assert!(e.contains("gaps") && e.contains("99 samples"), "{e}");
}

#[test]
fn optimality_writes_its_sections_and_draws_the_worst_instances() {
    let dir = tempfile::tempdir().unwrap();
    let doc = path(dir.path(), "OPTIMALITY.md");
    let sections = ["trees", "paths", "k", "time", "worst", "seeds"];
    let text: String = sections
        .iter()
        .map(|s| format!("<!-- meshcast reproduce: optimality-{s} -->\nold\n<!-- end -->\n"))
        .collect();
    fs::write(&doc, format!("# kept\n{text}")).unwrap();
    let img = path(dir.path(), "img");
    ok(meshcast(
        &[
            "optimality",
            "--quick",
            "-q",
            "--write",
            &doc,
            "--svg-dir",
            &img,
        ],
        "2",
    ));
    let written = read(&doc);
    assert!(written.starts_with("# kept\n") && !written.contains("\nold\n"));
    assert!(written.contains("| `rsa` |"), "{written}");
    assert!(
        written.contains("![omt](img/mesh-6x6-omt.svg)"),
        "{written}"
    );
    assert!(fs::metadata(dir.path().join("img/mesh-6x6-omt.svg")).is_ok());
}

#[test]
fn merge_keeps_its_inputs_and_refuses_altered_or_oversized_files() {
    let dir = tempfile::tempdir().unwrap();
    let shards: Vec<String> = (0..2)
        .map(|i| path(dir.path(), &format!("s{i}.json")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        sweep(&[("--shard", &format!("{i}/2")), ("--out", shard)]);
    }
    let before = read(&shards[0]);
    // The same file under another spelling: compared as canonical paths.
    let again = format!("{}/./s0.json", dir.path().display());
    let e = refused(&["merge", &shards[0], &shards[1], "--out", &again]);
    assert!(
        e.contains("--out '") && e.contains("' is the shard file '"),
        "{e}"
    );
    assert!(e.contains("it would be overwritten"), "{e}");
    assert_eq!(read(&shards[0]), before, "the shard is untouched");
    let odd_name = path(dir.path(), "s0.svg");
    fs::copy(&shards[0], &odd_name).unwrap();
    let e = refused(&["merge", &odd_name, &shards[1], "--plot", &odd_name]);
    assert!(
        e.contains("--plot '") && e.contains("it would be overwritten"),
        "{e}"
    );

    // A tally whose sum was changed: no samples have these sums.
    let altered = |tally: Value| {
        let mut file: Value = serde_json::from_str(&read(&shards[1])).unwrap();
        file["points"][0]["algorithms"][0]["tallies"]["one_port_time"] = tally;
        let text = file
            .to_string()
            .replace("\"SQUARES\"", "21267647932558653966460912964485513216");
        let altered = path(dir.path(), "altered.json");
        fs::write(&altered, text).unwrap();
        altered
    };
    let file: Value = serde_json::from_str(&read(&shards[1])).unwrap();
    let tally = &file["points"][0]["algorithms"][0]["tallies"]["one_port_time"];
    let (n, sum, sum_sq) = (
        tally[0].as_u64().unwrap(),
        tally[1].as_i64().unwrap(),
        tally[2].as_u64().unwrap(),
    );
    let tampered = altered(serde_json::json!([n, sum * 10, sum_sq]));
    let e = refused(&["merge", &shards[0], &tampered]);
    assert!(
        e.contains("altered.json': K = 1: vh: one_port_time: tally [6, ")
            && e.contains("is not [n, sum, sum of squares] of any samples"),
        "{e}"
    );
    // Consistent tallies in each file whose sums overflow together (2⁶² + 2⁶² > i64::MAX).
    let huge = altered(serde_json::json!([n, 1_i64 << 62, "SQUARES"]));
    let twin = path(dir.path(), "twin.json");
    fs::write(&twin, read(&huge).replace("\"index\":1", "\"index\":0")).unwrap();
    let e = refused(&["merge", &twin, &huge]);
    assert!(e.contains("add up to more than a tally holds"), "{e}");

    // /dev/urandom or any huge file is refused after 256 MiB, not read to the end.
    let big = path(dir.path(), "big.json");
    fs::File::create(&big)
        .unwrap()
        .set_len((256 << 20) + 1)
        .unwrap();
    let e = refused(&["merge", &big]);
    assert!(e.contains("is larger than 256 MiB"), "{e}");
}

#[test]
fn a_killed_write_leaves_nothing_behind_once_the_file_is_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = path(dir.path(), "r.csv");
    // No process has this PID (Linux caps them at 2²²): the write that made it was killed.
    let stale = path(dir.path(), ".r.csv.999999999.tmp");
    let other = path(dir.path(), ".notes.txt.999999999.tmp");
    fs::write(&stale, "half a file").unwrap();
    fs::write(&other, "not ours").unwrap();
    sweep(&[("--out", &out)]);
    assert!(!Path::new(&stale).exists());
    assert!(
        Path::new(&other).exists(),
        "only the temporary files of --out"
    );
}

#[test]
fn trees_names_every_tree_algorithm_that_supports_the_topology() {
    // torus:5x4 is 2D: every tree algorithm of the registry supports it, in registry order.
    let listed = "vh,dist,min,diag,diag-stem,dds,rsa,pair,pair-min";
    assert_eq!(
        sweep(&[("--algos", "trees")]),
        sweep(&[("--algos", listed)])
    );
}
