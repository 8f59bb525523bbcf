//! A game's part of what users fill in: the options of `arena competition create` and
//! `arena table run` beyond those every game has, which are also the fields of the console's
//! competition form. A game lists them ([`crate::Game::competition_fields`],
//! [`crate::Game::table_fields`]) with their defaults, and reads the values a user gave
//! ([`crate::Game::competition_spec`], [`crate::Game::table_setup`]): the CLI makes one flag
//! of each listed field and the console one input, and neither knows what a field means.

use std::collections::BTreeMap;

use arena_proto::v1;

/// One option of a game's part of a command or form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name: the flag without its dashes (`--panel-farmers` is `panel-farmers`) and the
    /// console form's field.
    pub name: &'static str,
    /// What it sets, for the flag's help and the form's label.
    pub help: &'static str,
    /// The value it has when left out, as a user would write it (empty: none).
    pub default: &'static str,
    /// A switch: given or not, with no value (its value is then `true`).
    pub switch: bool,
    /// The values it may take, when they are few (the form offers them to choose from; empty:
    /// any text).
    pub choices: &'static [&'static str],
}

impl Field {
    /// A field taking a value.
    pub const fn value(name: &'static str, help: &'static str, default: &'static str) -> Field {
        Field {
            name,
            help,
            default,
            switch: false,
            choices: &[],
        }
    }

    /// A field taking one of `choices`, the first its default.
    pub const fn choice(
        name: &'static str,
        help: &'static str,
        choices: &'static [&'static str],
    ) -> Field {
        Field {
            name,
            help,
            default: choices[0],
            switch: false,
            choices,
        }
    }

    /// A switch.
    pub const fn switch(name: &'static str, help: &'static str) -> Field {
        Field {
            name,
            help,
            default: "",
            switch: true,
            choices: &[],
        }
    }
}

/// The values a user gave, by field name (a switch given is `true`). Fields left out are
/// absent.
pub type Values = BTreeMap<String, String>;

/// The fields every registered game lists through `fields`, each name once (the first game's
/// field of a name describes it), in the games' order.
pub fn all_fields(fields: impl Fn(crate::GameKind) -> &'static [Field]) -> Vec<Field> {
    let mut all: Vec<Field> = Vec::new();
    for game in crate::GameKind::all() {
        for f in fields(game) {
            if !all.iter().any(|a| a.name == f.name) {
                all.push(*f);
            }
        }
    }
    all
}

/// Reads a given value of field `name`, the error naming the flag.
pub fn parse<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    value
        .trim()
        .parse()
        .map_err(|e| format!("--{name} {}: {e}", arena_proto::text::quote(value)))
}

/// Reads a comma-separated list of numbers given for field `name`.
pub fn parse_list(name: &str, value: &str) -> Result<Vec<f64>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| parse(name, v))
        .collect()
}

/// Writes the given values of the competition fields the protocol's `CompetitionSpec` has for
/// every game (`format`, `centre`, `eps`, `farmers`, `matches`, `rounds`, `panel`,
/// `panel-farmers`, `scoring` (the panel's), `bombs`, `rotate-seats`) into `spec` as given, so
/// the game's check refuses those that do not fit it, naming the spec's field. Returns the
/// names it did not know, for the game to read or refuse.
pub fn write_spec_fields(
    spec: &mut v1::CompetitionSpec,
    given: &Values,
) -> Result<Vec<String>, String> {
    let mut rest = Vec::new();
    for (name, value) in given {
        match name.as_str() {
            "format" => spec.format = value.trim().to_string(),
            "centre" => spec.centre = parse_list(name, value)?,
            "eps" => spec.eps = parse(name, value)?,
            "farmers" => spec.farmers = value.trim().to_string(),
            "matches" => spec.matches = parse(name, value)?,
            "rounds" => spec.rounds = parse(name, value)?,
            "bombs" => spec.bombs = parse(name, value)?,
            "rotate-seats" => spec.rotate_seats = parse(name, value)?,
            "panel" => panel(spec).landlords = value.trim().to_string(),
            "panel-farmers" => panel(spec).farmers = value.trim().to_string(),
            "scoring" => panel(spec).scoring = value.trim().to_string(),
            _ => rest.push(name.clone()),
        }
    }
    Ok(rest)
}

/// The refusal of options `names` that the game titled `title` does not take for `what` (`competitions`,
/// `tables`), naming the games that take them.
pub fn not_for(
    title: &str,
    what: &str,
    names: &[String],
    fields: impl Fn(crate::GameKind) -> &'static [Field],
) -> Result<(), String> {
    let Some(name) = names.first() else {
        return Ok(());
    };
    let takers: Vec<&str> = crate::GameKind::all()
        .filter(|g| fields(*g).iter().any(|f| f.name == name))
        .map(|g| g.title())
        .collect();
    Err(if takers.is_empty() {
        format!("--{name} is not an option of {} {what}", title)
    } else {
        format!(
            "--{name} is for {} {what}, not {}",
            takers.join(" and "),
            title
        )
    })
}

/// The spec's panel, made empty when it has none.
fn panel(spec: &mut v1::CompetitionSpec) -> &mut v1::PanelSpec {
    spec.panel.get_or_insert_with(v1::PanelSpec::default)
}
