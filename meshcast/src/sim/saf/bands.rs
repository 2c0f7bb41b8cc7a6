//! The routing state of [`super::engine::Sim`] cut into *bands*: runs of consecutive nodes (rows
//! of the mesh, each band starting at a multiple of 64 nodes so that its bitset words are its
//! own). A band owns its nodes' output queues and their active bits, so the two halves of an
//! unbounded routing step can run on one thread per band:
//!
//! 1. [`send`]: every active node pops the head of each non-empty output queue onto its outgoing
//!    link slot (written only by the sender's band);
//! 2. [`receive`]: every node that may have received something reads its four incoming link
//!    slots (anyone's, read only) and queues, holds or hands over what arrived.
//!
//! The order of everything order-dependent is that of the machine's active list: a node's
//! *stamp* says when it joined the list, and the arrivals at a node are taken in the order of
//! their senders' stamps, so a queue receives the same packets in the same order however the
//! nodes are cut into bands. What must be ordered across bands (new stamps, handed-over packets
//! whose ids return to the free list) is returned as events keyed by (sender stamp, direction),
//! the position of the move in the single-threaded step, for [`super::engine`] to apply in that
//! order.
//!
//! The queues are flat: per (node, direction) one cache line holding the first [`INLINE`] packets
//! of the queue as a ring, and the rest, rarely many, in a first-in first-out list linked through
//! an arena of entries that is the band's own, with a free list. A hop allocates nothing, and as
//! both halves of a step visit the nodes in address order, the queue lines of a band are read as
//! streams rather than one cache miss per hop (what per-queue heap blocks cost).

use super::engine::Travel;

/// No entry (end of a queue, an empty queue).
const NIL: u32 = u32::MAX;

/// Nodes per word of a bitset.
pub(super) const WORD: u32 = 64;

/// Packets a queue keeps in its own cache line.
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
/// `lens`, so that looking for work touches no queue line), the rest in the band's arena.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Queue {
    ring: [Packed; INLINE],
    head: u8,
    spill_head: u32,
    spill_tail: u32,
}

impl Default for Queue {
    fn default() -> Queue {
        Queue {
            ring: [Packed::default(); INLINE],
            head: 0,
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

/// A queued packet beyond a queue's ring and the next entry of its queue.
#[derive(Clone, Copy, Debug)]
struct Entry {
    travel: Packed,
    next: u32,
}

/// What crossed a link in the last step; a link's slot is valid only where its direction's bit is
/// set in the step's `sent` bitsets, so slots never need clearing.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Outgoing(Packed);

/// The nodes `first..first + len` and their queues.
#[derive(Debug)]
pub(super) struct Band {
    first: u32,
    len: u32,
    // Per local node × 4 directions (+x, −x, +y, −y): its queue and the packets in its ring.
    queues: Vec<Queue>,
    lens: Vec<u8>,
    entries: Vec<Entry>,
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
    /// Packets handed to their destination by [`receive`], keyed by their move: (key, packet,
    /// node).
    pub delivered: Vec<(u64, u32, u32)>,
    /// Packets that reached the node where they stay: (packet, node).
    pub held: Vec<(u32, u32)>,
}

impl Band {
    /// The nodes `first..first + len`, all queues empty, none active.
    pub fn new(first: u32, len: u32) -> Band {
        Band {
            first,
            len,
            queues: vec![Queue::default(); 4 * len as usize],
            lens: vec![0; 4 * len as usize],
            entries: Vec::new(),
            free: Vec::new(),
            active: vec![0; len.div_ceil(WORD) as usize],
            moves: 0,
            emptied: Vec::new(),
            activated: Vec::new(),
            delivered: Vec::new(),
            held: Vec::new(),
        }
    }

    fn queue(&self, node: u32, dir: u32) -> usize {
        ((node - self.first) * 4 + dir) as usize
    }

    /// Appends `travel` to `node`'s queue for direction `dir`.
    pub fn push(&mut self, node: u32, dir: u32, travel: Travel) {
        self.push_at(self.queue(node, dir), Packed::new(travel));
    }

    /// Appends `travel` to the queue of index `i`.
    fn push_at(&mut self, i: usize, travel: Packed) {
        let (q, len) = (&mut self.queues[i], &mut self.lens[i]);
        if usize::from(*len) < INLINE {
            q.ring[q.slot(*len)] = travel;
            *len += 1;
            return;
        }
        let e = store(
            &mut self.entries,
            &mut self.free,
            Entry { travel, next: NIL },
        );
        match q.spill_tail {
            NIL => q.spill_head = e,
            t => self.entries[t as usize].next = e,
        }
        q.spill_tail = e;
    }

    /// The head of `node`'s queue for direction `dir`.
    pub fn front(&self, node: u32, dir: u32) -> Option<Travel> {
        let i = self.queue(node, dir);
        let q = &self.queues[i];
        (self.lens[i] > 0).then(|| q.ring[usize::from(q.head)].travel())
    }

    /// Removes and returns the head of `node`'s queue for direction `dir`; the oldest spilled
    /// packet, if any, takes the freed place in the ring.
    pub fn pop(&mut self, node: u32, dir: u32) -> Option<Travel> {
        let i = self.queue(node, dir);
        (self.lens[i] > 0).then(|| self.pop_at(i).travel())
    }

    /// Removes and returns the head of the non-empty queue of index `i`.
    fn pop_at(&mut self, i: usize) -> Packed {
        let (q, len) = (&mut self.queues[i], &mut self.lens[i]);
        let front = q.ring[usize::from(q.head)];
        q.head = q.slot(1) as u8;
        *len -= 1;
        let e = q.spill_head;
        if e != NIL {
            let entry = self.entries[e as usize];
            q.ring[q.slot(*len)] = entry.travel;
            *len += 1;
            q.spill_head = entry.next;
            if entry.next == NIL {
                q.spill_tail = NIL;
            }
            self.free.push(e);
        }
        front
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

/// The first half of an unbounded step in one band: every active node sends the head of each
/// non-empty output queue (no flow control: with unbounded buffers every head moves). Writes the
/// band's slice of the occupancies (departures), of the outgoing link slots and of the `sent`
/// bitsets (per word of nodes, one word per direction: the nodes that sent that way).
pub(super) fn send(band: &mut Band, occupancy: &mut [u32], out: &mut [Outgoing], sent: &mut [u64]) {
    band.moves = 0;
    band.emptied.clear();
    for (w, sent) in sent.chunks_exact_mut(4).enumerate() {
        let mut bits = band.active[w];
        let mut senders = [0u64; 4];
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            let local = w * WORD as usize + i as usize;
            let mut left = 0;
            for (dir, senders) in senders.iter_mut().enumerate() {
                let q = local * 4 + dir;
                if band.lens[q] > 0 {
                    out[q] = Outgoing(band.pop_at(q));
                    occupancy[local] -= 1;
                    band.moves += 1;
                    *senders |= 1 << i;
                    left |= band.lens[q];
                }
            }
            if left == 0 {
                band.emptied.push(band.first + local as u32);
            }
        }
        sent.copy_from_slice(&senders);
    }
}

/// What [`receive`] reads from every band: the link slots, who sent, the stamps, the mesh.
pub(super) struct Links<'a> {
    /// Per node × 4 directions, what it sent.
    pub out: &'a [Outgoing],
    /// Per word of 64 nodes × 4 directions, the nodes that sent that way in this step (bitsets).
    pub sent: &'a [u64],
    /// Per node, its position on the active list.
    pub stamp: &'a [u64],
    /// Per node, x | y << 16.
    pub xy: &'a [u32],
    /// The mesh side.
    pub side: u32,
}

/// The second half of an unbounded step in one band: every node with a neighbour that sent to it
/// reads those incoming links, in the order of the senders' stamps, and queues each packet for
/// its next link, holds it (it stays here) or hands it over (it is delivered here). Writes the
/// band's slice of the occupancies and buffer peaks; activations and hand-overs go to the band's
/// event lists.
pub(super) fn receive(band: &mut Band, occupancy: &mut [u32], peaks: &mut [u32], links: &Links) {
    band.activated.clear();
    band.delivered.clear();
    band.held.clear();
    let side = i64::from(links.side);
    for w in 0..band.active.len() as u32 {
        let base = band.first + w * WORD;
        // Per direction of travel, the nodes of this word whose neighbour sent them a packet.
        // (The sender of direction +x is the node before, of −x the node after, and so on.)
        let starts = [-1, 1, -side, side].map(|off| i64::from(base) + off);
        let from: [u64; 4] = std::array::from_fn(|dir| bits_at(links.sent, dir, starts[dir]));
        let mut nodes = from[0] | from[1] | from[2] | from[3];
        let left = band.len - w * WORD;
        if left < WORD {
            nodes &= (1u64 << left) - 1;
        }
        while nodes != 0 {
            let i = nodes.trailing_zeros();
            nodes &= nodes - 1;
            let dirs = from.map(|f| f >> i & 1 == 1);
            arrive(band, occupancy, peaks, links, base + i, dirs);
        }
    }
}

/// The packets reaching node `v` in this step from the senders in `dirs` (per direction of
/// travel), taken in the order of their senders' stamps.
fn arrive(
    band: &mut Band,
    occupancy: &mut [u32],
    peaks: &mut [u32],
    links: &Links,
    v: u32,
    dirs: [bool; 4],
) {
    let senders = [
        v.wrapping_sub(1),
        v + 1,
        v.wrapping_sub(links.side),
        v + links.side,
    ];
    // (sender, direction, packet), in the order of the senders' stamps.
    let mut arrivals = [(0u32, 0u32, Packed::default()); 4];
    let mut count = 0;
    for (dir, &u) in senders.iter().enumerate() {
        if dirs[dir] {
            arrivals[count] = (u, dir as u32, links.out[u as usize * 4 + dir].0);
            count += 1;
        }
    }
    let key = |&(u, dir, _): &(u32, u32, Packed)| links.stamp[u as usize] * 4 + u64::from(dir);
    let arrivals = &mut arrivals[..count];
    if count > 1 {
        arrivals.sort_unstable_by_key(key);
    }
    let local = (v - band.first) as usize;
    let mut stays = false;
    for a in arrivals.iter() {
        let t = a.2.travel();
        if t.target == v && t.deliver {
            band.delivered.push((key(a), t.packet, v));
            continue;
        }
        occupancy[local] += 1;
        stays = true;
        if t.target == v {
            band.held.push((t.packet, v));
            continue;
        }
        let dir = super::engine::direction(links.xy, v, t.target);
        band.push_at(local * 4 + dir as usize, a.2);
        if !band.is_active(v) {
            band.set_active(v, true);
            band.activated.push((key(a), v));
        }
    }
    if stays {
        peaks[local] = peaks[local].max(occupancy[local]);
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
fn bits_at(words: &[u64], dir: usize, start: i64) -> u64 {
    let word = |i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| words.get(i * 4 + dir).copied())
            .unwrap_or(0)
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
    fn queues_are_first_in_first_out_and_reuse_entries() {
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
        assert_eq!(band.entries.len(), 0);
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
        assert!(band.entries.len() < 20 && band.free.len() == band.entries.len());
    }

    #[test]
    fn bits_at_reads_across_words_and_edges() {
        for dir in 0..4 {
            // Direction `dir`'s words of a bitset of 128 nodes: 0b1011 << 60 and 0b1.
            let mut words = [u64::MAX; 8];
            (words[dir], words[4 + dir]) = (0b1011 << 60, 0b1);
            assert_eq!(bits_at(&words, dir, 60), 0b11011);
            assert_eq!(bits_at(&words, dir, -4), 0);
            assert_eq!(bits_at(&words, dir, 128), 0);
            assert_eq!(bits_at(&words, dir, 0), words[dir]);
            assert_eq!(bits_at(&words, dir, -1), words[dir] << 1);
        }
    }
}
