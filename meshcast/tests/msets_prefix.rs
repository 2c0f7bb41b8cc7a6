//! Seed 004's prefix computations (`sim::saf::prefix`): the word-level scan against a sequential
//! fold, its step and word counts against the schedule, and `rank` against the scan.

use meshcast::sim::saf::prefix::{self, Order, Totals};
use meshcast::sim::saf::{msets, Capacity, Sim};
use proptest::prelude::*;

/// Local coordinates of the `q`-th node of a region of side `s` in `order`.
fn walk(s: u32, order: Order, q: u32) -> (u32, u32) {
    let (y, i) = (q / s, q % s);
    let x = if order == Order::Snake && y % 2 == 1 {
        s - 1 - i
    } else {
        i
    };
    (x, y)
}

fn orders() -> impl Strategy<Value = Order> {
    prop_oneof![Just(Order::RowMajor), Just(Order::Snake)]
}

fn totals() -> impl Strategy<Value = Totals> {
    prop_oneof![Just(Totals::Local), Just(Totals::Shared)]
}

/// (side, region side): the region side divides the side.
fn shapes() -> impl Strategy<Value = (u32, u32)> {
    (1u32..=12).prop_flat_map(|side| {
        let divisors: Vec<u32> = (1..=side).filter(|s| side % s == 0).collect();
        (Just(side), proptest::sample::select(divisors))
    })
}

/// A non-commutative associative operator: strings over 0..4 compared by (first, last, length),
/// so the order of combination shows.
type Word = (u8, u8, u32);
fn concat(a: Word, b: Word) -> Word {
    match (a.2, b.2) {
        (0, _) => b,
        (_, 0) => a,
        _ => (a.0, b.1, a.2 + b.2),
    }
}

proptest::proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every node ends with the combination of the values before it in its region's order, every
    /// region's total is the combination of all of them, and the steps and words are the
    /// schedule's: 3(s − 1) (+ s − 1 shared) + lanes − 1 steps.
    #[test]
    fn the_scan_combines_in_order(
        (side, s) in shapes(),
        order in orders(),
        shared in totals(),
        lanes in 1usize..4,
        seed in any::<u64>(),
    ) {
        let set = msets::random(side.max(2), 1, 1, 1).unwrap();
        prop_assume!(set.side() == side);
        let n = (side * side) as usize;
        let values: Vec<Word> = (0..n * lanes)
            .map(|i| {
                let h = (seed ^ i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60;
                if h.is_multiple_of(3) { (0, 0, 0) } else { ((h % 4) as u8, (h / 4 % 4) as u8, 1) }
            })
            .collect();
        let mut sim = Sim::new(&set, Capacity::Unbounded);
        let scan = prefix::scan(&mut sim, s, order, lanes, &values, (0, 0, 0), concat, shared).unwrap();
        let per_row = side / s;
        for region in 0..per_row * per_row {
            let (rx, ry) = (region % per_row * s, region / per_row * s);
            for lane in 0..lanes {
                let mut acc = (0, 0, 0);
                for q in 0..s * s {
                    let (lx, ly) = walk(s, order, q);
                    let node = (ry + ly) * side + rx + lx;
                    prop_assert_eq!(scan.before(node, lane), acc);
                    prop_assert_eq!(scan.region_of(node), region);
                    acc = concat(acc, values[node as usize * lanes + lane]);
                }
                prop_assert_eq!(scan.total(region, lane), acc);
            }
        }
        let extra = u64::from(shared == Totals::Shared);
        let steps = if s < 2 { 0 } else { (3 + extra) * u64::from(s - 1) + lanes as u64 - 1 };
        prop_assert_eq!(sim.totals().steps, steps);
    }

    /// `rank` gives the ranks and totals of the 0/1 sums it stands for, at the same cost.
    #[test]
    fn rank_equals_the_simulated_scan(
        (side, s) in shapes(),
        order in orders(),
        shared in totals(),
        keys in 1u32..4,
        picks in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..60),
    ) {
        let set = msets::random(side.max(2), 1, 1, 1).unwrap();
        prop_assume!(set.side() == side);
        let n = side * side;
        let items: Vec<(u32, u32)> = picks.iter().map(|&(v, k)| (v % n, k % keys)).collect();
        let mut ranked = Sim::new(&set, Capacity::Unbounded);
        let ranks = prefix::rank(&mut ranked, s, order, keys, &items, shared).unwrap();
        let mut counts = vec![0u32; (n * keys) as usize];
        for &(v, k) in &items {
            counts[(v * keys + k) as usize] += 1;
        }
        let mut scanned = Sim::new(&set, Capacity::Unbounded);
        let scan = prefix::scan(&mut scanned, s, order, keys as usize, &counts, 0, |a, b| a + b, shared)
            .unwrap();
        let mut seen = vec![0u32; (n * keys) as usize];
        for (i, &(v, k)) in items.iter().enumerate() {
            let local = &mut seen[(v * keys + k) as usize];
            prop_assert_eq!(ranks.rank[i], scan.before(v, k as usize) + *local);
            *local += 1;
        }
        for region in 0..(side / s) * (side / s) {
            for k in 0..keys {
                prop_assert_eq!(ranks.total(region, k), scan.total(region, k as usize));
            }
        }
        prop_assert_eq!(ranked.totals().steps, scanned.totals().steps);
        prop_assert_eq!(ranked.totals().word_hops, scanned.totals().word_hops);
    }
}

#[test]
fn bad_regions_and_keys_are_refused() {
    let set = msets::random(6, 1, 1, 1).unwrap();
    let mut sim = Sim::new(&set, Capacity::Unbounded);
    let e = prefix::rank(&mut sim, 4, Order::RowMajor, 1, &[], Totals::Local).unwrap_err();
    assert!(e.to_string().contains("a divisor of the mesh side"), "{e}");
    let e = prefix::rank(&mut sim, 3, Order::RowMajor, 2, &[(0, 2)], Totals::Local).unwrap_err();
    assert!(e.to_string().contains("below the number of keys"), "{e}");
    let e = prefix::scan(
        &mut sim,
        3,
        Order::Snake,
        2,
        &[0u32; 3],
        0,
        |a, b| a + b,
        Totals::Local,
    )
    .unwrap_err();
    assert!(e.to_string().contains("one per node and lane"), "{e}");
}
