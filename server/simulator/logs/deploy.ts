import { defineFamily, type FailureWriters } from './family.ts';

/** Kubernetes deployments with kubectl and Helm. */
export const deployFamily = defineFamily(['deploy'], {
  setup(_tool, ctx) {
    const p = ctx.project;
    return [
      {
        cmd: `kubectl config use-context ${p.group.fullPath.split('/')[0]}/platform/infra/agents:${ctx.pipeline.tag ? 'production' : 'staging'}`,
        out: [
          `Switched to context "${p.group.fullPath.split('/')[0]}/platform/infra/agents:${ctx.pipeline.tag ? 'production' : 'staging'}".`,
        ],
      },
    ];
  },
  // Helm reaches the cluster through the GitLab agent's proxy on GitLab's own host; when that
  // host does not resolve, Helm says the cluster is unreachable (helm's pkg/action, "Kubernetes
  // cluster unreachable"). kubectl's `config use-context` before it only edits the local config.
  downloadsInMain: () => true,
  network() {
    const host = 'gitlab.acme.example';
    return [
      `Error: Kubernetes cluster unreachable: Get "https://${host}/-/kubernetes-agent/k8s-proxy/version": dial tcp: lookup ${host} on 10.96.0.10:53: no such host`,
    ];
  },
  // A deploy that hangs waits for its pods: the rollout's progress line, again and again.
  fillerLine(_tool, { project }) {
    return `Waiting for deployment "${project}" rollout to finish: 1 of 3 updated replicas are available...`;
  },
  main(tool, ctx, rng) {
    const p = ctx.project;
    switch (tool) {
      case 'deploy': {
        const env = ctx.pipeline.tag
          ? 'production'
          : ctx.pipeline.refKind === 'merge-request'
            ? `review-${ctx.pipeline.branch.replace(/[^a-z0-9]+/g, '-')}`
            : 'staging';
        return {
          cmd: `helm upgrade --install ${p.path} charts/${p.path} -n ${env} --set image.tag=$CI_COMMIT_SHORT_SHA --wait --timeout 5m`,
          out: [
            `Release "${p.path}" has been upgraded. Happy Helming!`,
            `NAME: ${p.path}`,
            `LAST DEPLOYED: ${new Date(ctx.job.startedAt ?? 0).toUTCString()}`,
            `NAMESPACE: ${env}`,
            'STATUS: deployed',
            `REVISION: ${rng.int(20, 400)}`,
          ],
        };
      }
    }
  },
});

/** How Deploy jobs fail, by failure kind. */
export const deployFailures = {
  rollout({ ctx }) {
    const p = ctx.project;
    return {
      early: false,
      exit: 'exit code 1',
      lines: [
        `Waiting for deployment "${p.path}" rollout to finish: 1 of 3 updated replicas are available...`,
        `Waiting for deployment "${p.path}" rollout to finish: 1 of 3 updated replicas are available...`,
        `${p.path}-7d9f8c6b5-x2l4k   0/1     CrashLoopBackOff   4 (31s ago)   2m10s`,
        `Error: UPGRADE FAILED: context deadline exceeded`,
        `error: deployment "${p.path}" exceeded its progress deadline`,
      ],
    };
  },
} satisfies FailureWriters;
