//! Dou Dizhu bots written in the styles of the field, for the tests that seat them: a Botzone
//! FightTheLandlord / FightTheLandlord2 bot in Python and in C++ (Botzone's
//! `#include "jsoncpp/json.h"`), and a championship engine in Python. Each plays the same simple
//! way: it rebuilds its hand from what it was told, calls 0, leads its lowest card and follows a
//! single with its lowest higher single, else passes.

/// A Botzone bot in Python (JSON interaction). `__KEEP__` (`True`/`False`) makes it keep
/// running; `__FAULT__` picks a misbehaviour:
///
/// - `missing`: plays a card it does not hold;
/// - `twocards`: leads two cards of different ranks (no card type) when it can;
/// - `hog`: at its first play turn allocates 512 MiB (past Botzone's 256 MiB);
/// - `nomarker`: keeps running (reads its next request) but never prints the keep-running
///   marker after its answer;
/// - `slow`: takes 1.5 s over the first decision of each game (a bot started afresh each turn
///   is slow once a game).
///
/// It also checks what it is told, as a witness that no request shows another seat's hidden
/// cards: every card code others play must be new to it and not one of its own, and no seat
/// may show more cards than it holds (20 for the landlord, 17 for a farmer, on
/// FightTheLandlord2 where `pos` and `landlord` say who is who). On a breach it answers
/// `"LEAK: …"`, which is no response of the game: a verdict against it, quoting the breach.
pub const BOTZONE_BOT: &str = r#"
import json, sys, time
KEEP = __KEEP__
FAULT = "__FAULT__"

def rank(c):
    return c // 4 if c < 52 else c - 39

def leak(requests, responses):
    hand, seen, shown = set(), set(), {}
    me = landlord = None
    for i, req in enumerate(requests):
        if "bid" in req:
            hand, seen, shown = set(), set(), {}  # a bidding request: a (re)deal
        if "own" in req:
            hand |= set(req["own"])
        if "pos" in req:
            me, landlord = req["pos"], req["landlord"]
        for k, play in enumerate(req.get("history", [])):
            for c in play:
                if c in hand or c in seen:
                    return "card %d shown twice or one of mine" % c
                seen.add(c)
            if me is not None:
                who = (me + 1 + k) % 3
                shown[who] = shown.get(who, 0) + len(play)
                if shown[who] > (20 if who == landlord else 17):
                    return "seat %d showed %d cards" % (who, shown[who])
    return None

def decide(requests, responses):
    if FAULT == "slow" and len(requests) == 1:
        time.sleep(1.5)
    hand, start = [], 0
    for i, req in enumerate(requests):
        if "own" in req:
            hand = list(req["own"])
            # FightTheLandlord2 gives the landlord its 17 cards and the public ones apart.
            if "landlord" in req and req["landlord"] == req["pos"]:
                hand += req["publiccard"]
            start = i
    for r in responses[start:]:
        if isinstance(r, list):
            for c in r:
                hand.remove(c)
    req = requests[-1]
    if "history" not in req:
        return 0
    why = leak(requests, responses)
    if why:
        return "LEAK: " + why
    if FAULT == "missing":
        return [c for c in range(54) if c not in hand][:1]
    if FAULT == "hog":
        hog = bytearray(512 << 20)
        hog[-1] = 1
    hand.sort(key=lambda c: (rank(c), c))
    to_beat = req["history"][1] or req["history"][0]
    if not to_beat and FAULT == "twocards":
        ranks = sorted(set(rank(c) for c in hand))
        if len(ranks) >= 2:
            return [[c for c in hand if rank(c) == r][0] for r in ranks[:2]]
    if not to_beat:
        return [hand[0]]
    if len(to_beat) == 1:
        return [c for c in hand if rank(c) > rank(to_beat[0])][:1]
    return []

first = json.loads(sys.stdin.readline())
requests, responses = first["requests"], first["responses"]
while True:
    out = decide(requests, responses)
    print(json.dumps({"response": out, "debug": "ok"}), flush=True)
    if not KEEP:
        break
    if FAULT != "nomarker":
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    responses.append(out)
    line = sys.stdin.readline()
    if not line:
        break
    requests.append(json.loads(line))
"#;

/// A FightTheLandlord2 bot in C++ in Botzone's own style: `#include "jsoncpp/json.h"`, the whole
/// input read with `std::cin >>`, one JSON object written with `Json::FastWriter`, started afresh
/// every turn. It refuses to run when not built with Botzone's `-D_BOTZONE_ONLINE`.
pub const BOTZONE_CPP_BOT: &str = r#"#include <algorithm>
#include <iostream>
#include <vector>
#include "jsoncpp/json.h"

static int rank_of(int c) { return c < 52 ? c / 4 : c - 39; }

int main() {
#ifndef _BOTZONE_ONLINE
    return 2; // built without Botzone's define
#endif
    Json::Value input;
    std::cin >> input;
    const Json::Value& requests = input["requests"];
    const Json::Value& responses = input["responses"];
    unsigned n = requests.size();
    std::vector<int> hand;
    unsigned start = 0;
    for (unsigned i = 0; i < n; i++) {
        const Json::Value& req = requests[i];
        if (!req.isMember("own")) continue;
        hand.clear();
        for (const auto& c : req["own"]) hand.push_back(c.asInt());
        if (req.isMember("landlord") && req["landlord"].asInt() == req["pos"].asInt())
            for (const auto& c : req["publiccard"]) hand.push_back(c.asInt());
        start = i;
    }
    for (unsigned i = start; i < responses.size(); i++) {
        if (!responses[i].isArray()) continue;
        for (const auto& c : responses[i]) {
            auto at = std::find(hand.begin(), hand.end(), c.asInt());
            if (at != hand.end()) hand.erase(at);
        }
    }
    const Json::Value& req = requests[n - 1];
    Json::Value out;
    if (!req.isMember("history")) {
        out["response"] = 0;
    } else {
        std::sort(hand.begin(), hand.end(), [](int a, int b) {
            return rank_of(a) != rank_of(b) ? rank_of(a) < rank_of(b) : a < b;
        });
        const Json::Value& h = req["history"];
        const Json::Value& to_beat = h[1].size() ? h[1] : h[0];
        Json::Value play(Json::arrayValue);
        if (to_beat.size() == 0) {
            play.append(hand[0]);
        } else if (to_beat.size() == 1) {
            for (int c : hand) {
                if (rank_of(c) > rank_of(to_beat[0].asInt())) {
                    play.append(c);
                    break;
                }
            }
        }
        out["response"] = play;
    }
    out["debug"] = "cpp";
    Json::FastWriter writer;
    std::cout << writer.write(out);
    return 0;
}
"#;

/// A championship engine in Python, in the protocol's own style: it acknowledges every line,
/// keeps its hand, calls 0, and exits after `GAMEOVER`. `__FAULT__` picks a misbehaviour:
/// `silent` (never answers a play question), `garbage` (answers one with an unknown command),
/// `illegal` (leads two cards of different ranks), `info` (answers a play question with
/// `HELLO` and what `INFO` said, which its verdict quotes).
///
/// Or it plays a turn of rounds on one process (it plays on after `GAMEOVER`) and checks that
/// it does: it answers a play question with `HELLO round R: D deals since DOUDIZHUVER in round
/// S` unless its count `D` of `DEAL`s since `DOUDIZHUVER` (told in round `S`) is what one
/// process per turn makes it in round `R` (of `INFO`), `R - S + 1`. `turn`: a process must
/// start in round 1; `turn-exit`: the same, but it exits after `GAMEOVER`, so every round but
/// the first finds a fresh process; `turn2`: it answers `HELLO THERE` in round 2, and a fresh
/// process may start in round 3.
pub const CHAMPIONSHIP_ENGINE: &str = r#"
import sys
FAULT = "__FAULT__"
me = None
info = None
hand = []
last = None  # (letter, codes) of the last play that was not a pass
deals, started, rnd = 0, None, None  # since DOUDIZHUVER: DEALs, INFO's first round; the round

def turn_fault():
    if not FAULT.startswith("turn"):
        return None
    starts = (1, 3) if FAULT == "turn2" else (1,)
    if started not in starts or deals != rnd - started + 1:
        return "HELLO round %d: %d deals since DOUDIZHUVER in round %d" % (rnd, deals, started)
    if FAULT == "turn2" and rnd == 2:
        return "HELLO THERE"
    return None

def rank(c):
    return c // 4 if c < 52 else c - 39

def say(s):
    print(s, flush=True)

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    cmd, _, arg = line.partition(" ")
    if cmd == "DOUDIZHUVER":
        deals, started = 0, None
        say("NAME tiny")
    elif cmd == "INFO":
        info = arg
        rnd = int(arg.split(",")[2])
        if started is None:
            started = rnd
        say("OK INFO")
    elif cmd == "DEAL":
        deals += 1
        me = arg[0]
        hand = [int(x) for x in arg[1:].split(",")]
        last = None
        say("OK DEAL")
    elif cmd == "BID":
        if arg == "WHAT":
            say("BID %s0" % me)
        else:
            say("OK BID")
    elif cmd == "LEFTOVER":
        cards = [int(x) for x in arg[1:].split(",")]
        if arg[0] == me:
            hand += cards
        say("OK LEFTOVER")
    elif cmd == "PLAY" and arg == "WHAT":
        if FAULT == "silent":
            continue
        if FAULT == "garbage":
            say("HELLO THERE")
            continue
        if FAULT == "info":
            # Quotes what INFO said, through the verdict of an unknown line.
            say("HELLO " + info)
            continue
        why = turn_fault()
        if why:
            say(why)
            continue
        hand.sort(key=lambda c: (rank(c), c))
        if FAULT == "illegal" and last is None or FAULT == "illegal" and last[0] == me:
            ranks = sorted(set(rank(c) for c in hand))
            if len(ranks) >= 2:
                a = [c for c in hand if rank(c) == ranks[0]][0]
                b = [c for c in hand if rank(c) == ranks[1]][0]
                say("PLAY %s%d,%d" % (me, a, b))
                continue
        if last is None or last[0] == me:
            play = [hand[0]]
        elif len(last[1]) == 1:
            higher = [c for c in hand if rank(c) > rank(last[1][0])]
            play = higher[:1]
        else:
            play = []
        if play:
            for c in play:
                hand.remove(c)
            last = (me, play)
            say("PLAY %s%s" % (me, ",".join(str(c) for c in play)))
        else:
            say("PLAY %s-1" % me)
    elif cmd == "PLAY":
        who, cards = arg[0], arg[1:]
        if cards != "-1":
            last = (who, [int(x) for x in cards.split(",")])
        say("OK PLAY")
    elif cmd == "GAMEOVER":
        say("OK GAMEOVER")
        if FAULT in ("turn", "turn2"):
            continue
        break
    elif cmd == "ERROR":
        say("OK ERROR")
"#;

/// The Python Botzone bot, keep-running or not, with `fault` ("" for none).
pub fn botzone_bot(keep: bool, fault: &str) -> String {
    BOTZONE_BOT
        .replace("__KEEP__", if keep { "True" } else { "False" })
        .replace("__FAULT__", fault)
}

/// The championship engine with `fault` ("" for none).
pub fn championship_engine(fault: &str) -> String {
    CHAMPIONSHIP_ENGINE.replace("__FAULT__", fault)
}
