"""Decodes Bot API parameters from any of the encodings Telegram accepts.

PTB sends form or multipart bodies in which numbers are strings and structured values are
JSON strings; other clients send JSON. Everything is normalised into one dict here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from sandbox.errors import bad_request

_JSON_FIELDS = {
    "reply_markup",
    "media",
    "entities",
    "caption_entities",
    "allowed_updates",
    "commands",
    "scope",
    "reply_parameters",
    "link_preview_options",
    "message_ids",
    "menu_button",
}
# How Telegram names a field in "can't parse … JSON object", where it differs from the field's own name.
_JSON_NAMES = {"menu_button": "menu button"}
_INT_FIELDS = {
    "chat_id",
    "message_id",
    "message_thread_id",
    "reply_to_message_id",
    "offset",
    "limit",
    "cache_time",
    "max_connections",
    "user_id",
}
_FLOAT_FIELDS = {"timeout"}
_BOOL_FIELDS = {
    "disable_notification",
    "protect_content",
    "show_alert",
    "drop_pending_updates",
    "has_spoiler",
    "allow_sending_without_reply",
    "disable_web_page_preview",
    "show_caption_above_media",
    "allow_paid_broadcast",
    "for_channels",
}


@dataclass
class UploadedFile:
    """A file part of a multipart request."""

    data: bytes
    filename: str | None
    content_type: str | None


@dataclass
class Params:
    """A method's decoded parameters, plus uploaded files and how they were resolved."""

    values: dict[str, Any] = field(default_factory=dict)
    files: dict[str, UploadedFile] = field(default_factory=dict)
    # original reference ("attach://x", a part name, or a file_id) -> stored file_id, for the log
    resolved_files: dict[str, str] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "")

    def get_str(self, name: str, default: str | None = None) -> str | None:
        value = self.values.get(name)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def get_int(self, name: str) -> int | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise bad_request(f"wrong parameter {name!r}: expected an integer")
        try:
            return int(value)
        except ValueError:
            raise bad_request(f"wrong parameter {name!r}: expected an integer") from None

    def get_float(self, name: str) -> float | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f"wrong parameter {name!r}: expected a number") from None

    def get_bool(self, name: str) -> bool:
        value = self.values.get(name)
        if isinstance(value, str):
            return value.lower() in ("true", "1")
        return bool(value)

    def get_obj(self, name: str) -> dict[str, Any] | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, dict):
            raise bad_request(f"can't parse {name}: expected a JSON object")
        return value

    def get_list(self, name: str) -> list[Any] | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, list):
            raise bad_request(f"can't parse {name}: expected a JSON array")
        return value

    def for_log(self) -> dict[str, Any]:
        """The parameters with file bytes replaced by ``{"file": file_id}``."""
        logged: dict[str, Any] = {key: self._log_value(value) for key, value in self.values.items()}
        for name in self.files:
            referenced = f"attach://{name}"
            if name not in logged and referenced not in self.resolved_files:
                logged[name] = {"file": self.resolved_files.get(name)}
        return logged

    def _log_value(self, value: Any) -> Any:
        if isinstance(value, str) and value in self.resolved_files:
            return {"file": self.resolved_files[value]}
        if isinstance(value, dict):
            return {key: self._log_value(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self._log_value(item) for item in value]
        return value


async def read_params(request: web.Request) -> Params:
    """Merge the query string and the body, whatever its encoding, into normalised parameters."""
    params = Params(values=dict(request.query))
    if request.method == "POST" and request.can_read_body:
        content_type = request.content_type
        if content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON request body") from None
            if not isinstance(body, dict):
                raise bad_request("request body must be a JSON object")
            params.values.update(body)
        elif content_type == "multipart/form-data":
            await _read_multipart(request, params)
        else:
            form = await request.post()
            params.values.update({key: value for key, value in form.items() if isinstance(value, str)})
    params.values = {key: _normalise(key, value) for key, value in params.values.items()}
    return params


async def _read_multipart(request: web.Request, params: Params) -> None:
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader) or part.name is None:
            continue
        data = await part.read()
        if part.filename is not None:
            content_type = part.headers.get("Content-Type")
            params.files[part.name] = UploadedFile(bytes(data), part.filename, content_type)
        else:
            params.values[part.name] = bytes(data).decode("utf-8")


def _normalise(key: str, value: Any) -> Any:
    """Decode JSON-in-a-string fields and coerce the numeric and boolean ones."""
    if not isinstance(value, str):
        return value
    if key in _JSON_FIELDS and value.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {_JSON_NAMES.get(key, key)} JSON object") from None
    if key in _INT_FIELDS:
        try:
            return int(value)
        except ValueError:
            return value
    if key in _FLOAT_FIELDS:
        try:
            return float(value)
        except ValueError:
            return value
    if key in _BOOL_FIELDS and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value
