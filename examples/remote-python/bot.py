#!/usr/bin/env python3
"""A remote Dou Dizhu bot on the Python SDK (pip install ./sdk/python): no call, no double, the
smallest listed play, and a pass when following its partner. Each method gets the seat's
`arena.ddz.v1.Observation`, every event so far in `obs.events`."""
import arena
from arena.games import ddz


class Smallest(ddz.Bot):
    release = "py-1"

    def play(self, obs):
        plays = [m for m in obs.legal if m != "pass"]
        partner_led = obs.HasField("to_beat_seat") and obs.HasField("landlord") and obs.landlord not in (obs.seat, obs.to_beat_seat)
        return plays[0] if plays and not (partner_led and "pass" in obs.legal) else "pass"


if __name__ == "__main__":
    arena.main(Smallest)
