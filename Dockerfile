# The production image: the standalone server that `npm run build` makes, run as
# a non-root user. Written from the steps scripts/standalone-smoke.ts runs in CI
# (build, copy .next/standalone alone, `node server.js`); no Docker engine runs
# on the build machines, so the image itself is not built there. Node 24 (active
# LTS): CI runs the test suite and the standalone smoke on it (.ci/run).
# syntax=docker/dockerfile:1

FROM node:24-bookworm-slim AS build
WORKDIR /src
# onnxruntime-node's install script would download CUDA libraries (see .npmrc).
ENV ONNXRUNTIME_NODE_INSTALL=skip NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund
COPY . .
# next build, then scripts/finish-standalone.mjs adds .next/static and public/.
# The trace keeps only linux-x64 engine binaries (lib/engines/workers/engine-files.ts).
RUN npm run build

FROM node:24-bookworm-slim AS run
# Ghostscript runs PDF prepress as a separate process (AGPL: never linked into Node).
RUN apt-get update && apt-get install -y --no-install-recommends ghostscript \
  && rm -rf /var/lib/apt/lists/*
# glibc's malloc settings for the engines' worker threads: scripts/malloc-tunables.mjs says why.
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0 DATA_DIR=/data \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.arena_max=2
WORKDIR /app
COPY --from=build --chown=node:node /src/.next/standalone ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
CMD ["node", "server.js"]
