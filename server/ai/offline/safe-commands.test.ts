import { describe, expect, it } from 'vitest';
import {
  remoteChanges,
  reproduceAdvice,
  safeAlternative,
  UNSAFE_COMMANDS,
  unsafeProposals,
} from './safe-commands.ts';

/**
 * The rows of a `command [rule] → alternative` table, one a line (blank lines and `#` comments
 * skipped): one line a case, so a new case is one added line.
 */
function unsafeTable(text: string): [command: string, rule: string, alternative: string][] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const row = /^(.+) \[([a-z-]+)\] → (.+)$/.exec(line);
      if (!row) throw new Error(`not a 'command [rule] → alternative' row: ${line}`);
      return [row[1]!, row[2]!, row[3]!];
    });
}

// Each command that changes remote state, the rule that must catch it and the read-only command
// proposed instead. Alternatives follow each tool's documentation: terraform plan/show
// (https://developer.hashicorp.com/terraform/cli/commands/plan), helm template
// (https://helm.sh/docs/helm/helm_template/), kubectl diff and --dry-run=server
// (https://kubernetes.io/docs/reference/kubectl/generated/kubectl_apply/), npm/cargo --dry-run,
// twine check, Maven's lifecycle (verify is the phase before deploy), Django's migrate --plan,
// Alembic's offline --sql mode, Liquibase's update-sql.
const UNSAFE = unsafeTable(`
terraform apply -input=false plan.cache [terraform-apply] → terraform show plan.cache
terraform apply -auto-approve -input=false [terraform-apply] → terraform plan -input=false
terraform -chdir=infra destroy -auto-approve [terraform-apply] → terraform -chdir=infra plan -destroy
gitlab-terraform apply [terraform-apply] → gitlab-terraform plan
terragrunt run-all apply [terraform-apply] → terragrunt run-all plan
terraform import aws_s3_bucket.b my-bucket [terraform-state] → terraform plan
terraform state rm aws_instance.web [terraform-state] → terraform plan
helm upgrade --install web ./chart -n staging -f values.yaml --wait [helm-upgrade] → helm template web ./chart -n staging -f values.yaml --wait
helm install web ./chart [helm-upgrade] → helm template web ./chart
helm uninstall web -n staging [helm-uninstall] → helm status web
kubectl apply -f k8s/ [kubectl-apply] → kubectl diff -f k8s/
kubectl -n staging apply -k overlays/staging [kubectl-apply] → kubectl -n staging diff -k overlays/staging
kubectl delete pod web-0 -n staging [kubectl-change] → kubectl delete pod web-0 -n staging --dry-run=server
kubectl rollout restart deployment/web [kubectl-change] → kubectl rollout restart deployment/web --dry-run=server
oc scale dc/web --replicas=0 [kubectl-change] → oc scale dc/web --replicas=0 --dry-run=server
docker push registry.example.com/app:1.2 [image-push] → docker image inspect registry.example.com/app:1.2
docker image push $IMAGE [image-push] → docker image inspect $IMAGE
docker compose push [compose-push] → docker compose build
docker buildx build --push -t app . [buildx-push] → docker buildx build --load -t app .
/kaniko/executor --context . --destination $IMAGE [kaniko-push] → /kaniko/executor --context . --destination $IMAGE --no-push
git push origin HEAD:main [git-push] → git push --dry-run origin HEAD:main
npm publish --access public [npm-publish] → npm publish --access public --dry-run
pnpm publish [npm-publish] → pnpm publish --dry-run
yarn publish --new-version 1.2.3 [yarn-publish] → npm pack --dry-run
yarn npm publish [yarn-publish] → npm pack --dry-run
cargo publish --token $TOKEN [cargo-publish] → cargo publish --token $TOKEN --dry-run
twine upload --repository testpypi dist/* [twine-upload] → twine check dist/*
gem push pkg/app-1.0.gem [gem-push] → gem spec pkg/app-1.0.gem
npx semantic-release [semantic-release] → npx semantic-release --dry-run
mvn -B clean deploy -DskipTests [mvn-deploy] → mvn -B clean verify -DskipTests
./mvnw deploy [mvn-deploy] → ./mvnw verify
mvn compile jib:build [mvn-deploy] → mvn compile jib:buildTar
./gradlew publish [gradle-publish] → ./gradlew publishToMavenLocal
gradle :lib:publishAllPublicationsToSonatypeRepository [gradle-publish] → gradle :lib:publishToMavenLocal
./gradlew jib [gradle-publish] → ./gradlew jibDockerBuild
python manage.py migrate [django-migrate] → python manage.py migrate --plan
alembic upgrade head [alembic-upgrade] → alembic upgrade head --sql
flyway -url=$DB_URL migrate [flyway-migrate] → flyway -url=$DB_URL info
liquibase update [liquibase-update] → liquibase update-sql
bundle exec rails db:migrate [rails-migrate] → bundle exec rails db:migrate:status
npx prisma migrate deploy [prisma-migrate] → npx prisma migrate status
npx knex migrate:latest [js-migrate] → npx knex migrate:status
php artisan migrate --force [artisan-migrate] → php artisan migrate:status
goose -dir db postgres $DSN up [go-migrate] → goose status
pulumi up --yes [pulumi-up] → pulumi preview
npx cdk deploy --all [cdk-deploy] → npx cdk diff --all
ansible-playbook -i inventory site.yml [ansible-playbook] → ansible-playbook -i inventory site.yml --check --diff
az deployment group create -g rg -f main.bicep [az-deployment] → az deployment group what-if -g rg -f main.bicep
flyctl deploy [platform-deploy] → flyctl deploy --build-only
npm run deploy:prod [deploy-script] → npm run build
make release [deploy-script] → make -n release
# Inside a wrapper: what matters is what runs in the container.
docker run --rm -v $PWD:/src hashicorp/terraform:1.9 sh -c 'terraform apply -input=false plan.cache' [terraform-apply] → docker run --rm -v $PWD:/src hashicorp/terraform:1.9 sh -c 'terraform show plan.cache'
docker build -t $IMAGE . && docker push $IMAGE [image-push] → docker build -t $IMAGE . && docker image inspect $IMAGE
`);

// Lookalikes that only read, build locally, or already say --dry-run.
const SAFE = [
  'terraform plan -out=plan.cache',
  'terraform validate',
  'terraform init -backend=false',
  'terraform show plan.cache',
  'helm template web ./chart',
  'helm lint ./chart',
  'helm upgrade --install web ./chart --dry-run',
  'kubectl diff -f k8s/',
  'kubectl get pods -n staging',
  'kubectl rollout status deployment/web',
  'kubectl apply --dry-run=server -f k8s/',
  'kubectl create secret generic s --dry-run=client -o yaml',
  'docker build -t app .',
  'docker run --rm app npm test',
  'docker buildx build --load -t app .',
  'git push --dry-run origin main',
  'git pull --rebase',
  'npm publish --dry-run',
  'npm pack',
  'npm run build',
  'npm test',
  'cargo publish --dry-run',
  'cargo build --release',
  'twine check dist/*',
  'mvn -B verify',
  'mvn -Dskip.deploy=true install',
  './gradlew publishToMavenLocal',
  './gradlew build jibDockerBuild',
  'python manage.py migrate --plan',
  'python manage.py test',
  'alembic upgrade head --sql',
  'rails db:migrate:status',
  'pytest tests/test_migrations.py',
  'ansible-playbook site.yml --check',
  'make test',
  'go test ./...',
];

describe('safe commands', () => {
  it.each(UNSAFE)('%s changes remote state (%s) and has a safe alternative', (cmd, name, alt) => {
    expect(remoteChanges(cmd).map((c) => c.rule)).toContain(name);
    expect(safeAlternative(cmd)).toBe(alt);
    // The alternative is itself safe to run.
    expect(remoteChanges(alt)).toEqual([]);
  });

  it.each(SAFE)('%s is safe to run from a laptop', (cmd) => {
    expect(remoteChanges(cmd)).toEqual([]);
  });

  it('covers every rule in the table', () => {
    const tested = new Set(UNSAFE.map(([, name]) => name));
    expect(
      UNSAFE_COMMANDS.map((r) => r.name).filter((n) => !tested.has(n) && n !== 'platform-deploy'),
    ).toEqual([]);
  });

  it('warns instead of proposing a deploy, and never quotes the unsafe command as code', () => {
    const advice = reproduceAdvice('terraform apply -input=false plan.cache');
    expect(advice).toContain('changes the infrastructure Terraform manages');
    expect(advice).toContain("don't run it from a laptop");
    expect(advice).toContain('`terraform show plan.cache`');
    expect(advice).not.toContain('`terraform apply');
    expect(reproduceAdvice('npm test')).toBe(
      'Reproduce it locally with the same image: `npm test`.',
    );
  });

  it('finds proposals in numbered steps and sh fences, not in quoted log lines', () => {
    const answer = [
      '**Failing step:** `terraform apply` in the `step_script` section.',
      '```text',
      '$ helm upgrade --install web ./chart',
      '```',
      '1. Run `kubectl get pods`, then `git push origin main`.',
      '```sh',
      'docker push app:1',
      '```',
    ].join('\n');
    expect(unsafeProposals(answer).map((c) => c.rule)).toEqual(['image-push', 'git-push']);
  });
});
