//! bot-host: where bots live. To a referee every bot looks the same: a seat stream
//! (`SeatHost.Seat`, see `proto/arena/v1/seat.proto`). Behind it a seat is played by
//!
//! - a **remote bot** connected over `BotGateway.Play` with its token (one stream per bot, any
//!   number of tables; keepalives, resume within a grace period, presence in the store);
//! - a **bot program** started as a child process speaking the Dou Dizhu line protocol, under
//!   CPU-time and memory limits (see [`program`](crate#bot-programs));
//! - a **built-in bot** (`expert`, `seed`, `random`, `search:…`, `ladder:K/N`).
//!
//! bot-host listens on two ports: the **bot port** (`BotGateway`, health, reflection: the only
//! one to expose to bots) and the **seat port** (`SeatHost` and health, for referees presenting
//! the cluster token; internal). Every call passes [`arena_auth::AuthLayer`]. Use [`serve`] from
//! the command line, or [`BotHost::bind`] then [`BotHost::run`] to learn the bound ports first
//! (tests bind `127.0.0.1:0`). Bot tokens are issued and hashed by [`arena_auth::token`].
//!
//! # Seats
//!
//! A seat stream opens with `SeatOpen{table_id, seat, bot, game, time}`. The bot name is looked
//! up in this order: a built-in bot name (reserved: never looked up in the store); a registered
//! bot (`Store::bot`). Anything else ends the stream with `NOT_FOUND` naming `open.bot`; a
//! malformed open (empty table id or bot, unknown game, seat out of range, first message not an
//! open) with `INVALID_ARGUMENT` naming the field. bot-host answers `SeatReady` once the bot can
//! play, then one `DecisionReply` per answered request; `SeatClose` ends the stream. When
//! bot-host gives up on a bot it sends one `SeatFault` and ends the stream with status OK.
//! Requests sent before `SeatReady` are kept and delivered in order.
//!
//! # Remote bots
//!
//! - A seat for a remote bot takes one of the bot's slots (`Hello.capacity`, capped by
//!   `BotRecord::max_tables` when non-zero). Seats beyond it wait in line, first come first
//!   served, until a slot frees; requests sent meanwhile are kept. A waiting seat gets a
//!   `SeatWaiting` every keepalive interval, so the referee does not give up on it: waiting for
//!   a busy bot is the platform's scheduling, never the bot's fault.
//! - A seat for a bot that is not connected waits for it up to the grace period, then gets
//!   `SeatFault{DISCONNECTED}` naming the bot.
//! - A bot plays the games its `Hello.games` lists (none: Dou Dizhu only), recorded in the store
//!   for the ladder. A seat at a table of another game gets `SeatFault{DISCONNECTED}` at once,
//!   naming the games the bot plays: a verdict against the bot (it is not available for that
//!   game), never the platform's failure, which would send the table back forever.
//! - A bot whose connection drops (stream closed or broken, or nothing heard for
//!   `missed_keepalives` keepalive intervals) keeps its session and tables for the grace period.
//!   Reconnecting with `Hello.resume_session` within it gives them back: `Welcome.resumed`
//!   holds every pending request (each a full snapshot). Afterwards the seats get
//!   `SeatFault{DISCONNECTED}`. A bot that comes back without `resume_session` gets a new
//!   session, and the old session's tables are given up at once.
//! - While connected, the bot's presence (`Store::set_presence(bot, advertised address, ttl)`)
//!   is refreshed every third of the TTL; it is cleared when the session ends for good (grace
//!   over, or shutdown). During the grace period it is no longer refreshed.
//!
//! # What bot-host judges
//!
//! The referee enforces deadlines and legality: bot-host forwards what a bot answered, late,
//! illegal or of the wrong kind. bot-host itself only reports what it cannot forward: a
//! connection that did not come back (`DISCONNECTED`), a program that crashed or could not start
//! (`CRASHED`), wrote something that is no line of the protocol (`MALFORMED`), never said
//! `join` or stayed silent past the hard cap plus a margin (`TIMEOUT`).
//!
//! # Bot programs
//!
//! See the `program` module source documentation: one process per table seat, its own working
//! directory, run in the sandbox of [`arena_sandbox`] (`docs/sandbox.md`): the host-wide
//! [`ProcessLimits::limits`] lowered by the bot record's own (CPU time, memory, processes, open
//! files, file size, wall time), namespaces and Landlock as the kernel grants them (the start-up
//! line and log say which, and warn loudly of any missing), only the environment variables of
//! [`ProcessLimits::pass_env`] (bot-host's own may hold credentials); it and everything it
//! started are killed when the table ends, it faults, or bot-host dies. A registered command is
//! split like a shell splits words and run in the process's working directory, so it should
//! name its files by absolute path.
//!
//! # Telemetry
//!
//! Each remote bot's stream is a `bot_connection` span and each seat stream a `seat` span, the
//! child of the referee's trace context carried in the stream's metadata. Metrics (no-ops unless
//! export is on): remote bots connected (`arena.bots.connected`), seats open by kind of bot
//! (`arena.seats.open`), decisions relayed and their latency from asking the bot to the reply
//! leaving (`arena.decisions`, `arena.decision.latency`, with `role=bot-host` and `bot_kind`), and
//! the faults bot-host reports (`arena.seat.faults`). `docs/observability.md` lists them all.
//!
//! # Shutdown
//!
//! When the shutdown future completes: no new connections or streams are accepted, health turns
//! NOT_SERVING, connected bots get a `Notice`, tables in flight get `shutdown_grace` to finish;
//! then remaining seats get `SeatFault{DISCONNECTED}`, bot streams end with `UNAVAILABLE`,
//! processes are killed and presence records cleared.

mod builtin;
mod config;
mod ctx;
mod error;
mod gateway;
mod hub;
mod metrics;
mod mux;
mod outbox;
mod program;
mod seat;
mod seat_io;
mod server;

pub use arena_sandbox::{DEFAULT_PATH as SANDBOX_PATH, Isolation, Limits, Policy};
pub use config::{
    AuthFailureLimit, BotHostConfig, DEFAULT_GRACE, DEFAULT_KEEPALIVE, DEFAULT_LISTEN,
    DEFAULT_PASS_ENV, DEFAULT_SEAT_LISTEN, DecisionLimits, ProcessLimits,
};
pub use error::BotHostError;
pub use gateway::{MAX_CAPACITY, MAX_NAME_CHARS};
pub use server::{BotHost, serve};
