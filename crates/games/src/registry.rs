//! The registry of games: one [`Game`] per game the platform plays, looked up by its one name.
//!
//! Everything the platform needs of a game goes through [`Game`] (OpenSpiel's `Game` is the
//! model): its name, its seat count, how a job of it is checked and played
//! ([`Game::check`] → [`CheckedJob`]), its built-in bots, what its observations list as legal,
//! and how the console shows it. Services and platform crates hold a [`GameKind`] (a handle on
//! a registered game) and never match on which game it is.
//!
//! A game is registered by one line in [`REGISTERED`], or at run time with
//! [`GameKind::register`] (a game defined outside this crate: a test's, a plugin's).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::RwLock;

use arena_proto::v1;
use arena_table::JobError;
use serde_json::Value;

use crate::form::{self, Field, Values};
use crate::{Builtin, CheckedJob};

/// A game the platform plays: its identity, its tables and bots, its wire and its renderer.
pub trait Game: Send + Sync + 'static {
    /// The game's one name, the same everywhere: the store, the CLI, the console, metrics
    /// labels and Helm values (`ddz`, `mahjong`).
    fn name(&self) -> &'static str;

    /// The game's name for people (`Dou Dizhu`).
    fn title(&self) -> &'static str;

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

    /// The game's other program protocols (Botzone's, a championship's): what a program seat
    /// written `NAME:PROGRAM` (and a registered bot whose command starts so) speaks instead of
    /// [`Game::program_protocol`].
    fn program_protocols(&self) -> &'static [ProtocolInfo] {
        &[]
    }

    /// The protocol `name` (one of [`Game::program_protocols`]) for seat `seat`, a fresh one per
    /// seat and table; `None` when the game has none of that name.
    fn named_program_protocol(
        &self,
        seat: u32,
        name: &str,
    ) -> Option<Box<dyn arena_line::ProgramProtocol>> {
        let _ = (seat, name);
        None
    }

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

    /// How the game plans, plays and ranks competitions, if it does so itself (Dou Dizhu's
    /// competitions, dealt from the deal library, are still planned by the matchmaker).
    fn competitions(&self) -> Option<&dyn crate::Competitions> {
        None
    }

    /// How the game's deals are measured for the deal library, if they are: the deal library
    /// and the referees' GDI batches measure through it ([`crate::difficulty`]), and refuse a
    /// panel of a game without one.
    fn difficulty(&self) -> Option<&dyn crate::Difficulty> {
        None
    }

    /// The game's subcommands of the `arena` command line (`arena <name> …`), if it has any:
    /// the CLI attaches every registered game's ([`crate::commands::attach`]).
    fn commands(&self) -> Option<&dyn crate::GameCommands> {
        None
    }

    /// How the CLI's table and competition clients print the game's tables and standings, if
    /// it prints them its own way (none: from the registry's `describe_replay` and
    /// `render_standing` alone).
    fn printer(&self) -> Option<&dyn crate::commands::print::GamePrinter> {
        None
    }

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

    /// Other names users may call the game by on the command line (`dou-dizhu`); the wire,
    /// the store and the console use [`Game::name`] only.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// The options of the game's competitions beyond those every competition has (name,
    /// participants, seed, clock, verdict policy, lane), with their defaults: the flags of
    /// `arena competition create` and the fields of the console's creation form.
    fn competition_fields(&self) -> &'static [Field] {
        &[]
    }

    /// Writes the values a user gave for [`Game::competition_fields`] into `spec` (its name,
    /// game, participants, seed, clock and the rest already set), with the game's defaults
    /// for those left out that its competitions' check does not fill in. An option the game
    /// does not take is refused, naming it. By default the options every spec has are
    /// written as given ([`form::write_spec_fields`]) and others refused.
    fn competition_spec(
        &self,
        spec: &mut v1::CompetitionSpec,
        given: &Values,
    ) -> Result<(), String> {
        let rest = form::write_spec_fields(spec, given)?;
        form::not_for(self.title(), "competitions", &rest, |g| {
            g.competition_fields()
        })
    }

    /// The options of a table played by hand (`arena table run`) beyond its seats, seed and
    /// clock: flags of their own.
    fn table_fields(&self) -> &'static [Field] {
        &[]
    }

    /// Sets `job`'s set-up from the values a user gave for [`Game::table_fields`] (the job's
    /// seats, seed and clock already set). By default the game's default set-up (none), any
    /// option refused.
    fn table_setup(&self, job: &mut v1::TableJob, given: &Values) -> Result<(), String> {
        let _ = job;
        let names: Vec<String> = given.keys().cloned().collect();
        form::not_for(self.title(), "tables", &names, |g| g.table_fields())
    }

    /// The bots of a table played by hand when the user names none: `random` in every seat
    /// by default.
    fn default_seats(&self) -> Vec<String> {
        vec!["random".to_string(); self.seat_count()]
    }

    /// The clock a table or competition of this game has when the user sets only some of it
    /// (the rest taken from here): by default all zero, which the referee reads as its own
    /// defaults.
    fn default_time(&self) -> v1::TimeControl {
        v1::TimeControl::default()
    }

    /// A played table in a few lines of text for people (what the CLI prints between the
    /// table's seats and its verdicts and scores): by default its moves as
    /// [`Game::render_action`] writes them, seat by seat.
    fn describe_replay(&self, replay: &v1::Replay) -> Vec<String> {
        replay
            .steps
            .iter()
            .filter_map(|s| {
                let action = s.action.as_ref()?;
                Some(format!("  seat {} {}", s.seat, self.render_action(action)))
            })
            .collect()
    }

    /// How the console shows the game's competitions: headings, the ranking rule, the tables'
    /// placement columns, its summary line.
    fn competition_view(&self) -> CompetitionView {
        CompetitionView::default()
    }

    /// Static files the game's renderer loads besides its script (a font, images), served
    /// under `/assets/games/<name>/<file>`.
    fn assets(&self) -> &'static [Asset] {
        &[]
    }

    /// A competition standing's game-specific totals as the console shows them: a list of
    /// `[column title, value]` pairs, the standings table's columns in order (`null` for a game
    /// whose standings hold none).
    fn render_standing(&self, standing: &v1::Standing) -> Value {
        let _ = standing;
        Value::Null
    }
}

/// One of a game's other program protocols ([`Game::program_protocols`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProtocolInfo {
    /// Its name, as a seat's `NAME:PROGRAM` starts (`botzone`).
    pub name: &'static str,
    /// What it is, in a few words, for help and error messages.
    pub about: &'static str,
}

/// A reading of a game, for its golden playthrough: a table job's set-up and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Its name, unique in the game (the transcript's file is `<game>-<name>.txt`).
    pub name: String,
    /// The job's seed.
    pub seed: u64,
    /// The job's set-up, the game's own setup message (`None`: the game's default).
    pub setup: Option<arena_proto::payload::Any>,
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

/// How the console shows a game's competitions (its standings' totals are
/// [`Game::render_standing`]'s).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CompetitionView {
    /// The standings' mean score column's title.
    pub mean_heading: &'static str,
    /// How places are decided, as the standings say it (its `P(#k)` set in bold).
    pub ranking_rule: &'static str,
    /// A table's placement in the tables list: (column title, `Placement` field) pairs.
    pub placement: &'static [(&'static str, &'static str)],
    /// A table's placement as the replay's heading says it, `{field}` standing for the
    /// `Placement` field (a trailing comma left by an empty one is dropped).
    pub placement_phrase: &'static str,
    /// The competition's summary after its game and format: `{field}` stands for the
    /// competition's field (a list's length), e.g. `{participants} participants`.
    pub summary: &'static str,
    /// The note after the standings when games ended drawn, `{n}` their number (empty: none).
    pub drawn: &'static str,
}

impl Default for CompetitionView {
    fn default() -> CompetitionView {
        CompetitionView {
            mean_heading: "Mean score",
            ranking_rule: "Participants are placed as the game's standings rank them. P(#k) is \
                           the share of complete matches in which the participant came k-th; * \
                           marks its most probable place. The interval is the 95% confidence \
                           interval of the mean score.",
            placement: &[
                ("Match", "match"),
                ("Round", "round"),
                ("Table #", "table"),
                ("Rotation", "rotation"),
            ],
            placement_phrase: "match {match}, round {round}, table {table}, rotation {rotation}",
            summary: "{participants} participants · {matches} matches",
            drawn: "",
        }
    }
}

/// A static file a game's renderer loads (see [`Game::assets`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Asset {
    /// Its file name, served as `/assets/games/<game name>/<file>`.
    pub file: &'static str,
    /// Its media type (`font/otf`).
    pub content_type: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// Every registered game, the platform's default first (an empty game name on the wire means
/// it). Adding a game is one line here.
static REGISTERED: &[&dyn Game] = &[
    &crate::ddz::DouDizhu,
    &crate::mahjong::Mahjong,
    &crate::mcr::Mcr,
];

/// The games registered at run time, after [`REGISTERED`].
static ADDED: RwLock<Vec<&'static dyn Game>> = RwLock::new(Vec::new());

/// The games registered at run time (a poisoned lock still holds a consistent list: it is only
/// ever pushed to).
fn added() -> std::sync::RwLockReadGuard<'static, Vec<&'static dyn Game>> {
    ADDED
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A handle on a registered game: a copyable `&'static dyn Game`, compared by name.
#[derive(Copy, Clone)]
pub struct GameKind(&'static dyn Game);

impl GameKind {
    /// The handle of a game (the games' own crates use it for their `GAME` constants).
    pub const fn of(game: &'static dyn Game) -> GameKind {
        GameKind(game)
    }

    /// Every registered game, the default first, then those registered at run time in the
    /// order they were.
    pub fn all() -> impl ExactSizeIterator<Item = GameKind> + Clone {
        let mut all: Vec<GameKind> = REGISTERED.iter().map(|&g| GameKind(g)).collect();
        all.extend(added().iter().map(|&g| GameKind(g)));
        all.into_iter()
    }

    /// Registers `game` for the rest of the process, as if it were listed in [`REGISTERED`]:
    /// every service in the process plays it from then on. Refused when its name is not a
    /// valid game name or another game has it. Registering the same game again returns its
    /// handle.
    pub fn register(game: &'static dyn Game) -> Result<GameKind, String> {
        arena_store::Game::parse(game.name())?;
        let mut added = ADDED
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let taken = REGISTERED
            .iter()
            .chain(added.iter())
            .find(|g| g.name() == game.name());
        if let Some(other) = taken {
            if std::ptr::addr_eq(*other as *const dyn Game, game as *const dyn Game) {
                return Ok(GameKind(game));
            }
            return Err(format!("another game is registered as {:?}", game.name()));
        }
        added.push(game);
        Ok(GameKind(game))
    }

    /// The platform's default game: what an empty game name on the wire means.
    pub fn default_game() -> GameKind {
        GameKind(REGISTERED[0])
    }

    /// The game named `name` (its [`Game::name`]), or why there is none.
    pub fn by_name(name: &str) -> Result<GameKind, String> {
        if let Some(&g) = REGISTERED.iter().find(|g| g.name() == name) {
            return Ok(GameKind(g));
        }
        let added = added().iter().find(|g| g.name() == name).copied();
        added.map(GameKind).ok_or_else(|| {
            format!(
                "no game {}: the games are {}",
                arena_proto::text::quote(name),
                Self::names()
            )
        })
    }

    /// The game a user named on the command line: its name or one of its
    /// [`Game::aliases`], an empty name meaning [`GameKind::default_game`]; else why none is
    /// (the error lists the registered names).
    pub fn by_user_name(name: &str) -> Result<GameKind, String> {
        let name = name.trim();
        if name.is_empty() {
            return Ok(Self::default_game());
        }
        match Self::all().find(|g| g.aliases().contains(&name)) {
            Some(g) => Ok(g),
            None => Self::by_name(name),
        }
    }

    /// The registered games' names, comma-separated, for messages.
    pub fn names() -> String {
        Self::all().map(|g| g.name()).collect::<Vec<_>>().join(", ")
    }

    /// The game a message's `game` field names, or why the platform plays none of that name:
    /// the one reading of a game from the wire, an empty name meaning
    /// [`GameKind::default_game`].
    pub fn from_wire(name: &str) -> Result<GameKind, String> {
        if name.is_empty() {
            return Ok(Self::default_game());
        }
        Self::by_name(name)
    }

    /// The registered game itself.
    pub fn game(self) -> &'static dyn Game {
        self.0
    }

    /// Whether `protocol` (a program spec's `NAME:` prefix, `None` for `cmd:`) is one of the
    /// game's program protocols; else why not, listing those it has.
    pub fn check_protocol(self, protocol: Option<&str>) -> Result<(), String> {
        let Some(name) = protocol else {
            return Ok(());
        };
        if self.program_protocols().iter().any(|p| p.name == name) {
            return Ok(());
        }
        let known: Vec<String> = self
            .program_protocols()
            .iter()
            .map(|p| format!("{}: ({})", p.name, p.about))
            .collect();
        Err(if known.is_empty() {
            format!(
                "{} programs speak only its own line protocol (cmd:PROGRAM), not {}",
                self.title(),
                arena_proto::text::quote(name)
            )
        } else {
            format!(
                "{} has no program protocol {}: cmd: (its own line protocol), {}",
                self.title(),
                arena_proto::text::quote(name),
                known.join(", ")
            )
        })
    }

    /// The protocol a program started by `cmd` speaks in seat `seat`: the game's line
    /// protocol, or the one `cmd`'s prefix names; else why the game has none of that name.
    pub fn program_protocol_for(
        self,
        seat: u32,
        cmd: &arena_line::CmdSpec,
    ) -> Result<Box<dyn arena_line::ProgramProtocol>, String> {
        self.check_protocol(cmd.protocol())?;
        match cmd.protocol() {
            None => Ok(self.program_protocol(seat)),
            Some(name) => self.named_program_protocol(seat, name).ok_or_else(|| {
                format!(
                    "{} lists the program protocol {name:?} but gives none",
                    self.title()
                )
            }),
        }
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
    fn every_game_has_one_name_on_the_wire_and_in_the_store() {
        let names: Vec<_> = GameKind::all().map(|g| g.name()).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "names {names:?}");
        for g in GameKind::all() {
            assert_eq!(GameKind::by_name(g.name()), Ok(g));
            assert_eq!(GameKind::from_wire(g.name()), Ok(g));
            let stored = arena_store::Game::from(g);
            assert_eq!(GameKind::try_from(stored), Ok(g));
            assert_eq!(stored.name(), g.name());
        }
    }

    #[test]
    fn an_empty_wire_game_is_the_default_and_an_unknown_one_is_named() {
        assert_eq!(GameKind::from_wire(""), Ok(GameKind::default_game()));
        let e = GameKind::from_wire("chess").unwrap_err();
        // The built-in games, then any a test of this process registered at run time.
        assert!(
            e.starts_with("no game \"chess\": the games are ddz, mahjong, mcr"),
            "{e}"
        );
        assert!(GameKind::from_wire("DDZ").is_err(), "names are exact");
    }

    #[test]
    fn a_user_names_a_game_by_its_name_or_an_alias_and_nothing_is_the_default() {
        for g in GameKind::all() {
            assert_eq!(GameKind::by_user_name(g.name()), Ok(g));
            for alias in g.aliases() {
                assert_eq!(GameKind::by_user_name(alias), Ok(g));
            }
        }
        assert_eq!(GameKind::by_user_name(""), Ok(GameKind::default_game()));
        assert_eq!(
            GameKind::by_user_name("dou-dizhu"),
            Ok(crate::ddz::GAME),
            "the name the CLI always took"
        );
        let e = GameKind::by_user_name("chess").unwrap_err();
        assert!(
            e.starts_with("no game \"chess\": the games are ddz, mahjong, mcr"),
            "{e}"
        );
    }

    #[test]
    fn every_game_option_is_described_with_its_default_and_read_back_by_its_game() {
        for g in GameKind::all() {
            for f in g.competition_fields().iter().chain(g.table_fields()) {
                assert!(!f.name.is_empty() && !f.help.is_empty(), "{g}: {f:?}");
                assert!(
                    f.choices.is_empty() || f.choices.contains(&f.default),
                    "{f:?}"
                );
            }
            // Each game completes a spec left without options, and refuses one it lacks.
            let mut spec = v1::CompetitionSpec::default();
            assert_eq!(g.competition_spec(&mut spec, &Values::new()), Ok(()), "{g}");
            let nonsense = Values::from([("no-such-option".to_string(), "1".to_string())]);
            let e = g.competition_spec(&mut spec, &nonsense).unwrap_err();
            assert!(e.contains("--no-such-option is not an option of"), "{e}");
        }
    }
}
