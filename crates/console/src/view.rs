//! Protocol messages as the JSON the pages read. Names of enum values are the protocol's, short
//! and lower case (`DECISION_KIND_PLAY` → `play`), so the pages need no table of numbers. Every
//! 64-bit integer (seeds, counts, scores, times) is a string of its digits ([`int`]). Every
//! string in here may come from a hostile bot (names, verdict reasons): the pages insert them as
//! text, never as markup.

use arena_games::GameKind;
use arena_proto::v1;
use serde_json::{Value, json};

pub use arena_proto::text::enum_short as short;

/// A 64-bit integer as the pages receive it: a string of its decimal digits. JavaScript's
/// numbers are doubles, exact only up to 2^53: a seed such as 3274537341145225769 sent as a JSON
/// number reaches the page as 3274537341145225700, which deals other cards. The protocol's
/// canonical JSON mapping sends `int64` and `uint64` as strings for the same reason; so does
/// every console route.
pub fn int(x: impl Into<i128>) -> Value {
    Value::String(x.into().to_string())
}

/// A list of 64-bit integers, each as [`int`].
pub fn ints<T: Copy + Into<i128>>(xs: &[T]) -> Value {
    Value::Array(xs.iter().map(|&x| int(x)).collect())
}

/// The game's name (empty: the platform's default game, as the protocol reads it; `unknown`
/// for a name no registered game has).
pub fn game(g: &str) -> &'static str {
    GameKind::from_wire(g).map_or("unknown", |k| k.name())
}

/// The registered game a name names (empty: the platform's default game).
pub fn game_of_name(name: &str) -> Option<&'static str> {
    GameKind::from_wire(name).ok().map(|k| k.name())
}

/// What the first registered game that renders `thing` makes of it (each game renders only its
/// own messages, and nothing of another's).
fn rendered<T>(render: impl Fn(GameKind) -> T, rendered: impl Fn(&T) -> bool) -> Option<T> {
    GameKind::all().map(render).find(|t| rendered(t))
}

/// A competition, as the list and its page show it.
pub fn competition(c: &v1::Competition) -> Value {
    let spec = c.spec.clone().unwrap_or_default();
    let state = match c.status() {
        v1::CompetitionState::Unspecified => c.state.clone(),
        s => short(s.as_str_name(), "COMPETITION_STATE_"),
    };
    json!({
        "name": spec.name,
        "game": game(&spec.game),
        "format": spec.format,
        "state": state,
        "participants": spec.participants,
        // game-seam: `CompetitionSpec.farmers`, the protocol's own field, shown as it is named.
        "farmers": spec.farmers,
        "matches": spec.matches,
        "rounds": spec.rounds,
        "rotate_seats": spec.rotate_seats,
        "centre": spec.centre,
        "eps": spec.eps,
        "bombs": spec.bombs,
        // The matchmaker hides it (0) while the competition runs.
        "seed": (spec.seed != 0).then(|| int(spec.seed)),
        "tables_done": int(c.tables_done),
        "tables_total": int(c.tables_total),
        "created_unix_ms": int(c.created_unix_ms),
        "finished_unix_ms": int(c.finished_unix_ms),
        "error": c.error,
    })
}

/// Standings: per participant its place, rank probabilities (the heat map's row), mean score
/// and its 95% interval half-width.
pub fn standings(s: &v1::Standings) -> Value {
    let rows: Vec<Value> = s
        .standings
        .iter()
        .map(|st| {
            json!({
                "participant": st.participant,
                "place": st.place,
                "rank_probabilities": st.rank_probabilities,
                "most_probable_rank": st.most_probable_rank,
                "mean_rank": st.mean_rank,
                "mean_score": st.mean_score,
                "score_ci95": st.score_ci95,
                "verdicts": st.verdicts,
                // The game's own totals, as its registration renders them.
                "totals": rendered(|g| g.render_standing(st), |t| !t.is_null()),
            })
        })
        .collect();
    json!({
        "competition": s.competition,
        "game": game(&s.game),
        "final": s.r#final,
        "tables_done": int(s.tables_done),
        "tables_total": int(s.tables_total),
        "drawn_hands": int(s.drawn_hands),
        "tables_withheld": int(s.tables_withheld),
        "standings": rows,
    })
}

/// A decision as text, as its game's renderer writes it: `bid 2`, `double`, `33344455`,
/// `pass`, `discard 5S`, …
pub fn action(a: &v1::Action) -> String {
    rendered(|g| g.render_action(a), |t| !t.is_empty()).unwrap_or_default()
}

/// A seat's observation without its event list (the replay carries the whole history once; a
/// frame says how much of it had happened): what the seat holds and the public table, as its
/// game's renderer reads it.
pub fn observation(o: &v1::Observation) -> Value {
    rendered(|g| g.render_observation(o), |v| !v.is_null()).unwrap_or(Value::Null)
}

/// How a game ended: the scores, and the game's own part as its renderer reads it.
pub fn outcome(o: &v1::Outcome) -> Value {
    let detail = rendered(|g| g.render_outcome(o), |v| !v.is_null()).unwrap_or(Value::Null);
    json!({"scores": ints(&o.scores), "scoring": o.scoring, "detail": detail})
}

/// A verdict.
pub fn verdict(v: &v1::Verdict) -> Value {
    json!({
        "seat": v.seat,
        "kind": arena_table::game::verdict_name(v.kind()),
        "reason": v.reason,
        "decision": v.decision,
    })
}

/// A table's result: scores, penalties, verdicts, who forfeited.
pub fn result(r: &v1::TableResult) -> Value {
    json!({
        "table_id": r.table_id,
        "outcome": r.outcome.as_ref().map(outcome),
        "penalties": ints(&r.penalties),
        "final_scores": ints(&r.final_scores),
        "verdicts": r.verdicts.iter().map(verdict).collect::<Vec<_>>(),
        "forfeited_by": r.forfeited_by,
        "finished_unix_ms": int(r.finished_unix_ms),
        "decisions": r.decisions,
        "mean_decision_ms": r.mean_decision_ms,
        "releases": r.releases,
        "error": r.error,
    })
}

/// Where a table sits in its competition. `side` is Dou Dizhu's (the participant as landlord or
/// as the farmers); a Mahjong hand has none (`null`): its seats rotate instead (`rotation`).
pub fn placement(p: &v1::Placement) -> Value {
    json!({
        "match": p.match_index,
        "round": p.round,
        "table": p.table,
        "side": match p.side() {
            v1::Side::Unspecified => Value::Null,
            s => Value::String(short(s.as_str_name(), "SIDE_")),
        },
        "deal_id": p.deal_id,
        "rotation": p.rotation,
    })
}

/// A rating of the ladder.
pub fn rating(r: &v1::Rating) -> Value {
    json!({
        "bot": r.bot,
        "release": r.release,
        "mu": r.mu,
        "sigma": r.sigma,
        "conservative": r.conservative,
        "games": int(r.games),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;
    use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;

    #[test]
    fn enum_names_lose_their_prefix() {
        assert_eq!(
            short("DECISION_KIND_ROB_KONG", "DECISION_KIND_"),
            "rob-kong"
        );
        assert_eq!(short("SIDE_FARMERS", "SIDE_"), "farmers");
        assert_eq!(game_of_name("mahjong"), Some("mahjong"));
        assert_eq!(game_of_name("chess"), None);
    }

    #[test]
    fn actions_read_as_a_player_would_say_them() {
        let ddz = |a| v1::Action {
            game: Some(arena_proto::payload::pack(&ddz_pb::Action {
                action: Some(a),
            })),
        };
        assert_eq!(action(&ddz(ddz_pb::action::Action::Bid(2))), "bid 2");
        assert_eq!(
            action(&ddz(ddz_pb::action::Action::Double(false))),
            "no double"
        );
        assert_eq!(
            action(&ddz(ddz_pb::action::Action::Play("33344455".into()))),
            "33344455"
        );
        let mj = v1::Action {
            game: Some(arena_proto::payload::pack(&mahjong_pb::Action {
                kind: mahjong_pb::ActionKind::Discard as i32,
                tile: "5S".into(),
            })),
        };
        assert_eq!(action(&mj), "discard 5S");
    }
}
