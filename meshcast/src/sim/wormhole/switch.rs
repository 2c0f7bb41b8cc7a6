//! The switch allocator of every router at once: separable and input-first, round robin at both
//! stages. It sees requests only (which input port and virtual channel wants which output port)
//! and says which win; what a winning flit does is the network's business
//! ([`super::network`]).
//!
//! Each input port picks one of its virtual channels' requests (round robin from the virtual
//! channel after the one that last won there), then each output port picks one of the input
//! ports that chose it (round robin from the input port after the one that last won there).
//! Winners are granted in the order their outputs were first requested, which is the order the
//! network asked in, so a cycle is a pure function of its requests.
//!
//! With one virtual channel per port there is nothing to arbitrate: a request's output is a
//! virtual channel (or an ejection channel) its worm holds, and only one worm holds it, so no
//! two requests of a cycle share an output (nor an input: only the worm at the front of a buffer
//! moves flits out of it). Every request wins, in the order it was made, and the round-robin
//! pointers, never compared, are left alone.

/// A flit that wants to cross the crossbar this cycle.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Request {
    pub worm: u32,
    /// The worm's position the flit leaves: -1 the source, else a hop.
    pub pos: i32,
    pub input: u32,
    pub output: u32,
    /// Virtual channel index within the input port (round-robin key at the input).
    pub vc_local: u32,
    /// Input port index within its router (round-robin key at the output).
    pub in_local: u32,
}

/// A port's round-robin pointer and this cycle's favourite request there, in one word: from
/// the top, the favourite's round-robin key (24 bits), its request's index (32 bits), the
/// pointer (8 bits: kept below `V` ≤ 64 at an input and below the radix, `2n + d` ≤ 116, at an
/// output, so that no division is needed). Every candidate carries the port's pointer bits, so
/// the least word holds the request whose key comes first; and a port takes the 8 bytes the
/// pointer and the favourite took as two words before (`super::state_bytes` counts them).
#[derive(Clone, Copy, Debug)]
struct Port(u64);

/// Where a port's request index begins, and its key.
const INDEX_SHIFT: u32 = 8;
const KEY_SHIFT: u32 = 40;
/// A port's key and index bits while nothing asked for it this cycle: above every key and index.
const NO_FAVOURITE: u64 = !0 << INDEX_SHIFT;

impl Port {
    const NEW: Port = Port(NO_FAVOURITE);

    /// The round-robin pointer.
    #[inline(always)]
    fn rr(self) -> u32 {
        (self.0 & !NO_FAVOURITE) as u32
    }

    #[inline(always)]
    fn set_rr(&mut self, rr: u32) {
        self.0 = (self.0 & NO_FAVOURITE) | u64::from(rr);
    }

    /// Request `idx`, from `local` (its virtual channel at an input, its input port at an
    /// output, below `n`), competes here: kept if it comes first in the round robin from the
    /// port's pointer. Returns whether it is the port's first request this cycle. Without a
    /// branch on either (both are as good as random, and the misses cost more than the work):
    /// the keys of one port's requests differ (one request per virtual channel at an input, per
    /// input port at an output), so the least word holds the request whose key comes first.
    #[inline(always)]
    fn compete(&mut self, local: u32, n: u32, idx: u32) -> bool {
        let key = rotated(local, self.rr(), n);
        let first = self.0 | !NO_FAVOURITE == u64::MAX;
        debug_assert!(
            first || (self.0 >> KEY_SHIFT) as u32 != key,
            "two requests share a key"
        );
        let word = (u64::from(key) << KEY_SHIFT) | (u64::from(idx) << INDEX_SHIFT);
        self.0 = self.0.min(word | (self.0 & !NO_FAVOURITE));
        first
    }

    /// The favourite's request index; the port forgets it and keeps its pointer.
    #[inline(always)]
    fn take(&mut self) -> u32 {
        let idx = (self.0 >> INDEX_SHIFT) as u32;
        self.0 |= NO_FAVOURITE;
        idx
    }
}

/// The ports first asked for this cycle, in that order: written without a branch (the slot
/// after the last is written whether or not the port is new), so room for every port plus one.
#[derive(Debug)]
struct Touched {
    ports: Vec<u32>,
    len: usize,
}

impl Touched {
    fn new(ports: usize) -> Self {
        Touched {
            ports: vec![0; ports + 1],
            len: 0,
        }
    }

    /// `port`, kept if `new`.
    #[inline(always)]
    fn note(&mut self, port: u32, new: bool) {
        self.ports[self.len] = port;
        self.len += usize::from(new);
    }
}

/// Round-robin pointers and this cycle's requests, for every input and output port (network
/// channels first, then the injection or ejection ports).
pub(crate) struct Switch {
    vcs: u32,
    /// Input ports per router: `2n` channels and `d` injection ports.
    radix: u32,
    inputs: Vec<Port>,
    outputs: Vec<Port>,
    touched_in: Touched,
    touched_out: Touched,
    /// This cycle's requests, in the order they were made: the first `made` slots of room for
    /// as many as there are virtual channels and injection ports, plus one.
    requests: Vec<Request>,
    made: usize,
}

impl Switch {
    /// The allocator of `ports` input and output ports, `radix` per router, `vcs` virtual
    /// channels per input port, for at most `most` requests a cycle (one per virtual channel and
    /// injection port: only the worm at the front of a buffer moves flits out of it).
    pub fn new(ports: usize, radix: u32, vcs: u32, most: usize) -> Switch {
        // The configuration's bounds (`V` ≤ 64, `d` ≤ 64, `n` ≤ 26) keep both below a `Port`'s
        // pointer bits, and the request slots below its index bits.
        debug_assert!(vcs <= 0xff && radix <= 0xff, "V = {vcs}, radix {radix}");
        debug_assert!(u32::try_from(most + 1).is_ok(), "{most} request slots");
        Switch {
            vcs,
            radix,
            inputs: vec![Port::NEW; ports],
            outputs: vec![Port::NEW; ports],
            touched_in: Touched::new(ports),
            touched_out: Touched::new(ports),
            requests: vec![Request::default(); most + 1],
            made: 0,
        }
    }

    /// Request `r` if `valid`: written either way, kept only if valid, so that the network's
    /// request loop does not branch on each test.
    #[inline]
    pub fn request(&mut self, valid: bool, r: Request) {
        self.requests[self.made] = r;
        self.made += usize::from(valid);
    }

    /// The input stage, over the cycle's requests in the order they were made: each input port
    /// keeps its round-robin favourite. One pass once every worm has asked, rather than one per
    /// worm, saves a call per worm (3.8% of the instructions of seed 003's 8×8×8 points).
    #[inline]
    fn input_stage(&mut self) {
        for idx in 0..self.made as u32 {
            let r = &self.requests[idx as usize];
            let new = self.inputs[r.input as usize].compete(r.vc_local, self.vcs, idx);
            self.touched_in.note(r.input, new);
        }
    }

    /// Both stages over this cycle's requests: each input port picks one of its virtual
    /// channels' requests ([`Switch::input_stage`]), then the winners, in the order their inputs
    /// first requested, go to the output stage. With one virtual channel per input port there is
    /// nothing to do: every request wins (module docs).
    #[inline]
    pub fn arbitrate(&mut self) {
        if self.vcs == 1 {
            debug_assert!(self.outputs_distinct());
            return;
        }
        self.input_stage();
        for i in 0..self.touched_in.len {
            let input = self.touched_in.ports[i];
            let idx = self.inputs[input as usize].take();
            self.offer(idx);
        }
        self.touched_in.len = 0;
    }

    /// Request `idx`, the winner at its input, competes for its output: round robin from the
    /// output's pointer.
    #[inline(always)]
    fn offer(&mut self, idx: u32) {
        let r = &self.requests[idx as usize];
        let new = self.outputs[r.output as usize].compete(r.in_local, self.radix, idx);
        self.touched_out.note(r.output, new);
    }

    /// Whether this cycle's requests all want different outputs (the premise of skipping the
    /// allocation with one virtual channel per port).
    fn outputs_distinct(&self) -> bool {
        let mut outputs: Vec<u32> = self.requests[..self.made]
            .iter()
            .map(|r| r.output)
            .collect();
        outputs.sort_unstable();
        outputs.windows(2).all(|w| w[0] != w[1])
    }

    /// Output ports granted this cycle, after [`Switch::arbitrate`].
    pub fn granted(&self) -> usize {
        if self.vcs == 1 {
            self.made
        } else {
            self.touched_out.len
        }
    }

    /// The request that won the `i`-th granted output port; both its ports' pointers move past
    /// it (with one virtual channel per port: the `i`-th request made). Always inlined: the
    /// traversal is compiled twice ([`super::buffers::Buffers::has_ring`]).
    #[inline(always)]
    pub fn grant(&mut self, i: usize) -> Request {
        if self.vcs == 1 {
            return self.requests[i];
        }
        let output = self.touched_out.ports[i] as usize;
        let idx = self.outputs[output].take();
        let r = self.requests[idx as usize];
        self.outputs[output].set_rr(after(r.in_local, self.radix));
        self.inputs[r.input as usize].set_rr(after(r.vc_local, self.vcs));
        r
    }

    /// Forget this cycle's requests and grants.
    pub fn clear(&mut self) {
        self.touched_out.len = 0;
        self.made = 0;
    }
}

/// `x + 1` modulo `n` (for `x < n`), without a division.
pub(crate) fn after(x: u32, n: u32) -> u32 {
    if x + 1 == n {
        0
    } else {
        x + 1
    }
}

/// `(v − first) mod n` (for `v, first < n`): `v`'s place in a round robin that starts at
/// `first`, without a division, and without a branch (which of the two cases holds is as good as
/// random in the switch's stages, and a comparison the compiler may turn into one): `n` is
/// added where the difference went below zero, by its sign (`n` ≤ 2³¹).
#[inline(always)]
fn rotated(v: u32, first: u32, n: u32) -> u32 {
    let d = v.wrapping_sub(first);
    d.wrapping_add(n & ((d as i32) >> 31) as u32)
}
