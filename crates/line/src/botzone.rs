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

    /// Reads the bot's response to the decision's turn as an action; `Err` says why it is none
    /// of the game's responses, in Botzone's words where the judge has them.
    fn action(&mut self, response: &Value) -> Result<v1::Action, String>;

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
