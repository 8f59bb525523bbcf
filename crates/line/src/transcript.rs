//! A host's record of a session with a program: every line sent, every line read, and the
//! host's own notes (a process started or ended, a late answer, a verdict), for bot authors
//! and logs.

use std::fmt;

/// Who wrote a transcript line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// A line sent to the program.
    ToBot,
    /// A line the program wrote.
    FromBot,
    /// A note by the host: a process started or ended, a late answer, a verdict.
    Note,
}

/// One line of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptLine {
    /// The game (in Mahjong, the hand) it belongs to, counting from 1; 0 before any.
    pub game: u64,
    /// Who wrote it.
    pub direction: Direction,
    /// The line, without its terminator.
    pub text: String,
}

impl fmt::Display for TranscriptLine {
    /// `> ` for lines to the program, `< ` for its lines, `! ` for notes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = match self.direction {
            Direction::ToBot => '>',
            Direction::FromBot => '<',
            Direction::Note => '!',
        };
        write!(f, "{mark} {}", self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_direction_has_its_mark() {
        let line = |direction| TranscriptLine {
            game: 1,
            direction,
            text: "pass".into(),
        };
        assert_eq!(line(Direction::ToBot).to_string(), "> pass");
        assert_eq!(line(Direction::FromBot).to_string(), "< pass");
        assert_eq!(line(Direction::Note).to_string(), "! pass");
    }
}
