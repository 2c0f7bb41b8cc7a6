//! Message-passing steps of a unicast-based algorithm over random destination sets, against
//! seed 002's bound: the experiment behind the seed 002 section of `meshcast reproduce`.
//!
//! Seed 002 proves (§1, §3) that its d-port algorithm delivers to `m` destinations in at most
//! ⌈log_{d+1}(m + 1)⌉ + 1 steps ([`step_bound`]); its simulations (Figs. 6–8) are on a 16×16
//! mesh. [`StepCheck`] routes `runs` random multicasts (source and destinations uniform, the
//! random streams of [`Sweep::request`]) and counts, exactly, the steps under the d-port model,
//! how many plans exceed the bound and how many have channel contention.
//!
//! ```
//! use meshcast::algo;
//! use meshcast::experiment::steps::StepCheck;
//! let check = StepCheck {
//!     algorithm: algo::find("multiport").unwrap(),
//!     shape: "mesh:8x8".parse().unwrap(),
//!     ports: 2,
//!     k: 20,
//!     runs: 50,
//!     seed: 1,
//! };
//! let outcome = check.run().unwrap();
//! assert_eq!(outcome.bound, 4); // ⌈log₃ 21⌉ + 1
//! assert_eq!(outcome.over_bound, 0);
//! assert!(outcome.max <= outcome.bound);
//! ```

use rayon::prelude::*;

use super::seed002::step_bound;
use super::sweep::{Placement, Sweep};
use crate::algo::{AlgoInfo, Params};
use crate::contention::Contention;
use crate::error::Error;
use crate::eval::{Ports, Steps, Wormhole};
use crate::topology::Shape;

/// `runs` random multicasts of `k` destinations, routed by `algorithm` for `ports` ports.
#[derive(Clone, Debug)]
pub struct StepCheck {
    /// A unicast-based algorithm (it is given `ports` as its `Params::ports`).
    pub algorithm: &'static AlgoInfo,
    /// The topology.
    pub shape: Shape,
    /// Ports per node, `d ≥ 1`: the plans are built for and timed with `d` ports.
    pub ports: u32,
    /// Destinations per multicast.
    pub k: usize,
    /// Multicasts.
    pub runs: u32,
    /// Seed of every random draw.
    pub seed: u64,
}

/// What [`StepCheck::run`] counts, exactly (integers: the same for any thread count).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepOutcome {
    /// Multicasts routed.
    pub runs: u32,
    /// Sum of their steps.
    pub total_steps: u64,
    /// The most steps any took.
    pub max: u32,
    /// Seed 002's bound for `k` destinations and `d` ports.
    pub bound: u32,
    /// Multicasts that took more steps than the bound.
    pub over_bound: u32,
    /// Multicasts with stepwise contention under the d-port model.
    pub stepwise: u32,
    /// Multicasts with depth contention under the d-port model.
    pub depth: u32,
}

impl StepOutcome {
    /// Mean steps per multicast.
    pub fn mean(&self) -> f64 {
        self.total_steps as f64 / f64::from(self.runs.max(1))
    }

    fn merge(mut self, other: StepOutcome) -> StepOutcome {
        self.runs += other.runs;
        self.total_steps += other.total_steps;
        self.max = self.max.max(other.max);
        self.over_bound += other.over_bound;
        self.stepwise += other.stepwise;
        self.depth += other.depth;
        self
    }
}

impl StepCheck {
    /// Route every multicast on all cores and count.
    pub fn run(&self) -> Result<StepOutcome, Error> {
        let ports = Ports::Multi(self.ports);
        let sweep = self.sweep(ports);
        sweep.check()?;
        let bound = step_bound(self.k as u32, self.ports);
        let empty = StepOutcome {
            bound,
            ..StepOutcome::default()
        };
        (0..self.runs)
            .into_par_iter()
            .map(|run| {
                let req = sweep.request(self.k, run)?;
                let plan = self.algorithm.route(&req)?;
                let steps = Steps::new(&plan, req.shape(), ports);
                let n = steps.completion(&plan);
                let contention = Contention::under(&plan, req.shape(), &steps);
                Ok(StepOutcome {
                    runs: 1,
                    total_steps: u64::from(n),
                    max: n,
                    bound,
                    over_bound: u32::from(n > bound),
                    stepwise: u32::from(contention.stepwise > 0),
                    depth: u32::from(contention.depth > 0),
                })
            })
            .try_reduce(|| empty, |a, b| Ok(a.merge(b)))
    }

    /// The sweep whose random streams draw the multicasts: random sources, as every node of
    /// seed 002's simulation sends.
    fn sweep(&self, ports: Ports) -> Sweep {
        Sweep {
            shape: self.shape.clone(),
            placement: Placement::Random,
            algorithms: vec![self.algorithm],
            ks: vec![self.k],
            runs: self.runs,
            seed: self.seed,
            schedule: crate::schedule::Schedule::Paper,
            wormhole: Some(Wormhole {
                startup: 0,
                length: 1,
                ports,
            }),
            params: Params {
                ports: self.ports,
                ..Params::default()
            },
        }
    }
}
