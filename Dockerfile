# The reverify GitHub Action image. Every build and install step lives in
# scripts/install.sh, which .ci/run also runs (a test checks that this file
# calls exactly that script).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/install.sh

FROM debian:bookworm-slim
RUN apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        libz3-4 git gcc libc6-dev ca-certificates && \
    rm -rf /var/lib/apt/lists/*
COPY --from=build /src/bin/reverify /usr/local/bin/reverify
ENTRYPOINT ["/usr/local/bin/reverify", "action"]
