import { defineFamily } from './family.ts';

/** Helm chart jobs: helm lint and chart-testing. */
export const helmFamily = defineFamily(['helm-lint', 'chart-testing'], {
  setup() {
    return [
      {
        cmd: 'helm dependency build charts/api-gateway',
        out: [
          'Hang tight while we grab the latest from your chart repositories...',
          '...Successfully got an update from the "bitnami" chart repository',
          'Update Complete. ⎈Happy Helming!⎈',
          'Saving 2 charts',
        ],
      },
    ];
  },
  // `helm dependency build` cannot reach a chart repository (Helm's repo index download:
  // "looks like %q is not a valid chart repository or cannot be reached").
  network() {
    return [
      'Error: looks like "https://charts.bitnami.com/bitnami" is not a valid chart repository or cannot be reached: Get "https://charts.bitnami.com/bitnami/index.yaml": dial tcp: lookup charts.bitnami.com on 10.96.0.10:53: no such host',
    ];
  },
  main(tool, ctx, rng) {
    switch (tool) {
      case 'helm-lint':
        return {
          cmd: 'helm lint charts/*',
          out: [
            '==> Linting charts/api-gateway',
            '[INFO] Chart.yaml: icon is recommended',
            '',
            `${rng.int(3, 12)} chart(s) linted, 0 chart(s) failed`,
          ],
        };
      case 'chart-testing':
        return {
          cmd: 'ct install --config ct.yaml',
          out: [
            'Installing chart "api-gateway => (version: \\"2.4.1\\", path: \\"charts/api-gateway\\")"...',
            'Creating namespace "api-gateway-x1k9q"...',
            'NAME: api-gateway-x1k9q',
            'STATUS: deployed',
            'REVISION: 1',
            '✔︎ api-gateway => (version: "2.4.1", path: "charts/api-gateway")',
            'All charts installed successfully',
          ],
        };
    }
  },
  lint(tool, spot) {
    const { line } = spot;
    switch (tool) {
      case 'helm-lint':
        return [
          '==> Linting charts/api-gateway',
          `[ERROR] templates/deployment.yaml: unable to parse YAML: error converting YAML to JSON: yaml: line ${line}: did not find expected key`,
          '',
          'Error: 1 chart(s) linted, 1 chart(s) failed',
        ];
      default:
        return undefined;
    }
  },
});
