//! Islands over MPI: `mpirun -n 2` runs one island per rank and must give
//! what `--islands 2` gives in one process, resume exactly, and survive a
//! rank killed mid-run. Built only with `--features mpi`; the tests launch
//! the binary under Open MPI's `mpirun` (this file never initialises MPI
//! itself).
#![cfg(feature = "mpi")]

mod common;

use common::{bebete, same_run, stats_without_times};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUN: [&str; 14] = [
    "--islands",
    "2",
    "--population",
    "12",
    "--elite",
    "3",
    "--set",
    "migrate_every=2",
    "--seed",
    "4",
    "--preset",
    "method",
    "--fitness",
    "vs:exhaustive",
];

/// `mpirun -n 2 bebete ARGS` in `dir` (allowed to run as root, as CI does).
fn mpirun(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("mpirun");
    cmd.current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["-n", "2", "--oversubscribe"])
        .arg(assert_cmd::cargo::cargo_bin!("bebete"))
        .args(args);
    cmd
}

fn succeeds(mut cmd: Command) {
    let out = cmd.output().expect("mpirun starts");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn in_process(dir: &Path, run: &str, generations: &str) {
    bebete(dir)
        .args([
            "evolve",
            "--quiet",
            "--run",
            run,
            "--generations",
            generations,
        ])
        .args(RUN)
        .assert()
        .success();
}

#[test]
fn two_ranks_equal_two_islands_in_one_process_and_resume_exactly() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    in_process(dirs[0].path(), "runs/x", "8");
    let mut whole = mpirun(dirs[1].path(), &["evolve", "--quiet", "--run", "runs/x"]);
    whole.args(RUN).args(["--generations", "8"]);
    succeeds(whole);
    let mut half = mpirun(dirs[2].path(), &["evolve", "--run", "runs/x"]);
    half.args(RUN)
        .args(["--generations", "4", "--checkpoint-every", "2"]);
    let out = half.output().expect("mpirun starts");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One summary (rank 0's), whose resume hint names the launcher.
    let summary = String::from_utf8_lossy(&out.stdout);
    assert_eq!(summary.matches("evolved ").count(), 1, "{summary}");
    assert!(
        summary.contains("continue   mpirun -n 2 bebete resume runs/x --generations 100"),
        "{summary}"
    );
    succeeds(mpirun(
        dirs[2].path(),
        &["resume", "runs/x", "--generations", "4", "--quiet"],
    ));
    let a = dirs[0].path().join("runs/x");
    same_run(&a, &dirs[1].path().join("runs/x"));
    same_run(&a, &dirs[2].path().join("runs/x"));
    // Each rank wrote its own checkpoints.
    for rank in ["rank-0", "rank-1"] {
        assert!(
            dirs[1]
                .path()
                .join("runs/x/checkpoints")
                .join(rank)
                .is_dir()
        );
    }
    // In one process, or with another count, the run is refused, naming it.
    let out = bebete(dirs[1].path())
        .args(["resume", "runs/x", "--generations", "1"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("a run of 2 MPI processes"), "{err}");
}

#[test]
fn a_rank_killed_mid_run_resumes_from_a_generation_every_rank_has() {
    let (dir, fresh) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut cmd = mpirun(dir.path(), &["evolve", "--quiet", "--run", "runs/k"]);
    cmd.args(RUN)
        .args([
            "--generations",
            "1000000",
            "--checkpoint-every",
            "7",
            "--set",
            "keep=3",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut launcher = cmd.spawn().expect("mpirun starts");
    let ckpts = dir.path().join("runs/k/checkpoints/rank-1");
    let started = Instant::now();
    while std::fs::read_dir(&ckpts).map_or(0, |d| d.count()) < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no checkpoints"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SIGKILL one rank (a child of mpirun running bebete); mpirun then
    // ends the other.
    let children = std::fs::read_to_string(format!(
        "/proc/{}/task/{}/children",
        launcher.id(),
        launcher.id()
    ))
    .unwrap_or_default();
    let victim = children
        .split_whitespace()
        .last()
        .expect("mpirun has rank processes");
    Command::new("kill").args(["-9", victim]).status().unwrap();
    let finished = launcher.wait_timeout_or_kill();
    assert!(finished, "mpirun did not end after a rank was killed");

    succeeds(mpirun(
        dir.path(),
        &["resume", "runs/k", "--generations", "5", "--quiet"],
    ));
    let rows = stats_without_times(&dir.path().join("runs/k"));
    let generations = (rows.len() - 1) / 2;
    assert!(generations > 5, "{generations}");
    in_process(fresh.path(), "runs/k", &generations.to_string());
    // The resumed run equals an uninterrupted one of the same length.
    assert_eq!(rows, stats_without_times(&fresh.path().join("runs/k")));
    assert_eq!(
        std::fs::read(dir.path().join("runs/k/best.genome")).unwrap(),
        std::fs::read(fresh.path().join("runs/k/best.genome")).unwrap()
    );
}

trait WaitOrKill {
    /// Waits up to a minute; kills it if it is still running then.
    fn wait_timeout_or_kill(&mut self) -> bool;
}

impl WaitOrKill for std::process::Child {
    fn wait_timeout_or_kill(&mut self) -> bool {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            if self.try_wait().ok().flatten().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.kill();
        let _ = self.wait();
        false
    }
}
