//! A search's budget: a deadline and a cancel flag that the searches of
//! this thread look at as they go.
//!
//! The server (`bebete serve`) runs a bot's move under a budget, so that a
//! slow player stops at its time limit and a move nobody waits for any more
//! (the client hung up, the game was deleted) stops at once. The searches
//! (the players' alpha-beta and Monte Carlo, the tactical shell, a
//! value genome's alpha-beta) call `spent` at their inner nodes; once it
//! says yes they unwind quickly with a meaningless result, which
//! [`within`] reports as `None`. Without a budget (evolution, `eval`, the
//! terminal) `spent` is a counter decrement and always no.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How many calls of [`spent`] pass between two looks at the clock and
/// the flag: a few microseconds of search, so a stop is seen well within a
/// millisecond while the check costs nothing measurable.
const CHECK_EVERY: u32 = 1024;

/// When a search must stop.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// Stop at `deadline`.
    pub fn until(mut self, deadline: Instant) -> Budget {
        self.deadline = Some(deadline);
        self
    }

    /// Stop when `flag` is set (by another thread).
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the deadline has passed or the flag is set.
    pub(crate) fn is_spent(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Budget>> = const { RefCell::new(None) };
    static TICKS: Cell<u32> = const { Cell::new(CHECK_EVERY) };
    static SPENT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` under `budget` on this thread: `Some` of its result when it
/// finished within the budget, `None` when the budget ran out meanwhile (the
/// result, cut short, is dropped). Budgets do not nest: an inner `within`
/// replaces the outer one until it returns.
pub fn within<T>(budget: &Budget, f: impl FnOnce() -> T) -> Option<T> {
    struct Restore(Option<Budget>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| *c.borrow_mut() = self.0.take());
            SPENT.with(|s| s.set(self.1));
            TICKS.with(|t| t.set(CHECK_EVERY));
        }
    }
    if budget.is_spent() {
        return None;
    }
    let _restore = Restore(
        CURRENT.with(|c| c.borrow_mut().replace(budget.clone())),
        SPENT.with(|s| s.replace(false)),
    );
    TICKS.with(|t| t.set(CHECK_EVERY));
    let result = f();
    (!SPENT.with(Cell::get)).then_some(result)
}

/// Whether this thread's search must stop now (see the module's text).
/// Once it says yes it keeps saying yes until [`within`] returns.
#[inline]
pub(crate) fn spent() -> bool {
    if SPENT.with(Cell::get) {
        return true;
    }
    let left = TICKS.with(|t| {
        let left = t.get().saturating_sub(1);
        t.set(left);
        left
    });
    if left > 0 {
        return false;
    }
    TICKS.with(|t| t.set(CHECK_EVERY));
    let spent = CURRENT.with(|c| c.borrow().as_ref().is_some_and(Budget::is_spent));
    SPENT.with(|s| s.set(spent));
    spent
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Counts calls of [`spent`] until it says yes, at most `limit`.
    fn calls_until_spent(limit: u64) -> u64 {
        (1..=limit).find(|_| spent()).unwrap_or(limit + 1)
    }

    #[test]
    fn without_a_budget_nothing_is_ever_spent() {
        assert_eq!(calls_until_spent(10_000), 10_001);
        assert_eq!(within(&Budget::unlimited(), || 7), Some(7));
    }

    #[test]
    fn a_cancel_is_seen_within_one_check_and_reported() {
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget::unlimited().cancelled_by(flag.clone());
        let result = within(&budget, || {
            assert_eq!(
                calls_until_spent(3 * CHECK_EVERY as u64),
                3 * CHECK_EVERY as u64 + 1
            );
            flag.store(true, Ordering::Relaxed);
            let n = calls_until_spent(10 * CHECK_EVERY as u64);
            assert!(n <= CHECK_EVERY as u64, "{n} calls");
            assert!(spent(), "it stays spent");
        });
        assert_eq!(result, None);
        // Outside the budget, nothing is spent any more.
        assert!(!spent());
        assert!(budget.is_cancelled());
        assert_eq!(within(&budget, || 1), None, "a spent budget runs nothing");
    }

    #[test]
    fn a_deadline_stops_a_search_and_the_outer_budget_comes_back() {
        let past = Budget::unlimited().until(Instant::now());
        assert!(past.is_spent());
        let soon = Budget::unlimited().until(Instant::now() + Duration::from_millis(20));
        let outer = within(&Budget::unlimited(), || {
            let inner = within(&soon, || {
                let start = Instant::now();
                while !spent() {
                    assert!(start.elapsed() < Duration::from_secs(10), "never stopped");
                }
            });
            assert_eq!(inner, None);
            spent()
        });
        assert_eq!(outer, Some(false));
    }
}
