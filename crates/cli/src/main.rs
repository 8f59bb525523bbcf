//! `arena`: the one entry point for users and for every service role.

mod bots_cmd;
mod client;
mod compete_cmd;
mod deals_cmd;
mod experiment_cmd;
mod library_client;
mod load_cmd;
mod services;
mod store_args;

/// How an error reads to the user (shared with the games' commands).
use arena_games::commands::report;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// arena: a platform where card-game AIs compete, fairly and at scale.
#[derive(Parser)]
#[command(name = "arena", version, about, propagate_version = true)]
struct Cli {}

/// The whole command line: every registered game's commands (`arena <game> …`, the game's
/// [`arena_games::Game::commands`]) first, then the platform's [`Command`]s.
fn cli() -> clap::Command {
    let cli = arena_games::commands::attach(Cli::command());
    Command::augment_subcommands(cli)
        .subcommand_required(true)
        .arg_required_else_help(true)
}

// The platform's commands, beside the games'. (A doc comment here would become the help text
// of `arena` itself: clap's derive gives an enum's to the command it is attached to.)
#[derive(Subcommand)]
enum Command {
    /// The deal library: measure difficulty (GDI), query equal-strength deals, generate on demand.
    #[command(subcommand)]
    Deals(deals_cmd::DealsCommand),
    /// A competition among built-in landlord bots: duplicate, equal-strength, random or difficulty-adjusted deals.
    Compete(compete_cmd::CompeteArgs),
    /// Experiments: `paper` reproduces the equal-strength paper and writes a report.
    #[command(subcommand)]
    Experiment(experiment_cmd::ExperimentCommand),
    /// Run the table-referee role: tables from the job stream, results written once.
    TableReferee(services::RefereeArgs),
    /// Run the bot-host role: remote, program and built-in bots behind seat streams.
    BotHost(services::BotHostArgs),
    /// Run the deal-library role: difficulty measurement fanned out to referees, equal-strength queries.
    DealLibrary(services::DealLibraryArgs),
    /// Run the matchmaker role: competitions over gRPC, and the continuous ranked ladder.
    Matchmaker(services::MatchmakerArgs),
    /// The continuous ladder's leaderboard from a running matchmaker.
    Leaderboard(services::LeaderboardArgs),
    /// Create and follow competitions on a running matchmaker.
    #[command(subcommand)]
    Competition(services::CompetitionCommand),
    /// Run every role in one process on the embedded store.
    Standalone(services::StandaloneArgs),
    /// Register, list, rotate and remove bots.
    #[command(subcommand)]
    Bots(bots_cmd::BotsCommand),
    /// Issue, list and revoke operator tokens.
    #[command(subcommand)]
    Operators(services::OperatorsCommand),
    /// Play a table by hand.
    #[command(subcommand)]
    Table(services::TableCommand),
    /// Load-test a running standalone or cluster: many simulated remote bots, tables/s and
    /// decision latency (docs/scaling.md).
    Load(load_cmd::LoadArgs),
}

/// Raises the soft limit of open files to the hard one: every remote bot is a connection (a
/// file descriptor) of bot-host and of `arena load`, and distributions' soft default (1024) is
/// far below what a bot-host holds (docs/scaling.md).
fn raise_open_files_limit() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit with a valid pointer to a local rlimit.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 && lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            let _ = libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

/// The serving allocator (see [`arena_serve::allocator`]).
#[global_allocator]
static ALLOCATOR: arena_serve::allocator::Allocator = arena_serve::allocator::Allocator;

/// The exit status of a process whose output pipe closed (`arena … | head`): what a shell reports
/// for a command killed by SIGPIPE, so pipelines read it as usual.
const CLOSED_PIPE_EXIT: i32 = 128 + libc::SIGPIPE;

/// Whether `message` is what `println!` panics with when standard output is a closed pipe.
fn is_closed_stdout_panic(message: &str) -> bool {
    message.starts_with("failed printing to stdout") && message.contains("Broken pipe")
}

/// A reader that stops early (`arena … | head`) ends the output: exit quietly then, as other
/// command-line tools do, instead of panicking with a backtrace from `println!`. (Rust ignores
/// SIGPIPE so that writes to a closed socket or to a crashed bot's stdin are errors a role can
/// handle; restoring its default would let one dead program bot kill bot-host.)
fn exit_quietly_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_stdout_panic(message) {
            std::process::exit(CLOSED_PIPE_EXIT);
        }
        default(info)
    }));
}

/// Whether `e` comes from writing to a closed pipe (output written with `write!` rather than
/// `println!`).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn main() -> std::process::ExitCode {
    exit_quietly_when_stdout_closes();
    let matches = cli().get_matches();
    raise_open_files_limit();
    let result = arena_games::commands::dispatch(&matches).unwrap_or_else(|| {
        let command =
            Command::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut cli()).exit());
        run(command)
    });
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => std::process::exit(CLOSED_PIPE_EXIT),
        Err(e) if e.downcast_ref::<report::Interrupted>().is_some() => {
            eprintln!("{e}");
            std::process::ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("error: {}", report::chain(&e));
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs one of the platform's commands.
fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Deals(cmd) => deals_cmd::run(cmd),
        Command::Compete(a) => compete_cmd::run(a),
        Command::TableReferee(a) => services::referee(a),
        Command::BotHost(a) => services::bot_host(a),
        Command::DealLibrary(a) => services::deal_library(a),
        Command::Matchmaker(a) => services::matchmaker(a),
        Command::Competition(c) => services::competition(c),
        Command::Leaderboard(a) => services::leaderboard(a),
        Command::Standalone(a) => services::standalone(a),
        Command::Bots(c) => bots_cmd::run(c),
        Command::Operators(c) => services::operators(c),
        Command::Table(c) => services::table(c),
        Command::Load(a) => load_cmd::run(a),
        Command::Experiment(cmd) => experiment_cmd::run(cmd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_closed_stdout_is_a_quiet_exit() {
        assert!(is_closed_stdout_panic(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!is_closed_stdout_panic(
            "failed printing to stdout: No space left on device (os error 28)"
        ));
        assert!(!is_closed_stdout_panic("index out of bounds"));
        let pipe = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            .context("writing the moves");
        assert!(is_broken_pipe(&pipe));
        assert!(!is_broken_pipe(&anyhow::anyhow!("Broken pipe")));
    }

    #[test]
    fn the_command_line_holds_every_game_s_commands_before_the_platform_s() {
        let cli = cli();
        cli.clone().debug_assert();
        let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        let games: Vec<&str> = arena_games::GameKind::all()
            .filter(|g| g.commands().is_some())
            .map(|g| g.name())
            .collect();
        assert!(!games.is_empty());
        assert_eq!(names[..games.len()], games[..], "{names:?}");
        assert!(names.contains(&"standalone"), "{names:?}");
    }
}
