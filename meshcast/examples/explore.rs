use meshcast::algo::{self, Request};
use meshcast::eval::Metrics;
use meshcast::schedule::Schedule;
fn main() {
    let cases = [
        ("mesh:8x8", "0,0", "4,6 6,6 0,2 4,0 3,0 7,4", "vh diag dist pair dds min pair-min"),
        ("torus:8x8", "0,0", "4,6 6,6 0,2 4,0 3,0 7,4", "vh diag dds pair pair-min"),
        ("mesh:10x9", "0,0", "3,2 9,3 8,5 4,7 7,7 2,8 5,8 9,8", "pair pair-min diag dds"),
        ("mesh:10x9", "0,0", "9,3 3,1 2,8 4,8", "pair pair-min"),
        ("torus:8x8", "0,0", "4,7 7,5 0,3 2,3 5,1 6,3 1,0 3,0", "pair pair-min"),
        ("mesh:5x5x5", "0,0,0", "0,3,0 1,3,0 1,4,2 2,3,0 3,1,0 4,3,3", "diag dds vh"),
        ("torus:5x5x5", "0,0,0", "0,3,0 1,3,0 1,4,2 2,3,0 3,1,0 4,3,3", "diag dds vh"),
    ];
    for (t, s, d, algos) in cases {
        let req = Request::parse(t, s, d).unwrap();
        for a in algos.split(' ') {
            let info = algo::find(a).unwrap();
            let plan = info.route(&req).unwrap();
            let m = Metrics::of(&plan, req.shape());
            let o = Metrics::of(&Schedule::Optimal.apply(plan.clone(), req.shape()), req.shape());
            println!("{t:12} {a:9} traffic {:3} one-port {:3} all-port {:3} optimal {:3}", m.traffic, m.one_port_time, m.all_port_time, o.one_port_time);
        }
    }
}
