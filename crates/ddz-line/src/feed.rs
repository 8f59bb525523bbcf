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

#[cfg(test)]
mod tests {
    use super::*;
    use ddz::{CardSet, DealConstraint, Game, GameConfig, Seat};

    fn seat(i: u8) -> Seat {
        Seat::new(i).unwrap()
    }

    fn lines(feed: &mut SeatFeed, game: &Game, s: Seat) -> Vec<String> {
        let mut out = Vec::new();
        feed.catch_up(&game.observation(s), &mut out);
        out.iter().map(ServerMessage::encode).collect()
    }

    fn fixed_game(seed: u64) -> Game {
        Game::from_seed(GameConfig::fixed_landlord(), seed, DealConstraint::NONE).unwrap()
    }

    /// Plays the first legal move until the game is over.
    fn play_out(game: &mut Game) {
        let mut moves = MoveList::new();
        while game.to_act().is_some() {
            game.legal_moves(&mut moves);
            game.apply(Action::Play(moves[0])).unwrap();
        }
    }

    #[test]
    fn a_game_starts_with_seat_hand_and_the_landlord() {
        let game = fixed_game(4);
        let deal = *game.deal();
        let farmer = lines(&mut SeatFeed::new(3, Scoring::Competition), &game, seat(2));
        assert_eq!(
            farmer,
            [
                "game 3".to_string(),
                "rules competition".into(),
                "seat 2".into(),
                format!("hand {}", deal.hands[2]),
                format!("landlord 0 1 {}", deal.bottom),
            ]
        );
        let landlord = lines(&mut SeatFeed::new(3, Scoring::Competition), &game, seat(0));
        assert_eq!(landlord[3], format!("hand {}", deal.hands[0]));
        assert_eq!(landlord[5], format!("hand {}", deal.hands[0] + deal.bottom));
        assert_eq!(landlord.len(), 6);
    }

    #[test]
    fn each_event_is_sent_once_in_order() {
        let mut game = fixed_game(4);
        let mut feed = SeatFeed::new(1, Scoring::Competition);
        let first = lines(&mut feed, &game, seat(1));
        assert!(lines(&mut feed, &game, seat(1)).is_empty());
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let lead = moves[0];
        game.apply(Action::Play(lead)).unwrap();
        game.legal_moves(&mut moves);
        game.apply(Action::Play(Move::PASS)).unwrap();
        assert_eq!(
            lines(&mut feed, &game, seat(1)),
            [format!("play 0 {lead}"), "play 1 pass".to_string()]
        );
        assert_eq!(first.len(), 5);
    }

    #[test]
    fn a_seat_told_only_at_the_end_still_learns_its_dealt_hand_and_the_result() {
        let mut game = fixed_game(9);
        let deal = *game.deal();
        play_out(&mut game);
        for s in Seat::ALL {
            let told = lines(&mut SeatFeed::new(1, Scoring::Wp), &game, s);
            let mut expected_hand = deal.hands[s.index()];
            assert_eq!(told[3], format!("hand {expected_hand}"));
            if s == seat(0) {
                expected_hand = expected_hand + deal.bottom;
                assert_eq!(told[5], format!("hand {expected_hand}"));
            }
            let o = game.outcome().unwrap();
            let [a, b, c] = o.scores(Scoring::Wp);
            assert_eq!(
                told.last().unwrap(),
                &format!("end {} {a} {b} {c}", o.winner)
            );
            let plays = game
                .events()
                .iter()
                .filter(|e| matches!(e, Event::Play { .. }))
                .count();
            assert_eq!(
                told.iter().filter(|l| l.starts_with("play ")).count(),
                plays
            );
        }
    }

    #[test]
    fn a_redeal_is_followed_by_the_new_hand() {
        let mut game =
            Game::from_seed(GameConfig::competition(), 21, DealConstraint::NONE).unwrap();
        let first = *game.deal();
        let mut feed = SeatFeed::new(1, Scoring::Competition);
        let start = lines(&mut feed, &game, seat(1));
        assert_eq!(start[3], format!("hand {}", first.hands[1]));
        for _ in 0..3 {
            game.apply(Action::Bid(0)).unwrap();
        }
        game.apply(Action::Bid(2)).unwrap();
        let second = *game.deal();
        assert_ne!(first, second);
        assert_eq!(
            lines(&mut feed, &game, seat(1)),
            [
                "bid 0 0".to_string(),
                "bid 1 0".into(),
                "bid 2 0".into(),
                "redeal".into(),
                format!("hand {}", second.hands[1]),
                "bid 0 2".into(),
            ]
        );
    }

    #[test]
    fn requests_list_the_legal_choices() {
        let mut game =
            Game::from_seed(GameConfig::competition(), 21, DealConstraint::NONE).unwrap();
        let none = MoveList::new();
        game.apply(Action::Bid(1)).unwrap();
        let r = request(&game.observation(seat(1)), &none, 900);
        assert_eq!(
            r,
            Request::Bid {
                deadline_ms: 900,
                legal: vec![0, 2, 3]
            }
        );
        game.apply(Action::Bid(3)).unwrap();
        assert_eq!(
            request(&game.observation(seat(2)), &none, 5),
            Request::Double { deadline_ms: 5 }
        );
        game.apply(Action::Double(true)).unwrap();
        game.apply(Action::Double(false)).unwrap();
        assert_eq!(
            request(&game.observation(seat(1)), &none, 5),
            Request::Redouble { deadline_ms: 5 }
        );
        game.apply(Action::Double(false)).unwrap();
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let Request::Play { legal, .. } = request(&game.observation(seat(1)), &moves, 5) else {
            panic!("a play request");
        };
        assert_eq!(legal.len(), moves.len());
        assert!(!legal.contains(&CardSet::EMPTY), "no pass on a lead");
    }

    #[test]
    fn answers_are_judged_under_the_rules() {
        let mut game =
            Game::from_seed(GameConfig::competition(), 21, DealConstraint::NONE).unwrap();
        game.apply(Action::Bid(2)).unwrap();
        let obs = game.observation(seat(1));
        assert_eq!(check_answer(&obs, &BotMessage::Bid(0)), Ok(Action::Bid(0)));
        assert_eq!(check_answer(&obs, &BotMessage::Bid(3)), Ok(Action::Bid(3)));
        let e = check_answer(&obs, &BotMessage::Bid(2)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "bid 2 is not allowed: bid 0 (no call) or more than 2, at most 3"
        );
        let e = check_answer(&obs, &BotMessage::Play(CardSet::EMPTY)).unwrap_err();
        assert_eq!(
            e,
            AnswerError::WrongKind {
                expected: "\"bid B\""
            }
        );

        let mut game = fixed_game(4);
        let hand = game.hand(seat(0));
        let obs = game.observation(seat(0));
        let e = check_answer(&obs, &BotMessage::Play(CardSet::EMPTY)).unwrap_err();
        assert_eq!(e, AnswerError::Illegal(IllegalMove::PassOnLead));
        let lowest = CardSet::of(hand.lowest().unwrap(), 1).unwrap();
        let Ok(Action::Play(m)) = check_answer(&obs, &BotMessage::Play(lowest)) else {
            panic!("the lowest single is a legal lead");
        };
        assert_eq!(m.cards(), lowest);
        game.apply(Action::Play(m)).unwrap();
        let obs = game.observation(seat(1));
        let not_held = CardSet::DECK - game.hand(seat(1));
        let one = CardSet::of(not_held.highest().unwrap(), 1).unwrap();
        assert!(matches!(
            check_answer(&obs, &BotMessage::Play(one)),
            Err(AnswerError::Illegal(IllegalMove::NotInHand { .. }))
        ));
        assert!(matches!(
            check_answer(&obs, &BotMessage::Double(true)),
            Err(AnswerError::WrongKind { .. })
        ));
    }

    #[test]
    fn the_fallback_passes_when_it_may_and_leads_otherwise() {
        let mut game = fixed_game(4);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let obs = game.observation(seat(0));
        assert_eq!(fallback(&obs, &moves), Action::Play(moves[0]));
        assert!(!moves[0].is_pass());
        game.apply(Action::Play(moves[0])).unwrap();
        game.legal_moves(&mut moves);
        assert_eq!(
            fallback(&game.observation(seat(1)), &moves),
            Action::Play(Move::PASS)
        );
        assert_eq!(fallback_play(&MoveList::new()), Move::PASS);
        let bidding = Game::from_seed(GameConfig::competition(), 1, DealConstraint::NONE).unwrap();
        assert_eq!(
            fallback(&bidding.observation(seat(0)), &moves),
            Action::Bid(0)
        );
    }
}
