//! The next generation: each learner's self-play between generations,
//! then breeding from the ranked islands.

use super::*;
use crate::players::Playable;

/// Keeps `--learn-against`'s player's stream apart from its learner's.
const OPPONENT_STREAM: u64 = 0x0dd5_1de5_0f0e_1ea5;

impl<G: Playable> Evolution<G> {
    /// Every genome of the next generation (elite included) learns from
    /// `--self-play` games, against itself or `--learn-against`'s player,
    /// each from its own stream (island seed, generation, genome; the
    /// opponent's from the same, apart), so the result is the same on any
    /// number of threads. Returns the games played.
    pub(super) fn self_play(&mut self) -> u64 {
        let games = self.cfg.self_play;
        let Some(learner) = self.game.as_learner().filter(|_| games > 0) else {
            return 0;
        };
        let (game, generation) = (&self.game, self.generation);
        let opponent = self.learner_opponent.as_ref();
        for island in &mut self.islands {
            let seed = derive_seed(island.seed, SELF_PLAY_STREAM, generation);
            let gene_count = island.population.gene_count();
            island
                .population
                .as_bytes_mut()
                .par_chunks_mut(gene_count)
                .enumerate()
                .for_each(|(k, genes)| {
                    let stream = derive_seed(seed, generation, k as u64);
                    let rng = Pcg64Mcg::seed_from_u64(stream);
                    match opponent {
                        None => learner.learn(genes, games, rng),
                        Some(factory) => {
                            let mut player = factory.make(game, stream ^ OPPONENT_STREAM);
                            let mut choose = |pos: &G::Position| player.choose(game, pos);
                            learner.learn_against(genes, games, rng, &mut choose)
                        }
                    };
                });
        }
        games as u64
            * self
                .islands
                .iter()
                .map(|i| i.population.size() as u64)
                .sum::<u64>()
    }

    /// Breeds each island's next population from its ranked current one;
    /// then, every `--migrate-every` generations, each island's best
    /// `--migrants` (the head of its elite) replace the last children of the
    /// next island (a ring). Migrants are copied before any is placed, so
    /// every island receives genomes of the same generation.
    pub(super) fn breed(&mut self, rankings: &[Vec<usize>]) {
        for (island, ranking) in self.islands.iter_mut().zip(rankings) {
            breeding::breed(
                &self.game,
                &self.cfg,
                &island.population,
                ranking,
                self.generation,
                island.seed,
                &mut island.spare,
            );
            std::mem::swap(&mut island.population, &mut island.spare);
        }
        let migrants = self.cfg.migrants;
        if self.cfg.islands > 1 && (self.generation + 1).is_multiple_of(self.cfg.migrate_every) {
            let mut outgoing: Vec<Vec<u8>> = self
                .islands
                .iter()
                .map(|island| {
                    let mut out = Vec::with_capacity(migrants * island.population.gene_count());
                    for k in 0..migrants {
                        out.extend_from_slice(island.population.genome(k));
                    }
                    out
                })
                .collect();
            // The last island held sends to the next process's first (to
            // this process's own first when it holds them all).
            let last = outgoing.pop().expect("at least one island");
            let from_previous = self.exchange.ring(last);
            for (to, island) in self.islands.iter_mut().enumerate() {
                let genes = if to == 0 {
                    &from_previous
                } else {
                    &outgoing[to - 1]
                };
                let population = &mut island.population;
                let size = population.size();
                for (k, genome) in genes.chunks(population.gene_count()).enumerate() {
                    population
                        .genome_mut(size - migrants + k)
                        .copy_from_slice(genome);
                }
            }
        }
    }
}
