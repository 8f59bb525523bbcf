//! What the connection plays, knowing no game: a [`Bot`] answers the requests of one seat, a
//! [`Handler`] makes the bots of one game (by its registered name), and [`Games`] is the set of
//! handlers a connection is given, which its `Hello` lists and its requests are dispatched by.
//!
//! Each game's module ([`crate::ddz`], [`crate::mahjong`]) has a trait with one method per
//! decision of its game and a `handler` function turning a factory of such bots into a
//! [`Handler`]; adding a game is adding such a module, and nothing here changes.

use std::sync::Arc;

use arena_proto::payload::{self, DecodedEvents};
use arena_proto::v1;
use prost::Name;

/// The game an empty `game` field means: the wire's rule (docs/wire.md, "Games are named by a
/// string"), so that a bot-host or a request written before games had names still plays the
/// platform's first game.
pub const DEFAULT_GAME: &str = "ddz";

/// A `game` field's value as the game's name: empty means [`DEFAULT_GAME`].
pub fn game_name(field: &str) -> &str {
    if field.is_empty() {
        DEFAULT_GAME
    } else {
        field
    }
}

/// One seat's bot, game-neutral: the answer to each request of its seat, the table's end.
///
/// Bot authors implement a game's trait instead ([`crate::ddz::DdzBot`],
/// [`crate::mahjong::MahjongBot`]), whose adapter implements this one; implementing it directly
/// is for what wraps bots of any game (recording, timing) or speaks a game's messages itself.
pub trait Bot: Send + 'static {
    /// The answer to `request` (whole: the connection rebuilds incremental observations
    /// first), its game's action packed in the action's `game`. An empty action is judged at
    /// once by the referee, so it is the answer to what cannot be answered.
    fn decide(&mut self, request: &v1::DecisionRequest) -> v1::Action;

    /// Called once the table this bot sat at ended (its outcome and verdicts).
    fn end(&mut self, end: &v1::TableEnd) {
        let _ = end;
    }

    /// True if every decision takes microseconds (no search, no I/O, no sleeping): the
    /// connection then decides on its own task instead of handing each request to a blocking
    /// thread, which costs more than such a decision. A quick bot that is slow after all holds
    /// up the bot's other tables and its keepalive, so the default is false.
    fn is_quick(&self) -> bool {
        false
    }
}

/// Makes one seat's bot.
type Factory = dyn Fn() -> Box<dyn Bot> + Send + Sync;

/// The bots of one game: the game's registered name and a factory making a fresh bot for
/// every seat the connection is given at a table of that game. Made by a game's module
/// (`arena_sdk::ddz::handler(|| MyBot)`), or with [`Handler::new`] for a game the SDK has no
/// module for.
#[derive(Clone)]
pub struct Handler {
    game: String,
    make: Arc<Factory>,
}

impl Handler {
    /// The handler of the game registered as `game`, its seats' bots made by `factory`.
    pub fn new<B, F>(game: impl Into<String>, factory: F) -> Handler
    where
        B: Bot,
        F: Fn() -> B + Send + Sync + 'static,
    {
        Handler {
            game: game.into(),
            make: Arc::new(move || Box::new(factory()) as Box<dyn Bot>),
        }
    }

    /// The game's registered name.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// A fresh bot for one seat.
    pub fn make(&self) -> Box<dyn Bot> {
        (self.make)()
    }

    /// This handler with each bot it makes wrapped by `wrap` (to record or time what any
    /// game's bots decide).
    pub fn map<B, W>(self, wrap: W) -> Handler
    where
        B: Bot,
        W: Fn(Box<dyn Bot>) -> B + Send + Sync + 'static,
    {
        let make = self.make;
        Handler {
            game: self.game,
            make: Arc::new(move || Box::new(wrap(make())) as Box<dyn Bot>),
        }
    }
}

impl std::fmt::Debug for Handler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handler")
            .field("game", &self.game)
            .finish_non_exhaustive()
    }
}

/// The games a connection plays, one [`Handler`] each: `Hello.games` lists their names, and
/// each seat's bot is made by the handler of its table's game. One handler alone converts
/// into a set of one (`run(…, ddz::handler(|| MyBot), …)`).
#[derive(Clone, Debug, Default)]
pub struct Games {
    handlers: Vec<Handler>,
}

impl Games {
    /// No game yet.
    pub fn new() -> Games {
        Games::default()
    }

    /// These games and `handler`'s. Two handlers of one game are refused when the connection
    /// starts ([`Games::check`]).
    pub fn with(mut self, handler: Handler) -> Games {
        self.handlers.push(handler);
        self
    }

    /// The games' names, sorted: what `Hello.games` lists.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.handlers.iter().map(|h| h.game.clone()).collect();
        names.sort();
        names
    }

    /// The handler of the game a `game` field names (empty: [`DEFAULT_GAME`]), if it is one
    /// of these.
    pub fn get(&self, game: &str) -> Option<&Handler> {
        let game = game_name(game);
        self.handlers.iter().find(|h| h.game == game)
    }

    /// These games with every bot their handlers make wrapped by `wrap` ([`Handler::map`]).
    pub fn map<B, W>(self, wrap: W) -> Games
    where
        B: Bot,
        W: Fn(Box<dyn Bot>) -> B + Clone + Send + Sync + 'static,
    {
        Games {
            handlers: self
                .handlers
                .into_iter()
                .map(|h| h.map(wrap.clone()))
                .collect(),
        }
    }

    /// Whether a connection can play these: at least one game, each named once and by a name
    /// (bot-host refuses an empty name in `Hello.games`). The error says what to fix.
    pub fn check(&self) -> Result<(), String> {
        if self.handlers.is_empty() {
            return Err("no game to play: give a handler per game, e.g. \
                        arena_sdk::ddz::handler(|| MyBot)"
                .into());
        }
        for (i, h) in self.handlers.iter().enumerate() {
            if h.game.is_empty() {
                return Err(
                    "a handler names no game (give its registered name, e.g. \"ddz\")".into(),
                );
            }
            if self.handlers[..i].iter().any(|o| o.game == h.game) {
                return Err(format!(
                    "two handlers for the game {}: give one per game",
                    arena_proto::text::quote(&h.game)
                ));
            }
        }
        Ok(())
    }
}

impl From<Handler> for Games {
    fn from(handler: Handler) -> Games {
        Games::new().with(handler)
    }
}

/// Where a request is, for error messages: `request 7 of table "t1"`.
pub(crate) fn place(request: &v1::DecisionRequest) -> String {
    format!(
        "request {} of table {}",
        request.request_id,
        arena_proto::text::quote(&request.table_id)
    )
}

/// The game observation `O` in `request`, with the seat's events (each an `E`, which travel
/// encoded in the envelope) decoded and put in its events list, which `events` picks out: the
/// observation as the game defines it. `Err` says what is wrong: no observation, another
/// game's, bytes that do not decode, or an increment not made whole (the connection rebuilds
/// increments before a bot sees them).
///
/// What each game module's `observation` is made of. Every event is decoded; a seat's bot
/// reading one request after another decodes each event once with [`observe`].
pub fn observation<O, E>(
    request: &v1::DecisionRequest,
    events: impl FnOnce(&mut O) -> &mut Vec<E>,
) -> Result<O, String>
where
    O: Name + Default,
    E: prost::Message + Default,
{
    seat_observation(&mut DecodedEvents::default(), request, events)
}

/// A per-game bot as a connection's [`Bot`] for one seat, keeping the seat's events decoded
/// (each once) between its decisions: the games' adapters (`ddz::Adapter`, `mahjong::Adapter`)
/// are this with their event type, each implementing [`Bot`] for its bots.
#[derive(Debug)]
pub struct SeatAdapter<B, E> {
    pub(crate) bot: B,
    pub(crate) events: DecodedEvents<E>,
}

impl<B, E> SeatAdapter<B, E> {
    /// `bot` as the [`Bot`] of one seat.
    pub fn new(bot: B) -> Self {
        SeatAdapter {
            bot,
            events: DecodedEvents::default(),
        }
    }

    /// The bot it adapts.
    pub fn bot(&self) -> &B {
        &self.bot
    }

    /// The seat's events it holds decoded.
    pub fn events(&self) -> &DecodedEvents<E> {
        &self.events
    }
}

/// `decide` given the game observation `O` in `request`, as [`observation`] reads it, with
/// the seat's events decoded once: `seat` holds those of the seat's earlier requests, so only
/// the events past them are decoded (what each game module's adapter keeps per seat). `Err`
/// says what is wrong with the request, as [`observation`]'s does, or is `decide`'s.
pub fn observe<O, E, A>(
    seat: &mut DecodedEvents<E>,
    request: &v1::DecisionRequest,
    events: impl Fn(&mut O) -> &mut Vec<E>,
    decide: impl FnOnce(&O) -> Result<A, String>,
) -> Result<A, String>
where
    O: Name + Default,
    E: prost::Message + Default,
{
    let obs = seat_observation(seat, request, &events)?;
    let answer = decide(&obs);
    seat.restore(obs, events);
    answer
}

fn seat_observation<O, E>(
    seat: &mut DecodedEvents<E>,
    request: &v1::DecisionRequest,
    events: impl FnOnce(&mut O) -> &mut Vec<E>,
) -> Result<O, String>
where
    O: Name + Default,
    E: prost::Message + Default,
{
    let Some(envelope) = &request.observation else {
        return Err(format!("{}: no observation", place(request)));
    };
    if envelope.events_from != 0 {
        return Err(format!(
            "{}: its observation is incremental (events from {}); rebuild it whole first",
            place(request),
            envelope.events_from
        ));
    }
    seat.observation(envelope, events)
        .map_err(|e| format!("{}: {e}", place(request)))
}

/// The game's own outcome `O` of a table that ended: `None` when `end` carries none (the
/// scores are in the envelope's `outcome.scores` either way), `Err` when it carries another
/// game's or bytes that do not decode.
pub fn outcome<O: Name + Default>(end: &v1::TableEnd) -> Result<Option<O>, String> {
    match end.outcome.as_ref().and_then(|o| o.game.as_ref()) {
        None => Ok(None),
        some => payload::unpack(some, "outcome")
            .map(Some)
            .map_err(|e| format!("table {}: {e}", arena_proto::text::quote(&end.table_id))),
    }
}

/// What a game module's adapter answers `request` with: the action `decide` makes, packed; when
/// `game` does not ask the request's kind (`asks` false) or `decide` fails, an empty action,
/// which the referee judges at once, and a line on stderr saying why.
pub fn answer<A: Name>(
    request: &v1::DecisionRequest,
    game: &str,
    asks: bool,
    decide: impl FnOnce() -> Result<A, String>,
) -> v1::Action {
    if !asks {
        eprintln!(
            "arena: {}: {:?} is no decision of {game}; it answers nothing",
            place(request),
            request.kind()
        );
        return v1::Action::default();
    }
    match decide() {
        Ok(a) => action(&a),
        Err(why) => {
            eprintln!("arena: {why}; it answers nothing");
            v1::Action::default()
        }
    }
}

/// The answer `action` (a game's action message) as the envelope's action.
pub fn action<A: Name>(action: &A) -> v1::Action {
    v1::Action {
        game: Some(payload::pack(action)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nothing;

    impl Bot for Nothing {
        fn decide(&mut self, _: &v1::DecisionRequest) -> v1::Action {
            v1::Action::default()
        }
    }

    #[test]
    fn an_empty_game_field_is_the_default_game() {
        assert_eq!(game_name(""), DEFAULT_GAME);
        assert_eq!(game_name("mahjong"), "mahjong");
        let games = Games::from(Handler::new(DEFAULT_GAME, || Nothing));
        assert_eq!(games.get("").map(Handler::game), Some(DEFAULT_GAME));
        assert!(games.get("chess").is_none());
    }

    #[test]
    fn games_list_their_names_sorted_and_refuse_what_cannot_play() {
        let games = Games::new()
            .with(Handler::new("mahjong", || Nothing))
            .with(Handler::new("ddz", || Nothing));
        assert_eq!(games.names(), ["ddz", "mahjong"]);
        assert_eq!(games.check(), Ok(()));
        let twice = games
            .with(Handler::new("ddz", || Nothing))
            .check()
            .unwrap_err();
        assert_eq!(
            twice,
            "two handlers for the game \"ddz\": give one per game"
        );
        let none = Games::new().check().unwrap_err();
        assert!(none.starts_with("no game to play"), "{none}");
        let unnamed = Games::from(Handler::new("", || Nothing))
            .check()
            .unwrap_err();
        assert!(unnamed.contains("names no game"), "{unnamed}");
    }

    #[test]
    fn an_outcome_of_another_type_is_an_error_naming_the_table() {
        let end = v1::TableEnd {
            table_id: "t9".into(),
            outcome: Some(v1::Outcome {
                game: Some(payload::pack(&v1::Verdict::default())),
                ..Default::default()
            }),
            ..Default::default()
        };
        let e = outcome::<v1::TimeControl>(&end).unwrap_err();
        assert!(
            e.starts_with("table \"t9\": outcome carries a \"arena.v1.Verdict\""),
            "{e}"
        );
        assert_eq!(outcome::<v1::Verdict>(&v1::TableEnd::default()), Ok(None));
    }
}
