# Linen & Loft: the shop in one image. docs/deploy.md explains every setting; compose.yaml runs it
# with PostgreSQL 16 and MinIO.
#
#   docker build -t linen-and-loft .
#   docker run --init -p 3000:3000 -v shop-data:/data linen-and-loft
#
# Without DATABASE_URL the shop starts its own PostgreSQL inside the container, with its data in
# the /data volume (keep the volume: it is the shop's database, uploads and generated secrets).

# The Node version the shop is built and tested with (package.json engines: 20.19+).
ARG NODE_VERSION=20

# ---- build: every dependency, then the production build (build/) ------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- deps: production dependencies only ------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ---------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
# server.js starts the built shop; drizzle/ holds the migrations applied at start; app/, scripts/
# and tsconfig.json serve the npm scripts (doctor, db:migrate, db:backup, admin:create).
COPY package.json package-lock.json server.js tsconfig.json ./
COPY drizzle ./drizzle
COPY app ./app
COPY scripts ./scripts
RUN mkdir -p /data && chown node:node /data
# The image's own non-root user (uid 1000). PostgreSQL refuses to run as root anyway.
USER node
VOLUME ["/data"]
EXPOSE 3000
# /healthz: the database answers and the storage is usable (503 naming the part that failed).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) drains requests in flight (up to 10 s), then stops the embedded database:
# give it `docker stop -t 30` / compose's stop_grace_period.
STOPSIGNAL SIGTERM
# Not `npm start`: that builds first. The image is built once, above.
CMD ["node", "server.js"]
