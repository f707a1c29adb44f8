//! The `bebete` binary: parse the command line, run it, print errors on one line.

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = bebete::cli::parse();
    match bebete::cli::run(cli) {
        Ok(code) => code,
        Err(err) if bebete::cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Control characters (a path or a position typed with an
            // escape sequence) are shown escaped, never sent to the
            // terminal; a closed stderr loses the message, never panics.
            let text: String = format!("{err:#}")
                .chars()
                .flat_map(|c| match c {
                    '\n' => vec![c],
                    c if c.is_control() => c.escape_debug().collect(),
                    c => vec![c],
                })
                .collect();
            let _ = writeln!(std::io::stderr(), "error: {text}");
            ExitCode::from(2)
        }
    }
}
