//! Small helpers shared by the subcommands: seeds and pipes.

use std::io;

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
