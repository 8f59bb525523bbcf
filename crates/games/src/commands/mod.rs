//! A game's commands on the `arena` command line: `arena <game> …`, one subcommand per
//! registered game that has any ([`Game::commands`](crate::Game::commands)).
//!
//! A game writes its commands with clap's derive (a [`Parser`] struct holding its
//! `Subcommand` enum) and registers them as a [`Derived`]; the CLI attaches every registered
//! game's ([`attach`]) and hands the parsed command line back ([`dispatch`]), naming no game.
//! [`progress`], [`programs`], [`print`], [`report`] and [`store`] are what the games' commands
//! share with the CLI's own.

pub mod print;
pub mod programs;
pub mod progress;
pub mod report;
pub mod store;

use std::marker::PhantomData;

use anyhow::Result;
use clap::{ArgMatches, Command, Parser};

use crate::GameKind;

/// A game's subcommands of the `arena` command.
pub trait GameCommands: Send + Sync {
    /// The command `arena <game>` with its subcommands, arguments and help. Its name is set to
    /// the game's registered name when attached, whatever it says.
    fn command(&self) -> Command;

    /// Runs the command `matches` holds: what the user typed after `arena <game>`, parsed by
    /// [`GameCommands::command`].
    fn run(&self, matches: &ArgMatches) -> Result<()>;
}

/// A game's commands written with clap's derive: `P` is the `arena <game>` command (its doc
/// comment the help line `arena --help` shows, its fields the subcommands), `run` runs one
/// parsed command line.
pub struct Derived<P> {
    run: fn(P) -> Result<()>,
    command: PhantomData<fn() -> P>,
}

impl<P> Derived<P> {
    /// The commands `P` declares, run by `run`.
    pub const fn new(run: fn(P) -> Result<()>) -> Derived<P> {
        Derived {
            run,
            command: PhantomData,
        }
    }
}

impl<P: Parser> GameCommands for Derived<P> {
    fn command(&self) -> Command {
        P::command()
    }

    fn run(&self, matches: &ArgMatches) -> Result<()> {
        (self.run)(P::from_arg_matches(matches)?)
    }
}

/// `cli` with every registered game's commands attached as `<game name> …`, in the registry's
/// order, after the subcommands `cli` already has.
pub fn attach(cli: Command) -> Command {
    GameKind::all().fold(cli, |cli, game| match game.commands() {
        Some(commands) => cli.subcommand(commands.command().name(game.name())),
        None => cli,
    })
}

/// Runs the game command `matches` names (the matches of the command [`attach`] built):
/// `None` when its subcommand is not a registered game's.
pub fn dispatch(matches: &ArgMatches) -> Option<Result<()>> {
    let (name, sub) = matches.subcommand()?;
    let commands = GameKind::by_name(name).ok()?.game().commands()?;
    Some(commands.run(sub))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use arena_proto::v1;
    use arena_table::JobError;
    use clap::{Args, Subcommand};
    use serde_json::Value;

    use super::*;
    use crate::{Builtin, CheckedJob, Game, Renderer, Variant};

    /// What the test game's `count` command was last given.
    static COUNTED: AtomicU64 = AtomicU64::new(0);

    /// A game with nothing but a name and a command: `arena counter count --by N`.
    struct Counter;

    /// Counts.
    #[derive(Parser)]
    struct CounterCli {
        #[command(subcommand)]
        command: CounterCommand,
    }

    #[derive(Subcommand)]
    enum CounterCommand {
        /// Adds to the count.
        Count(CountArgs),
    }

    #[derive(Args)]
    struct CountArgs {
        /// How much.
        #[arg(long)]
        by: u64,
    }

    static COUNTER_COMMANDS: Derived<CounterCli> = Derived::new(|cli| match cli.command {
        CounterCommand::Count(a) => {
            COUNTED.fetch_add(a.by, Ordering::SeqCst);
            Ok(())
        }
    });

    impl Game for Counter {
        fn name(&self) -> &'static str {
            "counter"
        }
        fn title(&self) -> &'static str {
            "Counter"
        }
        fn seat_count(&self) -> usize {
            1
        }
        fn builtin(&self, _: &str) -> Option<Result<Builtin, String>> {
            None
        }
        fn builtin_help(&self) -> &'static str {
            ""
        }
        fn program_protocol(&self, _: u32) -> Box<dyn arena_line::ProgramProtocol> {
            unreachable!("the test game plays no table")
        }
        fn check(&'static self, _: &v1::TableJob) -> Result<CheckedJob, JobError> {
            unreachable!("the test game plays no table")
        }
        fn legal(&self, _: &v1::Observation) -> Vec<String> {
            Vec::new()
        }
        fn variants(&self) -> Vec<Variant> {
            Vec::new()
        }
        fn ladder(&self) -> Option<&dyn crate::Ladder> {
            None
        }
        fn commands(&self) -> Option<&dyn GameCommands> {
            Some(&COUNTER_COMMANDS)
        }
        fn renderer(&self) -> Renderer {
            Renderer {
                file: "counter.js",
                source: "",
            }
        }
        fn render_action(&self, _: &v1::Action) -> String {
            String::new()
        }
        fn render_observation(&self, _: &v1::Observation) -> Value {
            Value::Null
        }
        fn render_outcome(&self, _: &v1::Outcome) -> Value {
            Value::Null
        }
        fn render_history(&self, _: &v1::Replay) -> Value {
            Value::Null
        }
    }

    fn arena() -> Command {
        attach(Command::new("arena").subcommand(Command::new("version")))
    }

    #[test]
    fn a_game_registered_at_run_time_gets_its_subcommand() {
        GameKind::register(&Counter).unwrap();
        let cli = arena();
        let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        assert_eq!(names.first(), Some(&"version"), "{names:?}");
        assert!(names.contains(&"counter"), "{names:?}");
        let help = cli
            .find_subcommand("counter")
            .unwrap()
            .clone()
            .render_help()
            .to_string();
        assert!(help.contains("Counts") && help.contains("count"), "{help}");

        let matches = arena()
            .try_get_matches_from(["arena", "counter", "count", "--by", "3"])
            .unwrap();
        dispatch(&matches).expect("a game's command").unwrap();
        assert_eq!(COUNTED.load(Ordering::SeqCst), 3);

        let bad = arena().try_get_matches_from(["arena", "counter", "count", "--by", "x"]);
        assert!(bad.unwrap_err().to_string().contains("--by"));
    }

    #[test]
    fn every_built_in_game_with_commands_is_attached_under_its_name() {
        let cli = arena();
        for game in GameKind::all().filter(|g| g.commands().is_some()) {
            let sub = cli.find_subcommand(game.name());
            assert!(sub.is_some(), "no `arena {}`", game.name());
        }
        for name in ["ddz", "mahjong"] {
            assert!(cli.find_subcommand(name).is_some(), "no `arena {name}`");
        }
        cli.debug_assert();
    }

    #[test]
    fn a_command_that_is_no_games_is_not_dispatched() {
        let matches = arena().try_get_matches_from(["arena", "version"]).unwrap();
        assert!(dispatch(&matches).is_none());
    }
}
