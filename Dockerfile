# One image for api, worker, cli and voice-agent; the command chooses the role (see docker-compose.yml).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.8
COPY . .
RUN pnpm install --frozen-lockfile && pnpm exec tsc -b tsconfig.json

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY --from=build /app /app
EXPOSE 3000
CMD ["node", "--enable-source-maps", "apps/api/dist/main.js"]
