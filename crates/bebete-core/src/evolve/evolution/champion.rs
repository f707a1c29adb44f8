//! The run's champion: taken each generation, measured when the
//! benchmark is due, judged for the stopping rules, and restored on
//! resuming.

use super::Evolution;
use crate::evolve::fitness::{hall_of_fame::HallOfFame, solo};
use crate::evolve::{Target, bench};
use crate::genome::{Genome, Provenance};
use crate::players::Playable;

impl<G: Playable> Evolution<G> {
    /// How this run's genomes learn, for the champion's file: `self` or
    /// `--learn-against`'s player, when they learn between generations.
    fn learning_record(&self) -> Option<String> {
        (self.game.as_learner().is_some() && self.cfg.self_play > 0).then(|| {
            self.cfg
                .learn_against
                .as_ref()
                .map_or_else(|| "self".to_string(), |spec| spec.to_string())
        })
    }

    /// What the stopping rules need to know of a new champion: the pieces
    /// its game leaves (one-player games), whether it is unbeatable (under
    /// `--target unbeatable`).
    fn judge(&mut self, champion_genes: &[u8]) {
        if G::PLAYERS == 1 {
            let played = solo::play(&self.game, champion_genes, self.cfg.play_style());
            self.champion_left = Some(played.left).filter(|_| !played.forfeited);
        }
        if self.cfg.target == Some(Target::Unbeatable) {
            self.champion_perfect =
                self.bench
                    .keeps_value_everywhere(&self.game, champion_genes, self.cfg.illegal);
        }
    }

    /// On resuming: the last generation's champion from `best.genome`, when
    /// that file is this run's champion of the checkpoint's last generation,
    /// judged as it was, so that [`Evolution::stop_reason`] decides as the
    /// uninterrupted run did (a run that met its target is finished). A
    /// missing or other file leaves no champion: the next generation's is
    /// judged afresh.
    pub(super) fn restore_champion(&mut self) {
        let Some(last) = self.rows.last().map(|r| r.generation) else {
            return;
        };
        let Ok(genome) = Genome::load_for(&self.game, &self.run.best_genome()) else {
            return;
        };
        if genome.provenance.generation != Some(last) {
            return;
        }
        self.judge(&genome.genes);
        self.champion_buffer = genome.genes.clone();
        self.champion = Some(genome);
        self.champion_saved = true;
    }

    /// Measures the champion (`champion_genes`, with `best` points) when
    /// due — on the first process, which shares the values — and takes it
    /// as the run's champion (audited under `--target unbeatable` when its
    /// genes changed); returns the benchmark's values (none when not due).
    pub(super) fn record(&mut self, champion_genes: &[u8], best: u32) -> Vec<f64> {
        if self.cfg.fitness.has::<HallOfFame>() {
            // Validation keeps halls to runs of one island.
            self.islands[0].hall.admit(self.generation, champion_genes);
        }
        let bench = if bench::due(&self.cfg, self.generation) {
            let mut values = if self.exchange.is_root() {
                self.bench
                    .measure(&self.game, champion_genes, &self.cfg, self.generation)
            } else {
                vec![0.0; bench::columns(&self.cfg, &self.abilities).len()]
            };
            self.exchange.broadcast_f64(0, &mut values);
            values
        } else {
            Vec::new()
        };
        // An elite champion is often the previous one: only new genes are
        // audited (the file is written at checkpoints, with fresh
        // provenance).
        let changed = self
            .champion
            .as_ref()
            .is_none_or(|c| c.genes != champion_genes);
        if changed {
            self.judge(champion_genes);
        }
        let provenance = Provenance {
            run: Some(self.run.name()),
            generation: Some(self.generation),
            fitness: Some(best as f64),
            seed: Some(self.cfg.seed),
            learning: self.learning_record(),
        };
        match &mut self.champion {
            Some(champion) => {
                champion.provenance = provenance;
                if changed {
                    champion.genes.copy_from_slice(champion_genes);
                }
            }
            slot @ None => {
                *slot = Some(Genome {
                    game: self.game.id(),
                    provenance,
                    genes: champion_genes.to_vec(),
                    lookahead: self.cfg.lookahead,
                });
            }
        }
        bench
    }
}
