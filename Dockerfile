# tsbench as a container image: one static binary on a minimal non-root
# base, for running workers on Kubernetes (deploy/kubernetes/).
#
#   docker build -t tsbench:0.1.0 --build-arg VERSION=0.1.0 .
#
# By default the binary is pure Go (CGO_ENABLED=0): every server target is
# in, but not the embedded DuckDB engine, which is C++ linked through cgo.
# --build-arg WITH_DUCKDB=true links DuckDB in statically as well (the
# build tag duckdb, with cgo; slower to build, a larger binary; useful only
# for single-pod runs, since an embedded database cannot be shared by
# scaled-out workers).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=0.1.0-dev
ARG WITH_DUCKDB=false
# netgo and osusergo keep Go's own resolver and user lookup, so that the
# cgo build stays free of glibc's NSS as well. The linker still warns that
# DuckDB's own dlopen, getpwuid and getaddrinfo want glibc's shared
# libraries at run time: they serve extension loading, the home directory
# and DuckDB's HTTP client. tsbench only uses the built-in extensions, so a
# failing lookup there should be harmless, but this variant has been run
# on a Debian host, not inside distroless.
RUN set -eu; \
    ldflags="-s -w -X github.com/tsbench/tsbench/internal/run.Version=${VERSION}"; \
    if [ "${WITH_DUCKDB}" = true ]; then \
      CGO_ENABLED=1 go build -trimpath -tags duckdb,parquet,netgo,osusergo \
        -ldflags "${ldflags} -linkmode external -extldflags -static" \
        -o /out/tsbench ./cmd/tsbench; \
    else \
      CGO_ENABLED=0 go build -trimpath -tags parquet -ldflags "${ldflags}" \
        -o /out/tsbench ./cmd/tsbench; \
    fi; \
    /out/tsbench version; \
    mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tsbench /usr/local/bin/tsbench
# The data directory (run results, embedded databases) exists and belongs
# to the non-root user, so that 'docker run' works without a volume; the
# Kubernetes Job mounts an emptyDir over it and keeps the root read-only.
COPY --from=build --chown=65532:65532 /out/data /var/lib/tsbench
USER 65532:65532
ENV TSBENCH_DATA_DIR=/var/lib/tsbench
ENTRYPOINT ["/usr/local/bin/tsbench"]
CMD ["--help"]
