//! Shards: a sweep's units split among independent processes (`meshcast sweep --shard i/N`, one
//! Slurm array task each). Shard `i/N` runs the units whose index is `i` modulo `N`, so every
//! shard gets an even share of every destination count; this module does the counting the
//! runner, the state files and `merge` agree on. A unit's numbering (`point · runs + run`) is
//! [`crate::experiment::sweep::Sweep`]'s.

use std::ops::Range;

use crate::error::InputError;

/// Which part of the units to run: those whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 0-based shard number.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl Shard {
    /// All units.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parse `i/N` (0 ≤ i < N).
    pub fn parse(text: &str) -> Result<Shard, InputError> {
        let bad = || InputError::Setting {
            name: "shard",
            value: text.to_string(),
            allowed: "write i/N with 0 ≤ i < N, e.g. 3/8",
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i: u32 = i.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || i >= n {
            return Err(bad());
        }
        Ok(Shard { index: i, count: n })
    }

    /// Whether unit `unit` (K number × runs + run) is one of this shard's.
    pub fn has(&self, unit: u64) -> bool {
        unit % u64::from(self.count) == u64::from(self.index)
    }

    /// How many of the units `units` are this shard's: those `≡ index (mod count)`.
    pub fn units_in(&self, units: Range<u64>) -> u64 {
        let (i, n) = (u64::from(self.index), u64::from(self.count));
        // The units below `x` that are this shard's: i, i + n, i + 2n, … < x.
        let below = |x: u64| (x + n - 1 - i) / n;
        below(units.end) - below(units.start)
    }

    /// How many of the `runs` runs of the destination count numbered `point` this shard runs
    /// (what it owes that point): unit `point · runs + run` is run `run` of it.
    pub fn runs_of_point(&self, point: usize, runs: u32) -> u64 {
        let start = point as u64 * u64::from(runs);
        self.units_in(start..start + u64::from(runs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_in_counts_what_has_accepts() {
        for count in 1..6 {
            for index in 0..count {
                let shard = Shard { index, count };
                for start in 0..12 {
                    for end in start..20 {
                        let brute = (start..end).filter(|&u| shard.has(u)).count() as u64;
                        assert_eq!(
                            shard.units_in(start..end),
                            brute,
                            "{index}/{count} {start}..{end}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_points_runs_add_up_over_the_shards() {
        for point in 0..2 {
            let total: u64 = (0..3)
                .map(|i| Shard { index: i, count: 3 }.runs_of_point(point, 5))
                .sum();
            assert_eq!(total, 5);
        }
        let first = Shard { index: 0, count: 3 };
        assert_eq!(first.runs_of_point(0, 5), 2); // units 0 and 3
        assert_eq!(first.runs_of_point(1, 5), 2); // units 6 and 9
        assert_eq!(Shard::WHOLE.runs_of_point(7, 1000), 1000);
    }

    #[test]
    fn shards_parse_as_i_of_n() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["3/3", "1/0", "3", "a/2", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
