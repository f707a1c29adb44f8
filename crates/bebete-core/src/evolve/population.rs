//! A population: `size` genomes stored back to back in one buffer.
//!
//! One contiguous allocation per generation (92 MB for 100 Connect-Four
//! genomes); the loop keeps two and swaps them, never more.

use super::Init;
use crate::encoding::TableGame;
use crate::seed::derive_seed;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// The generation number used to seed the initial population's streams.
const INITIAL_STREAM: u64 = u64::MAX;

/// `size` gene tables of `gene_count` bytes each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Population {
    genes: Vec<u8>,
    gene_count: usize,
}

impl Population {
    /// A population of all-zero genomes.
    pub fn zeroed(size: usize, gene_count: usize) -> Population {
        Population {
            genes: vec![0; size * gene_count],
            gene_count,
        }
    }

    /// Wraps a buffer of `genes.len() / gene_count` genomes.
    pub fn from_genes(genes: Vec<u8>, gene_count: usize) -> Population {
        assert!(gene_count > 0 && genes.len().is_multiple_of(gene_count));
        Population { genes, gene_count }
    }

    /// Uniformly random genomes; genome i is drawn from its own seeded stream.
    pub fn random<G: TableGame>(game: &G, size: usize, seed: u64) -> Population {
        let mut pop = Population::zeroed(size, game.gene_count());
        pop.genes
            .par_chunks_mut(pop.gene_count)
            .enumerate()
            .for_each(|(i, genome)| {
                let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed, INITIAL_STREAM, i as u64));
                game.fill_random(genome, &mut rng);
            });
        pop
    }

    /// Generation 0 of a run: random genes, or with `Init::Zero` random
    /// genes without their weights (the same draws, so the columns agree).
    pub fn initial<G: TableGame>(game: &G, size: usize, seed: u64, init: Init) -> Population {
        let mut pop = Population::random(game, size, seed);
        if init == Init::Zero {
            pop.genes
                .par_iter_mut()
                .for_each(|gene| *gene = game.without_weight(*gene));
        }
        pop
    }

    /// Number of genomes.
    pub fn size(&self) -> usize {
        self.genes.len() / self.gene_count
    }

    /// Genes per genome.
    pub fn gene_count(&self) -> usize {
        self.gene_count
    }

    /// Genome `i`.
    pub fn genome(&self, i: usize) -> &[u8] {
        &self.genes[i * self.gene_count..(i + 1) * self.gene_count]
    }

    /// Genome `i`, mutably.
    pub fn genome_mut(&mut self, i: usize) -> &mut [u8] {
        &mut self.genes[i * self.gene_count..(i + 1) * self.gene_count]
    }

    /// Cuts the population into `parts` populations of equal size, in order
    /// (the islands of a checkpoint).
    pub fn split(self, parts: usize) -> Vec<Population> {
        let each = self.genes.len() / parts.max(1);
        if parts <= 1 {
            return vec![self];
        }
        self.genes
            .chunks(each)
            .map(|genes| Population::from_genes(genes.to_vec(), self.gene_count))
            .collect()
    }

    /// All genes, genome after genome.
    pub fn as_bytes(&self) -> &[u8] {
        &self.genes
    }

    /// All genes, mutably, genome after genome.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        &mut self.genes
    }
}
