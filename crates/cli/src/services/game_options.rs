//! The options a game adds to a command (`arena competition create`, `arena table run`): one
//! flag per field the registered games list ([`arena_games::form`]), made when the command line
//! is read, and the values given handed to the game by name.

use std::marker::PhantomData;

use arena_games::GameKind;
use arena_games::form::{self, Field, Values};
use clap::{Arg, ArgAction, ArgMatches, Command};

/// Which of a game's field lists a command takes.
pub trait FieldsOf {
    /// The fields `game` lists for the command.
    fn fields(game: GameKind) -> &'static [Field];
}

/// `arena competition create`'s: [`arena_games::Game::competition_fields`].
pub struct CompetitionFields;

impl FieldsOf for CompetitionFields {
    fn fields(game: GameKind) -> &'static [Field] {
        game.game().competition_fields()
    }
}

/// `arena table run`'s: [`arena_games::Game::table_fields`].
pub struct TableFields;

impl FieldsOf for TableFields {
    fn fields(game: GameKind) -> &'static [Field] {
        game.game().table_fields()
    }
}

/// The values given for the games' options of a command.
pub struct GameOptions<K> {
    /// By field name; fields left out are absent.
    pub given: Values,
    kind: PhantomData<K>,
}

/// A flag's help: the field's, then each game's default.
fn help<K: FieldsOf>(field: &Field) -> String {
    let defaults: Vec<String> = GameKind::all()
        .filter_map(|g| {
            let f = K::fields(g).iter().find(|f| f.name == field.name)?;
            Some(if f.default.is_empty() {
                g.title().to_string()
            } else {
                format!("{}: {}", g.title(), f.default)
            })
        })
        .collect();
    if field.switch || defaults.iter().all(|d| !d.contains(": ")) {
        format!("{} [{}]", field.help, defaults.join("; "))
    } else {
        format!("{} [default: {}]", field.help, defaults.join("; "))
    }
}

/// A flag's value name: its name in capitals, `_` for `-` (as clap writes derived flags'),
/// kept as long as the command line.
fn value_name(field: &Field) -> &'static str {
    Box::leak(field.name.to_uppercase().replace('-', "_").into_boxed_str())
}

impl<K: FieldsOf> clap::Args for GameOptions<K> {
    fn augment_args(cmd: Command) -> Command {
        form::all_fields(K::fields).into_iter().fold(cmd, |cmd, f| {
            let arg = Arg::new(f.name).long(f.name).help(help::<K>(&f));
            cmd.arg(if f.switch {
                arg.action(ArgAction::SetTrue)
            } else {
                arg.action(ArgAction::Set)
                    .value_name(value_name(&f))
                    .value_parser(clap::value_parser!(String))
            })
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<K: FieldsOf> clap::FromArgMatches for GameOptions<K> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Values::new();
        for f in form::all_fields(K::fields) {
            if f.switch {
                if m.get_flag(f.name) {
                    given.insert(f.name.to_string(), "true".to_string());
                }
            } else if let Some(v) = m.get_one::<String>(f.name) {
                given.insert(f.name.to_string(), v.clone());
            }
        }
        Ok(GameOptions {
            given,
            kind: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
