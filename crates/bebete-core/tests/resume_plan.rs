//! A run resumed for more generations keeps the grown plan in its
//! checkpoints, even when it is stopped before it runs one: otherwise a
//! plain `resume` afterwards would go back to the old plan and end early
//! (what a Ctrl-C a moment after `resume --generations N` did).

use bebete_core::evolve::checkpoint::{self, Checkpoint};
use bebete_core::evolve::exchange::Alone;
use bebete_core::evolve::{
    Evolution, EvolveConfig, GenerationReport, Observer, Prepared, RunDir, RunEnd,
};
use bebete_core::games::{GameSpec, TicTacToe};
use std::sync::atomic::AtomicBool;

struct Quiet;
impl Observer for Quiet {
    fn generation_done(&mut self, _: &GenerationReport) {}
}

#[test]
fn a_grown_plan_stopped_at_once_is_in_its_checkpoint() {
    let game = TicTacToe::BASE3;
    let mut cfg = EvolveConfig::recommended(GameSpec::from(game), 5);
    cfg.population = 20;
    cfg.elite = 4;
    cfg.generations = 3;
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::new(dir.path().join("run"));
    let prepared = Prepared::new(game, cfg).unwrap();
    let mut evolution = Evolution::start(prepared, run.clone(), 1, Box::new(Alone)).unwrap();
    let never = AtomicBool::new(false);
    assert_eq!(
        evolution.run(3, &never, &mut Quiet).unwrap(),
        RunEnd::Finished
    );
    let newest = |run: &RunDir| checkpoint::list(&run.checkpoints()).pop().unwrap();
    let (_, path) = newest(&run);
    let ckpt = Checkpoint::load(&path).unwrap();
    assert_eq!(ckpt.config.generations, 3);
    // Resumed for 10 more and stopped before its first generation.
    let mut resumed = Evolution::resume(game, ckpt, run.clone(), 13, 1, Box::new(Alone)).unwrap();
    resumed.continue_run_files().unwrap();
    let stop = AtomicBool::new(true);
    assert_eq!(resumed.run(13, &stop, &mut Quiet).unwrap(), RunEnd::Stopped);
    let (generation, path) = newest(&run);
    assert_eq!(generation, 3);
    assert_eq!(Checkpoint::load(&path).unwrap().config.generations, 13);
}
