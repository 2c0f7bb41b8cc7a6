//! Random multicast requests and per-point seeds, reproducible from a seed.
//!
//! Below both the simulators ([`crate::sim`], whose traffic generators draw from it) and the
//! experiments ([`crate::experiment`], whose sweeps do): it depends on the topology only, so the
//! layering stays topology → sim → experiment.
//!
//! The generator is `rand::rngs::ChaCha8Rng` (rand 0.10, pinned in Cargo.lock); a test pins the
//! first destination sets it yields, so a change of stream cannot pass unnoticed.
//!
//! ```
//! use meshcast::workload::{random_destinations, seeded};
//! use meshcast::topology::Shape;
//! let shape: Shape = "mesh:20x20".parse().unwrap();
//! let source = shape.node(&[0, 0]).unwrap();
//! let dests = random_destinations(&shape, source, 10, &mut seeded(7)).unwrap();
//! assert_eq!(dests.len(), 10);
//! assert!(!dests.contains(&source));
//! ```

use std::collections::HashSet;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::error::InputError;
use crate::node_table::DENSE;
use crate::topology::{Node, Shape};

/// The generator for `seed`.
pub fn seeded(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The seed of point `index` of a series of runs seeded `seed`: a SplitMix64 step, so points
/// get unrelated streams whatever order or thread runs them.
pub fn point_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `k` distinct nodes other than `source`, uniformly among all such sets (Floyd's sampling), in
/// the order drawn. The nodes drawn are remembered in a set while the topology has more than
/// `DENSE` (32) times `k` nodes, in a flag per node otherwise: the same draws either way.
pub fn random_destinations(
    shape: &Shape,
    source: Node,
    k: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Node>, InputError> {
    let others = shape.len() - 1;
    if k == 0 || k > others {
        return Err(InputError::DestinationCount {
            k,
            most: others,
            topology: shape.to_string(),
        });
    }
    let picks = if k.saturating_mul(DENSE) < others {
        let mut taken = HashSet::with_capacity(k);
        floyd(others, k, rng, |i| taken.insert(i))
    } else {
        let mut taken = vec![false; others];
        floyd(others, k, rng, |i| !std::mem::replace(&mut taken[i], true))
    };
    // Ids of the nodes other than the source: skip over the source's id.
    let node = |i: usize| Node((i + usize::from(i >= source.index())) as u32);
    Ok(picks.into_iter().map(node).collect())
}

/// Floyd's sampling of `k` of `0..n`, in the order drawn; `take(i)` marks `i` drawn and says
/// whether it was not before.
fn floyd(
    n: usize,
    k: usize,
    rng: &mut ChaCha8Rng,
    mut take: impl FnMut(usize) -> bool,
) -> Vec<usize> {
    (n - k..n)
        .map(|j| {
            let t = rng.random_range(0..=j);
            if take(t) {
                t
            } else {
                take(j);
                j
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pins the stream: if rand or ChaCha8Rng ever change what a seed yields, this fails.
    #[test]
    fn the_stream_is_pinned() {
        let shape: Shape = "mesh:20x20".parse().unwrap();
        let source = shape.node(&[0, 0]).unwrap();
        let dests = random_destinations(&shape, source, 5, &mut seeded(2026)).unwrap();
        let ids: Vec<usize> = dests.iter().map(|n| n.index()).collect();
        assert_eq!(ids, PINNED);
    }

    const PINNED: [usize; 5] = [23, 238, 135, 102, 294];

    /// The set (small K) and the flags (large K) draw what Floyd's sampling written plainly
    /// draws, on both sides of the switch (899 others: the set up to K = 28).
    #[test]
    fn set_and_flags_draw_the_same_nodes() {
        let shape: Shape = "mesh:30x30".parse().unwrap();
        let source = shape.node(&[4, 7]).unwrap();
        let others = shape.len() - 1;
        for k in [1, 5, 27, 28, 29, 30, 300, others] {
            let got = random_destinations(&shape, source, k, &mut seeded(k as u64)).unwrap();
            let (mut rng, mut taken) = (seeded(k as u64), vec![false; others]);
            let want: Vec<Node> = (others - k..others)
                .map(|j| {
                    let t = rng.random_range(0..=j);
                    let pick = if taken[t] { j } else { t };
                    taken[pick] = true;
                    let i = pick + usize::from(pick >= source.index());
                    Node(i as u32)
                })
                .collect();
            assert_eq!(got, want, "K = {k}");
        }
    }

    #[test]
    fn samples_are_distinct_and_exclude_the_source() {
        let shape: Shape = "torus:4x4".parse().unwrap();
        let source = shape.node(&[2, 1]).unwrap();
        let mut rng = seeded(1);
        for k in 1..16 {
            let mut d = random_destinations(&shape, source, k, &mut rng).unwrap();
            assert!(!d.contains(&source));
            d.sort();
            d.dedup();
            assert_eq!(d.len(), k);
        }
        assert!(random_destinations(&shape, source, 16, &mut rng).is_err());
    }
}
