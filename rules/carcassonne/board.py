"""The board derived from the laid tiles: features merged with a union-find, and the frontier of open
positions with the edges they require.

A ``Board`` depends only on ``state.placed``. Boards are memoised by that tuple (bounded) and a board for
``placed + (tile,)`` is built by copying the board of ``placed`` and adding one tile, so each placement costs
one tile's work. The union-find nodes are segments: ``tile index * STRIDE + segment index``.
"""

from __future__ import annotations

from collections import OrderedDict

from rules.carcassonne.data import CONTACTS, FITS, MATE, ORIENTED, STEP, STRIDE, TILES

Placement = tuple[int, int, int, int]  # (type, x, y, rotation)
_CACHE_SIZE = 4096


class Board:
    __slots__ = ("frontier", "grid", "open", "parent", "placed", "shields", "tiles")

    def __init__(self) -> None:
        self.placed: tuple[Placement, ...] = ()
        self.grid: dict[tuple[int, int], int] = {}
        self.parent: list[int] = []
        self.tiles: dict[int, frozenset[int]] = {}  # root -> tile indices of the feature
        self.open: dict[int, int] = {}  # root -> unmatched edges (city/road); 0 = complete
        self.shields: dict[int, int] = {}  # root -> shields (cities)
        self.frontier: dict[tuple[int, int], str] = {}  # empty position -> required N,E,S,W ("." = free)

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.placed = self.placed
        b.grid = dict(self.grid)
        b.parent = list(self.parent)
        b.tiles = dict(self.tiles)
        b.open = dict(self.open)
        b.shields = dict(self.shields)
        b.frontier = dict(self.frontier)
        return b

    # Union-find ---------------------------------------------------------------------------------

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self.tiles[ra]) < len(self.tiles[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.tiles[ra] = self.tiles[ra] | self.tiles.pop(rb)
        if rb in self.open:
            self.open[ra] = self.open.get(ra, 0) + self.open.pop(rb)
        if rb in self.shields:
            self.shields[ra] = self.shields.get(ra, 0) + self.shields.pop(rb)
        return ra

    # Laying a tile ------------------------------------------------------------------------------

    def add(self, placement: Placement) -> None:
        """Lay a tile (the caller has checked that it fits) and merge its features with its neighbours'."""
        ttype, x, y, rot = placement
        tile = TILES[ttype]
        oriented = ORIENTED[ttype][rot]
        index = len(self.placed)
        self.placed = (*self.placed, placement)
        self.grid[(x, y)] = index
        self.frontier.pop((x, y), None)
        base = index * STRIDE
        self.parent.extend(range(base, base + STRIDE))
        for i, seg in enumerate(tile.segments):
            node = base + i
            self.tiles[node] = frozenset((index,))
            if seg.kind in ("city", "road"):
                self.open[node] = len(seg.edges)
                if seg.kind == "city" and tile.shield:
                    self.shields[node] = 1
        grid = self.grid
        for d in range(4):
            dx, dy = STEP[d]
            pos = (x + dx, y + dy)
            other = grid.get(pos)
            if other is None:
                self._constrain(pos)
                continue
            otype, _, _, orot = self.placed[other]
            o_oriented = ORIENTED[otype][orot]
            obase = other * STRIDE
            back = (d + 2) % 4
            mine = oriented.edge_segment[d]
            if mine >= 0:  # city or road edge: join and close the two edges
                root = self._union(base + mine, obase + o_oriented.edge_segment[back])
                self.open[root] -= 2
            for h in (2 * d, 2 * d + 1):
                mine = oriented.half_segment[h]
                if mine >= 0:
                    self._union(base + mine, obase + o_oriented.half_segment[MATE[h]])

    def _constrain(self, pos: tuple[int, int]) -> None:
        """Recompute the edges an empty position requires from its laid neighbours."""
        x, y = pos
        need = []
        for d in range(4):
            dx, dy = STEP[d]
            other = self.grid.get((x + dx, y + dy))
            if other is None:
                need.append(".")
            else:
                otype, _, _, orot = self.placed[other]
                need.append(ORIENTED[otype][orot].edges[(d + 2) % 4])
        self.frontier[pos] = "".join(need)

    # Queries ------------------------------------------------------------------------------------

    def placements(self, ttype: int) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) for a tile type, sorted by (y, x, rotation)."""
        fits = FITS[ttype]
        out = [(y, x, rot) for (x, y), need in self.frontier.items() for rot in fits[need]]
        out.sort()
        return [(x, y, rot) for y, x, rot in out]

    def can_place(self, ttype: int) -> bool:
        fits = FITS[ttype]
        return any(fits[need] for need in self.frontier.values())

    def fits(self, ttype: int, x: int, y: int, rot: int) -> bool:
        need = self.frontier.get((x, y))
        return need is not None and rot in FITS[ttype][need]

    def joins(self, ttype: int, x: int, y: int, rot: int) -> list[set[int]]:
        """Per segment of a tile not yet laid at (x, y): the roots of the board's features it would join.
        Segments of the tile that meet the same feature become one feature, so their sets are merged; this
        tells which features a meeple would stand on without laying the tile."""
        roots: list[set[int]] = [set() for _ in TILES[ttype].segments]
        grid = self.grid
        placed = self.placed
        find = self.find
        for d, touching in CONTACTS[ttype][rot]:
            dx, dy = STEP[d]
            other = grid.get((x + dx, y + dy))
            if other is None:
                continue
            otype, _, _, orot = placed[other]
            theirs = ORIENTED[otype][orot]
            obase = other * STRIDE
            for mine, is_edge, side in touching:
                node = theirs.edge_segment[side] if is_edge else theirs.half_segment[side]
                roots[mine].add(find(obase + node))
        seen: dict[int, int] = {}
        for i, joined in enumerate(roots):  # segments meeting a common feature share all their roots
            for root in joined:
                j = seen.setdefault(root, i)
                if j != i and roots[j] is not joined:
                    merged = roots[j] | joined
                    for k, other_set in enumerate(roots):
                        if other_set is roots[j] or other_set is joined:
                            roots[k] = merged
                    joined = merged
        return roots

    def neighbours8(self, x: int, y: int) -> int:
        """The laid tiles among the eight around (x, y)."""
        grid = self.grid
        return sum(1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and (x + dx, y + dy) in grid)

    def complete(self, root: int) -> bool:
        return self.open.get(root, 1) == 0


_cache: OrderedDict[tuple[Placement, ...], Board] = OrderedDict()


def board_of(placed: tuple[Placement, ...]) -> Board:
    """The board for these laid tiles, from the memo or built from the board of all but the last tile.

    Callers must not mutate the returned board (``find`` only compresses paths, which is harmless)."""
    board = _cache.get(placed)
    if board is not None:
        _cache.move_to_end(placed)
        return board
    if placed:
        board = board_of(placed[:-1]).copy()
        board.add(placed[-1])
    else:
        board = Board()
    _cache[placed] = board
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return board
