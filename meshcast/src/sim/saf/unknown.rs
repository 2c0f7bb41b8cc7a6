//! Routing without knowing the congestion (seed 004 §6), around Theorem 2's algorithm.
//!
//! The average congestion c̄ = ⌈Σ dᵢ / n⌉ is one sum over the mesh (a prefix computation that
//! leaves the total at every node, [`super::prefix::scan`]). The algorithm then runs with guesses c′ = c̄, 2c̄, 4c̄, …; an attempt
//! is aborted when it goes beyond τ·√(c′n) steps or needs more than κ·4^⌈log₄ c′⌉ + σ packets in a
//! buffer (the O(c′) buffers Theorem 2 is allotted), and the next guess starts from scratch. The
//! steps, transmissions and copies of aborted attempts count; their deliveries are discarded
//! (the output queues keep those of the completing attempt). The paper leaves τ, κ and σ open;
//! [`Guessing::default`] uses τ = 8, κ = 2, σ = 8, from Theorem 2's measured constants (steps
//! below 3.1·√(cn), twice that when Lemma 1 splits a set in two; buffers below 1.5·4ᴸ + 5 on the
//! sets we sweep; see docs/MSETS.md), so that a guess at or above the true c completes. When the
//! next guess would need tiles smaller than the mesh allows, the last attempt runs without limits,
//! so the wrapper always terminates.

use super::engine::{Capacity, Run, Sim};
use super::msets::MessageSet;
use super::prefix::{self, Order, Totals};
use super::{lemma1, theorem2};
use crate::error::SafError;

/// The abort thresholds of the guesses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guessing {
    /// τ: an attempt with guess c′ is aborted after τ·√(c′n) steps.
    pub time_factor: f64,
    /// κ: an attempt's buffers hold κ·4^⌈log₄ c′⌉ + σ packets.
    pub buffer_factor: u32,
    /// σ: the constant part of the buffer bound (routing keeps 4 slots in reserve).
    pub buffer_slack: u32,
}

impl Default for Guessing {
    fn default() -> Guessing {
        Guessing {
            time_factor: 8.0,
            buffer_factor: 2,
            buffer_slack: 8,
        }
    }
}

/// One attempt: the guess, its steps, and why it was aborted (`None`: it completed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The guessed congestion c′.
    pub guess: u32,
    /// Steps the attempt took.
    pub steps: u64,
    /// The abort (step limit, buffer overflow or stall), or `None` for the completing attempt.
    pub aborted: Option<SafError>,
}

/// Routes `set` without being told its congestion; returns the totals of all attempts together
/// and the attempts.
pub fn route(set: &MessageSet, guessing: Guessing) -> Result<(Run, Vec<Attempt>), SafError> {
    let n = set.len() as u64;
    let (mean, mut spent) = average_congestion(set)?;
    let largest = 4u32
        .pow(set.side().trailing_zeros())
        .min(set.len() as u32 - 1);
    let mut attempts = Vec::new();
    let mut guess = mean;
    loop {
        let last = guess >= largest;
        let guess_now = guess.min(largest);
        let (capacity, limit) = if last {
            (Capacity::Unbounded, u64::MAX)
        } else {
            let tiles = 4u32.pow(theorem2::levels_for(guess_now));
            let b = guessing.buffer_factor * tiles + guessing.buffer_slack;
            let t = guessing.time_factor * ((u64::from(guess_now) * n) as f64).sqrt();
            (Capacity::Packets(b), t.ceil() as u64)
        };
        let mut sim = Sim::new(set, capacity).with_step_limit(limit);
        let outcome = sim
            .inject_all()
            .and_then(|packets| lemma1::route_packets(&mut sim, packets, guess_now));
        let steps = sim.totals().steps;
        match outcome {
            Ok(()) => {
                let run = sim.finish()?;
                attempts.push(Attempt {
                    guess: guess_now,
                    steps,
                    aborted: None,
                });
                return Ok((merge(run, &spent), attempts));
            }
            Err(
                e @ (SafError::StepLimit(_)
                | SafError::BufferOverflow { .. }
                | SafError::Stalled { .. }),
            ) => {
                add(&mut spent, sim.totals());
                attempts.push(Attempt {
                    guess: guess_now,
                    steps,
                    aborted: Some(e),
                });
                guess = guess_now.saturating_mul(2);
            }
            Err(e) => return Err(e),
        }
    }
}

/// c̄ = ⌈Σ dᵢ / n⌉ (at least 1), summed over the mesh by a prefix computation that leaves the
/// total at every node, on a machine of its own; returns c̄ and that machine's totals.
fn average_congestion(set: &MessageSet) -> Result<(u32, Run), SafError> {
    let mut sim = Sim::new(set, Capacity::Unbounded);
    let side = set.side();
    let degrees: Vec<u32> = (0..side * side)
        .map(|v| set.slots(v).len() as u32)
        .collect();
    let sums = prefix::scan(
        &mut sim,
        side,
        Order::RowMajor,
        1,
        &degrees,
        0,
        |a, b| a + b,
        Totals::Shared,
    )?;
    sim.mark("average congestion");
    let mean = u64::from(sums.total(0, 0))
        .div_ceil(set.len() as u64)
        .max(1) as u32;
    Ok((mean, sim.totals().clone()))
}

const ABORTED: &str = "aborted guesses";

fn add(spent: &mut Run, attempt: &Run) {
    spent.steps += attempt.steps;
    spent.packet_hops += attempt.packet_hops;
    spent.word_hops += attempt.word_hops;
    spent.copies += attempt.copies;
    match spent.phases.last_mut() {
        Some((ABORTED, steps)) => *steps += attempt.steps,
        _ => spent.phases.push((ABORTED, attempt.steps)),
    }
    spent.buffer_peaks.resize(attempt.buffer_peaks.len(), 0);
    for (s, &a) in spent.buffer_peaks.iter_mut().zip(&attempt.buffer_peaks) {
        *s = (*s).max(a);
    }
}

/// The completing run with the cost of the aborted attempts before it.
fn merge(mut run: Run, spent: &Run) -> Run {
    run.steps += spent.steps;
    run.packet_hops += spent.packet_hops;
    run.word_hops += spent.word_hops;
    run.copies += spent.copies;
    for (r, &s) in run.buffer_peaks.iter_mut().zip(&spent.buffer_peaks) {
        *r = (*r).max(s);
    }
    run.max_buffer = run.buffer_peaks.iter().copied().max().unwrap_or(0);
    run.phases.splice(0..0, spent.phases.iter().copied());
    run
}
