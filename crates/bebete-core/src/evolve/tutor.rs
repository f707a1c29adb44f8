//! Learning from a solver-labelled bank ([`crate::bank`]): per-position
//! credit that games against opponents cannot give.
//!
//! - the `bank` fitness term: the share of training positions where the
//!   genome's move keeps the solver's value, ×1,000,000;
//! - the `optimal_rate` benchmark: the same share on the held-out
//!   positions, which training never reads;
//! - local search (`bebete genome polish`): one pass of direct fitting —
//!   each gene the training positions read set to the candidate value that
//!   keeps the value in the most of the positions that read it.
//!
//! The genome plays inside the run's tactical shell: which moves the shell
//! leaves does not depend on the genes, so it is worked out once per
//! position (`crate::encoding::shell::allowed_moves`).

use super::EvolveConfig;
use crate::bank::{Bank, BankSource, Labelled, Rate};
use crate::encoding::shell::{allowed_moves, choose_among};
use crate::encoding::{Explanation, IllegalPolicy, TableGame};
use crate::players::Playable;
use crate::store::FileError;
use rayon::prelude::*;
use std::sync::OnceLock;

/// A bank position with the moves the shell leaves to the genome.
struct Prepared<G: TableGame> {
    labelled: Labelled<G::Position, G::Move>,
    /// The moves the genome may choose among (every legal move without a
    /// shell).
    allowed: Vec<G::Move>,
    /// Whether the genes can change whether the value is kept here: some
    /// allowed move keeps it and some does not.
    open: bool,
    /// Plies a value genome searches here (0: none, or a vote genome).
    search: u8,
}

impl<G: TableGame> Prepared<G> {
    fn new(game: &G, labelled: Labelled<G::Position, G::Move>, lookahead: u8) -> Self {
        // A value genome searches instead of playing in the shell.
        let search = if game.as_learner().is_some() {
            lookahead
        } else {
            0
        };
        let allowed = allowed_moves(game, &labelled.pos, lookahead - search);
        let keeps = allowed.iter().filter(|&&m| labelled.keeps(m)).count();
        Prepared {
            open: keeps > 0 && keeps < allowed.len(),
            search,
            labelled,
            allowed,
        }
    }

    /// The genome's move here, inside the shell.
    #[inline]
    fn play(&self, game: &G, genes: &[u8], policy: IllegalPolicy) -> Option<G::Move> {
        if let [only] = self.allowed[..] {
            return Some(only);
        }
        if let Some(learner) = game.as_learner().filter(|_| self.search > 0) {
            return learner.search(genes, &self.labelled.pos, self.search);
        }
        let pos = &self.labelled.pos;
        let pure = game.decide(genes, pos, policy);
        choose_among(game, genes, pos, policy, pure, &|m| {
            self.allowed.contains(&m)
        })
    }

    fn keeps(&self, game: &G, genes: &[u8], policy: IllegalPolicy) -> bool {
        self.play(game, genes, policy)
            .is_some_and(|m| self.labelled.keeps(m))
    }
}

/// A run's bank, prepared for its shell.
pub struct Tutor<G: TableGame> {
    policy: IllegalPolicy,
    lookahead: u8,
    bank: Bank<G::Position, G::Move>,
    /// Training positions, prepared on first use (a deep shell makes this
    /// take seconds; a run that only benchmarks never needs it).
    train: OnceLock<Vec<Prepared<G>>>,
    held_out: OnceLock<Vec<Prepared<G>>>,
    /// Per gene read by an open training position: those positions
    /// (compressed rows), built on first use by the local search.
    readers: OnceLock<Readers>,
}

/// Which open training positions read each gene.
struct Readers {
    /// Genes read, ascending.
    genes: Vec<u32>,
    /// `positions[starts[i]..starts[i + 1]]` read `genes[i]`.
    starts: Vec<u32>,
    positions: Vec<u32>,
}

impl<G: Playable> Tutor<G> {
    /// The bank `source` names, for genomes of `game` playing under
    /// `policy` in a shell of `lookahead` plies; `None` for a game without
    /// banks.
    pub fn new(
        game: &G,
        source: &BankSource,
        policy: IllegalPolicy,
        lookahead: u8,
    ) -> Result<Option<Self>, FileError> {
        Ok(game.bank(source)?.map(|bank| Tutor {
            policy,
            lookahead,
            bank,
            train: OnceLock::new(),
            held_out: OnceLock::new(),
            readers: OnceLock::new(),
        }))
    }

    /// The bank of `cfg` for `game`, when the run uses one: for a game with
    /// banks, always (its `optimal_rate` column); `None` otherwise.
    pub fn for_run(game: &G, cfg: &EvolveConfig) -> Result<Option<Self>, FileError> {
        Self::new(game, &cfg.bank, cfg.illegal, cfg.lookahead)
    }

    fn prepare(&self, game: &G, part: &[Labelled<G::Position, G::Move>]) -> Vec<Prepared<G>> {
        part.par_iter()
            .map(|l| Prepared::new(game, l.clone(), self.lookahead))
            .collect()
    }

    fn train(&self, game: &G) -> &[Prepared<G>] {
        self.train
            .get_or_init(|| self.prepare(game, &self.bank.train))
    }

    fn held_out(&self, game: &G) -> &[Prepared<G>] {
        self.held_out
            .get_or_init(|| self.prepare(game, &self.bank.held_out))
    }

    /// Training positions in the bank.
    pub fn train_len(&self) -> usize {
        self.bank.train.len()
    }

    /// The `bank` fitness term of `genes`: ×1,000,000.
    pub fn points(&self, game: &G, genes: &[u8]) -> u32 {
        let train = self.train(game);
        let kept = train
            .iter()
            .filter(|p| p.keeps(game, genes, self.policy))
            .count();
        (1e6 * kept as f64 / train.len().max(1) as f64).round() as u32
    }

    /// How many of `positions` `genes` keep the value in.
    fn rate(&self, game: &G, genes: &[u8], positions: &[Prepared<G>]) -> Rate {
        let kept = positions
            .par_iter()
            .filter(|p| p.keeps(game, genes, self.policy))
            .count();
        Rate {
            positions: positions.len() as u64,
            kept: kept as u64,
        }
    }

    /// The held-out positions where `genes` keep the value (the
    /// optimal-move rate).
    pub fn held_out_rate(&self, game: &G, genes: &[u8]) -> Rate {
        self.rate(game, genes, self.held_out(game))
    }

    /// How many training positions [`Tutor::train_rate`] reads (prepared
    /// now if they were not).
    pub fn train_positions(&self, game: &G) -> usize {
        self.train(game).len()
    }

    /// The training positions where `genes` keep the value.
    pub fn train_rate(&self, game: &G, genes: &[u8]) -> Rate {
        self.rate(game, genes, self.train(game))
    }

    fn readers(&self, game: &G) -> &Readers {
        self.readers.get_or_init(|| {
            let train = self.train(game);
            // Which genes a position reads does not depend on the genes:
            // any table will do to ask.
            let blank = vec![0u8; game.gene_count()];
            let mut pairs: Vec<(u32, u32)> = train
                .par_iter()
                .enumerate()
                .filter(|(_, p)| p.open)
                .flat_map_iter(|(i, p)| {
                    let reason = game.explain(&blank, &p.labelled.pos, self.policy);
                    let mut read: Vec<u32> = reason.consulted().map(|g| g as u32).collect();
                    read.sort_unstable();
                    read.dedup();
                    read.into_iter().map(move |g| (g, i as u32))
                })
                .collect();
            pairs.par_sort_unstable();
            let mut readers = Readers {
                genes: Vec::new(),
                starts: Vec::new(),
                positions: Vec::with_capacity(pairs.len()),
            };
            for (g, i) in pairs {
                if readers.genes.last() != Some(&g) {
                    readers.genes.push(g);
                    readers.starts.push(readers.positions.len() as u32);
                }
                readers.positions.push(i);
            }
            readers.starts.push(readers.positions.len() as u32);
            readers
        })
    }

    /// Local search: one pass over the genes the open training positions
    /// read, each set to the candidate value (ties: the current one) that
    /// keeps the value in the most positions reading it. Returns the genes
    /// changed. Deterministic: the pass visits genes in index order.
    pub fn polish(&self, game: &G, genes: &mut [u8]) -> u32 {
        let train = self.train(game);
        let readers = self.readers(game);
        let candidates = game.candidate_genes();
        let mut changed = 0;
        for (k, &g) in readers.genes.iter().enumerate() {
            let which =
                &readers.positions[readers.starts[k] as usize..readers.starts[k + 1] as usize];
            let count = |genes: &[u8]| {
                which
                    .iter()
                    .filter(|&&i| train[i as usize].keeps(game, genes, self.policy))
                    .count()
            };
            let current = genes[g as usize];
            let mut best = (count(genes), current);
            for &v in &candidates {
                if v == current {
                    continue;
                }
                genes[g as usize] = v;
                let kept = count(genes);
                if kept > best.0 {
                    best = (kept, v);
                }
            }
            genes[g as usize] = best.1;
            changed += (best.1 != current) as u32;
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::BankSource;
    use crate::games::{Connect4, Connect4Encoder, Pair};
    use crate::players::Knowledge;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn tutor(lookahead: u8) -> Tutor<Pair<Connect4, Connect4Encoder>> {
        let game = Connect4::SUBGRID;
        let mut bank = game.bank(&BankSource::Builtin).unwrap().unwrap();
        // A small slice keeps the test quick.
        bank.train.truncate(1500);
        bank.held_out.truncate(300);
        Tutor {
            policy: IllegalPolicy::Repair,
            lookahead,
            bank,
            train: OnceLock::new(),
            held_out: OnceLock::new(),
            readers: OnceLock::new(),
        }
    }

    #[test]
    fn points_and_rates_agree_with_a_direct_count() {
        let game = Connect4::SUBGRID;
        let t = tutor(0);
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut genes = vec![0u8; game.gene_count()];
        rng.fill_bytes(&mut genes);
        let direct = t
            .bank
            .train
            .iter()
            .filter(|l| {
                game.decide(&genes, &l.pos, IllegalPolicy::Repair)
                    .is_some_and(|m| l.keeps(m))
            })
            .count();
        let expected = (1e6 * direct as f64 / t.bank.train.len() as f64).round() as u32;
        assert_eq!(t.points(&game, &genes), expected);
        let rate = t.held_out_rate(&game, &genes).share();
        assert_eq!(
            t.train_rate(&game, &genes).kept,
            direct as u64,
            "the rate counts what the points share"
        );
        assert!((0.3..1.0).contains(&rate), "{rate}");
    }

    #[test]
    fn a_shell_only_helps_on_the_bank() {
        let game = Connect4::SUBGRID;
        let genes = vec![0u8; game.gene_count()];
        let pure = tutor(0).points(&game, &genes);
        let shelled = tutor(2).points(&game, &genes);
        assert!(shelled > pure, "{shelled} vs {pure}");
    }

    #[test]
    fn local_search_raises_the_training_share_the_same_way_each_time() {
        let game = Connect4::SUBGRID;
        let t = tutor(1);
        let mut genes = vec![0u8; game.gene_count()];
        let before = t.points(&game, &genes);
        let mut again = genes.clone();
        assert!(t.polish(&game, &mut genes) > 0);
        let polished = t.points(&game, &genes);
        assert!(polished > before, "{polished} vs {before}");
        // A second pass from the same genes changes them the same way.
        t.polish(&game, &mut again);
        assert_eq!(again, genes);
    }
}
