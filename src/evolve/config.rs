//! The parameters of a run, validated before any work starts.

use crate::encoding::IllegalPolicy;
use crate::games::{GameKind, GameSpec};
use serde::{Deserialize, Serialize};

/// How parents are chosen for each child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selection {
    /// Uniformly among the elite (the method).
    Elite,
    /// Each parent is the best of K genomes drawn from the whole population.
    Tournament(u32),
}

impl Selection {
    /// Reads `elite` or `tournament:K`.
    pub fn parse(text: &str) -> Result<Selection, String> {
        match text.split_once(':') {
            None if text == "elite" => Ok(Selection::Elite),
            Some(("tournament", k)) => match k.parse::<u32>() {
                Ok(k) if k >= 1 => Ok(Selection::Tournament(k)),
                _ => Err(format!("tournament size '{k}' must be a whole number ≥ 1")),
            },
            _ => Err("expected elite or tournament:K".to_string()),
        }
    }
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selection::Elite => f.write_str("elite"),
            Selection::Tournament(k) => write!(f, "tournament:{k}"),
        }
    }
}

/// How a child's genes are taken from its parents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Crossover {
    /// Each gene from a parent drawn uniformly (the method).
    #[default]
    Uniform,
    /// Each run of B consecutive genes from one parent. Connect-Four's gene
    /// index is four base-31 digits (the window's columns, left to right),
    /// so blocks of 31 genes share the first three columns' states and
    /// blocks of 961 the first two: such genes answer similar windows and
    /// travel together.
    Block(u32),
}

impl Crossover {
    /// Reads `uniform` or `block:B`.
    pub fn parse(text: &str) -> Result<Crossover, String> {
        match text.split_once(':') {
            None if text == "uniform" => Ok(Crossover::Uniform),
            Some(("block", b)) => match b.parse::<u32>() {
                Ok(b) if b >= 1 => Ok(Crossover::Block(b)),
                _ => Err(format!("block size '{b}' must be a whole number ≥ 1")),
            },
            _ => Err("expected uniform or block:B".to_string()),
        }
    }
}

impl std::fmt::Display for Crossover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Crossover::Uniform => f.write_str("uniform"),
            Crossover::Block(b) => write!(f, "block:{b}"),
        }
    }
}

/// Which genes mutation may redraw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MutationScope {
    /// Every gene the game can consult (the method).
    #[default]
    All,
    /// Only the genes some genome consulted in this generation's games
    /// against the fixed fitness opponents: mutation goes where play is,
    /// and (with `--init zero`) windows never met keep weight 0.
    Used,
}

impl MutationScope {
    /// Reads `all` or `used`.
    pub fn parse(text: &str) -> Result<MutationScope, String> {
        match text {
            "all" => Ok(MutationScope::All),
            "used" => Ok(MutationScope::Used),
            _ => Err("expected all or used".to_string()),
        }
    }
}

impl std::fmt::Display for MutationScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MutationScope::All => "all",
            MutationScope::Used => "used",
        })
    }
}

/// The genes of generation 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Init {
    /// Every gene drawn at random (the method).
    #[default]
    Random,
    /// Connect-Four: every vote has weight 0 (its column still random), so
    /// a new genome plays the tie order (centre first) and a window only
    /// takes part once mutation has given its gene a weight that selection
    /// kept.
    Zero,
}

impl Init {
    /// Reads `random` or `zero`.
    pub fn parse(text: &str) -> Result<Init, String> {
        match text {
            "random" => Ok(Init::Random),
            "zero" => Ok(Init::Zero),
            _ => Err("expected random or zero".to_string()),
        }
    }
}

impl std::fmt::Display for Init {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Init::Random => "random",
            Init::Zero => "zero",
        })
    }
}

/// What a genome's fitness is made of: round-robin points (the method),
/// games against K opponents sampled from the population, and/or games
/// against fixed opponents (2 points a win, 1 a draw).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fitness {
    pub round_robin: bool,
    /// (player spec, games) per fixed opponent.
    pub opponents: Vec<(String, u64)>,
    /// Score the genome in every position of the game (tic-tac-toe and
    /// matchsticks, solved exactly): 1,000,000 × the share of unfinished
    /// positions where its move keeps the game's value.
    pub exhaustive: bool,
    /// Each genome plays K opponents drawn from the population, once on
    /// each side (0: none); only its own points count.
    pub sampled: u32,
    /// Games per genome against past champions drawn from the hall of fame
    /// (0: none; see [`super::hall`]).
    pub hall: u32,
}

impl Fitness {
    /// The method: round-robin points only.
    pub fn round_robin() -> Fitness {
        Fitness {
            round_robin: true,
            opponents: Vec::new(),
            exhaustive: false,
            sampled: 0,
            hall: 0,
        }
    }

    /// Reads `round-robin`, `round-robin+SPEC:N[+SPEC:N…]` or
    /// `vs:TERM[+TERM…]`, a term being `SPEC:N`, `sample:K`, `hof:N` or
    /// `exhaustive`
    /// (SPEC may itself contain colons, as in `mc:200`).
    pub fn parse(text: &str) -> Result<Fitness, String> {
        let opponent = |term: &str| -> Result<(String, u64), String> {
            let (spec, n) = term
                .rsplit_once(':')
                .ok_or_else(|| format!("'{term}' needs a game count: SPEC:N"))?;
            match n.parse::<u64>() {
                Ok(n) if (1..=100_000).contains(&n) && !spec.is_empty() => {
                    Ok((spec.to_string(), n))
                }
                _ => Err(format!(
                    "the game count '{n}' must be 1-100000 after a player"
                )),
            }
        };
        // A count term (`hof:N`, `sample:K`): 1..=most, given at most once.
        let once = |term: &str, n: &str, most: u32, current: u32, what: &str| match n.parse::<u32>()
        {
            Ok(n) if (1..=most).contains(&n) && current == 0 => Ok(n),
            _ => Err(format!("{term}: the {what} must be 1-{most}, given once")),
        };
        let (round_robin, rest) = if let Some(rest) = text.strip_prefix("vs:") {
            (false, Some(rest))
        } else if text == "round-robin" {
            (true, None)
        } else if let Some(rest) = text.strip_prefix("round-robin+") {
            (true, Some(rest))
        } else {
            return Err(
                "expected round-robin, round-robin+SPEC:N or vs:TERM, terms (SPEC:N, sample:K, hof:N, exhaustive) joined by +"
                    .to_string(),
            );
        };
        let mut fitness = Fitness {
            round_robin,
            opponents: Vec::new(),
            exhaustive: false,
            sampled: 0,
            hall: 0,
        };
        for term in rest
            .map(|r| r.split('+').collect::<Vec<_>>())
            .unwrap_or_default()
        {
            if term == "exhaustive" {
                fitness.exhaustive = true;
            } else if let Some(n) = term.strip_prefix("hof:") {
                fitness.hall = once(
                    term,
                    n,
                    100_000,
                    fitness.hall,
                    "games against the hall of fame",
                )?;
            } else if let Some(k) = term.strip_prefix("sample:") {
                fitness.sampled = once(
                    term,
                    k,
                    10_000,
                    fitness.sampled,
                    "number of sampled opponents",
                )?;
            } else {
                fitness.opponents.push(opponent(term)?);
            }
        }
        Ok(fitness)
    }
}

impl std::fmt::Display for Fitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut terms: Vec<String> = (self.sampled > 0)
            .then(|| format!("sample:{}", self.sampled))
            .into_iter()
            .chain((self.hall > 0).then(|| format!("hof:{}", self.hall)))
            .chain(self.opponents.iter().map(|(s, n)| format!("{s}:{n}")))
            .collect();
        if self.exhaustive {
            terms.push("exhaustive".to_string());
        }
        match (self.round_robin, terms.is_empty()) {
            (true, true) => f.write_str("round-robin"),
            (true, false) => write!(f, "round-robin+{}", terms.join("+")),
            (false, _) => write!(f, "vs:{}", terms.join("+")),
        }
    }
}

/// The per-gene mutation probability: one rate, or a range from which each
/// child draws its own rate (log-uniformly), so that every generation has
/// both bold and careful children and selection keeps whichever works.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mutation {
    pub low: f64,
    pub high: f64,
}

impl Mutation {
    /// One rate for every child.
    pub fn fixed(rate: f64) -> Mutation {
        Mutation {
            low: rate,
            high: rate,
        }
    }

    /// Reads `P` or `LO..HI` (0 < LO ≤ HI ≤ 1 for a range).
    pub fn parse(text: &str) -> Result<Mutation, String> {
        let rate = |t: &str| -> Result<f64, String> {
            match t.trim().parse::<f64>() {
                Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
                _ => Err(format!("'{t}' must be a probability, 0-1")),
            }
        };
        match text.split_once("..") {
            None => Ok(Mutation::fixed(rate(text)?)),
            Some((lo, hi)) => {
                let (low, high) = (rate(lo)?, rate(hi)?);
                if low <= 0.0 || low > high {
                    return Err(format!(
                        "a range LO..HI needs 0 < LO <= HI (got {low}..{high})"
                    ));
                }
                Ok(Mutation { low, high })
            }
        }
    }

    /// The rate of one child: the fixed rate, or a log-uniform draw.
    pub fn draw<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        use rand::RngExt;
        if self.low >= self.high {
            return self.low;
        }
        let (a, b) = (self.low.ln(), self.high.ln());
        (a + (b - a) * rng.random::<f64>()).exp()
    }
}

impl std::fmt::Display for Mutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.low >= self.high {
            write!(f, "{}", self.low)
        } else {
            write!(f, "{}..{}", self.low, self.high)
        }
    }
}

/// When a run may stop before its planned generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// The champion's audit: its move keeps the game's value in every
    /// position it can reach (tic-tac-toe, matchsticks).
    Unbeatable,
    /// The champion's score share against SPEC reaches X (0-1).
    Score { opponent: String, share: f64 },
}

impl Target {
    /// Reads `unbeatable` or `score:SPEC:X`.
    pub fn parse(text: &str) -> Result<Target, String> {
        if text == "unbeatable" {
            return Ok(Target::Unbeatable);
        }
        let rest = text
            .strip_prefix("score:")
            .ok_or("expected unbeatable or score:SPEC:X")?;
        let (spec, x) = rest.rsplit_once(':').ok_or("expected score:SPEC:X")?;
        match x.parse::<f64>() {
            Ok(share) if (0.0..=1.0).contains(&share) && !spec.is_empty() => Ok(Target::Score {
                opponent: spec.to_string(),
                share,
            }),
            _ => Err(format!("the score share '{x}' must be 0-1 (0.9 = 90%)")),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Unbeatable => f.write_str("unbeatable"),
            Target::Score { opponent, share } => write!(f, "score:{opponent}:{share}"),
        }
    }
}

/// Everything that determines a run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    pub game: GameSpec,
    pub population: usize,
    pub elite: usize,
    pub parents: usize,
    /// Per-gene probability of being redrawn in a child.
    pub mutation: Mutation,
    /// Which genes mutation may redraw.
    pub mutate: MutationScope,
    /// Planned total number of generations.
    pub generations: u64,
    pub seed: u64,
    /// Write a checkpoint every K generations (and at the end).
    pub checkpoint_every: u64,
    /// Checkpoints kept on disk (the oldest beyond this are removed).
    pub keep: usize,
    pub illegal: IllegalPolicy,
    pub selection: Selection,
    pub fitness: Fitness,
    /// The genes of generation 0.
    pub init: Init,
    pub crossover: Crossover,
    /// Measure the champion every K generations (0: never).
    pub bench_every: u64,
    /// Fixed opponents of the benchmark (player specs).
    pub bench_against: Vec<String>,
    /// Games per benchmark opponent.
    pub bench_games: u64,
    pub target: Option<Target>,
    /// Stop after this many generations without a better benchmark.
    pub patience: Option<u64>,
}

/// A parameter outside its allowed range; the message names the flag.
#[derive(Debug, thiserror::Error)]
#[error("--{flag} {value}: {allowed}")]
pub struct ConfigError {
    pub flag: &'static str,
    pub value: String,
    pub allowed: String,
}

impl EvolveConfig {
    /// The recommended settings for `game`, the defaults of `evolve`. For
    /// tic-tac-toe and matchsticks: the exhaustive fitness, a mutation range
    /// and a stop as soon as the champion is unbeatable (measured in
    /// docs/experiments.md: every seed tried gets there in seconds). For
    /// Connect-Four, the method.
    pub fn recommended(game: GameSpec, seed: u64) -> EvolveConfig {
        let mut cfg = EvolveConfig::method(game, seed);
        let mutation = match game {
            GameSpec::TicTacToe(_) => "0.0005..0.02",
            GameSpec::Matchsticks(..) => "0.002..0.2",
            GameSpec::Connect4(_) => return cfg,
        };
        cfg.mutation = Mutation::parse(mutation).expect("a valid range");
        cfg.fitness = Fitness::parse("vs:exhaustive").expect("a valid fitness");
        cfg.target = Some(Target::Unbeatable);
        cfg.generations = 5000;
        cfg.checkpoint_every = 100;
        cfg
    }

    /// The method as the design describes it (round-robin fitness, elite
    /// selection, one mutation rate), with per-game rates and run lengths
    /// such that a plain run finishes in well under a minute on 2 cores.
    pub fn method(game: GameSpec, seed: u64) -> EvolveConfig {
        // (mutation, generations, checkpoint every): a Connect-Four
        // checkpoint of 100 genomes is 92 MB, so it is written less often.
        let (mutation, generations, checkpoint_every, bench_every) = match game.kind() {
            GameKind::TicTacToe => (0.001, 1000, 50, 10),
            GameKind::Matchsticks => (0.05, 200, 50, 10),
            GameKind::Connect4 => (0.002, 300, 50, 25),
        };
        EvolveConfig {
            game,
            population: 100,
            elite: 10,
            parents: 2,
            mutation: Mutation::fixed(mutation),
            mutate: MutationScope::All,
            generations,
            seed,
            checkpoint_every,
            keep: 2,
            illegal: IllegalPolicy::Repair,
            selection: Selection::Elite,
            fitness: Fitness::round_robin(),
            init: Init::Random,
            crossover: Crossover::Uniform,
            bench_every,
            bench_against: vec!["random".to_string(), "rules".to_string()],
            bench_games: 100,
            target: None,
            patience: None,
        }
    }

    /// The most fitness points a genome can earn in one generation.
    pub fn max_points(&self) -> u64 {
        let n = self.population as u64;
        let round_robin = if self.fitness.round_robin {
            4 * (n - 1)
        } else {
            0
        };
        let sampled = 4 * u64::from(self.fitness.sampled) + 2 * u64::from(self.fitness.hall);
        let fixed: u64 = self
            .fitness
            .opponents
            .iter()
            .map(|(_, games)| 2 * games.div_ceil(2) * 2)
            .sum();
        let exhaustive = if self.fitness.exhaustive {
            1_000_000
        } else {
            0
        };
        round_robin + sampled + fixed + exhaustive
    }

    /// Checks every parameter against its range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |flag, value: String, allowed: String| {
            Err(ConfigError {
                flag,
                value,
                allowed,
            })
        };
        if !(2..=100_000).contains(&self.population) {
            return err(
                "population",
                self.population.to_string(),
                "must be 2-100000".into(),
            );
        }
        if !(1..self.population).contains(&self.elite) {
            return err(
                "elite",
                self.elite.to_string(),
                format!("must be 1-{} (below the population)", self.population - 1),
            );
        }
        let most_parents = match self.selection {
            Selection::Elite => self.elite,
            Selection::Tournament(_) => self.population,
        };
        if !(1..=most_parents).contains(&self.parents) {
            return err(
                "parents",
                self.parents.to_string(),
                format!(
                    "must be 1-{most_parents} (parents are drawn from the {})",
                    if self.selection == Selection::Elite {
                        "elite"
                    } else {
                        "population"
                    }
                ),
            );
        }
        let Mutation { low, high } = self.mutation;
        if !(0.0..=1.0).contains(&low) || !(0.0..=1.0).contains(&high) || low > high {
            return err(
                "mutation",
                self.mutation.to_string(),
                "must be a probability, 0-1".into(),
            );
        }
        if let Selection::Tournament(k) = self.selection
            && k as usize > self.population
        {
            return err(
                "selection",
                self.selection.to_string(),
                format!(
                    "tournament size must be 1-{} (the population)",
                    self.population
                ),
            );
        }
        if self.checkpoint_every == 0 {
            return err("checkpoint-every", "0".into(), "must be at least 1".into());
        }
        if self.keep == 0 {
            return err("keep", "0".into(), "must be at least 1".into());
        }
        if !(1..=1_000_000).contains(&self.bench_games) {
            return err(
                "bench-games",
                self.bench_games.to_string(),
                "must be 1-1000000".into(),
            );
        }
        let exact = self.game.kind() != GameKind::Connect4;
        if self.target == Some(Target::Unbeatable) && !exact {
            return err(
                "target",
                "unbeatable".into(),
                "needs an exact audit: tictactoe or matchsticks (use score:SPEC:X for connect4)"
                    .into(),
            );
        }
        if self.fitness.exhaustive && !exact {
            return err(
                "fitness",
                self.fitness.to_string(),
                "exhaustive needs an exact audit: tictactoe or matchsticks".into(),
            );
        }
        if self.fitness.sampled > 0
            && (self.fitness.round_robin || self.fitness.sampled as usize >= self.population)
        {
            return err(
                "fitness",
                self.fitness.to_string(),
                format!(
                    "sample:K needs K below the population ({}) and no round-robin (which already meets everyone)",
                    self.population
                ),
            );
        }
        if self.mutate == MutationScope::Used && self.fitness.opponents.is_empty() {
            return err(
                "mutate",
                "used".into(),
                "records the genes consulted in games against fixed opponents: give --fitness SPEC:N terms".into(),
            );
        }
        if self.init == Init::Zero && self.game.kind() != GameKind::Connect4 {
            return err(
                "init",
                "zero".into(),
                "only Connect-Four genes carry a weight: use random".into(),
            );
        }
        if self.patience.is_some() && self.bench_every == 0 {
            return err(
                "patience",
                format!("{}", self.patience.unwrap_or(0)),
                "needs a benchmark: set --bench-every".into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutation_is_a_rate_or_a_log_uniform_range() {
        assert_eq!(Mutation::parse("0.01"), Ok(Mutation::fixed(0.01)));
        let range = Mutation::parse("0.0001..0.01").unwrap();
        assert_eq!(range.to_string(), "0.0001..0.01");
        let mut rng = <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(1);
        let draws: Vec<f64> = (0..1000).map(|_| range.draw(&mut rng)).collect();
        assert!(draws.iter().all(|&r| (0.0001..=0.01).contains(&r)));
        // Log-uniform: about half the draws fall below the geometric mean 0.001.
        let below = draws.iter().filter(|&&r| r < 0.001).count();
        assert!((400..600).contains(&below), "{below}");
        for bad in ["2", "0.1..0.01", "0..0.1", "x"] {
            assert!(Mutation::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn selection_parses_and_prints() {
        assert_eq!(Selection::parse("elite"), Ok(Selection::Elite));
        assert_eq!(
            Selection::parse("tournament:3"),
            Ok(Selection::Tournament(3))
        );
        assert!(Selection::parse("tournament:0").is_err());
        assert!(Selection::parse("roulette").is_err());
        assert_eq!(Selection::Tournament(4).to_string(), "tournament:4");
        assert_eq!(Crossover::parse("block:961"), Ok(Crossover::Block(961)));
        assert_eq!(Crossover::parse("uniform"), Ok(Crossover::Uniform));
        assert_eq!(Crossover::Block(31).to_string(), "block:31");
        for bad in ["block:0", "block", "one-point"] {
            assert!(Crossover::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Init::parse("zero"), Ok(Init::Zero));
        assert_eq!(MutationScope::parse("used"), Ok(MutationScope::Used));
        assert_eq!(MutationScope::Used.to_string(), "used");
        assert!(MutationScope::parse("some").is_err());
        assert!(Init::parse("ones").is_err());
    }

    #[test]
    fn fitness_and_target_parse_specs_with_colons() {
        assert_eq!(Fitness::parse("round-robin"), Ok(Fitness::round_robin()));
        let versus = Fitness::parse("vs:mc:200:50").unwrap();
        assert!(!versus.round_robin && !versus.exhaustive);
        assert_eq!(versus.opponents, vec![("mc:200".to_string(), 50)]);
        for text in [
            "round-robin+random:20",
            "vs:random:20+perfect:4",
            "round-robin+rules:2+mc:5:6",
            "vs:exhaustive",
            "vs:random:10+exhaustive",
            "vs:sample:20+random:10",
            "round-robin+hof:10+rules:4",
            "vs:sample:4+hof:6+random:2",
        ] {
            assert_eq!(Fitness::parse(text).unwrap().to_string(), text);
        }
        assert!(Fitness::parse("vs:random").is_err());
        assert_eq!(Fitness::parse("vs:sample:8").unwrap().sampled, 8);
        assert_eq!(Fitness::parse("vs:hof:12").unwrap().hall, 12);
        for bad in [
            "vs:sample:0",
            "vs:sample:x",
            "vs:sample:2+sample:3",
            "vs:hof:0",
            "vs:hof:2+hof:2",
        ] {
            assert!(Fitness::parse(bad).is_err(), "{bad}");
        }
        assert!(Fitness::parse("elo").is_err());
        assert_eq!(Target::parse("unbeatable"), Ok(Target::Unbeatable));
        assert_eq!(
            Target::parse("score:alphabeta:4:0.5"),
            Ok(Target::Score {
                opponent: "alphabeta:4".into(),
                share: 0.5
            })
        );
        assert!(Target::parse("score:random:1.5").is_err());
    }

    #[test]
    fn out_of_range_values_name_the_flag() {
        let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 1);
        assert!(cfg.validate().is_ok());
        cfg.elite = 100;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .starts_with("--elite 100")
        );
        cfg.elite = 10;
        cfg.parents = 11;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("--parents")
        );
        cfg.parents = 2;
        cfg.init = Init::Zero;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .starts_with("--init zero")
        );
        cfg.init = Init::Random;
        cfg.mutate = MutationScope::Used;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .starts_with("--mutate used")
        );
        cfg.fitness = Fitness::parse("round-robin+random:2").unwrap();
        assert!(cfg.validate().is_ok());
        cfg.mutate = MutationScope::All;
        cfg.fitness.sampled = 5;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("--fitness")
        );
        cfg.fitness = Fitness::parse("vs:sample:100").unwrap();
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("below the population")
        );
        cfg.fitness = Fitness::parse("vs:sample:99").unwrap();
        assert!(cfg.validate().is_ok());
        assert_eq!(cfg.max_points(), 4 * 99);
        cfg.mutation = Mutation::fixed(1.5);
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("--mutation")
        );
    }
}
