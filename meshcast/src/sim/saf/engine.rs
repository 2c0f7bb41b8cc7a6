//! The synchronous store-and-forward mesh of seed 004 §2.1.
//!
//! Every node has an input queue (the message it sources, before injection), a buffer of at most
//! [`Capacity`] packets, and an output queue (messages delivered to it). Time is divided into
//! steps; in one step a packet crosses one link, or one copy of it is made — never both — and each
//! directed link carries at most one packet. A packet that reaches a destination it is meant to
//! deliver leaves the network into the output queue (it needs no buffer slot there).
//!
//! Algorithms drive the machine in phases, each a batch of steps:
//! - [`Sim::replicate`]: copies made in place, one copy per packet per step;
//! - [`Sim::route`]: greedy dimension-order (x then y) routing of packets to given targets, first
//!   in first out on every output link, with back-pressure: a packet enters a neighbour only if the
//!   neighbour's buffer has a free slot counted at the start of the step (departures free their
//!   slot from the next step on). Packets fed from a master ([`Sim::route`]'s `feeds`) are unicast
//!   copies made one per step at the master's node, as naive replication does;
//! - [`Sim::step_moves`]: one step of explicit moves between neighbours, for primitives that
//!   schedule every link themselves (the compare–exchanges of mesh sorting, [`super::sort`]);
//! - [`Sim::word_steps`]: the steps and link transmissions of control words (the prefix sums of
//!   [`super::prefix`]), which live in node registers, not in the packet buffer.
//!
//! A copy into a full buffer is refused with [`SafError::BufferOverflow`]; routing that cannot move
//! any packet in a step fails with [`SafError::Stalled`]. The work per step is proportional to the
//! packets that move (plus one bit per node): flat arrays, one FIFO per output link whose entries
//! carry the packet's target (so a hop never reads the packet table) — a cache line holding its
//! first packets, the rest spilled into an arena of blocks with a free list —, the active nodes
//! as a bitset, and no allocation in the step loop once the queues have grown.
//!
//! **Threads.** With unbounded buffers every queue head moves in every step, so a routing step
//! runs on one thread per band of mesh rows (`bands.rs`, rayon) in two phases: the nodes at the
//! edges of every band send, then every band sweeps its words of 64 nodes, sending a row ahead
//! and receiving behind, so that a node's queues are popped and pushed while their cache lines are
//! still at hand. The machine's tie-breaking is kept: the arrivals at a node are queued in the
//! order of the senders' positions on the active list, as the single-threaded step takes them,
//! and new list positions and freed packet ids are assigned in that order too. Results are the
//! same bit for bit whatever the number of threads. A routing runs on a worker of the pool (the
//! steps' fork–joins then never put the calling thread to sleep), enters its packets band by
//! band, and the node a packet stops at is written by the band that receives it. With bounded
//! buffers the flow control decides every move from the moves before it in the step, so those
//! steps run on one thread.

use std::hint::select_unpredictable;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::bands::{self, Band, Delivery, Links};
use super::msets::MessageSet;
use crate::error::SafError;

/// The fewest nodes worth a band (and a thread) of their own.
const MIN_BAND_NODES: u32 = 1024;

/// A buffer bound in packets, the same at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Capacity {
    /// No bound (the occupancy is still measured).
    #[default]
    Unbounded,
    /// At most this many packets (≥ 1).
    Packets(u32),
}

impl Capacity {
    fn limit(self) -> u32 {
        match self {
            Capacity::Unbounded => u32::MAX,
            Capacity::Packets(b) => b,
        }
    }
}

/// A packet in the simulator (an index into its packet table; ids are reused after a packet
/// leaves the network).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PacketId(u32);

impl PacketId {
    /// The packet's index in the packet table: dense, below the most packets ever alive at once,
    /// so algorithms can keep per-packet data in flat arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The packet of table index `index` (for primitives that pack ids into their own arrays).
    pub(super) fn from_index(index: u32) -> PacketId {
        PacketId(index)
    }
}

/// What a routed packet does at its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Stay in the target's buffer (an intermediate node).
    Hold,
    /// Deliver the message to the target, which must be one of the packet's destinations, and
    /// leave the network.
    Deliver,
}

/// A packet's header: its message and the destination slots it still carries, a range into
/// [`MessageSet::slots`] of the message's destinations. The node holding it is kept apart, in
/// [`Sim`]'s `at` (up to date between routing phases, not while it travels), which the bands
/// write in parallel.
#[derive(Clone, Copy, Debug)]
struct Packet {
    msg: u32,
    lo: u32,
    hi: u32,
}

/// A packet on its way: the queue entries carry the target, so moving a packet never touches the
/// packet table (the simulator's speed is bound by memory traffic).
#[derive(Clone, Copy, Debug)]
pub(super) struct Travel {
    pub packet: u32,
    pub target: u32,
    pub deliver: bool,
}

/// The totals of one simulation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Run {
    /// Synchronous steps, all phases together.
    pub steps: u64,
    /// Packet transmissions over links (link traffic).
    pub packet_hops: u64,
    /// Control-word transmissions over links (prefix computations).
    pub word_hops: u64,
    /// Copies of packets made.
    pub copies: u64,
    /// Messages delivered into output queues.
    pub deliveries: u64,
    /// Copies of a message that reached a destination already holding it and were discarded
    /// there (only on a machine built with [`Sim::discarding_duplicates`]; otherwise a second
    /// copy is an error).
    pub duplicates: u64,
    /// The largest buffer occupancy any node reached.
    pub max_buffer: u32,
    /// Per node (id = x + side·y), the largest buffer occupancy it reached.
    pub buffer_peaks: Vec<u32>,
    /// Steps per named phase, in order.
    pub phases: Vec<(&'static str, u64)>,
}

/// The machine: a `side × side` mesh routing the packets of one [`MessageSet`].
pub struct Sim<'a> {
    set: &'a MessageSet,
    side: u32,
    limit: u32,
    packets: Vec<Packet>,
    at: Vec<AtomicU32>,
    free_ids: Vec<u32>,
    occupancy: Vec<u32>,
    delivered: Vec<u8>,
    run: Run,
    phase_start: u64,
    step_limit: u64,
    discard_duplicates: bool,
    // Routing state: the nodes in bands of `band_nodes`, each band with its nodes' FIFOs (per
    // output direction +x, −x, +y, −y) and active bits.
    bands: Vec<Band>,
    band_nodes: u32,
    // Unbounded routing: per node and direction what it sent in the last step, the nodes that
    // sent (per word of 64 nodes, one bitset word per direction), per node its position on the active list (`next_stamp` the next one), the
    // number of active nodes, and the ordered events of a step.
    out: Vec<AtomicU64>,
    sent: Vec<AtomicU64>,
    stamp: Vec<u64>,
    next_stamp: u64,
    active_count: usize,
    activated: Vec<(u64, u32)>,
    handed: Vec<Delivery>,
    // Bounded routing: the packets entering each node (and for each direction) in the current
    // step, per node the packets of the current routing that will stay there and have not
    // arrived, the active list in order, and the moves of the step.
    incoming: Vec<u32>,
    incoming_dir: Vec<u32>,
    pending: Vec<u32>,
    active: Vec<u32>,
    newly_active: Vec<u32>,
    moves: Vec<(Travel, u32, u32)>,
    // `step_moves` scratch: the last step in which each directed link (node·4 + direction) and
    // each packet moved, so a step's checks need no clearing.
    link_used: Vec<u64>,
    packet_moved: Vec<u64>,
    // Per node x | y << 16.
    xy: Vec<u32>,
}

impl<'a> Sim<'a> {
    /// A machine for `set` with buffers bounded by `capacity`; every message still sits in its
    /// source's input queue.
    pub fn new(set: &'a MessageSet, capacity: Capacity) -> Sim<'a> {
        let n = set.len();
        let unbounded = capacity == Capacity::Unbounded;
        let threads = if unbounded {
            rayon::current_num_threads() as u32
        } else {
            1
        };
        let band_nodes = (n as u32)
            .div_ceil(threads.min(n as u32 / MIN_BAND_NODES).max(1))
            .next_multiple_of(bands::WORD);
        let bands = (0..n as u32)
            .step_by(band_nodes as usize)
            .map(|first| Band::new(first, band_nodes.min(n as u32 - first)))
            .collect();
        let per_node = |k: usize| if unbounded { k * n } else { 0 };
        Sim {
            set,
            side: set.side(),
            limit: capacity.limit(),
            packets: Vec::new(),
            at: Vec::new(),
            free_ids: Vec::new(),
            occupancy: vec![0; n],
            delivered: vec![0; set.deliveries()],
            run: Run {
                buffer_peaks: vec![0; n],
                ..Run::default()
            },
            phase_start: 0,
            step_limit: u64::MAX,
            discard_duplicates: false,
            bands,
            band_nodes,
            out: (0..per_node(4)).map(|_| AtomicU64::new(0)).collect(),
            sent: (0..4 * per_node(1).div_ceil(bands::WORD as usize))
                .map(|_| AtomicU64::new(0))
                .collect(),
            stamp: vec![0; per_node(1)],
            next_stamp: 0,
            active_count: 0,
            activated: Vec::new(),
            handed: Vec::new(),
            incoming: vec![0; n],
            incoming_dir: vec![0; 4 * n],
            pending: vec![0; n],
            active: Vec::new(),
            newly_active: Vec::new(),
            moves: Vec::new(),
            link_used: vec![0; 4 * n],
            packet_moved: Vec::new(),
            xy: (0..n as u32)
                .map(|v| (v % set.side()) | ((v / set.side()) << 16))
                .collect(),
        }
    }

    /// Makes every step beyond `limit` fail with [`SafError::StepLimit`] (the abort of seed 004
    /// §6).
    pub fn with_step_limit(mut self, limit: u64) -> Sim<'a> {
        self.step_limit = limit;
        self
    }

    /// Lets a destination that already holds a message discard a further copy of it, counted in
    /// [`Run::duplicates`], instead of failing with [`SafError::DeliveredTwice`]. Seed 004 §5
    /// needs it: the r replicas of one packet travel in different groups and learn of each
    /// other's deliveries only when they are coalesced at the end of a phase, so two of them may
    /// both reach a destination; the destination recognises the message in its output queue
    /// (O(1) work on the packet) and drops the copy.
    pub fn discarding_duplicates(mut self) -> Sim<'a> {
        self.discard_duplicates = true;
        self
    }

    /// The totals so far (also after a failed phase, for the cost of an aborted attempt).
    pub fn totals(&self) -> &Run {
        &self.run
    }

    /// The message set being routed.
    pub fn set(&self) -> &'a MessageSet {
        self.set
    }

    /// Moves every message with at least one destination from its source's input queue into the
    /// source's buffer as a packet carrying all its destinations (no step: injection is neither a
    /// transmission nor a copy). Returns the packets in source order.
    pub fn inject_all(&mut self) -> Result<Vec<PacketId>, SafError> {
        let mut out = Vec::with_capacity(self.set.len());
        for msg in 0..self.set.len() as u32 {
            let slots = self.set.slots(msg);
            if !slots.is_empty() {
                out.push(self.add_packet(msg, slots, msg)?);
            }
        }
        Ok(out)
    }

    /// The node holding packet `p`.
    pub fn at(&self, p: PacketId) -> u32 {
        self.at[p.0 as usize].load(Relaxed)
    }

    /// Puts packet `p` at node `v`.
    fn place(&mut self, p: u32, v: u32) {
        *self.at[p as usize].get_mut() = v;
    }

    /// The message of packet `p`.
    pub fn msg(&self, p: PacketId) -> u32 {
        self.packets[p.0 as usize].msg
    }

    /// The destination slots packet `p` carries.
    pub fn slots(&self, p: PacketId) -> Range<u32> {
        let pk = &self.packets[p.0 as usize];
        pk.lo..pk.hi
    }

    /// Rewrites packet `p`'s header to carry only `slots`, which must lie within its message's
    /// destinations (stripping addresses is O(1) work on the header, no step).
    pub fn set_slots(&mut self, p: PacketId, slots: Range<u32>) {
        let pk = &mut self.packets[p.0 as usize];
        let all = self.set.slots(pk.msg);
        assert!(
            all.start <= slots.start && slots.end <= all.end && slots.start <= slots.end,
            "slots {slots:?} outside message {}'s {all:?}",
            pk.msg
        );
        pk.lo = slots.start;
        pk.hi = slots.end;
    }

    /// Removes packet `p` from its node's buffer.
    pub fn discard(&mut self, p: PacketId) {
        let at = self.at(p);
        self.occupancy[at as usize] -= 1;
        self.free_ids.push(p.0);
    }

    /// Makes `count` copies of every listed packet at its node, one copy per packet per step (so
    /// `max count` steps); each copy carries its original's destination slots. Returns the copies
    /// job after job. A copy that does not fit its node's buffer fails with
    /// [`SafError::BufferOverflow`]. The work is proportional to the jobs and the copies: each
    /// step goes through the jobs still copying, not all of them.
    pub fn replicate(&mut self, jobs: &[(PacketId, u32)]) -> Result<Vec<PacketId>, SafError> {
        let total: usize = jobs.iter().map(|&(_, k)| k as usize).sum();
        let mut out = vec![PacketId(u32::MAX); total];
        // Per job still copying, in job order: its packet, copies left, next place in `out`.
        let mut live = Vec::new();
        let mut start = 0usize;
        for &(p, k) in jobs {
            if k > 0 {
                live.push((p, k, start));
            }
            start += k as usize;
        }
        while !live.is_empty() {
            self.tick()?;
            for (p, left, next) in &mut live {
                let pk = self.packets[p.0 as usize];
                out[*next] = self.add_packet(pk.msg, pk.lo..pk.hi, self.at(*p))?;
                self.run.copies += 1;
                (*left, *next) = (*left - 1, *next + 1);
            }
            live.retain(|&(_, left, _)| left > 0);
        }
        Ok(out)
    }

    /// One step in which every `(packet, node)` crosses the link from its packet's node to `node`,
    /// which must be a neighbour; each directed link carries at most one packet and each packet
    /// moves at most once (else [`SafError::IllegalMove`], before anything moves). Departures
    /// free their slots within the step, so two neighbours may swap packets in full buffers; an
    /// arrival that leaves more packets than the bound fails with [`SafError::BufferOverflow`].
    pub fn step_moves(&mut self, moves: &[(PacketId, u32)]) -> Result<(), SafError> {
        self.tick()?;
        let step = self.run.steps;
        if self.packet_moved.len() < self.packets.len() {
            self.packet_moved.resize(self.packets.len(), 0);
        }
        for &(p, to) in moves {
            let from = self.at(p);
            let illegal = |why| SafError::IllegalMove {
                step,
                from,
                to,
                why,
            };
            if to as usize >= self.occupancy.len() || self.distance(from, to) != 1 {
                return Err(illegal("not a neighbour"));
            }
            let link = (from * 4 + self.direction(from, to)) as usize;
            if self.link_used[link] == step {
                return Err(illegal("the link already carries a packet in this step"));
            }
            if self.packet_moved[p.index()] == step {
                return Err(illegal("the packet already moves in this step"));
            }
            self.link_used[link] = step;
            self.packet_moved[p.index()] = step;
        }
        for &(p, _) in moves {
            let from = self.at(p);
            self.occupancy[from as usize] -= 1;
        }
        for &(p, to) in moves {
            self.place(p.0, to);
            if self.occupancy[to as usize] >= self.limit {
                return Err(SafError::BufferOverflow {
                    step,
                    node: to,
                    would_hold: self.occupancy[to as usize] + 1,
                    capacity: self.limit,
                });
            }
            self.occupancy[to as usize] += 1;
            let peak = &mut self.run.buffer_peaks[to as usize];
            *peak = (*peak).max(self.occupancy[to as usize]);
        }
        self.run.packet_hops += moves.len() as u64;
        Ok(())
    }

    /// Adds `steps` steps in which `words` control words crossed links (a prefix computation of
    /// [`super::prefix`]).
    pub fn word_steps(&mut self, steps: u64, words: u64) -> Result<(), SafError> {
        self.run.steps += steps;
        self.run.word_hops += words;
        self.check_limit()
    }

    fn tick(&mut self) -> Result<(), SafError> {
        self.run.steps += 1;
        self.check_limit()
    }

    /// Past the limit, the attempt stops at step limit + 1 (a charged schedule is cut there).
    fn check_limit(&mut self) -> Result<(), SafError> {
        if self.run.steps > self.step_limit {
            self.run.steps = self.step_limit + 1;
            return Err(SafError::StepLimit(self.step_limit));
        }
        Ok(())
    }

    /// Records the steps since the previous mark as phase `name`.
    pub fn mark(&mut self, name: &'static str) {
        self.run
            .phases
            .push((name, self.run.steps - self.phase_start));
        self.phase_start = self.run.steps;
    }

    /// Routes every `(packet, target)` to its target greedily in dimension order (x, then y), and
    /// at the same time drains every feed: a feed is a master packet that, one step after another,
    /// emits a unicast copy to each of its destination slots but the last, to which it travels
    /// itself. Routed packets do `arrival` at their target; fed packets deliver. Returns when
    /// every packet has arrived.
    ///
    /// Flow control keeps one slot of every node's buffer in reserve for each output direction
    /// that has no packet waiting and for each packet on its way to stay there (`Arrival::Hold`);
    /// with bounded buffers this makes the routing free of deadlock provided every node starts
    /// with at most capacity − 4 − (packets that will stay there) packets. Otherwise the routing
    /// may stop with [`SafError::Stalled`].
    pub fn route(
        &mut self,
        packets: &[(PacketId, u32)],
        feeds: &[PacketId],
        arrival: Arrival,
    ) -> Result<(), SafError> {
        if self.bands.len() > 1 && rayon::current_thread_index().is_none() {
            // On a worker of the pool, a step's fork–joins hand the bands to the other workers
            // without putting this thread to sleep and waking it twice per step.
            return rayon::scope(|_| self.route_steps(packets, feeds, arrival));
        }
        self.route_steps(packets, feeds, arrival)
    }

    /// [`Sim::route`] on the current thread.
    fn route_steps(
        &mut self,
        packets: &[(PacketId, u32)],
        feeds: &[PacketId],
        arrival: Arrival,
    ) -> Result<(), SafError> {
        let deliver = arrival == Arrival::Deliver;
        if self.bounded() {
            for &(p, target) in packets {
                let at = self.at(p);
                if !deliver && target != at {
                    self.pending[target as usize] += 1;
                }
                let travel = Travel {
                    packet: p.0,
                    target,
                    deliver,
                };
                self.enter(travel, at)?;
            }
        } else {
            self.enter_bands(packets, deliver)?;
        }
        self.activate_new();
        let mut feeding: Vec<u32> = feeds.iter().map(|p| p.0).collect();
        let mut fresh: Vec<Travel> = Vec::new();
        while self.active_nodes() > 0 || !feeding.is_empty() {
            self.tick()?;
            let copied = self.feed(&mut feeding, &mut fresh)?;
            self.activate_new();
            let moved = if self.bounded() {
                self.select_moves();
                self.moves.len()
            } else {
                self.step_bands()?
            };
            if moved == 0 && copied == 0 {
                let waiting = self.active_nodes() + feeding.len();
                return Err(SafError::Stalled {
                    step: self.run.steps,
                    waiting,
                });
            }
            if self.bounded() {
                self.apply_moves()?;
            }
            for t in fresh.drain(..) {
                let at = self.at(PacketId(t.packet));
                self.enter(t, at)?;
            }
            self.activate_new();
        }
        Ok(())
    }

    /// Checks that every destination received its message exactly once (at least once, the
    /// further copies counted in [`Run::duplicates`], on a machine built with
    /// [`Sim::discarding_duplicates`]) and that no packet is left, and returns the totals.
    pub fn finish(mut self) -> Result<Run, SafError> {
        for msg in 0..self.set.len() as u32 {
            for s in self.set.slots(msg) {
                if self.delivered[s as usize] == 0 {
                    let node = self.set.dest(s);
                    return Err(SafError::Undelivered { msg, node });
                }
            }
        }
        let left: u64 = self.occupancy.iter().map(|&o| u64::from(o)).sum();
        if left > 0 {
            return Err(SafError::Leftover(left));
        }
        self.run.max_buffer = self.run.buffer_peaks.iter().copied().max().unwrap_or(0);
        Ok(self.run)
    }

    fn add_packet(&mut self, msg: u32, slots: Range<u32>, at: u32) -> Result<PacketId, SafError> {
        self.occupy(at)?;
        let pk = Packet {
            msg,
            lo: slots.start,
            hi: slots.end,
        };
        let id = bands::store(&mut self.packets, &mut self.free_ids, pk);
        if id as usize == self.at.len() {
            self.at.push(AtomicU32::new(at));
        } else {
            self.place(id, at);
        }
        Ok(PacketId(id))
    }

    fn occupy(&mut self, node: u32) -> Result<(), SafError> {
        let o = &mut self.occupancy[node as usize];
        if *o >= self.limit {
            return Err(SafError::BufferOverflow {
                step: self.run.steps.max(1),
                node,
                would_hold: *o + 1,
                capacity: self.limit,
            });
        }
        *o += 1;
        let peak = &mut self.run.buffer_peaks[node as usize];
        *peak = (*peak).max(*o);
        Ok(())
    }

    /// Packet `t` (already counted in `at`'s buffer) is at `at`: arrive, or queue for the next
    /// link.
    fn enter(&mut self, t: Travel, at: u32) -> Result<(), SafError> {
        if t.target == at {
            self.place(t.packet, at);
            if t.deliver {
                self.hand_over(t.packet)?;
                self.discard(PacketId(t.packet));
            }
            return Ok(());
        }
        let dir = self.direction(at, t.target);
        let band = self.band(at);
        self.bands[band].push(at, dir, t);
        if !self.bands[band].is_active(at) {
            self.bands[band].set_active(at, true);
            self.join_active(at);
        }
        Ok(())
    }

    /// Unbounded routing's entry of `packets`, as [`Sim::enter`] in list order: every band queues
    /// the packets at its nodes on the rayon pool and notes, by list position, the nodes it made
    /// active and the packets already at the node they deliver to; the new list positions and
    /// the hand-overs are then applied in list order.
    fn enter_bands(&mut self, packets: &[(PacketId, u32)], deliver: bool) -> Result<(), SafError> {
        let (table, xy) = (&self.at, &self.xy[..]);
        let at = |p: PacketId| table[p.index()].load(Relaxed);
        self.bands
            .par_iter_mut()
            .for_each(|band| band.enter(packets, deliver, at, xy));
        let mut activated = std::mem::take(&mut self.activated);
        activated.clear();
        let mut arrived = Vec::new();
        for band in &self.bands {
            activated.extend_from_slice(&band.activated);
            arrived.extend_from_slice(&band.arrived);
        }
        // Each band's lists are in list order: the sorts merge them.
        activated.sort_by_key(|a| a.0);
        arrived.sort_unstable();
        for &(_, v) in &activated {
            self.join_active(v);
        }
        self.activated = activated;
        arrived.into_iter().try_for_each(|i| {
            let p = packets[i as usize].0;
            self.hand_over(p.0)?;
            self.discard(p);
            Ok(())
        })
    }

    /// Node `u` joins the end of the active list.
    fn join_active(&mut self, u: u32) {
        if self.bounded() {
            self.newly_active.push(u);
        } else {
            self.stamp[u as usize] = self.next_stamp;
            self.next_stamp += 1;
            self.active_count += 1;
        }
    }

    /// Packet `p` crossed a link into `v`, one of its destinations: it goes straight into the
    /// output queue (it never holds a buffer slot there) and leaves.
    fn deliver_on_arrival(&mut self, p: u32, v: u32) -> Result<(), SafError> {
        self.place(p, v);
        self.hand_over(p)?;
        self.free_ids.push(p);
        Ok(())
    }

    /// Packet `p`, at one of its destinations, hands its message to the output queue.
    fn hand_over(&mut self, p: u32) -> Result<(), SafError> {
        let at = self.at(PacketId(p));
        let found = destination(&self.packets, self.set, p, at);
        self.accept(found, at)
    }

    /// Node `node` takes a message into its output queue: `found` is the message and the slot of
    /// `node` among its destinations, if it is one.
    fn accept(&mut self, found: (u32, Option<u32>), node: u32) -> Result<(), SafError> {
        match found {
            (msg, Some(slot)) => self.record(msg, slot),
            (msg, None) => Err(SafError::NotADestination { msg, node }),
        }
    }

    /// If the node holding packet `p` is one of its destinations, hands it the message (no step:
    /// as on arrival); the packet stays. For packets that circulate past their destinations.
    pub fn deliver_here(&mut self, p: PacketId) -> Result<(), SafError> {
        self.deliver_here_if(p, |_| true)
    }

    /// As [`Sim::deliver_here`], but only if `keep` accepts the destination slot (a copy whose
    /// header marks that destination as visited by another copy passes it by).
    pub fn deliver_here_if(
        &mut self,
        p: PacketId,
        keep: impl Fn(u32) -> bool,
    ) -> Result<(), SafError> {
        let pk = self.packets[p.0 as usize];
        match self.set.find(pk.lo..pk.hi, self.at(p)) {
            Some(slot) if keep(slot) => self.record(pk.msg, slot),
            _ => Ok(()),
        }
    }

    fn record(&mut self, msg: u32, slot: u32) -> Result<(), SafError> {
        let node = self.set.dest(slot);
        if self.delivered[slot as usize] > 0 {
            if self.discard_duplicates {
                self.run.duplicates += 1;
                return Ok(());
            }
            return Err(SafError::DeliveredTwice { msg, node });
        }
        self.delivered[slot as usize] = 1;
        self.run.deliveries += 1;
        Ok(())
    }

    /// Drops the nodes whose queues emptied from the active list and adds the newly active ones
    /// (the stamps of unbounded routing already order those).
    fn activate_new(&mut self) {
        if !self.bounded() {
            for band in &mut self.bands {
                for i in 0..band.emptied.len() {
                    let u = band.emptied[i];
                    if !band.has_queue(u) {
                        band.set_active(u, false);
                        self.active_count -= 1;
                    }
                }
                band.emptied.clear();
            }
            return;
        }
        let mut kept = 0;
        for i in 0..self.active.len() {
            let u = self.active[i];
            let band = &mut self.bands[(u / self.band_nodes) as usize];
            if band.has_queue(u) {
                self.active[kept] = u;
                kept += 1;
            } else {
                band.set_active(u, false);
            }
        }
        self.active.truncate(kept);
        self.active.append(&mut self.newly_active);
    }

    /// The nodes on the active list.
    fn active_nodes(&self) -> usize {
        if self.bounded() {
            self.active.len()
        } else {
            self.active_count
        }
    }

    fn bounded(&self) -> bool {
        self.limit != u32::MAX
    }

    /// The band holding node `u`.
    fn band(&self, u: u32) -> usize {
        (u / self.band_nodes) as usize
    }

    /// One step of unbounded routing: every active node sends the head of each non-empty queue
    /// and every node takes in what reached it, band by band on the rayon pool; then the events
    /// that need the single-threaded order are applied in it. Returns the packets moved.
    fn step_bands(&mut self) -> Result<usize, SafError> {
        let (packets, set) = (&self.packets, self.set);
        let links = Links {
            destination: &|p, v| destination(packets, set, p, v),
            at: &self.at,
            out: &self.out,
            sent: &self.sent,
            stamp: &self.stamp,
            xy: &self.xy,
            side: self.side,
        };
        let (nodes, peaks) = (self.band_nodes as usize, &mut self.run.buffer_peaks);
        let bands = (&mut self.bands[..], &mut self.occupancy[..], &mut peaks[..]);
        each_band(bands, nodes, |band, occ, _| {
            bands::send_edges(band, occ, &links)
        });
        let bands = (&mut self.bands[..], &mut self.occupancy[..], &mut peaks[..]);
        each_band(bands, nodes, |band, occ, peaks| {
            bands::send_and_receive(band, occ, peaks, &links);
        });
        self.settle()
    }

    /// Applies a step's band events in the order of the single-threaded step: the nodes that
    /// became active get their list positions, the packets handed over at their destinations
    /// return their ids to the free list. Returns the packets moved.
    fn settle(&mut self) -> Result<usize, SafError> {
        let (mut activated, mut handed) = (
            std::mem::take(&mut self.activated),
            std::mem::take(&mut self.handed),
        );
        activated.clear();
        handed.clear();
        let mut moved = 0;
        for band in &self.bands {
            moved += band.moves as usize;
            activated.extend_from_slice(&band.activated);
            handed.extend_from_slice(&band.delivered);
        }
        // Each band sorted its own lists: the sorts merge them.
        activated.sort_by_key(|a| a.0);
        handed.sort_by_key(|h| h.key);
        for &(_, v) in &activated {
            self.join_active(v);
        }
        self.run.packet_hops += moved as u64;
        let delivered = handed.iter().try_for_each(|d| {
            self.accept(d.found, d.node)?;
            self.free_ids.push(d.packet);
            Ok(())
        });
        (self.activated, self.handed) = (activated, handed);
        delivered.map(|()| moved)
    }

    /// One copy (or the master's own departure) per feed whose node has room; returns how many.
    fn feed(&mut self, feeding: &mut Vec<u32>, fresh: &mut Vec<Travel>) -> Result<u64, SafError> {
        let mut made = 0;
        let mut kept = 0;
        for i in 0..feeding.len() {
            let m = feeding[i];
            let pk = self.packets[m as usize];
            let at = self.at(PacketId(m));
            let first = Travel {
                packet: m,
                target: self.set.dest(pk.lo),
                deliver: true,
            };
            if pk.hi - pk.lo == 1 {
                // Releasing the master is no copy: it may cross its first link this very step.
                self.enter(first, at)?;
                made += 1;
                continue;
            }
            let class = self.direction(at, first.target);
            if self.admits(at, Some(class)) {
                let c = self.add_packet(pk.msg, pk.lo..pk.lo + 1, at)?;
                self.packets[m as usize].lo += 1;
                self.run.copies += 1;
                fresh.push(Travel {
                    packet: c.0,
                    ..first
                });
                made += 1;
            }
            feeding[kept] = m;
            kept += 1;
        }
        feeding.truncate(kept);
        Ok(made)
    }

    /// Picks the head of every non-empty output queue whose packet the neighbour can take.
    fn select_moves(&mut self) {
        for i in 0..self.active.len() {
            let u = self.active[i];
            let band = self.band(u);
            for d in 0..4u32 {
                let Some(t) = self.bands[band].front(u, d) else {
                    continue;
                };
                let v = self.neighbor(u, d);
                let delivers = t.deliver && t.target == v;
                if !delivers && self.limit != u32::MAX {
                    let class = (t.target != v).then(|| self.direction(v, t.target));
                    if !self.admits(v, class) {
                        continue;
                    }
                    self.incoming[v as usize] += 1;
                    if let Some(k) = class {
                        self.incoming_dir[(v * 4 + k) as usize] += 1;
                    }
                }
                if !t.deliver && t.target == v {
                    // Its reserved slot becomes its own.
                    self.pending[v as usize] -= 1;
                }
                self.bands[band].pop(u, d);
                self.moves.push((t, u, v));
            }
        }
    }

    fn apply_moves(&mut self) -> Result<(), SafError> {
        // Every departure first, so that occupancies are those of the end of the step.
        for &(t, u, v) in &self.moves {
            self.occupancy[u as usize] -= 1;
            if !(t.deliver && t.target == v) {
                self.occupancy[v as usize] += 1;
            }
            self.incoming[v as usize] = 0;
            self.incoming_dir[v as usize * 4..v as usize * 4 + 4].fill(0);
        }
        self.run.packet_hops += self.moves.len() as u64;
        let moves = std::mem::take(&mut self.moves);
        for &(t, _, v) in &moves {
            if t.deliver && t.target == v {
                self.deliver_on_arrival(t.packet, v)?;
            } else {
                let peak = &mut self.run.buffer_peaks[v as usize];
                *peak = (*peak).max(self.occupancy[v as usize]);
                self.enter(t, v)?;
            }
        }
        self.moves = moves;
        self.moves.clear();
        Ok(())
    }

    /// Whether node `v` may take one more packet that will queue for direction `class` (`None`:
    /// that will stay). Every output direction without a queued packet keeps one slot in
    /// reserve, and so does every packet still on its way to stay at `v`, so `occupancy + empty
    /// directions + pending stays ≤ capacity` holds at every node: a packet can always enter a
    /// node where no packet waits for its direction, a packet that stays always finds its slot,
    /// and as the packets of one direction class move monotonically (x up, x down, y up, y
    /// down), every chain of waiting packets ends at one that moves — no deadlock, once every
    /// node starts a routing phase with at most capacity − 4 − (packets that will stay there)
    /// packets.
    fn admits(&self, v: u32, class: Option<u32>) -> bool {
        let base = v as usize * 4;
        let band = &self.bands[self.band(v)];
        let reserved = (0..4u32)
            .filter(|&d| Some(d) != class)
            .filter(|&d| band.is_empty(v, d) && self.incoming_dir[base + d as usize] == 0)
            .count() as u32;
        // A packet that stays is one of the pending ones: its own reservation is not counted.
        let stays = self.pending[v as usize] - u32::from(class.is_none());
        let total = self.occupancy[v as usize] + self.incoming[v as usize];
        total + 1 + reserved + stays <= self.limit
    }

    fn direction(&self, from: u32, to: u32) -> u32 {
        direction(&self.xy, from, to)
    }

    fn distance(&self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.xy[a as usize], self.xy[b as usize]);
        (a & 0xffff).abs_diff(b & 0xffff) + (a >> 16).abs_diff(b >> 16)
    }

    fn neighbor(&self, u: u32, dir: u32) -> u32 {
        match dir {
            0 => u + 1,
            1 => u - 1,
            2 => u + self.side,
            _ => u - self.side,
        }
    }
}

/// Packet `p`'s message and the slot of node `v` among its destination slots, if `v` is one of
/// them.
fn destination(packets: &[Packet], set: &MessageSet, p: u32, v: u32) -> (u32, Option<u32>) {
    let pk = packets[p as usize];
    (pk.msg, set.find(pk.lo..pk.hi, v))
}

/// Runs `f` on every band with its slices of the occupancies and buffer peaks (`nodes` per band),
/// on the rayon pool if there is more than one band.
fn each_band(
    (bands, occupancy, peaks): (&mut [Band], &mut [u32], &mut [u32]),
    nodes: usize,
    f: impl Fn(&mut Band, &mut [u32], &mut [u32]) + Sync,
) {
    if let [band] = bands {
        f(band, occupancy, peaks);
    } else {
        bands
            .par_iter_mut()
            .zip(occupancy.par_chunks_mut(nodes))
            .zip(peaks.par_chunks_mut(nodes))
            .for_each(|((band, occ), peaks)| f(band, occ, peaks));
    }
}

/// The output direction (+x, −x, +y, −y as 0–3) of dimension-order routing from `from` towards
/// `to`, coordinates from the table `xy` (x | y << 16): two divisions per call cost more than the
/// lookups.
pub(super) fn direction(xy: &[u32], from: u32, to: u32) -> u32 {
    let (f, t) = (xy[from as usize], xy[to as usize]);
    let (fx, fy, tx, ty) = (f & 0xffff, f >> 16, t & 0xffff, t >> 16);
    // +x (0) or −x (1) while x differs, then +y (2) or −y (3): chosen without a branch, since
    // which holds is as good as random from packet to packet.
    let along_x = u32::from(tx < fx);
    let along_y = 2 + u32::from(ty <= fy);
    select_unpredictable(tx != fx, along_x, along_y)
}
