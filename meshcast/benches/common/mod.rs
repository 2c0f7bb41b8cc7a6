//! What every benchmark shares: the request of a case (source at the origin, one fixed random
//! destination set, seed 1), the cases of the registry's algorithms, and timing one algorithm's
//! `route`.

use std::fmt;

use meshcast::algo::{AlgoInfo, Request, REGISTRY};
use meshcast::plan::PlanKind;
use meshcast::topology::Shape;
use meshcast::workload::{random_destinations, seeded};

/// `k` random destinations on `topology`, source at the origin, seed 1.
pub fn request(topology: &str, k: usize) -> Request {
    let shape: Shape = topology.parse().unwrap();
    let origin = shape.node(&vec![0; shape.rank()]).unwrap();
    let dests = random_destinations(&shape, origin, k, &mut seeded(1)).unwrap();
    Request::new(shape, origin, dests).unwrap()
}

/// One algorithm of the registry on one size: a topology and a destination count. Divan names
/// the benchmark after it (`vh mesh:20x20 K=200`), so `cargo bench -- vh` selects an algorithm.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub algo: &'static AlgoInfo,
    pub topology: &'static str,
    pub k: usize,
}

impl Case {
    /// The case's [`request`].
    pub fn request(&self) -> Request {
        request(self.topology, self.k)
    }

    /// Time the algorithm routing `req` (the case's request, perhaps with other settings).
    pub fn bench(&self, bencher: divan::Bencher, req: &Request) {
        bencher.bench(|| self.algo.route(divan::black_box(req)).unwrap());
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} K={}", self.algo.name, self.topology, self.k)
    }
}

/// Every algorithm of `family`, in registry order, on every size of `sizes` it supports: adding
/// an algorithm to the registry adds its benchmarks.
pub fn cases(family: PlanKind, sizes: &[(&'static str, usize)]) -> Vec<Case> {
    REGISTRY
        .iter()
        .filter(|a| a.family == family)
        .flat_map(|algo| {
            sizes
                .iter()
                .filter(|(topology, _)| algo.support.covers(&topology.parse().unwrap()))
                .map(move |&(topology, k)| Case { algo, topology, k })
        })
        .collect()
}
