//! The `meshcast` binary, run as a user runs it: output, JSON schema, drawings, exit codes.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const EXAMPLE: &str = "4,6 6,6 0,2 4,0 3,0 7,4";
/// Every algorithm of the library's registry, in registry order.
fn all_names() -> Vec<&'static str> {
    meshcast::algo::REGISTRY.iter().map(|a| a.name).collect()
}

/// The registry's algorithms that support `topology`, in registry order.
fn names_on(topology: &str) -> Vec<&'static str> {
    let shape: meshcast::topology::Shape = topology.parse().unwrap();
    let supported = meshcast::algo::REGISTRY
        .iter()
        .filter(|a| a.support.covers(&shape));
    supported.map(|a| a.name).collect()
}

/// Run the binary with `args` (RUST_BACKTRACE stays as the machine sets it).
fn meshcast(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshcast"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// `route` on the 8x8 example of seed 001 Example 3.2.1.1 with extra flags.
fn example(extra: &[&str]) -> Output {
    let mut args = vec![
        "route",
        "--topology",
        "mesh:8x8",
        "--source",
        "0,0",
        "--dests",
        EXAMPLE,
    ];
    args.extend_from_slice(extra);
    meshcast(&args)
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).expect("valid JSON")
}

/// The value of a `name   value` line of the text report.
fn metric(text: &str, name: &str) -> u32 {
    let line = text
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no '{name}' line in:\n{text}"));
    line[name.len()..].trim().parse().expect("a number")
}

#[test]
fn algos_lists_every_algorithm() {
    let text = stdout(&meshcast(&["algos"]));
    assert!(all_names().len() >= 7);
    for name in all_names() {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} missing:\n{text}"
        );
    }
    assert!(
        text.contains("n-D mesh, torus") && text.contains("2D mesh, torus"),
        "{text}"
    );

    let rows = json(&meshcast(&["algos", "--json"]));
    let names: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, all_names());
    for field in [
        "family",
        "topologies",
        "model",
        "shortest_path",
        "paper",
        "summary",
    ] {
        assert!(!rows[0][field].is_null(), "field {field}");
    }
    assert_eq!(rows[3]["shortest_path"], Value::Bool(true));
}

#[test]
fn diag_example_text_report() {
    let text = stdout(&example(&["--algo", "diag"]));
    assert!(
        text.starts_with("mesh:8x8, source (0,0), 6 destinations, algorithm diag, schedule paper"),
        "{text}"
    );
    assert_eq!(metric(&text, "traffic"), 21);
    assert_eq!(metric(&text, "additional traffic"), 15);
    assert_eq!(metric(&text, "one-port time"), 12);
    let links = text
        .lines()
        .filter(|l| l.contains(" -> ") && l.contains("hop "))
        .count();
    assert_eq!(links, 21);
    assert!(text.contains("(0,0) -> (1,0)  hop 1"), "{text}");
    // Every destination with its arrival times.
    for d in EXAMPLE.split(' ') {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("({d}) "))),
            "{d}:\n{text}"
        );
    }
}

#[test]
fn diag_example_json_follows_the_schema() {
    let r = json(&example(&["--algo", "diag", "--json"]));
    assert_eq!(r["schema"], "meshcast.route/1");
    assert_eq!(r["topology"], "mesh:8x8");
    assert_eq!(r["source"], serde_json::json!([0, 0]));
    assert_eq!(
        r["destinations"],
        serde_json::json!([[4, 6], [6, 6], [0, 2], [4, 0], [3, 0], [7, 4]])
    );
    assert_eq!(r["algorithm"], "diag");
    assert_eq!(r["schedule"], "paper");
    let m = &r["metrics"];
    assert_eq!(m["traffic"], 21);
    assert_eq!(m["additional_traffic"], 15);
    assert_eq!(m["one_port_time"], 12);
    assert!(m["all_port_time"].as_u64().unwrap() <= 12);
    assert_eq!(m["optimal_one_port_time"], 12);

    let links = r["links"].as_array().unwrap();
    assert_eq!(links.len(), 21, "one link per unit of traffic");
    for l in links {
        assert!(l["hop"].as_u64().unwrap() >= 1, "{l}");
        let (from, to) = (l["from"].as_array().unwrap(), l["to"].as_array().unwrap());
        let step: u64 = from
            .iter()
            .zip(to)
            .map(|(a, b)| a.as_u64().unwrap().abs_diff(b.as_u64().unwrap()))
            .sum();
        assert_eq!(step, 1, "a mesh link joins neighbours: {l}");
        assert!(l["send"].is_u64());
    }
    let arrivals = r["arrivals"].as_array().unwrap();
    assert_eq!(arrivals.len(), 6);
    let latest = arrivals
        .iter()
        .map(|a| a["one_port"].as_u64().unwrap())
        .max();
    assert_eq!(latest, Some(12));
    for (a, d) in arrivals.iter().zip(r["destinations"].as_array().unwrap()) {
        assert_eq!(&a["node"], d);
        assert!(a["all_port"].as_u64().unwrap() <= a["one_port"].as_u64().unwrap());
    }
}

#[test]
fn source_defaults_to_the_origin() {
    let given = stdout(&example(&["--algo", "dds"]));
    let default = stdout(&meshcast(&[
        "route", "-t", "mesh:8x8", "-d", EXAMPLE, "-a", "dds",
    ]));
    assert_eq!(given, default);
    let cube = json(&meshcast(&[
        "route",
        "-t",
        "torus:4x4x4",
        "-d",
        "1,2,3",
        "-a",
        "vh",
        "--json",
    ]));
    assert_eq!(cube["source"], serde_json::json!([0, 0, 0]));
}

#[test]
fn all_compares_every_applicable_algorithm() {
    let text = stdout(&example(&["--all"]));
    for name in names_on("mesh:8x8") {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} missing:\n{text}"
        );
    }
    assert!(text.contains("one-port time, optimal schedule"), "{text}");
    let diag = text.lines().find(|l| l.starts_with("diag ")).unwrap();
    let cells: Vec<&str> = diag.split_whitespace().collect();
    assert_eq!(cells, ["diag", "21", "15", "12", "12", "12"]);

    let reports = json(&example(&["--all", "--json"]));
    let names: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(names, names_on("mesh:8x8"));

    let cube = stdout(&meshcast(&[
        "route",
        "-t",
        "mesh:4x4x4",
        "-d",
        "1,1,1 3,2,0",
        "--all",
    ]));
    for name in ["vh", "dist", "min", "diag", "dds"] {
        assert!(
            cube.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name}:\n{cube}"
        );
    }
    assert!(!cube.lines().any(|l| l.starts_with("pair")), "{cube}");
    assert!(cube.contains("not run"), "{cube}");
}

#[test]
fn optimal_schedule_shortens_vh() {
    let paper = stdout(&example(&["--algo", "vh"]));
    let optimal = stdout(&example(&["--algo", "vh", "--schedule", "optimal"]));
    assert_eq!(metric(&paper, "one-port time"), 13);
    assert_eq!(metric(&optimal, "one-port time"), 12);
    assert_eq!(metric(&paper, "traffic"), metric(&optimal, "traffic"));
    let r = json(&example(&[
        "--algo",
        "vh",
        "--schedule",
        "optimal",
        "--json",
    ]));
    assert_eq!(r["schedule"], "optimal");
    assert_eq!(r["metrics"]["one_port_time"], 12);
}

#[test]
fn optima_follow_the_report_and_bound_the_heuristics() {
    let text = stdout(&example(&["--all", "--optima"]));
    let (table, optima) = text.split_once("exact optima of this request").unwrap();
    assert!(table.contains("diag "), "{text}");
    for line in ["omt ", "mst ", "omp ", "opt-time "] {
        assert!(
            optima.lines().any(|l| l.starts_with(line)),
            "{line}:\n{text}"
        );
    }
    let both = json(&example(&["--algo", "diag", "--optima", "--json"]));
    let diag = &both["reports"][0];
    assert_eq!(*diag, json(&example(&["--algo", "diag", "--json"])));
    assert_eq!(both["optima"]["schema"], "meshcast.optima/1");
    let optima = both["optima"]["optima"].as_array().unwrap();
    let value = |b: &str| optima.iter().find(|o| o["baseline"] == b).unwrap()["value"].clone();
    assert_eq!(value("omt"), 17);
    assert!(diag["metrics"]["traffic"].as_u64() >= value("omt").as_u64());
    assert!(value("mst").as_u64() <= value("omt").as_u64());
    assert_eq!(value("opt-time"), diag["metrics"]["optimal_one_port_time"]);
    // Beyond the solvers' limits: "–" and the reason, and the routes are still reported.
    let many = "1,1 2,2 3,3 4,4 5,5 6,6 7,7 1,2 1,3 1,4 1,5 1,6 1,7 2,1 3,1 4,1 5,1";
    let out = meshcast(&["route", "-t", "mesh:8x8", "-d", many, "--all", "--optima"]);
    let text = stdout(&out);
    let omt = text.lines().find(|l| l.starts_with("omt ")).unwrap();
    assert!(
        omt.contains(" – ") && omt.contains("at most 16 destinations"),
        "{omt}"
    );
}

/// Run, expect failure with `code` and a single `error:` line without a panic or backtrace.
fn assert_fails(args: &[&str], code: i32, mention: &str) {
    let out = meshcast(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one line expected:\n{err}"
    );
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(mention), "{args:?}: '{mention}' not in {err}");
    for bad in ["panicked", "backtrace", "Backtrace"] {
        assert!(!err.contains(bad), "{args:?}: {err}");
    }
    assert!(
        out.stdout.is_empty(),
        "{args:?}: nothing on stdout on failure"
    );
}

#[test]
fn bad_input_is_one_error_line_with_status_2() {
    let route = |topology: &'static str, dests: &'static str, extra: &[&'static str]| {
        let mut v = vec!["route", "--topology", topology, "--dests", dests];
        v.extend_from_slice(extra);
        v
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            route("mesh:8x8", EXAMPLE, &["--algo", "nope"]),
            "unknown algorithm 'nope'",
        ),
        (
            route("mesh:8x8", "4,6 8,1", &["--algo", "diag"]),
            "outside the topology",
        ),
        (
            route("mesh:8x8", "4,6", &["--algo", "diag", "--source", "0,9"]),
            "--source",
        ),
        (
            route("mesh:8x8", "4,6 1,1,1", &["--algo", "diag"]),
            "needs 2 coordinates",
        ),
        (
            route("mesh:8x8", "4,6 4,6", &["--algo", "diag"]),
            "listed twice",
        ),
        (
            route("mesh:8x8", "4,6 0,0", &["--algo", "diag"]),
            "source (0,0)",
        ),
        (route("mesh:8x1", "4,0", &["--algo", "diag"]), "at least 2"),
        (
            route("mesh:100000x100000", "4,0", &["--algo", "diag"]),
            "more than",
        ),
        (
            route("mesh:60000x60000", "4,0", &["--algo", "diag"]),
            "more than 67108864 nodes",
        ),
        (
            route("mesh:4x4x4", "1,1,1", &["--algo", "pair"]),
            "does not support mesh:4x4x4",
        ),
        (route("mesh:8x8", "4,x", &["--algo", "diag"]), "'x'"),
        (route("mesh:8x8", "4,-1", &["--algo", "diag"]), "'-1'"),
        (route("mesh:8x8", "", &["--algo", "diag"]), "empty"),
        (route("ring:8", "1", &["--algo", "diag"]), "ring:8"),
        (
            route(
                "mesh:3x3x3x3",
                "1,1,1,1",
                &["--algo", "diag", "--svg", "never.svg"],
            ),
            "3 dimensions",
        ),
        (
            route(
                "mesh:100x100",
                "1,1",
                &["--algo", "diag", "--svg", "never.svg"],
            ),
            "4096 nodes",
        ),
    ];
    for (args, mention) in cases {
        assert_fails(&args, 2, mention);
    }
    assert!(!Path::new("never.svg").exists());
}

#[test]
fn unwritable_svg_path_fails_with_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/tree.svg");
    let args = ["--algo", "diag", "--svg", missing.to_str().unwrap()];
    assert_fails(
        &[&["route", "-t", "mesh:8x8", "-d", EXAMPLE][..], &args].concat(),
        1,
        "SVG file",
    );
    let a_dir = dir.path().join("d.svg");
    std::fs::create_dir(&a_dir).unwrap();
    let onto_dir = ["--algo", "diag", "--svg", a_dir.to_str().unwrap()];
    assert_fails(
        &[&["route", "-t", "mesh:8x8", "-d", EXAMPLE][..], &onto_dir].concat(),
        1,
        "SVG file",
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left beside the directory"
    );
}

#[test]
fn an_svg_drawing_needs_an_svg_file_name() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["tree.txt", "tree", "tree.png"] {
        let path = dir.path().join(name);
        let args = ["--algo", "diag", "--svg", path.to_str().unwrap()];
        assert_fails(
            &[&["route", "-t", "mesh:8x8", "-d", EXAMPLE][..], &args].concat(),
            2,
            "': write FILE.svg",
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let upper = dir.path().join("TREE.SVG");
    let args = ["--algo", "diag", "--svg", upper.to_str().unwrap()];
    stdout(&meshcast(
        &[&["route", "-t", "mesh:8x8", "-d", EXAMPLE][..], &args].concat(),
    ));
    assert!(upper.exists());
}

/// Negative numbers are values, refused for what they are, naming the flag and the range.
#[test]
fn negative_numbers_name_their_flag() {
    let route = [
        "route", "-t", "mesh:8x8", "-d", EXAMPLE, "--algo", "xy-path",
    ];
    let cases: [(&[&str], &str); 4] = [
        (
            &["--control", "-1"],
            "invalid value '-1' for '--control <FLITS>': -1 is not in 0..=1000000",
        ),
        (&["--td", "-0.5"], "--td: td = -0.5 is not allowed"),
        (&["--port", "-2"], "invalid value '-2' for '--port <PORTS>'"),
        (&["--source", "-1,0"], "--source '-1,0'"),
    ];
    for (extra, says) in cases {
        assert_fails(&[&route[..], extra].concat(), 2, says);
    }
    let sweep = ["sweep", "-t", "mesh:4x4", "-a", "vh", "--k", "2"];
    assert_fails(
        &[&sweep[..], &["--seed", "-3"]].concat(),
        2,
        "invalid value '-3' for '--seed <SEED>': not a whole number ≥ 0",
    );
    assert_fails(
        &[&sweep[..], &["--runs", "-3"]].concat(),
        2,
        "invalid value '-3' for '--runs <N>'",
    );
}

/// Clap's refusals are one line too: no usage block, the missing flags on the same line.
#[test]
fn usage_errors_are_one_line() {
    assert_fails(
        &["route", "-t", "mesh:8x8", "--algo", "vh"],
        2,
        "the following required arguments were not provided: --dests <NODES>",
    );
    assert_fails(
        &["route", "--bogus"],
        2,
        "unexpected argument '--bogus' found",
    );
    assert_fails(&["nonsense"], 2, "unrecognized subcommand 'nonsense'");
    let help = meshcast(&["route", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Usage: meshcast route"));
}

#[test]
fn usage_errors_come_from_clap_with_status_2() {
    for args in [
        &["route", "-t", "mesh:8x8", "-d", EXAMPLE][..],
        &[
            "route", "-t", "mesh:8x8", "-d", EXAMPLE, "--algo", "vh", "--all",
        ],
        &[
            "route", "-t", "mesh:8x8", "-d", EXAMPLE, "--all", "--svg", "x.svg",
        ],
        &[
            "route",
            "-t",
            "mesh:8x8",
            "-d",
            EXAMPLE,
            "--algo",
            "vh",
            "--schedule",
            "best",
        ],
    ] {
        let out = meshcast(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
    }
}

/// Route with `--svg` into a fresh directory; return the drawing.
fn draw(topology: &str, source: &str, dests: &str, algo: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tree.svg");
    let args = [
        "route",
        "-t",
        topology,
        "-s",
        source,
        "-d",
        dests,
        "-a",
        algo,
        "--svg",
        path.to_str().unwrap(),
    ];
    let text = stdout(&meshcast(&args));
    assert!(text.contains("traffic"), "the report is still printed");
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "only the drawing, no temporary file");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..80]
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("Legend") && svg.contains("passerby node"));
    assert!(svg.contains(&format!("{algo} on {topology}")), "title");
    svg
}

#[test]
fn svg_of_a_2d_mesh() {
    let svg = draw("mesh:8x8", "0,0", EXAMPLE, "diag");
    assert!(svg.contains("traffic 21"));
    // 21 tree links, each ending in an arrowhead, and the legend's sample link.
    assert_eq!(svg.matches("url(#arrow)").count(), 21 + 1);
    assert!(
        !svg.contains("arrow-0"),
        "worm colours only where there are worms"
    );
}

#[test]
fn svg_of_a_2d_torus() {
    let svg = draw("torus:8x8", "0,0", EXAMPLE, "diag");
    assert!(svg.contains("wraparound link"));
    assert!(svg.contains("stroke-dasharray"), "wraparound stubs");
}

#[test]
fn svg_of_a_3d_mesh() {
    let svg = draw(
        "mesh:5x5x5",
        "0,0,0",
        "0,3,0 1,3,0 1,4,2 2,3,0 3,1,0 4,3,3",
        "dds",
    );
    for z in 0..5 {
        assert!(svg.contains(&format!("z = {z}")), "layer {z}");
    }
    assert!(svg.contains("z-layer"), "legend explains z hops");
}

#[test]
fn help_teaches_with_examples() {
    let top = stdout(&meshcast(&["--help"]));
    assert!(top.contains("algos") && top.contains("route") && top.contains("Examples:"));
    let route = stdout(&meshcast(&["route", "--help"]));
    for flag in [
        "--topology",
        "--source",
        "--dests",
        "--algo",
        "--all",
        "--schedule",
        "--json",
        "--svg",
    ] {
        assert!(route.contains(flag), "{flag}");
    }
    assert!(route.contains("--algo diag --svg tree.svg"));
}

/// docs/REPRODUCTION.md carries the table `meshcast reproduce` prints, verbatim.
#[test]
fn reproduction_doc_holds_the_live_worked_example_table() {
    let out = stdout(&meshcast(&["reproduce", "--quick"]));
    // The worked examples come first and do not depend on the number of runs.
    let table: String = out
        .lines()
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(table.lines().count() >= 22, "{table}");
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/REPRODUCTION.md"),
    )
    .unwrap();
    for line in table.lines() {
        assert!(doc.contains(line), "docs/REPRODUCTION.md lacks: {line}");
    }
}

/// `reproduce --quick --write` replaces exactly the marked blocks of a file, and refuses a file
/// without the markers.
#[test]
fn reproduce_writes_between_markers() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("R.md");
    let markers = [
        "worked",
        "malani",
        "wang",
        "wang-paths",
        "seed002",
        "seed003",
        "flit-seed003-table1",
        "flit-seed003-figures",
        "flit-seed002-figures",
    ]
    .map(|m| format!("<!-- meshcast reproduce: {m} -->\nold\n<!-- end -->\n"))
    .join("prose\n");
    std::fs::write(&doc, format!("intro\n{markers}outro\n")).unwrap();
    let path = doc.to_str().unwrap();
    let out = meshcast(&["reproduce", "--quick", "--write", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&doc).unwrap();
    assert!(text.starts_with("intro\n") && text.ends_with("outro\n"));
    assert!(!text.contains("old"));
    assert!(text.contains("**Table 6: additional traffic (links), torus:20x20**"));
    assert!(text.contains("| 4.2.15 | mesh:10x10x10 |"));
    // Issue 17's readings: their columns, and reading 1's check on the published means alone.
    assert!(text.contains("| reading 1: K = 0…380 | × | reading 2: wrap-last order | × |"));
    assert!(text.contains(
        "| diag one port time on mesh:20x20 (Fig. 4.2.3 / Fig. 4.2.1) | 34.89 / 35.76 = 0.9757 | 0.9744 | 1.0013 |"
    ));
    assert!(text.contains(
        "| MIN published | MIN ours (pair-min) | × | VH ours | DIAG ours, diag-stem | × |"
    ));
    assert!(text.contains("| algorithm | published | ours, X-first order | × | ours, optimal order | × | ours, wrap-last order | × |"));
    assert!(text.contains("| DIAG as diag-stem | 27.19 |"));
    assert!(text.contains("| 4.3.1 | mesh:20x20 | 10…370 | xy-path | time (eq. 4.3.1) | 185.83 |"));
    assert!(text.contains("| time (eq. 4.3.1) | 47.9% (185.83 vs 356.39) |"));
    assert!(text.contains("| message-passing steps (two ports) | 2 | 2 | yes |"));
    assert!(
        text.contains("| 2 | 255 | 7 |"),
        "seed 002 bound for d = 2, K = 255"
    );
    assert!(text.contains("seed 003 Fig. 7 (mesh:10x10x10)"));
    assert!(text.contains("| QG (`qg`) | 0.2967 / "), "seed 003 Table 1");
    assert!(text.contains("Fig. 9 (20 destinations):\n\n| load | DP | MP | CP | QG |"));
    assert!(text.contains("| Fig. 8: flits | 16 |\n|---|---|\n| one-port | "));
    assert_eq!(text.matches("<!-- end -->").count(), 9);

    // --only replaces its sections and leaves the others as they are.
    let only = text.replace("| QG (`qg`) | 0.2967 / ", "| QG (`qg`) | stale / ");
    std::fs::write(&doc, &only).unwrap();
    let out = meshcast(&["reproduce", "--quick", "--only", "seed003", "--write", path]);
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), only);
    let out = meshcast(&["reproduce", "--quick", "--only", "wang,nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no section 'nope'"));

    std::fs::write(&doc, "no markers\n").unwrap();
    let out = meshcast(&["reproduce", "--quick", "--write", path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no marker"));
}

/// Seed 001 Example 3.3.1: XY-path's two worms on the 10x10 mesh.
const PATHS: [&str; 6] = [
    "route",
    "--topology",
    "mesh:10x10",
    "--dests",
    "2,0 3,1 7,2 7,5 0,4 1,3",
    "--algo",
];

fn xy_path(extra: &[&str]) -> Output {
    meshcast(&[&PATHS[..], &["xy-path"], extra].concat())
}

#[test]
fn a_path_report_lists_worms_with_their_drops() {
    let text = stdout(&xy_path(&[]));
    assert_eq!(metric(&text, "wormhole latency"), 12 + 20);
    assert!(
        text.contains("\nwormhole model: L = 20 flits, start-up 0 cycles, all-port;"),
        "{text}"
    );
    assert!(!text.contains("tree links"), "{text}");
    assert!(
        text.contains(
            "  worm 1 from (0,0): 12 hops, 4 drops, leaves at 0\n    (1,0) (2,0)* (3,0) (3,1)*"
        ),
        "{text}"
    );
    assert!(
        text.contains("  worm 2 from (0,0): 6 hops, 2 drops"),
        "{text}"
    );
    assert!(
        text.contains("destination  one-port  all-port  wormhole"),
        "{text}"
    );
}

#[test]
fn a_path_report_in_json_has_its_kind_model_and_sends() {
    let r = json(&xy_path(&["--json"]));
    assert_eq!(r["schema"], "meshcast.route/1");
    assert_eq!(r["kind"], "path");
    assert_eq!(
        r["wormhole"],
        serde_json::json!({"startup": 0, "length": 20, "port": "all"})
    );
    assert_eq!(r["metrics"]["wormhole_latency"], 32);
    let sends = r["sends"].as_array().unwrap();
    assert_eq!(sends.len(), 2);
    assert_eq!(
        sends[0]["drops"],
        serde_json::json!([[2, 0], [3, 1], [7, 2], [7, 5]])
    );
    assert_eq!(sends[0]["route"].as_array().unwrap().len(), 12);
    assert_eq!(sends[1]["start"], 0);
    let last = r["arrivals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["wormhole"].as_u64());
    assert_eq!(last.max().flatten(), Some(32));

    // One port: the second worm leaves when the first one's tail has (start-up + L).
    let one = json(&xy_path(&[
        "--json",
        "--length",
        "64",
        "--startup",
        "33",
        "--port",
        "one",
    ]));
    assert_eq!(one["sends"][1]["start"], 33 + 64);
    assert_eq!(one["metrics"]["wormhole_latency"], (33 + 64) + 33 + 6 + 64);
    assert_eq!(one["wormhole"]["port"], "one");
}

/// Every algorithm's report says what its sends are, and the wormhole numbers are there for
/// path- and unicast-based plans only.
#[test]
fn every_plan_kind_is_reported_with_its_sends() {
    let reports = json(&example(&["--all", "--json"]));
    for r in reports.as_array().unwrap() {
        let name = r["algorithm"].as_str().unwrap();
        let family = meshcast::algo::find(name).unwrap().family.to_string();
        assert_eq!(r["kind"], family, "{name}");
        let sends = r["sends"].as_array().unwrap();
        let hops: usize = sends
            .iter()
            .map(|s| s["route"].as_array().unwrap().len())
            .sum();
        assert_eq!(
            hops as u64,
            r["metrics"]["traffic"].as_u64().unwrap(),
            "{name}"
        );
        for s in sends {
            let (route, drops) = (
                s["route"].as_array().unwrap(),
                s["drops"].as_array().unwrap(),
            );
            assert_eq!(
                drops.last(),
                route.last(),
                "{name}: a send ends with a drop"
            );
            if family != "path" {
                assert_eq!(drops.len(), 1, "{name}: {s}");
            }
        }
        let steps = &r["metrics"]["steps"];
        if family == "unicast" {
            let arrivals = r["arrivals"].as_array().unwrap().iter();
            let last = arrivals.map(|a| a["step"].as_u64().unwrap()).max();
            assert_eq!(steps.as_u64(), last, "{name}");
            assert!(
                sends.iter().all(|s| s["step"].as_u64() >= Some(1)),
                "{name}"
            );
        } else {
            assert!(steps.is_null(), "{name}: steps are for unicast-based plans");
            assert!(sends.iter().all(|s| s["step"].is_null()), "{name}");
        }
        let latency = &r["metrics"]["wormhole_latency"];
        if family == "tree" {
            assert!(latency.is_null() && r["wormhole"].is_null(), "{name}");
            assert!(sends.iter().all(|s| s["start"].is_null()), "{name}");
        } else {
            let arrivals = r["arrivals"].as_array().unwrap().iter();
            let last = arrivals.map(|a| a["wormhole"].as_u64().unwrap()).max();
            assert_eq!(latency.as_u64(), last, "{name}");
        }
    }
    let text = stdout(&example(&["--all", "--length", "10"]));
    assert!(
        text.contains(
            "\nwormhole model: L = 10 flits, start-up 0 cycles, all-port; latency in cycles\n"
        ),
        "{text}"
    );
    let xy = text
        .lines()
        .find(|l| l.starts_with("xy-path ") && l.contains("path"))
        .unwrap();
    assert!(
        xy.split_whitespace()
            .last()
            .unwrap()
            .parse::<u32>()
            .unwrap()
            > 10,
        "{xy}"
    );
}

#[test]
fn svg_of_worms() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("worms.svg");
    stdout(&xy_path(&["--svg", path.to_str().unwrap()]));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("wormhole latency 32 cycles"), "title");
    assert!(
        svg.contains("worm 1 from (0,0): 12 hops, 4 drops"),
        "legend"
    );
    assert!(svg.contains("worm 2 from (0,0): 6 hops, 2 drops"), "legend");
    // One arrow per hop in the worm's colour, and one in the legend.
    assert_eq!(svg.matches("url(#arrow-0)").count(), 12 + 1);
    assert_eq!(svg.matches("url(#arrow-1)").count(), 6 + 1);
    assert_eq!(svg.matches("url(#arrow)").count(), 0, "no tree links");
    assert!(!svg.contains("replicate node"), "worms do not replicate");
}

/// Every algorithm draws on a 2D torus and a 3D mesh.
#[test]
fn every_algorithm_draws() {
    let dir = tempfile::tempdir().unwrap();
    for (topology, dests) in [
        ("torus:6x6", "1,4 5,5 3,0 2,2"),
        ("mesh:4x4x3", "3,3,2 1,0,1 0,3,0"),
    ] {
        for name in names_on(topology) {
            let path = dir.path().join(format!("{name}.svg"));
            let args = [
                "route",
                "-t",
                topology,
                "-d",
                dests,
                "-a",
                name,
                "--svg",
                path.to_str().unwrap(),
            ];
            stdout(&meshcast(&args));
            let svg = std::fs::read_to_string(&path).unwrap();
            assert!(svg.contains("Legend"), "{name} on {topology}");
        }
    }
}

#[test]
fn bad_wormhole_flags_are_usage_errors() {
    for (flag, value) in [
        ("--length", "0"),
        ("--startup", "2000000"),
        ("--port", "two"),
        ("--port", "0"),
        ("--control", "2000000"),
        ("--header", "x"),
        ("--header", "0"),
        ("--length", "-1"),
        ("--startup", "-5"),
    ] {
        let out = xy_path(&[flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("error: invalid value '{value}' for '{flag}")),
            "{err}"
        );
    }
}

/// `--port d` is seed 002's d-port architecture: the multiport algorithm builds for it, steps and
/// contention are counted with it; `--control` and `--header` add circuit switching and virtual
/// cut-through under the same start-up, length and ports.
#[test]
fn d_ports_contention_and_switching_models_from_the_flags() {
    let run = |algo: &str, extra: &[&str]| {
        json(&meshcast(
            &[&PATHS[..], &[algo, "--json", "--startup", "3"], extra].concat(),
        ))
    };
    let separate = |port: &str| run("separate", &["--port", port])["metrics"]["steps"].clone();
    // Six unicasts from the source: 6 steps on one port, 3 on two, 2 on three, 1 on all.
    assert_eq!(
        ["one", "2", "3", "all"].map(separate),
        [6, 3, 2, 1].map(Value::from)
    );
    let r = run(
        "multiport",
        &["--port", "2", "--control", "4", "--header", "1"],
    );
    assert_eq!(r["wormhole"]["port"], "2");
    assert_eq!(r["wormhole"]["control"], 4);
    let m = &r["metrics"];
    // Seed 002 Theorems 1–3: its plans are free of both kinds of contention.
    assert_eq!(m["contention"]["stepwise"], 0);
    assert_eq!(m["contention"]["depth"], 0);
    // A one-flit header is the wormhole model; a control packet costs more per hop.
    assert_eq!(m["cut_through_latency"], m["wormhole_latency"]);
    assert!(m["circuit_switching_latency"].as_u64() > m["wormhole_latency"].as_u64());
    let tree = run("dds", &["--control", "4"]);
    assert!(tree["metrics"].get("circuit_switching_latency").is_none());
    assert!(tree["metrics"].get("contention").is_none());
    assert!(tree["metrics"].get("d_port").is_none());
    // A tree under d ports: store-and-forward, between the one-port and the all-port time.
    let m = run("vh", &["--port", "2"])["metrics"].clone();
    assert_eq!(m["d_port"]["ports"], 2);
    let time = m["d_port"]["time"].as_u64().unwrap();
    assert!(m["all_port_time"].as_u64().unwrap() <= time);
    assert!(time <= m["one_port_time"].as_u64().unwrap());

    let text = stdout(&meshcast(
        &[&PATHS[..], &["separate", "--port", "2", "--header", "2"]].concat(),
    ));
    assert_eq!(metric(&text, "steps"), 3);
    assert!(text.contains("\nstepwise contention "), "{text}");
    assert!(
        text.contains("2-port, cut-through header 2 flits"),
        "{text}"
    );
}

#[test]
fn a_bad_threshold_names_the_flag_and_the_range() {
    let out = meshcast(&[&PATHS[..], &["qg", "--td", "1.5"]].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "error: --td: td = 1.5 is not allowed: a threshold in (0, 1], e.g. 0.5"
    );
}

/// Separate addressing under one port: one unicast per step, listed with its step.
#[test]
fn a_unicast_report_gives_every_send_its_step() {
    let separate =
        |extra: &[&str]| meshcast(&[&PATHS[..], &["separate", "--port", "one"], extra].concat());
    let text = stdout(&separate(&[]));
    assert_eq!(metric(&text, "steps"), 6);
    assert!(
        text.contains("\n  step 1  (0,0) -> (2,0)  2 hops, leaves at 0\n"),
        "{text}"
    );
    assert!(
        text.contains("destination  one-port  all-port  wormhole  step"),
        "{text}"
    );
    let r = json(&separate(&["--json"]));
    assert_eq!(r["kind"], "unicast");
    let steps: Vec<u64> = r["sends"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_u64().unwrap())
        .collect();
    assert_eq!(steps, [1, 2, 3, 4, 5, 6]);
    assert_eq!(r["metrics"]["steps"], 6);
    let all_port = json(&meshcast(&[&PATHS[..], &["separate", "--json"]].concat()));
    assert_eq!(
        all_port["metrics"]["steps"], 1,
        "all-port: every unicast in step 1"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unicasts.svg");
    stdout(&separate(&["--svg", path.to_str().unwrap()]));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("6 unicasts in 6 steps"), "title");
    for step in 1..=6 {
        assert!(
            svg.contains(&format!("step {step}: 1 unicast (sender")),
            "legend, step {step}"
        );
    }
    // One curved arrow per unicast and one per legend entry, no tree links.
    assert_eq!(svg.matches("url(#arrow-").count(), 6 + 6);
    assert_eq!(svg.matches("url(#arrow)").count(), 0);
}
