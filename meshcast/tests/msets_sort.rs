//! Seed 004 Propositions 1–2 as packet movements: shearsort on the store-and-forward simulator
//! (`sim::saf::sort`) and (k, k)-routing with constant queues (`sim::saf::permute`).

use meshcast::sim::saf::snake::SnakeOrder;
use meshcast::sim::saf::sort;
use meshcast::sim::saf::{permute, Arrival, Capacity, MessageSet, PacketId, Sim};
use meshcast::workload::seeded;
use meshcast::SafError;
use rand::RngExt;

/// Builds the moves of a routing instance from the packets on a machine.
type Instance<'f> = &'f dyn Fn(&Sim<'_>, &[PacketId]) -> Vec<(PacketId, u32)>;

/// A region's packets by (key, packet, rank).
type Sorted = std::collections::BTreeMap<(u32, u32), Vec<(u64, PacketId, u32)>>;

/// Every node sources one message (to the next node): packets to move around.
fn ring(side: u32) -> MessageSet {
    let n = side * side;
    let lists: Vec<Vec<u32>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
    MessageSet::new(side, &lists).unwrap()
}

/// k packets at every node (injected, then copied), less those `keep` rejects (by node, slot).
fn loaded(sim: &mut Sim<'_>, k: u32, keep: impl Fn(u32, u32) -> bool) -> Vec<PacketId> {
    let masters = sim.inject_all().unwrap();
    let jobs: Vec<(PacketId, u32)> = masters.iter().map(|&p| (p, k - 1)).collect();
    let copies = sim.replicate(&jobs).unwrap();
    let mut out = Vec::new();
    for (i, &m) in masters.iter().enumerate() {
        let node = sim.at(m);
        let own = std::iter::once(m).chain(
            copies[i * (k as usize - 1)..][..k as usize - 1]
                .iter()
                .copied(),
        );
        for (slot, p) in own.enumerate() {
            if keep(node, slot as u32) {
                out.push(p);
            } else {
                sim.discard(p);
            }
        }
    }
    out
}

/// Sorts random keys (below `range`, so ties occur) of packets filling each slot with
/// probability `fill`, and checks the result against `slice::sort` region by region.
fn sort_and_check(side: u32, s: u32, k: u32, order: SnakeOrder, range: u64, fill: f64, seed: u64) {
    let set = ring(side);
    let mut sim = Sim::new(&set, Capacity::Packets(k));
    let mut rng = seeded(seed);
    let keep: Vec<bool> = (0..side * side * k)
        .map(|_| rng.random_bool(fill))
        .collect();
    let packets = loaded(&mut sim, k, |v, slot| keep[(v * k + slot) as usize]);
    let keyed: Vec<(PacketId, u64)> = packets
        .iter()
        .map(|&p| (p, rng.random_range(0..range)))
        .collect();
    let region_of = |v: u32| (v % side / s, v / side / s);
    let before: Vec<(u32, u32)> = packets.iter().map(|&p| region_of(sim.at(p))).collect();
    let steps = sim.totals().steps;
    let ranks = sort::shearsort(&mut sim, &keyed, s, k, order).unwrap();
    let run = sim.totals();
    let took = run.steps - steps;
    assert!(
        took <= sort::step_bound(s, k),
        "{side}/{s}/{k}: {took} steps over the bound {}",
        sort::step_bound(s, k)
    );
    assert!(run.buffer_peaks.iter().all(|&b| b <= k));
    assert_eq!(ranks.len(), packets.len());
    let mut by_region = Sorted::default();
    for (i, (&(p, key), &(q, rank))) in keyed.iter().zip(&ranks).enumerate() {
        assert_eq!(p, q);
        let at = sim.at(p);
        assert_eq!(region_of(at), before[i], "a packet left its region");
        let (lx, ly) = order.local(s, rank / k);
        assert_eq!(
            (at % side % s, at / side % s),
            (lx, ly),
            "packet not at its rank's node"
        );
        by_region.entry(before[i]).or_default().push((key, p, rank));
    }
    for (region, mut list) in by_region {
        list.sort();
        let ranks: Vec<u32> = list.iter().map(|e| e.2).collect();
        let expected: Vec<u32> = (0..list.len() as u32).collect();
        assert_eq!(ranks, expected, "region {region:?} of {side}/{s}/{k}");
    }
}

#[test]
fn shearsort_sorts_whole_meshes_and_regions() {
    for (side, s) in [(8, 8), (16, 16), (8, 4), (16, 4)] {
        for k in 1..=3 {
            for order in [SnakeOrder::RowMajor, SnakeOrder::ColumnMajor] {
                sort_and_check(side, s, k, order, u64::MAX, 1.0, u64::from(side * 10 + k));
                sort_and_check(side, s, k, order, 5, 0.6, u64::from(side * 100 + k));
            }
        }
    }
}

#[test]
fn snake_orders_are_each_others_inverse() {
    for s in [1, 2, 3, 4, 7] {
        for order in [SnakeOrder::RowMajor, SnakeOrder::ColumnMajor] {
            for q in 0..s * s {
                let (x, y) = order.local(s, q);
                assert_eq!(order.index(s, x, y), q);
            }
        }
    }
    assert_eq!(SnakeOrder::RowMajor.local(4, 5), (2, 1));
    assert_eq!(SnakeOrder::ColumnMajor.local(4, 5), (1, 2));
}

/// One packet per node with keys in reverse snake order: the slowest case of odd–even
/// transposition is within the bound, and every packet moves.
#[test]
fn reversed_keys_stay_within_the_step_bound() {
    let side = 16;
    let set = ring(side);
    let mut sim = Sim::new(&set, Capacity::Packets(1));
    let packets = sim.inject_all().unwrap();
    let order = SnakeOrder::RowMajor;
    let keyed: Vec<(PacketId, u64)> = packets
        .iter()
        .map(|&p| {
            let v = sim.at(p);
            (
                p,
                u64::from(side * side - order.index(side, v % side, v / side)),
            )
        })
        .collect();
    let ranks = sort::shearsort(&mut sim, &keyed, side, 1, order).unwrap();
    for (&(p, _), &(_, rank)) in keyed.iter().zip(&ranks) {
        assert_eq!(sim.at(p), {
            let (x, y) = order.local(side, rank);
            y * side + x
        });
    }
    assert!(sim.totals().steps <= sort::step_bound(side, 1));
    assert!(sim.totals().word_hops > 0);
}

#[test]
fn shearsort_refuses_bad_input() {
    let set = ring(8);
    let mut sim = Sim::new(&set, Capacity::Unbounded);
    let packets = loaded(&mut sim, 2, |_, _| true);
    let keyed: Vec<(PacketId, u64)> = packets.iter().map(|&p| (p, 0)).collect();
    let order = SnakeOrder::RowMajor;
    for (s, k) in [(3, 2), (0, 2), (4, 0), (4, 1)] {
        let err = sort::shearsort(&mut sim, &keyed, s, k, order).unwrap_err();
        assert!(matches!(err, SafError::Input(_)), "{s} {k}: {err}");
    }
    let twice = [keyed[0], keyed[0]];
    let err = sort::shearsort(&mut sim, &twice, 4, 2, order).unwrap_err();
    assert!(err.to_string().contains("listed once"), "{err}");
}

#[test]
fn step_moves_checks_the_machine_rules() {
    let set = ring(4);
    let mut sim = Sim::new(&set, Capacity::Packets(1));
    let p = sim.inject_all().unwrap();
    // A swap of neighbours in full buffers is one step.
    sim.step_moves(&[(p[0], 1), (p[1], 0)]).unwrap();
    assert_eq!((sim.at(p[0]), sim.at(p[1])), (1, 0));
    assert_eq!(sim.totals().packet_hops, 2);
    let illegal = |r: Result<(), SafError>| matches!(r, Err(SafError::IllegalMove { .. }));
    assert!(illegal(sim.step_moves(&[(p[0], 3)])));
    assert!(illegal(sim.step_moves(&[(p[0], 99)])));
    assert!(illegal(sim.step_moves(&[(p[4], 5), (p[4], 0)])));
    assert!(illegal(sim.step_moves(&[(p[2], 3), (p[2], 3)])));
    assert!(matches!(
        sim.step_moves(&[(p[2], 3)]),
        Err(SafError::BufferOverflow { node: 3, .. })
    ));
}

/// A random (k, k)-routing inside every region: k packets per node, each node the target of k.
fn random_kk(
    sim: &Sim<'_>,
    packets: &[PacketId],
    side: u32,
    s: u32,
    seed: u64,
) -> Vec<(PacketId, u32)> {
    let mut rng = seeded(seed);
    let mut by_region: std::collections::BTreeMap<(u32, u32), Vec<PacketId>> = Default::default();
    for &p in packets {
        let v = sim.at(p);
        by_region
            .entry((v % side / s, v / side / s))
            .or_default()
            .push(p);
    }
    let mut moves = Vec::new();
    for ((rx, ry), list) in by_region {
        let mut targets: Vec<u32> = list
            .iter()
            .map(|&p| sim.at(p) % side % s + s * (sim.at(p) / side % s))
            .collect();
        for i in (1..targets.len()).rev() {
            targets.swap(i, rng.random_range(0..=i));
        }
        for (&p, &t) in list.iter().zip(&targets) {
            moves.push((p, (ry * s + t / s) * side + rx * s + t % s));
        }
    }
    moves
}

/// Node `v` of a `side` mesh as its region's corner (bx, by) and its local (x, y) in regions of
/// side `s`.
fn in_region(v: u32, side: u32, s: u32) -> (u32, u32, u32, u32) {
    let (x, y) = (v % side, v / side);
    (x - x % s, y - y % s, x % s, y % s)
}

/// The transpose of every region, k packets per node. Greedy handles it well: row y's packets
/// turn at (y, y), those from the left upwards and those from the right downwards, so each
/// turning queue fills at one packet per step and drains at one.
fn transpose(sim: &Sim<'_>, packets: &[PacketId], side: u32, s: u32) -> Vec<(PacketId, u32)> {
    packets
        .iter()
        .map(|&p| {
            let (bx, by, lx, ly) = in_region(sim.at(p), side, s);
            (p, (by + lx) * side + bx + ly)
        })
        .collect()
}

/// Half of each upper row of every region converges on one column, all turning the same way:
/// region row y < s/2 sends its packets at columns c − s/4 … c + s/4 − 1 (c = s/4 + y) down
/// column c into the lower half, so greedy's turning queue at (c, y) fills from both sides at two
/// packets per step and drains at one: Θ(k·s) packets.
fn converging(sim: &Sim<'_>, packets: &[PacketId], side: u32, s: u32) -> Vec<(PacketId, u32)> {
    packets
        .iter()
        .filter_map(|&p| {
            let (bx, by, lx, ly) = in_region(sim.at(p), side, s);
            let c = s / 4 + ly;
            let window = c - s / 4..c + s / 4;
            (ly < s / 2 && window.contains(&lx)).then(|| {
                let row = s / 2 + lx - window.start;
                (p, (by + row) * side + bx + c)
            })
        })
        .collect()
}

/// Routes `moves` (one of the generators above) sorted first or greedily, returning (steps,
/// peak buffer) and checking every packet reached its target.
fn measure(
    side: u32,
    s: u32,
    k: u32,
    capacity: Capacity,
    sorted: bool,
    make: Instance<'_>,
) -> (u64, u32) {
    let set = ring(side);
    let mut sim = Sim::new(&set, capacity);
    let packets = loaded(&mut sim, k, |_, _| true);
    let moves = make(&sim, &packets);
    let before = sim.totals().steps;
    if sorted {
        permute::route(&mut sim, &moves, s, k).unwrap();
    } else {
        sim.route(&moves, &[], Arrival::Hold).unwrap();
    }
    for &(p, t) in &moves {
        assert_eq!(sim.at(p), t);
    }
    let run = sim.totals();
    (run.steps - before, *run.buffer_peaks.iter().max().unwrap())
}

#[test]
fn random_kk_routings_keep_queues_constant() {
    for (side, s) in [(16, 16), (32, 32), (32, 8)] {
        for k in [1, 2] {
            let make =
                |sim: &Sim<'_>, p: &[PacketId]| random_kk(sim, p, side, s, u64::from(side + k));
            let (steps, peak) = measure(side, s, k, Capacity::Unbounded, true, &make);
            assert!(
                peak <= permute::buffer_bound(k),
                "{side}/{s}/{k}: peak {peak}"
            );
            assert!(
                steps <= permute::step_bound(s, k),
                "{side}/{s}/{k}: {steps} steps"
            );
        }
    }
}

/// Greedy's turning queue grows with the side on the converging input (8, 16, 32 packets at
/// k = 2 on 16×16, 32×32, 64×64); sorting first keeps every buffer within 4k + 4 (6 measured).
#[test]
fn sorting_first_bounds_the_queues_greedy_grows() {
    let k = 2;
    let mut greedy_peaks = Vec::new();
    for side in [16, 32, 64] {
        let make = |sim: &Sim<'_>, p: &[PacketId]| converging(sim, p, side, side);
        let (steps, peak) = measure(side, side, k, Capacity::Unbounded, true, &make);
        let (_, greedy) = measure(side, side, k, Capacity::Unbounded, false, &make);
        assert!(peak <= permute::buffer_bound(k), "{side}: peak {peak}");
        assert!(steps <= permute::step_bound(side, k));
        greedy_peaks.push(greedy);
    }
    assert_eq!(greedy_peaks, [8, 16, 32]);
}

/// With buffers bounded to 4k + 4 packets the sorted scheme completes (no overflow, no stall) on
/// the transpose, the converging input and random (k, k)-routings in 16×16 regions.
#[test]
fn bounded_buffers_complete() {
    for k in [1, 2] {
        let b = permute::buffer_bound(k);
        let inputs: [Instance<'_>; 3] = [
            &|sim, p| transpose(sim, p, 32, 32),
            &|sim, p| converging(sim, p, 32, 32),
            &|sim, p| random_kk(sim, p, 32, 32, 5),
        ];
        for make in inputs {
            let (_, peak) = measure(32, 32, k, Capacity::Packets(b), true, make);
            assert!(peak <= b);
        }
        let (_, peak) = measure(32, 16, k, Capacity::Packets(b), true, &|sim, p| {
            random_kk(sim, p, 32, 16, 5)
        });
        assert!(peak <= b);
    }
}

/// `Sim::route` reserves a slot for every packet still on its way to stay at a node, so with
/// b = 2k + 4 (k packets at the start, k arriving to stay, four directions' reserves) neither
/// greedy nor sorted routing can deadlock: both complete on every input, 8×8 to 32×32.
#[test]
fn held_packets_find_their_reserved_slots() {
    for side in [8, 16, 32] {
        for k in [1, 2] {
            let b = Capacity::Packets(2 * k + 4);
            let inputs: [Instance<'_>; 3] = [
                &|sim, p| transpose(sim, p, side, side),
                &|sim, p| converging(sim, p, side, side),
                &|sim, p| random_kk(sim, p, side, side, 7),
            ];
            for make in inputs {
                for sorted in [false, true] {
                    let (_, peak) = measure(side, side, k, b, sorted, make);
                    assert!(peak <= 2 * k + 4);
                }
            }
        }
    }
}

#[test]
fn permute_refuses_bad_input() {
    let set = ring(8);
    let mut sim = Sim::new(&set, Capacity::Unbounded);
    let p = sim.inject_all().unwrap();
    let cases: [&[(PacketId, u32)]; 3] = [&[(p[0], 64)], &[(p[0], 7)], &[(p[0], 9), (p[1], 9)]];
    for moves in cases {
        let err = permute::route(&mut sim, moves, 4, 1).unwrap_err();
        assert!(matches!(err, SafError::Input(_)), "{moves:?}: {err}");
    }
    assert!(permute::route(&mut sim, &[(p[0], 9)], 3, 1).is_err());
}

/// Step 1 of the scheme: after sorting by destination column into column-major snake order,
/// every row of a region holds at most 2k packets for any one column. (A full (k, k)-routing
/// gives exactly k per row and column; with a fifth of the slots empty the runs straddle
/// columns.)
#[test]
fn sorted_rows_hold_at_most_2k_packets_per_column() {
    for (side, s, k) in [(16, 16, 1), (16, 16, 3), (32, 8, 2)] {
        let set = ring(side);
        let mut sim = Sim::new(&set, Capacity::Packets(k));
        let packets = loaded(&mut sim, k, |v, slot| (v * 7 + slot) % 5 != 0);
        let moves = random_kk(&sim, &packets, side, s, 3);
        let keyed: Vec<(PacketId, u64)> = moves
            .iter()
            .map(|&(p, t)| (p, u64::from(t % side % s)))
            .collect();
        sort::shearsort(&mut sim, &keyed, s, k, SnakeOrder::ColumnMajor).unwrap();
        let mut per_row_column = vec![0u32; (side * side) as usize];
        for &(p, t) in &moves {
            per_row_column[(sim.at(p) / side * side + t % side) as usize] += 1;
        }
        assert!(per_row_column.iter().all(|&c| c <= 2 * k), "{side}/{s}/{k}");
        assert!(
            per_row_column.iter().any(|&c| c > k),
            "{side}/{s}/{k}: never above k"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// Random sides (powers of two 2 … 32), regions, slots, fill and keys: shearsort agrees with
    /// `slice::sort` in every region, within its step bound and k slots per node.
    #[test]
    fn shearsort_agrees_with_slice_sort(
        log_side in 1u32..=5,
        shrink in 0u32..=3,
        k in 1u32..=3,
        column in proptest::bool::ANY,
        range in 1u64..1000,
        fill in 0.0f64..=1.0,
        seed in 0u64..1000,
    ) {
        let side = 1 << log_side;
        let s = side >> shrink.min(log_side);
        let order = if column { SnakeOrder::ColumnMajor } else { SnakeOrder::RowMajor };
        sort_and_check(side, s, k, order, range, fill, seed);
    }

    /// Random (k, k)-routings on random sides and regions: every packet reaches its target,
    /// within the step and buffer bounds.
    #[test]
    fn permute_meets_its_bounds(
        log_side in 1u32..=5,
        shrink in 0u32..=3,
        k in 1u32..=3,
        seed in 0u64..1000,
    ) {
        let side = 1 << log_side;
        let s = side >> shrink.min(log_side);
        let make = |sim: &Sim<'_>, p: &[PacketId]| random_kk(sim, p, side, s, seed);
        let (steps, peak) = measure(side, s, k, Capacity::Unbounded, true, &make);
        proptest::prop_assert!(peak <= permute::buffer_bound(k));
        proptest::prop_assert!(steps <= permute::step_bound(s, k));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// `sort::rank`: within every region and key the ranks are 0, 1, … in sorted order, the
    /// packets sit at their sorted positions, and the prefix ranking gives every key the same
    /// ranks up to order.
    #[test]
    fn ranking_by_sort_numbers_every_key_run(
        log_side in 1u32..5,
        log_region in 0u32..5,
        keys in 1u32..5,
        seed in proptest::prelude::any::<u64>(),
    ) {
        let side = 1 << log_side;
        let region = 1 << log_region.min(log_side);
        let set = ring(side);
        let mut sim = Sim::new(&set, Capacity::Unbounded);
        let packets = loaded(&mut sim, 2, |v, slot| (u64::from(v * 2 + slot) ^ seed) % 3 != 0);
        let items: Vec<(PacketId, u32)> = packets
            .iter()
            .map(|&p| (p, ((p.index() as u64 ^ seed) % u64::from(keys)) as u32))
            .collect();
        let ranked = sort::rank(&mut sim, &items, region, 2).unwrap();
        let mut by_run: std::collections::BTreeMap<(u32, u32), Vec<(u32, u32)>> = Default::default();
        for (&(p, key), &(rank, q)) in items.iter().zip(&ranked) {
            let v = sim.at(p);
            let r = (v / side / region) * (side / region) + v % side / region;
            let (x, y) = (v % side % region, v / side % region);
            proptest::prop_assert_eq!(SnakeOrder::RowMajor.index(region, x, y), q / 2);
            by_run.entry((r, key)).or_default().push((q, rank));
        }
        for run in by_run.values_mut() {
            run.sort_unstable();
            let ranks: Vec<u32> = run.iter().map(|&(_, rank)| rank).collect();
            let expected: Vec<u32> = (0..run.len() as u32).collect();
            proptest::prop_assert_eq!(ranks, expected);
        }
    }
}
