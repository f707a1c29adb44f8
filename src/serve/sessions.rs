//! Games held between requests: one session per game table (a person against
//! one bot, a series of games with the score kept), under an id the page
//! keeps. The store holds at most [`Sessions::cap`] live sessions.
//!
//! The policy, which a flood of new tables can neither lock nor use to
//! push out a game in play: a table's age is the time since its last move
//! (the person's, the bot's, or the table's opening); reading a table
//! (`GET`) does not make it younger. A table not moved for the server's
//! idle time is dropped (unless its bot is thinking). When the store is
//! full, a new table makes room by dropping, least recently moved first:
//! a finished game; else a table where the person has not moved yet (its
//! bot's thinking, if any, is stopped: a flood of tables whose bots think
//! first cannot fill the store); else a table the person has not moved in
//! for [`IN_PLAY`]. A table the person moved in within [`IN_PLAY`] is
//! never dropped to make room: a new table is refused (503) only when
//! every table is such a game in play. Clients are not told apart (on the
//! loopback address all are the same), so this protects games by how they
//! are played, not by whom.

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

/// A table the person moved in this recently is never dropped to make
/// room for a new one (see the module's policy).
pub const IN_PLAY: Duration = Duration::from_secs(10 * 60);

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
    /// The last move at this table (or its opening).
    moved: Instant,
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
            moved: Instant::now(),
        }
    }

    /// Records a move at this table now: the table is the youngest.
    pub fn moved(&mut self) {
        self.moved = Instant::now();
    }

    /// Stops the bot's thinking at this table, if it is thinking (the
    /// table is deleted or dropped, or the server stops).
    fn stop_thinking(&self) {
        if let Some(flag) = &self.cancel {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the current game is over (and scored).
    fn finished(&self) -> bool {
        self.scored || self.forfeit
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

    /// Stores `session` under a new random id, making room as the module
    /// says; refuses only when every table's bot is thinking.
    pub fn insert(&self, session: Session) -> Result<String, ApiError> {
        let mut map = lock(&self.map);
        // Tables not moved for the idle time are gone.
        map.retain(|_, s| {
            let s = lock(s);
            s.busy || s.moved.elapsed() < self.idle
        });
        if map.len() >= self.cap {
            // A finished game first, then a table the person has not
            // moved in, then one not moved in for IN_PLAY; least recently
            // moved first within each.
            let victim = map
                .iter()
                .filter_map(|(id, s)| {
                    let s = lock(s);
                    let rank = if s.finished() {
                        0
                    } else if s.human_moves == 0 {
                        1
                    } else if s.moved.elapsed() >= IN_PLAY && !s.busy {
                        2
                    } else {
                        return None;
                    };
                    Some((rank, s.moved, id.clone()))
                })
                .min();
            if let Some((_, _, id)) = victim
                && let Some(dropped) = map.remove(&id)
            {
                lock(&dropped).stop_thinking();
            }
        }
        if map.len() >= self.cap {
            return Err(ApiError::unavailable(format!(
                "all {} games this server holds are in play (a person moved in each within the last {} minutes); try again later",
                self.cap,
                IN_PLAY.as_secs() / 60
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

    /// The session `id` (reading it does not make it younger).
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        lock(&self.map).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no game '{id}' (it ended, was never started, or was dropped to make room after a long time without a move)"
            ))
        })
    }

    /// Stops every bot's thinking (the server is shutting down): each
    /// waiting request answers at once.
    pub fn cancel_all(&self) {
        for session in lock(&self.map).values() {
            lock(session).stop_thinking();
        }
    }

    /// Forgets session `id`.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let session = lock(&self.map)
            .remove(id)
            .ok_or_else(|| ApiError::not_found(format!("no game '{id}'")))?;
        lock(&session).stop_thinking();
        Ok(())
    }
}
