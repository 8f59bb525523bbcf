//! The server side without I/O: what one seat is told ([`SeatFeed`]: the seat's view of the
//! hand turned into protocol lines, a catch-up at a time), and how its answer is judged
//! ([`judge`]: a [`BotMessage`] read against the decision it answers).
//!
//! Any host of contest bots (the `cmd:` bots of this crate, a service) reuses it.

use mahjong::{Action, ActionList, Counts, Decision, Illegal, Phase, SeenEvent, Tile, View};

use crate::codec::{BotMessage, INIT_TILES, ServerMessage};

/// What one seat of one hand has been told so far.
#[derive(Clone, Debug)]
pub struct SeatFeed {
    seat: u8,
    /// Whether `id`, `first` and `init` were sent.
    started: bool,
    /// Events of the hand already turned into lines.
    events_seen: usize,
    /// The last line sent that the seat must answer.
    question: Option<ServerMessage>,
}

impl SeatFeed {
    /// The feed of `seat` (0–3) at the start of a hand: nothing told yet.
    pub fn new(seat: u8) -> SeatFeed {
        SeatFeed {
            seat: seat & 3,
            started: false,
            events_seen: 0,
            question: None,
        }
    }

    /// The seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// Whether the seat was told anything yet.
    pub fn started(&self) -> bool {
        self.started
    }

    /// The last line that asked the seat for an answer (a `pick`, its own `mchi` or `mpeng`,
    /// another seat's `mout` or `mjgang`), once one was sent.
    pub fn question(&self) -> Option<&ServerMessage> {
        self.question.as_ref()
    }

    /// Appends what the seat has not been told of `view` (its own view of the hand): the first
    /// time `id`, `first` and `init`, then a line for every event it has not seen, in order.
    /// When the seat is asked a decision now, the last line appended is the question.
    pub fn catch_up(&mut self, view: &View<'_>, out: &mut Vec<ServerMessage>) {
        let start = out.len();
        if !self.started {
            self.started = true;
            out.push(ServerMessage::Id(self.seat));
            out.push(ServerMessage::First(view.first()));
            out.push(ServerMessage::Init(initial_hand(view)));
        }
        let mut seen = 0;
        for e in view.events().skip(self.events_seen) {
            seen += 1;
            if let Some(line) = line_for(self.seat, e) {
                out.push(line);
            }
        }
        self.events_seen += seen;
        if out.len() > start
            && let Some(last) = out.last()
            && asks(self.seat, last)
        {
            self.question = Some(last.clone());
        }
    }
}

/// The line a seat is sent for an event it saw, if any: the drawer gets `pick T`, the others
/// `mpick N`; a discard goes to the other seats; claims and kongs go to all; a failed chow
/// goes to its seat only; the end of a hand is not announced.
pub fn line_for(seat: u8, e: SeenEvent) -> Option<ServerMessage> {
    Some(match e {
        SeenEvent::Draw { seat: s, tile } => match tile {
            Some(t) if s == seat => ServerMessage::Pick(t),
            _ => ServerMessage::MPick(s),
        },
        SeenEvent::Discard { seat: s, tile } => {
            if s == seat {
                return None;
            }
            ServerMessage::MOut { seat: s, tile }
        }
        SeenEvent::Chow {
            seat: s, lowest, ..
        } => ServerMessage::MChi { seat: s, lowest },
        SeenEvent::Pung { seat: s, tile } => ServerMessage::MPeng { seat: s, tile },
        SeenEvent::Kong { seat: s, tile } => ServerMessage::MGang { seat: s, tile },
        SeenEvent::ConcealedKong { seat: s, .. } => ServerMessage::MAGang(s),
        SeenEvent::AddedKong { seat: s, tile } => ServerMessage::MJGang { seat: s, tile },
        SeenEvent::ChowFailed { seat: s } => {
            if s != seat {
                return None;
            }
            ServerMessage::MFail
        }
        SeenEvent::Win { .. } | SeenEvent::Drawn => return None,
    })
}

/// Whether `line`, sent to `seat`, asks it for an answer.
pub fn asks(seat: u8, line: &ServerMessage) -> bool {
    match *line {
        ServerMessage::Pick(_) => true,
        ServerMessage::MChi { seat: s, .. } | ServerMessage::MPeng { seat: s, .. } => s == seat,
        ServerMessage::MOut { seat: s, .. } | ServerMessage::MJGang { seat: s, .. } => s != seat,
        _ => false,
    }
}

/// The seat's 13 starting tiles, in kind order, worked back from its hand now and its own
/// events (draws taken out; discards and the tiles it melded from its hand put back).
pub fn initial_hand(view: &View<'_>) -> [Tile; INIT_TILES] {
    let me = view.seat();
    let mut c: Counts = *view.hand();
    let mut add = |t: Tile, n: u8| c[t.index()] += n;
    let mut drawn: Counts = [0; 34];
    for e in view.events() {
        match e {
            SeenEvent::Draw {
                seat,
                tile: Some(t),
            } if seat == me => drawn[t.index()] += 1,
            SeenEvent::Discard { seat, tile } if seat == me => add(tile, 1),
            SeenEvent::Chow { seat, lowest, tile } if seat == me => {
                let mut t = lowest;
                for _ in 0..3 {
                    if t != tile {
                        add(t, 1);
                    }
                    t = t.next().unwrap_or(t);
                }
            }
            SeenEvent::Pung { seat, tile } if seat == me => add(tile, 2),
            SeenEvent::Kong { seat, tile } if seat == me => add(tile, 3),
            SeenEvent::ConcealedKong {
                seat,
                tile: Some(t),
            } if seat == me => add(t, 4),
            SeenEvent::AddedKong { seat, tile } if seat == me => add(tile, 1),
            SeenEvent::Win {
                seat,
                from: Some(_),
                tile,
                ..
            } if seat == me => {
                // A win on a discard put the tile in the hand, as a draw would.
                drawn[tile.index()] += 1;
            }
            _ => {}
        }
    }
    let mut tiles = [Tile::EAST; INIT_TILES];
    let mut n = 0;
    for (i, (&have, &drew)) in c.iter().zip(&drawn).enumerate() {
        let t = Tile::from_index(i).expect("i < 34");
        for _ in 0..have.saturating_sub(drew) {
            if n < INIT_TILES {
                tiles[n] = t;
                n += 1;
            }
        }
    }
    debug_assert_eq!(n, INIT_TILES, "13 tiles worked back from the view");
    tiles
}

/// The decision `view`'s seat faces now, if it is asked one.
pub fn decision(view: &View<'_>) -> Option<Decision> {
    let me = view.seat();
    match view.phase() {
        Phase::Turn { seat } if seat == me => Some(Decision::Turn {
            drawn: view.drawn().is_some(),
        }),
        Phase::Claims { discarder, tile } if discarder != me => Some(Decision::Claim {
            tile,
            next: me == (discarder + 1) % 4,
        }),
        Phase::RobKong { seat, tile } if seat != me => Some(Decision::RobKong { tile }),
        _ => None,
    }
}

/// What an answer line amounts to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// The answer: a legal action.
    Answer(Action),
    /// A well-formed word that answers nothing asked (the actor's `pass` to its own
    /// `mjgang`, say): ignored, as the contest's server did; the reason for a transcript.
    Ignored(&'static str),
    /// A `chi` from a seat that is not the one after the discarder: taken as a pass, as the
    /// contest's server did; the reason for a transcript.
    AsPass(&'static str),
}

/// Why an answer is a fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// A well-formed line that does not answer this kind of question.
    #[error("{0}")]
    WrongKind(&'static str),
    /// A move the rules refuse (a tile it lacks, a chow, kong or win it cannot make).
    #[error("{0}")]
    Impossible(Illegal),
}

/// The answers to each question, as fault reasons list them.
const TURN_ANSWERS: &str = "on its own turn a seat answers out T, hu, agang T or jgang T";
const CLAIM_ANSWERS: &str = "a discard is answered with pass, hu, gang, peng or chi T";
const ROB_ANSWERS: &str = "an added kong is answered with qgang or pass";

/// Reads `answer` against the decision `view`'s seat faces, whose legal actions are `legal`.
///
/// On its own turn the seat answers `out T` (discard), `hu` (self-drawn win), `agang T`
/// (concealed kong) or `jgang T` (added kong); a claim word there (`pass`, `peng`, `gang`,
/// `chi T`, `qgang`) or a second `join` is ignored. A discard is answered with `pass`, `hu`,
/// `gang`, `peng` or `chi T` (from another seat than the next, a `chi` is taken as a pass); an
/// added kong with `qgang` or `pass` (`hu` is read as `qgang`). Anything else is of the wrong
/// kind; a move not in `legal` is impossible, with the rules' reason.
pub fn judge(
    view: &View<'_>,
    legal: &ActionList,
    answer: &BotMessage,
) -> Result<Judged, AnswerError> {
    let Some(decision) = decision(view) else {
        return Ok(Judged::Ignored("the seat is asked nothing now"));
    };
    let action = match (decision, answer) {
        (Decision::Turn { .. }, BotMessage::Out(t)) => Action::Discard(*t),
        (Decision::Turn { .. }, BotMessage::Hu) => Action::SelfDrawnWin,
        (Decision::Turn { .. }, BotMessage::AGang(t)) => Action::ConcealedKong(*t),
        (Decision::Turn { .. }, BotMessage::JGang(t)) => Action::AddedKong(*t),
        (Decision::Turn { .. }, _) => {
            return Ok(Judged::Ignored(
                "a claim word (or join) on the seat's own turn answers nothing; the contest ignored it",
            ));
        }
        (Decision::Claim { .. }, BotMessage::Pass) => Action::Pass,
        (Decision::Claim { .. }, BotMessage::Hu) => Action::Win,
        (Decision::Claim { .. }, BotMessage::Gang) => Action::Kong,
        (Decision::Claim { .. }, BotMessage::Peng) => Action::Pung,
        (Decision::Claim { next: false, .. }, BotMessage::Chi(_)) => {
            return Ok(Judged::AsPass(
                "only the seat after the discarder may chow; the contest ignored other seats' chi",
            ));
        }
        (Decision::Claim { .. }, BotMessage::Chi(t)) => Action::Chow(*t),
        (Decision::Claim { .. }, _) => return Err(AnswerError::WrongKind(CLAIM_ANSWERS)),
        (Decision::RobKong { .. }, BotMessage::Pass) => Action::Pass,
        (Decision::RobKong { .. }, BotMessage::QGang | BotMessage::Hu) => Action::RobKong,
        (Decision::RobKong { .. }, _) => return Err(AnswerError::WrongKind(ROB_ANSWERS)),
    };
    if legal.contains(action) {
        return Ok(Judged::Answer(action));
    }
    let melds: Vec<_> = view.melds(view.seat()).flatten().collect();
    let why = mahjong::check_for(view.hand(), &melds, decision, view.rules().reading, action)
        .err()
        // Only when `legal` and the rules disagree, which they never should.
        .unwrap_or(Illegal::WrongDecision(decision));
    Err(AnswerError::Impossible(why))
}

/// The answers a question calls for, for fault reasons: `"on its own turn …"`.
pub fn expected_answers(decision: Decision) -> &'static str {
    match decision {
        Decision::Turn { .. } => TURN_ANSWERS,
        Decision::Claim { .. } => CLAIM_ANSWERS,
        Decision::RobKong { .. } => ROB_ANSWERS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mahjong::{Deal, Game, Rules};

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    /// The hand of seed 1 after its first player's first discard: the other seats face a claim.
    fn after_first_discard() -> (Game, u8, Tile) {
        let mut g = Game::new(&Deal::from_seed(1), Rules::default());
        let first = g.first();
        let tile = g.view(first).drawn().unwrap();
        g.apply(&[(first, Action::Discard(tile))]).unwrap();
        (g, first, tile)
    }

    fn legal(g: &Game, seat: u8) -> ActionList {
        let mut l = ActionList::new();
        g.legal_actions(seat, &mut l);
        l
    }

    #[test]
    fn the_first_catch_up_introduces_the_seat_and_ends_with_its_question() {
        let (g, first, tile) = after_first_discard();
        let other = (first + 2) % 4;
        let mut feed = SeatFeed::new(other);
        let mut out = Vec::new();
        feed.catch_up(&g.view(other), &mut out);
        let init = ServerMessage::Init(initial_hand(&g.view(other)));
        assert_eq!(
            out,
            [
                ServerMessage::Id(other),
                ServerMessage::First(first),
                init,
                ServerMessage::MPick(first),
                ServerMessage::MOut { seat: first, tile },
            ]
        );
        assert_eq!(feed.question(), out.last());
        // Nothing new: nothing more, and the question stays.
        let mut again = vec![ServerMessage::MFail];
        feed.catch_up(&g.view(other), &mut again);
        assert_eq!(again, [ServerMessage::MFail]);
        assert_eq!(feed.question(), out.last());
        // The dealt tiles, worked back: the wall's, in kind order.
        let mut dealt = Deal::from_seed(1).wall.initial_hand(other).to_vec();
        dealt.sort();
        assert_eq!(initial_hand(&g.view(other)).to_vec(), dealt);
    }

    #[test]
    fn answers_are_read_against_the_question_they_answer() {
        let g = Game::new(&Deal::from_seed(1), Rules::default());
        let first = g.first();
        let turn = g.view(first);
        let drawn = turn.drawn().unwrap();
        let l = legal(&g, first);
        assert_eq!(
            judge(&turn, &l, &BotMessage::Out(drawn)),
            Ok(Judged::Answer(Action::Discard(drawn)))
        );
        assert!(matches!(
            judge(&turn, &l, &BotMessage::Pass),
            Ok(Judged::Ignored(_))
        ));
        assert!(matches!(
            judge(&turn, &l, &BotMessage::Peng),
            Ok(Judged::Ignored(_))
        ));
        let (g, first, tile) = after_first_discard();
        let next = (first + 1) % 4;
        let across = (first + 2) % 4;
        let v = g.view(across);
        let l = legal(&g, across);
        assert_eq!(
            judge(&v, &l, &BotMessage::Pass),
            Ok(Judged::Answer(Action::Pass))
        );
        assert!(matches!(
            judge(&v, &l, &BotMessage::Chi(tile)),
            Ok(Judged::AsPass(_))
        ));
        assert_eq!(
            judge(&v, &l, &BotMessage::Out(tile)),
            Err(AnswerError::WrongKind(CLAIM_ANSWERS))
        );
        assert_eq!(
            judge(&v, &l, &BotMessage::QGang),
            Err(AnswerError::WrongKind(CLAIM_ANSWERS))
        );
        let v = g.view(next);
        let l = legal(&g, next);
        // A chow from the next seat is a chow: legal or refused with the rules' reason.
        let answer = judge(&v, &l, &BotMessage::Chi(t("1M")));
        assert!(
            matches!(
                answer,
                Ok(Judged::Answer(Action::Chow(_))) | Err(AnswerError::Impossible(_))
            ),
            "{answer:?}"
        );
        // The discarder is asked nothing now.
        let v = g.view(first);
        assert!(matches!(
            judge(&v, &l, &BotMessage::Pass),
            Ok(Judged::Ignored(_))
        ));
    }

    #[test]
    fn each_event_goes_to_the_seats_the_contest_sent_it_to() {
        let e = |ev| (0..4).map(|s| line_for(s, ev)).collect::<Vec<_>>();
        assert_eq!(
            e(SeenEvent::Draw {
                seat: 1,
                tile: None
            }),
            vec![Some(ServerMessage::MPick(1)); 4]
        );
        assert_eq!(
            line_for(
                1,
                SeenEvent::Draw {
                    seat: 1,
                    tile: Some(t("5T"))
                }
            ),
            Some(ServerMessage::Pick(t("5T")))
        );
        let out = e(SeenEvent::Discard {
            seat: 2,
            tile: t("9M"),
        });
        assert_eq!(out[2], None, "no mout to the discarder");
        assert_eq!(
            out[0],
            Some(ServerMessage::MOut {
                seat: 2,
                tile: t("9M")
            })
        );
        let fail = e(SeenEvent::ChowFailed { seat: 3 });
        assert_eq!(fail, [None, None, None, Some(ServerMessage::MFail)]);
        let kong = e(SeenEvent::ConcealedKong {
            seat: 0,
            tile: Some(t("E")),
        });
        assert!(
            kong.iter().all(|l| *l == Some(ServerMessage::MAGang(0))),
            "no tile, to all"
        );
        assert_eq!(e(SeenEvent::Drawn), vec![None; 4]);
        let win = SeenEvent::Win {
            seat: 0,
            from: None,
            tile: t("E"),
            robbed_kong: false,
        };
        assert_eq!(e(win), vec![None; 4]);
    }
}
