#!/bin/sh
# Container entrypoint. Applies pending migrations when the service runs on PostgreSQL (idempotent,
# under an advisory lock, so replicas may start together; the embedded database is migrated by the
# service itself), then replaces this shell with the command (exec), so that the command (node by
# default) is PID 1 and receives docker stop's SIGTERM: graceful shutdown, pending scans stored.
set -e
if [ -n "${DATABASE_URL:-}" ]; then
  node dist/infra/database/migrate.cli.js
fi
exec "$@"
