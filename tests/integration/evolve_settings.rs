//! `evolve`'s settings: benchmarks, fixed opponents, targets, operators,
//! shells and banks, champions' copies, dry runs, help and run names.

use crate::common::{
    bebete, evolve, exact_on_threads_and_resume, refusal_of, run_toml_has, stats_without_times,
    stdout_of,
};
#[test]
fn benchmarks_fill_their_columns_every_k_generations() {
    let dir = tempfile::tempdir().unwrap();
    evolve(
        dir.path(),
        "runs/b",
        &["--game", "ttt"],
        &[
            "--generations",
            "7",
            "--bench-every",
            "3",
            "--bench-against",
            "random,mc:5",
            "--set",
            "bench_games=10",
        ],
    );
    let stats = std::fs::read_to_string(dir.path().join("runs/b/stats.csv")).unwrap();
    let lines: Vec<&str> = stats.lines().collect();
    assert_eq!(
        lines[0],
        "generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s,games,vs_random,vs_mc:5,optimal_rate,unbeatable_first,unbeatable_second"
    );
    for (g, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 14, "{line}");
        let measured = g % 3 == 0;
        assert_eq!(!cells[9].is_empty(), measured, "generation {g}: {line}");
        if measured {
            let share: f64 = cells[9].parse().unwrap();
            assert!((0.0..=1.0).contains(&share));
        }
    }
    // Connect-Four has no audit: its optimal_rate is measured on the
    // held-out positions of the bank.
    evolve(
        dir.path(),
        "runs/c",
        &[
            "--game",
            "c4",
            "--encoder",
            "mirror",
            "--population",
            "6",
            "--elite",
            "2",
        ],
        &["--generations", "2", "--set", "bench_games=4"],
    );
    let header = std::fs::read_to_string(dir.path().join("runs/c/stats.csv")).unwrap();
    assert!(
        header
            .lines()
            .next()
            .unwrap()
            .ends_with("io_s,games,vs_random,vs_rules,optimal_rate"),
        "{header}"
    );
}

#[test]
fn fitness_against_a_fixed_opponent_is_reproducible_and_resumable() {
    let dirs = exact_on_threads_and_resume(
        &[
            "evolve",
            "--quiet",
            "--seed",
            "11",
            "--game",
            "ttt",
            "--preset",
            "method",
            "--fitness",
            "round-robin+random:6",
            "--checkpoint-every",
            "4",
        ],
        6,
    );
    // vs:SPEC:N replaces the round-robin: points are at most 2 per game.
    let whole = &dirs[0];
    evolve(
        whole.path(),
        "runs/v",
        &["--game", "nim"],
        &[
            "--preset",
            "method",
            "--fitness",
            "vs:perfect:10",
            "--generations",
            "3",
        ],
    );
    let stats = stats_without_times(&whole.path().join("runs/v"));
    let best: u32 = stats[1].split(',').nth(1).unwrap().parse().unwrap();
    assert!(best <= 20, "{stats:?}");
}

#[test]
fn targets_stop_the_run_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--seed",
        "2",
        "--run",
        "runs/t",
        "--target",
        "score:random:0",
    ]));
    assert!(
        out.contains("target reached") && out.contains("generation 0"),
        "{out}"
    );
    let rows = std::fs::read_to_string(dir.path().join("runs/t/stats.csv"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(rows, 2, "one generation, then stop");
    assert!(dir.path().join("genomes/t.genome").exists());
    // Matchsticks reaches a perfect champion quickly; then nothing improves.
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--game",
        "nim",
        "--seed",
        "1",
        "--run",
        "runs/p",
        "--preset",
        "method",
        "--fitness",
        "round-robin",
        "--bench-every",
        "1",
        "--set",
        "patience=5",
        "--generations",
        "500",
    ]));
    assert!(
        out.contains("stopped    patience: optimal_rate has not beaten"),
        "{out}"
    );
    for (args, needle) in [
        (
            vec!["--game", "c4", "--target", "unbeatable"],
            "--target unbeatable",
        ),
        (vec!["--target", "score:random:2"], "--target"),
        (
            vec!["--set", "patience=5", "--bench-every", "0"],
            "--set patience",
        ),
        (
            vec!["--preset", "method", "--fitness", "vs:random"],
            "--fitness",
        ),
        (
            vec!["--bench-against", "deep-blue"],
            "unknown player 'deep-blue'",
        ),
    ] {
        let out = bebete(dir.path())
            .arg("evolve")
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn sampled_tournaments_hall_of_fame_and_the_other_operators_are_reproducible() {
    let flags = [
        "evolve",
        "--quiet",
        "--seed",
        "11",
        "--game",
        "c4",
        "--population",
        "8",
        "--elite",
        "2",
        "--preset",
        "method",
        "--fitness",
        "vs:sample:3+hof:4+random:2",
        "--set",
        "crossover=block:961",
        "--set",
        "init=zero",
        "--mutation",
        "0.5",
        "--checkpoint-every",
        "6",
        "--bench-every",
        "0",
    ];
    let dirs = exact_on_threads_and_resume(&flags, 6);
    let run = dirs[0].path().join("runs/r");
    run_toml_has(
        &run,
        &[
            "fitness = \"vs:sample:3+hof:4+random:2\"",
            "init = \"zero\"",
            "crossover = \"block:961\"",
        ],
    );
    // 3 opponents, 2 games each, 4 against the hall of fame (from
    // generation 1, once the champion of generation 0 is in it) and 2
    // against random.
    let stats = stats_without_times(&run);
    for (g, row) in stats[1..].iter().enumerate() {
        let best: u32 = row.split(',').nth(1).unwrap().parse().unwrap();
        assert!(best <= if g == 0 { 16 } else { 24 }, "{row}");
    }
}

#[test]
fn a_shelled_run_is_exact_on_resume_and_its_champion_keeps_the_shell() {
    let flags = [
        "evolve",
        "--quiet",
        "--seed",
        "11",
        "--game",
        "c4",
        "--population",
        "6",
        "--elite",
        "2",
        "--lookahead",
        "2",
        "--preset",
        "method",
        "--fitness",
        "round-robin+rules:2",
        "--checkpoint-every",
        "3",
        "--bench-every",
        "3",
        "--set",
        "bench_games=10",
    ];
    let dirs = exact_on_threads_and_resume(&flags, 3);
    let whole = &dirs[0];
    let toml = std::fs::read_to_string(whole.path().join("runs/r/run.toml")).unwrap();
    assert!(toml.contains("lookahead = 2"), "{toml}");
    let info =
        stdout_of(bebete(whole.path()).args(["genome", "info", "runs/r/best.genome", "--json"]));
    let doc: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(doc["lookahead"], 2);
    // The shell sees the win in column 1 that the genes may not.
    let out = stdout_of(bebete(whole.path()).args([
        "explain",
        "runs/r/best.genome",
        "--position",
        "121212",
        "--json",
    ]));
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["shell"]["move"], "1");
    assert_eq!(doc["shell"]["lookahead"], 2);
    // An exact audit does not see the shell: refused together.
    bebete(whole.path())
        .args(["evolve", "--quiet", "--lookahead", "1", "--run", "runs/x"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--lookahead 1"));
}

#[test]
fn resume_adds_generations_without_shrinking_the_plan_and_hints_only_what_works() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--seed",
        "2",
        "--run",
        "runs/p",
        "--preset",
        "method",
        "--fitness",
        "round-robin",
        "--generations",
        "30",
        "--checkpoint-every",
        "10",
        "--set",
        "keep=3",
    ]));
    assert!(
        out.contains("continue   bebete resume runs/p --generations 100"),
        "{out}"
    );
    // Past the plan, the plan grows to the new end.
    bebete(dir.path())
        .args(["resume", "runs/p", "--generations", "5", "--quiet"])
        .assert()
        .success();
    let toml = || std::fs::read_to_string(dir.path().join("runs/p/run.toml")).unwrap();
    assert!(toml().contains("generations = 35"), "{}", toml());
    // How it ended is recorded, and recorded again after each resume.
    let ended = || std::fs::read_to_string(dir.path().join("runs/p/ended.toml")).unwrap();
    assert_eq!(
        ended(),
        "generation = 34\nreason = \"its plan of 35 generations is done\"\n"
    );
    // Short of the plan (back at generation 20, as after a crash, whose
    // checkpoint planned 30), the plan does not shrink to 25: a plain
    // resume then finishes it.
    let checkpoints = dir.path().join("runs/p/checkpoints");
    for generation in [30, 35] {
        std::fs::remove_file(checkpoints.join(format!("gen-{generation:06}.ckpt"))).unwrap();
    }
    let stats = dir.path().join("runs/p/stats.csv");
    let rows: Vec<String> = std::fs::read_to_string(&stats)
        .unwrap()
        .lines()
        .take(21)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&stats, rows.concat()).unwrap();
    // Short of the plan, the summary's hint finishes it.
    let out = stdout_of(bebete(dir.path()).args(["resume", "runs/p", "--generations", "5"]));
    assert!(
        out.contains("continue   bebete resume runs/p  (the rest of the plan: generations 25-29)"),
        "{out}"
    );
    assert!(toml().contains("generations = 30"), "{}", toml());
    bebete(dir.path())
        .args(["resume", "runs/p", "--quiet"])
        .assert()
        .success();
    assert_eq!(stats_without_times(&dir.path().join("runs/p")).len(), 31);
    // A run stopped by its target prints no hint that would stop at once.
    let out = stdout_of(bebete(dir.path()).args(["evolve", "--seed", "1", "--run", "runs/t"]));
    assert!(out.contains("target reached"), "{out}");
    assert!(!out.contains("continue"), "{out}");
    let ended = std::fs::read_to_string(dir.path().join("runs/t/ended.toml")).unwrap();
    assert!(
        ended.starts_with(
            "generation = 313\nreason = \"target reached: the champion of generation 313 keeps"
        ),
        "{ended}"
    );
}

#[test]
fn a_run_outside_the_project_runs_keeps_its_plot_and_champion() {
    let (project, elsewhere) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let run = elsewhere.path().join("r2");
    let out = stdout_of(bebete(project.path()).args([
        "evolve",
        "--seed",
        "3",
        "--generations",
        "50",
        "--run",
        run.to_str().unwrap(),
    ]));
    assert!(run.join("r2.png").is_file(), "{out}");
    assert!(
        out.contains(&format!("plot       {}", run.join("r2.png").display())),
        "{out}"
    );
    assert!(!project.path().join("genomes").exists());
    assert!(!project.path().join("plots").exists());
}

#[test]
fn bank_learning_is_reproducible_on_any_thread_count_and_resumes_exactly() {
    let dirs = exact_on_threads_and_resume(
        &[
            "evolve",
            "--quiet",
            "--seed",
            "11",
            "--game",
            "c4",
            "--population",
            "8",
            "--elite",
            "2",
            "--preset",
            "method",
            "--fitness",
            "round-robin+bank",
            "--bench-every",
            "2",
            "--set",
            "bench_games=4",
        ],
        3,
    );
    let a = dirs[0].path().join("runs/r");
    run_toml_has(
        &a,
        &["fitness = \"round-robin+bank\"", "bank = \"builtin\""],
    );
    // The held-out rate is measured, and the bank term dominates the
    // points (1,000,000 × a share), so the champion's rate is plausible.
    let rows = stats_without_times(&a);
    assert!(rows[0].ends_with(",optimal_rate"), "{}", rows[0]);
    let rate: f64 = rows[1].rsplit(',').next().unwrap().parse().unwrap();
    assert!((0.5..1.0).contains(&rate), "{rate}");
}

/// A run stopped by its target is finished: resuming it changes nothing
/// and says so; `--generations N` runs exactly N more. The result that
/// stopped it is on the last row of `stats.csv` (and so on the plot).
#[test]
fn a_run_that_met_its_target_is_finished_and_its_last_row_has_the_benchmark() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args(["evolve", "--seed", "1", "--run", "runs/t"]));
    assert!(out.contains("target reached"), "{out}");
    let run = dir.path().join("runs/t");
    let read = |name: &str| std::fs::read(run.join(name)).unwrap();
    let (stats, toml) = (read("stats.csv"), read("run.toml"));
    let rows = stats_without_times(&run);
    let last = rows.last().unwrap();
    let generation = last.split(',').next().unwrap().to_string();
    assert!(
        !generation.ends_with('0'),
        "a generation where the benchmark was due anyway: {last}"
    );
    // Every benchmark column of the last row is filled, and the summary
    // printed those values.
    let header: Vec<&str> = rows[0].split(',').collect();
    let at = header.iter().position(|c| *c == "optimal_rate").unwrap();
    let cells: Vec<&str> = last.split(',').collect();
    assert_eq!(cells[at], "1.0000", "{last}");
    assert!(
        out.contains(&format!("(the final champion, generation {generation})")),
        "{out}"
    );
    let out = stdout_of(bebete(dir.path()).args(["resume", "runs/t"]));
    assert!(
        out.contains("runs/t is finished: target reached") && out.contains("Nothing was changed"),
        "{out}"
    );
    assert_eq!(read("stats.csv"), stats);
    assert_eq!(read("run.toml"), toml);
    let out = stdout_of(bebete(dir.path()).args(["resume", "runs/t", "--generations", "2"]));
    assert!(out.contains("without the stop rule"), "{out}");
    let after = stats_without_times(&run);
    assert_eq!(after.len(), rows.len() + 2, "{out}");
    // The earlier end's benchmark is off its row again, as in a run that
    // never stopped there; the new last row has it.
    assert_eq!(after[rows.len() - 1].split(',').nth(at), Some(""));
    assert_ne!(after.last().unwrap().split(',').nth(at), Some(""));
}

/// Unbeatable in a game lost from the start for one side: the summary says
/// which side, and why the other's column stays 0.
#[test]
fn unbeatable_in_a_game_lost_for_one_side_names_the_side() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "evolve", "--game", "nim", "--rule", "double", "--sticks", "100", "--seed", "3", "--run",
        "runs/fib",
    ]));
    assert!(
        out.contains("(unbeatable); it cannot lose as the first player, and the second player loses from the start against perfect play, so unbeatable_second stays 0"),
        "{out}"
    );
}

/// `--generations 0` is refused before anything is written; a population
/// too small for the default elite takes an elite that fits instead of a
/// refusal naming a flag the user never gave; an `--elite` given is still
/// held to its range.
#[test]
fn flags_that_cannot_make_a_run_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = refusal_of(bebete(dir.path()).args(["evolve", "--generations", "0"]));
    assert!(
        stderr.contains("--generations 0: must be at least 1"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("runs").exists(),
        "a refused run left files"
    );

    bebete(dir.path())
        .args(["evolve", "--population", "2", "--generations", "2"])
        .args(["--quiet", "--seed", "1", "--run", "runs/two"])
        .assert()
        .success();
    run_toml_has(&dir.path().join("runs/two"), &["elite = 1", "parents = 1"]);

    let stderr =
        refusal_of(bebete(dir.path()).args(["evolve", "--population", "2", "--elite", "5"]));
    assert!(stderr.contains("--elite 5: must be 1-1"), "{stderr}");
}

/// `--dry-run` checks the settings as a run does, prints the plan and the
/// run.toml, and writes nothing; a refused setting is refused the same.
#[test]
fn a_dry_run_checks_and_prints_the_plan_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--game",
        "c4",
        "--islands",
        "2",
        "--seed",
        "3",
        "--dry-run",
    ]));
    assert!(
        out.starts_with("would evolve connect4 (value genome, 70×8 tuples): 2 islands of population 2, 60 generations, seed 3, run runs/connect4-3\n"),
        "{out}"
    );
    // The migrants' default follows the value genome's elite of 1.
    for line in [
        "seed = 3",
        "islands = 2",
        "migrants = 1",
        "self_play = 25000",
    ] {
        assert!(out.lines().any(|l| l == line), "{line} missing:\n{out}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a dry run wrote"
    );
    let refused = refusal_of(bebete(dir.path()).args([
        "evolve",
        "--game",
        "c4",
        "--islands",
        "2",
        "--set",
        "migrants=2",
        "--dry-run",
    ]));
    assert!(
        refused.contains("--set migrants=2: must be 1-1"),
        "{refused}"
    );
    let refused = refusal_of(bebete(dir.path()).args([
        "evolve",
        "--game",
        "c4",
        "--preset",
        "method",
        "--fitness",
        "vs:genomes/none.genome:10",
        "--dry-run",
    ]));
    assert!(refused.contains("none.genome"), "{refused}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `evolve --help` lists each game's defaults from the settings a run
/// uses: every row of its table is what a default run of that game and
/// encoder records in its run.toml (read from a dry run).
#[test]
fn evolve_help_lists_the_defaults_a_default_run_records() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout_of(bebete(dir.path()).args(["evolve", "--help"]));
    let table = &help[help
        .find("Defaults per game and encoder")
        .expect("the defaults table")..];
    let lines: Vec<&str> = table.lines().collect();
    let mut rows = 0;
    for pair in lines.windows(2) {
        let game: Vec<&str> = pair[0].split_whitespace().collect();
        let flags: Vec<&str> = pair[1].split_whitespace().collect();
        if game.first() != Some(&"--game") || flags.first() != Some(&"--population") {
            continue;
        }
        let out = stdout_of(bebete(dir.path()).arg("evolve").args(&game).args([
            "--seed",
            "1",
            "--dry-run",
        ]));
        let recorded: std::collections::HashMap<&str, &str> = out
            .lines()
            .filter_map(|l| l.split_once(" = "))
            .map(|(k, v)| (k, v.trim_matches('"')))
            .collect();
        // A list (`bench_against = ["random", "rules"]`) as its flag
        // writes it (`random,rules`).
        let as_flag = |v: &str| v.trim_matches(['[', ']']).replace(['"', ' '], "");
        for flag in flags.chunks(2) {
            // `--set KEY=VALUE` as the flag it stands for.
            let (key, value) = match flag[1].split_once('=') {
                Some((key, value)) if flag[0] == "--set" => (key.to_string(), value),
                _ => (flag[0].trim_start_matches("--").replace('-', "_"), flag[1]),
            };
            assert_eq!(
                recorded.get(key.as_str()).map(|v| as_flag(v)),
                Some(value.to_string()),
                "{}: --help says {} {}; run.toml:\n{out}",
                pair[0].trim(),
                flag[0],
                flag[1]
            );
        }
        rows += 1;
    }
    assert!(rows >= 5, "{rows} rows in:\n{table}");
}

/// `evolve -h` fits one screen, its flags grouped under headings; `--help`
/// keeps the details, the examples and the defaults.
#[test]
fn evolve_short_help_fits_a_screen_under_headings() {
    let dir = tempfile::tempdir().unwrap();
    let short = stdout_of(bebete(dir.path()).args(["evolve", "-h"]));
    assert!(
        short.lines().count() <= 60,
        "{} lines:\n{short}",
        short.lines().count()
    );
    for heading in [
        "Game:",
        "Run:",
        "Population:",
        "Fitness:",
        "Learning:",
        "Benchmark and stopping:",
        "Output:",
    ] {
        assert!(
            short.lines().any(|l| l == heading),
            "{heading} missing:\n{short}"
        );
    }
    let long = stdout_of(bebete(dir.path()).args(["evolve", "--help"]));
    assert!(
        long.contains("Examples:") && long.contains("--preset method"),
        "{long}"
    );
}

/// The preset is explicit: `--fitness` alone changes the fitness and
/// nothing else (no silent switch to the method's defaults), `--preset
/// method` gives the method's, and run.toml names the preset.
#[test]
fn a_preset_is_named_and_fitness_switches_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let plan = |extra: &[&str]| {
        stdout_of(
            bebete(dir.path())
                .args(["evolve", "--game", "c4", "--seed", "1", "--dry-run"])
                .args(extra),
        )
    };
    let fitness_only = plan(&["--fitness", "vs:random:5"]);
    assert!(
        fitness_only.contains("preset = \"recommended\""),
        "{fitness_only}"
    );
    assert!(
        fitness_only.contains("encoder = \"ntuple\""),
        "{fitness_only}"
    );
    assert!(
        fitness_only.contains("fitness = \"vs:random:5\""),
        "{fitness_only}"
    );
    let method = plan(&["--preset", "method"]);
    assert!(method.contains("preset = \"method\""), "{method}");
    assert!(method.contains("encoder = \"subgrid\""), "{method}");
    assert!(method.contains("fitness = \"round-robin\""), "{method}");
    let refused = refusal_of(bebete(dir.path()).args(["evolve", "--preset", "best"]));
    assert!(
        refused.contains("--preset") && refused.contains("recommended or method"),
        "{refused}"
    );
}

/// A run's default directory names the rules when they are not the game's
/// default, so that runs of one game under other rules keep apart.
#[test]
fn default_run_names_say_the_rules_that_differ() {
    let dir = tempfile::tempdir().unwrap();
    for (args, run) in [
        (&["--game", "nim", "--seed", "1"][..], "runs/matchsticks-1"),
        (
            &[
                "--game", "nim", "--rule", "double", "--sticks", "100", "--seed", "1",
            ][..],
            "runs/matchsticks-double-100-1",
        ),
        (&["--seed", "4"][..], "runs/tictactoe-4"),
    ] {
        let out = crate::common::stdout_of(
            crate::common::bebete(dir.path())
                .arg("evolve")
                .args(args)
                .arg("--dry-run"),
        );
        let first = out.lines().next().unwrap_or_default();
        assert!(first.ends_with(&format!("run {run}")), "{args:?}: {first}");
    }
}

/// A dry run without `--seed` says that its seed was drawn for the plan
/// alone, and how to run the plan as shown; with `--seed` it says nothing.
#[test]
fn a_dry_run_without_a_seed_says_how_to_run_it_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::common::bebete(dir.path())
        .args(["evolve", "--dry-run"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let seed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("seed = "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        stderr.contains(&format!("add --seed {seed} to run this plan as shown")),
        "{stderr}"
    );
    let out = crate::common::bebete(dir.path())
        .args(["evolve", "--dry-run", "--seed", "3"])
        .assert()
        .success();
    assert!(out.get_output().stderr.is_empty());
}

/// Every setting `run.toml` writes is set by its name alone: `--set
/// KEY=VALUE` with the value as `run.toml` writes it gives the same
/// `run.toml` (no flag, no code of its own in the command line), and a name
/// that is no setting is refused with the settings listed.
#[test]
fn every_setting_is_set_by_its_name_alone() {
    let dir = tempfile::tempdir().unwrap();
    let dry = |extra: &[String]| {
        let out = bebete(dir.path())
            .args([
                "evolve",
                "--game",
                "c4",
                "--encoder",
                "ntuple",
                "--seed",
                "3",
            ])
            .args(["--threads", "1", "--dry-run", "--run", "runs/s"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let toml = text[text.find("bebete_version").unwrap()..].to_string();
        toml.parse::<toml::Table>().unwrap()
    };
    let written = dry(&[]);
    let own = [
        "bebete_version",
        "threads",
        "game",
        "encoder",
        "tuples",
        "tuple_length",
        "preset",
    ];
    let mut settings = 0;
    for (key, value) in &written {
        if own.contains(&key.as_str()) {
            continue;
        }
        let words = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
                .join(","),
            other => other.to_string(),
        };
        assert_eq!(
            dry(&["--set".into(), format!("{key}={words}")]),
            written,
            "{key}"
        );
        settings += 1;
    }
    assert!(settings >= 22, "{settings} settings in {written:?}");
    let refused =
        refusal_of(bebete(dir.path()).args(["evolve", "--dry-run", "--set", "elitism=3"]));
    assert!(
        refused.contains("--set elitism: no such setting; the settings are bank, bench_against"),
        "{refused}"
    );
}
