# syntax=docker/dockerfile:1
# The base image pinned to an exact release. A tag, not a digest: no registry could be asked for the digest where
# this was written; pin it with `docker buildx imagetools inspect python:3.12.12-slim-bookworm` where one can.
# Its Python is the one the locks are made for (Makefile: LOCK_PYTHON).
ARG PYTHON_IMAGE=python:3.12.12-slim-bookworm

# The bot's wheel, built from the source with the build lock's setuptools; only the wheel leaves this stage.
FROM ${PYTHON_IMAGE} AS wheel
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY requirements-build.lock ./
RUN pip install --require-hashes --no-deps -r requirements-build.lock
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY ai ./ai
COPY rendering ./rendering
COPY bot ./bot
COPY sandbox ./sandbox
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}

# libfribidi0: Pillow's Raqm layout loads it at run time to shape Persian text.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libfribidi0 \
 && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 DATA_DIR=/data

# The dependencies, each checked against its hash, in a layer of their own: a change of the code alone does not
# install them again.
COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes --no-deps -r /tmp/requirements.lock && rm /tmp/requirements.lock

# The bot itself, from the wheel stage's folder mounted for this step only: no source, build folder or wheel stays.
RUN --mount=type=bind,from=wheel,source=/wheels,target=/wheels pip install --no-deps /wheels/*.whl

RUN useradd --create-home --uid 10001 dorehami && mkdir -p /data && chown dorehami /data
USER dorehami
WORKDIR /home/dorehami
VOLUME ["/data"]

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["dorehami", "health"]
CMD ["dorehami", "run"]
