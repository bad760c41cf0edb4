# An example image of Sightline (docs/operations.md#containers): built in one stage, run from a slim image as the
# unprivileged `node` user. Node 20 is the floor of package.json's engines.
FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits the platform.
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The package's own `prepare` builds it, which needs the sources: run once they are here.
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 esbuild
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    SIGHTLINE_DATA=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/assets ./assets
COPY --from=build /app/node_modules ./node_modules
# The embedded store (without DATABASE_URL) and fs providers write here; nothing else is writable.
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# serve drains on SIGTERM (SHUTDOWN_GRACE_MS): give `docker stop` a longer timeout than that.
CMD ["node", "bin/sightline.js", "serve"]
