//! What checkers tells the rest of the program about itself (see
//! `games::registry`): its names, settings, encoders and options.

use super::*;

impl Registered for Checkers {
    const NAME: &'static str = "checkers";
    const ALIASES: &'static [&'static str] = &["draughts"];
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.002,
        generations: 200,
        checkpoint_every: 50,
        bench_every: 20,
    };

    fn variants() -> Vec<Checkers> {
        vec![
            Checkers::SUBGRID,
            Checkers {
                encoder: CheckersEncoder::NTuple(NTuple {
                    tuples: 4,
                    length: 4,
                }),
            },
        ]
    }

    fn from_options(options: &GameOptions) -> Result<Checkers, String> {
        // evolve's recommended settings learn a value genome; the text's
        // sub-grid genome is the default everywhere else.
        let default = if options.recommended {
            "ntuple"
        } else {
            "subgrid"
        };
        let encoder = match options.encoder.as_deref().unwrap_or(default) {
            "subgrid" => CheckersEncoder::Subgrid,
            "ntuple" => CheckersEncoder::NTuple(options.value_shape(CheckersEncoder::NTUPLE, 32)?),
            _ => {
                return Err(options.unknown_encoder(Self::NAME, &["subgrid", "ntuple"], default));
            }
        };
        Ok(Checkers { encoder })
    }

    fn encoder_name(&self) -> &'static str {
        self.encoder.name()
    }

    fn describe(&self) -> String {
        match self.encoder {
            CheckersEncoder::Subgrid => Self::NAME.to_string(),
            CheckersEncoder::NTuple(shape) => format!("checkers (value genome, {shape} tuples)"),
        }
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        match self.value_genome() {
            Some(shape) => shape.check(SQUARES).map_err(InvalidRules),
            None => Ok(()),
        }
    }

    fn value_genome(&self) -> Option<NTuple> {
        match self.encoder {
            CheckersEncoder::NTuple(shape) => Some(shape),
            CheckersEncoder::Subgrid => None,
        }
    }

    /// Games against fixed opponents, as for Connect-Four's vote genome; a
    /// value genome: two learners by self-play, the better against
    /// alphabeta kept (docs/experiments.md).
    fn recommended(&self) -> RunSettings {
        if let CheckersEncoder::NTuple(_) = self.encoder {
            return RunSettings {
                population: Some(2),
                elite: Some(1),
                parents: Some(1),
                mutation: Some("0.01"),
                self_play: Some(5_000),
                fitness: Some("vs:alphabeta:2:20"),
                generations: Some(200),
                checkpoint_every: Some(10),
                bench_every: Some(10),
                ..RunSettings::default()
            };
        }
        RunSettings {
            fitness: Some("vs:random:10+rules:20"),
            zero_init: true,
            generations: Some(300),
            checkpoint_every: Some(50),
            bench_every: Some(25),
            ..RunSettings::default()
        }
    }
}
