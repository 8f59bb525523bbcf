//! A Botzone bot in C++, written in Botzone's own style (`#include "jsoncpp/json.h"`, one JSON
//! line in, one JSON object out, the process started afresh every turn), built by `arena bots
//! add --botzone` the way Botzone builds it and playing an IJCAI Chinese Standard Mahjong
//! competition through the four roles as separate processes on Redis: every table finished,
//! counted once, without a verdict, and the bot's `data` carried from turn to turn.

mod common;

use std::time::Duration;

use common::{Cluster, assert_counted_once_and_blameless, unique_prefix};

const REDIS: &str = "redis://127.0.0.1:6379";

/// Discards each tile it draws, passes on every other turn; keeps in `data` how many requests
/// it had when it last ran, and gives up with an empty output when the `data` it is handed
/// cannot be the one it left (so a lost or garbled `data` is a verdict, which the test
/// forbids).
const BOT: &str = r#"#include <iostream>
#include <sstream>
#include <string>
#include "jsoncpp/json.h"

int main() {
#ifndef _BOTZONE_ONLINE
    return 2; // built without Botzone's define
#endif
    Json::Value input;
    std::cin >> input;
    int turn = input["responses"].size();
    if (input.isMember("data")) {
        // The data it left when it last ran: the number of requests it had then (turns the
        // arena answered PASS for it came after, without running it).
        int then = std::stoi(input["data"].asString());
        if (then < 1 || then > turn) return 0;
    } else {
        // Never ran before: every earlier response is a PASS the arena gave for it.
        for (const auto& r : input["responses"]) {
            if (r.asString() != "PASS") return 0;
        }
    }
    std::istringstream request(input["requests"][turn].asString());
    int kind = -1;
    request >> kind;
    Json::Value out;
    if (kind == 2) {
        std::string tile;
        request >> tile;
        out["response"] = "PLAY " + tile;
    } else {
        out["response"] = "PASS";
    }
    out["data"] = std::to_string(turn + 1);
    Json::FastWriter writer;
    std::cout << writer.write(out);
    return 0;
}
"#;

#[test]
fn a_cpp_botzone_bot_built_the_botzone_way_plays_an_ijcai_competition_on_the_roles_on_redis() {
    let prefix = unique_prefix("botzone-cpp");
    // Readable and executable by the sandbox's user: not under a private directory.
    let dir = common::readable_dir("botzone-cpp");
    let source = dir.path().join("discarder.cpp");
    std::fs::write(&source, BOT).unwrap();
    let built = dir.path().join("built");
    let store = Cluster::store_args(REDIS, &prefix);
    let store: Vec<&str> = store.iter().map(String::as_str).collect();
    let (out, err, ok) = common::arena(
        &[
            &[
                "bots",
                "add",
                "discarder",
                "--game",
                "mcr",
                "--botzone",
                source.to_str().unwrap(),
                "--botzone-dir",
                built.to_str().unwrap(),
            ][..],
            &store,
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("built C++ bot") && out.contains("1000 ms per turn"),
        "{out}"
    );
    assert!(built.join("bot").is_file());

    let cluster = Cluster::start(REDIS, &prefix, 1, &[]);
    cluster.wait_serving(Duration::from_secs(120));
    let participants = ["discarder", "efficiency", "fan", "random"];
    let client = cluster.create(&[
        "--game",
        "mcr",
        "--name",
        "bz",
        "--participants",
        &participants.join(","),
        "--walls",
        "1",
        "--seed",
        "7",
    ]);
    let total = cluster.wait_finished("bz", Duration::from_secs(300));
    drop(client);
    assert_eq!(total, 24, "one wall at all 24 seatings");
    let replays = cluster.replays("bz");
    assert_counted_once_and_blameless(&replays, total);
    // Every decision of the Botzone bot was its own answer, none made for it.
    let mut its_steps = 0;
    for r in &replays {
        let job = r.job.as_ref().unwrap();
        let seat = job.seats.iter().position(|s| s.bot == "discarder").unwrap() as u32;
        for s in r.steps.iter().filter(|s| s.seat == seat) {
            assert!(!s.automatic, "{:?}", r.result.as_ref().unwrap().table_id);
            its_steps += 1;
        }
    }
    assert!(its_steps > 24, "the bot decided only {its_steps} times");
    let st = cluster.standings("bz");
    assert!(st.r#final, "{st:?}");
    assert_eq!(st.standings.len(), participants.len());
}
