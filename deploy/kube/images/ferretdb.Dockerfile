# FerretDB (MongoDB wire protocol on SQLite) for the chart's devServices.mongodb: tests and
# evaluation only. Context: a directory holding the ferretdb binary deploy/local/mongo.sh builds.
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN groupadd --system --gid 10001 ferretdb && useradd --system --uid 10001 --gid ferretdb --no-create-home --home-dir /nonexistent ferretdb \
 && mkdir -p /state/data && chown -R ferretdb:ferretdb /state
COPY ferretdb /usr/local/bin/ferretdb
USER 10001:10001
EXPOSE 27017
ENTRYPOINT ["/usr/local/bin/ferretdb"]
CMD ["--handler=sqlite", "--sqlite-url=file:/state/data/", "--state-dir=/state", "--listen-addr=:27017", "--debug-addr=-", "--telemetry=disable", "--log-level=warn"]
