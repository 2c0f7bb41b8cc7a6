//! Axis ranges and tick labels.

use std::ops::Range;

/// Room left beyond the data on each side, as a fraction of the data's span.
const PAD: f64 = 0.05;

/// The smallest and largest finite value, if any.
fn finite_span(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |span, v| match span {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// The x axis: the data's span with a little room so edge markers are whole; a single x value
/// gets ±1 around it.
pub fn x_range(xs: impl IntoIterator<Item = f64>) -> Range<f64> {
    match finite_span(xs) {
        None => 0.0..1.0,
        Some((lo, hi)) if lo == hi => lo - 1.0..hi + 1.0,
        Some((lo, hi)) => lo - PAD * (hi - lo)..hi + PAD * (hi - lo),
    }
}

/// The y axis: from 0 unless the data is far from 0, that is unless all values have one sign
/// and the one nearest 0 is more than half as far from 0 as the farthest (then the axis spans
/// the data only); room of 5% of the span beyond the data, but never past 0.
pub fn y_range(ys: impl IntoIterator<Item = f64>) -> Range<f64> {
    match finite_span(ys) {
        None => 0.0..1.0,
        Some((lo, hi)) if hi <= 0.0 && lo < 0.0 => {
            let r = one_sign(-hi, -lo);
            -r.end..-r.start
        }
        Some((lo, hi)) if lo < 0.0 => lo - PAD * (hi - lo)..hi + PAD * (hi - lo),
        Some((lo, hi)) => one_sign(lo, hi),
    }
}

/// `y_range` for `0 <= lo <= hi`.
fn one_sign(lo: f64, hi: f64) -> Range<f64> {
    if hi == 0.0 {
        return 0.0..1.0;
    }
    if lo == hi || lo <= hi / 2.0 {
        return 0.0..hi + PAD * hi;
    }
    let pad = PAD * (hi - lo);
    lo - pad..hi + pad
}

/// A tick label: at most 4 decimals, no trailing zeros, no "-0".
pub fn tick(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn y_starts_at_zero_when_data_is_near_it() {
        assert_eq!(y_range([3.0, 10.0, f64::NAN]), 0.0..10.5);
        assert_eq!(y_range([7.0]), 0.0..7.35);
        assert_eq!(y_range([0.0, 0.0]), 0.0..1.0);
    }

    #[test]
    fn y_spans_the_data_when_it_is_far_from_zero() {
        assert_eq!(y_range([90.0, 110.0]), 89.0..111.0);
        assert_eq!(y_range([-110.0, -90.0]), -111.0..-89.0);
        assert_eq!(y_range([-10.0, 10.0]), -11.0..11.0);
    }

    #[test]
    fn ranges_without_finite_data_are_unit() {
        assert_eq!(y_range([f64::NAN]), 0.0..1.0);
        assert_eq!(x_range([]), 0.0..1.0);
        assert_eq!(x_range([4.0]), 3.0..5.0);
    }

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(10.0), "10");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(-0.00001), "0");
        assert_eq!(tick(0.125), "0.125");
    }
}
