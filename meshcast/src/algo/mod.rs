//! Multicast algorithms: one trait, one registry table.
//!
//! Every algorithm implements [`Algorithm`] and has one row in [`REGISTRY`]: its name, family,
//! paper, the topologies its paper covers, the model it was designed for, and whether it claims
//! shortest paths. The command line, the docs and the tests all read that table, so adding an
//! algorithm touches its own file and one row here.
//!
//! A [`Request`] is checked once (distinct destinations, none of them the source) before any
//! algorithm runs; [`AlgoInfo::route`] then checks the topology against the row and returns a
//! [`Plan`]. In debug builds every plan is validated before it is returned.
//!
//! Tree algorithms are written once, for a mesh with the source at its origin
//! ([`reduce::ZoneAlgorithm`], growing a [`local::LocalTree`]), and [`reduce::lift`] carries them
//! to tori and to any source; another crate adds a tree algorithm the same way.

pub mod local;
pub mod path;
pub mod reduce;
pub mod tree;
pub mod unicast;

use std::fmt;

use crate::error::{Error, InputError, PlanError};
use crate::plan::{multicast_fault, MulticastFault, Plan, PlanKind};
use crate::topology::{Kind, Node, Shape};

/// Settings that some algorithms take; the defaults are the papers'. Algorithms that take none
/// ignore them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Qualified Groups' threshold TD (seed 003), in (0, 1]; default 0.5.
    pub td: f64,
    /// Ports a node sends on at once in the multiport unicast algorithm (seed 002), at least 1;
    /// default 2 (the paper's two-port architecture).
    pub ports: u32,
}

impl Default for Params {
    fn default() -> Params {
        Params { td: 0.5, ports: 2 }
    }
}

impl Params {
    /// Check every setting against what its paper allows.
    pub fn check(self) -> Result<Params, InputError> {
        if !(self.td > 0.0 && self.td <= 1.0) {
            return Err(InputError::Setting {
                name: "td",
                value: self.td.to_string(),
                allowed: "a threshold in (0, 1], e.g. 0.5",
            });
        }
        if self.ports == 0 {
            return Err(InputError::Setting {
                name: "ports",
                value: "0".into(),
                allowed: "at least 1 port",
            });
        }
        Ok(self)
    }
}

/// A checked multicast request: a shape, a source, a non-empty set of other nodes, and the
/// settings of the algorithms that take any.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    shape: Shape,
    source: Node,
    destinations: Vec<Node>,
    params: Params,
}

impl Request {
    /// Check and build a request. Destinations keep the order given.
    pub fn new(shape: Shape, source: Node, destinations: Vec<Node>) -> Result<Request, InputError> {
        let out_of_range = |n: Node| InputError::NodeIndex {
            index: n.index(),
            len: shape.len(),
        };
        if let Some(fault) = multicast_fault(&shape, source, &destinations) {
            return Err(match fault {
                MulticastFault::SourceOutOfRange => out_of_range(source),
                MulticastFault::OutOfRange(d) => out_of_range(d),
                MulticastFault::Source(d) => InputError::SourceIsDestination(shape.fmt_node(d)),
                MulticastFault::Twice(d) => InputError::DuplicateNode(shape.fmt_node(d)),
                MulticastFault::Empty => InputError::NoDestinations,
            });
        }
        Ok(Request {
            shape,
            source,
            destinations,
            params: Params::default(),
        })
    }

    /// The same request with other algorithm settings, checked.
    pub fn with_params(self, params: Params) -> Result<Request, InputError> {
        Ok(Request {
            params: params.check()?,
            ..self
        })
    }

    /// The algorithm settings.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Parse a request from the command-line forms: `mesh:8x8`, `0,0`, `"4,6 6,6 0,2"`.
    pub fn parse(topology: &str, source: &str, destinations: &str) -> Result<Request, InputError> {
        let shape: Shape = topology.parse()?;
        let source = shape.parse_node(source)?;
        let dests = shape.parse_nodes(destinations)?;
        Request::new(shape, source, dests)
    }

    /// The topology.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The source.
    pub fn source(&self) -> Node {
        self.source
    }

    /// The destinations.
    pub fn destinations(&self) -> &[Node] {
        &self.destinations
    }
}

/// A multicast routing algorithm: decides routes, returns them as a [`Plan`], computes no metric.
pub trait Algorithm: Sync {
    /// Build the plan for a checked request on a topology the registry row allows.
    fn plan(&self, request: &Request) -> Plan;

    /// [`Algorithm::plan`], written into the memory of a plan the caller is done with where the
    /// algorithm can (the tree algorithms, on topologies below 2²⁵ nodes): a large plan's arrays
    /// are then neither allocated nor faulted in again. The plan is the same either way.
    fn plan_reusing(&self, request: &Request, spent: Plan) -> Plan {
        drop(spent);
        self.plan(request)
    }
}

/// Which topologies an algorithm's paper covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Support {
    /// Meshes.
    pub mesh: bool,
    /// Tori.
    pub torus: bool,
    /// `Some(n)`: only n-dimensional shapes; `None`: any dimension.
    pub only_dims: Option<usize>,
}

impl Support {
    /// Whether `shape` is covered.
    pub fn covers(&self, shape: &Shape) -> bool {
        let kind = match shape.kind() {
            Kind::Mesh => self.mesh,
            Kind::Torus => self.torus,
        };
        kind && self.only_dims.is_none_or(|n| n == shape.rank())
    }
}

impl fmt::Display for Support {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims = match self.only_dims {
            Some(n) => format!("{n}D"),
            None => "n-D".to_string(),
        };
        let kinds = match (self.mesh, self.torus) {
            (true, true) => "mesh, torus",
            (true, false) => "mesh",
            (false, true) => "torus",
            (false, false) => "nothing",
        };
        write!(f, "{dims} {kinds}")
    }
}

/// One row of the registry.
pub struct AlgoInfo {
    /// The name the CLI takes (`vh`, `diag`, `pair-min`, …).
    pub name: &'static str,
    /// Tree, path or unicast (seed 001 §2.1.2.2): the kind of every plan it builds.
    pub family: PlanKind,
    /// Paper and section the implementation follows.
    pub paper: &'static str,
    /// Topologies it runs on.
    pub support: Support,
    /// The switching/port model it was designed for.
    pub model: &'static str,
    /// Whether every destination is reached along a shortest path — checked by the validator on
    /// every plan in tests and debug builds. Where a paper claims it and a counter-example
    /// exists (pair-min), this is `false` and docs/REPRODUCTION.md says why.
    pub shortest_path: bool,
    /// One line on what it does.
    pub summary: &'static str,
    /// The implementation.
    pub algorithm: &'static dyn Algorithm,
}

impl fmt::Debug for AlgoInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AlgoInfo")
            .field("name", &self.name)
            .finish()
    }
}

impl AlgoInfo {
    /// Whether this algorithm runs on `shape`; if not, the error names the topologies it does.
    pub fn check_support(&self, shape: &Shape) -> Result<(), InputError> {
        if self.support.covers(shape) {
            return Ok(());
        }
        Err(InputError::Unsupported {
            algo: self.name.to_string(),
            topology: shape.to_string(),
            supported: self.support.to_string(),
        })
    }

    /// Route `request`, or say why this algorithm cannot. In tests and debug builds the plan is
    /// validated here (an invalid plan is a library bug and panics); release builds trust the
    /// algorithm, so sweeps pay nothing for it. [`AlgoInfo::route_validated`] validates in every
    /// build instead; each plan is validated once either way.
    pub fn route(&self, request: &Request) -> Result<Plan, InputError> {
        let plan = self.route_unvalidated(request)?;
        Ok(self.checked_in_debug(plan, request))
    }

    /// [`AlgoInfo::route`] into the memory of `spent`, a plan the caller is done with
    /// ([`Algorithm::plan_reusing`]), for a loop over many requests (`meshcast bench --reuse`).
    /// The plan is the one [`AlgoInfo::route`] returns.
    ///
    /// ```
    /// use meshcast::{algo, algo::Request};
    /// let vh = algo::find("vh").unwrap();
    /// let (a, b) = (
    ///     Request::parse("mesh:8x8", "0,0", "4,6 6,6 0,2")?,
    ///     Request::parse("mesh:8x8", "3,3", "7,7 0,0")?,
    /// );
    /// let first = vh.route(&a)?;
    /// assert_eq!(vh.route_reusing(&b, first)?, vh.route(&b)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn route_reusing(&self, request: &Request, spent: Plan) -> Result<Plan, InputError> {
        self.check_support(request.shape())?;
        let plan = self.algorithm.plan_reusing(request, spent);
        Ok(self.checked_in_debug(plan, request))
    }

    /// `plan`, validated in tests and debug builds (an invalid plan is a library bug and
    /// panics), trusted in release builds.
    fn checked_in_debug(&self, plan: Plan, request: &Request) -> Plan {
        #[cfg(debug_assertions)]
        if let Err(e) = self.validate(&plan, request) {
            panic!("{} built an invalid plan for {request:?}: {e}", self.name);
        }
        #[cfg(not(debug_assertions))]
        let _ = request;
        plan
    }

    /// Route `request` and validate the plan in every build (what a front end reporting one
    /// plan does): [`Error::Input`] when this algorithm cannot route the request,
    /// [`Error::Plan`] when its plan breaks a rule of [`Plan::validate`] (a library bug).
    pub fn route_validated(&self, request: &Request) -> Result<Plan, Error> {
        let plan = self.route_unvalidated(request)?;
        self.validate(&plan, request)?;
        Ok(plan)
    }

    fn route_unvalidated(&self, request: &Request) -> Result<Plan, InputError> {
        self.check_support(request.shape())?;
        Ok(self.algorithm.plan(request))
    }

    /// The validator's verdict on a plan this algorithm built for `request`.
    fn validate(&self, plan: &Plan, request: &Request) -> Result<(), PlanError> {
        plan.validate(request.shape(), self.shortest_path)
    }
}

const SAF_ONE_PORT: &str = "store-and-forward, one-port";
const WORMHOLE_PATH: &str = "wormhole, path-based";
const WORMHOLE_UNICAST_ONE_PORT: &str = "wormhole, unicast-based, one-port";
const ANY_MESH_TORUS: Support = Support {
    mesh: true,
    torus: true,
    only_dims: None,
};
const MESH_TORUS_2D: Support = Support {
    mesh: true,
    torus: true,
    only_dims: Some(2),
};
const MESH_2D: Support = Support {
    mesh: true,
    torus: false,
    only_dims: Some(2),
};

/// Every algorithm meshcast knows.
pub static REGISTRY: &[AlgoInfo] = &[
    AlgoInfo {
        name: "vh",
        family: PlanKind::Tree,
        paper: "Harutyunyan & Liu (2003), as in seed 001 §3.2.1.1 and seed 000 §2.2.1",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: true,
        summary: "dimension-ordered route to every destination, merged into one tree",
        algorithm: &tree::vh::Vh,
    },
    AlgoInfo {
        name: "dist",
        family: PlanKind::Tree,
        paper: "Harutyunyan & Liu (2003), as in seed 000 §2.2.2",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: false,
        summary: "destinations by distance, each joined to the closest tree node",
        algorithm: &tree::dist::Dist,
    },
    AlgoInfo {
        name: "min",
        family: PlanKind::Tree,
        paper: "Harutyunyan (MIN), as in seed 001 §3.2.2.1 and §3.2.3",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: false,
        summary: "smallest coordinate in each dimension in turn, joined to the closest tree node",
        algorithm: &tree::min::Min,
    },
    AlgoInfo {
        name: "diag",
        family: PlanKind::Tree,
        paper: "Wang, seed 001 §3.2.1 (Algorithms 3.2.1.1–3.2.1.6)",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: true,
        summary:
            "a stem along the diagonal of the multicast zone, destinations joined within their zone",
        algorithm: &tree::diag::Diag,
    },
    AlgoInfo {
        name: "diag-stem",
        family: PlanKind::Tree,
        paper: "seed 000 §2.2.1's DIAG read as: destinations join the stem (issue 17, reading 3)",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: true,
        summary: "DIAG's diagonal stem, each destination joined to the closest stem node within its zone",
        algorithm: &tree::diag_stem::DiagStem,
    },
    AlgoInfo {
        name: "dds",
        family: PlanKind::Tree,
        paper: "Wang, seed 001 §3.2.2 (Algorithms 3.2.2.1–3.2.2.6)",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: true,
        summary: "destinations sorted by dimensional distance, each joined within its zone",
        algorithm: &tree::dds::Dds,
    },
    AlgoInfo {
        name: "rsa",
        family: PlanKind::Tree,
        paper: "Rao, Sadayappan, Hwang & Shor (1992), per zone as in seed 001 §3.1.3 (issue 7)",
        support: ANY_MESH_TORUS,
        model: SAF_ONE_PORT,
        shortest_path: true,
        summary: "rectilinear Steiner arborescence: the two points whose meet lies farthest out merge there, until the source remains",
        algorithm: &tree::rsa::Rsa,
    },
    AlgoInfo {
        name: "pair",
        family: PlanKind::Tree,
        paper: "Malani, seed 000 §3.2 (Algorithms 1–2)",
        support: MESH_TORUS_2D,
        model: SAF_ONE_PORT,
        shortest_path: true,
        summary: "pairs (min x, min y) meet at an intermediate node chained from the last one",
        algorithm: &tree::pair::Pair,
    },
    AlgoInfo {
        name: "pair-min",
        family: PlanKind::Tree,
        paper: "Malani, seed 000 §3.3 (Algorithms 3–4, the thesis's MIN)",
        support: MESH_TORUS_2D,
        model: SAF_ONE_PORT,
        shortest_path: false,
        summary: "one PAIR step, then min x / min y in turn joined to the closest tree node",
        algorithm: &tree::pair_min::PairMin,
    },
    AlgoInfo {
        name: "lin",
        family: PlanKind::Path,
        paper: "Lin's sorted MP, as reviewed in seed 001 §3.3.2",
        support: MESH_2D,
        model: WORMHOLE_PATH,
        shortest_path: false,
        summary: "one worm through the destinations in snake-label order (two if the source is not at label 0)",
        algorithm: &path::lin::Lin,
    },
    AlgoInfo {
        name: "dual-path",
        family: PlanKind::Path,
        paper: "Lin, McKinley & Ni (1994), as in seed 003 §2; labels and R(u,v) of seed 002 §2.2",
        support: ANY_MESH_TORUS,
        model: WORMHOLE_PATH,
        shortest_path: false,
        summary: "one worm up the high channels through the destinations labelled above the source, one down the low",
        algorithm: &path::dual_path::DualPath,
    },
    AlgoInfo {
        name: "multi-path",
        family: PlanKind::Path,
        paper: "Lin, McKinley & Ni (1994), as in seed 003 §2; labels and R(u,v) of seed 002 §2.2",
        support: ANY_MESH_TORUS,
        model: WORMHOLE_PATH,
        shortest_path: false,
        summary: "dual-path's two sets split by the source's channel: up to 2n worms, one per channel",
        algorithm: &path::multi_path::MultiPath,
    },
    AlgoInfo {
        name: "xy-path",
        family: PlanKind::Path,
        paper: "Wang, seed 001 §3.3.3 (Algorithms 3.3.1–3.3.2)",
        support: MESH_2D,
        model: WORMHOLE_PATH,
        shortest_path: false,
        summary: "the mesh split into a row path X and a column path Y from the source; one worm along each",
        algorithm: &path::xy_path::XyPath,
    },
    AlgoInfo {
        name: "column-path",
        family: PlanKind::Path,
        paper: "Boppana, Chalasani & Raghavendra (1994/1998), as in seed 003 §2",
        support: Support {
            mesh: true,
            torus: false,
            only_dims: None,
        },
        model: WORMHOLE_PATH,
        shortest_path: true,
        summary: "destinations split by column and side of the source's row: at most two dimension-ordered worms per column",
        algorithm: &path::column_path::ColumnPath,
    },
    AlgoInfo {
        name: "qg",
        family: PlanKind::Path,
        paper: "Al-Dubai, Ould-Khaoua & Romdhani (2007), seed 003 §3 (Phases 1–4, Definitions 3–8)",
        support: Support {
            mesh: true,
            torus: false,
            only_dims: None,
        },
        model: WORMHOLE_PATH,
        shortest_path: false,
        summary: "qualified groups of comparable weight (threshold TD); the source reaches one representative per group, which covers the group",
        algorithm: &path::qg::Qg,
    },
    AlgoInfo {
        name: "separate",
        family: PlanKind::Unicast,
        paper: "separate addressing, as in seed 001 §2.1.2.2 and seed 002 §1",
        support: ANY_MESH_TORUS,
        model: WORMHOLE_UNICAST_ONE_PORT,
        shortest_path: true,
        summary: "the source unicasts to every destination along its dimension-ordered route",
        algorithm: &unicast::separate::Separate,
    },
    AlgoInfo {
        name: "u-mesh",
        family: PlanKind::Unicast,
        paper: "McKinley, Xu, Esfahanian & Ni (1994), as in seed 001 §2.2 and §2.1.2.4.3",
        support: Support {
            mesh: true,
            torus: false,
            only_dims: None,
        },
        model: WORMHOLE_UNICAST_ONE_PORT,
        shortest_path: false,
        summary: "recursive halving of the dimension-ordered chain: ⌈log₂(m+1)⌉ steps, contention-free",
        algorithm: &unicast::u_mesh::UMesh,
    },
    AlgoInfo {
        name: "u-torus",
        family: PlanKind::Unicast,
        paper: "Robinson, McKinley & Cheng (1995), as in seed 001 §2.2",
        support: Support {
            mesh: false,
            torus: true,
            only_dims: None,
        },
        model: WORMHOLE_UNICAST_ONE_PORT,
        shortest_path: false,
        summary: "recursive halving of the chain ordered relative to the source: ⌈log₂(m+1)⌉ steps",
        algorithm: &unicast::u_torus::UTorus,
    },
    AlgoInfo {
        name: "multiport",
        family: PlanKind::Unicast,
        paper: "seed 002 §3 (Definitions 5–6, Figure 4, Theorems 1–3), generalised to d ports",
        support: MESH_TORUS_2D,
        model: "wormhole, unicast-based, d-port (default 2)",
        shortest_path: false,
        summary: "each holder sends two thirds of each side of its labelling-ordered chain to their centres, one unicast per side per step (d/2 with d ports)",
        algorithm: &unicast::multiport::Multiport,
    },
];

/// The registry row named `name`.
pub fn find(name: &str) -> Result<&'static AlgoInfo, InputError> {
    REGISTRY
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| InputError::UnknownAlgorithm {
            name: name.to_string(),
            known: REGISTRY
                .iter()
                .map(|a| a.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An algorithm that forgets its destinations: its plan has no sends.
    struct Forgetful;

    impl Algorithm for Forgetful {
        fn plan(&self, request: &Request) -> Plan {
            let dests = request.destinations().to_vec();
            Plan::new(PlanKind::Tree, request.source(), dests)
        }
    }

    fn forgetful() -> AlgoInfo {
        AlgoInfo {
            name: "forgetful",
            family: PlanKind::Tree,
            paper: "none",
            support: ANY_MESH_TORUS,
            model: SAF_ONE_PORT,
            shortest_path: false,
            summary: "builds invalid plans",
            algorithm: &Forgetful,
        }
    }

    #[test]
    fn route_validated_refuses_an_invalid_plan_and_passes_a_valid_one() {
        let req = Request::parse("mesh:4x4", "0,0", "2,1 3,3").unwrap();
        let invalid = forgetful().route_validated(&req);
        assert!(matches!(invalid, Err(Error::Plan(_))), "{invalid:?}");
        let vh = find("vh").unwrap();
        assert_eq!(vh.route_validated(&req).unwrap(), vh.route(&req).unwrap());
        let cube = Request::parse("mesh:4x4x4", "0,0,0", "1,1,1").unwrap();
        let unsupported = find("pair").unwrap().route_validated(&cube);
        assert!(
            matches!(unsupported, Err(Error::Input(_))),
            "{unsupported:?}"
        );
    }

    /// A plan written into a spent one's memory is the plan [`AlgoInfo::route`] returns, for
    /// every algorithm, whether the spent plan was larger or smaller, of the same algorithm or
    /// another.
    #[test]
    fn a_reused_plan_is_the_routed_one() {
        use crate::workload::{random_destinations, seeded};
        use rand::RngExt;
        let mut rng = seeded(21);
        for shape in ["mesh:40x30", "torus:20x20", "mesh:8x8x8"] {
            let shape: Shape = shape.parse().unwrap();
            let mut spent = None;
            for k in [300, 3, 120, 380, 40] {
                let source = Node(rng.random_range(0..shape.len() as u32));
                let dests = random_destinations(&shape, source, k, &mut rng).unwrap();
                let req = Request::new(shape.clone(), source, dests).unwrap();
                for info in REGISTRY.iter().filter(|a| a.support.covers(&shape)) {
                    let plan = info.route(&req).unwrap();
                    let reused = match spent.take() {
                        Some(spent) => info.route_reusing(&req, spent).unwrap(),
                        None => info.route(&req).unwrap(),
                    };
                    assert_eq!(reused, plan, "{} on {shape}, K = {k}", info.name);
                    spent = Some(reused);
                }
            }
        }
    }
}
