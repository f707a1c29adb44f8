//! From a board to a gene, and from a gene to a move.
//!
//! A genome is a flat table of one-byte genes. A kind of genome says how
//! many genes it needs for a game's rules, how to draw a random one, and
//! how a table decides a move in a position: [`TableGame`], the one trait
//! that lists a genome's methods, implemented for a game's rules paired
//! with one kind ([`Pair`](crate::games::Pair)): each game's vote-table
//! encoders in its own file here, the value genome once in [`ntuple`].
//! Decisions allocate nothing (a test holds it): they run millions of
//! times per generation.

mod checkers;
mod connect4;
mod matchsticks;
pub mod ntuple;
mod othello;
pub mod shell;
mod solitaire;
mod tictactoe;

pub use checkers::{Ballot, CHECKERS_GENES, SquareVote};
pub use connect4::{SubgridEncoder, Votes, WINDOWS, WindowVote, heaviest_legal_column};
pub use tictactoe::ternary_index;

use crate::games::BuiltIn;
use crate::games::{Game, GameSpec, Notation, Outcome};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// What a genome does when its gene names an illegal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IllegalPolicy {
    /// Play the first legal move scanning upward from the gene's value,
    /// wrapping around (the default).
    #[default]
    Repair,
    /// The game is lost.
    Forfeit,
}

/// An unknown `--illegal` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected repair or forfeit")]
pub struct UnknownPolicy;

impl std::str::FromStr for IllegalPolicy {
    type Err = UnknownPolicy;

    fn from_str(text: &str) -> Result<IllegalPolicy, UnknownPolicy> {
        match text {
            "repair" => Ok(IllegalPolicy::Repair),
            "forfeit" => Ok(IllegalPolicy::Forfeit),
            _ => Err(UnknownPolicy),
        }
    }
}

impl std::fmt::Display for IllegalPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl IllegalPolicy {
    /// The policy's name, as `illegal` takes it.
    pub fn name(self) -> &'static str {
        match self {
            IllegalPolicy::Repair => "repair",
            IllegalPolicy::Forfeit => "forfeit",
        }
    }
}

/// Why a genome plays what it plays (see `bebete explain`): each game's
/// decision explains itself with its own type ([`TableGame::Reason`]).
pub trait Explanation<M>: Serialize {
    /// The gene indices the decision read.
    fn consulted(&self) -> impl Iterator<Item = usize> + '_;
    /// The move played, `None` for a forfeit.
    fn chosen(&self) -> Option<M>;
    /// One line for `play`, in parentheses.
    fn summary(&self) -> String;
    /// The lines `explain` prints under the board; `played` is the move as
    /// written (or "forfeit").
    fn details(&self, played: &str) -> String;
}

/// The decision of the whole-board games (tic-tac-toe, matchsticks): one
/// gene, picked by the whole-board index. Serialises as the fields
/// `explain --json` shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GeneLookup<M> {
    /// The gene index the position reads.
    pub index: usize,
    /// The gene found there.
    pub gene: u8,
    /// `None`: the gene is illegal and the policy is forfeit.
    #[serde(skip)]
    pub chosen: Option<M>,
    /// The gene was illegal and the move was repaired.
    pub repaired: bool,
    /// What the gene names on the board as it stands, when that differs
    /// from the gene's number (tic-tac-toe: `cell 3`, the gene's cell
    /// carried back from the symmetric image).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<CellName>,
    /// The index is of the board's symmetric image (the smallest of its
    /// eight rotations and reflections), where the gene is read.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub symmetric: bool,
}

/// A board cell as a person counts them (from 1), written `cell N`: what
/// a gene names. A number, not text, so that a decision that carries it
/// allocates nothing; the words are made only when shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName(pub u8);

impl std::fmt::Display for CellName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cell {}", self.0)
    }
}

impl Serialize for CellName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<M> GeneLookup<M> {
    /// `index N[ of the symmetric image], gene G[ = cell C here]`.
    fn head(&self) -> String {
        let of = if self.symmetric {
            " of the symmetric image"
        } else {
            ""
        };
        let names = self
            .names
            .as_ref()
            .map_or(String::new(), |n| format!(" = {n} here"));
        format!("index {}{of}, gene {}{names}", self.index, self.gene)
    }

    /// Why the gene could not be played: a taken cell, else an illegal move.
    fn illegal(&self) -> &'static str {
        if self.names.is_some() {
            "taken"
        } else {
            "illegal"
        }
    }
}

impl<M: Copy> Explanation<M> for GeneLookup<M> {
    fn consulted(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.index)
    }

    fn chosen(&self) -> Option<M> {
        self.chosen
    }

    /// What a person reads: what the table said, in words (the indices
    /// are `explain`'s).
    fn summary(&self) -> String {
        if self.repaired {
            let names = self
                .names
                .as_ref()
                .map_or(String::new(), |n| format!(" ({n})"));
            format!(
                "(its table holds {} move here{names}; the next legal one instead)",
                if self.names.is_some() {
                    "a taken"
                } else {
                    "an illegal"
                }
            )
        } else {
            "(the move its table holds for this position)".to_string()
        }
    }

    fn details(&self, played: &str) -> String {
        let (head, illegal) = (self.head(), self.illegal());
        match (self.repaired, self.chosen.is_some()) {
            (true, _) => format!("{head} ({illegal}, repaired) -> move {played}\n"),
            (false, false) => format!("{head} ({illegal}) -> forfeit\n"),
            (false, true) => format!("{head} -> move {played}\n"),
        }
    }
}

/// A fixed opponent a genome learns against: its move in each position it
/// is to move in (`None`: it has none).
pub(crate) type Opponent<'o, G> =
    dyn FnMut(&<G as Game>::Position) -> Option<<G as Game>::Move> + 'o;

/// A game whose players can be lookup tables: the genome side of a game
/// (how many genes, how a table decides a move), and the one trait that
/// lists a genome's methods. Each kind of genome implements it once for
/// the game's rules paired with it ([`Pair`](crate::games::Pair)): a vote
/// table's encoder for its game, the value genome for every game with a
/// board view; a game from outside the crate implements it on its own type
/// (`examples/own_game.rs`). Only `gene_count`, `random_gene`, `decide`
/// and `explain` are required; a genome that values positions adds its
/// learning and search as a trait of their own ([`Learns`], through
/// [`TableGame::as_learner`]).
///
/// A random gene table already plays a legal move everywhere: an illegal
/// gene is repaired to the next legal move.
///
/// ```
/// use bebete_core::encoding::{IllegalPolicy, TableGame};
/// use bebete_core::games::{Game, TicTacToe};
/// use bebete_core::genome::random_genes;
/// use rand::SeedableRng;
///
/// let game = TicTacToe::BASE3; // one gene for each of the 3^9 boards
/// assert_eq!(game.gene_count(), 19_683);
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
/// let genes = random_genes(&game, &mut rng);
/// let mut pos = game.start();
/// while game.outcome(&pos).is_none() {
///     let mv = game.decide(&genes, &pos, IllegalPolicy::Repair).unwrap();
///     assert!(game.is_legal(&pos, mv));
///     pos = game.play(&pos, mv);
/// }
/// ```
pub trait TableGame: Notation {
    /// Whether genes carry a weight beside the move (Connect-Four votes),
    /// so that a zero-weight start (`--init zero`) means something.
    const WEIGHTED_GENES: bool = false;
    /// How a decision explains itself.
    type Reason: Explanation<Self::Move>;

    /// Genes in one genome.
    fn gene_count(&self) -> usize;
    /// A uniformly random gene for position `index` (initial populations and
    /// mutation).
    fn random_gene<R: Rng + ?Sized>(&self, index: usize, rng: &mut R) -> u8;
    /// Fills a whole gene table with random genes.
    fn fill_random<R: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut R) {
        for (i, gene) in genes.iter_mut().enumerate() {
            *gene = self.random_gene(i, rng);
        }
    }
    /// The gene with its weight set to zero, for games whose genes carry one
    /// (Connect-Four votes); others return it unchanged.
    fn without_weight(&self, gene: u8) -> u8 {
        gene
    }
    /// The gene indices play can ever consult, when that is not all of them
    /// (mutation leaves the others alone).
    fn active_genes(&self) -> Option<&'static [u32]> {
        None
    }
    /// Whether a stored gene value is meaningful for this game.
    fn gene_is_valid(&self, _gene: u8) -> bool {
        true
    }
    /// The genome's move in `pos` (not finished); `None` means it forfeits.
    fn decide(
        &self,
        genes: &[u8],
        pos: &Self::Position,
        policy: IllegalPolicy,
    ) -> Option<Self::Move>;
    /// One whole game between two pure genomes (`first` moving first),
    /// played by a loop of the game's own when it has one faster than the
    /// engine's generic loop of decisions (the round-robin's), with the
    /// same outcome; `None` when it has none.
    fn whole_game(&self, _first: &[u8], _second: &[u8], _policy: IllegalPolicy) -> Option<Outcome> {
        None
    }
    /// The same decision with its reasons.
    fn explain(&self, genes: &[u8], pos: &Self::Position, policy: IllegalPolicy) -> Self::Reason;
    /// The gene values a local search tries at one index (every valid byte
    /// unless the game says fewer suffice).
    fn candidate_genes(&self) -> Vec<u8> {
        (0..=255).filter(|&g| self.gene_is_valid(g)).collect()
    }
    /// The unit crossover keeps whole, when the genome has one (a value
    /// genome's tuple with its tables): uniform crossover then takes each
    /// unit from one parent.
    fn crossover_unit(&self) -> Option<usize> {
        None
    }
    /// Mutation of genomes with operators of their own (a value genome
    /// redraws whole tuples and drifts its learning settings); `rate` is
    /// the run's mutation rate. `None`: mutate gene by gene.
    fn mutate_own<R: Rng + ?Sized>(
        &self,
        _genes: &mut [u8],
        _rate: f64,
        _rng: &mut R,
    ) -> Option<usize> {
        None
    }
    /// Its learning and its search over its own values, for a genome that
    /// values positions (the value genome: [`Learns`]); `None` for one that
    /// does not (a vote table plays in the tactical shell instead).
    fn as_learner(&self) -> Option<&dyn Learns<Self>> {
        None
    }
    /// What is wrong with a whole stored gene table beyond each gene's
    /// range (a value genome's tuple cells), if anything.
    fn genes_problem(&self, _genes: &[u8]) -> Option<String> {
        None
    }
    /// The genome's move among the legal moves `allowed` accepts (the
    /// tactical shell's choice): its own move when allowed, else the first
    /// allowed legal move. Games whose genes rank every move (Connect-Four's
    /// votes) choose the best-ranked allowed move instead.
    fn decide_among(
        &self,
        genes: &[u8],
        pos: &Self::Position,
        policy: IllegalPolicy,
        allowed: &dyn Fn(Self::Move) -> bool,
    ) -> Option<Self::Move> {
        own_or_first_allowed(self, self.decide(genes, pos, policy), pos, allowed)
    }
}

/// What a genome that values positions adds to [`TableGame`]: learning by
/// TD(λ), from self-play or against a fixed opponent, and a search over its
/// own values. The value genome has it ([`ntuple`]); a game reaches it
/// through [`TableGame::as_learner`].
pub trait Learns<G: TableGame>: Sync {
    /// Where the genome's schedule stands, read from its own bytes (games
    /// learned from, its rates and where they have fallen to).
    fn learning(&self, genes: &[u8]) -> ntuple::Schedule;
    /// `games` games of self-play, learning from every move (TD(λ), see
    /// [`ntuple::Learner`]); returns the moves played.
    fn learn(&self, genes: &mut [u8], games: u32, rng: rand_pcg::Pcg64Mcg) -> u64;
    /// `games` games against a fixed `opponent`, learning from the
    /// genome's own moves (see `ntuple::Learner::learn_against`); returns
    /// the moves played.
    fn learn_against(
        &self,
        genes: &mut [u8],
        games: u32,
        rng: rand_pcg::Pcg64Mcg,
        opponent: &mut Opponent<'_, G>,
    ) -> u64;
    /// The move after a search of `depth` plies with the genome's own
    /// values at the leaves (`None`: no legal move).
    fn search(&self, genes: &[u8], pos: &G::Position, depth: u8) -> Option<G::Move>;
    /// [`TableGame::explain`] of that search.
    fn explain_search(&self, genes: &[u8], pos: &G::Position, depth: u8) -> G::Reason;
}

/// `own` when `allowed` accepts it, else the first legal move of `pos` it
/// accepts: the tactical shell's choice for a genome that ranks no other
/// move.
pub(crate) fn own_or_first_allowed<G: Game>(
    game: &G,
    own: Option<G::Move>,
    pos: &G::Position,
    allowed: &dyn Fn(G::Move) -> bool,
) -> Option<G::Move> {
    if let Some(mv) = own.filter(|&m| allowed(m)) {
        return Some(mv);
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves.into_iter().find(|&m| allowed(m))
}

/// Something to do with a concrete game whose players are gene tables;
/// see [`visit_table_game`].
pub trait TableGameVisitor {
    /// What the visit gives back.
    type Output;
    /// Does the work with the concrete game.
    fn visit<G: TableGame + BuiltIn>(self, game: G) -> Self::Output;
}

/// Runs `visitor` with the concrete game of `spec`: the dispatch for code
/// that needs genomes and rules only (gene counts, random genomes, file
/// checks). Code that also needs the fixed opponents' knowledge uses
/// the dispatch module above the players.
pub fn visit_table_game<V: TableGameVisitor>(spec: GameSpec, visitor: V) -> V::Output {
    crate::games::with_pair!(spec, game => visitor.visit(game))
}

/// The lookup decision shared by the whole-board games: the gene is the move
/// if legal; otherwise repair scans upward through `move_space` (wrapping).
pub(crate) fn lookup_move(
    gene: u8,
    move_space: u8,
    is_legal: impl Fn(u8) -> bool,
    policy: IllegalPolicy,
) -> (Option<u8>, bool) {
    if is_legal(gene) {
        return (Some(gene), false);
    }
    if policy == IllegalPolicy::Forfeit {
        return (None, false);
    }
    let start = gene as u32;
    let space = move_space as u32;
    let repaired = (1..=space)
        .map(|step| ((start + step) % space) as u8)
        .find(|&m| is_legal(m));
    (repaired, true)
}

#[cfg(test)]
mod tests {
    use super::{CellName, Explanation, GeneLookup};

    /// `play`'s line says what the table did in words; the indices are
    /// `explain`'s.
    #[test]
    fn a_table_move_reads_in_words_and_explain_keeps_the_indices() {
        let lookup = |repaired, names| GeneLookup {
            index: 83,
            gene: 0,
            chosen: Some(6u8),
            repaired,
            names,
            symmetric: true,
        };
        let plain = lookup(false, Some(CellName(3)));
        assert_eq!(
            plain.summary(),
            "(the move its table holds for this position)"
        );
        let taken = lookup(true, Some(CellName(3)));
        assert_eq!(
            taken.summary(),
            "(its table holds a taken move here (cell 3); the next legal one instead)"
        );
        assert_eq!(
            lookup(true, None).summary(),
            "(its table holds an illegal move here; the next legal one instead)"
        );
        assert!(
            taken
                .details("6")
                .starts_with("index 83 of the symmetric image, gene 0")
        );
    }
}
