//! A checkpoint is written without a second copy of the population in
//! memory: the genes are deflated a thread pool's worth of pieces at a
//! time straight into the file. Before, every compressed piece was kept
//! and then joined (two more copies of a population of random tables, the
//! Connect-Four sub-grid run's 92 MB each), and that run peaked at 330 MB
//! where its two populations are 185 MB.
//!
//! This binary installs an allocator that keeps the peak of the bytes the
//! whole process holds; it has one test, so nothing else allocates beside it.

use bebete_core::evolve::checkpoint;
use bebete_core::evolve::{EvolveConfig, Hall, Init, Population};
use bebete_core::games::{Connect4, GameSpec};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Peak;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let held = HELD.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(held, Ordering::SeqCst);
}

// SAFETY: every call is forwarded to `System` unchanged; the bookkeeping is
// two atomics and allocates nothing.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            HELD.fetch_sub(layout.size() - new_size, Ordering::SeqCst);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static PEAK_ALLOCATOR: Peak = Peak;

#[test]
fn a_checkpoint_of_random_tables_holds_no_copy_of_them() {
    // 24 random Connect-Four sub-grid tables: 22 MB that do not compress.
    let population = Population::initial(&Connect4::SUBGRID, 24, 5, Init::Random);
    let genes = population.as_bytes().len();
    assert!(genes > 20_000_000, "{genes}");
    let mut cfg = EvolveConfig::method(GameSpec::CONNECT4, 5);
    cfg.population = 24;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(checkpoint::file_name(0));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let before = HELD.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    pool.install(|| {
        checkpoint::write(&path, &cfg, 0, &[], &[&population], 0, &Hall::default()).unwrap()
    });
    let extra = PEAK.load(Ordering::SeqCst) - before;
    // Two pieces of a MiB in flight and the file's buffer; a copy of the
    // genes would be ten times this.
    assert!(
        extra < 4 << 20,
        "writing {genes} bytes of genes held {extra} bytes more"
    );
    let back = checkpoint::Checkpoint::load(&path).unwrap();
    assert_eq!(back.population.as_bytes(), population.as_bytes());
}
