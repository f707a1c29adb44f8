//! Writing a run down: checkpoints and the champion's files.

use super::*;
use crate::players::Playable;

impl<G: Playable> Evolution<G> {
    /// Writes the checkpoint of the current state (once per generation) and
    /// removes the oldest beyond `keep`.
    pub(crate) fn checkpoint(&mut self) -> Result<(), FileError> {
        if self.last_checkpoint == Some(self.generation) {
            return Ok(());
        }
        let started = Instant::now();
        self.save_champion()?;
        let dir = checkpoint::dir_of_rank(&self.run, self.exchange.rank(), self.exchange.ranks());
        let path = dir.join(checkpoint::file_name(self.generation));
        checkpoint::write(
            &path,
            &self.cfg,
            self.generation,
            &self.rows,
            &self
                .islands
                .iter()
                .map(|i| &i.population)
                .collect::<Vec<_>>(),
            self.first,
            &self.islands[0].hall,
        )?;
        checkpoint::prune(&dir, self.cfg.keep).map_err(|e| FileError::new(&dir, e))?;
        self.last_checkpoint = Some(self.generation);
        self.pending_io += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Writes the last generation's champion to `best.genome` unless it is
    /// there already.
    pub(super) fn save_champion(&mut self) -> Result<(), FileError> {
        if !self.exchange.is_root() {
            return Ok(());
        }
        if let Some(champion) = self.champion.as_ref().filter(|_| !self.champion_saved) {
            champion.save(&self.run.best_genome())?;
            self.champion_saved = true;
        }
        Ok(())
    }
}
