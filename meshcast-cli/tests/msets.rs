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
        &["msets", "--sides", "-16"],
        &["msets", "--out", "m.txt"],
    ] {
        let out = meshcast(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "));
    }
}

/// Every point of the sweep and every output path is checked before the first set is routed: a
/// bad last point fails with the flags that chose it (the check's message), not with the
/// context of a routing run, and an unwritable --out or --plot fails before any work.
#[test]
fn every_setting_is_checked_before_anything_runs() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["--sides", "16,12", "--algos", "naive,deterministic"],
            "error: --algos deterministic with --sides 12, --c 4, d = 4: side = 12",
        ),
        (
            &[
                "--sides",
                "16,48",
                "--c",
                "4",
                "--algos",
                "theorem2,randomized",
            ],
            "error: --algos randomized with --sides 48, --c 4, d = 4: side = 48",
        ),
        (
            &["--sides", "16,15", "--instance", "bisection"],
            "error: --algos naive with --sides 15, --c 4, --instance bisection: side = 15",
        ),
        (
            &["--sides", "16", "--c", "4,256"],
            "error: --algos naive with --sides 16, --c 256, d = 256: d = 256 is not allowed",
        ),
        (
            &["--out", "no/such/dir/m.csv"],
            "error: cannot write 'no/such/dir/m.csv'",
        ),
        (
            &["--plot", "no/such/dir/m.svg"],
            "error: cannot write 'no/such/dir/m.svg'",
        ),
    ];
    for (args, start) in cases {
        let out = meshcast(&[&["msets"][..], args].concat());
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(start), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// Numeric flags take a negative value as a value (and refuse it naming the flag), rather than
/// as an unknown flag.
#[test]
fn negative_numbers_are_refused_naming_the_flag() {
    for (flag, value) in [
        ("--r", "-1"),
        ("--buffer", "-5"),
        ("--alpha", "-2"),
        ("--c", "-4"),
    ] {
        let out = meshcast(&["msets", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(flag) && err.contains(value), "{flag}: {err}");
        assert!(!err.contains("unexpected argument"), "{flag}: {err}");
    }
}

/// `--out FILE.csv` writes the bytes the deprecated `--csv` wrote, `--out FILE.json` what
/// `--json` prints; the progress bar stays off standard error when it is not a terminal.
#[test]
fn out_writes_csv_or_json_and_csv_remains_an_alias() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let args = [
        "msets",
        "--sides",
        "8,16",
        "--c",
        "2",
        "--algos",
        "naive,theorem2",
    ];
    let run = |extra: &[&str]| {
        let out = meshcast(&[&args[..], extra].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    run(&["--csv", &path("old.csv")]);
    let table = run(&["--out", &path("new.csv")]);
    run(&["--out", &path("new.CSV"), "-q"]);
    let json = run(&["--json", "--out", &path("rows.json")]);
    let read = |name: &str| std::fs::read(path(name)).unwrap();
    assert_eq!(read("old.csv"), read("new.csv"));
    assert_eq!(read("new.CSV"), read("new.csv"));
    assert!(read("new.csv").starts_with(b"algorithm,side,n,d,c,"));
    assert_eq!(read("rows.json"), json);
    assert!(String::from_utf8(table).unwrap().starts_with("algorithm"));
    let both = meshcast(&[&args[..], &["--csv", "a.csv", "--out", "b.csv"]].concat());
    assert_eq!(both.status.code(), Some(2));
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
