//! Helpers shared by the command-line tests.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The `bebete` binary, run in `dir`.
pub fn bebete(dir: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("bebete"));
    cmd.current_dir(dir);
    cmd
}

/// Writes a random genome of `game` (plus extra flags) into `dir`.
pub fn random_genome(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(name);
    bebete(dir)
        .args(["genome", "random", "--seed", "5", "--out"])
        .arg(&path)
        .args(args)
        .assert()
        .success();
    path
}

/// stdout of a successful command, as text.
pub fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("utf-8 output")
}

/// stderr of a command refused as bad input (exit status 2), as text.
pub fn refusal_of(cmd: &mut Command) -> String {
    let out = cmd.assert().code(2).get_output().stderr.clone();
    String::from_utf8_lossy(&out).into_owned()
}

/// `stats.csv` of a run without its time columns (`tournament_s,breeding_s,io_s`,
/// the 6th to 8th).
pub fn stats_without_times(run: &Path) -> Vec<String> {
    std::fs::read_to_string(run.join("stats.csv"))
        .unwrap()
        .lines()
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            fields.drain(5..8);
            fields.join(",")
        })
        .collect()
}

/// Asserts that `run/run.toml` holds each of `lines`.
pub fn run_toml_has(run: &Path, lines: &[&str]) {
    let toml = std::fs::read_to_string(run.join("run.toml")).unwrap();
    for line in lines {
        assert!(toml.contains(line), "{line} missing from\n{toml}");
    }
}

/// Runs with the same name in different places must match byte for byte
/// (the run name is part of the champion's provenance).
pub fn same_run(a: &Path, b: &Path) {
    let same = std::fs::read(a.join("best.genome")).unwrap()
        == std::fs::read(b.join("best.genome")).unwrap();
    assert!(
        same,
        "best.genome differs between {} and {}",
        a.display(),
        b.display()
    );
    assert_eq!(stats_without_times(a), stats_without_times(b));
}

/// Starts `bebete` in `dir` in the background, output discarded but stderr
/// kept for the caller.
pub fn spawn(dir: &Path, args: &[&str]) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bebete starts")
}

/// Polls `ready` every 20 ms, failing the test after 2 minutes.
pub fn wait_until(what: &str, ready: impl Fn() -> bool) {
    let started = std::time::Instant::now();
    while !ready() {
        assert!(
            started.elapsed().as_secs() < 120,
            "waited 2 minutes for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
pub mod server;

/// Copies the shipped genomes `names` into `dir`'s `genomes/`.
pub fn copy_shipped_genomes(dir: &Path, names: &[&str]) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("genomes");
    let genomes = dir.join("genomes");
    std::fs::create_dir_all(&genomes).unwrap();
    for name in names {
        std::fs::copy(shipped.join(name), genomes.join(name)).unwrap();
    }
}

/// The score share of one opponent's tally in `eval --json` (a win 1, a
/// draw ½).
pub fn score_of(tally: &serde_json::Value) -> f64 {
    let count = |key: &str| tally[key].as_f64().expect("a count");
    (count("wins") + count("draws") / 2.0) / count("games")
}

/// Reads `from` until the text read contains `marker`, and returns it;
/// panics if the stream ends first (`what`: what was awaited, for the
/// message).
pub fn read_until(from: &mut impl std::io::Read, marker: &str, what: &str) -> String {
    let mut seen = Vec::new();
    let mut chunk = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains(marker) {
        let n = from.read(&mut chunk).unwrap();
        assert!(
            n > 0,
            "the output ended before {what}: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

/// `solve --game GAME --perft D` lists `counts` (depths 1 to D, D their
/// number) in its table.
pub fn perft_lists(dir: &std::path::Path, game: &str, counts: &[&str]) {
    let depth = counts.len().to_string();
    let out = stdout_of(bebete(dir).args(["solve", "--game", game, "--perft", &depth]));
    for count in counts {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(*count)),
            "{game}, {count}: {out}"
        );
    }
}

/// Runs `args` (an evolve command writing `runs/r`, without
/// --generations) for 2·half generations on 1 and on 2 threads, and for
/// half then a resume of half more on 2 threads: all three end the same.
/// The three folders, for more checks (the runs are `runs/r` in each).
pub fn exact_on_threads_and_resume(args: &[&str], half: u32) -> Vec<tempfile::TempDir> {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let (whole, half) = ((2 * half).to_string(), half.to_string());
    for (dir, threads, generations) in [
        (&dirs[0], "1", &whole),
        (&dirs[1], "2", &whole),
        (&dirs[2], "2", &half),
    ] {
        bebete(dir.path())
            .args(args)
            .args([
                "--run",
                "runs/r",
                "--generations",
                generations,
                "--threads",
                threads,
            ])
            .assert()
            .success();
    }
    let run = |i: usize| dirs[i].path().join("runs/r");
    same_run(&run(0), &run(1));
    bebete(dirs[2].path())
        .args(["resume", "runs/r", "--generations", &half])
        .assert()
        .success();
    same_run(&run(0), &run(2));
    dirs
}

/// `evolve --quiet --seed 11 --run RUN`, the game's flags and `extra`,
/// in `dir`; it must succeed.
pub fn evolve(dir: &Path, run: &str, game: &[&str], extra: &[&str]) {
    bebete(dir)
        .args(["evolve", "--quiet", "--seed", "11", "--run", run])
        .args(game)
        .args(extra)
        .assert()
        .success();
}
