//! How a genome of one kind reads a game's rules and plays
//! ([`GenomeKind`]), and the one [`TableGame`] of every built-in game: a
//! [`GenomeGame`], its rules played by the kind it names.

use super::ntuple::{Decision, Values};
use super::{Explanation, IllegalPolicy, Opponent, TableGame, own_or_first_allowed};
use crate::games::{Game, GenomeGame, Kind, NoGenome, Outcome, Rules};
use rand::Rng;
use std::fmt::Debug;
use std::hash::Hash;

/// How a genome of one kind reads the rules `G` and plays: the genome side
/// of [`TableGame`], given the rules. Implemented by each game's vote-table
/// encoders, by [`ValueGenome`](crate::games::ValueGenome) for every game
/// with a board view, and by
/// [`NoGenome`](crate::games::NoGenome) where a game has no genome of a
/// kind.
pub trait GenomeKind<G: Game>:
    Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// Whether genes carry a weight beside the move ([`TableGame::WEIGHTED_GENES`]).
    const WEIGHTED_GENES: bool = false;
    /// How a decision explains itself.
    type Reason: Explanation<G::Move>;

    /// Genes in one genome.
    fn gene_count(&self, game: &G) -> usize;
    /// [`TableGame::random_gene`].
    fn random_gene<R: Rng + ?Sized>(&self, game: &G, index: usize, rng: &mut R) -> u8;
    /// [`TableGame::fill_random`].
    fn fill_random<R: Rng + ?Sized>(&self, game: &G, genes: &mut [u8], rng: &mut R) {
        for (i, gene) in genes.iter_mut().enumerate() {
            *gene = self.random_gene(game, i, rng);
        }
    }
    /// [`TableGame::without_weight`].
    fn without_weight(&self, gene: u8) -> u8 {
        gene
    }
    /// [`TableGame::active_genes`].
    fn active_genes(&self, _game: &G) -> Option<&'static [u32]> {
        None
    }
    /// [`TableGame::gene_is_valid`].
    fn gene_is_valid(&self, _game: &G, _gene: u8) -> bool {
        true
    }
    /// [`TableGame::whole_game`].
    fn whole_game(
        &self,
        _game: &G,
        _first: &[u8],
        _second: &[u8],
        _policy: IllegalPolicy,
    ) -> Option<Outcome> {
        None
    }
    /// [`TableGame::decide`].
    fn decide(
        &self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        policy: IllegalPolicy,
    ) -> Option<G::Move>;
    /// [`TableGame::explain`].
    fn explain(
        &self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        policy: IllegalPolicy,
    ) -> Self::Reason;
    /// [`TableGame::candidate_genes`].
    fn candidate_genes(&self, game: &G) -> Vec<u8> {
        (0..=255).filter(|&g| self.gene_is_valid(game, g)).collect()
    }
    /// [`TableGame::steer`].
    fn steer<R: Rng + ?Sized>(
        &self,
        _game: &G,
        _genes: &mut [u8],
        _pos: &G::Position,
        _mv: G::Move,
        _rng: &mut R,
    ) -> bool {
        false
    }
    /// [`TableGame::crossover_unit`].
    fn crossover_unit(&self) -> Option<usize> {
        None
    }
    /// [`TableGame::mutate_own`].
    fn mutate_own<R: Rng + ?Sized>(
        &self,
        _genes: &mut [u8],
        _rate: f64,
        _rng: &mut R,
    ) -> Option<usize> {
        None
    }
    /// [`TableGame::learns`].
    fn learns(&self) -> bool {
        false
    }
    /// [`TableGame::learning`].
    fn learning(&self, _game: &G, _genes: &[u8]) -> Option<super::ntuple::Schedule> {
        None
    }
    /// [`TableGame::learn`].
    fn learn(&self, _game: &G, _genes: &mut [u8], _games: u32, _rng: rand_pcg::Pcg64Mcg) -> u64 {
        0
    }
    /// [`TableGame::learn_against`].
    fn learn_against(
        &self,
        _game: &G,
        _genes: &mut [u8],
        _games: u32,
        _rng: rand_pcg::Pcg64Mcg,
        _opponent: &mut Opponent<'_, G>,
    ) -> u64 {
        0
    }
    /// [`TableGame::search`].
    fn search(
        &self,
        _game: &G,
        _genes: &[u8],
        _pos: &G::Position,
        _depth: u8,
    ) -> Option<Option<G::Move>> {
        None
    }
    /// [`TableGame::explain_search`].
    fn explain_search(
        &self,
        _game: &G,
        _genes: &[u8],
        _pos: &G::Position,
        _depth: u8,
    ) -> Option<Self::Reason> {
        None
    }
    /// [`TableGame::genes_problem`].
    fn genes_problem(&self, _genes: &[u8]) -> Option<String> {
        None
    }
    /// [`TableGame::decide_among`]: by default the genome's own move when
    /// allowed, else the first allowed legal move.
    fn decide_among(
        &self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        policy: IllegalPolicy,
        allowed: &dyn Fn(G::Move) -> bool,
    ) -> Option<G::Move> {
        own_or_first_allowed(game, self.decide(game, genes, pos, policy), pos, allowed)
    }
}

impl<G: Game> GenomeKind<G> for NoGenome
where
    G::Move: PartialEq,
{
    type Reason = Values<G::Move>;

    fn gene_count(&self, _: &G) -> usize {
        match *self {}
    }

    fn random_gene<R: Rng + ?Sized>(&self, _: &G, _: usize, _: &mut R) -> u8 {
        match *self {}
    }

    fn decide(&self, _: &G, _: &[u8], _: &G::Position, _: IllegalPolicy) -> Option<G::Move> {
        match *self {}
    }

    fn explain(&self, _: &G, _: &[u8], _: &G::Position, _: IllegalPolicy) -> Values<G::Move> {
        match *self {}
    }
}

/// Runs `$body` with `$k` bound to the kind of `$game`, whichever it is.
macro_rules! on_kind {
    ($game:expr, $k:ident => $body:expr) => {
        match &$game.kind {
            Kind::Votes($k) => $body,
            Kind::Value($k) => $body,
        }
    };
}

/// The genome side is the kind's: each method asks the kind, given the
/// rules.
impl<R: Rules> TableGame for GenomeGame<R>
where
    R::Votes: GenomeKind<R>,
    R::Values: GenomeKind<R, Reason = Values<R::Move>>,
{
    const WEIGHTED_GENES: bool = <R::Votes as GenomeKind<R>>::WEIGHTED_GENES;
    type Reason = Decision<<R::Votes as GenomeKind<R>>::Reason, R::Move>;

    fn gene_count(&self) -> usize {
        on_kind!(self, k => k.gene_count(&self.rules))
    }
    fn random_gene<X: Rng + ?Sized>(&self, index: usize, rng: &mut X) -> u8 {
        on_kind!(self, k => k.random_gene(&self.rules, index, rng))
    }
    fn fill_random<X: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut X) {
        on_kind!(self, k => k.fill_random(&self.rules, genes, rng))
    }
    fn without_weight(&self, gene: u8) -> u8 {
        on_kind!(self, k => k.without_weight(gene))
    }
    fn active_genes(&self) -> Option<&'static [u32]> {
        on_kind!(self, k => k.active_genes(&self.rules))
    }
    fn gene_is_valid(&self, gene: u8) -> bool {
        on_kind!(self, k => k.gene_is_valid(&self.rules, gene))
    }
    #[inline]
    fn decide(&self, genes: &[u8], pos: &R::Position, policy: IllegalPolicy) -> Option<R::Move> {
        on_kind!(self, k => k.decide(&self.rules, genes, pos, policy))
    }
    #[inline]
    fn whole_game(&self, first: &[u8], second: &[u8], policy: IllegalPolicy) -> Option<Outcome> {
        on_kind!(self, k => k.whole_game(&self.rules, first, second, policy))
    }
    fn explain(&self, genes: &[u8], pos: &R::Position, policy: IllegalPolicy) -> Self::Reason {
        match &self.kind {
            Kind::Votes(k) => Decision::Table(k.explain(&self.rules, genes, pos, policy)),
            Kind::Value(k) => Decision::Values(k.explain(&self.rules, genes, pos, policy)),
        }
    }
    fn candidate_genes(&self) -> Vec<u8> {
        on_kind!(self, k => k.candidate_genes(&self.rules))
    }
    fn steer<X: Rng + ?Sized>(
        &self,
        genes: &mut [u8],
        pos: &R::Position,
        mv: R::Move,
        rng: &mut X,
    ) -> bool {
        on_kind!(self, k => k.steer(&self.rules, genes, pos, mv, rng))
    }
    fn crossover_unit(&self) -> Option<usize> {
        on_kind!(self, k => k.crossover_unit())
    }
    fn mutate_own<X: Rng + ?Sized>(
        &self,
        genes: &mut [u8],
        rate: f64,
        rng: &mut X,
    ) -> Option<usize> {
        on_kind!(self, k => k.mutate_own(genes, rate, rng))
    }
    fn learns(&self) -> bool {
        on_kind!(self, k => k.learns())
    }
    fn learning(&self, genes: &[u8]) -> Option<super::ntuple::Schedule> {
        on_kind!(self, k => k.learning(&self.rules, genes))
    }
    fn learn(&self, genes: &mut [u8], games: u32, rng: rand_pcg::Pcg64Mcg) -> u64 {
        on_kind!(self, k => k.learn(&self.rules, genes, games, rng))
    }
    fn learn_against(
        &self,
        genes: &mut [u8],
        games: u32,
        rng: rand_pcg::Pcg64Mcg,
        opponent: &mut Opponent<'_, Self>,
    ) -> u64 {
        on_kind!(self, k => k.learn_against(&self.rules, genes, games, rng, opponent))
    }
    fn search(&self, genes: &[u8], pos: &R::Position, depth: u8) -> Option<Option<R::Move>> {
        on_kind!(self, k => k.search(&self.rules, genes, pos, depth))
    }
    fn explain_search(&self, genes: &[u8], pos: &R::Position, depth: u8) -> Option<Self::Reason> {
        match &self.kind {
            Kind::Votes(k) => k
                .explain_search(&self.rules, genes, pos, depth)
                .map(Decision::Table),
            Kind::Value(k) => k
                .explain_search(&self.rules, genes, pos, depth)
                .map(Decision::Values),
        }
    }
    fn genes_problem(&self, genes: &[u8]) -> Option<String> {
        on_kind!(self, k => k.genes_problem(genes))
    }
    fn decide_among(
        &self,
        genes: &[u8],
        pos: &R::Position,
        policy: IllegalPolicy,
        allowed: &dyn Fn(R::Move) -> bool,
    ) -> Option<R::Move> {
        on_kind!(self, k => k.decide_among(&self.rules, genes, pos, policy, allowed))
    }
}
