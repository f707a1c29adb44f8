//! The island model in one process: reproducible on any thread count, exact
//! on resume, migrating as documented, plotted per island.

use crate::common::{
    bebete, exact_on_threads_and_resume, run_toml_has, same_run, stats_without_times, stdout_of,
};
use bebete_core::evolve::checkpoint::Checkpoint;
use predicates::str::contains;
use std::path::Path;

/// Three islands of tic-tac-toe genomes, migrants every 2 generations.
const ISLANDS: &[&str] = &[
    "--seed",
    "5",
    "--preset",
    "method",
    "--fitness",
    "vs:exhaustive",
    "--population",
    "12",
    "--elite",
    "3",
    "--islands",
    "3",
    "--set",
    "migrate_every=2",
    "--set",
    "migrants=2",
];

fn evolve(dir: &Path, run: &str, extra: &[&str]) {
    bebete(dir)
        .args(["evolve", "--quiet", "--run", run])
        .args(ISLANDS)
        .args(extra)
        .assert()
        .success();
}

#[test]
fn islands_are_the_same_on_any_thread_count_and_after_a_resume() {
    let dirs = exact_on_threads_and_resume(&[&["evolve", "--quiet"][..], ISLANDS].concat(), 6);
    let a = dirs[0].path().join("runs/r");
    // A row per island and generation, the island last; the benchmark on
    // island 0's rows only, every 10 generations and at the run's last.
    let rows = stats_without_times(&a);
    assert!(rows[0].ends_with(",island"), "{}", rows[0]);
    assert_eq!(rows.len(), 1 + 12 * 3);
    for (i, row) in rows[1..].iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[0], (i / 3).to_string(), "{row}");
        assert_eq!(cells.last().unwrap(), &(i % 3).to_string(), "{row}");
        assert_eq!(
            cells[6].is_empty(),
            i % 3 != 0 || ((i / 3) % 10 != 0 && i / 3 != 11),
            "{row}"
        );
    }
    run_toml_has(&a, &["islands = 3", "migrate_every = 2", "migrants = 2"]);
}

#[test]
fn one_island_is_the_run_without_islands() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, extra) in [(&a, &[][..]), (&b, &["--islands", "1"][..])] {
        bebete(dir.path())
            .args(["evolve", "--quiet", "--seed", "5", "--run", "runs/one"])
            .args(["--generations", "10"])
            .args(extra)
            .assert()
            .success();
    }
    same_run(&a.path().join("runs/one"), &b.path().join("runs/one"));
}

#[test]
fn each_island_receives_the_best_of_the_one_before() {
    let dir = tempfile::tempdir().unwrap();
    evolve(
        dir.path(),
        "runs/m",
        &["--generations", "4", "--checkpoint-every", "4"],
    );
    let ckpt = Checkpoint::load(&dir.path().join("runs/m/checkpoints/gen-000004.ckpt")).unwrap();
    let islands = ckpt.population.split(3);
    // Generation 4 was bred after generation 3: a migration (every 2).
    // Island i's elite head moved to the last two places of island i + 1.
    for from in 0..3 {
        let to = &islands[(from + 1) % 3];
        assert_eq!(to.genome(10), islands[from].genome(0), "island {from}");
        assert_eq!(to.genome(11), islands[from].genome(1), "island {from}");
    }
}

#[test]
fn island_settings_are_checked_and_islands_are_plotted() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |extra: &[&str], says: &str| {
        bebete(dir.path())
            .args(["evolve", "--generations", "1"])
            .args(extra)
            .assert()
            .failure()
            .stderr(contains(says));
    };
    refused(&["--islands", "0"], "--islands 0: must be 1-1024");
    refused(
        &["--islands", "2", "--set", "migrants=11"],
        "--set migrants=11: must be 1-10",
    );
    refused(
        &["--islands", "2", "--set", "migrate_every=0"],
        "--set migrate_every=0: must be at least 1",
    );
    refused(
        &[
            "--islands",
            "2",
            "--preset",
            "method",
            "--fitness",
            "vs:hof:4",
        ],
        "does not combine with a hall of fame",
    );
    evolve(dir.path(), "runs/p", &["--generations", "3"]);
    let out = stdout_of(bebete(dir.path()).args(["plot", "runs/p", "--out", "p.svg"]));
    assert!(out.contains("wrote p.svg"));
    let svg = std::fs::read_to_string(dir.path().join("p.svg")).unwrap();
    assert!(
        svg.contains("3 islands") && svg.contains("island=2"),
        "plotted per island"
    );
}
