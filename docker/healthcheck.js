// Container health check: ready when /health/ready answers 200 on the service's PORT (as the
// service reads it: 3000 unless set). Exits 0 when healthy, 1 otherwise.
const port = process.env.PORT || '3000';
fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2500) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
