//! A wormhole load run through the library: dual-path multicasts among unicasts on an 8×8 mesh,
//! flit by flit, at rising loads until the network saturates — seed 003 §4's experiment, small
//! (its router: 4 injection ports, messages of 16 flits instead of 64, a start-up of 10 cycles
//! instead of 33). First one plan alone, which takes exactly the static model's latency.
//!
//! Run: `cargo run -p meshcast --example load`. It checks the zero-load run against
//! `wormhole_latency`, that every light load delivers every measured message with a latency no
//! lower than the zero-load bound and rising with the load, and that the heaviest load
//! saturates.

use meshcast::algo::{self, Request};
use meshcast::eval::{wormhole_latency, Ports, Wormhole};
use meshcast::sim::wormhole::traffic::{simulate, Destinations, Latency, Measure, Setup, Traffic};
use meshcast::sim::wormhole::{run_plan, Router};

const STARTUP: u32 = 10;
const LENGTH: u32 = 16;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let router = Router {
        ports: 4,
        startup: STARTUP,
        length: LENGTH,
        ..Router::default()
    };
    let dual_path = algo::find("dual-path")?;

    // One plan in an empty network: the simulator agrees with the static model.
    let req = Request::parse("mesh:8x8", "3,3", "0,0 7,7 5,1 2,6")?;
    let plan = dual_path.route(&req)?;
    let run = run_plan(req.shape(), &plan, router, 0)?;
    let model = Wormhole {
        startup: STARTUP,
        length: LENGTH,
        ports: Ports::Multi(4),
    };
    assert_eq!(
        run.completion,
        u64::from(wormhole_latency(&plan, req.shape(), model))
    );
    println!("one multicast alone: {} cycles\n", run.completion);

    println!("load (msg/node/cycle)  multicast latency  unicast latency  accepted flits  status");
    let mut last = 0.0;
    for load in [0.001, 0.002, 0.004, 0.03] {
        let setup = Setup {
            shape: "mesh:8x8".parse()?,
            router,
            traffic: Traffic {
                load,
                multicast: 0.1,
                destinations: Destinations::Fixed(10),
                hot_spot: None,
            },
            measure: Measure {
                warmup: 2_000,
                batch: 1_000,
                max_cycles: 30_000,
                drain: 5_000,
                ..Measure::default()
            },
            algorithm: Some(dual_path),
            preparation: None,
            params: algo::Params::default(),
            seed: 1,
        };
        let report = simulate(&setup)?;
        let status = match report.saturated {
            Some(why) => format!("saturated: {why:?}"),
            None => "steady".to_string(),
        };
        let mean = |l: Option<Latency>| l.map_or("-".to_string(), |l| format!("{:.1}", l.mean));
        println!(
            "{load:>21} {:>18} {:>16} {:>15.3}  {status}",
            mean(report.multicast),
            mean(report.unicast),
            report.accepted_flits
        );
        if load < 0.01 {
            let multicast = report.multicast.expect("multicasts were measured");
            let unicast = report.unicast.expect("unicasts were measured");
            assert!(report.saturated.is_none() && report.delivery_ratio == 1.0);
            // A unicast to a neighbour at least: the start-up, one hop, the message.
            assert!(unicast.mean >= f64::from(STARTUP + 1 + LENGTH));
            assert!(multicast.mean > last, "latency rises with the load");
            last = multicast.mean;
        } else {
            assert!(report.saturated.is_some(), "{load} saturates the 8×8 mesh");
        }
    }
    Ok(())
}
