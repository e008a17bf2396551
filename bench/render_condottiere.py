"""Benchmark: render and encode the رکب group picture (6 players, full battle lines, owners and both tokens)
and a seat's hand N times; print p50/p95 in ms, the pictures' bytes, and the first (cold) call.

    /work/venv/bin/python bench/render_condottiere.py [-n 200] [--classic-map] [--format png|jpeg]
        [--out-dir /tmp/condottiere]

Targets on the 2-core build machine: group picture render + encode p50 <= 40 ms, hand <= 25 ms.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script


from render_timing import measure

from rendering.condottiere import render, render_hand
from rendering.encode import encode_jpeg, encode_png
from rules import GAMES
from rules.condottiere.data import CODE, KIND_OF_CODE, copies
from rules.condottiere.model import CondottiereOptions, CondottiereView
from rules.condottiere.scoring import courtesans, strengths

NAMES = ("علی", "سارا", "Bob", "مریم", "رضا", "نگار")
LINES = (
    ("10", "6", "dr", "5", "co", "3", "sc", "2", "4"),
    ("he", "4", "4", "co", "co", "1", "6", "sc"),
    ("10", "10", "bi", "3", "5", "1", "2", "dr", "co"),
    ("su", "6", "6", "2", "co", "1", "3", "5"),
    ("6", "5", "4", "3", "2", "1", "1", "co", "sc", "2", "3"),
    ("1", "2", "dr", "10", "he", "5", "4", "co"),
)
HAND = ("1", "2", "3", "5", "6", "10", "10", "bi", "sc", "dr", "co", "he", "wi", "sp")


def codes(kinds: tuple[str, ...], used: dict[str, int]) -> tuple[str, ...]:
    """Card codes for kind codes, a copy not used yet each time."""
    out = []
    for kind in kinds:
        n = used.get(kind, 0)
        used[kind] = n + 1
        ids = copies(KIND_OF_CODE[kind])
        out.append(CODE[ids[n % len(ids)]])
    return tuple(out)


def busy_view(classic: bool) -> tuple[CondottiereView, CondottiereView]:
    """The public view of a 6-player battle with long lines, six owned provinces and both tokens, and seat 1's
    view holding a 14-card hand."""
    game = GAMES["condottiere"]
    state = game.setup(6, 1, CondottiereOptions(classic_map=classic))
    used: dict[str, int] = {}
    lines = tuple(codes(line, used) for line in LINES)
    season = codes(("sp",), used)[0]
    ids = [[CODE.index(c) for c in line] for line in lines]
    public = game.view(state, None)
    owners = tuple(i % 6 if i % 3 == 0 else None for i in range(len(public.owners)))
    update = {
        "lines": lines,
        "strengths": strengths(ids, CODE.index(season)),
        "courtesans": courtesans(ids),
        "season": season,
        "phase": "battle",
        "passed": (False, False, True, False, True, False),
        "to_act": (1,),
        "turn": 1,
        "owners": owners,
        "battle_site": 1,
        "peace_token": 4,
        "provinces_held": tuple(sum(1 for o in owners if o == s) for s in range(6)),
        "battle": 7,
    }
    hand = codes(HAND, used)
    own = game.view(state, 1).model_copy(update=update | {"hand": hand})
    return public.model_copy(update=update), own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="renders to time (default 200)")
    parser.add_argument("--classic-map", action="store_true", help="the 17-region map of Italy")
    parser.add_argument("--format", choices=("png", "jpeg"), default="jpeg")
    parser.add_argument("--out-dir", type=Path, help="also write the encoded pictures here")
    args = parser.parse_args()

    encode = encode_png if args.format == "png" else encode_jpeg
    public, own = busy_view(args.classic_map)
    cards = sum(len(line) for line in public.lines)
    print(f"6 players, {cards} cards in the lines, {len(own.hand)} in the hand, map {public.map}")
    suffix = "png" if args.format == "png" else "jpg"
    if args.out_dir:
        args.out_dir.mkdir(parents=True, exist_ok=True)
    out = (args.out_dir / f"group.{suffix}", args.out_dir / f"hand.{suffix}") if args.out_dir else (None, None)
    measure("group", lambda: render(public, names=NAMES), encode, args.n, args.format, out[0])
    measure("hand", lambda: render_hand(own), encode, args.n, args.format, out[1])


if __name__ == "__main__":
    main()
