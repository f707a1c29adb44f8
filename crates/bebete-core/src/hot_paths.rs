//! The hot paths allocate nothing, for every registered game: a genome's
//! decision (vote table or value genome), a whole tournament game between
//! two genomes, and a value genome's self-play games once its learner is
//! set up. They run millions of times a generation; an
//! allocation there once made a tic-tac-toe generation five times slower
//! and no benchmark noticed, so this test counts.
//!
//! The count is per thread (the test harness runs tests in parallel), kept
//! by a global allocator that only this unit-test binary installs.

use crate::encoding::{IllegalPolicy, TableGame, TableGameVisitor, visit_table_game};
use crate::evolve::tournament::genome_game;
use crate::games::{BuiltIn, GameSpec, Side};
use crate::genome::random_genes;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting this thread's allocations.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: an allocation while the thread is torn down is not ours.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded to `System` unchanged; the count is a
// const-initialised thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations made on this thread while `work` ran.
fn allocations_in<T>(work: impl FnOnce() -> T) -> (u64, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = work();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// Plays two games between two random genomes of the game and decides at
/// every position of the first; the second game and every decision
/// repeated must allocate nothing. Returns what allocated, in words.
struct Allocates;

impl TableGameVisitor for Allocates {
    type Output = Vec<String>;

    fn visit<G: TableGame + BuiltIn>(self, game: G) -> Vec<String> {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let (first, second) = (random_genes(&game, &mut rng), random_genes(&game, &mut rng));
        let policy = IllegalPolicy::Repair;
        let mut found = Vec::new();

        // The first game may fill caches (a value genome's tuples); the
        // same game again is what every later game costs.
        genome_game(&game, &first, &second, policy);
        let (n, _) = allocations_in(|| genome_game(&game, &first, &second, policy));
        if n > 0 {
            found.push(format!("a tournament game: {n} allocations"));
        }

        let mut positions = vec![game.start()];
        while let Some(pos) = positions.last().copied() {
            if game.outcome(&pos).is_some() || positions.len() > 200 {
                break;
            }
            let genes = if game.turn(&pos) == Side::First {
                &first
            } else {
                &second
            };
            match game.decide(genes, &pos, policy) {
                Some(mv) => positions.push(game.play(&pos, mv)),
                None => break,
            }
        }
        // Self-play learning: a learner's setup allocates (its evaluator)
        // and its buffers grow to their size in the first games; then its
        // games allocate nothing, so 120 games cost what 30 do, give or
        // take a buffer reaching a larger size.
        if let Some(learner) = game.as_learner() {
            let mut genes = first.clone();
            let learn = |genes: &mut Vec<u8>, games| {
                allocations_in(|| learner.learn(genes, games, Pcg64Mcg::seed_from_u64(3))).0
            };
            learn(&mut genes, 1);
            let (some, many) = (learn(&mut genes, 30), learn(&mut genes, 120));
            if many > some + 8 {
                found.push(format!(
                    "self-play learning: {some} allocations for 30 games, {many} for 120"
                ));
            }
            // The same against a fixed opponent (the second genome, whose
            // decisions allocate nothing).
            let against = |genes: &mut Vec<u8>, games| {
                let mut opponent = |pos: &G::Position| game.decide(&second, pos, policy);
                let rng = Pcg64Mcg::seed_from_u64(4);
                allocations_in(|| learner.learn_against(genes, games, rng, &mut opponent)).0
            };
            against(&mut genes, 1);
            let (some, many) = (against(&mut genes, 30), against(&mut genes, 120));
            if many > some + 8 {
                found.push(format!(
                    "learning against a fixed opponent: {some} allocations for 30 games, {many} for 120"
                ));
            }
        }
        for pos in positions.iter().filter(|p| game.outcome(p).is_none()) {
            let (n, _) = allocations_in(|| game.decide(&first, pos, policy));
            if n > 0 {
                found.push(format!("a decision at {pos:?}: {n} allocations"));
                break;
            }
        }
        found
    }
}

#[test]
fn decisions_and_tournament_games_allocate_nothing_in_every_registered_game() {
    let specs = GameSpec::registered();
    let failures: Vec<String> = specs
        .iter()
        .flat_map(|&spec| {
            visit_table_game(spec, Allocates)
                .into_iter()
                .map(move |what| format!("{spec}: {what}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_count_sees_an_allocation() {
    let (n, v) = allocations_in(|| vec![1u8; 3]);
    assert_eq!(v.len(), 3);
    assert!(n >= 1);
}
