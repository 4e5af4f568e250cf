"""Pip grouping on the tower: blobs from the tray camera -> one reading per die.

The board's camera layer finds die bodies (one colour threshold per die colour) and pips
(dark or light spots) as blobs; this module decides, per die, its value or that it is
cocked or unreadable.  It never guesses: a die that does not look like one clean top face
with a known pip layout is reported as such.

die blob: (cx, cy, area, elongation, colour_index); pip blob: (cx, cy, area).
Returns a list of (value, colour_index, status) with value 0 unless status is stable.
"""

try:
    from tablehub.vision import dice_pips
except ImportError:  # on the board
    import dice_pips

STABLE = 0
COCKED = 1
UNREADABLE = 2

MERGED_AREA = 1.6  # blob area / expected face area above which dice touch (or pile up)
COCKED_AREA = 1.3  # a tilted die shows a side face too
COCKED_ELONGATION = 0.35  # 0 for a circle or square, 1 for a line
PIP_REACH = 0.75  # pips belong to a die within this many sides of its centre
PIP_AREA_MIN = 0.004  # of the face area
PIP_AREA_MAX = 0.06
PIP_AREA_SPREAD = 2.2  # largest / smallest pip area on one face


def read_dice(die_blobs, pip_blobs, side_px):
    face_area = side_px * side_px
    owners = {}
    for pip in pip_blobs:
        best = -1
        best_d = PIP_REACH * side_px
        for i, die in enumerate(die_blobs):
            d = ((pip[0] - die[0]) ** 2 + (pip[1] - die[1]) ** 2) ** 0.5
            if d < best_d:
                best = i
                best_d = d
        if best >= 0:
            owners.setdefault(best, []).append(pip)
    readings = []
    for i, die in enumerate(die_blobs):
        cx, cy, area, elongation, colour = die
        if area > MERGED_AREA * face_area:
            readings.append((0, colour, UNREADABLE))
            continue
        if area > COCKED_AREA * face_area or elongation > COCKED_ELONGATION:
            readings.append((0, colour, COCKED))
            continue
        pips = owners.get(i, [])
        areas = [p[2] for p in pips]
        if (
            not pips
            or min(areas) < PIP_AREA_MIN * face_area
            or max(areas) > PIP_AREA_MAX * face_area
            or max(areas) > PIP_AREA_SPREAD * min(areas)
        ):
            readings.append((0, colour, UNREADABLE))
            continue
        value = dice_pips.face_value([(p[0], p[1]) for p in pips], (cx, cy), side_px)
        if value is None:
            readings.append((0, colour, UNREADABLE))
        else:
            readings.append((value, colour, STABLE))
    return readings
