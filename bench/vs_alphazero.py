"""Our Splendor players against a public AlphaZero Splendor agent: issue 28's strong opponent, kept outside the
project.

The agent is cestpasphoto/alpha-zero-general's Splendor player (GitHub; `splendor/pretrained_2players.pt`, a
network trained by self-play, searched by its own MCTS with 800 simulations a move, as its `pit.py` plays it).
Nothing of it is in this repository; to run it, check it out and give it an environment of its own:

    git clone https://github.com/cestpasphoto/alpha-zero-general /opt/azg
    python3 -m venv /opt/azvenv && /opt/azvenv/bin/pip install torch numba onnxruntime onnx onnxscript \
        tqdm colorama coloredlogs torchvision pydantic
    /opt/azvenv/bin/python bench/vs_alphazero.py --agent-dir /opt/azg --a hard --games 40 [--part 0/2] \
        --record bench/records/ai_strength.jsonl
    python bench/vs_alphazero.py --a hard --games 40 --record bench/records/ai_strength.jsonl --report

Where only the package registries answer (5 December): PyPI's ``torch`` pulls gigabytes of CUDA libraries, so
install a CPU-only torch wheel by its file (this machine keeps one in pip's find-links, ``/opt/wheels``), and leave
torchvision out: PyPI's torchvision wheels load only beside a CUDA torch, and the agent imports nothing of it but
``torchvision.models._utils._make_divisible`` (MobileNet's rounding of a channel count to a multiple of a divisor,
never 10% below), which a one-function stand-in package in the agent's environment gives. A snapshot of the
repository without its large files lacks some other games' networks: take the root's ``*.py`` files and
``splendor/`` only. Loading the agent (its network exported to ONNX, its rules compiled) takes about 45 s.

A game is played in our engine, which is the authority. On the agent's turn our state is written into the agent's
board (its seat first, as its canonical form: bank, the twelve table cards, which cards each deck still holds,
nobles, each seat's gems, nobles, bonuses, card points and reserve), its search runs on a fresh tree, and the
most visited of its actions that our rules allow is played. Its rules differ a little from ours: it may take
fewer than three gems with three colours in the bank, give gems back as a turn, or pass, and never takes past
ten gems; such actions are skipped for its next most visited. Its board has no hidden card, so it sees the blind
reserves of its opponent (an advantage to it). A turn with one legal move is played without it (a pass, when no gem
can be taken and no card reserved or bought, is a move it cannot name). A noble choice takes the first; a return
(only after a reserve's gold at ten gems) gives the gold back, as its rules would not have given it. Its search is
seeded per move, so a move it is not asked for changes none of its others.

Games are kept in the same record as ``bench/ai_strength.py`` (B is ``alphazero-<simulations>``), so a line can
stop and go on, and ``--report`` reads it without the agent's environment (with ``--code`` and ``--against`` as
``bench/ai_strength.py`` takes them). The agent is loaded once and cannot be sent to another process, so a line
uses one core; ``--part 0/2`` and ``--part 1/2`` in two processes (each loads its agent) share a line's games
between two cores and the record. Start two processes a second apart: the agent names the file it exports its
network to by the clock's milliseconds, and two loaders in the same millisecond delete each other's file.
``--rekey DIGEST …`` (with ``--agent-dir``) does for the lines against the agent what ``bench/ai_strength.py
--rekey`` does for its own players: it replays each line's first games (``--replays``) with today's code and carries
the line to today's digest where they play alike (run it while no line writes to the record).

``--self-play FILE`` plays the agent against itself instead (``--games``, ``--part`` as for a line; deals of their
own, ``SELF_PLAY_DEALS``) and keeps the positions as ``bench/value_fit.py collect`` keeps them, to fit a judgement
on the games of a strong player: ``fit --positions FILE``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ai_strength
import value_fit
from ai_strength import SEARCHERS, Line, Played, Record, add_comparison, check_comparison, held_so_far

from rules import GAMES
from rules.splendor.data import CARDS, NOBLES
from rules.splendor.model import SplendorAction, SplendorState

GAME = GAMES["splendor"]
PLAYERS = 2  # the pretrained network is the two-player one
BIT = (128, 64, 32, 16, 8, 4, 2, 1)  # the agent's deck bitfields: card index 0 is the high bit


class AlphaZero:
    """The agent, loaded from its checkout, playing one seat of our games. Its modules are loaded by name
    from the checkout given at run time (``importlib``): they exist only there, and ``--report`` needs none."""

    def __init__(self, agent_dir: Path, simulations: int) -> None:
        sys.path.insert(0, str(agent_dir))
        os.chdir(agent_dir)  # its loaders read paths relative to the checkout
        self.np = np = importlib.import_module("numpy")  # its environment's, not a dependency of ours
        self.mcts_class = importlib.import_module("MCTS").MCTS
        logic = importlib.import_module("splendor.SplendorLogic")
        all_cards, np_different_gems_up_to_3 = logic.all_cards, logic.np_different_gems_up_to_3
        dotdict = importlib.import_module("utils").dotdict
        self.game = importlib.import_module("splendor.SplendorGame").SplendorGame()
        wrapper = importlib.import_module("splendor.NNet").NNetWrapper
        self.net = wrapper(self.game, dict(lr=None, dropout=0.0, epochs=None, batch_size=None, nn_version=-1))
        extra = self.net.load_checkpoint("splendor", "pretrained_2players.pt")
        cpuct = extra.get("cpuct")
        self.args = dotdict(
            {
                "numMCTSSims": simulations,
                "fpu": extra.get("fpu", 0.0),
                "universes": extra.get("universes", 1),
                "cpuct": float(cpuct[0]) if isinstance(cpuct, list) else cpuct,
                "prob_fullMCTS": 1.0,
                "forced_playouts": extra.get("forced_playouts", False),
                "no_mem_optim": False,
            }
        )
        self.half_life = (extra["temperature"][2:3] or [10])[0]
        self.takes = [tuple(c for c in range(5) if combo[c]) for combo in np_different_gems_up_to_3]
        self.where: dict[int, tuple[int, int]] = {}  # our card id -> (group, index) in its tier's table
        self.lines: dict[int, Any] = {}
        for card in CARDS:
            tier = all_cards[card.level - 1]
            found = [
                (group, index)
                for group, cards in enumerate(tier)
                for index, (cost, gain) in enumerate(cards)
                if tuple(cost[:5]) == card.cost and gain[card.bonus] == 1 and gain[6] == card.points
            ]
            assert len(found) == 1, f"card {card.id} is not one of the agent's"
            self.where[card.id] = found[0]
            self.lines[card.id] = np.array(tier[found[0][0]][found[0][1]], dtype=np.int8)
        self.nobles = {n.id: np.array([*n.requires, 0, n.points], dtype=np.int8) for n in NOBLES}
        self.skipped = 0  # moves where its first choice is not a move of our rules
        # its first search exports the network to ONNX and compiles its rules (numba): not in a move's time
        warm_up = self.mcts_class(self.game, self.net, dotdict({**self.args, "numMCTSSims": 16}))
        warm_up.getActionProb(self.game.getInitBoard(), temp=1, force_full_search=True)

    def board(self, state: SplendorState, seat: int) -> Any:
        """Its canonical board for ``seat`` (rows as its SplendorLogicNumba describes them, two players)."""
        np, n = self.np, PLAYERS
        s = np.zeros((32 + 10 * n + n * n, 7), dtype=np.int8)
        plies = (state.round - 1) * n + state.turn
        s[0, :6] = state.bank
        s[0, 6] = min(plies, 120 + plies % 2)  # its game ends at 124 plies; ours may run longer
        for level in range(3):
            for slot, card in enumerate(state.rows[level]):
                if card:
                    s[1 + 8 * level + 2 * slot : 3 + 8 * level + 2 * slot] = self.lines[card]
            counts, bits = [0] * 5, [0] * 5
            for card in state.decks[level]:
                group, index = self.where[card]
                counts[group] += 1
                bits[group] |= BIT[index]
            s[25 + 2 * level, :5] = counts
            s[26 + 2 * level, :5] = np.array(bits, dtype=np.uint8).view(np.int8)
        slots = sorted([*state.nobles, *(v for seen in state.visitors for v in seen)])  # a noble keeps its slot
        for i, noble in enumerate(slots):
            if noble in state.nobles:
                s[31 + i] = self.nobles[noble]
        for p, who in enumerate((seat, 1 - seat)):
            s[32 + n + p, :6] = state.tokens[who]
            for i, noble in enumerate(slots):
                if noble in state.visitors[who]:
                    s[32 + 2 * n + (n + 1) * p + i] = self.nobles[noble]
            s[32 + 3 * n + n * n + p, :5] = state.bonuses[who]
            s[32 + 3 * n + n * n + p, 6] = sum(CARDS[c - 1].points for c in state.cards[who])
            for i, card in enumerate(state.reserved[who]):
                row = 32 + 4 * n + n * n + 6 * p + 2 * i
                s[row : row + 2] = self.lines[card]
        return s

    def ours(self, index: int) -> SplendorAction | None:
        """Its action ``index`` as ours, or None where our rules have no such move (gems given back, a pass)."""
        if index < 12:
            return SplendorAction("b", level=index // 4 + 1, slot=index % 4)
        if index < 24:
            return SplendorAction("r", level=(index - 12) // 4 + 1, slot=index % 4)
        if index < 27:
            return SplendorAction("r", level=index - 23, slot=-1)
        if index < 30:
            return SplendorAction("b", level=0, slot=index - 27)
        if index < 30 + len(self.takes):
            return SplendorAction("t", tokens=self.takes[index - 30])
        if index < 35 + len(self.takes):
            return SplendorAction("t2", tokens=(index - 30 - len(self.takes),))
        return None

    def move(self, state: SplendorState, seat: int, seed: int) -> SplendorAction:
        legal = GAME.legal_actions(state, seat)
        if len(legal) == 1:  # no choice: a pass when nothing can be taken, reserved or bought, which it cannot name
            return legal[0]
        if state.phase == "noble":
            return legal[0]
        if state.phase == "return":
            tokens = state.tokens[seat]
            return max(legal, key=lambda a: (5 in a.tokens, sum(tokens[c] for c in a.tokens)))
        np = self.np
        board = self.board(state, seat)
        valid = self.game.getValidMoves(board, 0)
        for index in [*range(12), *range(27, 30)]:  # the boards agree on what can be bought
            assert bool(valid[index]) == (self.ours(index) in legal), f"buy {index} disagrees"
        mcts = self.mcts_class(self.game, self.net, self.args)
        mcts.rng = np.random.default_rng(seed)
        np.random.seed(seed % (1 << 32))
        temperature = 0.5 * 0.5 ** (int(board[0, 6]) / self.half_life)  # as its pit.py plays
        mcts.getActionProb(board, temp=temperature, force_full_search=True)
        visits = np.asarray(mcts.nodes_data[self.game.stringRepresentation(board)][5], dtype=np.float64)
        allowed = set(legal)
        for rank, index in enumerate(np.argsort(-visits, kind="stable")):
            action = self.ours(int(index))
            if action in allowed:
                self.skipped += rank > 0
                return action
        raise AssertionError("none of its moves is legal in our rules")


def play(agent: AlphaZero, ours: str, name: str, index: int, seed: int) -> Played:
    """One game of ``bench/ai_strength.py``'s, the agent playing B's seat."""

    def mover(player: str, game_id: str, state: SplendorState, seat: int, move_seed: int) -> SplendorAction:
        if player == name:
            return agent.move(state, seat, move_seed)
        return ai_strength.move(player, game_id, state, seat, move_seed)

    played = ai_strength.play("splendor", PLAYERS, ours, name, index, seed, mover, timed=(name,))
    print(f"game {index}: ours at seat {index % PLAYERS}, our share {played.share}", flush=True)
    return played


def replay_against(agent: AlphaZero, name: str) -> ai_strength.Replay:
    """``ai_strength.rekey``'s replays of the lines against this agent (in this process: it cannot be sent to
    another), so that a change to our code that leaves our moves as they were keeps the agent's hours of games."""

    def replay(key: tuple[Any, ...], indices: list[int]) -> list[Played] | None:
        _, _, ours, theirs, seed, _ = key
        if theirs != name or ours not in SEARCHERS:
            return None
        return [play(agent, ours, name, index, seed) for index in indices]

    return replay


SELF_PLAY_DEALS = 737_373  # its self-play games are dealt apart from those of value_fit's own collections


def self_play(agent: AlphaZero, name: str, out: Path, games: int, part: tuple[int, int]) -> None:
    """The agent against itself in our engine, its positions kept for ``bench/value_fit.py fit``: the games of
    a strong player, where a judgement fitted to a level's own games learns what went with winning at that
    level (ai/README.md)."""

    def mover(player: str, game_id: str, state: SplendorState, seat: int, seed: int) -> SplendorAction:
        return agent.move(state, seat, seed)

    wanted = value_fit.not_held(out, range(part[0], games, part[1]))
    for done, index in enumerate(wanted):
        game = value_fit.self_play("splendor", PLAYERS, name, name, index, mover, SELF_PLAY_DEALS)
        value_fit.keep(out, game, done + 1, len(wanted))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent-dir", type=Path, help="a checkout of cestpasphoto/alpha-zero-general")
    parser.add_argument("--simulations", type=int, default=800)
    parser.add_argument("--a", choices=SEARCHERS, default="hard")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--record", type=Path)
    parser.add_argument(
        "--part",
        default="0/1",
        help="J/N: play games J, J+N, J+2N, …: N processes, each with its agent, share a line",
    )
    parser.add_argument("--report", action="store_true", help="print what the record holds; play nothing")
    add_comparison(parser)
    parser.add_argument("--rekey", nargs="+", metavar="DIGEST", help="carry this agent's lines to today's code")
    parser.add_argument("--replays", type=int, default=3, help="games of each line --rekey plays again")
    parser.add_argument(
        "--self-play", type=Path, metavar="FILE", help="play the agent against itself, keeping positions in FILE"
    )
    args = parser.parse_args()
    check_comparison(parser, args)
    name = f"alphazero-{args.simulations}"
    key: Line = ("splendor", PLAYERS, args.a, name, args.seed)
    kept = args.record.resolve() if args.record else None  # before the agent's loader changes directory
    record = Record(kept)
    if args.report:
        held_so_far(key, args.games, record, args.code, args.against)
        return
    if args.agent_dir is None:
        parser.error("--agent-dir is needed to play")
    if args.rekey and kept is None:
        parser.error("--rekey rewrites the --record file")
    part, parts = (int(n) for n in args.part.split("/"))
    out = args.self_play.resolve() if args.self_play else None  # before the agent's loader changes directory
    agent = AlphaZero(args.agent_dir.resolve(), args.simulations)
    if out:
        self_play(agent, name, out, args.games, (part, parts))
        return
    if args.rekey and kept:
        ai_strength.rekey(kept, set(args.rekey), args.replays, replay_against(agent, name))
        return
    ai_strength.line(
        key, args.games, 1, record, lambda index: play(agent, args.a, name, index, args.seed), part=(part, parts)
    )
    print(f"its first choice was not a move of ours {agent.skipped} times", flush=True)


if __name__ == "__main__":
    main()
