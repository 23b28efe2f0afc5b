# The shell or a remote as a static site (docs/adr/0031): its production webpack build, with the .br/.gz
# beside each file, served by nginx-unprivileged (uid 101, port 8080) with deploy/k8s/base/static-site.nginx.conf.
#   docker build -f deploy/docker/static.Dockerfile --build-arg APP=mf-wallet -t caravan/mf-wallet .
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG APP
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund --ignore-scripts
RUN npm run build -w "${APP}"

FROM nginxinc/nginx-unprivileged:1.27-alpine
ARG APP
COPY deploy/k8s/base/static-site.nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/${APP}/dist /usr/share/nginx/html
EXPOSE 8080
