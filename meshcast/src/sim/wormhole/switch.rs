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

use super::network::NONE;

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

/// Round-robin pointers and this cycle's requests, for every input and output port (network
/// channels first, then the injection or ejection ports).
pub(crate) struct Switch {
    vcs: u32,
    /// Input ports per router: `2n` channels and `d` injection ports.
    radix: u32,
    /// Per input port the virtual channel, per output port the input port that goes first (kept
    /// below `V` and the radix, so no division is needed).
    rr_in: Vec<u32>,
    rr_out: Vec<u32>,
    in_best: Vec<u32>,
    out_best: Vec<u32>,
    touched_in: Vec<u32>,
    touched_out: Vec<u32>,
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
        Switch {
            vcs,
            radix,
            rr_in: vec![0; ports],
            rr_out: vec![0; ports],
            in_best: vec![NONE; ports],
            out_best: vec![NONE; ports],
            touched_in: Vec::new(),
            touched_out: Vec::new(),
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
            let r = self.requests[idx as usize];
            let best = self.in_best[r.input as usize];
            if best == NONE {
                self.touched_in.push(r.input);
                self.in_best[r.input as usize] = idx;
            } else {
                let rr = self.rr_in[r.input as usize];
                let key = |v: u32| rotated(v, rr, self.vcs);
                if key(r.vc_local) < key(self.requests[best as usize].vc_local) {
                    self.in_best[r.input as usize] = idx;
                }
            }
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
        for i in 0..self.touched_in.len() {
            let input = self.touched_in[i];
            let idx = std::mem::replace(&mut self.in_best[input as usize], NONE);
            self.offer(idx);
        }
        self.touched_in.clear();
    }

    /// Request `idx`, the winner at its input, competes for its output: round robin from the
    /// output's pointer.
    #[inline]
    fn offer(&mut self, idx: u32) {
        let r = self.requests[idx as usize];
        let best = &mut self.out_best[r.output as usize];
        if *best == NONE {
            *best = idx;
            self.touched_out.push(r.output);
        } else {
            let rr = self.rr_out[r.output as usize];
            let key = |v: u32| rotated(v, rr, self.radix);
            if key(r.in_local) < key(self.requests[*best as usize].in_local) {
                *best = idx;
            }
        }
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
            self.touched_out.len()
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
        let output = self.touched_out[i] as usize;
        let idx = std::mem::replace(&mut self.out_best[output], NONE);
        let r = self.requests[idx as usize];
        self.rr_out[output] = after(r.in_local, self.radix);
        self.rr_in[r.input as usize] = after(r.vc_local, self.vcs);
        r
    }

    /// Forget this cycle's requests and grants.
    pub fn clear(&mut self) {
        self.touched_out.clear();
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
/// `first`, without a division.
fn rotated(v: u32, first: u32, n: u32) -> u32 {
    if v >= first {
        v - first
    } else {
        v + n - first
    }
}
