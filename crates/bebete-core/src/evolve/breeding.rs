//! Children: parents drawn from the elite, uniform crossover, mutation.
//!
//! Crossover of two parents works on whole 64-bit words: 8 random bits are
//! expanded into a byte mask (bit j → byte j all ones) and the child word is
//! `(a & mask) | (b & !mask)`, so one random word serves 64 genes. Mutation
//! jumps from one mutated gene to the next with geometric gaps, so its cost
//! is proportional to the number of mutations, not to the genome length.

use super::{Crossover, EvolveConfig, Mutation, Population, Selection};
use crate::encoding::TableGame;
use crate::seed::derive_seed;
use rand::seq::IndexedRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// `EXPAND[bits]`: byte j is 0xFF when bit j of `bits` is set.
static EXPAND: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut mask = 0u64;
        let mut j = 0;
        while j < 8 {
            if bits & (1 << j) != 0 {
                mask |= 0xff << (8 * j);
            }
            j += 1;
        }
        table[bits] = mask;
        bits += 1;
    }
    table
};

/// Uniform crossover of two parents: each gene from `a` or `b` with
/// probability 1/2.
///
/// One random word decides 64 genes: whole 64-byte blocks take their eight
/// masks from one word in a fixed-length loop (which the compiler unrolls
/// and vectorises); what is left after the last block continues the same
/// stream of mask bytes, so the result is the same as eight bits per word
/// throughout.
pub(crate) fn crossover2<R: Rng + ?Sized>(a: &[u8], b: &[u8], child: &mut [u8], rng: &mut R) {
    let blocks = child.len() / 64 * 64;
    let (child_blocks, child_rest) = child.split_at_mut(blocks);
    let (a_blocks, a_rest) = a.split_at(blocks);
    let (b_blocks, b_rest) = b.split_at(blocks);
    for ((c, x), y) in child_blocks
        .chunks_exact_mut(64)
        .zip(a_blocks.chunks_exact(64))
        .zip(b_blocks.chunks_exact(64))
    {
        let bits = rng.next_u64();
        for j in 0..8 {
            let m = EXPAND[((bits >> (8 * j)) & 0xff) as usize];
            let word = |s: &[u8]| u64::from_le_bytes(s[8 * j..8 * j + 8].try_into().expect("8"));
            let mixed = (word(x) & m) | (word(y) & !m);
            c[8 * j..8 * j + 8].copy_from_slice(&mixed.to_le_bytes());
        }
    }
    let mut bits = 0u64;
    let mut left = 0;
    let mut next_mask = |rng: &mut R| {
        if left == 0 {
            bits = rng.next_u64();
            left = 8;
        }
        let m = EXPAND[(bits & 0xff) as usize];
        bits >>= 8;
        left -= 1;
        m
    };
    let mut child_words = child_rest.chunks_exact_mut(8);
    let mut a_words = a_rest.chunks_exact(8);
    let mut b_words = b_rest.chunks_exact(8);
    for ((c, x), y) in (&mut child_words).zip(&mut a_words).zip(&mut b_words) {
        let m = next_mask(rng);
        let x = u64::from_le_bytes(x.try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(y.try_into().expect("8 bytes"));
        c.copy_from_slice(&((x & m) | (y & !m)).to_le_bytes());
    }
    let m = next_mask(rng).to_le_bytes();
    let tail = child_words.into_remainder().iter_mut();
    for (((c, &x), &y), &m) in tail
        .zip(a_words.remainder())
        .zip(b_words.remainder())
        .zip(&m)
    {
        *c = if m != 0 { x } else { y };
    }
}

/// Uniform crossover of any number of parents: each gene from one of them,
/// uniformly.
pub(crate) fn crossover<R: Rng + ?Sized>(parents: &[&[u8]], child: &mut [u8], rng: &mut R) {
    match parents {
        [only] => child.copy_from_slice(only),
        [a, b] => crossover2(a, b, child, rng),
        _ => {
            for (i, gene) in child.iter_mut().enumerate() {
                *gene = parents.choose(rng).expect("at least one parent")[i];
            }
        }
    }
}

/// Crossover by blocks: each run of `block` consecutive genes comes whole
/// from one parent, drawn uniformly.
pub(crate) fn crossover_blocks<R: Rng + ?Sized>(
    parents: &[&[u8]],
    block: usize,
    child: &mut [u8],
    rng: &mut R,
) {
    for (b, out) in child.chunks_mut(block.max(1)).enumerate() {
        let start = b * block.max(1);
        let parent = parents.choose(rng).expect("at least one parent");
        out.copy_from_slice(&parent[start..start + out.len()]);
    }
}

/// Redraws each gene the game can consult with probability `rate`, visiting only the mutated genes (geometric
/// gaps). Returns how many were redrawn.
pub fn mutate<G: TableGame, R: Rng + ?Sized>(
    game: &G,
    genes: &mut [u8],
    rate: f64,
    rng: &mut R,
) -> usize {
    if let Some(count) = game.mutate_own(genes, rate, rng) {
        return count;
    }
    if rate <= 0.0 {
        return 0;
    }
    let log_keep = (1.0 - rate).ln();
    let gap = |rng: &mut R| -> usize {
        if rate >= 1.0 {
            return 0;
        }
        // U in (0, 1]; floor(ln U / ln(1 − p)) is geometric on {0, 1, …}.
        let u = 1.0 - rng.random::<f64>();
        (u.ln() / log_keep) as usize
    };
    // Only the genes a game can ever consult are mutated (tic-tac-toe:
    // the 4,520 unfinished reachable boards of 19,683 indices).
    let active = game.active_genes();
    let len = active.map_or(genes.len(), <[u32]>::len);
    let mut count = 0;
    let mut i = gap(rng);
    while i < len {
        let index = active.map_or(i, |a| a[i] as usize);
        genes[index] = game.random_gene(index, rng);
        count += 1;
        i = i.saturating_add(1).saturating_add(gap(rng));
    }
    count
}

/// What breeding needs of a run's configuration: how many survive, how
/// parents are chosen and how children are made. Games outside this crate
/// breed with it directly ([`breed_with`]); runs take it from their
/// configuration ([`BreedPlan::of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BreedPlan {
    /// The best `elite` genomes survive unchanged.
    pub elite: usize,
    /// Parents per child.
    pub parents: usize,
    pub selection: Selection,
    pub(crate) crossover: Crossover,
    pub mutation: Mutation,
}

impl BreedPlan {
    /// The breeding part of a run's configuration.
    pub(crate) fn of(cfg: &EvolveConfig) -> BreedPlan {
        BreedPlan {
            elite: cfg.elite,
            parents: cfg.parents,
            selection: cfg.selection,
            crossover: cfg.crossover,
            mutation: cfg.mutation,
        }
    }
}

/// Genome indices of the parents of one child.
fn choose_parents<R: Rng + ?Sized>(plan: &BreedPlan, ranking: &[usize], rng: &mut R) -> Vec<usize> {
    let mut ranks: Vec<usize> = Vec::with_capacity(plan.parents);
    match plan.selection {
        Selection::Elite => {
            // Distinct parents (validation guarantees parents ≤ elite).
            while ranks.len() < plan.parents {
                let r = rng.random_range(0..plan.elite);
                if !ranks.contains(&r) {
                    ranks.push(r);
                }
            }
        }
        Selection::Tournament(k) => {
            for _ in 0..plan.parents {
                let best = (0..k).map(|_| rng.random_range(0..ranking.len())).min();
                ranks.push(best.unwrap_or(0));
            }
        }
    }
    ranks.into_iter().map(|r| ranking[r]).collect()
}

/// Fills `next` with the elite (in rank order) followed by children;
/// every draw comes from (`seed`, generation, child), `seed` being the
/// island's.
pub(crate) fn breed_with<G: TableGame>(
    game: &G,
    plan: &BreedPlan,
    current: &Population,
    ranking: &[usize],
    generation: u64,
    seed: u64,
    next: &mut Population,
) {
    let gene_count = current.gene_count();
    next.as_bytes_mut()
        .par_chunks_mut(gene_count)
        .enumerate()
        .for_each(|(k, child)| {
            if k < plan.elite {
                child.copy_from_slice(current.genome(ranking[k]));
                return;
            }
            let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed, generation, k as u64));
            let parents: Vec<&[u8]> = choose_parents(plan, ranking, &mut rng)
                .into_iter()
                .map(|p| current.genome(p))
                .collect();
            match (plan.crossover, game.crossover_unit()) {
                (Crossover::Uniform, Some(unit)) => {
                    crossover_blocks(&parents, unit, child, &mut rng)
                }
                (Crossover::Uniform, None) => crossover(&parents, child, &mut rng),
                (Crossover::Block(b), _) => crossover_blocks(&parents, b as usize, child, &mut rng),
            }
            let rate = plan.mutation.draw(&mut rng);
            mutate(game, child, rate, &mut rng);
        });
}

/// A run's breeding: `breed_with` under the run's configuration.
pub fn breed<G: TableGame>(
    game: &G,
    cfg: &EvolveConfig,
    current: &Population,
    ranking: &[usize],
    generation: u64,
    seed: u64,
    next: &mut Population,
) {
    breed_with(
        game,
        &BreedPlan::of(cfg),
        current,
        ranking,
        generation,
        seed,
        next,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Connect4, TicTacToe};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn crossover_takes_every_gene_from_a_parent(
            a in proptest::collection::vec(any::<u8>(), 0..300),
            seed in any::<u64>(),
            parents in 1usize..5,
        ) {
            let others: Vec<Vec<u8>> = (0..parents)
                .map(|p| a.iter().map(|&x| x.wrapping_add(p as u8 * 37)).collect())
                .collect();
            let refs: Vec<&[u8]> = others.iter().map(|v| v.as_slice()).collect();
            let mut child = vec![0u8; a.len()];
            crossover(&refs, &mut child, &mut Pcg64Mcg::seed_from_u64(seed));
            prop_assert_eq!(child.len(), a.len());
            for (i, &g) in child.iter().enumerate() {
                prop_assert!(refs.iter().any(|p| p[i] == g), "gene {} = {} from no parent", i, g);
            }
        }
    }

    /// The plain form of `crossover2`: eight mask bits per 8-byte word,
    /// a new random word every eight words, then the tail's bytes.
    fn crossover2_per_word(a: &[u8], b: &[u8], rng: &mut Pcg64Mcg) -> Vec<u8> {
        let (mut bits, mut left) = (0u64, 0);
        let mut next_byte = || {
            if left == 0 {
                bits = rng.next_u64();
                left = 8;
            }
            let byte = bits & 0xff;
            bits >>= 8;
            left -= 1;
            byte
        };
        let mut child = Vec::with_capacity(a.len());
        let words = a.len() / 8;
        for w in 0..words {
            let byte = next_byte();
            child.extend((0..8).map(|j| {
                if byte >> j & 1 == 1 {
                    a[8 * w + j]
                } else {
                    b[8 * w + j]
                }
            }));
        }
        let byte = next_byte();
        child.extend(
            (words * 8..a.len()).map(|i| if byte >> (i % 8) & 1 == 1 { a[i] } else { b[i] }),
        );
        child
    }

    #[test]
    fn block_wise_crossover_equals_the_per_word_form() {
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 200, 1000, 4099] {
            let a: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let b: Vec<u8> = (0..len).map(|i| 255 - (i % 253) as u8).collect();
            let mut child = vec![0; len];
            crossover2(&a, &b, &mut child, &mut Pcg64Mcg::seed_from_u64(len as u64));
            let expected = crossover2_per_word(&a, &b, &mut Pcg64Mcg::seed_from_u64(len as u64));
            assert_eq!(child, expected, "length {len}");
        }
    }

    #[test]
    fn two_parent_crossover_mixes_about_half_and_half() {
        let a = vec![0u8; 100_003];
        let b = vec![1u8; 100_003];
        let mut child = vec![9u8; a.len()];
        crossover2(&a, &b, &mut child, &mut Pcg64Mcg::seed_from_u64(1));
        let from_b = child.iter().filter(|&&g| g == 1).count();
        assert!(child.iter().all(|&g| g <= 1));
        // Binomial(100003, 1/2): sd ≈ 158; allow 6 sd.
        assert!((from_b as i64 - 50_001).abs() < 950, "{from_b}");
    }

    #[test]
    fn mutation_at_rate_zero_changes_nothing() {
        let mut genes = vec![7u8; 50_000];
        let n = mutate(
            &Connect4::SUBGRID,
            &mut genes,
            0.0,
            &mut Pcg64Mcg::seed_from_u64(2),
        );
        assert_eq!(n, 0);
        assert!(genes.iter().all(|&g| g == 7));
    }

    #[test]
    fn mutation_at_rate_p_redraws_about_p_of_the_genes() {
        let len = 923_521;
        for (p, seed) in [(0.001, 3u64), (0.01, 4), (0.2, 5)] {
            let mut genes = vec![0u8; len];
            let n = mutate(
                &Connect4::SUBGRID,
                &mut genes,
                p,
                &mut Pcg64Mcg::seed_from_u64(seed),
            );
            let expected = p * len as f64;
            let sd = (len as f64 * p * (1.0 - p)).sqrt();
            // 6 standard deviations: a false failure is a one-in-a-billion event.
            assert!(
                (n as f64 - expected).abs() < 6.0 * sd,
                "p={p}: {n} vs {expected}"
            );
            // A redrawn gene keeps its value 1 time in 256.
            let changed = genes.iter().filter(|&&g| g != 0).count() as f64;
            assert!((changed - n as f64 * 255.0 / 256.0).abs() < 6.0 * sd + 10.0);
        }
        // Tic-tac-toe mutates only its 4,520 playable boards.
        let mut genes = vec![9u8; 19_683];
        assert_eq!(
            mutate(
                &TicTacToe::BASE3,
                &mut genes,
                1.0,
                &mut Pcg64Mcg::seed_from_u64(6)
            ),
            4_520
        );
        assert_eq!(genes.iter().filter(|&&g| g == 9).count(), 19_683 - 4_520);
    }

    #[test]
    fn block_crossover_takes_whole_blocks_from_one_parent() {
        let a = vec![1u8; 1000];
        let b = vec![2u8; 1000];
        let mut child = vec![0u8; 1000];
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        crossover_blocks(&[&a, &b], 31, &mut child, &mut rng);
        let blocks: Vec<&[u8]> = child.chunks(31).collect();
        assert_eq!(blocks.len(), 33, "32 whole blocks and a short last one");
        assert!(blocks.iter().all(|blk| blk.iter().all(|&g| g == blk[0])));
        let from_a = blocks.iter().filter(|blk| blk[0] == 1).count();
        assert!((6..=27).contains(&from_a), "{from_a} of 33 blocks from a");
    }
}
