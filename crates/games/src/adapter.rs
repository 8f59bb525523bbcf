//! What a game gives the one runner ([`TableAdapter`]), written once for every game: a job
//! checked into a [`CheckedJob`], played on `arena-table`; a built-in bot by name
//! ([`Builtin`]); a table stepped with wire actions ([`State`], for replays and transcripts).

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use arena_proto::v1;
use arena_table::job::read_spec;
use arena_table::run::{Played, Player, SeatPlan, TableSetup, run_game};
use arena_table::{
    JobError, Pending, ProgramBot, RunOptions, SeatBot, SeatDialer, TableGame, TableSpec,
};

use crate::{GameKind, RequestBot};

/// A game's tables, set-ups and built-in bots, as the runner plays them: implemented once per
/// game (a unit struct that is also its [`crate::Game`]); everything else is written once
/// over it.
pub trait TableAdapter: Send + Sync + 'static {
    /// The game's table.
    type Table: TableGame;
    /// A job's set-up of this game, checked.
    type Setup: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// A built-in bot of this game, by spec.
    type Bot: Clone + fmt::Debug + PartialEq + fmt::Display + Send + Sync + 'static;

    /// The game's handle.
    fn kind(&'static self) -> GameKind;

    /// Reads the job's set-up (a missing one is the game's default), every error naming its
    /// field; a set-up of another game is an error.
    fn read_setup(&self, job: &v1::TableJob) -> Result<Self::Setup, JobError>;

    /// How overruns are counted when the job leaves it unspecified.
    fn rounding(&self) -> v1::PenaltyRounding;

    /// Reads a built-in bot's name: `None` when it names none.
    fn parse_bot(&self, name: &str) -> Option<Result<Self::Bot, String>>;

    /// The table a checked job plays.
    fn table(&self, spec: &TableSpec<Self::Setup, Self::Bot>) -> Self::Table;

    /// The built-in bot as an in-process player; `None` for a spec the referee does not run
    /// in-process (a `cmd:` program, which bot-host runs).
    fn local_bot(&self, bot: &Self::Bot) -> Option<Player<Self::Table>>;

    /// The built-in bot deciding requests from the wire, seeded with `seed`; `None` as for
    /// [`TableAdapter::local_bot`].
    fn request_bot(&self, bot: &Self::Bot, seed: u64) -> Option<Box<dyn RequestBot>>;
}

/// Checks a job of `game` (envelope already checked) into a [`CheckedJob`]: the one
/// implementation of [`crate::Game::check`].
pub fn check<A: TableAdapter>(
    game: &'static A,
    job: &v1::TableJob,
) -> Result<CheckedJob, JobError> {
    let setup = game.read_setup(job)?;
    let kind = game.kind();
    let spec = read_spec(
        job,
        kind.name(),
        setup,
        kind.seat_count(),
        game.rounding(),
        |name| SeatBot::parse(name, |n| game.parse_bot(n)),
    )?;
    Ok(CheckedJob(Arc::new(Checked { game, spec })))
}

/// Reads a built-in bot of `game` into a [`Builtin`]: the one implementation of
/// [`crate::Game::builtin`].
pub fn builtin<A: TableAdapter>(
    game: &'static A,
    name: &str,
) -> Option<Result<crate::Builtin, String>> {
    game.parse_bot(name)
        .map(|r| r.map(|bot| Builtin(Arc::new(BuiltinOf { game, bot }))))
}

/// A job of some game, checked: what the runner plays, a replay is walked on, a dispatcher
/// routes.
#[derive(Clone)]
pub struct CheckedJob(Arc<dyn CheckedTable>);

/// A future playing a table.
type Playing<'a> = Pin<Box<dyn Future<Output = Played> + Send + 'a>>;

/// The game-erased side of a checked job.
trait CheckedTable: Send + Sync + fmt::Debug {
    fn kind(&self) -> GameKind;
    fn table_id(&self) -> &str;
    fn builtin_seats(&self) -> Vec<bool>;
    fn all_builtin(&self) -> bool;
    fn play<'a>(
        &'a self,
        job: &'a v1::TableJob,
        opts: &'a RunOptions,
        dialer: &'a dyn SeatDialer,
        programs: &'a [Option<ProgramBot>],
    ) -> Playing<'a>;
    fn state(&self) -> Box<dyn State>;
    fn as_any(&self) -> &dyn Any;
    fn eq_dyn(&self, other: &dyn CheckedTable) -> bool;
}

struct Checked<A: TableAdapter> {
    game: &'static A,
    spec: TableSpec<A::Setup, A::Bot>,
}

impl<A: TableAdapter> fmt::Debug for Checked<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.spec.fmt(f)
    }
}

impl<A: TableAdapter> CheckedTable for Checked<A> {
    fn kind(&self) -> GameKind {
        self.game.kind()
    }

    fn table_id(&self) -> &str {
        &self.spec.table_id
    }

    fn builtin_seats(&self) -> Vec<bool> {
        self.spec.seats.iter().map(SeatBot::is_builtin).collect()
    }

    fn all_builtin(&self) -> bool {
        self.spec.all_builtin()
    }

    fn play<'a>(
        &'a self,
        job: &'a v1::TableJob,
        opts: &'a RunOptions,
        dialer: &'a dyn SeatDialer,
        programs: &'a [Option<ProgramBot>],
    ) -> Playing<'a> {
        let table = self.game.table(&self.spec);
        let kind = self.game.kind();
        let seats: Vec<SeatPlan<A::Table>> = self
            .spec
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match (programs.get(i), s) {
                (Some(Some(p)), _) => {
                    let protocol = kind
                        .program_protocol_for(i as u32, &p.cmd)
                        .unwrap_or_else(|why| Box::new(NoProtocol(why)));
                    SeatPlan::Program(Box::new(p.seat(protocol)))
                }
                (_, SeatBot::Builtin(b)) => match self.game.local_bot(b) {
                    Some(bot) => SeatPlan::Local(bot),
                    None => SeatPlan::Remote(b.to_string()),
                },
                (_, SeatBot::Remote(name)) => SeatPlan::Remote(name.clone()),
            })
            .collect();
        let setup = TableSetup {
            table_id: self.spec.table_id.clone(),
            seed: self.spec.seed,
            time: self.spec.time,
            policy: self.spec.policy,
        };
        Box::pin(async move { run_game(job, table, seats, &setup, opts, dialer).await })
    }

    fn state(&self) -> Box<dyn State> {
        Box::new(self.game.table(&self.spec))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn eq_dyn(&self, other: &dyn CheckedTable) -> bool {
        other
            .as_any()
            .downcast_ref::<Checked<A>>()
            .is_some_and(|o| o.spec == self.spec)
    }
}

impl CheckedJob {
    /// The game.
    pub fn game(&self) -> GameKind {
        self.0.kind()
    }

    /// The table id.
    pub fn table_id(&self) -> &str {
        self.0.table_id()
    }

    /// For each seat in order, whether a built-in bot sits there.
    pub fn builtin_seats(&self) -> Vec<bool> {
        self.0.builtin_seats()
    }

    /// True when every seat is a built-in bot (the table runs without any I/O).
    pub fn all_builtin(&self) -> bool {
        self.0.all_builtin()
    }

    /// Plays the job (built-in bots in-process, other seats through `dialer`) on the one
    /// runner.
    pub async fn play(
        &self,
        job: &v1::TableJob,
        opts: &RunOptions,
        dialer: &dyn SeatDialer,
    ) -> Played {
        self.0.play(job, opts, dialer, &[]).await
    }

    /// Plays the job on the one runner as [`CheckedJob::play`] does, but with the program
    /// `programs[seat]` (where there is one) in that seat instead of the bot the job names:
    /// run here, a fresh process per seat, through the game's line protocol
    /// ([`crate::Game::program_protocol`]). For hosts without bot-host (the CLI's `cmd:`
    /// seats); a referee never starts programs.
    pub async fn play_with_programs(
        &self,
        job: &v1::TableJob,
        opts: &RunOptions,
        dialer: &dyn SeatDialer,
        programs: &[Option<ProgramBot>],
    ) -> Played {
        self.0.play(job, opts, dialer, programs).await
    }

    /// The table dealt and not yet played, stepped with wire actions.
    pub fn state(&self) -> Box<dyn State> {
        self.0.state()
    }

    /// The checked spec, when the job is one of `A`'s (tests and game-specific tools).
    pub fn spec<A: TableAdapter>(&self) -> Option<&TableSpec<A::Setup, A::Bot>> {
        self.0
            .as_any()
            .downcast_ref::<Checked<A>>()
            .map(|c| &c.spec)
    }
}

impl fmt::Debug for CheckedJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CheckedJob({}, {:?})", self.0.kind(), self.0)
    }
}

impl PartialEq for CheckedJob {
    fn eq(&self, other: &CheckedJob) -> bool {
        self.0.eq_dyn(&*other.0)
    }
}

/// A built-in bot of some game, by spec.
#[derive(Clone)]
pub struct Builtin(Arc<dyn BuiltinBot>);

trait BuiltinBot: Send + Sync {
    fn kind(&self) -> GameKind;
    fn request_bot(&self, seed: u64) -> Option<Box<dyn RequestBot>>;
    fn name(&self) -> String;
    fn debug(&self) -> String;
    fn as_any(&self) -> &dyn Any;
    fn eq_dyn(&self, other: &dyn BuiltinBot) -> bool;
}

struct BuiltinOf<A: TableAdapter> {
    game: &'static A,
    bot: A::Bot,
}

impl<A: TableAdapter> BuiltinBot for BuiltinOf<A> {
    fn kind(&self) -> GameKind {
        self.game.kind()
    }

    fn request_bot(&self, seed: u64) -> Option<Box<dyn RequestBot>> {
        self.game.request_bot(&self.bot, seed)
    }

    fn name(&self) -> String {
        self.bot.to_string()
    }

    fn debug(&self) -> String {
        format!("{:?}", self.bot)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn eq_dyn(&self, other: &dyn BuiltinBot) -> bool {
        other
            .as_any()
            .downcast_ref::<BuiltinOf<A>>()
            .is_some_and(|o| o.bot == self.bot)
    }
}

impl Builtin {
    /// The game the bot plays.
    pub fn game(&self) -> GameKind {
        self.0.kind()
    }

    /// The bot, seeded with `seed`, deciding requests from the wire; `None` if the spec names
    /// no built-in bot (a `cmd:` spec).
    pub fn request_bot(&self, seed: u64) -> Option<Box<dyn RequestBot>> {
        self.0.request_bot(seed)
    }

    /// The spec, when the bot is one of `A`'s.
    pub fn spec<A: TableAdapter>(&self) -> Option<&A::Bot> {
        self.0
            .as_any()
            .downcast_ref::<BuiltinOf<A>>()
            .map(|b| &b.bot)
    }
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.name())
    }
}

impl fmt::Debug for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Builtin({}, {})", self.0.kind(), self.0.debug())
    }
}

impl PartialEq for Builtin {
    fn eq(&self, other: &Builtin) -> bool {
        self.0.eq_dyn(&*other.0)
    }
}

/// A table of some game stepped with wire actions: what a replay is walked on and a transcript
/// written from, for any game (OpenSpiel's `State`, with the arena's wire types).
pub trait State: Send {
    /// How many seats the table has.
    fn seats(&self) -> usize;

    /// The decisions the table waits for now, in seat order; empty once it is over.
    fn pending_now(&self) -> Vec<Pending>;

    /// What `seat` may see now.
    fn observe(&self, seat: u32) -> v1::Observation;

    /// [`State::observe`] with its events from index `from` on (an incremental observation).
    fn observe_from(&self, seat: u32, from: usize) -> v1::Observation;

    /// Reads a wire answer for `pending` into an action the rules accept, or the fault.
    fn check_wire(&self, pending: &Pending, action: &v1::Action) -> Result<(), arena_table::Fault>;

    /// Applies one wire action per pending decision, in the order of
    /// [`State::pending_now`]; an error names the step that does not fit.
    fn apply_wire(&mut self, round: &[(Pending, v1::Action)]) -> Result<(), String>;

    /// How the game ended, once it is over.
    fn result(&self) -> Option<v1::Outcome>;

    /// How the game ends when `seat` forfeits now.
    fn forfeit_now(&self, seat: u32) -> v1::Outcome;
}

impl<G: TableGame> State for G {
    fn seats(&self) -> usize {
        self.seat_count()
    }

    fn pending_now(&self) -> Vec<Pending> {
        self.pending()
    }

    fn observe(&self, seat: u32) -> v1::Observation {
        self.observation(seat)
    }

    fn observe_from(&self, seat: u32, from: usize) -> v1::Observation {
        self.observation_from(seat, from)
    }

    fn check_wire(&self, pending: &Pending, action: &v1::Action) -> Result<(), arena_table::Fault> {
        self.decode(pending, action).map(|_| ())
    }

    fn apply_wire(&mut self, round: &[(Pending, v1::Action)]) -> Result<(), String> {
        let mut actions = Vec::with_capacity(round.len());
        for (p, a) in round {
            let action = self.decode(p, a).map_err(|f| f.to_string())?;
            actions.push((*p, action));
        }
        self.apply(&actions)
    }

    fn result(&self) -> Option<v1::Outcome> {
        self.outcome()
    }

    fn forfeit_now(&self, seat: u32) -> v1::Outcome {
        self.forfeit(seat)
    }
}

/// Writes a round's answers into `out` as a four-seat rules engine takes them (seat, action);
/// how many, or `None` for more than four (no allocation on the fast path).
#[inline]
pub(crate) fn answers_into<A: Copy>(
    actions: &[(arena_table::Pending, A)],
    out: &mut [(u8, A); 4],
) -> Option<usize> {
    if actions.len() > out.len() {
        return None;
    }
    for (slot, (p, a)) in out.iter_mut().zip(actions) {
        *slot = (seat_u8(p.seat), *a);
    }
    Some(actions.len())
}

/// Why more answers than seats are refused.
pub(crate) fn too_many<A>(actions: &[(arena_table::Pending, A)]) -> String {
    format!("{} answers at once", actions.len())
}

/// A seat number as a rules engine with `u8` seats takes it (a number past 255 becomes 255,
/// out of range, so the rules refuse it rather than wrap it onto another seat).
pub(crate) fn seat_u8(seat: u32) -> u8 {
    u8::try_from(seat).unwrap_or(u8::MAX)
}

/// The protocol of a program seat whose spec names a protocol its game lacks: its hosts check
/// specs before a table ([`GameKind::check_protocol`]), so reaching one is the platform's
/// mistake, which every request reports as such (never as the bot's fault).
struct NoProtocol(String);

impl arena_line::ProgramProtocol for NoProtocol {
    fn framing(&self) -> arena_line::Framing {
        arena_line::Framing::default()
    }

    fn greeting(&self) -> Option<&'static str> {
        None
    }

    fn read_greeting(&self, _: &str) -> Result<Option<Option<String>>, String> {
        Ok(None)
    }

    fn ask(
        &mut self,
        _: &v1::DecisionRequest,
        _: std::time::Duration,
        _: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        Err(self.0.clone())
    }

    fn hear(&mut self, _: &str, _: &str, _: bool) -> Result<arena_line::Heard, String> {
        Ok(arena_line::Heard::Nothing)
    }

    fn close(&mut self, _: Option<&v1::Outcome>, _: &mut Vec<String>) {}
}
