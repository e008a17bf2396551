"""``dorehami sandbox``: each run starts clean, and ``--keep`` goes on from the last run that stopped, with the
emulator's world and the bot's data together (bot/dev/local.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import ConfigError
from bot.dev.local import REDIS_FOLDER, WORLD_FILE, forget, free_port, kept_world, save_world
from bot.messages.texts import GAME_EXISTS
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.metrics import METRICS_PATH
from sandbox.control_client import WAIT_SECONDS, ControlClient
from sandbox.state import World

LOBBY_TITLE = "اتاق انتظار"  # in the lobby message's first line


def test_a_clean_start_throws_away_the_bots_data_and_the_saved_world(tmp_path: Path) -> None:
    (tmp_path / REDIS_FOLDER / "appendonlydir").mkdir(parents=True)
    (tmp_path / REDIS_FOLDER / "appendonlydir" / "appendonly.aof.1.incr.aof").write_bytes(b"*1\r\n")
    save_world(tmp_path, World())
    forget(tmp_path)
    assert not (tmp_path / REDIS_FOLDER).exists() and not (tmp_path / WORLD_FILE).exists()
    forget(tmp_path)  # nothing there: nothing to do


def test_a_clean_start_leaves_a_running_sandboxs_data_alone(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path / REDIS_FOLDER):
        with pytest.raises(ConfigError, match="another sandbox is running"):
            forget(tmp_path)
        assert (tmp_path / REDIS_FOLDER / "redis.sock").exists()


def test_a_saved_world_comes_back_whole(tmp_path: Path) -> None:
    world = World()
    user = world.add_user("علی")
    group = world.add_group("دورهمی", [user.id], [], user.id, is_forum=False, privacy=True)
    world.add_message(group, user.id)
    save_world(tmp_path, world)
    back = kept_world(tmp_path)
    assert back is not None
    assert back.users[user.id].first_name == "علی" and list(back.chats[group.id].messages) == [1]
    assert back.add_user("سارا").id == user.id + 1  # its ids go on from where they were


def test_no_world_or_an_unreadable_one_means_a_clean_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert kept_world(tmp_path) is None
    (tmp_path / WORLD_FILE).write_bytes(b"not a pickle")
    assert kept_world(tmp_path) is None
    assert capsys.readouterr().out.count("starting clean") == 2


@asynccontextmanager
async def sandbox_run(data_dir: Path, *options: str, metrics_port: int | None = None) -> AsyncIterator[ControlClient]:
    """``dorehami sandbox`` as a child process on any free port, stopped with Ctrl+C (SIGINT) at the end, as a
    person stops it; stopped that way on a failure too, so that it stops its embedded server (which holds our
    pipe and outlives a killed parent) before it exits. ``metrics_port``: its METRICS_PORT."""
    outside = ("REDIS_URL", "BOT_TOKEN", "BOT_API_URL", "WEBHOOK_URL", "METRICS_PORT")
    env = {k: v for k, v in os.environ.items() if k not in outside} | {"DATA_DIR": str(data_dir)}
    if metrics_port is not None:
        env["METRICS_PORT"] = str(metrics_port)
    log = (data_dir.parent / f"{data_dir.name}.log").open("ab")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sandbox", "--port", "0", *options,
        stdout=asyncio.subprocess.PIPE, stderr=log, env=env, cwd=data_dir.parent,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        url = ""
        while not url:
            line = (await asyncio.wait_for(process.stdout.readline(), WAIT_SECONDS)).decode()
            assert line, "the sandbox stopped before it said where it listens"
            if "open http" in line:
                url = line.split("open ", 1)[1].split("/ ", 1)[0]
        async with ControlClient(url) as client:
            yield client
    finally:
        try:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
                await asyncio.wait_for(process.wait(), WAIT_SECONDS)
        except TimeoutError:
            process.kill()
            raise
        finally:
            log.close()
    assert process.returncode == 0, f"the sandbox did not stop cleanly: see {log.name}"


async def one_group(sandbox: ControlClient) -> tuple[int, int]:
    """A user and a group of theirs: the same ids in every clean run, as a newcomer makes them."""
    user = await sandbox.user("علی")
    group = await sandbox.group("دورهمی جمعه", members=[user["id"]])
    return user["id"], group["id"]


def said(*texts: str) -> Any:
    """A predicate for ControlClient.wait_for: the bot's messages that contain one of ``texts``."""
    return lambda messages: [
        m for m in messages if m["from_bot"] and any(text in (m["text"] or m["caption"] or "") for text in texts)
    ]


@pytest.mark.e2e
async def test_a_new_run_starts_clean_unless_asked_to_keep(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    async with sandbox_run(data_dir) as sandbox:
        user_id, group_id = await one_group(sandbox)
        await sandbox.send(group_id, user_id, "/new coin_age")
        await sandbox.wait_for(group_id, said(LOBBY_TITLE))

    async with sandbox_run(data_dir) as sandbox:  # the newcomer's second `make sandbox`
        for world in ("users", "chats"):
            assert (await sandbox.http.get(f"/sandbox/{world}")).json() == []
        assert await one_group(sandbox) == (user_id, group_id)  # the ids come again...
        await sandbox.send(group_id, user_id, "/new coin_age")
        answer = await sandbox.wait_for(group_id, said(LOBBY_TITLE, GAME_EXISTS))
        assert LOBBY_TITLE in answer[0]["text"]  # ...and the new group has no game

    async with sandbox_run(data_dir, "--keep") as sandbox:  # goes on from the run before: its lobby is there
        before = await sandbox.messages(group_id)
        assert said(LOBBY_TITLE)(before)
        await sandbox.send(group_id, user_id, "/new coin_age")
        await sandbox.wait_for(group_id, said(GAME_EXISTS))
        assert len(await sandbox.messages(group_id)) == len(before) + 2


@pytest.mark.e2e
async def test_the_sandboxs_bot_serves_its_metrics(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    port = free_port("127.0.0.1")
    async with sandbox_run(data_dir, metrics_port=port) as sandbox, httpx.AsyncClient(trust_env=False) as http:
        user_id, group_id = await one_group(sandbox)
        await sandbox.send(group_id, user_id, "/new coin_age")
        await sandbox.wait_for(group_id, said(LOBBY_TITLE))
        page = (await http.get(f"http://127.0.0.1:{port}{METRICS_PATH}")).text
    samples = [sample for family in text_string_to_metric_families(page) for sample in family.samples]
    handled = {s.labels["handler"]: s.value for s in samples if s.name == "dorehami_handler_seconds_count"}
    assert handled["lobby.cmd_new"] == 1
    assert [s.labels for s in samples if s.name == "dorehami_active_games"] == [{"game": "coin_age", "phase": "lobby"}]
