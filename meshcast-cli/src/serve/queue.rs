//! The bounded work queue of the server's heavy requests.
//!
//! Routing every algorithm on a large mesh takes up to a second of one core and a few hundred
//! megabytes; sixteen at once took a server without this queue to 3.85 GB. A [`WorkQueue`]
//! admits at most `workers + waiting` requests: `workers` of them compute (each on a blocking
//! thread), the others wait for a worker, and any more are answered 503 at once. A request whose
//! client goes away while it waits is dropped unrun; one that has started holds its place
//! until it finishes, so the bound holds even for answers nobody reads.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use axum::http::StatusCode;
use tokio::sync::Semaphore;

use super::api::ApiError;

/// Heavy requests of one kind: how many compute at once and how many may wait.
pub struct WorkQueue {
    /// What the queue computes, for the 503's message.
    what: &'static str,
    /// Places for computing and waiting requests.
    admitted: Arc<Semaphore>,
    /// Places for computing requests.
    running: Arc<Semaphore>,
    /// Longest wait for a worker.
    wait: Duration,
}

impl WorkQueue {
    pub fn new(what: &'static str, workers: usize, waiting: usize, wait: Duration) -> WorkQueue {
        WorkQueue {
            what,
            admitted: Arc::new(Semaphore::new(workers + waiting)),
            running: Arc::new(Semaphore::new(workers)),
            wait,
        }
    }

    /// Run `work` on a blocking thread once a worker is free; 503 if the queue is full or no
    /// worker frees up in time, 500 if `work` panics.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let admitted = self.admitted.clone().try_acquire_owned().map_err(|_| {
            ApiError::busy(format!(
                "the server is busy: every place in the {} queue is taken (--workers, --queue)",
                self.what
            ))
        })?;
        let running = tokio::time::timeout(self.wait, self.running.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::busy(format!(
                    "the server is busy: no {} worker was free within {} s (--request-timeout)",
                    self.what,
                    self.wait.as_secs()
                ))
            })?
            .expect("the semaphore is never closed");
        let job = tokio::task::spawn_blocking(move || {
            let _places = (admitted, running);
            work()
        });
        match job.await {
            Ok(result) => result.map_err(|e| ApiError::of(&e)),
            Err(join) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error: the routing thread failed ({join})"),
            )),
        }
    }
}
