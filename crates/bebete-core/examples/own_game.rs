//! A game the engine does not know, evolved by the engine's own loop:
//! Hexapawn.
//!
//! Martin Gardner's Hexapawn (1962): three pawns a side on a 3×3 board,
//! a second-player win with perfect play. Its rules (`Game`) are in
//! `shared/hexapawn.rs`; this file adds a lookup-table encoder
//! (`TableGame`), what the fixed players know of the game (`Knowledge`:
//! with 135 positions the engine solves it whole) and the name its files
//! carry (`Identified`). Then it is a game like a built-in one:
//! [`Evolution`] runs it with the engine's fitness terms, benchmark,
//! stopping rule, checkpoints and genome files, and resumes it exactly.
//!
//! ```sh
//! cargo run --release --example own_game
//! ```

use bebete_core::encoding::{GeneLookup, IllegalPolicy, TableGame};
use bebete_core::evolve::bench;
use bebete_core::evolve::checkpoint::{self, Checkpoint};
use bebete_core::evolve::exchange::Alone;
use bebete_core::evolve::{
    Evolution, EvolveConfig, GenerationReport, MethodSettings, Observer, Prepared, RunDir, RunEnd,
};
use bebete_core::games::{Game, GameId, Identified, Outcome};
use bebete_core::genome::Genome;
use bebete_core::players::{Exact, GenomePlayer, Knowledge, PlayerSpec, SolvedExact, play_game};
use rand::{Rng, RngExt};
use std::error::Error;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[path = "shared/hexapawn.rs"]
mod hexapawn;
use hexapawn::{Board, Hexapawn, MOVES, Move};

impl Board {
    /// The board in base 3 (cell k weighs 3^k), then the side to move.
    fn gene_index(&self) -> usize {
        let base3 = self.cells.iter().rev().fold(0, |n, &c| n * 3 + c as usize);
        base3 + self.second_to_move as usize * 3usize.pow(9)
    }
}

/// The encoder: one gene per (board in base 3, side to move), which picks
/// one of the position's legal moves (the gene modulo their count), so that
/// a redrawn gene is any legal move alike.
impl TableGame for Hexapawn {
    type Reason = GeneLookup<Move>;
    fn gene_count(&self) -> usize {
        2 * 3usize.pow(9)
    }
    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random()
    }
    fn decide(&self, genes: &[u8], pos: &Board, policy: IllegalPolicy) -> Option<Move> {
        self.explain(genes, pos, policy).chosen
    }
    fn explain(&self, genes: &[u8], pos: &Board, _: IllegalPolicy) -> GeneLookup<Move> {
        let index = pos.gene_index();
        let legal = || (0..MOVES).filter(|&mv| self.is_legal(pos, mv));
        let chosen = match legal().count() {
            0 => None,
            count => legal().nth(genes[index] as usize % count),
        };
        GeneLookup {
            index,
            gene: genes[index],
            chosen,
            repaired: false,
            names: None,
            symmetric: false,
        }
    }
}

/// What the fixed players know: the whole game solved in memory (the
/// `perfect` player, the exhaustive fitness, the audit), a pawn count for
/// `alphabeta:D`, and the `rules` player's "win, block".
impl Knowledge for Hexapawn {
    const SOLVABLE: bool = true;
    const RULES_PLAYER: &'static str = "win, block, the first legal move";
    fn preference_classes(&self) -> Vec<Vec<Move>> {
        Vec::new()
    }
    fn opponent_wins_by(&self, pos: &Board, mv: Move) -> bool {
        let mut theirs = *pos;
        theirs.second_to_move ^= true;
        self.is_legal(&theirs, mv) && self.outcome(&self.play(&theirs, mv)).is_some()
    }
    fn heuristic(&self, pos: &Board) -> i32 {
        let count = |side: u8| pos.cells.iter().filter(|&&c| c == side).count() as i32;
        count(pos.mover()) - count(3 - pos.mover())
    }
    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        Some(Arc::new(SolvedExact::default()))
    }
}

/// Its files name it so: a genome or checkpoint of Hexapawn is refused,
/// with that name, by every reader that expects another game.
impl Identified for Hexapawn {
    fn id(&self) -> GameId {
        GameId::Outside("hexapawn".to_string())
    }
}

/// 100 genomes for 30 generations on the engine's exhaustive fitness, the
/// champion measured against `random` and `perfect` and audited every 5.
fn config(seed: u64) -> EvolveConfig {
    let settings = MethodSettings {
        mutation: 0.01,
        generations: 30,
        checkpoint_every: 5,
        bench_every: 5,
    };
    let mut cfg = EvolveConfig::for_game(&Hexapawn, settings, seed);
    cfg.fitness = "vs:exhaustive".parse().expect("a fitness");
    cfg.bench_against = vec![PlayerSpec::Random, PlayerSpec::Perfect];
    cfg
}

/// Prints every fifth generation.
struct Print;

impl Observer for Print {
    fn generation_done(&mut self, report: &GenerationReport) {
        let row = &report.row;
        if row.generation.is_multiple_of(5) {
            let (g, best, mean) = (row.generation, row.best, row.mean);
            let bench: Vec<String> = row.bench.iter().map(|v| format!("{v:.2}")).collect();
            println!(
                "generation {g:2}: best {best}, mean {mean:.0}  {}",
                bench.join(" ")
            );
        }
    }
}

/// Evolves in `dir` from `seed` for `stop_at` generations, then resumes
/// from the newest checkpoint (as after a crash) to the end; returns how
/// it ended.
fn evolve(dir: &Path, seed: u64, stop_at: u64) -> Result<RunEnd, Box<dyn Error>> {
    let (run, never) = (RunDir::new(dir), AtomicBool::new(false));
    let prepared = Prepared::new(Hexapawn, config(seed))?;
    let mut evolution = Evolution::start(prepared, run.clone(), 1, Box::new(Alone))?;
    let columns = bench::columns(evolution.config(), evolution.abilities());
    println!("benchmark columns: {}", columns.join(" "));
    let end = evolution.run(stop_at, &never, &mut Print)?;
    if end != RunEnd::Finished || stop_at == evolution.config().generations {
        return Ok(end);
    }
    drop(evolution);
    let (generation, path) = checkpoint::list(&run.checkpoints())
        .pop()
        .ok_or("no checkpoint")?;
    println!("-- resumed from the checkpoint of generation {generation}");
    let ckpt = Checkpoint::load(&path)?;
    let generations = ckpt.config.generations;
    let mut resumed = Evolution::resume(Hexapawn, ckpt, run, generations, 1, Box::new(Alone))?;
    resumed.continue_run_files()?;
    Ok(resumed.run(generations, &never, &mut Print)?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let seed = match std::env::args().nth(1).map(|a| a.parse::<u64>()) {
        None => 1,
        Some(Ok(seed)) => seed,
        Some(Err(_)) => return Err("usage: own_game [SEED] (a whole number; default 1)".into()),
    };
    let dir = tempfile::tempdir()?;
    println!("Hexapawn, seed {seed}");
    let end = evolve(&dir.path().join("run"), seed, 15)?;
    let champion = Genome::load_for(&Hexapawn, &dir.path().join("run/best.genome"))?;
    let generation = champion.provenance.generation.unwrap_or(0);
    println!(
        "{end:?}: best.genome holds {} of generation {generation}",
        champion.game
    );
    let outcome = against_perfect(champion.genes)?;
    println!("moving second against the perfect player: {outcome:?}");
    Ok(())
}

/// A game of `genes`, moving second, against the perfect player.
fn against_perfect(genes: Vec<u8>) -> Result<Outcome, Box<dyn Error>> {
    let perfect = PlayerSpec::Perfect.factory(&Hexapawn, IllegalPolicy::Repair)?;
    let mut genome = GenomePlayer::new(genes, IllegalPolicy::Repair);
    let mut first = perfect.make(&Hexapawn, 1);
    Ok(play_game(
        &Hexapawn,
        Hexapawn.start(),
        first.as_mut(),
        &mut genome,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bebete_core::{games::Side, solve::Value};

    /// Gardner: the second player wins with best play; the engine's
    /// solver of the whole game finds every first move lost.
    #[test]
    fn every_first_move_loses() {
        let mut solver = Hexapawn.exact().unwrap().solver(&Hexapawn);
        let values = solver.move_values(&Hexapawn, &Hexapawn.start());
        assert_eq!(values.len(), 3);
        assert!(values.iter().all(|&(_, v)| v == Value::Loss));
    }

    /// The engine's loop on an outside game: its champion keeps the game's
    /// value everywhere and beats the perfect player moving second, and
    /// the run stopped and resumed writes what the run straight through
    /// writes, byte for byte.
    #[test]
    fn evolution_resumes_exactly_and_breeds_a_perfect_second_player() {
        let dir = tempfile::tempdir().unwrap();
        // The same run name in both: the champion's file records it.
        let (split, whole) = (dir.path().join("a/run"), dir.path().join("b/run"));
        assert_eq!(evolve(&split, 1, 15).unwrap(), RunEnd::Finished);
        assert_eq!(evolve(&whole, 1, 30).unwrap(), RunEnd::Finished);
        for file in ["best.genome", "run.toml"] {
            let read = |d: &Path| std::fs::read(d.join(file)).unwrap();
            assert!(read(&split) == read(&whole), "{file} differs");
        }
        // stats.csv, but for the seconds each step took.
        let stats = |d: &Path| -> Vec<Vec<String>> {
            let text = std::fs::read_to_string(d.join("stats.csv")).unwrap();
            let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
            let rows = text.lines().map(|line| {
                let cells = header.iter().zip(line.split(','));
                let kept = cells.filter(|(name, _)| !name.ends_with("_s"));
                kept.map(|(_, cell)| cell.to_string()).collect()
            });
            rows.collect()
        };
        assert_eq!(stats(&split), stats(&whole));
        assert_eq!(stats(&split).len(), 31);
        let champion = Genome::load_for(&Hexapawn, &split.join("best.genome")).unwrap();
        assert_eq!(champion.provenance.fitness, Some(1_000_000.0));
        let outcome = against_perfect(champion.genes).unwrap();
        assert_eq!(outcome, Outcome::Win(Side::Second));
        // The file names its game: the built-in readers refuse it.
        let err = Genome::load(&split.join("best.genome")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("hexapawn, a game from outside"), "{text}");
    }
}
