//! Lines in both directions: a program's output read a line at a time with a bound on line
//! length ([`LineSplitter`], read by [`next_output`] blocking or [`next_output_async`]), and the
//! [`Framing`] a protocol chooses: the line ending the host writes and the longest line it
//! keeps.
//!
//! Lines are split at `\n`; a `\r` before it is kept, for the protocol's decoder to strip, so
//! that a protocol accepting `\n` or `\r\n` (every one so far) does so in one place.

use std::io::{self, BufRead};

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The longest line kept from a program by default; longer lines are reported as
/// [`Output::TooLong`].
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How the host ends the lines it writes to a program.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineEnding {
    /// `\n`.
    #[default]
    Lf,
    /// `\r\n`.
    CrLf,
}

impl LineEnding {
    /// The terminator's text.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// How a protocol's messages are laid out on the pipes: the ending of the lines the host
/// writes, and the longest line it keeps of the program's. The lines of one message (a
/// protocol's catch-up and question, say) are written in one go, so a program never sees half
/// a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Framing {
    /// The ending of lines written to the program.
    pub ending: LineEnding,
    /// The longest line kept from the program, in bytes.
    pub max_line_bytes: usize,
}

impl Default for Framing {
    /// `\n` and [`MAX_LINE_BYTES`].
    fn default() -> Framing {
        Framing {
            ending: LineEnding::Lf,
            max_line_bytes: MAX_LINE_BYTES,
        }
    }
}

impl Framing {
    /// `lines`, each ended as this framing says, as one write.
    pub fn join<S: AsRef<str>>(&self, lines: &[S]) -> String {
        let ending = self.ending.as_str();
        let len = lines.iter().map(|l| l.as_ref().len() + ending.len()).sum();
        let mut text = String::with_capacity(len);
        for line in lines {
            text.push_str(line.as_ref());
            text.push_str(ending);
        }
        text
    }
}

/// What a program's stdout produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A line, without its `\n` (a trailing `\r` is kept for the decoder to strip).
    Line(String),
    /// A line that is not UTF-8, shown with replacement characters.
    NotUtf8(String),
    /// A line longer than the limit; its start, lossily decoded.
    TooLong(String),
    /// End of output, with the read error if that is what ended it.
    Closed(Option<String>),
}

/// Splits a byte stream into [`Output`]s, keeping at most `max` bytes of any line.
#[derive(Debug)]
pub struct LineSplitter {
    buf: Vec<u8>,
    max: usize,
    too_long: bool,
}

impl LineSplitter {
    /// A splitter keeping at most `max` bytes of a line.
    pub fn new(max: usize) -> LineSplitter {
        LineSplitter {
            buf: Vec::new(),
            max,
            too_long: false,
        }
    }

    /// Takes bytes from `available` (what `fill_buf` returned, not empty): returns how many to
    /// `consume`, and the line if one ended.
    pub fn feed(&mut self, available: &[u8]) -> (usize, Option<Output>) {
        let (part, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let room = self.max.saturating_sub(self.buf.len());
        if part.len() > room {
            self.too_long = true;
        }
        self.buf.extend_from_slice(&part[..part.len().min(room)]);
        (used, done.then(|| self.take()))
    }

    /// At the end of input: the last line if it had no `\n`, else `None`.
    pub fn finish(&mut self) -> Option<Output> {
        (self.too_long || !self.buf.is_empty()).then(|| self.take())
    }

    fn take(&mut self) -> Output {
        let bytes = std::mem::take(&mut self.buf);
        if std::mem::take(&mut self.too_long) {
            return Output::TooLong(String::from_utf8_lossy(&bytes).into_owned());
        }
        match String::from_utf8(bytes) {
            Ok(line) => Output::Line(line),
            Err(e) => Output::NotUtf8(String::from_utf8_lossy(e.as_bytes()).into_owned()),
        }
    }
}

/// Reads the next [`Output`] from `r` (blocking): a line, or [`Output::Closed`] at the end of
/// input or on a read error. [`next_output_async`] is the same loop over `AsyncBufRead`.
pub fn next_output(r: &mut impl BufRead, lines: &mut LineSplitter) -> Output {
    loop {
        let (used, line) = match r.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Output::Closed(Some(e.to_string())),
            Ok([]) => return lines.finish().unwrap_or(Output::Closed(None)),
            Ok(available) => lines.feed(available),
        };
        r.consume(used);
        if let Some(line) = line {
            return line;
        }
    }
}

/// [`next_output`] over an async reader. Not cancel-safe: run it in a task of its own.
pub async fn next_output_async<R: AsyncBufRead + Unpin>(
    r: &mut R,
    lines: &mut LineSplitter,
) -> Output {
    loop {
        let (used, line) = match r.fill_buf().await {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Output::Closed(Some(e.to_string())),
            Ok([]) => return lines.finish().unwrap_or(Output::Closed(None)),
            Ok(available) => lines.feed(available),
        };
        r.consume(used);
        if let Some(line) = line {
            return line;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_async_reader_yields_the_lines_then_closed() {
        let input: &'static [u8] = b"bid 1\r\n0123456789abc\nlast";
        let mut r = tokio::io::BufReader::with_capacity(4, input);
        let mut lines = LineSplitter::new(8);
        let mut got = Vec::new();
        for _ in 0..4 {
            got.push(next_output_async(&mut r, &mut lines).await);
        }
        assert_eq!(
            got,
            [
                Output::Line("bid 1\r".into()),
                Output::TooLong("01234567".into()),
                Output::Line("last".into()),
                Output::Closed(None),
            ]
        );
    }

    #[test]
    fn a_framing_ends_every_line_of_a_message_its_way() {
        let lines = ["game 1", "ask bid 1000 0 1"];
        assert_eq!(
            Framing::default().join(&lines),
            "game 1\nask bid 1000 0 1\n"
        );
        let crlf = Framing {
            ending: LineEnding::CrLf,
            ..Framing::default()
        };
        assert_eq!(crlf.join(&lines), "game 1\r\nask bid 1000 0 1\r\n");
        assert_eq!(crlf.join::<&str>(&[]), "");
    }

    /// Splits `input` fed in chunks of `chunk` bytes, as reads of any size would deliver it.
    fn split(input: &[u8], max: usize, chunk: usize) -> Vec<Output> {
        let mut s = LineSplitter::new(max);
        let mut out = Vec::new();
        let mut rest = input;
        let mut window: &[u8] = &[];
        loop {
            if window.is_empty() {
                if rest.is_empty() {
                    break;
                }
                let n = chunk.min(rest.len());
                (window, rest) = rest.split_at(n);
            }
            let (used, line) = s.feed(window);
            window = &window[used..];
            out.extend(line);
        }
        out.extend(s.finish());
        out
    }

    #[test]
    fn lines_are_split_the_same_whatever_the_read_sizes() {
        let input = b"bid 1\r\n\nplay 33\nlast";
        let want = vec![
            Output::Line("bid 1\r".into()),
            Output::Line(String::new()),
            Output::Line("play 33".into()),
            Output::Line("last".into()),
        ];
        for chunk in [1, 2, 3, 7, 64] {
            assert_eq!(split(input, 100, chunk), want, "chunk {chunk}");
        }
    }

    #[test]
    fn long_lines_keep_their_start_and_the_next_line_is_whole() {
        let input = b"0123456789abc\nok\n0123456789";
        for chunk in [1, 4, 64] {
            assert_eq!(
                split(input, 8, chunk),
                [
                    Output::TooLong("01234567".into()),
                    Output::Line("ok".into()),
                    Output::TooLong("01234567".into()),
                ],
                "chunk {chunk}"
            );
        }
        assert_eq!(split(b"12345678", 8, 3), [Output::Line("12345678".into())]);
    }

    #[test]
    fn a_buffered_reader_yields_the_lines_then_closed() {
        let input: &[u8] = b"bid 1\n0123456789\nlast";
        let mut r = std::io::BufReader::with_capacity(4, input);
        let mut s = LineSplitter::new(8);
        let got: Vec<Output> = (0..5).map(|_| next_output(&mut r, &mut s)).collect();
        assert_eq!(
            got,
            [
                Output::Line("bid 1".into()),
                Output::TooLong("01234567".into()),
                Output::Line("last".into()),
                Output::Closed(None),
                Output::Closed(None),
            ]
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_reported_not_dropped() {
        assert_eq!(
            split(b"pl\xffy\n", 100, 2),
            [Output::NotUtf8("pl\u{fffd}y".into())]
        );
        assert!(split(b"", 100, 1).is_empty(), "no input, no line");
    }
}
