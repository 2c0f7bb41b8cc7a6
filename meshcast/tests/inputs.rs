//! Bad input is refused with one clear message naming the value and what is allowed.

use meshcast::algo::{self, Request};

fn err(topology: &str, source: &str, dests: &str) -> String {
    Request::parse(topology, source, dests)
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_requests_name_the_problem() {
    let cases = [
        (
            err("mesh:8x8", "8,0", "1,1"),
            "coordinate 0 must be below 8",
        ),
        (
            err("mesh:8x8", "0,0", "1,1,1"),
            "needs 2 coordinates, 3 were given",
        ),
        (err("mesh:8x8", "0,0", "1,1 1,1"), "listed twice"),
        (
            err("mesh:8x8", "0,0", "0,0 1,1"),
            "the source (0,0) is also listed as a destination",
        ),
        (err("mesh:8x1", "0,0", "1,0"), "dimension 1 has size 1"),
        (err("mesh:100000x100000", "0,0", "1,0"), "more than"),
        (
            err("mesh:8x8", "0,0", "1,-1"),
            "'-1' is not a non-negative whole number",
        ),
        (err("mesh:8x8", "0,0", ""), "destination set is empty"),
        (
            err("grid:8x8", "0,0", "1,1"),
            "'grid:8x8' is not understood",
        ),
        (
            err("mesh:8xx8", "0,0", "1,1"),
            "'' is not a non-negative whole number",
        ),
    ];
    for (got, want) in cases {
        assert!(got.contains(want), "{got:?} should contain {want:?}");
    }
}

#[test]
fn unknown_and_unsupported_algorithms_are_refused() {
    let e = algo::find("diagonal").unwrap_err().to_string();
    assert!(
        e.contains("unknown algorithm 'diagonal'") && e.contains("pair-min"),
        "{e}"
    );
    let req = Request::parse("mesh:4x4x4", "0,0,0", "1,1,1").unwrap();
    let e = algo::find("pair")
        .unwrap()
        .route(&req)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("does not support mesh:4x4x4") && e.contains("2D"),
        "{e}"
    );
}

#[test]
fn algorithm_settings_are_checked() {
    use meshcast::algo::Params;
    let req = || Request::parse("mesh:4x4", "0,0", "1,1").unwrap();
    let td = |td| {
        req().with_params(Params {
            td,
            ..Params::default()
        })
    };
    assert!(td(0.0)
        .unwrap_err()
        .to_string()
        .contains("td = 0 is not allowed"));
    assert!(td(1.5).is_err() && td(f64::NAN).is_err());
    assert_eq!(td(1.0).unwrap().params().td, 1.0);
    let ports = req().with_params(Params {
        ports: 0,
        ..Params::default()
    });
    assert!(ports.unwrap_err().to_string().contains("ports = 0"));
    assert_eq!(req().params(), Params::default());
}
