//! Tests of the evolution settings and their checks.

use super::*;
use crate::evolve::Fitness;
use crate::evolve::operators::{Init, Mutation};

/// The message `cfg` is refused with.
fn refusal(cfg: &EvolveConfig) -> String {
    cfg.validate().expect_err("a refused setting").to_string()
}

#[test]
fn out_of_range_values_name_the_flag() {
    let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 1);
    assert!(cfg.validate().is_ok());
    cfg.elite = 100;
    assert!(refusal(&cfg).starts_with("--elite 100"));
    cfg.elite = 10;
    cfg.parents = 11;
    assert!(refusal(&cfg).contains("--parents"));
    cfg.parents = 2;
    cfg.init = Init::Zero;
    assert!(refusal(&cfg).starts_with("--init zero"));
    cfg.init = Init::Random;
    cfg.fitness = "round-robin+random:2".parse::<Fitness>().unwrap();
    assert!(cfg.validate().is_ok());
    cfg.fitness = "round-robin+random:2+sample:5".parse::<Fitness>().unwrap();
    assert!(refusal(&cfg).contains("no round-robin"));
    cfg.fitness = "vs:sample:100".parse::<Fitness>().unwrap();
    assert!(refusal(&cfg).contains("below the population"));
    cfg.fitness = "vs:sample:99".parse::<Fitness>().unwrap();
    assert!(cfg.validate().is_ok());
    assert_eq!(
        crate::evolve::fitness::max_points(&cfg, &crate::dispatch::abilities(GameSpec::TICTACTOE)),
        4 * 99
    );
    cfg.mutation = Mutation::fixed(1.5);
    assert!(refusal(&cfg).contains("--mutation"));
}
