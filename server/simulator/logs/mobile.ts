import { defineFamily } from './family.ts';
import { jvmDebugLine, mavenCentralReset } from './maven.ts';

/** Mobile app jobs: Gradle (Android) and Xcode (iOS). */
export const mobileFamily = defineFamily(['gradle', 'xcode'], {
  setup(tool, ctx, rng) {
    switch (tool) {
      case 'gradle':
        return [
          {
            cmd: './gradlew --version --no-daemon | head -n 3',
            out: ['', '------------------------------------------------------------', 'Gradle 8.8'],
          },
        ];
      case 'xcode':
        return [
          {
            cmd: 'bundle install --quiet && bundle exec pod install',
            out: [
              'Analyzing dependencies',
              `Downloading dependencies`,
              `Generating Pods project`,
              `Pod installation complete! There are ${rng.int(18, 40)} dependencies from the Podfile and ${rng.int(40, 90)} total pods installed.`,
            ],
          },
        ];
    }
  },
  main(tool, ctx, rng) {
    switch (tool) {
      case 'gradle':
        return {
          cmd: `./gradlew ${ctx.job.stage === 'test' ? 'testDebugUnitTest' : 'assembleRelease'} --no-daemon --stacktrace`,
          out: [
            '> Task :app:preBuild UP-TO-DATE',
            '> Task :app:compileReleaseKotlin',
            '> Task :app:assembleRelease',
            '',
            `\x1b[32;1mBUILD SUCCESSFUL\x1b[0m in ${rng.int(2, 14)}m ${rng.int(0, 59)}s`,
            `${rng.int(60, 300)} actionable tasks: ${rng.int(60, 300)} executed`,
          ],
        };
      case 'xcode':
        return {
          cmd: 'bundle exec fastlane ios build',
          out: [
            '[✔] 🚀 ',
            '+------------------+',
            '|   Lane Context   |',
            '+------------------+',
            `[${new Date(ctx.job.startedAt ?? 0).toISOString().slice(11, 19)}]: Driving the lane 'ios build' 🚀`,
            `▸ Compiling ${rng.int(200, 600)} Swift files`,
            '▸ Archive Succeeded',
            '[✔] fastlane.tools finished successfully 🎉',
          ],
        };
    }
  },
  network(tool, ctx) {
    // Gradle resolves from Maven Central, so a dropped connection reads the same; CocoaPods reads
    // its trunk CDN first (cdn_source.rb: "CDN: trunk URL couldn't be downloaded: … Response: …").
    if (tool === 'gradle') return mavenCentralReset(ctx.project);
    return [
      "[!] CDN: trunk URL couldn't be downloaded: https://cdn.cocoapods.org/CocoaPods-version.yml Response: Couldn't resolve host name",
    ];
  },
  fillerLine(tool, at, rng) {
    return tool === 'gradle' ? jvmDebugLine(at, rng) : undefined;
  },
});
