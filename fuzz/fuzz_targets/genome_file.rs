//! Any byte string given to the genome loader is a genome or an error.
#![no_main]

use bebete::genome::Genome;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(genome) = Genome::from_bytes(data.to_vec()) {
        // A genome that loads must also be usable: explain the start.
        let _ = genome.game;
    }
});
