"""Dice tower link timing against the virtual tower process: how long after the dice settle
a result reaches the hub, and how long after a replug the hub is connected again.

    python -m bench.dice_link [--throws 30] [--replugs 5]

Targets: result <= 0.5 s after the dice settle; reconnect <= 5 s after replug.  The settle
time is the moment the virtual dice stop moving; the tower (like the firmware) then waits
300 ms of stillness before it reports, so that wait is part of the figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tablehub.devices.dice_tower import SpawnedSimTower

QUICK_ARGS = (
    "--throws",
    "10",
    "--replugs",
    "2",
)  # for `python -m bench`


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=30)
    parser.add_argument("--replugs", type=int, default=5)
    args = parser.parse_args()
    tower = SpawnedSimTower(sim_args=("--seed", "11"))
    try:
        if not tower.wait_connected(10):
            print("the virtual tower did not connect:", tower.status().line())
            return 1
        latencies = []
        for _ in range(args.throws):
            tower.sim.control("roll")
            settled = float(tower.sim.wait_for("settled", 10).split()[2])
            event = tower.next_throw(timeout=10)
            arrived = time.monotonic()
            if event is None:
                print("a throw never arrived")
                return 1
            latencies.append(arrived - settled)
        reconnects = []
        for _ in range(args.replugs):
            tower.sim.control("drop 1.0")
            tower.sim.wait_for("unplugged", 5)
            deadline = time.monotonic() + 5
            while tower.status().state == "connected" and time.monotonic() < deadline:
                time.sleep(0.01)  # the hub notices the unplug
            replugged = float(tower.sim.wait_for("replugged", 5).split()[2])
            if not tower.wait_connected(15):
                print("did not reconnect:", tower.status().line())
                return 1
            reconnects.append(time.monotonic() - replugged)
        status = tower.status()
    finally:
        tower.close()
    print(f"throws: {len(latencies)}")
    print(
        f"settle -> hub: median {statistics.median(latencies) * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms (target <= 500 ms)"
    )
    print(
        f"replug -> connected: median {statistics.median(reconnects) * 1000:.0f} ms, "
        f"max {max(reconnects) * 1000:.0f} ms over {len(reconnects)} replugs (target <= 5 s)"
    )
    print(status.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
