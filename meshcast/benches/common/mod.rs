//! What every benchmark shares: the request of a case (source at the origin, one fixed random
//! destination set, seed 1) and timing one algorithm's `route` on it.

use meshcast::algo::{self, Request};
use meshcast::topology::Shape;
use meshcast::workload::{random_destinations, seeded};

/// `k` random destinations on `topology`, source at the origin, seed 1.
pub fn request(topology: &str, k: usize) -> Request {
    let shape: Shape = topology.parse().unwrap();
    let origin = shape.node(&vec![0; shape.rank()]).unwrap();
    let dests = random_destinations(&shape, origin, k, &mut seeded(1)).unwrap();
    Request::new(shape, origin, dests).unwrap()
}

/// Time `name` routing `req`; nothing when the algorithm does not support the shape.
pub fn bench_route(bencher: divan::Bencher, name: &str, req: &Request) {
    let info = algo::find(name).unwrap();
    if !info.support.covers(req.shape()) {
        return;
    }
    bencher.bench(|| info.route(divan::black_box(req)).unwrap());
}
