"""Errors that Bot API methods raise, rendered as Telegram's ``{"ok": false, ...}`` replies."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A Bot API failure carrying Telegram's status code and wording."""

    def __init__(
        self,
        error_code: int,
        description: str,
        retry_after: float | None = None,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def payload(self) -> dict[str, Any]:
        """The JSON body Telegram would send for this error, with its ResponseParameters."""
        body: dict[str, Any] = {"ok": False, "error_code": self.error_code, "description": self.description}
        parameters: dict[str, Any] = {}
        if self.retry_after is not None:
            parameters["retry_after"] = self.retry_after
        if self.migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = self.migrate_to_chat_id
        if parameters:
            body["parameters"] = parameters
        return body


def bad_request(message: str) -> ApiError:
    """A 400 with Telegram's "Bad Request: " prefix."""
    return ApiError(400, f"Bad Request: {message}")


def forbidden(message: str) -> ApiError:
    """A 403 with Telegram's "Forbidden: " prefix."""
    return ApiError(403, f"Forbidden: {message}")


def too_many_requests(seconds: int, scale: float = 1.0) -> ApiError:
    """A 429 telling the bot to wait ``seconds`` whole Telegram seconds: that many real seconds, as Telegram
    says it, or that times the sandbox's ``time_scale`` (a fraction of a second, to the millisecond)."""
    retry_after: float = seconds if scale == 1 else round(seconds * scale, 3)
    return ApiError(429, f"Too Many Requests: retry after {retry_after:g}", retry_after=retry_after)


def migrated(new_chat_id: int) -> ApiError:
    """A 400 for any call naming a basic group that became a supergroup, with the supergroup's id."""
    return ApiError(400, "Bad Request: group chat was migrated to a supergroup chat", migrate_to_chat_id=new_chat_id)


def conflict(message: str) -> ApiError:
    """A 409, used for getUpdates clashes."""
    return ApiError(409, f"Conflict: {message}")


CHAT_NOT_FOUND = "chat not found"
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)
