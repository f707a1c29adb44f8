//! Any OpenSpiel game: a `pyspiel.Game` as the engine's
//! [`Observed`] game, the run over it and its champion, for
//! `bebete.evolve(game)` and `bebete.openspiel.Bot`.
//!
//! The engine holds the method (the layout of the tensor, the genome, its
//! learning, the round-robin, breeding, checkpoints); this file only
//! speaks to OpenSpiel: a state's legal actions, each child, whether it
//! is over and its returns, and the first player's observation tensor.
//! Every call crosses into Python with the GIL held, as OpenSpiel's own
//! Python loop does.
//!
//! A tensor is read through the game's observer where it has one
//! (`open_spiel.python.observation.make_observation`): one call writes it
//! into the observer's buffer and one more hands the buffer over as bytes,
//! where `state.observation_tensor(0)` builds a Python list of floats, one
//! object a value (20 to 50 times slower on boards of a thousand values).

use bebete::evolve::{EvolveConfig, StatsRow};
use bebete::observed::{
    After, Failure, Layout, MAX_PLIES, Observed, ObservedRun, ObservedSettings, TensorGenome,
    choose,
};
use bebete::plot::render;
use pyo3::exceptions::{PyFileExistsError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::{Path, PathBuf};

/// A `pyspiel.Game` read for the engine: its name, players, the shape of
/// its observation tensor and the range of its returns.
pub(crate) struct Spiel<'py> {
    game: Bound<'py, PyAny>,
    name: String,
    players: u8,
    shape: Vec<usize>,
    low: f64,
    high: f64,
    /// Called with the self-play games done and planned after each one.
    watch: Option<Bound<'py, PyAny>>,
    /// How a state's tensor is read.
    lens: Lens<'py>,
}

/// How a state's observation tensor is read: through the game's observer,
/// or, where it has none that gives the same tensor as 32-bit floats, by
/// `state.observation_tensor(0)`.
enum Lens<'py> {
    /// `observer.set_from` and the observer's `tensor.tobytes`.
    Observer {
        set_from: Bound<'py, PyAny>,
        bytes: Bound<'py, PyAny>,
    },
    List,
}

impl<'py> Lens<'py> {
    /// The game's observer, kept only if it gives the tensor
    /// `observation_tensor(0)` gives on the first state, value for value.
    fn of(game: &Bound<'py, PyAny>, len: usize) -> PyResult<Lens<'py>> {
        let py = game.py();
        let observer = match py
            .import("open_spiel.python.observation")
            .and_then(|m| m.call_method1("make_observation", (game,)))
        {
            Ok(observer) if !observer.is_none() => observer,
            _ => return Ok(Lens::List),
        };
        let Ok(tensor) = observer.getattr("tensor") else {
            return Ok(Lens::List);
        };
        let (Ok(set_from), Ok(bytes)) = (observer.getattr("set_from"), tensor.getattr("tobytes"))
        else {
            return Ok(Lens::List);
        };
        let lens = Lens::Observer { set_from, bytes };
        let first = game.call_method0("new_initial_state")?;
        let mut seen = Vec::with_capacity(len);
        let same = lens.read(&first, &mut seen).is_ok()
            && first
                .call_method1("observation_tensor", (0,))?
                .extract::<Vec<f32>>()?
                == seen;
        Ok(if same { lens } else { Lens::List })
    }

    /// Appends `state`'s tensor, as the first player sees it, to `out`.
    fn read(&self, state: &Bound<'py, PyAny>, out: &mut Vec<f32>) -> PyResult<()> {
        match self {
            Lens::Observer { set_from, bytes } => {
                set_from.call1((state, 0))?;
                let raw = bytes.call0()?;
                let raw = raw.cast::<PyBytes>()?.as_bytes();
                out.extend(raw.chunks_exact(4).map(|b| {
                    let mut word = [0; 4];
                    word.copy_from_slice(b);
                    f32::from_ne_bytes(word)
                }));
            }
            Lens::List => out.extend(
                state
                    .call_method1(intern!(state.py(), "observation_tensor"), (0,))?
                    .extract::<Vec<f32>>()?,
            ),
        }
        Ok(())
    }
}

/// The properties a game must have, each with the words of its refusal.
fn unfit(name: &str, lacks: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{name}: {lacks}; bebete evolves sequential, deterministic games of perfect information for one or two players that give an observation tensor"
    ))
}

impl<'py> Spiel<'py> {
    /// Reads `game`, refusing one that is not sequential, deterministic,
    /// of perfect information, for one or two players, with an
    /// observation tensor.
    pub(crate) fn new(game: Bound<'py, PyAny>) -> PyResult<Spiel<'py>> {
        let kind = game.call_method0("get_type")?;
        // OpenSpiel writes a game as `short_name(param=value,…)`, loadable
        // again by `pyspiel.load_game`; without parameters, its short name.
        let written: String = game.str()?.extract()?;
        let name = match written.strip_suffix("()") {
            Some(plain) => format!("openspiel:{plain}"),
            None => format!("openspiel:{written}"),
        };
        let word = |attr: &str| -> PyResult<String> {
            kind.getattr(attr)?.getattr("name")?.extract::<String>()
        };
        if word("dynamics")? != "SEQUENTIAL" {
            return Err(unfit(&name, "it has simultaneous moves"));
        }
        if word("chance_mode")? != "DETERMINISTIC" {
            return Err(unfit(&name, "it has chance"));
        }
        if word("information")? != "PERFECT_INFORMATION" {
            return Err(unfit(&name, "it has imperfect information"));
        }
        if !kind
            .getattr("provides_observation_tensor")?
            .extract::<bool>()?
        {
            return Err(unfit(&name, "it gives no observation tensor"));
        }
        let players: i64 = game.call_method0("num_players")?.extract()?;
        if !(1..=2).contains(&players) {
            return Err(unfit(&name, &format!("it has {players} players")));
        }
        let shape: Vec<usize> = game.call_method0("observation_tensor_shape")?.extract()?;
        let low: f64 = game.call_method0("min_utility")?.extract()?;
        let high: f64 = game.call_method0("max_utility")?.extract()?;
        let lens = Lens::of(&game, shape.iter().product())?;
        Ok(Spiel {
            lens,
            game,
            name,
            players: players as u8,
            shape,
            low,
            high,
            watch: None,
        })
    }

    /// The first player's return, scaled to −1..=1: a two-player game's
    /// returns as they are (OpenSpiel's −1, 0, 1), a puzzle's from its
    /// worst to its best.
    fn result(&self, state: &Bound<'py, PyAny>) -> PyResult<f32> {
        let returns: Vec<f64> = state
            .call_method0(intern!(state.py(), "returns"))?
            .extract()?;
        let r = returns.first().copied().unwrap_or(0.0);
        let scaled = if self.players == 2 || self.high <= self.low {
            r.clamp(-1.0, 1.0)
        } else {
            2.0 * (r - self.low) / (self.high - self.low) - 1.0
        };
        Ok(scaled as f32)
    }
}

impl<'py> Observed for Spiel<'py> {
    type State = Bound<'py, PyAny>;
    type Error = PyErr;

    fn name(&self) -> String {
        self.name.clone()
    }

    fn players(&self) -> u8 {
        self.players
    }

    fn tensor_shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    fn start(&mut self) -> PyResult<Self::State> {
        self.game.call_method0("new_initial_state")
    }

    fn to_move(&mut self, state: &Self::State) -> PyResult<Option<u8>> {
        if state
            .call_method0(intern!(state.py(), "is_terminal"))?
            .extract::<bool>()?
        {
            return Ok(None);
        }
        let player: i64 = state
            .call_method0(intern!(state.py(), "current_player"))?
            .extract()?;
        match u8::try_from(player) {
            Ok(p) if p < self.players => Ok(Some(p)),
            _ => Err(PyValueError::new_err(format!(
                "{}: a state's current player is {player}, not a player of the game",
                self.name
            ))),
        }
    }

    fn children(
        &mut self,
        state: &Self::State,
        children: &mut Vec<Self::State>,
        afters: &mut Vec<After>,
        tensors: &mut Vec<f32>,
    ) -> PyResult<()> {
        // Ctrl-C: Python's handler runs here, between OpenSpiel's calls.
        state.py().check_signals()?;
        let len: usize = self.shape.iter().product();
        let actions: Vec<i64> = state
            .call_method0(intern!(state.py(), "legal_actions"))?
            .extract()?;
        for action in actions {
            let child = state.call_method1(intern!(state.py(), "child"), (action,))?;
            // One call where the game goes on: a player's number, or
            // OpenSpiel's negative ids (terminal among them).
            let player: i64 = child
                .call_method0(intern!(child.py(), "current_player"))?
                .extract()?;
            let after = match u8::try_from(player).ok().filter(|&p| p < self.players) {
                Some(next) => After::ToMove(next),
                // Over, or a player that is not one: `to_move` says which.
                None => match self.to_move(&child)? {
                    Some(next) => After::ToMove(next),
                    None => After::Over(self.result(&child)?),
                },
            };
            afters.push(after);
            if let After::Over(_) = after {
                tensors.resize(tensors.len() + len, 0.0);
            } else {
                let before = tensors.len();
                self.lens.read(&child, tensors)?;
                if tensors.len() - before != len {
                    return Err(PyValueError::new_err(format!(
                        "{}: an observation tensor of {} values, not the {len} its shape says",
                        self.name,
                        tensors.len() - before
                    )));
                }
            }
            children.push(child);
        }
        Ok(())
    }

    fn played(&mut self, done: u64, planned: u64) -> PyResult<()> {
        match &self.watch {
            Some(watch) => watch.call1((done, planned)).map(drop),
            None => Ok(()),
        }
    }

    fn moves(&mut self, state: &Self::State) -> PyResult<usize> {
        state
            .call_method0(intern!(state.py(), "legal_actions"))?
            .len()
    }

    fn child(
        &mut self,
        state: &Self::State,
        k: usize,
        tensor: &mut Vec<f32>,
    ) -> PyResult<(Self::State, Option<f32>)> {
        let action = state
            .call_method0(intern!(state.py(), "legal_actions"))?
            .get_item(k)?;
        let child = state.call_method1(intern!(state.py(), "child"), (action,))?;
        tensor.clear();
        if child
            .call_method0(intern!(child.py(), "is_terminal"))?
            .extract::<bool>()?
        {
            let result = self.result(&child)?;
            return Ok((child, Some(result)));
        }
        self.lens.read(&child, tensor)?;
        Ok((child, None))
    }
}

/// An engine failure as Python's: the game's own exception as it was, a
/// setting or an unfit game a `ValueError`, a file an `OSError` or
/// `ValueError` as the rest of the package raises them.
fn py_failure(e: Failure<PyErr>) -> PyErr {
    match e {
        Failure::Game(e) => e,
        Failure::File(e) => crate::py_error(e.into()),
        Failure::Lock(e) => crate::py_error(e.into()),
        // A setting as the keyword that gave it: `population=0: …`.
        Failure::Setting(e) => PyValueError::new_err(format!(
            "{}={}: {}",
            e.flag.replace('-', "_"),
            e.value,
            e.allowed
        )),
        Failure::Unfit(e) => PyValueError::new_err(e.to_string()),
    }
}

/// A run over an OpenSpiel game, one generation a call.
#[pyclass(name = "ObservedRun", module = "bebete._bebete", unsendable)]
pub(crate) struct PyObservedRun {
    /// `None` once closed: its directory's lock given back.
    run: Option<ObservedRun>,
}

impl PyObservedRun {
    fn run(&self) -> PyResult<&ObservedRun> {
        self.run
            .as_ref()
            .ok_or_else(|| PyValueError::new_err("the run is closed"))
    }
}

/// A generation's row as `each` is given it: a built-in game's numbers
/// (`learned`: the moves of its self-play games), and `vs_random` when the
/// champion was measured.
fn row_dict<'py>(py: Python<'py>, row: &StatsRow, learned: u64) -> PyResult<Bound<'py, PyDict>> {
    let report = crate::Report {
        generation: row.generation,
        best: row.best,
        mean: row.mean,
        worst: row.worst,
        diversity: row.diversity,
        island: 0,
        games: row.games,
        learned,
    };
    let d = crate::row_dict(py, &report)?;
    if let Some(&score) = row.bench.first() {
        d.set_item("vs_random", score)?;
    }
    Ok(d)
}

#[pymethods]
impl PyObservedRun {
    /// Starts a run of `game` in `path` with the engine's `settings` (a
    /// dict of `run.toml` names) and the genome's shape.
    #[staticmethod]
    #[pyo3(signature = (game, path, seed, settings, tuples=None, tuple_length=None, max_moves=None, mirror=false, overwrite=false))]
    #[allow(clippy::too_many_arguments)]
    fn start(
        game: Bound<'_, PyAny>,
        path: PathBuf,
        seed: u64,
        settings: Bound<'_, PyDict>,
        tuples: Option<u16>,
        tuple_length: Option<u8>,
        max_moves: Option<u32>,
        mirror: bool,
        overwrite: bool,
    ) -> PyResult<PyObservedRun> {
        let mut spiel = Spiel::new(game)?;
        let mut cfg: EvolveConfig = ObservedRun::settings_for(&spiel.name, spiel.players, seed);
        for (key, value) in settings.iter() {
            let key: String = key.extract()?;
            cfg.set(&key, crate::setting_value(&value)?)
                .map_err(|e| PyValueError::new_err(format!("{key}={value}: {e}")))?;
        }
        let observed = ObservedSettings {
            tuples,
            tuple_length,
            max_moves: max_moves.unwrap_or(ObservedSettings::default().max_moves),
            mirror,
        };
        // Checked whole before a run already there is deleted: a refused
        // setting loses nothing.
        let planned = ObservedRun::plan(&mut spiel, cfg, observed).map_err(py_failure)?;
        clear(&path, overwrite)?;
        let run = planned.start(&path).map_err(py_failure)?;
        Ok(PyObservedRun { run: Some(run) })
    }

    /// Resumes the run in `path` over `game`, planned to `generations`.
    #[staticmethod]
    #[pyo3(signature = (game, path, generations=None))]
    fn resume(game: Bound<'_, PyAny>, path: PathBuf, generations: Option<u64>) -> PyResult<Self> {
        let spiel = Spiel::new(game)?;
        let run = ObservedRun::resume(&spiel, &path, generations).map_err(py_failure)?;
        Ok(PyObservedRun { run: Some(run) })
    }

    /// Runs one generation over `game`; its row of `stats.csv`. `watch`,
    /// if given, is called with the self-play games done and planned
    /// after each one.
    #[pyo3(signature = (game, watch = None))]
    fn step<'py>(
        &mut self,
        game: Bound<'py, PyAny>,
        watch: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = game.py();
        let mut spiel = Spiel::new(game)?;
        spiel.watch = watch;
        let run = self
            .run
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("the run is closed"))?;
        let row = run.step(&mut spiel).map_err(py_failure)?;
        row_dict(py, &row, run.learned())
    }

    /// Whether the run has reached its planned generations.
    #[getter]
    fn done(&self) -> PyResult<bool> {
        Ok(self.run()?.done())
    }

    /// Generations planned.
    #[getter]
    fn planned(&self) -> PyResult<u64> {
        Ok(self.run()?.config().generations)
    }

    /// Generations run.
    #[getter]
    fn generation(&self) -> PyResult<u64> {
        Ok(self.run()?.generation())
    }

    /// The run's directory.
    #[getter]
    fn path(&self) -> PyResult<PathBuf> {
        Ok(self.run()?.dir().to_path_buf())
    }

    /// How the game's tensor is read, in words.
    #[getter]
    fn layout(&self) -> PyResult<String> {
        Ok(self.run()?.layout().describe())
    }

    /// Ends the run: `ended.toml` (when `reason` is given) and the plot,
    /// `RUN/NAME.png`. Returns the plot's path, or None when it could not
    /// be drawn (a warning says why).
    #[pyo3(signature = (reason=None))]
    fn finish(&mut self, py: Python<'_>, reason: Option<String>) -> PyResult<Option<PathBuf>> {
        let run = self.run()?;
        if let Some(reason) = reason {
            run.finish(&reason).map_err(|e| crate::py_error(e.into()))?;
        }
        let dir = run.dir().to_path_buf();
        // The run ends here: its directory's lock is given back.
        self.run = None;
        let plot = bebete::cli::plot_cmd::plot_in_run(&dir);
        match py.detach(|| render(std::slice::from_ref(&dir), &plot)) {
            Ok(()) => Ok(Some(plot)),
            Err(e) => {
                eprintln!("warning: no plot: {e}");
                Ok(None)
            }
        }
    }
}

/// Refuses a directory that holds a run, unless `overwrite`, when the run
/// is deleted first.
fn clear(path: &Path, overwrite: bool) -> PyResult<()> {
    let held = path.join("run.toml").exists() || path.join("checkpoints").exists();
    if !held {
        return Ok(());
    }
    if !overwrite {
        return Err(PyFileExistsError::new_err(format!(
            "{} already holds a run: resume it (bebete.resume), or pass overwrite=True to start over",
            path.display()
        )));
    }
    std::fs::remove_dir_all(path).map_err(|e| crate::py_error(e.into()))
}

/// An OpenSpiel game's champion, loaded.
#[pyclass(name = "ObservedGenome", module = "bebete._bebete", frozen)]
pub(crate) struct PyObservedGenome {
    path: PathBuf,
    game: String,
    layout: Layout,
    history: String,
    genome: TensorGenome,
}

#[pymethods]
impl PyObservedGenome {
    /// Reads an observed game's genome file.
    #[new]
    fn new(path: PathBuf) -> PyResult<Self> {
        let file = TensorGenome::read(&path).map_err(|e| crate::py_error(e.into()))?;
        Ok(PyObservedGenome {
            path,
            game: file.game,
            layout: file.layout,
            history: file.history,
            genome: file.genome,
        })
    }

    /// The game it plays (`openspiel:connect_four`).
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// Self-play games it learned from.
    #[getter]
    fn games(&self) -> u64 {
        self.genome.games()
    }

    /// The file.
    #[getter]
    fn path(&self) -> &Path {
        &self.path
    }

    /// What it is, in words: its game, how it reads the tensor, its
    /// tuples, how it learned.
    fn describe(&self) -> String {
        describe(&self.game, &self.layout, &self.genome, &self.history)
    }

    /// The place, in `state.legal_actions()`, of the action it plays in
    /// `state` of `game` (None when the state is over), searching `plies`
    /// deep (1: each child valued).
    #[pyo3(signature = (game, state, plies = 1))]
    fn choose(
        &self,
        game: Bound<'_, PyAny>,
        state: Bound<'_, PyAny>,
        plies: i64,
    ) -> PyResult<Option<usize>> {
        let plies = u8::try_from(plies)
            .ok()
            .filter(|p| (1..=MAX_PLIES).contains(p))
            .ok_or_else(|| {
                PyValueError::new_err(format!("plies={plies}: must be 1-{MAX_PLIES}"))
            })?;
        let mut spiel = Spiel::new(game)?;
        if spiel.name != self.game {
            return Err(PyValueError::new_err(format!(
                "{} is a genome of {}, not of {}",
                self.path.display(),
                self.game,
                spiel.name
            )));
        }
        choose(&mut spiel, &self.layout, &self.genome, &state, plies)
    }
}

/// An observed game's genome in words (`genome info` says the same).
pub(crate) fn describe(
    game: &str,
    layout: &Layout,
    genome: &TensorGenome,
    history: &str,
) -> String {
    let tuples = match (genome.tuples(), genome.length()) {
        (1, length) if length == layout.cells() => {
            format!("one tuple of all {length} cells (a table of every position)")
        }
        (1, length) => format!("one tuple of {length} cells"),
        (tuples, length) => format!("{tuples} tuples of {length} cells"),
    };
    let tuples = if genome.mirrored() {
        format!("{tuples}, each read in both mirror images")
    } else {
        tuples
    };
    format!(
        "{game}: a value genome of {tuples} over its {}; learned by TD: {history}; {}",
        layout.describe(),
        genome.rates_in_words()
    )
}
