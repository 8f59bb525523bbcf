//! Dou Dizhu in Botzone's grammars ([`arena_line::botzone::BotzoneGrammar`]): FightTheLandlord
//! (no bidding, the landlord plays first) and FightTheLandlord2 (bidding, then play), their
//! requests and responses as Botzone's judges write and read them (`docs/botzone-ddz.md`).
//!
//! - Cards are the codes 0–53 of [`super::codes`]: suits are given by a fixed rule, per seat,
//!   consistent for the whole game.
//! - A request of the play phase gives `history`, the last two plays before the seat's turn
//!   (those of the two other seats, oldest first, `[]` for a pass or for no play yet); the seat's
//!   first request of the phase also gives its cards (`own`), the bottom cards (`publiccard`)
//!   and, in FightTheLandlord2, `landlord`, `pos` (the seat) and `finalbid`.
//! - FightTheLandlord's `own` is the seat's whole hand (20 cards for the landlord, bottom
//!   cards included); FightTheLandlord2's is the 17 dealt cards, both in bidding and play: the
//!   landlord adds `publiccard` itself, as on Botzone.
//! - A FightTheLandlord2 bidding request is `{"own": [...], "bid": [calls so far]}`, answered by
//!   a number 0–3.
//! - A response is a list of codes (`[]` = pass). Codes that are no card, not in the bot's
//!   hand or played twice are refused with Botzone's names (`OUT_OF_RANGE`, `MISSING_CARD`,
//!   `REPEATED_CARD`); whether the cards make a play that may be made (Botzone's
//!   `INVALID_CARDTYPE`, `INVALID_PASS`, `LESS_COMPARE`, `MISMATCH_CARDTYPE`,
//!   `MISMATCH_CARDLENGTH`) is the referee's to judge, as for every seat.

use arena_line::botzone::{BotzoneGrammar, BotzoneTurn};
use arena_proto::v1;
use ddz::{CardSet, Event, Phase, Seat};
use serde_json::{Value, json};

use super::codes::{CurrentDeal, SeatCodes};
use super::convert::{DdzDecision, ddz_action};
use super::request::DdzView;

/// Which of Botzone's Dou Dizhu games a grammar speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Edition {
    /// `FightTheLandlord`: the landlord is fixed (Botzone's seat 0), no bidding.
    Ftl,
    /// `FightTheLandlord2`: bidding from seat 0 first.
    Ftl2,
}

impl Edition {
    /// Botzone's name of the game.
    pub const fn botzone_game(self) -> &'static str {
        match self {
            Edition::Ftl => "FightTheLandlord",
            Edition::Ftl2 => "FightTheLandlord2",
        }
    }
}

/// One seat's Botzone grammar of FightTheLandlord or FightTheLandlord2.
#[derive(Debug)]
pub struct FtlGrammar {
    edition: Edition,
    codes: SeatCodes,
    /// The seat's 17 dealt cards as codes, ascending (empty until dealt).
    dealt: Vec<u8>,
    /// The bottom cards as codes, in the order the seat was given or shown them.
    public: Vec<u8>,
    /// Every play of the game so far as codes (a pass as none), in order.
    plays: Vec<Vec<u8>>,
    /// The calls of the auction so far.
    bids: Vec<u8>,
    landlord: Option<Seat>,
    final_bid: u8,
    /// How many events of the current deal were read.
    seen: usize,
    /// How many redeals were read (a redeal starts the seat's codes afresh).
    redeals: usize,
    /// The seat was given its first request of the play phase.
    told_play: bool,
    /// The phase of the open decision.
    asked: Option<Phase>,
    /// The codes of the seat's last answered play, until its event is read.
    own_last: Option<Vec<u8>>,
    seat: Option<Seat>,
}

impl FtlGrammar {
    /// A fresh grammar for one seat of one table.
    pub fn new(edition: Edition) -> FtlGrammar {
        FtlGrammar {
            edition,
            codes: SeatCodes::default(),
            dealt: Vec::new(),
            public: Vec::new(),
            plays: Vec::new(),
            bids: Vec::new(),
            landlord: None,
            final_bid: 1,
            seen: 0,
            redeals: 0,
            told_play: false,
            asked: None,
            own_last: None,
            seat: None,
        }
    }

    /// Starts the seat's codes afresh for a new deal in which it holds `hand`.
    fn deal(&mut self, hand: CardSet) {
        self.codes.reset();
        self.dealt.clear();
        self.codes.take(hand, &mut self.dealt);
        self.dealt.sort_unstable();
        self.public.clear();
        self.plays.clear();
        self.bids.clear();
        self.landlord = None;
        self.final_bid = 1;
        self.seen = 0;
        self.told_play = false;
    }

    /// Reads the events of the current deal the seat has not read yet.
    fn read(&mut self, seat: Seat, events: &[Event]) {
        for e in &events[self.seen.min(events.len())..] {
            match *e {
                Event::Bid { bid, .. } => self.bids.push(bid),
                Event::Landlord {
                    seat: l,
                    bid,
                    bottom,
                } => {
                    self.landlord = Some(l);
                    self.final_bid = bid.max(1);
                    if l == seat {
                        self.codes.take(bottom, &mut self.public);
                    } else {
                        self.codes.show_bottom(bottom, &mut self.public);
                    }
                }
                Event::Play { seat: who, play } => {
                    let mut codes = Vec::new();
                    if who != seat {
                        let by_landlord = self.landlord == Some(who);
                        self.codes.show(play.cards(), by_landlord, &mut codes);
                    } else if let Some(last) = self.own_last.take() {
                        codes = last;
                    }
                    self.plays.push(codes);
                }
                Event::Redeal | Event::Double { .. } | Event::End(_) => {}
            }
        }
        self.seen = events.len();
    }

    /// The last two plays, oldest first, `[]` where there is none.
    fn history(&self) -> Value {
        let n = self.plays.len();
        let at = |i: Option<usize>| match i.and_then(|i| self.plays.get(i)) {
            Some(p) => json!(p),
            None => json!([]),
        };
        json!([at(n.checked_sub(2)), at(n.checked_sub(1))])
    }
}

impl BotzoneGrammar for FtlGrammar {
    fn botzone_game(&self) -> &'static str {
        self.edition.botzone_game()
    }

    fn turns(
        &mut self,
        request: &v1::DecisionRequest,
        out: &mut Vec<BotzoneTurn>,
    ) -> Result<(), String> {
        let view = DdzView::from_request(request).map_err(|e| e.0)?;
        let obs = view.observation();
        let deal = CurrentDeal::read(&obs, &mut self.seat, "Botzone seat")?;
        let seat = deal.seat;
        let events = &obs.events[deal.start..];
        if self.dealt.is_empty() || deal.redeals != self.redeals {
            self.redeals = deal.redeals;
            self.deal(deal.dealt);
        }
        self.read(seat, events);
        let request = match obs.phase {
            Phase::Bidding => {
                if self.edition == Edition::Ftl {
                    return Err(
                        "FightTheLandlord has no bidding: play it with a fixed landlord (job.ddz.fixed_landlord), or seat a FightTheLandlord2 bot"
                            .into(),
                    );
                }
                self.asked = Some(Phase::Bidding);
                json!({"own": self.dealt, "bid": self.bids})
            }
            Phase::Play => {
                self.asked = Some(Phase::Play);
                let mut r = serde_json::Map::new();
                r.insert("history".into(), self.history());
                if !self.told_play {
                    self.told_play = true;
                    let own = match self.edition {
                        Edition::Ftl => {
                            let mut all = Vec::new();
                            self.codes.held(&mut all);
                            all
                        }
                        Edition::Ftl2 => self.dealt.clone(),
                    };
                    r.insert("own".into(), json!(own));
                    r.insert("publiccard".into(), json!(self.public));
                    if self.edition == Edition::Ftl2 {
                        let landlord = self.landlord.map_or(0, Seat::index);
                        r.insert("landlord".into(), json!(landlord));
                        r.insert("pos".into(), json!(seat.index()));
                        r.insert("finalbid".into(), json!(self.final_bid));
                    }
                }
                Value::Object(r)
            }
            Phase::Doubling => {
                return Err(format!(
                    "{} has no doubling round: play it with job.ddz.doubling off",
                    self.edition.botzone_game()
                ));
            }
            Phase::Over => return Err("the game is over: there is nothing to ask".into()),
        };
        out.push(BotzoneTurn {
            request,
            filler: None,
        });
        Ok(())
    }

    fn action(&mut self, response: &Value) -> Result<v1::Action, String> {
        match self.asked.take() {
            Some(Phase::Bidding) => {
                let bid = match response {
                    Value::Number(n) => n.as_u64(),
                    // Botzone's judge reads the response with int(), so "2" is a call of 2.
                    Value::String(s) => s.trim().parse::<u64>().ok(),
                    _ => None,
                };
                match bid {
                    Some(b) if b <= 3 => Ok(ddz_action(DdzDecision::Bid(b as u32))),
                    _ => Err(format!(
                        "INVALID_BID: the response {response} is not a call (a number 0 to 3)"
                    )),
                }
            }
            Some(Phase::Play) => {
                let Some(list) = response.as_array() else {
                    return Err(format!(
                        "BAD_FORMAT: the response {response} is not a list of cards (numbers 0 to 53, [] to pass)"
                    ));
                };
                let mut codes = Vec::with_capacity(list.len());
                for v in list {
                    match v.as_i64() {
                        Some(c) => codes.push(c),
                        None => {
                            return Err(format!(
                                "BAD_FORMAT: the response {response} holds {v}, which is not a card number"
                            ));
                        }
                    }
                }
                let cards = self.codes.play(&codes).map_err(|f| f.to_string())?;
                self.own_last = Some(codes.iter().map(|&c| c as u8).collect());
                Ok(ddz_action(DdzDecision::Play(cards)))
            }
            _ => Err("a response when nothing was asked".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The expected requests are what Botzone's judges (`FightTheLandlord.py3`,
    //! `FightTheLandlord2.py36`) printed as the seat's `content` when run on this deal (deal 0
    //! of seed 1) and these moves, with `initdata` giving the allocation and public cards in
    //! the codes the seat sees (its own cards the lowest suits, the rest as shown).
    use super::*;
    use crate::ddz::convert::ddz_observation;
    use ddz::{Action, Bidding, Deal, Game, GameConfig};

    fn game(auction: bool) -> Game {
        let mut c = GameConfig::fixed_landlord();
        if auction {
            c.bidding = Bidding::Auction {
                first: Seat::ALL[0],
                max_redeals: 0,
            };
        }
        Game::new(c, Deal::generate(1, 0), 1)
    }

    fn request(game: &Game) -> v1::DecisionRequest {
        let seat = game.to_act().unwrap();
        let kind = match game.phase() {
            Phase::Bidding => v1::DecisionKind::Bid,
            _ => v1::DecisionKind::Play,
        };
        v1::DecisionRequest {
            request_id: 1,
            table_id: "t".into(),
            seat: seat.index() as u32,
            game: "ddz".into(),
            kind: kind as i32,
            deadline_ms: 1000,
            observation: Some(ddz_observation(
                &game.observation(seat),
                "competition",
                vec![],
            )),
        }
    }

    fn play(game: &mut Game, cards: &str) {
        let set = if cards == "pass" {
            CardSet::EMPTY
        } else {
            cards.parse().unwrap()
        };
        let m = game
            .play_state()
            .check(&ddz::RuleSet::COMPETITION, set)
            .unwrap();
        game.apply(Action::Play(m)).unwrap();
    }

    /// The seat's request, and that it is the decision's own turn.
    fn turn(g: &mut FtlGrammar, game: &Game) -> Value {
        let mut turns = Vec::new();
        g.turns(&request(game), &mut turns).unwrap();
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].filler, None);
        turns.pop().unwrap().request
    }

    fn judge(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn fightthelandlord_requests_are_the_judges() {
        let mut g = game(false);
        let mut landlord = FtlGrammar::new(Edition::Ftl);
        assert_eq!(
            turn(&mut landlord, &g),
            judge(
                r#"{"own": [0, 1, 2, 8, 9, 12, 16, 17, 20, 24, 28, 29, 32, 36, 37, 40, 41, 48, 49, 52], "history": [[], []], "publiccard": [12, 17, 49]}"#
            )
        );
        assert_eq!(
            landlord.action(&json!([0])),
            Ok(ddz_action(DdzDecision::Play("3".parse().unwrap())))
        );
        play(&mut g, "3");
        let mut farmer = FtlGrammar::new(Edition::Ftl);
        assert_eq!(
            turn(&mut farmer, &g),
            judge(
                r#"{"own": [4, 5, 8, 12, 20, 24, 25, 32, 33, 34, 36, 40, 44, 45, 46, 48, 53], "history": [[], [0]], "publiccard": [13, 16, 49]}"#
            )
        );
        assert!(farmer.action(&json!([4])).is_ok());
        play(&mut g, "4");
        play(&mut g, "pass");
        // The landlord's second request: the farmers' 4 and pass, in its own codes (it holds
        // no 4, so the 4 is the lowest).
        assert_eq!(turn(&mut landlord, &g), judge(r#"{"history": [[4], []]}"#));
        assert!(landlord.action(&json!([12])).is_ok());
        // The landlord's 6 is the bottom card the farmer was shown as 13.
        play(&mut g, "6");
        assert_eq!(turn(&mut farmer, &g), judge(r#"{"history": [[], [13]]}"#));
    }

    #[test]
    fn fightthelandlord2_bidding_and_first_play_requests_are_the_judges() {
        let mut g = game(true);
        let mut seat0 = FtlGrammar::new(Edition::Ftl2);
        let mut seat2 = FtlGrammar::new(Edition::Ftl2);
        assert_eq!(
            turn(&mut seat0, &g),
            judge(
                r#"{"own": [0, 1, 2, 8, 9, 16, 20, 24, 28, 29, 32, 36, 37, 40, 41, 48, 52], "bid": []}"#
            )
        );
        assert_eq!(seat0.action(&json!(1)), Ok(ddz_action(DdzDecision::Bid(1))));
        g.apply(Action::Bid(1)).unwrap();
        g.apply(Action::Bid(2)).unwrap();
        assert_eq!(
            turn(&mut seat2, &g),
            judge(
                r#"{"own": [0, 4, 5, 8, 12, 13, 16, 17, 20, 21, 24, 28, 29, 36, 40, 44, 48], "bid": [1, 2]}"#
            )
        );
        assert_eq!(seat2.action(&json!(3)), Ok(ddz_action(DdzDecision::Bid(3))));
        g.apply(Action::Bid(3)).unwrap();
        assert_eq!(
            turn(&mut seat2, &g),
            judge(
                r#"{"history": [[], []], "own": [0, 4, 5, 8, 12, 13, 16, 17, 20, 21, 24, 28, 29, 36, 40, 44, 48], "publiccard": [14, 18, 49], "landlord": 2, "pos": 2, "finalbid": 3}"#
            )
        );
        assert!(seat2.action(&json!([0])).is_ok());
        play(&mut g, "3");
        assert_eq!(
            turn(&mut seat0, &g),
            judge(
                r#"{"history": [[], [3]], "own": [0, 1, 2, 8, 9, 16, 20, 24, 28, 29, 32, 36, 37, 40, 41, 48, 52], "publiccard": [12, 17, 49], "landlord": 2, "pos": 0, "finalbid": 3}"#
            )
        );
    }

    #[test]
    fn responses_that_are_no_cards_of_the_bot_are_named_as_botzone_names_them() {
        let g = game(false);
        let mut landlord = FtlGrammar::new(Edition::Ftl);
        turn(&mut landlord, &g);
        let foul = |g: &mut FtlGrammar, r: Value| {
            g.asked = Some(Phase::Play);
            g.action(&r).unwrap_err()
        };
        assert!(foul(&mut landlord, json!([60])).starts_with("OUT_OF_RANGE"));
        // Code 3 is the fourth 3, which the landlord does not hold.
        assert!(foul(&mut landlord, json!([3])).starts_with("MISSING_CARD"));
        assert!(foul(&mut landlord, json!([0, 0])).starts_with("REPEATED_CARD"));
        assert!(foul(&mut landlord, json!("PASS")).starts_with("BAD_FORMAT"));
        assert!(foul(&mut landlord, json!([1.5])).starts_with("BAD_FORMAT"));
        // Bidding in FightTheLandlord2: a number 0 to 3 (or its text, as the judge's int()).
        let g = game(true);
        let mut bidder = FtlGrammar::new(Edition::Ftl2);
        turn(&mut bidder, &g);
        assert!(
            bidder
                .action(&json!(4))
                .unwrap_err()
                .starts_with("INVALID_BID")
        );
        turn(&mut bidder, &g);
        assert_eq!(
            bidder.action(&json!("2")),
            Ok(ddz_action(DdzDecision::Bid(2)))
        );
        // FightTheLandlord has no bidding: its bots cannot sit at an auction.
        let mut ftl = FtlGrammar::new(Edition::Ftl);
        let e = ftl.turns(&request(&g), &mut Vec::new()).unwrap_err();
        assert!(e.contains("no bidding"), "{e}");
    }
}
