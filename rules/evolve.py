"""A fast copy-with-changes for frozen pydantic states, for engines' hot paths.

``model_copy(update=...)`` deep-dispatches through ``copy``; engines build a new state per action, so this
does the same shallow copy directly. The engine is trusted to pass values of the declared types.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# The four slots every pydantic model instance fills, set through their descriptors: twice as fast as
# ``object.__setattr__`` by name, which looks each one up on the class first.
_new = object.__new__
_SLOTS = vars(BaseModel)
_set_dict = _SLOTS["__dict__"].__set__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


def assemble(cls: type[M], fields: dict[str, Any], fields_set: set[str]) -> M:
    """Build a ``cls`` from ``fields`` (every field, in declaration order) as validation would, without
    validating: for values the engine made itself, of the declared types."""
    new = _new(cls)
    _set_dict(new, fields)
    _set_fields_set(new, fields_set)
    _set_extra(new, None)
    _set_private(new, None)
    return new


def evolve(model: M, **changes: Any) -> M:
    """Return a copy of ``model`` with ``changes`` applied, without validation."""
    return assemble(model.__class__, {**model.__dict__, **changes}, model.__pydantic_fields_set__)
