//! Golden playthroughs: every game the platform has rules for ([`GameKind::ALL`]), in every
//! reading of it (Dou Dizhu's rule sets and scoring modes, Mahjong's fan readings), plays one
//! seeded game with its built-in `random` bot in every seat, through the same table adapter the
//! runner plays ([`TableGame::pending`], [`TableGame::observation_from`], [`TableGame::apply`];
//! each action also goes through the wire and back, [`TableGame::encode`] then `decode`),
//! and writes its transcript: per step, the pending seats and what each decides, each one's
//! observation (the protocol's canonical JSON, keys sorted; events shown once per seat, as an
//! incremental seat stream carries them), its legal actions and the action taken; at the end the
//! outcome and the scores. The test compares each transcript with the committed file
//! `tests/playthroughs/<game>-<variant>.txt` and fails showing the first line that differs, so a
//! change to a game's rules, observations, legal actions or scoring shows up as a diff of that
//! file.
//!
//! After a deliberate change, rewrite the files and review their diff:
//!
//! ```text
//! ARENA_BLESS_PLAYTHROUGHS=1 cargo nextest run -p arena-games --test playthroughs
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arena_games::ddz::rules::Scoring;
use arena_games::mahjong::rules::Reading;
use arena_games::{CheckedJob, GameKind, ddz, mahjong, validate};
use arena_proto::v1;
use arena_table::{LocalPlayer, SeatBot, TableGame, TableSpec};
use serde_json::Value;

/// The environment variable that makes the test rewrite the committed transcripts.
const BLESS: &str = "ARENA_BLESS_PLAYTHROUGHS";

/// The seed of a Dou Dizhu playthrough: the job's, so the deal and each bot's choices follow
/// from it.
const DDZ_SEED: u64 = 2015;

/// The seed of a Mahjong playthrough: most hands random bots play are drawn, and a drawn hand
/// shows no fans; the random bots win this one, and the two readings score it differently.
const MAHJONG_SEED: u64 = 15;

/// One reading of a game: the file it is compared with, and the job that sets it up.
struct Variant {
    file: String,
    job: v1::TableJob,
}

/// A job of `game` with the built-in `random` bot in every seat.
fn random_job(game: GameKind, seed: u64, setup: Option<v1::table_job::Setup>) -> v1::TableJob {
    v1::TableJob {
        table_id: "playthrough".into(),
        game: game.wire() as i32,
        seats: (0..game.seat_count())
            .map(|_| v1::SeatSpec {
                bot: "random".into(),
            })
            .collect(),
        setup,
        seed,
        ..Default::default()
    }
}

/// Every reading of `game` whose transcript differs: a game added to [`GameKind`] fails to
/// compile here until its readings are listed.
fn variants(game: GameKind) -> Vec<Variant> {
    match game {
        GameKind::DouDizhu => {
            let ddz = |rules: &str, scoring: Scoring| Variant {
                file: format!("ddz-{rules}-{}", scoring.name()),
                job: random_job(
                    game,
                    DDZ_SEED,
                    Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
                        rules: rules.into(),
                        scoring: scoring.name().into(),
                        // The doubling round is part of the rules' transcript too.
                        doubling: true,
                        ..Default::default()
                    })),
                ),
            };
            // Each rule set changes the legal plays; each scoring mode only the scores, so the
            // scoring modes are played under one rule set.
            let mut all: Vec<Variant> = ["competition", "douzero", "openspiel"]
                .into_iter()
                .map(|rules| ddz(rules, Scoring::Competition))
                .collect();
            all.extend(
                [Scoring::Difficulty, Scoring::Adp, Scoring::Wp]
                    .into_iter()
                    .map(|scoring| ddz("competition", scoring)),
            );
            all
        }
        GameKind::Mahjong => [
            (Reading::Contest, "contest"),
            (Reading::Seed2015, "seed-2015"),
        ]
        .into_iter()
        .map(|(reading, name)| Variant {
            file: format!("mahjong-{name}"),
            job: random_job(
                game,
                MAHJONG_SEED,
                Some(v1::table_job::Setup::Mahjong(v1::MahjongSetup {
                    fans: mahjong::spec::fans_kind(reading) as i32,
                    ..Default::default()
                })),
            ),
        })
        .collect(),
    }
}

/// The transcript of the game `job` sets up, played by its built-in bots.
fn transcript_of(job: &v1::TableJob) -> String {
    let header = format!("job {}", canonical(&json(job, "arena.v1.TableJob")));
    match validate(job).expect("a playthrough's job is valid") {
        CheckedJob::Ddz(spec) => playthrough(
            &header,
            ddz::DdzTable::new(&spec.setup, spec.seed),
            built_in(&spec, ddz::DdzBot::new),
            spec.seed,
        ),
        CheckedJob::Mahjong(spec) => playthrough(
            &header,
            mahjong::MahjongTable::new(&spec.setup),
            built_in(&spec, mahjong::MahjongBot::new),
            spec.seed,
        ),
    }
}

/// The in-process player of each seat of `spec` (all built-in bots).
fn built_in<G: TableGame, S, B, P: LocalPlayer<G> + 'static>(
    spec: &TableSpec<S, B>,
    new: impl Fn(&B) -> Option<P>,
) -> Vec<Box<dyn LocalPlayer<G>>> {
    spec.seats
        .iter()
        .map(|s| match s {
            SeatBot::Builtin(b) => {
                Box::new(new(b).expect("a built-in bot")) as Box<dyn LocalPlayer<G>>
            }
            SeatBot::Remote(name) => panic!("a playthrough seats built-in bots, not {name}"),
        })
        .collect()
}

/// Plays `game` to the end with `players[seat]` in each seat (started with `seed`, as the
/// runner starts them), writing the transcript. Generic over the table adapter: nothing in it
/// knows a game.
fn playthrough<G: TableGame>(
    header: &str,
    mut game: G,
    mut players: Vec<Box<dyn LocalPlayer<G>>>,
    seed: u64,
) -> String {
    let mut out = format!("{header}\n");
    for (seat, p) in players.iter_mut().enumerate() {
        p.start(seat as u32, seed);
        writeln!(out, "seat {seat}: {}", p.name()).unwrap();
    }
    // Per seat, how many of its events earlier observations showed.
    let mut shown = vec![0usize; game.seat_count()];
    let mut step = 0;
    loop {
        let pending = game.pending();
        if pending.is_empty() {
            break;
        }
        assert!(step < 10_000, "the game does not end");
        writeln!(out, "step {step}").unwrap();
        let mut actions = Vec::with_capacity(pending.len());
        for p in &pending {
            let seat = p.seat as usize;
            writeln!(out, "  seat {seat} {}", p.kind.as_str_name()).unwrap();
            let mut obs = json(
                &game.observation_from(p.seat, shown[seat]),
                "arena.v1.Observation",
            );
            let inner = obs
                .as_object_mut()
                .and_then(|o| o.values_mut().next())
                .and_then(Value::as_object_mut);
            let legal = inner.as_ref().and_then(|o| o.get("legal")).cloned();
            if let Some(o) = inner {
                o.remove("legal");
                shown[seat] = event_count(o);
            }
            writeln!(out, "    observation {}", canonical(&obs)).unwrap();
            match legal {
                Some(l) => writeln!(out, "    legal {}", canonical(&l)).unwrap(),
                None => writeln!(out, "    legal (none listed)").unwrap(),
            }
            let action = players[seat].decide(&game.view(p.seat), p);
            let encoded = game.encode(&action);
            let wire = canonical(&json(&encoded, "arena.v1.Action"));
            writeln!(out, "    action {wire}").unwrap();
            // The action a remote seat would send reads back as the same action.
            let back = game
                .decode(p, &encoded)
                .unwrap_or_else(|f| panic!("step {step}: {wire} does not read back: {f}"));
            assert_eq!(format!("{back:?}"), format!("{action:?}"), "step {step}");
            actions.push((*p, action));
        }
        if let Err((seat, fault)) = game.check_and_apply(&actions) {
            panic!("step {step}: the built-in bot in seat {seat} made a refused action: {fault}");
        }
        step += 1;
    }
    for (seat, p) in players.iter_mut().enumerate() {
        p.finish(&game.view(seat as u32));
    }
    let outcome = game.outcome().expect("a game with nothing pending is over");
    writeln!(
        out,
        "outcome {}",
        canonical(&json(&outcome, "arena.v1.Outcome"))
    )
    .unwrap();
    writeln!(out, "scores {:?}", outcome.scores).unwrap();
    out
}

/// How many events a seat has seen, from a game's observation: those it skipped (`eventsFrom`)
/// and those it lists (0 for a game whose observation lists none).
fn event_count(observation: &serde_json::Map<String, Value>) -> usize {
    let from = observation.get("eventsFrom").and_then(Value::as_u64);
    let listed = observation
        .get("events")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    usize::try_from(from.unwrap_or(0)).unwrap_or(usize::MAX) + listed
}

/// `message`, of protocol type `name`, as the protocol's canonical JSON.
fn json(message: &impl prost::Message, name: &str) -> Value {
    arena_proto::json::to_json(message, name)
        .unwrap_or_else(|| panic!("{name} is a message of the protocol"))
}

/// `value` written on one line with every object's keys sorted, so the text does not depend on
/// how a JSON library orders maps.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), canonical(&map[k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// The first line where `actual` differs from `expected`: its number (from 1) and both lines
/// (`<end of file>` past the end of one). `None` when the texts are the same.
fn first_difference(expected: &str, actual: &str) -> Option<(usize, String, String)> {
    const END: &str = "<end of file>";
    let mut e = expected.lines();
    let mut a = actual.lines();
    for n in 1.. {
        match (e.next(), a.next()) {
            (None, None) => break,
            (x, y) if x == y => {}
            (x, y) => {
                return Some((n, x.unwrap_or(END).into(), y.unwrap_or(END).into()));
            }
        }
    }
    // Same lines; only a final newline can differ.
    (expected != actual).then(|| (0, format!("{expected:?}"), format!("{actual:?}")))
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/playthroughs")
}

/// A line cut to a readable length for a failure message.
fn shorten(line: &str) -> String {
    const MAX: usize = 300;
    match line.char_indices().nth(MAX) {
        None => line.to_string(),
        Some((end, _)) => format!("{}…", &line[..end]),
    }
}

#[test]
fn every_game_plays_its_committed_transcript() {
    let bless = std::env::var(BLESS).is_ok_and(|v| v == "1");
    let mut wrong = Vec::new();
    let mut files = Vec::new();
    for game in GameKind::ALL {
        let vs = variants(game);
        assert!(!vs.is_empty(), "{game:?} lists no variant");
        for v in vs {
            let actual = transcript_of(&v.job);
            let path = dir().join(format!("{}.txt", v.file));
            files.push(format!("{}.txt", v.file));
            if bless {
                std::fs::create_dir_all(dir()).unwrap();
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            let expected = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(e) => {
                    wrong.push(format!(
                        "{}: cannot read it ({e}); {BLESS}=1 writes it",
                        path.display()
                    ));
                    continue;
                }
            };
            if let Some((line, e, a)) = first_difference(&expected, &actual) {
                wrong.push(format!(
                    "{}: line {line} differs\n  committed: {}\n  played:    {}",
                    path.display(),
                    shorten(&e),
                    shorten(&a)
                ));
            }
        }
    }
    // A committed transcript no variant plays any more is stale.
    let committed = std::fs::read_dir(dir()).into_iter().flatten().flatten();
    for name in committed.map(|e| e.file_name().to_string_lossy().into_owned()) {
        if !files.contains(&name) {
            wrong.push(format!(
                "{name}: committed, but no game or variant plays it"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "playthroughs differ from the committed files (after a deliberate rules change, \
         rewrite them with {BLESS}=1 and review the diff):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn each_transcript_is_the_same_when_played_again_and_differs_by_seed() {
    let job = &variants(GameKind::ALL[0])[0].job;
    assert_eq!(
        transcript_of(job),
        transcript_of(job),
        "seeded, so repeatable"
    );
    let mut other = job.clone();
    other.seed += 1;
    assert!(first_difference(&transcript_of(job), &transcript_of(&other)).is_some());
}

#[test]
fn a_changed_line_is_reported_with_its_number_and_both_texts() {
    let committed = "job {}\nstep 0\n  action {\"bid\":1}\noutcome {}\n";
    assert_eq!(first_difference(committed, committed), None);
    let changed = committed.replace("\"bid\":1", "\"bid\":2");
    assert_eq!(
        first_difference(committed, &changed),
        Some((
            3,
            "  action {\"bid\":1}".into(),
            "  action {\"bid\":2}".into()
        ))
    );
    let shorter = "job {}\nstep 0\n";
    assert_eq!(
        first_difference(committed, shorter),
        Some((3, "  action {\"bid\":1}".into(), "<end of file>".into()))
    );
    assert!(first_difference(committed, committed.trim_end()).is_some());
}

#[test]
fn canonical_json_sorts_keys_at_every_depth() {
    let v: Value = serde_json::from_str(r#"{"b":[{"z":1,"a":"x"}],"a":null}"#).unwrap();
    assert_eq!(canonical(&v), r#"{"a":null,"b":[{"a":"x","z":1}]}"#);
}
