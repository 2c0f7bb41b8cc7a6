//! Errors as values. Every message names the offending value and what is allowed, so a
//! command-line front end can print it as one line.

use thiserror::Error;

/// Bad input: a topology, a node, a destination set or an algorithm request that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// The topology text is not `mesh:AxB…`, `torus:AxB…` or `hypercube:N`.
    #[error("topology '{0}' is not understood: use mesh:8x8, torus:10x10x10 or hypercube:6")]
    Topology(String),
    /// A number could not be read.
    #[error("'{0}' is not a non-negative whole number")]
    Number(String),
    /// Too few or too many dimensions.
    #[error("a topology needs 1 to {max} dimensions, not {0}", max = crate::topology::MAX_DIMS)]
    DimensionCount(usize),
    /// A dimension of size < 2.
    #[error("dimension {dim} has size {size}: every size must be at least 2")]
    SizeTooSmall {
        /// Which dimension.
        dim: usize,
        /// Its size.
        size: u32,
    },
    /// The node count does not fit.
    #[error("topology {} has more than {max} nodes, the most meshcast handles", joined(.0, "x"), max = crate::topology::MAX_NODES)]
    TooManyNodes(Vec<u32>),
    /// A node id out of range.
    #[error("node id {index} is out of range: the topology has {len} nodes")]
    NodeIndex {
        /// The id given.
        index: usize,
        /// The node count.
        len: usize,
    },
    /// Wrong number of coordinates.
    #[error("a node needs {rank} coordinates, {given} were given")]
    CoordinateCount {
        /// How many were given.
        given: usize,
        /// How many the topology has.
        rank: usize,
    },
    /// A coordinate outside its dimension.
    #[error(
        "node {} is outside the topology: coordinate {dim} must be below {size}",
        joined(coords, ",")
    )]
    CoordinateRange {
        /// The coordinates given.
        coords: Vec<u32>,
        /// The dimension that is out of range.
        dim: usize,
        /// That dimension's size.
        size: u32,
    },
    /// The same destination twice.
    #[error("destination {0} is listed twice")]
    DuplicateNode(String),
    /// The source among the destinations.
    #[error("the source {0} is also listed as a destination")]
    SourceIsDestination(String),
    /// No destinations.
    #[error("the destination set is empty: give at least one destination")]
    NoDestinations,
    /// More destinations than the topology has nodes besides the source.
    #[error("{k} destinations asked for on {topology}: between 1 and {most} are possible")]
    DestinationCount {
        /// How many were asked for.
        k: usize,
        /// How many nodes other than the source there are.
        most: usize,
        /// The topology.
        topology: String,
    },
    /// A setting outside its allowed values.
    #[error("{name} = {value} is not allowed: {allowed}")]
    Setting {
        /// The setting.
        name: &'static str,
        /// The value given.
        value: String,
        /// What is allowed.
        allowed: &'static str,
    },
    /// An algorithm name nobody registered.
    #[error("unknown algorithm '{name}': choose one of {known}")]
    UnknownAlgorithm {
        /// The name given.
        name: String,
        /// The registered names.
        known: String,
    },
    /// An algorithm asked for on a topology its paper does not cover.
    #[error("algorithm '{algo}' does not support {topology}: it runs on {supported}")]
    Unsupported {
        /// The algorithm.
        algo: String,
        /// The topology asked for.
        topology: String,
        /// What it does support.
        supported: String,
    },
}

/// A plan that breaks one of the rules of [`crate::plan::Plan::validate`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
    /// A hop between two nodes that are not neighbours.
    #[error("send {send} hops from {from} to {to}, which is not a link of the topology")]
    NotALink {
        /// Index of the send.
        send: usize,
        /// Tail of the hop.
        from: String,
        /// Head of the hop.
        to: String,
    },
    /// A send that delivers nothing.
    #[error("send {0} delivers no copy anywhere")]
    DeliversNothing(usize),
    /// A sender that does not hold the message when it sends.
    #[error(
        "send {send} leaves {node}, which does not hold the message at that point of the plan"
    )]
    SenderLacksMessage {
        /// Index of the send.
        send: usize,
        /// The sender.
        node: String,
    },
    /// A node that receives the message twice.
    #[error("{0} receives the message more than once")]
    DeliveredTwice(String),
    /// A destination that never receives the message.
    #[error("destination {0} never receives the message")]
    Unreached(String),
    /// The destination list is not a set of nodes other than the source.
    #[error("the plan's destination list is invalid: {0}")]
    Destinations(String),
    /// A tree plan with a send longer than one hop.
    #[error("tree plan send {0} is longer than one hop")]
    TreeHopLength(usize),
    /// A tree with a leaf that is no destination (traffic that serves nobody).
    #[error("tree leaf {0} is not a destination: the branch to it is wasted traffic")]
    UselessLeaf(String),
    /// A destination reached over a longer path than its distance, in a plan that claims shortest paths.
    #[error(
        "destination {node} is reached after {hops} hops but is {distance} hops from the source"
    )]
    NotShortest {
        /// The destination.
        node: String,
        /// Hops along the plan.
        hops: u32,
        /// Graph distance.
        distance: u32,
    },
}

/// Why a run of the flit-level wormhole simulator ([`crate::sim::wormhole`]) could not be made or
/// could not finish.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WormholeError {
    /// Bad settings.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Too few virtual channels to keep the route classes deadlock-free.
    #[error("{vcs} virtual channel(s) per channel cannot run this traffic on {topology} deadlock-free: it needs at least {need} (2 per dimension-ordered class on a torus for the datelines, 1 more for Hamiltonian routes, 4 for sweeping routes such as xy-path's)")]
    VirtualChannels {
        /// The topology.
        topology: String,
        /// Virtual channels asked for.
        vcs: u32,
        /// Virtual channels needed.
        need: u32,
    },
    /// A send whose route the simulator cannot keep deadlock-free.
    #[error("route {route} is not {allowed}: the simulator cannot run it deadlock-free")]
    Route {
        /// The nodes of the route.
        route: String,
        /// The route classes this run has channels for.
        allowed: &'static str,
    },
    /// No flit moved for the watchdog's number of cycles while worms waited.
    #[error("deadlock at cycle {cycle}: no flit moved for {idle} cycles; {}", waiting.join("; "))]
    Deadlock {
        /// The cycle the watchdog fired.
        cycle: u64,
        /// Cycles without progress.
        idle: u64,
        /// The waiting worms (the first few): what each holds and waits for.
        waiting: Vec<String>,
    },
    /// A broken flit count: a simulator bug, never bad input.
    #[error("flit conservation broken at cycle {cycle}: {what}")]
    Conservation {
        /// The cycle.
        cycle: u64,
        /// What did not add up.
        what: String,
    },
}

/// Why a run of the store-and-forward message-set simulator ([`crate::sim::saf`], seed 004) stopped:
/// every variant names the node, step or packet concerned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SafError {
    /// A move or copy that would put more packets in a node's buffer than its bound allows.
    #[error(
        "step {step}: node {node} would hold {would_hold} packets, but its buffer holds at most \
         {capacity}"
    )]
    BufferOverflow {
        /// The step at which it happened (1-based).
        step: u64,
        /// The node (id = x + side·y).
        node: u32,
        /// Occupancy the move would have produced.
        would_hold: u32,
        /// The buffer bound.
        capacity: u32,
    },
    /// No packet could move in a step although some were still travelling: full buffers block
    /// each other.
    #[error(
        "step {step}: routing stalled with {waiting} packets waiting (buffers full; raise --buffer)"
    )]
    Stalled {
        /// The step at which no packet could move.
        step: u64,
        /// Packets still queued.
        waiting: usize,
    },
    /// A packet delivered at a node that is none of its destinations (an algorithm bug).
    #[error("message {msg} was delivered at node {node}, which is not one of its destinations")]
    NotADestination {
        /// The message.
        msg: u32,
        /// The node.
        node: u32,
    },
    /// A second copy of a message reached the same destination.
    #[error("message {msg} was delivered twice at node {node}")]
    DeliveredTwice {
        /// The message.
        msg: u32,
        /// The destination.
        node: u32,
    },
    /// A destination that never received its copy.
    #[error("message {msg} never reached destination {node}")]
    Undelivered {
        /// The message.
        msg: u32,
        /// The destination.
        node: u32,
    },
    /// A buffer bound below what the algorithm needs to be free of deadlock.
    #[error(
        "a buffer of {capacity} packets is too small for {algorithm}: it needs at least {least}"
    )]
    CapacityTooSmall {
        /// The algorithm.
        algorithm: &'static str,
        /// The bound given.
        capacity: u32,
        /// The least bound it accepts.
        least: u32,
    },
    /// The run went beyond its step limit (an aborted guess of seed 004 §6).
    #[error("aborted after {0} steps, the limit of this attempt")]
    StepLimit(u64),
    /// Bad input to an algorithm (a shape or set it does not handle).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A move of [`crate::sim::saf::Sim::step_moves`] that breaks the machine's rules (an algorithm bug).
    #[error("step {step}: a packet cannot move from node {from} to node {to}: {why}")]
    IllegalMove {
        /// The step (1-based).
        step: u64,
        /// The packet's node.
        from: u32,
        /// The node it was sent to.
        to: u32,
        /// The rule broken.
        why: &'static str,
    },
    /// Packets left in buffers when the algorithm declared itself finished.
    #[error("{0} packets were left in buffers at the end")]
    Leftover(u64),
    /// A phase of a phased algorithm (seed 004 §5) delivered nothing new, so repeating it would
    /// never finish: its expansion assumption failed on this instance.
    #[error(
        "{algorithm}: phase {phase} reached no new destination ({open} packets still have \
         unvisited destinations); the paper's expansion assumption fails on this instance"
    )]
    NoProgress {
        /// The algorithm.
        algorithm: &'static str,
        /// The phase (1-based) that made no progress.
        phase: u32,
        /// Packets still open.
        open: usize,
    },
}

impl SafError {
    /// Bad input: setting `name` has `value`, and `allowed` says what it may be.
    pub(crate) fn setting(name: &'static str, value: u32, allowed: &'static str) -> SafError {
        SafError::Input(InputError::Setting {
            name,
            value: value.to_string(),
            allowed,
        })
    }
}

/// Any error of the library.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// Bad input.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An invalid plan.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A flit-level wormhole run that could not be made or finish.
    #[error(transparent)]
    Wormhole(#[from] WormholeError),
    /// A store-and-forward message-set run that stopped.
    #[error(transparent)]
    Saf(#[from] SafError),
}

/// Numbers written as the command line writes them: sizes `8x8`, coordinates `3,4`.
fn joined(numbers: &[u32], separator: &str) -> String {
    let words: Vec<String> = numbers.iter().map(u32::to_string).collect();
    words.join(separator)
}
