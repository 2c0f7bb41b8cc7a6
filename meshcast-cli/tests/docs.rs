//! The samples of README.md and docs/*.md are the binary's output: every fenced block whose first
//! line is `$ meshcast …` is run (in a temporary directory, output files written there) and its
//! standard output and error compared with the lines under the command. A line `...` (or `…`)
//! stands for any number of lines, so a sample may be abbreviated; a sample too slow for the test
//! suite is marked with `<!-- sample: not run: REASON -->` on the line before its fence, and
//! counted as such. The refusals listed in docs/RELIABILITY.md are run the same way, message and
//! exit status.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `$ meshcast` block of a Markdown file.
struct Sample {
    /// File and line of the command, for messages.
    place: String,
    /// The words after `meshcast`.
    args: Vec<String>,
    /// The lines under the command.
    expected: Vec<String>,
    /// The reason it is not run, if marked.
    not_run: Option<String>,
}

const NOT_RUN: &str = "<!-- sample: not run:";

/// The flags whose value is a file the command writes: redirected into the temporary directory.
const OUTPUT_FLAGS: [&str; 5] = ["--svg", "--out", "--plot", "--write", "--svg-dir"];

fn docs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![root.join("README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// Every `$ meshcast` sample of `text`.
fn samples(name: &str, text: &str) -> Vec<Sample> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start().starts_with("```");
        let command = lines.get(i + 1).and_then(|l| l.strip_prefix("$ meshcast "));
        let (true, Some(command)) = (fence, command) else {
            i += 1;
            continue;
        };
        let end = (i + 2..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .unwrap_or_else(|| panic!("{name}:{}: unclosed sample", i + 1));
        let not_run = i
            .checked_sub(1)
            .and_then(|p| lines[p].trim().strip_prefix(NOT_RUN))
            .map(|r| r.trim_end_matches("-->").trim().to_string());
        out.push(Sample {
            place: format!("{name}:{}", i + 2),
            args: words(command),
            expected: lines[i + 2..end].iter().map(|l| l.to_string()).collect(),
            not_run,
        });
        i = end + 1;
    }
    out
}

/// A command line split as a shell splits it: words separated by spaces, `"…"` and `'…'` quote.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ') => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unclosed quote in: {line}");
    words.extend(word);
    words
}

/// Whether `actual` is `expected` with each `...` line (indented or not) standing for any run
/// of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "..." || e.trim() == "…" => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a.trim_end() == e.trim_end() && matches(rest, more)),
    }
}

/// Run a sample's command in `dir`, output files redirected there; stdout then stderr.
fn run(args: &[String], dir: &Path) -> String {
    let mut args = args.to_vec();
    for i in 1..args.len() {
        if OUTPUT_FLAGS.contains(&args[i - 1].as_str()) {
            let name = Path::new(&args[i]).file_name().unwrap().to_owned();
            args[i] = dir.join(name).to_str().unwrap().to_string();
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_meshcast"))
        .args(&args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn every_sample_in_the_docs_is_the_binarys_output() {
    let mut checked = 0;
    let mut not_run = Vec::new();
    let mut wrong = Vec::new();
    for path in docs() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for sample in samples(&name, &fs::read_to_string(&path).unwrap()) {
            if let Some(reason) = sample.not_run {
                not_run.push(format!("{}: {reason}", sample.place));
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            let output = run(&sample.args, dir.path());
            let actual: Vec<&str> = output.lines().collect();
            if !matches(&sample.expected, &actual) {
                wrong.push(format!(
                    "{}: $ meshcast {}\n--- the doc says:\n{}\n--- the binary says:\n{output}",
                    sample.place,
                    sample.args.join(" "),
                    sample.expected.join("\n")
                ));
            }
            checked += 1;
        }
    }
    println!(
        "checked {checked} samples against the binary; {} marked not run:\n  {}",
        not_run.len(),
        not_run.join("\n  ")
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    // The docs hold more than a dozen samples: finding fewer means the parser broke.
    assert!(checked >= 12, "only {checked} samples found");
}

/// The rows `| `meshcast ARGS` | `error: …` | STATUS |` of docs/RELIABILITY.md's tables.
fn refusals(text: &str) -> Vec<(Vec<String>, String, i32)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("| `meshcast ")?;
            let (command, rest) = rest.split_once("` | `")?;
            let (message, status) = rest.split_once("` | ")?;
            let status = status.trim_end_matches('|').trim().parse().ok()?;
            Some((words(command), message.to_string(), status))
        })
        .collect()
}

/// Every refusal docs/RELIABILITY.md lists is the binary's, with its exit status.
#[test]
fn every_refusal_in_the_reliability_page_is_the_binarys() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/RELIABILITY.md");
    let rows = refusals(&fs::read_to_string(page).unwrap());
    let mut wrong = Vec::new();
    for (args, message, status) in &rows {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_meshcast"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if stderr.trim_end() != message || out.status.code() != Some(*status) {
            wrong.push(format!(
                "meshcast {}\n  page:   {message} ({status})\n  binary: {} ({:?})",
                args.join(" "),
                stderr.trim_end(),
                out.status.code()
            ));
        }
    }
    println!("checked {} refusals of docs/RELIABILITY.md", rows.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(rows.len() >= 40, "only {} rows found", rows.len());
}

#[test]
fn the_sample_matcher_reads_quotes_and_elisions() {
    assert_eq!(
        words(r#"route -t mesh:8x8 -d "4,6 6,6" --algo 'x y'"#),
        ["route", "-t", "mesh:8x8", "-d", "4,6 6,6", "--algo", "x y"]
    );
    let expected: Vec<String> = ["a", "  ...", "d"].map(String::from).to_vec();
    assert!(matches(&expected, &["a", "b", "c", "d"]));
    assert!(matches(&expected, &["a", "d"]));
    assert!(!matches(&expected, &["a", "b", "c"]));
    assert!(!matches(&expected, &["x", "d"]));
    let text = "x\n<!-- sample: not run: minutes -->\n```text\n$ meshcast algos --json\n[\n```\n\n```\n$ meshcast algos\nname\n```\n";
    let found = samples("T.md", text);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].not_run.as_deref(), Some("minutes"));
    assert_eq!(found[1].expected, ["name"]);
    assert_eq!(found[1].not_run, None);
}
