#!/usr/bin/env bash
# The full soak: 350 games for every pair of player kinds (random, rules,
# mc:3, alphabeta:2, perfect in the small games, and random genomes under
# repair, forfeit and a 2-ply shell) in every registered two-player game
# under each of its encoders, every move checked legal as it is played.
# Figures: docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test integration -- --ignored --nocapture soak::the_full_soak
