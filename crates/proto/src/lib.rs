//! arena's gRPC protocol, package `arena.v1` (the `.proto` files live in `proto/arena/v1/`):
//! generated code, the reflection service, the messages' canonical JSON ([`json`]) and
//! game-neutral [`text`] helpers. Conversions between
//! a game's messages and its rules engine live with the game, in crate `arena-games`.

#![allow(missing_docs)] // Generated code; every message and field is documented in the .proto files.

/// Generated messages and services of `arena.v1`.
pub mod v1 {
    tonic::include_proto!("arena.v1");
}

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

    /// A replay as JSON.
    pub fn replay(replay: &crate::v1::Replay) -> serde_json::Value {
        to_json(replay, "arena.v1.Replay")
            .expect("arena.v1.Replay is in the descriptor set the code is generated from")
    }

    #[cfg(test)]
    mod tests {
        use crate::v1;

        #[test]
        fn a_replay_is_the_canonical_mapping() {
            let r = v1::Replay {
                job: Some(v1::TableJob {
                    table_id: "t".into(),
                    game: v1::Game::DouDizhu as i32,
                    seed: 1 << 40,
                    ..Default::default()
                }),
                steps: vec![v1::ReplayStep {
                    seat: 1,
                    kind: v1::DecisionKind::Play as i32,
                    elapsed_ms: 12,
                    action: Some(v1::Action {
                        game: Some(v1::action::Game::Ddz(v1::DdzAction {
                            action: Some(v1::ddz_action::Action::Play("33".into())),
                        })),
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let j = super::replay(&r);
            assert_eq!(
                j["job"],
                serde_json::json!({"tableId": "t", "game": "GAME_DOU_DIZHU", "seed": "1099511627776"})
            );
            assert_eq!(
                j["steps"],
                serde_json::json!([{"seat": 1, "kind": "DECISION_KIND_PLAY", "action": {"ddz": {"play": "33"}}, "elapsedMs": 12}])
            );
            assert!(super::to_json(&r, "arena.v1.NoSuchThing").is_none());
        }
    }
}

pub mod text {
    //! Untrusted text in messages: what a bot wrote, quoted in a verdict or a notice, is cut to
    //! [`QUOTE_CHARS`] characters so no peer can grow a replay, a result or a log line with it.

    /// The most characters of a peer's text any message quotes.
    pub const QUOTE_CHARS: usize = 80;

    /// `text` cut to [`QUOTE_CHARS`] characters (with `…` when cut), without copying more.
    pub fn cut(text: &str) -> String {
        match text.char_indices().nth(QUOTE_CHARS) {
            None => text.to_string(),
            Some((end, _)) => format!("{}…", &text[..end]),
        }
    }

    /// `text` cut as [`cut`] does, in Rust debug quotes (control characters escaped).
    pub fn quote(text: &str) -> String {
        match text.char_indices().nth(QUOTE_CHARS) {
            None => format!("{text:?}"),
            Some((end, _)) => format!("{:?}…", &text[..end]),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

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
    //! its own. bot-host keeps a seat stream's events with [`History::absorb`] and cuts or
    //! makes whole what it sends with [`History::fill`]; a bot rebuilds the full observation
    //! with [`History::rebuild`], as the SDKs do for the bot's code.

    use crate::v1;
    use crate::v1::observation::Game;

    /// How many events `request`'s observation holds (0 without one).
    pub fn events_len(request: &v1::DecisionRequest) -> usize {
        match request.observation.as_ref().and_then(|o| o.game.as_ref()) {
            Some(Game::Ddz(o)) => o.events.len(),
            Some(Game::Mahjong(o)) => o.events.len(),
            None => 0,
        }
    }

    /// How many events the seat has seen through `request`: those its observation carries
    /// and those it leaves out (`events_from`).
    pub fn events_through(request: &v1::DecisionRequest) -> usize {
        let from = match request.observation.as_ref().and_then(|o| o.game.as_ref()) {
            Some(Game::Ddz(o)) => o.events_from,
            Some(Game::Mahjong(o)) => o.events_from,
            None => 0,
        };
        from as usize + events_len(request)
    }

    /// One seat's events so far, as a bot rebuilding incremental observations keeps them.
    ///
    /// Each request is recorded when it arrives, in the stream's order, whether or not its
    /// decision is still running when the next one comes: a seat whose decision outlived its
    /// deadline gets its next request while the late one is still being decided, and that
    /// next request continues what the late one carried.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct History {
        ddz: Vec<v1::DdzEvent>,
        mahjong: Vec<v1::MahjongEvent>,
    }

    impl History {
        /// Makes `request`'s observation whole and records it: a full one (`events_from` 0)
        /// starts the history afresh; an incremental one gets the events it leaves out put
        /// back in front and says 0, as a full one does. Fails, saying why, when the increment
        /// does not continue this history (the history is then emptied: only a full
        /// observation restarts it).
        pub fn rebuild(&mut self, request: &mut v1::DecisionRequest) -> Result<(), String> {
            let through = self.absorb(request)?;
            self.fill(request, 0, through);
            Ok(())
        }

        /// Records `request` as [`History::rebuild`] does, but moves its events into the
        /// history rather than copying them back: its observation is left without events
        /// (`events_from` as it was), to be filled again with [`History::fill`]. Returns how
        /// many events the seat has seen through the request.
        pub fn absorb(&mut self, request: &mut v1::DecisionRequest) -> Result<usize, String> {
            match request.observation.as_mut().and_then(|o| o.game.as_mut()) {
                Some(Game::Ddz(o)) => absorb(&mut self.ddz, &mut o.events, o.events_from),
                Some(Game::Mahjong(o)) => absorb(&mut self.mahjong, &mut o.events, o.events_from),
                None => Ok(0),
            }
        }

        /// Puts the history's events from index `from` up to `through` into `request`'s
        /// observation, in place of its own, with `events_from` saying `from`: from 0, the
        /// whole observation of a request that saw `through` events. Indexes past the history
        /// are cut to it.
        pub fn fill(&self, request: &mut v1::DecisionRequest, from: usize, through: usize) {
            match request.observation.as_mut().and_then(|o| o.game.as_mut()) {
                Some(Game::Ddz(o)) => {
                    fill(&self.ddz, &mut o.events, &mut o.events_from, from, through)
                }
                Some(Game::Mahjong(o)) => fill(
                    &self.mahjong,
                    &mut o.events,
                    &mut o.events_from,
                    from,
                    through,
                ),
                None => {}
            }
        }

        /// How many events the history holds.
        pub fn len(&self) -> usize {
            self.ddz.len() + self.mahjong.len()
        }

        /// True if it holds no event.
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
        } else if history.len() != from {
            let known = history.len();
            history.clear();
            return Err(format!(
                "an incremental observation continues after event {from}, but this seat has \
                 {known} events"
            ));
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
                    game: Some(Game::Ddz(v1::DdzObservation {
                        hand: "345".into(),
                        legal: vec!["pass".into(), "3".into()],
                        events: plays
                            .iter()
                            .map(|p| v1::DdzEvent {
                                seat: 1,
                                event: Some(v1::ddz_event::Event::Play((*p).into())),
                            })
                            .collect(),
                        events_from: from,
                        ..Default::default()
                    })),
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
            let mut first = request(&["3", "4"], 0);
            history.rebuild(&mut first).unwrap();
            assert_eq!(first, request(&["3", "4"], 0));
            assert_eq!(history.len(), 2);
            let mut next = cut.clone();
            history.rebuild(&mut next).unwrap();
            assert_eq!(next, full, "rebuilt, it is the whole request");
            assert_eq!(history.len(), 3, "recorded as it arrived");

            // An increment that does not continue what the seat holds.
            let mut gap = request(&["6"], 5);
            let e = history.rebuild(&mut gap).unwrap_err();
            assert!(
                e.contains("after event 5") && e.contains("has 3 events"),
                "{e}"
            );
            assert!(history.is_empty());
            let mut again = request(&["6"], 3);
            assert!(
                history.rebuild(&mut again).is_err(),
                "only a full one restarts it"
            );
        }

        #[test]
        fn increments_continue_while_an_earlier_request_is_still_being_decided() {
            // A seat whose decision outlived its deadline gets the next request while the late
            // one is still with its bot: each request counts from what arrived before it.
            let mut history = History::default();
            let mut late = request(&["3", "4"], 0);
            history.rebuild(&mut late).unwrap();
            let mut next = request(&["5"], 2);
            history.rebuild(&mut next).unwrap();
            let mut after = request(&["6", "7"], 3);
            history.rebuild(&mut after).unwrap();
            assert_eq!(late, request(&["3", "4"], 0), "the late one is left whole");
            assert_eq!(next, request(&["3", "4", "5"], 0));
            assert_eq!(after, request(&["3", "4", "5", "6", "7"], 0));
            let mut restart = request(&["9"], 0);
            history.rebuild(&mut restart).unwrap();
            assert_eq!(history.len(), 1, "a full observation starts afresh");
        }

        #[test]
        fn absorbed_requests_are_filled_again_whole_or_from_any_event() {
            let mut history = History::default();
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
        }
    }
}
