//! Bad argument vectors, as an attacker would write them: every value of a few valid command
//! lines replaced by hostile tokens, one at a time and then two at a time (drawn by a seeded
//! generator, so every run tries the same vectors). Each must be refused with exit status 2 and
//! one line on standard error — never a panic, a backtrace or a partial output.

use std::path::Path;
use std::process::{Command, Output};

/// Valid, fast command lines: their values are replaced below.
const BASES: [&[&str]; 4] = [
    &[
        "route",
        "-t",
        "mesh:8x8",
        "-d",
        "4,6 6,6",
        "--algo",
        "xy-path",
        "--source",
        "0,0",
        "--schedule",
        "paper",
        "--length",
        "20",
        "--startup",
        "0",
        "--port",
        "all",
        "--td",
        "0.5",
        "--control",
        "3",
        "--header",
        "2",
    ],
    &[
        "sweep",
        "-t",
        "mesh:4x4",
        "-a",
        "vh,diag",
        "--k",
        "2:4",
        "--runs",
        "3",
        "--seed",
        "1",
        "--placement",
        "random",
        "--schedule",
        "paper",
        "--out",
        "r.csv",
        "--plot",
        "r.svg",
        "-q",
    ],
    &[
        "simulate",
        "-t",
        "mesh:4x4",
        "--load",
        "0.01",
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
        "--vcs",
        "2",
        "--buffer",
        "4",
        "--pipeline",
        "1",
        "--multicast",
        "0",
        "--dests",
        "3",
        "--seed",
        "1",
        "--precision",
        "0.05",
        "--out",
        "s.csv",
        "-q",
    ],
    &["merge", "shard.json"],
];

/// Values no flag of the bases accepts.
const HOSTILE: [&str; 14] = [
    "-1",
    "abc",
    "",
    "1e999",
    "NaN",
    "0x10",
    "99999999999999999999999",
    "-",
    "--",
    ":",
    ",,",
    "1:2:3:4",
    "💥",
    "-0.5",
];

/// The positions of a base's values: after each flag that takes one, and merge's file.
fn value_positions(base: &[&str]) -> Vec<usize> {
    (1..base.len())
        .filter(|&i| {
            !base[i].starts_with('-') && (base[i - 1].starts_with('-') || base[0] == "merge")
        })
        .collect()
}

/// A small xorshift generator: the same vectors on every run.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Run `meshcast args` in `dir`, with backtraces on: a panic would show one.
fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshcast"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .expect("the binary runs")
}

/// Run `args` in `dir`; it must be refused cleanly.
fn assert_refused(args: &[&str], dir: &Path) {
    let out = run(args, dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    for bad in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(!err.contains(bad), "{args:?}: {err}");
    }
    assert!(
        out.stdout.is_empty(),
        "{args:?}: nothing on standard output"
    );
}

#[test]
fn hostile_values_are_refused_in_one_line_with_status_2() {
    // The bases (but merge's, whose file does not exist) run: their damage is what is refused.
    let valid = tempfile::tempdir().unwrap();
    for base in &BASES[..3] {
        let out = run(base, valid.path());
        assert!(
            out.status.success(),
            "{base:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut tried = 0;
    for base in BASES {
        let positions = value_positions(base);
        for &i in &positions {
            for token in HOSTILE {
                let mut args = base.to_vec();
                args[i] = token;
                assert_refused(&args, dir.path());
                tried += 1;
            }
        }
        let mut draw = Draw(0x5eed_f0ba ^ base.len() as u64);
        for _ in 0..40 {
            let mut args = base.to_vec();
            for _ in 0..2 {
                let i = positions[draw.below(positions.len())];
                args[i] = HOSTILE[draw.below(HOSTILE.len())];
            }
            assert_refused(&args, dir.path());
            tried += 1;
        }
    }
    // Structural damage: a flag without its value, an unknown flag, a flag twice.
    for base in &BASES[..3] {
        let last_value = *value_positions(base).last().unwrap();
        assert_refused(&base[..last_value], dir.path());
        assert_refused(&[*base, &["--no-such-flag"]].concat(), dir.path());
        assert_refused(&[*base, &base[1..3]].concat(), dir.path());
        tried += 3;
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
    println!("{tried} hostile argument vectors refused");
    assert!(tried > 400, "{tried}");
}
