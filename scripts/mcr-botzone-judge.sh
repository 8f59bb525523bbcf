#!/usr/bin/env bash
# Builds Botzone's Chinese Standard Mahjong judge for the opt-in differential test
# crates/mcr/tests/botzone_judge.rs:
#
#   scripts/mcr-botzone-judge.sh            # writes target/mcr-judge/judge
#   JUDGE_REPO=/path/to/a/clone scripts/mcr-botzone-judge.sh   # without network access to GitHub
#   MCR_JUDGE=$PWD/target/mcr-judge/judge cargo nextest run -p mcr --test botzone_judge
#
# Needs git, g++, jsoncpp (apt-get install libjsoncpp-dev) and pip. The judge's source comes
# from github.com/ailab-pku/Chinese-Standard-Mahjong and the fan library from the PyMahjongGB
# source package (the library the crate agrees with); nothing of theirs is committed here.
# boost is replaced by a two-function stand-in for boost::split.
set -euo pipefail
if [ -n "${JUDGE_REPO:-}" ] && [ -d "$JUDGE_REPO" ]; then JUDGE_REPO="$(cd "$JUDGE_REPO" && pwd)"; fi
out="$(cd "$(dirname "$0")/.." && pwd)/target/mcr-judge"
rm -rf "$out" && mkdir -p "$out/src" && cd "$out/src"
# Only judge/main.cpp is needed: no checkout of the repository's large rule books.
git clone --quiet --no-checkout "${JUDGE_REPO:-https://github.com/ailab-pku/Chinese-Standard-Mahjong.git}" judge-repo
pip download --no-deps --no-binary :all: pymahjonggb==1.4.0 -d . >/dev/null
tar xzf pymahjonggb-1.4.0.tar.gz
mkdir -p MahjongGB boost/algorithm/string jsoncpp
cp PyMahjongGB-1.4.0/MahjongGB/mahjong-algorithm/*.h PyMahjongGB-1.4.0/MahjongGB/mahjong-algorithm/*.cpp MahjongGB/
# The 2023 library renamed two win flags.
sed -e 's/WIN_FLAG_4TH_TILE/WIN_FLAG_LAST_TILE/' -e 's/WIN_FLAG_ABOUT_KONG/WIN_FLAG_KONG_INVOLVED/' \
    -e 's/freopen("data.json", "r", stdin);//' <(git -C judge-repo show HEAD:judge/main.cpp) > main.cpp
cat > boost/algorithm/string/classification.hpp <<'HPP'
#pragma once
#include <string>
namespace boost {
struct any_of_t { std::string chars; };
inline any_of_t is_any_of(const char *chars) { return any_of_t{chars}; }
}
HPP
cat > boost/algorithm/string/split.hpp <<'HPP'
#pragma once
#include <string>
#include <vector>
#include "classification.hpp"
namespace boost {
// Splits at every separator, keeping empty pieces, as boost::split does.
inline void split(std::vector<std::string> &out, const std::string &in, any_of_t sep) {
    out.clear();
    std::string piece;
    for (char c : in) {
        if (sep.chars.find(c) != std::string::npos) { out.push_back(piece); piece.clear(); }
        else piece += c;
    }
    out.push_back(piece);
}
}
HPP
echo '#include <json/json.h>' > jsoncpp/json.h
g++ -O2 -std=c++17 -I. -I/usr/include/jsoncpp -o "$out/judge" main.cpp -ljsoncpp
echo "$out/judge"
