//! The exit status of a failed command (docs/RELIABILITY.md): 2 for bad input, 1 when the run
//! itself failed. The web server answers with the HTTP status each stands for.

use meshcast::{PlanError, WormholeError};

/// 1 when the program failed (an output could not be written, an internal check failed, a
/// simulation deadlocked or lost a flit), 2 when the input was bad.
pub fn exit_status(e: &anyhow::Error) -> u8 {
    let run_failed = |c: &(dyn std::error::Error + 'static)| {
        matches!(
            c.downcast_ref::<WormholeError>(),
            Some(WormholeError::Deadlock { .. } | WormholeError::Conservation { .. })
        )
    };
    let failed = e
        .chain()
        .any(|c| c.is::<std::io::Error>() || c.is::<PlanError>() || run_failed(c));
    if failed {
        1
    } else {
        2
    }
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
        let unwritable = std::io::Error::other("disk full");
        assert_eq!(exit_status(&anyhow::Error::from(unwritable)), 1);
    }
}
