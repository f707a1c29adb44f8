//! Any byte string given to the checkpoint loader is a checkpoint or an
//! error; a checkpoint that loads is consistent: a valid configuration, one
//! stats row per completed generation, the population it configures.
#![no_main]

use bebete_core::evolve::checkpoint::Checkpoint;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(ckpt) = Checkpoint::from_bytes(data.to_vec()) {
        assert!(ckpt.config.validate().is_ok());
        assert_eq!(ckpt.rows.len() as u64, ckpt.generation);
        assert_eq!(ckpt.population.size(), ckpt.config.population);
        assert!(ckpt.hall.len() <= bebete_core::evolve::hall::HALL_SIZE);
    }
});
