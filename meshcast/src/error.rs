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

/// Any error of the library.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// Bad input.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An invalid plan.
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// Numbers written as the command line writes them: sizes `8x8`, coordinates `3,4`.
fn joined(numbers: &[u32], separator: &str) -> String {
    let words: Vec<String> = numbers.iter().map(u32::to_string).collect();
    words.join(separator)
}
