//! How the islands of one run talk when they live in several processes.
//!
//! In one process ([`Alone`]) every operation is the identity. Under MPI
//! (cargo feature `mpi`, `mpi_exchange`) each rank holds one island, and
//! the generation loop reaches the same collective operations in the same
//! order on every rank: the islands' figures (all-gather), the champion's
//! genes and the benchmark values (broadcast), the migrants (a ring), and
//! once per generation whether any rank was asked to stop.

/// The collective operations the island loop needs.
pub trait Exchange {
    /// This process's rank, 0-based.
    fn rank(&self) -> usize;
    /// Processes in the run.
    fn ranks(&self) -> usize;
    /// Whether this process writes the run's shared files.
    fn is_root(&self) -> bool {
        self.rank() == 0
    }
    /// Every rank's `mine`, concatenated in rank order (every rank gives
    /// the same number of values).
    fn all_gather(&self, mine: &[f64]) -> Vec<f64>;
    /// Overwrites `data` with rank `root`'s (the same length everywhere).
    fn broadcast(&self, root: usize, data: &mut [u8]);
    /// Overwrites `data` with rank `root`'s (the same length everywhere).
    fn broadcast_f64(&self, root: usize, data: &mut [f64]);
    /// Sends `out` to the next rank and returns what the previous rank sent
    /// (a ring; the same length everywhere).
    fn ring(&self, out: Vec<u8>) -> Vec<u8>;
    /// Whether any rank's `flag` is set.
    fn any(&self, flag: bool) -> bool;
    /// The smallest of every rank's `value`.
    fn min(&self, value: u64) -> u64;
}

/// One process holds every island.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alone;

impl Exchange for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn ranks(&self) -> usize {
        1
    }
    fn all_gather(&self, mine: &[f64]) -> Vec<f64> {
        mine.to_vec()
    }
    fn broadcast(&self, _root: usize, _data: &mut [u8]) {}
    fn broadcast_f64(&self, _root: usize, _data: &mut [f64]) {}
    fn ring(&self, out: Vec<u8>) -> Vec<u8> {
        out
    }
    fn any(&self, flag: bool) -> bool {
        flag
    }
    fn min(&self, value: u64) -> u64 {
        value
    }
}

/// The rank and process count an MPI launcher (`mpirun`, `srun`) gave this
/// process, read from its environment, when it started more than one.
/// Known before MPI is initialised, so the first rank alone can take the
/// run's lock and check its directory.
pub fn launched() -> Option<(usize, usize)> {
    let var = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| std::env::var(n).ok()?.parse::<usize>().ok())
    };
    let size = var(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"])?;
    let rank = var(&["OMPI_COMM_WORLD_RANK", "PMI_RANK"]).unwrap_or(0);
    (size > 1).then_some((rank, size))
}

/// Whether this process writes the run's shared files: the only one, or
/// the first of those a launcher started.
pub fn is_first_process() -> bool {
    launched().is_none_or(|(rank, _)| rank == 0)
}

/// Why the processes of a run cannot talk.
#[derive(Debug, thiserror::Error)]
pub enum ExchangeError {
    #[error(
        "started by an MPI launcher as one of {0} processes, but this bebete was built without MPI: build it with `cargo build --release --features mpi`"
    )]
    /// An MPI launcher started this bebete, built without MPI.
    NoMpi(usize),
    #[error("MPI could not be initialised")]
    /// MPI failed to start.
    Init,
}

/// This process's exchange: [`Alone`], or MPI when a launcher started
/// several processes.
pub fn for_this_process() -> Result<Box<dyn Exchange>, ExchangeError> {
    let Some((_, size)) = launched() else {
        return Ok(Box::new(Alone));
    };
    #[cfg(feature = "mpi")]
    {
        let _ = size;
        match mpi_exchange::Mpi::new() {
            Some(mpi) => Ok(Box::new(mpi)),
            None => Err(ExchangeError::Init),
        }
    }
    #[cfg(not(feature = "mpi"))]
    Err(ExchangeError::NoMpi(size))
}

#[cfg(feature = "mpi")]
pub mod mpi_exchange {
    //! The exchange over MPI (rsmpi).

    use super::Exchange;
    use mpi::collective::SystemOperation;
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;

    /// MPI's world communicator; MPI is finalised when this is dropped.
    pub(crate) struct Mpi {
        _universe: mpi::environment::Universe,
        world: SimpleCommunicator,
    }

    impl Mpi {
        /// Initialises MPI (once per process).
        pub(crate) fn new() -> Option<Mpi> {
            let universe = mpi::initialize()?;
            let world = universe.world();
            Some(Mpi {
                _universe: universe,
                world,
            })
        }
    }

    impl Exchange for Mpi {
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }
        fn ranks(&self) -> usize {
            self.world.size() as usize
        }
        fn all_gather(&self, mine: &[f64]) -> Vec<f64> {
            let mut all = vec![0.0; mine.len() * self.ranks()];
            self.world.all_gather_into(mine, &mut all[..]);
            all
        }
        fn broadcast(&self, root: usize, data: &mut [u8]) {
            self.world.process_at_rank(root as i32).broadcast_into(data);
        }
        fn broadcast_f64(&self, root: usize, data: &mut [f64]) {
            self.world.process_at_rank(root as i32).broadcast_into(data);
        }
        fn ring(&self, out: Vec<u8>) -> Vec<u8> {
            let n = self.ranks() as i32;
            let me = self.world.rank();
            let mut incoming = vec![0u8; out.len()];
            mpi::request::scope(|scope| {
                let sent = self
                    .world
                    .process_at_rank((me + 1) % n)
                    .immediate_send(scope, &out[..]);
                self.world
                    .process_at_rank((me + n - 1) % n)
                    .receive_into(&mut incoming[..]);
                sent.wait();
            });
            incoming
        }
        fn any(&self, flag: bool) -> bool {
            let mut out = 0u32;
            self.world
                .all_reduce_into(&(flag as u32), &mut out, SystemOperation::max());
            out > 0
        }
        fn min(&self, value: u64) -> u64 {
            let mut out = 0u64;
            self.world
                .all_reduce_into(&value, &mut out, SystemOperation::min());
            out
        }
    }
}
