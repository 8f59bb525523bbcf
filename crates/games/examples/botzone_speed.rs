//! Decisions per second of a program in seat 0 of Chinese Standard Mahjong tables (built-in
//! efficiency bots in the others), by protocol: a Botzone simple-interaction Python bot
//! (started afresh each decision), a keep-running one, a Python bot on the arena's own line
//! protocol, and an `awk` bot on the line protocol (the arena's own overhead per decision),
//! beside the all-built-in table.
//!
//! `cargo run --release -p arena-games --example botzone_speed [HANDS]` (default 8 hands each).

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use arena_games::GameKind;
use arena_games::mcr::{McrBot, McrSpec, McrTable};
use arena_line::{CmdSpec, Framing, Heard, Launch, ProgramProtocol};
use arena_proto::v1;
use arena_table::program::{ProgramSeat, play_blocking};
use arena_table::run::{SeatPlan, TableSetup};
use arena_table::time::TimeRules;

/// Counts the decisions put to the program.
struct Counted(Box<dyn ProgramProtocol>, Arc<AtomicUsize>);

impl ProgramProtocol for Counted {
    fn framing(&self) -> Framing {
        self.0.framing()
    }
    fn greeting(&self) -> Option<&'static str> {
        self.0.greeting()
    }
    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        self.0.read_greeting(line)
    }
    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.ask(request, deadline, out)
    }
    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        self.0.hear(text, context, asked)
    }
    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        self.0.close(outcome, out)
    }
    fn bind(&mut self, cmd: &CmdSpec) {
        self.0.bind(cmd)
    }
    fn fresh_process(&self) -> bool {
        self.0.fresh_process()
    }
    fn charges_idle_cpu(&self) -> bool {
        self.0.charges_idle_cpu()
    }
    fn hear_end(&mut self, context: &str, asked: bool) -> Option<Result<Heard, String>> {
        self.0.hear_end(context, asked)
    }
}

const BOTZONE: &str = r#"import json, sys
def answer(requests):
    t = requests[-1].split()
    return "PLAY " + t[1] if t[0] == "2" else "PASS"
inp = json.loads(input())
requests = inp["requests"]
if sys.argv[1] == "keep":
    while True:
        print(json.dumps({"response": answer(requests)}))
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        requests.append(json.loads(input()))
print(json.dumps({"response": answer(requests)}))
"#;

const LINE: &str = r#"import sys
print("join", flush=True)
drawn = None
for line in sys.stdin:
    t = line.split()
    if t and t[0] == "2":
        drawn = t[1]
    elif t and t[0] == "?":
        print("PLAY " + drawn if t[1] == "TURN" else "PASS", flush=True)
"#;

const AWK: &str = r#"BEGIN { print "join"; fflush() }
$1 == "2" { drawn = $2 }
$1 == "?" { if ($2 == "TURN") print "PLAY " drawn; else print "PASS"; fflush() }
"#;

fn main() {
    let hands: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let dir = tempfile::Builder::new()
        .prefix("arena-speed-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for (name, text) in [("bz.py", BOTZONE), ("line.py", LINE), ("bot.awk", AWK)] {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let d = dir.path().display();
    let runs = [
        ("built-in only", None),
        (
            "botzone simple interaction (python, restarted)",
            Some(format!("botzone:python3 {d}/bz.py json")),
        ),
        (
            "botzone keep-running (python)",
            Some(format!("botzone:python3 {d}/bz.py keep")),
        ),
        (
            "arena line protocol (python)",
            Some(format!("cmd:python3 {d}/line.py")),
        ),
        (
            "arena line protocol (awk: the arena's overhead)",
            Some(format!("cmd:awk -f {d}/bot.awk")),
        ),
    ];
    let game = GameKind::by_name("mcr").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    println!(
        "{:<50} {:>9} {:>10} {:>12} {:>14}",
        "seat 0", "hands", "decisions", "decisions/s", "ms/decision"
    );
    for (name, spec) in runs {
        let count = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        for seed in 0..hands {
            let mut seats = Vec::new();
            match &spec {
                Some(s) => {
                    let cmd = CmdSpec::parse(s).unwrap();
                    let protocol = Counted(
                        game.program_protocol_for(0, &cmd).unwrap(),
                        Arc::clone(&count),
                    );
                    seats.push(SeatPlan::Program(Box::new(ProgramSeat::new(
                        cmd,
                        Launch::default(),
                        Box::new(protocol),
                    ))));
                }
                None => seats.push(SeatPlan::Local(Box::new(
                    McrBot::new("efficiency").unwrap(),
                ))),
            }
            for _ in 1..4 {
                seats.push(SeatPlan::Local(Box::new(
                    McrBot::new("efficiency").unwrap(),
                )));
            }
            let setup = TableSetup {
                table_id: "speed".into(),
                seed,
                time: TimeRules::resolve(
                    &arena_games::mcr::spec::default_time(),
                    v1::PenaltyRounding::Started,
                ),
                policy: None,
            };
            let t = play_blocking(
                &runtime,
                McrTable::new(&McrSpec::from_seed(seed)),
                seats,
                &setup,
            )
            .unwrap();
            assert!(t.verdicts().is_empty(), "{name}: {:?}", t.verdicts());
        }
        let took = start.elapsed().as_secs_f64();
        let n = count.load(Ordering::Relaxed);
        let (rate, per) = if n > 0 {
            (n as f64 / took, took * 1000.0 / n as f64)
        } else {
            (f64::NAN, f64::NAN)
        };
        println!("{name:<50} {hands:>9} {n:>10} {rate:>12.1} {per:>14.2}   ({took:.2} s)");
    }
}
