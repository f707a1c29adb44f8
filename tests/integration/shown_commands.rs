//! Every command the README and the docs show is run by the tests, so the
//! docs cannot drift from the program:
//! - every `bebete` command of a `sh` or `console` block parses as the
//!   command line reads it (flags, values, ranges);
//! - every `evolve` shown, and every `bank` that builds one, runs with
//!   `--dry-run`, which checks every setting (game, players, files, bank)
//!   as a real run does and writes nothing;
//! - every `--help` example parses and writes under genomes/, banks/,
//!   plots/ or runs/;
//! - every recipe (an `sh` block of `evolve` and the commands that use what
//!   it wrote) runs in order in one scratch checkout, each run shortened;
//! - every `console` block whose commands run in seconds is run as written
//!   (a long `eval` with `--dry-run`, its first line compared),
//!   in a scratch directory holding the shipped genomes, and prints what the
//!   page shows. Times and speeds are compared as `#`; a line `…` stands
//!   for any number of lines.
//!
//! A shown command that is none of these (a server, a long run, another
//! program) must be listed in [`NOT_RUN`] with the reason, so a new one
//! cannot slip by unchecked.

use super::common::bebete;
use super::docs::pages;
use clap::Parser;
use std::path::Path;
use std::process::Command;

/// A command shown on a page.
#[derive(Debug)]
struct Shown {
    page: String,
    line: usize,
    /// The command as written, continuation lines joined, comment removed.
    text: String,
    /// In a `console` block: the output shown under it.
    output: Option<Vec<String>>,
    /// Which block of the page it is in (0, 1, …).
    block: usize,
}

/// `text` without a trailing `# comment` (a `#` after a space, outside
/// quotes).
fn without_comment(text: &str) -> &str {
    let mut quote = None;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (None, b'\'' | b'"') => quote = Some(b),
            (Some(q), _) if q == b => quote = None,
            (None, b'#') if i > 0 && bytes[i - 1] == b' ' => return text[..i].trim_end(),
            _ => {}
        }
    }
    text.trim_end()
}

/// Every command of the `sh` and `console` blocks of every page.
fn shown_commands() -> Vec<Shown> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut shown = Vec::new();
    for path in pages() {
        let page = path.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut block = 0;
        let mut i = 0;
        while i < lines.len() {
            let fence = lines[i].trim_start();
            let console = fence == "```console";
            if !(console || matches!(fence, "```sh" | "```bash" | "```shell")) {
                i += 1;
                continue;
            }
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                let line = lines[i];
                let start = i + 1;
                let command = if console {
                    line.strip_prefix("$ ")
                } else {
                    Some(line).filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                };
                i += 1;
                let Some(first) = command else { continue };
                let mut text = without_comment(first).to_string();
                while text.ends_with('\\') && i < lines.len() {
                    text.pop();
                    text.push_str(without_comment(lines[i].trim_start()));
                    i += 1;
                }
                let output = console.then(|| {
                    let mut out = Vec::new();
                    while i < lines.len()
                        && !lines[i].starts_with("$ ")
                        && !lines[i].trim_start().starts_with("```")
                    {
                        out.push(lines[i].to_string());
                        i += 1;
                    }
                    out
                });
                shown.push(Shown {
                    page: page.clone(),
                    line: start,
                    text,
                    output,
                    block,
                });
            }
            block += 1;
            i += 1;
        }
    }
    shown
}

/// The words of a shell command (single and double quotes; no expansion).
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in text.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), _) if q == c => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The arguments a shown command gives bebete (after `bebete`, `cargo run
/// --release --`, `target/release/bebete`, `mpirun -n N …`, or a pipe into
/// one of those); `None` for another program.
fn bebete_args(text: &str) -> Option<Vec<String>> {
    let command = text.rsplit('|').next().unwrap().trim();
    let words = words(command);
    let mut rest: &[String] = &words;
    if rest.first().is_some_and(|w| w == "mpirun") {
        rest = &rest[3..];
    }
    match rest.first().map(String::as_str) {
        Some("bebete" | "target/release/bebete") => Some(rest[1..].to_vec()),
        Some("cargo")
            if rest
                .get(1..4)
                .is_some_and(|w| w == ["run", "--release", "--"]) =>
        {
            Some(rest[4..].to_vec())
        }
        _ => None,
    }
}

/// Shown commands the tests do not run, with the reason: each is written
/// here as it is shown. (Their `bebete` ones still must parse.)
const NOT_RUN: &[(&str, &str)] = &[
    ("cargo test", "the tests themselves"),
    ("cargo test --features mpi --test mpi", "CI runs it"),
    ("cargo test --features browser --test browser", "CI runs it"),
    ("cargo build --release --features mpi", "CI builds it"),
    ("cargo bench --bench bebete", "minutes of benchmarks"),
    ("cargo bench --bench bebete -- decision", "a benchmark"),
    ("cargo install cargo-fuzz", "a tool from the network"),
    (
        "cargo run --release --example own_game",
        "the example's own tests run it",
    ),
    (
        "cargo run --release --example own_value_genome",
        "the example's own test runs it",
    ),
    (
        "bebete serve",
        "a server: tests/integration/serve_api.rs speaks to one",
    ),
    ("curl", "the server's API: tests/integration/serve_api.rs"),
    ("RUSTC_BOOTSTRAP=1 cargo fuzz", "fuzzing runs for minutes"),
    ("cp", "copies a file another shown command wrote"),
    (
        "python3 -m venv .venv",
        ".ci/run makes a fresh virtual environment",
    ),
    (
        ".venv/bin/pip install",
        ".ci/run installs the package and OpenSpiel",
    ),
    (
        ".venv/bin/python",
        ".ci/run runs the package's tests and its example",
    ),
];

/// Console commands whose output is not compared here because they take
/// long (seconds measured with the release build on the 2-core machine);
/// they still must parse, an `eval` among them passes `--dry-run` with the
/// first line of its table as shown, and their output was copied from a
/// real run.
const SLOW: &[(&str, &str)] = &[
    (
        "bebete eval genomes/connect4.genome",
        "a 9-ply search: 90-110 s",
    ),
    (
        "bebete eval genomes/checkers.genome",
        "a 6-ply search: over 30 s",
    ),
    (
        "bebete eval genomes/d4.genome",
        "a 4-ply search, 1,000 games: over 30 s",
    ),
    (
        "bebete eval genomes/connect4-subgrid.genome",
        "a 5-ply shell: 15-30 s",
    ),
    (
        "bebete audit genomes/connect4-subgrid.genome",
        "30,000 positions in a 5-ply shell: 27 s",
    ),
    ("bebete eval genomes/connect4-pure.genome", "6-10 s"),
    ("bebete eval genomes/checkers-ntuple.genome", "3 s"),
    (
        "bebete eval genomes/othello.genome",
        "a 6-ply search, 800 games: about 35 s",
    ),
];

fn not_run(text: &str) -> Option<&'static str> {
    NOT_RUN
        .iter()
        .chain(SLOW)
        .find(|(shown, _)| text == *shown || text.starts_with(&format!("{shown} ")))
        .map(|&(_, why)| why)
}

#[test]
fn every_shown_command_is_bebete_or_listed() {
    let shown = shown_commands();
    assert!(shown.len() > 50, "only {} commands found", shown.len());
    for s in &shown {
        assert!(
            bebete_args(&s.text).is_some() || not_run(&s.text).is_some(),
            "{}:{}: `{}` is neither bebete nor listed in NOT_RUN",
            s.page,
            s.line,
            s.text
        );
    }
}

#[test]
fn every_shown_bebete_command_parses() {
    for s in shown_commands() {
        let Some(args) = bebete_args(&s.text) else {
            continue;
        };
        let parsed = bebete::cli::Cli::try_parse_from(std::iter::once("bebete".into()).chain(args));
        if let Err(e) = parsed {
            panic!("{}:{}: `{}` does not parse:\n{e}", s.page, s.line, s.text);
        }
    }
}

/// The banks the repository ships (the rest of `banks/` is what a reader
/// built by following the docs).
pub(super) const SHIPPED_BANKS: [&str; 2] = ["connect4.bank", "connect4-onpolicy.bank"];

/// A scratch directory holding what a fresh clone holds of `genomes/` and
/// `banks/`: the shipped files only, so that whatever a reader wrote there
/// by following the docs (the quick start's champion, `genomes/my.genome`)
/// changes no output the docs show.
fn checkout_like() -> tempfile::TempDir {
    checkout_like_from(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// [`checkout_like`], from the checkout at `root`.
fn checkout_like_from(root: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped(root, dir.path());
    dir
}

/// Copies the shipped genomes and banks of the checkout `from` into `to`.
fn copy_shipped(from: &Path, to: &Path) {
    for (folder, names) in [
        ("genomes", &bebete::play::SHIPPED_GENOMES[..]),
        ("banks", &SHIPPED_BANKS[..]),
    ] {
        std::fs::create_dir_all(to.join(folder)).unwrap();
        for name in names {
            std::fs::copy(from.join(folder).join(name), to.join(folder).join(name)).unwrap();
        }
    }
}

/// A checkout where the reader has followed the docs (a champion of their
/// own under `genomes/`, a bank of their own under `banks/`) gives the docs
/// tests the same scratch folder as a fresh clone.
#[test]
fn the_docs_tests_see_only_what_the_repository_ships() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let followed = tempfile::tempdir().unwrap();
    copy_shipped(root, followed.path());
    for mine in [
        "genomes/tictactoe-1.genome",
        "genomes/my.genome",
        "banks/mine.bank",
    ] {
        std::fs::copy(
            root.join("genomes/tictactoe.genome"),
            followed.path().join(mine),
        )
        .unwrap();
    }
    let dir = checkout_like_from(followed.path());
    let listed = |folder: &str| {
        let mut names: Vec<String> = std::fs::read_dir(dir.path().join(folder))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let mut genomes: Vec<String> = bebete::play::SHIPPED_GENOMES.map(String::from).to_vec();
    genomes.sort();
    let mut banks: Vec<String> = SHIPPED_BANKS.map(String::from).to_vec();
    banks.sort();
    assert_eq!(listed("genomes"), genomes);
    assert_eq!(listed("banks"), banks);
}

#[test]
fn every_shown_evolve_and_bank_passes_its_dry_run() {
    let dir = checkout_like();
    let mut checked = 0;
    for s in shown_commands() {
        let Some(args) = bebete_args(&s.text) else {
            continue;
        };
        // evolve, and bank when it builds one (a merge or --info reads
        // banks an earlier command shown would have written).
        let planned = match args.first().map(String::as_str) {
            Some("evolve") => true,
            Some("bank") => !args.iter().any(|a| a == "--merge" || a == "--info"),
            _ => false,
        };
        if !planned {
            continue;
        }
        let out = bebete(dir.path())
            .args(&args)
            .arg("--dry-run")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.starts_with("would "),
            "{}:{}: `{}` fails its dry run:\n{}{}",
            s.page,
            s.line,
            s.text,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 18, "{checked} evolve and bank commands");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "a dry run wrote something: {left:?}");
}

/// The commands a recipe is made of: a run and what is done with what it
/// wrote. A block of only these runs whole, shortened; a block with
/// another command is checked command by command above.
const CHAINED: &[&str] = &["evolve", "resume", "genome", "play", "eval"];

/// `args` made short: a run of 2 generations with at most 50 self-play
/// games per learner, a resume of 1, an eval of 2 games.
fn shortened(args: &[String], dir: &Path) -> Vec<String> {
    let mut args = args.to_vec();
    let set =
        |args: &mut Vec<String>, flag: &str, value: &str| match args.iter().position(|a| a == flag)
        {
            Some(i) => args[i + 1] = value.to_string(),
            None => args.extend([flag.to_string(), value.to_string()]),
        };
    match args[0].as_str() {
        "evolve" => {
            // The plan says whether the run learns by self-play.
            let plan = bebete(dir).args(&args).arg("--dry-run").output().unwrap();
            let learns = String::from_utf8_lossy(&plan.stdout)
                .lines()
                .any(|l| l.starts_with("self_play = ") && l != "self_play = 0");
            set(&mut args, "--generations", "2");
            if learns {
                set(&mut args, "--self-play", "50");
            }
        }
        "resume" => set(&mut args, "--generations", "1"),
        "eval" => set(&mut args, "--games", "2"),
        _ => {}
    }
    args
}

/// Every recipe shown (an `sh` block that runs `evolve` and then uses what
/// it wrote: `genome shell runs/…/best.genome`, `play`, `cp`) runs in
/// order in one scratch checkout, each run shortened ([`shortened`]): the
/// files one command writes are there for the next, as a reader following
/// the page would have them.
#[test]
fn every_shown_recipe_runs_in_order_shortened() {
    let mut blocks: Vec<Vec<Shown>> = Vec::new();
    for s in shown_commands().into_iter().filter(|s| s.output.is_none()) {
        match blocks.last_mut() {
            Some(b) if b[0].page == s.page && b[0].block == s.block => b.push(s),
            _ => blocks.push(vec![s]),
        }
    }
    let mut ran = 0;
    for block in blocks {
        let chain = block.len() > 1
            && block.iter().any(|s| s.text.contains(" evolve "))
            && block.iter().all(|s| {
                s.text.starts_with("cp ")
                    || bebete_args(&s.text)
                        .is_some_and(|a| a.first().is_some_and(|c| CHAINED.contains(&c.as_str())))
            });
        if !chain {
            continue;
        }
        let dir = checkout_like();
        for s in &block {
            let out = if let Some(rest) = s.text.strip_prefix("cp ") {
                let files = words(rest);
                Command::new("cp")
                    .args(&files)
                    .current_dir(dir.path())
                    .output()
                    .unwrap()
            } else {
                let args = shortened(&bebete_args(&s.text).unwrap(), dir.path());
                // A person at the board quits at once.
                bebete(dir.path())
                    .args(&args)
                    .write_stdin("q\n")
                    .output()
                    .unwrap()
            };
            assert!(
                out.status.success(),
                "{}:{}: `{}` (shortened) failed after the commands before it:\n{}{}",
                s.page,
                s.line,
                s.text,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        ran += 1;
    }
    assert!(ran >= 10, "{ran} recipes run");
}

/// Every `evolve` the README shows runs in its order in one folder (each
/// shortened), as a newcomer following it from top to bottom runs them: no
/// run takes another's default directory.
#[test]
fn every_readme_evolve_runs_in_order_in_one_folder() {
    let dir = checkout_like();
    let mut ran = 0;
    for s in shown_commands()
        .into_iter()
        .filter(|s| s.page == "README.md")
    {
        let Some(args) = bebete_args(&s.text) else {
            continue;
        };
        if args.first().map(String::as_str) != Some("evolve") {
            continue;
        }
        let out = bebete(dir.path())
            .args(shortened(&args, dir.path()))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README.md:{}: `{}` (shortened) failed after the evolves before it:\n{}{}",
            s.line,
            s.text,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 6, "{ran} evolves run");
}

/// `line` with every time and speed (`0.1 s`, `3764 games/s`) as `#`.
fn without_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let number = !w.is_empty()
            && w.trim_start_matches('(')
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',');
        // Sizes too: `stats.csv` holds times, so a run's bytes vary.
        let unit = next == "s"
            || next.starts_with("s)")
            || next.starts_with("s,")
            || next.starts_with("games/s")
            || ["B:", "kB:", "MB:", "GB:"].contains(&next);
        if number && unit {
            out.push(if w.starts_with('(') { "(#" } else { "#" });
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// Whether the printed line `actual` is the shown line `shown`: times
/// aside, trailing spaces aside, and a `…` in a shown line standing for
/// any text there.
fn same_line(shown: &str, actual: &str) -> bool {
    let (shown, actual) = (
        without_times(shown.trim_end()),
        without_times(actual.trim_end()),
    );
    let mut parts = shown.split('…');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    if parts.is_empty() {
        return rest.is_empty();
    }
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `actual` is `shown`, line by line ([`same_line`]), where a shown
/// line `…` alone stands for any number of lines.
fn matches(shown: &[String], actual: &[String]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "…" => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| same_line(first, a) && matches(rest, more)),
    }
}

#[test]
fn every_shown_console_output_is_what_the_command_prints() {
    let dir = checkout_like();
    let bin = dir.path().join(".bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin!("bebete"), bin.join("bebete"))
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut ran, mut drifted) = (0, Vec::new());
    for s in shown_commands() {
        let Some(shown) = &s.output else { continue };
        let slow_eval = s.text.starts_with("bebete eval ") && not_run(&s.text).is_some();
        if not_run(&s.text).is_some() && !slow_eval {
            continue;
        }
        let text = s.text.replace("cargo run --release -- ", "bebete ");
        // A long eval is checked by its dry run: the players are built and
        // the table's first line must be the page's.
        // (JSON has no such line: the dry run must pass, that is all.)
        let (text, shown) = match (slow_eval, s.text.contains("--json")) {
            (true, true) => (format!("{text} --dry-run"), &shown[..0]),
            (true, false) => (format!("{text} --dry-run"), &shown[..1]),
            (false, _) => (text, &shown[..]),
        };
        // What a terminal shows: both streams. A page may also show stdout
        // alone (progress on stderr left out).
        let run = |redirect: &str| {
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("{text} {redirect}"))
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let printed = run("2>&1");
        let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        // Run again only when the page leaves stderr out.
        let stdout_only = || matches(shown, &lines(&run("2>/dev/null")));
        let printed_lines = lines(&printed);
        let compared = if slow_eval {
            &printed_lines[..printed_lines.len().min(shown.len())]
        } else {
            &printed_lines[..]
        };
        let dry_run_passed = !slow_eval || printed.contains("\ndry run: the player");
        if !dry_run_passed || (!matches(shown, compared) && !stdout_only()) {
            drifted.push(format!(
                "{}:{}: `{}` printed\n{printed}\nwhere the page shows\n{}\n",
                s.page,
                s.line,
                s.text,
                shown.join("\n")
            ));
        }
        ran += 1;
    }
    assert!(drifted.is_empty(), "{}", drifted.join("\n"));
    assert!(ran >= 10, "{ran} console commands run");
}

#[test]
fn times_are_elided_and_ellipses_skip_lines() {
    assert_eq!(
        without_times("for generations 0-2 in 0.1 s (300 games, 3,764 games/s)"),
        "for generations 0-2 in # s (300 games, # games/s)"
    );
    assert_eq!(
        without_times("run  runs/x  (2.1 MB: run.toml, 2 checkpoints)"),
        "run  runs/x  (# MB: run.toml, 2 checkpoints)"
    );
    let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&lines("a\n…\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n…\nd"), &lines("a\nd")));
    assert!(!matches(&lines("a\n…\nd"), &lines("a\nb")));
    assert!(!matches(&lines("a\nb"), &lines("a\nc")));
    assert!(same_line("    8   845931   …", "    8   845931   0.08"));
    assert!(same_line("a … c …", "a b c d"));
    assert!(!same_line("a … c", "a b d"));
    assert!(same_line(" X | 2 | 3", " X | 2 | 3 "));
    assert_eq!(
        words(r#"solve --position "B:W18, 24" 'x y'"#),
        ["solve", "--position", "B:W18, 24", "x y"]
    );
    assert_eq!(
        without_comment("bebete play   # tic-tac-toe"),
        "bebete play"
    );
}

/// The examples of every `--help` (the lines `  bebete …` after
/// `Examples:`) parse too, and write under genomes/, banks/ or runs/, not
/// at the top of a checkout.
#[test]
fn every_help_example_parses() {
    use clap::CommandFactory;
    fn examples(cmd: &clap::Command, out: &mut Vec<String>) {
        if let Some(after) = cmd.get_after_help() {
            for line in after.to_string().lines() {
                if let Some(example) = line.strip_prefix("  bebete ") {
                    // An example may be followed by what it does, after two
                    // spaces or more.
                    let command = example.split("  ").next().unwrap_or_default();
                    out.push(command.trim().to_string());
                }
            }
        }
        for sub in cmd.get_subcommands() {
            examples(sub, out);
        }
    }
    let mut found = Vec::new();
    examples(&bebete::cli::Cli::command(), &mut found);
    assert!(found.len() > 40, "{} examples", found.len());
    for example in found {
        let args = words(&example);
        let parsed = bebete::cli::Cli::try_parse_from(
            std::iter::once("bebete".to_string()).chain(args.iter().cloned()),
        );
        if let Err(e) = parsed {
            panic!("`bebete {example}` does not parse:\n{e}");
        }
        if let Some(at) = args.iter().position(|a| a == "--out") {
            let out = &args[at + 1];
            assert!(
                ["genomes/", "banks/", "plots/", "runs/"]
                    .iter()
                    .any(|d| out.starts_with(d)),
                "`bebete {example}` writes {out} at the top of the checkout"
            );
        }
    }
}
