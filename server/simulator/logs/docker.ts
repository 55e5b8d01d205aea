import { defineFamily } from './family.ts';
import { PLAIN, YELLOW, secs } from './runner-text.ts';

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
        const out = [
          `#0 building with "default" instance using docker driver`,
          '',
          '#1 [internal] load build definition from Dockerfile',
          '#1 DONE 0.0s',
        ];
        for (let i = 2; i < 9; i++)
          out.push(
            `#${i} [${i - 1}/7] ${rng.pick(['RUN apk add --no-cache ca-certificates', 'COPY go.mod go.sum ./', 'RUN go mod download', 'COPY . .', 'RUN make build', 'RUN pip install --no-cache-dir -r requirements.txt', 'COPY --from=build /app /app'])}`,
            `#${i} DONE ${secs(rng, 0.1, 40).slice(0, -2)}s`,
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
  network() {
    return [
      '#3 [internal] load metadata for docker.io/library/python:3.12-slim',
      '#3 ERROR: failed to do request: Head "https://registry-1.docker.io/v2/library/python/manifests/3.12-slim": dial tcp: lookup registry-1.docker.io: Temporary failure in name resolution',
      'ERROR: failed to solve: python:3.12-slim: failed to resolve source metadata for docker.io/library/python:3.12-slim',
    ];
  },
});
