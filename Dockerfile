# The reverify GitHub Action image. action.yml runs the published image
# (ghcr.io/reverify/reverify, built from this file by
# .github/workflows/release.yml on every release tag), so a workflow run
# only pulls it. Build it from source for development:
#
#   docker build -t reverify:dev .
#   docker run --rm -v "$PWD:/src" -w /src --entrypoint reverify reverify:dev check FILE.c
#
# The build stage runs exactly scripts/install.sh, as .ci/run does (a test
# checks both); REVERIFY_VERSION (the tag; a leading v is dropped) stamps
# the binary (`reverify version`; empty: the default in
# cmd/reverify/version.go) and REVERIFY_INSTALL=build installs only what
# compiling needs. The runtime stage holds the binary
# and what it runs in action mode: libz3-4 (linked), git (the diff and the
# base revision), gcc and libc6-dev (the front end reads the host C
# compiler's configuration and headers), clang and llvm (the input
# frontend: clang compiles the sources and links their IR with
# llvm-link), ca-certificates (GitHub's API).
# cmd/reverify/exec_test.go checks this list against the programs the code
# runs.
FROM golang:1.26-bookworm AS build
ARG REVERIFY_VERSION=
ARG REVERIFY_INSTALL=build
WORKDIR /src
COPY . .
RUN scripts/install.sh

FROM debian:bookworm-slim
RUN apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        libz3-4 git gcc libc6-dev clang llvm ca-certificates && \
    apt-get clean && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/bin/reverify /usr/local/bin/reverify
LABEL org.opencontainers.image.source=https://github.com/reverify/reverify
ENTRYPOINT ["/usr/local/bin/reverify", "action"]
