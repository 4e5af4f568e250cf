"""``tablehub cards``: enrol decks and identify cards in images.

tablehub cards enroll --deck NAME --from DIR     # DIR: <card-id>.png per card + back.png
tablehub cards enroll --deck NAME --camera       # guided, by voice, with the camera
tablehub cards enroll --deck agi --standin       # our own stand-in art for a game
tablehub cards render --deck agi OUT_DIR         # write the stand-in faces as PNGs
tablehub cards identify --deck NAME IMAGE... [--json]
tablehub cards decks                             # list the enrolled decks
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from tablehub.commands import Subparsers
from tablehub.vision.decks import DECKS

JSON_HELP = 'print one JSON object per image: {"image", "cards": [{"id", "confidence", ...}]}'


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "cards",
        help="enrol card decks and identify cards in images",
        description="Enrol a deck (one straight image per card) and identify cards.",
    )
    sub = parser.add_subparsers(dest="cards_command", metavar="ACTION")
    enroll = sub.add_parser("enroll", help="enrol a deck from images, the camera or stand-in art")
    enroll.add_argument("--deck", required=True, help="deck name (a-z, 0-9, - and _)")
    source = enroll.add_mutually_exclusive_group(required=True)
    source.add_argument("--from", dest="from_dir", type=Path, metavar="DIR",
                        help="folder with <card-id>.png for every card and back.png")  # fmt: skip
    source.add_argument("--camera", action="store_true", help="guided enrollment by camera")
    source.add_argument("--standin", action="store_true",
                        help=f"our stand-in art for one of: {', '.join(DECKS)}")  # fmt: skip
    enroll.add_argument("--simulated", action="store_true", help=argparse.SUPPRESS)
    enroll.set_defaults(func=_enroll)

    render = sub.add_parser("render", help="write a stand-in deck's faces and back as PNGs")
    render.add_argument("--deck", required=True, choices=sorted(DECKS))
    render.add_argument("out", type=Path, metavar="OUT_DIR")
    render.add_argument("--px-per-mm", type=float, default=8.0)
    render.set_defaults(func=_render)

    identify = sub.add_parser("identify", help="identify the cards in images")
    identify.add_argument("--deck", required=True, help="an enrolled deck")
    identify.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    identify.add_argument("--json", action="store_true", help=JSON_HELP)
    identify.set_defaults(func=_identify)

    decks = sub.add_parser("decks", help="list the enrolled decks")
    decks.set_defaults(func=_decks)
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _error(message: str) -> int:
    print(f"tablehub cards: {message}", file=sys.stderr)
    return 2


def _config(args: argparse.Namespace) -> Any:
    from tablehub.config import load_config

    return load_config(getattr(args, "config", None))


def _root(args: argparse.Namespace) -> Path:
    from tablehub.paths import data_dir

    try:
        return data_dir(_config(args).data_dir)
    except Exception:  # a broken config still lets the data dir rule work
        return data_dir()


def _enroll(args: argparse.Namespace) -> int:
    from tablehub.vision import storage
    from tablehub.vision.enroll import EnrollError, enroll_with_camera, images_from_dir

    try:
        storage.check_deck_name(args.deck)
        sizes: dict[str, tuple[float, float]] = {}
        counts: dict[str, int] = {}
        spec = DECKS.get(args.deck)
        if spec is not None:
            sizes = {c.id: c.size_mm for c in spec.cards}
            counts = {c.id: c.count for c in spec.cards}
        if args.standin:
            if spec is None:
                return _error(f"no stand-in art for {args.deck!r}; choose one of {list(DECKS)}")
            from tablehub.vision.cardart import standin_faces

            faces = standin_faces(8.0)
            images = {c.id: faces(c.id) for c in spec.cards}
            images["back"] = faces(f"{spec.name}:back")
        elif args.from_dir is not None:
            images = images_from_dir(args.from_dir)
            if spec is not None:
                unknown = sorted(set(images) - set(spec.ids) - {"back"})
                if unknown:
                    return _error(
                        f"{args.from_dir} has images for ids not in deck {args.deck}: "
                        f"{', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''}"
                    )
        else:
            if spec is None:
                return _error("--camera needs a known deck (agi, chaos, adler, rg) for its list")
            cards = [(c.id, c.name) for c in spec.cards]
            frames, close = _camera_frames(args)
            try:
                images = enroll_with_camera(cards, frames, _say(args))
            finally:
                close()
        folder = storage.save_deck(args.deck, images, sizes, counts, root=_root(args))
    except (EnrollError, storage.StorageError) as err:
        return _error(str(err))
    print(f"enrolled {len(images) - 1} cards and the back of deck {args.deck!r} in {folder}")
    return 0


def _camera_frames(args: argparse.Namespace) -> tuple[Callable[[], Any], Callable[[], None]]:
    from tablehub.devices.camera import make_camera

    camera = make_camera(_config(args).camera, simulated=args.simulated)
    camera.open()
    return camera.read, camera.close


def _say(args: argparse.Namespace) -> Callable[[str], None]:
    """Print each prompt and speak it with the configured voice (if it works)."""
    speak: Callable[[str], None] | None = None
    try:
        from tablehub.devices.voice import make_voice

        config = _config(args)
        v = config.voice
        voice = make_voice(v.engine, v.rate, v.volume, v.voice, v.timeout,
                           config.voice_wav_dir, config.data_dir / "cache")  # fmt: skip

        def speak(text: str) -> None:
            asyncio.run(voice.say(text))

    except Exception as err:  # prompts still print without a voice
        print(f"(no voice: {err})", file=sys.stderr)

    def say(text: str) -> None:
        print(text, flush=True)
        if speak is not None:
            try:
                speak(text)
            except Exception as err:  # a failed clip must not stop enrollment
                print(f"(voice failed: {err})", file=sys.stderr)

    return say


def _render(args: argparse.Namespace) -> int:
    from tablehub.vision.cardart import render_back, render_face

    spec = DECKS[args.deck]
    args.out.mkdir(parents=True, exist_ok=True)
    for card in spec.cards:
        cv2.imwrite(str(args.out / f"{card.id}.png"), render_face(card, args.px_per_mm))
    cv2.imwrite(str(args.out / "back.png"), render_back(spec, args.px_per_mm))
    print(f"wrote {len(spec.cards)} faces and the back of {args.deck} to {args.out}")
    return 0


def reading_json(image: Path, readings: list[Any]) -> dict[str, Any]:
    return {
        "image": str(image),
        "cards": [
            {
                "id": r.card_id,
                "confidence": round(float(r.confidence), 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in r.corners],
                "face_up": bool(r.face_up),
                **({"duplicate": True} if r.duplicate else {}),
            }
            for r in readings
        ],
    }


def _identify(args: argparse.Namespace) -> int:
    from tablehub.vision import storage
    from tablehub.vision.identify import read_cards

    try:
        deck = storage.load_deck(args.deck, root=_root(args))
        calibration = storage.load_calibration(root=_root(args))
    except storage.StorageError as err:
        return _error(str(err))
    code = 0
    for path in args.images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            print(f"tablehub cards: {path}: not a readable image", file=sys.stderr)
            code = 2
            continue
        fits = calibration is not None and tuple(calibration.image_size) == image.shape[1::-1]
        h = calibration.table_to_image if calibration is not None and fits else None
        readings = read_cards(image, deck, table_to_image=h)
        if args.json:
            print(json.dumps(reading_json(path, readings)))
        else:
            print(f"{path}: {len(readings)} card(s)")
            for r in readings:
                what = r.card_id or ("face down" if not r.face_up else "unknown")
                x, y = r.centre
                dup = "  DUPLICATE" if r.duplicate else ""
                print(f"  {what:32s} confidence {r.confidence:.2f} at ({x:.0f}, {y:.0f}){dup}")
    return code


def _decks(args: argparse.Namespace) -> int:
    from tablehub.vision import storage

    names = storage.list_decks(root=_root(args))
    print("\n".join(names) if names else "no enrolled decks (tablehub cards enroll --help)")
    return 0
