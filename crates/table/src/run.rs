//! Running tables, one runner for every caller:
//!
//! - [`play_fast`]: in-process players, nothing but the rules (no time control, no verdicts, no
//!   replay, no allocation per decision): self-play, matches, panels and difficulty measurement;
//! - [`play_local`]: in-process players refereed as a table (time control, verdicts, replay), on
//!   one thread: a referee's all-built-in tables;
//! - [`play_async`]: tables with remote or program seats ([`SeatPlan::Remote`],
//!   [`SeatPlan::Program`]), asking every pending seat concurrently, each with the hard cap as
//!   its deadline; [`run_game`] picks between the last two.
//!
//! Both refereed drivers trace each decision as a `decision` span, and a round in which the
//! game waits on several seats at once (Mahjong's claims after a discard or an added kong) as
//! a `claim_window` span around its decisions: `table_id`, `from` (the seat whose action they
//! answer, [`TableGame::answered_seat`]) and `seats` (how many are asked). Dou Dizhu asks one seat
//! at a time, so its tables have none. The in-process driver records both at `debug` only.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arena_proto::v1;
use tracing::Instrument;

use crate::game::{Fault, Pending, Policy, TableGame};
use crate::program::{OpenProgram, ProgramSeat};
use crate::remote::{RemoteSeat, SeatDialer, SeatFailure};
use crate::seat::{Answer, LocalPlayer, Reply, panic_message};
use crate::table::{Record, Request, Table, error_record};
use crate::time::TimeRules;

/// How a referee runs tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// The referee's name, written into results.
    pub referee: String,
    /// How long bot-host has to report a remote seat ready.
    pub open_timeout: Duration,
    /// How long bot-host has to end a seat stream after the table closed it.
    pub close_timeout: Duration,
    /// The cluster token presented to bot-host's seat port.
    pub seat_token: Option<arena_auth::Secret>,
    /// When the platform fails under a remote seat (bot-host unreachable, its stream broken),
    /// how long the table keeps trying to open the seat again before it is handed back.
    pub reconnect_grace: Duration,
    /// How long a table of light in-process players plays on the calling task before the rest
    /// of it moves to a blocking thread ([`INLINE_BUDGET`] by default).
    pub inline_budget: Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            referee: "referee".into(),
            open_timeout: Duration::from_secs(10),
            close_timeout: Duration::from_secs(1),
            seat_token: None,
            reconnect_grace: Duration::from_secs(15),
            inline_budget: INLINE_BUDGET,
        }
    }
}

/// What a table is about, for its drivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSetup {
    /// The table id.
    pub table_id: String,
    /// Seeds in-process players.
    pub seed: u64,
    /// Time control.
    pub time: TimeRules,
    /// The verdict policy (`None`: the game's default).
    pub policy: Option<Policy>,
}

/// The release recorded for the referee's in-process built-in bots.
pub const BUILTIN_RELEASE: &str = "builtin";

/// An in-process player the referee's drivers can move to a blocking thread.
pub type Player<G> = Box<dyn LocalPlayer<G> + Send>;

/// Who sits in a seat, ready to play.
pub enum SeatPlan<G: TableGame> {
    /// An in-process player.
    Local(Player<G>),
    /// A bot reached through bot-host, by registered name.
    Remote(String),
    /// A program the table runs itself (a `cmd:` seat of the CLI), spoken to in its game's line
    /// protocol.
    Program(Box<ProgramSeat>),
}

/// How playing a table ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// The table has a result and a replay (also a forfeit, a verdict, an internal error).
    Finished(Box<Record>),
    /// The platform failed under a remote seat and the seat could not be opened again within
    /// [`RunOptions::reconnect_grace`]: nothing is recorded, and the table is to be played again
    /// from its seed (no bot is blamed).
    Interrupted(String),
}

/// The default of [`RunOptions::inline_budget`]: how long a table of light in-process players
/// (none [`LocalPlayer::is_heavy`]) plays on the calling task before the rest of it moves to a
/// blocking thread. A Dou Dizhu table of built-in bots ends well within it, so it costs no
/// thread hand-off (which costs more CPU than such a table's rules and replay); a long table (a
/// Mahjong hand of expert bots) is handed over once, holding an async worker no longer than
/// this and one decision.
pub const INLINE_BUDGET: Duration = Duration::from_micros(500);

/// Plays `game` with `seats`. When every seat is in-process, without any async work: on the
/// calling task for up to [`RunOptions::inline_budget`] when no player is heavy, the rest (or
/// the whole table, with a heavy player) in one hand-off to a blocking thread. Otherwise with
/// the async driver.
pub async fn run_game<G: TableGame>(
    job: &v1::TableJob,
    game: G,
    seats: Vec<SeatPlan<G>>,
    setup: &TableSetup,
    opts: &RunOptions,
    dialer: &dyn SeatDialer,
) -> Played {
    let all_local = seats.iter().all(|s| matches!(s, SeatPlan::Local(_)));
    if !all_local {
        // Boxed: the async driver's state is large, and a table of in-process players should
        // not carry (and copy) it in its future.
        // The job left the decision limit to the default: a bot with its own plays by it.
        let own_limits = job.time.is_none_or(|t| t.decision_ms == 0);
        return match Box::pin(play_async(game, seats, setup, opts, dialer, own_limits)).await {
            Ok(table) => Played::Finished(Box::new(table.record(job, &opts.referee))),
            Err(why) => Played::Interrupted(why),
        };
    }
    let players: Vec<_> = seats
        .into_iter()
        .filter_map(|s| match s {
            SeatPlan::Local(p) => Some(p),
            SeatPlan::Remote(_) | SeatPlan::Program(_) => None,
        })
        .collect();
    let failed = |why: String| {
        Played::Finished(Box::new(error_record(
            &setup.table_id,
            Some(job),
            &opts.referee,
            why,
        )))
    };
    let mut local = LocalTable::start(game, players, setup);
    if !local.has_heavy_player() {
        let until = Instant::now() + opts.inline_budget;
        match catch_unwind(AssertUnwindSafe(|| local.play_until(until))) {
            Ok(true) => {
                return Played::Finished(Box::new(local.finish().record(job, &opts.referee)));
            }
            Ok(false) => {}
            Err(payload) => {
                let why = panic_message(payload.as_ref());
                tracing::error!(error = %why, "a table panicked");
                return failed(format!("internal error: the table panicked: {why}"));
            }
        }
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let span = tracing::Span::current();
    let handle = tokio::task::spawn_blocking(move || {
        let _e = span.enter();
        local.play(&cancel).then(|| local.finish())
    });
    match handle.await {
        Ok(Some(table)) => Played::Finished(Box::new(table.record(job, &opts.referee))),
        Ok(None) => failed("the table was cancelled".into()),
        Err(e) => {
            tracing::error!(error = %e, "a table thread failed");
            failed(format!("internal error: the table's thread failed: {e}"))
        }
    }
}

/// Sets the flag when dropped: a blocking table stops at its next decision once the async task
/// waiting for it is gone (aborted at shutdown, or its referee killed).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Calls an in-process player, turning a panic into a crash fault.
fn call_local<G: TableGame>(
    player: &mut (dyn LocalPlayer<G> + Send),
    game: &G,
    p: &Pending,
) -> Reply<G::Action> {
    call_local_from(player, game, p, Instant::now()).0
}

/// [`call_local`] for a decision asked at `start`, and when the answer came: a driver asking
/// decision after decision reads the clock once for each, the end of one being the start of
/// the next.
fn call_local_from<G: TableGame>(
    player: &mut (dyn LocalPlayer<G> + Send),
    game: &G,
    p: &Pending,
    start: Instant,
) -> (Reply<G::Action>, Instant) {
    let answer = match catch_unwind(AssertUnwindSafe(|| player.decide(&game.view(p.seat), p))) {
        Ok(a) => Answer::Action(a),
        Err(payload) => Answer::Fault(Fault::new(
            v1::VerdictKind::Crashed,
            format!(
                "the built-in bot panicked: {}",
                panic_message(payload.as_ref())
            ),
        )),
    };
    let end = Instant::now();
    (Reply::new(answer, end - start), end)
}

/// A table of in-process players played round by round, so that [`run_game`] can start it on
/// the calling task and finish it on a blocking thread.
struct LocalTable<G: TableGame> {
    table: Table<G>,
    players: Vec<Player<G>>,
    table_id: String,
    /// The round's requests and replies, reused from round to round.
    requests: Vec<crate::table::Request>,
    replies: Vec<Reply<G::Action>>,
    /// When the last answer came (or the table started, or moved to another thread): the next
    /// decision is timed from here. The rules' work in between is microseconds, well inside
    /// the milliseconds a decision is charged in.
    clock: Instant,
}

impl<G: TableGame> LocalTable<G> {
    /// Starts every player and seats it.
    fn start(game: G, mut players: Vec<Player<G>>, setup: &TableSetup) -> LocalTable<G> {
        for (i, p) in players.iter_mut().enumerate() {
            p.start(i as u32, setup.seed);
        }
        let mut table = Table::new(game, setup.time, setup.policy);
        for i in 0..players.len() {
            table.set_release(i, BUILTIN_RELEASE);
        }
        LocalTable {
            table,
            players,
            table_id: setup.table_id.clone(),
            requests: Vec::new(),
            replies: Vec::new(),
            clock: Instant::now(),
        }
    }

    fn has_heavy_player(&self) -> bool {
        self.players.iter().any(|p| p.is_heavy())
    }

    /// Plays rounds until the table ends (true) or `until` has passed (false).
    fn play_until(&mut self, until: Instant) -> bool {
        while let Some(answered) = self.round() {
            if answered >= until {
                return false;
            }
        }
        true
    }

    /// Plays the table to its end (true), unless `cancel` is set first (false).
    fn play(&mut self, cancel: &AtomicBool) -> bool {
        // Moved to a blocking thread, maybe after a wait for one: not the next player's time.
        self.clock = Instant::now();
        loop {
            if cancel.load(Ordering::Relaxed) {
                return false;
            }
            if self.round().is_none() {
                return true;
            }
        }
    }

    /// Asks and settles one round: when its last answer came, or `None` once the table has
    /// ended.
    fn round(&mut self) -> Option<Instant> {
        if !self.table.next_round_into(&mut self.requests) {
            return None;
        }
        let mut answered = None;
        let table = &self.table;
        let window = if table.round_size() > 1 {
            tracing::debug_span!(
                "claim_window",
                table_id = %self.table_id,
                from = table.game().answered_seat(),
                seats = self.requests.len()
            )
        } else {
            tracing::Span::none()
        };
        let in_window = window.enter();
        self.replies.clear();
        for r in &self.requests {
            let reply = match self.players.get_mut(r.seat as usize) {
                Some(p) => {
                    let _span = tracing::debug_span!(
                        "decision",
                        index = r.index,
                        seat = r.seat,
                        kind = r.kind.as_str_name()
                    )
                    .entered();
                    let (reply, at) =
                        call_local_from(p.as_mut(), table.game(), &r.pending(), self.clock);
                    self.clock = at;
                    answered = Some(at);
                    reply
                }
                None => Reply::new(
                    Answer::Fault(Fault::new(
                        v1::VerdictKind::Crashed,
                        "no player in this seat",
                    )),
                    Duration::ZERO,
                ),
            };
            self.replies.push(reply);
        }
        drop(in_window);
        self.table.settle_from(&mut self.replies);
        // A round of seats without players took no time of theirs: the clock is read instead.
        Some(answered.unwrap_or_else(Instant::now))
    }

    /// Tells every player the game is over; the ended table.
    fn finish(mut self) -> Table<G> {
        for (i, p) in self.players.iter_mut().enumerate() {
            p.finish(&self.table.game().view(i as u32));
        }
        self.table
    }
}

/// Plays a table of in-process players synchronously (the fast path). Returns the ended table,
/// or `None` if `cancel` was set first. Time control applies as everywhere: an answer that comes
/// back after the hard cap is a timeout.
pub fn play_local<G: TableGame>(
    game: G,
    players: Vec<Player<G>>,
    setup: &TableSetup,
    cancel: &AtomicBool,
) -> Option<Table<G>> {
    let mut local = LocalTable::start(game, players, setup);
    local.play(cancel).then(|| local.finish())
}

/// An in-process player answered with an action the rules refuse. Built-in bots never do; bots
/// wrapping programs turn their program's faults into verdicts and legal fallbacks first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bot {bot} in seat {seat} made an illegal action: {reason}")]
pub struct Misplay {
    /// The seat.
    pub seat: u32,
    /// The bot's name.
    pub bot: String,
    /// Why the rules refused the action.
    pub reason: String,
}

/// The buffers [`play_fast`] reuses from game to game, so no decision allocates.
pub struct Scratch<G: TableGame> {
    pending: Vec<Pending>,
    actions: Vec<(Pending, G::Action)>,
}

impl<G: TableGame> Scratch<G> {
    /// Empty buffers (they grow to the largest round once).
    pub fn new() -> Scratch<G> {
        Scratch {
            pending: Vec::new(),
            actions: Vec::new(),
        }
    }
}

impl<G: TableGame> Default for Scratch<G> {
    fn default() -> Self {
        Scratch::new()
    }
}

/// Plays `game` to the end with `players[seat]` in each seat, on the calling thread, with nothing
/// but the rules: no time control, verdicts or replay (the fast path). Players of one concrete
/// type are called directly (no dynamic dispatch per decision); mixed players go in as
/// `&mut dyn LocalPlayer<G>`. Each player is started
/// with `seed`, asked from its seat's view only, and finished with its last view.
///
/// A missing player or an action the rules refuse stops the game with a [`Misplay`]; `game` is
/// then left where it stopped.
// Inlined into its one caller per game (self-play's hot path), whichever codegen unit it is in.
#[inline]
pub fn play_fast<G: TableGame, P: LocalPlayer<G>>(
    game: &mut G,
    players: &mut [P],
    seed: u64,
    scratch: &mut Scratch<G>,
) -> Result<(), Misplay> {
    for (i, p) in players.iter_mut().enumerate() {
        p.start(i as u32, seed);
    }
    loop {
        scratch.pending.clear();
        game.pending_into(&mut scratch.pending);
        if scratch.pending.is_empty() {
            break;
        }
        scratch.actions.clear();
        for p in &scratch.pending {
            let Some(player) = players.get_mut(p.seat as usize) else {
                return Err(Misplay {
                    seat: p.seat,
                    bot: "nobody".into(),
                    reason: "no player in this seat".into(),
                });
            };
            let action = player.decide(&game.view(p.seat), p);
            scratch.actions.push((*p, action));
        }
        if let Err((seat, fault)) = game.check_and_apply(&scratch.actions) {
            let bot = players
                .get(seat as usize)
                .map_or_else(|| "nobody".into(), |p| p.name());
            return Err(Misplay {
                seat,
                bot,
                reason: fault.reason,
            });
        }
    }
    for (i, p) in players.iter_mut().enumerate() {
        p.finish(&game.view(i as u32));
    }
    Ok(())
}

/// A seat in the async driver.
enum Handle<G: TableGame> {
    /// An in-process player; `None` once lost (a heavy player given up on at the hard cap).
    Local(Option<Player<G>>),
    /// An open stream to bot-host, and how to open it again.
    Remote(Box<RemoteSeat>, v1::SeatOpen),
    /// A program the table runs.
    Program(Box<OpenProgram>),
    /// A seat that could not be opened: its first decision gets this fault.
    Failed(Fault),
}

/// Opens a remote seat. A platform failure is tried again (with backoff, each attempt dialing
/// afresh, so a bot that moved to another bot-host is found there) for up to the reconnect
/// grace; past it, the platform's failure is returned. When `reopening` (the platform failed
/// under the seat mid-table), whatever goes wrong is the platform's: the bot may not have found
/// its way back yet.
async fn open_remote(
    dialer: &dyn SeatDialer,
    open: &v1::SeatOpen,
    opts: &RunOptions,
    reopening: bool,
) -> Result<RemoteSeat, SeatFailure> {
    let until = Instant::now() + opts.reconnect_grace;
    let mut wait = Duration::from_millis(100);
    loop {
        let timeout = if reopening {
            opts.open_timeout
                .min(until.saturating_duration_since(Instant::now()))
                .max(Duration::from_millis(1))
        } else {
            opts.open_timeout
        };
        let attempt = match dialer
            .channel_for(&open.bot, &open.table_id, open.seat)
            .await
        {
            Ok(link) => {
                // A seat opened again mid-table holds its table's other slots: it waits no
                // longer than the grace, not in line for as long as the bot is busy.
                let latest = reopening.then(|| tokio::time::Instant::from_std(until));
                let token = opts.seat_token.as_ref();
                RemoteSeat::open(link, open.clone(), timeout, latest, token).await
            }
            Err(why) => Err(SeatFailure::Platform(why.to_string())),
        };
        let why = match attempt {
            Ok(seat) => return Ok(seat),
            Err(SeatFailure::Bot(f)) if !reopening => return Err(SeatFailure::Bot(f)),
            Err(SeatFailure::Bot(f)) => f.reason,
            Err(SeatFailure::Platform(why)) => why,
        };
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(SeatFailure::Platform(why));
        }
        tracing::warn!(seat = open.seat, reason = %why, "cannot open the seat yet; trying again");
        tokio::time::sleep(wait.min(left)).await;
        wait = (wait * 2).min(Duration::from_secs(2));
    }
}

/// Asks a remote seat the request `request` makes; when the platform fails under it, opens the
/// seat again (within the reconnect grace) and asks again, the time restarting: the wait was not
/// the bot's. An [`Answer::Platform`] when the seat could not be opened again. The request is
/// made for each attempt, with its observation's events from the first the stream has not
/// carried yet (a new stream carried none: its first request is whole).
async fn ask_remote<A>(
    remote: &mut Box<RemoteSeat>,
    open: &v1::SeatOpen,
    request: impl Fn(usize) -> v1::DecisionRequest + Send,
    hard_cap: Duration,
    dialer: &dyn SeatDialer,
    opts: &RunOptions,
) -> Reply<A> {
    let (answer, elapsed) = remote.decide(request(remote.events_held()), hard_cap).await;
    let Answer::Platform(mut why) = answer else {
        return Reply::new(answer, elapsed);
    };
    let until = Instant::now() + opts.reconnect_grace;
    while Instant::now() < until {
        tracing::warn!(seat = open.seat, reason = %why, "the platform failed under the seat; opening it again");
        match open_remote(dialer, open, opts, true).await {
            Ok(seat) => {
                **remote = seat;
                match remote.decide(request(remote.events_held()), hard_cap).await {
                    (Answer::Platform(again), _) => why = again,
                    (answer, elapsed) => return Reply::new(answer, elapsed),
                }
            }
            Err(SeatFailure::Platform(again)) => why = again,
            Err(SeatFailure::Bot(f)) => why = f.reason,
        }
    }
    Reply::new(Answer::Platform(why), elapsed)
}

type ReplyFuture<'a, A> = Pin<Box<dyn Future<Output = Reply<A>> + Send + 'a>>;

/// Plays a table with at least one remote or program seat. When `own_limits` (the table's
/// decision limit is the default), a remote seat whose bot has a decision limit of its own
/// ([`SeatDialer::own_limits`]) plays by it ([`TimeRules::with_own_limit`]): its seat is told
/// that time control, its requests carry that deadline, and its penalties and timeouts are
/// judged by it; from the seat's second decision on, by its later limit when it has one.
/// Starts every program seat and opens every remote seat first (programs all at once; remote
/// seats bot by bot in the order of their names, each bot's seats concurrently), then asks each
/// round's seats concurrently, and closes the remote and program seats with the outcome (and the remote
/// ones with the verdicts) at the end. Returns
/// the ended table, or why the platform interrupted it (a seat that could not be opened, or
/// opened again, within the reconnect grace): then nothing is settled and the table is to be
/// played again.
pub async fn play_async<G: TableGame>(
    game: G,
    seats: Vec<SeatPlan<G>>,
    setup: &TableSetup,
    opts: &RunOptions,
    dialer: &dyn SeatDialer,
    own_limits: bool,
) -> Result<Table<G>, String> {
    let game_kind = game.game();
    let mut seat_time = vec![setup.time; seats.len()];
    // The rules a seat's second and later decisions switch to.
    let mut seat_later: Vec<Option<TimeRules>> = vec![None; seats.len()];
    let mut opened: Vec<Option<Handle<G>>> = Vec::with_capacity(seats.len());
    let mut remote = Vec::new();
    let mut programs = Vec::new();
    for (i, plan) in seats.into_iter().enumerate() {
        match plan {
            SeatPlan::Local(p) => opened.push(Some(Handle::Local(Some(p)))),
            SeatPlan::Remote(bot) => {
                remote.push((i, bot));
                opened.push(None);
            }
            SeatPlan::Program(p) => {
                programs.push((i, p));
                opened.push(None);
            }
        }
    }
    if own_limits {
        for (i, bot) in &remote {
            match dialer.own_limits(bot).await {
                Ok(own) if own.decision_ms == 0 => {}
                Ok(own) => {
                    seat_time[*i] = setup.time.with_own_limit(own.decision_ms);
                    seat_later[*i] = (own.later_decision_ms != 0)
                        .then(|| setup.time.with_own_limit(own.later_decision_ms));
                }
                // Judging the seat by the table's clock instead would be unfair to it: the
                // platform failed, the table is played again.
                Err(why) => return Err(format!("seat {i}: {why}")),
            }
        }
    }
    // Programs start and greet at once; one that cannot gets its fault at its first decision.
    let starting = programs.into_iter().map(|(i, p)| async move {
        let handle = match p.open().await {
            Ok(p) => Handle::Program(Box::new(p)),
            Err(f) => Handle::Failed(f),
        };
        (i, handle)
    });
    for (i, h) in futures_util::future::join_all(starting).await {
        opened[i] = Some(h);
    }
    // Bot by bot, in the order of their names (each bot's seats at once). A busy bot's seat
    // waits in line for a slot, holding the slots its table already has: were two tables to
    // take their bots in different orders, each could hold a slot the other waits for, for
    // ever. In one order for every table, whoever holds the last bot's slots waits for nothing.
    remote.sort_by(|a, b| a.1.cmp(&b.1));
    let mut interrupted = None;
    for group in remote.chunk_by(|a, b| a.1 == b.1) {
        let opening = group.iter().map(|(i, bot)| {
            let open = v1::SeatOpen {
                table_id: setup.table_id.clone(),
                seat: *i as u32,
                bot: bot.clone(),
                game: game_kind.into(),
                time: Some(seat_time[*i].to_proto()),
            };
            async move {
                let handle = match open_remote(dialer, &open, opts, false).await {
                    Ok(s) => Ok(Handle::Remote(Box::new(s), open)),
                    Err(SeatFailure::Bot(f)) => Ok(Handle::Failed(f)),
                    Err(SeatFailure::Platform(why)) => Err(format!("seat {i}: {why}")),
                };
                (*i, handle)
            }
        });
        for (i, h) in futures_util::future::join_all(opening).await {
            match h {
                Ok(h) => opened[i] = Some(h),
                Err(why) => {
                    interrupted.get_or_insert(why);
                }
            }
        }
        if interrupted.is_some() {
            break;
        }
    }
    let mut handles: Vec<Handle<G>> = opened
        .into_iter()
        .map(|h| h.unwrap_or(Handle::Local(None)))
        .collect();
    if let Some(why) = interrupted {
        close_seats(handles, None, opts).await;
        return Err(why);
    }
    for (i, h) in handles.iter_mut().enumerate() {
        if let Handle::Local(Some(p)) = h {
            p.start(i as u32, setup.seed);
        }
    }
    let mut table = Table::new(game, setup.time, setup.policy);
    for (i, t) in seat_time.iter().enumerate() {
        table.set_seat_time(i, *t);
    }
    // Asked once, a seat with a later limit plays the rest by it: the table switches it.
    for (i, later) in seat_later.into_iter().enumerate() {
        if let Some(t) = later {
            table.set_seat_later_time(i, t);
        }
    }
    for (i, h) in handles.iter().enumerate() {
        match h {
            Handle::Local(_) => table.set_release(i, BUILTIN_RELEASE),
            Handle::Remote(r, _) => table.set_release(i, &r.ready().release),
            // Programs have no release of their own (as bot-host reports them).
            Handle::Program(_) | Handle::Failed(_) => {}
        }
    }
    while let Some(requests) = table.next_round() {
        // Several seats asked at once: their decisions are the window's children, and the
        // window lasts until the last of them is answered.
        let window = if table.round_size() > 1 {
            tracing::info_span!(
                "claim_window",
                table_id = %setup.table_id,
                from = table.game().answered_seat(),
                seats = requests.len()
            )
        } else {
            tracing::Span::none()
        };
        let in_window = window.enter();
        let game = table.game();
        let mut futures: Vec<(usize, ReplyFuture<'_, G::Action>)> =
            Vec::with_capacity(requests.len());
        for (seat, handle) in handles.iter_mut().enumerate() {
            let Some(pos) = requests.iter().position(|r| r.seat as usize == seat) else {
                continue;
            };
            let r = requests[pos];
            let time = table.seat_time(r.seat);
            let hard_cap = time.hard_cap();
            let fut: ReplyFuture<'_, G::Action> = match handle {
                Handle::Local(slot) => Box::pin(ask_local(slot, game, r.pending(), hard_cap)),
                Handle::Remote(remote, open) => {
                    let request = move |from| decision_request(game, setup, time, r, from);
                    Box::pin(ask_remote(remote, open, request, hard_cap, dialer, opts))
                }
                Handle::Program(program) => {
                    // Whole observations: the protocol keeps what it told the program.
                    let request = decision_request(game, setup, time, r, 0);
                    Box::pin(async move { program.decide(&request, hard_cap).await })
                }
                Handle::Failed(f) => {
                    let f = f.clone();
                    Box::pin(async move { Reply::new(Answer::Fault(f), Duration::ZERO) })
                }
            };
            let span = tracing::info_span!(
                "decision",
                index = r.index,
                seat = r.seat,
                kind = r.kind.as_str_name()
            );
            futures.push((pos, Box::pin(fut.instrument(span))));
        }
        drop(in_window);
        let order: Vec<usize> = futures.iter().map(|(pos, _)| *pos).collect();
        let answers = futures_util::future::join_all(futures.into_iter().map(|(_, f)| f))
            .instrument(window)
            .await;
        let mut replies: Vec<Option<Reply<G::Action>>> =
            (0..requests.len()).map(|_| None).collect();
        for (pos, reply) in order.into_iter().zip(answers) {
            replies[pos] = Some(reply);
        }
        let replies: Vec<Reply<G::Action>> = replies
            .into_iter()
            .map(|r| {
                r.unwrap_or(Reply::new(
                    Answer::Fault(Fault::new(v1::VerdictKind::Crashed, "no seat to ask")),
                    Duration::ZERO,
                ))
            })
            .collect();
        // The platform failed under a seat and it could not be opened again: the round is not
        // settled (no verdict for anyone) and the table goes back to be played again.
        if let Some(why) = replies.iter().find_map(|r| match &r.answer {
            Answer::Platform(why) => Some(why.clone()),
            _ => None,
        }) {
            close_seats(handles, None, opts).await;
            return Err(why);
        }
        table.settle(replies);
    }
    let close = v1::SeatClose {
        table_id: setup.table_id.clone(),
        outcome: table.outcome().cloned(),
        verdicts: verdicts_for_seats(table.verdicts()),
    };
    for (i, h) in handles.iter_mut().enumerate() {
        if let Handle::Local(Some(p)) = h {
            p.finish(&table.game().view(i as u32));
        }
    }
    close_seats(handles, Some(close), opts).await;
    Ok(table)
}

/// The request a remote or program seat playing by `time` is sent for `r`, its observation's
/// events from `from` on.
fn decision_request<G: TableGame>(
    game: &G,
    setup: &TableSetup,
    time: &TimeRules,
    r: Request,
    from: usize,
) -> v1::DecisionRequest {
    v1::DecisionRequest {
        request_id: u64::from(r.index),
        table_id: setup.table_id.clone(),
        seat: r.seat,
        game: game.game().into(),
        kind: r.kind as i32,
        deadline_ms: time.limit_ms(r.kind),
        observation: Some(game.observation_from(r.seat, from)),
    }
}

/// The verdicts as the seats are sent them at the table's end: without their detail, which
/// quotes what a program wrote (its own cards, say) while other tables may still be playing the
/// same deal; results and replays keep it.
fn verdicts_for_seats(verdicts: &[v1::Verdict]) -> Vec<v1::Verdict> {
    verdicts
        .iter()
        .map(|v| v1::Verdict {
            detail: String::new(),
            ..v.clone()
        })
        .collect()
}

/// Closes every remote and program seat at once, with the table's outcome when it has one.
async fn close_seats<G: TableGame>(
    handles: Vec<Handle<G>>,
    close: Option<v1::SeatClose>,
    opts: &RunOptions,
) {
    let outcome = close.as_ref().and_then(|c| c.outcome.as_ref());
    // A program carries on into its turn's next table only from a table that ended (not one
    // handed back) without a verdict against its seat.
    let sound = |seat: usize| {
        close
            .as_ref()
            .is_some_and(|c| c.verdicts.iter().all(|v| v.seat as usize != seat))
    };
    let closing = handles.into_iter().enumerate().filter_map(|(seat, h)| {
        let closing: Pin<Box<dyn Future<Output = ()> + Send + '_>> = match h {
            Handle::Remote(r, open) => {
                let close = close.clone().unwrap_or(v1::SeatClose {
                    table_id: open.table_id.clone(),
                    ..Default::default()
                });
                Box::pin((*r).close(close, opts.close_timeout))
            }
            Handle::Program(p) => Box::pin(p.close(outcome, sound(seat))),
            Handle::Local(_) | Handle::Failed(_) => return None,
        };
        Some(closing)
    });
    futures_util::future::join_all(closing).await;
}

/// Asks an in-process player in the async driver: inline for light players, on a blocking
/// thread (given up on at the hard cap) for heavy ones.
async fn ask_local<G: TableGame>(
    slot: &mut Option<Player<G>>,
    game: &G,
    p: Pending,
    hard_cap: Duration,
) -> Reply<G::Action> {
    let Some(mut player) = slot.take() else {
        return Reply::new(
            Answer::Fault(Fault::new(
                v1::VerdictKind::Crashed,
                "the built-in bot was lost after an earlier timeout",
            )),
            Duration::ZERO,
        );
    };
    if !player.is_heavy() {
        let reply = call_local(player.as_mut(), game, &p);
        *slot = Some(player);
        return reply;
    }
    let game = game.clone();
    let handle = tokio::task::spawn_blocking(move || {
        let reply = call_local(player.as_mut(), &game, &p);
        (player, reply)
    });
    match tokio::time::timeout(hard_cap, handle).await {
        Ok(Ok((player, reply))) => {
            *slot = Some(player);
            reply
        }
        Ok(Err(e)) => Reply::new(
            Answer::Fault(Fault::new(
                v1::VerdictKind::Crashed,
                format!("the built-in bot's thread failed: {e}"),
            )),
            Duration::ZERO,
        ),
        Err(_) => Reply::new(Answer::NoAnswer, hard_cap),
    }
}

#[cfg(test)]
mod tests {
    //! Where [`run_game`] plays a table of in-process players: what keeps a referee's async
    //! workers free, and what spares a quick table a thread hand-off.

    use std::sync::Mutex;
    use std::thread::ThreadId;

    use super::*;
    use crate::remote::BotHosts;
    use crate::table::tests::Picks;

    #[test]
    fn seats_are_sent_verdicts_without_their_detail() {
        let whole = v1::Verdict {
            seat: 2,
            kind: v1::VerdictKind::Crashed as i32,
            reason: "crashed: exit code 1".into(),
            detail: "crashed: exit code 1; its stderr ended with: my hand is 3 3 4 5".into(),
            ..Default::default()
        };
        let sent = verdicts_for_seats(std::slice::from_ref(&whole));
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].detail, "");
        assert_eq!(
            (sent[0].seat, sent[0].kind, sent[0].reason.as_str()),
            (whole.seat, whole.kind, whole.reason.as_str())
        );
    }

    /// Picks 0 and writes down the thread of each decision; `work` is how long a decision takes.
    struct Recorder {
        heavy: bool,
        work: Duration,
        threads: Arc<Mutex<Vec<ThreadId>>>,
    }

    impl LocalPlayer<Picks> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn is_heavy(&self) -> bool {
            self.heavy
        }
        fn start(&mut self, _seat: u32, _seed: u64) {}
        fn decide(&mut self, _view: &(u32, i64), _p: &Pending) -> u32 {
            // The decision's cost is the point here, not a wait for something else.
            std::thread::sleep(self.work);
            self.threads
                .lock()
                .unwrap()
                .push(std::thread::current().id());
            0
        }
    }

    /// Plays `rounds` rounds with three recorders under an inline budget of `budget`; the
    /// result, and each decision's thread.
    async fn play(
        rounds: u32,
        heavy: bool,
        work: Duration,
        budget: Duration,
    ) -> (Record, Vec<ThreadId>) {
        let threads = Arc::new(Mutex::new(Vec::new()));
        let seats = (0..3)
            .map(|_| {
                SeatPlan::Local(Box::new(Recorder {
                    heavy,
                    work,
                    threads: threads.clone(),
                }) as Player<Picks>)
            })
            .collect();
        let setup = TableSetup {
            table_id: "t/1".into(),
            seed: 1,
            time: crate::time::TimeRules::default(),
            policy: None,
        };
        let job = v1::TableJob::default();
        let played = run_game(
            &job,
            Picks::new(rounds),
            seats,
            &setup,
            &RunOptions {
                inline_budget: budget,
                ..RunOptions::default()
            },
            &BotHosts::default(),
        )
        .await;
        let Played::Finished(record) = played else {
            panic!("an all-in-process table is never interrupted: {played:?}");
        };
        let threads = threads.lock().unwrap().clone();
        (*record, threads)
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_quick_table_of_light_players_plays_on_the_calling_task() {
        // A budget no busy machine can exhaust: where the table plays does not hang on timing.
        let (record, threads) = play(3, false, Duration::ZERO, Duration::from_secs(600)).await;
        assert!(record.result.error.is_empty(), "{}", record.result.error);
        assert_eq!(record.result.outcome.map(|o| o.scores), Some(vec![0, 0, 0]));
        assert_eq!(threads.len(), 9);
        let here = std::thread::current().id();
        assert!(threads.iter().all(|t| *t == here), "{threads:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_heavy_players_table_never_holds_the_async_thread() {
        let (record, threads) = play(2, true, Duration::ZERO, Duration::from_secs(600)).await;
        assert!(record.result.error.is_empty(), "{}", record.result.error);
        assert_eq!(threads.len(), 6);
        let here = std::thread::current().id();
        assert!(threads.iter().all(|t| *t != here), "{threads:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_long_table_of_light_players_moves_to_a_blocking_thread_past_the_budget() {
        // Every decision alone outlasts the budget: the first round is played on the calling
        // task (the budget is looked at after a round), the table is past it after that round
        // however fast or slow the machine is.
        let budget = Duration::from_millis(1);
        let (record, threads) = play(6, false, budget * 3, budget).await;
        assert!(record.result.error.is_empty(), "{}", record.result.error);
        assert_eq!(threads.len(), 18);
        let here = std::thread::current().id();
        assert!(
            threads[..3].iter().all(|t| *t == here),
            "the first round on the calling task: {threads:?}"
        );
        assert!(
            threads[3..].iter().all(|t| *t != here),
            "the rest on a blocking thread: {threads:?}"
        );
    }

    /// A dialer to one scripted bot-host that says every bot's own limits are `own`.
    struct OwnClock {
        hosts: BotHosts,
        own: Result<crate::remote::OwnLimits, String>,
    }

    #[async_trait::async_trait]
    impl SeatDialer for OwnClock {
        async fn channel_for(
            &self,
            bot: &str,
            table_id: &str,
            seat: u32,
        ) -> Result<crate::remote::SeatLink, crate::remote::DialError> {
            self.hosts.channel_for(bot, table_id, seat).await
        }

        async fn own_limits(&self, _bot: &str) -> Result<crate::remote::OwnLimits, String> {
            self.own.clone()
        }
    }

    /// Plays three rounds of `Picks`, seat 0 a remote bot whose own limits are `own`, under a
    /// job with time control `time`: how it ended, the time control seat 0 was told (decision
    /// limit, hard cap) and the deadline of each of its requests.
    async fn play_remote(
        own: Result<crate::remote::OwnLimits, String>,
        time: Option<v1::TimeControl>,
    ) -> (Played, Vec<(u32, u32)>, Vec<u32>) {
        use crate::remote::scripted::serve;
        use v1::referee_to_seat::Msg as ToSeat;
        use v1::seat_to_referee::Msg;
        let opened = Arc::new(Mutex::new(Vec::new()));
        let deadlines = Arc::new(Mutex::new(Vec::new()));
        let (o, d) = (opened.clone(), deadlines.clone());
        let hosts = serve(Arc::new(move |m: &ToSeat| match m {
            ToSeat::Open(open) => {
                let t = open.time.unwrap_or_default();
                o.lock().unwrap().push((t.decision_ms, t.hard_cap_ms));
                vec![Msg::Ready(v1::SeatReady::default())]
            }
            ToSeat::Request(r) => {
                d.lock().unwrap().push(r.deadline_ms);
                vec![Msg::Reply(v1::DecisionReply {
                    request_id: r.request_id,
                    action: Some(crate::table::tests::pick(0)),
                    ..Default::default()
                })]
            }
            ToSeat::Close(_) => Vec::new(),
        }))
        .await;
        let threads = Arc::new(Mutex::new(Vec::new()));
        let local = || {
            SeatPlan::Local(Box::new(Recorder {
                heavy: false,
                work: Duration::ZERO,
                threads: threads.clone(),
            }) as Player<Picks>)
        };
        let seats = vec![SeatPlan::Remote("bz".into()), local(), local()];
        let job = v1::TableJob {
            time,
            ..Default::default()
        };
        let setup = TableSetup {
            table_id: "t/own".into(),
            seed: 1,
            time: TimeRules::resolve(&time.unwrap_or_default(), v1::PenaltyRounding::Started),
            policy: None,
        };
        let played = run_game(
            &job,
            Picks::new(3),
            seats,
            &setup,
            &RunOptions::default(),
            &OwnClock { hosts, own },
        )
        .await;
        let opened = opened.lock().unwrap().clone();
        let deadlines = deadlines.lock().unwrap().clone();
        (played, opened, deadlines)
    }

    const PYTHON_KEEP: crate::remote::OwnLimits = crate::remote::OwnLimits {
        decision_ms: 6000,
        later_decision_ms: 4000,
    };

    /// A job leaving the decision limit to the default: the seat is told its own limit (the hard
    /// cap the table's 4000 ms margin above it), its first request carries it as the deadline,
    /// its later ones the later limit. (`Picks` asks claims, whose table limit is 500 ms.)
    #[tokio::test]
    async fn a_seat_plays_by_its_bots_own_limits_where_the_job_leaves_the_clock_to_the_default() {
        let (played, opened, deadlines) = play_remote(Ok(PYTHON_KEEP), None).await;
        let Played::Finished(record) = played else {
            panic!("{played:?}");
        };
        assert!(record.result.verdicts.is_empty(), "{:?}", record.result);
        assert_eq!(opened, [(6000, 10_000)]);
        assert_eq!(deadlines, [6000, 4000, 4000]);
        // The result says by which clock each seat played, and each step by which limit.
        let clock = |r: &v1::TimeControl| (r.decision_ms, r.claim_ms, r.hard_cap_ms);
        let first: Vec<_> = record.result.seat_time.iter().map(clock).collect();
        let later: Vec<_> = record.result.seat_later_time.iter().map(clock).collect();
        assert_eq!(
            first,
            [(6000, 6000, 10_000), (1000, 500, 5000), (1000, 500, 5000)]
        );
        assert_eq!(
            later,
            [(4000, 4000, 8000), (1000, 500, 5000), (1000, 500, 5000)]
        );
        let (_, replay) = record.clone().into_replay(None);
        let limits: Vec<(u32, u32)> = replay.steps.iter().map(|s| (s.seat, s.limit_ms)).collect();
        assert_eq!(
            limits,
            [
                (0, 6000),
                (1, 500),
                (2, 500),
                (0, 4000),
                (1, 500),
                (2, 500),
                (0, 4000),
                (1, 500),
                (2, 500)
            ]
        );
        // Set only in part, the clock still leaves the decision limit to the default.
        let partly = v1::TimeControl {
            hard_cap_ms: 2000,
            ..Default::default()
        };
        let (_, opened, deadlines) = play_remote(Ok(PYTHON_KEEP), Some(partly)).await;
        assert_eq!(opened, [(6000, 7000)]);
        assert_eq!(deadlines, [6000, 4000, 4000]);
    }

    /// An explicit decision limit rules for every seat; a registry that cannot be read is the
    /// platform's failure, not a reason to judge the seat by another clock.
    #[tokio::test]
    async fn an_explicit_limit_rules_and_an_unknown_own_limit_interrupts_the_table() {
        let explicit = v1::TimeControl {
            decision_ms: 1000,
            claim_ms: 700,
            ..Default::default()
        };
        let (played, opened, deadlines) = play_remote(Ok(PYTHON_KEEP), Some(explicit)).await;
        let Played::Finished(record) = played else {
            panic!("{played:?}");
        };
        assert_eq!(opened, [(1000, 5000)]);
        assert_eq!(deadlines, [700, 700, 700]);
        // Every seat, first decision and later ones, played by the job's clock.
        let job = TimeRules::resolve(&explicit, v1::PenaltyRounding::Started).to_proto();
        assert_eq!(record.result.seat_time, [job; 3]);
        assert_eq!(record.result.seat_later_time, [job; 3]);
        assert!(record.steps.iter().all(|s| s.limit_ms == 700));
        let (played, opened, _) = play_remote(Err("the store is down".into()), None).await;
        assert!(
            matches!(&played, Played::Interrupted(why) if why == "seat 0: the store is down"),
            "{played:?}"
        );
        assert!(opened.is_empty(), "no seat opened: {opened:?}");
    }
}
