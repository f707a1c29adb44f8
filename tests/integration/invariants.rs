//! Invariants over random positions of every game and encoder: the rules
//! list exactly the legal moves, and a genome under `--illegal repair`
//! always plays a legal move.

use bebete_core::encoding::{IllegalPolicy, TableGame, TableGameVisitor, visit_table_game};
use bebete_core::games::{BuiltIn, Game, GameSpec, Notation, check_moves};
use bebete_core::genome::Genome;
use proptest::prelude::*;

/// Every registered game under each of its encoders and rule variants.
fn specs() -> Vec<GameSpec> {
    GameSpec::registered()
}

/// Plays a random game (move choices from `picks`) with a random genome of
/// the game, checking both invariants at every position.
struct RandomGame<'a> {
    picks: &'a [u8],
    genes: Vec<u8>,
}

impl TableGameVisitor for RandomGame<'_> {
    type Output = Result<(), String>;

    fn visit<G: TableGame + BuiltIn>(self, game: G) -> Result<(), String> {
        let mut pos = game.start();
        let mut moves = Vec::new();
        for &pick in self.picks {
            check_any(&game, &pos)?;
            if game.outcome(&pos).is_some() {
                break;
            }
            let mv = game
                .decide(&self.genes, &pos, IllegalPolicy::Repair)
                .ok_or_else(|| format!("{pos:?}: repair forfeited"))?;
            if !game.is_legal(&pos, mv) {
                return Err(format!("{pos:?}: the genome played illegal {mv:?}"));
            }
            game.legal_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[pick as usize % moves.len()]);
        }
        Ok(())
    }
}

fn check_any<G: Notation>(game: &G, pos: &G::Position) -> Result<(), String> {
    check_moves(game, pos).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rules_list_the_legal_moves_and_repaired_genomes_play_them(
        which in any::<proptest::sample::Index>(),
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u8>(), 0..45),
    ) {
        let spec = *which.get(&specs());
        let genes = Genome::random(spec, seed).genes;
        let checked = visit_table_game(spec, RandomGame { picks: &picks, genes });
        prop_assert!(checked.is_ok(), "{spec}: {}", checked.unwrap_err());
    }
}

/// Reads `text` with every parser of a game: as a position, as one move,
/// and token by token as a move list. Any text is an answer or an error,
/// never a panic.
struct ParseAnything<'a>(&'a str);

impl TableGameVisitor for ParseAnything<'_> {
    type Output = ();

    fn visit<G: TableGame + BuiltIn>(self, game: G) {
        let text = self.0;
        let _ = game.parse_position(text);
        let _ = game.parse_move(text);
        for token in game.split_notation(text) {
            let _ = game.parse_move(token);
        }
    }
}

/// Texts that once panicked or sit on a character boundary: a multi-byte
/// character where a parser looks at a fixed number of bytes.
const AWKWARD: [&str; 8] = [
    "abcé",
    "€€",
    "paséé",
    "pa€",
    "é",
    "f5 d6 é3",
    "1x€",
    "\u{0}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_text_is_a_position_or_an_error_in_every_game(
        text in "\\PC{0,12}|[a-hpPsS0-9 ,x€é-]{0,12}",
    ) {
        for spec in specs() {
            visit_table_game(spec, ParseAnything(&text));
        }
    }
}

#[test]
fn awkward_texts_parse_without_panicking_in_every_game() {
    for text in AWKWARD {
        for spec in specs() {
            visit_table_game(spec, ParseAnything(text));
        }
    }
}

/// Each registered game once, whatever the random draws above picked: a
/// game added to the registry is checked from the day it is added.
#[test]
fn every_registered_game_passes_the_invariants() {
    let picks: Vec<u8> = (0..60u8).map(|i| i.wrapping_mul(37)).collect();
    for spec in specs() {
        let genes = Genome::random(spec, 11).genes;
        let checked = visit_table_game(
            spec,
            RandomGame {
                picks: &picks,
                genes,
            },
        );
        assert!(checked.is_ok(), "{spec}: {}", checked.unwrap_err());
    }
}

#[test]
fn the_check_catches_a_wrong_move_list() {
    use bebete_core::games::{BrokenInvariant, Notation, TicTacToe};
    // A game whose move list forgets a legal move must fail the check.
    #[derive(Clone)]
    struct Forgetful(TicTacToe);
    impl Game for Forgetful {
        type Position = <TicTacToe as Game>::Position;
        type Move = u8;
        fn start(&self) -> Self::Position {
            self.0.start()
        }
        fn turn(&self, pos: &Self::Position) -> bebete_core::games::Side {
            self.0.turn(pos)
        }
        fn outcome(&self, pos: &Self::Position) -> Option<bebete_core::games::Outcome> {
            self.0.outcome(pos)
        }
        fn legal_moves(&self, pos: &Self::Position, moves: &mut Vec<u8>) {
            self.0.legal_moves(pos, moves);
            moves.pop();
        }
        fn is_legal(&self, pos: &Self::Position, mv: u8) -> bool {
            self.0.is_legal(pos, mv)
        }
        fn play(&self, pos: &Self::Position, mv: u8) -> Self::Position {
            self.0.play(pos, mv)
        }
    }

    impl Notation for Forgetful {
        const MOVE_PROMPT: &'static str = "";

        fn parse_move(&self, text: &str) -> Result<u8, bebete_core::games::MoveError> {
            self.0.parse_move(text)
        }

        fn format_move(&self, mv: u8) -> String {
            self.0.format_move(mv)
        }

        fn notation_separator(&self) -> &'static str {
            ""
        }

        fn render(&self, pos: &Self::Position) -> String {
            self.0.render(pos)
        }

        fn view(&self, pos: &Self::Position) -> bebete_core::games::BoardView {
            self.0.view(pos)
        }
    }
    let game = Forgetful(TicTacToe);
    let err: BrokenInvariant = check_moves(&game, &game.start()).unwrap_err();
    assert!(err.to_string().contains("listed 0 times"), "{err}");
    assert!(check_moves(&TicTacToe::BASE3, &TicTacToe::BASE3.start()).is_ok());
}

/// A random genome of every registered game survives its file, and a
/// two-genome population of it survives a checkpoint.
#[test]
fn every_registered_game_round_trips_a_genome_and_a_checkpoint() {
    use bebete_core::evolve::checkpoint::{self, Checkpoint};
    use bebete_core::evolve::{EvolveConfig, Hall, Population};
    let dir = tempfile::tempdir().unwrap();
    for (i, spec) in specs().into_iter().enumerate() {
        let genome = Genome::random(spec, i as u64);
        let path = dir.path().join(format!("{i}.genome"));
        genome.save(&path).unwrap();
        assert_eq!(Genome::load(&path).unwrap(), genome, "{spec}");

        let mut cfg = EvolveConfig::method(spec, 7);
        cfg.population = 2;
        cfg.elite = 1;
        cfg.parents = 1;
        let mut genes = genome.genes.clone();
        genes.extend(Genome::random(spec, 1000 + i as u64).genes);
        let pop = Population::from_genes(genes, genome.genes.len());
        let path = dir.path().join(format!("{i}.ckpt"));
        checkpoint::write(&path, &cfg, 0, &[], &[&pop], 0, &Hall::default()).unwrap();
        let loaded = Checkpoint::load(&path).unwrap();
        assert_eq!((loaded.config, loaded.population), (cfg, pop), "{spec}");
    }
}
