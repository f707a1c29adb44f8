//! Evolution of an observed game's value genomes: TD self-play between
//! generations, a round-robin, the elite kept, children bred; the run's
//! directory as a built-in game's (`run.toml`, `stats.csv`, checkpoints,
//! `best.genome`, `ended.toml`).

use super::genome::Chooser;
use super::{Layout, Observed, Shape, TensorGenome, Unfit};
use crate::dispatch::Abilities;
use crate::evolve::{
    ConfigError, EvolveConfig, Fitness, MethodSettings, RunDir, RunEnded, Selection, StatsRow,
    run_toml_text,
};
use crate::games::GameId;
use crate::players::PlayerSpec;
use crate::seed::derive_seed;
use crate::store::{
    FileError, FileProblem, Framed, LockError, RunLock, decode_checkpoint, write_atomic,
    write_framed,
};
use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A checkpoint of an observed game's run. Format 4's layout may read a
/// tensor of flags in groups; a run of format 3 (or before: 2 learned by
/// TD(0)) would not go on as it began, so it is refused like any older
/// one.
pub(crate) const OBSERVED_CHECKPOINT_FORMAT: Framed = Framed {
    magic: *b"BBTOBSC\0",
    version: 4,
    file: "observed-game checkpoint",
};

/// Random games whose positions [`Layout::probe`] reads.
const PROBE_GAMES: u64 = 8;

/// The settings of an observed game's run beside the engine's: the
/// genome's shape and how long a game may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservedSettings {
    /// Tuples per genome (`None`: the layout's default, [`Shape::default_for`]).
    pub tuples: Option<u16>,
    /// Cells per tuple (`None`: the layout's default).
    pub tuple_length: Option<u8>,
    /// Moves after which a game is stopped and scored a draw.
    pub max_moves: u32,
    /// The rules are the same in the board's mirror image (its columns
    /// reversed): each tuple also reads the image, with the same weights,
    /// as bebete's own Connect-Four genome does. The tensor cannot say
    /// so; the caller does.
    #[serde(default)]
    pub mirror: bool,
}

impl Default for ObservedSettings {
    fn default() -> Self {
        ObservedSettings {
            tuples: None,
            tuple_length: None,
            max_moves: 1000,
            mirror: false,
        }
    }
}

/// What stopped a generation: the game's own error, a file, a setting.
#[derive(Debug, thiserror::Error)]
pub enum Failure<E> {
    /// The outside program failed (a Python exception).
    #[error("the game failed")]
    Game(E),
    /// A file of the run.
    #[error(transparent)]
    File(#[from] FileError),
    /// The run directory is in use.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// A setting out of range, or not for an observed game.
    #[error(transparent)]
    Setting(#[from] ConfigError),
    /// The game does not fit.
    #[error(transparent)]
    Unfit(#[from] Unfit),
}

/// A run over an observed game, one generation at a time.
pub struct ObservedRun {
    cfg: EvolveConfig,
    settings: ObservedSettings,
    shape: Shape,
    layout: Layout,
    players: u8,
    dir: RunDir,
    _lock: RunLock,
    generation: u64,
    population: Vec<TensorGenome>,
    rows: Vec<StatsRow>,
    /// Seconds writing files since the last row.
    io_s: f64,
    /// Moves of the last generation's self-play games.
    learned: u64,
}

/// A checkpoint's header, as JSON: every float reads back exactly.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    bebete_version: String,
    game: String,
    config: EvolveConfig,
    settings: ObservedSettings,
    shape: Shape,
    layout: Layout,
    generation: u64,
    rows: Vec<StatsRow>,
}

impl ObservedRun {
    /// The settings an observed game's run starts from: the method's,
    /// with one learner and 200 self-play games a generation, 10
    /// generations, a checkpoint every generation, and the champion
    /// against random moves every 10 (20 games). One learner because it
    /// measured strongest for the same time: on connect_four after 150 s,
    /// 0.59 against MCTS-100 where 4 learners (2 kept, 100 games each)
    /// scored 0.075 (docs/python.md); `population`, `elite` and
    /// `self_play` make it the engine's CTDL, with one tuple in 20
    /// redrawn in a child.
    pub fn settings_for(game: &str, players: u8, seed: u64) -> EvolveConfig {
        let method = MethodSettings {
            mutation: 0.05,
            generations: 10,
            checkpoint_every: 1,
            bench_every: 0,
        };
        let mut cfg = EvolveConfig::plain(GameId::Outside(game.into()), players, method, seed);
        cfg.population = 1;
        cfg.elite = 1;
        cfg.self_play = 200;
        // The champion against random moves, 20 games every 10
        // generations: the progress a closed round-robin cannot show.
        cfg.bench_against = if players == 2 {
            vec![PlayerSpec::Random]
        } else {
            Vec::new()
        };
        cfg.bench_every = if players == 2 { 10 } else { 0 };
        cfg.bench_games = 20;
        cfg
    }

    /// Checks `cfg` for an observed game of `players`: the engine's
    /// checks, then what such a run does not do.
    pub fn check(cfg: &EvolveConfig, players: u8) -> Result<(), ConfigError> {
        cfg.validate_as(&cfg.game, abilities(players))?;
        let refuse = |flag: &'static str, value: String, allowed: &str| {
            Err(ConfigError {
                flag,
                value,
                allowed: allowed.to_string(),
            })
        };
        let plain = if players == 1 {
            Fitness::solo()
        } else {
            Fitness::round_robin()
        };
        if cfg.fitness != plain {
            return refuse(
                "fitness",
                cfg.fitness.to_string(),
                &format!("an observed game is scored by {plain} alone"),
            );
        }
        if cfg.islands != 1 {
            return refuse(
                "islands",
                cfg.islands.to_string(),
                "an observed game evolves one population (its games run in the one Python thread)",
            );
        }
        if let Some(other) = cfg.bench_against.iter().find(|p| **p != PlayerSpec::Random) {
            return refuse(
                "bench-against",
                other.to_string(),
                "an observed game's champion is measured against random moves alone (random); measure it against other bots with bebete.openspiel.match",
            );
        }
        if players == 1 && cfg.bench_every != 0 {
            return refuse(
                "bench-every",
                cfg.bench_every.to_string(),
                "a one-player observed game has no opponent to measure against: 0",
            );
        }
        let stopping = cfg
            .target
            .as_ref()
            .map(|t| ("target", t.to_string()))
            .or(cfg.patience.map(|p| ("patience", p.to_string())));
        if let Some((flag, value)) = stopping {
            return refuse(
                flag,
                value,
                "an observed game's run goes to its plan of generations (a stopping rule is not built for it)",
            );
        }
        match &cfg.learn_against {
            None => {}
            Some(PlayerSpec::Random) if players == 2 => {}
            Some(PlayerSpec::Random) => {
                return refuse(
                    "learn-against",
                    "random".into(),
                    "a one-player observed game has no opponent to learn against",
                );
            }
            Some(other) => {
                return refuse(
                    "learn-against",
                    other.to_string(),
                    "an observed game's genomes learn by self-play, or against random moves (random)",
                );
            }
        }
        if cfg.init != crate::evolve::Init::Random {
            return refuse(
                "init",
                cfg.init.to_string(),
                "an observed game's genomes start random",
            );
        }
        Ok(())
    }

    /// A run of `game`, checked and read before a file is written: the
    /// settings, how its tensor fits a board (from random games), the
    /// genomes' shape. [`Planned::start`] starts it (a caller that must
    /// clear a directory first does so only once the run is sure to
    /// start).
    pub fn plan<G: Observed>(
        game: &mut G,
        cfg: EvolveConfig,
        settings: ObservedSettings,
    ) -> Result<Planned, Failure<G::Error>> {
        let players = game.players();
        Self::check(&cfg, players)?;
        check_moves(settings.max_moves)?;
        let name = game.name();
        let layout = probe(game, cfg.seed, settings.max_moves)?;
        let shape = Shape::chosen(&layout, settings.tuples, settings.tuple_length);
        shape.check(&name, &layout)?;
        if settings.mirror && layout.shape.len() < 2 {
            return Err(Unfit {
                game: name,
                reason: format!(
                    "mirror=True: its tensor {:?} is one line of values, not a board with columns to mirror",
                    layout.shape
                ),
            }
            .into());
        }
        Ok(Planned {
            cfg,
            settings,
            shape,
            layout,
            players,
        })
    }
}

/// A run checked and ready to start ([`ObservedRun::plan`]).
pub struct Planned {
    cfg: EvolveConfig,
    settings: ObservedSettings,
    shape: Shape,
    layout: Layout,
    players: u8,
}

impl Planned {
    /// Starts the run in `dir` (which must hold no run): draws generation
    /// 0 and writes `run.toml`, `stats.csv`'s header and its checkpoint.
    pub fn start<E>(self, dir: &Path) -> Result<ObservedRun, Failure<E>> {
        let Planned {
            cfg,
            settings,
            shape,
            layout,
            players,
        } = self;
        let lock = RunLock::acquire(dir)?;
        let run_dir = RunDir::new(dir);
        let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(cfg.seed, 0, u64::MAX));
        let population = (0..cfg.population)
            .map(|_| TensorGenome::random(&layout, shape, settings.mirror, players, &mut rng))
            .collect();
        let run = ObservedRun {
            cfg,
            settings,
            shape,
            layout,
            players,
            dir: run_dir,
            _lock: lock,
            generation: 0,
            population,
            rows: Vec::new(),
            io_s: 0.0,
            learned: 0,
        };
        run.write_run_toml()?;
        run.dir
            .write_stats(&run.cfg, &run.abilities(), &[])
            .map_err(Failure::File)?;
        // Generation 0 as drawn: a run stopped in its first generation
        // resumes from here.
        run.checkpoint()?;
        Ok(run)
    }
}

impl ObservedRun {
    /// Resumes the run in `dir` from its newest checkpoint that reads
    /// whole, for `game` (which must be the run's), planned to
    /// `generations` when given.
    pub fn resume<G: Observed>(
        game: &G,
        dir: &Path,
        generations: Option<u64>,
    ) -> Result<ObservedRun, Failure<G::Error>> {
        let lock = RunLock::acquire(dir)?;
        let run_dir = RunDir::new(dir);
        let (path, snapshot, payload) = newest_checkpoint(&run_dir.checkpoints())?;
        if snapshot.game != game.name() {
            return Err(Unfit {
                game: game.name(),
                reason: format!("{} is a run of {}", dir.display(), snapshot.game),
            }
            .into());
        }
        let shape: Vec<u32> = game.tensor_shape().iter().map(|&d| d as u32).collect();
        if shape != snapshot.layout.shape {
            return Err(Unfit {
                game: game.name(),
                reason: format!(
                    "its tensor is {shape:?}, the run's {:?}",
                    snapshot.layout.shape
                ),
            }
            .into());
        }
        let mut at = 0;
        let mut population = Vec::with_capacity(snapshot.config.population);
        for _ in 0..snapshot.config.population {
            let genome =
                TensorGenome::from_bytes(&payload, &mut at, &snapshot.layout).ok_or_else(|| {
                    FileError::new(
                        &path,
                        FileProblem::Malformed("a genome does not read back whole".into()),
                    )
                })?;
            population.push(genome);
        }
        let mut cfg = snapshot.config;
        if let Some(g) = generations {
            cfg.generations = g;
        }
        Self::check(&cfg, game.players())?;
        let run = ObservedRun {
            cfg,
            settings: snapshot.settings,
            shape: snapshot.shape,
            layout: snapshot.layout,
            players: game.players(),
            dir: run_dir,
            _lock: lock,
            generation: snapshot.generation,
            population,
            rows: snapshot.rows,
            io_s: 0.0,
            learned: 0,
        };
        run.dir.clear_ended()?;
        run.write_run_toml()?;
        run.dir.write_stats(&run.cfg, &run.abilities(), &run.rows)?;
        Ok(run)
    }

    fn abilities(&self) -> Abilities {
        abilities(self.players)
    }

    /// `run.toml`: the engine's settings, then the observed game's own.
    fn write_run_toml(&self) -> Result<(), FileError> {
        let mut text = run_toml_text(&self.cfg, 1);
        let observed = toml::to_string(&ObservedToml {
            layout: self.layout.describe(),
            tuples: self.shape.tuples,
            tuple_length: self.shape.length,
            max_moves: self.settings.max_moves,
            mirror: self.settings.mirror,
        })
        .expect("plain fields");
        text.push_str("\n[observed]\n");
        text.push_str(&observed);
        write_atomic(&self.dir.run_toml(), text.as_bytes())
    }

    /// The run's settings.
    pub fn config(&self) -> &EvolveConfig {
        &self.cfg
    }

    /// How its game's tensor is read.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Generations run so far.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether the run has reached its planned generations.
    pub fn done(&self) -> bool {
        self.generation >= self.cfg.generations
    }

    /// The run's directory.
    pub fn dir(&self) -> &Path {
        self.dir.root()
    }

    /// Moves played in the last generation's self-play games (each
    /// learned from).
    pub fn learned(&self) -> u64 {
        self.learned
    }

    /// The rows so far.
    pub fn rows(&self) -> &[StatsRow] {
        &self.rows
    }

    /// The population, the last generation's elite first (best first).
    pub fn population(&self) -> &[TensorGenome] {
        &self.population
    }

    /// Runs one generation: every genome learns from its self-play games,
    /// the round-robin scores them, the row is written, the next
    /// generation bred; a checkpoint follows every `checkpoint_every`
    /// generations and at the end of the plan.
    pub fn step<G: Observed>(&mut self, game: &mut G) -> Result<StatsRow, Failure<G::Error>> {
        let g = self.generation;
        let started = Instant::now();
        let mut chooser = Chooser::<G>::default();
        let mut games = 0u64;
        self.learned = 0;
        let planned = self.population.len() as u64 * self.cfg.self_play as u64;
        let against_random = self.cfg.learn_against == Some(PlayerSpec::Random);
        for (i, genome) in self.population.iter_mut().enumerate() {
            let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(self.cfg.seed, g, i as u64));
            for _ in 0..self.cfg.self_play {
                self.learned += learn_game(
                    game,
                    &self.layout,
                    genome,
                    &mut chooser,
                    &mut rng,
                    self.settings.max_moves,
                    against_random.then_some((games % 2) as u8),
                )
                .map_err(Failure::Game)?;
                games += 1;
                game.played(games, planned).map_err(Failure::Game)?;
            }
        }
        let points = self.score(game, &mut chooser, &mut games)?;
        let tournament_s = started.elapsed().as_secs_f64();
        let bred = Instant::now();
        let mut order: Vec<usize> = (0..self.population.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(points[i]));
        let bench = self.bench(game, &mut chooser, &self.population[order[0]], &mut games)?;
        let row = StatsRow {
            generation: g,
            best: points[order[0]],
            mean: points.iter().map(|&p| p as f64).sum::<f64>() / points.len() as f64,
            worst: points[order[order.len() - 1]],
            diversity: self.diversity(),
            tournament_s,
            breeding_s: 0.0,
            io_s: self.io_s,
            games,
            bench,
            island: 0,
        };
        self.breed(&order);
        let row = StatsRow {
            breeding_s: bred.elapsed().as_secs_f64(),
            ..row
        };
        let written = Instant::now();
        self.generation += 1;
        self.dir.append_stats(&self.cfg, &self.abilities(), &row)?;
        self.rows.push(row.clone());
        if self
            .generation
            .is_multiple_of(self.cfg.checkpoint_every.max(1))
            || self.done()
        {
            self.checkpoint()?;
        }
        self.io_s = written.elapsed().as_secs_f64();
        Ok(row)
    }

    /// Points of each genome: a round-robin of greedy games (each pair
    /// twice, sides swapped: a win 2, a draw 1), or one game each in a
    /// one-player game (its result, 0..=100).
    fn score<G: Observed>(
        &self,
        game: &mut G,
        chooser: &mut Chooser<G>,
        games: &mut u64,
    ) -> Result<Vec<u32>, Failure<G::Error>> {
        let n = self.population.len();
        let mut points = vec![0u32; n];
        let moves = self.settings.max_moves;
        if self.players == 1 {
            for (i, genome) in self.population.iter().enumerate() {
                let result = play(game, &self.layout, [genome, genome], chooser, moves)
                    .map_err(Failure::Game)?;
                points[i] = (50.0 * (result + 1.0)).round() as u32;
                *games += 1;
            }
            return Ok(points);
        }
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let pair = [&self.population[i], &self.population[j]];
                let result =
                    play(game, &self.layout, pair, chooser, moves).map_err(Failure::Game)?;
                let (first, second) = match result {
                    r if r > 0.0 => (2, 0),
                    r if r < 0.0 => (0, 2),
                    _ => (1, 1),
                };
                points[i] += first;
                points[j] += second;
                *games += 1;
            }
        }
        Ok(points)
    }

    /// The champion's benchmark when this generation is measured (every
    /// `bench_every` generations): its score against
    /// uniform random moves over `bench_games` games, sides alternating.
    fn bench<G: Observed>(
        &self,
        game: &mut G,
        chooser: &mut Chooser<G>,
        champion: &TensorGenome,
        games: &mut u64,
    ) -> Result<Vec<f64>, Failure<G::Error>> {
        let g = self.generation;
        // By the generation alone, as a built-in game's run measures: a run
        // resumed with a longer plan measures the generations an
        // uninterrupted one does.
        if !crate::evolve::bench::due(&self.cfg, g) || self.cfg.bench_against.is_empty() {
            return Ok(Vec::new());
        }
        let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(self.cfg.seed, g, u64::MAX - 2));
        let mut points = 0.0;
        for k in 0..self.cfg.bench_games {
            let side = (k % 2) as u8;
            let result = against_random(
                game,
                &self.layout,
                champion,
                side,
                chooser,
                &mut rng,
                self.settings.max_moves,
            )
            .map_err(Failure::Game)?;
            points += (result + 1.0) / 2.0;
            *games += 1;
        }
        Ok(vec![points as f64 / self.cfg.bench_games.max(1) as f64])
    }

    /// The next generation: the elite in their order (best first), then
    /// children of parents drawn from the elite (or by tournament).
    fn breed(&mut self, order: &[usize]) {
        let n = self.population.len();
        if n == 1 {
            return;
        }
        let mut rng =
            Pcg64Mcg::seed_from_u64(derive_seed(self.cfg.seed, self.generation, u64::MAX - 1));
        let rate = self.cfg.mutation.low;
        let mut next: Vec<TensorGenome> = order[..self.cfg.elite]
            .iter()
            .map(|&i| self.population[i].clone())
            .collect();
        let pick = |rng: &mut Pcg64Mcg| -> usize {
            match self.cfg.selection {
                Selection::Elite => order[rng.random_range(0..self.cfg.elite)],
                Selection::Tournament(k) => (0..k.max(1))
                    .map(|_| rng.random_range(0..n))
                    .min_by_key(|&i| order.iter().position(|&o| o == i))
                    .expect("k ≥ 1"),
            }
        };
        while next.len() < n {
            let rate = if self.cfg.mutation.high > rate {
                rng.random_range(rate..=self.cfg.mutation.high)
            } else {
                rate
            };
            let a = pick(&mut rng);
            let b = if self.cfg.parents > 1 {
                pick(&mut rng)
            } else {
                a
            };
            next.push(TensorGenome::child(
                &self.population[a],
                &self.population[b],
                &self.layout,
                self.players,
                rate,
                &mut rng,
            ));
        }
        self.population = next;
    }

    /// Mean share of differing tuples between pairs of the first ten.
    fn diversity(&self) -> f64 {
        let sample = &self.population[..self.population.len().min(10)];
        let mut sum = 0.0;
        let mut pairs = 0;
        for (i, a) in sample.iter().enumerate() {
            for b in &sample[i + 1..] {
                sum += a.difference(b);
                pairs += 1;
            }
        }
        if pairs == 0 { 0.0 } else { sum / pairs as f64 }
    }

    /// Writes a checkpoint of the run as it stands and the champion (the
    /// last generation's best) as `best.genome`; keeps the newest
    /// `keep` checkpoints.
    pub fn checkpoint(&self) -> Result<(), FileError> {
        let snapshot = Snapshot {
            bebete_version: env!("CARGO_PKG_VERSION").to_string(),
            game: self.game_name().to_string(),
            config: self.cfg.clone(),
            settings: self.settings,
            shape: self.shape,
            layout: self.layout.clone(),
            generation: self.generation,
            rows: self.rows.clone(),
        };
        let head = serde_json::to_string(&snapshot).expect("a snapshot serialises");
        let mut payload = Vec::new();
        for genome in &self.population {
            genome.to_bytes(&mut payload);
        }
        let dir = self.dir.checkpoints();
        let path = dir.join(checkpoint_name(self.generation));
        write_framed(&path, OBSERVED_CHECKPOINT_FORMAT, &head, &payload)?;
        let mut old = checkpoints_in(&dir);
        old.sort();
        let excess = old.len().saturating_sub(self.cfg.keep.max(1));
        for (_, stale) in old.into_iter().take(excess) {
            let _ = std::fs::remove_file(stale);
        }
        // Before its first generation a run has no champion yet.
        match self.generation {
            0 => Ok(()),
            _ => self.write_champion(),
        }
    }

    fn game_name(&self) -> &str {
        self.cfg.game.name()
    }

    /// Writes `best.genome`: the last generation's best.
    fn write_champion(&self) -> Result<(), FileError> {
        let games = match self.cfg.learn_against {
            Some(_) => "games against random moves",
            None => "self-play games",
        };
        let history = format!(
            "generation {} (seed {}), {} {games}",
            self.generation,
            self.cfg.seed,
            self.population[0].games()
        );
        self.population[0].write(
            &self.dir.best_genome(),
            self.game_name(),
            &self.layout,
            &history,
        )
    }

    /// Records that the run has ended, and why.
    pub fn finish(&self, reason: &str) -> Result<(), FileError> {
        self.dir.write_ended(&RunEnded {
            generation: self.generation,
            reason: reason.to_string(),
        })
    }

    /// The path of `best.genome`.
    pub fn champion_path(&self) -> PathBuf {
        self.dir.best_genome()
    }
}

/// What an observed game of `players` can do, for the engine's checks and
/// `stats.csv`'s columns: it learns; nothing is solved, banked or audited.
fn abilities(players: u8) -> Abilities {
    Abilities {
        solvable: false,
        weighted_genes: false,
        default_openings: 0,
        banked: false,
        players,
        learns: true,
        too_large_to_read: Some("an observed game"),
        start_pieces: 0,
        max_lookahead: 0,
    }
}

/// The `[observed]` table of `run.toml`.
#[derive(Serialize)]
struct ObservedToml {
    layout: String,
    tuples: u16,
    tuple_length: u8,
    max_moves: u32,
    mirror: bool,
}

fn check_moves<E>(max_moves: u32) -> Result<(), Failure<E>> {
    if !(1..=1_000_000).contains(&max_moves) {
        return Err(ConfigError {
            flag: "max-moves",
            value: max_moves.to_string(),
            allowed: "must be 1-1000000".into(),
        }
        .into());
    }
    Ok(())
}

fn checkpoint_name(generation: u64) -> String {
    format!("gen-{generation:06}.obs")
}

/// The checkpoints in `dir`, by generation.
fn checkpoints_in(dir: &Path) -> Vec<(u64, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let g = name
                .strip_prefix("gen-")?
                .strip_suffix(".obs")?
                .parse()
                .ok()?;
            Some((g, e.path()))
        })
        .collect()
}

/// The newest checkpoint in `dir` that reads whole.
fn newest_checkpoint(dir: &Path) -> Result<(PathBuf, Snapshot, Vec<u8>), FileError> {
    let mut found = checkpoints_in(dir);
    found.sort();
    let mut last_error = None;
    for (_, path) in found.into_iter().rev() {
        let read = crate::store::read_regular(&path).and_then(|bytes| {
            decode_checkpoint(bytes, OBSERVED_CHECKPOINT_FORMAT, |h| {
                postcard::from_bytes::<String>(h)
            })
            .map_err(|p| FileError::new(&path, p))
        });
        match read {
            Ok((head, payload)) => match serde_json::from_str::<Snapshot>(&head) {
                Ok(snapshot) => return Ok((path, snapshot, payload)),
                Err(e) => {
                    last_error = Some(FileError::new(&path, FileProblem::Malformed(e.to_string())))
                }
            },
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.unwrap_or_else(|| {
        FileError::new(
            dir,
            FileProblem::Io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no checkpoint of an observed game here",
            )),
        )
    }))
}

/// How `game`'s tensor reads as cells, from the positions of random games.
fn probe<G: Observed>(
    game: &mut G,
    seed: u64,
    max_moves: u32,
) -> Result<Layout, Failure<G::Error>> {
    let shape = game.tensor_shape();
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed, u64::MAX, 0));
    let mut tensor = Vec::new();
    let mut samples = Vec::new();
    for _ in 0..PROBE_GAMES {
        let mut state = game.start().map_err(Failure::Game)?;
        for _ in 0..max_moves.min(200) {
            if game.to_move(&state).map_err(Failure::Game)?.is_none() {
                break;
            }
            let moves = game.moves(&state).map_err(Failure::Game)?;
            if moves == 0 {
                break;
            }
            let pick = rng.random_range(0..moves);
            let (child, end) = game
                .child(&state, pick, &mut tensor)
                .map_err(Failure::Game)?;
            if end.is_some() {
                break;
            }
            samples.extend_from_slice(&tensor);
            state = child;
        }
    }
    Ok(Layout::probe(&game.name(), &shape, &samples)?)
}

/// What a one-player game's learner values the position a move ahead
/// at, against the one it left: a puzzle's positions say nothing of the
/// moves already made, so without it a walk round in a circle keeps the
/// value of the end it once led to, and the learner learns to walk it.
const PUZZLE_DISCOUNT: f32 = 0.99;

/// One self-play game of `genome`, learning by TD(λ) after each greedy
/// move at its learning rate now ([`TensorGenome::learning_rate`]): the
/// values of the afterstates it left move toward the new one's (or the
/// result), the last by the whole error and each further back by
/// λ (a half) times less; an exploratory move (ε) is not learned from
/// and cuts the trace. A puzzle's move toward [`PUZZLE_DISCOUNT`] of the
/// new one's. With `random` a seat (0 or 1), the genome plays that seat
/// against uniform random moves and learns from its own moves alone: the
/// TD error runs from one of its afterstates to its next, or to the
/// game's end. Returns the moves played.
#[allow(clippy::too_many_arguments)]
pub(crate) fn learn_game<G: Observed, R: Rng>(
    game: &mut G,
    layout: &Layout,
    genome: &mut TensorGenome,
    chooser: &mut Chooser<G>,
    rng: &mut R,
    max_moves: u32,
    random: Option<u8>,
) -> Result<u64, G::Error> {
    let cells = layout.cells();
    let (alpha, epsilon) = (genome.learning_rate(), genome.rates().1);
    let discount = if game.players() == 1 {
        PUZZLE_DISCOUNT
    } else {
        1.0
    };
    let mut moves = 0;
    let mut state = game.start()?;
    let mut next = game.to_move(&state)?;
    let mut previous: Option<f32> = None;
    let mut trace = std::mem::take(&mut chooser.trace);
    trace.clear();
    for _ in 0..max_moves {
        let Some(mover) = next.take() else {
            break;
        };
        if random.is_some_and(|seat| seat != mover) {
            let legal = game.moves(&state)?;
            if legal == 0 {
                break;
            }
            let pick = rng.random_range(0..legal);
            let (child, end) = game.child(&state, pick, &mut chooser.tensors)?;
            moves += 1;
            if let Some(result) = end {
                if let Some(value) = previous {
                    trace.learn(genome, alpha, result - value);
                }
                break;
            }
            next = game.to_move(&child)?;
            state = child;
            continue;
        }
        if !chooser.value_children(game, layout, genome, &state, mover)? {
            break;
        }
        let explore = rng.random::<f32>() < epsilon;
        let pick = if explore {
            rng.random_range(0..chooser.values.len())
        } else {
            chooser.best_drawn(mover, rng)
        };
        let chosen = chooser.values[pick];
        moves += 1;
        if explore {
            trace.clear();
        } else if let Some(value) = previous {
            trace.learn(genome, alpha, discount * chosen.value - value);
        }
        if chosen.over {
            break;
        }
        let states = &chooser.states[pick * cells..(pick + 1) * cells];
        trace.push(states, chosen.waiting, chosen.value);
        previous = Some(chosen.value);
        next = Some(chosen.next);
        state = chooser.children.swap_remove(pick);
    }
    chooser.trace = trace;
    genome.head.games += 1;
    Ok(moves)
}

/// One greedy game, `players[0]` moving first: the first player's result
/// (0 when it reaches `max_moves`).
pub(crate) fn play<G: Observed>(
    game: &mut G,
    layout: &Layout,
    players: [&TensorGenome; 2],
    chooser: &mut Chooser<G>,
    max_moves: u32,
) -> Result<f32, G::Error> {
    let mut state = game.start()?;
    for _ in 0..max_moves {
        let Some(mover) = game.to_move(&state)? else {
            return Ok(0.0);
        };
        let genome = players[mover.min(1) as usize];
        if !chooser.value_children(game, layout, genome, &state, mover)? {
            return Ok(0.0);
        }
        let pick = chooser.best(mover);
        if chooser.values[pick].over {
            return Ok(chooser.values[pick].value);
        }
        state = chooser.children.swap_remove(pick);
    }
    Ok(0.0)
}

/// One game of `genome` (moving as `side`) against uniform random moves:
/// its result, −1..=1 (0 when the game reaches `max_moves`).
pub(crate) fn against_random<G: Observed, R: Rng>(
    game: &mut G,
    layout: &Layout,
    genome: &TensorGenome,
    side: u8,
    chooser: &mut Chooser<G>,
    rng: &mut R,
    max_moves: u32,
) -> Result<f32, G::Error> {
    let mut state = game.start()?;
    let mut tensor = Vec::new();
    let sign = if side == 0 { 1.0 } else { -1.0 };
    for _ in 0..max_moves {
        let Some(mover) = game.to_move(&state)? else {
            break;
        };
        if mover == side {
            if !chooser.value_children(game, layout, genome, &state, mover)? {
                break;
            }
            let pick = chooser.best(mover);
            if chooser.values[pick].over {
                return Ok(sign * chooser.values[pick].value);
            }
            state = chooser.children.swap_remove(pick);
        } else {
            let moves = game.moves(&state)?;
            if moves == 0 {
                break;
            }
            let (child, end) = game.child(&state, rng.random_range(0..moves), &mut tensor)?;
            if let Some(result) = end {
                return Ok(sign * result);
            }
            state = child;
        }
    }
    Ok(0.0)
}

/// The most plies [`choose`] searches.
pub const MAX_PLIES: u8 = 6;

/// The move `genome` plays in `state`: the place of its choice among the
/// children [`Observed::children`] lists, `None` when there is none. At
/// one ply it values each child; at `plies` more it searches that deep
/// (minimax with alpha-beta, children tried best first by their one-ply
/// value), valuing the positions at the horizon and scoring finished
/// games by their result; `plies` outside 1 to [`MAX_PLIES`] is the
/// nearest of them. The first of equally good moves is played.
pub fn choose<G: Observed>(
    game: &mut G,
    layout: &Layout,
    genome: &TensorGenome,
    state: &G::State,
    plies: u8,
) -> Result<Option<usize>, G::Error> {
    let Some(mover) = game.to_move(state)? else {
        return Ok(None);
    };
    let plies = plies.clamp(1, MAX_PLIES);
    let (best, _) = search(game, layout, genome, state, mover, plies, -2.0, 2.0)?;
    Ok(best)
}

/// The best child of `state` for `mover` within `plies` and its value for
/// the first player, between `alpha` and `beta` (a value outside them is a
/// bound); `None` for a state without children.
#[allow(clippy::too_many_arguments)]
fn search<G: Observed>(
    game: &mut G,
    layout: &Layout,
    genome: &TensorGenome,
    state: &G::State,
    mover: u8,
    plies: u8,
    mut alpha: f32,
    mut beta: f32,
) -> Result<(Option<usize>, f32), G::Error> {
    let mut chooser = Chooser::<G>::default();
    if !chooser.value_children(game, layout, genome, state, mover)? {
        return Ok((None, 0.0));
    }
    if plies == 1 {
        let best = chooser.best(mover);
        return Ok((Some(best), chooser.values[best].value));
    }
    let sign = if mover == 0 { 1.0 } else { -1.0 };
    let mut order: Vec<usize> = (0..chooser.values.len()).collect();
    // Best first by one ply (stable: equals keep the game's order).
    order.sort_by(|&a, &b| {
        (sign * chooser.values[b].value).total_cmp(&(sign * chooser.values[a].value))
    });
    let mut best: Option<(usize, f32)> = None;
    for i in order {
        let child = chooser.values[i];
        let value = if child.over {
            child.value
        } else {
            search(
                game,
                layout,
                genome,
                &chooser.children[i],
                child.next,
                plies - 1,
                alpha,
                beta,
            )?
            .1
        };
        if best.is_none_or(|(_, v)| sign * value > sign * v) {
            best = Some((i, value));
        }
        if mover == 0 {
            alpha = alpha.max(value);
        } else {
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    Ok(match best {
        Some((i, value)) => (Some(i), value),
        None => (None, 0.0),
    })
}
