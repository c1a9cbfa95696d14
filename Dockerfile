# Jornada in a container: Node.js 26 (the version the project pins) on Debian slim, the dashboard built at image
# build time, development dependencies left out of the final image, running as the unprivileged `node` user.
# With DATABASE_URL the service uses that PostgreSQL 18 server and embeds none (compose.yaml runs one).

FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci` runs the `prepare` script, which builds the dashboard: it needs the sources first.
COPY . .
RUN npm ci && npm prune --omit=dev

FROM node:26-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    JORNADA_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The image's own Node 26 runs the TypeScript sources directly (type stripping) from a JavaScript entry that turns
# on Node's compile cache (in /tmp) first; no npm in the way of signals.
ENTRYPOINT ["node", "src/cli.js"]
CMD ["serve", "--role=all"]
