//! What the CLI test files share: running the binary as a user does.

use std::process::{Command, Output};

/// Run `meshcast` with `args` on `threads` rayon threads (RUST_BACKTRACE stays as the machine
/// sets it): results must not depend on the thread count.
pub fn meshcast(args: &[&str], threads: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshcast"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("the binary runs")
}
