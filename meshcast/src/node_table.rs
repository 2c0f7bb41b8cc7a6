//! Per-node tables for one plan that cost the plan, not the topology: what the validator and the
//! playbacks of [`crate::eval`] keep per node, on a topology of any size.
//!
//! A [`NodeTable`] holds a `u32` per node, 0 until set. It is dense — a table the size of the
//! topology, allocated zeroed, so that the pages no node of the plan lies on are never backed —
//! while the topology has at most [`DENSE`] times as many nodes as the plan, and sparse — a hash
//! map of the nodes set — beyond. On an 8192×8192 mesh a dense table is 256 MiB of address
//! space, and a plan whose branches run along columns touches a page per node; three
//! destinations cost a sparse table a few thousand entries.
//!
//! The tables a sweep reuses from plan to plan (`eval`'s per-thread tables, the hold times of
//! [`crate::schedule::Buffers`]) stay plain `Vec`s below [`LARGE`] nodes: they are allocated
//! once, and an access without a test of the kind of table is the cheaper one; [`PerNode`]
//! lets one function play on either. From [`LARGE`] nodes on, where plan after plan would back
//! a reused table's pages up to the whole of it, those plans get tables of their own, and
//! `plan::BySender` keeps its slots in a [`NodeTable::reusable`] one.

use std::collections::HashMap;

/// A topology of at most this many times the plan's nodes gets a dense table: a pass over, or
/// a fill of, that many entries costs less than looking each of the plan's nodes up. The one
/// threshold of the crate's per-node choices between a table of the topology and one of the
/// plan (here, `plan::BySender`'s slots, the hold times' clean-up, the destination draws).
pub(crate) const DENSE: usize = 32;

/// Tables of this many entries or more (128 MiB of `u32`) are not kept dense from one plan to
/// the next: plans would back their pages one by one, up to the whole table.
pub(crate) const LARGE: usize = 1 << 25;

/// A `u32` per node, 0 where none was set: a [`NodeTable`], or a plain table indexed by node.
pub(crate) trait PerNode {
    /// Node `i`'s value.
    fn value(&self, i: usize) -> u32;
    /// Set node `i`'s value.
    fn set(&mut self, i: usize, value: u32);
}

impl PerNode for Vec<u32> {
    #[inline]
    fn value(&self, i: usize) -> u32 {
        self[i]
    }

    #[inline]
    fn set(&mut self, i: usize, value: u32) {
        self[i] = value;
    }
}

/// A `u32` per node of a topology, 0 where none was set (see the module).
#[derive(Clone, Debug)]
pub(crate) enum NodeTable {
    /// Indexed by node, the size of the topology.
    Dense(Vec<u32>),
    /// The nodes set.
    Sparse(HashMap<u32, u32>),
}

impl Default for NodeTable {
    /// An empty dense table.
    fn default() -> NodeTable {
        NodeTable::Dense(Vec::new())
    }
}

impl NodeTable {
    /// A table of a topology of `nodes` nodes for a plan that sets about `plan_nodes` of them:
    /// dense or sparse as the module says.
    pub(crate) fn for_plan(nodes: usize, plan_nodes: usize) -> NodeTable {
        if nodes <= DENSE.saturating_mul(plan_nodes) {
            NodeTable::Dense(vec![0; nodes])
        } else {
            NodeTable::Sparse(HashMap::with_capacity(plan_nodes))
        }
    }

    /// A table to keep from plan to plan, with room for `nodes` nodes: dense below [`LARGE`],
    /// sparse from there on.
    pub(crate) fn reusable(nodes: usize) -> NodeTable {
        if nodes < LARGE {
            NodeTable::Dense(vec![0; nodes])
        } else {
            NodeTable::Sparse(HashMap::new())
        }
    }

    /// Whether node ids below `nodes` fit: always for a sparse table.
    pub(crate) fn fits(&self, nodes: usize) -> bool {
        match self {
            NodeTable::Dense(table) => table.len() >= nodes,
            NodeTable::Sparse(_) => true,
        }
    }

    /// Every value back to 0, where `set` lists every node whose value was set.
    pub(crate) fn reset(&mut self, set: impl IntoIterator<Item = usize>) {
        match self {
            NodeTable::Dense(table) => set.into_iter().for_each(|i| table[i] = 0),
            NodeTable::Sparse(map) => map.clear(),
        }
    }
}

impl PerNode for NodeTable {
    /// Node `i`'s value (0 for a node beyond a dense table).
    #[inline]
    fn value(&self, i: usize) -> u32 {
        match self {
            NodeTable::Dense(table) => table.get(i).copied().unwrap_or(0),
            NodeTable::Sparse(map) => map.get(&(i as u32)).copied().unwrap_or(0),
        }
    }

    #[inline]
    fn set(&mut self, i: usize, value: u32) {
        match self {
            NodeTable::Dense(table) => table[i] = value,
            NodeTable::Sparse(map) => {
                map.insert(i as u32, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_tables_agree() {
        let mut tables = [NodeTable::for_plan(1000, 40), NodeTable::for_plan(1000, 3)];
        assert!(matches!(tables[0], NodeTable::Dense(_)));
        assert!(matches!(tables[1], NodeTable::Sparse(_)));
        for table in &mut tables {
            for i in (0..1000).step_by(7) {
                table.set(i, i as u32 * 3 + 1);
            }
            table.set(14, 0);
        }
        for i in 0..1000 {
            let expected = if i % 7 == 0 && i != 14 {
                i as u32 * 3 + 1
            } else {
                0
            };
            assert_eq!(
                [tables[0].value(i), tables[1].value(i)],
                [expected; 2],
                "node {i}"
            );
        }
    }
}
