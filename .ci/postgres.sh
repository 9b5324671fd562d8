#!/usr/bin/env bash
# Installs PostgreSQL 15 and builds pgvector from Debian's trixie source package (pgvector is not
# packaged for bookworm), then starts a throwaway server on 127.0.0.1 for the test run.
# Recipe measured in ../shared/research/storage.md. Prints the connection URL on its last line.
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
PG_ROOT=${LUCID_CI_PG_ROOT:-/tmp/lucid-ci-pg}
PG_PORT=${LUCID_CI_PG_PORT:-5439}

log() { echo "[postgres] $*" >&2; }

# Each piece checked on its own: a machine may have the server but not the headers, or the headers
# but not the tools that build and unpack a source package.
need_install=""
[ -x "$PG_BIN/postgres" ] || need_install=1
[ -d /usr/include/postgresql/15/server ] || need_install=1
for tool in dpkg-source make gcc; do command -v "$tool" >/dev/null || need_install=1; done
if [ -n "$need_install" ]; then
  log "installing postgresql-15, its server headers and the build tools"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 postgresql-server-dev-15 dpkg-dev make gcc >&2
fi

if [ ! -f "$("$PG_BIN/pg_config" --sharedir)/extension/vector.control" ]; then
  log "building pgvector from Debian trixie's source package"
  if [ ! -f /etc/apt/sources.list.d/trixie-src.sources ]; then
    cat > /etc/apt/sources.list.d/trixie-src.sources <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  fi
  apt-get update -qq >&2
  build=$(mktemp -d)
  (cd "$build" && apt-get source -qq pgvector >&2)
  src=$(find "$build" -maxdepth 1 -type d -name 'pgvector-*' | head -1)
  make -s -C "$src" PG_CONFIG="$PG_BIN/pg_config" >&2
  make -s -C "$src" PG_CONFIG="$PG_BIN/pg_config" install >&2
  rm -rf "$build"
fi

if ! "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
  log "starting a server on 127.0.0.1:$PG_PORT"
  rm -rf "$PG_ROOT"
  mkdir -p "$PG_ROOT/sock"
  chown -R postgres:postgres "$PG_ROOT"
  su postgres -c "$PG_BIN/initdb -D $PG_ROOT/data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >&2
  cat >> "$PG_ROOT/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_ROOT/sock'
max_connections = 200
CONF
  su postgres -c "$PG_BIN/pg_ctl -D $PG_ROOT/data -l $PG_ROOT/server.log -w start" >&2
fi

"$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -c "create extension if not exists vector" >&2
echo "postgres://postgres@127.0.0.1:$PG_PORT/postgres"
