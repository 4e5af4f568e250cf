#!/bin/sh
# Copy the tower firmware to a connected OpenMV Cam (MicroPython) with mpremote:
#   pip install mpremote && firmware/deploy.sh [/dev/ttyACM0]
# The wire format, link engine and pip layouts are shared with the hub: they are copied
# from tablehub/ so there is one implementation of each.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
port=${1:-auto}
cp_() { mpremote connect "$port" fs cp "$1" ":$2"; }
mpremote connect "$port" fs mkdir :tower 2>/dev/null || true
cp_ "$root/tablehub/devices/dice_tower_wire.py" dice_tower_wire.py
cp_ "$root/tablehub/devices/dice_tower_engine.py" dice_tower_engine.py
cp_ "$root/tablehub/vision/dice_pips.py" dice_pips.py
for f in __init__ settle rollstate pips app; do cp_ "$here/tower/$f.py" "tower/$f.py"; done
cp_ "$here/board_openmv.py" board_openmv.py
cp_ "$here/main.py" main.py
mpremote connect "$port" reset
