"""The typed key under which the aiohttp application keeps its Sandbox."""

from __future__ import annotations

from aiohttp import web

from sandbox.engine import Sandbox

SANDBOX = web.AppKey("sandbox", Sandbox)
