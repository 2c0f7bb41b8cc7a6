//! **Multiport** (seed 002): the source and the destinations in a labelling-ordered chain along
//! the snake; a node holding the message sends one unicast down the low channels and one up the
//! high channels per step, each to the centre of two thirds of its chain on that side — with
//! `d` ports, `d/2` each way — in at most ⌈log_{d+1}(m+1)⌉ + 1 message-passing steps, with no
//! stepwise or depth contention.
//!
//! Paper: seed 002 ("Efficient unicast-based multicast algorithms in multiport wormhole-routed
//! 2D mesh networks with Hamiltonian-path routing"): §2.2 the snake labelling (Definition 1) and
//! the routing function `R(u, v)` (Definition 2, [`crate::route::hamiltonian`]); §3
//! Definitions 5–6 (labelling-ordered chain; the lower, upper and remaining partitions) and
//! Figure 4, the two-port algorithm; Theorems 1–3 (no shared channel between messages sent
//! from one node down and up, or between messages whose label ranges are disjoint). The step
//! bound is the abstract's "at most ⌈log₃(m + 1)⌉ + 1 message-passing steps" for two ports and
//! §1's ⌈log_{d+1}(m + 1)⌉ + 1 for d ports; §3 proves ⌈log₃ 2(m + 1)⌉ when the source is at an
//! end of the chain.
//!
//! **Figure 4** (two ports). The chain `φ = {D₀, …, D_m}` holds the source at position `src`.
//! Per step the source gives the lower partition `φ_l = {D₀, …, D_{l−1}}`, `l = ⌈2·src/3⌉`, to
//! its centre `D_lower`, `lower = l − ⌈l/2⌉`, through a low channel, and the upper partition
//! `φ_u = {D_{u+1}, …, D_m}`, `u = m − ⌈2(m − src)/3⌉`, to `D_upper`, `upper = u + ⌈(m−u)/2⌉`,
//! through a high channel, at the same time; it keeps the remaining `{D_l, …, D_u}` and repeats
//! while it is not alone; `D_lower` and `D_upper` do the same with their partitions. A unicast
//! stays within the labels of its partition because `R` only climbs (or descends) labels, and
//! partitions are disjoint, so Theorems 1–3 rule out contention.
//!
//! Complexity: O(m log m) to sort the chain by label, then O(n) per hop of the `m` unicasts.
//!
//! Choices — the d-port generalisation, which the paper states (§1, §4) but does not give:
//!
//! * with `d = request.params().ports` ports a holder splits each side of its segment as
//!   Figure 4 does with one port per side, generalised to `p` ports on a side: it keeps the
//!   ⌊n/(2p+1)⌋ nodes nearest to it of the side's `n` and gives the rest away in `p` parts of
//!   (nearly) equal size, the farther parts the larger, each to its centre rounded towards the
//!   holder (Figure 4's `D_lower` and `D_upper`). With two ports a side this keeps a fifth, as
//!   a centred recipient shrinks its segment five-fold per step with four ports;
//! * ports per side: `⌊d/2⌋` each way, the odd port to the larger side (the upper one on a
//!   tie); a holder with one side empty uses `⌈d/2⌉` ports on the other. For `d = 2` this is
//!   Figure 4, which leaves the second port idle when a side is empty ("the source node always
//!   sends only one copy"): a second unicast the same way would leave the same node on the same
//!   channel network and could share its first channel;
//! * one port (`d = 1`) cannot serve both sides in a step, and Figure 4's two-thirds rule then
//!   takes more than ⌈log₂(m+1)⌉ + 1 steps. There the holder halves its segment and sends the
//!   half without itself to that half's node next to the split: U-mesh's halving on the
//!   labelling-ordered chain, ⌈log₂(m+1)⌉ steps — the one-port algorithm the paper compares
//!   its two-port one against (§4);
//! * a holder's unicasts are listed step by step, low ones before high ones (Figure 4's
//!   `parbegin` order), which is their port order. [`crate::eval::message_steps`] sends a
//!   node's unicasts `d` per step in that order, so where Figure 4 idles a port (a holder with
//!   one side) the model sends that holder's next unicast a step early, beside one on the same
//!   side: fewer steps than the paper counts, and possibly stepwise contention
//!   (docs/REPRODUCTION.md). Two-sided holders use their ports exactly as Figure 4;
//! * 2D meshes and tori, as the paper (in a torus `R` may take wraparound channels; the snake
//!   labels a torus like a mesh); other dimensions are refused.
//!
//! ```
//! use meshcast::{algo, algo::Request, eval::{message_steps, Ports}};
//! // seed 002 Figure 5: source (3,3) of a 6×6 mesh, 5 destinations, 2 steps.
//! let req = Request::parse("mesh:6x6", "3,3", "0,1 3,1 2,2 5,2 2,5").unwrap();
//! let plan = algo::find("multiport").unwrap().route(&req).unwrap();
//! assert_eq!(message_steps(&plan, req.shape(), Ports::Multi(2)), 2);
//! // The source's sends: D_lower and D_upper in step 1, then (5,2).
//! let to: Vec<Vec<u32>> = plan.sends().take(3).map(|s| req.shape().coords(s.hops.last().unwrap().node())).collect();
//! assert_eq!(to, [[0, 1], [2, 5], [5, 2]]);
//! ```

use super::{chain_by, deliver, halving, Segment};
use crate::algo::{Algorithm, Request};
use crate::plan::Plan;
use crate::route::hamiltonian::{route, Snake};

/// Seed 002's multiport algorithm with `request.params().ports` ports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Multiport;

impl Algorithm for Multiport {
    fn plan(&self, request: &Request) -> Plan {
        let snake = Snake::new(request.shape());
        let label = |v| snake.label(v);
        let ports = request.params().ports;
        let route = |u, v| route(&snake, u, v);
        if ports == 1 {
            return halving(request, label, route);
        }
        let (chain, source_at) = chain_by(request, label);
        deliver(request, &chain, source_at, |s| divide(s, ports), route)
    }
}

/// One step of a `ports`-port holder (`ports ≥ 2`): the segment it keeps and the parts it gives
/// away, low side first, each in chain order.
fn divide(segment: Segment, ports: u32) -> (Segment, Vec<Segment>) {
    let Segment { lo, hi, at } = segment;
    let (low, high) = ports_per_side(at - lo, hi - at, ports as usize);
    let (keep_low, lower) = side(at - lo, low);
    let (keep_high, upper) = side(hi - at, high);
    let mut given = Vec::with_capacity(lower.len() + upper.len());
    let mut start = lo;
    for size in lower {
        given.push(Segment {
            lo: start,
            hi: start + size - 1,
            at: start + size / 2,
        });
        start += size;
    }
    let mut end = hi;
    let first_upper = given.len();
    for size in upper {
        given.push(Segment {
            lo: end + 1 - size,
            hi: end,
            at: end + 1 - size + size.div_ceil(2) - 1,
        });
        end -= size;
    }
    given[first_upper..].reverse();
    let kept = Segment {
        lo: at - keep_low,
        hi: at + keep_high,
        at,
    };
    (kept, given)
}

/// Ports for the low and the high side of a holder with `below` and `above` chain nodes on
/// them: half each, the odd one to the larger side (upper on a tie), `⌈d/2⌉` to a lone side.
fn ports_per_side(below: usize, above: usize, ports: usize) -> (usize, usize) {
    let lone = ports.div_ceil(2);
    match (below, above) {
        (0, _) => (0, lone),
        (_, 0) => (lone, 0),
        _ if ports.is_multiple_of(2) => (ports / 2, ports / 2),
        _ if below > above => (ports / 2 + 1, ports / 2),
        _ => (ports / 2, ports / 2 + 1),
    }
}

/// A side of `n` chain nodes served by `p` ports: how many of the nearest nodes the holder
/// keeps, and the sizes of the parts it gives away, from the far end of the side inwards.
fn side(n: usize, p: usize) -> (usize, Vec<usize>) {
    if p == 0 {
        return (n, Vec::new());
    }
    let keep = n / (2 * p + 1);
    let give = n - keep;
    let parts = p.min(give);
    let sizes = (0..parts)
        .map(|i| give / parts + usize::from(i < give % parts))
        .collect();
    (keep, sizes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::unicast::halve;

    /// With two ports a step is Figure 4's: `l = ⌈2·src/3⌉`, `u = m − ⌈2(m − src)/3⌉`,
    /// `lower = l − ⌈l/2⌉`, `upper = u + ⌈(m − u)/2⌉`.
    #[test]
    fn two_ports_divide_as_figure_4() {
        for m in 1..40usize {
            for src in 0..=m {
                let (kept, given) = divide(
                    Segment {
                        lo: 0,
                        hi: m,
                        at: src,
                    },
                    2,
                );
                let l = (2 * src).div_ceil(3);
                let u = m - (2 * (m - src)).div_ceil(3);
                assert_eq!((kept.lo, kept.hi), (l, u), "m {m} src {src}");
                let mut expected = Vec::new();
                if l > 0 {
                    expected.push(Segment {
                        lo: 0,
                        hi: l - 1,
                        at: l - l.div_ceil(2),
                    });
                }
                if m > u {
                    let upper = u + (m - u).div_ceil(2);
                    expected.push(Segment {
                        lo: u + 1,
                        hi: m,
                        at: upper,
                    });
                }
                assert_eq!(given, expected, "m {m} src {src}");
            }
        }
    }

    /// The chain arithmetic alone, for every chain of up to 150 nodes and every source position:
    /// at most ⌈log_{d+1}(m + 1)⌉ + 1 steps when each holder sends its parts in one step (the
    /// schedule of Figure 4), and ⌈log₃ 2(m + 1)⌉ with two ports from either end of the chain.
    #[test]
    fn every_chain_keeps_the_step_bound() {
        use crate::experiment::seed002::{end_source_bound, step_bound};
        use std::collections::HashMap;
        fn steps(
            len: usize,
            at: usize,
            ports: u32,
            memo: &mut HashMap<(usize, usize), u32>,
        ) -> u32 {
            if len == 1 {
                return 0;
            }
            if let Some(&s) = memo.get(&(len, at)) {
                return s;
            }
            let segment = Segment {
                lo: 0,
                hi: len - 1,
                at,
            };
            let (kept, given) = if ports == 1 {
                halve(segment, 0)
            } else {
                divide(segment, ports)
            };
            let s = 1 + given
                .into_iter()
                .chain([kept])
                .map(|p| steps(p.len(), p.at - p.lo, ports, memo))
                .max()
                .unwrap();
            memo.insert((len, at), s);
            s
        }
        for ports in 1..=4u32 {
            let mut memo = HashMap::new();
            for m in 1..150usize {
                for src in 0..=m {
                    let s = steps(m + 1, src, ports, &mut memo);
                    assert!(
                        s <= step_bound(m as u32, ports),
                        "d {ports} m {m} src {src}: {s}"
                    );
                    if ports == 2 && (src == 0 || src == m) {
                        assert!(s <= end_source_bound(m as u32), "m {m} src {src}: {s}");
                    }
                }
            }
        }
    }

    /// The parts of a step tile the segment, the holder's own part holds it, each part's
    /// recipient lies in its part, and no side gets more unicasts than its ports.
    #[test]
    fn parts_tile_the_segment() {
        for ports in 2..=6u32 {
            for m in 1..30usize {
                for src in 0..=m {
                    let (kept, given) = divide(
                        Segment {
                            lo: 0,
                            hi: m,
                            at: src,
                        },
                        ports,
                    );
                    let mut all: Vec<Segment> = given.clone();
                    all.push(kept);
                    all.sort_by_key(|s| s.lo);
                    assert_eq!(all[0].lo, 0);
                    assert!(all.windows(2).all(|w| w[0].hi + 1 == w[1].lo));
                    assert_eq!(all.last().unwrap().hi, m);
                    assert!(all.iter().all(|s| s.lo <= s.at && s.at <= s.hi));
                    assert_eq!(kept.at, src);
                    let below = given.iter().filter(|s| s.hi < src).count();
                    assert!(below <= ports.div_ceil(2) as usize);
                    assert!(given.len() - below <= ports.div_ceil(2) as usize);
                    assert!(given.len() <= ports as usize && !given.is_empty());
                }
            }
        }
    }
}
