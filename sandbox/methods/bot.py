"""The bot's own identity, commands, descriptions and files."""

from __future__ import annotations

import json
import re
from typing import Any

from sandbox.engine import Sandbox
from sandbox.errors import bad_request
from sandbox.methods.common import Call, Handler
from sandbox.telegram_json import get_me

_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")


def _scope_key(call: Call) -> tuple[str, str]:
    scope = call.params.get_obj("scope") or {"type": "default"}
    return json.dumps(scope, sort_keys=True), call.params.get_str("language_code") or ""


async def get_me_method(sandbox: Sandbox, call: Call) -> Any:
    return get_me(sandbox.profile.privacy)


async def set_my_commands(sandbox: Sandbox, call: Call) -> Any:
    commands = call.params.get_list("commands")
    if commands is None:
        raise bad_request("commands is empty")
    if len(commands) > 100:
        raise bad_request("too many commands")
    clean: list[dict[str, str]] = []
    for command in commands:
        if not isinstance(command, dict) or not _COMMAND.match(str(command.get("command", ""))):
            raise bad_request("BOT_COMMAND_INVALID")
        description = command.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        clean.append({"command": command["command"], "description": description})
    sandbox.profile.commands[_scope_key(call)] = clean
    return True


async def get_my_commands(sandbox: Sandbox, call: Call) -> Any:
    return sandbox.profile.commands.get(_scope_key(call), [])


async def delete_my_commands(sandbox: Sandbox, call: Call) -> Any:
    sandbox.profile.commands.pop(_scope_key(call), None)
    return True


def _setter(param: str, limit: int, attribute: str) -> Handler:
    """setMyName / setMyDescription / setMyShortDescription all store a per-language string."""

    async def handler(sandbox: Sandbox, call: Call) -> Any:
        value = call.params.get_str(param) or ""
        if len(value) > limit:
            raise bad_request(f"{param} is too long")
        store: dict[str, str] = getattr(sandbox.profile, attribute)
        store[call.params.get_str("language_code") or ""] = value
        return True

    return handler


def _getter(param: str, attribute: str) -> Handler:
    async def handler(sandbox: Sandbox, call: Call) -> Any:
        language = call.params.get_str("language_code") or ""
        if attribute == "names":
            return {param: sandbox.profile.name(language)}
        store: dict[str, str] = getattr(sandbox.profile, attribute)
        return {param: store.get(language, store.get("", ""))}

    return handler


async def get_file(sandbox: Sandbox, call: Call) -> Any:
    stored = sandbox.world.files.get(call.params.get_str("file_id") or "")
    if stored is None:
        raise bad_request("invalid file_id")
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data),
        "file_path": stored.file_path,
    }


async def accept(sandbox: Sandbox, call: Call) -> Any:
    return True


HANDLERS: dict[str, Handler] = {
    "getMe": get_me_method,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "setMyName": _setter("name", 64, "names"),
    "getMyName": _getter("name", "names"),
    "setMyDescription": _setter("description", 512, "descriptions"),
    "getMyDescription": _getter("description", "descriptions"),
    "setMyShortDescription": _setter("short_description", 120, "short_descriptions"),
    "getMyShortDescription": _getter("short_description", "short_descriptions"),
    "getFile": get_file,
    "close": accept,
    "logOut": accept,
}
