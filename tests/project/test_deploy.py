"""What can be checked of the image and compose without Docker: the locks cannot drift from pyproject.toml (nor the
tests' lock from the image's), the Dockerfile installs from them by hash before the code, and compose runs the
embedded server's Valkey the way the embedded server runs it."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.plumbing.embedded_server import server_binary

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^ \\;]+)(?: *;[^\\]*)? *\\?$")


def pins(lock: str) -> dict[str, tuple[str, int]]:
    """Each pinned package of a lock file: its version and how many hashes it carries."""
    found: dict[str, tuple[str, int]] = {}
    name = ""
    for line in (ROOT / lock).read_text().splitlines():
        if match := PIN.match(line):
            name = canonicalize_name(match.group(1))
            assert name not in found, f"{lock}: {name} pinned twice"
            found[name] = (match.group(2), 0)
        elif line.strip().startswith("--hash=sha256:"):
            version, hashes = found[name]
            found[name] = (version, hashes + 1)
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"{lock}: a line that is neither a pin nor a hash: {line!r}")
    return found


def check_covers(lock: str, requirements: list[str], *, hashed: bool = True) -> None:
    locked = pins(lock)
    assert locked, f"{lock}: no pins"
    assert not hashed or all(hashes for _, hashes in locked.values()), f"{lock}: a pin without a hash"
    for text in requirements:
        wanted = Requirement(text)
        name = canonicalize_name(wanted.name)
        assert name in locked, f"{lock} lacks {wanted.name} (pyproject.toml): run `make lock`"
        version = locked[name][0]
        assert wanted.specifier.contains(version, prereleases=True), f"{lock}: {name}=={version} is not {wanted}"


def test_the_lock_pins_every_dependency_within_its_range_with_hashes() -> None:
    check_covers("requirements.lock", PYPROJECT["project"]["dependencies"])


def test_the_tests_lock_pins_the_test_tools_too_at_the_images_versions() -> None:
    """make test and CI install with requirements-test.lock as constraints: a new release on the registry (redis-py
    8.2's type hints once failed CI's mypy) reaches the tests only through `make lock`, and then the image too."""
    dependencies = PYPROJECT["project"]["dependencies"]
    check_covers(
        "requirements-test.lock", dependencies + PYPROJECT["project"]["optional-dependencies"]["test"], hashed=False
    )
    image, tests = pins("requirements.lock"), pins("requirements-test.lock")
    differ = {
        name: (image[name][0], tests[name][0])
        for name in image.keys() & tests.keys()
        if image[name][0] != tests[name][0]
    }
    assert not differ, f"the locks disagree (image, tests): {differ}: run `make lock`"


def test_the_build_lock_pins_the_build_system() -> None:
    check_covers("requirements-build.lock", PYPROJECT["build-system"]["requires"])


def test_the_image_installs_the_locks_by_hash_before_the_code() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.12\.\d+-slim-\w+$", text, re.M), "the base image: an exact release"
    assert "--python-version 3.12 " in (ROOT / "Makefile").read_text().replace("$(LOCK_PYTHON)", "3.12")
    final = text[text.rindex("\nFROM ") :]  # the image's own stage
    install = final.index("pip install --require-hashes --no-deps -r /tmp/requirements.lock")
    assert install < final.index("pip install --no-deps /wheels/*.whl")
    assert "COPY bot" not in final and "COPY rules" not in final  # no source in the image, only the wheel
    wheel = text[: text.rindex("\nFROM ")]
    assert wheel.index("--require-hashes --no-deps -r requirements-build.lock") < wheel.index("--no-build-isolation")


def test_the_build_context_leaves_out_what_is_not_the_package() -> None:
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored[ignored.index("*") - 1].startswith("#") and "*" in ignored  # all out, then the package let in
    for kept in ("!pyproject.toml", "!requirements.lock", "!requirements-build.lock", "!bot/", "!sandbox/"):
        assert kept in ignored
    for out in (".env", ".git", ".venv", "tests", "bench", "**/__pycache__", "**/*.egg-info"):
        assert out in ignored


def _service(compose: str, name: str) -> str:
    """The text of one service in compose.yaml (two-space indented under ``services:``)."""
    block = compose[compose.index(f"\n  {name}:\n") :]
    end = re.search(r"\n  \S|\n\S", block[1:])
    return block[: end.start() + 1] if end else block


def test_compose_runs_the_embedded_server_s_valkey_and_fsync_policy() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    embedded = (ROOT / "bot" / "plumbing" / "embedded_server.py").read_text()
    fsync = re.search(r'"--appendfsync", "(\w+)"', embedded)
    assert fsync is not None
    version = subprocess.run([server_binary(), "--version"], capture_output=True, text=True, check=True).stdout
    embedded_version = re.search(r"v=(\d+\.\d+\.\d+)", version)
    assert embedded_version is not None
    redis = _service(compose, "redis")
    assert f"image: valkey/valkey:{embedded_version.group(1)}-" in redis
    assert f'"--appendfsync", "{fsync.group(1)}"' in redis and '"--appendonly", "yes"' in redis
    for name in ("bot", "redis"):
        service = _service(compose, name)
        assert "init: true" in service and "stop_grace_period:" in service and "logging: *logging" in service
    assert re.search(r"driver: json-file\n\s+options:\n\s+max-size: \"\d+m\"\n\s+max-file: \"\d+\"", compose)
