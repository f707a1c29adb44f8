//! What a hostile or careless world hands the command line, done for real:
//! a FIFO and `/dev/zero` named for every file a command reads, the
//! temporary files of writes killed mid-way, output piped into `head -1`,
//! a stray byte or an escape sequence typed at a prompt.

use crate::common::{bebete, copy_shipped_genomes, evolve};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `bebete args` in `dir` with nothing on stdin, killed after 30
/// seconds (a hang fails the test instead of blocking it); returns its
/// status code and stderr.
fn run_bounded(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("{args:?} still running after 30 s (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A FIFO or `/dev/zero` in place of a genome, an opponent or a checkpoint
/// is refused at once by name, as the server refuses it: nothing waits for
/// a writer, nothing reads without end.
#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_for_every_file_a_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped_genomes(dir.path(), &["tictactoe.genome"]);
    let made = Command::new("mkfifo")
        .arg(dir.path().join("fifo.genome"))
        .status()
        .unwrap();
    assert!(made.success());
    evolve(dir.path(), "runs/r", &[], &["--generations", "3"]);
    let ckpts = dir.path().join("runs/r/checkpoints");
    let mut found: Vec<_> = std::fs::read_dir(&ckpts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    found.sort();
    let newest = found.pop().unwrap();
    std::fs::remove_file(&newest).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(&newest)
            .status()
            .unwrap()
            .success()
    );
    for bad in ["fifo.genome", "/dev/zero"] {
        let g = "genomes/tictactoe.genome";
        let commands: Vec<Vec<&str>> = vec![
            vec!["genome", "info", bad],
            vec!["move", bad, "--position", "5"],
            vec!["explain", bad, "--position", "5"],
            vec!["eval", bad, "--games", "2"],
            vec!["play", bad],
            vec!["eval", g, "--against", bad, "--games", "2"],
        ];
        for args in commands {
            let (code, stderr) = run_bounded(dir.path(), &args);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains(bad) && stderr.contains("is not a regular file"),
                "{args:?}: {stderr}"
            );
        }
    }
    // The FIFO checkpoint is set aside, never waited on: the run goes on
    // from the one before.
    let (code, stderr) = run_bounded(dir.path(), &["resume", "runs/r", "-q"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("is not a regular file"), "{stderr}");
}

/// The temporary files that writes killed mid-way leave (`.NAME.tmp-PID`)
/// are removed when the run starts again, its own only: another file of
/// the folder stays.
#[test]
fn temporaries_of_killed_writes_are_removed_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    evolve(dir.path(), "runs/r", &[], &["--generations", "3"]);
    let run = dir.path().join("runs/r");
    let leftovers = [
        run.join(".best.genome.tmp-4242"),
        run.join(".stats.csv.tmp-77"),
        run.join("checkpoints/.gen-000002.ckpt.tmp-4243"),
    ];
    for file in &leftovers {
        std::fs::write(file, vec![0u8; 4096]).unwrap();
    }
    std::fs::write(run.join("notes.txt"), "mine").unwrap();
    bebete(dir.path())
        .args(["resume", "runs/r", "--generations", "1", "-q"])
        .assert()
        .success();
    for file in &leftovers {
        assert!(!file.exists(), "{} is still there", file.display());
    }
    assert!(run.join("notes.txt").is_file());
}

/// No command panics on a closed stdout or stderr: each is piped into
/// `head -1`, with and without `2>&1`, and none exits 101.
#[cfg(unix)]
#[test]
fn no_command_panics_when_its_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped_genomes(dir.path(), &["tictactoe.genome", "matchsticks.genome"]);
    let bin = assert_cmd::cargo::cargo_bin!("bebete")
        .display()
        .to_string();
    let commands = [
        "evolve --dry-run",
        "evolve --generations 3 --run runs/p",
        "resume runs/p --generations 2",
        "genome info genomes/tictactoe.genome",
        "eval genomes/tictactoe.genome --games 20",
        "explain genomes/tictactoe.genome --position 5",
        "solve --game ttt",
        "solve --game nim --perft 6",
        "audit genomes/tictactoe.genome",
        "--help",
        "evolve --help",
        "move genomes/tictactoe.genome --position 99",
        "play genomes/matchsticks.genome",
    ];
    for command in commands {
        for redirect in ["2>/dev/null", "2>&1"] {
            for _ in 0..3 {
                let script = format!(
                    "'{bin}' {command} {redirect} < /dev/null | head -1 >/dev/null; exit ${{PIPESTATUS[0]}}"
                );
                let status = Command::new("bash")
                    .args(["-c", &script])
                    .current_dir(dir.path())
                    .status()
                    .unwrap();
                assert_ne!(
                    status.code(),
                    Some(101),
                    "`{command} {redirect} | head -1` panicked"
                );
            }
        }
    }
}

/// A stray byte typed at `play` or fed to `move` is one refusal, and the
/// session goes on; an escape sequence is echoed escaped, never sent to the
/// terminal; a long line is echoed cut, with a count.
#[test]
fn a_stray_byte_or_an_escape_sequence_is_one_refusal() {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped_genomes(dir.path(), &["tictactoe.genome"]);
    let out = bebete(dir.path())
        .args(["play", "genomes/tictactoe.genome"])
        .write_stdin(b"5\n\xe9\n1\n".to_vec())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("not UTF-8 text (byte 0xe9 at 1)"),
        "{stdout}"
    );
    assert!(stdout.contains("score: you"), "{stdout}");
    let out = bebete(dir.path())
        .args(["move", "genomes/tictactoe.genome"])
        .write_stdin(b"\xe9\n5\n".to_vec())
        .output()
        .unwrap();
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("error: not UTF-8 text"), "{lines:?}");
    assert!(lines[1].parse::<u8>().is_ok(), "{lines:?}");
    let long = "1".repeat(100_000);
    for position in ["\u{1b}[2J\u{1b}[H", long.as_str()] {
        for command in ["move", "explain"] {
            let out = bebete(dir.path())
                .args([command, "genomes/tictactoe.genome", "--position", position])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2));
            assert!(!out.stderr.contains(&0x1b), "{command}: raw escape echoed");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.len() < 500,
                "{command}: {} bytes echoed",
                stderr.len()
            );
            assert!(
                stderr.contains("\\u{1b}[2J") || stderr.contains("more characters)"),
                "{command}: {stderr}"
            );
        }
    }
}
