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
