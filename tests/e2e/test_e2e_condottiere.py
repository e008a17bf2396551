"""End to end: رکب with hands in private chats — four players on the map, the two-player variant, a player
the bot cannot write to — and no hand ever in the group."""

from __future__ import annotations

from typing import Any

from bot.dev.simulate import Settle, Table, button, buttons, hand_of, open_lobby, play_to_end, start_game, table
from bot.messages import texts
from sandbox.control_client import ControlClient


async def _group_requests(sandbox: ControlClient, t: Table, after: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while True:
        page = await sandbox.log(after=after)
        items += [i for i in page["items"] if i["chat_id"] == t.chat_id]
        if page["next"] == after or not page["items"]:
            return items
        after = page["next"]


async def _assert_no_hand_in_group(sandbox: ControlClient, t: Table, after: int) -> None:
    """The private captions start with the hand ("🃏 <n> کارت: …"); none of that reaches the group."""
    for item in await _group_requests(sandbox, t, after):
        words = f"{item['params'].get('text', '')} {item['params'].get('caption', '')}"
        media = item["params"].get("media")
        if isinstance(media, dict):
            words += str(media.get("caption", ""))
        assert texts.YOUR_HAND not in words and " کارت: " not in words, item


async def test_four_players_play_a_whole_game_with_hands_in_private(sandbox: ControlClient, settle: Settle) -> None:
    after = (await sandbox.log())["next"]
    t = await table(sandbox, players=4)
    board = await start_game(sandbox, t, game="condottiere")
    await settle()
    for player in t.players:
        hand = await hand_of(sandbox, player)
        assert hand is not None and texts.YOUR_HAND in hand["caption"] and "۱۰ کارت" in hand["caption"]
    assert [b.get("url") for b in buttons(board) if b.get("url")] or any(
        b["data"].startswith("g:") for b in buttons(board) if "data" in b
    )
    board = await play_to_end(sandbox, t, seed=3, limit=4000)
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "رکب" in result and all(p["first_name"] in result for p in t.players)
    await _assert_no_hand_in_group(sandbox, t, after)


async def test_two_players_play_the_two_player_variant_to_the_result(sandbox: ControlClient, settle: Settle) -> None:
    after = (await sandbox.log())["next"]
    t = await table(sandbox, players=2)
    await start_game(sandbox, t, game="condottiere")
    await settle()
    hand = await hand_of(sandbox, t.players[0])
    assert hand is not None and "۸ کارت" in hand["caption"]
    await play_to_end(sandbox, t, seed=4, limit=3000)
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "جنگ برده" in result
    await _assert_no_hand_in_group(sandbox, t, after)


async def test_a_player_the_bot_cannot_reach_is_named_in_the_group_and_gets_the_hand_by_link(
    sandbox: ControlClient,
    settle: Settle,
) -> None:
    t = await table(sandbox, players=3)
    blocked = t.players[2]
    lobby = await open_lobby(sandbox, t, "condottiere")
    for player in t.players[1:]:
        await sandbox.press(t.chat_id, lobby["message_id"], player["id"], button(lobby, ":join")["data"])
        await settle()
        lobby = next(m for m in await sandbox.messages(t.chat_id) if m["message_id"] == lobby["message_id"])
    # blocked after joining (a player who blocked before is asked to start the bot first: test_e2e_membership)
    await sandbox.http.post(f"/sandbox/users/{blocked['id']}/block", json={"blocked": True})
    await sandbox.press(t.chat_id, lobby["message_id"], t.players[0]["id"], button(lobby, ":start")["data"])

    def told(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [m for m in messages if "نمی‌تواند دستِ شما" in (m["text"] or "")]

    # waited for, not a quiet chat: the board is rendered first, and that can take longer than a quiet moment
    await sandbox.wait_for(t.chat_id, told)
    await settle()
    notices = told(await sandbox.messages(t.chat_id))
    assert len(notices) == 1 and blocked["first_name"] in notices[0]["text"]
    link = next(b["url"] for b in buttons(notices[0]) if "url" in b)
    await sandbox.http.post(f"/sandbox/users/{blocked['id']}/block", json={"blocked": False})
    await sandbox.send(blocked["id"], blocked["id"], f"/start {link.split('start=', 1)[1]}")
    await settle()
    hand = await hand_of(sandbox, blocked)
    assert hand is not None and texts.YOUR_HAND in hand["caption"]
