//! The threads bots think on: a fixed few, one pool for slow bots (the
//! searches) and one for quick ones, so a quick bot never waits behind a
//! search. What a thread keeps between moves (a value genome's evaluators,
//! with their search tables of a few MB) is then bounded by the number of
//! these threads, where the blocking pool's up to 512 threads each kept
//! their own.

use super::api::ApiError;

/// The two pools.
pub struct Thinkers {
    slow: rayon::ThreadPool,
    quick: rayon::ThreadPool,
}

impl Thinkers {
    /// `threads` threads in each pool (at least one).
    pub fn new(threads: usize) -> std::io::Result<Thinkers> {
        let pool = |name: &'static str| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads.max(1))
                .thread_name(move |i| format!("bebete-{name}-{i}"))
                // A panic ends its task only: the waiting request hears of
                // it (its channel is dropped); the process goes on.
                .panic_handler(|_| {})
                .build()
                .map_err(std::io::Error::other)
        };
        Ok(Thinkers {
            slow: pool("search")?,
            quick: pool("quick")?,
        })
    }

    /// Runs `work` on the quick or the slow pool and waits for it without
    /// holding an async worker.
    pub async fn run<T: Send + 'static>(
        &self,
        quick: bool,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let (sender, answer) = tokio::sync::oneshot::channel();
        let pool = if quick { &self.quick } else { &self.slow };
        pool.spawn(move || {
            let _ = sender.send(work());
        });
        answer
            .await
            .map_err(|_| ApiError::internal("the bot failed while thinking"))
    }
}
