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
