//! Exact sample statistics for integer metrics, mergeable in any order.
//!
//! Every metric meshcast measures is a whole number (hops, links), so a [`Tally`] keeps exact
//! integer sums: merging the tallies of threads, shards or resumed runs in any order gives the same
//! bits, and the summary (mean, standard deviation, Student-t 95% confidence interval) is computed
//! once at the end.
//!
//! Below both the simulators ([`crate::sim`], whose batch means use [`t_975`]) and the
//! experiments ([`crate::experiment`], whose sweeps tally): it depends on nothing of the crate.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// Count, sum and sum of squares of integer samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Number of samples.
    pub n: u64,
    /// Sum of the samples.
    pub sum: i64,
    /// Sum of their squares.
    pub sum_sq: u128,
}

impl Tally {
    /// Add one sample.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += u128::from(x.unsigned_abs()) * u128::from(x.unsigned_abs());
    }

    /// `self` and `other` together, or `None` when a sum would overflow (never for tallies of
    /// real samples: it flags tallies read from a file that were tampered with).
    pub fn checked_merge(&self, other: &Tally) -> Option<Tally> {
        Some(Tally {
            n: self.n.checked_add(other.n)?,
            sum: self.sum.checked_add(other.sum)?,
            sum_sq: self.sum_sq.checked_add(other.sum_sq)?,
        })
    }

    /// Whether some samples could have these sums: none has all zero; otherwise
    /// `n · sum_sq ≥ sum²` (Cauchy–Schwarz, exact in integers) and `sum_sq ≥ |sum|` (every
    /// sample is a whole number). Tallies read from files are checked with it.
    pub fn is_consistent(&self) -> bool {
        let abs = u128::from(self.sum.unsigned_abs());
        if self.n == 0 {
            return self.sum == 0 && self.sum_sq == 0;
        }
        let spread = u128::from(self.n)
            .checked_mul(self.sum_sq)
            .is_none_or(|n_sq| n_sq >= abs * abs);
        spread && self.sum_sq >= abs
    }

    /// The same samples and `count` more of value 0 (empty multicasts: no traffic, no time).
    pub fn with_zeros(mut self, count: u64) -> Tally {
        self.n += count;
        self
    }

    /// Add every sample of `other`.
    pub fn merge(&mut self, other: &Tally) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// Mean, standard deviation and 95% confidence interval of the mean.
    pub fn summary(&self) -> Summary {
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        if self.n < 2 {
            return Summary {
                n: self.n,
                mean,
                sd: f64::NAN,
                ci_low: f64::NAN,
                ci_high: f64::NAN,
            };
        }
        // Σ(x − x̄)² = Σx² − (Σx)²/n, exactly in integers scaled by n.
        let centred = self.sum_sq as f64 - (self.sum as f64) * (self.sum as f64) / n;
        let sd = (centred.max(0.0) / (n - 1.0)).sqrt();
        let half = t_975(self.n - 1) * sd / n.sqrt();
        Summary {
            n: self.n,
            mean,
            sd,
            ci_low: mean - half,
            ci_high: mean + half,
        }
    }
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (t₀.₉₇₅,₉ = 2.262157).
pub fn t_975(df: u64) -> f64 {
    StudentsT::new(0.0, 1.0, df as f64)
        .expect("df ≥ 1 is a valid Student-t")
        .inverse_cdf(0.975)
}

/// What a [`Tally`] says about its samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Number of samples.
    pub n: u64,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (NaN below two samples).
    pub sd: f64,
    /// Lower end of the Student-t 95% confidence interval of the mean.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consistent_tallies_and_overflowing_merges() {
        let mut t = Tally::default();
        assert!(t.is_consistent());
        for x in [3, -1, 4, 0] {
            t.add(x);
            assert!(t.is_consistent(), "{t:?}");
        }
        let tampered = |n, sum, sum_sq| !Tally { n, sum, sum_sq }.is_consistent();
        assert!(tampered(4, 60, 26), "mean 15 with squares of mean 6.5");
        assert!(tampered(0, 1, 1), "a sum without samples");
        assert!(tampered(2, 3, 2), "sum_sq < |sum| for whole numbers");
        assert!(Tally {
            n: u64::MAX,
            sum: 0,
            sum_sq: u128::MAX
        }
        .is_consistent());
        let huge = Tally {
            n: 1,
            sum: i64::MAX,
            sum_sq: u128::MAX,
        };
        assert_eq!(huge.checked_merge(&huge), None);
        assert_eq!(t.checked_merge(&Tally::default()), Some(t));
    }

    #[test]
    fn t_quantile_matches_the_table() {
        assert!((t_975(9) - 2.262157).abs() < 1e-6);
        assert!((t_975(99) - 1.984217).abs() < 1e-6);
    }

    #[test]
    fn summary_of_known_samples() {
        let mut t = Tally::default();
        for x in [2, 4, 4, 4, 5, 5, 7, 9] {
            t.add(x);
        }
        let s = t.summary();
        assert_eq!(s.mean, 5.0);
        assert!((s.sd - 2.138089935).abs() < 1e-9);
        let half = t_975(7) * s.sd / 8f64.sqrt();
        assert!((s.ci_high - 5.0 - half).abs() < 1e-12);
    }

    #[test]
    fn merging_is_exact_in_any_order() {
        let xs: Vec<i64> = (0..100).map(|i| (i * 37 % 23) - 11).collect();
        let mut whole = Tally::default();
        xs.iter().for_each(|&x| whole.add(x));
        let (mut a, mut b) = (Tally::default(), Tally::default());
        xs[..40].iter().for_each(|&x| a.add(x));
        xs[40..].iter().for_each(|&x| b.add(x));
        b.merge(&a);
        assert_eq!(b, whole);
    }
}
