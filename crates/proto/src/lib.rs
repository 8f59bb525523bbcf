//! arena's gRPC protocol, package `arena.v1` (the `.proto` files live in `proto/arena/v1/`),
//! and each game's own messages (package `arena.<game>.v1`, in `proto/arena/<game>/v1/`, under
//! [`packages`]): generated code, the reflection service, the messages' canonical JSON
//! ([`json`]), the envelopes' game payloads ([`payload`]) and game-neutral [`text`] helpers.
//! Conversions between a game's messages and its rules engine live with the game, in crate
//! `arena-games`.

#![allow(missing_docs)] // Generated code; every message and field is documented in the .proto files.

/// Every generated package, by its proto package path: `packages::arena::v1` (the platform,
/// re-exported as [`v1`]) and `packages::arena::<game>::v1` (each game's messages).
pub mod packages {
    include!(concat!(env!("OUT_DIR"), "/packages.rs"));
}

/// Generated messages and services of `arena.v1`.
pub use packages::arena::v1;

pub mod payload;

/// The encoded file descriptor set of every arena proto file, for gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/arena_descriptor.bin"));

/// The gRPC reflection service every arena role serves: arena's own services and health, so
/// `grpcurl` and friends can list and call them without the `.proto` files.
pub fn reflection_service() -> Result<
    tonic_reflection::server::v1::ServerReflectionServer<
        impl tonic_reflection::server::v1::ServerReflection,
    >,
    tonic_reflection::server::Error,
> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()
}

pub mod coalesce;
pub mod retry;

pub mod json {
    //! The protocol's canonical JSON mapping of any arena message (lowerCamelCase names, enums
    //! by name, 64-bit integers as strings, fields at their default left out): what `arena
    //! competition replay --json` prints and the SDKs' replay readers write, the same as
    //! protobuf's own `json_format` gives in Python.

    use std::sync::OnceLock;

    use prost_reflect::{DescriptorPool, DynamicMessage};

    fn pool() -> &'static DescriptorPool {
        static POOL: OnceLock<DescriptorPool> = OnceLock::new();
        POOL.get_or_init(|| {
            DescriptorPool::decode(crate::FILE_DESCRIPTOR_SET)
                .expect("the descriptor set is compiled from the same protos as the code")
        })
    }

    /// `message` (of the protocol type `full_name`, e.g. `arena.v1.Replay`) as JSON. `None` if
    /// `full_name` is not a message of the protocol or `message` is not of that type.
    pub fn to_json(message: &impl prost::Message, full_name: &str) -> Option<serde_json::Value> {
        let descriptor = pool().get_message_by_name(full_name)?;
        let dynamic =
            DynamicMessage::decode(descriptor, message.encode_to_vec().as_slice()).ok()?;
        serde_json::to_value(&dynamic).ok()
    }

    /// An observation as the seat's bot sees it, as JSON: the game's observation message (its
    /// type from the `Any`'s URL) with the envelope's events decoded into its `events` (as the
    /// type of that field, read from the game's descriptors) and `eventsFrom` beside them.
    /// `None` when the observation holds no game message of the protocol's, or an event does not
    /// decode.
    pub fn observation(observation: &crate::v1::Observation) -> Option<serde_json::Value> {
        let game = observation.game.as_ref()?;
        let descriptor = pool().get_message_by_name(crate::payload::type_name(game))?;
        let mut dynamic = DynamicMessage::decode(descriptor.clone(), game.value.as_slice()).ok()?;
        if let Some(field) = descriptor.get_field_by_name("events") {
            let prost_reflect::Kind::Message(event) = field.kind() else {
                return None;
            };
            let mut events = Vec::with_capacity(observation.events.len());
            for bytes in &observation.events {
                let e = DynamicMessage::decode(event.clone(), bytes.as_ref()).ok()?;
                events.push(prost_reflect::Value::Message(e));
            }
            if let prost_reflect::Value::List(mut own) = dynamic.get_field(&field).into_owned() {
                own.extend(events);
                dynamic.set_field(&field, prost_reflect::Value::List(own));
            }
        }
        let mut json = serde_json::to_value(&dynamic).ok()?;
        if observation.events_from > 0 {
            json.as_object_mut()?
                .insert("eventsFrom".into(), observation.events_from.into());
        }
        Some(json)
    }

    /// A replay as JSON. A game's message whose type the protocol's files do not define (a game
    /// registered at run time, without a `.proto` in the tree) cannot be shown: it is left out,
    /// and its type is listed under `"unshown"`.
    pub fn replay(replay: &crate::v1::Replay) -> serde_json::Value {
        let mut shown = replay.clone();
        let unshown = drop_unknown(&mut shown);
        let mut json = to_json(&shown, "arena.v1.Replay")
            .expect("arena.v1.Replay is in the descriptor set the code is generated from");
        if let (false, Some(o)) = (unshown.is_empty(), json.as_object_mut()) {
            o.insert("unshown".into(), unshown.into());
        }
        json
    }

    /// Takes out of `replay` every game message whose type the pool lacks; their type names,
    /// each once.
    fn drop_unknown(replay: &mut crate::v1::Replay) -> Vec<String> {
        let mut unshown: Vec<String> = Vec::new();
        let mut check = |any: &mut Option<crate::payload::Any>| {
            let Some(a) = any else { return };
            let name = crate::payload::type_name(a);
            if pool().get_message_by_name(name).is_none() {
                if !unshown.iter().any(|u| u == name) {
                    unshown.push(crate::text::cut(name));
                }
                *any = None;
            }
        };
        if let Some(job) = &mut replay.job {
            check(&mut job.setup);
        }
        for step in &mut replay.steps {
            if let Some(a) = &mut step.action {
                check(&mut a.game);
            }
        }
        if let Some(o) = replay.result.as_mut().and_then(|r| r.outcome.as_mut()) {
            check(&mut o.game);
        }
        check(&mut replay.history);
        unshown
    }

    #[cfg(test)]
    mod tests {
        use crate::packages::arena::ddz::v1 as ddz;
        use crate::v1;

        #[test]
        fn a_replay_is_the_canonical_mapping() {
            let r = v1::Replay {
                job: Some(v1::TableJob {
                    table_id: "t".into(),
                    game: "ddz".into(),
                    seed: 1 << 40,
                    ..Default::default()
                }),
                steps: vec![v1::ReplayStep {
                    seat: 1,
                    kind: v1::DecisionKind::Play as i32,
                    elapsed_ms: 12,
                    action: Some(v1::Action {
                        game: Some(crate::payload::pack(&ddz::Action {
                            action: Some(ddz::action::Action::Play("33".into())),
                        })),
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let j = super::replay(&r);
            assert_eq!(
                j["job"],
                serde_json::json!({"tableId": "t", "game": "ddz", "seed": "1099511627776"})
            );
            assert_eq!(
                j["steps"],
                serde_json::json!([{"seat": 1, "kind": "DECISION_KIND_PLAY", "action": {"game": {"@type": "/arena.ddz.v1.Action", "play": "33"}}, "elapsedMs": 12}])
            );
            assert!(super::to_json(&r, "arena.v1.NoSuchThing").is_none());
        }

        /// The JSON of a replay's `Any`s parses back to the same message, with the short type
        /// URL arena writes and with the long one replays stored before it hold.
        #[test]
        fn an_any_prints_and_parses_with_the_short_type_url_and_the_long_one() {
            use prost::Message as _;
            let action = ddz::Action {
                action: Some(ddz::action::Action::Play("33".into())),
            };
            let short = crate::payload::pack(&action);
            let long = crate::payload::Any {
                type_url: format!("type.googleapis.com/{}", crate::payload::type_name(&short)),
                value: short.value.clone(),
            };
            let descriptor = super::pool()
                .get_message_by_name("arena.v1.Replay")
                .unwrap();
            for any in [short, long] {
                let r = v1::Replay {
                    steps: vec![v1::ReplayStep {
                        seat: 1,
                        action: Some(v1::Action {
                            game: Some(any.clone()),
                        }),
                        ..Default::default()
                    }],
                    history: Some(any.clone()),
                    ..Default::default()
                };
                let j = super::replay(&r);
                let printed = serde_json::json!({"@type": any.type_url, "play": "33"});
                assert_eq!(j["steps"][0]["action"]["game"], printed);
                assert_eq!(j["history"], printed);
                assert!(j.get("unshown").is_none(), "{j}");
                let parsed = prost_reflect::DynamicMessage::deserialize(descriptor.clone(), &j)
                    .unwrap_or_else(|e| panic!("{} does not parse: {e}", any.type_url));
                let back = v1::Replay::decode(parsed.encode_to_vec().as_slice()).unwrap();
                assert_eq!(back, r, "{}", any.type_url);
            }
        }

        #[test]
        fn a_replay_of_a_game_without_a_proto_file_shows_all_but_its_messages() {
            let unknown = crate::payload::Any {
                type_url: "/arena.elsewhere.v1.Action".into(),
                value: vec![8, 7],
            };
            let r = v1::Replay {
                job: Some(v1::TableJob {
                    table_id: "t".into(),
                    game: "elsewhere".into(),
                    ..Default::default()
                }),
                steps: vec![v1::ReplayStep {
                    seat: 2,
                    action: Some(v1::Action {
                        game: Some(unknown.clone()),
                    }),
                    ..Default::default()
                }],
                history: Some(unknown),
                ..Default::default()
            };
            let j = super::replay(&r);
            assert_eq!(j["job"]["game"], "elsewhere");
            assert_eq!(j["steps"][0]["seat"], 2);
            assert_eq!(
                j["unshown"],
                serde_json::json!(["arena.elsewhere.v1.Action"])
            );
        }
    }
}

pub mod text {
    //! Untrusted text in messages: what a bot wrote, quoted in a verdict or a notice, is cut to
    //! [`QUOTE_CHARS`] characters so no peer can grow a replay, a result or a log line with it.

    /// The most characters of a peer's text any message quotes.
    pub const QUOTE_CHARS: usize = 80;

    /// The most characters of a `SeatNote` (why a bot is silent, quoting what it wrote) a
    /// referee keeps, and bot-host sends.
    pub const NOTE_CHARS: usize = 500;

    /// `text` cut to [`QUOTE_CHARS`] characters (with `…` when cut), without copying more.
    pub fn cut(text: &str) -> String {
        match text.char_indices().nth(QUOTE_CHARS) {
            None => text.to_string(),
            Some((end, _)) => format!("{}…", &text[..end]),
        }
    }

    /// A protocol enum value's name without its type's prefix, lower case, `-` for `_`
    /// (`enum_short("DECISION_KIND_ROB_KONG", "DECISION_KIND_")` is `rob-kong`): how the
    /// console's pages and the CLI's printers name enum values.
    pub fn enum_short(name: &str, prefix: &str) -> String {
        name.strip_prefix(prefix)
            .unwrap_or(name)
            .to_ascii_lowercase()
            .replace('_', "-")
    }

    /// `text` cut as [`cut`] does, in Rust debug quotes (control characters escaped).
    pub fn quote(text: &str) -> String {
        match text.char_indices().nth(QUOTE_CHARS) {
            None => format!("{text:?}"),
            Some((end, _)) => format!("{:?}…", &text[..end]),
        }
    }

    /// The code points of Unicode general category Cf (format characters: bidirectional
    /// controls, zero-width characters, tags …), as inclusive ranges, per Unicode 15.1.
    const FORMAT: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
    ];

    /// Whether `c` is a Unicode format character (category Cf): invisible, yet it reorders or
    /// hides the text around it.
    pub fn is_format(c: char) -> bool {
        let c = u32::from(c);
        FORMAT
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    /// Checks a name shown to others (a bot's name or release, a competition's name): `Err`
    /// says which character is refused when it holds a control character or a format
    /// character (category Cf: bidirectional controls, zero-width characters), which would
    /// let it pose as another name on screen.
    pub fn check_shown(text: &str) -> Result<(), String> {
        match text.chars().find(|&c| c.is_control() || is_format(c)) {
            None => Ok(()),
            Some(c) if c.is_control() => Err(format!(
                "contains a control character (U+{:04X})",
                u32::from(c)
            )),
            Some(c) => Err(format!(
                "contains an invisible format character (U+{:04X}: a bidirectional control or \
                 zero-width character), which could make it look like another name",
                u32::from(c)
            )),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn names_with_control_or_format_characters_are_refused_by_code_point() {
            assert_eq!(check_shown("alpha 1.2-β"), Ok(()));
            for c in [
                '\u{202E}',
                '\u{2066}',
                '\u{200B}',
                '\u{200D}',
                '\u{FEFF}',
                '\u{061C}',
                '\u{E0041}',
                '\u{00AD}',
            ] {
                let e = check_shown(&format!("v1{c}2")).unwrap_err();
                assert!(e.contains(&format!("U+{:04X}", u32::from(c))), "{e}");
                assert!(e.contains("format character"), "{e}");
            }
            assert!(
                check_shown("a\nb")
                    .unwrap_err()
                    .contains("control character (U+000A)")
            );
            // Neighbours of the ranges are ordinary.
            for c in ['\u{200A}', '\u{2010}', '\u{2065}', '\u{FEFE}', 'A', '中'] {
                assert!(!is_format(c), "{c:?}");
            }
            assert!(
                FORMAT.windows(2).all(|w| w[0].1 < w[1].0),
                "sorted, disjoint"
            );
        }

        #[test]
        fn long_text_is_cut_short_text_kept() {
            assert_eq!(cut("play 33"), "play 33");
            let long = "é".repeat(1000);
            let c = cut(&long);
            assert_eq!(c.chars().count(), QUOTE_CHARS + 1);
            assert!(c.ends_with('…'));
            assert_eq!(quote("a\nb"), "\"a\\nb\"");
            assert!(quote(&long).len() < 200);
        }
    }
}

pub mod incremental {
    //! Incremental observations: a bot that says `Hello.incremental_observations` gets, after
    //! a seat's first request on a connection, only the events since the seat's previous
    //! request (`events_from` counting those left out), so a table's bytes grow with its length
    //! rather than its square. The referee's seat streams to bot-host carry increments the same
    //! way once bot-host says `SeatReady.incremental_observations`, each stream counting on
    //! its own. The events are the envelope's (`arena.v1.Observation.events`, each a game's
    //! event message, encoded), so none of this knows a game. bot-host keeps a seat stream's events in [`SeatEvents`] and cuts or makes
    //! whole what it sends from them; a bot rebuilds the full observation with
    //! [`History::rebuild`], as the SDKs do for the bot's code.

    use std::sync::{Arc, Weak};

    use bytes::Bytes;

    use crate::v1;

    /// How many events `request`'s observation holds (0 without one).
    pub fn events_len(request: &v1::DecisionRequest) -> usize {
        request.observation.as_ref().map_or(0, |o| o.events.len())
    }

    /// How many events the seat has seen through `request`: those its observation carries
    /// and those it leaves out (`events_from`).
    pub fn events_through(request: &v1::DecisionRequest) -> usize {
        let from = request.observation.as_ref().map_or(0, |o| o.events_from);
        from as usize + events_len(request)
    }

    /// One seat's events so far, as a bot rebuilding incremental observations keeps them.
    ///
    /// Each request is recorded when it arrives, in the stream's order, whether or not an
    /// earlier one is still being decided: a seat whose decision outlived its deadline, or a
    /// table played twice at once, gets its next request while the last one is still with its
    /// bot, and that next request continues what the last one carried. The events are not
    /// copied per request: [`History::rebuild`] moves them into the request it returns, and
    /// [`History::restore`] takes them back from it once it is decided. Only a request that
    /// arrives while the last one is still out copies that one's events.
    #[derive(Debug, Default)]
    pub struct History {
        events: Vec<Bytes>,
        /// The request holding the events, while it is out: how many it holds, and it.
        lent: Option<(usize, Weak<v1::DecisionRequest>)>,
    }

    impl History {
        /// Makes `request`'s observation whole and records it: a full one (`events_from` 0)
        /// starts the history afresh; an incremental one gets the events it leaves out put
        /// back in front and says 0, as a full one does. Fails, saying why, when the increment
        /// does not continue this history (the history is then emptied: only a full
        /// observation restarts it).
        pub fn rebuild(
            &mut self,
            mut request: v1::DecisionRequest,
        ) -> Result<Arc<v1::DecisionRequest>, String> {
            let known = self.len();
            let out = self.lent.take().and_then(|(_, r)| r.upgrade());
            let whole = match request.observation.as_mut() {
                Some(o) => join(
                    &mut self.events,
                    out.as_deref().map(events),
                    known,
                    &mut o.events,
                    &mut o.events_from,
                ),
                None => Ok(0),
            };
            // Whether it continued or not, the events are the request's now (or gone).
            self.events.clear();
            let len = whole?;
            let request = Arc::new(request);
            self.lent = Some((len, Arc::downgrade(&request)));
            Ok(request)
        }

        /// Takes back the events of `request`, decided, if it is the one that holds them (a
        /// later request has them otherwise) and nobody else holds it.
        pub fn restore(&mut self, request: Arc<v1::DecisionRequest>) {
            let holds = self
                .lent
                .as_ref()
                .is_some_and(|(_, r)| std::ptr::eq(r.as_ptr(), Arc::as_ptr(&request)));
            if !holds {
                return;
            }
            // Another holder still reads it: the history stays with it (copied when needed).
            let Ok(mut request) = Arc::try_unwrap(request) else {
                return;
            };
            self.lent = None;
            if let Some(o) = request.observation.as_mut() {
                self.events = std::mem::take(&mut o.events);
            }
        }

        /// How many events the history holds (with those lent to the request that has them).
        pub fn len(&self) -> usize {
            match &self.lent {
                Some((len, r)) if r.strong_count() > 0 => *len,
                Some(_) => 0,
                None => self.events.len(),
            }
        }

        /// True if it holds no event.
        pub fn is_empty(&self) -> bool {
            self.len() == 0
        }
    }

    /// A digest of `request` that tells it from another request of the same table, seat and
    /// id (a table played twice at once asks the same ids of positions that may differ): what
    /// a bot keeps of a request it answered, whose events go back to its history. It covers
    /// the id, the kind, the game's observation without its events (the hand, the legal
    /// answers …), the number of events and the last one, so it costs no copy of the history.
    pub fn fingerprint(request: &v1::DecisionRequest) -> u64 {
        use std::hash::{Hash as _, Hasher as _};
        let mut h = std::hash::DefaultHasher::new();
        (
            &request.table_id,
            request.seat,
            request.request_id,
            request.kind,
        )
            .hash(&mut h);
        if let Some(o) = &request.observation {
            o.game
                .as_ref()
                .map(|g| (&g.type_url, &g.value))
                .hash(&mut h);
            (o.events.len(), o.events.last()).hash(&mut h);
        }
        h.finish()
    }

    fn events(r: &v1::DecisionRequest) -> &[Bytes] {
        r.observation.as_ref().map_or(&[], |o| &o.events)
    }

    /// Whether an incremental observation that starts after event `from` continues a seat
    /// that has seen `known` events: the one check (and message) of a bot's history and of
    /// bot-host's copy of a stream.
    fn continues(from: usize, known: usize) -> Result<(), String> {
        if known == from {
            return Ok(());
        }
        Err(format!(
            "an incremental observation continues after event {from}, but this seat has {known} \
             events"
        ))
    }

    /// Puts the `known` events before `events` (from `owned`, or copied from `out`, the request
    /// still holding them), unless the observation is a full one; the whole length.
    fn join<E: Clone>(
        owned: &mut Vec<E>,
        out: Option<&[E]>,
        known: usize,
        events: &mut Vec<E>,
        events_from: &mut u32,
    ) -> Result<usize, String> {
        let from = *events_from as usize;
        if from == 0 {
            return Ok(events.len());
        }
        continues(from, known)?;
        let mut whole = match out {
            Some(out) => out.to_vec(),
            None => std::mem::take(owned),
        };
        whole.append(events);
        *events = whole;
        *events_from = 0;
        Ok(events.len())
    }

    /// One seat's events as a seat stream carried them, kept whole: what bot-host keeps of
    /// each stream, whose requests it keeps without their events until they are answered (or
    /// resent whole), and cuts for bots that asked for incremental observations.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct SeatEvents {
        events: Vec<Bytes>,
    }

    impl SeatEvents {
        /// Makes `request`'s observation whole and records it, as [`History::rebuild`] does,
        /// keeping a copy of the events: a full one (`events_from` 0) starts afresh, an
        /// incremental one must continue what is kept. Fails, saying why, when it does not
        /// (what was kept is then dropped: only a full observation starts again).
        pub fn rebuild(&mut self, request: &mut v1::DecisionRequest) -> Result<(), String> {
            let through = self.absorb(request)?;
            self.fill(request, 0, through);
            Ok(())
        }

        /// Records `request` as [`SeatEvents::rebuild`] does, but moves its events in rather
        /// than copying them back: its observation is left without events (`events_from` as it
        /// was), to be filled again with [`SeatEvents::fill`]. Returns how many events the seat
        /// has seen through the request.
        pub fn absorb(&mut self, request: &mut v1::DecisionRequest) -> Result<usize, String> {
            match request.observation.as_mut() {
                Some(o) => absorb(&mut self.events, &mut o.events, o.events_from),
                None => Ok(0),
            }
        }

        /// Puts the kept events from index `from` up to `through` into `request`'s
        /// observation, in place of its own, with `events_from` saying `from`: from 0, the
        /// whole observation of a request that saw `through` events. Indexes past what is kept
        /// are cut to it.
        pub fn fill(&self, request: &mut v1::DecisionRequest, from: usize, through: usize) {
            if let Some(o) = request.observation.as_mut() {
                fill(
                    &self.events,
                    &mut o.events,
                    &mut o.events_from,
                    from,
                    through,
                )
            }
        }

        /// How many events are kept.
        pub fn len(&self) -> usize {
            self.events.len()
        }

        /// True if none is.
        pub fn is_empty(&self) -> bool {
            self.len() == 0
        }
    }

    fn absorb<E>(
        history: &mut Vec<E>,
        events: &mut Vec<E>,
        events_from: u32,
    ) -> Result<usize, String> {
        let from = events_from as usize;
        if from == 0 {
            history.clear();
        } else if let Err(e) = continues(from, history.len()) {
            history.clear();
            return Err(e);
        }
        if history.is_empty() {
            std::mem::swap(history, events);
        } else {
            history.append(events);
        }
        Ok(history.len())
    }

    fn fill<E: Clone>(
        history: &[E],
        events: &mut Vec<E>,
        events_from: &mut u32,
        from: usize,
        through: usize,
    ) {
        let through = through.min(history.len());
        let from = from.min(through);
        events.clear();
        events.extend_from_slice(&history[from..through]);
        *events_from = u32::try_from(from).unwrap_or(u32::MAX);
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn request(plays: &[&str], from: u32) -> v1::DecisionRequest {
            v1::DecisionRequest {
                request_id: 7,
                table_id: "t".into(),
                observation: Some(v1::Observation {
                    game: Some(crate::payload::Any {
                        type_url: "/arena.anygame.v1.Observation".into(),
                        value: b"hand 345".to_vec(),
                    }),
                    events: plays
                        .iter()
                        .map(|p| Bytes::copy_from_slice(p.as_bytes()))
                        .collect(),
                    events_from: from,
                }),
                ..Default::default()
            }
        }

        #[test]
        fn increments_rebuild_the_whole_observation_and_a_gap_is_refused() {
            let full = request(&["3", "4", "5"], 0);
            let cut = request(&["5"], 2);
            assert_eq!(events_len(&full), 3);
            assert_eq!(events_through(&cut), 3, "the events left out count");

            let mut history = History::default();
            let first = history.rebuild(request(&["3", "4"], 0)).unwrap();
            assert_eq!(*first, request(&["3", "4"], 0));
            assert_eq!(history.len(), 2);
            history.restore(first);
            assert_eq!(history.len(), 2, "taken back once decided");
            let next = history.rebuild(cut.clone()).unwrap();
            assert_eq!(*next, full, "rebuilt, it is the whole request");
            history.restore(next);
            assert_eq!(history.len(), 3);

            // An increment that does not continue what the seat holds.
            let e = history.rebuild(request(&["6"], 5)).unwrap_err();
            assert!(
                e.contains("after event 5") && e.contains("has 3 events"),
                "{e}"
            );
            assert!(history.is_empty());
            assert!(
                history.rebuild(request(&["6"], 3)).is_err(),
                "only a full one restarts it"
            );
        }

        #[test]
        fn increments_continue_while_an_earlier_request_is_still_being_decided() {
            // A seat whose decision outlived its deadline gets the next request while the late
            // one is still with its bot: each request counts from what arrived before it.
            let mut history = History::default();
            let late = history.rebuild(request(&["3", "4"], 0)).unwrap();
            let next = history.rebuild(request(&["5"], 2)).unwrap();
            assert_eq!(history.len(), 3, "recorded as it arrived");
            // The late one is decided now: the history is with the next one.
            history.restore(late.clone());
            assert_eq!(*late, request(&["3", "4"], 0), "the late one is left whole");
            let after = history.rebuild(request(&["6", "7"], 3)).unwrap();
            assert_eq!(*next, request(&["3", "4", "5"], 0));
            assert_eq!(*after, request(&["3", "4", "5", "6", "7"], 0));
            // The next one is decided after the one that followed it arrived: nothing comes back.
            history.restore(next);
            history.restore(after);
            assert_eq!(history.len(), 5);
            let last = history.rebuild(request(&["8"], 5)).unwrap();
            assert_eq!(*last, request(&["3", "4", "5", "6", "7", "8"], 0));
            let restart = history.rebuild(request(&["9"], 0)).unwrap();
            assert_eq!(*restart, request(&["9"], 0));
            assert_eq!(history.len(), 1, "a full observation starts afresh");
            drop(restart);
            assert!(
                history.is_empty(),
                "a request dropped without being restored takes its events with it"
            );
        }

        #[test]
        fn absorbed_requests_are_filled_again_whole_or_from_any_event() {
            let mut history = SeatEvents::default();
            let mut first = request(&["3", "4"], 0);
            assert_eq!(history.absorb(&mut first), Ok(2));
            assert_eq!(first, request(&[], 0), "its events moved into the history");
            let mut next = request(&["5", "6"], 2);
            assert_eq!(history.absorb(&mut next), Ok(4));
            assert_eq!(next, request(&[], 2));

            // The first request as it was, whole, though the history has grown since.
            history.fill(&mut first, 0, 2);
            assert_eq!(first, request(&["3", "4"], 0));
            history.fill(&mut next, 0, 4);
            assert_eq!(next, request(&["3", "4", "5", "6"], 0));
            // Cut from any event, and past the end to what there is.
            history.fill(&mut next, 1, 3);
            assert_eq!(next, request(&["4", "5"], 1));
            history.fill(&mut next, 3, 9);
            assert_eq!(next, request(&["6"], 3));

            // A gap is refused and empties the history; a whole request restarts it.
            assert!(history.absorb(&mut request(&["7"], 5)).is_err());
            assert!(history.is_empty());
            assert_eq!(history.absorb(&mut request(&["9"], 0)), Ok(1));
            let mut more = request(&["8"], 1);
            history.rebuild(&mut more).unwrap();
            assert_eq!(more, request(&["9", "8"], 0), "made whole, and kept");
            assert_eq!(history.len(), 2);
        }
    }
}
