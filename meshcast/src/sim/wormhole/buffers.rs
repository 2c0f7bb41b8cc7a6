//! The virtual-channel buffers of every input port, as flat arrays: who holds each virtual
//! channel, how many flits it buffers and when its front flit may leave, and which worms' flits
//! are in it. Worms and what they do with the buffers are the network's ([`super::network`]).
//!
//! A buffer stores no flits, only a count and a ring of arrival cycles (the pipeline delay of
//! each flit), with the front flit's ready cycle kept beside the count so that the request loop
//! reads one record per buffer. With a one-cycle pipeline there is no ring: every buffered flit
//! is ready from the cycle after it arrived, which is the earliest cycle it is asked about. The
//! moves are compiled for either case (`RING`), so neither tests the pipeline per flit.
//!
//! The count, the front flit's ring slot and its ready cycle (a [`Fifo`]) are kept in the virtual
//! channel's record ([`Vc`]) when worms share buffers ([`VcRelease::TailSent`]). With
//! [`VcRelease::TailLeft`] a buffer holds its owner's flits only, and they are kept in the
//! owner's hop ([`WormHop`]) instead (owned buffers, [`super::network`]): a worm's requests and
//! moves then read and write its own hops and the ring, and the record keeps only the owner.

use std::hint::select_unpredictable;

use super::channels::WormHop;
use super::config::VcRelease;
use super::network::NONE;
use super::switch::after;

/// One virtual-channel buffer's hot state: its owner and its flits, stored as a count and a ring
/// of arrival cycles (in [`Ring`]), with the cycle the front flit may leave kept here (unused
/// with [`VcRelease::TailLeft`], whose buffers' flits are kept in their owners' hops). 16 bytes
/// (counts and slots are below `B + 1` ≤ 1025), so a quarter of a cache line.
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

impl Vc {
    fn fifo(&mut self) -> Fifo<'_> {
        Fifo {
            count: &mut self.count,
            front: &mut self.front,
            ready: &mut self.ready,
        }
    }
}

/// Where a buffer's flits are kept, in its record or in its owner's hop (module docs): their
/// count, the ring slot of the front flit, and the cycle it may leave (valid while `count > 0`).
pub(crate) struct Fifo<'a> {
    pub count: &'a mut u16,
    pub front: &'a mut u16,
    pub ready: &'a mut u64,
}

impl WormHop {
    /// The buffer's flits of the virtual channel held, when the buffer is owned
    /// ([`VcRelease::TailLeft`]).
    pub fn fifo(&mut self) -> Fifo<'_> {
        Fifo {
            count: &mut self.flits,
            front: &mut self.front,
            ready: &mut self.ready,
        }
    }
}

/// The arrival cycles of every buffer's flits, `R` slots from `vc · R`, `R` the power of two
/// from `B` on (so that a slot wraps by a mask: a test would be a branch often mispredicted);
/// empty with a one-cycle pipeline ([`Ring::pop`], [`Buffers::has_ring`]).
pub(crate) struct Ring {
    slots: Vec<u64>,
    /// `R − 1`.
    mask: u32,
    pipeline: u64,
}

impl Ring {
    /// The front flit of `vc`'s buffer, kept in `fifo`, leaves; the next one's ready cycle comes
    /// from the ring. Returns whether the buffer is now empty.
    ///
    /// Without the ring (`RING` false, a one-cycle pipeline) the ready cycle is left as it was,
    /// the departing flit's (no later than this cycle): the next flit arrived by this cycle, so
    /// its own is no later than the next cycle, the first at which it is tested, and either
    /// passes every test.
    #[inline(always)]
    pub fn pop<const RING: bool>(&self, vc: u32, fifo: Fifo<'_>) -> bool {
        let r = self.mask as usize + 1;
        *fifo.front = ((u32::from(*fifo.front) + 1) & self.mask) as u16;
        *fifo.count -= 1;
        if RING && *fifo.count > 0 {
            *fifo.ready = self.slots[vc as usize * r + *fifo.front as usize] + self.pipeline;
        }
        *fifo.count == 0
    }

    /// A flit enters `vc`'s buffer, kept in `fifo`, at `now` (its arrival kept in the ring if
    /// `RING`).
    #[inline(always)]
    pub fn push<const RING: bool>(&mut self, vc: u32, fifo: Fifo<'_>, now: u64) {
        let r = self.mask as usize + 1;
        let slot = (u32::from(*fifo.front) + u32::from(*fifo.count)) & self.mask;
        if RING {
            self.slots[vc as usize * r + slot as usize] = now;
        }
        // Only the flit entering an empty buffer is at its front. Chosen without a branch:
        // whether the buffer was empty is as good as random on a busy network.
        *fifo.ready = select_unpredictable(*fifo.count == 0, now + self.pipeline, *fifo.ready);
        *fifo.count += 1;
    }
}

/// The worms with flits (or, the newest, a header to come) in a buffer, oldest first: `queued`
/// of them from slot `first` of its `B + 1` slots in [`Buffers::queue`]. Kept with
/// [`VcRelease::TailSent`] only: with [`VcRelease::TailLeft`] the one worm is the owner.
#[derive(Clone, Copy, Debug, Default)]
struct Queue {
    first: u16,
    queued: u16,
}

/// Every virtual channel's buffer (global id `channel · V + v`).
pub(crate) struct Buffers {
    /// `B`, flits per buffer.
    pub size: u32,
    release: VcRelease,
    pub vc: Vec<Vc>,
    pub ring: Ring,
    queues: Vec<Queue>,
    /// The worms queued in each buffer, `B + 1` slots from `vc · (B + 1)` (empty, as `queues`,
    /// with [`VcRelease::TailLeft`]).
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
        let (queues, queue) = match release {
            VcRelease::TailSent => (
                vec![Queue::default(); count],
                vec![NONE; count * (size as usize + 1)],
            ),
            VcRelease::TailLeft => (Vec::new(), Vec::new()),
        };
        Buffers {
            size,
            release,
            vc: vec![free; count],
            ring: Ring {
                slots: if pipeline > 1 {
                    vec![0; count * size.next_power_of_two() as usize]
                } else {
                    Vec::new()
                },
                mask: size.next_power_of_two() - 1,
                pipeline: u64::from(pipeline),
            },
            queues,
            queue,
        }
    }

    /// Whether worm `id`, holding virtual channel `vc` with `flits` flits in it, has a flit at
    /// the front of the buffer that has spent the pipeline in the router at `now` (both tests
    /// made, without a branch between them), read from the record: for buffers worms share
    /// ([`VcRelease::TailSent`]), whose front worm may not be `id`. An owned buffer's state is
    /// read from its owner's hop instead ([`super::network`]).
    #[inline]
    pub fn ready(&self, id: u32, vc: u32, flits: u16, now: u64) -> bool {
        front_ready(flits, self.vc[vc as usize].ready, now) & (self.front_worm(vc) == id)
    }

    /// Whether held virtual channel `vc` has room for a flit.
    #[inline]
    pub fn room(&self, vc: u32) -> bool {
        self.room_for(self.vc[vc as usize].count)
    }

    /// Whether a buffer holding `count` flits has room for one more.
    #[inline(always)]
    pub fn room_for(&self, count: u16) -> bool {
        u32::from(count) < self.size
    }

    /// Whether the buffers keep the ring of arrival cycles: the `RING` that the moves are to be
    /// compiled with.
    pub fn has_ring(&self) -> bool {
        self.ring.pipeline > 1
    }

    /// The cycle from which a flit generated at the source at `ready` has spent the pipeline.
    pub fn source_ready_at(&self, ready: u64) -> u64 {
        ready + self.ring.pipeline
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
        match self.release {
            VcRelease::TailLeft => self.vc[vc as usize].owner,
            VcRelease::TailSent => self.queue[self.queue_slot(vc, 0)],
        }
    }

    /// Worm `id` takes free virtual channel `vc` and queues behind the worms in its buffer.
    pub fn take(&mut self, vc: u32, id: u32) {
        self.vc[vc as usize].owner = id;
        if self.release == VcRelease::TailSent {
            let slot = self.queue_slot(vc, u32::from(self.queues[vc as usize].queued));
            self.queue[slot] = id;
            self.queues[vc as usize].queued += 1;
        }
    }

    /// The worm at the front of `vc`'s buffer has sent its tail on: it leaves the queue, or,
    /// with [`VcRelease::TailLeft`], gives the virtual channel up.
    pub fn leave(&mut self, vc: u32) {
        match self.release {
            VcRelease::TailLeft => self.vc[vc as usize].owner = NONE,
            VcRelease::TailSent => {
                let q = &mut self.queues[vc as usize];
                q.first = after(u32::from(q.first), self.size + 1) as u16;
                q.queued -= 1;
            }
        }
    }

    /// Whether worm `id` is queued in virtual channel `vc`'s buffer.
    pub fn queued_in(&self, vc: u32, id: u32) -> bool {
        match self.release {
            VcRelease::TailLeft => self.vc[vc as usize].owner == id,
            VcRelease::TailSent => {
                let queued = u32::from(self.queues[vc as usize].queued);
                (0..queued).any(|k| self.queue[self.queue_slot(vc, k)] == id)
            }
        }
    }

    /// The front flit leaves buffer `vc`, whose flits its record keeps ([`Ring::pop`]).
    #[inline]
    pub fn pop<const RING: bool>(&mut self, vc: u32) {
        self.ring.pop::<RING>(vc, self.vc[vc as usize].fifo());
    }

    /// A flit enters buffer `vc`, whose flits its record keeps, at `now` ([`Ring::push`]).
    #[inline]
    pub fn push<const RING: bool>(&mut self, vc: u32, now: u64) {
        self.ring.push::<RING>(vc, self.vc[vc as usize].fifo(), now);
    }
}

/// Whether a buffer holding `count` flits, whose front flit may leave at `ready`, has a flit
/// that may leave at `now` (both tests made, without a branch between them).
#[inline(always)]
pub fn front_ready(count: u16, ready: u64, now: u64) -> bool {
    (count > 0) & (ready <= now)
}
