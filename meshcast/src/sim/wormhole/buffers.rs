//! The virtual-channel buffers of every input port, as flat arrays: who holds each virtual
//! channel, how many flits it buffers and when its front flit may leave, and which worms' flits
//! are in it. Worms and what they do with the buffers are the network's ([`super::network`]).
//!
//! A buffer stores no flits, only a count and a ring of arrival cycles (the pipeline delay of
//! each flit), with the front flit's ready cycle kept beside the count so that the request loop
//! reads one record per buffer. With a one-cycle pipeline there is no ring: every buffered flit
//! is ready from the cycle after it arrived, which is the earliest cycle it is asked about. The
//! moves are compiled for either case (`RING`), so neither tests the pipeline per flit.

use super::config::VcRelease;
use super::network::NONE;
use super::switch::after;

/// One virtual-channel buffer's hot state: its owner and its flits, stored as a count and a ring
/// of arrival cycles (in [`Buffers::ring`]), with the cycle the front flit may leave kept here.
/// 16 bytes (counts and slots are below `B + 1` ≤ 1025), so a quarter of a cache line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vc {
    /// The cycle the front flit has spent the pipeline in the router (valid while `count > 0`).
    pub ready: u64,
    /// The worm that holds it, `NONE` while it is free to take.
    pub owner: u32,
    pub count: u16,
    /// The ring slot of the front flit.
    front: u16,
}

const _: () = assert!(std::mem::size_of::<Vc>() == 16);

/// The worms with flits (or, the newest, a header to come) in a buffer, oldest first: `queued`
/// of them from slot `first` of its `B + 1` slots in [`Buffers::queue`]. With
/// [`VcRelease::TailLeft`] only the owner.
#[derive(Clone, Copy, Debug, Default)]
struct Queue {
    first: u16,
    queued: u16,
}

/// Every virtual channel's buffer (global id `channel · V + v`).
pub(crate) struct Buffers {
    /// `B`, flits per buffer.
    pub size: u32,
    pipeline: u64,
    release: VcRelease,
    pub vc: Vec<Vc>,
    /// The arrival cycles of each buffer's flits, `R` slots from `vc · R`, `R` the power of two
    /// from `B` on (so that a slot wraps by a mask: a test would be a branch often mispredicted);
    /// empty with a one-cycle pipeline ([`Buffers::pop`], [`Buffers::ring`]).
    ring: Vec<u64>,
    /// `R − 1`.
    mask: u32,
    queues: Vec<Queue>,
    /// The worms queued in each buffer, `B + 1` slots from `vc · (B + 1)`.
    queue: Vec<u32>,
}

impl Buffers {
    /// `count` empty buffers of `size` flits whose flits spend `pipeline` cycles in the router.
    pub fn new(count: usize, size: u32, pipeline: u32, release: VcRelease) -> Buffers {
        let free = Vc {
            ready: 0,
            owner: NONE,
            count: 0,
            front: 0,
        };
        Buffers {
            size,
            pipeline: u64::from(pipeline),
            release,
            vc: vec![free; count],
            ring: if pipeline > 1 {
                vec![0; count * size.next_power_of_two() as usize]
            } else {
                Vec::new()
            },
            mask: size.next_power_of_two() - 1,
            queues: vec![Queue::default(); count],
            queue: vec![NONE; count * (size as usize + 1)],
        }
    }

    /// Whether worm `id`, holding virtual channel `vc` with `flits` flits in it, has a flit at
    /// the front of the buffer that has spent the pipeline in the router at `now` (both tests
    /// made, without a branch between them).
    #[inline]
    pub fn ready(&self, id: u32, vc: u32, flits: u16, now: u64) -> bool {
        self.ready_alone(vc, flits, now)
            & (self.release == VcRelease::TailLeft || self.front_worm(vc) == id)
    }

    /// [`Buffers::ready`] for a buffer that holds the flits of one worm only.
    #[inline]
    pub fn ready_alone(&self, vc: u32, flits: u16, now: u64) -> bool {
        (flits > 0) & (self.vc[vc as usize].ready <= now)
    }

    /// Whether held virtual channel `vc` has room for a flit.
    #[inline]
    pub fn room(&self, vc: u32) -> bool {
        u32::from(self.vc[vc as usize].count) < self.size
    }

    /// Whether the buffers keep the ring of arrival cycles: the `RING` that [`Buffers::pop`] and
    /// [`Buffers::push`] are to be called with.
    pub fn ring(&self) -> bool {
        self.pipeline > 1
    }

    /// Whether a flit generated at the source at `ready` has spent the pipeline at `now`.
    #[inline]
    pub fn source_ready(&self, ready: u64, now: u64) -> bool {
        now >= ready + self.pipeline
    }

    /// Slot `k` of virtual channel `vc`'s worm queue, counted from its oldest worm.
    fn queue_slot(&self, vc: u32, k: u32) -> usize {
        let q = self.size + 1;
        let slot = u32::from(self.queues[vc as usize].first) + k;
        let slot = if slot >= q { slot - q } else { slot };
        (vc * q + slot) as usize
    }

    /// The worm whose flits are at the front of virtual channel `vc`'s buffer.
    pub fn front_worm(&self, vc: u32) -> u32 {
        self.queue[self.queue_slot(vc, 0)]
    }

    /// Worm `id` takes free virtual channel `vc` and queues behind the worms in its buffer.
    pub fn take(&mut self, vc: u32, id: u32) {
        self.vc[vc as usize].owner = id;
        let slot = self.queue_slot(vc, u32::from(self.queues[vc as usize].queued));
        self.queue[slot] = id;
        self.queues[vc as usize].queued += 1;
    }

    /// The worm at the front of `vc`'s buffer has sent its tail on: it leaves the queue, and
    /// with [`VcRelease::TailLeft`] the virtual channel is free.
    pub fn leave(&mut self, vc: u32) {
        let q = &mut self.queues[vc as usize];
        q.first = after(u32::from(q.first), self.size + 1) as u16;
        q.queued -= 1;
        if self.release == VcRelease::TailLeft {
            self.vc[vc as usize].owner = NONE;
        }
    }

    /// Whether worm `id` is queued in virtual channel `vc`'s buffer.
    pub fn queued_in(&self, vc: u32, id: u32) -> bool {
        let queued = u32::from(self.queues[vc as usize].queued);
        (0..queued).any(|k| self.queue[self.queue_slot(vc, k)] == id)
    }

    /// The front flit leaves buffer `vc`; the next one's ready cycle comes from the ring.
    ///
    /// Without the ring (`RING` false, a one-cycle pipeline) the ready cycle is left as it was,
    /// the departing flit's (no later than this cycle): the next flit arrived by this cycle, so
    /// its own is no later than the next cycle, the first at which it is tested, and either
    /// passes every test.
    #[inline]
    pub fn pop<const RING: bool>(&mut self, vc: u32) {
        let r = self.mask as usize + 1;
        let i = vc as usize;
        let v = &mut self.vc[i];
        v.front = ((u32::from(v.front) + 1) & self.mask) as u16;
        v.count -= 1;
        if RING && v.count > 0 {
            v.ready = self.ring[i * r + v.front as usize] + self.pipeline;
        }
    }

    /// A flit enters buffer `vc` at `now` (its arrival kept in the ring if `RING`).
    #[inline]
    pub fn push<const RING: bool>(&mut self, vc: u32, now: u64) {
        let r = self.mask as usize + 1;
        let i = vc as usize;
        let v = &mut self.vc[i];
        let slot = (u32::from(v.front) + u32::from(v.count)) & self.mask;
        if RING {
            self.ring[i * r + slot as usize] = now;
        }
        if v.count == 0 {
            v.ready = now + self.pipeline;
        }
        v.count += 1;
    }
}
