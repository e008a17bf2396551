"""A fast copy-with-changes for frozen pydantic states, for engines' hot paths.

``model_copy(update=...)`` deep-dispatches through ``copy``; engines build a new state per action, so this
does the same shallow copy directly. The engine is trusted to pass values of the declared types.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__


def evolve(model: M, **changes: Any) -> M:
    """Return a copy of ``model`` with ``changes`` applied, without validation."""
    new = model.__class__.__new__(model.__class__)
    fields = dict(model.__dict__)
    fields.update(changes)
    _set(new, "__dict__", fields)
    _set(new, "__pydantic_fields_set__", model.__pydantic_fields_set__)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new
