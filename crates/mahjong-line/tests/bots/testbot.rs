//! A bot program for the tests and the benchmark of `mahjong-line` (test support, not a bot to
//! play with): it speaks the contest protocol, plays a trivial game by default (discards the
//! tile it drew, or its lowest after a claim; passes on everything) and misbehaves on request.
//!
//! ```text
//! mahjong-testbot [--record FILE] [--on QUESTION=ANSWER]… [--script ITEM;ITEM;…] [--crlf]
//!                 [--no-join] [--exit-at-once] [--introduce]
//!                 [--pass-own-mjgang] [--chi-empty-wall] [--flood-on-eof] [--abort-before-id]
//! ```
//!
//! - `--record FILE`: append every byte read from stdin to FILE, as read.
//! - `--on QUESTION=ANSWER`: answer the first question that is exactly QUESTION (`mout 0 5S`)
//!   with ANSWER, once; before the script.
//! - `--script`: the answers to the program's questions in order (a question is a `pick`, its
//!   own `mchi`/`mpeng`, another seat's `mout` or `mjgang`). An item is a line written as it
//!   is, or `-` (the default answer), `!crash` (exit 3 with a word on stderr), `!hang` (answer
//!   nothing more, keep reading), `!long` (a 1 MiB line), `!flood` (the default answer, then
//!   `pass` lines forever), `!sleepMS` (the default answer after MS milliseconds). After the
//!   script, default answers.
//! - `--introduce`: join as `join cwd=DIR files=N args=N` (its working directory, the files in
//!   it, its argument count), then leave a file `mark` there.
//! - `--crlf`: end lines with `\r\n`.
//! - `--no-join`: never write `join` (keep reading).
//! - `--exit-at-once`: exit 0 before writing anything.
//! - `--pass-own-mjgang`: answer `pass` to its own `mjgang`, as some contest bots do.
//! - `--chi-empty-wall`: once the wall is empty (84 draws seen), chow the previous seat's
//!   discard when it can.
//! - `--flood-on-eof`: when stdin closes, write `pass` forever (as some contest bots do).
//! - `--abort-before-id`: abort (SIGABRT) if stdin closes before `id` arrives.

use std::collections::VecDeque;
use std::io::{BufRead, Write};

use mahjong::Tile;
use mahjong_line::{ServerMessage, decode_server_line};

/// Tiles drawn from the wall in a hand: 136 less 13 for each of four seats.
const DRAWABLE: usize = 84;

#[derive(Default)]
struct Options {
    record: Option<String>,
    on: Vec<(String, String)>,
    script: VecDeque<String>,
    crlf: bool,
    no_join: bool,
    exit_at_once: bool,
    pass_own_mjgang: bool,
    chi_empty_wall: bool,
    flood_on_eof: bool,
    abort_before_id: bool,
    introduce: bool,
}

fn options() -> Options {
    let mut o = Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--record" => o.record = args.next(),
            "--script" => {
                let s = args.next().unwrap_or_default();
                o.script = s.split(';').map(str::to_string).collect();
            }
            "--on" => {
                let s = args.next().unwrap_or_default();
                let (q, a) = s.split_once('=').unwrap_or((&s, "-"));
                o.on.push((q.to_string(), a.to_string()));
            }
            "--crlf" => o.crlf = true,
            "--no-join" => o.no_join = true,
            "--exit-at-once" => o.exit_at_once = true,
            "--pass-own-mjgang" => o.pass_own_mjgang = true,
            "--chi-empty-wall" => o.chi_empty_wall = true,
            "--flood-on-eof" => o.flood_on_eof = true,
            "--abort-before-id" => o.abort_before_id = true,
            "--introduce" => o.introduce = true,
            other => {
                eprintln!("mahjong-testbot: unknown option {other}");
                std::process::exit(2);
            }
        }
    }
    o
}

struct Bot {
    o: Options,
    out: std::io::Stdout,
    seat: Option<u8>,
    hand: [u8; 34],
    drawn: usize,
    /// The last discard heard.
    discard: Option<Tile>,
    hanging: bool,
}

impl Bot {
    fn say(&mut self, line: &str) {
        let end = if self.o.crlf { "\r\n" } else { "\n" };
        let mut out = self.out.lock();
        // A closed stdout is the arena's business; keep going as a careless bot would.
        let _ = write!(out, "{line}{end}");
        let _ = out.flush();
    }

    fn flood(&mut self) -> ! {
        loop {
            self.say("pass");
        }
    }

    /// Answers the question `asked` with its `--on` answer, the script's next item, or
    /// `default`.
    fn answer(&mut self, asked: &ServerMessage, default: String) {
        if self.hanging {
            return;
        }
        let asked = asked.encode();
        let item = match self.o.on.iter().position(|(q, _)| *q == asked) {
            Some(i) => self.o.on.remove(i).1,
            None => self.o.script.pop_front().unwrap_or_else(|| "-".into()),
        };
        match item.as_str() {
            "-" => self.play(&default),
            "!crash" => {
                eprintln!("crashing on purpose");
                std::process::exit(3);
            }
            "!hang" => self.hanging = true,
            "!long" => self.say(&"x".repeat(1 << 20)),
            sleep if sleep.starts_with("!sleep") => {
                let ms = sleep["!sleep".len()..].parse().unwrap_or(0);
                std::thread::sleep(std::time::Duration::from_millis(ms));
                self.play(&default);
            }
            "!flood" => {
                self.say(&default);
                self.flood();
            }
            line => self.play(line),
        }
    }

    /// Writes an answer, and takes from the hand the tiles it gives away.
    fn play(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let (word, tile) = (
            words.next(),
            words.next().and_then(|t| t.parse::<Tile>().ok()),
        );
        match (word, tile) {
            (Some("out" | "jgang"), Some(t)) => self.take(t, 1),
            (Some("agang"), Some(t)) => self.take(t, 4),
            _ => {}
        }
        self.say(line);
    }

    fn take(&mut self, t: Tile, n: u8) {
        let c = &mut self.hand[t.index()];
        *c = c.saturating_sub(n);
    }

    /// The default discard: the lowest tile held.
    fn lowest(&self) -> Option<Tile> {
        (0..34)
            .find(|&i| self.hand[i] > 0)
            .and_then(Tile::from_index)
    }

    /// The lowest tile of a chow of `t` it can make, if any.
    fn chow_of(&self, t: Tile) -> Option<Tile> {
        let (suit, rank) = (t.suit()?, t.rank()?);
        (rank.saturating_sub(2).max(1)..=rank.min(7)).find_map(|low| {
            let tiles: Vec<Tile> = (low..low + 3)
                .filter_map(|r| Tile::suited(suit, r))
                .collect();
            tiles
                .iter()
                .all(|&x| x == t || self.hand[x.index()] > 0)
                .then_some(tiles[0])
        })
    }

    fn hear(&mut self, m: ServerMessage) {
        let me = self.seat;
        let asked = m.clone();
        match m {
            ServerMessage::Id(n) => self.seat = Some(n),
            ServerMessage::Init(tiles) => {
                self.hand = [0; 34];
                tiles.iter().for_each(|t| self.hand[t.index()] += 1);
            }
            ServerMessage::Pick(t) => {
                self.drawn += 1;
                self.hand[t.index()] += 1;
                self.answer(&asked, format!("out {t}"));
            }
            ServerMessage::MPick(_) => self.drawn += 1,
            ServerMessage::MOut { seat, tile } => {
                self.discard = Some(tile);
                let next = me == Some((seat + 1) % 4);
                let default = match self.chow_of(tile) {
                    Some(low) if self.o.chi_empty_wall && self.drawn >= DRAWABLE && next => {
                        format!("chi {low}")
                    }
                    _ => "pass".to_string(),
                };
                self.answer(&asked, default);
            }
            ServerMessage::MChi { seat, lowest } if Some(seat) == me => {
                // Two tiles of the chow came from the hand: all three but the discard.
                let (suit, rank) = (lowest.suit().unwrap(), lowest.rank().unwrap());
                for r in rank..rank + 3 {
                    let x = Tile::suited(suit, r).unwrap();
                    if Some(x) != self.discard {
                        self.take(x, 1);
                    }
                }
                self.after_claim(&asked);
            }
            ServerMessage::MPeng { seat, tile } if Some(seat) == me => {
                self.take(tile, 2);
                self.after_claim(&asked);
            }
            ServerMessage::MGang { seat, tile } if Some(seat) == me => self.take(tile, 3),
            ServerMessage::MJGang { seat, .. } if Some(seat) == me && self.o.pass_own_mjgang => {
                self.say("pass");
            }
            ServerMessage::MJGang { seat, .. } if Some(seat) == me => {}
            ServerMessage::MJGang { .. } => self.answer(&asked, "pass".into()),
            _ => {}
        }
    }

    /// After its own chow or pung: a discard, no draw.
    fn after_claim(&mut self, asked: &ServerMessage) {
        let t = self.lowest().unwrap_or(Tile::EAST);
        self.answer(asked, format!("out {t}"));
    }
}

fn main() {
    let o = options();
    if o.exit_at_once {
        return;
    }
    let mut record = o.record.as_ref().map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| panic!("cannot open {path}: {e}"))
    });
    let mut bot = Bot {
        out: std::io::stdout(),
        o,
        seat: None,
        hand: [0; 34],
        drawn: 0,
        discard: None,
        hanging: false,
    };
    if bot.o.introduce {
        let cwd = std::env::current_dir().expect("a working directory");
        let files = std::fs::read_dir(&cwd).map_or(0, |d| d.count());
        let args = std::env::args().count() - 1;
        bot.say(&format!(
            "join cwd={} files={files} args={args}",
            cwd.display()
        ));
        std::fs::write(cwd.join("mark"), "here").expect("the working directory is writable");
    } else if !bot.o.no_join {
        bot.say("join");
    }
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Some(f) = record.as_mut() {
            f.write_all(&line).expect("recording");
            f.flush().expect("recording");
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches('\n');
        match decode_server_line(text) {
            Ok(Some(m)) => bot.hear(m),
            Ok(None) => {}
            Err(e) => eprintln!("mahjong-testbot: cannot read {text:?}: {e}"),
        }
    }
    if bot.seat.is_none() && bot.o.abort_before_id {
        eprintln!("mahjong-testbot: stdin closed before id");
        std::process::abort();
    }
    if bot.o.flood_on_eof {
        bot.flood();
    }
}
