//! `evolve` and `resume`: reproducible on any thread count, exact on resume,
//! and robust to interruption.

use crate::common::{bebete, evolve, run_toml_has, same_run, stats_without_times, stdout_of};
use std::path::Path;

const GAMES: [&[&str]; 3] = [
    &["--game", "ttt"],
    &["--game", "nim", "--rule", "double", "--sticks", "30"],
    &[
        "--game",
        "c4",
        "--encoder",
        "mirror",
        "--population",
        "16",
        "--elite",
        "4",
    ],
];

#[test]
fn one_thread_and_two_threads_give_the_same_run() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (g, game) in GAMES.iter().enumerate() {
        let run = format!("runs/game-{g}");
        evolve(
            one.path(),
            &run,
            game,
            &["--generations", "8", "--threads", "1"],
        );
        evolve(
            two.path(),
            &run,
            game,
            &["--generations", "8", "--threads", "2"],
        );
        same_run(&one.path().join(&run), &two.path().join(&run));
    }
    // The sub-grid genome's recommended settings (`--encoder mirror`):
    // games, the mirror encoder and zero weights.
    run_toml_has(
        &one.path().join("runs/game-2"),
        &[
            "encoder = \"mirror\"",
            "fitness = \"vs:random:10+rules:20+alphabeta:2:6\"",
            "init = \"zero\"",
            "bench_every = 100",
        ],
    );
}

#[test]
fn twenty_generations_equal_ten_plus_resume_ten() {
    let (whole, split) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (g, game) in GAMES.iter().enumerate() {
        let run = format!("runs/game-{g}");
        evolve(
            whole.path(),
            &run,
            game,
            &["--generations", "20", "--checkpoint-every", "5"],
        );
        evolve(
            split.path(),
            &run,
            game,
            &["--generations", "10", "--checkpoint-every", "5"],
        );
        bebete(split.path())
            .args(["resume", &run, "--generations", "10", "--quiet"])
            .assert()
            .success();
        same_run(&whole.path().join(&run), &split.path().join(&run));
        assert_eq!(stats_without_times(&whole.path().join(&run)).len(), 21);
    }
}

#[test]
fn a_run_cut_short_resumes_from_its_last_good_checkpoint() {
    let (whole, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let flags = [
        "--generations",
        "30",
        "--checkpoint-every",
        "5",
        "--set",
        "keep=10",
    ];
    evolve(whole.path(), "runs/cut", &[], &flags);
    evolve(dir.path(), "runs/cut", &[], &flags);
    let cut = dir.path().join("runs/cut");
    // As if the process died while writing gen 30 and after logging rows
    // beyond gen 25: the newest checkpoint is garbage, stats run ahead.
    let newest = cut.join("checkpoints/gen-000030.ckpt");
    let bytes = std::fs::read(&newest).unwrap();
    std::fs::write(&newest, &bytes[..bytes.len() / 3]).unwrap();
    std::fs::write(cut.join("best.genome"), b"half-written").unwrap();
    let out = bebete(dir.path())
        .args(["resume", "runs/cut", "--quiet"])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("gen-000030.ckpt: truncated")
            && stderr.contains("set aside as")
            && stderr.contains("stats.csv records generations 25-29"),
        "{stderr}"
    );
    assert!(cut.join("checkpoints/gen-000030.ckpt.refused").is_file());
    same_run(&whole.path().join("runs/cut"), &cut);
}

/// A damaged newest checkpoint costs nothing: `resume --generations N`
/// runs the generations since the last good one again (a run is
/// deterministic) and then N more, exactly as an undamaged run would. While
/// it runs them again it writes as a live run does (each row as its
/// generation ends, the champion at each checkpoint): stopped in the
/// middle, its files are the undamaged run's at that generation.
#[cfg(unix)]
#[test]
fn a_damaged_newest_checkpoint_loses_no_generation_and_no_result() {
    let (whole, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Round-robin fitness: no target, so every generation runs.
    let flags = [
        "--preset",
        "method",
        "--fitness",
        "round-robin",
        "--generations",
        "1500",
        "--checkpoint-every",
        "500",
    ];
    evolve(whole.path(), "runs/d", &[], &flags);
    bebete(whole.path())
        .args(["resume", "runs/d", "--generations", "10", "--quiet"])
        .assert()
        .success();
    evolve(dir.path(), "runs/d", &[], &flags);
    let run = dir.path().join("runs/d");
    let newest = run.join("checkpoints/gen-001500.ckpt");
    let bytes = std::fs::read(&newest).unwrap();
    std::fs::write(&newest, &bytes[..bytes.len() / 2]).unwrap();
    // Stopped while it runs generations 1000-1499 again.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .current_dir(dir.path())
        .args(["resume", "runs/d", "--generations", "10"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let said = crate::common::read_until(
        child.stdout.as_mut().unwrap(),
        "\n",
        "the resume's first line",
    );
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        said.contains("resuming runs/d: generations 1000-1509"),
        "{said}"
    );
    assert!(
        stderr.contains("gen-001500.ckpt: truncated")
            && stderr.contains("set aside as")
            && stderr.contains(
                "stats.csv records generations 1000-1499 past the checkpoint of generation 1000"
            ),
        "{stderr}"
    );
    let at = stderr
        .split("stopped after generation ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("not stopped: {stderr}"));
    assert!(at < 1499, "the second run was not interrupted: {stderr}");
    // Its rows so far (the header, then generations 0 to `at`) are the
    // undamaged run's.
    let (rows, whole_rows) = (
        stats_without_times(&run),
        stats_without_times(&whole.path().join("runs/d")),
    );
    assert_eq!(rows.len() as u64, at + 2);
    assert_eq!(rows[..], whole_rows[..rows.len()]);
    // Resumed again as the stop message says (the plan grew to 1510):
    // the run that was never damaged.
    assert!(
        stderr.contains("continue with: bebete resume runs/d"),
        "{stderr}"
    );
    bebete(dir.path())
        .args(["resume", "runs/d", "--quiet"])
        .assert()
        .success();
    same_run(&whole.path().join("runs/d"), &run);
    assert_eq!(
        std::fs::read(whole.path().join("runs/d/ended.toml")).unwrap(),
        std::fs::read(run.join("ended.toml")).unwrap()
    );
    assert_eq!(stats_without_times(&run).len(), 1511);
}

/// A file under `checkpoints/` that is not this run's (random bytes
/// numbered past the run's end, a copy of its own checkpoint under a later
/// number, another seed's checkpoint) is set aside with a warning naming
/// it, and never counts for how far the run had got: the run stays the
/// one it was, its plan and champion unchanged.
#[test]
fn a_stray_or_foreign_checkpoint_is_refused_never_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "--generations",
        "20",
        "--checkpoint-every",
        "1",
        "--preset",
        "method",
        "--fitness",
        "round-robin",
    ];
    evolve(dir.path(), "runs/r", &[], &flags);
    bebete(dir.path())
        .args(["evolve", "--quiet", "--seed", "99", "--run", "runs/other"])
        .args([
            "--generations",
            "25",
            "--checkpoint-every",
            "1",
            "--preset",
            "method",
            "--fitness",
            "round-robin",
        ])
        .assert()
        .success();
    let run = dir.path().join("runs/r");
    let ckpts = run.join("checkpoints");
    let (toml, best) = (
        std::fs::read(run.join("run.toml")).unwrap(),
        std::fs::read(run.join("best.genome")).unwrap(),
    );
    let strays = [
        (
            "gen-000900.ckpt",
            vec![7u8; 1000],
            "not a bebete checkpoint",
        ),
        (
            "gen-000800.ckpt",
            std::fs::read(ckpts.join("gen-000020.ckpt")).unwrap(),
            "it holds generation 20, not the 800 its name says",
        ),
        (
            "gen-000025.ckpt",
            std::fs::read(dir.path().join("runs/other/checkpoints/gen-000025.ckpt")).unwrap(),
            "another run's (tictactoe seed 99), where run.toml records tictactoe seed",
        ),
    ];
    for (name, bytes, _) in &strays {
        std::fs::write(ckpts.join(name), bytes).unwrap();
    }
    let out = bebete(dir.path())
        .args(["resume", "runs/r"])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    for (name, _, why) in &strays {
        assert!(
            stderr.contains(&format!("{name}: {why}")),
            "{name}: {stderr}"
        );
        assert!(ckpts.join(format!("{name}.refused")).is_file());
    }
    assert!(
        stdout.contains("has run its 20 planned generations"),
        "{stdout}"
    );
    assert_eq!(std::fs::read(run.join("run.toml")).unwrap(), toml);
    assert_eq!(std::fs::read(run.join("best.genome")).unwrap(), best);
}

/// Before 1.0 a run is resumed by the version that wrote it: a checkpoint
/// of an older format (`tests/fixtures/v7fix`, written by the build of
/// format 7) is refused in one line saying what to do, left where it is,
/// and the run's champion stays readable.
#[test]
fn an_older_checkpoint_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v7fix");
    let run = dir.path().join("v7fix");
    std::fs::create_dir_all(run.join("checkpoints")).unwrap();
    for file in [
        "run.toml",
        "stats.csv",
        "best.genome",
        "checkpoints/gen-000003.ckpt",
    ] {
        std::fs::copy(fixture.join(file), run.join(file)).unwrap();
    }
    let out = bebete(dir.path())
        .args(["resume", "v7fix", "--generations", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("v7fix/checkpoints/gen-000003.ckpt: a checkpoint of format 7, written by an older bebete")
            && stderr.contains("best.genome stays readable"),
        "{stderr}"
    );
    assert!(run.join("checkpoints/gen-000003.ckpt").is_file());
    bebete(dir.path())
        .args(["genome", "info", "v7fix/best.genome"])
        .assert()
        .success();
}

/// `evolve` into a folder that holds checkpoints but no `run.toml` (a run
/// killed as it started, or one whose run.toml was deleted) is refused with
/// the way out, and the folder is left as it was.
#[test]
fn evolve_refuses_a_folder_with_checkpoints_and_no_run_toml() {
    let dir = tempfile::tempdir().unwrap();
    evolve(
        dir.path(),
        "runs/k",
        &[],
        &["--generations", "5", "--checkpoint-every", "1"],
    );
    let run = dir.path().join("runs/k");
    std::fs::remove_file(run.join("run.toml")).unwrap();
    let before: Vec<_> = std::fs::read_dir(run.join("checkpoints"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let out = bebete(dir.path())
        .args([
            "evolve",
            "--seed",
            "99",
            "--generations",
            "5",
            "--run",
            "runs/k",
            "-q",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("holds checkpoints of a run but no run.toml")
            && stderr.contains("bebete resume runs/k"),
        "{stderr}"
    );
    let after: Vec<_> = std::fs::read_dir(run.join("checkpoints"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after);
    // The way out works: resume writes run.toml anew as it runs.
    bebete(dir.path())
        .args(["resume", "runs/k", "--generations", "1", "-q"])
        .assert()
        .success();
    assert!(run.join("run.toml").is_file());
}

/// An edit to run.toml is not silently undone: resume names the edited
/// settings, says the run's own are kept (they are its checkpoints') and
/// how to run others, then writes the run's own back.
#[test]
fn resume_names_the_settings_edited_in_run_toml() {
    let dir = tempfile::tempdir().unwrap();
    evolve(
        dir.path(),
        "runs/e",
        &[],
        &["--generations", "3", "--checkpoint-every", "1"],
    );
    let toml = dir.path().join("runs/e/run.toml");
    let original = std::fs::read_to_string(&toml).unwrap();
    assert!(original.contains("population = 100"), "{original}");
    std::fs::write(
        &toml,
        original.replace("population = 100", "population = 50"),
    )
    .unwrap();
    let out = bebete(dir.path())
        .args(["resume", "runs/e", "--generations", "1", "-q"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("run.toml was edited (population = 50)")
            && stderr.contains("bebete evolve"),
        "{stderr}"
    );
    let rewritten = std::fs::read_to_string(&toml).unwrap();
    assert!(rewritten.contains("population = 100"), "{rewritten}");
    // Nothing edited, nothing said.
    let out = bebete(dir.path())
        .args(["resume", "runs/e", "--generations", "1", "-q"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("edited"));
}

/// Bytes under `path`, every file counted.
fn bytes_under(path: &Path) -> u64 {
    if path.is_file() {
        return std::fs::metadata(path).unwrap().len();
    }
    std::fs::read_dir(path)
        .unwrap()
        .map(|e| bytes_under(&e.unwrap().path()))
        .sum()
}

/// A Connect-Four value run keeps little on disk (its checkpoints are
/// compressed: 2 genomes of 18.4 MB each), and its summary says how much
/// it wrote. (Fewer self-play games than the recommended 25,000 a
/// generation, to be quick: the files have the same sizes raw.)
#[test]
fn a_connect4_value_run_keeps_little_on_disk_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--game",
        "c4",
        "--encoder",
        "ntuple",
        "--generations",
        "6",
        "--self-play",
        "300",
        "--seed",
        "1",
        "--run",
        "runs/v",
    ]));
    let run = dir.path().join("runs/v");
    let written = bytes_under(&run);
    let kept = written + bytes_under(&dir.path().join("genomes/v.genome"));
    assert!(kept <= 60_000_000, "{kept} bytes kept");
    for (_, ckpt) in [5, 6].map(|g| (g, run.join(format!("checkpoints/gen-{g:06}.ckpt")))) {
        let size = bytes_under(&ckpt);
        assert!(size < 36_700_000 / 5, "{}: {size} bytes", ckpt.display());
    }
    let said = format!(
        "run        runs/v  ({}: run.toml, stats.csv, best.genome and 2 checkpoints)",
        bebete::store::size_in_words(written)
    );
    assert!(out.contains(&said), "{said}\n{out}");
}

#[test]
fn the_run_directory_holds_what_the_design_promises() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--seed",
        "3",
        "--generations",
        "12",
        "--checkpoint-every",
        "4",
    ]));
    assert!(out.contains("champion"), "{out}");
    let run = dir.path().join("runs/tictactoe-3");
    let toml = std::fs::read_to_string(run.join("run.toml")).unwrap();
    for key in [
        "game = \"tictactoe\"",
        "seed = 3",
        "population = 100",
        "elite = 10",
        "encoder = \"symmetric\"",
        "mutation = \"0.0005..0.02\"",
        "fitness = \"vs:exhaustive\"",
        "target = \"unbeatable\"",
        "generations = 12",
    ] {
        assert!(toml.contains(key), "run.toml lacks {key}:\n{toml}");
    }
    let stats = std::fs::read_to_string(run.join("stats.csv")).unwrap();
    assert!(
        stats.starts_with("generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s,games,vs_random,vs_rules,optimal_rate,unbeatable_first,unbeatable_second\n")
    );
    assert_eq!(stats.lines().count(), 13);
    // Keep 2: gen 8 and gen 12 remain.
    let mut ckpts: Vec<String> = std::fs::read_dir(run.join("checkpoints"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    ckpts.sort();
    assert_eq!(ckpts, ["gen-000008.ckpt", "gen-000012.ckpt"]);
    assert_eq!(
        std::fs::read(run.join("best.genome")).unwrap(),
        std::fs::read(dir.path().join("genomes/tictactoe-3.genome")).unwrap()
    );
    let info = stdout_of(bebete(dir.path()).args(["genome", "info", "genomes/tictactoe-3.genome"]));
    assert!(
        info.contains("tictactoe-3") && info.contains("generation  11"),
        "{info}"
    );
}

#[test]
fn the_recommended_settings_evolve_an_unbeatable_tictactoe_genome() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args(["evolve", "--seed", "1", "--run", "runs/u"]));
    assert!(out.contains("target reached"), "{out}");
    let audit: serde_json::Value = serde_json::from_str(&stdout_of(bebete(dir.path()).args([
        "audit",
        "genomes/u.genome",
        "--json",
    ])))
    .unwrap();
    assert_eq!(audit["unbeatable_first"], true, "{audit}");
    assert_eq!(audit["unbeatable_second"], true, "{audit}");
    assert_eq!(audit["losing_lines"], 0);
    // The plain method is one flag away and records what it used.
    evolve(
        dir.path(),
        "runs/plain",
        &[],
        &[
            "--preset",
            "method",
            "--fitness",
            "round-robin",
            "--generations",
            "3",
        ],
    );
    run_toml_has(
        &dir.path().join("runs/plain"),
        &[
            "encoder = \"base3\"",
            "mutation = 0.001",
            "fitness = \"round-robin\"",
        ],
    );
}

#[test]
fn matchsticks_evolve_to_perfect_play_under_both_rule_sets() {
    let dir = tempfile::tempdir().unwrap();
    for (run, rules) in [
        ("runs/subtract", vec!["--game", "nim"]),
        (
            "runs/double",
            vec!["--game", "nim", "--rule", "double", "--sticks", "40"],
        ),
    ] {
        let out = stdout_of(
            bebete(dir.path())
                .args(["evolve", "--seed", "3", "--run", run])
                .args(&rules),
        );
        assert!(out.contains("target reached"), "{out}");
        let genome = format!("{run}/best.genome");
        let audit: serde_json::Value = serde_json::from_str(&stdout_of(
            bebete(dir.path()).args(["audit", &genome, "--json"]),
        ))
        .unwrap();
        assert_eq!(audit["optimal_rate"], 1.0, "{run}: {audit}");
    }
}

#[test]
fn bad_evolve_flags_name_the_flag_and_the_range() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (vec!["--elite", "100"], "--elite 100: must be 1-99"),
        (vec!["--parents", "20"], "--parents 20"),
        (
            vec!["--mutation", "2"],
            "'--mutation <MUTATION>': '2' must be a probability, 0-1",
        ),
        (vec!["--population", "1"], "--population 1"),
        (vec!["--set", "selection=roulette"], "--set selection"),
        (vec!["--threads", "0"], "--threads"),
    ] {
        let out = bebete(dir.path())
            .arg("evolve")
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    evolve(dir.path(), "runs/x", &[], &["--generations", "2"]);
    let out = bebete(dir.path())
        .args(["evolve", "--run", "runs/x"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("already holds a run"));
    let out = bebete(dir.path())
        .args(["resume", "runs/nothing"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("no such run directory"));
    std::fs::create_dir(dir.path().join("runs/empty")).unwrap();
    let out = bebete(dir.path())
        .args(["resume", "runs/empty"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("no checkpoints"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_sigterm_and_sighup_write_a_checkpoint_and_exit_128_plus_the_signal() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = tempfile::tempdir().unwrap();
        // The method's fitness: no target, so the run only ends when stopped.
        let child = crate::common::spawn(
            dir.path(),
            &[
                "evolve",
                "--seed",
                "4",
                "--run",
                "runs/int",
                "--preset",
                "method",
                "--fitness",
                "round-robin",
                "--generations",
                "100000000",
                "--checkpoint-every",
                "1000000",
            ],
        );
        // Wait until the first generations are logged, then interrupt.
        let stats = dir.path().join("runs/int/stats.csv");
        crate::common::wait_until("4 logged generations", || {
            std::fs::read_to_string(&stats).map_or(0, |s| s.lines().count()) >= 5
        });
        // Between checkpoints a generation writes its stats line only: the
        // champion comes with the next checkpoint (here: the stop's).
        let best = dir.path().join("runs/int/best.genome");
        assert!(!best.exists(), "best.genome written between checkpoints");
        std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "SIG{signal}");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(stderr.contains("bebete resume runs/int"), "{stderr}");
        let rows = std::fs::read_to_string(&stats).unwrap().lines().count() as u64 - 1;
        let ckpt = dir
            .path()
            .join(format!("runs/int/checkpoints/gen-{rows:06}.ckpt"));
        assert!(ckpt.exists(), "no checkpoint after {rows} generations");
        assert!(best.exists(), "no champion with the stop's checkpoint");
        // The message names the last generation in stats.csv.
        assert!(
            stderr.contains(&format!("stopped after generation {}", rows - 1)),
            "{stderr}"
        );
        bebete(dir.path())
            .args(["resume", "runs/int", "--generations", "2", "--quiet"])
            .assert()
            .success();
    }
}

/// A run named like a shipped genome leaves that genome alone; a run's own
/// earlier copy is refreshed.
#[test]
fn a_runs_champion_copy_never_overwrites_another_genome() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_shipped_genomes(dir.path(), &["tictactoe.genome"]);
    let genomes = dir.path().join("genomes");
    let before = std::fs::read(genomes.join("tictactoe.genome")).unwrap();
    let assert = bebete(dir.path())
        .args(["evolve", "--generations", "2", "--run", "runs/tictactoe"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains("genomes/tictactoe.genome is another genome, not this run's champion"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(genomes.join("tictactoe.genome")).unwrap(),
        before
    );
    // The shipped genome's own command reproduces it, and says so.
    let fresh = tempfile::tempdir().unwrap();
    crate::common::copy_shipped_genomes(fresh.path(), &["tictactoe.genome"]);
    let assert = bebete(fresh.path())
        .args(["evolve", "--seed", "1", "--run", "runs/tictactoe"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains("genomes/tictactoe.genome already holds this run's champion, byte for byte"),
        "{err}"
    );
    assert!(!err.contains("another genome"), "{err}");
    // The run's own copy is its to refresh.
    bebete(dir.path())
        .args([
            "evolve",
            "--generations",
            "2",
            "--run",
            "runs/mine",
            "--quiet",
        ])
        .assert()
        .success();
    let first = std::fs::read(genomes.join("mine.genome")).unwrap();
    bebete(dir.path())
        .args(["resume", "runs/mine", "--generations", "2", "--quiet"])
        .assert()
        .success();
    assert_ne!(std::fs::read(genomes.join("mine.genome")).unwrap(), first);
}
