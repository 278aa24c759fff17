# tsbench as a container image: a static binary on a minimal non-root base,
# for running workers on Kubernetes (deploy/kubernetes/).
#
#   docker build -t tsbench:0.1.0 --build-arg VERSION=0.1.0 .
#
# The build is static (CGO_ENABLED=0), which leaves out the one engine
# linked through cgo, the embedded DuckDB target; every server target is in.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=0.1.0-dev
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/tsbench/tsbench/internal/cli.Version=${VERSION}" \
      -o /out/tsbench ./cmd/tsbench

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tsbench /usr/local/bin/tsbench
# distroless's nonroot user; the data directory is a volume the Job mounts.
USER 65532:65532
ENV TSBENCH_DATA_DIR=/var/lib/tsbench
ENTRYPOINT ["/usr/local/bin/tsbench"]
CMD ["--help"]
