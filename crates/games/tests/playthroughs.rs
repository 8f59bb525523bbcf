//! Golden playthroughs: every registered game ([`GameKind::all`]), in every reading of it
//! ([`arena_games::Game::variants`]: Dou Dizhu's rule sets and scoring modes, Mahjong's fan
//! readings), plays one seeded game with its built-in `random` bot in every seat, through the
//! registry alone: the job is checked by [`validate`] and dealt as a [`State`], each seat's bot
//! decides from the decision request a remote seat would get ([`arena_games::RequestBot`]), and
//! its answer goes through the wire back into the rules. Nothing here names a game. The
//! transcript: per step, the pending seats and what each decides, each one's observation (the
//! protocol's canonical JSON, keys sorted; events shown once per seat, as an incremental seat
//! stream carries them), its legal actions and the action taken; at the end the outcome and the
//! scores. The test compares each transcript with the committed file
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

use arena_games::{GameKind, RequestBot, State, Variant, validate};
use arena_proto::v1;
use serde_json::Value;

/// The environment variable that makes the test rewrite the committed transcripts.
const BLESS: &str = "ARENA_BLESS_PLAYTHROUGHS";

/// The job of `variant` of `game` with the built-in `random` bot in every seat.
fn random_job(game: GameKind, variant: &Variant) -> v1::TableJob {
    v1::TableJob {
        table_id: "playthrough".into(),
        game: game.name().into(),
        seats: (0..game.seat_count())
            .map(|_| v1::SeatSpec {
                bot: "random".into(),
            })
            .collect(),
        setup: variant.setup.clone(),
        seed: variant.seed,
        ..Default::default()
    }
}

/// The transcript of the game `job` sets up, played by its seats' built-in bots.
fn transcript_of(job: &v1::TableJob) -> String {
    let header = format!("job {}", canonical(&json(job, "arena.v1.TableJob")));
    let checked = validate(job).expect("a playthrough's job is valid");
    let game = checked.game();
    let bots: Vec<Box<dyn RequestBot>> = job
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| {
            game.builtin(&s.bot)
                .and_then(Result::ok)
                .and_then(|b| b.request_bot(job.seed ^ seat as u64))
                .unwrap_or_else(|| panic!("{} has no built-in bot {:?}", game, s.bot))
        })
        .collect();
    playthrough(&header, game, checked.state(), bots, job)
}

/// Plays `state` to the end with `bots[seat]` in each seat, writing the transcript. Written over
/// the registry's [`State`]: nothing in it knows a game.
fn playthrough(
    header: &str,
    game: GameKind,
    mut state: Box<dyn State>,
    mut bots: Vec<Box<dyn RequestBot>>,
    job: &v1::TableJob,
) -> String {
    let mut out = format!("{header}\n");
    for (seat, s) in job.seats.iter().enumerate() {
        writeln!(out, "seat {seat}: {}", s.bot).unwrap();
    }
    // Per seat, how many of its events earlier observations showed.
    let mut shown = vec![0usize; state.seats()];
    let mut step = 0u64;
    loop {
        let pending = state.pending_now();
        if pending.is_empty() {
            break;
        }
        assert!(step < 10_000, "the game does not end");
        writeln!(out, "step {step}").unwrap();
        let mut round = Vec::with_capacity(pending.len());
        for p in &pending {
            let seat = p.seat as usize;
            writeln!(out, "  seat {seat} {}", p.kind.as_str_name()).unwrap();
            let whole = state.observe(p.seat);
            let legal = game.legal(&whole);
            let mut obs = arena_proto::json::observation(&state.observe_from(p.seat, shown[seat]))
                .expect("the game's observation is a message of the protocol");
            if let Some(o) = obs.as_object_mut() {
                o.remove("@type");
                o.remove("legal");
                shown[seat] = event_count(o);
            }
            writeln!(out, "    observation {}", canonical(&obs)).unwrap();
            writeln!(out, "    legal {}", canonical(&Value::from(legal))).unwrap();
            let request = v1::DecisionRequest {
                request_id: step,
                table_id: job.table_id.clone(),
                seat: p.seat,
                game: job.game.clone(),
                kind: p.kind as i32,
                deadline_ms: 1000,
                observation: Some(whole),
            };
            let action = bots[seat]
                .decide(&request)
                .unwrap_or_else(|e| panic!("step {step}: seat {seat}'s request: {e}"));
            writeln!(
                out,
                "    action {}",
                canonical(&json(&action, "arena.v1.Action"))
            )
            .unwrap();
            if let Err(fault) = state.check_wire(p, &action) {
                panic!(
                    "step {step}: the built-in bot in seat {seat} made a refused action: {fault}"
                );
            }
            round.push((*p, action));
        }
        state
            .apply_wire(&round)
            .unwrap_or_else(|e| panic!("step {step}: {e}"));
        step += 1;
    }
    let outcome = state.result().expect("a game with nothing pending is over");
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
    for game in GameKind::all() {
        let vs = game.variants();
        assert!(!vs.is_empty(), "{game} lists no variant");
        for v in vs {
            let actual = transcript_of(&random_job(game, &v));
            let file = format!("{}-{}.txt", game.name(), v.name);
            let path = dir().join(&file);
            files.push(file);
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
    let game = GameKind::default_game();
    let job = &random_job(game, &game.variants()[0]);
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
