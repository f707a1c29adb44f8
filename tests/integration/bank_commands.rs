//! `bebete bank`: building, describing, refusing, and finishing a bank
//! after a kill.

use crate::common::{bebete, refusal_of, spawn, stdout_of, wait_until};
use bebete_core::bank::BankFile;
use predicates::str::contains;

/// A bank quick to label: late positions only.
const SMALL: [&str; 8] = [
    "bank",
    "--game",
    "c4",
    "--positions",
    "400",
    "--min-stones",
    "18",
    "--quiet",
];

#[test]
fn a_bank_is_built_described_and_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args(SMALL).args(["--out", "b.bank"]));
    assert!(out.contains("b.bank: 400 positions ("), "{out}");
    assert!(out.contains("labelling speed"), "{out}");
    let bank = BankFile::load(&dir.path().join("b.bank")).unwrap();
    assert_eq!(bank.entries.len(), 400);
    assert!(bank.entries.iter().all(|e| e.pos.moves >= 18));
    let split = bank.split().unwrap();
    assert!(!split.held_out.is_empty() && split.train.len() > split.held_out.len());
    let info = stdout_of(bebete(dir.path()).args(["bank", "--info", "b.bank"]));
    assert!(info.contains("400 labelled of 400 gathered"), "{info}");
    assert!(info.contains("at least 18"), "{info}");
    bebete(dir.path())
        .args(SMALL)
        .args(["--out", "b.bank"])
        .assert()
        .failure()
        .stderr(contains("already a complete bank of 400 positions"));
}

#[test]
fn bad_requests_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str], says: &str| {
        bebete(dir.path())
            .args(args)
            .assert()
            .failure()
            .stderr(contains(says));
    };
    refused(
        &["bank", "--game", "ttt", "--out", "x.bank"],
        "solved whole",
    );
    refused(&["bank", "--out", "x.bank"], "--game");
    refused(
        &[
            "bank",
            "--game",
            "c4",
            "--positions",
            "5",
            "--out",
            "x.bank",
        ],
        "--positions",
    );
    refused(
        &[
            "bank",
            "--game",
            "c4",
            "--players",
            "nobody",
            "--out",
            "x.bank",
        ],
        "nobody",
    );
    std::fs::create_dir(dir.path().join("adir")).unwrap();
    refused(
        &["bank", "--game", "c4", "--out", "adir"],
        "--out adir: a folder; name the file to write in it, e.g. adir/my.bank",
    );
    std::fs::write(dir.path().join("not.bank"), b"hello").unwrap();
    refused(
        &["bank", "--info", "not.bank"],
        "not.bank: not a bebete position bank file",
    );
    // A genome where a bank is expected is named as foreign, too.
    refused(
        &[
            "evolve",
            "--game",
            "c4",
            "--set",
            "bank=not.bank",
            "--generations",
            "1",
        ],
        "not.bank: not a bebete position bank file",
    );
    refused(
        &["evolve", "--game", "ttt", "--set", "bank=not.bank"],
        "--set bank=not.bank: needs a solver-labelled bank",
    );
}

/// Ctrl-C while the positions are still being gathered (slow players, many
/// positions): the command says where it stood and how to go on, rather
/// than dying silently.
#[cfg(unix)]
#[test]
fn an_interrupt_while_gathering_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "bank",
        "--game",
        "c4",
        "--players",
        "mc:200,rules",
        "--positions",
        "1000000",
        "--min-stones",
        "0",
        "--threads",
        "2",
        "--out",
        "mine.bank",
    ];
    let child = spawn(dir.path(), &args);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted while gathering positions (")
            && err.contains("nothing to save yet; run the same command to start again"),
        "{err}"
    );
}

#[test]
fn a_killed_build_continues_to_the_same_bank() {
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<&str> = SMALL.to_vec();
    args[4] = "1500";
    args.extend(["--threads", "1", "--save-every", "0"]);
    let whole = dir.path().join("whole.bank");
    bebete(dir.path())
        .args(&args)
        .arg("--out")
        .arg(&whole)
        .assert()
        .success();
    let part = dir.path().join("part.bank");
    let mut partial: Vec<&str> = args.clone();
    partial.extend(["--out", "part.bank"]);
    let mut child = spawn(dir.path(), &partial);
    wait_until("the first save", || part.exists());
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let saved = BankFile::load(&part).unwrap();
    let finished = saved.header.complete();
    let out = bebete(dir.path()).args(&partial).output().unwrap();
    if finished {
        // The kill came after the last save: nothing to continue.
        assert!(String::from_utf8_lossy(&out.stderr).contains("already a complete bank"));
    } else {
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("continuing"));
    }
    let (a, b) = (
        BankFile::load(&whole).unwrap(),
        BankFile::load(&part).unwrap(),
    );
    assert_eq!(a.entries, b.entries);
    assert_eq!(a.header.games, b.header.games);
}

#[test]
fn banks_merge_genomes_gather_and_polish_fits_a_genome() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = crate::common::random_genome(
        dir.path(),
        "m.genome",
        &["--game", "c4", "--encoder", "mirror"],
    );
    let players = format!("{},rules", mirror.display());
    let mut args = SMALL.to_vec();
    args[4] = "200";
    bebete(dir.path())
        .args(&args)
        .args(["--players", &players, "--out", "g.bank"])
        .assert()
        .success();
    let out =
        stdout_of(bebete(dir.path()).args(["bank", "--merge", "g.bank,g.bank", "--out", "m.bank"]));
    assert!(out.contains("m.bank: 200 positions"), "{out}");
    let out = stdout_of(bebete(dir.path()).args([
        "bank",
        "--merge",
        "builtin,g.bank",
        "--out",
        "b.bank",
    ]));
    let n: u64 = out.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(n > 30_000 && n <= 30_200, "{out}");
    bebete(dir.path())
        .args(["bank", "--merge", "g.bank", "--out", "b.bank"])
        .assert()
        .failure()
        .stderr(contains("b.bank exists"));

    // Polishing on the small bank: the training share never falls.
    let out = stdout_of(bebete(dir.path()).args([
        "genome", "polish", "m.genome", "--bank", "g.bank", "--passes", "2", "--out", "p.genome",
    ]));
    let train: Vec<f64> = out
        .lines()
        .filter_map(|l| l.split("train ").nth(1))
        .map(|t| t.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(train.len(), 3, "{out}");
    assert!(train[1] > train[0] && train[2] >= train[1], "{out}");
    let ttt = crate::common::random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    bebete(dir.path())
        .args(["genome", "polish"])
        .arg(&ttt)
        .args(["--out", "q.genome"])
        .assert()
        .failure()
        .stderr(contains("only connect4 genomes learn from a bank"));
}

/// `bank --dry-run` checks the players and --out and writes nothing: a
/// new file is planned, a complete bank refused as a real run refuses it.
#[test]
fn bank_dry_run_checks_players_and_out_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args([
        "bank",
        "--game",
        "c4",
        "--players",
        "random,rules",
        "--positions",
        "500",
        "--seed",
        "4",
        "--out",
        "banks/new.bank",
        "--dry-run",
    ]));
    assert_eq!(
        out,
        "would gather 500 positions of at least 12 stones from games between random,rules (seed 4) and label them with the exact solver into banks/new.bank: a new file\n\
         dry run: the players and --out checked; nothing gathered, labelled or written\n"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("banks/connect4.bank");
    let refused = refusal_of(
        bebete(dir.path())
            .args(["bank", "--game", "c4", "--dry-run", "--out"])
            .arg(&shipped),
    );
    assert!(refused.contains("already a complete bank"), "{refused}");
    let refused = refusal_of(bebete(dir.path()).args([
        "bank",
        "--game",
        "c4",
        "--players",
        "mc:0",
        "--out",
        "b.bank",
        "--dry-run",
    ]));
    assert!(refused.contains("mc:0"), "{refused}");
    let refused = refusal_of(bebete(dir.path()).args([
        "bank",
        "--merge",
        "builtin",
        "--out",
        "b.bank",
        "--dry-run",
    ]));
    assert!(
        refused.contains("--dry-run plans a bank to build"),
        "{refused}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
