//! The routing state of [`super::engine::Sim`] cut into *bands*: runs of consecutive nodes (rows
//! of the mesh, each band starting at a multiple of 64 nodes so that its bitset words are its
//! own). A band owns its nodes' output queues and their active bits, so an unbounded routing step
//! runs on one thread per band, in two phases:
//!
//! 1. [`send_edges`]: the nodes within a row of the band's two ends send: every active node pops
//!    the head of each non-empty output queue onto its outgoing link slot (written only by the
//!    sender's band) and marks the link in the step's `sent` bitsets;
//! 2. [`send_and_receive`]: the band sweeps its words of 64 nodes; the word a row ahead sends,
//!    then the current word receives: every node a neighbour sent to reads those incoming link
//!    slots (anyone's, read only) and queues, holds or hands over what arrived. Every possible
//!    sender of a word (a row back, a row ahead, in this band or the next) has sent by then, and
//!    a node's queues are popped and pushed a few hundred nodes apart, while their cache lines
//!    are still at hand.
//!
//! The order of everything order-dependent is that of the machine's active list: a node's
//! *stamp* says when it joined the list, and the arrivals at a node are taken in the order of
//! their senders' stamps, so a queue receives the same packets in the same order however the
//! nodes are cut into bands. What must be ordered across bands (new stamps, handed-over packets
//! whose ids return to the free list) is returned as events keyed by (sender stamp, direction),
//! the position of the move in the single-threaded step, for [`super::engine`] to apply in that
//! order; the destination slot of a handed-over packet is looked up in the band, in parallel.
//!
//! The queues are flat: per (node, direction) one cache line holding the first [`INLINE`] packets
//! of the queue as a ring, and the rest in a chain of spill blocks of [`INLINE`] packets (one
//! cache line each) in an arena that is the band's own, with a free list; a block moves into the
//! ring as a whole when the ring empties, so a long queue costs one cache miss in the arena per
//! block, not per packet. A hop allocates nothing. A step touches far more queue lines than the
//! caches hold, so [`send`] asks for each active node's lines a few active nodes before it pops
//! them ([`prefetch`]), and [`receive`] for the spill block an arrival will most likely be
//! appended to a couple of receiving nodes before ([`prefetch_spill`]): their misses overlap
//! instead of coming one after the other.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use super::engine::{PacketId, Travel};
use crate::hint::prefetch;

/// No entry (end of a queue, an empty queue).
const NIL: u32 = u32::MAX;

/// Nodes per word of a bitset.
pub(super) const WORD: u32 = 64;

/// Packets a queue keeps in its own cache line, and a spill block holds.
const INLINE: usize = 6;

/// A [`Travel`] in 8 bytes: packet, target (nodes < 2²⁴) and the deliver flag.
#[derive(Clone, Copy, Debug, Default)]
struct Packed(u64);

impl Packed {
    fn new(t: Travel) -> Packed {
        Packed(u64::from(t.packet) | u64::from(t.target) << 32 | u64::from(t.deliver) << 63)
    }

    fn travel(self) -> Travel {
        Travel {
            packet: self.0 as u32,
            target: (self.0 >> 32) as u32 & !(1 << 31),
            deliver: self.0 >> 63 == 1,
        }
    }
}

/// One output queue: its first packets in a ring (their number is kept apart, in the band's
/// `lens`, so that looking for work touches no queue line), the later ones in a chain of the
/// band's spill blocks, `tail_len` of them in the last block. The ring is empty only if the
/// queue is.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Queue {
    ring: [Packed; INLINE],
    head: u8,
    tail_len: u8,
    spill_head: u32,
    spill_tail: u32,
}

impl Default for Queue {
    fn default() -> Queue {
        Queue {
            ring: [Packed::default(); INLINE],
            head: 0,
            tail_len: 0,
            spill_head: NIL,
            spill_tail: NIL,
        }
    }
}

impl Queue {
    /// The ring position `k` places after the head (`k` ≤ [`INLINE`]; no division).
    fn slot(&self, k: u8) -> usize {
        let s = usize::from(self.head) + usize::from(k);
        if s >= INLINE {
            s - INLINE
        } else {
            s
        }
    }
}

/// Queued packets beyond a queue's ring, in one cache line, and the next block of the queue.
/// When the ring empties, a whole block moves into it: a long queue costs one miss in the arena
/// per [`INLINE`] packets, not one per packet.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Block {
    items: [Packed; INLINE],
    next: u32,
}

/// A packet that reached its destination in a step (a [`Band`] event).
#[derive(Clone, Copy, Debug)]
pub(super) struct Delivery {
    /// The position of its move in the single-threaded step.
    pub key: u64,
    /// The packet.
    pub packet: u32,
    /// The node it reached.
    pub node: u32,
    /// Its message and the slot of `node` among the message's destinations (`None`: not one of
    /// them), looked up by [`Links::destination`].
    pub found: (u32, Option<u32>),
}

/// The nodes `first..first + len` and their queues.
#[derive(Debug)]
pub(super) struct Band {
    first: u32,
    len: u32,
    // Per local node × 4 directions (+x, −x, +y, −y): its queue and the packets in its ring.
    queues: Vec<Queue>,
    lens: Vec<u8>,
    blocks: Vec<Block>,
    free: Vec<u32>,
    // Per local node, whether it is on the machine's active list.
    active: Vec<u64>,
    /// Packets sent in the last [`send`].
    pub moves: u64,
    /// Nodes whose queues [`send`] emptied (they leave the active list at the end of the step
    /// unless something entered them since).
    pub emptied: Vec<u32>,
    /// Nodes [`receive`] made active, keyed by the move that did it.
    pub activated: Vec<(u64, u32)>,
    /// Packets handed to their destination by [`receive`], keyed by their move.
    pub delivered: Vec<Delivery>,
    /// The list positions of the packets [`Band::enter`] found at the node they deliver to.
    pub arrived: Vec<u32>,
}

impl Band {
    /// The nodes `first..first + len`, all queues empty, none active.
    pub fn new(first: u32, len: u32) -> Band {
        Band {
            first,
            len,
            queues: vec![Queue::default(); 4 * len as usize],
            lens: vec![0; 4 * len as usize],
            blocks: Vec::new(),
            free: Vec::new(),
            active: vec![0; len.div_ceil(WORD) as usize],
            moves: 0,
            emptied: Vec::new(),
            activated: Vec::new(),
            delivered: Vec::new(),
            arrived: Vec::new(),
        }
    }

    fn queue(&self, node: u32, dir: u32) -> usize {
        ((node - self.first) * 4 + dir) as usize
    }

    /// The entry of a routing's `(packet, target)` list (`at`: a packet's node; `deliver`: the
    /// packets deliver at their targets) into the band: the packets at its nodes join the queue
    /// of their first link in list order; the nodes that become active go to `activated`, the
    /// packets already at a target they deliver to to `arrived`, by list position. A packet at a
    /// target where it stays is left alone.
    pub fn enter(
        &mut self,
        packets: &[(PacketId, u32)],
        deliver: bool,
        at: impl Fn(PacketId) -> u32,
        xy: &[u32],
    ) {
        self.activated.clear();
        self.arrived.clear();
        for (i, &(p, target)) in (0u32..).zip(packets) {
            let node = at(p);
            if node.wrapping_sub(self.first) >= self.len {
                continue;
            }
            if node == target {
                if deliver {
                    self.arrived.push(i);
                }
                continue;
            }
            let travel = Travel {
                packet: p.index() as u32,
                target,
                deliver,
            };
            self.push(node, super::engine::direction(xy, node, target), travel);
            if !self.is_active(node) {
                self.set_active(node, true);
                self.activated.push((u64::from(i), node));
            }
        }
    }

    /// Appends `travel` to `node`'s queue for direction `dir`.
    pub fn push(&mut self, node: u32, dir: u32, travel: Travel) {
        self.push_at(self.queue(node, dir), Packed::new(travel));
    }

    /// Appends `travel` to the queue of index `i`: to its ring while nothing is spilled and the
    /// ring has room, else to its last spill block (a new one when that is full).
    fn push_at(&mut self, i: usize, travel: Packed) {
        let (q, len) = (&mut self.queues[i], &mut self.lens[i]);
        if q.spill_tail == NIL && usize::from(*len) < INLINE {
            q.ring[q.slot(*len)] = travel;
            *len += 1;
            return;
        }
        if q.spill_tail == NIL || usize::from(q.tail_len) == INLINE {
            let b = store(&mut self.blocks, &mut self.free, Block::default());
            match q.spill_tail {
                NIL => q.spill_head = b,
                t => self.blocks[t as usize].next = b,
            }
            (q.spill_tail, q.tail_len) = (b, 0);
        }
        self.blocks[q.spill_tail as usize].items[usize::from(q.tail_len)] = travel;
        q.tail_len += 1;
    }

    /// The head of `node`'s queue for direction `dir`.
    pub fn front(&self, node: u32, dir: u32) -> Option<Travel> {
        let i = self.queue(node, dir);
        let q = &self.queues[i];
        (self.lens[i] > 0).then(|| q.ring[usize::from(q.head)].travel())
    }

    /// Removes and returns the head of `node`'s queue for direction `dir`.
    pub fn pop(&mut self, node: u32, dir: u32) -> Option<Travel> {
        let i = self.queue(node, dir);
        (self.lens[i] > 0).then(|| self.pop_at(i).travel())
    }

    /// Removes and returns the head of the non-empty queue of index `i`; if that empties the
    /// ring, the first spill block takes its place.
    fn pop_at(&mut self, i: usize) -> Packed {
        let (q, len) = (&mut self.queues[i], &mut self.lens[i]);
        let front = q.ring[usize::from(q.head)];
        q.head = q.slot(1) as u8;
        *len -= 1;
        let b = q.spill_head;
        if *len == 0 && b != NIL {
            let block = &self.blocks[b as usize];
            (q.ring, q.head) = (block.items, 0);
            if b == q.spill_tail {
                (*len, q.spill_head, q.spill_tail) = (q.tail_len, NIL, NIL);
            } else {
                (*len, q.spill_head) = (INLINE as u8, block.next);
            }
            self.free.push(b);
        }
        front
    }

    /// The non-empty queues of local node `local`, bit `dir` per direction: read without a
    /// branch, so that the loops over them branch once per queue that holds packets, not once
    /// per direction (whether a queue is empty is as good as random).
    #[inline(always)]
    fn queued(&self, local: usize) -> u32 {
        let lens = &self.lens[local * 4..local * 4 + 4];
        (0..4).fold(0, |m, dir| m | u32::from(lens[dir] > 0) << dir)
    }

    /// Whether `node`'s queue for direction `dir` is empty.
    pub fn is_empty(&self, node: u32, dir: u32) -> bool {
        self.lens[self.queue(node, dir)] == 0
    }

    /// Whether any of `node`'s queues holds a packet.
    pub fn has_queue(&self, node: u32) -> bool {
        let q = self.queue(node, 0);
        self.lens[q..q + 4] != [0; 4]
    }

    /// Whether `node` is on the active list.
    pub fn is_active(&self, node: u32) -> bool {
        let i = node - self.first;
        self.active[(i / WORD) as usize] >> (i % WORD) & 1 == 1
    }

    /// Puts `node` on the active list or takes it off.
    pub fn set_active(&mut self, node: u32, on: bool) {
        let i = node - self.first;
        let bit = 1u64 << (i % WORD);
        let word = &mut self.active[(i / WORD) as usize];
        if on {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }
}

/// What the bands share in a step: the link slots and who sent (each band writes its own
/// nodes' entries, relaxed atomics: the step's two phases order the writes before the reads that
/// need them), the stamps, the mesh.
pub(super) struct Links<'a> {
    /// Per node × 4 directions, the [`Packed`] packet it sent (valid where `sent` says so).
    pub out: &'a [AtomicU64],
    /// Per word of 64 nodes × 4 directions, the nodes that sent that way in this step (bitsets).
    pub sent: &'a [AtomicU64],
    /// Per node, its position on the active list.
    pub stamp: &'a [u64],
    /// Per node, x | y << 16.
    pub xy: &'a [u32],
    /// The mesh side.
    pub side: u32,
    /// Packet and node → the packet's message and the node's slot among its destinations.
    pub destination: &'a (dyn Fn(u32, u32) -> (u32, Option<u32>) + Sync),
    /// Per packet, the node holding it: a packet that reached the node where it stays is put
    /// there by the band that received it (each packet by one band).
    pub at: &'a [AtomicU32],
}

impl Links<'_> {
    /// Words of nodes a receiving word looks ahead (and back) for senders: ⌈side / 64⌉, so that
    /// the senders a row ahead of its last node (and behind its first) are covered.
    fn reach(&self) -> usize {
        (self.side as usize).div_ceil(WORD as usize)
    }
}

/// The first phase of an unbounded step in one band: its first and last [`Links::reach`] words
/// of nodes send (see [`send`]), so that the neighbouring bands can receive from them in the
/// second phase.
pub(super) fn send_edges(band: &mut Band, occupancy: &mut [u32], links: &Links) {
    band.moves = 0;
    band.emptied.clear();
    band.activated.clear();
    band.delivered.clear();
    let (words, reach) = (band.active.len(), links.reach());
    send(band, occupancy, links, 0..reach.min(words));
    send(
        band,
        occupancy,
        links,
        words.saturating_sub(reach).max(reach)..words,
    );
}

/// The second phase of an unbounded step in one band, after [`send_edges`] everywhere: word by
/// word, the nodes [`Links::reach`] words ahead send and the nodes of the word receive (see
/// [`receive`]). A word's queues are thus popped and pushed while their cache lines are still at
/// hand, and a word receives only once every node that can send to it has sent. The band's
/// events end sorted by key.
pub(super) fn send_and_receive(
    band: &mut Band,
    occupancy: &mut [u32],
    peaks: &mut [u32],
    links: &Links,
) {
    let (words, reach) = (band.active.len(), links.reach());
    for w in 0..words {
        if w + 2 * reach < words {
            send(band, occupancy, links, w + reach..w + reach + 1);
        }
        receive(band, occupancy, peaks, links, w);
    }
    // In key order here, in parallel: the single-threaded settle only merges the bands' lists.
    band.activated.sort_unstable_by_key(|a| a.0);
    band.delivered.sort_unstable_by_key(|d| d.key);
}

/// The nodes of the band's words `words` send: every active node sends the head of each
/// non-empty output queue (no flow control: with unbounded buffers every head moves). Writes the
/// band's occupancies (departures), its nodes' link slots and `sent` bitsets.
fn send(band: &mut Band, occupancy: &mut [u32], links: &Links, words: Range<usize>) {
    let first_word = (band.first / WORD) as usize;
    let mut ahead = Ahead {
        w: words.start,
        bits: band.active.get(words.start).copied().unwrap_or(0),
    };
    for _ in 0..AHEAD {
        ahead.prefetch_next(band);
    }
    for w in words {
        let mut bits = band.active[w];
        let mut senders = [0u64; 4];
        while bits != 0 {
            ahead.prefetch_next(band);
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            let local = w * WORD as usize + i as usize;
            let mut queues = band.queued(local);
            while queues != 0 {
                let dir = queues.trailing_zeros() as usize;
                queues &= queues - 1;
                let q = local * 4 + dir;
                let out = &links.out[band.first as usize * 4 + q];
                out.store(band.pop_at(q).0, Relaxed);
                occupancy[local] -= 1;
                band.moves += 1;
                senders[dir] |= 1 << i;
            }
            if band.queued(local) == 0 {
                band.emptied.push(band.first + local as u32);
            }
        }
        for (dir, &senders) in senders.iter().enumerate() {
            links.sent[(first_word + w) * 4 + dir].store(senders, Relaxed);
        }
    }
}

/// Active nodes [`send`] looks ahead: their queue lines are asked for this many nodes before
/// they send, since a step touches far more queues than the caches hold.
const AHEAD: usize = 4;

/// A cursor over the band's active nodes, running [`AHEAD`] nodes before [`send`].
struct Ahead {
    w: usize,
    bits: u64,
}

impl Ahead {
    /// Asks for the lines of the next active node's non-empty queues, and moves past it.
    #[inline(always)]
    fn prefetch_next(&mut self, band: &Band) {
        while self.bits == 0 {
            self.w += 1;
            match band.active.get(self.w) {
                Some(&bits) => self.bits = bits,
                None => return,
            }
        }
        let local = self.w * WORD as usize + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let mut queues = band.queued(local);
        while queues != 0 {
            prefetch(&band.queues[local * 4 + queues.trailing_zeros() as usize]);
            queues &= queues - 1;
        }
    }
}

/// The band's word `w` receives: every node with a neighbour that sent to it reads those
/// incoming links, in the order of the senders' stamps, and queues each packet for its next
/// link, holds it (it stays here) or hands it over (it is delivered here). Writes the band's
/// occupancies and buffer peaks; activations and hand-overs go to the band's event lists.
fn receive(band: &mut Band, occupancy: &mut [u32], peaks: &mut [u32], links: &Links, w: usize) {
    let side = i64::from(links.side);
    let base = band.first + w as u32 * WORD;
    // Per direction of travel, the nodes of this word whose neighbour sent them a packet.
    // (The sender of direction +x is the node before, of −x the node after, and so on.)
    let starts = [-1, 1, -side, side].map(|off| i64::from(base) + off);
    let from: [u64; 4] = std::array::from_fn(|dir| bits_at(links.sent, dir, starts[dir]));
    let mut nodes = from[0] | from[1] | from[2] | from[3];
    let left = band.len - w as u32 * WORD;
    if left < WORD {
        nodes &= (1u64 << left) - 1;
    }
    let local = (base - band.first) as usize;
    let mut ahead = nodes;
    for _ in 0..RECEIVE_AHEAD {
        prefetch_spill(band, &from, local, &mut ahead);
    }
    while nodes != 0 {
        prefetch_spill(band, &from, local, &mut ahead);
        let i = nodes.trailing_zeros();
        nodes &= nodes - 1;
        let dirs = senders_of(&from, i);
        arrive(band, occupancy, peaks, links, base + i, dirs);
    }
}

/// Receiving nodes [`receive`] looks ahead: it asks for the spill blocks their arrivals will
/// most likely be appended to this many nodes before they arrive.
const RECEIVE_AHEAD: usize = 2;

/// Asks for the last spill block of the queue each of the next receiving node's arrivals most
/// likely enters, the queue of its direction of travel (a dimension-ordered packet turns once),
/// and moves past the node. Under congestion most queues are long, and an arrival is appended
/// to that block, last touched a step before and long out of the caches.
#[inline(always)]
fn prefetch_spill(band: &Band, from: &[u64; 4], local: usize, ahead: &mut u64) {
    if *ahead == 0 {
        return;
    }
    let i = ahead.trailing_zeros();
    *ahead &= *ahead - 1;
    let mut dirs = senders_of(from, i);
    while dirs != 0 {
        let dir = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let tail = band.queues[(local + i as usize) * 4 + dir].spill_tail;
        if let Some(block) = band.blocks.get(tail as usize) {
            prefetch(block);
        }
    }
}

/// The directions of travel in which node `i` of a word received a packet, bit `dir` per
/// direction, from the word's per-direction bitsets `from`: read without a branch, so that the
/// loops over them branch once per arrival, not once per direction.
#[inline(always)]
fn senders_of(from: &[u64; 4], i: u32) -> u32 {
    (0..4).fold(0, |m, dir| m | ((from[dir] >> i & 1) as u32) << dir)
}

/// The packets reaching node `v` in this step from the senders in `dirs` (bit `dir` per
/// direction of travel), taken in the order of their senders' stamps.
fn arrive(
    band: &mut Band,
    occupancy: &mut [u32],
    peaks: &mut [u32],
    links: &Links,
    v: u32,
    dirs: u32,
) {
    let senders = [
        v.wrapping_sub(1),
        v + 1,
        v.wrapping_sub(links.side),
        v + links.side,
    ];
    // The position of a move in the single-threaded step: its sender's stamp, then direction.
    let key = |dir: usize| links.stamp[senders[dir] as usize] * 4 + dir as u64;
    // The arrivals' directions (a lone arrival) or keys (several, sorted; key % 4 = direction).
    let mut order = [u64::MAX; 4];
    let count = dirs.count_ones() as usize;
    if count > 1 {
        let mut rest = dirs;
        for k in &mut order[..count] {
            *k = key(rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
        sort4(&mut order);
    } else {
        order[0] = u64::from(dirs.trailing_zeros());
    }
    let local = (v - band.first) as usize;
    let mut stays = false;
    for &k in &order[..count] {
        let dir = (k % 4) as usize;
        let key = || if count > 1 { k } else { key(dir) };
        let packed = Packed(links.out[senders[dir] as usize * 4 + dir].load(Relaxed));
        let t = packed.travel();
        // Both tests made, one branch: whether a packet is at its target is as good as random.
        if (t.target == v) & t.deliver {
            band.delivered.push(Delivery {
                key: key(),
                packet: t.packet,
                node: v,
                found: (links.destination)(t.packet, v),
            });
            continue;
        }
        occupancy[local] += 1;
        stays = true;
        if t.target == v {
            links.at[t.packet as usize].store(v, Relaxed);
            continue;
        }
        let out = super::engine::direction(links.xy, v, t.target);
        band.push_at(local * 4 + out as usize, packed);
        if !band.is_active(v) {
            band.set_active(v, true);
            band.activated.push((key(), v));
        }
    }
    if stays {
        peaks[local] = peaks[local].max(occupancy[local]);
    }
}

/// Sorts four keys by a sorting network (branch-free: the order of a node's arrivals is
/// unpredictable).
fn sort4(keys: &mut [u64; 4]) {
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (a, b) = (keys[i], keys[j]);
        (keys[i], keys[j]) = (a.min(b), a.max(b));
    }
}

/// Puts `item` in the first free place of the arena `items` (`free` lists the free places, last
/// freed first) or at its end, and returns its index.
pub(super) fn store<T>(items: &mut Vec<T>, free: &mut Vec<u32>, item: T) -> u32 {
    match free.pop() {
        Some(i) => {
            items[i as usize] = item;
            i
        }
        None => {
            items.push(item);
            items.len() as u32 - 1
        }
    }
}

/// Bits `start..start + 64` of the bitset of direction `dir` in `words` (per word of nodes one
/// word per direction; 0 outside the mesh).
fn bits_at(words: &[AtomicU64], dir: usize, start: i64) -> u64 {
    let word = |i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| words.get(i * 4 + dir))
            .map_or(0, |word| word.load(Relaxed))
    };
    let (w, s) = (start.div_euclid(64), start.rem_euclid(64));
    if s == 0 {
        word(w)
    } else {
        (word(w) >> s) | (word(w + 1) << (64 - s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn travel(packet: u32) -> Travel {
        Travel {
            packet,
            target: packet * 3,
            deliver: packet % 2 == 1,
        }
    }

    #[test]
    fn packing_keeps_every_field() {
        for t in [travel(0), travel(7), travel((1 << 24) / 3)] {
            let back = Packed::new(t).travel();
            assert_eq!(
                (back.packet, back.target, back.deliver),
                (t.packet, t.target, t.deliver)
            );
        }
    }

    #[test]
    fn queues_are_first_in_first_out_and_reuse_blocks() {
        let mut band = Band::new(64, 10);
        for p in 0..5 {
            band.push(70, 2, travel(p));
        }
        band.push(71, 2, travel(9));
        assert!(band.has_queue(70) && !band.is_empty(70, 2) && band.is_empty(70, 1));
        assert_eq!(band.pop(70, 2).unwrap().packet, 0);
        band.push(70, 2, travel(5));
        let rest: Vec<u32> = std::iter::from_fn(|| band.pop(70, 2))
            .map(|t| t.packet)
            .collect();
        assert_eq!(rest, [1, 2, 3, 4, 5]);
        assert!(!band.has_queue(70) && band.front(71, 2).unwrap().packet == 9);
        assert_eq!(band.blocks.len(), 0);
        for p in 0..20 {
            band.push(70, 3, travel(p));
            if p % 3 == 0 {
                assert_eq!(band.pop(70, 3).unwrap().packet, p / 3);
            }
        }
        let rest: Vec<u32> = std::iter::from_fn(|| band.pop(70, 3))
            .map(|t| t.packet)
            .collect();
        assert_eq!(rest, (7..20).collect::<Vec<_>>());
        assert!(band.blocks.len() < 20 && band.free.len() == band.blocks.len());
    }

    #[test]
    fn long_queues_keep_their_order_across_blocks() {
        let mut band = Band::new(0, 2);
        let mut model = [(); 8].map(|()| std::collections::VecDeque::new());
        let mut next = 0;
        for round in 0..400u32 {
            let q = (round * 7 % 8) as usize;
            // Runs of pushes longer than a few blocks, then of pops, on interleaved queues.
            if round % 50 < 30 {
                band.push(q as u32 / 4, q as u32 % 4, travel(next));
                model[q].push_back(next);
                next += 1;
            } else {
                let popped = band.pop(q as u32 / 4, q as u32 % 4).map(|t| t.packet);
                assert_eq!(popped, model[q].pop_front());
            }
            let i = band.queue(q as u32 / 4, q as u32 % 4);
            assert_eq!(band.lens[i] == 0, model[q].is_empty());
        }
        for (q, model) in model.iter_mut().enumerate() {
            let rest: Vec<u32> = std::iter::from_fn(|| band.pop(q as u32 / 4, q as u32 % 4))
                .map(|t| t.packet)
                .collect();
            assert_eq!(rest, model.drain(..).collect::<Vec<_>>());
        }
        assert_eq!(band.free.len(), band.blocks.len());
    }

    #[test]
    fn sort4_sorts_every_order() {
        let keys = [3, 9, 9, u64::MAX, 0];
        for a in keys {
            for b in keys {
                for c in keys {
                    for d in keys {
                        let mut sorted = [a, b, c, d];
                        sort4(&mut sorted);
                        let mut expected = [a, b, c, d];
                        expected.sort_unstable();
                        assert_eq!(sorted, expected);
                    }
                }
            }
        }
    }

    #[test]
    fn bits_at_reads_across_words_and_edges() {
        for dir in 0..4 {
            // Direction `dir`'s words of a bitset of 128 nodes: 0b1011 << 60 and 0b1.
            let mut words = [u64::MAX; 8];
            (words[dir], words[4 + dir]) = (0b1011 << 60, 0b1);
            let atomics = words.map(AtomicU64::new);
            assert_eq!(bits_at(&atomics, dir, 60), 0b11011);
            assert_eq!(bits_at(&atomics, dir, -4), 0);
            assert_eq!(bits_at(&atomics, dir, 128), 0);
            assert_eq!(bits_at(&atomics, dir, 0), words[dir]);
            assert_eq!(bits_at(&atomics, dir, -1), words[dir] << 1);
        }
    }
}
