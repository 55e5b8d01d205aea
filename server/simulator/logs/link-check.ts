import { defineFamily } from './family.ts';

/** Documentation link checking (lychee). */
export const linkCheckFamily = defineFamily(['link-check'], {
  setup() {
    return [];
  },
  main(tool, ctx, rng) {
    switch (tool) {
      case 'link-check':
        return {
          cmd: 'lychee --no-progress docs/',
          out: [`🔍 ${rng.int(300, 900)} Total ✅ ${rng.int(300, 900)} OK 🚫 0 Errors`],
        };
    }
  },
  network(_tool, _ctx, rng) {
    return [
      `✗ [ERR] https://api.acme.example/v2/reference | Network error: error sending request for url (https://api.acme.example/v2/reference): operation timed out`,
      `🔍 ${rng.int(300, 900)} Total ✅ ${rng.int(300, 900)} OK 🚫 1 Error`,
    ];
  },
});
