"""Figures: every picture kind of every game as a phone shows it (480 px wide): its size, its shape and its
smallest text. The pictures are those of tests/bot/test_phone_pictures.py, which holds the bounds (10 px of cap
height, no wider than 1.4 × the height); this prints how far each kind is from them.

    .venv/bin/python bench/phone_sizes.py [game ...]
"""

from __future__ import annotations

import io
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bot"))  # the pictures are the phone test's
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

from PIL import Image
from test_phone_pictures import PHONE_WIDTH, cap_height, shots

from bot.games import PRESENTERS


def main(games: list[str]) -> None:
    print(f"{'game':<12} {'picture':<8} {'sizes (w×h)':<24} {'w/h max':>7} {'smallest font':>13} {'at 480':>7}")
    for game_id in games or sorted(PRESENTERS):
        kinds: dict[str, list[tuple[int, int, float]]] = defaultdict(list)
        for shot in shots(game_id):
            width, height = Image.open(io.BytesIO(shot.picture)).size
            kinds[shot.kind.split(" ")[0]].append((width, height, min(shot.sizes, default=0.0)))
        for kind, seen in kinds.items():
            sizes = sorted({f"{w}×{h}" for w, h, _ in seen})
            shown = ", ".join(sizes) if len(sizes) <= 2 else f"{sizes[0]} … {sizes[-1]} ({len(sizes)})"
            ratio = max(w / h for w, h, _ in seen)
            width, _, smallest = min(seen, key=lambda s: cap_height(s[2]) / s[0])
            at_phone = cap_height(smallest) * PHONE_WIDTH / width
            print(f"{game_id:<12} {kind:<8} {shown:<24} {ratio:>7.2f} {smallest:>10g} px {at_phone:>5.1f} px")


if __name__ == "__main__":
    main(sys.argv[1:])
