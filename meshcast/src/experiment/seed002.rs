//! What seed 002 (multiport unicast-based multicast with Hamiltonian-path routing) publishes, as
//! data: the worked example of Figure 5 and the step bounds its abstract, §1 and §3 state.
//! Published facts only — never ours; the tests and docs/REPRODUCTION.md set ours against them.
//!
//! Its Figures 6–8 (average multicast latency against destinations, load and message length on a
//! 16×16 mesh, two-port against one-port) survive in the extracted text only as axes; their
//! prose gives shapes ("logarithmically increases", "enhanced by log₂3"), no numbers.
//!
//! ```
//! use meshcast::experiment::seed002::{step_bound, FIGURE_5};
//! assert_eq!(FIGURE_5.steps, 2);
//! // Two ports, 5 destinations: ⌈log₃ 6⌉ + 1 = 3 steps at most.
//! assert_eq!(step_bound(5, 2), 3);
//! ```

/// A worked example of the two-port algorithm, as the paper prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkedExample {
    /// Where the paper gives it.
    pub figure: &'static str,
    /// Topology, as `mesh:6x6`.
    pub topology: &'static str,
    /// The source, as `3,3`.
    pub source: &'static str,
    /// The destinations, in the paper's order.
    pub destinations: &'static str,
    /// The labelling-ordered chain `φ` of the source and the destinations, as printed.
    pub chain: &'static str,
    /// What the source sends in the first step: `D_lower`, then `D_upper`.
    pub first_step: [&'static str; 2],
    /// What the source sends in the second step ("sends to only node (5,2) which is D_lower").
    pub second_step: &'static str,
    /// Message-passing steps of the whole multicast.
    pub steps: u32,
}

/// Seed 002 Figure 5: "In a 6×6 2D mesh, the source (3,3) has the message destined for the 5
/// nodes {(0,1),(3,1),(2,2),(5,2),(2,5)} and begins with a labeling-ordered chain φ =
/// {(0,1),(3,1),(2,2),(5,2),(3,3),(2,5)}. … the source (3,3) first sends to nodes (3,1) and
/// (2,5) …; the first is D_lower and the last is D_upper. … Finally, the source (3,3) sends to
/// only node (5,2) which is D_lower … this algorithm requires 2 message-passing steps."
pub const FIGURE_5: WorkedExample = WorkedExample {
    figure: "seed 002 Figure 5",
    topology: "mesh:6x6",
    source: "3,3",
    destinations: "0,1 3,1 2,2 5,2 2,5",
    chain: "0,1 3,1 2,2 5,2 3,3 2,5",
    first_step: ["3,1", "2,5"],
    second_step: "5,2",
    steps: 2,
};

/// The least `t` with `baseᵗ ≥ x` (`base ≥ 2`): ⌈log_base x⌉ in integers.
fn log_ceil(x: u64, base: u64) -> u32 {
    let (mut t, mut power) = (0, 1u64);
    while power < x {
        power = power.saturating_mul(base);
        t += 1;
    }
    t
}

/// The step bound for `m` destinations and `d ≥ 1` ports: "the proposed d-port multicast
/// algorithms can deliver a multicast message in at most (⌈log_{d+1}(m + 1)⌉ + 1)
/// message-passing steps" (§1; the abstract and §5 for two ports: ⌈log₃(m + 1)⌉ + 1).
pub fn step_bound(m: u32, d: u32) -> u32 {
    log_ceil(u64::from(m) + 1, u64::from(d.max(1)) + 1) + 1
}

/// The two-port bound §3 proves when the source is first or last in the chain: "the algorithm
/// requires at most ⌈log₃ 2(m + 1)⌉ message-passing steps" (never more than [`step_bound`]).
pub fn end_source_bound(m: u32) -> u32 {
    log_ceil(2 * (u64::from(m) + 1), 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_the_papers_formulas() {
        assert_eq!(
            (step_bound(1, 2), step_bound(2, 2), step_bound(3, 2)),
            (2, 2, 3)
        );
        assert_eq!((step_bound(8, 2), step_bound(9, 2)), (3, 4));
        assert_eq!(
            (step_bound(1, 1), step_bound(3, 1), step_bound(4, 1)),
            (2, 3, 4)
        );
        assert_eq!(
            (step_bound(4, 4), step_bound(24, 4), step_bound(25, 4)),
            (2, 3, 4)
        );
        assert_eq!(
            (
                end_source_bound(1),
                end_source_bound(4),
                end_source_bound(13)
            ),
            (2, 3, 4)
        );
        for m in 1..2000 {
            assert!(end_source_bound(m) <= step_bound(m, 2));
        }
    }
}
