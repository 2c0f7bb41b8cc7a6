//! The exit status of a failed command (docs/RELIABILITY.md): 2 for bad input, 1 when the run
//! itself failed. The web server answers with the HTTP status each stands for.

use meshcast::{PlanError, WormholeError};

/// 1 when the program failed (an output could not be written, an internal check failed, a
/// simulation deadlocked or lost a flit), 2 when the input was bad.
pub fn exit_status(e: &anyhow::Error) -> u8 {
    if e.chain().any(run_failed) {
        1
    } else {
        2
    }
}

/// Whether one error of a chain says the run failed. A [`meshcast::Error`] is judged by the
/// error it wraps: it is transparent, so the wrapped error is not a link of the chain itself.
fn run_failed(c: &(dyn std::error::Error + 'static)) -> bool {
    match c.downcast_ref::<meshcast::Error>() {
        Some(meshcast::Error::Plan(_)) => true,
        Some(meshcast::Error::Wormhole(w)) => wormhole_failed(w),
        Some(_) => false,
        None => {
            c.is::<std::io::Error>()
                || c.is::<PlanError>()
                || c.downcast_ref::<WormholeError>()
                    .is_some_and(wormhole_failed)
        }
    }
}

/// A deadlock or a lost flit is the simulator's failure; every other refusal is the input's.
fn wormhole_failed(e: &WormholeError) -> bool {
    matches!(
        e,
        WormholeError::Deadlock { .. } | WormholeError::Conservation { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_run_exits_1_and_bad_input_2() {
        let status = |e: WormholeError| exit_status(&anyhow::Error::from(e).context("--algos: qg"));
        let deadlock = WormholeError::Deadlock {
            cycle: 30_000,
            idle: 20_000,
            waiting: vec!["worm 3 waits".into()],
        };
        assert_eq!(status(deadlock), 1);
        let lost = WormholeError::Conservation {
            cycle: 7,
            what: "a flit too many".into(),
        };
        assert_eq!(status(lost), 1);
        let too_few = WormholeError::VirtualChannels {
            topology: "torus:4x4".into(),
            vcs: 1,
            need: 2,
        };
        assert_eq!(status(too_few), 2);
        let wrapped = |e: meshcast::Error| exit_status(&anyhow::Error::from(e).context("sweep"));
        let deadlock = WormholeError::Deadlock {
            cycle: 1,
            idle: 1,
            waiting: Vec::new(),
        };
        assert_eq!(wrapped(meshcast::Error::Wormhole(deadlock)), 1);
        assert_eq!(
            wrapped(meshcast::Error::Plan(PlanError::DeliversNothing(0))),
            1
        );
        let unwritable = std::io::Error::other("disk full");
        assert_eq!(exit_status(&anyhow::Error::from(unwritable)), 1);
    }
}
