import { defineFamily, type FailureWriters } from './family.ts';
import { BOLD, PLAIN, kebab } from './runner-text.ts';

const TOOLS = ['terraform-fmt', 'terraform-validate', 'terraform-plan', 'terraform-apply'] as const;

/** Terraform jobs: fmt, validate, plan, apply. */
export const terraformFamily = defineFamily(TOOLS, {
  setup() {
    return [
      {
        cmd: 'terraform init -input=false -backend-config="address=${TF_ADDRESS}"',
        out: [
          '',
          `${BOLD}Initializing the backend...${PLAIN}`,
          '',
          `${BOLD}Initializing provider plugins...${PLAIN}`,
          '- Finding hashicorp/aws versions matching "~> 5.50"...',
          '- Installing hashicorp/aws v5.57.0...',
          '- Installed hashicorp/aws v5.57.0 (signed by HashiCorp)',
          '',
          `${BOLD}\x1b[32mTerraform has been successfully initialized!${PLAIN}`,
        ],
      },
    ];
  },
  main(tool, ctx, rng) {
    switch (tool) {
      case 'terraform-fmt':
        return { cmd: 'terraform fmt -check -recursive', out: [] };
      case 'terraform-validate':
        return {
          cmd: 'terraform validate',
          out: [`\x1b[32m\x1b[1mSuccess!\x1b[0m The configuration is valid.`],
        };
      case 'terraform-plan': {
        const add = rng.int(0, 6);
        const change = rng.int(0, 4);
        return {
          cmd: 'terraform plan -input=false -out=plan.cache',
          out: [
            `module.vpc.aws_vpc.main: Refreshing state... [id=vpc-0${rng.hex(16)}]`,
            `module.eks.aws_eks_cluster.this: Refreshing state... [id=acme-${ctx.pipeline.tag ? 'prod' : 'staging'}]`,
            '',
            'Terraform used the selected providers to generate the following execution plan.',
            `\x1b[1mPlan:\x1b[0m ${add} to add, ${change} to change, 0 to destroy.`,
            '',
            'Saved the plan to: plan.cache',
          ],
        };
      }
      case 'terraform-apply':
        return {
          cmd: 'terraform apply -input=false plan.cache',
          out: [
            `\x1b[0m\x1b[1m\x1b[32mApply complete! Resources: ${rng.int(0, 6)} added, ${rng.int(0, 4)} changed, 0 destroyed.\x1b[0m`,
          ],
        };
    }
  },
  // An apply that runs out of time was waiting on a resource: Terraform says so every 10 s
  // (hashicorp/terraform internal/command/views/hook_ui.go: "%s: Still %s... [%s%s elapsed]").
  // `terraform init` cannot reach the provider registry: Terraform's own diagnostic
  // (internal/command/init.go, "Failed to query available provider packages").
  network() {
    return [
      '╷',
      '│ Error: Failed to query available provider packages',
      '│ ',
      '│ Could not retrieve the list of available versions for provider hashicorp/aws: could not connect to registry.terraform.io: failed to request discovery document: Get "https://registry.terraform.io/.well-known/terraform.json": dial tcp: lookup registry.terraform.io on 10.96.0.10:53: no such host',
      '╵',
    ];
  },
  fillerLine(tool, { w, i }, rng) {
    if (tool !== 'terraform-apply') return undefined;
    const id = `${kebab(w)}-staging-${rng.int(10, 500)}`;
    const elapsed = (i + 1) * 10;
    const m = Math.floor(elapsed / 60);
    return `aws_db_instance.${w}: Still modifying... [id=${id}, ${m > 0 ? `${m}m` : ''}${elapsed % 60}s elapsed]`;
  },
  lint(tool, spot) {
    const { w } = spot;
    switch (tool) {
      case 'terraform-fmt':
        return [`modules/${kebab(w)}/main.tf`, `modules/${kebab(w)}/variables.tf`];
      case 'terraform-validate':
        // `terraform validate`'s diagnostic, in Terraform's box like every error it prints.
        return [
          '',
          `\x1b[31m╷\x1b[0m\x1b[0m`,
          `\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mReference to undeclared input variable\x1b[0m`,
          '\x1b[31m│\x1b[0m \x1b[0m',
          `\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on modules/${kebab(w)}/main.tf line ${spot.line}, in resource "aws_instance" "web":`,
          `\x1b[31m│\x1b[0m \x1b[0m  ${spot.line}:   instance_type = \x1b[4mvar.instance_typ\x1b[0m`,
          '\x1b[31m│\x1b[0m \x1b[0m',
          '\x1b[31m│\x1b[0m \x1b[0mAn input variable with the name "instance_typ" has not been declared. Did you mean "instance_type"?',
          `\x1b[31m╵\x1b[0m\x1b[0m`,
        ];
      default:
        return undefined;
    }
  },
});

/** How Terraform jobs fail, by failure kind. */
export const terraformFailures = {
  'terraform-error'({ w, line }) {
    return {
      early: false,
      exit: 'exit code 1',
      lines: [
        '',
        `\x1b[31m╷\x1b[0m\x1b[0m`,
        `\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mUnsupported attribute\x1b[0m`,
        '\x1b[31m│\x1b[0m \x1b[0m',
        `\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on modules/${kebab(w)}/main.tf line ${line}, in resource "aws_subnet" "private":`,
        `\x1b[31m│\x1b[0m \x1b[0m  ${line}:   vpc_id     = \x1b[4maws_vpc.main.idd\x1b[0m`,
        '\x1b[31m│\x1b[0m \x1b[0m',
        '\x1b[31m│\x1b[0m \x1b[0mThis object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?',
        '\x1b[31m╵\x1b[0m\x1b[0m',
      ],
    };
  },
} satisfies FailureWriters;
