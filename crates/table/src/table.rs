//! The table core, free of I/O: it turns a game's pending decisions into requests, and seats'
//! replies into applied actions, time penalties, verdicts, replay steps and finally a
//! [`v1::TableResult`] and [`v1::Replay`]. Drivers ([`crate::run`]) only fetch the replies.
//!
//! # Decisions and verdicts
//!
//! Every decision of the game, answered by a bot or automatically, is one replay step; a
//! decision's index (its step's position, also the request id sent to remote seats) is what a
//! verdict points to. Decisions pending together (Mahjong claims) take consecutive indices in
//! seat order.
//!
//! A reply becomes a verdict when it is missing at the hard cap or arrives after it (timeout),
//! is not an action of the right kind (malformed), is refused by the rules (illegal), or the
//! seat failed (disconnected, crashed, as reported). Under [`Policy::Forfeit`] the first
//! verdict of a round (in seat order) ends the game at once and its seat's side loses; under
//! [`Policy::PlayOn`] the seat's decisions are taken automatically for the rest of the game
//! (this one included) and it takes the verdict penalty. Time penalties apply to every answered
//! decision under both policies.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arena_proto::v1;

use crate::game::{Fault, Pending, Policy, TableGame, verdict_name};
use crate::replay::{Step, Steps};
use crate::seat::{Answer, Reply};
use crate::time::{TimeRules, rounded_ms};

/// The reason of a timeout verdict for a seat that gave no answer within its hard cap of
/// `cap_ms`.
fn no_answer_reason(cap_ms: u64) -> String {
    format!("no answer within the hard cap of {cap_ms} ms")
}

/// The timeout verdict of a seat silent until its hard cap `cap`, saying `why` when its host
/// could tell (a program that wrote something that cannot become an answer by waiting): the
/// reason cut as every quote of a bot's text is, the whole in the detail.
pub(crate) fn timeout_at_cap(cap: Duration, why: &str) -> Fault {
    let cap_ms = u64::try_from(cap.as_millis()).unwrap_or(u64::MAX);
    Fault::reported(
        v1::VerdictKind::Timeout,
        &format!("{}: {why}", no_answer_reason(cap_ms)),
    )
}

/// A decision to put to a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The decision's index in the table (the request id on the wire).
    pub index: u32,
    /// The seat asked.
    pub seat: u32,
    /// What it decides.
    pub kind: v1::DecisionKind,
}

impl Request {
    /// The pending decision this request asks for.
    pub fn pending(&self) -> Pending {
        Pending {
            seat: self.seat,
            kind: self.kind,
        }
    }
}

/// A verdict's whole report: its detail where the reason was cut short (a report quoting what
/// a program wrote), else its reason. For the seat's own author (logs, the CLI's matches);
/// seats are sent the reason only.
pub fn whole_reason(v: &v1::Verdict) -> &str {
    if v.detail.is_empty() {
        &v.reason
    } else {
        &v.detail
    }
}

/// How the table ended.
#[derive(Clone, Debug, PartialEq)]
enum End {
    /// The game finished.
    Over(v1::Outcome),
    /// A seat forfeited.
    Forfeit(u32, v1::Outcome),
    /// The rules engine refused a checked action (a bug).
    Error(String),
}

/// One table in progress. See the module documentation.
pub struct Table<G: TableGame> {
    game: G,
    time: TimeRules,
    /// Each seat's rules for its first decision: the table's, or a seat's own
    /// ([`Table::set_seat_time`]).
    seat_time: Vec<TimeRules>,
    /// Each seat's rules for its second and later decisions ([`Table::set_seat_later_time`]).
    seat_later_time: Vec<TimeRules>,
    policy: Policy,
    /// Seats playing automatically after a verdict.
    dead: Vec<bool>,
    penalties: Vec<i64>,
    asked: Vec<u32>,
    elapsed_sum_ms: Vec<u64>,
    steps: Steps,
    verdicts: Vec<v1::Verdict>,
    /// The decisions of the round being asked, and whether each seat is asked (not dead).
    round: Vec<(Pending, bool)>,
    /// Scratch reused from round to round, so a round allocates nothing of its own: the game's
    /// pending decisions, and the actions applied.
    pending: Vec<Pending>,
    actions: Vec<(Pending, G::Action)>,
    end: Option<End>,
    releases: Vec<String>,
}

impl<G: TableGame> Table<G> {
    /// A table about to play `game` under `time` and `policy` (`None`: the game's default).
    pub fn new(game: G, time: TimeRules, policy: Option<Policy>) -> Table<G> {
        let n = game.seat_count();
        let policy = policy.unwrap_or_else(|| game.default_policy());
        Table {
            game,
            time,
            seat_time: vec![time; n],
            seat_later_time: vec![time; n],
            policy,
            dead: vec![false; n],
            penalties: vec![0; n],
            asked: vec![0; n],
            elapsed_sum_ms: vec![0; n],
            releases: vec![String::new(); n],
            // Room for a Dou Dizhu table's few dozen decisions, so that most tables never
            // grow their steps.
            steps: Steps::with_capacity(48, 384),
            verdicts: Vec::new(),
            round: Vec::new(),
            pending: Vec::new(),
            actions: Vec::new(),
            end: None,
        }
    }

    /// Records the release of the bot in `seat`, reported in the result.
    pub fn set_release(&mut self, seat: usize, release: &str) {
        if let Some(r) = self.releases.get_mut(seat) {
            *r = release.to_string();
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The time rules.
    pub fn time(&self) -> &TimeRules {
        &self.time
    }

    /// Gives `seat` rules of its own for every decision (a registered bot's own decision limit,
    /// [`TimeRules::with_own_limit`]): its overrun penalties and timeouts are judged by them.
    pub fn set_seat_time(&mut self, seat: usize, time: TimeRules) {
        for rules in [&mut self.seat_time, &mut self.seat_later_time] {
            if let Some(t) = rules.get_mut(seat) {
                *t = time;
            }
        }
    }

    /// Gives `seat` other rules from its second decision on (a keep-running bot's later limit),
    /// after [`Table::set_seat_time`]: the seat switches to them once its first decision is
    /// settled.
    pub fn set_seat_later_time(&mut self, seat: usize, time: TimeRules) {
        if let Some(t) = self.seat_later_time.get_mut(seat) {
            *t = time;
        }
    }

    /// The time rules `seat`'s next decision is judged by: its own (its later ones once it has
    /// been asked), else the table's. Drivers take its deadline from here.
    pub fn seat_time(&self, seat: u32) -> &TimeRules {
        let s = seat as usize;
        let rules = match self.asked.get(s) {
            Some(0) => &self.seat_time,
            _ => &self.seat_later_time,
        };
        rules.get(s).unwrap_or(&self.time)
    }

    /// The verdict policy in force.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// True when `seat` plays automatically after a verdict.
    pub fn is_dead(&self, seat: u32) -> bool {
        self.dead.get(seat as usize).copied().unwrap_or(true)
    }

    /// The verdicts so far.
    pub fn verdicts(&self) -> &[v1::Verdict] {
        &self.verdicts
    }

    /// True once the table has ended (game over, forfeit or error).
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The outcome once the table has ended (`None` after an internal error).
    pub fn outcome(&self) -> Option<&v1::Outcome> {
        match &self.end {
            Some(End::Over(o) | End::Forfeit(_, o)) => Some(o),
            _ => None,
        }
    }

    /// How many decisions the round [`Table::next_round`] returned is made of: those asked and
    /// those taken automatically for seats at fault.
    pub fn round_size(&self) -> usize {
        self.round.len()
    }

    /// The decisions to put to the seats now (at least one), after taking those of seats at
    /// fault automatically; `None` once the table has ended. Answer them with
    /// [`Table::settle`] before calling this again.
    pub fn next_round(&mut self) -> Option<Vec<Request>> {
        let mut out = Vec::new();
        self.next_round_into(&mut out).then_some(out)
    }

    /// [`Table::next_round`] into `out` (emptied first, so a driver reuses one buffer): false
    /// once the table has ended.
    pub fn next_round_into(&mut self, out: &mut Vec<Request>) -> bool {
        out.clear();
        loop {
            if self.end.is_some() {
                return false;
            }
            let mut pending = std::mem::take(&mut self.pending);
            pending.clear();
            self.game.pending_into(&mut pending);
            let asked = self.open_round(&pending);
            self.pending = pending;
            match asked {
                None => return false,
                Some(true) => break,
                Some(false) => self.settle_iter(std::iter::empty()),
            }
        }
        let first = self.steps.len() as u32;
        out.extend(
            self.round
                .iter()
                .enumerate()
                .filter(|(_, (_, asked))| *asked)
                .map(|(i, (p, _))| Request {
                    index: first + i as u32,
                    seat: p.seat,
                    kind: p.kind,
                }),
        );
        true
    }

    /// Makes `pending` the round: `None` when the table ends instead (no decision pending, or a
    /// decision the table cannot put), else whether any seat is asked (not dead).
    fn open_round(&mut self, pending: &[Pending]) -> Option<bool> {
        if pending.is_empty() {
            self.end = Some(match self.game.outcome() {
                Some(o) => End::Over(o),
                None => End::Error("the game has no pending decision and no outcome".into()),
            });
            return None;
        }
        let n = self.dead.len();
        for (i, p) in pending.iter().enumerate() {
            // Rounds are a few seats: a scan finds a seat asked twice without allocating.
            let ok = (p.seat as usize) < n && !pending[..i].iter().any(|q| q.seat == p.seat);
            if !ok {
                self.end = Some(End::Error(format!(
                    "internal error: the game asked seat {} of a {n}-seat table (or twice in one round)",
                    p.seat
                )));
                return None;
            }
        }
        self.round.clear();
        for p in pending {
            let asked = !self.is_dead(p.seat);
            self.round.push((*p, asked));
        }
        Some(self.round.iter().any(|(_, asked)| *asked))
    }

    /// Settles the round [`Table::next_round`] returned with one reply per request, in the same
    /// order. Missing replies count as no answer; extra ones are ignored.
    pub fn settle(&mut self, replies: Vec<Reply<G::Action>>) {
        self.settle_iter(replies.into_iter());
    }

    /// [`Table::settle`] with the replies taken out of `replies`, which is left empty for the
    /// next round (a driver reuses one buffer).
    pub fn settle_from(&mut self, replies: &mut Vec<Reply<G::Action>>) {
        self.settle_iter(replies.drain(..));
    }

    fn settle_iter(&mut self, mut replies: impl Iterator<Item = Reply<G::Action>>) {
        let round = std::mem::take(&mut self.round);
        let mut actions = std::mem::take(&mut self.actions);
        actions.clear();
        let first = self.steps.len() as u32;
        let mut forfeit = None;
        for (i, &(p, asked)) in round.iter().enumerate() {
            let index = first + i as u32;
            let seat = p.seat as usize;
            let mut step = Step::new(p.seat, p.kind);
            let action = if !asked {
                step.automatic = true;
                Some(self.game.automatic(&p))
            } else {
                let time = *self.seat_time(p.seat);
                let reply = replies
                    .next()
                    .unwrap_or(Reply::new(Answer::NoAnswer, time.hard_cap()));
                step.elapsed_us = u32::try_from(reply.elapsed.as_micros()).unwrap_or(u32::MAX);
                let (result, elapsed_ms) = self.judge(&p, reply, &time);
                step.elapsed_ms = u32::try_from(elapsed_ms).unwrap_or(u32::MAX);
                step.penalty = time.overrun_penalty(p.kind, elapsed_ms);
                step.limit_ms = time.limit_ms(p.kind);
                self.asked[seat] += 1;
                self.elapsed_sum_ms[seat] += elapsed_ms;
                match result {
                    Ok(a) => Some(a),
                    Err(fault) => {
                        tracing::info!(seat = p.seat, decision = index, verdict = verdict_name(fault.kind), reason = %fault.reason, "verdict");
                        let verdict = v1::Verdict {
                            seat: p.seat,
                            kind: fault.kind as i32,
                            reason: fault.reason,
                            decision: index,
                            detail: fault.detail,
                        };
                        step.verdict = Some(self.verdicts.len() as u32);
                        self.verdicts.push(verdict);
                        match self.policy {
                            Policy::Forfeit => {
                                forfeit.get_or_insert(p.seat);
                                None
                            }
                            Policy::PlayOn => {
                                self.dead[seat] = true;
                                step.penalty += i64::from(time.verdict_penalty);
                                step.automatic = true;
                                Some(self.game.automatic(&p))
                            }
                        }
                    }
                }
            };
            self.penalties[seat] += step.penalty;
            let game = &self.game;
            let encode = action
                .as_ref()
                .filter(|_| forfeit.is_none())
                .map(|a| move |buf: &mut Vec<u8>| game.encode_action_into(a, buf));
            self.steps.push(step, encode);
            if let Some(a) = action {
                actions.push((p, a));
            }
        }
        // The buffers go back, emptied, for the next round.
        self.round = round;
        self.round.clear();
        if let Some(seat) = forfeit {
            // The round's other answers are not applied: the game ends here.
            self.steps.clear_actions_from(first as usize);
            self.end = Some(End::Forfeit(seat, self.game.forfeit(seat)));
            return;
        }
        if let Err(e) = self.game.apply(&actions) {
            tracing::error!(error = %e, "the rules refused checked actions");
            self.end = Some(End::Error(format!(
                "internal error: the rules refused checked actions: {e}"
            )));
        }
        self.actions = actions;
    }

    /// Reads one reply under `time`: the action, or the fault; and the elapsed milliseconds
    /// charged.
    fn judge(
        &self,
        p: &Pending,
        reply: Reply<G::Action>,
        time: &TimeRules,
    ) -> (Result<G::Action, Fault>, u64) {
        let cap = u64::from(time.hard_cap_ms);
        let elapsed = rounded_ms(reply.elapsed);
        let timeout = |ms: u64| {
            Fault::new(
                v1::VerdictKind::Timeout,
                if ms > cap {
                    format!("answered after {ms} ms, past the hard cap of {cap} ms")
                } else {
                    no_answer_reason(cap)
                },
            )
        };
        match reply.answer {
            // Drivers never settle a platform failure (they stop the table instead); should one
            // get here, it is said for what it is.
            Answer::Platform(why) => (
                Err(Fault::new(
                    v1::VerdictKind::Disconnected,
                    format!("the platform failed, not the bot: {why}"),
                )),
                0,
            ),
            Answer::NoAnswer => (Err(timeout(cap)), cap),
            _ if elapsed > cap => (Err(timeout(elapsed)), cap),
            Answer::Fault(f) => (Err(f), elapsed),
            Answer::Action(a) => (self.game.check(p, &a).map(|()| a), elapsed),
            Answer::Message(m) => (self.game.decode(p, &m), elapsed),
        }
    }

    /// The result and replay of the ended table. `referee` names the writer; `job` is recorded
    /// in the replay and supplies the table id, competition and labels.
    pub fn finish(self, job: &v1::TableJob, referee: &str) -> (v1::TableResult, v1::Replay) {
        self.record(job, referee).into_replay(Some(job))
    }

    /// [`Table::finish`] as a [`Record`]: the replay without the job and the result, which a
    /// writer encodes without copying them in ([`Record::encode_replay`]).
    pub fn record(self, job: &v1::TableJob, referee: &str) -> Record {
        let n = self.penalties.len();
        let (outcome, forfeited_by, error) = match self.end {
            Some(End::Over(o)) => (Some(o), None, String::new()),
            Some(End::Forfeit(s, o)) => (Some(o), Some(s), String::new()),
            Some(End::Error(e)) => (None, None, e),
            None => (
                None,
                None,
                "the table was stopped before the game ended".into(),
            ),
        };
        let final_scores = match &outcome {
            Some(o) => (0..n)
                .map(|i| o.scores.get(i).copied().unwrap_or(0) - self.penalties[i])
                .collect(),
            None => Vec::new(),
        };
        let mean_decision_ms = (0..n)
            .map(|i| {
                if self.asked[i] == 0 {
                    0.0
                } else {
                    self.elapsed_sum_ms[i] as f64 / f64::from(self.asked[i])
                }
            })
            .collect();
        let result = v1::TableResult {
            table_id: job.table_id.clone(),
            outcome,
            penalties: self.penalties,
            final_scores,
            verdicts: self.verdicts,
            forfeited_by,
            referee: referee.to_string(),
            finished_unix_ms: unix_ms(),
            competition: job.competition.clone(),
            labels: job.labels.clone(),
            placement: job.placement.clone(),
            decisions: self.asked,
            mean_decision_ms,
            error,
            releases: self.releases,
            seat_time: self.seat_time.iter().map(TimeRules::to_proto).collect(),
            seat_later_time: self
                .seat_later_time
                .iter()
                .map(TimeRules::to_proto)
                .collect(),
        };
        let mut history = Vec::new();
        self.game.encode_history_into(&mut history);
        Record {
            result,
            steps: self.steps,
            history,
        }
    }
}

/// A finished table as a writer needs it: the result, the steps with their actions already
/// encoded, and the public history encoded; not the job, which the writer holds already.
/// [`Record::encode_replay`] writes the whole replay from these parts into a buffer of the
/// exact size, building no message per step or event; [`Record::into_replay`] gives it as a
/// message.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The table's result.
    pub result: v1::TableResult,
    /// The decisions (their verdicts are the result's).
    pub steps: Steps,
    /// The game's public history: the encoded fields of a [`v1::Replay`] that hold it (4 on),
    /// as [`TableGame::encode_history_into`] wrote them.
    pub history: Vec<u8>,
}

impl Record {
    /// The result and the whole replay: `job` and a copy of the result put in.
    pub fn into_replay(self, job: Option<&v1::TableJob>) -> (v1::TableResult, v1::Replay) {
        use prost::Message;
        // The history is the game's own encoding of its events: it decodes.
        let mut replay = v1::Replay::decode(self.history.as_slice()).unwrap_or_default();
        // Every field named, so that a field added to Replay cannot be left out unnoticed: the
        // table's own fields are put in here (and in `encode_replay`), the rest are the
        // history's.
        let v1::Replay {
            job: _,
            steps: _,
            result: _,
            history: _,
        } = &replay;
        replay.job = job.cloned();
        replay.steps = self.steps.to_messages(&self.result.verdicts);
        replay.result = Some(self.result.clone());
        (self.result, replay)
    }

    /// The encoded replay [`Record::into_replay`] would give, byte for byte (fields in the
    /// order prost writes them), made from the parts.
    pub fn encode_replay(&self, job: Option<&v1::TableJob>) -> Vec<u8> {
        use prost::encoding::message;
        let verdicts = &self.result.verdicts;
        let len = job.map_or(0, |j| message::encoded_len(1, j))
            + self.steps.encoded_len(2, verdicts)
            + message::encoded_len(3, &self.result)
            + self.history.len();
        let mut buf = Vec::with_capacity(len);
        if let Some(j) = job {
            message::encode(1, j, &mut buf);
        }
        self.steps.encode(2, verdicts, &mut buf);
        message::encode(3, &self.result, &mut buf);
        buf.extend_from_slice(&self.history);
        buf
    }
}

/// Milliseconds since the Unix epoch.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis()
        .try_into()
        .unwrap_or(u64::MAX)
}

/// The result and replay of a job that could not be played: `error` says why.
pub fn error_result(
    table_id: &str,
    job: Option<&v1::TableJob>,
    referee: &str,
    error: String,
) -> (v1::TableResult, v1::Replay) {
    error_record(table_id, job, referee, error).into_replay(job)
}

/// [`error_result`] as a [`Record`].
pub fn error_record(
    table_id: &str,
    job: Option<&v1::TableJob>,
    referee: &str,
    error: String,
) -> Record {
    let result = v1::TableResult {
        table_id: table_id.to_string(),
        referee: referee.to_string(),
        finished_unix_ms: unix_ms(),
        competition: job.map(|j| j.competition.clone()).unwrap_or_default(),
        labels: job.map(|j| j.labels.clone()).unwrap_or_default(),
        placement: job.and_then(|j| j.placement.clone()),
        error,
        ..Default::default()
    };
    Record {
        result,
        steps: Steps::default(),
        history: Vec::new(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The core on a toy game where every seat decides at once each round, as Mahjong claims do.

    use super::*;

    /// Three seats each pick 0, 1 or 2 every round, all at once; a pick above 2 is illegal, an
    /// action that is not a `play` is malformed. After `rounds` rounds each seat scores its sum.
    #[derive(Clone, Debug)]
    pub(crate) struct Picks {
        rounds: u32,
        sums: [i64; 3],
        history: Vec<(u32, u32)>,
    }

    impl Picks {
        /// A game of `rounds` rounds (the runner's tests play it too).
        pub(crate) fn new(rounds: u32) -> Picks {
            Picks {
                rounds,
                sums: [0; 3],
                history: Vec::new(),
            }
        }
    }

    pub(crate) fn pick(n: u32) -> v1::Action {
        v1::Action {
            game: Some(arena_proto::payload::pack(&n)),
        }
    }

    impl TableGame for Picks {
        type Action = u32;
        /// Rounds left and the seat's own sum: not the others'.
        type View<'a> = (u32, i64);
        fn game(&self) -> &'static str {
            "picks"
        }
        fn seat_count(&self) -> usize {
            3
        }
        fn default_policy(&self) -> Policy {
            Policy::PlayOn
        }
        fn pending_into(&self, out: &mut Vec<Pending>) {
            if self.rounds == 0 {
                return;
            }
            out.extend((0..3).map(|seat| Pending {
                seat,
                kind: v1::DecisionKind::Claim,
            }))
        }
        fn view(&self, seat: u32) -> (u32, i64) {
            (self.rounds, self.sums[seat as usize % 3])
        }
        fn observation_from(&self, _seat: u32, _from: usize) -> v1::Observation {
            v1::Observation::default()
        }
        fn decode(&self, p: &Pending, action: &v1::Action) -> Result<u32, Fault> {
            match arena_proto::payload::unpack::<u32>(action.game.as_ref(), "a pick") {
                Ok(n) => self.check(p, &n).map(|()| n),
                Err(_) => Err(Fault::malformed("not a pick")),
            }
        }
        fn check(&self, _p: &Pending, action: &u32) -> Result<(), Fault> {
            if *action > 2 {
                Err(Fault::illegal(format!("pick {action} is above 2")))
            } else {
                Ok(())
            }
        }
        fn encode(&self, action: &u32) -> v1::Action {
            pick(*action)
        }
        fn automatic(&self, _p: &Pending) -> u32 {
            0
        }
        fn apply(&mut self, actions: &[(Pending, u32)]) -> Result<(), String> {
            if actions.len() != 3 {
                return Err(format!("{} actions for 3 seats", actions.len()));
            }
            for (p, a) in actions {
                self.sums[p.seat as usize] += i64::from(*a);
                self.history.push((p.seat, *a));
            }
            self.rounds -= 1;
            Ok(())
        }
        fn outcome(&self) -> Option<v1::Outcome> {
            (self.rounds == 0).then(|| v1::Outcome {
                scores: self.sums.to_vec(),
                scoring: "sum".into(),
                game: None,
            })
        }
        fn forfeit(&self, seat: u32) -> v1::Outcome {
            let mut scores = vec![0; 3];
            scores[seat as usize] = -10;
            v1::Outcome {
                scores,
                scoring: "sum".into(),
                game: None,
            }
        }
        fn record_history(&self, _replay: &mut v1::Replay) {}
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Plays the table's remaining rounds, every seat picking 0 in 1 ms: its replay.
    fn play_out(mut t: Table<Picks>) -> v1::Replay {
        while let Some(r) = t.next_round() {
            let n = r.len();
            t.settle(
                (0..n)
                    .map(|_| Reply::new(Answer::Action(0), ms(1)))
                    .collect(),
            );
        }
        t.finish(&v1::TableJob::default(), "test").1
    }

    fn table(policy: Policy) -> Table<Picks> {
        let time = TimeRules {
            decision_ms: 100,
            hard_cap_ms: 500,
            penalty_per_100ms: 1,
            verdict_penalty: 7,
            claim_ms: 100,
            rounding: v1::PenaltyRounding::Started,
        };
        Table::new(
            Picks {
                rounds: 3,
                sums: [0; 3],
                history: Vec::new(),
            },
            time,
            Some(policy),
        )
    }

    /// Picks `seat % 3`, or 9 (above what the rules allow) when `cheat`; records its views.
    struct Picker {
        cheat: bool,
        seen: Vec<(u32, i64)>,
        started: Option<(u32, u64)>,
        last: Option<(u32, i64)>,
    }

    impl crate::LocalPlayer<Picks> for Picker {
        fn name(&self) -> String {
            "picker".into()
        }
        fn start(&mut self, seat: u32, seed: u64) {
            self.started = Some((seat, seed));
        }
        fn decide(&mut self, view: &(u32, i64), p: &Pending) -> u32 {
            self.seen.push(*view);
            if self.cheat { 9 } else { p.seat % 3 }
        }
        fn finish(&mut self, view: &(u32, i64)) {
            self.last = Some(*view);
        }
    }

    fn picker(cheat: bool) -> Picker {
        Picker {
            cheat,
            seen: Vec::new(),
            started: None,
            last: None,
        }
    }

    #[test]
    fn the_fast_path_plays_simultaneous_rounds_from_each_seats_view() {
        let mut game = Picks {
            rounds: 3,
            sums: [0; 3],
            history: Vec::new(),
        };
        let (mut a, mut b, mut c) = (picker(false), picker(false), picker(false));
        let mut scratch = crate::Scratch::new();
        {
            let mut players: [&mut dyn crate::LocalPlayer<Picks>; 3] = [&mut a, &mut b, &mut c];
            crate::play_fast(&mut game, &mut players, 42, &mut scratch).unwrap();
        }
        assert_eq!(game.sums, [0, 3, 6]);
        assert_eq!(game.outcome().unwrap().scores, vec![0, 3, 6]);
        assert_eq!(c.started, Some((2, 42)));
        // Seat 2 saw its own sum grow by 2 a round, never the other seats' sums.
        assert_eq!(c.seen, vec![(3, 0), (2, 2), (1, 4)]);
        assert_eq!(c.last, Some((0, 6)));
        assert_eq!(b.last, Some((0, 3)));

        // A refused action names the seat that made it, even in a round of three.
        let mut game = Picks {
            rounds: 3,
            sums: [0; 3],
            history: Vec::new(),
        };
        let (mut a, mut b, mut c) = (picker(false), picker(true), picker(false));
        let mut players: [&mut dyn crate::LocalPlayer<Picks>; 3] = [&mut a, &mut b, &mut c];
        let e = crate::play_fast(&mut game, &mut players, 1, &mut scratch).unwrap_err();
        assert_eq!((e.seat, e.bot.as_str()), (1, "picker"));
        assert!(e.reason.contains("pick 9 is above 2"), "{e}");
    }

    #[test]
    fn simultaneous_decisions_take_consecutive_indices_and_dead_seats_play_automatically() {
        let mut t = table(Policy::PlayOn);
        let r = t.next_round().unwrap();
        assert_eq!(
            r.iter().map(|q| (q.index, q.seat)).collect::<Vec<_>>(),
            [(0, 0), (1, 1), (2, 2)]
        );
        // Seat 1 answers illegally and late; seat 2 from the wire; seat 0 in-process.
        t.settle(vec![
            Reply::new(Answer::Action(2), ms(10)),
            Reply::new(Answer::Action(5), ms(250)),
            Reply::new(Answer::Message(pick(1)), ms(101)),
        ]);
        assert_eq!(t.verdicts().len(), 1);
        assert_eq!((t.verdicts()[0].seat, t.verdicts()[0].decision), (1, 1));
        assert!(t.is_dead(1));
        // Seat 1 is no longer asked; its decision is still a step, taken automatically.
        let r = t.next_round().unwrap();
        assert_eq!(
            r.iter().map(|q| (q.index, q.seat)).collect::<Vec<_>>(),
            [(3, 0), (5, 2)]
        );
        t.settle(vec![
            Reply::new(Answer::Action(1), ms(1)),
            Reply::new(Answer::Message(pick(9)), ms(1)),
        ]);
        // Every live seat is dead or answered; the last round still has seat 0 to ask.
        let r = t.next_round().unwrap();
        assert_eq!(r.iter().map(|q| q.seat).collect::<Vec<_>>(), [0]);
        t.settle(vec![Reply::new(Answer::NoAnswer, ms(500))]);
        assert!(t.next_round().is_none());
        let (result, replay) = t.finish(&v1::TableJob::default(), "test");
        assert_eq!(replay.steps.len(), 9);
        // Seat 0: 2 + 1 + automatic 0; seat 1: automatic (0) every round; seat 2: 1, automatic 0, 0.
        assert_eq!(result.outcome.unwrap().scores, [3, 0, 1]);
        // Penalties: seat 1 late by 150 ms (2) + verdict (7); seat 2 late by 1 ms (1) then an
        // illegal pick (7); seat 0 timed out at the cap: 4 + 7.
        assert_eq!(result.penalties, [11, 9, 8]);
        assert_eq!(result.decisions, [3, 1, 2]);
        assert_eq!(
            result
                .verdicts
                .iter()
                .map(|v| (v.seat, v.kind(), v.decision))
                .collect::<Vec<_>>(),
            [
                (1, v1::VerdictKind::Illegal, 1),
                (2, v1::VerdictKind::Illegal, 5),
                (0, v1::VerdictKind::Timeout, 6),
            ]
        );
        assert!(replay.steps[4].automatic && replay.steps[4].verdict.is_none());
    }

    #[test]
    fn under_forfeit_the_first_fault_of_a_round_in_seat_order_ends_the_game() {
        let mut t = table(Policy::Forfeit);
        t.next_round().unwrap();
        t.settle(vec![
            Reply::new(Answer::Action(1), ms(1)),
            Reply::new(
                Answer::Fault(Fault::new(v1::VerdictKind::Crashed, "gone")),
                ms(1),
            ),
            Reply::new(Answer::Message(v1::Action::default()), ms(1)),
        ]);
        assert!(t.is_over() && t.next_round().is_none());
        let (result, replay) = t.finish(&v1::TableJob::default(), "test");
        assert_eq!(result.forfeited_by, Some(1));
        assert_eq!(result.outcome.unwrap().scores, [0, -10, 0]);
        assert_eq!(result.verdicts.len(), 2, "both faults are recorded");
        assert!(
            replay.steps.iter().all(|s| s.action.is_none()),
            "nothing of the round was applied"
        );
    }

    /// The writer stores `encode_replay`'s bytes; readers decode them as the replay message, so
    /// they must be exactly the message's own encoding, every field of it set.
    #[test]
    fn a_records_encoded_replay_is_the_whole_replays_encoding_byte_for_byte() {
        use prost::Message;
        let mut t = table(Policy::PlayOn);
        while let Some(r) = t.next_round() {
            let n = r.len();
            t.settle(
                (0..n)
                    .map(|i| Reply::new(Answer::Action(i as u32 * 2), ms(120)))
                    .collect(),
            );
        }
        let job = v1::TableJob {
            table_id: "cup/7".into(),
            competition: "cup".into(),
            seed: 9,
            labels: [("round".to_string(), "2".to_string())].into(),
            seats: vec![v1::SeatSpec { bot: "a".into() }],
            ..Default::default()
        };
        let mut record = t.record(&job, "ref");
        assert!(!record.result.verdicts.is_empty() && record.steps.len() == 9);
        assert!(record.steps.iter().any(|s| s.verdict.is_some()));
        // The history field, as a game writes it (its own message in an Any).
        let history = v1::Replay {
            history: Some(arena_proto::payload::pack(&"W1W2".to_string())),
            ..Default::default()
        };
        record.history = history.encode_to_vec();
        for job in [Some(&job), None] {
            let bytes = record.encode_replay(job);
            let (_, whole) = record.clone().into_replay(job);
            assert_eq!(bytes, whole.encode_to_vec());
            assert_eq!(
                bytes.capacity(),
                bytes.len(),
                "one buffer of the exact size"
            );
        }
        // And the record's result is the replay's, its history and steps what was played.
        let steps = record.steps.clone();
        let (result, whole) = record.into_replay(Some(&job));
        assert_eq!(whole.history, history.history);
        assert_eq!(whole.steps.len(), 9);
        for (m, s) in whole.steps.iter().zip(steps.iter()) {
            assert_eq!(
                (m.seat, m.elapsed_ms, m.penalty),
                (s.seat, s.elapsed_ms, s.penalty)
            );
            let verdict = s.verdict.map(|i| result.verdicts[i as usize].clone());
            assert_eq!(m.verdict, verdict);
        }
        assert_eq!(whole.result, Some(result));
        assert_eq!(whole.job, Some(job));
    }

    #[test]
    fn an_answer_after_the_hard_cap_is_a_timeout_charged_at_the_cap() {
        let mut t = table(Policy::PlayOn);
        t.next_round().unwrap();
        t.settle(vec![
            Reply::new(Answer::Action(1), ms(900)),
            Reply::new(Answer::Action(1), ms(1)),
            Reply::new(Answer::Action(1), ms(1)),
        ]);
        let v = &t.verdicts()[0];
        assert_eq!((v.seat, v.kind()), (0, v1::VerdictKind::Timeout));
        assert!(
            v.reason
                .contains("answered after 900 ms, past the hard cap of 500 ms"),
            "{}",
            v.reason
        );
        let replay = play_out(t);
        assert_eq!(
            (replay.steps[0].elapsed_ms, replay.steps[0].penalty),
            (500, 4 + 7)
        );
    }

    /// A seat with a limit of its own is judged by it, the others by the table's (these
    /// decisions are claims: the own limit is for every decision).
    #[test]
    fn a_seat_with_its_own_limit_is_judged_by_it_and_the_others_by_the_tables() {
        let mut t = table(Policy::PlayOn);
        let own = t.time().with_own_limit(1000);
        assert_eq!((own.decision_ms, own.hard_cap_ms), (1000, 1400));
        t.set_seat_time(0, own);
        assert_eq!(t.seat_time(0), &own);
        assert_eq!(t.seat_time(1), t.time());
        t.next_round().unwrap();
        // 900 ms: within seat 0's own limit, past the table's hard cap for seat 1.
        t.settle(vec![
            Reply::new(Answer::Action(0), ms(900)),
            Reply::new(Answer::Action(1), ms(900)),
            Reply::new(Answer::Action(2), ms(1)),
        ]);
        assert_eq!(t.verdicts().len(), 1, "{:?}", t.verdicts());
        let v = &t.verdicts()[0];
        assert_eq!((v.seat, v.kind()), (1, v1::VerdictKind::Timeout));
        assert!(v.reason.contains("past the hard cap of 500 ms"), "{v:?}");
        // Past its own hard cap, seat 0 times out too, at its cap.
        t.next_round().unwrap();
        t.settle(vec![
            Reply::new(Answer::NoAnswer, ms(1400)),
            Reply::new(Answer::Action(2), ms(1)),
        ]);
        let v = &t.verdicts()[1];
        assert_eq!((v.seat, v.kind()), (0, v1::VerdictKind::Timeout));
        assert_eq!(v.reason, "no answer within the hard cap of 1400 ms");
        let replay = play_out(t);
        let seat0: Vec<(u32, i64)> = replay
            .steps
            .iter()
            .filter(|s| s.seat == 0)
            .take(2)
            .map(|s| (s.elapsed_ms, s.penalty))
            .collect();
        // No penalty within its own limit; charged its own cap for the timeout.
        assert_eq!(seat0, [(900, 0), (1400, 4 + 7)]);
    }

    /// A seat with a first and a later limit of its own (a keep-running Botzone bot): the result
    /// records each seat's rules for its first and for its later decisions, every field filled,
    /// and each step the limit it was judged by, the seat's switching after its first decision.
    #[test]
    fn the_result_and_steps_record_the_clock_each_seat_and_decision_was_judged_by() {
        let mut t = table(Policy::PlayOn);
        let tables = *t.time();
        let (first, later) = (tables.with_own_limit(1000), tables.with_own_limit(400));
        assert_eq!((later.decision_ms, later.hard_cap_ms), (400, 800));
        t.set_seat_time(0, first);
        t.set_seat_later_time(0, later);
        assert_eq!(t.seat_time(0), &first, "not asked yet: its first limit");
        t.next_round().unwrap();
        // Seat 0 takes 900 ms: within its first limit. Seat 1 answers illegally: it plays on
        // automatically, its later decisions not put to it.
        t.settle(vec![
            Reply::new(Answer::Action(0), ms(900)),
            Reply::new(Answer::Action(9), ms(1)),
            Reply::new(Answer::Action(2), ms(1)),
        ]);
        assert_eq!(t.seat_time(0), &later, "asked once: its later limit");
        assert_eq!(t.seat_time(2), &tables);
        t.next_round().unwrap();
        // 450 ms: past the later limit by 50 ms, one started 100 ms.
        t.settle(vec![
            Reply::new(Answer::Action(0), ms(450)),
            Reply::new(Answer::Action(2), ms(1)),
        ]);
        t.next_round().unwrap();
        t.settle(vec![
            Reply::new(Answer::Action(0), ms(1)),
            Reply::new(Answer::Action(2), ms(1)),
        ]);
        assert!(t.next_round().is_none());
        let (result, replay) = t.finish(&v1::TableJob::default(), "test");
        let table_clock = tables.to_proto();
        let own = |decision_ms, hard_cap_ms| v1::TimeControl {
            decision_ms,
            hard_cap_ms,
            claim_ms: decision_ms,
            ..table_clock
        };
        assert_eq!(
            result.seat_time,
            [own(1000, 1400), table_clock, table_clock]
        );
        assert_eq!(
            result.seat_later_time,
            [own(400, 800), table_clock, table_clock]
        );
        let limits = |seat: u32| -> Vec<(u32, i64)> {
            replay
                .steps
                .iter()
                .filter(|s| s.seat == seat)
                .map(|s| (s.limit_ms, s.penalty))
                .collect()
        };
        assert_eq!(limits(0), [(1000, 0), (400, 1), (400, 0)]);
        // Seat 1's verdict was judged by the table's limit; its automatic decisions by none.
        assert_eq!(limits(1), [(100, 7), (0, 0), (0, 0)]);
        assert_eq!(limits(2), [(100, 0), (100, 0), (100, 0)]);
    }

    #[test]
    fn a_game_that_names_a_seat_the_table_lacks_ends_with_an_error_not_a_panic() {
        #[derive(Clone, Debug)]
        struct Broken;
        impl TableGame for Broken {
            type Action = ();
            type View<'a> = ();
            fn game(&self) -> &'static str {
                "broken"
            }
            fn seat_count(&self) -> usize {
                2
            }
            fn default_policy(&self) -> Policy {
                Policy::Forfeit
            }
            fn pending_into(&self, out: &mut Vec<Pending>) {
                out.push(Pending {
                    seat: 5,
                    kind: v1::DecisionKind::Play,
                })
            }
            fn view(&self, _: u32) {}
            fn observation_from(&self, _: u32, _: usize) -> v1::Observation {
                v1::Observation::default()
            }
            fn decode(&self, _: &Pending, _: &v1::Action) -> Result<(), Fault> {
                Ok(())
            }
            fn check(&self, _: &Pending, _: &()) -> Result<(), Fault> {
                Ok(())
            }
            fn encode(&self, _: &()) -> v1::Action {
                v1::Action::default()
            }
            fn automatic(&self, _: &Pending) {}
            fn apply(&mut self, _: &[(Pending, ())]) -> Result<(), String> {
                Ok(())
            }
            fn outcome(&self) -> Option<v1::Outcome> {
                None
            }
            fn forfeit(&self, _: u32) -> v1::Outcome {
                v1::Outcome::default()
            }
            fn record_history(&self, _: &mut v1::Replay) {}
        }
        let mut t = Table::new(Broken, TimeRules::default(), None);
        assert!(t.next_round().is_none());
        let (result, _) = t.finish(&v1::TableJob::default(), "test");
        assert!(
            result.error.contains("asked seat 5 of a 2-seat table"),
            "{}",
            result.error
        );
    }
}
