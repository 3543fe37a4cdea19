# One image, every service: the command picks it (all-in-one, verdict-gateway, verdict-identity,
# verdict-policy, verdict-evaluation, verdict-compliance, verdict-webhooks, verdict-integrations,
# verdict-mcp).
#   docker build -t verdict .
#   docker run --read-only -v verdict-data:/data -p 127.0.0.1:8080:8080 verdict
# BUILD_BASE / RUNTIME_BASE select other bases (deploy/image/base.sh builds local ones where no
# registry can be reached).
ARG BUILD_BASE=node:24-bookworm
ARG RUNTIME_BASE=node:24-bookworm-slim

FROM ${BUILD_BASE} AS build
# Marks the build stage's image, which deploy/compose/images.sh tags to keep the layer cache and
# removes once a newer build replaces it.
LABEL io.verdict.stage="build"
ARG PNPM_VERSION=10.34.8
RUN npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}"
WORKDIR /src
# Native addons (re2, better-sqlite3) build from source against this Node's headers.
# The headers ship with the base image's Node (/usr/local/include/node): node-gyp downloads nothing.
ENV npm_config_nodedir=/usr/local npm_config_build_from_source=true RE2_DOWNLOAD_SKIP_PATH=1 RE2_DOWNLOAD_SKIP_VER=1 CI=true
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json tsconfig.build.json buf.yaml buf.gen.yaml ./
# The manifests first: the dependency install (native addons compile here, minutes) stays cached
# until a manifest or the lockfile changes (a new workspace package needs its line here).
COPY libs/bus/package.json libs/bus/
COPY libs/cli/package.json libs/cli/
COPY libs/kit/package.json libs/kit/
COPY libs/mcp-tools/package.json libs/mcp-tools/
COPY libs/outbox/package.json libs/outbox/
COPY libs/proto/package.json libs/proto/
COPY libs/runtime/package.json libs/runtime/
COPY libs/sdk/package.json libs/sdk/
COPY libs/store/package.json libs/store/
COPY libs/structural/package.json libs/structural/
COPY services/all-in-one/package.json services/all-in-one/
COPY services/compliance/package.json services/compliance/
COPY services/evaluation/package.json services/evaluation/
COPY services/gateway/package.json services/gateway/
COPY services/identity/package.json services/identity/
COPY services/integrations/package.json services/integrations/
COPY services/mcp/package.json services/mcp/
COPY services/policy/package.json services/policy/
COPY services/portal/package.json services/portal/
COPY services/webhooks/package.json services/webhooks/
COPY test/package.json test/
COPY deploy/image/package.json deploy/image/
RUN pnpm install --frozen-lockfile
COPY proto proto
COPY libs libs
COPY services services
COPY deploy/image deploy/image
COPY scripts/node-env.sh scripts/build-sqlite-addon.sh scripts/pack-cli.mjs scripts/build-sea.mjs scripts/
COPY scripts/sea scripts/sea
RUN pnpm install --frozen-lockfile --offline && pnpm run build
# The production dependencies of every service, and nothing else; of the native packages only
# the compiled addons are kept (not their sources and objects), of ours only dist/.
# The proto sources (gRPC server reflection) travel inside @verdict/proto. The `verdict` command
# is the single executable (docs/install.md), built from this stage's Node.js.
RUN cp -r proto libs/proto/proto \
 && pnpm --filter @verdict/image deploy --legacy --prod /app \
 && node scripts/build-sea.mjs --out /app/bin \
 && bash scripts/build-sqlite-addon.sh /app/node_modules \
 && cd /app/node_modules/.pnpm \
 && for d in re2@*/node_modules/re2 better-sqlite3@*/node_modules/better-sqlite3; do \
      mkdir "$d/.keep" && cp "$d"/build/Release/*.node "$d/.keep/" \
      && rm -rf "$d/build" "$d/vendor" "$d/deps" "$d/src" "$d/prebuilds" \
      && mkdir -p "$d/build" && mv "$d/.keep" "$d/build/Release"; \
    done \
 && find /app/node_modules/@verdict/ -mindepth 2 -maxdepth 2 \( -name src -o -name '*.tsbuildinfo' -o -name 'tsconfig.json' \) -exec rm -rf {} + \
 && mkdir -p /app/bin \
 && ln -s ../node_modules/@verdict/all-in-one/dist/main.js /app/bin/all-in-one \
 && for s in gateway identity policy evaluation compliance webhooks integrations mcp; do \
      chmod +x "/app/node_modules/@verdict/$s/dist/bin.js" \
      && ln -s "../node_modules/@verdict/$s/dist/bin.js" "/app/bin/verdict-$s"; \
    done \
 && chmod +x /app/node_modules/@verdict/all-in-one/dist/main.js \
 && cp /src/deploy/image/healthcheck.mjs /app/bin/verdict-healthcheck && chmod +x /app/bin/verdict-healthcheck

FROM ${RUNTIME_BASE}
# tini as PID 1: forwards SIGTERM to the service (which drains) and reaps children.
RUN apt-get update && apt-get install -y --no-install-recommends tini \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && groupadd --system --gid 10001 verdict && useradd --system --uid 10001 --gid verdict --no-create-home --home-dir /nonexistent verdict \
 && mkdir /data && chown verdict:verdict /data
COPY --from=build /app /app
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Verdict" \
      org.opencontainers.image.description="Code policy evaluation service: every Verdict service in one image, chosen by the command" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.base.name="node:24-bookworm-slim"
ENV NODE_ENV=production PATH=/app/bin:$PATH VERDICT_DATA_DIR=/data
# Everything the services write goes to /data (the embedded store, generated keys): mount a
# volume there and run with --read-only.
VOLUME /data
WORKDIR /data
USER 10001:10001
EXPOSE 8080 8090 50051 50052 50053 50054 50055
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 CMD ["verdict-healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["all-in-one"]
