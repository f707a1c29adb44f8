//! Fitness: the points each genome of a generation earns, from the terms of
//! `--fitness`, one room per term.
//!
//! Each term is one type in one file that owns everything about it
//! ([`TermType`]): its grammar (how `--fitness` writes it, read and written
//! back), what it is for (one- or two-player games), how it is checked
//! against the configuration and the game's abilities, the most points it
//! can give one genome in a generation, how it is built for a run
//! (resolving players, loading files) and how it evaluates a generation
//! ([`Term::evaluate`]):
//! - `round_robin.rs`: every ordered pair plays once (the method);
//! - `sampled.rs`: each genome meets K others drawn from the population, once
//!   on each side (a tournament affordable for large populations);
//! - `versus.rs`: N games against a fixed player (2 points a win, 1 a draw);
//! - `hall_of_fame.rs`: N games against past champions ([`super::hall`]);
//! - `exhaustive.rs`: the share of every position of a solved game where the
//!   genome's move keeps the game's value (×1,000,000);
//! - `bank.rs`: the same on the training positions of a solver-labelled bank
//!   (Connect-Four; [`super::tutor`]);
//! - `solo.rs` (one-player games): one game per genome, points for the
//!   pieces it removes.
//!
//! A new term is a new file here and one line in the table of `terms!`
//! below; a [`Fitness`] is stored as its text, so no file format changes.
//! What a run builds once and its fitness and benchmark share (the solved
//! game, the exhaustive table, the bank) is [`RunTables`]. Every game is
//! seeded from (run seed, generation, stream), and points are summed in a
//! fixed order, so fitness does not depend on thread count.

pub(crate) mod bank;
pub(crate) mod exhaustive;
pub(crate) mod hall_of_fame;
pub(crate) mod round_robin;
pub(crate) mod sampled;
pub(crate) mod solo;
pub(crate) mod versus;

pub use bank::Bank;
pub use exhaustive::{Exhaustive, ExhaustiveScores};
pub use hall_of_fame::HallOfFame;
pub use round_robin::RoundRobin;
pub use sampled::Sampled;
pub use solo::Solo;
pub use versus::Versus;

use super::tutor::Tutor;
use super::{ConfigError, EvolveConfig, Hall, Population};
use crate::dispatch::Abilities;
use crate::encoding::IllegalPolicy;
use crate::encoding::shell::PlayStyle;
use crate::evolve::OperatorError;
use crate::players::Playable;
use crate::players::PlayerError;
use crate::solve::SolvedOnce;
use crate::store::FileError;
use std::sync::{Arc, OnceLock};

/// What one generation's evaluation produced.
pub struct Evaluation {
    /// Points per genome, in population order.
    pub points: Vec<u32>,
    /// Games played.
    pub games: u64,
}

impl Evaluation {
    /// Adds one term's points, genome by genome.
    fn add(&mut self, earned: Vec<u32>) {
        self.points
            .iter_mut()
            .zip(earned)
            .for_each(|(p, e)| *p += e);
    }

    /// Adds `points` of each genome of `pop`, the genomes scored in
    /// parallel and added in population order.
    fn add_each(&mut self, pop: &Population, points: impl Fn(&[u8]) -> u32 + Sync) {
        use rayon::prelude::*;
        let earned = (0..pop.size())
            .into_par_iter()
            .map(|i| points(pop.genome(i)))
            .collect();
        self.add(earned);
    }
}

/// The generation a term evaluates.
pub struct Round<'a> {
    /// The island's population.
    pub pop: &'a Population,
    /// The run's hall of fame.
    pub hall: &'a Hall,
    /// How the genomes play (illegal genes, shell).
    pub rules: PlayStyle,
    /// The island's seed.
    pub seed: u64,
    /// The generation evaluated.
    pub generation: u64,
}

/// One fitness term of a run, built: adds each genome's points (and the
/// games it played) to `eval`.
pub trait Term<G: Playable>: Send + Sync {
    /// Adds each genome's points and games to `eval`.
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation);
}

/// What a run builds at most once and its fitness terms and benchmark
/// share: the solved game (the small games), the exhaustive score table
/// (built on first use) and the bank.
pub struct RunTables<G: Playable> {
    /// The game solved whole, where it can be (built on first use).
    pub solved: Arc<SolvedOnce<G::Position>>,
    exhaustive: OnceLock<Option<ExhaustiveScores>>,
    /// The bank (Connect-Four), when the run reads one.
    pub tutor: Option<Arc<Tutor<G>>>,
}

impl<G: Playable> RunTables<G> {
    /// The run's tables; the bank is loaded now when `cfg` uses it.
    pub fn for_run(game: &G, cfg: &EvolveConfig) -> Result<Self, FileError> {
        Ok(RunTables {
            solved: Arc::new(SolvedOnce::default()),
            exhaustive: OnceLock::new(),
            tutor: Tutor::for_run(game, cfg)?.map(Arc::new),
        })
    }

    /// The exhaustive score table of `game` under `policy`, built on first
    /// use: from the solved game for two players, from the exact solver's
    /// best counts for one (`None` when that board is too large).
    pub fn exhaustive(&self, game: &G, policy: IllegalPolicy) -> Option<&ExhaustiveScores> {
        self.exhaustive
            .get_or_init(|| {
                if G::PLAYERS == 1 {
                    solo::exhaustive_scores(game, policy)
                } else {
                    Some(ExhaustiveScores::build(game, policy, self.solved.get(game)))
                }
            })
            .as_ref()
    }
}

/// One kind of fitness term, in its own file: its grammar, the games it
/// is for, its checks, its maximum and how a run builds it. The kinds are
/// listed once, in `terms!`'s table.
pub trait TermType:
    Sized + Clone + PartialEq + Eq + std::fmt::Debug + std::fmt::Display + Send + Sync
{
    /// How `--fitness` writes it (`hof:N`), for help and messages.
    const SYNTAX: &'static str;
    /// What it gives, for `--fitness`'s help (one sentence).
    const HELP: &'static str;
    /// The games it is for: `Some(n)` for n-player games only, `None` for
    /// every game.
    const PLAYERS: Option<u8> = Some(2);
    /// Whether one fitness may hold it more than once (fixed opponents).
    const REPEATS: bool = false;
    /// Reads one `+`-joined word of `--fitness` (`hof:12`); `None` when the
    /// word is not this kind's.
    fn parse(word: &str) -> Option<Result<Self, OperatorError>>;
    /// Checks it against the rest of the configuration and the game's
    /// abilities; the problem names its flag.
    fn check(&self, cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
        let _ = (cfg, abilities);
        Ok(())
    }
    /// The most points it gives one genome in a generation of a game with
    /// `abilities`.
    fn max_points(&self, cfg: &EvolveConfig, abilities: &Abilities) -> u64;
    /// Builds it for a run of `game`: `nth` is its place among the terms of
    /// its kind (each its own seed stream); `None` when it has nothing to
    /// evaluate in this run.
    fn build<G: Playable>(
        &self,
        game: &G,
        cfg: &EvolveConfig,
        tables: &Arc<RunTables<G>>,
        nth: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError>;
}

/// A kind of the table, found in an [`AnyTerm`].
pub trait Listed: TermType + 'static {
    /// The term of this kind, if `term` is one.
    fn from_any(term: &AnyTerm) -> Option<&Self>;
}

/// The table of term kinds: writes [`AnyTerm`] (one variant per kind) and
/// its dispatch. The order is the order `--fitness` is written back in.
macro_rules! terms {
    ($($kind:ident($ty:ty)),* $(,)?) => {
        /// One fitness term, of any kind in the table.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyTerm {
            $(
                #[doc = concat!("A term of kind `", stringify!($ty), "`.")]
                $kind($ty)
            ),*
        }

        $(impl Listed for $ty {
            fn from_any(term: &AnyTerm) -> Option<&Self> {
                match term {
                    AnyTerm::$kind(t) => Some(t),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        })*

        /// Every kind's syntax, help and players, in table order.
        const KINDS: &[(&str, &str, Option<u8>)] =
            &[$((<$ty>::SYNTAX, <$ty>::HELP, <$ty>::PLAYERS)),*];

        impl AnyTerm {
            /// Reads one word with the first kind of the table that claims it.
            fn parse(word: &str) -> Option<Result<AnyTerm, OperatorError>> {
                $(if let Some(read) = <$ty>::parse(word) {
                    return Some(read.map(AnyTerm::$kind));
                })*
                None
            }

            /// Its kind's place in the table.
            fn rank(&self) -> usize {
                let mut rank = 0;
                $(
                    if let AnyTerm::$kind(_) = self {
                        return rank;
                    }
                    rank += 1;
                )*
                rank
            }

            fn repeats(&self) -> bool {
                match self { $(AnyTerm::$kind(_) => <$ty>::REPEATS),* }
            }

            fn syntax(&self) -> &'static str {
                match self { $(AnyTerm::$kind(_) => <$ty>::SYNTAX),* }
            }

            fn players(&self) -> Option<u8> {
                match self { $(AnyTerm::$kind(_) => <$ty>::PLAYERS),* }
            }

            fn check(&self, cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
                match self { $(AnyTerm::$kind(t) => t.check(cfg, abilities)),* }
            }

            fn max_points(&self, cfg: &EvolveConfig, abilities: &Abilities) -> u64 {
                match self { $(AnyTerm::$kind(t) => t.max_points(cfg, abilities)),* }
            }

            fn build<G: Playable>(
                &self,
                game: &G,
                cfg: &EvolveConfig,
                tables: &Arc<RunTables<G>>,
                nth: usize,
            ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
                match self { $(AnyTerm::$kind(t) => t.build(game, cfg, tables, nth)),* }
            }
        }

        impl std::fmt::Display for AnyTerm {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self { $(AnyTerm::$kind(t) => t.fmt(f)),* }
            }
        }
    };
}

terms! {
    RoundRobin(round_robin::RoundRobin),
    Solo(solo::Solo),
    Sampled(sampled::Sampled),
    HallOfFame(hall_of_fame::HallOfFame),
    Versus(versus::Versus),
    Exhaustive(exhaustive::Exhaustive),
    Bank(bank::Bank),
}

/// What a genome's fitness is made of: the method's round-robin and/or
/// other terms, written `round-robin[+TERM…]` or `vs:TERM[+TERM…]` (and
/// `solo` alone for `vs:solo`). Kept in the table's order, so it is written
/// back the same however it was typed; stored in files as that text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fitness {
    terms: Vec<AnyTerm>,
}

impl Fitness {
    /// The method: round-robin points only.
    pub fn round_robin() -> Fitness {
        Fitness::of_terms(vec![AnyTerm::RoundRobin(round_robin::RoundRobin)])
    }

    /// One-player games: one game per genome.
    pub fn solo() -> Fitness {
        Fitness::of_terms(vec![AnyTerm::Solo(solo::Solo)])
    }

    /// A fitness of these terms, put in the table's order (so it is
    /// written back as `--fitness` would read it):
    ///
    /// ```
    /// use bebete_core::evolve::Fitness;
    /// use bebete_core::evolve::fitness::{AnyTerm, Versus};
    /// use bebete_core::players::PlayerSpec;
    ///
    /// let against = |player, games| AnyTerm::Versus(Versus { player, games });
    /// let fitness = Fitness::of_terms([against(PlayerSpec::Random, 10), against(PlayerSpec::Rules, 20)]);
    /// assert_eq!(fitness.to_string(), "vs:random:10+rules:20");
    /// assert_eq!(fitness, "vs:random:10+rules:20".parse().unwrap());
    /// ```
    pub fn of_terms(terms: impl IntoIterator<Item = AnyTerm>) -> Fitness {
        let mut terms: Vec<AnyTerm> = terms.into_iter().collect();
        terms.sort_by_key(AnyTerm::rank);
        Fitness { terms }
    }

    /// Its terms, in the table's order.
    pub fn terms(&self) -> &[AnyTerm] {
        &self.terms
    }

    /// Its terms of kind `K`, in the order given.
    pub fn of<K: Listed>(&self) -> impl Iterator<Item = &K> + use<'_, K> {
        self.terms.iter().filter_map(K::from_any)
    }

    /// Whether it holds a term of kind `K`.
    pub fn has<K: Listed>(&self) -> bool {
        self.of::<K>().next().is_some()
    }

    /// Reads `round-robin[+TERM…]`, `vs:TERM[+TERM…]` or `solo`.
    fn parse_text(text: &str) -> Result<Fitness, String> {
        let expected = || {
            let kinds: Vec<&str> = KINDS.iter().skip(1).map(|(syntax, ..)| *syntax).collect();
            format!(
                "expected round-robin, round-robin+TERM or vs:TERM, terms ({}) joined by +",
                kinds.join(", ")
            )
        };
        let text = if text == "solo" { "vs:solo" } else { text };
        let words: Vec<&str> = match text.strip_prefix("vs:") {
            Some("") => return Err(format!("'vs:' names no term: {}", expected())),
            Some(rest) => rest.split('+').collect(),
            None if text == "round-robin" || text.starts_with("round-robin+") => {
                text.split('+').collect()
            }
            None => return Err(expected()),
        };
        let mut terms: Vec<AnyTerm> = Vec::new();
        for word in words {
            let unknown = || match crate::players::PlayerSpec::parse(word) {
                Ok(spec) if !matches!(spec.plain(), crate::players::PlayerSpec::Genome(_)) => {
                    format!("'{word}' needs a game count: {word}:N games against it")
                }
                _ => format!("'{word}' is not a fitness term: {}", expected()),
            };
            let term = AnyTerm::parse(word).ok_or_else(unknown)?.map_err(|e| e.0)?;
            if !term.repeats() && terms.iter().any(|t| t.rank() == term.rank()) {
                return Err(format!("give {} once", term.syntax()));
            }
            terms.push(term);
        }
        Ok(Fitness::of_terms(terms))
    }

    /// `--fitness`'s help: the grammar, then each term of the table.
    pub fn help() -> String {
        let mut text = String::from(
            "Fitness: round-robin (the method), round-robin+TERM[+TERM…] or vs:TERM[+TERM…] \
             (solo alone stands for vs:solo), with the terms:",
        );
        for (syntax, help, players) in KINDS {
            let games = match players {
                Some(1) => " [one-player games]",
                Some(_) => " [two-player games]",
                None => "",
            };
            text.push_str(&format!("\n  {syntax}: {help}{games}"));
        }
        text.push_str("\n[default: per game, listed below]");
        text
    }
}

impl std::fmt::Display for Fitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let round_robin = self.has::<round_robin::RoundRobin>();
        let rest: Vec<String> = self
            .terms
            .iter()
            .filter(|t| round_robin::RoundRobin::from_any(t).is_none())
            .map(ToString::to_string)
            .collect();
        match (round_robin, rest.is_empty()) {
            (true, true) => f.write_str("round-robin"),
            (true, false) => write!(f, "round-robin+{}", rest.join("+")),
            (false, _) => write!(f, "vs:{}", rest.join("+")),
        }
    }
}

impl std::str::FromStr for Fitness {
    type Err = super::OperatorError;

    fn from_str(text: &str) -> Result<Fitness, super::OperatorError> {
        Fitness::parse_text(text).map_err(super::OperatorError)
    }
}

/// Stored as its text: a new term changes no file format.
impl serde::Serialize for Fitness {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Fitness {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Fitness::parse_text(&text).map_err(serde::de::Error::custom)
    }
}

/// A count term's word (`hof:12` for `prefix` `hof`): 1..=`most`; `None`
/// when the word has another prefix.
fn count_term(
    word: &str,
    prefix: &str,
    most: u32,
    what: &str,
) -> Option<Result<u32, OperatorError>> {
    let n = word.strip_prefix(prefix)?.strip_prefix(':')?;
    Some(match n.parse::<u32>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(OperatorError(format!(
            "{word}: the {what} must be 1-{most}"
        ))),
    })
}

/// The terms against the game's players: a term for n-player games only
/// is refused for the others, naming what the game can use instead.
pub(crate) fn check_players(cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
    let f = &cfg.fitness;
    let refuse = |allowed: String| {
        Err(ConfigError {
            flag: "fitness",
            value: f.to_string(),
            allowed,
        })
    };
    for term in &f.terms {
        match term.players() {
            Some(n) if n != abilities.players => {}
            _ => continue,
        }
        if abilities.players == 2 {
            return refuse(format!(
                "{} is a fitness of one-player games; two-player games play each other",
                term.syntax()
            ));
        }
        let own: Vec<&str> = KINDS
            .iter()
            .filter(|(.., players)| players.is_none_or(|n| n == abilities.players))
            .map(|(syntax, ..)| *syntax)
            .collect();
        return refuse(format!(
            "a one-player game has no opponents ({} plays some): use {}",
            term.syntax(),
            own.join(" and/or ")
        ));
    }
    Ok(())
}

/// Checks every fitness term of `cfg` against its range and the game's
/// abilities; the first problem names its flag. (Against the game's
/// players: `check_players`, checked first with the rest of the
/// configuration's players.)
pub fn check(cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
    cfg.fitness
        .terms
        .iter()
        .try_for_each(|term| term.check(cfg, abilities))
}

/// The most fitness points a genome of a game with `abilities` can earn in
/// one generation.
pub fn max_points(cfg: &EvolveConfig, abilities: &Abilities) -> u64 {
    cfg.fitness
        .terms
        .iter()
        .map(|t| t.max_points(cfg, abilities))
        .sum()
}

/// The fitness terms of a run, with their players built once.
pub(crate) struct FitnessTerms<G: Playable> {
    terms: Vec<Box<dyn Term<G>>>,
}

impl<G: Playable> FitnessTerms<G> {
    /// Builds the terms `cfg` names for `game` (loading genome files), on
    /// the run's shared `tables`.
    pub(crate) fn new(
        game: &G,
        cfg: &EvolveConfig,
        tables: &Arc<RunTables<G>>,
    ) -> Result<Self, PlayerError> {
        let mut terms = Vec::new();
        for (i, term) in cfg.fitness.terms.iter().enumerate() {
            let nth = cfg.fitness.terms[..i]
                .iter()
                .filter(|t| t.rank() == term.rank())
                .count();
            terms.extend(term.build(game, cfg, tables, nth)?);
        }
        Ok(FitnessTerms { terms })
    }

    /// Every genome's points in generation `generation` of a run (or of
    /// its island) seeded with `seed`.
    pub(crate) fn evaluate(
        &self,
        game: &G,
        pop: &Population,
        hall: &Hall,
        rules: PlayStyle,
        seed: u64,
        generation: u64,
    ) -> Evaluation {
        let mut eval = Evaluation {
            points: vec![0; pop.size()],
            games: 0,
        };
        let round = Round {
            pop,
            hall,
            rules,
            seed,
            generation,
        };
        for term in &self.terms {
            term.evaluate(game, &round, &mut eval);
        }
        eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::tournament::round_robin;
    use crate::games::{GameSpec, TicTacToe};

    #[test]
    fn terms_add_up_and_name_their_games() {
        let game = TicTacToe::BASE3;
        let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 3);
        cfg.population = 6;
        cfg.elite = 2;
        let pop = Population::random(&game, 6, 4);
        let hall = Hall::default();
        let tables = Arc::new(RunTables::for_run(&game, &cfg).unwrap());
        let plain = FitnessTerms::new(&game, &cfg, &tables).unwrap();
        let rr = plain.evaluate(&game, &pop, &hall, cfg.play_style(), 3, 0);
        assert_eq!(rr.points, round_robin(&game, &pop, cfg.illegal));
        assert_eq!(rr.games, 30);
        cfg.fitness = "round-robin+random:4".parse().unwrap();
        let both = FitnessTerms::new(&game, &cfg, &tables).unwrap();
        let sum = both.evaluate(&game, &pop, &hall, cfg.play_style(), 3, 0);
        assert_eq!(sum.games, 30 + 4 * 6);
        assert!(sum.points.iter().zip(&rr.points).all(|(s, r)| s >= r));
        assert!(sum.points.iter().zip(&rr.points).any(|(s, r)| s > r));
    }

    /// Every term reads its grammar and writes it back, in the table's
    /// order however it was typed; a player may hold colons.
    #[test]
    fn fitness_reads_and_writes_every_term() {
        use crate::players::PlayerSpec;
        assert_eq!("round-robin".parse::<Fitness>(), Ok(Fitness::round_robin()));
        assert_eq!("solo".parse::<Fitness>(), Ok(Fitness::solo()));
        let versus = "vs:mc:200:50".parse::<Fitness>().unwrap();
        assert!(!versus.has::<round_robin::RoundRobin>());
        assert_eq!(
            versus.of::<versus::Versus>().collect::<Vec<_>>(),
            vec![&versus::Versus {
                player: PlayerSpec::MonteCarlo(200),
                games: 50
            }]
        );
        for text in [
            "round-robin+random:20",
            "vs:random:20+perfect:4",
            "round-robin+rules:2+mc:5:6",
            "vs:exhaustive",
            "vs:random:10+exhaustive",
            "vs:sample:20+random:10",
            "round-robin+hof:10+rules:4",
            "vs:sample:4+hof:6+random:2",
            "vs:bank",
            "round-robin+rules:4+bank",
            "vs:solo+exhaustive",
            "vs:wpc@0.1:100",
        ] {
            assert_eq!(text.parse::<Fitness>().unwrap().to_string(), text);
        }
        // Written back in the table's order; fixed players keep theirs.
        assert_eq!(
            "vs:exhaustive+random:4+hof:2+rules:3"
                .parse::<Fitness>()
                .unwrap()
                .to_string(),
            "vs:hof:2+random:4+rules:3+exhaustive"
        );
        assert_eq!(
            "vs:sample:8"
                .parse::<Fitness>()
                .unwrap()
                .of::<sampled::Sampled>()
                .next(),
            Some(&sampled::Sampled(8))
        );
        for (bad, why) in [
            ("vs:random", "'random' needs a game count: random:N"),
            ("vs:elo", "'elo' is not a fitness term"),
            ("vs:", "'vs:' names no term"),
            ("elo", "expected round-robin"),
            ("random:4", "expected round-robin"),
            (
                "vs:sample:0",
                "sample:0: the number of sampled opponents must be 1-10000",
            ),
            ("vs:sample:x", "must be 1-10000"),
            ("vs:sample:2+sample:3", "give sample:K once"),
            ("vs:hof:0", "must be 1-100000"),
            ("vs:hof:2+hof:2", "give hof:N once"),
            ("vs:bank+bank", "give bank once"),
            ("vs:random:0", "the game count '0' must be 1-100000"),
            ("vs:mc:0:4", "player 'mc:0'"),
        ] {
            let err = bad.parse::<Fitness>().unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        // The grammar's message lists the table's terms.
        let err = "elo".parse::<Fitness>().unwrap_err().to_string();
        assert!(err.contains("solo, sample:K, hof:N, SPEC:N"), "{err}");
    }

    /// Stored as its text, and read back from it.
    #[test]
    fn fitness_is_stored_as_its_text() {
        let f: Fitness = "round-robin+hof:3+rules:4".parse().unwrap();
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(json, "\"round-robin+hof:3+rules:4\"");
        assert_eq!(serde_json::from_str::<Fitness>(&json).unwrap(), f);
        assert!(serde_json::from_str::<Fitness>("\"vs:\"").is_err());
    }

    /// A term for the other kind of game is refused, naming it.
    #[test]
    fn terms_are_checked_against_the_game_s_players() {
        let peg = GameSpec::registered()
            .into_iter()
            .find(|&spec| crate::dispatch::abilities(spec).players == 1)
            .unwrap();
        let mut cfg = EvolveConfig::method(peg, 1);
        cfg.fitness = "vs:random:4".parse().unwrap();
        let err = cfg.validate().unwrap_err().to_string();
        assert!(
            err.contains(
                "a one-player game has no opponents (SPEC:N plays some): use solo and/or exhaustive"
            ),
            "{err}"
        );
        let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 1);
        cfg.fitness = "round-robin+solo".parse().unwrap();
        let err = cfg.validate().unwrap_err().to_string();
        assert!(
            err.contains("solo is a fitness of one-player games"),
            "{err}"
        );
    }

    #[test]
    fn the_most_points_add_up_over_the_terms() {
        let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 3);
        let abilities = crate::dispatch::abilities(GameSpec::TICTACTOE);
        cfg.fitness = "round-robin+random:3+rules:4".parse().unwrap();
        // 4 per other genome, then 2 points a game, odd counts rounded up
        // to whole pairs.
        assert_eq!(max_points(&cfg, &abilities), 4 * 99 + 2 * 4 + 2 * 4);
        cfg.fitness = "vs:exhaustive+hof:5".parse().unwrap();
        assert_eq!(max_points(&cfg, &abilities), 1_000_000 + 2 * 5);
    }
}
