//! The registry of games: one [`Game`] per game the platform plays, looked up by its one name.
//!
//! Everything the platform needs of a game goes through [`Game`] (OpenSpiel's `Game` is the
//! model): its name, its seat count, how a job of it is checked and played
//! ([`Game::check`] → [`CheckedJob`]), its built-in bots, what its observations list as legal,
//! and how the console shows it. Services and platform crates hold a [`GameKind`] (a handle on
//! a registered game) and never match on which game it is.
//!
//! A game is registered by one line in [`REGISTERED`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use arena_proto::v1;
use arena_table::JobError;
use serde_json::Value;

use crate::{Builtin, CheckedJob};

/// A game the platform plays: its identity, its tables and bots, its wire and its renderer.
pub trait Game: Send + Sync + 'static {
    /// The game's one name, the same everywhere: the store, the CLI, the console, metrics
    /// labels and Helm values (`ddz`, `mahjong`).
    fn name(&self) -> &'static str;

    /// The game's name for people (`Dou Dizhu`).
    fn title(&self) -> &'static str;

    /// The game's value on the wire's `Game` enum.
    fn wire(&self) -> v1::Game;

    /// How many seats a table of this game has.
    fn seat_count(&self) -> usize;

    /// Reads `name` as one of this game's built-in bots: `None` when it names none (its head,
    /// before `:`, is not a built-in bot's), else the bot or why its name does not parse.
    fn builtin(&self, name: &str) -> Option<Result<Builtin, String>>;

    /// This game's built-in bot names as a user writes them, for messages. Every game has a
    /// `random` bot (playing a legal action at random), which generic tests seat.
    fn builtin_help(&self) -> &'static str;

    /// The line protocol a program playing seat `seat` of this game speaks (a fresh one per
    /// seat and table): what bot-host and the CLI's `cmd:` seats run a program with.
    fn program_protocol(&self, seat: u32) -> Box<dyn arena_line::ProgramProtocol>;

    /// Reads a job of this game (its envelope already checked): its set-up and seats, every
    /// error naming its field.
    fn check(&'static self, job: &v1::TableJob) -> Result<CheckedJob, JobError>;

    /// The legal answers an observation of this game lists (empty when it lists none).
    fn legal(&self, observation: &v1::Observation) -> Vec<String>;

    /// The game's readings whose play differs (rule sets, scoring modes, fan readings), each
    /// with a seed whose game shows what it changes: the golden playthroughs play every one.
    fn variants(&self) -> Vec<Variant>;

    /// How the game plays the ladder, if it has one.
    fn ladder(&self) -> Option<&dyn crate::Ladder>;

    /// The console's renderer of this game's tables (its replay player's board).
    fn renderer(&self) -> Renderer;

    /// An action as the console's move list shows it (`bid 2`, `33344`, `DISCARD 5S`).
    fn render_action(&self, action: &v1::Action) -> String;

    /// An observation as the console's renderer reads it.
    fn render_observation(&self, observation: &v1::Observation) -> Value;

    /// An outcome's game-specific part as the console's renderer reads it.
    fn render_outcome(&self, outcome: &v1::Outcome) -> Value;

    /// The replay's public history as the console's renderer reads it: an object whose fields
    /// join the replay document.
    fn render_history(&self, replay: &v1::Replay) -> Value;
}

/// A reading of a game, for its golden playthrough: a table job's set-up and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Its name, unique in the game (the transcript's file is `<game>-<name>.txt`).
    pub name: String,
    /// The job's seed.
    pub seed: u64,
    /// The job's set-up (`None`: the game's default).
    pub setup: Option<v1::table_job::Setup>,
}

/// A game's renderer for the console: a script the pages load, which registers itself as
/// `ArenaReplay.games[<game name>] = { render, outcome }` (see the console's `replay.js`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Renderer {
    /// The script's file name, served under `/assets/games/`.
    pub file: &'static str,
    /// The script.
    pub source: &'static str,
}

/// Every registered game, the platform's default first (a wire value left unspecified by
/// clients written before the game field existed means it). Adding a game is one line here.
static REGISTERED: &[&dyn Game] = &[&crate::ddz::DouDizhu, &crate::mahjong::Mahjong];

/// A handle on a registered game: a copyable `&'static dyn Game`, compared by name.
#[derive(Copy, Clone)]
pub struct GameKind(&'static dyn Game);

impl GameKind {
    /// The handle of a game (the games' own crates use it for their `GAME` constants).
    pub const fn of(game: &'static dyn Game) -> GameKind {
        GameKind(game)
    }

    /// Every registered game, the default first.
    pub fn all() -> impl ExactSizeIterator<Item = GameKind> + Clone {
        REGISTERED.iter().map(|&g| GameKind(g))
    }

    /// The platform's default game: what a wire value left unspecified means where the field
    /// came later than the message (competitions, bots, ladders).
    pub fn default_game() -> GameKind {
        GameKind(REGISTERED[0])
    }

    /// The game named `name` (its [`Game::name`]), or why there is none.
    pub fn by_name(name: &str) -> Result<GameKind, String> {
        Self::all().find(|g| g.name() == name).ok_or_else(|| {
            format!(
                "no game {}: the games are {}",
                arena_proto::text::quote(name),
                Self::names()
            )
        })
    }

    /// The registered games' names, comma-separated, for messages.
    pub fn names() -> String {
        Self::all().map(|g| g.name()).collect::<Vec<_>>().join(", ")
    }

    /// The game a wire value names, or why the platform cannot play it; an unspecified value
    /// is an error (a table job must say its game).
    pub fn from_wire(game: i32) -> Result<GameKind, String> {
        if game == v1::Game::Unspecified as i32 {
            return Err(format!(
                "not set ({})",
                Self::all()
                    .map(|g| g.wire().as_str_name())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        Self::all()
            .find(|g| g.wire() as i32 == game)
            .ok_or_else(|| format!("unknown game {game}"))
    }

    /// [`GameKind::from_wire`], with an unspecified value meaning [`GameKind::default_game`]:
    /// for the messages whose game field came after them.
    pub fn from_wire_or_default(game: i32) -> Result<GameKind, String> {
        if game == v1::Game::Unspecified as i32 {
            return Ok(Self::default_game());
        }
        Self::from_wire(game)
    }

    /// The registered game itself.
    pub fn game(self) -> &'static dyn Game {
        self.0
    }
}

impl Deref for GameKind {
    type Target = dyn Game;

    fn deref(&self) -> &(dyn Game + 'static) {
        self.0
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &GameKind) -> bool {
        self.0.name() == other.0.name()
    }
}

impl Eq for GameKind {}

impl Hash for GameKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.name().hash(state);
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameKind({})", self.0.name())
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// The game as the store's records name it (a program bot's game, the games a remote bot
/// plays, a deal's game): its name.
impl From<GameKind> for arena_store::Game {
    fn from(game: GameKind) -> arena_store::Game {
        arena_store::Game::named(game.name())
    }
}

/// The registered game a store record names, or why none is.
impl TryFrom<arena_store::Game> for GameKind {
    type Error = String;

    fn try_from(game: arena_store::Game) -> Result<GameKind, String> {
        GameKind::by_name(game.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_one_name_and_one_wire_value() {
        let names: Vec<_> = GameKind::all().map(|g| g.name()).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "names {names:?}");
        for g in GameKind::all() {
            assert_eq!(GameKind::by_name(g.name()), Ok(g));
            assert_eq!(GameKind::from_wire(g.wire() as i32), Ok(g));
            let stored = arena_store::Game::from(g);
            assert_eq!(GameKind::try_from(stored), Ok(g));
            assert_eq!(stored.name(), g.name());
        }
    }

    #[test]
    fn an_unspecified_wire_game_is_an_error_or_the_default_as_asked() {
        let e = GameKind::from_wire(0).unwrap_err();
        assert!(e.contains("GAME_DOU_DIZHU or GAME_MAHJONG"), "{e}");
        assert_eq!(
            GameKind::from_wire_or_default(0),
            Ok(GameKind::default_game())
        );
        assert_eq!(GameKind::from_wire(99).unwrap_err(), "unknown game 99");
        let e = GameKind::by_name("chess").unwrap_err();
        assert!(e.contains("ddz, mahjong"), "{e}");
    }
}
