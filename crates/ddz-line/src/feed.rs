//! What one seat is told, and how its answers are judged: the protocol's server side without any
//! I/O, shared by [`crate::CmdBot`] and any other host of line-protocol bots.
//!
//! A [`SeatFeed`] turns a seat's [`Observation`] into the lines that seat has not seen yet: the
//! start of the game, then every public event in order, with `hand` lines wherever the seat's
//! hand changed other than by its own plays. It reads nothing but the observation, so a seat is
//! never told another seat's hidden cards. [`request`] builds the `ask` line for a decision and
//! [`check_answer`] judges the reply under the rules.

use ddz::{Action, Event, IllegalMove, Move, MoveList, Observation, Phase, Scoring};

use crate::codec::{BotMessage, Request, ServerMessage};

/// The lines of one game already sent to one seat.
#[derive(Clone, Debug)]
pub struct SeatFeed {
    number: u64,
    scoring: Scoring,
    started: bool,
    events_sent: usize,
}

impl SeatFeed {
    /// A feed for game `number` (announced as `game N`), scoring the `end` line with `scoring`.
    pub fn new(number: u64, scoring: Scoring) -> SeatFeed {
        SeatFeed {
            number,
            scoring,
            started: false,
            events_sent: 0,
        }
    }

    /// The game's number.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// True once the start of the game (`game`, `rules`, `seat`, `hand`) has been produced.
    pub fn started(&self) -> bool {
        self.started
    }

    /// Appends to `out` every line `obs.seat` has not been told yet: the start of the game the
    /// first time, then the events since the last call. Call it with observations of one game
    /// and one seat, in order.
    pub fn catch_up(&mut self, obs: &Observation<'_>, out: &mut Vec<ServerMessage>) {
        let events = obs.events;
        let from = self.events_sent.min(events.len());
        let pending = &events[from..];
        // The seat's hand before each pending event and after the changes it must be told of,
        // worked backwards from its hand now: its own plays took cards out, becoming landlord
        // added the bottom, and a redeal replaced the hand (what came before is not needed).
        let mut after = vec![None; pending.len()];
        let mut hand = Some(obs.hand);
        for (i, event) in pending.iter().enumerate().rev() {
            after[i] = hand;
            hand = match *event {
                Event::Play { seat, play } if seat == obs.seat => {
                    hand.and_then(|h| h.try_add(play.cards()))
                }
                Event::Landlord { seat, bottom, .. } if seat == obs.seat => {
                    hand.and_then(|h| h.try_sub(bottom))
                }
                Event::Redeal => None,
                _ => hand,
            };
        }
        if !self.started {
            self.started = true;
            out.push(ServerMessage::Game {
                number: self.number,
            });
            out.push(ServerMessage::Rules(*obs.rules));
            out.push(ServerMessage::Seat(obs.seat));
            if let Some(h) = hand {
                out.push(ServerMessage::Hand(h));
            }
        }
        for (event, hand_after) in pending.iter().zip(after) {
            match *event {
                Event::Bid { seat, bid } => out.push(ServerMessage::Bid { seat, bid }),
                Event::Redeal => {
                    out.push(ServerMessage::Redeal);
                    out.extend(hand_after.map(ServerMessage::Hand));
                }
                Event::Landlord { seat, bid, bottom } => {
                    out.push(ServerMessage::Landlord { seat, bid, bottom });
                    if seat == obs.seat {
                        out.extend(hand_after.map(ServerMessage::Hand));
                    }
                }
                Event::Double { seat, double } => out.push(ServerMessage::Double { seat, double }),
                Event::Play { seat, play } => out.push(ServerMessage::Play {
                    seat,
                    cards: play.cards(),
                }),
                Event::End(outcome) => out.push(ServerMessage::End {
                    winner: outcome.winner,
                    scores: outcome.scores(self.scoring),
                }),
            }
        }
        self.events_sent = events.len();
    }
}

/// The request for the decision `obs.seat` must make now: a bid, a double or redouble, or a
/// play chosen from `legal` (the legal moves, pass first when following; only read in play).
pub fn request(obs: &Observation<'_>, legal: &MoveList, deadline_ms: u64) -> Request {
    match obs.phase {
        Phase::Bidding => Request::Bid {
            deadline_ms,
            legal: std::iter::once(0).chain(obs.bid + 1..=3).collect(),
        },
        Phase::Doubling if obs.landlord == Some(obs.seat) => Request::Redouble { deadline_ms },
        Phase::Doubling => Request::Double { deadline_ms },
        Phase::Play | Phase::Over => Request::Play {
            deadline_ms,
            legal: legal.iter().map(|m| m.cards()).collect(),
        },
    }
}

/// Why an answer was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// A valid line of the wrong kind, e.g. `bid 1` to a play request.
    #[error("expected {expected}")]
    WrongKind {
        /// What the request expects, e.g. `"play CARDS" or "play pass"`.
        expected: &'static str,
    },
    /// An answer of the right kind that the rules refuse.
    #[error("{0}")]
    Illegal(IllegalMove),
}

/// Judges `answer` as the decision of `obs.seat` in the phase of `obs`, and returns the action to
/// apply. Bids must be 0 or above the highest bid, up to 3; plays are checked with
/// [`ddz::RuleSet::check_play`] against the seat's hand and the play to beat.
pub fn check_answer(obs: &Observation<'_>, answer: &BotMessage) -> Result<Action, AnswerError> {
    match (obs.phase, answer) {
        (Phase::Bidding, &BotMessage::Bid(bid)) => {
            if bid == 0 || (bid > obs.bid && bid <= 3) {
                Ok(Action::Bid(bid))
            } else {
                Err(AnswerError::Illegal(IllegalMove::InvalidBid {
                    bid,
                    highest: obs.bid,
                }))
            }
        }
        (Phase::Bidding, _) => Err(AnswerError::WrongKind {
            expected: "\"bid B\"",
        }),
        (Phase::Doubling, &BotMessage::Double(d)) => Ok(Action::Double(d)),
        (Phase::Doubling, _) => Err(AnswerError::WrongKind {
            expected: "\"double 0\" or \"double 1\"",
        }),
        (Phase::Play, &BotMessage::Play(cards)) => obs
            .rules
            .check_play(obs.hand, obs.to_beat(), cards)
            .map(Action::Play)
            .map_err(AnswerError::Illegal),
        (Phase::Play, _) => Err(AnswerError::WrongKind {
            expected: "\"play CARDS\" or \"play pass\"",
        }),
        (Phase::Over, _) => Err(AnswerError::Illegal(IllegalMove::GameOver)),
    }
}

/// The action taken for a seat whose program has failed: bid 0, no double, pass when allowed,
/// else the first legal move.
pub fn fallback(obs: &Observation<'_>, legal: &MoveList) -> Action {
    match obs.phase {
        Phase::Bidding => Action::Bid(0),
        Phase::Doubling => Action::Double(false),
        Phase::Play | Phase::Over => Action::Play(fallback_play(legal)),
    }
}

/// The pass if `legal` holds it, else its first move (a pass when `legal` is empty).
pub fn fallback_play(legal: &MoveList) -> Move {
    let moves = legal.as_slice();
    moves
        .iter()
        .copied()
        .find(|m| m.is_pass())
        .or_else(|| moves.first().copied())
        .unwrap_or(Move::PASS)
}
