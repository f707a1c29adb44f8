//! The `bebete` binary: parse the command line, run it, print errors on one line.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = bebete::cli::parse();
    match bebete::cli::run(cli) {
        Ok(code) => code,
        Err(err) if bebete::cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
