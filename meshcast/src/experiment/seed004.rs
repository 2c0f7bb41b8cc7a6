//! The experiment of seed 004 (Herley, Pietracaprina and Pucci): measurements of its algorithms
//! on the store-and-forward simulator ([`crate::sim::saf`]), one row per (algorithm, instance),
//! and the growth exponent fitted to a sweep. The command line (`meshcast msets`) only formats
//! these.
//!
//! ```
//! use meshcast::experiment::seed004::{fit_exponent, measure, Algorithm, Instance, Options};
//! let instance = Instance::Random { d: 4, c: 4 };
//! let row = measure(Algorithm::Theorem2, instance, 16, 1, &Options::default()).unwrap();
//! assert_eq!(row.deliveries, row.messages_delivered_expected);
//! let slope = fit_exponent(&[(1.0, 3.0), (2.0, 6.0), (4.0, 12.0)]).unwrap();
//! assert!((slope - 1.0).abs() < 1e-12);
//! ```

use crate::error::{InputError, SafError};
use crate::sim::saf::deterministic::{self, Deterministic};
use crate::sim::saf::engine::{Capacity, Run};
use crate::sim::saf::msets::{self, MessageSet};
use crate::sim::saf::randomized::{self, Randomized};
use crate::sim::saf::unknown::{self, Guessing};
use crate::sim::saf::{lemma1, naive, theorem2};

/// What the algorithms are run with: the buffer bound and the parameters of §4 and §6.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Options {
    /// Buffer bound (guess-c sets its own per guess and ignores it).
    pub capacity: Capacity,
    /// r and the group seed of the randomized algorithm.
    pub randomized: Randomized,
    /// r, α and the expander seed of the deterministic algorithm.
    pub deterministic: Deterministic,
    /// The abort thresholds of guess-c.
    pub guessing: Guessing,
}

/// The algorithms that route message sets on the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Replication into unicasts at the sources ([`naive`]).
    Naive,
    /// Theorem 2's O(c)-buffer algorithm ([`theorem2`]), after Lemma 1's reduction
    /// ([`lemma1`]) when d > c.
    Theorem2,
    /// The randomized constant-buffer algorithm of §4 ([`randomized`]), after Lemma 1 when d > c.
    Randomized,
    /// The deterministic constant-buffer algorithm of §5 with its random-permutation expander
    /// ([`deterministic`]), after Lemma 1 when d > c.
    Deterministic,
    /// Theorem 2 without knowing c: guesses from the average congestion, doubled on abort
    /// ([`unknown`], §6). Its buffer bound is that of the guess.
    GuessC,
}

impl Algorithm {
    /// Every algorithm, in the order tables list them.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Naive,
        Algorithm::Theorem2,
        Algorithm::Randomized,
        Algorithm::Deterministic,
        Algorithm::GuessC,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Naive => "naive",
            Algorithm::Theorem2 => "theorem2",
            Algorithm::Randomized => "randomized",
            Algorithm::Deterministic => "deterministic",
            Algorithm::GuessC => "guess-c",
        }
    }

    /// The algorithm called `name`.
    pub fn parse(name: &str) -> Result<Algorithm, InputError> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| InputError::UnknownAlgorithm {
                name: name.to_string(),
                known: "naive, theorem2, randomized, deterministic, guess-c".to_string(),
            })
    }

    /// Routes `set` with `options`.
    pub fn run(self, set: &MessageSet, options: &Options) -> Result<Run, SafError> {
        let capacity = options.capacity;
        match self {
            Algorithm::Naive => naive::route(set, capacity),
            Algorithm::Theorem2 => lemma1::route(set, capacity),
            Algorithm::Randomized => randomized::route(set, options.randomized, capacity),
            Algorithm::Deterministic => deterministic::route(set, options.deterministic, capacity),
            Algorithm::GuessC => Ok(unknown::route(set, options.guessing)?.0),
        }
    }
}

/// Which message set to route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instance {
    /// [`msets::random`] with degree `d` and congestion `c`.
    Random {
        /// Degree.
        d: u32,
        /// Congestion.
        c: u32,
    },
    /// [`msets::theorem1`]'s adversarial set with congestion `c`.
    Theorem1 {
        /// Congestion.
        c: u32,
    },
    /// [`msets::bisection`]'s set with degree and congestion `d`, naive's worst case.
    Bisection {
        /// Degree (= congestion).
        d: u32,
    },
}

/// One measured run.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// Mesh side √n.
    pub side: u32,
    /// Nodes n.
    pub n: u64,
    /// Degree of the set.
    pub d: u32,
    /// Congestion of the set.
    pub c: u32,
    /// Deliveries the set asks for (Σ dᵢ).
    pub messages_delivered_expected: u64,
    /// Deliveries made (always equal: [`crate::sim::saf::Sim::finish`] checks every one).
    pub deliveries: u64,
    /// Further copies that reached a destination already holding the message and were dropped
    /// there (only §5's replicas do this; 0 for every other algorithm).
    pub duplicates: u64,
    /// Steps.
    pub steps: u64,
    /// steps / √(cn), constant for an optimal algorithm.
    pub per_sqrt_cn: f64,
    /// steps / √n.
    pub per_sqrt_n: f64,
    /// Largest buffer occupancy of any node.
    pub max_buffer: u32,
    /// Packet transmissions over links.
    pub packet_hops: u64,
    /// Control-word transmissions (prefix computations).
    pub word_hops: u64,
    /// Copies made.
    pub copies: u64,
    /// Theorem 1's lower bound, for the adversarial instance.
    pub lower_bound: Option<u64>,
    /// Steps per phase.
    pub phases: Vec<(&'static str, u64)>,
}

/// Checks, without generating or routing anything, that [`measure`] accepts these settings: the
/// instance's on this mesh, and the algorithm's for the instance's congestion and `options`. A
/// sweep checks every point first, so that a bad one fails at once rather than after the others
/// ran.
pub fn check(
    algorithm: Algorithm,
    instance: Instance,
    side: u32,
    options: &Options,
) -> Result<(), SafError> {
    let c = match instance {
        Instance::Random { d, c } => {
            msets::check_random(side, d, c)?;
            c
        }
        Instance::Theorem1 { c } => {
            msets::check_theorem1(side, c)?;
            c
        }
        Instance::Bisection { d } => {
            msets::check_bisection(side, d)?;
            d
        }
    };
    match algorithm {
        Algorithm::Naive => naive::check(options.capacity),
        Algorithm::Theorem2 => theorem2::check(side, c),
        Algorithm::Randomized => randomized::check(side, options.randomized),
        Algorithm::Deterministic => deterministic::check(side, options.deterministic),
        Algorithm::GuessC => Ok(()),
    }
}

/// Generates `instance` on a `side × side` mesh from `seed` and routes it with `algorithm`.
pub fn measure(
    algorithm: Algorithm,
    instance: Instance,
    side: u32,
    seed: u64,
    options: &Options,
) -> Result<Row, SafError> {
    let (set, lower_bound) = match instance {
        Instance::Random { d, c } => (msets::random(side, d, c, seed)?, None),
        Instance::Theorem1 { c } => {
            let (set, bound) = msets::theorem1(side, c)?;
            (set, Some(bound.steps))
        }
        Instance::Bisection { d } => (msets::bisection(side, d)?, None),
    };
    let run = algorithm.run(&set, options)?;
    let n = set.len() as u64;
    let c = set.congestion();
    Ok(Row {
        algorithm: algorithm.name(),
        side,
        n,
        d: set.degree(),
        c,
        messages_delivered_expected: set.deliveries() as u64,
        deliveries: run.deliveries,
        duplicates: run.duplicates,
        steps: run.steps,
        per_sqrt_cn: run.steps as f64 / ((u64::from(c) * n) as f64).sqrt(),
        per_sqrt_n: run.steps as f64 / (n as f64).sqrt(),
        max_buffer: run.max_buffer,
        packet_hops: run.packet_hops,
        word_hops: run.word_hops,
        copies: run.copies,
        lower_bound,
        phases: run.phases,
    })
}

/// The least-squares slope of log y against log x: the growth exponent e of y ∝ xᵉ. `None` with
/// fewer than two distinct x or a non-positive value.
pub fn fit_exponent(points: &[(f64, f64)]) -> Option<f64> {
    if points.iter().any(|&(x, y)| x <= 0.0 || y <= 0.0) {
        return None;
    }
    let logs: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x.ln(), y.ln())).collect();
    let k = logs.len() as f64;
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / k;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / k;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 1e-12).then(|| sxy / sxx)
}
