#!/usr/bin/env bash
# Remakes fan-names.otf: Noto Sans CJK SC Regular (Debian's fonts-noto-cjk, SIL OFL 1.1) cut to
# the characters of the Mahjong fans' names (crates/mahjong/src/fan/mod.rs, both readings) and
# Chinese Standard Mahjong's (crates/mcr/src/fan/names.rs), and renamed "Arena Fan Names", the
# licence's rule for a modified version. Run it after a fan's Chinese name changes; the tests
# `the_fan_font_has_every_character_of_every_fan_name` (Mahjong's and Chinese Standard
# Mahjong's) fail until then. Needs apt (the package is downloaded, not installed; or give the
# downloaded .deb as NOTO_CJK_DEB) and python3 -m venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
if [ -n "${NOTO_CJK_DEB:-}" ]; then cp "$NOTO_CJK_DEB" .; else apt-get download fonts-noto-cjk >/dev/null; fi
dpkg-deb -x fonts-noto-cjk_*.deb x
python3 -m venv venv
venv/bin/pip install --quiet fonttools
# The fans of both Mahjong games: the 2015 contest's (both readings) and Chinese Standard
# Mahjong's, whose console board uses the same font.
chars="$(grep -ho '"[^"]*"' "$here/../../../../mahjong/src/fan/mod.rs" "$here/../../../../mcr/src/fan/names.rs" | grep -P '[\x{4e00}-\x{9fff}]' | tr -d '"\n')"
# Face 2 of the collection is the Simplified Chinese one.
venv/bin/pyftsubset x/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc --font-number=2 \
  --text="$chars" --layout-features='*' --name-IDs='*' --name-languages='*' --no-hinting \
  --desubroutinize --output-file=subset.otf
venv/bin/python - "$here/fan-names.otf" <<'PY'
import sys
from fontTools.ttLib import TTFont
f = TTFont("subset.otf")
family = "Arena Fan Names"
for r in f["name"].names:
    if r.nameID in (1, 4, 16, 21):
        r.string = family
    elif r.nameID == 3:
        r.string = "2.004;ARENA;ArenaFanNames-Regular"
    elif r.nameID == 6:
        r.string = "ArenaFanNames-Regular"
cff = f["CFF "].cff
cff.fontNames = ["ArenaFanNames-Regular"]
top = cff.topDictIndex[0]
for k in ("FullName", "FamilyName"):
    if hasattr(top, k):
        setattr(top, k, family)
f.save(sys.argv[1])
PY
echo "wrote $here/fan-names.otf"
