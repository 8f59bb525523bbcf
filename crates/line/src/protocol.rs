//! What a line protocol supplies ([`LineProtocol`]) and the steps every host takes the same way: the greeting ([`join`]) and
//! output that is no line of text ([`unreadable`]).

use std::time::Duration;

use tokio::time::Instant;

use arena_proto::v1::VerdictKind;

use crate::fault::Fault;
use crate::lines::{Framing, Output};
use crate::program::{Program, later_tokio};

/// How much of a program's line a fault quotes, in characters.
pub const ANSWER_QUOTE_CHARS: usize = 80;

/// The server side of a line protocol: what a seat is told and how its lines are read. A host
/// (a `cmd:` bot, bot-host) runs the program with [`Program`] and asks the protocol what to
/// write and what a line means; the protocol does no I/O.
///
/// The lines a method appends to `out` form one message and are written in one go, ended as
/// [`LineProtocol::framing`] says.
pub trait LineProtocol {
    /// What the host knows of a seat when it asks for a decision.
    type Seat<'a>;
    /// What an answer line stands for.
    type Answer;
    /// How a game ended, as the host knows it.
    type End<'a>;

    /// The line ending the host writes and the longest line it keeps. Default: `\n` and
    /// [`crate::MAX_LINE_BYTES`].
    fn framing(&self) -> Framing {
        Framing::default()
    }

    /// The first line a fresh process must write, as fault reasons name it (e.g. `"join"`,
    /// quotes included); `None` when the protocol has no greeting.
    fn greeting(&self) -> Option<&'static str>;

    /// Reads a line written before the greeting: `Ok(None)` for a line the protocol ignores
    /// (a comment, a blank line), `Ok(Some(name))` for the greeting (with the name the program
    /// gave, if it gave one), `Err(reason)` for anything else.
    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String>;

    /// Appends the lines the seat has not been told yet.
    fn catch_up(&mut self, seat: &Self::Seat<'_>, out: &mut Vec<String>);

    /// Appends the question for the seat's decision, to be answered within `deadline`; returns
    /// its name for fault reasons (e.g. `play`).
    fn ask(
        &mut self,
        seat: &Self::Seat<'_>,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> &'static str;

    /// Reads a line written in answer: `Ok(None)` for a line the protocol ignores, `Err(why)`
    /// for a line that is none of the protocol's.
    fn parse(&self, line: &str) -> Result<Option<Self::Answer>, String>;

    /// Appends what the seat is told when the game is over.
    fn end(&mut self, end: &Self::End<'_>, out: &mut Vec<String>);

    /// Appends the last lines of a session, before the program's input is closed.
    fn farewell(&self, out: &mut Vec<String>);
}

/// Quotes a program's line for a fault, shortened to [`ANSWER_QUOTE_CHARS`] if long (and
/// without the `\r` of a `\r\n` ending).
pub fn quote(text: &str) -> String {
    let t = text.strip_suffix('\r').unwrap_or(text);
    if t.chars().count() <= ANSWER_QUOTE_CHARS {
        format!("{t:?}")
    } else {
        let short: String = t.chars().take(ANSWER_QUOTE_CHARS).collect();
        format!("{short:?}…")
    }
}

/// The fault for output that is no line of text (not UTF-8, too long) written `context`
/// (e.g. "in answer to the play request"), and the output as a transcript shows it.
pub fn unreadable(out: &Output, context: &str, framing: &Framing) -> (String, Fault) {
    let (heard, reason) = match out {
        Output::NotUtf8(lossy) => (
            lossy.clone(),
            format!(
                "wrote a line that is not UTF-8 text {context}: {}",
                quote(lossy)
            ),
        ),
        Output::TooLong(start) => (
            format!("{start}…"),
            format!(
                "wrote a line longer than {} bytes {context}, starting {}",
                framing.max_line_bytes,
                quote(start)
            ),
        ),
        Output::Line(text) => (text.clone(), format!("wrote {} {context}", quote(text))),
        Output::Closed(_) => (String::new(), format!("closed its output {context}")),
    };
    (heard, Fault::new(VerdictKind::Malformed, reason))
}

/// Waits up to `within` for a fresh program's greeting; the name it gave, if any. Every line
/// read is shown to `heard` (for a transcript). Without a greeting in the protocol, returns at
/// once. On a fault the program may still be running: the caller kills it.
pub async fn join<P: LineProtocol + ?Sized>(
    program: &mut Program,
    protocol: &P,
    within: Duration,
    heard: impl FnMut(&str),
) -> Result<Option<String>, Fault> {
    join_with(
        program,
        protocol.greeting(),
        |line| protocol.read_greeting(line),
        &protocol.framing(),
        within,
        heard,
    )
    .await
}

/// [`join`] for a protocol given by its parts: its `greeting`, how it reads a line before it
/// (`read_greeting`, as [`LineProtocol::read_greeting`]) and its `framing`.
pub(crate) async fn join_with(
    program: &mut Program,
    greeting: Option<&'static str>,
    read_greeting: impl Fn(&str) -> Result<Option<Option<String>>, String>,
    framing: &Framing,
    within: Duration,
    mut heard: impl FnMut(&str),
) -> Result<Option<String>, Fault> {
    let Some(greeting) = greeting else {
        return Ok(None);
    };
    let until = later_tokio(Instant::now(), within);
    loop {
        let Some((_, out)) = program.recv_until(until).await else {
            return Err(Fault::new(
                VerdictKind::Timeout,
                format!(
                    "no {greeting} line within {} ms of starting (a program must flush its output after each line)",
                    within.as_millis()
                ),
            ));
        };
        let text = match out {
            Output::Line(text) => text,
            Output::Closed(error) => {
                let what = format!("the program exited before saying {greeting}");
                return Err(program.crash(&what, error).await);
            }
            other => {
                let (line, fault) = unreadable(&other, &format!("instead of {greeting}"), framing);
                heard(&line);
                return Err(fault);
            }
        };
        heard(&text);
        match read_greeting(&text) {
            Ok(None) => continue,
            Ok(Some(name)) => return Ok(name),
            Err(reason) => return Err(Fault::new(VerdictKind::Malformed, reason)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_drop_the_carriage_return() {
        assert_eq!(quote("play 33\r"), "\"play 33\"");
        let long = "x".repeat(200);
        let q = quote(&long);
        assert!(q.ends_with("\"…") && q.len() < 90, "{q}");
    }

    #[test]
    fn unreadable_output_is_malformed_and_says_what_it_was() {
        let framing = Framing::default();
        let (heard, f) = unreadable(&Output::TooLong("abc".into()), "in answer", &framing);
        assert_eq!(heard, "abc…");
        assert_eq!(f.kind, VerdictKind::Malformed);
        assert!(
            f.reason
                .contains("a line longer than 65536 bytes in answer, starting \"abc\""),
            "{}",
            f.reason
        );
        let (_, f) = unreadable(&Output::NotUtf8("a\u{fffd}".into()), "here", &framing);
        assert!(f.reason.contains("not UTF-8 text here"), "{}", f.reason);
    }
}
