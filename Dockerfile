FROM python:3.12-slim

# libfribidi0: Pillow's Raqm layout loads it at run time to shape Persian text.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libfribidi0 \
 && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 DATA_DIR=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY ai ./ai
COPY rendering ./rendering
COPY bot ./bot
COPY sandbox ./sandbox
RUN pip install .

RUN useradd --create-home --uid 10001 dorehami && mkdir -p /data && chown dorehami /data
USER dorehami
VOLUME ["/data"]

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["dorehami", "health"]
CMD ["dorehami", "run"]
