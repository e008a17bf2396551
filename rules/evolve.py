"""A fast copy-with-changes for frozen pydantic states, for engines' hot paths.

``model_copy(update=...)`` deep-dispatches through ``copy``; engines build a new state per action, so this
does the same shallow copy directly. The engine is trusted to pass values of the declared types.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__


def assemble(cls: type[M], fields: dict[str, Any], fields_set: set[str]) -> M:
    """Build a ``cls`` from ``fields`` (every field, in declaration order) as validation would, without
    validating: for values the engine made itself, of the declared types."""
    new = cls.__new__(cls)
    _set(new, "__dict__", fields)
    _set(new, "__pydantic_fields_set__", fields_set)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


def evolve(model: M, **changes: Any) -> M:
    """Return a copy of ``model`` with ``changes`` applied, without validation."""
    return assemble(model.__class__, {**model.__dict__, **changes}, model.__pydantic_fields_set__)
