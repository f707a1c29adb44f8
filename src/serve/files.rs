//! The only files a request can name: genomes under `genomes/` and runs
//! under `runs/` of the directory the server was started in.
//!
//! A name from a request is a relative path written with `/`. It is refused
//! unless every part is a plain name (no `..`, no `.`, no root, no drive,
//! no backslash, nothing hidden) and its first part is `genomes` or `runs`;
//! then the file's real path (symlinks resolved) must still lie inside the
//! real `genomes/` or `runs/` directory, so a link pointing out is refused
//! too, and it must be a file or a directory (a FIFO is refused). A genome
//! and the files of a run (`run.toml`, `stats.csv`) are then opened by
//! [`open_plain`]: no link at any component of the real path, no blocking
//! open, a regular file with one name (no hard link), a size limit each.

use super::api::ApiError;
use super::sessions::lock;
use crate::evolve::stats::StatsTable;
use crate::games::GameSpec;
use crate::genome::Genome;
use crate::store::run_files;
use crate::store::{FileError, RunLock};
use axum::http::StatusCode;
use serde::Serialize;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

/// The two directories requests may read.
const ROOTS: [&str; 2] = ["genomes", "runs"];
/// Longest name accepted, in bytes.
const MAX_NAME: usize = 255;
/// Most entries listed per directory (a huge `runs/` stays a short reply).
const MAX_LISTED: usize = 500;

/// The largest genome file the server reads (a Connect-Four value genome is
/// 18 MB); a larger file named by a request is refused from its size.
pub const MAX_GENOME_BYTES: u64 = 64_000_000;

/// The largest `run.toml` the server reads (`evolve` writes about 2 KB).
pub const MAX_RUN_TOML_BYTES: u64 = 256 * 1024;
/// The largest `stats.csv` the server reads whole, for a run's page (about
/// 100 bytes a generation: some 160,000 generations). The run list reads
/// only its last line; `bebete plot` reads any size.
pub const MAX_STATS_BYTES: u64 = 16_000_000;
/// What the run list reads of a `stats.csv`: its tail, for the last row.
const STATS_TAIL: u64 = 4096;

/// Opens `path` the one way the server opens a file: never through a link
/// at any component (`path` is a real path from [`Project::resolve`]; on
/// Linux `openat2` refuses a link anywhere in it, so a directory swapped
/// for a link since is refused too; elsewhere the last component is opened
/// `O_NOFOLLOW`), never blocking (a FIFO is opened without waiting for a
/// writer, then refused), and only a regular file of at most `limit` bytes.
/// `name` is the path as the request wrote it, for the refusals.
pub fn open_plain(path: &Path, name: &str, limit: u64) -> Result<std::fs::File, ApiError> {
    let file = open_no_links(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return ApiError::forbidden(format!(
                "'{}': a link; the server follows none inside genomes/ and runs/",
                shown(name)
            ));
        }
        match e.kind() {
            std::io::ErrorKind::NotFound => {
                ApiError::not_found(format!("'{}': no such file", shown(name)))
            }
            _ => ApiError::forbidden(format!("'{}': {e}", shown(name))),
        }
    })?;
    let meta = file
        .metadata()
        .map_err(|e| ApiError::forbidden(format!("'{}': {e}", shown(name))))?;
    if !meta.is_file() {
        return Err(ApiError::forbidden(format!(
            "'{}': not a regular file",
            shown(name)
        )));
    }
    // A hard link is another name of one file, and may be the name of a
    // file outside genomes/ and runs/ (no path says so): a regular file
    // with more than one name is not read.
    #[cfg(unix)]
    if std::os::unix::fs::MetadataExt::nlink(&meta) > 1 {
        return Err(ApiError::forbidden(format!(
            "'{}': a file with {} names (hard links); the server reads only files with one, so that none leads outside genomes/ and runs/",
            shown(name),
            std::os::unix::fs::MetadataExt::nlink(&meta)
        )));
    }
    if meta.len() > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "'{}': {}, more than the server reads of such a file ({})",
                shown(name),
                crate::store::size_in_words(meta.len()),
                crate::store::size_in_words(limit)
            ),
        ));
    }
    Ok(file)
}

/// Opens `path` for reading, non-blocking, through no link at any
/// component: `openat2` with `RESOLVE_NO_SYMLINKS` (Linux 5.6 and later).
#[cfg(target_os = "linux")]
fn open_no_links(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    /// The kernel's `struct open_how`.
    #[repr(C)]
    struct OpenHow {
        flags: u64,
        mode: u64,
        resolve: u64,
    }
    let how = OpenHow {
        flags: (libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOFOLLOW) as u64,
        mode: 0,
        resolve: libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS,
    };
    // SAFETY: `c_path` is a NUL-terminated string and `how` a valid
    // `open_how` of the size passed, both alive for the call; the returned
    // descriptor, when not negative, is new and owned by the `File` alone.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            libc::AT_FDCWD,
            c_path.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if fd >= 0 {
        // SAFETY: as above: a fresh descriptor that nothing else owns.
        return Ok(unsafe { std::fs::File::from_raw_fd(fd as i32) });
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::ENOSYS) {
        // A kernel without openat2: the last component at least.
        return open_last_no_link(path);
    }
    Err(error)
}

#[cfg(not(target_os = "linux"))]
fn open_no_links(path: &Path) -> std::io::Result<std::fs::File> {
    open_last_no_link(path)
}

/// Opens `path` for reading, non-blocking, not through a link at its last
/// component (`O_NOFOLLOW`).
fn open_last_no_link(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A name from a request as a refusal echoes it: at most 80 characters.
fn shown(name: &str) -> String {
    match name.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_string(),
    }
}

/// The project directory the server reads, with the genomes loaded from it.
#[derive(Clone, Debug)]
pub struct Project {
    root: PathBuf,
    loaded: Arc<Loaded>,
}

/// A genome as every game and explanation naming its file shares it: one
/// copy of the genes however many games play it.
#[derive(Clone, Debug)]
pub struct SharedGenome {
    pub game: GameSpec,
    /// The genes (a `Vec` inside the `Arc`: once no game holds them, the
    /// store's weak reference keeps a few bytes, not the genes).
    pub genes: Arc<Vec<u8>>,
    pub lookahead: u8,
}

/// What identifies a file's contents without reading them: a file replaced
/// or rewritten (size, time or inode changed) is loaded again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode,
        }
    }
}

/// A loaded genome as the store keeps it: its genes weakly, so that they
/// go when the last game playing them ends.
#[derive(Debug)]
struct Entry {
    stamp: Stamp,
    genes: Weak<Vec<u8>>,
    game: GameSpec,
    lookahead: u8,
}

impl Entry {
    /// The genome, if `stamp` is still the file's and a game holds it.
    fn shared(&self, stamp: Stamp) -> Option<SharedGenome> {
        let genes = self.genes.upgrade().filter(|_| self.stamp == stamp)?;
        Some(SharedGenome {
            game: self.game,
            genes,
            lookahead: self.lookahead,
        })
    }
}

/// The genomes loaded, by real path.
#[derive(Debug)]
struct Loaded {
    genomes: Mutex<HashMap<PathBuf, Entry>>,
    /// Held while a genome is read: requests for a file being read wait
    /// for that one copy instead of reading their own.
    reading: Mutex<()>,
    /// Most bytes of genes held at once (`serve --genome-memory-mb`).
    budget: u64,
}

impl Loaded {
    /// The genome loaded from `path` as it is now, if a game still holds it.
    fn hit(&self, path: &Path, stamp: Stamp) -> Option<SharedGenome> {
        lock(&self.genomes).get(path)?.shared(stamp)
    }

    /// Bytes of genes held by games now (entries no game holds are dropped).
    fn held(&self) -> u64 {
        let mut genomes = lock(&self.genomes);
        genomes.retain(|_, entry| entry.genes.strong_count() > 0);
        genomes
            .values()
            .filter_map(|entry| entry.genes.upgrade())
            .map(|genes| genes.len() as u64)
            .sum()
    }

    /// Keeps `genome`, read from `path` at `stamp`, for the next request.
    fn keep(&self, path: PathBuf, stamp: Stamp, genome: Genome) -> SharedGenome {
        let genes = Arc::new(genome.genes);
        let entry = Entry {
            stamp,
            genes: Arc::downgrade(&genes),
            game: genome.game,
            lookahead: genome.lookahead,
        };
        lock(&self.genomes).insert(path, entry);
        SharedGenome {
            game: genome.game,
            genes,
            lookahead: genome.lookahead,
        }
    }
}

/// A genome file a request may name, for the menus.
#[derive(Clone, Debug, Serialize)]
pub struct GenomeEntry {
    /// The name to send back (`genomes/connect4.genome`, `runs/r1/best.genome`).
    pub name: String,
    /// The game kind (`tictactoe`, `matchsticks`, `connect4`).
    pub game: &'static str,
    /// The game with its rules, in words.
    pub rules: String,
    /// Plies of its tactical shell (0: pure).
    pub lookahead: u8,
    /// How it learned: `self` (self-play) or the player it learned
    /// against; `null` when the file does not say.
    pub learning: Option<String>,
    /// One of the champions shipped with bebete (`genomes/` and a shipped
    /// name), not a genome of one's own.
    pub shipped: bool,
}

/// A run directory, for the run list.
#[derive(Clone, Debug, Serialize)]
pub struct RunEntry {
    pub name: String,
    pub game: String,
    /// Generations recorded in `stats.csv` so far.
    pub generations: usize,
    /// Whether a process holds the run's lock (it is still evolving).
    pub running: bool,
}

impl Project {
    /// The project in `root` (the server's working directory), holding at
    /// most `genome_memory` bytes of genes loaded at once.
    pub fn new(root: impl Into<PathBuf>, genome_memory: u64) -> Project {
        Project {
            root: root.into(),
            loaded: Arc::new(Loaded {
                genomes: Mutex::default(),
                reading: Mutex::default(),
                budget: genome_memory,
            }),
        }
    }

    /// The real path of `name`, which must lie under `genomes/` or `runs/`
    /// and exist.
    pub fn resolve(&self, name: &str) -> Result<PathBuf, ApiError> {
        let shown = shown(name);
        let refuse = |why: &str| ApiError::forbidden(format!("'{shown}': {why}"));
        if name.is_empty() || name.len() > MAX_NAME {
            return Err(refuse("a name is 1-255 bytes"));
        }
        let parts: Vec<&str> = name.split('/').collect();
        if parts
            .iter()
            .any(|p| p.is_empty() || p.starts_with('.') || p.contains('\\') || p.contains(':'))
        {
            return Err(refuse(
                "only plain relative names under genomes/ or runs/ (no '..', no absolute paths)",
            ));
        }
        if !ROOTS.contains(&parts[0]) || parts.len() < 2 {
            return Err(refuse("only files under genomes/ or runs/ can be named"));
        }
        let inside = self
            .root
            .join(parts[0])
            .canonicalize()
            .map_err(|_| ApiError::not_found(format!("'{name}': there is no {}/", parts[0])))?;
        let real = self
            .root
            .join(name)
            .canonicalize()
            .map_err(|_| ApiError::not_found(format!("'{name}': no such file")))?;
        if !real.starts_with(&inside) {
            return Err(refuse("it leads outside genomes/ and runs/"));
        }
        // A FIFO or a device would hang or never end a read: only files
        // and directories are named.
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_file() || meta.is_dir() => Ok(real),
            _ => Err(refuse("not a regular file")),
        }
    }

    /// A genome named by a request: a `.genome` file, or a run directory
    /// (its `best.genome`). A file some game already plays, unchanged since,
    /// is not read again: its genes are shared.
    pub fn genome(&self, name: &str) -> Result<SharedGenome, ApiError> {
        let mut path = self.resolve(name)?;
        if path.is_dir() {
            path = self.resolve(&format!("{}/best.genome", name.trim_end_matches('/')))?;
        }
        let refuse = |e: FileError| ApiError::unprocessable(format!("'{name}': {}", e.problem));
        // Opened, checked and its size refused before anything is read.
        let mut file = open_plain(&path, name, MAX_GENOME_BYTES)?;
        let meta = file
            .metadata()
            .map_err(|e| refuse(FileError::new(&path, e)))?;
        let stamp = Stamp::of(&meta);
        if let Some(shared) = self.loaded.hit(&path, stamp) {
            return Ok(shared);
        }
        let _reading = lock(&self.loaded.reading);
        if let Some(shared) = self.loaded.hit(&path, stamp) {
            return Ok(shared);
        }
        let held = self.loaded.held();
        if held + meta.len() > self.loaded.budget {
            return Err(ApiError::unavailable(format!(
                "the genomes in play hold {} MB and '{name}' needs {} MB more, past the server's {} MB for genomes (serve --genome-memory-mb): finish a game (DELETE /api/games/ID) or try again later",
                held / 1_000_000,
                meta.len().div_ceil(1_000_000),
                self.loaded.budget / 1_000_000
            )));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        (&mut file)
            .take(MAX_GENOME_BYTES)
            .read_to_end(&mut bytes)
            .map_err(|e| refuse(FileError::new(&path, e)))?;
        let genome =
            Genome::from_bytes(bytes).map_err(|problem| refuse(FileError::new(&path, problem)))?;
        Ok(self.loaded.keep(path, stamp, genome))
    }

    /// A run directory named by a request: `runs/NAME`.
    pub fn run(&self, name: &str) -> Result<PathBuf, ApiError> {
        if name.contains('/') {
            return Err(ApiError::forbidden(format!(
                "'{}': a run is named by its directory name under runs/",
                shown(name)
            )));
        }
        let dir = self.resolve(&format!("runs/{name}"))?;
        if !dir.is_dir() || !dir.join(run_files::RUN_TOML).is_file() {
            return Err(ApiError::not_found(format!(
                "'runs/{name}' is not a run directory"
            )));
        }
        Ok(dir)
    }

    /// The genomes under `genomes/` and the champions of runs under `runs/`,
    /// by name; files that are not genomes are left out.
    pub fn genomes(&self) -> Vec<GenomeEntry> {
        let mut names: Vec<String> = listed(&self.root.join("genomes"))
            .into_iter()
            .filter(|n| n.ends_with(".genome"))
            .map(|n| format!("genomes/{n}"))
            .collect();
        names.extend(
            listed(&self.root.join("runs"))
                .into_iter()
                .map(|n| format!("runs/{n}/best.genome")),
        );
        names
            .into_iter()
            .filter_map(|name| {
                // The headers alone: a listing reads a few bytes a file,
                // from a handle opened as every file is (no link, no FIFO).
                let path = self.resolve(&name).ok()?;
                let file = open_plain(&path, &name, MAX_GENOME_BYTES).ok()?;
                let (game, lookahead, learning) = Genome::peek_in(file, &path).ok()?;
                let shipped = name
                    .strip_prefix("genomes/")
                    .is_some_and(|file| crate::play::SHIPPED_GENOMES.contains(&file));
                Some(GenomeEntry {
                    shipped,
                    game: game.game().name(),
                    rules: game.to_string(),
                    lookahead,
                    learning,
                    name,
                })
            })
            .collect()
    }

    /// The run directories under `runs/`.
    pub fn runs(&self) -> Vec<RunEntry> {
        listed(&self.root.join("runs"))
            .into_iter()
            .filter_map(|name| {
                let dir = self.run(&name).ok()?;
                let params = run_params(&dir);
                let generations = recorded_generations(&dir, &name);
                Some(RunEntry {
                    game: params
                        .get("game")
                        .and_then(|g| g.as_str())
                        .unwrap_or("?")
                        .to_string(),
                    generations,
                    running: run_running(&dir),
                    name,
                })
            })
            .collect()
    }
}

/// The parameters in a run's `run.toml` (empty when unreadable, a link,
/// not a regular file or over [`MAX_RUN_TOML_BYTES`]).
pub fn run_params(dir: &Path) -> toml::Table {
    let name = run_files::RUN_TOML;
    open_plain(&dir.join(name), name, MAX_RUN_TOML_BYTES)
        .ok()
        .and_then(|file| std::io::read_to_string(file).ok())
        .and_then(|t| t.parse::<toml::Table>().ok())
        .unwrap_or_default()
}

/// Whether a process holds the run's lock now (it is still evolving): its
/// `lock` opened as [`open_plain`] opens a file (no link, no wait on a
/// FIFO, a regular file checked on the handle), then asked
/// ([`RunLock::is_held_in`]). Anything else there is no lock.
pub fn run_running(dir: &Path) -> bool {
    let name = run_files::LOCK;
    open_plain(&dir.join(name), name, MAX_RUN_TOML_BYTES)
        .is_ok_and(|file| RunLock::is_held_in(&file))
}

/// How a run ended (`ended.toml`, as [`open_plain`] allows it), `None`
/// while it runs or was stopped, or for a run written before the file.
pub fn run_ended(dir: &Path) -> Option<crate::evolve::RunEnded> {
    let name = run_files::ENDED_TOML;
    open_plain(&dir.join(name), name, MAX_RUN_TOML_BYTES)
        .ok()
        .and_then(|file| std::io::read_to_string(file).ok())
        .and_then(|t| toml::from_str(&t).ok())
}

/// How many rows of a long run's `stats.csv` its page and plot keep (from
/// this to twice this, see [`StatsTable::thinned`]): every k-th generation
/// and the last, so that a request for a long run holds a few hundred kB,
/// not tens of MB.
pub const MAX_ROWS_SERVED: usize = 2_000;

/// A run's `stats.csv` as [`open_plain`] allows it (at most
/// [`MAX_STATS_BYTES`]), thinned to about [`MAX_ROWS_SERVED`] rows while
/// it is read; `Ok(None)` when the run has none yet or it does not parse.
pub fn run_stats(dir: &Path, run: &str) -> Result<Option<StatsTable>, ApiError> {
    let path = StatsTable::path_in(dir);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let file = open_plain(
        &path,
        &format!("runs/{run}/{}", run_files::STATS_CSV),
        MAX_STATS_BYTES,
    )?;
    Ok(StatsTable::thinned(std::io::BufReader::new(file), MAX_ROWS_SERVED).ok())
}

/// Generations a run has recorded, from the last line of its `stats.csv`
/// alone (its first cell, the generation, plus one); 0 when there is none
/// to read.
fn recorded_generations(dir: &Path, run: &str) -> usize {
    use std::io::{Seek, SeekFrom};
    let name = format!("runs/{run}/{}", run_files::STATS_CSV);
    let Ok(mut file) = open_plain(&StatsTable::path_in(dir), &name, u64::MAX) else {
        return 0;
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let mut tail = Vec::new();
    if file
        .seek(SeekFrom::Start(len.saturating_sub(STATS_TAIL)))
        .is_err()
        || file.take(STATS_TAIL).read_to_end(&mut tail).is_err()
    {
        return 0;
    }
    String::from_utf8_lossy(&tail)
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .and_then(|line| line.split(',').next()?.trim().parse::<f64>().ok())
        .map_or(0, |g| g as usize + 1)
}

/// The plain names in `dir`, sorted, at most [`MAX_LISTED`].
fn listed(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names.truncate(MAX_LISTED);
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link anywhere in the path is refused, not only at its end: a run
    /// directory swapped for a link after the name was resolved cannot lead
    /// a read elsewhere.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_link_at_any_component_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("outside")).unwrap();
        std::fs::write(real.join("outside/run.toml"), "secret = 1\n").unwrap();
        std::os::unix::fs::symlink(real.join("outside"), real.join("run")).unwrap();
        assert!(open_plain(&real.join("outside/run.toml"), "outside/run.toml", 100).is_ok());
        let refused = open_plain(&real.join("run/run.toml"), "runs/run/run.toml", 100).unwrap_err();
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.message);
        assert!(refused.message.contains("a link"), "{}", refused.message);
    }
}
