//! Botzone's bot protocols (<https://wiki.botzone.org.cn/index.php?title=Bot>), for any game
//! that has a Botzone grammar: what a game supplies ([`BotzoneGrammar`]: its requests and
//! responses in Botzone's JSON, and in its simple-I/O text where it has one).
//!
//! Botzone asks a bot one *request* per turn and takes one *response*. The arena asks a seat
//! only when it has a decision; where Botzone's judge asks a bot on turns with nothing to decide
//! (Chinese Standard Mahjong asks every seat after every move, and only `PASS` is allowed), the
//! grammar lists those turns too, each with the response it stands for ([`BotzoneTurn::filler`]),
//! so that the bot's history is the one Botzone's judge would have built.

use arena_proto::v1;
use serde_json::Value;

/// One turn of a Botzone bot: the request it is given and, for a turn on which the arena has no
/// decision to ask, the response that stands for its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct BotzoneTurn {
    /// The request, as Botzone's judge writes it for this bot.
    pub request: Value,
    /// `None` for the decision's own turn (the last); else the only response the judge allows
    /// (`"PASS"`), recorded in the bot's history as its answer.
    pub filler: Option<Value>,
}

/// A game's grammar of Botzone requests and responses, for one seat of one table (it may keep
/// what the seat was told so far). It does no I/O.
pub trait BotzoneGrammar: Send + Sync {
    /// Botzone's name of the game (`FightTheLandlord`, `ChineseStandardMahjong`).
    fn botzone_game(&self) -> &'static str;

    /// Appends the turns that bring the seat to `request`: the turns Botzone's judge would have
    /// given it since the last decision, each with its filler response, then the decision's own
    /// turn (filler `None`). `Err` names the field of a request that contradicts itself.
    fn turns(
        &mut self,
        request: &v1::DecisionRequest,
        out: &mut Vec<BotzoneTurn>,
    ) -> Result<(), String>;

    /// Reads the bot's response to the decision's turn as an action; `Err` is the fault: a
    /// [`Fault::malformed`] saying why it is none of the game's responses, or a
    /// [`Fault::illegal`] for a response the judge's rules refuse, each in Botzone's words
    /// where the judge has them (a malformed reason is quoted after the response; an illegal
    /// one is the whole verdict reason, so that it starts with the judge's foul name).
    fn action(&mut self, response: &Value) -> Result<v1::Action, Fault>;

    /// A request as a line of Botzone's simple I/O, `None` when the game has no simple I/O form.
    fn simple_request(&self, request: &Value) -> Option<String> {
        let _ = request;
        None
    }

    /// A simple-I/O response line read as the JSON response it stands for.
    fn simple_response(&self, line: &str) -> Result<Value, String> {
        Ok(Value::String(line.to_string()))
    }
}

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::fault::Fault;
use crate::lines::Framing;
use crate::protocol::quote;
use crate::session::{Heard, ProgramProtocol};
use crate::spec::CmdSpec;

/// The line a keep-running bot prints (and flushes) after its output to stay running: later
/// turns then send it only the new request.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// The most bytes a bot may write for one turn (response, debug, data and globaldata
/// together), as Botzone's sandbox bounds a bot's output (1 MiB); it is also the longest line
/// read. More is a malformed output.
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// The most bots whose `globaldata` a host keeps in memory at once; past it the store is
/// emptied before a new bot's is kept (globaldata is a cache a bot must be able to lose).
pub const MAX_GLOBALDATA_BOTS: usize = 4096;

/// How a Botzone bot reads its requests and writes its responses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// JSON (the protocol `botzone`): one line `{"requests":[…],"responses":[…]}` (plus `data`
    /// and `globaldata` when set) in; a JSON object with `response` (and optional `debug`,
    /// `data`, `globaldata`) or a bare response out.
    Json,
    /// Simple I/O (`botzone-simpleio`): the turn count, then each earlier request and response
    /// on lines of their own, then the current request, `data` and `globaldata`; out, line 1
    /// the response, line 2 debug, line 3 data, lines 4 on globaldata.
    SimpleIo,
}

/// How a bot is registered on Botzone, read from the end of a protocol's name after the
/// game's prefix (`botzone`): `""` JSON, `"-keep"` JSON with keep-running, `"-simpleio"` simple
/// I/O, `"-simpleio-keep"` simple I/O with keep-running; `None` for anything else.
pub fn interaction(suffix: &str) -> Option<(Mode, bool)> {
    Some(match suffix {
        "" => (Mode::Json, false),
        "-keep" => (Mode::Json, true),
        "-simpleio" => (Mode::SimpleIo, false),
        "-simpleio-keep" => (Mode::SimpleIo, true),
        _ => return None,
    })
}

/// The `globaldata` of every bot a host runs, by bot (its command line), kept across tables in
/// memory: bot-host and the CLI each keep one for the life of the process.
#[derive(Debug, Default)]
pub struct GlobalData {
    by_bot: Mutex<HashMap<String, Value>>,
}

impl GlobalData {
    /// The store every Botzone protocol of this process shares.
    pub fn shared() -> Arc<GlobalData> {
        static SHARED: OnceLock<Arc<GlobalData>> = OnceLock::new();
        Arc::clone(SHARED.get_or_init(Arc::default))
    }

    /// The globaldata `bot` left last, if any.
    pub fn get(&self, bot: &str) -> Option<Value> {
        let map = self.by_bot.lock().unwrap_or_else(|p| p.into_inner());
        map.get(bot).cloned()
    }

    /// Keeps `value` as `bot`'s globaldata (bounded by [`MAX_OUTPUT_BYTES`] per bot, since a bot
    /// writes it in one output, and [`MAX_GLOBALDATA_BOTS`] bots).
    pub fn set(&self, bot: &str, value: Value) {
        let mut map = self.by_bot.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_GLOBALDATA_BOTS && !map.contains_key(bot) {
            map.clear();
        }
        map.insert(bot.to_string(), value);
    }
}

/// The turn whose output is being read.
#[derive(Clone, Debug)]
struct Open {
    /// The filler response, for a turn the arena did not ask about.
    filler: Option<Value>,
}

/// Botzone's bot protocol around a game's [`BotzoneGrammar`]: a [`ProgramProtocol`] that a
/// [`crate::ProgramSession`] runs (one value per seat and table).
///
/// - In both modes a bot registered for keep-running ([`Protocol::keep_running`]) may print
///   [`KEEP_RUNNING_MARKER`] after its output: it is then kept running and later turns
///   send it only the new request (the JSON request, or its simple-I/O line). A bot that exits instead is started afresh for its next turn with the whole history.
/// - Filler turns ([`BotzoneTurn::filler`]) go into the history of a fresh process with the
///   filler as the response; a keep-running bot is sent them one by one, and an answer other
///   than the filler is malformed.
/// - `data` is kept for the table (this value), `globaldata` per bot in a [`GlobalData`].
/// - While a keep-running bot waits, the CPU time it uses counts against its next turn (see
///   [`ProgramProtocol::charges_idle_cpu`]).
pub struct Protocol<G> {
    grammar: G,
    mode: Mode,
    requests: Vec<Value>,
    responses: Vec<Value>,
    data: Option<Value>,
    globaldata: Arc<GlobalData>,
    bot: String,
    /// Turns still to send in this ask (keep-running: one at a time).
    pending: VecDeque<BotzoneTurn>,
    open: Option<Open>,
    /// The open turn's output so far.
    output: String,
    /// The process printed the marker after its last output and waits for the next request.
    running: bool,
    /// The bot is registered for keep-running: its input stays open after a turn's request.
    keep_running: bool,
    scratch: Vec<BotzoneTurn>,
}

impl<G: BotzoneGrammar> Protocol<G> {
    /// `grammar` spoken in `mode`, its globaldata in the process's [`GlobalData::shared`].
    pub fn new(grammar: G, mode: Mode) -> Protocol<G> {
        Protocol::with_globaldata(grammar, mode, GlobalData::shared())
    }

    /// `grammar` spoken in `mode`, its globaldata kept in `globaldata`.
    pub fn with_globaldata(grammar: G, mode: Mode, globaldata: Arc<GlobalData>) -> Protocol<G> {
        Protocol {
            grammar,
            mode,
            requests: Vec::new(),
            responses: Vec::new(),
            data: None,
            globaldata,
            bot: String::new(),
            pending: VecDeque::new(),
            open: None,
            output: String::new(),
            running: false,
            keep_running: false,
            scratch: Vec::new(),
        }
    }

    /// This protocol for a bot registered for keep-running (`true`): its input stays open
    /// after each turn's request, so that it may print [`KEEP_RUNNING_MARKER`] and wait for the
    /// next. Without it (the default, Botzone's) a fresh process's input is closed once its
    /// request is written, as Botzone's sandbox closes it: a bot reading to the end of its input
    /// (`std::cin >> json`) then stops reading, and a marker it prints is not taken.
    pub fn keep_running(mut self, keep_running: bool) -> Protocol<G> {
        self.keep_running = keep_running;
        self
    }

    /// The grammar.
    pub fn grammar(&self) -> &G {
        &self.grammar
    }

    /// A request as the bot reads it alone (keep-running's later turns, simple I/O's lines).
    fn request_line(&self, request: &Value) -> Result<String, String> {
        match self.mode {
            Mode::Json => Ok(request.to_string()),
            Mode::SimpleIo => self.grammar.simple_request(request).ok_or_else(|| {
                format!(
                    "{} has no simple I/O form; use the protocol botzone",
                    self.grammar.botzone_game()
                )
            }),
        }
    }

    /// What a fresh process is given: the whole history, `data` and `globaldata`.
    fn full_input(&self, out: &mut Vec<String>) -> Result<(), String> {
        let globaldata = self.globaldata.get(&self.bot).filter(truthy);
        let data = self.data.clone().filter(truthy);
        match self.mode {
            Mode::Json => {
                // Written by hand to keep Botzone's order of the fields.
                let mut input = format!(
                    "{{\"requests\":{},\"responses\":{}",
                    Value::Array(self.requests.clone()),
                    Value::Array(self.responses.clone())
                );
                if let Some(d) = data {
                    input.push_str(&format!(",\"data\":{d}"));
                }
                if let Some(g) = globaldata {
                    input.push_str(&format!(",\"globaldata\":{g}"));
                }
                input.push('}');
                out.push(input);
            }
            Mode::SimpleIo => {
                out.push(self.requests.len().to_string());
                for (i, request) in self.requests.iter().enumerate() {
                    out.push(self.request_line(request)?);
                    if let Some(response) = self.responses.get(i) {
                        out.push(plain(response));
                    }
                }
                out.extend(data.as_ref().map(plain));
                out.extend(globaldata.as_ref().map(plain));
            }
        }
        Ok(())
    }

    /// Moves the pending turns into the history for a fresh process (fillers answered by
    /// their filler) up to the last, which is opened; its input appended to `out`.
    fn open_fresh(&mut self, out: &mut Vec<String>) -> Result<(), String> {
        while let Some(turn) = self.pending.pop_front() {
            self.requests.push(turn.request);
            match turn.filler {
                Some(f) if !self.pending.is_empty() => self.responses.push(f),
                filler => {
                    self.open = Some(Open { filler });
                    break;
                }
            }
        }
        self.output.clear();
        self.full_input(out)
    }

    /// Sends the next pending turn alone to the running process.
    fn open_running(&mut self, out: &mut Vec<String>) -> Result<(), String> {
        let Some(turn) = self.pending.pop_front() else {
            return Err("no turn to send".into());
        };
        out.push(self.request_line(&turn.request)?);
        self.requests.push(turn.request);
        self.open = Some(Open {
            filler: turn.filler,
        });
        self.output.clear();
        Ok(())
    }

    /// The open turn's output is complete (`running`: it ended with the marker): reads it,
    /// keeps its data, and answers, or goes on to the next turn.
    fn complete(&mut self, running: bool, context: &str) -> Result<Heard, String> {
        let Some(open) = self.open.take() else {
            return Err(format!("wrote output {context}"));
        };
        let output = std::mem::take(&mut self.output);
        let (response, raw, data, globaldata) = self.read_output(&output, context)?;
        if let Some(d) = data {
            self.data = Some(d);
        }
        if let Some(g) = globaldata.filter(truthy) {
            self.globaldata.set(&self.bot, g);
        }
        self.responses.push(raw);
        self.running = running;
        if let Some(filler) = open.filler {
            if response != filler {
                return Err(format!(
                    "answered {} {context} on a turn where Botzone's judge allows only {}",
                    quote(&plain(&response)),
                    plain(&filler)
                ));
            }
            let mut lines = Vec::new();
            let fresh = !self.running;
            if fresh {
                self.open_fresh(&mut lines)?;
            } else {
                self.open_running(&mut lines)?;
            }
            return Ok(Heard::Continue { lines, fresh });
        }
        match self.grammar.action(&response) {
            Ok(action) => Ok(Heard::Answer(action)),
            Err(fault) if fault.kind == v1::VerdictKind::Malformed => Err(format!(
                "answered {} {context}: {}",
                quote(&plain(&response)),
                fault.reason
            )),
            Err(fault) => Ok(Heard::Refused(fault)),
        }
    }

    /// A turn's output read: the response, what the history keeps of it, data, globaldata.
    #[allow(clippy::type_complexity)]
    fn read_output(
        &self,
        output: &str,
        context: &str,
    ) -> Result<(Value, Value, Option<Value>, Option<Value>), String> {
        if output.trim().is_empty() {
            return Err(format!("wrote no response {context}"));
        }
        match self.mode {
            Mode::Json => {
                // The whole output, else its last line: bots written for Botzone leave debug
                // text on stdout before their JSON line.
                let last_line = || {
                    let line = output.trim().lines().last()?;
                    serde_json::from_str::<Value>(line.trim()).ok()
                };
                let whole = serde_json::from_str::<Value>(output.trim());
                let value: Value = whole.or_else(|e| last_line().ok_or(e)).map_err(|e| {
                    format!(
                        "wrote {} {context}, which is not JSON ({e})",
                        quote(output.trim())
                    )
                })?;
                match value {
                    Value::Object(mut o) if o.contains_key("response") => {
                        let response = o.remove("response").unwrap_or(Value::Null);
                        Ok((
                            response.clone(),
                            response,
                            o.remove("data"),
                            o.remove("globaldata"),
                        ))
                    }
                    bare => Ok((bare.clone(), bare, None, None)),
                }
            }
            Mode::SimpleIo => {
                let lines: Vec<&str> = output
                    .split('\n')
                    .map(|l| l.strip_suffix('\r').unwrap_or(l))
                    .collect();
                let first = lines.first().copied().unwrap_or("");
                let response = self
                    .grammar
                    .simple_response(first)
                    .map_err(|why| format!("answered {} {context}: {why}", quote(first)))?;
                let data = lines
                    .get(2)
                    .filter(|d| !d.is_empty())
                    .map(|d| Value::String(d.to_string()));
                let globaldata = (lines.len() > 3)
                    .then(|| lines[3..].join("\n").trim_end_matches('\n').to_string())
                    .filter(|g| !g.is_empty())
                    .map(Value::String);
                Ok((response, Value::String(first.to_string()), data, globaldata))
            }
        }
    }
}

/// Python's truth of a JSON value, as Botzone's driver tests `data` and `globaldata`.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// A value as a line of simple I/O: a string as it is, anything else as JSON.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl<G: BotzoneGrammar> ProgramProtocol for Protocol<G> {
    fn framing(&self) -> Framing {
        Framing {
            max_line_bytes: MAX_OUTPUT_BYTES,
            ..Framing::default()
        }
    }

    fn greeting(&self) -> Option<&'static str> {
        None
    }

    fn read_greeting(&self, _line: &str) -> Result<Option<Option<String>>, String> {
        Ok(None)
    }

    fn bind(&mut self, cmd: &CmdSpec) {
        self.bot = cmd.to_string();
    }

    fn fresh_process(&self) -> bool {
        !self.running
    }

    fn charges_idle_cpu(&self) -> bool {
        self.running
    }

    fn closes_input(&self) -> bool {
        !self.keep_running
    }

    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        _deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        let mut turns = std::mem::take(&mut self.scratch);
        turns.clear();
        let told = self.grammar.turns(request, &mut turns);
        self.pending.clear();
        self.pending.extend(turns.drain(..));
        self.scratch = turns;
        told?;
        if self.pending.is_empty() {
            return Err("the request gives the bot no turn".into());
        }
        if self.running {
            self.open_running(out)?;
        } else {
            self.open_fresh(out)?;
        }
        Ok("turn")
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        if !asked || self.open.is_none() {
            return Err(format!("wrote {} {context}", quote(text)));
        }
        if text.trim_end() == KEEP_RUNNING_MARKER {
            if self.keep_running {
                return self.complete(true, context);
            }
            // Not registered for keep-running: the marker asks for nothing, and the bot's
            // input is already closed, so it ends as a bot that does not keep running.
            return Ok(Heard::Nothing);
        }
        if self.output.len() + text.len() + 1 > MAX_OUTPUT_BYTES {
            return Err(format!(
                "wrote more than {MAX_OUTPUT_BYTES} bytes {context} (Botzone's output limit)"
            ));
        }
        self.output.push_str(text);
        self.output.push('\n');
        Ok(Heard::Nothing)
    }

    fn hear_end(&mut self, context: &str, asked: bool) -> Option<Result<Heard, String>> {
        if !asked || self.open.is_none() {
            return None;
        }
        self.running = false;
        Some(self.complete(false, context))
    }

    fn close(&mut self, _outcome: Option<&v1::Outcome>, _out: &mut Vec<String>) {
        // Botzone tells a bot nothing at the end: its process is killed.
    }

    fn silence(&self) -> Option<String> {
        // Botzone's turn ends when the bot exits or prints the marker; a keep-running bot whose
        // input stays open and that does neither runs into its time limit (Botzone's TLE).
        let output = self.output.trim();
        (self.keep_running && self.open.is_some() && !output.is_empty()).then(|| {
            format!(
                "it neither printed {KEEP_RUNNING_MARKER} nor exited after writing {}, so its \
                 turn never ended (a keep-running bot ends a turn with the marker or by exiting; \
                 Botzone judges this a time-out too)",
                quote(output)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: each request lists the turns `n` (a filler `PASS` each) and then the
    /// decision's turn; a response is a number, read as an action whose kind is that number.
    struct Count {
        next: u64,
    }

    impl BotzoneGrammar for Count {
        fn botzone_game(&self) -> &'static str {
            "Count"
        }
        fn turns(
            &mut self,
            request: &v1::DecisionRequest,
            out: &mut Vec<BotzoneTurn>,
        ) -> Result<(), String> {
            for _ in 0..request.request_id {
                out.push(BotzoneTurn {
                    request: Value::String(format!("filler {}", self.next)),
                    filler: Some(Value::String("PASS".into())),
                });
                self.next += 1;
            }
            out.push(BotzoneTurn {
                request: Value::String(format!("ask {}", self.next)),
                filler: None,
            });
            self.next += 1;
            Ok(())
        }
        fn action(&mut self, response: &Value) -> Result<v1::Action, Fault> {
            // A negative number stands for a response the judge's rules refuse.
            let n = response.as_str().and_then(|s| s.parse::<i32>().ok());
            match n {
                Some(n) if n < 0 => Err(Fault::illegal(format!("NEGATIVE: {n} is below 0"))),
                Some(kind) => Ok(v1::Action {
                    game: Some(arena_proto::payload::Any {
                        type_url: kind.to_string(),
                        value: Vec::new(),
                    }),
                }),
                None => Err(Fault::malformed(format!("{response} is no number"))),
            }
        }
        fn simple_request(&self, request: &Value) -> Option<String> {
            request.as_str().map(str::to_string)
        }
    }

    /// A bot registered for keep-running (the tests of simple interaction are the same for
    /// one that is not: it merely never keeps running).
    fn protocol(mode: Mode) -> Protocol<Count> {
        let mut p =
            Protocol::with_globaldata(Count { next: 0 }, mode, Arc::default()).keep_running(true);
        p.bind(&CmdSpec::parse("botzone:python3 bot.py").unwrap());
        p
    }

    fn ask(p: &mut Protocol<Count>, fillers: u64) -> Vec<String> {
        let req = v1::DecisionRequest {
            request_id: fillers,
            ..Default::default()
        };
        let mut out = Vec::new();
        p.ask(&req, Duration::from_secs(1), &mut out).unwrap();
        out
    }

    fn answer(heard: Result<Heard, String>) -> i32 {
        match heard {
            Ok(Heard::Answer(a)) => a.game.map_or(-1, |g| g.type_url.parse().unwrap_or(-1)),
            other => panic!("no answer: {other:?}"),
        }
    }

    #[test]
    fn a_fresh_json_bot_gets_the_history_with_fillers_and_its_data_and_globaldata() {
        let mut p = protocol(Mode::Json);
        assert!(p.fresh_process());
        let input = ask(&mut p, 1);
        assert_eq!(
            input,
            [r#"{"requests":["filler 0","ask 1"],"responses":["PASS"]}"#]
        );
        assert_eq!(
            p.hear(r#"{"response":"7","debug":"x","#, "c", true),
            Ok(Heard::Nothing)
        );
        assert_eq!(
            p.hear(r#""data":{"k":1},"globaldata":"g"}"#, "c", true),
            Ok(Heard::Nothing)
        );
        assert_eq!(answer(p.hear_end("c", true).unwrap()), 7);
        assert!(p.fresh_process(), "exited: started afresh");
        let input = ask(&mut p, 0);
        assert_eq!(
            input,
            [
                r#"{"requests":["filler 0","ask 1","ask 2"],"responses":["PASS","7"],"data":{"k":1},"globaldata":"g"}"#
            ]
        );
        // A bare response is accepted.
        p.hear("\"3\"", "c", true).unwrap();
        assert_eq!(answer(p.hear_end("c", true).unwrap()), 3);
    }

    #[test]
    fn a_response_the_judge_refuses_is_its_fault_and_an_unreadable_one_is_malformed() {
        let mut p = protocol(Mode::Json);
        ask(&mut p, 0);
        p.hear("\"-2\"", "to the turn request", true).unwrap();
        // The judge's fault is the verdict as the grammar gave it: its name comes first.
        assert_eq!(
            p.hear_end("to the turn request", true),
            Some(Ok(Heard::Refused(Fault::illegal(
                "NEGATIVE: -2 is below 0"
            ))))
        );
        ask(&mut p, 0);
        p.hear("\"x\"", "to the turn request", true).unwrap();
        assert_eq!(
            p.hear_end("to the turn request", true),
            Some(Err(
                "answered \"x\" to the turn request: \"x\" is no number".to_string()
            ))
        );
    }

    #[test]
    fn simple_io_input_alternates_lines_and_output_lines_are_response_debug_data_globaldata() {
        let mut p = protocol(Mode::SimpleIo);
        assert_eq!(ask(&mut p, 1), ["2", "filler 0", "PASS", "ask 1"]);
        for line in ["5", "debug", "mydata", "global", "more"] {
            assert_eq!(p.hear(line, "c", true), Ok(Heard::Nothing));
        }
        assert_eq!(answer(p.hear_end("c", true).unwrap()), 5);
        assert_eq!(
            ask(&mut p, 0),
            [
                "3",
                "filler 0",
                "PASS",
                "ask 1",
                "5",
                "ask 2",
                "mydata",
                "global\nmore"
            ]
        );
    }

    #[test]
    fn text_before_the_json_line_is_passed_over_but_text_alone_is_malformed() {
        let mut p = Protocol::with_globaldata(Count { next: 0 }, Mode::Json, Arc::default());
        ask(&mut p, 0);
        assert_eq!(p.hear("test all:", "c", true), Ok(Heard::Nothing));
        assert_eq!(
            p.hear("{\"response\":\"4\"}", "c", true),
            Ok(Heard::Nothing)
        );
        assert_eq!(answer(p.hear_end("c", true).unwrap()), 4);
        ask(&mut p, 0);
        assert_eq!(p.hear("test all:", "c", true), Ok(Heard::Nothing));
        let e = p.hear_end("c", true).unwrap().unwrap_err();
        assert!(e.contains("not JSON") && e.contains("test all:"), "{e}");
    }

    #[test]
    fn a_bot_not_registered_for_keep_running_has_its_input_closed_and_its_marker_ignored() {
        let mut p = Protocol::with_globaldata(Count { next: 0 }, Mode::Json, Arc::default());
        assert!(p.closes_input());
        assert!(protocol(Mode::Json).keep_running && !protocol(Mode::Json).closes_input());
        ask(&mut p, 0);
        assert_eq!(
            p.hear("{\"response\":\"7\"}", "c", true),
            Ok(Heard::Nothing)
        );
        assert_eq!(p.hear(KEEP_RUNNING_MARKER, "c", true), Ok(Heard::Nothing));
        // Its answer is complete when it exits, and its next turn is a fresh process's.
        assert_eq!(answer(p.hear_end("c", true).unwrap()), 7);
        assert!(p.fresh_process() && !p.charges_idle_cpu());
    }

    #[test]
    fn a_keep_running_bot_gets_only_new_requests_and_answers_fillers_one_by_one() {
        let mut p = protocol(Mode::Json);
        ask(&mut p, 0);
        p.hear("\"1\"", "c", true).unwrap();
        assert_eq!(answer(p.hear(KEEP_RUNNING_MARKER, "c", true)), 1);
        assert!(!p.fresh_process() && p.charges_idle_cpu());
        // Two fillers: sent one at a time, each answer checked.
        assert_eq!(ask(&mut p, 2), ["\"filler 1\""]);
        p.hear("\"PASS\"", "c", true).unwrap();
        assert_eq!(
            p.hear(KEEP_RUNNING_MARKER, "c", true),
            Ok(Heard::Continue {
                lines: vec!["\"filler 2\"".into()],
                fresh: false
            })
        );
        p.hear("\"9\"", "c", true).unwrap();
        let e = p
            .hear(KEEP_RUNNING_MARKER, "to the turn request", true)
            .unwrap_err();
        assert!(
            e.contains("answered \"9\" to the turn request on a turn where Botzone's judge allows only PASS"),
            "{e}"
        );
    }

    #[test]
    fn a_keep_running_bot_silent_after_its_output_without_the_marker_is_told_why() {
        let mut p = protocol(Mode::Json);
        ask(&mut p, 0);
        assert_eq!(p.silence(), None, "nothing written: a plain silence");
        p.hear("\"1\"", "c", true).unwrap();
        let why = p.silence().unwrap();
        assert!(
            why.contains("writing \"\\\"1\\\"\"")
                && why.contains(KEEP_RUNNING_MARKER)
                && why.contains("nor exited"),
            "{why}"
        );
        answer(p.hear(KEEP_RUNNING_MARKER, "c", true));
        assert_eq!(p.silence(), None, "answered: nothing open");
        // Not registered for keep-running, its input is closed: it can only be slow to exit.
        let mut p = Protocol::with_globaldata(Count { next: 0 }, Mode::Json, Arc::default());
        ask(&mut p, 0);
        p.hear("\"1\"", "c", true).unwrap();
        assert_eq!(p.silence(), None);
    }

    #[test]
    fn a_keep_running_bot_that_exits_is_restarted_with_the_whole_history() {
        let mut p = protocol(Mode::Json);
        ask(&mut p, 0);
        p.hear("\"1\"", "c", true).unwrap();
        answer(p.hear(KEEP_RUNNING_MARKER, "c", true));
        assert_eq!(ask(&mut p, 1), ["\"filler 1\""]);
        // It answers the filler and exits instead of printing the marker.
        p.hear("\"PASS\"", "c", true).unwrap();
        assert_eq!(
            p.hear_end("c", true),
            Some(Ok(Heard::Continue {
                lines: vec![
                    r#"{"requests":["ask 0","filler 1","ask 2"],"responses":["1","PASS"]}"#.into()
                ],
                fresh: true
            }))
        );
        assert!(p.fresh_process());
    }

    #[test]
    fn no_output_garbage_and_unknown_responses_are_malformed_and_quoted() {
        let mut p = protocol(Mode::Json);
        ask(&mut p, 0);
        let e = p
            .hear_end("to the turn request", true)
            .unwrap()
            .unwrap_err();
        assert_eq!(e, "wrote no response to the turn request");
        ask(&mut p, 0);
        p.hear("{oops", "c", true).unwrap();
        let e = p
            .hear_end("to the turn request", true)
            .unwrap()
            .unwrap_err();
        assert!(
            e.starts_with("wrote \"{oops\" to the turn request, which is not JSON"),
            "{e}"
        );
        ask(&mut p, 0);
        p.hear("\"x\"", "c", true).unwrap();
        let e = p
            .hear_end("to the turn request", true)
            .unwrap()
            .unwrap_err();
        assert_eq!(e, "answered \"x\" to the turn request: \"x\" is no number");
        assert!(p.hear("late", "when nothing was asked", false).is_err());
    }

    #[test]
    fn globaldata_is_kept_per_bot_across_tables() {
        let store = Arc::new(GlobalData::default());
        let cmd = CmdSpec::parse("botzone:./a").unwrap();
        let mut first =
            Protocol::with_globaldata(Count { next: 0 }, Mode::Json, Arc::clone(&store));
        first.bind(&cmd);
        ask(&mut first, 0);
        first
            .hear(r#"{"response":"1","globaldata":[1,2]}"#, "c", true)
            .unwrap();
        answer(first.hear_end("c", true).unwrap());
        let mut second =
            Protocol::with_globaldata(Count { next: 0 }, Mode::Json, Arc::clone(&store));
        second.bind(&cmd);
        assert_eq!(
            ask(&mut second, 0),
            [r#"{"requests":["ask 0"],"responses":[],"globaldata":[1,2]}"#]
        );
        let mut other = Protocol::with_globaldata(Count { next: 0 }, Mode::Json, store);
        other.bind(&CmdSpec::parse("botzone:./b").unwrap());
        assert_eq!(
            ask(&mut other, 0),
            [r#"{"requests":["ask 0"],"responses":[]}"#]
        );
    }
}
