//! Seeds for every unit of work, derived from the run seed and the unit's
//! place in the run.
//!
//! Reproducibility rests on this module: a game, a child or a benchmark
//! match draws from a PCG seeded by (run seed, generation, index), never by
//! thread identity or time, so a run is the same on any number of threads
//! and a resumed run equals an uninterrupted one.

/// The splitmix64 mixer: a bijection of 64-bit words that spreads every
/// input bit over the whole output.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed for one unit of work: splitmix64 over the three words.
pub fn derive_seed(seed: u64, generation: u64, index: u64) -> u64 {
    mix(mix(mix(seed) ^ generation) ^ index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_are_pinned() {
        // Value stability: every stored run depends on these exact words.
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(derive_seed(1, 2, 3), derive_seed(1, 2, 3));
        assert_ne!(derive_seed(1, 2, 3), derive_seed(1, 3, 2));
    }
}
