import type { SimProject } from '../model.ts';
import type { Rng } from '../random.ts';
import { defineFamily } from './family.ts';
import { PLAIN, YELLOW, secs } from './runner-text.ts';

/** The base image a project's Dockerfile starts from, with the Dockerfile lines after FROM. */
function baseImage(project: SimProject): { image: string; next: [string, string] } {
  switch (project.kind) {
    case 'python-data':
      return {
        image: 'python:3.12-slim',
        next: ['WORKDIR /app', 'COPY requirements.txt ./'],
      };
    case 'go-service':
      return { image: 'golang:1.22-alpine', next: ['WORKDIR /src', 'COPY go.mod go.sum ./'] };
    default:
      return {
        image: 'node:20-alpine',
        next: ['WORKDIR /app', 'COPY package.json package-lock.json ./'],
      };
  }
}

/** `library/node` and `20-alpine` of `node:20-alpine` (official images live under library/). */
function repoAndTag(image: string): [string, string] {
  const [name, tag] = image.split(':') as [string, string];
  return [`library/${name}`, tag];
}

const hex = (rng: Rng, n: number) =>
  Array.from({ length: n }, () => '0123456789abcdef'[rng.int(0, 15)]).join('');

/** BuildKit's first lines: the builder, the Dockerfile read, the base image's metadata asked. */
function buildStart(image: string, rng: Rng): string[] {
  return [
    '#0 building with "default" instance using docker driver',
    '',
    '#1 [internal] load build definition from Dockerfile',
    `#1 transferring dockerfile: ${rng.int(400, 1800)}B done`,
    '#1 DONE 0.0s',
    '',
    `#2 [internal] load metadata for docker.io/library/${image}`,
  ];
}

/** Container image builds with docker buildx. */
export const dockerFamily = defineFamily(['docker-build'], {
  setup() {
    return [
      {
        cmd: 'echo "$CI_REGISTRY_PASSWORD" | docker login -u "$CI_REGISTRY_USER" --password-stdin "$CI_REGISTRY"',
        out: [
          `${YELLOW}WARNING! Your password will be stored unencrypted in /root/.docker/config.json.${PLAIN}`,
          'Login Succeeded',
        ],
      },
    ];
  },
  main(tool, ctx, rng) {
    const p = ctx.project;
    switch (tool) {
      case 'docker-build': {
        const { image } = baseImage(p);
        const out = [...buildStart(image, rng), `#2 DONE ${secs(rng, 0.4, 2).slice(0, -2)}s`, ''];
        for (let i = 3; i < 9; i++)
          out.push(
            `#${i} [${i - 2}/6] ${rng.pick(['RUN apk add --no-cache ca-certificates', 'COPY go.mod go.sum ./', 'RUN go mod download', 'COPY . .', 'RUN make build', 'RUN pip install --no-cache-dir -r requirements.txt', 'COPY --from=build /app /app'])}`,
            `#${i} DONE ${secs(rng, 0.1, 40).slice(0, -2)}s`,
            '',
          );
        out.push(
          `#9 exporting to image`,
          `#9 naming to registry.acme.example/${p.fullPath}:${ctx.pipeline.sha.slice(0, 8)} done`,
          '#9 DONE 1.2s',
        );
        return { cmd: `docker build --pull -t "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHORT_SHA" .`, out };
      }
    }
  },
  // `docker build --pull` asks Docker Hub for the base image's manifest first; the pull limit and
  // DNS failures end the build there. The shapes are BuildKit's own (docker buildx with the
  // docker driver), as in https://github.com/rapidsai/ci-imgs/issues/427,
  // https://github.com/NVIDIA/gpu-driver-container/pull/783 and
  // https://github.com/addnab/docker-run-action/issues/56.
  downloadsInMain: () => true,
  network(_tool, ctx, rng) {
    const { image, next } = baseImage(ctx.project);
    const [repo, tag] = repoAndTag(image);
    const cause = rng.chance(0.6)
      ? `failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/${repo}/manifests/sha256:${hex(rng, 64)}: 429 Too Many Requests - Server message: toomanyrequests: You have reached your unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit`
      : `failed to do request: Head "https://registry-1.docker.io/v2/${repo}/manifests/${tag}": dial tcp: lookup registry-1.docker.io on 10.0.0.2:53: no such host`;
    return [
      ...buildStart(image, rng),
      `#2 ERROR: ${cause}`,
      '------',
      ` > [internal] load metadata for docker.io/library/${image}:`,
      '------',
      'Dockerfile:1',
      '--------------------',
      `   1 | >>> FROM ${image} AS build`,
      `   2 |     ${next[0]}`,
      `   3 |     ${next[1]}`,
      '--------------------',
      `ERROR: failed to solve: ${image}: failed to resolve source metadata for docker.io/library/${image}: ${cause}`,
    ];
  },
});
