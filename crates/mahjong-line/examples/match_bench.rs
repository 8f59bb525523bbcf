//! A match's worth of hands (96 by default) with a bot program in every seat, one hand after
//! another on one thread, and where the time goes: the wall time per hand and what it was
//! spent on, the arena's own CPU time (this process: protocol, rules, process supervision),
//! the programs' CPU time (read from `/proc/PID/schedstat` just before each hand's end kills
//! them) and their sandbox supervisors' (the reaped children).
//!
//! ```sh
//! cargo build --release -p mahjong-line --bins --examples
//! target/release/examples/match_bench 96 'cmd:target/release/mahjong-testbot' [off]
//! ```
//!
//! With `off`, the programs run without the sandbox's isolation (limits only), to show what
//! the isolation costs.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use arena_sandbox::{Isolation, Policy, Sandbox};
use mahjong::{ActionList, Deal, Rules, View};
use mahjong_bots::{BotFault, Player, Reply, TimeLimits, play_hand};
use mahjong_line::{CmdBot, CmdBotConfig};

/// User plus system CPU time of `who` (`RUSAGE_SELF` or `RUSAGE_CHILDREN`).
fn cpu(who: libc::c_int) -> Duration {
    // SAFETY: getrusage fills the struct it is given; a zeroed rusage is a valid value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid, writable rusage.
    unsafe { libc::getrusage(who, &mut u) };
    let t = |tv: libc::timeval| {
        Duration::from_secs(tv.tv_sec as u64) + Duration::from_micros(tv.tv_usec as u64)
    };
    t(u.ru_utime) + t(u.ru_stime)
}

/// Where a seat's time went, from the driver's side of the calls.
#[derive(Default)]
struct Spent {
    /// `start_hand`: starting the process.
    start: Duration,
    /// The first question of each hand, which waits for the process's `join`.
    first: Duration,
    /// The other questions: from the call to the answer.
    questions: Duration,
    /// `end_hand`: killing the process group and reaping it.
    end: Duration,
}

/// A player timing each call into the one it wraps.
struct Timed {
    inner: CmdBot,
    spent: Spent,
    asked: bool,
    /// CPU time of the programs, measured at each hand's end.
    program_cpu: Duration,
}

/// The CPU time a process has run, from `/proc/PID/schedstat` (nanoseconds).
fn run_time(pid: u32) -> Duration {
    std::fs::read_to_string(format!("/proc/{pid}/schedstat"))
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// The CPU time of the processes `pid` started (the sandbox's supervisor's program and
/// whatever it started in turn).
fn descendants_run_time(pid: u32) -> Duration {
    let children =
        std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    children
        .split_whitespace()
        .filter_map(|c| c.parse::<u32>().ok())
        .map(|c| run_time(c) + descendants_run_time(c))
        .sum()
}

impl Player for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn start_hand(&mut self, seat: u8, hand_seed: u64) -> Result<(), BotFault> {
        let t = Instant::now();
        let r = self.inner.start_hand(seat, hand_seed);
        self.spent.start += t.elapsed();
        self.asked = false;
        r
    }

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        let t = Instant::now();
        let r = self.inner.decide(view, legal);
        let took = t.elapsed();
        if std::mem::replace(&mut self.asked, true) {
            self.spent.questions += took;
        } else {
            self.spent.first += took;
        }
        r
    }

    fn end_hand(&mut self, view: &View<'_>) {
        if let Some(pid) = self.inner.process_id() {
            self.program_cpu += descendants_run_time(pid);
        }
        let t = Instant::now();
        self.inner.end_hand(view);
        self.spent.end += t.elapsed();
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(Ok(hands)), Some(spec)) = (args.first().map(|h| h.parse::<u64>()), args.get(1))
    else {
        eprintln!("usage: match_bench HANDS 'cmd:PROGRAM [ARGS]'");
        return ExitCode::FAILURE;
    };
    let mut config = CmdBotConfig::default();
    if args.get(2).map(String::as_str) == Some("off") {
        config.sandbox = Sandbox::new(Policy {
            isolation: Isolation::Off,
            ..Policy::default()
        });
    }
    println!("{}", config.sandbox);
    let mut bots: Vec<Timed> = match (0..4)
        .map(|_| {
            CmdBot::from_spec(spec, config.clone()).map(|inner| Timed {
                inner,
                spent: Spent::default(),
                asked: false,
                program_cpu: Duration::ZERO,
            })
        })
        .collect()
    {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let (self0, children0, start) = (
        cpu(libc::RUSAGE_SELF),
        cpu(libc::RUSAGE_CHILDREN),
        Instant::now(),
    );
    let mut verdicts = 0;
    let mut events = 0;
    for h in 0..hands {
        let [a, b, c, d] = &mut bots[..] else {
            unreachable!()
        };
        let record = play_hand(
            &Deal::from_seed(h),
            Rules::default(),
            TimeLimits::default(),
            &mut [a, b, c, d],
        );
        verdicts += record.verdicts.len();
        events += record.events.len();
    }
    let wall = start.elapsed();
    let arena = cpu(libc::RUSAGE_SELF) - self0;
    let children = cpu(libc::RUSAGE_CHILDREN) - children0;
    let questions: u64 = bots.iter().map(|b| b.inner.stats().questions).sum();
    let answer_time: Duration = bots.iter().map(|b| b.inner.stats().answer_time).sum();
    let sum = |f: fn(&Spent) -> Duration| bots.iter().map(|b| f(&b.spent)).sum::<Duration>();
    let (start_t, first_t, questions_t, end_t) = (
        sum(|s| s.start),
        sum(|s| s.first),
        sum(|s| s.questions),
        sum(|s| s.end),
    );
    let driver = wall.saturating_sub(start_t + first_t + questions_t + end_t);
    let programs: Duration = bots.iter().map(|b| b.program_cpu).sum();
    let per = |d: Duration| d.as_secs_f64() * 1e3 / hands as f64;
    println!(
        "{hands} hands of {spec}, one after another: {:.2} s",
        wall.as_secs_f64()
    );
    println!(
        "per hand: {:.2} ms wall, {:.2} ms arena CPU, {:.2} ms the programs' CPU, {:.2} ms their supervisors' (4 processes, {:.0} questions, {:.0} events)",
        per(wall),
        per(arena),
        per(programs),
        per(children),
        questions as f64 / hands as f64,
        events as f64 / hands as f64,
    );
    println!(
        "per hand, wall: {:.2} ms starting 4 processes, {:.2} ms in the 4 first questions (each waits for its join), {:.2} ms in the other questions, {:.2} ms stopping and reaping, {:.2} ms in the driver and rules",
        per(start_t),
        per(first_t),
        per(questions_t),
        per(end_t),
        per(driver)
    );
    println!(
        "per question: {:.1} µs from sending it to reading the answer, {:.1} µs per call; verdicts: {verdicts}",
        answer_time.as_secs_f64() * 1e6 / questions.max(1) as f64,
        (first_t + questions_t).as_secs_f64() * 1e6 / questions.max(1) as f64
    );
    ExitCode::SUCCESS
}
