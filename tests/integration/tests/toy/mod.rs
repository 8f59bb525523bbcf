//! A toy game defined only here, in a test crate, and registered by the test at run time: the
//! proof that a game is an addition. Nothing in the platform names it.
//!
//! **High card**, five seats. Twenty cards numbered 1 to 20 are shuffled from the table's deal
//! seed and each seat is dealt three. In each of three rounds every seat plays one of its cards
//! at once; the highest card of the round wins it a point. A seat's score is five times its
//! points less all the points won (zero-sum). A seat that forfeits scores −4, the others 1.
//!
//! Its messages (package `arena.toy.v1`) are written by hand with prost's derive: a game needs
//! no `.proto` file in the platform's tree. Its line protocol: the host writes `hand 3 7 12`
//! then `play`; the program answers `play 7`; at the end the host writes `end S0 S1 S2 S3 S4`.

use std::collections::BTreeMap;

use arena_games::adapter::{self, TableAdapter};
use arena_games::competition::{self, Competitions, SpecError, index};
use arena_games::{
    BadRequest, Builtin, CheckedJob, Game, GameKind, Group, GroupScore, GroupTable, Ladder,
    Renderer, RequestBot, Variant,
};
use arena_line::{Framing, Heard, ProgramProtocol};
use arena_proto::payload;
use arena_proto::v1;
use arena_table::run::Player;
use arena_table::{Fault, JobError, LocalPlayer, Pending, Policy, TableGame, TableSpec};
use serde_json::{Value, json};

/// The toy's registered name.
pub const TOY_NAME: &str = "toy";
/// Seats at a table.
pub const SEATS: usize = 5;
/// Cards dealt to each seat, and so rounds played.
pub const ROUNDS: usize = 3;
/// Cards in the deck.
const DECK: u8 = 20;

/// The toy game's wire messages, package `arena.toy.v1`.
pub mod pb {
    macro_rules! named {
        ($t:ident) => {
            impl prost::Name for $t {
                const NAME: &'static str = stringify!($t);
                const PACKAGE: &'static str = "arena.toy.v1";
            }
        };
    }

    /// A seat's view: its cards and the rounds played so far.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Observation {
        #[prost(uint32, tag = "1")]
        pub seat: u32,
        #[prost(uint32, repeated, tag = "2")]
        pub hand: Vec<u32>,
        #[prost(string, repeated, tag = "3")]
        pub legal: Vec<String>,
        /// Empty on the wire: the envelope carries the events.
        #[prost(message, repeated, tag = "4")]
        pub events: Vec<Event>,
    }
    named!(Observation);

    /// A round played: every seat's card, by seat.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Event {
        #[prost(uint32, tag = "1")]
        pub round: u32,
        #[prost(uint32, repeated, tag = "2")]
        pub cards: Vec<u32>,
    }
    named!(Event);

    /// A card played.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Action {
        #[prost(uint32, tag = "1")]
        pub card: u32,
    }
    named!(Action);

    /// Points won, by seat.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Outcome {
        #[prost(uint32, repeated, tag = "1")]
        pub points: Vec<u32>,
    }
    named!(Outcome);

    /// A table's deal (0: the job's seed deals).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Setup {
        #[prost(uint64, tag = "1")]
        pub deal: u64,
    }
    named!(Setup);

    /// A finished table's rounds and the hands dealt (three cards a seat, in seat order).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct History {
        #[prost(message, repeated, tag = "1")]
        pub events: Vec<Event>,
        #[prost(uint32, repeated, tag = "2")]
        pub hands: Vec<u32>,
    }
    named!(History);

    /// A participant's totals in a competition.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Standing {
        #[prost(uint32, tag = "1")]
        pub tables: u32,
        #[prost(uint32, tag = "2")]
        pub points: u32,
    }
    named!(Standing);
}

/// SplitMix64: the toy's seeded generator (its deals and its random bot).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The five hands a deal seed deals.
pub fn deal(seed: u64) -> [Vec<u8>; SEATS] {
    let mut deck: Vec<u8> = (1..=DECK).collect();
    let mut s = seed;
    for i in (1..deck.len()).rev() {
        s = mix(s);
        deck.swap(i, (s % (i as u64 + 1)) as usize);
    }
    std::array::from_fn(|seat| {
        let mut hand = deck[seat * ROUNDS..(seat + 1) * ROUNDS].to_vec();
        hand.sort_unstable();
        hand
    })
}

/// A table of high card.
#[derive(Clone, Debug)]
pub struct ToyTable {
    dealt: [Vec<u8>; SEATS],
    hands: [Vec<u8>; SEATS],
    rounds: Vec<[u8; SEATS]>,
    points: [u32; SEATS],
}

impl ToyTable {
    fn new(deal_seed: u64) -> ToyTable {
        let dealt = deal(deal_seed);
        ToyTable {
            hands: dealt.clone(),
            dealt,
            rounds: Vec::new(),
            points: [0; SEATS],
        }
    }

    fn event(&self, round: usize) -> pb::Event {
        pb::Event {
            round: round as u32,
            cards: self.rounds[round].iter().map(|&c| u32::from(c)).collect(),
        }
    }
}

/// What a seat sees: its cards.
pub struct ToyView<'a> {
    /// Its cards, lowest first.
    pub hand: &'a [u8],
}

impl TableGame for ToyTable {
    type Action = u8;
    type View<'a> = ToyView<'a>;

    fn game(&self) -> &'static str {
        TOY.name()
    }

    fn seat_count(&self) -> usize {
        SEATS
    }

    fn default_policy(&self) -> Policy {
        Policy::PlayOn
    }

    fn pending_into(&self, out: &mut Vec<Pending>) {
        if self.rounds.len() < ROUNDS {
            out.extend((0..SEATS as u32).map(|seat| Pending {
                seat,
                kind: v1::DecisionKind::Play,
            }));
        }
    }

    fn view(&self, seat: u32) -> ToyView<'_> {
        ToyView {
            hand: &self.hands[seat as usize % SEATS],
        }
    }

    fn observation_from(&self, seat: u32, from: usize) -> v1::Observation {
        let hand = &self.hands[seat as usize % SEATS];
        let o = pb::Observation {
            seat,
            hand: hand.iter().map(|&c| u32::from(c)).collect(),
            legal: if self.rounds.len() < ROUNDS {
                hand.iter().map(|c| c.to_string()).collect()
            } else {
                Vec::new()
            },
            events: Vec::new(),
        };
        let events: Vec<pb::Event> = (from.min(self.rounds.len())..self.rounds.len())
            .map(|r| self.event(r))
            .collect();
        v1::Observation {
            game: Some(payload::pack(&o)),
            events: payload::encode_events(&events),
            events_from: from as u32,
        }
    }

    fn decode(&self, pending: &Pending, action: &v1::Action) -> Result<u8, Fault> {
        let a: pb::Action =
            payload::unpack(action.game.as_ref(), "the action").map_err(Fault::malformed)?;
        let card = u8::try_from(a.card)
            .map_err(|_| Fault::illegal(format!("card {} is not in the hand", a.card)))?;
        self.check(pending, &card)?;
        Ok(card)
    }

    fn check(&self, pending: &Pending, card: &u8) -> Result<(), Fault> {
        if self.hands[pending.seat as usize % SEATS].contains(card) {
            Ok(())
        } else {
            Err(Fault::illegal(format!("card {card} is not in the hand")))
        }
    }

    fn encode(&self, card: &u8) -> v1::Action {
        v1::Action {
            game: Some(payload::pack(&pb::Action {
                card: u32::from(*card),
            })),
        }
    }

    fn automatic(&self, pending: &Pending) -> u8 {
        self.hands[pending.seat as usize % SEATS][0]
    }

    fn apply(&mut self, actions: &[(Pending, u8)]) -> Result<(), String> {
        if actions.len() != SEATS {
            return Err(format!("{} cards for {SEATS} seats", actions.len()));
        }
        let mut round = [0u8; SEATS];
        for (p, card) in actions {
            let seat = p.seat as usize % SEATS;
            let hand = &mut self.hands[seat];
            let at = hand
                .iter()
                .position(|c| c == card)
                .ok_or_else(|| format!("seat {seat} holds no {card}"))?;
            hand.remove(at);
            round[seat] = *card;
        }
        let winner = (0..SEATS).max_by_key(|&s| round[s]).unwrap_or(0);
        self.points[winner] += 1;
        self.rounds.push(round);
        Ok(())
    }

    fn outcome(&self) -> Option<v1::Outcome> {
        (self.rounds.len() == ROUNDS).then(|| {
            let total: i64 = self.points.iter().map(|&p| i64::from(p)).sum();
            v1::Outcome {
                scores: self
                    .points
                    .iter()
                    .map(|&p| SEATS as i64 * i64::from(p) - total)
                    .collect(),
                scoring: "points".into(),
                game: Some(payload::pack(&pb::Outcome {
                    points: self.points.to_vec(),
                })),
            }
        })
    }

    fn forfeit(&self, seat: u32) -> v1::Outcome {
        v1::Outcome {
            scores: (0..SEATS as u32)
                .map(|s| if s == seat { -4 } else { 1 })
                .collect(),
            scoring: "points".into(),
            game: Some(payload::pack(&pb::Outcome {
                points: self.points.to_vec(),
            })),
        }
    }

    fn record_history(&self, replay: &mut v1::Replay) {
        let history = pb::History {
            events: (0..self.rounds.len()).map(|r| self.event(r)).collect(),
            hands: self.dealt.iter().flatten().map(|&c| u32::from(c)).collect(),
        };
        replay.history = Some(payload::pack(&history));
    }
}

/// The toy's one built-in bot: a card at random from the seat's hand.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomSpec;

impl std::fmt::Display for RandomSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("random")
    }
}

/// The random bot, in-process.
struct RandomBot {
    state: u64,
}

impl RandomBot {
    fn pick(&mut self, cards: usize) -> usize {
        self.state = mix(self.state);
        (self.state % cards.max(1) as u64) as usize
    }
}

impl LocalPlayer<ToyTable> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn start(&mut self, seat: u32, seed: u64) {
        self.state = mix(seed ^ u64::from(seat));
    }

    fn decide(&mut self, view: &ToyView<'_>, _pending: &Pending) -> u8 {
        let i = self.pick(view.hand.len());
        view.hand[i]
    }
}

impl RequestBot for RandomBot {
    fn decide(&mut self, req: &v1::DecisionRequest) -> Result<v1::Action, BadRequest> {
        let o: pb::Observation = payload::unpack(
            req.observation.as_ref().and_then(|o| o.game.as_ref()),
            "request.observation",
        )
        .map_err(BadRequest)?;
        if o.hand.is_empty() {
            return Err(BadRequest("request.observation.hand is empty".into()));
        }
        let i = self.pick(o.hand.len());
        Ok(v1::Action {
            game: Some(payload::pack(&pb::Action { card: o.hand[i] })),
        })
    }
}

/// The toy's line protocol for a program seat.
#[derive(Default)]
pub struct ToyProgram;

impl ProgramProtocol for ToyProgram {
    fn framing(&self) -> Framing {
        Framing::default()
    }

    fn greeting(&self) -> Option<&'static str> {
        None
    }

    fn read_greeting(&self, _line: &str) -> Result<Option<Option<String>>, String> {
        Ok(Some(None))
    }

    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        _deadline: std::time::Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        let o: pb::Observation = payload::unpack(
            request.observation.as_ref().and_then(|o| o.game.as_ref()),
            "request.observation",
        )?;
        let cards: Vec<String> = o.hand.iter().map(u32::to_string).collect();
        out.push(format!("hand {}", cards.join(" ")));
        out.push("play".into());
        Ok("play")
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        let card = text
            .trim()
            .strip_prefix("play ")
            .and_then(|c| c.trim().parse::<u32>().ok());
        match card {
            Some(card) if asked => Ok(Heard::Answer(v1::Action {
                game: Some(payload::pack(&pb::Action { card })),
            })),
            Some(_) => Ok(Heard::Nothing),
            None => Err(format!(
                "answered {} {context}: not `play N`",
                arena_line::quote(text)
            )),
        }
    }

    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        if let Some(o) = outcome {
            let scores: Vec<String> = o.scores.iter().map(i64::to_string).collect();
            out.push(format!("end {}", scores.join(" ")));
        }
    }
}

/// High card, as the platform sees it. Not a unit struct: each value has an address of its
/// own, so a second one under the same name is another game.
pub struct Toy {
    /// The game's title.
    pub title: &'static str,
}

/// The toy game.
pub static TOY: Toy = Toy {
    title: "High card (toy)",
};

/// The toy game's handle, once registered.
pub fn kind() -> GameKind {
    GameKind::register(&TOY).expect("the toy game registers")
}

impl Game for Toy {
    fn name(&self) -> &'static str {
        TOY_NAME
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn seat_count(&self) -> usize {
        SEATS
    }

    fn builtin(&self, name: &str) -> Option<Result<Builtin, String>> {
        adapter::builtin(&TOY, name)
    }

    fn builtin_help(&self) -> &'static str {
        "random"
    }

    fn program_protocol(&self, _seat: u32) -> Box<dyn ProgramProtocol> {
        Box::new(ToyProgram)
    }

    fn check(&'static self, job: &v1::TableJob) -> Result<CheckedJob, JobError> {
        adapter::check(&TOY, job)
    }

    fn legal(&self, observation: &v1::Observation) -> Vec<String> {
        payload::unpack::<pb::Observation>(observation.game.as_ref(), "")
            .map(|o| o.legal)
            .unwrap_or_default()
    }

    fn variants(&self) -> Vec<Variant> {
        vec![Variant {
            name: "default".into(),
            seed: 1,
            setup: None,
        }]
    }

    fn ladder(&self) -> Option<&dyn Ladder> {
        Some(self)
    }

    fn competitions(&self) -> Option<&dyn Competitions> {
        Some(self)
    }

    fn renderer(&self) -> Renderer {
        Renderer {
            file: "toy.js",
            source: "(function(){ArenaReplay.games.toy={render:function(){return null;},outcome:function(){return null;}};})();",
        }
    }

    fn render_action(&self, action: &v1::Action) -> String {
        payload::unpack::<pb::Action>(action.game.as_ref(), "")
            .map(|a| format!("card {}", a.card))
            .unwrap_or_default()
    }

    fn render_observation(&self, observation: &v1::Observation) -> Value {
        payload::unpack::<pb::Observation>(observation.game.as_ref(), "")
            .map_or(Value::Null, |o| json!({"seat": o.seat, "hand": o.hand}))
    }

    fn render_outcome(&self, outcome: &v1::Outcome) -> Value {
        payload::unpack::<pb::Outcome>(outcome.game.as_ref(), "")
            .map_or(Value::Null, |o| json!({"points": o.points}))
    }

    fn render_history(&self, replay: &v1::Replay) -> Value {
        let h: pb::History = payload::unpack(replay.history.as_ref(), "").unwrap_or_default();
        json!({"toy_rounds": h.events.iter().map(|e| e.cards.clone()).collect::<Vec<_>>()})
    }
}

impl TableAdapter for Toy {
    type Table = ToyTable;
    type Setup = u64;
    type Bot = RandomSpec;

    fn kind(&'static self) -> GameKind {
        GameKind::of(self)
    }

    fn read_setup(&self, job: &v1::TableJob) -> Result<u64, JobError> {
        let setup: pb::Setup = payload::unpack_or_default(job.setup.as_ref(), "the job's setup")
            .map_err(|e| JobError::new("job.setup", e))?;
        Ok(if setup.deal == 0 {
            job.seed
        } else {
            setup.deal
        })
    }

    fn rounding(&self) -> v1::PenaltyRounding {
        v1::PenaltyRounding::Started
    }

    fn parse_bot(&self, name: &str) -> Option<Result<RandomSpec, String>> {
        (name == "random").then_some(Ok(RandomSpec))
    }

    fn table(&self, spec: &TableSpec<u64, RandomSpec>) -> ToyTable {
        ToyTable::new(spec.setup)
    }

    fn local_bot(&self, _bot: &RandomSpec) -> Option<Player<ToyTable>> {
        Some(Box::new(RandomBot { state: 0 }))
    }

    fn request_bot(&self, _bot: &RandomSpec, seed: u64) -> Option<Box<dyn RequestBot>> {
        Some(Box::new(RandomBot { state: mix(seed) }))
    }
}

/// The toy's ladder: five bots at one table of a fresh deal; a bot's group score is its seat's.
impl Ladder for Toy {
    fn group_size(&self) -> usize {
        SEATS
    }

    fn state_key(&self) -> (&'static str, &'static str) {
        ("ladder", "toy")
    }

    fn competition(&self) -> &'static str {
        "ladder-toy"
    }

    fn table_suffixes(&self) -> &'static [&'static str] {
        &["t"]
    }

    fn tables(&self, group: &Group<'_>) -> Vec<GroupTable> {
        vec![GroupTable {
            suffix: "t",
            job: v1::TableJob {
                game: TOY.name().into(),
                seats: group
                    .bots
                    .iter()
                    .map(|b| v1::SeatSpec {
                        bot: (*b).to_string(),
                    })
                    .collect(),
                setup: Some(payload::pack(&pb::Setup {
                    deal: mix(group.deal_key ^ group.n).max(1),
                })),
                time: group.time,
                verdict_policy: group.verdict_policy as i32,
                seed: mix(group.seed ^ group.n),
                ..Default::default()
            },
        }]
    }

    fn score(&self, group: &Group<'_>, tables: &[v1::TableResult]) -> Result<GroupScore, String> {
        let [table] = tables else {
            return Err(format!("a group is one table, not {}", tables.len()));
        };
        if table.final_scores.len() != group.bots.len() {
            return Err("a score per seat".into());
        }
        Ok(GroupScore {
            scores: table.final_scores.iter().map(|&s| s as f64).collect(),
            release_at: (0..group.bots.len()).map(|seat| (0, seat)).collect(),
        })
    }
}

/// The seat participant `p` takes in rotation `r` of a deal.
fn seat_of(p: usize, r: usize) -> usize {
    (p + r) % SEATS
}

/// The toy's competitions: five participants; each match one deal played five times, the
/// seats rotated so every participant plays every hand.
impl Competitions for Toy {
    fn check(&self, spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<(), SpecError> {
        if spec.participants.len() != SEATS {
            return Err(SpecError::invalid(
                "spec.participants",
                format!("a toy competition has {SEATS} participants"),
            ));
        }
        if spec.rounds != 0 || spec.rotate_seats || spec.panel.is_some() {
            return Err(SpecError::invalid(
                "spec.rounds",
                "a toy match is one deal in five rotations",
            ));
        }
        if !spec.format.is_empty() && spec.format != "duplicate" {
            return Err(SpecError::invalid("spec.format", "the toy plays duplicate"));
        }
        spec.format = competition::format_name(v1::CompetitionFormat::Duplicate).into();
        spec.format_kind = v1::CompetitionFormat::Duplicate as i32;
        if u64::from(spec.matches) * SEATS as u64 > max_tables {
            return Err(SpecError::OutOfRange("too many tables".into()));
        }
        if spec.verdict_policy == v1::VerdictPolicy::Unspecified as i32 {
            spec.verdict_policy = v1::VerdictPolicy::PlayOn as i32;
        }
        competition::check_sample(&self.jobs(spec, &competition::Library::default())?[0])
    }

    fn jobs(
        &self,
        spec: &v1::CompetitionSpec,
        _library: &competition::Library,
    ) -> Result<Vec<v1::TableJob>, SpecError> {
        Ok((0..spec.matches as usize)
            .flat_map(|m| {
                let group = format!("{}/m{m}", spec.name);
                let deal_seed = mix(spec.seed ^ m as u64).max(1);
                (0..SEATS).map(move |r| {
                    let mut seats = vec![String::new(); SEATS];
                    for (p, name) in spec.participants.iter().enumerate() {
                        seats[seat_of(p, r)] = name.clone();
                    }
                    v1::TableJob {
                        table_id: format!("{group}/r{r}"),
                        game: TOY.name().into(),
                        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
                        setup: Some(payload::pack(&pb::Setup { deal: deal_seed })),
                        time: spec.time,
                        verdict_policy: spec.verdict_policy,
                        seed: mix(deal_seed ^ r as u64),
                        competition: spec.name.clone(),
                        labels: [(
                            arena_store::visibility::DEAL_GROUP_LABEL.to_string(),
                            group.clone(),
                        )]
                        .into(),
                        placement: Some(Box::new(v1::Placement {
                            match_index: index(m),
                            rotation: index(r),
                            deal_group: group.clone(),
                            deal_group_tables: SEATS as u32,
                            ..Default::default()
                        })),
                        lane: spec.lane.clone(),
                    }
                })
            })
            .collect())
    }

    fn standings(
        &self,
        spec: &v1::CompetitionSpec,
        results: &[v1::TableResult],
    ) -> competition::Standings {
        // Per participant, its final score at each table (a table counted once).
        let mut tables: BTreeMap<(u32, u32), &v1::TableResult> = BTreeMap::new();
        for r in results {
            if let Some(p) = r.placement.as_deref() {
                tables.entry((p.match_index, p.rotation)).or_insert(r);
            }
        }
        let n = spec.participants.len();
        let mut scores: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut points = vec![0u32; n];
        let mut verdicts = vec![0u32; n];
        for (&(_, r), result) in &tables {
            let won: pb::Outcome = result
                .outcome
                .as_ref()
                .and_then(|o| payload::unpack(o.game.as_ref(), "").ok())
                .unwrap_or_default();
            for p in 0..n {
                let seat = seat_of(p, r as usize);
                scores[p].push(result.final_scores.get(seat).copied().unwrap_or(0) as f64);
                points[p] += won.points.get(seat).copied().unwrap_or(0);
                verdicts[p] += result
                    .verdicts
                    .iter()
                    .filter(|v| v.seat as usize == seat)
                    .count() as u32;
            }
        }
        let estimates: Vec<arena_stats::Estimate> = scores
            .iter()
            .map(|s| arena_stats::Estimate::of(s.iter().copied()))
            .collect();
        let means: Vec<f64> = estimates.iter().map(|e| e.mean).collect();
        let shares = arena_stats::places(&means);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| means[b].total_cmp(&means[a]).then(a.cmp(&b)));
        let standings = order
            .iter()
            .enumerate()
            .map(|(place, &p)| v1::Standing {
                participant: spec.participants[p].clone(),
                place: place as u32 + 1,
                rank_probabilities: shares[p].clone(),
                most_probable_rank: place as u32 + 1,
                mean_rank: shares[p]
                    .iter()
                    .enumerate()
                    .map(|(k, s)| (k + 1) as f64 * s)
                    .sum(),
                mean_score: estimates[p].mean,
                score_ci95: estimates[p].ci95,
                game: Some(payload::pack(&pb::Standing {
                    tables: scores[p].len() as u32,
                    points: points[p],
                })),
                verdicts: verdicts[p],
            })
            .collect();
        competition::Standings {
            standings,
            drawn: 0,
        }
    }
}
