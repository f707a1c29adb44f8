//! Games held between requests: one session per game table (a person against
//! one bot, a series of games with the score kept), under an id the page
//! keeps. The store holds at most [`Sessions::cap`] live sessions. When it
//! is full, a new table makes room by dropping, in this order: a finished
//! game, a game idle longer than the server's idle time, the oldest table
//! where the person has not moved yet; only when every table is a game in
//! play is a new one refused (rather than an old one lost).

use super::api::ApiError;
use super::table::{Bot, BotMove};
use crate::games::GameSpec;
use rand::RngExt;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A session unused this long may be dropped to make room for a new one
/// (the default of `serve --idle-minutes`).
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// Games won by each side and drawn, in this session.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Score {
    pub human: u32,
    pub bot: u32,
    pub draws: u32,
}

/// One table: the rules, the bot, the game in progress and the score.
#[derive(Debug)]
pub struct Session {
    pub game: GameSpec,
    pub bot: Bot,
    /// Whether the person moved first in the first game (sides alternate).
    pub human_first: bool,
    /// Games started so far (1 during the first).
    pub game_number: u32,
    /// The current game's moves, in the notation.
    pub moves: String,
    /// The last move, and who played it: `human` or `bot`.
    pub last: Option<(&'static str, String)>,
    /// The bot's last answer in this game.
    pub last_bot: Option<BotMove>,
    /// The bot forfeited the current game.
    pub forfeit: bool,
    /// Whether the current game's result is already in the score.
    pub scored: bool,
    pub score: Score,
    /// The bot is thinking: further moves wait for its answer.
    pub busy: bool,
    /// Stops the bot's thinking (set when the game is deleted or dropped).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Seeds the bot's random choices.
    pub seed: u64,
    /// Moves the person has made at this table.
    pub human_moves: u32,
    touched: Instant,
}

impl Session {
    /// A new table; the first game starts empty.
    pub fn new(game: GameSpec, bot: Bot, human_first: bool, seed: u64) -> Session {
        Session {
            game,
            bot,
            human_first,
            game_number: 1,
            moves: String::new(),
            last: None,
            last_bot: None,
            forfeit: false,
            scored: false,
            score: Score::default(),
            busy: false,
            cancel: None,
            seed,
            human_moves: 0,
            touched: Instant::now(),
        }
    }

    /// Whether the person moves first in the current game.
    pub fn human_moves_first(&self) -> bool {
        self.human_first == (self.game_number % 2 == 1)
    }

    /// Clears the board for the next game (the sides swap).
    pub fn next_game(&mut self) {
        self.game_number += 1;
        self.moves.clear();
        self.last = None;
        self.last_bot = None;
        self.forfeit = false;
        self.scored = false;
    }
}

/// The live sessions.
pub struct Sessions {
    map: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
    cap: usize,
    idle: Duration,
}

/// Locks a mutex, taking the data even if a thread panicked holding it (a
/// session's data is consistent between statements).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Sessions {
    /// A store of at most `cap` live sessions, a session unused for
    /// `idle` being one that may be dropped.
    pub fn new(cap: usize, idle: Duration) -> Sessions {
        Sessions {
            map: Mutex::new(HashMap::new()),
            cap,
            idle,
        }
    }

    /// The most live sessions.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Stores `session` under a new random id, dropping idle sessions when
    /// the store is full; refuses when every session is in use.
    pub fn insert(&self, session: Session) -> Result<String, ApiError> {
        let mut map = lock(&self.map);
        if map.len() >= self.cap {
            // Finished games and idle tables first.
            map.retain(|_, s| {
                let s = lock(s);
                s.busy || (!(s.scored || s.forfeit) && s.touched.elapsed() < self.idle)
            });
        }
        if map.len() >= self.cap {
            // Then the oldest table where nobody has played yet.
            let unplayed = map
                .iter()
                .filter_map(|(id, s)| {
                    let s = lock(s);
                    (s.human_moves == 0 && s.game_number == 1 && !s.busy)
                        .then_some((s.touched, id.clone()))
                })
                .min();
            if let Some((_, id)) = unplayed {
                map.remove(&id);
            }
        }
        if map.len() >= self.cap {
            return Err(ApiError::unavailable(format!(
                "{} games are in play, the most this server holds; finish one (DELETE /api/games/ID) or try again later",
                self.cap
            )));
        }
        let id = loop {
            let id = format!("{:032x}", rand::rng().random::<u128>());
            if !map.contains_key(&id) {
                break id;
            }
        };
        map.insert(id.clone(), Arc::new(Mutex::new(session)));
        Ok(id)
    }

    /// The session `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        let session = lock(&self.map).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!("no game '{id}' (it ended or was never started)"))
        })?;
        lock(&session).touched = Instant::now();
        Ok(session)
    }

    /// Forgets session `id`.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let session = lock(&self.map)
            .remove(id)
            .ok_or_else(|| ApiError::not_found(format!("no game '{id}'")))?;
        if let Some(flag) = &lock(&session).cancel {
            flag.store(true, Ordering::Relaxed);
        }
        Ok(())
    }
}
