//! Small helpers shared by the subcommands: seeds, pipes and the paths
//! they write to.

use std::io;
use std::path::Path;

/// The folders bebete makes itself when they are missing, relative to the
/// folder it runs in: a run's, a champion's copy's, a plot's and a bank's.
const OWN_FOLDERS: [&str; 4] = ["runs", "genomes", "plots", "banks"];

/// Checks a path a command is about to write to, named by `flag`, before
/// anything is done: its folder must exist (bebete makes only `runs/`,
/// `genomes/`, `plots/` and `banks/` here, so a typo never becomes a new
/// folder) and, for a file (`file`: an example of its name, as the message
/// suggests it), the path must not be a folder. A run's folder (`file`
/// `None`) is made.
pub fn check_out_path(flag: &str, path: &Path, file: Option<&str>) -> anyhow::Result<()> {
    if let Some(example) = file
        && path.is_dir()
    {
        anyhow::bail!(
            "{flag} {}: a folder; name the file to write in it, e.g. {}",
            path.display(),
            path.join(example).display()
        );
    }
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    if parent.is_dir() {
        return Ok(());
    }
    if parent.exists() {
        anyhow::bail!(
            "{flag} {}: {} is a file, not a folder",
            path.display(),
            parent.display()
        );
    }
    if OWN_FOLDERS.iter().any(|own| parent == Path::new(own)) {
        return Ok(());
    }
    anyhow::bail!(
        "{flag} {}: the folder {} does not exist; create it first, or check the path for a typo (bebete makes only runs/, genomes/, plots/ and banks/ itself)",
        path.display(),
        parent.display()
    )
}

/// A report as pretty JSON with a final newline, through a JSON value so
/// that its keys print in sorted order, as every `--json` of bebete does.
pub fn pretty_json<T: serde::Serialize>(report: &T) -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(&serde_json::to_value(report)?)? + "\n")
}

/// A fresh seed for commands run without `--seed`. Only the command line
/// draws seeds this way; the library always takes them as arguments.
pub fn draw_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    // The mixer spreads the clock bits over the whole word.
    crate::seed::mix(nanos ^ ((std::process::id() as u64) << 32)) % 1_000_000_000
}

/// Whether an error is a closed output pipe (`bebete … | head`), which is not
/// a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The position the moves in `text` reach in `game`; a text that is no
/// such position names it ([`shown`](crate::typed::shown)) and why.
pub fn position_of<G: crate::games::Notation>(game: &G, text: &str) -> anyhow::Result<G::Position> {
    game.parse_position(text)
        .map_err(|e| anyhow::anyhow!("position '{}': {e}", crate::typed::shown(text)))
}

/// [`position_of`], refusing a position where the game is over.
pub fn position_in_play<G: crate::games::Notation>(
    game: &G,
    text: &str,
) -> anyhow::Result<G::Position> {
    let pos = position_of(game, text)?;
    if game.outcome(&pos).is_some() {
        anyhow::bail!(
            "position '{}': the game is already over",
            crate::typed::shown(text)
        );
    }
    Ok(pos)
}
