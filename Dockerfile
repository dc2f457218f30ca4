# syntax=docker/dockerfile:1
# Production image: adapter-node build, migrations applied at start, runs as a non-root user.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# onnxruntime-node's install script would download CUDA files; its CPU backend is bundled.
ENV ONNXRUNTIME_NODE_INSTALL=skip
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
# The server, and the compiled CLI (build-cli/, which bin/cliniq.js runs while it is newer than
# the sources: a few seconds faster to start than the sources through tsx).
RUN npx svelte-kit sync && npx vite build && node scripts/build-cli.js && npm prune --omit=dev

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 BODY_SIZE_LIMIT=64M
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/build-cli ./build-cli
COPY --from=build --chown=node:node /app/drizzle ./drizzle
COPY --from=build --chown=node:node /app/scoring ./scoring
# The sources: the CLI checks build-cli/ is newer than them (and runs them through tsx if not), and
# the server applies the database functions in src/lib/server/db/functions after the migrations,
# as it finds drizzle/ (relative to /app).
COPY --from=build --chown=node:node /app/src ./src
COPY --from=build --chown=node:node /app/bin ./bin
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The server migrates the database in its init hook before it accepts requests.
CMD ["node", "build"]
