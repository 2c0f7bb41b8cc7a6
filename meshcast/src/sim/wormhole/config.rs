//! The router and network settings of a run, checked once before anything runs.

use crate::error::InputError;

/// The router model: buffers, virtual channels, pipeline and ports (seed 003 §4: one cycle per
/// flit per channel, four injection and four ejection channels, a 33-cycle start-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Router {
    /// Virtual channels per physical channel (at least 1; a torus needs 2 for its datelines).
    pub vcs: u32,
    /// Flits each virtual channel buffers (at least 1; credits return one cycle after a flit
    /// leaves, so 2 flits sustain one flit per cycle).
    pub buffer: u32,
    /// Cycles a flit spends in each router before it may cross the next channel (1 = the seeds'
    /// model, one cycle per hop).
    pub pipeline: u32,
    /// Injection channels and ejection channels per node, `d` (seed 002's d-port architecture;
    /// seed 003 uses 4).
    pub ports: u32,
    /// Start-up latency of every send in cycles (seed 003: 33), paid while the send holds its
    /// injection channel, before its header enters the router.
    pub startup: u32,
    /// Message length in flits, header included (seed 003: 64).
    pub length: u32,
    /// When a virtual channel may be taken by the next worm.
    pub release: VcRelease,
}

/// When a worm gives up a virtual channel it holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VcRelease {
    /// When its tail flit has left the buffer: a buffer holds one worm's flits only (ours,
    /// the default).
    #[default]
    TailLeft,
    /// When its tail flit has been sent into the buffer (BookSim2's): the next worm's header may
    /// queue behind the tail in the same buffer.
    TailSent,
}

impl VcRelease {
    /// The names [`VcRelease`]'s `FromStr` accepts.
    pub const NAMES: &'static str = "tail-left or tail-sent";
}

impl std::str::FromStr for VcRelease {
    type Err = InputError;

    fn from_str(s: &str) -> Result<VcRelease, InputError> {
        match s {
            "tail-left" => Ok(VcRelease::TailLeft),
            "tail-sent" => Ok(VcRelease::TailSent),
            _ => Err(InputError::Setting {
                name: "vc-release",
                value: s.into(),
                allowed: VcRelease::NAMES,
            }),
        }
    }
}

impl Default for Router {
    fn default() -> Router {
        Router {
            vcs: 2,
            buffer: 4,
            pipeline: 1,
            ports: 1,
            startup: 33,
            length: 64,
            release: VcRelease::TailLeft,
        }
    }
}

impl Router {
    /// The router matched to BookSim2's for speed comparisons (docs/SIMULATOR.md,
    /// docs/PERFORMANCE.md): one virtual channel of 8 flits, a 5-cycle pipeline, 20-flit
    /// packets, no start-up, one injection and one ejection channel per node.
    pub const BOOKSIM_MATCHED: Router = Router {
        vcs: 1,
        buffer: 8,
        pipeline: 5,
        ports: 1,
        startup: 0,
        length: 20,
        release: VcRelease::TailLeft,
    };

    /// Every setting within what the simulator can run.
    pub fn check(self) -> Result<Router, InputError> {
        let at_least_one = |name: &'static str, value: u32| {
            if value == 0 {
                Err(InputError::Setting {
                    name,
                    value: "0".into(),
                    allowed: "at least 1",
                })
            } else {
                Ok(())
            }
        };
        at_least_one("vcs", self.vcs)?;
        at_least_one("buffer", self.buffer)?;
        at_least_one("pipeline", self.pipeline)?;
        at_least_one("ports", self.ports)?;
        at_least_one("length", self.length)?;
        if self.vcs > 64 || self.buffer > 1024 || self.ports > 64 {
            return Err(InputError::Setting {
                name: "vcs/buffer/ports",
                value: format!("{}/{}/{}", self.vcs, self.buffer, self.ports),
                allowed: "at most 64 virtual channels, 1024 flits per buffer and 64 ports",
            });
        }
        Ok(self)
    }

    /// The analytic zero-load latency of one worm `hops` hops long: start-up, then the header
    /// spends `pipeline` cycles in each of the `hops + 1` routers it passes, then the other
    /// `length − 1` flits follow one per cycle. With a one-cycle pipeline this is seed 001
    /// eq. 2.1.10's `startup + hops + L`.
    pub fn zero_load_latency(&self, hops: u32) -> u64 {
        u64::from(self.startup)
            + u64::from(hops + 1) * u64::from(self.pipeline)
            + u64::from(self.length)
            - 1
    }
}

/// The preparation time seed 003 §4 gives each path-based algorithm (dividing the destinations
/// into subsets and making the copies), in cycles: DP 2, MP 2, CP 4, QG 16; 0 for any other.
pub fn preparation_time(algorithm: &str) -> u32 {
    match algorithm {
        "dual-path" | "multi-path" => 2,
        "column-path" => 4,
        "qg" => 16,
        _ => 0,
    }
}
