# A Node deployable's image: svc-orders, svc-payments, svc-carriers or the gateway (docs/adr/0031).
#   docker build -f deploy/docker/node.Dockerfile --build-arg DEPLOYABLE=svc-orders -t caravan/svc-orders .
#   docker build -f deploy/docker/node.Dockerfile --build-arg DEPLOYABLE=svc-payments \
#     --build-arg APT_PACKAGES="chromium fonts-liberation fonts-dejavu-core" -t caravan/svc-payments .
# It holds the deployable's compiled code, the compiled libs it uses (contracts, service-kit) and its
# production dependencies from the lockfile, under /app laid out as the repository, run as uid 10001.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG DEPLOYABLE
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.build.json ./
COPY libs libs
COPY svc-orders svc-orders
COPY svc-payments svc-payments
COPY svc-carriers svc-carriers
COPY gateway gateway
COPY shell/package.json shell/
COPY mf-orders/package.json mf-orders/
COPY mf-wallet/package.json mf-wallet/
COPY mf-directories/package.json mf-directories/
COPY e2e/package.json e2e/
COPY types types
RUN npm ci --no-audit --no-fund --ignore-scripts
RUN npx tsc -b "${DEPLOYABLE}" && if [ "${DEPLOYABLE}" = gateway ]; then node gateway/dist/src/openapi/write.js; fi

FROM ${NODE_IMAGE} AS dependencies
ARG DEPLOYABLE
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/libs/contracts/package.json libs/contracts/
COPY --from=build /app/libs/service-kit/package.json libs/service-kit/
COPY --from=build /app/${DEPLOYABLE}/package.json ${DEPLOYABLE}/
# only this deployable's production dependencies, exactly as the lockfile has them
RUN npm ci --no-audit --no-fund --ignore-scripts --omit=dev --workspace "${DEPLOYABLE}" --include-workspace-root=false

FROM ${NODE_IMAGE}
ARG DEPLOYABLE
ARG APT_PACKAGES=""
RUN if [ -n "${APT_PACKAGES}" ]; then apt-get update && apt-get install -y --no-install-recommends ${APT_PACKAGES} \
      && rm -rf /var/lib/apt/lists/*; fi \
    && groupadd --gid 10001 caravan && useradd --uid 10001 --gid 10001 --no-create-home caravan
WORKDIR /app
ENV NODE_ENV=production
COPY --from=dependencies /app ./
COPY --from=build /app/libs/contracts/dist libs/contracts/dist
COPY --from=build /app/libs/service-kit/dist libs/service-kit/dist
COPY --from=build /app/${DEPLOYABLE}/dist ${DEPLOYABLE}/dist
USER 10001:10001
# the Deployment gives the command (node <deployable>/dist/src/main.js), the same as deploy/local starts
CMD ["node", "--version"]
