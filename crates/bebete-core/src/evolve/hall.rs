//! The hall of fame: past champions as fitness opponents (`--fitness
//! vs:hof:N`, after Rosin and Belew's coevolution).
//!
//! Every `HALL_EVERY` generations the champion enters the hall, which
//! keeps the `HALL_SIZE` most recent entrants. Each genome plays N games
//! against entrants drawn uniformly from its own stream, sides alternating
//! (2 points a win, 1 a draw), so a population cannot forget how to beat
//! the players it has already beaten. The hall is stored in checkpoints: a
//! resumed run meets the same opponents.

use super::Population;
use super::tournament::genome_game;
use crate::encoding::TableGame;
use crate::encoding::shell::PlayStyle;
use crate::games::Side;
use crate::seed::derive_seed;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// A champion enters the hall every this many generations.
pub(crate) const HALL_EVERY: u64 = 10;
/// The hall keeps this many of the latest entrants.
pub const HALL_SIZE: usize = 50;
/// Stream of the opponent draws (apart from the children's, numbered from 0).
const HALL_STREAM: u64 = 0x4a11_0000_0000;

/// Past champions, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hall {
    entrants: Vec<Vec<u8>>,
}

impl Hall {
    /// A hall read back from `bytes`: whole genomes of `gene_count` genes.
    pub fn from_genes(bytes: &[u8], gene_count: usize) -> Hall {
        Hall {
            entrants: bytes
                .chunks_exact(gene_count.max(1))
                .map(<[u8]>::to_vec)
                .collect(),
        }
    }

    /// Past champions held.
    pub fn len(&self) -> usize {
        self.entrants.len()
    }

    /// Whether it holds none yet.
    pub fn is_empty(&self) -> bool {
        self.entrants.is_empty()
    }

    /// The entrants' genes, oldest first (to be written one after another).
    pub(crate) fn parts(&self) -> impl Iterator<Item = &[u8]> {
        self.entrants.iter().map(Vec::as_slice)
    }

    /// Lets `champion`, the best of `generation`, in when its turn has come,
    /// making room by dropping the oldest.
    pub(crate) fn admit(&mut self, generation: u64, champion: &[u8]) {
        if generation.is_multiple_of(HALL_EVERY) {
            if self.entrants.len() == HALL_SIZE {
                self.entrants.remove(0);
            }
            self.entrants.push(champion.to_vec());
        }
    }

    /// Points of every genome from `games` games against entrants (none
    /// while the hall is empty).
    pub fn points<G: TableGame>(
        &self,
        game: &G,
        pop: &Population,
        games: u32,
        rules: impl Into<PlayStyle>,
        seed: u64,
        generation: u64,
    ) -> Vec<u32> {
        let rules = rules.into();
        if self.entrants.is_empty() {
            return vec![0; pop.size()];
        }
        (0..pop.size())
            .into_par_iter()
            .map(|i| {
                let stream = derive_seed(seed, generation, HALL_STREAM + i as u64);
                let mut rng = Pcg64Mcg::seed_from_u64(stream);
                let me = pop.genome(i);
                (0..games)
                    .map(|g| {
                        let other = self.entrants.choose(&mut rng).expect("a non-empty hall");
                        if g % 2 == 0 {
                            genome_game(game, me, other, rules).points(Side::First)
                        } else {
                            genome_game(game, other, me, rules).points(Side::Second)
                        }
                    })
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::IllegalPolicy;
    use crate::evolve::tournament::pair_points;
    use crate::games::TicTacToe;

    #[test]
    fn the_hall_admits_every_tenth_champion_and_keeps_the_latest() {
        let mut hall = Hall::default();
        for generation in 0..(HALL_EVERY * (HALL_SIZE as u64 + 5)) {
            hall.admit(generation, &[(generation / HALL_EVERY) as u8; 3]);
        }
        assert_eq!(hall.len(), HALL_SIZE);
        let firsts: Vec<u8> = hall.parts().map(|g| g[0]).collect();
        assert_eq!(firsts, (5..HALL_SIZE as u8 + 5).collect::<Vec<_>>());
        let bytes: Vec<u8> = hall.parts().flatten().copied().collect();
        assert_eq!(Hall::from_genes(&bytes, 3), hall);
    }

    #[test]
    fn hall_games_score_both_sides_and_do_not_depend_on_threads() {
        let game = TicTacToe::BASE3;
        let pop = Population::random(&game, 12, 5);
        let policy = IllegalPolicy::Repair;
        assert!(
            Hall::default()
                .points(&game, &pop, 4, policy, 1, 0)
                .iter()
                .all(|&p| p == 0)
        );
        // A hall of one: every game is against it, alternating sides.
        let mut hall = Hall::default();
        hall.admit(0, pop.genome(3));
        let points = hall.points(&game, &pop, 4, policy, 1, 7);
        for (i, &p) in points.iter().enumerate() {
            let pair = pair_points(&game, pop.genome(i), pop.genome(3), policy);
            assert_eq!(p, 2 * pair, "genome {i}");
        }
        hall.admit(10, pop.genome(4));
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(
            one.install(|| hall.points(&game, &pop, 6, policy, 1, 7)),
            hall.points(&game, &pop, 6, policy, 1, 7)
        );
    }
}
