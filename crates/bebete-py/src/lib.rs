//! The native half of the `bebete` Python package: the command line's
//! commands (`bebete::cli::api`) made callable from Python. A run's
//! settings pass as typed values to the engine's own settings
//! (`EvolveConfig::set`); the game's and the run's own options as the
//! command line's words. The Python half (`python/bebete/`) sorts the
//! keywords and wraps the results; everything a run does, checks or
//! refuses is the engine's and the command line's own.

mod observed;

use bebete::cli::api::{self, Control, EachGeneration, Ended, GenerationReport, Mover};
use bebete::cli::{Command, FlagError};
use bebete::eval::Watch;
use bebete::games::Spelling;
use bebete::store::{FileError, FileProblem};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::io::ErrorKind;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often a waiting call looks at Python's signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// How Python names an option: `max_take`, `rows=3`.
const KEYWORDS: Spelling = Spelling {
    name: str::to_string,
    valued: |name, value| format!("{name}={value}"),
};

/// An error of the engine as Python's, with the command line's message
/// (a game's refused options in Python's names): a file that is not there
/// is a `FileNotFoundError`, one that may not be read a
/// `PermissionError`, another failure to read or write an `OSError`, and
/// anything else (a bad value, a damaged or foreign file) a `ValueError`.
fn py_error(e: anyhow::Error) -> PyErr {
    // A game's options, refused, are said as Python names them.
    if let Some(refused) = e.chain().find_map(|c| c.downcast_ref::<FlagError>()) {
        return PyValueError::new_err(refused.0.spelled(KEYWORDS));
    }
    let message = format!("{e:#}");
    let io = e.chain().find_map(|c| {
        c.downcast_ref::<std::io::Error>().or_else(|| {
            match c.downcast_ref::<FileError>().map(|f| &f.problem) {
                Some(FileProblem::Io(io)) => Some(io),
                _ => None,
            }
        })
    });
    match io.map(std::io::Error::kind) {
        Some(ErrorKind::NotFound) => PyFileNotFoundError::new_err(message),
        Some(ErrorKind::PermissionDenied) => PyPermissionError::new_err(message),
        Some(_) => PyOSError::new_err(message),
        None => PyValueError::new_err(message),
    }
}

/// The command line's words, parsed by its parser; a refusal is a
/// `ValueError` with its message.
fn parse(words: &[String]) -> PyResult<Command> {
    api::parse(words).map_err(PyValueError::new_err)
}

/// The keywords `command` takes (its flags with underscores).
#[pyfunction]
fn settings(command: &str) -> PyResult<Vec<String>> {
    api::settings(command).ok_or_else(|| PyValueError::new_err(format!("no command {command}")))
}

/// The names of a run's settings, as `run.toml` writes them.
#[pyfunction]
fn run_settings() -> Vec<String> {
    api::run_settings()
}

/// A Python value as a setting's: a truth value, a number, a string or a
/// list of them.
fn setting_value(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if let Ok(b) = value.extract::<bool>() {
        return Ok(Value::Bool(b));
    }
    if let Ok(n) = value.extract::<u64>() {
        return Ok(Value::from(n));
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(Value::from(n));
    }
    if let Ok(x) = value.extract::<f64>() {
        return Ok(Value::from(x));
    }
    if let Ok(text) = value.extract::<String>() {
        return Ok(Value::String(text));
    }
    if let Ok(items) = value.extract::<Vec<Bound<'_, PyAny>>>() {
        return items
            .iter()
            .map(setting_value)
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(PyValueError::new_err(format!(
        "{value}: a setting is a number, a truth value, a string or a list of them"
    )))
}

/// The game `run.toml` in `path` records (`None` without a readable one):
/// the engine's own reading of a run's identity.
#[pyfunction]
fn run_game(path: PathBuf) -> Option<String> {
    bebete::evolve::RunDir::new(path)
        .recorded_identity()
        .map(|(game, _)| game)
}

/// The registered games' names.
#[pyfunction]
fn games() -> Vec<String> {
    api::games()
}

/// A genome loaded to answer positions.
#[pyclass(name = "Mover", module = "bebete._bebete")]
struct PyMover {
    inner: Mutex<Mover>,
    game: String,
}

#[pymethods]
impl PyMover {
    /// The genome's game.
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// The move for `position`, in the notation (`bebete move`'s answer).
    fn answer(&self, position: &str) -> PyResult<String> {
        let mut mover = self
            .inner
            .lock()
            .map_err(|_| PyValueError::new_err("a previous move failed inside the genome"))?;
        mover.answer(position).map_err(py_error)
    }
}

/// Loads the genome file at `path`.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyMover> {
    let mover = py.detach(|| Mover::load(&path)).map_err(py_error)?;
    Ok(PyMover {
        game: mover.game().to_string(),
        inner: Mutex::new(mover),
    })
}

/// `bebete explain GENOME --position POSITION --json`'s text.
#[pyfunction]
fn explain_json(py: Python<'_>, path: PathBuf, position: String) -> PyResult<String> {
    py.detach(|| api::explain_json(&path, &position))
        .map_err(py_error)
}

/// The legal moves of `game` in `position`, in the notation.
#[pyfunction]
fn legal_moves(game: &str, position: &str) -> PyResult<Vec<String>> {
    api::legal_moves(game, position).map_err(py_error)
}

/// A generation's row, for the caller's function.
pub(crate) fn row_dict<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyDict>> {
    let row = PyDict::new(py);
    row.set_item("generation", report.generation)?;
    row.set_item("best", report.best)?;
    row.set_item("mean", report.mean)?;
    row.set_item("worst", report.worst)?;
    row.set_item("diversity", report.diversity)?;
    row.set_item("island", report.island)?;
    row.set_item("games", report.games)?;
    row.set_item("learned", report.learned)?;
    Ok(row)
}

/// What crosses from the run's thread to the caller's after a generation.
pub(crate) struct Report {
    generation: u64,
    best: u32,
    mean: f64,
    worst: u32,
    diversity: f64,
    island: u32,
    games: u64,
    learned: u64,
}

impl From<&GenerationReport> for Report {
    fn from(r: &GenerationReport) -> Report {
        Report {
            generation: r.row.generation,
            best: r.row.best,
            mean: r.row.mean,
            worst: r.row.worst,
            diversity: r.row.diversity,
            island: r.row.island,
            games: r.games,
            learned: r.learned,
        }
    }
}

/// Runs `work` on a thread of its own, without the GIL, while this thread
/// hands each report to `each` and watches Python's signals: Ctrl-C (or an
/// exception from `each`) raises `stop`, and once `work` has ended (its
/// checkpoint written) the exception is raised here.
fn supervised<T: Send + 'static>(
    py: Python<'_>,
    each: Option<Py<PyAny>>,
    work: impl FnOnce(Arc<AtomicBool>, EachGeneration) -> T + Send + 'static,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<Report>();
    let report: EachGeneration = Box::new(move |r| {
        // The receiver lives until the work has ended.
        let _ = tx.send(Report::from(r));
    });
    let flag = stop.clone();
    let worker = std::thread::Builder::new()
        .name("bebete-run".into())
        .spawn(move || work(flag, report))
        .map_err(|e| PyOSError::new_err(format!("starting the run's thread: {e}")))?;
    let mut raised: Option<PyErr> = None;
    let mut rx = rx;
    loop {
        // The receiver goes with the wait (it is not `Sync`) and comes back.
        let (got, back) = py.detach(move || (rx.recv_timeout(SIGNAL_POLL), rx));
        rx = back;
        match got {
            Ok(report) => {
                if let (Some(each), None) = (&each, &raised) {
                    let called = row_dict(py, &report).and_then(|row| each.call1(py, (row,)));
                    if let Err(e) = called {
                        stop.store(true, Ordering::SeqCst);
                        raised = Some(e);
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if let Err(e) = py.check_signals() {
            stop.store(true, Ordering::SeqCst);
            raised.get_or_insert(e);
        }
    }
    let out = py
        .detach(|| worker.join())
        .map_err(|_| PyValueError::new_err("the run's thread panicked"))?;
    match raised {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// How a stopped run goes on, in Python's words.
fn continue_in_python(run: &std::path::Path) -> String {
    format!("bebete.resume({:?})", run.display().to_string())
}

/// `bebete evolve WORDS…` or `bebete resume WORDS…`, quiet, with `each`
/// called after every generation; returns the run's directory and whether
/// it was stopped.
#[pyfunction]
#[pyo3(signature = (words, each=None, overwrite=false, settings=None))]
fn run(
    py: Python<'_>,
    words: Vec<String>,
    each: Option<Py<PyAny>>,
    overwrite: bool,
    settings: Option<Bound<'_, PyDict>>,
) -> PyResult<(PathBuf, bool)> {
    let values = match &settings {
        None => Vec::new(),
        Some(dict) => dict
            .iter()
            .map(|(key, value)| Ok((key.extract::<String>()?, setting_value(&value)?)))
            .collect::<PyResult<Vec<_>>>()?,
    };
    let outcome = match parse(&words)? {
        Command::Evolve(mut args) => supervised(py, each, move |stop, report| {
            args.values = values;
            api::evolve(
                *args,
                Control {
                    stop: Some(stop),
                    each: Some(report),
                    continue_with: Some(continue_in_python),
                },
                overwrite,
            )
        })?,
        Command::Resume(args) => {
            let dir = args.run.clone();
            supervised(py, each, move |stop, report| {
                api::resume(
                    args,
                    Control {
                        stop: Some(stop),
                        each: Some(report),
                        continue_with: Some(continue_in_python),
                    },
                )
                .map(|ended| (dir, ended))
            })?
        }
        _ => return Err(PyValueError::new_err("run takes evolve or resume words")),
    };
    let (dir, ended) = outcome.map_err(py_error)?;
    Ok((dir, ended == Ended::Stopped))
}

/// `bebete eval WORDS…`: per opponent (name, games, wins, draws, losses,
/// score). Ctrl-C stops the matches after the pairs of games under way
/// and raises `KeyboardInterrupt`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn eval(py: Python<'_>, words: Vec<String>) -> PyResult<Vec<(String, u64, u64, u64, u64, f64)>> {
    let Command::Eval(args) = parse(&words)? else {
        return Err(PyValueError::new_err("eval takes eval words"));
    };
    let tallies = supervised(py, None, move |stop, _| {
        let watch = Watch {
            played: Default::default(),
            stop,
        };
        api::eval(&args, &watch)
    })?
    .map_err(py_error)?;
    Ok(tallies
        .into_iter()
        .map(|t| {
            let score = t.score();
            (t.against, t.games, t.wins, t.draws, t.losses, score)
        })
        .collect())
}

#[pymodule]
fn _bebete(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(run_game, m)?)?;
    m.add_function(wrap_pyfunction!(settings, m)?)?;
    m.add_function(wrap_pyfunction!(run_settings, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(explain_json, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_class::<PyMover>()?;
    m.add_class::<observed::PyObservedRun>()?;
    m.add_class::<observed::PyObservedGenome>()?;
    Ok(())
}
