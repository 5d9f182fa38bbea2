# syntax=docker/dockerfile:1
# Build stage: install everything, generate the Prisma client, compile.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: production dependencies, the compiled app, the migrations and the container scripts.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY docker/entrypoint.sh docker/healthcheck.js ./docker/
# The embedded database (no DATABASE_URL): a folder the service's user owns, kept in a volume.
ENV DATA_DIR=/app/data
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# Follows PORT when the container sets it.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["node", "docker/healthcheck.js"]
# Migrations (PostgreSQL), then `exec` the command: node is PID 1 and gets SIGTERM itself.
ENTRYPOINT ["sh", "docker/entrypoint.sh"]
CMD ["node", "dist/main.js"]
