//! From flags to a checked [`Sweep`], and back: the settings a shard or state file records.
//!
//! Every value is validated here, before anything runs: the destination-count list (`--k`), the
//! algorithm list (`--algos`), then the library's [`Sweep::check`] (every K possible on the
//! topology, every algorithm supporting it). [`Settings`] is the sweep as plain data; two files
//! belong to the same sweep exactly when their settings are equal.

use anyhow::{anyhow, bail, Context, Result};
use meshcast::algo::{self, Params};
use meshcast::eval::{Ports, Wormhole};
use meshcast::experiment::sweep::{Placement, Sweep};
use meshcast::schedule::Schedule;
use meshcast::topology::Shape;
use meshcast::InputError;
use serde::{Deserialize, Serialize};

use crate::args::SweepArgs;
use crate::flags::{algo_params, AlgosFlag, ModelArg, PlacementArg};

/// The most destination counts one sweep takes (a guard against `--k 1:4000000000`).
const MAX_POINTS: usize = 100_000;

/// The sweep `args` describe, checked.
pub fn sweep_of(args: &SweepArgs) -> Result<Sweep> {
    let shape: Shape = args
        .topology
        .parse()
        .with_context(|| format!("--topology '{}'", args.topology))?;
    let algorithms = AlgosFlag {
        topology: Some(&shape),
        check_named: false,
        distinct: true,
    }
    .parse(&args.algos)?;
    let ks = destination_counts(&args.k).with_context(|| format!("--k '{}'", args.k))?;
    let wormhole = match (args.model, args.wormhole.first_given()) {
        (ModelArg::Wormhole, _) => Some(args.wormhole.model()),
        (ModelArg::StoreAndForward, None) => None,
        (ModelArg::StoreAndForward, Some(flag)) => bail!(
            "{flag}: --length, --startup and --port set the wormhole model: add --model wormhole"
        ),
    };
    let sweep = Sweep {
        shape,
        placement: match args.placement {
            PlacementArg::Origin => Placement::Origin,
            PlacementArg::Random => Placement::Random,
        },
        algorithms,
        ks,
        runs: args.runs,
        seed: args.seed,
        schedule: args.schedule.into(),
        params: args.params.params(wormhole.map_or(Ports::All, |w| w.ports)),
        wormhole,
    };
    checked(sweep, &args.k, &args.algos)
}

/// `sweep` once the library accepts it; its refusal names the flag at fault.
fn checked(sweep: Sweep, k: &str, algos: &str) -> Result<Sweep> {
    sweep.check().map_err(|e| {
        let flag = match &e {
            InputError::DestinationCount { .. } => format!("--k '{k}'"),
            InputError::Unsupported { .. } => format!("--algos '{algos}'"),
            _ => "sweep settings".to_string(),
        };
        anyhow!(e).context(flag)
    })?;
    Ok(sweep)
}

/// A comma list of counts and inclusive ranges `FIRST:LAST[:STEP]`, sorted; each K at most once.
pub fn destination_counts(text: &str) -> Result<Vec<usize>> {
    let mut ks = Vec::new();
    for item in text.split(',') {
        ks.extend(item_counts(item.trim())?);
        if ks.len() > MAX_POINTS {
            bail!("more than {MAX_POINTS} destination counts: use a larger step");
        }
    }
    ks.sort_unstable();
    if let Some(w) = ks.windows(2).find(|w| w[0] == w[1]) {
        bail!(
            "K = {} is listed twice: list each destination count once",
            w[0]
        );
    }
    Ok(ks)
}

/// The counts of one list item: `20` or `10:390:10` (step 1 when left out).
fn item_counts(item: &str) -> Result<Vec<usize>> {
    const ALLOWED: &str = "write counts and ranges FIRST:LAST[:STEP] with FIRST ≤ LAST and \
                           STEP ≥ 1, separated by commas, e.g. 5,10,20:100:20";
    let bad = || anyhow!("'{item}' is not a count or a range: {ALLOWED}");
    let numbers = item
        .split(':')
        .map(|n| n.trim().parse::<usize>().map_err(|_| bad()))
        .collect::<Result<Vec<_>>>()?;
    let (first, last, step) = match numbers[..] {
        [k] => (k, k, 1),
        [first, last] => (first, last, 1),
        [first, last, step] => (first, last, step),
        _ => return Err(bad()),
    };
    if first > last || step == 0 {
        return Err(bad());
    }
    if (last - first) / step >= MAX_POINTS {
        bail!("'{item}' has more than {MAX_POINTS} destination counts: use a larger step");
    }
    Ok((first..=last).step_by(step).collect())
}

/// A sweep as plain data, as shard and state files record it. Equal settings, same sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The meshcast version that ran it: another version may route differently.
    pub meshcast: String,
    /// The topology, as meshcast writes it.
    pub topology: String,
    /// Registry names, in report order.
    pub algorithms: Vec<String>,
    /// Destination counts, ascending.
    pub ks: Vec<usize>,
    /// Multicasts per K.
    pub runs: u32,
    /// Seed.
    pub seed: u64,
    /// `origin` or `random`.
    pub placement: String,
    /// `paper` or `optimal`.
    pub schedule: String,
    /// The wormhole model of `--model wormhole`; null for store-and-forward only.
    pub wormhole: Option<WormholeSettings>,
    /// Qualified Groups' threshold TD (files written before it was recorded ran the default,
    /// 0.5). The multiport algorithm's ports follow the wormhole model's.
    #[serde(default = "paper_td")]
    pub td: f64,
}

/// The TD of seed 003, which every sweep ran before `--td` existed.
fn paper_td() -> f64 {
    Params::default().td
}

/// The wormhole model as files record it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WormholeSettings {
    /// Start-up latency of every send, in cycles.
    pub startup: u32,
    /// Message length in flits.
    pub length: u32,
    /// `one`, `all` or a number of ports `d`.
    pub port: String,
}

impl WormholeSettings {
    fn of(model: Wormhole) -> WormholeSettings {
        WormholeSettings {
            startup: model.startup,
            length: model.length,
            port: model.ports.to_string(),
        }
    }

    fn model(&self) -> Result<Wormhole> {
        let ports: Ports = self.port.parse()?;
        if self.length == 0 {
            bail!("wormhole length 0: a message has at least 1 flit");
        }
        Ok(Wormhole {
            startup: self.startup,
            length: self.length,
            ports,
        })
    }
}

impl Settings {
    /// The settings of `sweep`, run by this meshcast.
    pub fn of(sweep: &Sweep) -> Settings {
        Settings {
            meshcast: env!("CARGO_PKG_VERSION").to_string(),
            topology: sweep.shape.to_string(),
            algorithms: sweep
                .algorithms
                .iter()
                .map(|a| a.name.to_string())
                .collect(),
            ks: sweep.ks.clone(),
            runs: sweep.runs,
            seed: sweep.seed,
            placement: placement_name(sweep.placement).to_string(),
            schedule: sweep.schedule.name().to_string(),
            wormhole: sweep.wormhole.map(WormholeSettings::of),
            td: sweep.params.td,
        }
    }

    /// The sweep these settings describe, checked as the flags are.
    pub fn sweep(&self) -> Result<Sweep> {
        let algorithms = self
            .algorithms
            .iter()
            .map(|a| algo::find(a))
            .collect::<Result<Vec<_>, _>>()?;
        let wormhole = self
            .wormhole
            .as_ref()
            .map(WormholeSettings::model)
            .transpose()?;
        let sweep = Sweep {
            shape: self.topology.parse()?,
            placement: match self.placement.as_str() {
                "origin" => Placement::Origin,
                "random" => Placement::Random,
                other => bail!("placement '{other}' is not origin or random"),
            },
            algorithms,
            ks: self.ks.clone(),
            runs: self.runs,
            seed: self.seed,
            schedule: match Schedule::ALL
                .into_iter()
                .find(|s| s.name() == self.schedule)
            {
                Some(schedule) => schedule,
                None => bail!(
                    "schedule '{}' is not paper, optimal or wrap-last",
                    self.schedule
                ),
            },
            wormhole,
            params: algo_params(self.td, wormhole.map_or(Ports::All, |w| w.ports)),
        };
        sweep.check()?;
        Ok(sweep)
    }

    /// The name of the first setting in which `self` and `other` differ.
    pub fn difference(&self, other: &Settings) -> Option<&'static str> {
        let differs = [
            ("meshcast version", self.meshcast != other.meshcast),
            ("topology", self.topology != other.topology),
            ("algorithms", self.algorithms != other.algorithms),
            ("destination counts", self.ks != other.ks),
            ("runs", self.runs != other.runs),
            ("seed", self.seed != other.seed),
            ("placement", self.placement != other.placement),
            ("schedule", self.schedule != other.schedule),
            ("wormhole model", self.wormhole != other.wormhole),
            ("td", self.td != other.td),
        ];
        differs.iter().find(|(_, d)| *d).map(|(name, _)| *name)
    }
}

/// The name of a placement as `--placement` spells it.
pub fn placement_name(placement: Placement) -> &'static str {
    match placement {
        Placement::Origin => "origin",
        Placement::Random => "random",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists() {
        assert_eq!(
            destination_counts("5,10,20:100:20").unwrap(),
            [5, 10, 20, 40, 60, 80, 100]
        );
        assert_eq!(destination_counts("10:35:10").unwrap(), [10, 20, 30]);
        assert_eq!(destination_counts(" 3:5 , 1").unwrap(), [1, 3, 4, 5]);
        assert_eq!(destination_counts("7").unwrap(), [7]);
    }

    #[test]
    fn bad_lists_say_what_is_allowed() {
        for bad in ["", "10:5", "1:10:0", "a", "1:2:3:4", "1,,2", "-3"] {
            let e = destination_counts(bad).unwrap_err().to_string();
            assert!(e.contains("FIRST:LAST[:STEP]"), "{bad}: {e}");
        }
        let twice = destination_counts("10:30:10,20").unwrap_err().to_string();
        assert!(twice.contains("K = 20 is listed twice"), "{twice}");
        assert!(destination_counts("1:4000000000").is_err());
    }
}
