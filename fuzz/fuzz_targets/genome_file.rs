//! Any byte string given to the genome loader is a genome or an error; a
//! genome that loads is whole (its table fits its game, its shell is in
//! range) and plays a legal first move under repair.
#![no_main]

use bebete_core::encoding::shell::{PlayStyle, MAX_LOOKAHEAD};
use bebete_core::encoding::{IllegalPolicy, TableGame, TableGameVisitor, visit_table_game};
use bebete_core::games::BuiltIn;
use bebete_core::genome::Genome;
use libfuzzer_sys::fuzz_target;

struct FirstMove<'a>(&'a Genome);

impl TableGameVisitor for FirstMove<'_> {
    type Output = ();
    fn visit<G: TableGame + BuiltIn>(self, game: G) {
        let genome = self.0;
        assert_eq!(genome.genes.len(), game.gene_count());
        assert!(genome.genes.iter().all(|&g| game.gene_is_valid(g)));
        let rules = PlayStyle {
            policy: IllegalPolicy::Repair,
            lookahead: genome.lookahead.min(2),
        };
        let start = game.start();
        let mv = rules
            .decide(&game, &genome.genes, &start)
            .expect("repair always moves");
        assert!(game.is_legal(&start, mv));
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(genome) = Genome::from_bytes(data.to_vec()) {
        assert!(genome.lookahead <= MAX_LOOKAHEAD);
        visit_table_game(genome.game, FirstMove(&genome));
    }
});
