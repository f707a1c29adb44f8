//! Any byte string given to the checkpoint loader is a checkpoint or an error.
#![no_main]

use bebete::evolve::checkpoint::Checkpoint;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = Checkpoint::from_bytes(data.to_vec());
});
