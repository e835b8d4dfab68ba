#!/usr/bin/env bash
# Make sure the PostgreSQL and Redis server binaries the store tests start
# are installed. Idempotent and quick when they already are: apt runs only
# when something is missing. The servers themselves are started (and
# stopped) by a pytest session fixture, on loopback, in a temp dir.
set -euo pipefail

have_postgres() {
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null
}
have_redis() {
    command -v redis-server >/dev/null 2>&1
}

missing=()
have_postgres || missing+=(postgresql)
have_redis || missing+=(redis-server)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
else
    SUDO=
fi
echo "ci_services: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# Packaged services must not start on install: the tests run their own.
$SUDO env RUNLEVEL=1 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Debian starts the packaged services anyway on some images; we do not need them.
if command -v service >/dev/null 2>&1; then
    $SUDO service redis-server stop >/dev/null 2>&1 || true
fi
have_postgres && have_redis
