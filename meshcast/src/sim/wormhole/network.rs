//! The cycle engine: routers, credits and worms, as flat arrays, over the virtual-channel
//! buffers of [`super::buffers`] and the switch allocator of [`super::switch`].
//!
//! Every router has one input port per incoming channel plus `d` injection ports, and one output
//! port per outgoing channel plus `d` ejection ports; a crossbar joins them. Each input port has
//! `V` virtual-channel buffers of `B` flits. A virtual channel belongs to one worm from the cycle
//! its header takes it until its tail leaves, so a buffer holds the flits of one worm only and is
//! stored as a count and a ring of arrival cycles (for the pipeline delay), never as flits.
//!
//! One cycle, all decisions on the state at the start of the cycle:
//! 1. **route and VC allocation**: a header that has spent `pipeline` cycles in its router takes
//!    the lowest free virtual channel of its class on its next channel (or a free ejection
//!    channel at its last node), worms in a fixed order;
//! 2. **switch allocation**, separable and input-first: each input port picks one of its
//!    virtual channels holding a ready flit whose next buffer has a credit (round robin), then
//!    each output port picks one of those input ports (round robin);
//! 3. **traversal**: the winners move one flit each; a flit may leave its next buffer
//!    `pipeline` cycles later; a credit is seen upstream the cycle after a flit leaves.
//!
//! Ties are broken by fixed orders only, so a run is a pure function of its inputs.
//!
//! **Direct cycles.** With one virtual channel per port and [`VcRelease::TailLeft`] a buffer
//! holds the flits of its owner only, so a worm's requests read nothing that another worm's
//! moves change, and every request wins ([`super::switch`]). Such a cycle moves each worm's
//! flits as soon as its requests are known, worm by worm, without the request list: the same
//! moves in the same order, made by the one function that makes a switched cycle's granted
//! moves (`Network::advance`). Within a worm the positions go from the tail to the head, so a
//! position's move only fills the buffer the next position reads, which leaves that position's
//! test as it was (its front flit stays, or the new front flit has the pipeline to spend).
//! What a tail's departure frees (and the worms it wakes) waits until every worm has moved, as
//! in a switched cycle, where the traversal follows every allocation. The worm keeps the cycle
//! its header may next try ([`Worm`]'s `due`, the head buffer's ready cycle once the header is
//! there), so that a visit passes over the allocation with one comparison.
//!
//! **Owned buffers.** With [`VcRelease::TailLeft`] a buffer holds its owner's flits only, with
//! any number of virtual channels. Its flits (count, front slot, ready cycle:
//! [`super::buffers::Fifo`]) are then kept in the owner's hop rather than in the virtual
//! channel's record, so that a worm's requests, moves and tests read its own hops and the ring
//! of arrival cycles, nothing else; the record keeps only the owner, which the allocation reads.
//!
//! **Virtual-channel release** ([`VcRelease`]). By default a worm gives a virtual channel up when
//! its tail leaves the buffer, so a buffer holds one worm's flits. With
//! [`VcRelease::TailSent`] (BookSim2's) it gives it up as soon as its tail has been sent into the
//! buffer; the next worm to take it queues its flits behind, so a buffer holds the flits of the
//! worms that took it in turn (at most `B + 1` of them, each but the newest with a flit in it),
//! kept in a small queue per virtual channel, and only the worm at the front may move flits out.
//!
//! **Parked and sleeping worms.** A worm whose header failed to get a virtual channel (or an
//! ejection channel) cannot get one before a virtual channel of that channel (an ejection
//! channel of that node) frees. It is *parked*: put on the wake-up list of that channel (or of
//! the node's ejection channels), which freeing any of them wakes, and its header does not try
//! again until then, while its other flits go on moving. Once they are packed up behind the
//! header (each buffer empty or its next one full) the worm can do nothing until it is woken: its
//! buffers belong to it alone, so nothing else changes them. Such a worm *sleeps*: both phases
//! skip it. A woken worm keeps its place in the worm order, so the allocation order, hence every
//! result, is the same as when every blocked worm is re-examined every cycle (test
//! `engine_reports_are_pinned`).

use crate::hint::prefetch;
use crate::topology::Node;

use super::buffers::{front_ready, Buffers, Fifo};
use super::channels::{Channels, WormHop};
use super::config::{Router, VcRelease};
use super::observer::{ChannelId, Observer};
use super::switch::{Request, Switch};

pub(crate) const NONE: u32 = u32::MAX;

/// A worm in the network: one cache line, aligned, since the cycle loop reads every awake
/// worm's record.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Worm {
    tag: u32,
    /// Its hops, each with the virtual channel it holds there.
    hops: Vec<WormHop>,
    /// Injection port (`node · d + k`) while flits remain at the source, else `NONE`.
    inj: u32,
    /// `k`, the injection port's index at its node (the crossbar input `2n + k`; `d` ≤ 64):
    /// small, so that a worm's record is one cache line.
    inj_local: u16,
    /// Ejection port (global output id) once the header reached its last node and took one: so
    /// the worm's head is then its last hop, and its tail is no further on.
    ej: u32,
    /// Flits still at the source.
    unsent: u32,
    /// The first cycle its header may try to take what it wants next: at the source, once it
    /// has spent the pipeline there; in a direct cycle, after every visit, when it will have
    /// spent the pipeline in its head buffer (`u64::MAX` while it cannot try: on its way to that
    /// buffer, parked, or ejecting). Never later than the first cycle the full test
    /// ([`Network::allocate`]) passes, which it only spares.
    due: u64,
    /// The frontmost hop whose virtual channel the worm holds; -1 before the first.
    head: i32,
    /// The rearmost position holding flits: -1 the source, else a hop.
    tail: i32,
    /// Flits ejected at the last node.
    ejected: u32,
    /// Its header failed to get what it wants next: the worm is on the wake-up list of that
    /// channel (or of the node's ejection channels) and does not try again until it frees.
    parked: bool,
}

const _: () = assert!(std::mem::size_of::<Worm>() == 64);

impl Worm {
    /// The places the flit at the front of position `pos` (-1: the source) leaves and enters:
    /// the next hop's buffer, or, from the last hop, the ejection channel.
    #[inline(always)]
    fn places(&mut self, pos: i32) -> (Leaves<'_>, Enters<'_>) {
        let (behind, ahead) = self.hops.split_at_mut((pos + 1) as usize);
        let leaves = match behind.last_mut() {
            Some(hop) => Leaves::Hop(Place::of(hop)),
            None => Leaves::Source(&mut self.unsent),
        };
        let enters = match ahead.first_mut() {
            Some(hop) => Enters::Hop(Place::of(hop)),
            None => Enters::Ejection(&mut self.ejected),
        };
        (leaves, enters)
    }
}

/// The place a flit leaves: its worm's source (with the flits still there) or a hop.
enum Leaves<'a> {
    Source(&'a mut u32),
    Hop(Place<'a>),
}

/// The place a flit enters: a hop, or the ejection channel (with the worm's flits ejected).
enum Enters<'a> {
    Hop(Place<'a>),
    Ejection(&'a mut u32),
}

/// A hop a flit leaves or enters: its channel, virtual channel and worm's flits in the buffer,
/// read when the move is named, before it writes any buffer (the compiler cannot tell a buffer
/// from a hop, so it would read the hop again), and where the hop keeps that count of flits —
/// and, when the buffer is owned (module docs), the rest of its state ([`WormHop::fifo`]).
struct Place<'a> {
    channel: u32,
    vc: u32,
    flits: u16,
    fifo: Fifo<'a>,
}

impl<'a> Place<'a> {
    /// `hop`, read now.
    #[inline(always)]
    fn of(hop: &'a mut WormHop) -> Self {
        Place {
            channel: hop.channel,
            vc: hop.vc,
            flits: hop.flits,
            fifo: hop.fifo(),
        }
    }
}

/// Whether worm `id`, holding `hop`, has a flit at the front of its buffer that has spent the
/// pipeline in the router at `now`: read from the hop if the buffers are `OWNED` (module docs),
/// else from the virtual channel's record.
#[inline(always)]
fn hop_ready<const OWNED: bool>(bufs: &Buffers, id: u32, hop: &WormHop, now: u64) -> bool {
    if OWNED {
        front_ready(hop.flits, hop.ready, now)
    } else {
        bufs.ready(id, hop.vc, hop.flits, now)
    }
}

/// Whether held `hop`'s buffer has room for a flit: read from the hop if the buffers are
/// `OWNED`, else from the virtual channel's record.
#[inline(always)]
fn hop_room<const OWNED: bool>(bufs: &Buffers, hop: &WormHop) -> bool {
    if OWNED {
        bufs.room_for(hop.flits)
    } else {
        bufs.room(hop.vc)
    }
}

/// The flits moved so far.
#[derive(Debug, Default)]
pub(crate) struct Flits {
    /// Crossings of network channels (flit-hops), for utilisation.
    pub hops: u64,
    /// Flits ejected at worms' last nodes.
    pub ejected: u64,
    /// Flits that entered the network.
    pub injected: u64,
}

/// The awake worms in the order they started (the worm order, with the sleeping worms left
/// out), so that a cycle passes over no sleeping worm; a worm is put back in its place when it
/// wakes.
#[derive(Debug, Default)]
struct Awake {
    /// `(start number, worm)`, by start number.
    list: Vec<(u64, u32)>,
    /// Per worm, its start number.
    order: Vec<u64>,
    /// Worms started so far.
    started: u64,
}

impl Awake {
    /// Worm `id` starts, after every worm in the list.
    fn start(&mut self, id: u32) {
        let i = id as usize;
        if i >= self.order.len() {
            self.order.resize(i + 1, 0);
        }
        self.order[i] = self.started;
        self.list.push((self.started, id));
        self.started += 1;
    }

    /// Where worm `id` is, or belongs, in the list.
    fn place(&self, id: u32) -> Result<usize, usize> {
        let key = self.order[id as usize];
        self.list.binary_search_by_key(&key, |&(k, _)| k)
    }

    /// Worm `id` wakes: back in its place.
    fn insert(&mut self, id: u32) {
        if let Err(at) = self.place(id) {
            self.list.insert(at, (self.order[id as usize], id));
        }
    }

    /// Worm `id` falls asleep or is over.
    fn remove(&mut self, id: u32) {
        if let Ok(at) = self.place(id) {
            self.list.remove(at);
        }
    }
}

/// Worm `tag`'s tail left the router at `node` this cycle: the node holds a copy if the hop
/// drops one (`copy`), and the worm is over if it was its last hop (`last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arrival {
    pub tag: u32,
    pub node: Node,
    pub copy: bool,
    pub last: bool,
}

/// Routers, buffers and worms.
pub(crate) struct Network {
    pub channels: Channels,
    vcs: u32,
    ports: u32,
    length: u32,
    links: u32,
    release: VcRelease,
    bufs: Buffers,
    /// Per injection / ejection port (node · d + k): the worm using it.
    inj_owner: Vec<u32>,
    ej_owner: Vec<u32>,
    switch: Switch,
    worms: Vec<Worm>,
    free_worms: Vec<u32>,
    /// The worms in the network, in the order they started (their start numbers in
    /// [`Awake::order`]).
    active: Vec<u32>,
    awake: Awake,
    /// Awake worms whose header is parked ([`Worm`]): candidates to sleep.
    parked: Vec<u32>,
    /// Per channel, the parked worms (asleep or not) waiting for one of its virtual channels.
    wake_channel: Vec<Vec<u32>>,
    /// Per node, the parked worms (asleep or not) waiting for one of its ejection channels.
    wake_eject: Vec<Vec<u32>>,
    /// The flits moved so far, for utilisation and the conservation check.
    pub flits: Flits,
    /// The nodes whose injection ports have freed since [`super::nodes::Nodes`] last looked.
    pub ports_freed: Vec<u32>,
    /// Whether a buffer holds its owner's flits only ([`VcRelease::TailLeft`]), kept in the
    /// owner's hop (module docs).
    owned: bool,
    /// Whether cycles are direct (module docs): buffers owned, one virtual channel per port.
    direct: bool,
    /// In a direct cycle, the tails that left a position (worm, position), in the order they
    /// moved.
    tails: Vec<(u32, i32)>,
}

impl Network {
    /// The network of `channels` with `router`'s buffers, pipeline, ports, length and release.
    pub fn new(channels: Channels, router: Router) -> Network {
        let Router {
            vcs,
            buffer,
            pipeline,
            ports,
            length,
            release,
            ..
        } = router;
        let links = channels.head.len() as u32;
        let nodes = channels.shape.len() as u32;
        let total_vcs = (links * vcs) as usize;
        let io = (nodes * ports) as usize;
        let ports_total = links as usize + io;
        let radix = channels.per_node + ports;
        let owned = release == VcRelease::TailLeft;
        Network {
            channels,
            vcs,
            ports,
            length,
            links,
            release,
            bufs: Buffers::new(total_vcs, buffer, pipeline, release),
            inj_owner: vec![NONE; io],
            ej_owner: vec![NONE; io],
            switch: Switch::new(ports_total, radix, vcs, total_vcs + io),
            worms: Vec::new(),
            free_worms: Vec::new(),
            active: Vec::new(),
            awake: Awake::default(),
            parked: Vec::new(),
            wake_channel: vec![Vec::new(); links as usize],
            wake_eject: vec![Vec::new(); nodes as usize],
            flits: Flits::default(),
            ports_freed: Vec::new(),
            owned,
            direct: vcs == 1 && owned,
            tails: Vec::new(),
        }
    }

    /// Worms in the network (in start-up, or with flits anywhere).
    pub fn active_worms(&self) -> usize {
        self.active.len()
    }

    /// A free injection port of `node`, lowest first.
    pub fn free_port(&self, node: Node) -> Option<u32> {
        let base = node.0 * self.ports;
        (base..base + self.ports).find(|&p| self.inj_owner[p as usize] == NONE)
    }

    /// Start a worm on injection port `port` (from [`Network::free_port`]) at cycle `now`: it
    /// holds the port through its start-up (`startup` cycles) until its tail leaves the router.
    /// `fill` writes the worm's hops into the buffer it is given.
    pub fn start<E>(
        &mut self,
        now: u64,
        port: u32,
        startup: u32,
        tag: u32,
        fill: impl FnOnce(&Channels, &mut Vec<WormHop>) -> Result<(), E>,
    ) -> Result<(), E> {
        let id = match self.free_worms.pop() {
            Some(id) => id,
            None => {
                self.worms.push(Worm::default());
                self.worms.len() as u32 - 1
            }
        };
        let w = &mut self.worms[id as usize];
        if let Err(e) = fill(&self.channels, &mut w.hops) {
            self.free_worms.push(id);
            return Err(e);
        }
        debug_assert!(!w.hops.is_empty(), "a send has at least one hop");
        w.tag = tag;
        w.inj = port;
        w.inj_local = (port % self.ports) as u16;
        w.ej = NONE;
        w.unsent = self.length;
        w.due = self.bufs.source_ready_at(now + u64::from(startup));
        w.head = -1;
        w.tail = -1;
        w.ejected = 0;
        w.parked = false;
        self.inj_owner[port as usize] = id;
        self.active.push(id);
        self.awake.start(id);
        Ok(())
    }

    /// Play one cycle `now`; arrivals are appended to `out`, and every flit crossing a network
    /// channel is told to `obs`. Returns the flits moved.
    pub fn step(&mut self, now: u64, out: &mut Vec<Arrival>, obs: &mut impl Observer) -> u32 {
        let ejected = self.flits.ejected;
        let moved = match (self.direct, self.owned, self.bufs.has_ring()) {
            (true, _, true) => self.streamed::<true>(now, out, obs),
            (true, _, false) => self.streamed::<false>(now, out, obs),
            (false, true, true) => self.switched::<true, true>(now, out, obs),
            (false, true, false) => self.switched::<true, false>(now, out, obs),
            (false, false, true) => self.switched::<false, true>(now, out, obs),
            (false, false, false) => self.switched::<false, false>(now, out, obs),
        };
        // Every flit moved that was not ejected entered a network channel: counted here, once a
        // cycle, rather than by each move.
        self.flits.hops += u64::from(moved) - (self.flits.ejected - ejected);
        self.sleep();
        moved
    }

    /// A cycle through the switch allocator, with the buffers' flits kept in their owners' hops
    /// if `OWNED` and the ring of arrival cycles if `RING`; returns the flits moved.
    #[inline]
    fn switched<const OWNED: bool, const RING: bool>(
        &mut self,
        now: u64,
        out: &mut Vec<Arrival>,
        obs: &mut impl Observer,
    ) -> u32 {
        // One pass over the worms for both phases: a worm's allocation changes only its own
        // head and the owners of what it takes, which no other worm's requests read, so the
        // requests, and their order, are those of two separate passes.
        for i in 0..self.awake.list.len() {
            self.prefetch_worm(i);
            let id = self.awake.list[i].1;
            self.allocate(id, now);
            self.request::<OWNED>(id, now);
        }
        self.switch.arbitrate();
        let moved = self.switch.granted();
        self.traverse::<OWNED, RING>(moved, now, out, obs);
        self.switch.clear();
        moved as u32
    }

    /// Asks for what the visit of the awake worm `AHEAD` places after the `i`-th will read: its
    /// record, and, for the one half as far ahead, whose record was asked for before, the lines
    /// of its tail's and head's hops. A switched cycle visits more worms, with more virtual
    /// channels, than the caches nearest the core hold (seed 003's 8×8×8 mesh with four); a
    /// direct cycle's fewer worms were slower for it (docs/PERFORMANCE.md).
    #[inline(always)]
    fn prefetch_worm(&self, i: usize) {
        const AHEAD: usize = 4;
        let list = &self.awake.list;
        if let Some(&(_, id)) = list.get(i + AHEAD) {
            prefetch(&self.worms[id as usize]);
        }
        if let Some(&(_, id)) = list.get(i + AHEAD / 2) {
            let w = &self.worms[id as usize];
            if let Some(hop) = w.hops.get(w.tail.max(0) as usize) {
                prefetch(hop);
            }
            if let Some(hop) = w.hops.get(w.head.max(0) as usize) {
                prefetch(hop);
            }
        }
    }

    /// A direct cycle (module docs), with the buffers' ring of arrival cycles if `RING`;
    /// returns the flits moved.
    #[inline]
    fn streamed<const RING: bool>(
        &mut self,
        now: u64,
        out: &mut Vec<Arrival>,
        obs: &mut impl Observer,
    ) -> u32 {
        let mut moved = 0;
        for i in 0..self.awake.list.len() {
            let id = self.awake.list[i].1;
            self.allocate(id, now);
            moved += self.stream::<RING>(id, now, obs);
        }
        for i in 0..self.tails.len() {
            let (id, pos) = self.tails[i];
            self.tail_left(id, pos, out);
        }
        self.tails.clear();
        moved
    }

    /// Whether a flit at position `pos` of worm `id` (`w`) may leave its buffer at `now`: it
    /// has one there, at the front, that has spent the pipeline in the router.
    #[inline(always)]
    fn ready_at(&self, id: u32, w: &Worm, pos: i32, now: u64) -> bool {
        if pos < 0 {
            w.unsent > 0 && now >= w.due
        } else {
            let hop = &w.hops[pos as usize];
            if self.owned {
                hop_ready::<true>(&self.bufs, id, hop, now)
            } else {
                hop_ready::<false>(&self.bufs, id, hop, now)
            }
        }
    }

    /// Whether held `hop`'s buffer has room for a flit.
    #[inline(always)]
    fn room(&self, hop: &WormHop) -> bool {
        if self.owned {
            hop_room::<true>(&self.bufs, hop)
        } else {
            hop_room::<false>(&self.bufs, hop)
        }
    }

    /// Route and virtual-channel allocation for awake worm `id`: its header, once ready, takes
    /// the next hop's lowest free virtual channel of its class (or an ejection channel). The
    /// tests, made for every awake worm each cycle, are inlined into the cycle's loop; the
    /// search, for the few ready headers, is not.
    #[inline(always)]
    fn allocate(&mut self, id: u32, now: u64) {
        let w = &self.worms[id as usize];
        let tries = |w: &Worm| w.ej == NONE && !w.parked && self.ready_at(id, w, w.head, now);
        if self.direct && now < w.due {
            debug_assert!(
                !tries(w),
                "worm {id}'s header is due at {}, ready at {now}",
                w.due
            );
            return;
        }
        if !tries(w) {
            return;
        }
        self.take_next(id);
    }

    /// Worm `id`'s ready header takes the next hop's lowest free virtual channel of its class
    /// (or an ejection channel), or is parked.
    fn take_next(&mut self, id: u32) {
        let w = &self.worms[id as usize];
        let last = w.hops.len() as i32 - 1;
        if w.head == last {
            match self.free_ejection(w) {
                Some(p) => {
                    self.ej_owner[p as usize] = id;
                    self.worms[id as usize].ej = self.links + p;
                }
                None => self.park(id),
            }
            return;
        }
        let next = (w.head + 1) as usize;
        match self.free_vc(w) {
            Some(vc) => {
                self.bufs.take(vc, id);
                let w = &mut self.worms[id as usize];
                let hop = &mut w.hops[next];
                hop.vc = vc;
                hop.vc_local = (vc - hop.channel * self.vcs) as u8;
                w.head = next as i32;
            }
            None => self.park(id),
        }
    }

    /// Worm `id`'s ready header found nothing free: the worm waits on the wake-up list of the
    /// channel it wants (or of its last node's ejection channels), which is woken whenever one
    /// of them frees, and tries again only then — until then it would fail every cycle.
    fn park(&mut self, id: u32) {
        self.worms[id as usize].parked = true;
        let w = &self.worms[id as usize];
        if w.head == w.hops.len() as i32 - 1 {
            let node = self.last_node(w) as usize;
            self.wake_eject[node].push(id);
        } else {
            let channel = w.hops[(w.head + 1) as usize].channel as usize;
            self.wake_channel[channel].push(id);
        }
        self.parked.push(id);
    }

    /// The lowest free ejection port at worm `w`'s last node.
    fn free_ejection(&self, w: &Worm) -> Option<u32> {
        let base = self.last_node(w) * self.ports;
        (base..base + self.ports).find(|&p| self.ej_owner[p as usize] == NONE)
    }

    /// The lowest free virtual channel of worm `w`'s class on the hop after its head.
    fn free_vc(&self, w: &Worm) -> Option<u32> {
        let hop = w.hops[(w.head + 1) as usize];
        let base = hop.channel * self.vcs;
        (hop.vcs.lo as u32..(hop.vcs.lo + hop.vcs.n) as u32)
            .map(|v| base + v)
            .find(|&vc| self.bufs.vc[vc as usize].owner == NONE)
    }

    fn last_node(&self, w: &Worm) -> u32 {
        self.channels.head[w.hops[w.hops.len() - 1].channel as usize]
    }

    /// Put to sleep the parked worms that are packed up behind their header: nothing of theirs
    /// can move until what they wait for frees, which wakes them. Parked worms woken this cycle
    /// leave the candidates.
    #[inline]
    fn sleep(&mut self) {
        let mut parked = std::mem::take(&mut self.parked);
        parked.retain(|&id| {
            let w = &self.worms[id as usize];
            if !w.parked {
                return false;
            }
            if !self.packed(id, w) {
                return true;
            }
            self.awake.remove(id);
            false
        });
        self.parked = parked;
    }

    /// Whether no flit of worm `id` (`w`) behind its header's buffer can move until a channel
    /// it waits for frees: every position from the tail up to the one before the head is empty
    /// or at the front of its buffer and facing a full one. (Flits queued behind another worm's
    /// wait for that worm, not for a channel: such a worm stays awake.)
    fn packed(&self, id: u32, w: &Worm) -> bool {
        (w.tail..w.head).all(|pos| {
            let flits = if pos < 0 {
                w.unsent
            } else {
                let hop = &w.hops[pos as usize];
                if hop.flits > 0 && self.bufs.front_worm(hop.vc) != id {
                    return false;
                }
                u32::from(hop.flits)
            };
            flits == 0 || !self.room(&w.hops[(pos + 1) as usize])
        })
    }

    /// Wake every worm waiting on `list`, parked or asleep: each tries again next cycle.
    fn wake(awake: &mut Awake, worms: &mut [Worm], list: &mut Vec<u32>) {
        for id in list.drain(..) {
            worms[id as usize].parked = false;
            // It failed once ready, so it is ready now.
            worms[id as usize].due = 0;
            awake.insert(id);
        }
    }

    /// Switch requests of awake worm `id`, from its tail to its head: every position holding a
    /// ready flit whose next buffer (or ejection channel) it holds with room, read from its hops
    /// if the buffers are `OWNED`.
    #[inline]
    fn request<const OWNED: bool>(&mut self, id: u32, now: u64) {
        let switch = &mut self.switch;
        let w = &self.worms[id as usize];
        let bufs = &self.bufs;
        let hops = &w.hops[..];
        // Hops `0..held` are held: every position before the head faces a held buffer.
        let held = (w.head + 1) as usize;
        if w.tail < 0 {
            // Its header took the first hop (`held > 0`) once ready at the source, where the
            // flits left were all generated with it: they are ready too.
            let valid = w.unsent > 0 && held > 0 && hop_room::<OWNED>(bufs, &hops[0]);
            let r = Request {
                worm: id,
                pos: -1,
                input: self.links + w.inj,
                output: hops[0].channel,
                vc_local: 0,
                in_local: self.channels.per_node + u32::from(w.inj_local),
            };
            switch.request(valid, r);
        }
        let from = w.tail.max(0) as usize;
        let at = |pos: usize, output: u32| {
            let hop = &hops[pos];
            Request {
                worm: id,
                pos: pos as i32,
                input: hop.channel,
                output,
                vc_local: u32::from(hop.vc_local),
                in_local: u32::from(hop.lane),
            }
        };
        for (pos, pair) in (from..).zip(hops[from..held].windows(2)) {
            let (hop, next) = (&pair[0], &pair[1]);
            let valid = hop_ready::<OWNED>(bufs, id, hop, now) & hop_room::<OWNED>(bufs, next);
            switch.request(valid, at(pos, next.channel));
        }
        // At its last node the head leaves through its ejection channel, once it has one.
        debug_assert!(w.ej == NONE || (held == w.hops.len() && held > from));
        if w.ej != NONE {
            let valid = hop_ready::<OWNED>(bufs, id, &hops[held - 1], now);
            switch.request(valid, at(held - 1, w.ej));
        }
    }

    /// Awake worm `id`'s moves in a direct cycle, from its tail to its head: the flit at the
    /// front of each position it holds moves on if it is ready and its next buffer (or
    /// ejection channel, once held) has room. The tails that leave are recorded, to be acted on
    /// once every worm has moved. Returns the flits moved.
    #[inline]
    fn stream<const RING: bool>(&mut self, id: u32, now: u64, obs: &mut impl Observer) -> u32 {
        let (bufs, flits) = (&mut self.bufs, &mut self.flits);
        let w = &mut self.worms[id as usize];
        // Hops `0..held` are held: every position before the head faces a held buffer.
        let held = (w.head + 1) as usize;
        let tail = w.tail;
        let mut moved = 0;
        // As in `request`, the source's flits are ready once the header took the first hop.
        if tail < 0 && w.unsent > 0 && held > 0 && bufs.room_for(w.hops[0].flits) {
            moved += 1;
            let (leaves, enters) = (
                Leaves::Source(&mut w.unsent),
                Enters::Hop(Place::of(&mut w.hops[0])),
            );
            if Self::advance::<RING, true>(bufs, flits, leaves, enters, now, obs) {
                self.tails.push((id, -1));
            }
        }
        let from = tail.max(0) as usize;
        // Indexed within the held hops' slice, so that no index is checked.
        let body = &mut w.hops[from..held.max(from)];
        for i in 1..body.len() {
            let (behind, ahead) = body.split_at_mut(i);
            let (hop, next) = (&mut behind[i - 1], &mut ahead[0]);
            if front_ready(hop.flits, hop.ready, now) & bufs.room_for(next.flits) {
                moved += 1;
                let (leaves, enters) = (Leaves::Hop(Place::of(hop)), Enters::Hop(Place::of(next)));
                let pos = (from + i - 1) as i32;
                if Self::advance::<RING, true>(bufs, flits, leaves, enters, now, obs) && tail == pos
                {
                    self.tails.push((id, pos));
                }
            }
        }
        // At its last node the head leaves through its ejection channel, once it has one.
        debug_assert!(w.ej == NONE || (held == w.hops.len() && held > from));
        if w.ej != NONE {
            let pos = held - 1;
            let hop = &mut w.hops[pos];
            if front_ready(hop.flits, hop.ready, now) {
                moved += 1;
                let (leaves, enters) = (
                    Leaves::Hop(Place::of(hop)),
                    Enters::Ejection(&mut w.ejected),
                );
                let pos = pos as i32;
                if Self::advance::<RING, true>(bufs, flits, leaves, enters, now, obs) && tail == pos
                {
                    self.tails.push((id, pos));
                }
            }
        }
        // Once at the front of its head buffer (the first flit in, and, until it is ejected, the
        // first out), the header may try when it has spent the pipeline there.
        if held > 0 {
            let hop = &w.hops[held - 1];
            let waits = w.ej == NONE && !w.parked && hop.flits > 0;
            w.due = if waits { hop.ready } else { u64::MAX };
        }
        moved
    }

    /// Traversal: the flits of the `moved` granted requests move, with the buffers' flits kept
    /// in their owners' hops if `OWNED` and the ring of arrival cycles if `RING`
    /// ([`Buffers::has_ring`]), and each tail that leaves frees what it held at once.
    #[inline]
    fn traverse<const OWNED: bool, const RING: bool>(
        &mut self,
        moved: usize,
        now: u64,
        out: &mut Vec<Arrival>,
        obs: &mut impl Observer,
    ) {
        for i in 0..moved {
            let Request { worm: id, pos, .. } = self.switch.grant(i);
            let w = &mut self.worms[id as usize];
            let (leaves, enters) = w.places(pos);
            let emptied = Self::advance::<RING, OWNED>(
                &mut self.bufs,
                &mut self.flits,
                leaves,
                enters,
                now,
                obs,
            );
            // Both tests made, without a branch between them: a buffer empties often (a lost
            // request leaves a bubble), the tail leaves seldom.
            if emptied & (w.tail == pos) {
                self.tail_left(id, pos, out);
            }
        }
    }

    /// A flit's move, the one both kinds of cycle make: the flit at the front of `leaves`
    /// enters `enters`, counted in `flits` (injected or ejected; the flits that cross a network
    /// channel are counted once a cycle, by [`Network::step`]) and told to `obs`. Returns
    /// whether `leaves` is now empty, which is the tail leaving if `leaves` is the worm's tail
    /// position; the caller frees what the tail held, at once in a switched cycle, after every
    /// worm has moved in a direct one (module docs). With owned buffers (`OWNED`) a buffer's
    /// flits are kept in its owner's hop; else in its record, and the hop counts the worm's.
    #[inline(always)]
    fn advance<const RING: bool, const OWNED: bool>(
        bufs: &mut Buffers,
        flits: &mut Flits,
        leaves: Leaves,
        enters: Enters,
        now: u64,
        obs: &mut impl Observer,
    ) -> bool {
        let emptied = match leaves {
            Leaves::Source(unsent) => {
                *unsent -= 1;
                flits.injected += 1;
                *unsent == 0
            }
            Leaves::Hop(hop) => {
                if OWNED {
                    bufs.ring.pop::<RING>(hop.vc, hop.fifo)
                } else {
                    bufs.pop::<RING>(hop.vc);
                    *hop.fifo.count -= 1;
                    hop.flits == 1
                }
            }
        };
        match enters {
            Enters::Hop(hop) => {
                if OWNED {
                    bufs.ring.push::<RING>(hop.vc, hop.fifo, now);
                } else {
                    bufs.push::<RING>(hop.vc, now);
                    *hop.fifo.count += 1;
                }
                obs.on_flit(now, ChannelId(hop.channel));
            }
            Enters::Ejection(ejected) => {
                *ejected += 1;
                flits.ejected += 1;
            }
        }
        emptied
    }

    /// Worm `id`'s tail flit has just left position `pos`: the worm gives up what it held there
    /// (and, with [`VcRelease::TailSent`], the next virtual channel), the node there gets its
    /// copy, and the worm is over if that was its last hop.
    fn tail_left(&mut self, id: u32, pos: i32, out: &mut Vec<Arrival>) {
        let last = self.worms[id as usize].hops.len() as i32 - 1;
        if self.release == VcRelease::TailSent && pos < last {
            // The tail is in the next buffer: the next worm may take its virtual channel.
            let next = self.worms[id as usize].hops[(pos + 1) as usize];
            self.bufs.vc[next.vc as usize].owner = NONE;
            Self::wake(
                &mut self.awake,
                &mut self.worms,
                &mut self.wake_channel[next.channel as usize],
            );
        }
        let w = &mut self.worms[id as usize];
        if pos < 0 {
            self.inj_owner[w.inj as usize] = NONE;
            self.ports_freed.push(w.inj / self.ports);
            w.inj = NONE;
            w.tail = 0;
            return;
        }
        let hop = w.hops[pos as usize];
        w.hops[pos as usize].vc = NONE;
        // The worm at the front of the buffer leaves its queue.
        self.bufs.leave(hop.vc);
        if hop.drop || pos == last {
            out.push(Arrival {
                tag: w.tag,
                node: Node(self.channels.head[hop.channel as usize]),
                copy: hop.drop,
                last: pos == last,
            });
        }
        Self::wake(
            &mut self.awake,
            &mut self.worms,
            &mut self.wake_channel[hop.channel as usize],
        );
        let w = &mut self.worms[id as usize];
        if pos < last {
            w.tail = pos + 1;
            return;
        }
        let port = w.ej - self.links;
        self.ej_owner[port as usize] = NONE;
        self.free_worms.push(id);
        self.awake.remove(id);
        // The worm list is in start order: the worm is found by its start number, not by a pass
        // over every worm's record.
        let order = &self.awake.order;
        let key = order[id as usize];
        if let Ok(at) = self
            .active
            .binary_search_by_key(&key, |&a| order[a as usize])
        {
            self.active.remove(at);
        }
        Self::wake(
            &mut self.awake,
            &mut self.worms,
            &mut self.wake_eject[(port / self.ports) as usize],
        );
    }

    /// Every flit accounted for: each active worm's flits at its source, in buffers it holds and
    /// ejected add up to the message length, and no buffer holds flits of a worm that does not
    /// own it. `Err` says which worm or buffer is wrong.
    pub fn check_conservation(&self) -> Result<(), String> {
        let mut held = 0u64;
        for &id in &self.active {
            let w = &self.worms[id as usize];
            let mut sum = u64::from(w.unsent) + u64::from(w.ejected);
            for hop in &w.hops {
                let vc = hop.vc;
                if vc != NONE {
                    if !self.bufs.queued_in(vc, id) {
                        return Err(format!(
                            "worm {id} holds virtual channel {vc} but is not queued in it"
                        ));
                    }
                    sum += u64::from(hop.flits);
                    held += u64::from(hop.flits);
                }
            }
            if sum != u64::from(self.length) {
                return Err(format!(
                    "worm {id} accounts for {sum} flits, not {}",
                    self.length
                ));
            }
        }
        let buffered: u64 = self.bufs.vc.iter().map(|vc| u64::from(vc.count)).sum();
        // Owned buffers' flits are kept in their owners' hops, and the records none.
        if self.owned && buffered != 0 {
            return Err(format!(
                "{buffered} flits counted in the records of buffers kept by their owners"
            ));
        }
        if !self.owned && buffered != held {
            return Err(format!(
                "{buffered} flits buffered but active worms hold {held}"
            ));
        }
        let in_flight = self.flits.injected - self.flits.ejected;
        if in_flight != held {
            return Err(format!(
                "{in_flight} flits injected and not ejected, {held} buffered"
            ));
        }
        Ok(())
    }

    /// The worms that hold channels, with what each waits for: one line each, at most `most`.
    pub fn waiting(&self, most: usize) -> Vec<String> {
        let shape = &self.channels.shape;
        let name = |c: u32| {
            let from = Node(c / self.channels.per_node);
            let to = Node(self.channels.head[c as usize]);
            format!("{}->{}", shape.fmt_node(from), shape.fmt_node(to))
        };
        self.active
            .iter()
            .take(most)
            .map(|&id| {
                let w = &self.worms[id as usize];
                let last = w.hops.len() as i32 - 1;
                let wants = if w.head == last {
                    format!(
                        "an ejection channel at {}",
                        shape.fmt_node(Node(
                            self.channels.head[w.hops[last as usize].channel as usize]
                        ))
                    )
                } else {
                    format!("channel {}", name(w.hops[(w.head + 1) as usize].channel))
                };
                let holds = if w.head < 0 {
                    "nothing".to_string()
                } else {
                    name(w.hops[w.head as usize].channel)
                };
                format!("worm {id} holds {holds} and waits for {wants}")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Hop;
    use crate::sim::wormhole::channels::Classes;
    use crate::sim::wormhole::observer::NoObserver;
    use crate::topology::Shape;

    /// The conservation check sees a flit that appears from nowhere and one that vanishes, in
    /// switched cycles (2 virtual channels) and in direct ones (1), with buffers kept by their
    /// owners' hops, where a flit counted in a buffer's record is wrong too, and in switched
    /// cycles whose buffers keep their own flits ([`VcRelease::TailSent`]).
    #[test]
    fn conservation_catches_a_lost_or_forged_flit() {
        for (vcs, release) in [
            (2, VcRelease::TailLeft),
            (1, VcRelease::TailLeft),
            (2, VcRelease::TailSent),
        ] {
            let shape = Shape::mesh(&[4, 4]).unwrap();
            let channels = Channels::new(&shape, vcs, Classes::default()).unwrap();
            let router = Router {
                vcs,
                buffer: 4,
                ports: 1,
                length: 8,
                release,
                ..Router::default()
            };
            let mut net = Network::new(channels, router);
            assert_eq!(net.direct, vcs == 1 && net.owned);
            assert_eq!(net.owned, release == VcRelease::TailLeft);
            let from = shape.node(&[0, 0]).unwrap();
            let hops: Vec<Hop> = [[1, 0], [2, 0], [2, 1]]
                .iter()
                .map(|c| Hop::new(shape.node(c).unwrap(), true))
                .collect();
            let port = net.free_port(from).unwrap();
            net.start(0, port, 0, 7, |ch, out| ch.route(from, &hops, out))
                .unwrap();
            let mut out = Vec::new();
            for now in 0..4 {
                net.step(now, &mut out, &mut NoObserver);
            }
            net.check_conservation().unwrap();
            net.worms[0].hops[0].flits += 1;
            assert!(net
                .check_conservation()
                .unwrap_err()
                .contains("accounts for 9 flits"));
            net.worms[0].hops[0].flits -= 2;
            assert!(net.check_conservation().is_err());
            net.worms[0].hops[0].flits += 1;
            net.check_conservation().unwrap();
            if net.owned {
                net.bufs.vc[net.worms[0].hops[0].vc as usize].count += 1;
                assert!(net
                    .check_conservation()
                    .unwrap_err()
                    .contains("records of buffers kept by their owners"));
            }
        }
    }
}
